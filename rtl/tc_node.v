// One node of the simulated torus: the router, the delay lines of its outgoing links
// (LinkLat - 1 cycles of their LinkLat, flits one way and credits the other) and of
// its PE's injection and ejection channels (InjLat / EjLat cycles, PCIe). tc_torus
// joins the nodes.
// A node is the unit the co-simulations Verilate once and run at every node (the
// C++ shim joins them as tc_torus does: tb/dut_nodes.cpp); the router sits inside
// its observation monitor there (TC_ROUTER=tc_router_mon, tb/tc_router_mon.sv).
`default_nettype none
`include "tc_format.vh"
`include "tc_params.vh"
`ifndef TC_ROUTER
`define TC_ROUTER tc_router
`endif

module tc_node #(
  parameter integer NumDims = 2,
  parameter integer LinkLat = `TC_DEFAULT_LINK_LAT,
  parameter integer InjLat = `TC_DEFAULT_INJ_LAT,
  parameter integer EjLat = `TC_DEFAULT_EJ_LAT,
  parameter integer Slots = `TC_DEFAULT_SLOTS,
  parameter integer InjSlots = `TC_DEFAULT_INJ_SLOTS,
  parameter integer PeCredits = `TC_DEFAULT_PE_CREDITS,
  parameter integer RedFlits = `TC_DEFAULT_RED_FLITS,
  parameter integer RedRids = `TC_DEFAULT_RED_RIDS,
  parameter integer RedSlices = `TC_DEFAULT_RED_SLICES,
  localparam integer NP = 2 * NumDims,
  localparam integer FW = `TC_FLIT_W
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire [15:0]       node_id_i,
  input  wire [15:0]       diam_i,       // the torus's diameter (the router's barrier default)
  input  wire              cfg_we_i,
  input  wire [3:0]        cfg_tree_i,
  input  wire [`TC_ROW_W-1:0] cfg_row_i,
  // links: in from the neighbours, out through this node's delay lines
  input  wire [NP-1:0]     link_valid_i,
  input  wire [NP-1:0]     link_vc_i,
  input  wire [NP*FW-1:0]  link_flit_i,
  output wire [2*NP-1:0]   link_cred_o,
  output wire [NP-1:0]     link_valid_o,
  output wire [NP-1:0]     link_vc_o,
  output wire [NP*FW-1:0]  link_flit_o,
  input  wire [2*NP-1:0]   link_cred_i,
  // PE, on its side of the PCIe delay lines
  input  wire              inj_valid_i,
  input  wire [FW-1:0]     inj_flit_i,
  output wire              inj_cred_o,
  output wire              ej_valid_o,
  output wire [FW-1:0]     ej_flit_o,
  input  wire              ej_cred_i
);
  localparam integer LW = FW + 2; // {vc, valid, flit}

  wire [NP-1:0]    r_valid, r_vc;
  wire [NP*FW-1:0] r_flit;
  wire [2*NP-1:0]  r_cred;
  wire             r_inj_valid, r_ej_valid, r_inj_cred, r_ej_cred;
  wire [FW-1:0]    r_inj_flit, r_ej_flit;

  // Every link but its last cycle: tc_torus puts a register between nodes, so a
  // node's outputs never depend on its inputs within a cycle, as the co-simulations
  // need (each node a model of its own there, tb/dut_nodes.cpp).
  genvar d;
  generate
    for (d = 0; d < NP; d = d + 1) begin : g_port
      if (LinkLat > 1) begin : g_delay
        tc_delay_line #(.Width(LW), .Latency(LinkLat - 1)) u_link (
          .clk_i  (clk_i),
          .rst_ni (rst_ni),
          .in_i   ({r_vc[d], r_valid[d], r_flit[d*FW +: FW]}),
          .out_o  ({link_vc_o[d], link_valid_o[d], link_flit_o[d*FW +: FW]})
        );
        tc_delay_line #(.Width(2), .Latency(LinkLat - 1)) u_cred (
          .clk_i  (clk_i),
          .rst_ni (rst_ni),
          .in_i   (r_cred[2*d +: 2]),
          .out_o  (link_cred_o[2*d +: 2])
        );
      end else begin : g_direct
        assign {link_vc_o[d], link_valid_o[d], link_flit_o[d*FW +: FW]} = {r_vc[d], r_valid[d], r_flit[d*FW +: FW]};
        assign link_cred_o[2*d +: 2] = r_cred[2*d +: 2];
      end
    end
  endgenerate

  tc_delay_line #(.Width(FW + 1), .Latency(InjLat)) u_inj (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .in_i   ({inj_valid_i, inj_flit_i}),
    .out_o  ({r_inj_valid, r_inj_flit})
  );
  tc_delay_line #(.Width(1), .Latency(InjLat)) u_inj_cred (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .in_i   (r_inj_cred),
    .out_o  (inj_cred_o)
  );
  tc_delay_line #(.Width(FW + 1), .Latency(EjLat)) u_ej (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .in_i   ({r_ej_valid, r_ej_flit}),
    .out_o  ({ej_valid_o, ej_flit_o})
  );
  tc_delay_line #(.Width(1), .Latency(EjLat)) u_ej_cred (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .in_i   (ej_cred_i),
    .out_o  (r_ej_cred)
  );

  `TC_ROUTER #(.NumDims(NumDims), .Slots(Slots), .InjSlots(InjSlots), .PeCredits(PeCredits), .RedFlits(RedFlits),
              .RedRids(RedRids), .RedSlices(RedSlices)) u_router (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .node_id_i    (node_id_i),
    .diam_i       (diam_i),
    .cfg_we_i     (cfg_we_i),
    .cfg_tree_i   (cfg_tree_i),
    .cfg_row_i    (cfg_row_i),
    .link_valid_i (link_valid_i),
    .link_vc_i    (link_vc_i),
    .link_flit_i  (link_flit_i),
    .link_cred_o  (r_cred),
    .link_valid_o (r_valid),
    .link_vc_o    (r_vc),
    .link_flit_o  (r_flit),
    .link_cred_i  (link_cred_i),
    .inj_valid_i  (r_inj_valid),
    .inj_flit_i   (r_inj_flit),
    .inj_cred_o   (r_inj_cred),
    .ej_valid_o   (r_ej_valid),
    .ej_flit_o    (r_ej_flit),
    .ej_cred_i    (r_ej_cred)
  );
endmodule
