#include "alu_vec.h"

#include <string.h>

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static int bit(const tc_flit *f, unsigned i) { return (int)((f->w[i >> 6] >> (i & 63)) & 1); }
static void set_bit(tc_flit *f, unsigned i, int v)
{
    if (v)
        f->w[i >> 6] |= 1ull << (i & 63);
    else
        f->w[i >> 6] &= ~(1ull << (i & 63));
}

/* Boundary values of a w-bit lane: 0, 1, -1, min, max, and their neighbours. */
static uint64_t boundary(unsigned w, uint64_t r)
{
    uint64_t mask = w == 64 ? ~0ull : 0xffffffffull, min = 1ull << (w - 1);
    const uint64_t v[] = {0, 1, mask, min, min - 1, min + 1, mask - 1, 2, min >> 1, 0x5555555555555555ull};
    return v[r % (sizeof v / sizeof v[0])] & mask;
}

void tc_alu_vector(uint64_t seed, uint64_t i, unsigned op, unsigned lane, tc_flit *a, tc_flit *b)
{
    unsigned w = lane == TC_LANE_64 ? 64 : 32, n = 128 / w;
    uint64_t r = mix(seed ^ mix(i * 131 + op * 7 + lane)), mask = w == 64 ? ~0ull : 0xffffffffull;
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    for (unsigned k = 0; k < n; k++) {
        uint64_t x, z, kind = mix(r + k) % 8;
        switch (kind) {
        case 0: case 1: case 2: /* boundary against boundary */
            x = boundary(w, mix(r + 10 + k));
            z = boundary(w, mix(r + 20 + k));
            break;
        case 3: /* equal values: ties decide MINLOC/MAXLOC by index */
            x = z = (kind & 1) ? boundary(w, mix(r + 30 + k)) : mix(r + 40 + k) & mask;
            break;
        case 4: /* small values around 0, both signs */
            x = (uint64_t)((int64_t)(mix(r + 50 + k) % 9) - 4) & mask;
            z = (uint64_t)((int64_t)(mix(r + 60 + k) % 9) - 4) & mask;
            break;
        default: /* random */
            x = mix(r + 70 + k) & mask;
            z = mix(r + 80 + k) & mask;
        }
        for (unsigned j = 0; j < w; j++) {
            set_bit(a, k * w + j, (int)((x >> j) & 1));
            set_bit(b, k * w + j, (int)((z >> j) & 1));
        }
    }
}

/* -1, 0, 1 comparing the w bits at lsb of a and b, most significant first. */
static int cmp(const tc_flit *a, const tc_flit *b, unsigned lsb, unsigned w, int is_signed)
{
    for (int j = (int)w - 1; j >= 0; j--) {
        int x = bit(a, lsb + (unsigned)j), z = bit(b, lsb + (unsigned)j);
        if (x != z) {
            int a_bigger = x > z;
            if (is_signed && j == (int)w - 1)
                a_bigger = !a_bigger; /* a set sign bit is the smaller number */
            return a_bigger ? 1 : -1;
        }
    }
    return 0;
}

static void copy_lane(tc_flit *y, const tc_flit *s, unsigned lsb, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        set_bit(y, lsb + j, bit(s, lsb + j));
}

unsigned tc_alu_slow(const tc_flit *a, const tc_flit *b, unsigned op, unsigned lane, tc_flit *y)
{
    unsigned w = lane == TC_LANE_64 ? 64 : lane == TC_LANE_32 ? 32 : 0, flags = 0;
    memset(y, 0, sizeof *y);
    if (!w || op >= TC_OPS || op == TC_OP_FSUM) /* FSUM is not lane-wise: tc_fpsum_merge is its model */
        return TC_ALU_INVALID;
    for (unsigned lsb = 0; lsb < 128; lsb += w) {
        if (op == TC_OP_SUM) {
            int carry = 0;
            for (unsigned j = 0; j < w; j++) {
                int x = bit(a, lsb + j), z = bit(b, lsb + j);
                set_bit(y, lsb + j, x ^ z ^ carry);
                carry = (x & z) | (x & carry) | (z & carry);
            }
            int sa = bit(a, lsb + w - 1), sb = bit(b, lsb + w - 1), sy = bit(y, lsb + w - 1);
            if (sa == sb && sy != sa)
                flags |= TC_ALU_OVERFLOW;
        } else if (op <= TC_OP_MAXU) {
            int c = cmp(a, b, lsb, w, op == TC_OP_MIN || op == TC_OP_MAX);
            int want_min = op == TC_OP_MIN || op == TC_OP_MINU;
            copy_lane(y, (want_min ? c > 0 : c < 0) ? b : a, lsb, w);
        } else if (op <= TC_OP_XOR) {
            for (unsigned j = 0; j < w; j++) {
                int x = bit(a, lsb + j), z = bit(b, lsb + j);
                set_bit(y, lsb + j, op == TC_OP_AND ? x & z : op == TC_OP_OR ? x | z : x ^ z);
            }
        } else { /* a (value, index) pair per two lanes */
            int c = cmp(a, b, lsb, w, 1), take_b;
            if (c == 0)
                take_b = cmp(a, b, lsb + w, w, 0) > 0;
            else
                take_b = op == TC_OP_MINLOC ? c > 0 : c < 0;
            copy_lane(y, take_b ? b : a, lsb, 2 * w);
            lsb += w;
        }
    }
    return flags;
}
