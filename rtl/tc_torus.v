// A torus of 1 to 4 dimensions of tc_router, joined by links with LinkLat cycles of
// latency each way (flits one way, credits the other). Every node's PE sits behind
// an injection and an ejection channel of InjLat / EjLat cycles (PCIe). Node ids are
// x + SizeX*(y + SizeY*(z + SizeZ*w)); the link in direction d of node n arrives at
// input d^1 of its neighbour. A dimension of size 1 loops a node's links to itself
// (never used by a valid tree); a dimension of size 2 has two links to the neighbour.
`default_nettype none
`include "tc_format.vh"

module tc_torus #(
  parameter integer NumDims = 2,
  parameter integer SizeX = 4,
  parameter integer SizeY = 4,
  parameter integer SizeZ = 1,
  parameter integer SizeW = 1,
  parameter integer LinkLat = 40,
  parameter integer InjLat = 150,
  parameter integer EjLat = 150,
  parameter integer Slots = 16,
  parameter integer InjSlots = 40,
  parameter integer PeCredits = 48,
  parameter integer RedFlits = 2,
  localparam integer N = SizeX * SizeY * SizeZ * SizeW,
  localparam integer NP = 2 * NumDims,
  localparam integer FW = `TC_FLIT_W,
  localparam integer Diameter = SizeX / 2 + SizeY / 2 + SizeZ / 2 + SizeW / 2,
  localparam integer OBSW = (2 * NP + 3) * `TC_OBS_UNIT_W + (NP + 2) * `TC_OBS_OUT_W + `TC_OBS_RED_W +
                            `TC_OBS_PH_W
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // configuration: every router's own port, one tree's row of any nodes a cycle
  input  wire [N-1:0]      cfg_we_i,
  input  wire [3:0]        cfg_tree_i,
  input  wire [N*`TC_ROW_W-1:0] cfg_row_i,
  input  wire [N-1:0]      inj_valid_i,
  input  wire [N*FW-1:0]   inj_flit_i,
  output wire [N-1:0]      inj_cred_o,
  output wire [N-1:0]      ej_valid_o,
  output wire [N*FW-1:0]   ej_flit_o,
  input  wire [N-1:0]      ej_cred_i,
  output wire [N*OBSW-1:0] obs_o
);
  localparam integer LW = FW + 2; // {vc, valid, flit}

  // Elaboration-time functions: nothing runs them in simulation, so they carry no
  // line coverage points (make coverage).
  // verilator coverage_off
  function automatic integer size_of(input integer dim);
    size_of = (dim == 0) ? SizeX : (dim == 1) ? SizeY : (dim == 2) ? SizeZ : SizeW;
  endfunction

  // Node reached from node n in direction d (0 = X+, 1 = X-, ...).
  function automatic integer nbr(input integer n, input integer d);
    integer dim, stride, s, c, k;
    begin
      dim = d / 2;
      stride = 1;
      for (k = 0; k < dim; k = k + 1)
        stride = stride * size_of(k);
      s = size_of(dim);
      c = (n / stride) % s;
      nbr = n - c * stride + (((d % 2) != 0 ? c + s - 1 : c + 1) % s) * stride;
    end
  endfunction
  // verilator coverage_on

  // Router outputs (before the link) and link outputs (after it), by [node][port].
  wire [N*NP-1:0]    out_valid, out_vc;
  wire [N*NP*FW-1:0] out_flit;
  wire [N*NP*2-1:0]  out_cred;
  wire [N*NP*LW-1:0] dl_link;
  wire [N*NP*2-1:0]  dl_cred;

  genvar n, d;
  generate
    for (n = 0; n < N; n = n + 1) begin : g_node
      wire [NP-1:0]    in_valid, in_vc;
      wire [NP*FW-1:0] in_flit;
      wire [2*NP-1:0]  in_cred;
      wire             r_inj_valid, r_ej_valid, r_inj_cred, r_ej_cred;
      wire [FW-1:0]    r_inj_flit, r_ej_flit;

      for (d = 0; d < NP; d = d + 1) begin : g_port
        localparam integer Src = nbr(n, d) * NP + (d ^ 1);
        tc_delay_line #(.Width(LW), .Latency(LinkLat)) u_link (
          .clk_i  (clk_i),
          .rst_ni (rst_ni),
          .in_i   ({out_vc[n*NP+d], out_valid[n*NP+d], out_flit[(n*NP+d)*FW +: FW]}),
          .out_o  (dl_link[(n*NP+d)*LW +: LW])
        );
        tc_delay_line #(.Width(2), .Latency(LinkLat)) u_cred (
          .clk_i  (clk_i),
          .rst_ni (rst_ni),
          .in_i   (out_cred[(n*NP+d)*2 +: 2]),
          .out_o  (dl_cred[(n*NP+d)*2 +: 2])
        );
        assign in_flit[d*FW +: FW] = dl_link[Src*LW +: FW];
        assign in_valid[d]         = dl_link[Src*LW + FW];
        assign in_vc[d]            = dl_link[Src*LW + FW + 1];
        assign in_cred[2*d +: 2]   = dl_cred[Src*2 +: 2];
      end

      tc_delay_line #(.Width(FW + 1), .Latency(InjLat)) u_inj (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .in_i   ({inj_valid_i[n], inj_flit_i[n*FW +: FW]}),
        .out_o  ({r_inj_valid, r_inj_flit})
      );
      tc_delay_line #(.Width(1), .Latency(InjLat)) u_inj_cred (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .in_i   (r_inj_cred),
        .out_o  (inj_cred_o[n])
      );
      tc_delay_line #(.Width(FW + 1), .Latency(EjLat)) u_ej (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .in_i   ({r_ej_valid, r_ej_flit}),
        .out_o  ({ej_valid_o[n], ej_flit_o[n*FW +: FW]})
      );
      tc_delay_line #(.Width(1), .Latency(EjLat)) u_ej_cred (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .in_i   (ej_cred_i[n]),
        .out_o  (r_ej_cred)
      );

      tc_router #(.NumDims(NumDims), .Slots(Slots), .InjSlots(InjSlots), .PeCredits(PeCredits), .RedFlits(RedFlits),
                  .Diameter(Diameter)) u_router (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .node_id_i    (n[15:0]),
        .cfg_we_i     (cfg_we_i[n]),
        .cfg_tree_i   (cfg_tree_i),
        .cfg_row_i    (cfg_row_i[n*`TC_ROW_W +: `TC_ROW_W]),
        .link_valid_i (in_valid),
        .link_vc_i    (in_vc),
        .link_flit_i  (in_flit),
        .link_cred_o  (out_cred[n*NP*2 +: 2*NP]),
        .link_valid_o (out_valid[n*NP +: NP]),
        .link_vc_o    (out_vc[n*NP +: NP]),
        .link_flit_o  (out_flit[n*NP*FW +: NP*FW]),
        .link_cred_i  (in_cred),
        .inj_valid_i  (r_inj_valid),
        .inj_flit_i   (r_inj_flit),
        .inj_cred_o   (r_inj_cred),
        .ej_valid_o   (r_ej_valid),
        .ej_flit_o    (r_ej_flit),
        .ej_cred_i    (r_ej_cred)
      );
      // The router has no observation port: this simulation top reads the record
      // inside it (Yosys, which never builds the torus, skips the reference).
`ifndef SYNTHESIS
      assign obs_o[n*OBSW +: OBSW] = u_router.obs;
`else
      assign obs_o[n*OBSW +: OBSW] = {OBSW{1'b0}};
`endif

`ifdef TC_ASSERT
      // Lemma 1 of seed 000: the barrier phases completed by neighbours differ by at
      // most 1 (P_TOTAL of the observation records, modulo 2^16).
      for (d = 0; d < NP; d = d + 2) begin : g_lemma1
        localparam integer Nb = nbr(n, d);
        localparam integer At = OBSW - `TC_OBS_PH_W + `TC_OBS_P_TOTAL_LSB;
        wire [15:0] diff = obs_o[n*OBSW + At +: 16] - obs_o[Nb*OBSW + At +: 16];
        always @(posedge clk_i)
          if (diff != 16'd0 && diff != 16'd1 && diff != 16'hffff)
            $error("tc_torus: lemma 1 broken: node %0d and its neighbour %0d are %0d phases apart", n, Nb,
                   $signed(diff));
      end
`endif
    end
  endgenerate
endmodule
