/* The packet-level allgather engine (pkt_allgather.h). Cycle conventions, as
 * tc_net_step() and tc_wl_run() have them (and pkt_bcast.c): a flit an output
 * registers in cycle c is written into the neighbour's unit in c + link_lat + 1 and
 * seen by the PE in c + ej_lat + 1; a flit the PE drives in cycle c is written into
 * the PEGroup FIFO in c + inj_lat; a slot freed in cycle F returns a credit usable
 * upstream from F + link_lat + 2 (the PE sees its injection credit in F + inj_lat + 1);
 * a packet the PE takes in cycle c returns an ejection credit usable from
 * c + ej_lat + 1. A router is evaluated at cycle c as tc_router_cycle() would be, from
 * the state at the start of c, and then commits (eval()); only at the cycles at which
 * something may change, which each evaluation computes for the next (a timing wheel
 * of a bit per router and cycle, a heap beyond it). What a router reads of another is
 * timestamped (a packet's cycles, a credit's), and nothing it does reaches another in
 * less than a link's latency, so the routers are evaluated in sweeps of that many
 * cycles, each router through all its cycles of the sweep in turn. */
#include "pkt_allgather.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEG (-((int64_t)1 << 40)) /* a cycle before everything */
#define NEVER INT64_MAX
#define REP UINT32_MAX /* the source of a report (the credit block's, to its own PE) */
#define NODE_BITS 24   /* a heap entry: cycle << NODE_BITS | node */
#define WHEEL 1024     /* cycles ahead of the timing wheel (a power of 2; later ones in the heap) */
#define MAX_CYCLE ((int64_t)1 << 30) /* the cycles kept in the rings are 32 bits: a run ends before */

/* Entry k % cap of a unit's ring: the cycle packet k's header was written and its
 * source (REP: a report), while the unit holds it; the cycle it was freed, after.
 * One cache line has all a unit needs of a packet. */
typedef struct {
    int32_t A, F;
    uint32_t src;
} slot_t;

/* An input unit: a FIFO of whole packets, numbered from the start of the run; the
 * packets it holds (n_fr .. n_in - 1, some of them still on their way: they are
 * written when their A says) and the cycles its last cap packets were freed, in
 * rings of cap entries from off. */
typedef struct {
    uint32_t n_in, n_fr; /* packets sent to it, packets freed */
    uint32_t off;
    int32_t stream_end;  /* the first cycle its read port is not streaming a pass */
    int32_t rdy;         /* the first cycle RC may route the head (ready()) */
    uint16_t pend;       /* outputs still to grant the head (routed) */
    uint8_t routed, vc, cap;
    uint8_t hd, tl;      /* n_fr % cap, n_in % cap: the ring entries of the head and of the next packet sent */
} unit_st;

/* A router, what an evaluation reads first (cycles kept in 32 bits: MAX_CYCLE). */
typedef struct {
    int64_t last_eval, next_wake;
    uint32_t live;                      /* bit u: unit u holds a packet */
    uint8_t sender;
    uint8_t ptr[TC_MAX_PORTS + 1];      /* the round-robin arbiters' pointers */
    int32_t out_free[TC_MAX_PORTS + 1]; /* first cycle each link output, and the PE output, is free */
    int32_t pe_ct;                      /* the next PE grant has its credit from */
    uint32_t cr_g[2 * TC_MAX_PORTS];    /* per link output and VC (2 o + vc): packets granted, */
    uint8_t cgi[2 * TC_MAX_PORTS];      /* cr_g % slots */
    uint8_t pe_i;                       /* pe_g % pe_credits */
    uint32_t pe_g;                      /* packets granted to the PE (deliveries and reports) */
    uint32_t sent, got, expect;         /* the operation's packets sent, deliveries got and expected */
    int64_t rep_due;                    /* the next report is due from */
    int64_t pe_last;                    /* the PE drove its last packet's header in */
    unit_st u[TC_MAX_UNITS];
} node_st;

typedef struct {
    const tc_params *p;
    const tc_topo *t;
    const tc_row *rows;
    const tc_workload *w;
    int np, ns, nu, P; /* ns: the Reducer's slices, whose result buffers an allgather leaves empty */
    int64_t L, I, E, len, final;
    node_st *nd;
    slot_t *pk;           /* the units' rings */
    int32_t *ret;         /* rings: a PE credit usable again, pe_credits per node */
    int32_t *cr;          /* per link output and VC of each router (2 o + vc), slots + 2 entries (credit()):
                             what the downstream router wrote as it freed the slots */
    int32_t *nbr;
    uint64_t *wheel;      /* the routers to evaluate at each cycle now .. now + WHEEL - 1: a bit per router, in
                             words words from (cycle % WHEEL) * words; evaluated in node order, which the
                             processor's prefetcher follows */
    size_t words;
    int64_t now;          /* the sweep's first cycle */
    int cur;              /* the router being swept, ... */
    int64_t cur_end;      /* ... up to this cycle; ... */
    uint64_t self;        /* ... the cycles of the sweep it adds for itself (bit c - now) */
    uint64_t *heap;       /* and later (cycle << NODE_BITS | node) */
    size_t nh, ch;
    int op;
    int64_t op_start, op_last; /* the operation's start, its last delivery or flit sent */
    uint64_t due_left, sends_left, due, sends; /* deliveries and packets to send still, in all */
    int err;
    tc_wl_result *res;
    uint64_t *lf;
} eng;

static int64_t mx(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t mn(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t plen(const eng *e, uint32_t src) { return src == REP ? 2 : e->len; }

const char *tc_pkt_allgather_refuse(const tc_params *p, const tc_workload *w)
{
    if (w->kind != TC_WL_ALLGATHER)
        return "it models an allgather only (workload=allgather)";
    if (p->mcast != TC_MCAST_PASSES)
        return "it models the design's multicast (mcast=passes) only";
    if (p->plant)
        return "it does not model planted bugs";
    if (w->window > 1)
        return "an allgather has no stream";
    return NULL;
}

static void heap_push(eng *e, uint64_t key)
{
    if (e->nh == e->ch) {
        size_t cap = e->ch ? 2 * e->ch : 4096;
        uint64_t *h = realloc(e->heap, cap * sizeof *h);
        if (!h) {
            e->err = 1;
            snprintf(e->res->msg, sizeof e->res->msg, "out of memory for the events");
            return;
        }
        e->heap = h;
        e->ch = cap;
    }
    size_t i = e->nh++;
    while (i && e->heap[(i - 1) / 2] > key) {
        e->heap[i] = e->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    e->heap[i] = key;
}

static uint64_t heap_pop(eng *e)
{
    uint64_t top = e->heap[0], x = e->heap[--e->nh];
    size_t i = 0, n = e->nh;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && e->heap[c + 1] < e->heap[c])
            c++;
        if (e->heap[c] >= x)
            break;
        e->heap[i] = e->heap[c];
        i = c;
    }
    if (n)
        e->heap[i] = x;
    return top;
}

/* a[] as a 64 x 64 bit matrix (bit j of a[i]: row i, column j), transposed in place. */
static void transpose64(uint64_t a[64])
{
    uint64_t m = 0x00000000ffffffffull;
    for (unsigned j = 32; j; j >>= 1, m ^= m << j)
        for (unsigned k = 0; k < 64; k = (k + j + 1) & ~j) {
            uint64_t t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
        }
}

static void wheel_push(eng *e, int v, int64_t t)
{
    e->wheel[(size_t)(t & (WHEEL - 1)) * e->words + (size_t)v / 64] |= 1ull << (v % 64);
}

/* Router v is evaluated at cycle t (later than the cycle being evaluated; a router
 * listed twice for a cycle is evaluated once). */
static void schedule(eng *e, int v, int64_t t)
{
    node_st *s = &e->nd[v];
    if (t < s->next_wake || s->next_wake <= s->last_eval) {
        s->next_wake = t;
        if (v == e->cur && t < e->cur_end)
            e->self |= 1ull << (t - e->now);
        else if (t - e->now < WHEEL)
            wheel_push(e, v, t);
        else
            heap_push(e, (uint64_t)t << NODE_BITS | (uint64_t)v);
    }
}

static unsigned wrap(unsigned i, unsigned n) { return i + 1 == n ? 0 : i + 1; }

/* The first cycle RC may route un's head (the packet before it freed, or being
 * freed): whole in its slot, and its header in a register, captured as written if the
 * packet two before was freed by then, else read ahead as that one is freed. */
static int64_t ready(const eng *e, const unit_st *un)
{
    size_t i = un->off + un->hd;
    int64_t A = e->pk[i].A, Fm2 = un->n_fr < 2 ? NEG : e->pk[un->off + (un->hd >= 2 ? un->hd - 2u : un->hd + un->cap - 2u)].F;
    return mx(A + plen(e, e->pk[i].src) + 1, A >= Fm2 ? A + 1 : Fm2 + 2);
}

/* A packet from src into unit u of v, its header written in cycle A. */
static void insert(eng *e, int v, int u, int64_t A, uint32_t src)
{
    unit_st *un = &e->nd[v].u[u];
    size_t i = un->off + un->tl;
    un->tl = (uint8_t)wrap(un->tl, un->cap);
    e->pk[i].A = (int32_t)A;
    e->pk[i].src = src;
    e->nd[v].live |= 1u << u;
    if (un->n_in++ == un->n_fr) { /* the head: routed when ready (else as the packets before it go) */
        un->rdy = (int32_t)ready(e, un);
        schedule(e, v, un->rdy);
    }
}

/* The credits of router v's link output and VC x, written by the downstream router
 * as it frees the slots: [0] the slots freed, [1] the ring entry of the next (bits 0
 * to 7) and a head waits for it (bit 8), [2 ..] the cycle each is usable from, at
 * packet j's entry j % slots. Apart from the router's state, so that a free touches
 * only this of the upstream router's. */
static int32_t *credit(const eng *e, int v, unsigned x)
{
    return e->cr + ((size_t)v * (size_t)(2 * e->np) + x) * (size_t)(e->p->slots + 2);
}

/* The first cycle output o of v has the credits for unit u's head (0: now); NEVER
 * if they wait for a free downstream not yet decided (marked in credit()). */
static int64_t credit_at(eng *e, int v, node_st *s, int u, int o)
{
    if (o == e->np)
        return s->pe_ct;
    unsigned vc = s->u[u].vc, x = 2 * (unsigned)o + vc, need = tc_credits_need(e->np, e->ns, 0, u, o, vc);
    int64_t slots = e->p->slots, j = (int64_t)s->cr_g[x] + need - slots - 1; /* the packet whose free gives it */
    if (j < 0)
        return 0;
    int32_t *cr = credit(e, v, x);
    if (j >= (uint32_t)cr[0]) {
        cr[1] |= 256;
        return NEVER;
    }
    return cr[2 + (need == 1 ? s->cgi[x] : wrap(s->cgi[x], (unsigned)slots))];
}

/* The PE of v sends its operation's packets, one flit a cycle, each with a credit of
 * the PEGroup FIFO (a slot freed). */
static void pe_send(eng *e, int v)
{
    node_st *s = &e->nd[v];
    unit_st *b = &s->u[TC_U_BCAST(e->np)];
    int64_t inj = e->p->inj_slots;
    while (s->sender && s->sent < (uint32_t)e->P) {
        int64_t k = b->n_in, t = mx(s->sent ? NEG : e->op_start, s->pe_last + e->len + 1);
        if (k >= inj) {
            if (k - inj >= b->n_fr)
                return; /* sent when that slot is freed */
            t = mx(t, e->pk[b->off + b->tl].F + e->I + 1); /* packet k - inj's free */
        }
        s->pe_last = t;
        s->sent++;
        e->sends_left--;
        e->op_last = mx(e->op_last, t + e->len);
        insert(e, v, TC_U_BCAST(e->np), t + e->I, (uint32_t)v);
    }
}

static void op_begin(eng *e, int op, int64_t start)
{
    e->op = op;
    e->op_start = e->op_last = start;
    e->res->op[op].start = (uint64_t)start;
    e->due_left = e->due;
    e->sends_left = 0;
    for (int v = 0; v < e->t->n; v++) {
        e->nd[v].sent = e->nd[v].got = 0;
        e->sends_left += e->nd[v].sender ? (uint64_t)e->P : 0;
    }
    e->sends = e->sends_left;
    for (int v = 0; v < e->t->n; v++)
        pe_send(e, v);
}

static void deliver(eng *e, int v, uint32_t src, int64_t d)
{
    node_st *s = &e->nd[v];
    tc_op_result *o = &e->res->op[e->op];
    o->deliveries++;
    o->end = (uint64_t)mx((int64_t)o->end, d);
    e->op_last = mx(e->op_last, d);
    e->due_left--;
    if (++s->got == s->expect)
        e->res->node_done[(size_t)e->op * (size_t)e->t->n + (size_t)v] = (uint64_t)d;
    if (e->w->deliver) {
        tc_flit pkt[TC_SLOT_FLITS];
        tc_wl_packet(pkt, TC_TYPE_BCAST, (int)src, (int)(src % TC_TREES), (int)e->len, (uint32_t)e->op + 1);
        e->w->deliver(e->w->deliver_ctx, (uint32_t)v, e->op, (uint64_t)d, pkt, (int)e->len + 1);
    }
}

/* Output o of v takes unit g's head in cycle c. */
static void grant(eng *e, int v, int64_t c, int g, int o)
{
    node_st *s = &e->nd[v];
    unit_st *un = &s->u[g];
    uint32_t src = e->pk[un->off + un->hd].src;
    int64_t len = plen(e, src);
    s->out_free[o] = (int32_t)(c + len + 1);
    s->ptr[o] = (uint8_t)(g + 1 == e->nu ? 0 : g + 1);
    un->pend &= (uint16_t)~(1u << o);
    un->stream_end = (int32_t)(c + (len ? len : 1));
    if (o < e->np) {
        s->cr_g[2 * o + un->vc]++;
        s->cgi[2 * o + un->vc] = (uint8_t)wrap(s->cgi[2 * o + un->vc], (unsigned)e->p->slots);
        insert(e, e->nbr[v * e->np + o], 2 * (o ^ 1) + un->vc, c + e->L + 1, src);
        /* the flits sent before the run ends (all but a packet's to no PE's node, which a valid table,
         * whose leaves are Pe nodes, has not) */
        e->lf[(size_t)v * (size_t)e->np + (size_t)o] += (uint64_t)(c + len < e->final ? len + 1 : e->final - c);
        return;
    }
    int64_t pc = e->p->pe_credits;
    e->ret[(size_t)v * (size_t)pc + s->pe_i] = (int32_t)(c + len + 2 * e->E + 2);
    s->pe_i = (uint8_t)wrap(s->pe_i, (unsigned)pc);
    s->pe_g++;
    s->pe_ct = s->pe_g < (uint32_t)pc ? 0 : e->ret[(size_t)v * (size_t)pc + s->pe_i];
    if (src != REP)
        deliver(e, v, src, c + len + e->E + 1);
}

/* RC of unit u's head: its outputs and VC. */
static void route(eng *e, int v, int u)
{
    unit_st *un = &e->nd[v].u[u];
    uint32_t src = e->pk[un->off + un->hd].src;
    tc_flit h = {{0, 0}};
    unsigned mask, vc;
    TC_HSET(&h, TYPE, src == REP ? TC_TYPE_REPORT : TC_TYPE_BCAST);
    TC_HSET(&h, TREE, src == REP ? 0 : src % TC_TREES);
    TC_HSET(&h, LEN, (unsigned)plen(e, src));
    TC_HSET(&h, SRC, src == REP ? (unsigned)v : src);
    unsigned err = tc_vc_unit_route(e->rows + (size_t)v * TC_TREES, (unsigned)v, e->np, e->ns, (unsigned)e->p->red_flits,
                                    (unsigned)e->p->red_rids, u, 0, &h, &mask, &vc);
    if (err && !e->err) {
        e->err = 1;
        snprintf(e->res->msg, sizeof e->res->msg,
                 "engine=packet: node %d drops node %u's packet (error %u), which it does not model", v, src, err);
    }
    un->routed = 1;
    un->pend = (uint16_t)mask;
    un->vc = (uint8_t)vc;
}

/* The report buffer (it holds only reports) may take the next: empty, or its one
 * report routed (credit_block.c's rep_in); it has room then, as it holds 2 or more. */
static int rep_ok(const unit_st *ru) { return ru->n_in == ru->n_fr || (ru->n_in - ru->n_fr == 1 && ru->routed); }

/* Router v in cycle c: the report written, FR and RC of the units, the outputs'
 * grants, all from the state at the start of c; then the commit, and the next cycle
 * at which anything may change. */
static void eval(eng *e, int v, int64_t c)
{
    node_st *s = &e->nd[v];
    int np = e->np, ur = TC_U_REPORT(np, e->ns);
    unit_st *ru = &s->u[ur];
    unsigned rt = 0, fr = 0, elig[TC_MAX_PORTS + 1] = {0}, om = 0;
    s->last_eval = c;
    /* the credit block: a report due, into the report buffer if it has room and holds
     * no report not yet routed (one at a time; so none is being written either). A
     * report written past the next one's cycle is that one too. */
    if (c >= s->rep_due && rep_ok(ru)) {
        insert(e, v, ur, c, REP);
        s->rep_due = (c / TC_REPORT_CYCLES + 1) * TC_REPORT_CYCLES;
    }
    for (unsigned m = s->live; m; m &= m - 1) {
        int u = __builtin_ctz(m);
        unit_st *un = &s->u[u];
        if (!un->routed) {
            rt |= (unsigned)(un->rdy <= c) << u;
            continue;
        }
        if (un->pend) { /* requests: one pass of the read port at a time */
            if (c < un->stream_end)
                continue;
            for (unsigned pm = un->pend; pm; pm &= pm - 1) {
                int o = __builtin_ctz(pm);
                if (c >= s->out_free[o] && credit_at(e, v, s, u, o) <= c)
                    elig[o] |= 1u << u, om |= 1u << o;
            }
        } else if (c >= un->stream_end) {
            fr |= 1u << u;
        }
    }
    for (; om; om &= om - 1) { /* each output's round-robin arbiter */
        int o = __builtin_ctz(om);
        grant(e, v, c, (int)tc_rr_pick(elig[o], s->ptr[o]), o);
    }
    for (; fr; fr &= fr - 1) {
        int u = __builtin_ctz(fr);
        unit_st *un = &s->u[u];
        e->pk[un->off + un->hd].F = (int32_t)c;
        un->hd = (uint8_t)wrap(un->hd, un->cap);
        un->n_fr++;
        un->routed = 0;
        if (un->n_fr == un->n_in)
            s->live &= ~(1u << u);
        else if ((un->rdy = (int32_t)ready(e, un)) <= c)
            route(e, v, u); /* the next packet, whole with its header: routed as this one is freed */
        if (u < 2 * np) { /* the credit, to the upstream output (and a wake-up if it waits for it) */
            int up = e->nbr[v * np + (u >> 1)];
            int32_t *cr = credit(e, up, 2 * ((unsigned)(u >> 1) ^ 1) + (unsigned)(u & 1));
            cr[2 + (cr[1] & 255)] = (int32_t)(c + e->L + 2);
            cr[0]++;
            if (cr[1] & 256)
                schedule(e, up, c + e->L + 2);
            cr[1] = (int32_t)wrap((unsigned)cr[1] & 255, (unsigned)e->p->slots);
        } else if (u == TC_U_BCAST(np)) {
            pe_send(e, v);
        }
    }
    for (; rt; rt &= rt - 1)
        route(e, v, __builtin_ctz(rt));

    /* the next cycle anything may change: a report, a head routed, granted or freed */
    int64_t nx = rep_ok(ru) ? mx(c + 1, s->rep_due) : NEVER;
    for (unsigned m = s->live; m; m &= m - 1) {
        int u = __builtin_ctz(m);
        unit_st *un = &s->u[u];
        if (!un->routed) {
            nx = mn(nx, mx(c + 1, un->rdy));
        } else if (!un->pend) {
            nx = mn(nx, mx(c + 1, un->stream_end));
        } else {
            for (unsigned pm = un->pend; pm; pm &= pm - 1) {
                int o = __builtin_ctz(pm);
                int64_t cr = credit_at(e, v, s, u, o);
                if (cr != NEVER)
                    nx = mn(nx, mx(mx(c + 1, un->stream_end), mx(s->out_free[o], cr)));
            }
        }
    }
    if (nx != NEVER)
        schedule(e, v, nx);
}

int tc_pkt_allgather_run(const tc_params *p, const tc_topo *t, const tc_row *rows, const tc_workload *w,
                         tc_wl_result *res, uint64_t *link_flits)
{
    size_t nn = (size_t)t->n, np = (size_t)(2 * t->ndims), nu = (size_t)TC_NUNITS((int)np, p->red_slices);
    const char *why = tc_pkt_allgather_refuse(p, w);
    eng e = {0};
    int rc = 0;

    memset(res, 0, sizeof *res);
    memset(link_flits, 0, nn * np * sizeof *link_flits);
    if (why) {
        snprintf(res->msg, sizeof res->msg, "engine=packet: %s", why);
        return -1;
    }
    if (w->packets > 1 && w->len == 0) {
        snprintf(res->msg, sizeof res->msg, "an allgather split into %d packets needs len >= 1", w->packets);
        return -1;
    }
    if (nn >= (1u << NODE_BITS)) {
        snprintf(res->msg, sizeof res->msg, "engine=packet: %zu nodes are more than it numbers", nn);
        return -1;
    }
    e.p = p, e.t = t, e.rows = rows, e.w = w, e.res = res, e.lf = link_flits;
    e.np = (int)np, e.ns = p->red_slices, e.nu = (int)nu, e.P = w->packets > 1 ? w->packets : 1;
    e.L = p->link_lat, e.I = p->inj_lat, e.E = p->ej_lat, e.len = w->len, e.final = NEVER;
    size_t per = 2 * np * (size_t)p->slots + (size_t)p->inj_slots + (size_t)p->slots; /* ring entries per node */
    e.nd = calloc(nn, sizeof *e.nd);
    e.pk = malloc(nn * per * sizeof *e.pk);
    e.ret = malloc(nn * (size_t)p->pe_credits * sizeof *e.ret);
    e.cr = calloc(nn * 2 * np * (size_t)(p->slots + 2), sizeof *e.cr);
    e.words = (nn + 63) / 64;
    e.wheel = calloc(WHEEL * e.words, sizeof *e.wheel);
    e.nbr = malloc(nn * np * sizeof *e.nbr);
    res->op = calloc((size_t)w->repeat, sizeof *res->op);
    res->node_done = calloc((size_t)w->repeat * nn, sizeof *res->node_done);
    if (!e.nd || !e.pk || !e.ret || !e.cr || !e.wheel || !e.nbr || !res->op || !res->node_done) {
        snprintf(res->msg, sizeof res->msg, "out of memory for %zu nodes", nn);
        rc = -1;
        goto out;
    }
    /* the senders (node k on tree k mod 16, if its PE takes part) and what each PE expects */
    uint32_t nsend[TC_TREES] = {0};
    for (size_t v = 0; v < nn; v++) {
        tc_row r = TC_ROWP(rows, v, v % TC_TREES);
        e.nd[v].sender = TC_RGET(r, VALID) && TC_RGET(r, PE);
        nsend[v % TC_TREES] += e.nd[v].sender;
    }
    for (size_t v = 0; v < nn; v++) {
        node_st *s = &e.nd[v];
        for (int tr = 0; tr < TC_TREES; tr++) {
            tc_row r = TC_ROWP(rows, v, tr);
            if (TC_RGET(r, VALID) && TC_RGET(r, PE))
                s->expect += (nsend[tr] - (v % TC_TREES == (size_t)tr)) * (uint32_t)e.P;
        }
        e.due += s->expect;
        s->rep_due = TC_REPORT_CYCLES;
        s->pe_last = s->last_eval = NEG;
        s->next_wake = NEG;
        for (size_t u = 0, off = v * per; u < nu; u++) {
            unit_st *un = &s->u[u];
            int result = (int)u > TC_U_BCAST((int)np) && (int)u < TC_U_REPORT((int)np, p->red_slices);
            un->cap = (uint8_t)((int)u == TC_U_BCAST((int)np) ? p->inj_slots : result ? 0 : p->slots);
            un->off = (uint32_t)off;
            off += un->cap;
        }
        for (size_t d = 0; d < np; d++)
            e.nbr[v * np + d] = tc_neighbour(t, (int)v, (int)d);
        schedule(&e, (int)v, TC_REPORT_CYCLES);
    }
    /* Sweeps of B cycles, router by router in node order: nothing a router does in a
     * cycle reaches another sooner than a link's latency (a packet granted is written
     * link_lat + 1 cycles later and routed after it is whole, a credit is usable
     * link_lat + 2 cycles after the free) or a PE's (an operation ends, and the next
     * starts, after its last delivery), so each router may be evaluated through the
     * sweep's cycles alone, its state in the cache. */
    int64_t B = mn(mn(e.L + 1, e.E + 1), 64); /* a cycle a bit */
    e.cur = -1;
    op_begin(&e, 0, 0);
    for (;;) {
        while (!e.err && e.due_left == 0 && e.sends_left == 0 && e.final == NEVER) { /* the next operation */
            int64_t start = e.sends || e.due ? e.op_last + 1 : e.op_start; /* tc_wl_run's loop ran till then */
            if (e.op + 1 < w->repeat)
                op_begin(&e, e.op + 1, start);
            else
                e.final = start;
        }
        if (e.err || e.now >= e.final)
            break;
        if (e.now >= MAX_CYCLE) {
            snprintf(res->msg, sizeof res->msg, "engine=packet: runs of %lld cycles or more are not modelled",
                     (long long)MAX_CYCLE);
            rc = -1;
            break;
        }
        if ((uint64_t)e.now >= w->max_cycles) {
            snprintf(res->msg, sizeof res->msg, "operation %d of allgather: %llu deliveries still missing after %llu cycles",
                     e.op + 1, (unsigned long long)e.due_left, (unsigned long long)w->max_cycles);
            rc = -1;
            break;
        }
        while (e.nh && (int64_t)(e.heap[0] >> NODE_BITS) < e.now + WHEEL) { /* into the wheel's reach */
            uint64_t key = heap_pop(&e);
            wheel_push(&e, (int)(key & ((1u << NODE_BITS) - 1)), (int64_t)(key >> NODE_BITS));
        }
        int64_t c1 = mn(e.now + B, e.final);
        for (size_t wi = 0; wi < e.words && !e.err; wi++) {
            uint64_t due[64] = {0}, any = 0; /* the word's routers' cycles in the sweep: row k cycle now + k, then
                                                transposed, row b router 64 wi + b */
            for (int64_t k = 0; k < c1 - e.now; k++) {
                uint64_t *wd = &e.wheel[(size_t)((e.now + k) & (WHEEL - 1)) * e.words + wi];
                any |= due[k] = *wd;
                *wd = 0;
            }
            if (!any)
                continue;
            transpose64(due);
            for (; any; any &= any - 1) {
                int b = __builtin_ctzll(any), v = (int)(wi * 64) + b;
                /* fetched while this router is evaluated, as routers are too far apart for the
                 * processor's prefetcher: the state of the router after the next, and the head
                 * packets of the next one's units (its state fetched one router ago) */
                uint64_t rest = any & (any - 1);
                if (rest) {
                    uint64_t more = rest & (rest - 1);
                    if (more) {
                        const node_st *n2 = &e.nd[wi * 64 + (size_t)__builtin_ctzll(more)];
                        for (size_t x = 0; x < sizeof *n2; x += 64)
                            __builtin_prefetch((const char *)n2 + x);
                    }
                    const node_st *n1 = &e.nd[wi * 64 + (size_t)__builtin_ctzll(rest)];
                    for (unsigned m = n1->live; m; m &= m - 1)
                        __builtin_prefetch(&e.pk[n1->u[__builtin_ctz(m)].off + n1->u[__builtin_ctz(m)].hd]);
                }
                e.cur = v, e.cur_end = c1, e.self = 0;
                for (uint64_t m = due[b]; m; m &= m - 1) { /* its cycles in the sweep, those it adds included */
                    int64_t c = e.now + __builtin_ctzll(m);
                    if (e.nd[v].last_eval != c)
                        eval(&e, v, c);
                    m |= e.self;
                    e.self = 0;
                }
                e.cur = -1;
            }
        }
        e.now = c1;
    }
    if (e.err)
        rc = -1;
    res->cycles = rc ? 0 : (uint64_t)e.final;
out:
    free(e.nd);
    free(e.pk);
    free(e.ret);
    free(e.cr);
    free(e.wheel);
    free(e.nbr);
    free(e.heap);
    return rc;
}
