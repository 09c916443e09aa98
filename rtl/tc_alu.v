// The Reducer's ALU, bit-exact with tc_alu() and tc_alu_hi() in cmodel/alu.c: y = a op b
// on the 128-bit data flit, four 32-bit or two 64-bit lanes, no carry between lanes.
// MINLOC/MAXLOC take lane pairs (even lane: signed value, odd lane: unsigned index)
// and keep a whole pair: the smaller (larger) value, the lower index on a tie.
// FSUM combines binned elements of the floating-point sum (tc_fpsum_merge), two flits
// each, one flit a cycle: the step's flit 0 depends on the operands' flits 0 alone (the
// element's top bin comes first, docs/fpsum.md), so it is y for flit 0 (hi_i = 0) with
// the flits 1 taken as 0; for flit 1 (hi_i) the caller gives both flits 0 again.
// An unknown op or lane width gives 0 and the invalid flag.
`default_nettype none
`include "tc_format.vh"

module tc_alu (
  input  wire [127:0] a_i,
  input  wire [127:0] b_i,
  input  wire [3:0]   op_i,
  input  wire [1:0]   lane_i,
  input  wire         hi_i,  // FSUM: a_i and b_i are an element's flit 1 ...
  input  wire [127:0] a0_i,  // ... whose flits 0 were these
  input  wire [127:0] b0_i,
  output reg  [127:0] y_o,
  output wire         invalid_o,
  output wire         overflow_o
);
  wire [127:0] y32, y64, loc32, loc64;
  wire [3:0]   ovf32, lt32, gt32;
  wire [1:0]   ovf64, lt64, gt64;
  wire         is_loc = op_i == `TC_OP_MINLOC || op_i == `TC_OP_MAXLOC;

  genvar k;
  generate
    for (k = 0; k < 4; k = k + 1) begin : g_l32
      tc_alu_lane #(.W(32)) u_lane (
        .x_i (a_i[32*k +: 32]), .z_i (b_i[32*k +: 32]), .op_i (op_i),
        .r_o (y32[32*k +: 32]), .ovf_o (ovf32[k]), .lt_s_o (lt32[k]), .gt_s_o (gt32[k]));
    end
    for (k = 0; k < 2; k = k + 1) begin : g_l64
      tc_alu_lane #(.W(64)) u_lane (
        .x_i (a_i[64*k +: 64]), .z_i (b_i[64*k +: 64]), .op_i (op_i),
        .r_o (y64[64*k +: 64]), .ovf_o (ovf64[k]), .lt_s_o (lt64[k]), .gt_s_o (gt64[k]));
    end
    // 32-bit pairs: lanes (0,1) and (2,3)
    for (k = 0; k < 2; k = k + 1) begin : g_p32
      wire tie    = a_i[64*k +: 32] == b_i[64*k +: 32];
      wire lower  = b_i[64*k + 32 +: 32] < a_i[64*k + 32 +: 32];
      wire take_b = tie ? lower : (op_i == `TC_OP_MINLOC ? gt32[2*k] : lt32[2*k]);
      assign loc32[64*k +: 64] = take_b ? b_i[64*k +: 64] : a_i[64*k +: 64];
    end
  endgenerate
  // 64-bit pair: lanes (0,1)
  wire tie64    = a_i[63:0] == b_i[63:0];
  wire lower64  = b_i[127:64] < a_i[127:64];
  wire take64   = tie64 ? lower64 : (op_i == `TC_OP_MINLOC ? gt64[0] : lt64[0]);
  assign loc64  = take64 ? b_i : a_i;
  wire unused_lanes = lt64[1] | gt64[1] | lt32[1] | gt32[1] | lt32[3] | gt32[3];

  // one step on the whole element: flit 0's inputs, or both flits for flit 1
  wire [255:0] fs_y;
  wire         fs_ovf;
  tc_fpsum_merge u_fsum (
    .a_i        (hi_i ? {a_i, a0_i} : {128'd0, a_i}),
    .b_i        (hi_i ? {b_i, b0_i} : {128'd0, b_i}),
    .y_o        (fs_y),
    .overflow_o (fs_ovf)
  );
  wire is_fsum = op_i == `TC_OP_FSUM;

  assign invalid_o  = op_i >= `TC_OPS || lane_i > `TC_LANE_64;
  assign overflow_o = !invalid_o && (is_fsum ? hi_i && fs_ovf : lane_i == `TC_LANE_32 ? |ovf32 : |ovf64);

  always @* begin
    if (invalid_o)
      y_o = 128'd0;
    else if (is_fsum)
      y_o = hi_i ? fs_y[255:128] : fs_y[127:0];
    else if (lane_i == `TC_LANE_32)
      y_o = is_loc ? loc32 : y32;
    else
      y_o = is_loc ? loc64 : y64;
  end
endmodule
