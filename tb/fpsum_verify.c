/* The independent check of the floating-point sum, fmin and fmax: reads values files
 * written by `tcnet ... op=fsum|min|max values=DIST values_out=FILE` and checks, with
 * exact sums and comparisons in GNU MPFR (no code of cmodel/fpsum.c), for every value
 * index of a sum (fpsum_verify FILE...):
 *   - every PE received the same bits;
 *   - NaN in gives NaN, +Inf with -Inf NaN, one kind of Inf that Inf; an exact sum
 *     beyond the format's range Inf of its sign; an exact 0 gives +0, or -0 when every
 *     input was -0;
 *   - else |result - exact| <= max(ulp(exact), 2^-80 x sum |x|) (docs/fpsum.md);
 * of fmin, fmax (fpsum_verify --op min|max FILE...): every PE received the same bits,
 * a NaN if an input is a NaN, else the bits of the least (greatest) input, -0 below +0;
 * and across files: files whose inputs are equal (the same node count, seed and
 * distribution, on other tori, trees or latencies) received the same bits.
 * Prints a PASS/FAIL line per file and per group of equal inputs, then a count. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

typedef struct {
    const char *path;
    int lane;               /* 32 or 64 */
    size_t nin, nout, nvals;
    uint64_t *in, *out;     /* [nin][nvals], [nout][nvals] */
    double worst_ulp, worst_bound; /* the largest error in ulps of the exact sum, and as a share of the bound */
} vfile;

static int fail(const char *path, const char *msg, long line)
{
    if (line >= 0)
        printf("FAIL  fpsum_verify %s line %ld: %s\n", path, line, msg);
    else
        printf("FAIL  fpsum_verify %s: %s\n", path, msg);
    return -1;
}

/* One "<node> in|out <hex> ..." line into v; -1 on a malformed line. */
static int parse_line(vfile *v, char *s, long ln)
{
    char *tok = strtok(s, " \t\n"), *kind = strtok(NULL, " \t\n"), *end;
    if (!tok || !kind || (strtoul(tok, &end, 10), *end) || (strcmp(kind, "in") && strcmp(kind, "out")))
        return fail(v->path, "expected '<node> in|out <hex> ...'", ln);
    int is_in = !strcmp(kind, "in");
    size_t cap = 64, n = 0;
    uint64_t *row = malloc(cap * sizeof *row);
    for (char *h; row && (h = strtok(NULL, " \t\n"));) {
        int w = (int)strlen(h);
        if ((w != 8 && w != 16) || (v->lane && w * 4 != v->lane)) {
            free(row);
            return fail(v->path, "a value is not 8 (binary32) or 16 (binary64) hex digits like the others", ln);
        }
        v->lane = w * 4;
        if (n == cap && !(row = realloc(row, (cap *= 2) * sizeof *row)))
            break;
        row[n++] = strtoull(h, &end, 16);
        if (*end) {
            free(row);
            return fail(v->path, "not a hex number", ln);
        }
    }
    if (!row)
        return fail(v->path, "out of memory", ln);
    if ((v->nin || v->nout) && n != v->nvals) {
        free(row);
        return fail(v->path, "a line with another count of values", ln);
    }
    v->nvals = n;
    size_t *cnt = is_in ? &v->nin : &v->nout;
    uint64_t **arr = is_in ? &v->in : &v->out;
    uint64_t *grown = realloc(*arr, (*cnt + 1) * (n ? n : 1) * sizeof **arr);
    if (!grown) {
        free(row);
        return fail(v->path, "out of memory", ln);
    }
    *arr = grown;
    memcpy(*arr + *cnt * n, row, n * sizeof *row);
    (*cnt)++;
    free(row);
    return 0;
}

static int load(vfile *v)
{
    FILE *f = fopen(v->path, "r");
    if (!f)
        return fail(v->path, "cannot open", -1);
    char *line = NULL;
    size_t cap = 0;
    long ln = 0;
    int rc = 0;
    while (!rc && getline(&line, &cap, f) > 0)
        rc = parse_line(v, line, ++ln);
    free(line);
    fclose(f);
    if (!rc && (!v->nin || !v->nout))
        rc = fail(v->path, "no 'in' or no 'out' line", -1);
    return rc;
}

/* IEEE fields of lane-width bits */
typedef struct {
    int p, emin; /* precision; exponent of the smallest subnormal's bit */
    int ebits;
} fmt;

static int is_nan(const fmt *f, uint64_t b)
{
    uint64_t e = (b >> (f->p - 1)) & ((1ull << f->ebits) - 1), m = b & ((1ull << (f->p - 1)) - 1);
    return e == (1ull << f->ebits) - 1 && m;
}
static int is_inf(const fmt *f, uint64_t b)
{
    uint64_t e = (b >> (f->p - 1)) & ((1ull << f->ebits) - 1), m = b & ((1ull << (f->p - 1)) - 1);
    return e == (1ull << f->ebits) - 1 && !m;
}
static int sign_of(const fmt *f, uint64_t b) { return (int)((b >> (f->p - 1 + f->ebits)) & 1); }

/* x = the finite value of bits b, exactly */
static void set_bits(mpfr_t x, const fmt *f, uint64_t b)
{
    uint64_t e = (b >> (f->p - 1)) & ((1ull << f->ebits) - 1), m = b & ((1ull << (f->p - 1)) - 1);
    long q = f->emin; /* weight of the significand's last bit */
    if (e) {
        m |= 1ull << (f->p - 1);
        q += (long)e - 1;
    }
    mpfr_set_ui_2exp(x, 0, 0, MPFR_RNDN);
    mpfr_set_uj(x, m, MPFR_RNDN);
    mpfr_mul_2si(x, x, q, MPFR_RNDN);
    if (sign_of(f, b))
        mpfr_neg(x, x, MPFR_RNDN);
}

/* fmin (max 0) or fmax (max 1) of file v; -1 with a FAIL line at the first wrong value. */
static int check_minmax(vfile *v, int max)
{
    fmt f = v->lane == 64 ? (fmt){53, -1074, 11} : (fmt){24, -149, 8};
    mpfr_t best, x;
    mpfr_inits2(2400, best, x, (mpfr_ptr)0);
    int rc = 0;
    char msg[256];
    for (size_t i = 0; i < v->nvals && !rc; i++) {
        int nan = 0, have = 0;
        uint64_t want = 0;
        for (size_t k = 0; k < v->nin; k++) {
            uint64_t b = v->in[k * v->nvals + i];
            if (is_nan(&f, b)) {
                nan = 1;
                continue;
            }
            int c;
            if (is_inf(&f, b)) /* +-Inf: beyond every finite value */
                mpfr_set_inf(x, sign_of(&f, b) ? -1 : 1);
            else
                set_bits(x, &f, b);
            /* equal values differ only as -0 and +0: the sign decides */
            c = !have ? 1 : mpfr_cmp(x, best) ? (mpfr_cmp(x, best) > 0) == max : sign_of(&f, b) != max && want != b;
            if (c) {
                mpfr_set(best, x, MPFR_RNDN);
                want = b;
                have = 1;
            }
        }
        uint64_t r = v->out[i];
        for (size_t k = 1; k < v->nout && !rc; k++)
            if (v->out[k * v->nvals + i] != r) {
                snprintf(msg, sizeof msg, "value %zu: PEs received different bits (%" PRIx64 ", %" PRIx64 ")", i, r,
                         v->out[k * v->nvals + i]);
                rc = fail(v->path, msg, -1);
            }
        if (!rc && (nan ? !is_nan(&f, r) : r != want)) {
            snprintf(msg, sizeof msg, "value %zu: result %0*" PRIx64 " is not the %s (%s)", i, v->lane / 4, r,
                     max ? "fmax" : "fmin", nan ? "a NaN: an input is one" : "an input's bits");
            rc = fail(v->path, msg, -1);
        }
    }
    mpfr_clears(best, x, (mpfr_ptr)0);
    if (!rc)
        printf("PASS  fpsum_verify %s: %s of binary%d, %zu values x %zu PEs in, %zu PEs received the same bits, each "
               "the exact %s\n", v->path, max ? "fmax" : "fmin", v->lane, v->nvals, v->nin, v->nout,
               max ? "greatest" : "least");
    return rc;
}

/* Checks the sum of file v; -1 with a FAIL line at the first wrong value. */
static int check(vfile *v)
{
    fmt f = v->lane == 64 ? (fmt){53, -1074, 11} : (fmt){24, -149, 8};
    mpfr_t s, a, x, d, bound, ulp, huge;
    mpfr_inits2(2400, s, a, x, d, bound, ulp, huge, (mpfr_ptr)0);
    /* the least exact value that rounds to Inf: (2 - 2^-p) 2^emax = (2^(p+1) - 1) 2^(emax-p) */
    long emax = (1l << (f.ebits - 1)) - 1;
    mpfr_set_ui_2exp(huge, (1ul << (f.p + 1)) - 1, emax - f.p, MPFR_RNDN);
    int rc = 0;
    char msg[256];
    for (size_t i = 0; i < v->nvals && !rc; i++) {
        int nan = 0, pinf = 0, ninf = 0, allnegz = 1;
        mpfr_set_ui(s, 0, MPFR_RNDN);
        mpfr_set_ui(a, 0, MPFR_RNDN);
        for (size_t k = 0; k < v->nin; k++) {
            uint64_t b = v->in[k * v->nvals + i];
            if (is_nan(&f, b)) {
                nan = 1;
                continue;
            }
            if (is_inf(&f, b)) {
                *(sign_of(&f, b) ? &ninf : &pinf) = 1;
                allnegz = 0;
                continue;
            }
            allnegz &= b == (1ull << (v->lane - 1));
            set_bits(x, &f, b);
            mpfr_add(s, s, x, MPFR_RNDN); /* exact: 2400 bits hold any sum of 2^16 values */
            mpfr_abs(x, x, MPFR_RNDN);
            mpfr_add(a, a, x, MPFR_RNDN);
        }
        uint64_t r = v->out[i];
        for (size_t k = 1; k < v->nout; k++)
            if (v->out[k * v->nvals + i] != r) {
                snprintf(msg, sizeof msg, "value %zu: PEs received different bits (%" PRIx64 ", %" PRIx64 ")", i, r,
                         v->out[k * v->nvals + i]);
                rc = fail(v->path, msg, -1);
                break;
            }
        if (rc)
            break;
        const char *why = NULL;
        int neg = mpfr_sgn(s) < 0;
        if (nan || (pinf && ninf)) {
            why = is_nan(&f, r) ? NULL : "not NaN (a NaN in, or +Inf with -Inf)";
        } else if (pinf || ninf) {
            why = is_inf(&f, r) && sign_of(&f, r) == ninf ? NULL : "not the Inf of the inputs";
        } else if (mpfr_cmpabs(s, huge) >= 0) {
            why = is_inf(&f, r) && sign_of(&f, r) == neg ? NULL : "not Inf of its sign (the exact sum is beyond the range)";
        } else if (mpfr_zero_p(s)) {
            why = (r & ~(1ull << (v->lane - 1))) == 0 && sign_of(&f, r) == allnegz ? NULL
                  : "not +0 (or -0 when every input is -0) for an exact sum of 0";
        } else if (is_nan(&f, r) || is_inf(&f, r)) {
            why = "not finite";
        } else {
            long e = mpfr_get_exp(s) - 1 - (f.p - 1); /* ulp(s) = 2^e, at least the smallest subnormal's */
            mpfr_set_ui_2exp(ulp, 1, e > f.emin ? e : f.emin, MPFR_RNDN);
            mpfr_mul_2si(bound, a, -80, MPFR_RNDN);
            if (mpfr_cmp(ulp, bound) > 0)
                mpfr_set(bound, ulp, MPFR_RNDN);
            set_bits(x, &f, r);
            mpfr_sub(d, x, s, MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            double in_ulp = mpfr_get_d(d, MPFR_RNDU) / mpfr_get_d(ulp, MPFR_RNDD);
            mpfr_div(d, d, bound, MPFR_RNDU);
            double of_bound = mpfr_get_d(d, MPFR_RNDU);
            if (of_bound > 1.0)
                why = "error beyond max(ulp(exact), 2^-80 sum |x|)";
            v->worst_ulp = fmax(v->worst_ulp, in_ulp);
            v->worst_bound = fmax(v->worst_bound, of_bound);
        }
        if (why) {
            snprintf(msg, sizeof msg, "value %zu: result %0*" PRIx64 " is %s", i, v->lane / 4, r, why);
            rc = fail(v->path, msg, -1);
        }
    }
    mpfr_clears(s, a, x, d, bound, ulp, huge, (mpfr_ptr)0);
    if (!rc)
        printf("PASS  fpsum_verify %s: binary%d, %zu values x %zu PEs in, %zu PEs received the same bits; worst error "
               "%.3g ulp, %.3g of the bound\n",
               v->path, v->lane, v->nvals, v->nin, v->nout, v->worst_ulp, v->worst_bound);
    return rc;
}

int main(int argc, char **argv)
{
    int op = 0; /* 0 sum, 1 fmin, 2 fmax */
    if (argc > 2 && !strcmp(argv[1], "--op")) {
        op = !strcmp(argv[2], "sum") ? 0 : !strcmp(argv[2], "min") ? 1 : !strcmp(argv[2], "max") ? 2 : -1;
        if (op < 0) {
            fprintf(stderr, "fpsum_verify: --op '%s' is not sum, min or max\n", argv[2]);
            return 2;
        }
        argc -= 2;
        argv += 2;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: fpsum_verify [--op sum|min|max] VALUES_FILE...\n");
        return 2;
    }
    int n = argc - 1, pass = 0, failed = 0;
    vfile *v = calloc((size_t)n, sizeof *v);
    int *group = malloc((size_t)n * sizeof *group);
    if (!v || !group)
        return 2;
    uint64_t elems = 0;
    for (int i = 0; i < n; i++) {
        v[i].path = argv[i + 1];
        if (load(&v[i]) || (op ? check_minmax(&v[i], op == 2) : check(&v[i]))) {
            failed++;
            group[i] = -1;
            continue;
        }
        pass++;
        elems += (uint64_t)v[i].nin * v[i].nvals;
        group[i] = i; /* the first file with equal inputs */
        for (int j = 0; j < i; j++)
            if (group[j] == j && v[j].lane == v[i].lane && v[j].nin == v[i].nin && v[j].nvals == v[i].nvals &&
                !memcmp(v[j].in, v[i].in, v[i].nin * v[i].nvals * sizeof *v[i].in)) {
                group[i] = j;
                break;
            }
    }
    for (int g = 0; g < n; g++) {
        if (group[g] != g)
            continue;
        int members = 0, differ = -1;
        for (int i = g; i < n; i++)
            if (group[i] == g) {
                members++;
                if (differ < 0 && memcmp(v[i].out, v[g].out, v[g].nvals * sizeof *v[g].out))
                    differ = i;
            }
        if (members < 2)
            continue;
        if (differ >= 0) {
            printf("FAIL  fpsum_verify: %s and %s have the same inputs but received different bits\n", v[g].path,
                   v[differ].path);
            failed++;
        } else {
            printf("PASS  fpsum_verify: %d runs with the inputs of %s received the same bits\n", members, v[g].path);
            pass++;
        }
    }
    printf("fpsum_verify: %d passed, %d failed (%" PRIu64 " input values %s)\n", pass, failed, elems,
           op ? "compared" : "summed");
    for (int i = 0; i < n; i++) {
        free(v[i].in);
        free(v[i].out);
    }
    free(v);
    free(group);
    return failed != 0;
}
