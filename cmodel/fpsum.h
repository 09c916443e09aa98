/* A bit-reproducible floating-point sum (docs/fpsum.md): IEEE binary64 and binary32
 * values as "binned elements" of fixed-point bins with fixed boundaries, combined by an
 * integer step that is associative and commutative, so every reduction tree and
 * arrival order gives the same bits. Also the order-preserving map of IEEE bits to
 * signed integers that lets the integer MIN/MAX/MINLOC/MAXLOC do fmin/fmax, and the
 * value generators of the tests and the network tool. tc_fpsum_in, tc_fpsum_merge and
 * tc_fpsum_out are the C twins of the RTL blocks of those names (rtl/tc_fpsum_*.v,
 * checked bit for bit by tb/fpsum_check.c); the router uses the step (the Reducer's ALU)
 * and the conversion out (a result at its tree's root), the PEs' library the conversion in.
 *
 * An element is 256 bits, two data flits: e[0] holds bits 127..0, e[1] bits 255..128.
 *
 *   bits     field
 *   5..0     IDX: absolute bin of the largest input's most significant bit (0 if none)
 *   9..6     FLAGS: NAN, PINF, NINF, NEGZ (bit 6, 7, 8, 9)
 *   90..10   BIN2, 81-bit two's complement: absolute bin IDX (the top bin comes first)
 *   171..91  BIN1: absolute bin IDX-1 (bits 127..91 in e[0], 171..128 in e[1])
 *   252..172 BIN0: absolute bin IDX-2
 *   255..253 zero
 *
 * BINr is absolute bin IDX-2+r, at tc_fpsum_bin_lsb(r). The top bin comes first so that
 * the step is causal: every bit of tc_fpsum_merge's result from bit TC_FPS_IDX_W up
 * depends only on the operands' bits at its own position or below (the operand with
 * the larger index keeps its bins in place, the other's move up in the word, carries
 * go up). IDX itself, a maximum, depends on every bit of both indices. So the
 * result's flit 0 depends on the operands' flits 0 only, and a Reducer can combine
 * elements one flit a cycle, flit 0 first.
 *
 * Absolute bin b of the 64-bit lane holds weights 2^(64b-1074) .. 2^(64b-1074+63); of the
 * 32-bit lane 2^(64b-149) .. 2^(64b-149+63). */
#ifndef TC_FPSUM_H
#define TC_FPSUM_H

#include "format.h"

/* The layout above (TC_FPS_IDX_LSB/_W, FLAGS_LSB/_W, BIN_LSB, BIN_W, BINS, SLICE_W,
 * SPARE_LSB, W and the FLAGS masks TC_FPS_NAN, PINF, NINF, NEGZ) is format.def's, which
 * rtl/tc_format.vh shares with the RTL blocks. */

/* The lowest bit of BINr (absolute bin IDX-2+r, r = 0 the lowest): the top bin first. */
static inline unsigned tc_fpsum_bin_lsb(unsigned r)
{
    return TC_FPS_BIN_LSB + (TC_FPS_BINS - 1 - r) * TC_FPS_BIN_W;
}
enum {
    /* value distributions of tc_fpsum_value */
    TC_FPS_UNIFORM = 0,
    TC_FPS_WIDE = 1,
    TC_FPS_CANCEL = 2,
    TC_FPS_SPECIAL = 3,
    TC_FPS_DISTS = 4,
};

/* In every function lane is TC_LANE_32 (binary32 in the low 32 bits of a uint64_t,
 * the upper 32 bits ignored on input and 0 on output) or anything else for binary64. */

/* The element of one value: exact for every finite value (it spans at most 2 bins). */
void tc_fpsum_in(unsigned lane, uint64_t bits, tc_flit e[2]);
/* y = a + b, the Reducer's step (y may be a or b). Returns TC_ALU_OVERFLOW when some
 * bin's 81-bit sum wrapped around (never with 2^16 inputs or fewer), else 0. The
 * element bits are associative and commutative even when a bin wraps; the flag is not:
 * it tells of one step, and which step wraps depends on the tree. */
unsigned tc_fpsum_merge(const tc_flit a[2], const tc_flit b[2], tc_flit y[2]);
/* The element's value rounded once to nearest, ties to even, into the lane's format;
 * NaN is the canonical quiet NaN (payloads are not kept), overflow gives Inf. */
uint64_t tc_fpsum_out(unsigned lane, const tc_flit e[2]);
/* tc_fpsum_out in its two pipeline stages, as rtl/tc_fpsum_out.v registers it between
 * them: s1 adds the bins into V and takes its sign and magnitude, s2 rounds and packs.
 * tc_fpsum_out(lane, e) is s2 of s1's result. */
typedef struct {
    unsigned lane, idx, flags, neg;
    uint64_t mag[4]; /* |V|, 209 bits at most */
} tc_fpsum_mid;
void tc_fpsum_out_s1(unsigned lane, const tc_flit e[2], tc_fpsum_mid *m);
uint64_t tc_fpsum_out_s2(const tc_fpsum_mid *m);
/* An FSUM result leaves the root of its tree as values (the Reducer's converting copy,
 * docs/fpsum.md): value j in lane j mod vpf (64 or 32 bits wide) of data flit j / vpf,
 * the lanes after the last value 0. values_per_flit: vpf of the header's LANE;
 * values_len: the result's LEN, data flits of values, for LEN data flits of elements;
 * tc_fpsum_values: the data flits of values of len data flits of elements (out may not
 * be el), returns their number. */
static inline unsigned tc_fpsum_values_per_flit(unsigned lane) { return lane == TC_LANE_32 ? 4 : 2; }
static inline unsigned tc_fpsum_values_len(unsigned lane, unsigned len) { return tc_values_flits(lane, len); }
unsigned tc_fpsum_values(unsigned lane, unsigned len, const tc_flit *el, tc_flit *out);
/* A PE's FSUM contribution of IEEE values (header VALS) carries its values in that
 * layout; the Reducer converts each as it comes in. tc_fpsum_elements: the len data
 * flits of elements of the len / 2 values in vals (el may not be vals). */
void tc_fpsum_elements(unsigned lane, unsigned len, const tc_flit *vals, tc_flit *el);
/* The element of no input: -0 (NEGZ set), the identity of tc_fpsum_merge. */
void tc_fpsum_zero(tc_flit e[2]);
static inline unsigned tc_fpsum_idx(const tc_flit e[2])
{
    return (unsigned)tc_bits(e[0].w[0], TC_FPS_IDX_LSB, TC_FPS_IDX_W);
}
static inline unsigned tc_fpsum_flags(const tc_flit e[2])
{
    return (unsigned)tc_bits(e[0].w[0], TC_FPS_FLAGS_LSB, TC_FPS_FLAGS_W);
}

/* fmin/fmax through the signed integer MIN/MAX/MINLOC/MAXLOC: key_in maps IEEE bits to
 * a lane-wide signed integer in the order of the values (-0 < +0); a NaN becomes the
 * largest key for TC_OP_MAX/TC_OP_MAXLOC and the smallest for every other op, so a NaN
 * wins (IEEE 754-2019 maximum/minimum). key_out inverts it; a NaN's key gives the
 * canonical quiet NaN. */
uint64_t tc_fpsum_key_in(unsigned lane, unsigned op, uint64_t bits);
uint64_t tc_fpsum_key_out(unsigned lane, uint64_t key);

/* The value of (node, index) of distribution dist: a pure function of its arguments
 * (a counter-based hash, no state), so tori of one node count get the same inputs.
 * An unknown dist gives +0. */
uint64_t tc_fpsum_value(unsigned dist, unsigned lane, uint64_t seed, uint64_t node, uint64_t index);
/* The distributions' names, in TC_FPS_* order (NULL after the last): a tool's values = name. */
extern const char *const tc_fpsum_dist_names[TC_FPS_DISTS + 1];

/* The two-pass sum of long vectors (docs/fpsum.md, "Two passes for long vectors"):
 * the PE library's, on the integer ALU, not a block of the hardware. Pass 1 reduces
 * each value's exponent key by the integer MAX (a 32-bit lane a value), so every PE
 * learns the top binade of each index; pass 2 sends each value truncated toward zero
 * to a fixed-point word of F = 127 - 2h bits below that binade's top (h = ceil(log2 n)
 * for n inputs, n <= 2^TC_FPS2_MAX_H), in two 64-bit lanes: w[0] its low 64 - h bits
 * (unsigned), w[1] the rest (signed), which the integer SUM adds without a lane ever
 * wrapping. The sums are integers, so every tree gives the same bits; the result is
 * rounded once. Its bits are not the one-pass element's: the windows differ. */
#define TC_FPS2_MAX_H 14
/* The key: 0 for a zero, 1 for a subnormal, the biased exponent of a normal, the
 * all-ones exponent (2047, 255) for Inf and NaN. */
unsigned tc_fpsum_exp_key(unsigned lane, uint64_t bits);
/* Pass 2's word of a value whose index has the maximum key `key` over n <= 2^h inputs.
 * With key all-ones (an Inf or NaN came in) the word counts them instead: w[0] = NaN
 * << 42 | +Inf << 21 | -Inf (each 0 or 1); with key 0 (only zeros) w[0] = 1 for +0. */
void tc_fpsum_word(unsigned lane, uint64_t bits, unsigned key, unsigned h, uint64_t w[2]);
/* The value of a sum of words, rounded once to nearest even into the lane's format:
 * NaN if a NaN or both infinities came in, else the infinity that did; -0 if every
 * input was -0; Inf of the sum's sign beyond the range. */
uint64_t tc_fpsum_word_out(unsigned lane, unsigned key, unsigned h, const uint64_t w[2]);

#endif
