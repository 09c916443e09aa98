// A torus of 1 to 4 dimensions of tc_router, joined by links with LinkLat cycles of
// latency each way (flits one way, credits the other). Every node's PE sits behind
// an injection and an ejection channel of InjLat / EjLat cycles (PCIe). Node ids are
// x + SizeX*(y + SizeY*(z + SizeZ*w)); the link in direction d of node n arrives at
// input d^1 of its neighbour. A dimension of size 1 loops a node's links to itself
// (never used by a valid tree); a dimension of size 2 has two links to the neighbour.
// A node (tc_node) is a router with the delay lines of its outgoing links and its PE
// channels; the last cycle of every link's delay is a register here, between nodes
// (the co-simulations join Verilated nodes the same way in C++: tb/dut_nodes.cpp).
// Lemma 1 of the barrier (the phases of neighbours differ by at most 1) is
// checked by the testbench on the observation records (tb/cosim.c), which no port
// carries: monitors around the routers hand them over (tb/tc_router_mon.sv).
`default_nettype none
`include "tc_format.vh"
`include "tc_params.vh"

module tc_torus #(
  parameter integer NumDims = 2,
  parameter integer SizeX = 4,
  parameter integer SizeY = 4,
  parameter integer SizeZ = 1,
  parameter integer SizeW = 1,
  parameter integer LinkLat = `TC_DEFAULT_LINK_LAT,
  parameter integer InjLat = `TC_DEFAULT_INJ_LAT,
  parameter integer EjLat = `TC_DEFAULT_EJ_LAT,
  parameter integer Slots = `TC_DEFAULT_SLOTS,
  parameter integer InjSlots = `TC_DEFAULT_INJ_SLOTS,
  parameter integer PeCredits = `TC_DEFAULT_PE_CREDITS,
  parameter integer RedFlits = `TC_DEFAULT_RED_FLITS,
  parameter integer RedRids = `TC_DEFAULT_RED_RIDS,
  parameter integer RedSlices = `TC_DEFAULT_RED_SLICES,
  localparam integer N = SizeX * SizeY * SizeZ * SizeW,
  localparam integer Diameter = SizeX / 2 + SizeY / 2 + SizeZ / 2 + SizeW / 2, // K of a barrier that names none
  localparam integer NP = 2 * NumDims,
  localparam integer FW = `TC_FLIT_W
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
  input  wire [N-1:0]      ej_cred_i
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

  // Links at their far end, one array element per [node * NP + port]: each channel
  // its own variable to Verilator, not a slice of one bus as wide as the torus.
  wire [LW-1:0]     link [N*NP];
  wire [1:0]        cred [N*NP];

  genvar n, d;
  generate
    for (n = 0; n < N; n = n + 1) begin : g_node
      wire [NP-1:0]    in_valid, in_vc, out_valid, out_vc;
      wire [NP*FW-1:0] in_flit, out_flit;
      wire [2*NP-1:0]  in_cred, out_cred;

      for (d = 0; d < NP; d = d + 1) begin : g_port
        localparam integer Src = nbr(n, d) * NP + (d ^ 1);
        // the last cycle of the link's delay (the node has the others)
        tc_delay_line #(.Width(LW), .Latency(1)) u_link (
          .clk_i  (clk_i),
          .rst_ni (rst_ni),
          .in_i   ({out_vc[d], out_valid[d], out_flit[d*FW +: FW]}),
          .out_o  (link[n*NP+d])
        );
        tc_delay_line #(.Width(2), .Latency(1)) u_cred (
          .clk_i  (clk_i),
          .rst_ni (rst_ni),
          .in_i   (out_cred[2*d +: 2]),
          .out_o  (cred[n*NP+d])
        );
        assign {in_vc[d], in_valid[d], in_flit[d*FW +: FW]} = link[Src];
        assign in_cred[2*d +: 2] = cred[Src];
      end

      tc_node #(.NumDims(NumDims), .LinkLat(LinkLat), .InjLat(InjLat), .EjLat(EjLat), .Slots(Slots), .InjSlots(InjSlots), .PeCredits(PeCredits),
                .RedFlits(RedFlits), .RedRids(RedRids), .RedSlices(RedSlices)) u_node (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .node_id_i    (n[15:0]),
        .diam_i       (Diameter[15:0]),
        .cfg_we_i     (cfg_we_i[n]),
        .cfg_tree_i   (cfg_tree_i),
        .cfg_row_i    (cfg_row_i[n*`TC_ROW_W +: `TC_ROW_W]),
        .link_valid_i (in_valid),
        .link_vc_i    (in_vc),
        .link_flit_i  (in_flit),
        .link_cred_o  (out_cred),
        .link_valid_o (out_valid),
        .link_vc_o    (out_vc),
        .link_flit_o  (out_flit),
        .link_cred_i  (in_cred),
        .inj_valid_i  (inj_valid_i[n]),
        .inj_flit_i   (inj_flit_i[n*FW +: FW]),
        .inj_cred_o   (inj_cred_o[n]),
        .ej_valid_o   (ej_valid_o[n]),
        .ej_flit_o    (ej_flit_o[n*FW +: FW]),
        .ej_cred_i    (ej_cred_i[n])
      );
    end
  endgenerate
endmodule
