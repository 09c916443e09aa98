// One lane of the Reducer ALU (tc_alu_lane in cmodel/alu.c terms: the switch over
// ops): sum with signed-overflow flag, signed/unsigned min and max, bitwise ops.
// Also the comparisons MINLOC/MAXLOC need, made once here.
`default_nettype none
`include "tc_format.vh"

module tc_alu_lane #(
  parameter integer W = 32
) (
  input  wire [W-1:0] x_i,
  input  wire [W-1:0] z_i,
  input  wire [3:0]   op_i,
  output reg  [W-1:0] r_o,
  output wire         ovf_o,   // signed overflow of x + z
  output wire         lt_s_o,  // x < z, signed
  output wire         gt_s_o   // x > z, signed
);
  wire [W-1:0] sum  = x_i + z_i;
  wire         lt_u = x_i < z_i;
  // signed compare: flip the sign bits, compare unsigned
  wire [W-1:0] xs   = {~x_i[W-1], x_i[W-2:0]};
  wire [W-1:0] zs   = {~z_i[W-1], z_i[W-2:0]};
  assign lt_s_o = xs < zs;
  assign gt_s_o = zs < xs;
  assign ovf_o  = op_i == `TC_OP_SUM && x_i[W-1] == z_i[W-1] && sum[W-1] != x_i[W-1];

  always @* begin
    case (op_i)
      `TC_OP_SUM:  r_o = sum;
      `TC_OP_MIN:  r_o = gt_s_o ? z_i : x_i;
      `TC_OP_MAX:  r_o = lt_s_o ? z_i : x_i;
      `TC_OP_MINU: r_o = (z_i < x_i) ? z_i : x_i;
      `TC_OP_MAXU: r_o = lt_u ? z_i : x_i;
      `TC_OP_AND:  r_o = x_i & z_i;
      `TC_OP_OR:   r_o = x_i | z_i;
      `TC_OP_XOR:  r_o = x_i ^ z_i;
      default:     r_o = {W{1'b0}};
    endcase
  end
endmodule
