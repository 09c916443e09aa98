#include "alu.h"

#include <string.h>

#include "fpsum.h"

const char *const tc_op_names[TC_OPS + 1] = {"sum", "min", "max",    "minu",   "maxu", "and",
                                              "or",  "xor", "minloc", "maxloc", "fsum", NULL};

const char *tc_op_name(unsigned op) { return op < TC_OPS ? tc_op_names[op] : "unknown"; }

/* Signed comparison of w-bit values: flip the sign bit, compare unsigned. */
static int lt_signed(uint64_t a, uint64_t b, unsigned w)
{
    uint64_t sign = 1ull << (w - 1);
    return (a ^ sign) < (b ^ sign);
}

unsigned tc_alu(const tc_flit *a_in, const tc_flit *b_in, unsigned op, unsigned lane, tc_flit *y)
{
    unsigned w = lane == TC_LANE_32 ? 32 : 64, n = 128 / w, flags = 0;
    uint64_t mask = w == 64 ? ~0ull : 0xffffffffull, sign = 1ull << (w - 1);
    const tc_flit a_v = *a_in, b_v = *b_in, *a = &a_v, *b = &b_v; /* y may be a or b */

    memset(y, 0, sizeof *y);
    if (op >= TC_OPS || lane > TC_LANE_64)
        return TC_ALU_INVALID;
    if (op == TC_OP_FSUM) { /* flit 0 of the step: the operands' flits 1 do not matter */
        tc_flit ea[2] = {*a, {{0, 0}}}, eb[2] = {*b, {{0, 0}}}, ey[2];
        tc_fpsum_merge(ea, eb, ey);
        *y = ey[0];
        return 0; /* a bin's wrap shows in flit 1 */
    }
    for (unsigned k = 0; k < n; k++) {
        uint64_t x = tc_lane_get(a, w, k), z = tc_lane_get(b, w, k), r = 0;
        switch (op) {
        case TC_OP_SUM:
            r = (x + z) & mask;
            if (!((x ^ z) & sign) && ((r ^ x) & sign))
                flags |= TC_ALU_OVERFLOW;
            break;
        case TC_OP_MIN: r = lt_signed(z, x, w) ? z : x; break;
        case TC_OP_MAX: r = lt_signed(x, z, w) ? z : x; break;
        case TC_OP_MINU: r = z < x ? z : x; break;
        case TC_OP_MAXU: r = x < z ? z : x; break;
        case TC_OP_AND: r = x & z; break;
        case TC_OP_OR: r = x | z; break;
        case TC_OP_XOR: r = x ^ z; break;
        default: { /* MINLOC, MAXLOC: decide on the even lane, copy the pair */
            if (k & 1)
                continue;
            uint64_t xi = tc_lane_get(a, w, k + 1), zi = tc_lane_get(b, w, k + 1);
            int take_b = op == TC_OP_MINLOC ? lt_signed(z, x, w) : lt_signed(x, z, w);
            if (x == z)
                take_b = zi < xi;
            tc_lane_put(y, w, k, take_b ? z : x);
            tc_lane_put(y, w, k + 1, take_b ? zi : xi);
            continue;
        }
        }
        tc_lane_put(y, w, k, r);
    }
    return flags;
}

unsigned tc_alu_hi(const tc_flit *a, const tc_flit *b, const tc_flit *a0, const tc_flit *b0, unsigned op,
                   unsigned lane, tc_flit *y)
{
    if (op != TC_OP_FSUM || lane > TC_LANE_64)
        return tc_alu(a, b, op, lane, y);
    tc_flit ea[2] = {*a0, *a}, eb[2] = {*b0, *b}, ey[2];
    unsigned flags = tc_fpsum_merge(ea, eb, ey);
    *y = ey[1];
    return flags;
}

unsigned tc_alu_data(tc_flit *acc, const tc_flit *in, unsigned len, unsigned op, unsigned lane)
{
    unsigned flags = 0;
    for (unsigned f = 0; f < len; f++) {
        if (op == TC_OP_FSUM && f + 1 < len) { /* an element: its flit 1 reads both flits 0 before they change */
            tc_flit y0;
            flags |= tc_alu(&acc[f], &in[f], op, lane, &y0);
            flags |= tc_alu_hi(&acc[f + 1], &in[f + 1], &acc[f], &in[f], op, lane, &acc[f + 1]);
            acc[f++] = y0;
        } else {
            flags |= tc_alu(&acc[f], &in[f], op, lane, &acc[f]);
        }
    }
    return flags;
}
