// The router with its observation monitor, for Verilator builds only (tc_node
// instantiates it when TC_ROUTER names it; Icarus and Yosys never see it). At each
// rising clock edge it hands the router's observation record, an internal wire no
// port carries, to the C++ shim through DPI, so the record is that of the cycle the
// edge ends. Reading the record here rather than from tc_torus lets each node be
// Verilated once as a model of its own (tb/dut_nodes.cpp joins one per node), which
// has no other way out. Ports and parameters are tc_router's.
`default_nettype none
`include "tc_format.vh"
`include "tc_router_ports.vh"
`include "tc_params.vh"

module tc_router_mon #(
  parameter integer NumDims = 2,
  parameter integer Slots = `TC_DEFAULT_SLOTS,
  parameter integer InjSlots = `TC_DEFAULT_INJ_SLOTS,
  parameter integer PeCredits = `TC_DEFAULT_PE_CREDITS,
  parameter integer RedFlits = `TC_DEFAULT_RED_FLITS,
  parameter integer RedRids = `TC_DEFAULT_RED_RIDS,
  parameter integer RedSlices = `TC_DEFAULT_RED_SLICES,
  localparam integer NP = 2 * NumDims,
  localparam integer FW = `TC_FLIT_W
) (
  `TC_ROUTER_PORTS
);
  tc_router #(.NumDims(NumDims), .Slots(Slots), .InjSlots(InjSlots), .PeCredits(PeCredits), .RedFlits(RedFlits),
              .RedRids(RedRids), .RedSlices(RedSlices)) u_core (.*);

  // Header fields of the packets on the router's ports and of the VC units' head
  // packets, as wires for the waveforms only (make wave, docs/waves.md): the positions
  // come from tc_format.vh (cmodel/format.def). Nothing reads them; the co-simulation
  // builds drop them. On a port, PFXhdr marks a header flit and the fields are those of
  // the packet's header over all its flits (PFXpkt: the header, held through the data
  // flits), so that data is never decoded as a header. A port streams one packet at a
  // time (an output is granted for a whole packet).
`define TC_MON_FIELDS(pfx, flit) \
  wire [`TC_HDR_TYPE_W-1:0] pfx``type = flit[`TC_HDR_TYPE_LSB +: `TC_HDR_TYPE_W]; \
  wire [`TC_HDR_TREE_W-1:0] pfx``tree = flit[`TC_HDR_TREE_LSB +: `TC_HDR_TREE_W]; \
  wire [`TC_HDR_RID_W-1:0]  pfx``rid  = flit[`TC_HDR_RID_LSB +: `TC_HDR_RID_W]; \
  wire [`TC_HDR_OP_W-1:0]   pfx``op   = flit[`TC_HDR_OP_LSB +: `TC_HDR_OP_W]; \
  wire [`TC_HDR_SRC_W-1:0]  pfx``src  = flit[`TC_HDR_SRC_LSB +: `TC_HDR_SRC_W]; \
  wire [`TC_HDR_TAG_W-1:0]  pfx``tag  = flit[`TC_HDR_TAG_LSB +: `TC_HDR_TAG_W];
`define TC_MON_PORT(pfx, valid, flit) \
  reg  [`TC_HDR_LEN_W-1:0] pfx``rem_q; /* data flits of the packet still to come */ \
  reg  [FW-1:0]            pfx``hdr_q; \
  wire                     pfx``hdr = valid && pfx``rem_q == '0; \
  wire [FW-1:0]            pfx``pkt = pfx``hdr ? flit : pfx``hdr_q; \
  always @(posedge clk_i or negedge rst_ni) \
    if (!rst_ni) begin \
      pfx``rem_q <= '0; \
      pfx``hdr_q <= '0; \
    end else if (valid) begin \
      pfx``rem_q <= pfx``hdr ? flit[`TC_HDR_LEN_LSB +: `TC_HDR_LEN_W] : pfx``rem_q - 1'b1; \
      if (pfx``hdr) pfx``hdr_q <= flit; \
    end \
  `TC_MON_FIELDS(pfx, pfx``pkt)
  `TC_MON_PORT(inj_, inj_valid_i, inj_flit_i)
  `TC_MON_PORT(ej_, ej_valid_o, ej_flit_o)
  for (genvar p = 0; p < NP; p++) begin : g_out
    wire [FW-1:0] flit = link_flit_o[p*FW +: FW];
    wire          valid = link_valid_o[p];
    `TC_MON_PORT(link_, valid, flit)
  end
  // The head packet of each VC unit (its read-ahead header register; valid with hv_q[0])
  for (genvar u = 0; u < 2 * NP + 2 + RedSlices; u++) begin : g_head
    wire [FW-1:0] flit = u_core.g_unit[u].u_unit.hdr0_q;
    `TC_MON_FIELDS(head_, flit)
  end
`undef TC_MON_PORT
`undef TC_MON_FIELDS

  // The run's cycle, as the co-simulation counts it: from the rising edge of run cycle
  // 0, after reset and the 16 cycles that write the routing table (negative before).
  reg [31:0] cycle_q;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) cycle_q <= -32'sd17;
    else         cycle_q <= cycle_q + 1'b1;

  // The Reducer's floating-point sum (FSUM), for the waveforms, in each slice
  // (g_fsum[k]: slice k's, the trees t with t mod RedSlices = k): in the cycle of an
  // element's flit 1, the stored partial result, the contribution and the step's result
  // as whole elements (their flits 0 from the cycle before), and each one's value as a
  // PE would round it (tc_fpsum_out), as binary64 bits that the view shows as reals
  // (a binary32 lane widened exactly). fsum_on marks the cycles they are valid; fsum_in
  // is a PE's value as the slice converts it in, fsum_cv a result's as the root converts it out.
  function automatic [63:0] f64_of(input [1:0] lane, input [63:0] b);
    reg [22:0] m;
    integer p, k;
    if (lane != `TC_LANE_32) return b;
    m = b[22:0];
    if (b[30:23] == 8'hff) return {b[31], 11'h7ff, m, 29'd0};
    if (b[30:23] != 8'd0) return {b[31], {3'd0, b[30:23]} + 11'd896, m, 29'd0};
    if (m == 23'd0) return {b[31], 63'd0};
    p = 0; // a subnormal m 2^-149: its top bit p gives 1.f 2^(p-149)
    for (k = 0; k < 23; k++) if (m[k]) p = k;
    return {b[31], 11'(p + 874), 52'({29'd0, m} << (52 - p))};
  endfunction
  for (genvar k = 0; k < RedSlices; k++) begin : g_fsum
    wire               fsum_on = u_core.g_slice[k].u_reducer.in_valid && u_core.g_slice[k].u_reducer.idx_q != 3'd0 &&
                                 !u_core.g_slice[k].u_reducer.idx_q[0] && u_core.g_slice[k].u_reducer.op_q == `TC_OP_FSUM &&
                                 !u_core.g_slice[k].u_reducer.first_q;
    reg  [FW-1:0]      fsum_y0_q; // the result's flit 0
    always @(posedge clk_i) fsum_y0_q <= u_core.g_slice[k].u_reducer.red_flit;
    wire [`TC_FPS_W-1:0] fsum_a_e = {u_core.g_slice[k].u_reducer.stored, u_core.g_slice[k].u_reducer.a0_q};
    wire [`TC_FPS_W-1:0] fsum_b_e = {u_core.g_slice[k].u_reducer.in_flit, u_core.g_slice[k].u_reducer.b0_q};
    wire [`TC_FPS_W-1:0] fsum_y_e = {u_core.g_slice[k].u_reducer.red_flit, fsum_y0_q};
    wire [63:0] fsum_a_bits, fsum_b_bits, fsum_y_bits;
    tc_fpsum_out #(.Pipe(0)) u_fsum_a (.clk_i(clk_i), .lane_i(u_core.g_slice[k].u_reducer.lane_q), .e_i(fsum_a_e), .bits_o(fsum_a_bits));
    tc_fpsum_out #(.Pipe(0)) u_fsum_b (.clk_i(clk_i), .lane_i(u_core.g_slice[k].u_reducer.lane_q), .e_i(fsum_b_e), .bits_o(fsum_b_bits));
    tc_fpsum_out #(.Pipe(0)) u_fsum_y (.clk_i(clk_i), .lane_i(u_core.g_slice[k].u_reducer.lane_q), .e_i(fsum_y_e), .bits_o(fsum_y_bits));
    wire [63:0] fsum_a = f64_of(u_core.g_slice[k].u_reducer.lane_q, fsum_a_bits);
    wire [63:0] fsum_b = f64_of(u_core.g_slice[k].u_reducer.lane_q, fsum_b_bits);
    wire [63:0] fsum_y = f64_of(u_core.g_slice[k].u_reducer.lane_q, fsum_y_bits);
    // a PE's value entering the conversion in (a contribution of values, VALS)
    wire        fsum_in_on = u_core.g_slice[k].u_reducer.x_conv;
    wire [63:0] fsum_in = f64_of(u_core.g_slice[k].u_reducer.x_l32_q ? `TC_LANE_32 : `TC_LANE_64,
                                 u_core.g_slice[k].u_reducer.x_bits);
    // at a tree's root, the converting copy's value leaving tc_fpsum_out
    wire        fsum_cv_on = u_core.g_slice[k].u_reducer.cv_out;
    wire [63:0] fsum_cv = f64_of(u_core.g_slice[k].u_reducer.cp_l32_q ? `TC_LANE_32 : `TC_LANE_64,
                                 u_core.g_slice[k].u_reducer.cv_bits);
  end

  localparam integer Width = (2 * NP + 2 + RedSlices) * `TC_OBS_UNIT_W + (NP + 1 + RedSlices) * `TC_OBS_OUT_W +
                             RedSlices * `TC_OBS_RED_W + `TC_OBS_PH_W;
  localparam integer MaxW = 2048; // above the 4D router's record with 4 slices (1852 bits)
  import "DPI-C" function void tc_obs_record(input int node, input bit [MaxW-1:0] rec);
  always @(posedge clk_i)
    tc_obs_record({16'd0, node_id_i}, {{(MaxW - Width){1'b0}}, u_core.obs});
endmodule
