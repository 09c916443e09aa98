/* The reproducible floating-point sum (cmodel/fpsum.c, docs/fpsum.md) against exact
 * arithmetic: GNU MPFR for the sums and their correct rounding, GMP for a closed-form
 * model of the element (each input's slices added bin by bin, written from the
 * definition, not from the C model's code). Conversion round trips, the accuracy bound
 * on every distribution, bit-identical results over reduction trees and orders,
 * associativity and commutativity of the step on arbitrary elements, its causality
 * (the result's bits below any split from the operands' bits below it: flit 0 from the
 * flits 0), and the fmin/fmax keys through the integer ALU.
 *
 * TC_FPSUM_ELEMENTS (default 2000000): the values summed by the accuracy test; the other
 * tests scale with it (sim/test.sh gives the sanitizer build fewer). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gmp.h>
#include <mpfr.h>

#include "../../cmodel/alu.h"
#include "../../cmodel/fpsum.h"

static uint64_t budget = 2000000;

/* The two formats, written out here rather than taken from the model. */
typedef struct {
    unsigned lane, p, ew;
    int qmin; /* exponent of the smallest subnormal */
    uint64_t sign, inf, qnan;
    const char *name;
} lanefmt;
static const lanefmt lanes[2] = {
    {TC_LANE_64, 53, 11, -1074, 1ull << 63, 0x7ff0000000000000ull, 0x7ff8000000000000ull, "binary64"},
    {TC_LANE_32, 24, 8, -149, 1ull << 31, 0x7f800000ull, 0x7fc00000ull, "binary32"},
};
#define PREC 2400 /* holds every sum of up to 2^16 binary64 values exactly (2115 bits) */

enum { C_ZERO, C_FIN, C_INF, C_NAN };
static int cls(const lanefmt *L, uint64_t b)
{
    uint64_t mag = b & (L->sign - 1);
    return mag == 0 ? C_ZERO : mag < L->inf ? C_FIN : mag == L->inf ? C_INF : C_NAN;
}
static int isneg(const lanefmt *L, uint64_t b) { return (b & L->sign) != 0; }

static uint64_t sm(uint64_t *s) /* splitmix64, the tests' own generator */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A random value of every class: sign, biased exponent (the extremes often), fraction. */
static uint64_t rand_bits(const lanefmt *L, uint64_t *s)
{
    unsigned fb = L->p - 1;
    uint64_t r = sm(s), emax = (1ull << L->ew) - 1, ex;
    switch (r % 8) {
    case 0: ex = 0; break;
    case 1: ex = emax; break;
    case 2: ex = (r >> 8) % 2 ? 1 : emax - 1; break;
    default: ex = (r >> 8) % (emax + 1); break;
    }
    uint64_t fr = sm(s);
    if ((r >> 20) % 4 == 0) /* short fractions: zeros, Inf, powers of two */
        fr &= (r >> 24) % 2 ? 0 : 1;
    return (r >> 40 & 1 ? L->sign : 0) | ex << fb | (fr & ((1ull << fb) - 1));
}

static void to_mpfr(const lanefmt *L, uint64_t b, mpfr_t x)
{
    unsigned fb = L->p - 1;
    uint64_t ex = (b >> fb) & ((1ull << L->ew) - 1), fr = b & ((1ull << fb) - 1);
    uint64_t m = ex ? fr | 1ull << fb : fr;
    mpfr_set_ui_2exp(x, m, (long)(ex ? ex : 1) - 1 + L->qmin, MPFR_RNDN);
    if (isneg(L, b))
        mpfr_neg(x, x, MPFR_RNDN);
}

/* x rounded to nearest even in the lane's format, with subnormals and overflow (the
 * MPFR recipe: emin/emax of the format, mpfr_check_range, mpfr_subnormalize). */
static uint64_t rn_bits(const lanefmt *L, mpfr_t x)
{
    mpfr_t y;
    mpfr_init2(y, L->p);
    int inex = mpfr_set(y, x, MPFR_RNDN);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(L->qmin + 1);
    mpfr_set_emax(1 << (L->ew - 1));
    inex = mpfr_check_range(y, inex, MPFR_RNDN);
    mpfr_subnormalize(y, inex, MPFR_RNDN);
    uint64_t b;
    if (L->lane == TC_LANE_64) {
        double d = mpfr_get_d(y, MPFR_RNDN);
        memcpy(&b, &d, sizeof b);
    } else {
        float f = mpfr_get_flt(y, MPFR_RNDN);
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        b = u;
    }
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear(y);
    return b;
}

/* ---------------------------------------------------------------- element bits, by GMP */

static void elem_z(const tc_flit e[2], mpz_t z)
{
    const uint64_t w[4] = {e[0].w[0], e[0].w[1], e[1].w[0], e[1].w[1]};
    mpz_import(z, 4, -1, sizeof w[0], 0, 0, w);
}

static void z_elem(mpz_t z, tc_flit e[2])
{
    uint64_t w[4] = {0, 0, 0, 0};
    mpz_export(w, NULL, -1, sizeof w[0], 0, 0, z);
    e[0].w[0] = w[0], e[0].w[1] = w[1], e[1].w[0] = w[2], e[1].w[1] = w[3];
}

/* Where BINr (absolute bin idx-2+r, r = 0 the lowest) sits: the top bin first, from
 * TC_FPS_BIN_LSB up (docs/fpsum.md), written here from the definition. */
static unsigned bin_at(unsigned r) { return TC_FPS_BIN_LSB + (TC_FPS_BINS - 1 - r) * TC_FPS_BIN_W; }

/* Bin r of an element as a signed integer. */
static void bin_z(const mpz_t ez, unsigned r, mpz_t b)
{
    mpz_fdiv_q_2exp(b, ez, bin_at(r));
    mpz_fdiv_r_2exp(b, b, TC_FPS_BIN_W);
    if (mpz_tstbit(b, TC_FPS_BIN_W - 1)) {
        mpz_t t;
        mpz_init_set_ui(t, 1);
        mpz_mul_2exp(t, t, TC_FPS_BIN_W);
        mpz_sub(b, b, t);
        mpz_clear(t);
    }
}

/* The element's value V = sum bin[r] 2^(64 (idx-2+r)) in the lane's units, exactly, into v. */
static void elem_value(const lanefmt *L, const tc_flit e[2], mpfr_t v)
{
    mpz_t ez, b, s;
    mpz_inits(ez, b, s, NULL);
    elem_z(e, ez);
    for (unsigned r = TC_FPS_BINS; r-- > 0;) {
        bin_z(ez, r, b);
        mpz_mul_2exp(s, s, TC_FPS_SLICE_W);
        mpz_add(s, s, b);
    }
    mpfr_set_z_2exp(v, s, TC_FPS_SLICE_W * ((long)tc_fpsum_idx(e) - 2) + L->qmin, MPFR_RNDN);
    mpz_clears(ez, b, s, NULL);
}

/* The element of the inputs vals[0..n-1] from the definition: the index is the largest
 * input's MSB's bin, bin r the sum of every input's slice of absolute bin idx-2+r. */
static void model_elem(const lanefmt *L, const uint64_t *vals, size_t n, tc_flit e[2])
{
    unsigned fb = L->p - 1, idx = 0, flags = TC_FPS_NEGZ;
    mpz_t *mag = malloc(n * sizeof *mag), z, sl, bin;
    mpz_inits(z, sl, bin, NULL);
    for (size_t i = 0; i < n; i++) {
        uint64_t b = vals[i], ex = (b >> fb) & ((1ull << L->ew) - 1), fr = b & ((1ull << fb) - 1);
        int c = cls(L, b);
        mpz_init(mag[i]);
        if (!(c == C_ZERO && isneg(L, b)))
            flags &= ~(unsigned)TC_FPS_NEGZ;
        if (c == C_NAN)
            flags |= TC_FPS_NAN;
        if (c == C_INF)
            flags |= isneg(L, b) ? TC_FPS_NINF : TC_FPS_PINF;
        if (c != C_FIN)
            continue;
        mpz_set_ui(mag[i], ex ? fr | 1ull << fb : fr);
        mpz_mul_2exp(mag[i], mag[i], ex ? ex - 1 : 0);
        unsigned top = (unsigned)mpz_sizeinbase(mag[i], 2) - 1;
        if (top / 64 > idx)
            idx = top / 64;
    }
    mpz_set_ui(z, flags);
    mpz_mul_2exp(z, z, TC_FPS_IDX_W);
    mpz_add_ui(z, z, idx);
    for (unsigned r = 0; r < TC_FPS_BINS; r++) {
        int a = (int)idx - 2 + (int)r;
        mpz_set_ui(bin, 0);
        for (size_t i = 0; i < n && a >= 0; i++) {
            mpz_fdiv_q_2exp(sl, mag[i], 64 * (unsigned)a);
            mpz_fdiv_r_2exp(sl, sl, 64);
            if (isneg(L, vals[i]))
                mpz_sub(bin, bin, sl);
            else
                mpz_add(bin, bin, sl);
        }
        mpz_fdiv_r_2exp(bin, bin, TC_FPS_BIN_W); /* two's complement, 81 bits */
        mpz_mul_2exp(bin, bin, bin_at(r));
        mpz_ior(z, z, bin);
    }
    z_elem(z, e);
    for (size_t i = 0; i < n; i++)
        mpz_clear(mag[i]);
    free(mag);
    mpz_clears(z, sl, bin, NULL);
}

static int elem_eq(const tc_flit a[2], const tc_flit b[2]) { return !memcmp(a, b, 2 * sizeof a[0]); }

static void elem_str(const tc_flit e[2], char *buf, size_t len)
{
    snprintf(buf, len, "%016llx_%016llx_%016llx_%016llx", (unsigned long long)e[1].w[1], (unsigned long long)e[1].w[0],
             (unsigned long long)e[0].w[1], (unsigned long long)e[0].w[0]);
}

/* ---------------------------------------------------------------- 1. round trip */

static void check_round_trip(const lanefmt *L, uint64_t b)
{
    tc_flit e[2], z[2], y[2];
    tc_fpsum_in(L->lane, b, e);
    uint64_t want = cls(L, b) == C_NAN ? L->qnan : b, got = tc_fpsum_out(L->lane, e);
    if (got != want)
        fail_msg("%s %016llx: in and out gives %016llx", L->name, (unsigned long long)b, (unsigned long long)got);
    /* the element of one input is the model's */
    tc_flit m[2];
    model_elem(L, &b, 1, m);
    if (!elem_eq(e, m)) {
        char s1[80], s2[80];
        elem_str(e, s1, sizeof s1);
        elem_str(m, s2, sizeof s2);
        fail_msg("%s %016llx: element %s, model %s", L->name, (unsigned long long)b, s1, s2);
    }
    /* -0, the identity, leaves it; +0 too except -0 + +0 = +0 */
    tc_fpsum_zero(z);
    tc_fpsum_merge(e, z, y);
    if (!elem_eq(e, y) || tc_fpsum_out(L->lane, y) != want)
        fail_msg("%s %016llx + -0 differs", L->name, (unsigned long long)b);
    tc_fpsum_in(L->lane, 0, z);
    tc_fpsum_merge(z, e, y);
    if (tc_fpsum_out(L->lane, y) != (b == L->sign ? 0 : want))
        fail_msg("%s %016llx + +0 gives %016llx", L->name, (unsigned long long)b,
                 (unsigned long long)tc_fpsum_out(L->lane, y));
    /* x + -x = +0 */
    if (cls(L, b) == C_FIN) {
        tc_fpsum_in(L->lane, b ^ L->sign, z);
        tc_fpsum_merge(e, z, y);
        if (tc_fpsum_out(L->lane, y) != 0)
            fail_msg("%s %016llx - itself is not +0", L->name, (unsigned long long)b);
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    uint64_t s = 1, n = 0;
    for (unsigned l = 0; l < 2; l++) {
        const lanefmt *L = &lanes[l];
        for (uint64_t i = 0; i < budget / 16; i++, n++)
            check_round_trip(L, rand_bits(L, &s));
        /* every biased exponent, the first and last 64 fractions (binary32; 16 of binary64), both signs */
        unsigned fb = L->p - 1, edge = L->lane == TC_LANE_32 ? 64 : 16;
        for (uint64_t ex = 0; ex < (1ull << L->ew); ex++)
            for (uint64_t k = 0; k < 2 * edge; k++)
                for (uint64_t sg = 0; sg < 2; sg++, n++) {
                    uint64_t fr = k < edge ? k : (1ull << fb) - 2 * edge + k;
                    check_round_trip(L, (sg ? L->sign : 0) | ex << fb | fr);
                }
    }
    print_message("fpsum round trip: %llu values of both lanes, in and out, each equal to the model's element\n",
                  (unsigned long long)n);
}

/* ---------------------------------------------------------------- 2. accuracy */

static const unsigned sizes[] = {2, 3, 7, 64, 1000, 65536};
#define NSIZES (sizeof sizes / sizeof sizes[0])
/* share of a (distribution, lane)'s budget for each size, in percent: 2 sums of 2^16 at the default */
static const unsigned share[NSIZES] = {8, 8, 8, 8, 13, 55};

typedef struct {
    uint64_t sums, values, finite, cr, zeros, nan, inf, ovf, ovf_edge;
    double worst_ratio; /* |result - exact| / max(ulp(exact), 2^-80 sum|x|) */
    double worst_ulps;  /* |result - exact| / ulp(exact) */
    double worst_rel_s; /* |result - exact| / sum|x| */
    double worst_trunc; /* |V - exact| / (n 2^-128 max|x|): the truncation against its bound */
    /* cancel: condition numbers by size and by kind: one node unpaired, the pairs complete, no pairs */
    double cond_lo[NSIZES][3], cond_hi[NSIZES][3];
    uint64_t cond_n[NSIZES][3];
} stats;

typedef struct {
    mpfr_t acc, sabs, maxabs, x, v, t, u, r; /* PREC bits but r, 53 */
} scratch;

static double ratio(mpfr_t a, mpfr_t b, mpfr_t r53)
{
    mpfr_div(r53, a, b, MPFR_RNDN);
    return mpfr_get_d(r53, MPFR_RNDN);
}

/* |got - exact| / max(ulp(exact), 2^-80 sum|x|) (exact: w->acc; sum|x|: w->sabs), a
 * failure above 1; leaves |got - exact| in w->t and ulp(exact) in w->v. */
static double bound_ratio(const lanefmt *L, uint64_t got, scratch *w, const char *what)
{
    to_mpfr(L, got, w->x);
    mpfr_sub(w->t, w->x, w->acc, MPFR_RNDN);
    mpfr_abs(w->t, w->t, MPFR_RNDN);
    long emin_n = 2 - (1L << (L->ew - 1)), ex = mpfr_zero_p(w->acc) ? emin_n : mpfr_get_exp(w->acc) - 1;
    mpfr_set_ui_2exp(w->v, 1, (ex > emin_n ? ex : emin_n) - (long)(L->p - 1), MPFR_RNDN);
    mpfr_mul_2si(w->u, w->sabs, -80, MPFR_RNDN);
    mpfr_max(w->x, w->v, w->u, MPFR_RNDN);
    double r = ratio(w->t, w->x, w->r);
    if (r > 1)
        fail_msg("%s: |result - exact| is %g times the bound", what, r);
    return r;
}

static void sum_check(const lanefmt *L, unsigned dist, uint64_t seed, unsigned si, uint64_t index, stats *st, scratch *w)
{
    unsigned n = sizes[si], has_nan = 0, pinf = 0, ninf = 0, negz = 1;
    tc_flit e[2], v[2];
    char what[160];
    snprintf(what, sizeof what, "%s %s seed %llu N %u index %llu", L->name, tc_fpsum_dist_names[dist],
             (unsigned long long)seed, n, (unsigned long long)index);
    tc_fpsum_zero(e);
    mpfr_set_zero(w->acc, 1);
    mpfr_set_zero(w->sabs, 1);
    mpfr_set_zero(w->maxabs, 1);
    for (unsigned k = 0; k < n; k++) {
        uint64_t b = tc_fpsum_value(dist, L->lane, seed, k, index);
        tc_fpsum_in(L->lane, b, v);
        if (tc_fpsum_merge(e, v, e))
            fail_msg("%s: a bin wrapped at input %u", what, k);
        int c = cls(L, b);
        negz &= c == C_ZERO && isneg(L, b);
        has_nan |= c == C_NAN;
        pinf |= c == C_INF && !isneg(L, b);
        ninf |= c == C_INF && isneg(L, b);
        if (c == C_FIN) {
            to_mpfr(L, b, w->x);
            mpfr_add(w->acc, w->acc, w->x, MPFR_RNDN); /* exact at PREC bits */
            mpfr_abs(w->x, w->x, MPFR_RNDN);
            mpfr_add(w->sabs, w->sabs, w->x, MPFR_RNDN);
            if (mpfr_cmp(w->x, w->maxabs) > 0)
                mpfr_set(w->maxabs, w->x, MPFR_RNDN);
        }
    }
    st->sums++;
    st->values += n;
    uint64_t got = tc_fpsum_out(L->lane, e);
    if (has_nan || (pinf && ninf)) {
        st->nan++;
        if (got != L->qnan)
            fail_msg("%s: NaN expected, got %016llx", what, (unsigned long long)got);
        return;
    }
    if (pinf || ninf) {
        st->inf++;
        if (got != (ninf ? L->sign : 0) + L->inf)
            fail_msg("%s: %cInf expected, got %016llx", what, ninf ? '-' : '+', (unsigned long long)got);
        return;
    }
    st->finite++;
    /* the result is V rounded once, to nearest even: bit for bit */
    elem_value(L, e, w->v);
    uint64_t want_v = mpfr_zero_p(w->v) ? (negz ? L->sign : 0) : rn_bits(L, w->v);
    if (got != want_v)
        fail_msg("%s: V rounds to %016llx, the output is %016llx", what, (unsigned long long)want_v, (unsigned long long)got);
    /* the truncation: |V - exact| < n 2^-128 max|x| */
    mpfr_sub(w->t, w->v, w->acc, MPFR_RNDN);
    mpfr_abs(w->t, w->t, MPFR_RNDN);
    if (!mpfr_zero_p(w->t)) {
        mpfr_mul_ui(w->u, w->maxabs, n, MPFR_RNDN);
        mpfr_mul_2si(w->u, w->u, -128, MPFR_RNDN);
        double r = ratio(w->t, w->u, w->r);
        if (r >= 1)
            fail_msg("%s: |V - exact| is %g times n 2^-128 max|x|", what, r);
        if (r > st->worst_trunc)
            st->worst_trunc = r;
    }
    /* correctly rounded? (an exact zero sum: IEEE's sign, -0 only if every input was -0) */
    uint64_t ref = mpfr_zero_p(w->acc) ? (negz ? L->sign : 0) : rn_bits(L, w->acc);
    st->cr += got == ref;
    st->zeros += cls(L, got) == C_ZERO;
    if (mpfr_zero_p(w->acc) && cls(L, got) == C_ZERO && got != ref)
        fail_msg("%s: exact zero, output %016llx, IEEE gives %016llx", what, (unsigned long long)got, (unsigned long long)ref);
    st->ovf += cls(L, got) == C_INF;
    if (cls(L, got) == C_INF || cls(L, ref) == C_INF) {
        /* overflow: Inf of the sum's sign; the two may differ only within the bound of the threshold */
        if (got == ref)
            return;
        st->ovf_edge++;
        long emax = (1L << (L->ew - 1)) - 1;
        mpfr_set_ui_2exp(w->t, 1, emax + 1, MPFR_RNDN);
        mpfr_set_ui_2exp(w->u, 1, emax - (long)L->p, MPFR_RNDN);
        mpfr_sub(w->t, w->t, w->u, MPFR_RNDN); /* the threshold (2 - 2^-p) 2^emax */
        mpfr_abs(w->u, w->acc, MPFR_RNDN);
        mpfr_sub(w->t, w->t, w->u, MPFR_RNDN);
        mpfr_abs(w->t, w->t, MPFR_RNDN);
        mpfr_mul_2si(w->u, w->sabs, -80, MPFR_RNDN);
        if (mpfr_cmp(w->t, w->u) > 0 || isneg(L, got) != (mpfr_sgn(w->acc) < 0))
            fail_msg("%s: output %016llx, correctly rounded %016llx, not at the overflow threshold", what,
                     (unsigned long long)got, (unsigned long long)ref);
        return;
    }
    /* |result - exact| <= max(ulp(exact), 2^-80 sum|x|) */
    double r = bound_ratio(L, got, w, what);
    if (!mpfr_zero_p(w->t)) {
        double ulps = ratio(w->t, w->v, w->r), rs = ratio(w->t, w->sabs, w->r);
        if (ulps > st->worst_ulps)
            st->worst_ulps = ulps;
        if (rs > st->worst_rel_s)
            st->worst_rel_s = rs;
    }
    if (r > st->worst_ratio)
        st->worst_ratio = r;
    if (dist == TC_FPS_CANCEL && !mpfr_zero_p(w->acc)) {
        unsigned o = index & 1, kind = (n - o - 1) % 2 ? 0 : n - o - 1 ? 1 : 2;
        mpfr_abs(w->t, w->acc, MPFR_RNDN);
        double cond = ratio(w->sabs, w->t, w->r);
        if (!st->cond_n[si][kind]++ || cond < st->cond_lo[si][kind])
            st->cond_lo[si][kind] = cond;
        if (cond > st->cond_hi[si][kind])
            st->cond_hi[si][kind] = cond;
    }
}

static void test_accuracy(void **state)
{
    (void)state;
    scratch w;
    mpfr_inits2(PREC, w.acc, w.sabs, w.maxabs, w.x, w.v, w.t, w.u, (mpfr_ptr)0);
    mpfr_init2(w.r, 53);
    uint64_t total = 0;
    for (unsigned dist = 0; dist < TC_FPS_DISTS; dist++)
        for (unsigned l = 0; l < 2; l++) {
            const lanefmt *L = &lanes[l];
            stats st;
            memset(&st, 0, sizeof st);
            for (unsigned si = 0; si < NSIZES; si++) {
                uint64_t nsum = (budget / (2 * TC_FPS_DISTS) * share[si] / 100 + sizes[si] / 2) / sizes[si];
                for (uint64_t i = 0; i < nsum; i++)
                    sum_check(L, dist, 1000 + si, si, i, &st, &w);
            }
            total += st.values;
            print_message("fpsum accuracy %s %-7s: %llu sums (%llu values); %llu finite: worst |err|/bound %.3g, "
                          "worst |err| %.3g ulp, %.3g sum|x|, |V-exact| <= %.3g of n 2^-128 max|x|, correctly rounded %llu "
                          "(%.4f%%), zero results %llu, overflowed %llu; NaN in %llu, Inf in %llu, at the overflow threshold %llu\n",
                          L->name, tc_fpsum_dist_names[dist], (unsigned long long)st.sums,
                          (unsigned long long)st.values, (unsigned long long)st.finite, st.worst_ratio, st.worst_ulps, st.worst_rel_s,
                          st.worst_trunc, (unsigned long long)st.cr, st.finite ? 100.0 * st.cr / st.finite : 0.0,
                          (unsigned long long)st.zeros, (unsigned long long)st.ovf, (unsigned long long)st.nan, (unsigned long long)st.inf,
                          (unsigned long long)st.ovf_edge);
            if (dist == TC_FPS_CANCEL)
                for (unsigned si = 0; si < NSIZES; si++)
                    for (unsigned c = 0; c < 3; c++)
                        if (st.cond_n[si][c])
                            print_message("  cancel %s N %u, %s: %llu sums, sum|x|/|sum x| %.2g .. %.2g\n", L->name,
                                          sizes[si], c == 0 ? "one node unpaired" : c == 1 ? "pairs complete" : "no pairs",
                                          (unsigned long long)st.cond_n[si][c], st.cond_lo[si][c], st.cond_hi[si][c]);
        }
    print_message("fpsum accuracy: %llu values in all\n", (unsigned long long)total);
    mpfr_clears(w.acc, w.sabs, w.maxabs, w.x, w.v, w.t, w.u, w.r, (mpfr_ptr)0);
    mpfr_free_cache();
}

/* ---------------------------------------------------------------- 3. reproducibility */

/* The elements of items[0..n-1] merged in a random binary tree: two random items of the
 * pool are merged, in a random operand order, until one is left. */
static void tree_random(tc_flit (*pool)[2], size_t n, uint64_t *s)
{
    while (n > 1) {
        size_t i = sm(s) % n, j = sm(s) % (n - 1);
        j += j >= i;
        if (sm(s) & 1)
            tc_fpsum_merge(pool[i], pool[j], pool[i]);
        else
            tc_fpsum_merge(pool[j], pool[i], pool[i]);
        memcpy(pool[j], pool[n - 1], sizeof pool[0]); /* j leaves the pool (if i was last, it moves to j) */
        n--;
    }
}

static void tree_balanced(tc_flit (*pool)[2], size_t n) /* the halves, then each other */
{
    for (size_t step = 1; step < n; step *= 2)
        for (size_t i = 0; i + step < n; i += 2 * step)
            tc_fpsum_merge(pool[i], pool[i + step], pool[i]);
}

static void test_reproducible(void **state)
{
    (void)state;
    static const unsigned rsizes[] = {2, 3, 7, 64, 1000};
    uint64_t s = 7, sums = 0, merges = 0, orders_n = 0;
    size_t cap = 1000;
    uint64_t *vals = malloc(cap * sizeof *vals);
    tc_flit(*in)[2] = malloc(cap * sizeof *in), (*pool)[2] = malloc(cap * sizeof *pool);
    for (unsigned dist = 0; dist < TC_FPS_DISTS; dist++)
        for (unsigned l = 0; l < 2; l++)
            for (unsigned si = 0; si < sizeof rsizes / sizeof rsizes[0]; si++) {
                const lanefmt *L = &lanes[l];
                size_t n = rsizes[si];
                uint64_t nsum = budget / 640 / n + 1;
                for (uint64_t idx = 0; idx < nsum; idx++, sums++) {
                    for (size_t k = 0; k < n; k++) {
                        vals[k] = tc_fpsum_value(dist, L->lane, 77 + si, k, idx);
                        tc_fpsum_in(L->lane, vals[k], in[k]);
                    }
                    tc_flit ref[2], got[2];
                    model_elem(L, vals, n, ref);
                    for (unsigned order = 0; order < 10; order++, orders_n++) {
                        memcpy(pool, in, n * sizeof in[0]);
                        unsigned ovf = 0;
                        if (order == 0) { /* left to right */
                            for (size_t k = 1; k < n; k++)
                                ovf |= tc_fpsum_merge(pool[0], pool[k], pool[0]);
                        } else if (order == 1) { /* right to left, the new input as b */
                            for (size_t k = n - 1; k-- > 0;)
                                ovf |= tc_fpsum_merge(pool[k + 1], pool[k], pool[k]);
                        } else if (order == 2) {
                            tree_balanced(pool, n);
                        } else if (order <= 5) { /* a random permutation, left to right */
                            for (size_t k = n; k > 1; k--) {
                                size_t j = sm(&s) % k;
                                tc_flit t[2];
                                memcpy(t, pool[k - 1], sizeof t);
                                memcpy(pool[k - 1], pool[j], sizeof t);
                                memcpy(pool[j], t, sizeof t);
                            }
                            for (size_t k = 1; k < n; k++)
                                ovf |= tc_fpsum_merge(pool[0], pool[k], pool[0]);
                        } else {
                            tree_random(pool, n, &s);
                        }
                        merges += n - 1;
                        memcpy(got, pool[0], sizeof got);
                        if (ovf)
                            fail_msg("%s %s N %zu index %llu order %u: a bin wrapped", L->name,
                                     tc_fpsum_dist_names[dist], n, (unsigned long long)idx, order);
                        if (!elem_eq(got, ref)) {
                            char s1[80], s2[80];
                            elem_str(got, s1, sizeof s1);
                            elem_str(ref, s2, sizeof s2);
                            fail_msg("%s %s N %zu index %llu order %u: element %s, model %s", L->name,
                                     tc_fpsum_dist_names[dist], n, (unsigned long long)idx, order, s1, s2);
                        }
                    }
                }
            }
    /* one 2^16-input sum per distribution in both lanes, in two orders, against the model */
    size_t big = 65536;
    vals = realloc(vals, big * sizeof *vals);
    in = realloc(in, big * sizeof *in);
    pool = realloc(pool, big * sizeof *pool);
    for (unsigned dist = 0; dist < TC_FPS_DISTS && budget >= 1000000; dist++)
        for (unsigned l = 0; l < 2; l++, sums++) {
            const lanefmt *L = &lanes[l];
            for (size_t k = 0; k < big; k++) {
                vals[k] = tc_fpsum_value(dist, L->lane, 99, k, 5);
                tc_fpsum_in(L->lane, vals[k], in[k]);
            }
            tc_flit ref[2];
            model_elem(L, vals, big, ref);
            memcpy(pool, in, big * sizeof in[0]);
            tree_balanced(pool, big);
            if (!elem_eq(pool[0], ref))
                fail_msg("%s %s 2^16 inputs, balanced tree: not the model's element", L->name, tc_fpsum_dist_names[dist]);
            memcpy(pool, in, big * sizeof in[0]);
            tree_random(pool, big, &s);
            if (!elem_eq(pool[0], ref))
                fail_msg("%s %s 2^16 inputs, random tree: not the model's element", L->name, tc_fpsum_dist_names[dist]);
            merges += 2 * (big - 1);
            orders_n += 2;
        }
    print_message("fpsum reproducibility: %llu sums of 2..65536 inputs, %llu trees and orders, %llu merges: "
                  "every element bit-identical to the model's\n",
                  (unsigned long long)sums, (unsigned long long)orders_n, (unsigned long long)merges);
    free(vals);
    free(in);
    free(pool);
}

/* A random element: any index (the difference to base's drawn from 0, 1, 2, 3, more),
 * any flags, bins small, random over 81 bits, or within 2^16 of the headroom's edge. */
static void rand_elem(uint64_t *s, unsigned base, tc_flit e[2])
{
    static const int delta[] = {0, 1, 2, 3, -1, -2, -3};
    uint64_t r = sm(s);
    int idx = r % 8 < 7 ? (int)base + delta[r % 7] : (int)(sm(s) % 64);
    mpz_t z, b;
    mpz_inits(z, b, NULL);
    mpz_set_ui(z, (sm(s) % 16) << TC_FPS_IDX_W | ((unsigned)idx & 63));
    for (unsigned k = 0; k < TC_FPS_BINS; k++) {
        uint64_t q = sm(s), lo = sm(s), hi = sm(s);
        switch (q % 4) {
        case 0: mpz_set_si(b, (long)(lo % 2001) - 1000); break;
        case 1: /* random 81 bits */
            mpz_set_ui(b, hi & 0x1ffff);
            mpz_mul_2exp(b, b, 64);
            mpz_add_ui(b, b, lo);
            break;
        default: /* +-(2^80 - small): near the headroom's edge */
            mpz_set_ui(b, 1);
            mpz_mul_2exp(b, b, TC_FPS_BIN_W - 1);
            mpz_sub_ui(b, b, 1 + lo % 65536);
            if (q & 4)
                mpz_neg(b, b);
            break;
        }
        mpz_fdiv_r_2exp(b, b, TC_FPS_BIN_W);
        mpz_mul_2exp(b, b, bin_at(k));
        mpz_ior(z, z, b);
    }
    z_elem(z, e);
    mpz_clears(z, b, NULL);
}

static void test_merge_laws(void **state)
{
    (void)state;
    uint64_t s = 11, n = budget / 8, flag_differs = 0;
    for (uint64_t i = 0; i < n; i++) {
        tc_flit a[2], b[2], c[2], ab[2], ba[2], l[2], r[2], bc[2], ac[2], m[2];
        unsigned base = (unsigned)(sm(&s) % 64);
        rand_elem(&s, base, a);
        rand_elem(&s, base, b);
        rand_elem(&s, base, c);
        unsigned f1 = tc_fpsum_merge(a, b, ab), f2 = tc_fpsum_merge(b, a, ba);
        if (!elem_eq(ab, ba) || f1 != f2)
            fail_msg("triple %llu: a + b != b + a", (unsigned long long)i);
        unsigned fl = f1 | tc_fpsum_merge(ab, c, l);
        unsigned fr = tc_fpsum_merge(b, c, bc);
        fr |= tc_fpsum_merge(a, bc, r);
        if (!elem_eq(l, r))
            fail_msg("triple %llu: (a + b) + c != a + (b + c)", (unsigned long long)i);
        tc_fpsum_merge(a, c, ac);
        tc_fpsum_merge(ac, b, m);
        if (!elem_eq(l, m))
            fail_msg("triple %llu: (a + b) + c != (a + c) + b", (unsigned long long)i);
        flag_differs += fl != fr;
        /* the spare bits stay 0 */
        if (l[1].w[1] >> (TC_FPS_SPARE_LSB - 192))
            fail_msg("triple %llu: spare bits set", (unsigned long long)i);
    }
    print_message("fpsum merge laws: %llu random triples (indices 0..3 and more apart, bins near the headroom): "
                  "commutative and associative bit for bit; the overflow flag differed between (a+b)+c and "
                  "a+(b+c) in %llu\n",
                  (unsigned long long)n, (unsigned long long)flag_differs);
}

/* ---------------------------------------------------------------- 4. the step is causal */

/* The mask of bits s.. of 64-bit word k (k = 0..3, word k holds bits 64k+63..64k). */
static uint64_t word_from(unsigned k, unsigned s)
{
    return s <= 64 * k ? ~0ull : s >= 64 * (k + 1) ? 0 : ~0ull << (s - 64 * k);
}
static uint64_t *word(tc_flit e[2], unsigned k) { return &e[k / 2].w[k % 2]; }

/* e's bits from s up replaced by random ones, the spare bits too (s = 0..256). */
static void randomize_from(tc_flit e[2], unsigned s, uint64_t *rs)
{
    for (unsigned k = 0; k < 4; k++)
        *word(e, k) = (*word(e, k) & ~word_from(k, s)) | (sm(rs) & word_from(k, s));
}

/* Whether a and b have the same bits below s. */
static int same_below(tc_flit a[2], tc_flit b[2], unsigned s)
{
    for (unsigned k = 0; k < 4; k++)
        if ((*word(a, k) ^ *word(b, k)) & ~word_from(k, s))
            return 0;
    return 1;
}

/* An operand: one value converted, a sum of 2..9 values of a distribution (consecutive
 * nodes, so cancel cancels), or any element (rand_elem: index near base or anywhere,
 * any flags, any bins). */
static void causal_elem(uint64_t *s, unsigned base, tc_flit e[2])
{
    uint64_t r = sm(s);
    const lanefmt *L = &lanes[r >> 32 & 1];
    switch (r % 3) {
    case 0: tc_fpsum_in(L->lane, rand_bits(L, s), e); break;
    case 1: {
        uint64_t seed = sm(s), index = sm(s) % 1000, n = 2 + (r >> 8) % 8;
        tc_flit x[2];
        tc_fpsum_zero(e);
        for (uint64_t j = 0; j < n; j++) {
            tc_fpsum_in(L->lane, tc_fpsum_value((unsigned)(r >> 16) % TC_FPS_DISTS, L->lane, seed, j, index), x);
            tc_fpsum_merge(e, x, e);
        }
        break;
    }
    default: rand_elem(s, base, e); break;
    }
}

/* The split points the test draws: the fields' edges often (IDX|FLAGS 6, FLAGS|BIN2 10,
 * BIN2|BIN1 91, the flits' 128, BIN1|BIN0 172, the spare bits 253) and a bit beside them,
 * else any bit from IDX's width up (below it the step is not causal: IDX is a maximum). */
static unsigned rand_split(uint64_t *s)
{
    static const unsigned edge[] = {6, 7, 9, 10, 11, 64, 90, 91, 92, 127, 128, 129, 171, 172, 173, 192, 252, 253, 255};
    uint64_t r = sm(s);
    unsigned lo = TC_FPS_IDX_LSB + TC_FPS_IDX_W;
    return r % 4 == 0 ? edge[(r >> 8) % (sizeof edge / sizeof edge[0])] : lo + (unsigned)((r >> 8) % (TC_FPS_W - lo));
}

static void test_causal(void **state)
{
    (void)state;
    uint64_t s = 17, n = budget / 8, splits = 0, idx_tries = 0, idx_broken = 0;
    char s1[80], s2[80];
    /* by hand, where it does not hold: indices 1 and 2 give IDX 2; a's index 33 instead
     * (the same bits 4..0) gives 33, so bit 0 of y changes with bit 5 of a */
    tc_flit a[2], b[2], y[2], y2[2];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    a[0].w[0] = 1, b[0].w[0] = 2;
    tc_fpsum_merge(a, b, y);
    a[0].w[0] = 33;
    tc_fpsum_merge(a, b, y2);
    assert_int_equal(y[0].w[0] & 1, 0);
    assert_int_equal(y2[0].w[0] & 1, 1);
    for (uint64_t i = 0; i < n; i++) {
        tc_flit a2[2], b2[2];
        causal_elem(&s, (unsigned)(sm(&s) % 64), a);
        causal_elem(&s, tc_fpsum_idx(a), b);
        tc_fpsum_merge(a, b, y);
        /* flit 0 of the result from the operands' flits 0: any flits 1 */
        memcpy(a2, a, sizeof a2);
        memcpy(b2, b, sizeof b2);
        randomize_from(a2, 128, &s);
        randomize_from(b2, 128, &s);
        uint64_t keep = sm(&s);
        if (keep % 4 == 0) /* one operand's flit 1 kept */
            memcpy(keep & 4 ? &a2[1] : &b2[1], keep & 4 ? &a[1] : &b[1], sizeof a[1]);
        tc_fpsum_merge(a2, b2, y2);
        if (memcmp(&y[0], &y2[0], sizeof y[0])) {
            elem_str(y, s1, sizeof s1);
            elem_str(y2, s2, sizeof s2);
            fail_msg("pair %llu: flit 0 of the result changed with the operands' flits 1: %s, %s", (unsigned long long)i,
                     s1, s2);
        }
        /* the bits below any split s from IDX's width up from the operands' bits below s */
        for (unsigned j = 0; j < 4; j++, splits++) {
            unsigned sp = rand_split(&s);
            memcpy(a2, a, sizeof a2);
            memcpy(b2, b, sizeof b2);
            randomize_from(a2, sp, &s);
            randomize_from(b2, sp, &s);
            tc_fpsum_merge(a2, b2, y2);
            if (!same_below(y, y2, sp)) {
                elem_str(y, s1, sizeof s1);
                elem_str(y2, s2, sizeof s2);
                fail_msg("pair %llu: bits below %u of the result changed with the operands' bits from %u up: %s, %s",
                         (unsigned long long)i, sp, sp, s1, s2);
            }
        }
        /* below IDX's width it fails, now and then */
        unsigned sp = 1 + (unsigned)(sm(&s) % (TC_FPS_IDX_W - 1));
        memcpy(a2, a, sizeof a2);
        memcpy(b2, b, sizeof b2);
        randomize_from(a2, sp, &s);
        randomize_from(b2, sp, &s);
        tc_fpsum_merge(a2, b2, y2);
        idx_tries++;
        idx_broken += !same_below(y, y2, sp);
    }
    print_message("fpsum causal step: %llu random pairs (values converted, sums, any elements): flit 0 of the result "
                  "the same with random flits 1; %llu random splits s in %u..%u: the result's bits below s the same "
                  "with random operand bits from s up; splits inside IDX (s in 1..%u) changed them in %llu of %llu\n",
                  (unsigned long long)n, (unsigned long long)splits, TC_FPS_IDX_LSB + TC_FPS_IDX_W, TC_FPS_W - 1,
                  TC_FPS_IDX_W - 1, (unsigned long long)idx_broken, (unsigned long long)idx_tries);
}

/* ---------------------------------------------------------------- 5. fmin, fmax */

static int64_t key_s(const lanefmt *L, uint64_t k) /* the key as the ALU's signed lane */
{
    return L->lane == TC_LANE_32 ? (int64_t)(int32_t)(uint32_t)k : (int64_t)k;
}

/* -1, 0, 1: a < b, equal, a > b, by value with -0 < +0 (neither a NaN). */
static int fcmp(const lanefmt *L, uint64_t a, uint64_t b)
{
    int ia = cls(L, a) == C_INF ? (isneg(L, a) ? -1 : 1) : 0, ib = cls(L, b) == C_INF ? (isneg(L, b) ? -1 : 1) : 0;
    if (ia || ib)
        return ia == ib ? 0 : ia < ib ? -1 : 1;
    mpfr_t x, y;
    mpfr_inits2(64, x, y, (mpfr_ptr)0);
    to_mpfr(L, a, x);
    to_mpfr(L, b, y);
    int c = mpfr_cmp(x, y);
    c = c < 0 ? -1 : c > 0;
    if (!c && mpfr_zero_p(x))
        c = isneg(L, a) == isneg(L, b) ? 0 : isneg(L, a) ? -1 : 1;
    mpfr_clears(x, y, (mpfr_ptr)0);
    return c;
}

static void test_minmax(void **state)
{
    (void)state;
    uint64_t s = 13, n = budget / 32, alu_n = 0;
    for (unsigned l = 0; l < 2; l++) {
        const lanefmt *L = &lanes[l];
        /* -0 < +0; NaN the largest key for max, the smallest for min */
        assert_true(key_s(L, tc_fpsum_key_in(L->lane, TC_OP_MAX, L->sign)) < key_s(L, tc_fpsum_key_in(L->lane, TC_OP_MAX, 0)));
        for (uint64_t i = 0; i < n; i++) {
            uint64_t a = rand_bits(L, &s), b = sm(&s) % 4 ? rand_bits(L, &s) : (sm(&s) & 1 ? a : a ^ L->sign);
            for (unsigned op = TC_OP_MIN; op <= TC_OP_MAX; op++) {
                uint64_t ka = tc_fpsum_key_in(L->lane, op, a), kb = tc_fpsum_key_in(L->lane, op, b);
                if (tc_fpsum_key_out(L->lane, ka) != (cls(L, a) == C_NAN ? L->qnan : a))
                    fail_msg("%s %016llx: key %016llx does not come back", L->name, (unsigned long long)a, (unsigned long long)ka);
                if (cls(L, a) == C_NAN) {
                    int64_t want = op == TC_OP_MAX ? (int64_t)(L->sign - 1) : -(int64_t)(L->sign - 1) - 1;
                    if (key_s(L, ka) != want)
                        fail_msg("%s NaN %016llx: key %016llx for op %u", L->name, (unsigned long long)a, (unsigned long long)ka, op);
                } else if (cls(L, b) != C_NAN) {
                    int c = fcmp(L, a, b), kc = key_s(L, ka) < key_s(L, kb) ? -1 : key_s(L, ka) > key_s(L, kb);
                    if (c != kc)
                        fail_msg("%s %016llx vs %016llx: values compare %d, keys %d", L->name, (unsigned long long)a,
                                 (unsigned long long)b, c, kc);
                }
                /* through the integer ALU: IEEE 754-2019 maximum/minimum */
                tc_flit fa = {{0, 0}}, fb = {{0, 0}}, y;
                fa.w[0] = ka, fb.w[0] = kb;
                tc_alu(&fa, &fb, op, L->lane, &y);
                uint64_t got = tc_fpsum_key_out(L->lane, y.w[0] & (L->lane == TC_LANE_32 ? 0xffffffffull : ~0ull)), want;
                if (cls(L, a) == C_NAN || cls(L, b) == C_NAN)
                    want = L->qnan;
                else
                    want = (fcmp(L, a, b) < 0) == (op == TC_OP_MAX) ? b : a;
                if (got != want)
                    fail_msg("%s op %u of %016llx, %016llx: %016llx, want %016llx", L->name, op, (unsigned long long)a,
                             (unsigned long long)b, (unsigned long long)got, (unsigned long long)want);
                alu_n++;
            }
            /* MINLOC/MAXLOC: (key, index) pairs in lanes 0, 1; a tie keeps the lower index */
            for (unsigned op = TC_OP_MINLOC; op <= TC_OP_MAXLOC; op++) {
                unsigned mx = op == TC_OP_MAXLOC, w = L->lane == TC_LANE_32 ? 32 : 64;
                uint64_t ka = tc_fpsum_key_in(L->lane, op, a), kb = tc_fpsum_key_in(L->lane, op, b), ia = 5, ib = 3;
                tc_flit fa = {{0, 0}}, fb = {{0, 0}}, y;
                if (w == 32)
                    fa.w[0] = ka | ia << 32, fb.w[0] = kb | ib << 32;
                else
                    fa.w[0] = ka, fa.w[1] = ia, fb.w[0] = kb, fb.w[1] = ib;
                tc_alu(&fa, &fb, op, L->lane, &y);
                uint64_t gk = w == 32 ? y.w[0] & 0xffffffffu : y.w[0], gi = w == 32 ? y.w[0] >> 32 : y.w[1];
                int c = cls(L, a) == C_NAN ? (cls(L, b) == C_NAN ? 0 : mx ? 1 : -1)
                        : cls(L, b) == C_NAN ? (mx ? -1 : 1)
                                             : fcmp(L, a, b);
                int take_a = c != 0 && (c > 0) == (int)mx; /* equal: b, the lower index */
                uint64_t wi = take_a ? ia : ib, wb = take_a ? a : b, wv = cls(L, wb) == C_NAN ? L->qnan : wb;
                if (tc_fpsum_key_out(L->lane, gk) != wv || gi != wi)
                    fail_msg("%s op %u of %016llx, %016llx: value %016llx index %llu, want %016llx index %llu", L->name, op,
                             (unsigned long long)a, (unsigned long long)b, (unsigned long long)tc_fpsum_key_out(L->lane, gk),
                             (unsigned long long)gi, (unsigned long long)wv, (unsigned long long)wi);
                alu_n++;
            }
        }
    }
    print_message("fpsum fmin/fmax: %llu random pairs of both lanes: keys in the values' order, round trip, "
                  "%llu MIN/MAX/MINLOC/MAXLOC through the integer ALU as IEEE 754-2019 minimum/maximum\n",
                  (unsigned long long)(2 * n), (unsigned long long)alu_n);
}

/* ---------------------------------------------------------------- 7. two passes */

/* The two-pass sum of long vectors (tc_fpsum_exp_key, _word, _word_out) as the PE
 * library runs it on the integer ALU: the keys' maximum, each value's word at it, the
 * words added lane by lane as the 64-bit SUM does (a lane that wraps is a failure:
 * the headroom must hold), the sum rounded. Checked against MPFR's exact sum: the
 * bound max(ulp(exact), 2^-80 sum|x|), the special values' rules, -0, overflow. */
static uint64_t two_pass(const lanefmt *L, const uint64_t *b, unsigned n, const char *what)
{
    unsigned h = 0, key = 0;
    while ((1u << h) < n)
        h++;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = tc_fpsum_exp_key(L->lane, b[i]);
        key = k > key ? k : key;
    }
    uint64_t s[2] = {0, 0};
    for (unsigned i = 0; i < n; i++) {
        uint64_t w[2];
        int64_t hi = 0;
        tc_fpsum_word(L->lane, b[i], key, h, w);
        if (__builtin_add_overflow(s[0], w[0], &s[0]) || __builtin_add_overflow((int64_t)s[1], (int64_t)w[1], &hi))
            fail_msg("%s: a lane of the words' sum wrapped at input %u of %u", what, i, n);
        s[1] = (uint64_t)hi;
    }
    return tc_fpsum_word_out(L->lane, key, h, s);
}

/* 1 if the result is the correctly rounded sum; worst: the largest |error| / bound of the others */
static int two_pass_check(const lanefmt *L, const uint64_t *b, unsigned n, const char *what, scratch *w, double *worst)
{
    uint64_t got = two_pass(L, b, n, what);
    int nan = 0, pinf = 0, ninf = 0, negz = 1;
    mpfr_set_zero(w->acc, 1);
    mpfr_set_zero(w->sabs, 1);
    for (unsigned i = 0; i < n; i++) {
        int c = cls(L, b[i]);
        negz &= c == C_ZERO && isneg(L, b[i]);
        nan |= c == C_NAN;
        pinf |= c == C_INF && !isneg(L, b[i]);
        ninf |= c == C_INF && isneg(L, b[i]);
        if (c == C_FIN) {
            to_mpfr(L, b[i], w->x);
            mpfr_add(w->acc, w->acc, w->x, MPFR_RNDN);
            mpfr_abs(w->x, w->x, MPFR_RNDN);
            mpfr_add(w->sabs, w->sabs, w->x, MPFR_RNDN);
        }
    }
    if (nan || (pinf && ninf)) {
        if (got != L->qnan)
            fail_msg("%s: NaN expected, got %016llx", what, (unsigned long long)got);
        return 1;
    }
    if (pinf || ninf) {
        if (got != (ninf ? L->sign : 0) + L->inf)
            fail_msg("%s: %cInf expected, got %016llx", what, ninf ? '-' : '+', (unsigned long long)got);
        return 1;
    }
    uint64_t ref = mpfr_zero_p(w->acc) ? (negz ? L->sign : 0) : rn_bits(L, w->acc);
    if (got == ref)
        return 1;
    if (cls(L, got) == C_ZERO && mpfr_zero_p(w->acc))
        fail_msg("%s: exact zero, output %016llx, IEEE gives %016llx", what, (unsigned long long)got, (unsigned long long)ref);
    if (cls(L, got) == C_INF || cls(L, ref) == C_INF)
        fail_msg("%s: output %016llx, correctly rounded %016llx (overflow decided otherwise)", what,
                 (unsigned long long)got, (unsigned long long)ref);
    double r = bound_ratio(L, got, w, what);
    *worst = r > *worst ? r : *worst;
    return 0;
}

static void test_two_pass(void **state)
{
    (void)state;
    scratch w;
    mpfr_inits2(PREC, w.acc, w.sabs, w.maxabs, w.x, w.v, w.t, w.u, (mpfr_ptr)0);
    mpfr_init2(w.r, 53);
    static const unsigned tp_sizes[] = {1, 2, 3, 7, 64, 1000, 16384};
    enum { TP_N = 16384 }; /* 2^TC_FPS2_MAX_H: the most inputs the words' headroom holds */
    uint64_t *b = malloc(TP_N * sizeof *b), total = 0, seed = 77;
    char what[160];
    assert_non_null(b);
    for (unsigned l = 0; l < 2; l++) {
        const lanefmt *L = &lanes[l];
        for (unsigned dist = 0; dist < TC_FPS_DISTS; dist++) {
            double worst = 0;
            uint64_t sums = 0, cr = 0;
            for (unsigned si = 0; si < sizeof tp_sizes / sizeof tp_sizes[0]; si++) {
                unsigned n = tp_sizes[si];
                uint64_t nsum = (budget / 20 / (2 * TC_FPS_DISTS) / 7 + n - 1) / n;
                for (uint64_t i = 0; i < nsum; i++, sums++) {
                    for (unsigned k = 0; k < n; k++)
                        b[k] = tc_fpsum_value(dist, L->lane, 2000 + si, k, i);
                    snprintf(what, sizeof what, "two passes %s %s N %u index %llu", L->name, tc_fpsum_dist_names[dist],
                             n, (unsigned long long)i);
                    cr += (uint64_t)two_pass_check(L, b, n, what, &w, &worst);
                    total += n;
                }
            }
            print_message("fpsum two passes %s %-7s: %llu sums of 1 to 16384 values, %llu correctly rounded, the "
                          "others within the bound (at most %.3g of it)\n", L->name, tc_fpsum_dist_names[dist],
                          (unsigned long long)sums, (unsigned long long)cr, worst);
        }
        /* the headroom's edges: 2^14 inputs of the largest magnitude of a binade, of one
         * sign or of both, and random values of every class */
        unsigned fb = L->p - 1;
        uint64_t ones = (1ull << fb) - 1, top = (1ull << L->ew) - 2;
        const uint64_t edge[] = {(top - 20) << fb | ones, 1ull << fb | ones, ones, top << fb | ones, 1};
        for (unsigned e = 0; e < sizeof edge / sizeof edge[0]; e++)
            for (unsigned mix = 0; mix < 3; mix++) {
                for (unsigned k = 0; k < TP_N; k++)
                    b[k] = edge[e] | (mix == 1 || (mix == 2 && k % 2) ? L->sign : 0);
                snprintf(what, sizeof what, "two passes %s: 2^14 x %016llx, %s", L->name, (unsigned long long)edge[e],
                         mix == 0 ? "positive" : mix == 1 ? "negative" : "both signs");
                double worst = 0;
                if (!two_pass_check(L, b, TP_N, what, &w, &worst))
                    fail_msg("%s: not the exact sum rounded", what);
                total += TP_N;
            }
        for (unsigned i = 0; i < 200; i++) {
            unsigned n = 1 + (unsigned)(sm(&seed) % 100);
            for (unsigned k = 0; k < n; k++)
                b[k] = rand_bits(L, &seed);
            snprintf(what, sizeof what, "two passes %s: random classes, sum %u of %u values", L->name, i, n);
            double worst = 0;
            two_pass_check(L, b, n, what, &w, &worst);
            total += n;
        }
    }
    print_message("fpsum two passes: %llu values in all\n", (unsigned long long)total);
    free(b);
    mpfr_clears(w.acc, w.sabs, w.maxabs, w.x, w.v, w.t, w.u, w.r, (mpfr_ptr)0);
    mpfr_free_cache();
}

/* ---------------------------------------------------------------- hand-checked cases */

static uint64_t sum_lane(unsigned lane, const uint64_t *v, size_t n)
{
    tc_flit e[2], x[2];
    tc_fpsum_zero(e);
    for (size_t i = 0; i < n; i++) {
        tc_fpsum_in(lane, v[i], x);
        tc_fpsum_merge(e, x, e);
    }
    return tc_fpsum_out(lane, e);
}
static uint64_t sum64(const uint64_t *v, size_t n) { return sum_lane(TC_LANE_64, v, n); }
static uint64_t sum32(const uint64_t *v, size_t n) { return sum_lane(TC_LANE_32, v, n); }

#define S64(...) sum64((const uint64_t[]){__VA_ARGS__}, sizeof((const uint64_t[]){__VA_ARGS__}) / 8)
#define S32(...) sum32((const uint64_t[]){__VA_ARGS__}, sizeof((const uint64_t[]){__VA_ARGS__}) / 8)

static void test_cases(void **state)
{
    (void)state;
    const uint64_t one = 0x3ff0000000000000ull, max = 0x7fefffffffffffffull, tiny = 1, inf = 0x7ff0000000000000ull;
    const uint64_t nan = 0x7ff8000000000000ull, neg = 1ull << 63;
    tc_flit e[2];
    /* indices: the smallest subnormal is bit 0 of bin 0, 2^-1010 bit 0 of bin 1, the largest in bin 32 */
    tc_fpsum_in(TC_LANE_64, tiny, e);
    assert_int_equal(tc_fpsum_idx(e), 0);
    /* the layout, by hand: the top bin first. BIN2 (absolute bin 0) in bits 90..10 holds
     * 1; BIN1 and BIN0 (absolute -1, -2), bits 252..91, are 0 */
    assert_int_equal(e[0].w[0], 1ull << 10);
    assert_int_equal(e[0].w[1], 0);
    assert_int_equal(e[1].w[0], 0);
    assert_int_equal(e[1].w[1], 0);
    tc_fpsum_in(TC_LANE_64, (uint64_t)(1023 - 1010) << 52, e);
    assert_int_equal(tc_fpsum_idx(e), 1);
    /* -(2^-1010 + 2^-1040), M = 2^64 + 2^34 units: IDX 1; BIN2 (absolute bin 1, bits
     * 90..10) = -1, all 81 bits set; BIN1 (absolute bin 0, bits 171..91: 37 in flit 0,
     * 44 in flit 1) = -2^34, its bits 80..34 set, i.e. bits 171..125; BIN0 0 */
    tc_fpsum_in(TC_LANE_64, neg | (uint64_t)(1023 - 1010) << 52 | 1ull << 22, e);
    assert_int_equal(e[0].w[0], 0xfffffffffffffc01ull);
    assert_int_equal(e[0].w[1], 0xe000000007ffffffull);
    assert_int_equal(e[1].w[0], 0x00000fffffffffffull);
    assert_int_equal(e[1].w[1], 0);
    tc_fpsum_in(TC_LANE_64, max, e);
    assert_int_equal(tc_fpsum_idx(e), 32);
    tc_fpsum_in(TC_LANE_32, 0x7f7fffff, e);
    assert_int_equal(tc_fpsum_idx(e), 4);
    tc_fpsum_in(TC_LANE_64, neg, e);
    assert_int_equal(tc_fpsum_flags(e), TC_FPS_NEGZ);
    /* special values */
    assert_int_equal(S64(one, 0x7ff0000000000123ull), nan); /* a signalling NaN's payload is not kept */
    assert_int_equal(S64(inf, inf | neg), nan);
    assert_int_equal(S64(inf, max, max), inf);
    assert_int_equal(S64(inf | neg, one), inf | neg);
    assert_int_equal(S64(neg, neg), neg);
    assert_int_equal(S64(neg, 0), 0);
    assert_int_equal(S64(one, one | neg), 0);
    /* overflow: the threshold is halfway from the largest finite to 2^1024 (ties to even) */
    assert_int_equal(S64(max, max), inf);
    assert_int_equal(S64(max | neg, max | neg), inf | neg);
    assert_int_equal(S64(max, (uint64_t)(970 + 1023) << 52), inf);
    assert_int_equal(S64(max, (uint64_t)(969 + 1023) << 52), max);
    assert_int_equal(S64(max, max, max | neg), max);
    /* gradual underflow, exact */
    assert_int_equal(S64(tiny, tiny), 2);
    assert_int_equal(S64(0x000fffffffffffffull, tiny), 0x0010000000000000ull);
    assert_int_equal(S64(0x0010000000000000ull, 0x0000000000000001ull | neg), 0x000fffffffffffffull);
    /* one rounding, ties to even: 1 + 2^-53 is 1; (1 + 2^-52) + 2^-53 is 1 + 2^-51 */
    assert_int_equal(S64(one, (uint64_t)(1023 - 53) << 52), one);
    assert_int_equal(S64(one + 1, (uint64_t)(1023 - 53) << 52), one + 2);
    assert_int_equal(S64(one, (uint64_t)(1023 - 53) << 52, (uint64_t)(1023 - 120) << 52), one + 1); /* above the tie */
    /* ... but 2^-1074 lies below the window of 1 (bins 14..16, from 2^-178): dropped, so
     * 1 + 2^-53 + 2^-1074 gives 1 where the correctly rounded sum is 1 + 2^-52 */
    assert_int_equal(S64(one, (uint64_t)(1023 - 53) << 52, tiny), one);
    assert_int_equal(S32(0x3f800000, 0x33800000), 0x3f800000);             /* binary32: 1 + 2^-24 */
    assert_int_equal(S32(0x3f800000, 0x33800000, 1), 0x3f800001);
    assert_int_equal(S32(0x7f7fffff, 0x7f7fffff), 0x7f800000);
    /* the documented loss: 2^700 - 2^700 + 2^-1000 is +0, not 2^-1000: 2^-1000 lies below
     * the window of bins 25..27 set by 2^700 (within 2^-80 sum|x|) */
    assert_int_equal(S64((uint64_t)(700 + 1023) << 52, (uint64_t)(700 + 1023) << 52 | neg, (uint64_t)(1023 - 1000) << 52), 0);
    /* the flag, not the bits, depends on the grouping: bins 2^80 - 1, 1, -1 */
    tc_flit a[2], b[2], c[2], ab[2], bc[2], l[2], r[2];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    memset(c, 0, sizeof c);
    a[0].w[0] = ((1ull << 54) - 1) << TC_FPS_BIN_LSB; /* BIN2, the top bin = 2^80 - 1: 54 bits in word 0, 26 in word 1 */
    a[0].w[1] = (1ull << 26) - 1;
    b[0].w[0] = 1ull << TC_FPS_BIN_LSB;
    c[0].w[0] = ((1ull << 54) - 1) << TC_FPS_BIN_LSB; /* -1: all 81 bits */
    c[0].w[1] = (1ull << 27) - 1;
    assert_int_equal(tc_fpsum_merge(a, b, ab), TC_ALU_OVERFLOW);
    assert_int_equal(tc_fpsum_merge(ab, c, l), TC_ALU_OVERFLOW);
    assert_int_equal(tc_fpsum_merge(b, c, bc), 0);
    assert_int_equal(tc_fpsum_merge(a, bc, r), 0);
    assert_memory_equal(l, r, sizeof l);
    assert_memory_equal(l, a, sizeof l);
    /* fmin/fmax keys */
    assert_int_equal(tc_fpsum_key_in(TC_LANE_64, TC_OP_MAX, neg), ~0ull);
    assert_int_equal(tc_fpsum_key_in(TC_LANE_64, TC_OP_MAX, nan), 0x7fffffffffffffffull);
    assert_int_equal(tc_fpsum_key_in(TC_LANE_64, TC_OP_MIN, nan | neg), 0x8000000000000000ull);
    assert_int_equal(tc_fpsum_key_in(TC_LANE_32, TC_OP_MINLOC, 0x7fc00000), 0x80000000ull);
    assert_int_equal(tc_fpsum_key_out(TC_LANE_32, 0x7fffffff), 0x7fc00000);
    /* generators: pure functions; uniform in [-1, 1) */
    assert_int_equal(tc_fpsum_value(TC_FPS_WIDE, TC_LANE_64, 3, 4, 5), tc_fpsum_value(TC_FPS_WIDE, TC_LANE_64, 3, 4, 5));
    assert_true(tc_fpsum_value(TC_FPS_WIDE, TC_LANE_64, 3, 4, 5) != tc_fpsum_value(TC_FPS_WIDE, TC_LANE_64, 3, 5, 5));
    assert_int_equal(tc_fpsum_value(TC_FPS_DISTS, TC_LANE_64, 3, 4, 5), 0);
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t v = tc_fpsum_value(TC_FPS_UNIFORM, TC_LANE_64, 1, i, 0), u = tc_fpsum_value(TC_FPS_UNIFORM, TC_LANE_32, 1, i, 0);
        assert_true((v & ~neg) < one || v == (one | neg));
        assert_true((u & 0x7fffffff) < 0x3f800000 || u == 0xbf800000);
        assert_true(u >> 32 == 0);
    }
    assert_string_equal(tc_fpsum_dist_names[TC_FPS_CANCEL], "cancel");
    assert_null(tc_fpsum_dist_names[TC_FPS_DISTS]);
    /* the root's conversion of a result (tc_fpsum_values), by hand: 3 elements of 1.0,
     * -2.0 and +Inf; binary64 two a flit (the second flit's upper lane 0), binary32 four */
    tc_flit el[6], v[3];
    const uint64_t in64[3] = {one, neg | 0x4000000000000000ull, inf};
    for (int j = 0; j < 3; j++)
        tc_fpsum_in(TC_LANE_64, in64[j], &el[2 * j]);
    memset(v, 0xa5, sizeof v);
    assert_int_equal(tc_fpsum_values_len(TC_LANE_64, 6), 2);
    assert_int_equal(tc_fpsum_values(TC_LANE_64, 6, el, v), 2);
    assert_int_equal(v[0].w[0], one);
    assert_int_equal(v[0].w[1], in64[1]);
    assert_int_equal(v[1].w[0], inf);
    assert_int_equal(v[1].w[1], 0);
    const uint64_t in32[3] = {0x3f800000, 0xc0000000, 0x7f800000};
    for (int j = 0; j < 3; j++)
        tc_fpsum_in(TC_LANE_32, in32[j], &el[2 * j]);
    assert_int_equal(tc_fpsum_values_len(TC_LANE_32, 6), 1);
    assert_int_equal(tc_fpsum_values(TC_LANE_32, 6, el, v), 1);
    assert_int_equal(v[0].w[0], in32[1] << 32 | in32[0]);
    assert_int_equal(v[0].w[1], in32[2]);
    assert_int_equal(tc_fpsum_values_len(TC_LANE_64, 2), 1);
    assert_int_equal(tc_fpsum_values_len(TC_LANE_64, 4), 1);
    assert_int_equal(tc_fpsum_values_len(TC_LANE_64, 0), 0);
    /* the two pipeline stages make tc_fpsum_out */
    tc_fpsum_mid mid;
    tc_fpsum_in(TC_LANE_64, in64[1], el);
    tc_fpsum_out_s1(TC_LANE_64, el, &mid);
    assert_int_equal(mid.neg, 1);
    assert_int_equal(tc_fpsum_out_s2(&mid), in64[1]);
}

int main(void)
{
    const char *n = getenv("TC_FPSUM_ELEMENTS");
    if (n)
        budget = strtoull(n, NULL, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),      cmocka_unit_test(test_round_trip), cmocka_unit_test(test_accuracy),
        cmocka_unit_test(test_reproducible), cmocka_unit_test(test_merge_laws), cmocka_unit_test(test_causal),
        cmocka_unit_test(test_minmax), cmocka_unit_test(test_two_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
