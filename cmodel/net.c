#include "net.h"
#include "pool.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Something arriving at a node after a delay: a link flit and credits at input
 * `port`, or on the PE side a flit and a credit. */
typedef struct {
    uint32_t node;
    uint8_t port, cred;
    tc_wire w;
} tc_arrival;

/* The arrivals due at one cycle modulo the latency: a timing wheel of these per
 * delay, so a cycle touches only what moves. */
typedef struct {
    tc_arrival *a;
    size_t n, cap;
} tc_slot;

/* An arrival of a sweep: at cycle `off` of it, a link flit and credits at input
 * `port`, the PE's flit (port KIND_INJ) or its ejection credit (port KIND_EJC). */
enum { KIND_INJ = 0xfe, KIND_EJC = 0xff };
typedef struct {
    uint8_t off, port, cred;
    tc_wire w;
} tc_input;

/* A router's barrier phase changed in cycle c of a sweep: for lemma 1. */
typedef struct {
    uint32_t node;
    uint16_t before, after;
    uint64_t c;
} tc_phchange;

struct tc_net {
    tc_params p;
    tc_topo topo;
    int np;
    uint64_t cycle;      /* the PEs' cycle: the next one tc_net_step() ends */
    uint64_t rcycle;     /* the routers' next cycle, at most blk - 1 behind (tc_net_lookahead) */
    int blk, blk_max;    /* cycles the routers are evaluated in one sweep; its bound, the lookahead */
    tc_router *r;
    tc_pool pool;        /* the units' buffers, each taken as its first flit comes */
    tc_flit *red;        /* per node: its Reducer's partial results */
    tc_red_entry *red_ent;
    int *nbr;            /* nbr[node * np + port] */
    /* Timing wheels, indexed by the cycle an arrival is due modulo their size, which
     * is the latency plus the lookahead and 2: an arrival is written before the
     * routers or the PEs that read it reach its cycle, and a slot is emptied as it is read. */
    tc_slot *link;       /* [wl]: flits and credits into router inputs */
    tc_slot *inj, *ej_c; /* [wi]: PE flits into routers; [we]: PE credits into routers */
    tc_slot *ej, *inj_c; /* [we]: ejected flits to PEs; [wi]: injection credits to PEs */
    size_t wl, wi, we;
    tc_pe_in *pe_in;     /* what each PE drives this cycle (nodes in `staged`, marked by `smark`) */
    uint32_t *staged;
    uint64_t *smark;
    size_t nstaged;
    tc_pe_out *pe_out;   /* what each PE sees this cycle (nodes in `seen`) */
    uint32_t *seen;
    size_t nseen;
    /* Routers evaluated in a sweep (`act`, deduplicated by `mark` = its first cycle + 1),
     * and those not idle after their last cycle (`busy`, flagged in `bflag`). */
    uint32_t *act, *busy;
    size_t nact, nbusy;
    /* flits of packets other than the credit block's reports on the way to the PEs
     * (an ejection arrival's `port` is 1 for them), and of them those the PEs see now */
    uint64_t ej_other, seen_other;
    uint64_t *mark;
    uint8_t *bflag;
    /* A sweep's arrivals, listed per router (`head`, `nxt`) in cycle order, and the
     * changes of the routers' barrier phase in it, per router (`hfirst`). */
    tc_input *arr;
    int32_t *nxt, *head, *hfirst;
    size_t narr, carr;
    tc_phchange *ph;
    size_t nph, cph;
    uint64_t *flits;     /* [node][port]: flits sent on each link */
    char fault[160];     /* the first broken invariant (lemma 1), or "" */
};

/* The routers' state and the timing wheels are mapped rather than malloc'ed, so
 * that they sit on transparent huge pages: the routers are swept every cycle, and
 * with 4 KB pages the TLB misses and page faults cost more than the model.
 * Mapped memory is zero, and only the pages touched are backed. Below a huge page
 * calloc serves better: a small network's arrays (a wheel slot's 4 KB) would each
 * take a mapping, and a run's page faults and system calls could cost more than it. */
#define BIG_BYTES ((size_t)2 << 20)
static void *big_alloc(size_t bytes)
{
    if (bytes < BIG_BYTES)
        return calloc(1, bytes);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it, 4 KB pages */
    return p;
}

static void big_free(void *p, size_t bytes)
{
    if (p && bytes < BIG_BYTES)
        free(p);
    else if (p)
        munmap(p, bytes);
}

/* p (old bytes, from big_alloc) grown to bytes; NULL if out of memory (p kept). */
static void *big_grow(void *p, size_t old, size_t bytes)
{
    if (bytes < BIG_BYTES)
        return realloc(p, bytes);
    if (old >= BIG_BYTES) {
        void *q = mremap(p, old, bytes, MREMAP_MAYMOVE);
        if (q == MAP_FAILED)
            return NULL;
        madvise(q, bytes, MADV_HUGEPAGE);
        return q;
    }
    void *q = big_alloc(bytes);
    if (q) {
        memcpy(q, p, old);
        free(p);
    }
    return q;
}

static int slot_push(tc_slot *s, tc_arrival a)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 128;
        void *na = s->a ? big_grow(s->a, s->cap * sizeof *s->a, cap * sizeof *s->a) : big_alloc(cap * sizeof *s->a);
        if (!na)
            return -1;
        s->a = na;
        s->cap = cap;
    }
    s->a[s->n++] = a;
    return 0;
}

/* A unit's SRAM, from the pool: 0 if out of memory. */
static int take_mem(tc_net *n, tc_unit *un)
{
    un->mem = tc_pool_take(&n->pool, (size_t)un->nslots * TC_SLOT_FLITS * sizeof *un->mem);
    return un->mem != NULL;
}

/* Unit u, which a flit arrives at, has its SRAM: 0 if out of memory. */
static int give_mem(tc_net *n, tc_unit *un) { return un->mem || take_mem(n, un); }

/* Router k is evaluated in the sweep that begins at cycle c0 (its arrivals listed from head[k]). */
static void activate(tc_net *n, uint32_t k, uint64_t c0)
{
    if (n->mark[k] != c0 + 1) {
        n->mark[k] = c0 + 1;
        n->head[k] = -1;
        n->act[n->nact++] = k;
    }
}

/* The cache lines that the evaluation of act[i] reads first (its state in front of its
 * units), or its live units': the sweep over the routers is in node order but a
 * router's state is kilobytes, too far apart for the processor's prefetcher. */
static void prefetch_router(const tc_net *n, size_t i, int units)
{
    if (i >= n->nact)
        return;
    const tc_router *r = &n->r[n->act[i]];
    if (units) {
        for (unsigned m = r->live; m; m &= m - 1) {
            __builtin_prefetch(&r->u[__builtin_ctz(m)]);
            __builtin_prefetch((const char *)&r->u[__builtin_ctz(m)] + 64);
        }
        return;
    }
    for (size_t b = 0; b < offsetof(tc_router, u); b += 64)
        __builtin_prefetch((const char *)r + b);
}

/* Routers are evaluated in node order whatever the order their inputs arrived in:
 * the sweep over their state is then sequential, which the cache prefetcher follows.
 * A dense list is rebuilt from the marks, a sparse one sorted. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void sort_active(tc_net *n, uint64_t c0)
{
    size_t nn = (size_t)n->topo.n;
    if (n->nact * 16 < nn) {
        qsort(n->act, n->nact, sizeof *n->act, cmp_u32);
        return;
    }
    size_t m = 0;
    for (uint32_t k = 0; k < nn; k++)
        if (n->mark[k] == c0 + 1)
            n->act[m++] = k;
    n->nact = m;
}

void tc_params_default(tc_params *p)
{
    memset(p, 0, sizeof *p);
    p->ndims = 2;
    p->size[0] = p->size[1] = 4;
    p->size[2] = p->size[3] = 1;
#define TC_PARAM(key, vname, def, min, max, help) p->key = def;
#include "params.def"
#undef TC_PARAM
}

int tc_params_check(const tc_params *p, char *err, size_t errlen)
{
    tc_topo t;
    if (tc_topo_init(&t, p->ndims, p->size, err, errlen))
        return -1;
#define TC_PARAM(key, vname, def, min, max, help)                                                                      \
    if (p->key < (min) || p->key > (max)) {                                                                            \
        snprintf(err, errlen, "%s %d is not in %d..%d", #key, p->key, (int)(min), (int)(max));                         \
        return -1;                                                                                                     \
    }
#include "params.def"
#undef TC_PARAM
    if (TC_TREES % p->red_slices) {
        snprintf(err, errlen, "red_slices %d does not divide the %d trees: 1, 2 or 4", p->red_slices, TC_TREES);
        return -1;
    }
    if (p->red_rids & (p->red_rids - 1)) {
        snprintf(err, errlen, "red_rids %d is not a power of two: 16, 32 or 64", p->red_rids);
        return -1;
    }
    return 0;
}

void tc_params_from_config(tc_params *p, const tc_config *c)
{
#define TC_PARAM(key, vname, def, min, max, help) p->key = (int)tc_config_int(c, #key);
#include "params.def"
#undef TC_PARAM
}

tc_net *tc_net_new(const tc_params *p, char *err, size_t errlen)
{
    tc_topo t;
    if (tc_params_check(p, err, errlen) || tc_topo_init(&t, p->ndims, p->size, err, errlen))
        return NULL;
    tc_net *n = calloc(1, sizeof *n);
    size_t nn = (size_t)t.n, np = (size_t)(2 * t.ndims);
    size_t nred = tc_router_red_flits(p->red_flits, p->red_rids);
    if (!n) {
        snprintf(err, errlen, "out of memory for %zu nodes", nn);
        return NULL;
    }
    n->p = *p;
    n->topo = t;
    n->np = (int)np;
    n->r = big_alloc(nn * sizeof *n->r);
    tc_pool_init(&n->pool, (size_t)64 << 20);
    n->red = big_alloc(nn * nred * sizeof *n->red);
    n->red_ent = big_alloc(nn * TC_TREES * (size_t)p->red_rids * sizeof *n->red_ent);
    n->blk = 1;
    n->blk_max = p->link_lat < p->inj_lat ? p->link_lat : p->inj_lat;
    n->blk_max = n->blk_max < p->ej_lat ? n->blk_max : p->ej_lat;
    n->blk_max = n->blk_max < TC_NET_MAX_LOOKAHEAD ? n->blk_max : TC_NET_MAX_LOOKAHEAD;
    n->wl = (size_t)(p->link_lat + n->blk_max + 2);
    n->wi = (size_t)(p->inj_lat + n->blk_max + 2);
    n->we = (size_t)(p->ej_lat + n->blk_max + 2);
    n->nbr = malloc(nn * np * sizeof(int));
    n->link = calloc(n->wl, sizeof *n->link);
    n->inj = calloc(n->wi, sizeof *n->inj);
    n->inj_c = calloc(n->wi, sizeof *n->inj_c);
    n->ej = calloc(n->we, sizeof *n->ej);
    n->ej_c = calloc(n->we, sizeof *n->ej_c);
    n->pe_in = calloc(nn, sizeof *n->pe_in);
    n->staged = malloc(nn * sizeof *n->staged);
    n->pe_out = calloc(nn, sizeof *n->pe_out);
    n->seen = malloc(2 * nn * sizeof *n->seen); /* a flit and a credit each */
    n->act = malloc(nn * sizeof *n->act);
    n->busy = malloc(nn * sizeof *n->busy);
    n->mark = calloc(nn, sizeof *n->mark);
    n->bflag = calloc(nn, 1);
    n->head = malloc(nn * sizeof *n->head);
    n->hfirst = malloc(nn * sizeof *n->hfirst);
    n->smark = calloc(nn, sizeof *n->smark);
    n->flits = calloc(nn * np, sizeof *n->flits);
    if (!n->smark || !n->flits || !n->r || !n->red || !n->red_ent || !n->nbr || !n->link || !n->inj || !n->inj_c ||
        !n->ej || !n->ej_c || !n->pe_in || !n->staged || !n->pe_out || !n->seen || !n->act || !n->busy || !n->mark ||
        !n->bflag || !n->head || !n->hfirst) {
        snprintf(err, errlen, "out of memory for %zu nodes", nn);
        tc_net_free(n);
        return NULL;
    }
    int diam = tc_diameter(&t);
    for (size_t k = 0; k < nn; k++) {
        tc_router_reset(&n->r[k], (int)k, (int)np, p->red_slices, p->slots, p->inj_slots, p->pe_credits,
                        p->red_flits, p->red_rids, NULL, n->red + k * nred,
                        n->red_ent + k * TC_TREES * (size_t)p->red_rids);
        n->r[k].diam = (uint16_t)diam;
        n->r[k].plant = (uint8_t)p->plant;
        n->r[k].mcast = (uint8_t)p->mcast;
        /* the result and report buffers are written inside the router's cycle: theirs
         * now; the link inputs' and the PEGroup FIFO's as their first flits come */
        for (int u = TC_U_RESULT((int)np, 0); u <= TC_U_REPORT((int)np, p->red_slices); u++)
            if (!take_mem(n, &n->r[k].u[u])) {
                snprintf(err, errlen, "out of memory for %zu nodes", nn);
                tc_net_free(n);
                return NULL;
            }
        for (size_t d = 0; d < np; d++)
            n->nbr[k * np + d] = tc_neighbour(&t, (int)k, (int)d);
        n->hfirst[k] = -1;
    }
    return n;
}

static void free_wheel(tc_slot *w, size_t size)
{
    for (size_t i = 0; w && i < size; i++)
        big_free(w[i].a, w[i].cap * sizeof *w[i].a);
    free(w);
}

void tc_net_free(tc_net *n)
{
    if (!n)
        return;
    size_t nn = (size_t)n->topo.n, nred = tc_router_red_flits(n->p.red_flits, n->p.red_rids);
    big_free(n->r, nn * sizeof *n->r);
    tc_pool_free(&n->pool);
    big_free(n->red, nn * nred * sizeof *n->red);
    big_free(n->red_ent, nn * TC_TREES * (size_t)n->p.red_rids * sizeof *n->red_ent);
    free(n->nbr);
    free_wheel(n->link, n->wl);
    free_wheel(n->inj, n->wi);
    free_wheel(n->inj_c, n->wi);
    free_wheel(n->ej, n->we);
    free_wheel(n->ej_c, n->we);
    free(n->pe_in);
    free(n->staged);
    free(n->pe_out);
    free(n->seen);
    free(n->act);
    free(n->busy);
    free(n->mark);
    free(n->bflag);
    free(n->head);
    free(n->hfirst);
    free(n->arr);
    free(n->nxt);
    free(n->ph);
    free(n->smark);
    free(n->flits);
    free(n);
}

const tc_topo *tc_net_topo(const tc_net *n) { return &n->topo; }
const tc_params *tc_net_params(const tc_net *n) { return &n->p; }
int tc_net_nports(const tc_net *n) { return n->np; }
uint64_t tc_net_cycle(const tc_net *n) { return n->cycle; }

void tc_net_cfg(tc_net *n, int node, int tree, tc_row row) { n->r[node].row[tree] = row; }

void tc_net_pe_out(const tc_net *n, int node, tc_pe_out *out) { *out = n->pe_out[node]; }

void tc_net_pe_in(tc_net *n, int node, const tc_pe_in *in)
{
    uint32_t k = (uint32_t)node;
    if ((in->inj.valid || in->ej_cred) && n->smark[k] != n->cycle + 1) {
        n->smark[k] = n->cycle + 1;
        n->staged[n->nstaged++] = k;
    }
    n->pe_in[k] = *in; /* the last call of the cycle counts */
}

/* A router's barrier phase after cycle c of the sweep (its changes are listed from hfirst). */
static uint16_t phase_at(const tc_net *n, uint32_t j, uint64_t c)
{
    int32_t i = n->hfirst[j];
    if (i < 0)
        return n->r[j].ph.total;
    uint16_t v = n->ph[i].before;
    for (size_t x = (size_t)i; x < n->nph && n->ph[x].node == j && n->ph[x].c <= c; x++)
        v = n->ph[x].after;
    return v;
}

/* Lemma 1 of Makagon and Syromyatnikov (2012): the phases of neighbours differ by at
 * most 1, checked on the state after each cycle of the sweep in which a phase changed;
 * the first broken (by cycle, then node, then port) is the fault. */
static void check_lemma1(tc_net *n)
{
    size_t np = (size_t)n->np, bad = SIZE_MAX;
    uint32_t badj = 0;
    for (size_t i = 0; i < n->nph; i++) {
        const tc_phchange *e = &n->ph[i];
        if (bad != SIZE_MAX && (e->c > n->ph[bad].c || (e->c == n->ph[bad].c && e->node > n->ph[bad].node)))
            continue;
        for (size_t d = 0; d < np; d++) {
            uint32_t j = (uint32_t)n->nbr[e->node * np + d];
            int16_t diff = (int16_t)(e->after - phase_at(n, j, e->c));
            if (diff > 1 || diff < -1) {
                bad = i, badj = j;
                break;
            }
        }
    }
    if (bad != SIZE_MAX && !n->fault[0]) {
        const tc_phchange *e = &n->ph[bad];
        snprintf(n->fault, sizeof n->fault, "cycle %llu: lemma 1 broken: node %u completed %u phases, its neighbour %u %u",
                 (unsigned long long)e->c, e->node, e->after, badj, phase_at(n, badj, e->c));
    }
    for (size_t i = 0; i < n->nph; i++)
        n->hfirst[n->ph[i].node] = -1;
    n->nph = 0;
}

/* Arrival x at router k, in the sweep from cycle c0: listed in front of k's. */
static int add_input(tc_net *n, uint32_t k, uint64_t c0, tc_input x)
{
    if (n->narr == n->carr) {
        size_t cap = n->carr ? 2 * n->carr : 4096;
        tc_input *a = realloc(n->arr, cap * sizeof *a);
        if (a)
            n->arr = a;
        int32_t *nx = realloc(n->nxt, cap * sizeof *nx);
        if (nx)
            n->nxt = nx;
        if (!a || !nx || cap > INT32_MAX)
            return 0;
        n->carr = cap;
    }
    activate(n, k, c0);
    n->arr[n->narr] = x;
    n->nxt[n->narr] = n->head[k];
    n->head[k] = (int32_t)n->narr++;
    return 1;
}

/* Router k's registered outputs after cycle c, onto the wires: to the neighbours'
 * inputs at cycle c + 1 + link_lat, to its PE at c + 1 + ej_lat (flits) and
 * c + 1 + inj_lat (injection credits). */
static int push_outputs(tc_net *n, uint32_t k, uint64_t c)
{
    size_t np = (size_t)n->np;
    const tc_router *r = &n->r[k];
    tc_slot *lk = &n->link[(c + 1 + (uint64_t)n->p.link_lat) % n->wl];
    int ok = 1;
    for (unsigned m = (r->qmask & ((1u << np) - 1)) | r->cqmask; m; m &= m - 1) {
        size_t d = (size_t)__builtin_ctz(m);
        ok &= !slot_push(lk, (tc_arrival){(uint32_t)n->nbr[k * np + d], (uint8_t)(d ^ 1), r->cred_q[d], r->o[d].q});
        n->flits[k * np + d] += r->o[d].q.valid;
    }
    if ((r->qmask >> TC_O_PE(np)) & 1) {
        uint8_t other = r->o[TC_O_PE(np)].owner != TC_U_REPORT((int)np, n->p.red_slices);
        n->ej_other += other;
        ok &= !slot_push(&n->ej[(c + 1 + (uint64_t)n->p.ej_lat) % n->we], (tc_arrival){k, other, 0, r->o[TC_O_PE(np)].q});
    }
    if (r->inj_cred_q)
        ok &= !slot_push(&n->inj_c[(c + 1 + (uint64_t)n->p.inj_lat) % n->wi],
                         (tc_arrival){k, 0, r->inj_cred_q, {0, 0, {{0, 0}}}});
    if (!ok && !n->fault[0])
        snprintf(n->fault, sizeof n->fault, "cycle %llu: out of memory for the flits in flight", (unsigned long long)(c + 1));
    return ok;
}

/* Router k through cycles c0 .. c0 + nb - 1 of a sweep: evaluated in a cycle with an
 * input, when not idle, when the report timer wraps, and in every cycle with
 * observation records (nb is 1 then). */
static void run_router(tc_net *n, uint32_t k, uint64_t c0, int nb, uint32_t *obs)
{
    tc_router *r = &n->r[k];
    tc_router_in in;
    memset(&in, 0, sizeof in);
    int32_t x = n->head[k];
    unsigned busy = n->bflag[k];
    for (int off = 0; off < nb; off++) {
        uint64_t c = c0 + (uint64_t)off;
        unsigned any = x >= 0 && n->arr[x].off == off; /* a flit or a credit arrives (all are valid or non-zero) */
        if (!any && !busy && !obs && c % TC_REPORT_CYCLES != TC_REPORT_CYCLES - 1)
            continue;
        int mem = 1;
        unsigned ports = 0; /* the link inputs written into in, cleared after the cycle */
        for (; x >= 0 && n->arr[x].off == off; x = n->nxt[x]) {
            const tc_input *a = &n->arr[x];
            if (a->port == KIND_INJ) {
                in.inj = a->w;
                mem &= give_mem(n, &r->u[TC_U_BCAST(n->np)]);
            } else if (a->port == KIND_EJC) {
                in.ej_cred = a->cred;
            } else {
                in.link[a->port] = a->w;
                in.cred[a->port] = a->cred;
                ports |= 1u << a->port;
                if (a->w.valid && a->w.vc < 2)
                    mem &= give_mem(n, &r->u[2 * a->port + a->w.vc]);
            }
        }
        uint16_t total = r->ph.total;
        r->cb.cyc = (uint16_t)(c % TC_REPORT_CYCLES); /* it ticked while the router slept */
        if (mem && !obs && !any && !busy) /* idle since its last cycle, which busy is of */
            tc_router_idle_cycle(r);
        else if (mem)
            tc_router_cycle(r, &in, obs ? obs + k * (size_t)TC_OBS_WORDS(n->np, n->p.red_slices) : NULL);
        if (any) {
            for (; ports; ports &= ports - 1) {
                memset(&in.link[__builtin_ctz(ports)], 0, sizeof in.link[0]);
                in.cred[__builtin_ctz(ports)] = 0;
            }
            memset(&in.inj, 0, sizeof in.inj);
            in.ej_cred = 0;
        }
        if (!mem) {
            if (!n->fault[0])
                snprintf(n->fault, sizeof n->fault, "cycle %llu: out of memory for the buffers", (unsigned long long)c);
            continue;
        }
        busy = !tc_router_idle(r); /* an idle router drives nothing */
        if (busy)
            push_outputs(n, k, c);
        if (r->ph.total != total) {
            if (n->nph == n->cph) {
                size_t cap = n->cph ? 2 * n->cph : 1024;
                tc_phchange *ph = realloc(n->ph, cap * sizeof *ph);
                if (!ph) {
                    if (!n->fault[0])
                        snprintf(n->fault, sizeof n->fault, "cycle %llu: out of memory for lemma 1's check", (unsigned long long)c);
                    continue;
                }
                n->ph = ph;
                n->cph = cap;
            }
            if (n->hfirst[k] < 0)
                n->hfirst[k] = (int32_t)n->nph;
            n->ph[n->nph++] = (tc_phchange){k, total, r->ph.total, c};
        }
    }
    n->bflag[k] = (uint8_t)busy;
}

/* The routers through cycles rcycle .. rcycle + nb - 1, one router after another:
 * nothing a router does in a cycle reaches another router or a PE sooner than the
 * lookahead (nb at most), so each may run its nb cycles alone, its state in the cache. */
static void run_routers(tc_net *n, int nb, uint32_t *obs)
{
    size_t nn = (size_t)n->topo.n;
    uint64_t c0 = n->rcycle;
    int ok = 1;
    /* the routers of the sweep: those not idle, those with an arrival (listed per
     * router, last cycle first, so in cycle order), and all when the report timer
     * wraps in it, or with observation records */
    n->nact = n->narr = 0;
    for (size_t i = 0; i < n->nbusy; i++)
        activate(n, n->busy[i], c0);
    for (int off = nb; off-- > 0;) {
        uint64_t c = c0 + (uint64_t)off;
        tc_slot *sl[3] = {&n->link[c % n->wl], &n->inj[c % n->wi], &n->ej_c[c % n->we]};
        for (int w = 0; w < 3; w++) {
            for (size_t i = 0; i < sl[w]->n; i++) {
                const tc_arrival *a = &sl[w]->a[i];
                uint8_t port = w == 0 ? a->port : w == 1 ? (uint8_t)KIND_INJ : (uint8_t)KIND_EJC;
                ok &= add_input(n, a->node, c0, (tc_input){(uint8_t)off, port, a->cred, a->w});
            }
            sl[w]->n = 0;
        }
    }
    if (obs || (c0 + (uint64_t)nb) / TC_REPORT_CYCLES != c0 / TC_REPORT_CYCLES)
        for (uint32_t k = 0; k < nn; k++)
            activate(n, k, c0);
    sort_active(n, c0);
    n->nbusy = 0;
    for (size_t i = 0; i < n->nact && ok; i++) {
        uint32_t k = n->act[i];
        prefetch_router(n, i + 4, 0);
        prefetch_router(n, i + 2, 1);
        run_router(n, k, c0, nb, obs);
        if (n->bflag[k])
            n->busy[n->nbusy++] = k;
    }
    if (!ok && !n->fault[0])
        snprintf(n->fault, sizeof n->fault, "cycle %llu: out of memory for the arrivals", (unsigned long long)c0);
    n->rcycle = c0 + (uint64_t)nb;
    check_lemma1(n);
}

void tc_net_sync(tc_net *n)
{
    if (n->cycle > n->rcycle)
        run_routers(n, (int)(n->cycle - n->rcycle), NULL);
}

/* No flit or credit on a link or the PCIe's way in (nor, with ej, on its way out). */
static int channels_empty(const tc_net *n, int ej)
{
    for (size_t i = 0; i < n->wl; i++)
        if (n->link[i].n)
            return 0;
    for (size_t i = 0; i < n->wi; i++)
        if (n->inj[i].n || n->inj_c[i].n)
            return 0;
    for (size_t i = 0; ej && i < n->we; i++)
        if (n->ej[i].n || n->ej_c[i].n)
            return 0;
    return 1;
}

int tc_net_quiet(tc_net *n)
{
    tc_net_sync(n);
    /* nseen: a flit or credit the PEs have yet to take this cycle */
    return !n->nbusy && !n->nstaged && !n->nseen && channels_empty(n, 1);
}

int tc_net_settled(tc_net *n)
{
    tc_net_sync(n);
    if (n->nstaged || n->ej_other || !channels_empty(n, 0))
        return 0;
    for (size_t i = 0; i < n->nbusy; i++)
        if (!tc_router_settled(&n->r[n->busy[i]]))
            return 0;
    return 1;
}

int tc_net_lookahead(tc_net *n, int on)
{
    tc_net_sync(n);
    n->blk = on ? n->blk_max : 1;
    return n->blk;
}

void tc_net_step(tc_net *n, uint32_t *obs)
{
    int ok = 1;
    if (obs) /* observation records: the routers in step with the PEs */
        tc_net_sync(n);
    /* 1. The PEs' inputs of this cycle, to their routers after a latency. */
    for (size_t i = 0; i < n->nstaged; i++) {
        uint32_t k = n->staged[i];
        if (n->pe_in[k].inj.valid)
            ok &= !slot_push(&n->inj[(n->cycle + (uint64_t)n->p.inj_lat) % n->wi], (tc_arrival){k, 0, 0, n->pe_in[k].inj});
        if (n->pe_in[k].ej_cred)
            ok &= !slot_push(&n->ej_c[(n->cycle + (uint64_t)n->p.ej_lat) % n->we],
                             (tc_arrival){k, 0, n->pe_in[k].ej_cred, {0, 0, {{0, 0}}}});
        memset(&n->pe_in[k], 0, sizeof n->pe_in[k]);
    }
    n->nstaged = 0;
    if (!ok && !n->fault[0])
        snprintf(n->fault, sizeof n->fault, "cycle %llu: out of memory for the flits in flight",
                 (unsigned long long)n->cycle);
    n->cycle++;

    /* 2. The routers, when they are the lookahead behind (every cycle without it). */
    if (obs || n->cycle - n->rcycle >= (uint64_t)n->blk)
        run_routers(n, (int)(n->cycle - n->rcycle), obs);

    /* 3. What the PEs see next cycle, written at least a latency ago. */
    for (size_t i = 0; i < n->nseen; i++)
        memset(&n->pe_out[n->seen[i]], 0, sizeof n->pe_out[0]);
    n->nseen = 0;
    n->ej_other -= n->seen_other;
    n->seen_other = 0;
    tc_slot *ej_now = &n->ej[n->cycle % n->we], *ic_now = &n->inj_c[n->cycle % n->wi];
    for (size_t i = 0; i < ej_now->n; i++) {
        n->pe_out[ej_now->a[i].node].ej = ej_now->a[i].w;
        n->seen[n->nseen++] = ej_now->a[i].node;
        n->seen_other += ej_now->a[i].port;
    }
    for (size_t i = 0; i < ic_now->n; i++) {
        n->pe_out[ic_now->a[i].node].inj_cred = ic_now->a[i].cred;
        n->seen[n->nseen++] = ic_now->a[i].node;
    }
    ej_now->n = ic_now->n = 0;
}

const char *tc_net_fault(const tc_net *n) { return n->fault[0] ? n->fault : NULL; }

size_t tc_net_pe_active(const tc_net *n, const uint32_t **nodes)
{
    *nodes = n->seen;
    return n->nseen;
}

uint64_t tc_net_link_flits(const tc_net *n, int node, int port) { return n->flits[(size_t)node * (size_t)n->np + (size_t)port]; }
tc_red_stats tc_net_red_stats(const tc_net *n, int node, int slice) { return n->r[node].red[slice].st; }

static const char *const wait_names[TC_WAIT_KINDS] = {
    "link credits",       "a parent's CREDIT", "the PE", "a result slot", "report-buffer room", "the barrier fence",
    "a neighbour's phase packet", "an earlier ReduceId of its tree"};

/* Vertices of the wait-for graph: node * NV + unit, where unit TC_NUNITS is the
 * credit block and phase counters, TC_NUNITS + 1 + k Reducer slice k's held results. */
#define NV(np, ns) (TC_NUNITS(np, ns) + 1 + (ns))

/* The vertex a wait points to, or -1 for a wait on a PE. */
static long wait_target(const tc_net *n, uint32_t k, const tc_wait *w)
{
    long ns = n->p.red_slices, nv = NV(n->np, ns), np = n->np, nu = TC_NUNITS(np, ns);
    switch (w->kind) {
    case TC_WAIT_LINK:
        return n->nbr[k * np + w->out] * nv + 2 * (w->out ^ 1) + w->vc;
    case TC_WAIT_UPCRED: /* the parent's Reducer slice: its results of the tree bring the credit */
        return n->nbr[k * np + w->out] * nv + nu + 1 + w->tree % ns;
    case TC_WAIT_PHASE:
        return n->nbr[k * np + w->out] * nv + nu;
    case TC_WAIT_RESULT:
    case TC_WAIT_REPORT:
    case TC_WAIT_FENCE:
        return k * nv + w->out;
    case TC_WAIT_ORDER: /* for contributions to a reduce: the PEs' and the children's, not a resource */
        return -1;
    }
    return -1;
}

static const char *vertex_name(int np, int ns, int u, char *buf, size_t len)
{
    int nu = TC_NUNITS(np, ns);
    if (u == nu)
        return "credit block";
    if (u > nu && ns > 1)
        return snprintf(buf, len, "Reducer %d", u - nu - 1), buf;
    return u > nu ? "Reducer" : tc_unit_name(np, ns, u, buf, len);
}

static void print_vertex(const tc_net *n, FILE *f, long v, const tc_wait *w)
{
    int ns = n->p.red_slices;
    long nv = NV(n->np, ns);
    char a[32], b[32], c[40];
    int k = (int)(v / nv), u = (int)(v % nv);
    fprintf(f, "    node %d %s %s", k, tc_coord_name(&n->topo, k, c, sizeof c), vertex_name(n->np, ns, u, a, sizeof a));
    if (w && w->kind == TC_WAIT_LINK)
        fprintf(f, " head tag %u (tree %u) needs link credits %s for %s (%u of %u)", w->tag, w->tree,
                w->vc == TC_VC_UP ? "VCUp" : "VCDown", tc_out_name(n->np, ns, w->out, b, sizeof b), w->have, w->need);
    else if (w && w->kind == TC_WAIT_PE)
        fprintf(f, " head tag %u (tree %u) needs an ejection credit: the PE takes no packet", w->tag, w->tree);
    else if (w && w->kind == TC_WAIT_RESULT && (int)(v % nv) < TC_NUNITS(n->np, ns))
        fprintf(f, " head tag %u (tree %u) needs %s", w->tag, w->tree, wait_names[w->kind]);
    else if (w && (w->kind == TC_WAIT_UPCRED || w->kind == TC_WAIT_RESULT))
        fprintf(f, " holds the result tag %u (tree %u), waits for %s", w->tag, w->tree, wait_names[w->kind]);
    else if (w && w->kind == TC_WAIT_ORDER)
        fprintf(f, " holds the result tag %u (tree %u) behind ReduceId %u of its tree, which is not complete here",
                w->tag, w->tree, w->have);
    else if (w && w->kind == TC_WAIT_FENCE)
        fprintf(f, " waits for the barrier fence: %s holds %u fenced packets",
                vertex_name(n->np, ns, w->out, b, sizeof b), w->have);
    else if (w)
        fprintf(f, " waits for %s%s", wait_names[w->kind],
                w->kind == TC_WAIT_PHASE ? (snprintf(b, sizeof b, " from %s", tc_dir_name(w->out)), b) : "");
    fprintf(f, "\n");
}

int tc_net_explain(const tc_net *n, FILE *f)
{
    enum { MAXW = 64 };
    long nn = n->topo.n, nvn = NV(n->np, n->p.red_slices), nv = nn * nvn;
    unsigned long count[TC_WAIT_KINDS] = {0};
    long *first = malloc((size_t)nv * sizeof *first), *next = NULL, *dst = NULL, ne = 0, cap = 0;
    tc_wait *wl = NULL, w[MAXW];
    if (!first) {
        fprintf(f, "  (no memory to explain the stall)\n");
        return 0;
    }
    for (long v = 0; v < nv; v++)
        first[v] = -1;
    /* the wait-for graph: an edge per wait, listed per waiting vertex */
    for (long k = 0; k < nn; k++) {
        int m = tc_router_waits(&n->r[k], w, MAXW);
        for (int i = 0; i < m && i < MAXW; i++) {
            long t = wait_target(n, (uint32_t)k, &w[i]), v = k * nvn + w[i].unit;
            count[w[i].kind]++;
            if (ne == cap) {
                cap = cap ? 2 * cap : 1024;
                next = realloc(next, (size_t)cap * sizeof *next);
                dst = realloc(dst, (size_t)cap * sizeof *dst);
                wl = realloc(wl, (size_t)cap * sizeof *wl);
                if (!next || !dst || !wl) {
                    fprintf(f, "  (no memory to explain the stall)\n");
                    free(first), free(next), free(dst), free(wl);
                    return 0;
                }
            }
            dst[ne] = t;
            wl[ne] = w[i];
            next[ne] = first[v];
            first[v] = ne++;
        }
    }
    fprintf(f, "  waits:");
    for (int i = 0; i < TC_WAIT_KINDS; i++)
        if (count[i])
            fprintf(f, " %lu for %s;", count[i], wait_names[i]);
    fprintf(f, "%s\n", ne ? "" : " none");
    /* a cycle: depth-first search, colour 1 on the path, 2 done */
    uint8_t *col = calloc((size_t)nv, 1);
    long *path = malloc((size_t)nv * sizeof *path), *edge = malloc((size_t)nv * sizeof *edge), found = 0;
    for (long s = 0; s < nv && col && path && edge && !found; s++) {
        if (col[s] || first[s] < 0)
            continue;
        long d = 0;
        path[0] = s, edge[0] = first[s], col[s] = 1;
        while (d >= 0 && !found) {
            long e = edge[d];
            if (e < 0) {
                col[path[d--]] = 2;
                continue;
            }
            edge[d] = next[e];
            long t = dst[e];
            if (t < 0 || col[t] == 2)
                continue;
            if (col[t] == 1) { /* back edge: the cycle is path[i..d] */
                long i = d;
                while (path[i] != t)
                    i--;
                found = d - i + 1;
                fprintf(f, "  a cycle of %ld waits:\n", found);
                for (long j = i; j <= d; j++) {
                    long ej = j == d ? e : -1;
                    for (long x = first[path[j]]; ej < 0 && x >= 0; x = next[x])
                        if (dst[x] == path[j + 1])
                            ej = x;
                    print_vertex(n, f, path[j], ej >= 0 ? &wl[ej] : NULL);
                }
                break;
            }
            col[t] = 1;
            path[++d] = t;
            edge[d] = first[t];
        }
    }
    if (!found && ne) { /* no cycle: the first waits, those for buffers and credits
                           before those for phase packets, which follow from them */
        long shown = 0;
        fprintf(f, "  no cycle of waits; the first waits:\n");
        for (int phase = 0; phase < 2; phase++)
            for (long v = 0; v < nv && shown < 8; v++)
                for (long x = first[v]; x >= 0 && shown < 8; x = next[x])
                    if ((wl[x].kind == TC_WAIT_PHASE) == phase)
                        print_vertex(n, f, v, &wl[x]), shown++;
    }
    free(col), free(path), free(edge), free(first), free(next), free(dst), free(wl);
    return (int)found;
}

const char *tc_net_where(const tc_net *n, uint32_t tag, char *buf, size_t len)
{
    size_t at = 0;
    int ns = n->p.red_slices, nu = TC_NUNITS(n->np, ns), no = TC_NOUTS(n->np, ns);
    char a[32];
    buf[0] = 0;
    for (int k = 0; k < n->topo.n; k++) {
        const tc_router *r = &n->r[k];
        for (int u = 0; u < nu; u++)
            for (int s = 0; s < r->u[u].nslots; s++)
                if (r->u[u].full[s] && TC_HGET(&r->u[u].mem[s * TC_SLOT_FLITS], TAG) == tag && at < len)
                    at += (size_t)snprintf(buf + at, len - at, "%snode %d %s", at ? ", " : "", k,
                                           tc_unit_name(n->np, ns, u, a, sizeof a));
        for (int o = 0; o < no; o++)
            if (r->o[o].q.valid && r->o[o].cnt == 1 && TC_HGET(&r->o[o].q.flit, TAG) == tag && at < len)
                at += (size_t)snprintf(buf + at, len - at, "%snode %d output %s", at ? ", " : "", k,
                                       tc_out_name(n->np, ns, o, a, sizeof a));
    }
    return buf;
}
