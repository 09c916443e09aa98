// The floating-point sum's three blocks side by side, for the Verilated check
// tb/fpsum_check.c (build/fpsum_check): one model, each block on its own ports.
`default_nettype none
`include "tc_format.vh"

module tc_fpsum_blocks (
  input  wire                      clk_i,     // tc_fpsum_out's pipeline
  input  wire [`TC_HDR_LANE_W-1:0] lane_i,
  input  wire [63:0]               in_bits_i, // tc_fpsum_in
  output wire [`TC_FPS_W-1:0]      in_e_o,
  input  wire [`TC_FPS_W-1:0]      a_i,       // tc_fpsum_merge
  input  wire [`TC_FPS_W-1:0]      b_i,
  output wire [`TC_FPS_W-1:0]      y_o,
  output wire                      overflow_o,
  input  wire [`TC_FPS_W-1:0]      out_e_i,   // tc_fpsum_out
  output wire [63:0]               out_bits_o
);
  tc_fpsum_in    u_in    (.lane_i(lane_i), .bits_i(in_bits_i), .e_o(in_e_o));
  tc_fpsum_merge u_merge (.a_i(a_i), .b_i(b_i), .y_o(y_o), .overflow_o(overflow_o));
  tc_fpsum_out   u_out   (.clk_i(clk_i), .lane_i(lane_i), .e_i(out_e_i), .bits_o(out_bits_o));
endmodule
