/* Packet header, routing-table row and observation-record fields, from format.def. */
#ifndef TC_FORMAT_H
#define TC_FORMAT_H

#include <stdint.h>

#define TC_HDR(n, l, w) TC_HDR_##n##_LSB = (l), TC_HDR_##n##_W = (w),
#define TC_ROW(n, l, w) TC_ROW_##n##_LSB = (l), TC_ROW_##n##_W = (w),
#define TC_OBS(n, l, w) TC_OBS_##n##_LSB = (l), TC_OBS_##n##_W = (w),
#define TC_CONST(n, v) TC_##n = (v),
enum {
#include "format.def"
    TC_FORMAT_END_
};
#undef TC_HDR
#undef TC_ROW
#undef TC_OBS
#undef TC_CONST

typedef struct {
    uint64_t w[2]; /* w[0] holds bits 63..0 */
} tc_flit;

static inline uint64_t tc_bits(uint64_t v, unsigned lsb, unsigned w)
{
    return (v >> lsb) & ((w >= 64) ? ~0ull : ((1ull << w) - 1));
}

/* Header fields live in one 64-bit word (format.def keeps them off bit 64). */
static inline uint64_t tc_hdr_get(const tc_flit *f, unsigned lsb, unsigned w)
{
    return lsb >= 64 ? tc_bits(f->w[1], lsb - 64, w) : tc_bits(f->w[0], lsb, w);
}

static inline void tc_hdr_set(tc_flit *f, unsigned lsb, unsigned w, uint64_t v)
{
    uint64_t *word = lsb >= 64 ? &f->w[1] : &f->w[0];
    unsigned s = lsb & 63;
    uint64_t m = ((w >= 64) ? ~0ull : ((1ull << w) - 1)) << s;
    *word = (*word & ~m) | ((v << s) & m);
}

#define TC_HGET(f, n) ((unsigned)tc_hdr_get((f), TC_HDR_##n##_LSB, TC_HDR_##n##_W))
#define TC_HSET(f, n, v) tc_hdr_set((f), TC_HDR_##n##_LSB, TC_HDR_##n##_W, (v))
#define TC_RGET(r, n) ((unsigned)tc_bits((r), TC_ROW_##n##_LSB, TC_ROW_##n##_W))
#define TC_RSET(r, n, v) \
    ((r) = ((r) & ~(((1u << TC_ROW_##n##_W) - 1) << TC_ROW_##n##_LSB)) | \
           (((uint32_t)(v) & ((1u << TC_ROW_##n##_W) - 1)) << TC_ROW_##n##_LSB))

/* Bit vectors of observation records, 32-bit words, bit 0 of word 0 first. A field
 * is at most 64 bits, so it spans at most three words; put ORs the field's bits in
 * (the record starts zeroed). Word at a time: the co-simulation reads every unit's
 * fields of every node every cycle. */
static inline void tc_bv_put(uint32_t *bv, unsigned lsb, unsigned w, uint64_t v)
{
    unsigned i = lsb >> 5, s = lsb & 31;
    if (w < 64)
        v &= (1ull << w) - 1;
    bv[i] |= (uint32_t)(v << s);
    if (s + w > 32)
        bv[i + 1] |= (uint32_t)(v >> (32 - s));
    if (s + w > 64)
        bv[i + 2] |= (uint32_t)(v >> (64 - s));
}

static inline uint64_t tc_bv_get(const uint32_t *bv, unsigned lsb, unsigned w)
{
    unsigned i = lsb >> 5, s = lsb & 31;
    uint64_t v = bv[i] >> s;
    if (s + w > 32)
        v |= (uint64_t)bv[i + 1] << (32 - s);
    if (s + w > 64)
        v |= (uint64_t)bv[i + 2] << (64 - s);
    return w < 64 ? v & ((1ull << w) - 1) : v;
}

/* The data flits a packet carries on a wire: LEN, but for an FSUM contribution of
 * IEEE values (VALS), whose LEN counts its binned elements' flits, two an element, and
 * whose values fill 2 (binary64) or 4 (binary32) lanes a flit (tc_values_flits: for
 * LEN flits of elements). The twin of tc_wire_len in rtl/tc_wire_len.vh. */
static inline unsigned tc_values_flits(unsigned lane, unsigned len)
{
    unsigned vpf = lane == TC_LANE_32 ? 4 : 2;
    return (len / 2 + vpf - 1) / vpf;
}
static inline unsigned tc_wire_len(const tc_flit *h)
{
    if (!TC_HGET(h, VALS) || TC_HGET(h, OP) != TC_OP_FSUM)
        return TC_HGET(h, LEN);
    return tc_values_flits(TC_HGET(h, LANE), TC_HGET(h, LEN));
}

const char *tc_err_name(unsigned code);
const char *tc_dir_name(unsigned dir);

#endif
