#include "fpsum.h"

#include <stddef.h>

#include "alu.h" /* tc_lane_put: a result's values in lanes */

/* 81-bit bins are held in unsigned __int128 (GCC and Clang), as two's-complement
 * patterns sign-extended to 128 bits; all arithmetic on them is unsigned, so it wraps
 * by definition and nothing here depends on signed overflow or signed shifts. This is
 * the only place the type appears. */
typedef unsigned __int128 u128;

#define BIN_MASK ((((u128)1) << TC_FPS_BIN_W) - 1)
#define BIN_SIGN (((u128)1) << (TC_FPS_BIN_W - 1))

/* An element unpacked: bin[r] is BINr, absolute bin idx-2+r (bin[0] the lowest), which
 * pack() and unpack() place top bin first (tc_fpsum_bin_lsb); nothing else here
 * depends on where a bin sits. */
typedef struct {
    unsigned idx, flags;
    u128 bin[TC_FPS_BINS]; /* 81-bit values sign-extended to 128 bits */
} elem;

/* An IEEE binary format: precision p (with the hidden bit), exponent bits, and the
 * exponent of the smallest subnormal, which is also bit 0 of bin 0. */
typedef struct {
    unsigned p, ew;
    int qmin;
} fp_fmt;

static const fp_fmt fmt64 = {53, 11, -1074}, fmt32 = {24, 8, -149};

static const fp_fmt *fmt_of(unsigned lane) { return lane == TC_LANE_32 ? &fmt32 : &fmt64; }
static uint64_t f_sign(const fp_fmt *f) { return 1ull << (f->p - 1 + f->ew); }
static uint64_t f_emax(const fp_fmt *f) { return (1ull << f->ew) - 1; } /* biased exponent of Inf/NaN */
static uint64_t f_inf(const fp_fmt *f) { return f_emax(f) << (f->p - 1); }
static uint64_t f_qnan(const fp_fmt *f) { return f_inf(f) | 1ull << (f->p - 2); }
static uint64_t f_mask(const fp_fmt *f) { return f->p + f->ew == 64 ? ~0ull : (1ull << (f->p + f->ew)) - 1; }
static int f_isnan(const fp_fmt *f, uint64_t bits)
{
    bits &= f_mask(f) & ~f_sign(f);
    return bits > f_inf(f);
}

/* ---------------------------------------------------------------- packing */

static u128 sext81(u128 v)
{
    v &= BIN_MASK;
    return v & BIN_SIGN ? v | ~BIN_MASK : v;
}

/* The element as two 128-bit halves, h[0] = bits 127..0 (flit e[0]), h[1] = bits 255..128. */
static u128 field_get(const u128 h[2], unsigned lsb, unsigned width)
{
    u128 v = lsb >= 128 ? h[1] >> (lsb - 128) : lsb + width <= 128 ? h[0] >> lsb : h[0] >> lsb | h[1] << (128 - lsb);
    return v & ((((u128)1) << width) - 1);
}

/* OR v's low width bits into bits lsb .. of h (the field is 0 before). */
static void field_or(u128 h[2], unsigned lsb, unsigned width, u128 v)
{
    v &= (((u128)1) << width) - 1;
    if (lsb >= 128) {
        h[1] |= v << (lsb - 128);
    } else {
        h[0] |= v << lsb;
        if (lsb + width > 128)
            h[1] |= v >> (128 - lsb);
    }
}

static void unpack(const tc_flit e[2], elem *x)
{
    const u128 h[2] = {(u128)e[0].w[1] << 64 | e[0].w[0], (u128)e[1].w[1] << 64 | e[1].w[0]};
    x->idx = (unsigned)field_get(h, TC_FPS_IDX_LSB, TC_FPS_IDX_W);
    x->flags = (unsigned)field_get(h, TC_FPS_FLAGS_LSB, TC_FPS_FLAGS_W);
    for (unsigned r = 0; r < TC_FPS_BINS; r++)
        x->bin[r] = sext81(field_get(h, tc_fpsum_bin_lsb(r), TC_FPS_BIN_W));
}

static void pack(const elem *x, tc_flit e[2])
{
    u128 h[2] = {0, 0};
    field_or(h, TC_FPS_IDX_LSB, TC_FPS_IDX_W, x->idx);
    field_or(h, TC_FPS_FLAGS_LSB, TC_FPS_FLAGS_W, x->flags);
    for (unsigned r = 0; r < TC_FPS_BINS; r++)
        field_or(h, tc_fpsum_bin_lsb(r), TC_FPS_BIN_W, x->bin[r]);
    e[0].w[0] = (uint64_t)h[0], e[0].w[1] = (uint64_t)(h[0] >> 64);
    e[1].w[0] = (uint64_t)h[1], e[1].w[1] = (uint64_t)(h[1] >> 64);
}

/* ---------------------------------------------------------------- 256-bit magnitudes */

static unsigned bitlen64(uint64_t v) { return v ? 64 - (unsigned)__builtin_clzll(v) : 0; }

static unsigned u256_bitlen(const uint64_t m[4])
{
    for (unsigned k = 4; k-- > 0;)
        if (m[k])
            return 64 * k + bitlen64(m[k]);
    return 0;
}

static unsigned u256_bit(const uint64_t m[4], int i) { return i >= 0 && i < 256 ? (m[i / 64] >> (i % 64)) & 1 : 0; }

/* 64 bits of m from bit s up. */
static uint64_t u256_extract(const uint64_t m[4], unsigned s)
{
    unsigned k = s / 64, b = s % 64;
    if (k >= 4)
        return 0;
    uint64_t v = m[k] >> b;
    if (b && k + 1 < 4)
        v |= m[k + 1] << (64 - b);
    return v;
}

/* Any of bits 0 .. i-1 set. */
static int u256_any_below(const uint64_t m[4], int i)
{
    for (int k = 0; k < 4 && i > 0; k++, i -= 64)
        if (m[k] & (i >= 64 ? ~0ull : (1ull << i) - 1))
            return 1;
    return 0;
}

/* (-1)^neg * m * 2^e0 rounded once to nearest, ties to even, into format f: gradual
 * underflow below the smallest normal, Inf above the largest finite. */
static uint64_t round_pack(const fp_fmt *f, int neg, const uint64_t m[4], int e0)
{
    uint64_t sign = neg ? f_sign(f) : 0, mant;
    unsigned n = u256_bitlen(m);
    if (!n)
        return sign;
    int p = (int)f->p;
    int q = (int)n - 1 + e0 - (p - 1); /* the quantum: exponent of the result's last bit */
    if (q < f->qmin)
        q = f->qmin;
    int s = q - e0; /* bits of m below the quantum; m >> s has at most p bits */
    if (s <= 0) {
        mant = m[0] << -s; /* exact: then m < 2^p */
    } else {
        mant = u256_extract(m, (unsigned)s);
        if (u256_bit(m, s - 1) && ((mant & 1) || u256_any_below(m, s - 1)))
            mant++;
        if (mant >> p) { /* rounded up to the next binade */
            mant >>= 1;
            q++;
        }
    }
    int bias = (1 << (f->ew - 1)) - 1;
    uint64_t biased = mant >> (p - 1) ? (uint64_t)(q + p - 1 + bias) : 0; /* 0: subnormal */
    if (biased >= f_emax(f))
        return sign | f_inf(f);
    return sign | biased << (p - 1) | (mant & ((1ull << (p - 1)) - 1));
}

/* ---------------------------------------------------------------- the element */

void tc_fpsum_zero(tc_flit e[2])
{
    elem x = {0, TC_FPS_NEGZ, {0, 0, 0}};
    pack(&x, e);
}

void tc_fpsum_in(unsigned lane, uint64_t bits, tc_flit e[2])
{
    const fp_fmt *f = fmt_of(lane);
    unsigned fb = f->p - 1;
    bits &= f_mask(f);
    int neg = (bits & f_sign(f)) != 0;
    uint64_t ex = (bits >> fb) & f_emax(f), fr = bits & ((1ull << fb) - 1);
    elem x = {0, 0, {0, 0, 0}};
    if (ex == f_emax(f)) {
        x.flags = fr ? TC_FPS_NAN : neg ? TC_FPS_NINF : TC_FPS_PINF;
    } else if (ex == 0 && fr == 0) {
        x.flags = neg ? TC_FPS_NEGZ : 0;
    } else {
        /* |x| = m * 2^(t + qmin): bit t of the lane's fixed-point scale is m's last bit */
        uint64_t m = ex ? fr | 1ull << fb : fr;
        int t = (int)(ex ? ex : 1) - 1;
        x.idx = (unsigned)(t + (int)bitlen64(m) - 1) / TC_FPS_SLICE_W;
        for (unsigned r = 0; r < TC_FPS_BINS; r++) {
            int a = (int)x.idx - 2 + (int)r, u = t - TC_FPS_SLICE_W * a; /* m's last bit in bin a */
            if (a < 0)
                continue;
            uint64_t slice = u >= 64 ? 0 : u >= 0 ? m << u : u > -64 ? m >> -u : 0;
            x.bin[r] = neg ? (u128)0 - slice : (u128)slice;
        }
    }
    pack(&x, e);
}

unsigned tc_fpsum_merge(const tc_flit a_in[2], const tc_flit b_in[2], tc_flit y[2])
{
    elem a, b, z;
    unpack(a_in, &a);
    unpack(b_in, &b);
    if (b.idx > a.idx) { /* a: the larger index; equal indices add bin by bin either way */
        elem t = a;
        a = b;
        b = t;
    }
    unsigned d = a.idx - b.idx, flags = 0;
    z.idx = a.idx;
    z.flags = ((a.flags | b.flags) & (TC_FPS_NAN | TC_FPS_PINF | TC_FPS_NINF)) | (a.flags & b.flags & TC_FPS_NEGZ);
    for (unsigned r = 0; r < TC_FPS_BINS; r++) {
        /* b's bin r+d is a's bin r; b's bins below a's window (r' < d) are dropped */
        u128 s = a.bin[r] + (r + d < TC_FPS_BINS ? b.bin[r + d] : 0);
        z.bin[r] = sext81(s);
        if (z.bin[r] != s) /* the 128-bit sum of two 81-bit values is exact: compare */
            flags |= TC_ALU_OVERFLOW;
    }
    pack(&z, y);
    return flags;
}

void tc_fpsum_out_s1(unsigned lane, const tc_flit e[2], tc_fpsum_mid *m)
{
    elem x;
    unpack(e, &x);
    m->lane = lane;
    m->idx = x.idx;
    m->flags = x.flags;
    /* V = bin0 + bin1 2^64 + bin2 2^128 as a 256-bit two's-complement integer (it needs
     * 210 bits), the carries propagated; then sign and magnitude. */
    uint64_t *v = m->mag;
    v[0] = v[1] = v[2] = v[3] = 0;
    for (unsigned r = 0; r < TC_FPS_BINS; r++) {
        uint64_t b[4] = {0, 0, 0, 0}, ext = x.bin[r] & BIN_SIGN ? ~0ull : 0;
        b[r] = (uint64_t)x.bin[r];
        for (unsigned k = r + 1; k < 4; k++)
            b[k] = k == r + 1 ? (uint64_t)(x.bin[r] >> 64) : ext;
        unsigned c = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint64_t s = v[k] + b[k], c1 = s < v[k];
            v[k] = s + c;
            c = (unsigned)(c1 | (v[k] < s));
        }
    }
    m->neg = (unsigned)(v[3] >> 63);
    if (m->neg) {
        unsigned c = 1;
        for (unsigned k = 0; k < 4; k++) {
            v[k] = ~v[k] + c;
            c = c && v[k] == 0;
        }
    }
}

uint64_t tc_fpsum_out_s2(const tc_fpsum_mid *m)
{
    const fp_fmt *f = fmt_of(m->lane);
    if ((m->flags & TC_FPS_NAN) || (m->flags & (TC_FPS_PINF | TC_FPS_NINF)) == (TC_FPS_PINF | TC_FPS_NINF))
        return f_qnan(f);
    if (m->flags & TC_FPS_PINF)
        return f_inf(f);
    if (m->flags & TC_FPS_NINF)
        return f_sign(f) | f_inf(f);
    if (!u256_bitlen(m->mag))
        return m->flags & TC_FPS_NEGZ ? f_sign(f) : 0;
    return round_pack(f, (int)m->neg, m->mag, TC_FPS_SLICE_W * ((int)m->idx - 2) + f->qmin);
}

uint64_t tc_fpsum_out(unsigned lane, const tc_flit e[2])
{
    tc_fpsum_mid m;
    tc_fpsum_out_s1(lane, e, &m);
    return tc_fpsum_out_s2(&m);
}

unsigned tc_fpsum_values(unsigned lane, unsigned len, const tc_flit *el, tc_flit *out)
{
    unsigned vpf = tc_fpsum_values_per_flit(lane), n = tc_fpsum_values_len(lane, len);
    for (unsigned f = 0; f < n; f++)
        out[f] = (tc_flit){{0, 0}};
    for (unsigned j = 0; j < len / 2; j++)
        tc_lane_put(&out[j / vpf], 128 / vpf, j % vpf, tc_fpsum_out(lane, &el[2 * j]));
    return n;
}

void tc_fpsum_elements(unsigned lane, unsigned len, const tc_flit *vals, tc_flit *el)
{
    unsigned vpf = tc_fpsum_values_per_flit(lane);
    for (unsigned j = 0; j < len / 2; j++)
        tc_fpsum_in(lane, tc_lane_get(&vals[j / vpf], 128 / vpf, j % vpf), &el[2 * j]);
}

/* ---------------------------------------------------------------- fmin, fmax */

uint64_t tc_fpsum_key_in(unsigned lane, unsigned op, uint64_t bits)
{
    const fp_fmt *f = fmt_of(lane);
    uint64_t sign = f_sign(f);
    bits &= f_mask(f);
    if (f_isnan(f, bits))
        return op == TC_OP_MAX || op == TC_OP_MAXLOC ? sign - 1 : sign;
    return bits & sign ? bits ^ (sign - 1) : bits; /* negative: larger magnitude, smaller key */
}

uint64_t tc_fpsum_key_out(unsigned lane, uint64_t key)
{
    const fp_fmt *f = fmt_of(lane);
    uint64_t sign = f_sign(f);
    key &= f_mask(f);
    uint64_t bits = key & sign ? key ^ (sign - 1) : key;
    return f_isnan(f, bits) ? f_qnan(f) : bits;
}

/* ---------------------------------------------------------------- two passes */

unsigned tc_fpsum_exp_key(unsigned lane, uint64_t bits)
{
    const fp_fmt *f = fmt_of(lane);
    uint64_t ex = (bits & f_mask(f)) >> (f->p - 1) & f_emax(f), fr = bits & ((1ull << (f->p - 1)) - 1);
    return ex ? (unsigned)ex : fr ? 1 : 0;
}

/* The word's scale: values of key k lie below 2^top, top = k - bias + 1 (a subnormal's
 * key 1 too); a word unit is 2^(top - F). */
static int word_top(const fp_fmt *f, unsigned key) { return (int)key - ((1 << (f->ew - 1)) - 1) + 1; }
static int word_f(unsigned h) { return 127 - 2 * (int)h; }

void tc_fpsum_word(unsigned lane, uint64_t bits, unsigned key, unsigned h, uint64_t w[2])
{
    const fp_fmt *f = fmt_of(lane);
    unsigned fb = f->p - 1;
    bits &= f_mask(f);
    int neg = (bits & f_sign(f)) != 0;
    uint64_t ex = (bits >> fb) & f_emax(f), fr = bits & ((1ull << fb) - 1);
    w[0] = w[1] = 0;
    if (key == f_emax(f)) { /* counts of the specials */
        if (ex == f_emax(f))
            w[0] = fr ? 1ull << 42 : neg ? 1 : 1ull << 21;
        return;
    }
    if (key == 0) { /* only zeros: count the +0s */
        w[0] = bits == 0;
        return;
    }
    if (ex == 0 && fr == 0)
        return;
    /* |x| = m 2^q; M = floor(|x| / 2^(top - F)) < 2^F, as |x| < 2^top */
    uint64_t m = ex ? fr | 1ull << fb : fr;
    int q = (int)(ex ? ex : 1) - 1 + f->qmin, s = q - word_top(f, key) + word_f(h);
    u128 mag = s >= 0 ? (u128)m << s : -s < 64 ? (u128)(m >> -s) : 0;
    u128 word = neg ? (u128)0 - mag : mag;
    unsigned l = 64 - h; /* w[0]: the low l bits; w[1]: the rest, whose sum stays within 64 bits */
    w[0] = l == 64 ? (uint64_t)word : (uint64_t)word & ((1ull << l) - 1);
    w[1] = (uint64_t)(word >> l); /* the arithmetic shift's low 64 bits: |word| < 2^(l + 63 - h) */
}

uint64_t tc_fpsum_word_out(unsigned lane, unsigned key, unsigned h, const uint64_t w[2])
{
    const fp_fmt *f = fmt_of(lane);
    if (key == f_emax(f)) {
        uint64_t nan = w[0] >> 42, pinf = w[0] >> 21 & 0x1fffff, ninf = w[0] & 0x1fffff;
        if (nan || (pinf && ninf))
            return f_qnan(f);
        return (ninf ? f_sign(f) : 0) | f_inf(f);
    }
    if (key == 0)
        return w[0] ? 0 : f_sign(f);
    unsigned l = 64 - h;
    u128 hi = (u128)w[1] | (w[1] >> 63 ? ~(u128)0 << 64 : 0); /* sign-extended */
    u128 sum = (hi << l) + w[0];
    int neg = (int)(sum >> 127);
    u128 mag = neg ? (u128)0 - sum : sum;
    const uint64_t m[4] = {(uint64_t)mag, (uint64_t)(mag >> 64), 0, 0};
    return round_pack(f, neg, m, word_top(f, key) - word_f(h)); /* 0 gives +0 */
}

/* ---------------------------------------------------------------- value generators */

const char *const tc_fpsum_dist_names[TC_FPS_DISTS + 1] = {"uniform", "wide", "cancel", "special", NULL};

/* splitmix64's finalizer (Steele, Lea, Flood, 2014): a bijection that mixes well. */
static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Draw k of (node, index); node NODE_NONE draws per index (shared by every node). */
#define NODE_NONE (~0ull)
static uint64_t draw(unsigned dist, unsigned lane, uint64_t seed, uint64_t node, uint64_t index, unsigned k)
{
    uint64_t stream = (uint64_t)dist << 40 | (uint64_t)(lane == TC_LANE_32) << 32 | k;
    return mix(mix(mix(mix(seed) ^ node) ^ index) ^ stream);
}

/* (-1)^neg * mag * 2^q, which the caller keeps representable. */
static uint64_t exact(const fp_fmt *f, int neg, uint64_t mag, int q)
{
    const uint64_t m[4] = {mag, 0, 0, 0};
    return round_pack(f, neg, m, q);
}

static uint64_t ieee(const fp_fmt *f, uint64_t neg, uint64_t ex, uint64_t fr)
{
    return (neg ? f_sign(f) : 0) | ex << (f->p - 1) | (fr & ((1ull << (f->p - 1)) - 1));
}

/* special's finite values: zeros, subnormals, the edges of the normal range, values
 * near the largest (sums of them overflow) and normals of every exponent. */
static uint64_t special_finite(const fp_fmt *f, uint64_t rv, uint64_t rw)
{
    unsigned fb = f->p - 1;
    uint64_t neg = rv >> 63, top = f_emax(f) - 1, ones = (1ull << fb) - 1;
    switch (rv % 16) {
    case 0: return 0;
    case 1: return f_sign(f);
    case 2:
    case 3:
    case 4: { /* subnormal, its length drawn too */
        uint64_t fr = (rw & ones) >> ((rw >> 58) % fb);
        return ieee(f, neg, 0, fr ? fr : 1);
    }
    case 5:
        switch ((rv >> 8) % 4) {
        case 0: return ieee(f, neg, 0, 1);        /* smallest subnormal */
        case 1: return ieee(f, neg, 0, ones);     /* largest subnormal */
        case 2: return ieee(f, neg, 1, 0);        /* smallest normal */
        default: return ieee(f, neg, top, ones); /* largest finite */
        }
    case 6: return ieee(f, neg, top, rw);
    default: return ieee(f, neg, 1 + rw % top, rw >> 16 ^ rw);
    }
}

uint64_t tc_fpsum_value(unsigned dist, unsigned lane, uint64_t seed, uint64_t node, uint64_t index)
{
    const fp_fmt *f = fmt_of(lane);
    unsigned fb = f->p - 1;
    uint64_t r0 = draw(dist, lane, seed, node, index, 0);
    switch (dist) {
    case TC_FPS_UNIFORM: { /* k 2^-p, k uniform in [-2^p, 2^p): [-1, 1) on the format's grid */
        uint64_t k = r0 >> (63 - f->p);
        int neg = k < (1ull << f->p);
        return exact(f, neg, neg ? (1ull << f->p) - k : k - (1ull << f->p), -(int)f->p);
    }
    case TC_FPS_WIDE: { /* every biased exponent up to 2^-17 of the largest: 2^16 of them never overflow */
        uint64_t r1 = draw(dist, lane, seed, node, index, 1);
        return ieee(f, r0 >> 63, r1 % (f_emax(f) - 17), r0);
    }
    case TC_FPS_CANCEL: {
        /* Index i: nodes 0..o (o = i mod 2) hold residuals of about 2^(E-D); the nodes
         * after them pair up, (o+1, o+2), (o+3, o+4), ..., as +B_j and -B_j, B_j about
         * 2^E / (j+1) so that sum|x| grows only as log N. Over N nodes the pairs cancel
         * exactly when N - o - 1 is even: one index of two for every N >= 3, with
         * sum|x| / |sum x| about 2^D (10^10 .. 10^30) times a factor up to log2 N; the
         * other indices keep one B unpaired (docs/fpsum.md has the measured numbers). */
        uint64_t ri = draw(dist, lane, seed, NODE_NONE, index, 0), o = index & 1;
        int e = lane == TC_LANE_32 ? -29 + (int)(ri % 156) : -900 + (int)(ri % 1901); /* E */
        int dd = 35 + (int)((ri >> 32) % 61);                                         /* D: 35 .. 95 */
        if (node <= o) {
            uint64_t rr = draw(dist, lane, seed, node, index, 1);
            int ex = e - dd - (int)((rr >> 40) % 3);
            return exact(f, (int)(rr >> 63), (rr | 1ull << fb) & ((2ull << fb) - 1), ex - (int)fb);
        }
        uint64_t j = (node - o - 1) / 2, first = o + 1 + 2 * j, rp = draw(dist, lane, seed, first, index, 2);
        int ex = e - (int)bitlen64(j) - (int)((rp >> 40) % 2);
        return exact(f, (int)((rp >> 63) ^ (node != first)), (rp | 1ull << fb) & ((2ull << fb) - 1), ex - (int)fb);
    }
    case TC_FPS_SPECIAL: {
        /* The index draws a mode: 5 of 8 have no NaN or Inf (one of them mostly -0), one
         * +Inf now and then, one +Inf and -Inf, one NaN and both infinities. */
        unsigned mode = (unsigned)(draw(dist, lane, seed, NODE_NONE, index, 0) % 8), u = (unsigned)(r0 % 64);
        uint64_t rv = draw(dist, lane, seed, node, index, 1), rw = draw(dist, lane, seed, node, index, 2);
        switch (mode) {
        case 4:
            if (u)
                return f_sign(f);
            break;
        case 5:
            if (u < 4)
                return f_inf(f);
            break;
        case 6:
            if (u < 8)
                return (u < 4 ? 0 : f_sign(f)) | f_inf(f);
            break;
        case 7:
            if (u < 2) /* any payload, quiet or signalling, either sign */
                return (rv >> 63 ? f_sign(f) : 0) | f_inf(f) | ((rw & ((1ull << fb) - 1)) | 1);
            if (u < 4)
                return (u < 3 ? 0 : f_sign(f)) | f_inf(f);
            break;
        default: break;
        }
        return special_finite(f, rv, rw);
    }
    default: return 0;
    }
}
