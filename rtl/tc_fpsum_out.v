// Conversion out of the bit-reproducible floating-point sum (docs/fpsum.md): a binned
// element to its IEEE value, rounded once to nearest, ties to even, bit-exact with
// tc_fpsum_out() in cmodel/fpsum.c. The lane is TC_LANE_32 (the result in bits 31..0,
// bits 63..32 zero) or binary64 for any other code. Pipelined: a clock edge takes the
// element and the lane into the input register, the value is in the output register
// two edges later (a new element may come every cycle); the stages are the C twin's
// (Pipe = 0: no registers, for the waveform view's decoding):
//   stage 1 (tc_fpsum_out_s1), from the input register: V = BIN0 + BIN1 2^64 + BIN2
//     2^128, the bins sign-extended, in 210 bits (|V| can exceed 2^208: every bin at
//     -2^80), then its sign and magnitude; also (which the C twin leaves to stage 2)
//     the magnitude's bit length n and its lowest set bit, by two trees;
//   stage 2 (tc_fpsum_out_s2), from the register between them: s = the bits below the
//     result's last one: n - p for a normal result, at least 128 - 64 IDX (the last bit of a
//     subnormal, the smallest subnormal's unit), a shift of -p+1 .. 208 (p = 53 or
//     24), one shifter for both lanes; the guard bit, sticky (the lowest set bit below
//     it), the increment, Inf past the largest finite, the packing, into the output
//     register.
// NaN (also +Inf with -Inf) gives the canonical quiet NaN, +-Inf their infinity, V = 0
// -0 when NEGZ is set, else +0.
`default_nettype none
`include "tc_format.vh"

module tc_fpsum_out #(
  parameter integer Pipe = 1 // 0: no registers, one combinational path (the waveform view's decoding)
) (
  input  wire                      clk_i,
  input  wire [`TC_HDR_LANE_W-1:0] lane_i,
  input  wire [`TC_FPS_W-1:0]      e_i,
  output wire [63:0]               bits_o  // the value of the element taken two edges before
);
  localparam integer BinW = `TC_FPS_BIN_W;
  localparam integer VW = 210;    // V's two's complement
  localparam integer MW = VW - 1; // its magnitude
  localparam integer LW = 8;      // bit positions of the magnitude (0..208) and its length (0..209)

  localparam integer InW  = `TC_HDR_LANE_W + `TC_FPS_W;
  localparam integer MidW = 3 + `TC_FPS_IDX_W + `TC_FPS_FLAGS_W + MW + 2 * LW;
  wire [InW-1:0]  in_q;  // the input register
  wire [MidW-1:0] mid_d, mid_q; // the register between the stages
  reg  [63:0]     bits_d;
  generate
    if (Pipe != 0) begin : g_pipe
      reg [InW-1:0]  in_r;
      reg [MidW-1:0] mid_r;
      reg [63:0]     bits_r;
      always @(posedge clk_i) begin
        in_r   <= {lane_i, e_i};
        mid_r  <= mid_d;
        bits_r <= bits_d;
      end
      assign in_q   = in_r;
      assign mid_q  = mid_r;
      assign bits_o = bits_r;
    end else begin : g_comb
      wire unused_clk = clk_i;
      assign in_q   = {lane_i, e_i};
      assign mid_q  = mid_d;
      assign bits_o = bits_d;
    end
  endgenerate
  wire [`TC_HDR_LANE_W-1:0] lane_q = in_q[`TC_FPS_W +: `TC_HDR_LANE_W];
  wire [`TC_FPS_W-1:0]      e_q    = in_q[`TC_FPS_W-1:0];

  // ---- stage 1: V, its sign and magnitude ----
  wire [BinW-1:0] b2 = e_q[`TC_FPS_BIN_LSB +: BinW]; // BINr (absolute bin IDX-2+r) at
  wire [BinW-1:0] b1 = e_q[`TC_FPS_BIN_LSB + BinW +: BinW]; // TC_FPS_BIN_LSB + (2-r) BinW:
  wire [BinW-1:0] b0 = e_q[`TC_FPS_BIN_LSB + 2*BinW +: BinW]; // the top bin first
  wire unused_spare = ^e_q[`TC_FPS_W-1:`TC_FPS_SPARE_LSB];
  wire [VW-1:0] v = {{(VW-BinW){b0[BinW-1]}}, b0}
                  + {{(VW-BinW-64){b1[BinW-1]}}, b1, 64'd0}
                  + {{(VW-BinW-128){b2[BinW-1]}}, b2, 128'd0};

  wire [MW-1:0] mag_d = v[VW-1] ? -v[MW-1:0] : v[MW-1:0];
  // The highest and the lowest set bit of the magnitude, padded to 256 bits: node k of
  // level l holds {any bit set among its 2^l bits, the highest's and the lowest's index
  // relative to its first}, from nodes 2k and 2k + 1 of level l - 1.
  localparam integer PW = 1 << LW;
  genvar l, k;
  generate
    for (l = 0; l <= LW; l = l + 1) begin : g_lvl
      wire [(PW >> l)-1:0]    any;
      wire [(PW >> l)*LW-1:0] hi, lo;
      if (l == 0) begin : g_leaf
        assign any = {{(PW-MW){1'b0}}, mag_d};
        assign hi  = {PW*LW{1'b0}};
        assign lo  = {PW*LW{1'b0}};
      end else begin : g_node
        for (k = 0; k < (PW >> l); k = k + 1) begin : g_k
          localparam [LW-1:0] Right = 1 << (l - 1); // offset of the upper half
          wire any_r = g_lvl[l-1].any[2*k+1], any_l = g_lvl[l-1].any[2*k];
          assign any[k] = any_l | any_r;
          assign hi[k*LW +: LW] = any_r ? g_lvl[l-1].hi[(2*k+1)*LW +: LW] | Right : g_lvl[l-1].hi[2*k*LW +: LW];
          assign lo[k*LW +: LW] = any_l ? g_lvl[l-1].lo[2*k*LW +: LW] : g_lvl[l-1].lo[(2*k+1)*LW +: LW] | Right;
        end
      end
    end
  endgenerate

  assign mid_d = {lane_q == `TC_LANE_32, v[VW-1], g_lvl[LW].any[0], e_q[`TC_FPS_IDX_LSB +: `TC_FPS_IDX_W],
                  e_q[`TC_FPS_FLAGS_LSB +: `TC_FPS_FLAGS_W], mag_d, g_lvl[LW].hi[LW-1:0], g_lvl[LW].lo[LW-1:0]};
  wire                       l32_q, neg_q, nz_q; // nz_q: V != 0
  wire [`TC_FPS_IDX_W-1:0]   idx_q;
  wire [`TC_FPS_FLAGS_W-1:0] flags_q;
  wire [MW-1:0]              mag_q;
  wire [LW-1:0]              msb_q, lsb_q;
  assign {l32_q, neg_q, nz_q, idx_q, flags_q, mag_q, msb_q, lsb_q} = mid_q;

  // ---- stage 2: round and pack ----
  // s, signed: the magnitude's bits below the result's last bit (mant = mag_q / 2^s)
  localparam integer SW = 14;
  wire signed [SW-1:0] idx64  = $signed({{(SW-6-`TC_FPS_IDX_W){1'b0}}, idx_q, 6'd0});  // 64 IDX
  wire signed [SW-1:0] s_norm = $signed({{(SW-LW){1'b0}}, msb_q}) + (l32_q ? -14'sd23 : -14'sd52); // n - p
  wire signed [SW-1:0] s_sub  = 14'sd128 - idx64;     // qmin - e0: the smallest subnormal's unit
  wire                 sub    = s_sub > s_norm;       // subnormal (before rounding)
  wire signed [SW-1:0] s      = sub ? s_sub : s_norm; // -52 .. 208
  // g = mag_q / 2^(s-1), mant and the guard bit below it: {mag_q, 53 zeros} shifted right by
  // s + 52, 0 .. 260 (9 bits, s's low 9 bits suffice)
  wire [8:0]           amt    = s[8:0] + 9'd52;
  wire [MW+53-1:0]     z      = {mag_q, 53'd0} >> amt;
  wire [53:0]          g      = z[53:0];
  wire unused_z = ^z[MW+53-1:54]; // 0: s >= n - p leaves at most p + 1 bits
  wire                 sticky = $signed({{(SW-LW){1'b0}}, lsb_q}) < s - 14'sd1; // a set bit below the guard
  wire                 inc    = g[0] && (g[1] || sticky);
  wire [53:0]          mr     = {1'b0, g[53:1]} + {53'd0, inc};
  wire                 carry  = l32_q ? mr[24] : mr[53];  // rounded up into the next binade
  wire [52:0]          mant   = carry ? mr[53:1] : mr[52:0];
  wire                 normal = l32_q ? mant[23] : mant[52];
  // the biased exponent of a normal result: q + p - 1 + bias = s + 64 IDX - 127 in both lanes
  wire signed [SW-1:0] bexp   = s + idx64 - 14'sd127 + $signed({{(SW-1){1'b0}}, carry});
  wire                 ovf    = bexp >= (l32_q ? 14'sd255 : 14'sd2047);

  localparam [`TC_FPS_FLAGS_W-1:0] FNan = `TC_FPS_NAN, FPinf = `TC_FPS_PINF, FNinf = `TC_FPS_NINF, FNegz = `TC_FPS_NEGZ;
  wire inf_p = (flags_q & FPinf) != 0, inf_n = (flags_q & FNinf) != 0;
  always @* begin
    if ((flags_q & FNan) != 0 || (inf_p && inf_n))
      bits_d = l32_q ? 64'h7fc00000 : 64'h7ff8000000000000;
    else if (inf_p || inf_n)
      bits_d = l32_q ? {32'd0, inf_n, 31'h7f800000} : {inf_n, 63'h7ff0000000000000};
    else if (!nz_q)
      bits_d = (flags_q & FNegz) == 0 ? 64'd0 : l32_q ? 64'h80000000 : 64'h8000000000000000;
    else if (ovf && normal)
      bits_d = l32_q ? {32'd0, neg_q, 31'h7f800000} : {neg_q, 63'h7ff0000000000000};
    else if (l32_q)
      bits_d = {32'd0, neg_q, normal ? bexp[7:0] : 8'd0, mant[22:0]};
    else
      bits_d = {neg_q, normal ? bexp[10:0] : 11'd0, mant[51:0]};
  end
endmodule
