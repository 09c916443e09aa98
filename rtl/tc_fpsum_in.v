// Conversion in of the bit-reproducible floating-point sum (docs/fpsum.md): one IEEE
// value to its binned element, bit-exact with tc_fpsum_in() in cmodel/fpsum.c. The
// lane is TC_LANE_32 (binary32 in bits 31..0, bits 63..32 ignored) or binary64 for any
// other code, as in C. Combinational: the significand shifted by its exponent's low
// 6 bits, an OR over its top half, a negation per bin.
// A finite nonzero x is M = m 2^t units of the smallest subnormal (m the significand
// with its hidden bit, t = the biased exponent - 1, 0 for a subnormal). Absolute bin
// t / 64 and the next hold all of m 2^(t mod 64); IDX is the higher of the two if m
// reaches into it. Then BIN2 holds the slice of bin IDX, BIN1 that of IDX - 1, BIN0
// (bin IDX - 2) none: a value spans at most two bins. Each is negated for x < 0.
// The bins are placed top bin first (format.def): BIN2 at TC_FPS_BIN_LSB, then BIN1,
// then BIN0.
`default_nettype none
`include "tc_format.vh"

module tc_fpsum_in (
  input  wire [`TC_HDR_LANE_W-1:0] lane_i,
  input  wire [63:0]               bits_i,
  output wire [`TC_FPS_W-1:0]      e_o
);
  localparam integer BinW = `TC_FPS_BIN_W;
  localparam integer SW = `TC_FPS_SLICE_W;

  wire        l32   = lane_i == `TC_LANE_32;
  wire        neg   = l32 ? bits_i[31] : bits_i[63];
  wire [10:0] ex    = l32 ? {3'd0, bits_i[30:23]} : bits_i[62:52];
  wire [51:0] fr    = l32 ? {29'd0, bits_i[22:0]} : bits_i[51:0];
  wire        ex_hi = l32 ? &bits_i[30:23] : &bits_i[62:52]; // NaN or Inf
  wire        ex_lo = ex == 11'd0;                           // zero or subnormal
  wire        fr_nz = fr != 52'd0;
  wire        fin   = !ex_hi && !(ex_lo && !fr_nz);          // finite nonzero

  // m 2^(t mod 64): the value's bits in absolute bins t / 64 (w[63:0]) and t / 64 + 1
  wire [52:0]      m  = l32 ? {29'd0, !ex_lo, bits_i[22:0]} : {!ex_lo, bits_i[51:0]};
  wire [10:0]      t  = ex_lo ? 11'd0 : ex - 11'd1;
  wire [SW+52-1:0] w  = {{(SW-1){1'b0}}, m} << t[5:0];
  wire             up = w[SW+52-1:SW] != 52'd0; // m reaches into bin t / 64 + 1: that is IDX
  wire [`TC_FPS_IDX_W-1:0] idx = {1'b0, t[10:6]} + {5'd0, up};
  wire [SW-1:0]    s2 = up ? {12'd0, w[SW+52-1:SW]} : w[SW-1:0]; // slice of bin IDX
  wire [SW-1:0]    s1 = up ? w[SW-1:0] : {SW{1'b0}};             // of bin IDX - 1
  wire [BinW-1:0]  b2 = {{(BinW-SW){1'b0}}, s2};
  wire [BinW-1:0]  b1 = {{(BinW-SW){1'b0}}, s1};

  reg [`TC_FPS_FLAGS_W-1:0] flags;
  always @* begin
    flags = {`TC_FPS_FLAGS_W{1'b0}};
    if (ex_hi)
      flags = fr_nz ? `TC_FPS_NAN : neg ? `TC_FPS_NINF : `TC_FPS_PINF;
    else if (!fin && neg)
      flags = `TC_FPS_NEGZ;
  end

  assign e_o[`TC_FPS_IDX_LSB +: `TC_FPS_IDX_W]     = fin ? idx : {`TC_FPS_IDX_W{1'b0}};
  assign e_o[`TC_FPS_FLAGS_LSB +: `TC_FPS_FLAGS_W] = flags;
  assign e_o[`TC_FPS_BIN_LSB +: BinW]              = !fin ? {BinW{1'b0}} : neg ? -b2 : b2; // BIN2
  assign e_o[`TC_FPS_BIN_LSB + BinW +: BinW]       = !fin ? {BinW{1'b0}} : neg ? -b1 : b1; // BIN1
  assign e_o[`TC_FPS_BIN_LSB + 2*BinW +: BinW]     = {BinW{1'b0}};                         // BIN0
  assign e_o[`TC_FPS_W-1:`TC_FPS_SPARE_LSB]        = {(`TC_FPS_W-`TC_FPS_SPARE_LSB){1'b0}};
endmodule
