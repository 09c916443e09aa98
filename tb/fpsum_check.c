/* The floating-point sum's RTL blocks (Verilated: tc_fpsum_in, tc_fpsum_merge,
 * tc_fpsum_out) against their C twins in cmodel/fpsum.c, bit for bit: N random
 * vectors per block and lane after a fixed list of boundary cases, a PASS/FAIL line
 * each, then the count. Usage: fpsum_check [N [SEED]].
 *
 * Values: tc_fpsum_value's four distributions, random bit patterns (binary32 with
 * random upper bits, which both sides must ignore) and a list of specials per lane.
 * Elements: one value converted; the sum of a random number of values (consecutive
 * nodes of one distribution, so cancel cancels); any element (any index and flags,
 * bins small, random over 81 bits, sparse, or within 2^16 of +-2^80, where the step
 * wraps); values built bin by bin to land on rounding ties and just beside them, on
 * the subnormal range and on the overflow threshold. A merge's second operand has an
 * index 0, 1, 2, 3 or more away from the first's. The lane codes 2 and 3 read as
 * binary64 on both sides. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cmodel/fpsum.h"
#include "fpsum_rtl.h"

static uint64_t sm(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---------------------------------------------------------------- elements */

#define HI_MASK ((1ull << (TC_FPS_BIN_W - 64)) - 1) /* a bin's bits above 63 */

typedef struct {
    uint64_t lo, hi; /* 81-bit two's complement: bits 63..0, 80..64 */
} bin81;

static bin81 bin_neg(bin81 b)
{
    bin81 r = {~b.lo + 1, (~b.hi + (b.lo == 0)) & HI_MASK};
    return r;
}

static void set_bits(tc_flit e[2], unsigned lsb, unsigned w, uint64_t lo, uint64_t hi)
{
    for (unsigned i = 0; i < w; i++) {
        unsigned p = lsb + i, v = (unsigned)((i < 64 ? lo >> i : hi >> (i - 64)) & 1);
        uint64_t *word = &e[p / 128].w[(p / 64) % 2];
        *word = (*word & ~(1ull << (p % 64))) | (uint64_t)v << (p % 64);
    }
}

/* The element of index idx, flags and bins b[r] = BINr (absolute bin idx-2+r), which
 * sit top bin first (tc_fpsum_bin_lsb). */
static void elem_make(tc_flit e[2], unsigned idx, unsigned flags, const bin81 b[TC_FPS_BINS])
{
    memset(e, 0, 2 * sizeof e[0]);
    set_bits(e, TC_FPS_IDX_LSB, TC_FPS_IDX_W, idx, 0);
    set_bits(e, TC_FPS_FLAGS_LSB, TC_FPS_FLAGS_W, flags, 0);
    for (unsigned r = 0; r < TC_FPS_BINS; r++)
        set_bits(e, tc_fpsum_bin_lsb(r), TC_FPS_BIN_W, b[r].lo, b[r].hi);
}

/* ---------------------------------------------------------------- values */

typedef struct {
    unsigned fb;         /* fraction bits */
    uint64_t sign, inf;  /* sign bit; exponent all ones */
    unsigned maxidx;     /* the largest finite's bin */
} lanefmt;

static const lanefmt lf32 = {23, 0x80000000ull, 0x7f800000ull, 4}, lf64 = {52, 1ull << 63, 0x7ffull << 52, 32};
static const lanefmt *fmt(unsigned lane) { return lane == TC_LANE_32 ? &lf32 : &lf64; }

/* The boundary values of a lane, with both signs: k = 0 .. SPECIALS-1 */
#define SPECIALS 32
static uint64_t special(unsigned lane, unsigned k)
{
    const lanefmt *L = fmt(lane);
    uint64_t ones = (1ull << L->fb) - 1, one = (L->inf >> 1) & ~ones; /* 1.0: the bias in the exponent */
    const uint64_t v[SPECIALS / 2] = {
        0,                          /* zero */
        1,                          /* the smallest subnormal */
        ones,                       /* the largest subnormal */
        1ull << L->fb,              /* the smallest normal */
        (1ull << L->fb) | 1,
        (1ull << L->fb) - 2,
        L->inf - 1,                 /* the largest finite */
        L->inf - 2,
        L->inf,                     /* Inf */
        L->inf | 1ull << (L->fb - 1), /* quiet NaN */
        L->inf | 1,                 /* signalling NaN */
        L->inf | ones,
        one,                        /* 1.0 */
        one | ones,
        one - 1,
        (1ull << (L->fb + 6)) | 0x1234, /* exponent 64: bin 1 for binary32 */
    };
    return v[k / 2] | (k & 1 ? L->sign : 0);
}

/* A random value of the lane: a distribution's, random bits or a special. */
static uint64_t rand_value(unsigned lane, uint64_t *s)
{
    const lanefmt *L = fmt(lane);
    uint64_t r = sm(s), x = sm(s);
    switch (r % 8) {
    case 0: case 1: case 2: case 3:
        return tc_fpsum_value((unsigned)(r % 4), lane, sm(s), sm(s) % 1000, sm(s) % 1000);
    case 4: /* any bits; binary32 with random upper bits */
        return x;
    case 5: /* any exponent, fraction near 0 or all ones */
        return (x & (L->sign | L->inf)) | ((r >> 8) & 1 ? (1ull << L->fb) - 1 - (r >> 40) % 4 : (r >> 40) % 4);
    default:
        return special(lane, (unsigned)((r >> 8) % SPECIALS));
    }
}

/* ---------------------------------------------------------------- element kinds */

enum { K_VALUE, K_SUM, K_ANY, K_ROUND, KINDS };

/* A random 81-bit bin: small, random, sparse, near +-2^80 or zero */
static bin81 rand_bin(uint64_t *s)
{
    uint64_t q = sm(s), lo = sm(s), hi = sm(s);
    bin81 b = {0, 0};
    switch (q % 6) {
    case 0: b.lo = (uint64_t)((int64_t)(lo % 2001) - 1000); b.hi = lo % 2001 < 1000 ? HI_MASK : 0; break;
    case 1: b.lo = lo, b.hi = hi & HI_MASK; break;
    case 2: { /* one to three bits anywhere */
        for (unsigned j = 0; j < 1 + q / 8 % 3; j++) {
            unsigned p = (unsigned)(sm(s) % TC_FPS_BIN_W);
            if (p < 64) b.lo |= 1ull << p; else b.hi |= 1ull << (p - 64);
        }
        break;
    }
    case 3: case 4: /* +-(2^80 - small) */
        b.lo = ~0ull - lo % 65536, b.hi = HI_MASK >> 1;
        if (q & 64)
            b = bin_neg(b);
        break;
    default: break;
    }
    return b;
}

/* Any element, its index base + 0..3, base - 1..3 or anything */
static void any_elem(uint64_t *s, unsigned base, tc_flit e[2])
{
    static const int delta[] = {0, 1, 2, 3, -1, -2, -3};
    uint64_t r = sm(s);
    unsigned idx = r % 8 < 7 ? (unsigned)((int)base + delta[r / 8 % 7]) & 63 : (unsigned)(sm(s) % 64);
    unsigned flags = r >> 16 & 1 ? 0 : (unsigned)(sm(s) % 16);
    bin81 b[TC_FPS_BINS];
    for (unsigned k = 0; k < TC_FPS_BINS; k++)
        b[k] = rand_bin(s);
    elem_make(e, idx, flags, b);
}

/* A finite element whose value's magnitude is a chosen bit pattern: length n, then
 * the bits below the first p + 1 (the result's and the guard) all 0 (a tie when the
 * guard is 1), one low bit set, all ones, or random; or the lane's overflow threshold
 * (2 - 2^-p) 2^emax and a unit either side. */
static void round_elem(unsigned lane, uint64_t *s, tc_flit e[2])
{
    const lanefmt *L = fmt(lane);
    unsigned p = L->fb + 1, idx;
    uint64_t r = sm(s), m[4] = {0, 0, 0, 0}; /* the magnitude, 256 bits */
    if (r % 8 == 0) { /* the overflow threshold: p + 1 ones, at bit 124 of bin IDX = maxidx */
        idx = L->maxidx;
        for (unsigned i = 124; i < 124 + p + 1; i++)
            m[i / 64] |= 1ull << (i % 64);
        int d = (int)(r / 8 % 3) - 1; /* -1, 0, +1 unit of bin 0 */
        if (d > 0)
            m[0] |= 1;
        if (d < 0) { /* subtract 1: the bits below 124 become ones */
            m[1] &= ~(1ull << 60), m[0] = ~0ull, m[1] |= (1ull << 60) - 1;
        }
    } else {
        /* half of them with IDX 0..2, where results can be subnormal */
        idx = (unsigned)(sm(s) % (r / 8 % 2 ? 3 : L->maxidx + 3));
        int n = 1 + (int)(sm(s) % 208), u = n - (int)p, sub = 128 - 64 * (int)idx;
        if (u < sub) /* the result's last bit: bit u of the magnitude, the guard bit u - 1 */
            u = sub;
        for (int i = n - 1; i >= 0; i--) {
            int v;
            if (i == n - 1)
                v = 1;
            else if (i >= u - 1) /* the result's bits and the guard */
                v = (int)(sm(s) & 1);
            else
                switch (r / 16 % 4) {
                case 0: v = 0; break;        /* a tie if the guard is 1 */
                case 1: v = i == 0; break;   /* just above the tie */
                case 2: v = 1; break;        /* just below the next tie */
                default: v = (int)(sm(s) & 1); break;
                }
            m[i / 64] |= (uint64_t)v << (i % 64);
        }
    }
    bin81 b[3] = {{m[0], 0}, {m[1], 0}, {m[2], m[3] & HI_MASK}};
    if (r >> 63)
        for (unsigned k = 0; k < 3; k++)
            b[k] = bin_neg(b[k]);
    elem_make(e, idx, r >> 62 & 1 ? TC_FPS_NEGZ : 0, b);
}

/* An element of kind k for the lane (base: the index an ANY element is drawn near) */
static void make_elem(unsigned lane, unsigned kind, unsigned base, uint64_t *s, tc_flit e[2])
{
    switch (kind) {
    case K_VALUE: tc_fpsum_in(lane, rand_value(lane, s), e); break;
    case K_SUM: { /* consecutive nodes of one distribution (cancel then cancels), or random values */
        uint64_t r = sm(s), seed = sm(s), index = sm(s) % 1000;
        unsigned n = r % 16 == 0 ? 65 + (unsigned)(r / 16 % 1000) : 1 + (unsigned)(r / 16 % 64), dist = (unsigned)(r >> 40) % 5;
        tc_flit x[2];
        tc_fpsum_zero(e);
        for (unsigned j = 0; j < n; j++) {
            tc_fpsum_in(lane, dist < 4 ? tc_fpsum_value(dist, lane, seed, j, index) : rand_value(lane, s), x);
            tc_fpsum_merge(e, x, e);
        }
        break;
    }
    case K_ANY: any_elem(s, base, e); break;
    default: round_elem(lane, s, e); break;
    }
}

/* ---------------------------------------------------------------- the checks */

static int pass_n, fail_n;
static uint64_t vectors;

static void elem_hex(const tc_flit e[2], char *buf)
{
    sprintf(buf, "%016" PRIx64 "%016" PRIx64 "%016" PRIx64 "%016" PRIx64, e[1].w[1], e[1].w[0], e[0].w[1], e[0].w[0]);
}

static void result(const char *block, unsigned lane, uint64_t listed, uint64_t n, uint64_t bad, const char *notes)
{
    bad ? fail_n++ : pass_n++;
    vectors += listed + n;
    printf("%s  fpsum %-5s lane %u%s %7" PRIu64 " vectors (+%" PRIu64 " listed): RTL %s C%s%s\n", bad ? "FAIL" : "PASS",
           block, lane == TC_LANE_32 ? 32u : 64u, lane > TC_LANE_64 ? (lane == 2 ? " (code 2)" : " (code 3)") : "", n,
           listed, bad ? "differs from" : "=", notes[0] ? "; " : "", notes);
}

/* Conversion in: the specials and every biased exponent (fractions 0, 1, all ones,
 * both signs), then n random values. */
static void check_in(unsigned lane, uint64_t n, uint64_t *s)
{
    const lanefmt *L = fmt(lane);
    uint64_t bad = 0, listed = 0, emax = L->inf >> L->fb;
    for (uint64_t i = 0;; i++) {
        uint64_t x;
        if (i < SPECIALS)
            x = special(lane, (unsigned)i);
        else if (i < SPECIALS + 6 * (emax + 1)) {
            uint64_t j = i - SPECIALS, ex = j / 6, f = j % 3;
            x = ex << L->fb | (f == 0 ? 0 : f == 1 ? 1 : (1ull << L->fb) - 1) | (j % 6 >= 3 ? L->sign : 0);
        } else if (i - SPECIALS - 6 * (emax + 1) < n)
            x = rand_value(lane, s);
        else
            break;
        if (i < SPECIALS + 6 * (emax + 1))
            listed++;
        tc_flit ec[2], er[2];
        tc_fpsum_in(lane, x, ec);
        tc_fpsum_in_rtl(lane, x, er);
        if (memcmp(ec, er, sizeof ec) && bad++ < 3) {
            char hc[65], hr[65];
            elem_hex(ec, hc), elem_hex(er, hr);
            fprintf(stderr, "  in lane %u bits %016" PRIx64 "\n    C   %s\n    RTL %s\n", lane, x, hc, hr);
        }
    }
    result("in", lane, listed, n, bad, "");
}

/* The step: every pair of kinds, the second operand's index near the first's. */
static void check_merge(unsigned lane, uint64_t n, uint64_t *s)
{
    uint64_t bad = 0, ovf = 0, dcount[5] = {0, 0, 0, 0, 0};
    for (uint64_t i = 0; i < n; i++) {
        tc_flit a[2], b[2], yc[2], yr[2];
        uint64_t r = sm(s);
        make_elem(lane, (unsigned)(r % KINDS), 0, s, a);
        make_elem(lane, (unsigned)(r / KINDS % KINDS), tc_fpsum_idx(a), s, b);
        if (r >> 60 == 0) /* the same element twice */
            memcpy(b, a, sizeof b);
        unsigned fc = tc_fpsum_merge(a, b, yc), fr = tc_fpsum_merge_rtl(a, b, yr);
        int ia = (int)tc_fpsum_idx(a), ib = (int)tc_fpsum_idx(b), d = abs(ia - ib);
        dcount[d < 4 ? d : 4]++;
        ovf += fc != 0;
        if ((fc != fr || memcmp(yc, yr, sizeof yc)) && bad++ < 3) {
            char ha[65], hb[65], hc[65], hr[65];
            elem_hex(a, ha), elem_hex(b, hb), elem_hex(yc, hc), elem_hex(yr, hr);
            fprintf(stderr, "  merge\n    a   %s\n    b   %s\n    C   %s flags %u\n    RTL %s flags %u\n", ha, hb, hc,
                    fc, hr, fr);
        }
    }
    char notes[200];
    snprintf(notes, sizeof notes,
             "indices 0/1/2/3/more apart: %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 ", %" PRIu64
             " wrapped",
             dcount[0], dcount[1], dcount[2], dcount[3], dcount[4], ovf);
    result("merge", lane, 0, n, bad, notes);
}

/* Conversion out: every combination of the flags with a zero and a nonzero value,
 * then elements of every kind, a new one every cycle into the RTL's pipeline, whose
 * value comes TC_FPSUM_OUT_LAT cycles later (the last ones pushed out by zeros). */
static void check_out(unsigned lane, uint64_t n, uint64_t *s)
{
    const lanefmt *L = fmt(lane);
    uint64_t bad = 0, listed = 0, cls[6] = {0, 0, 0, 0, 0, 0}; /* NaN, Inf, 0, subnormal, normal, ovf to Inf */
    tc_flit pipe[TC_FPSUM_OUT_LAT + 1][2]; /* the elements in the pipeline, by i mod its size */
    for (uint64_t i = 0; i < 64 + n + TC_FPSUM_OUT_LAT; i++) {
        tc_flit *in = pipe[i % (TC_FPSUM_OUT_LAT + 1)];
        if (i < 64) { /* flags x (zero, one, -one, huge) */
            bin81 b[3] = {{0, 0}, {0, 0}, {0, 0}};
            if (i / 16 == 1) b[0].lo = 1;
            if (i / 16 == 2) b[1] = bin_neg((bin81){1, 0});
            if (i / 16 == 3) b[2].lo = ~0ull, b[2].hi = HI_MASK >> 1;
            elem_make(in, (unsigned)(i / 16 == 3 ? L->maxidx : 0), (unsigned)(i % 16), b);
            listed++;
        } else if (i < 64 + n)
            make_elem(lane, (unsigned)(sm(s) % KINDS), (unsigned)(sm(s) % (L->maxidx + 3)), s, in);
        else /* the last elements' values: zeros pushed in behind them */
            memset(in, 0, 2 * sizeof in[0]);
        uint64_t xr = tc_fpsum_out_rtl(lane, in);
        if (i < TC_FPSUM_OUT_LAT)
            continue;
        const tc_flit *e = pipe[(i - TC_FPSUM_OUT_LAT) % (TC_FPSUM_OUT_LAT + 1)];
        uint64_t xc = tc_fpsum_out(lane, e);
        uint64_t mag = xc & ~L->sign & ((L->sign << 1) - 1), fl = tc_fpsum_flags(e);
        cls[mag > L->inf ? 0 : mag == L->inf ? ((fl & (TC_FPS_PINF | TC_FPS_NINF)) ? 1 : 5) : mag == 0 ? 2 : mag >> L->fb ? 4 : 3]++;
        if (xc != xr && bad++ < 3) {
            char h[65];
            elem_hex(e, h);
            fprintf(stderr, "  out lane %u element %s\n    C   %016" PRIx64 "\n    RTL %016" PRIx64 "\n", lane, h, xc, xr);
        }
    }
    char notes[200];
    snprintf(notes, sizeof notes,
             "NaN %" PRIu64 ", Inf %" PRIu64 ", zero %" PRIu64 ", subnormal %" PRIu64 ", normal %" PRIu64
             ", rounded to Inf %" PRIu64,
             cls[0], cls[1], cls[2], cls[3], cls[4], cls[5]);
    result("out", lane, listed, n, bad, notes);
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 20000, seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    uint64_t s = seed;
    tc_fpsum_rtl_open();
    for (unsigned lane = TC_LANE_32; lane <= 3; lane++) { /* 2, 3: read as binary64 */
        uint64_t k = lane <= TC_LANE_64 ? n : n / 20 + 1;
        check_in(lane, k, &s);
        if (lane <= TC_LANE_64)
            check_merge(lane, k, &s);
        check_out(lane, k, &s);
    }
    printf("fpsum: %d passed, %d failed, %" PRIu64 " vectors\n", pass_n, fail_n, vectors);
    tc_fpsum_rtl_close();
    return fail_n != 0;
}
