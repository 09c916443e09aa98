// The Reducer's step of the bit-reproducible floating-point sum (docs/fpsum.md):
// y = a + b on binned elements, bit-exact with tc_fpsum_merge() in cmodel/fpsum.c.
// The operand with the larger index (A; a on equal indices) keeps its window; the
// other's (B's) bins move down in value by d = A.IDX - B.IDX whole bins, and those
// that fall below the window are dropped; the rest add bin by bin in two's complement,
// wrapping. NAN, PINF, NINF are ORed, NEGZ ANDed. Combinational: a compare of the
// indices, a swap, a Bins-way shift, Bins adders.
// The bins sit top bin first (format.def): BINr, absolute bin IDX-2+r, at bin
// position Bins-1-r above FLAGS. A bin d bins lower in value sits d bins higher in the
// word, so B's bins move up in the word, A's stay, carries go up, and the swap and d
// come from IDX, the lowest field: every output bit from bit IdxW up depends only on
// input bits at its own position or below (tc_fpsum_merge_causal below proves it).
// Flit 0 of y is then a function of a's and b's flits 0 alone.
// overflow_o: some bin's sum wrapped (never with 2^16 inputs or fewer). It is the C
// function's TC_ALU_OVERFLOW, for assertions: unlike y_o it depends on the grouping
// of a sum (which step wraps), so it must not decide anything a PE sees.
// The parameters narrow the fields so that sim/formal.sh can prove the step's laws on
// a small element; the defaults are format.def's element.
`default_nettype none
`include "tc_format.vh"

module tc_fpsum_merge #(
  parameter integer SliceW = `TC_FPS_SLICE_W,
  parameter integer HeadW  = `TC_FPS_BIN_W - `TC_FPS_SLICE_W, // a bin's headroom
  parameter integer IdxW   = `TC_FPS_IDX_W,
  parameter integer Bins   = `TC_FPS_BINS,
  // format.def's layout with these widths: IDX, FLAGS, the bins (the top bin first),
  // the spare bits
  localparam integer BinW     = SliceW + HeadW,
  localparam integer FlagsLsb = `TC_FPS_FLAGS_LSB - `TC_FPS_IDX_W + IdxW,
  localparam integer BinLsb   = FlagsLsb + `TC_FPS_FLAGS_W,
  localparam integer UsedW    = BinLsb + Bins * BinW,
  localparam integer ElemW    = UsedW + `TC_FPS_W - `TC_FPS_SPARE_LSB // 256 by default
) (
  input  wire [ElemW-1:0] a_i,
  input  wire [ElemW-1:0] b_i,
  output wire [ElemW-1:0] y_o,
  output wire             overflow_o
);
  localparam integer FlagsW = `TC_FPS_FLAGS_W;
  localparam [FlagsW-1:0] Negz = `TC_FPS_NEGZ;

  wire [IdxW-1:0]      a_idx  = a_i[`TC_FPS_IDX_LSB +: IdxW];
  wire [IdxW-1:0]      b_idx  = b_i[`TC_FPS_IDX_LSB +: IdxW];
  wire [Bins*BinW-1:0] a_bins = a_i[BinLsb +: Bins*BinW];
  wire [Bins*BinW-1:0] b_bins = b_i[BinLsb +: Bins*BinW];
  wire                 swap   = b_idx > a_idx;
  wire [Bins*BinW-1:0] hi     = swap ? b_bins : a_bins; // A's bins
  wire [Bins*BinW-1:0] lo     = swap ? a_bins : b_bins; // B's
  wire [IdxW-1:0]      d      = swap ? b_idx - a_idx : a_idx - b_idx;
  wire [FlagsW-1:0]    a_fl   = a_i[FlagsLsb +: FlagsW];
  wire [FlagsW-1:0]    b_fl   = b_i[FlagsLsb +: FlagsW];
  wire [Bins-1:0]      ovf;

  // y's bin r = A's bin r + B's bin r + d (absolute bin IDX-2+r in both); B's bins
  // below d are dropped, and where r + d >= Bins nothing is added. Bin r sits At bits
  // into the bins, the top bin (r = Bins-1) at 0; B's bin r + d sits d bins lower.
  genvar r;
  generate
    for (r = 0; r < Bins; r = r + 1) begin : g_bin
      localparam integer At = (Bins-1-r)*BinW;
      wire [BinW-1:0] x = hi[At +: BinW];
      reg  [BinW-1:0] z; // B's bin r + d, or 0 where that lies above B's window
      integer k;
      always @* begin
        z = {BinW{1'b0}};
        for (k = 0; k < Bins - r; k = k + 1)
          if (d == k[IdxW-1:0]) // k < Bins <= 2^IdxW
            z = lo[At - k*BinW +: BinW];
      end
      wire [BinW-1:0] s = x + z;
      assign y_o[BinLsb + At +: BinW] = s;
      assign ovf[r] = x[BinW-1] == z[BinW-1] && s[BinW-1] != x[BinW-1];
    end
  endgenerate

  assign y_o[`TC_FPS_IDX_LSB +: IdxW] = swap ? b_idx : a_idx;
  assign y_o[FlagsLsb +: FlagsW]      = ((a_fl | b_fl) & ~Negz) | (a_fl & b_fl & Negz);
  assign y_o[ElemW-1:UsedW]           = {(ElemW-UsedW){1'b0}};
  assign overflow_o = |ovf;
  wire unused_spare = ^{a_i[ElemW-1:UsedW], b_i[ElemW-1:UsedW]}; // the spare bits are 0 out, ignored in
endmodule

`ifdef FORMAL_TC_FPSUM_MERGE // defined by sim/formal.sh for this block's proofs
// ---- formal proof (make formal): the step's laws on every element, at the widths
// given (sim/formal.sh: slices of 4 bits, 3 of headroom, a 3-bit index): commutative,
// associative and with -0 (the element of no input) as identity, on all output bits
// but the overflow flag, which is only commutative (docs/fpsum.md). Any bins, any
// flags, any indices: not only the elements conversions make. ----
module tc_fpsum_merge_laws #(
  parameter integer SliceW = `TC_FPS_SLICE_W,
  parameter integer HeadW  = `TC_FPS_BIN_W - `TC_FPS_SLICE_W,
  parameter integer IdxW   = `TC_FPS_IDX_W,
  parameter integer Bins   = `TC_FPS_BINS,
  localparam integer FlagsLsb = `TC_FPS_FLAGS_LSB - `TC_FPS_IDX_W + IdxW,
  localparam integer UsedW    = FlagsLsb + `TC_FPS_FLAGS_W + Bins * (SliceW + HeadW),
  localparam integer ElemW    = UsedW + `TC_FPS_W - `TC_FPS_SPARE_LSB
) (
  input wire [ElemW-1:0] a_i,
  input wire [ElemW-1:0] b_i,
  input wire [ElemW-1:0] c_i
);
  localparam [`TC_FPS_FLAGS_W-1:0] Negz = `TC_FPS_NEGZ;
  localparam [ElemW-1:0] Zero = {{(ElemW-`TC_FPS_FLAGS_W){1'b0}}, Negz} << FlagsLsb; // -0: no input
  wire [ElemW-1:0] ab, ba, ab_c, bc, a_bc, a0, zero_a;
  wire             o_ab, o_ba, o_ab_c, o_bc, o_a_bc, o_a0, o_0a;
  tc_fpsum_merge #(.SliceW(SliceW), .HeadW(HeadW), .IdxW(IdxW), .Bins(Bins)) u_ab   (.a_i(a_i),  .b_i(b_i),  .y_o(ab),     .overflow_o(o_ab));
  tc_fpsum_merge #(.SliceW(SliceW), .HeadW(HeadW), .IdxW(IdxW), .Bins(Bins)) u_ba   (.a_i(b_i),  .b_i(a_i),  .y_o(ba),     .overflow_o(o_ba));
  tc_fpsum_merge #(.SliceW(SliceW), .HeadW(HeadW), .IdxW(IdxW), .Bins(Bins)) u_ab_c (.a_i(ab),   .b_i(c_i),  .y_o(ab_c),   .overflow_o(o_ab_c));
  tc_fpsum_merge #(.SliceW(SliceW), .HeadW(HeadW), .IdxW(IdxW), .Bins(Bins)) u_bc   (.a_i(b_i),  .b_i(c_i),  .y_o(bc),     .overflow_o(o_bc));
  tc_fpsum_merge #(.SliceW(SliceW), .HeadW(HeadW), .IdxW(IdxW), .Bins(Bins)) u_a_bc (.a_i(a_i),  .b_i(bc),   .y_o(a_bc),   .overflow_o(o_a_bc));
  tc_fpsum_merge #(.SliceW(SliceW), .HeadW(HeadW), .IdxW(IdxW), .Bins(Bins)) u_a0   (.a_i(a_i),  .b_i(Zero), .y_o(a0),     .overflow_o(o_a0));
  tc_fpsum_merge #(.SliceW(SliceW), .HeadW(HeadW), .IdxW(IdxW), .Bins(Bins)) u_0a   (.a_i(Zero), .b_i(a_i),  .y_o(zero_a), .overflow_o(o_0a));
  wire unused_ovf = o_ab_c ^ o_bc ^ o_a_bc;
  wire a_clean = a_i[ElemW-1:UsedW] == {(ElemW-UsedW){1'b0}}; // spare bits 0, as every element has them
  always @* begin
    assert(ab == ba);
    assert(o_ab == o_ba);
    assert(ab_c == a_bc);
    if (a_clean) begin
      assert(a0 == a_i);
      assert(zero_a == a_i);
    end
    assert(!o_a0 && !o_0a);
  end
endmodule

// ---- formal proof (make formal): the step is causal. Two pairs of operands, (a, b)
// and (a2, b2), equal on their bits below a split s (any s from IdxW to the element's
// width), give results equal below s: every output bit from IdxW up depends only on
// input bits at its own position or below. At the format's width s = 128 says that
// flit 0 of a result is a function of the operands' flits 0. Any indices, flags and
// bins. Below IdxW it does not hold, nor need to: IDX is a maximum, whose low bits
// depend on the operands' high ones, and it lies wholly in flit 0. ----
module tc_fpsum_merge_causal #(
  parameter integer SliceW = `TC_FPS_SLICE_W,
  parameter integer HeadW  = `TC_FPS_BIN_W - `TC_FPS_SLICE_W,
  parameter integer IdxW   = `TC_FPS_IDX_W,
  parameter integer Bins   = `TC_FPS_BINS,
  localparam integer FlagsLsb = `TC_FPS_FLAGS_LSB - `TC_FPS_IDX_W + IdxW,
  localparam integer UsedW    = FlagsLsb + `TC_FPS_FLAGS_W + Bins * (SliceW + HeadW),
  localparam integer ElemW    = UsedW + `TC_FPS_W - `TC_FPS_SPARE_LSB,
  localparam integer SplitW   = $clog2(ElemW + 1)
) (
  input wire [ElemW-1:0]  a_i,
  input wire [ElemW-1:0]  b_i,
  input wire [ElemW-1:0]  a2_i,
  input wire [ElemW-1:0]  b2_i,
  input wire [SplitW-1:0] s_i // the split: bits s-1..0 are shared
);
  wire [ElemW-1:0] y, y2;
  wire             o, o2;
  tc_fpsum_merge #(.SliceW(SliceW), .HeadW(HeadW), .IdxW(IdxW), .Bins(Bins)) u_y  (.a_i(a_i),  .b_i(b_i),  .y_o(y),  .overflow_o(o));
  tc_fpsum_merge #(.SliceW(SliceW), .HeadW(HeadW), .IdxW(IdxW), .Bins(Bins)) u_y2 (.a_i(a2_i), .b_i(b2_i), .y_o(y2), .overflow_o(o2));
  wire unused_ovf = o ^ o2; // one bit for every bin: known only once the last bin is
  wire [ElemW-1:0] below = ~({ElemW{1'b1}} << s_i); // bits s-1..0
  wire [31:0]      split = {{(32-SplitW){1'b0}}, s_i};
  always @* begin
    assume(split >= IdxW + `TC_FPS_IDX_LSB && split <= ElemW);
    assume(((a_i ^ a2_i) & below) == {ElemW{1'b0}});
    assume(((b_i ^ b2_i) & below) == {ElemW{1'b0}});
    assert(((y ^ y2) & below) == {ElemW{1'b0}});
  end
endmodule
`endif
