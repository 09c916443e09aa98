/* The packet-level broadcast engine (pkt_bcast.h). Cycle conventions, as tc_net_step()
 * and tc_wl_run() have them: a flit an output registers in cycle c is written into the
 * neighbour's unit in cycle c + link_lat + 1 and seen by the PE in c + ej_lat + 1; a
 * flit the PE drives in cycle c is written into the PEGroup FIFO in c + inj_lat; a
 * slot freed in cycle F returns a credit usable upstream from F + link_lat + 2 (and the
 * PE sees its injection credit in F + inj_lat + 1); a packet the PE takes in cycle c
 * returns an ejection credit usable from c + ej_lat + 1. A register read at the start
 * of cycle t was written in a commit before t. */
#include "pkt_bcast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEG (-((int64_t)1 << 40)) /* a cycle before everything */
#define RING 64                   /* frees kept per node: at least the slots of a buffer */

/* A node of the tree. */
typedef struct {
    int64_t F[RING];                 /* cycle packet k's slot is freed, at k % RING */
    int64_t A[RING];                 /* cycle packet k's header is written, at k % RING */
    int32_t child[TC_MAX_PORTS];     /* the neighbour on each link output to a child */
    int64_t out_free[TC_MAX_PORTS];  /* first cycle each link output is free */
    int64_t pe_free;                 /* ... the PE output */
    int64_t *ret;                    /* [pe_credits]: when the credit of PE grant j is usable, at j % pe_credits */
    uint64_t pe_j;                   /* packets granted to the PE (the stream's and reports) */
    uint64_t report;                 /* the next report is written in cycle TC_REPORT_CYCLES * report */
    int pin;                         /* the link input the tree's packets come in by; -1: the root */
    unsigned dirs;                   /* the link outputs to the children */
    uint8_t recv;                    /* the PE takes the broadcast */
    uint8_t last_stream;             /* the PE output's last grant was the stream's (round-robin) */
} node_st;

typedef struct {
    const tc_params *p;
    const tc_topo *t;
    int np, len;
    node_st *st;      /* [nodes] */
    int32_t *idx;     /* [nodes]: place in order[], -1: not in the tree */
    int64_t *ret;     /* pe_credits per receiver */
    char *msg;
    size_t mlen;
} eng;

static int64_t mx(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t mn(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t freed(const node_st *s, int64_t k) { return k < 0 ? NEG : s->F[k % RING]; }

const char *tc_pkt_bcast_refuse(const tc_params *p, const tc_workload *w)
{
    if (w->kind != TC_WL_BCAST)
        return "it models a broadcast only (workload=bcast; the allgather has its own engine, pkt_allgather.c)";
    if (p->mcast != TC_MCAST_PASSES)
        return "it models the design's multicast (mcast=passes) only";
    if (p->plant)
        return "it does not model planted bugs";
    if (w->window > 1)
        return "a broadcast has no stream";
    return NULL;
}

/* The PE output of s before a stream packet that could take it from cycle x (its
 * grant can only be in a pass, at or after x): the credit block's reports granted
 * first (each is written at TC_REPORT_CYCLES m, routed 3 cycles later, and wins a tie
 * if the stream had the last grant); returns the first cycle the stream's copy may
 * be granted: the output free, with a credit. */
static int64_t pe_settle(const eng *e, node_st *s, int64_t x)
{
    int64_t E = e->p->ej_lat, pc = e->p->pe_credits;
    for (;;) {
        int64_t cr = s->pe_j >= (uint64_t)pc ? s->ret[s->pe_j % (uint64_t)pc] : NEG;
        int64_t at = mx(x, mx(s->pe_free, cr)), rt = (int64_t)TC_REPORT_CYCLES * (int64_t)s->report + 4;
        if (rt > at)
            return at;
        int64_t g = mx(rt, mx(s->pe_free, cr));
        if (g == at && !s->last_stream)
            return at; /* a tie the stream wins */
        if (g + 2 >= (int64_t)TC_REPORT_CYCLES * (int64_t)(s->report + 1))
            return -1; /* the next report would find this one still held: not modelled */
        s->ret[s->pe_j % (uint64_t)pc] = g + 2 + 2 * E + 2; /* the report's 2 data flits */
        s->pe_j++;
        s->pe_free = g + 3;
        s->last_stream = 0;
        s->report++;
    }
}

/* Packet k at node v: from its arrival (s->A) to its grants and its free. The
 * children's arrivals are set; *pe_at: the cycle the PE has its last flit, or -1. */
static int node_packet(eng *e, int v, int64_t k, int64_t *pe_at)
{
    node_st *s = &e->st[v];
    int64_t len = e->len, L = e->p->link_lat, E = e->p->ej_lat, step = len ? len : 1;
    int64_t A = s->A[k % RING], W = A + len, Fm1 = freed(s, k - 1), Fm2 = freed(s, k - 2);
    /* the header in a register: captured as written if it is the head's or the next
     * one's, else read ahead as the packet two before is freed */
    int64_t H = A >= Fm2 ? A + 1 : Fm2 + 2;
    int ahead = k > 0 && W + 1 <= Fm1 && H <= Fm1; /* routed as the packet before is freed */
    int64_t R = ahead ? Fm1 : mx(Fm1 + 1, mx(W + 1, H)), e_o[TC_MAX_PORTS];
    for (unsigned m = s->dirs; m; m &= m - 1) {
        int o = __builtin_ctz(m), c = s->child[o];
        int64_t need = s->pin < 0 || o != (s->pin ^ 1) ? 2 : 1; /* entering a ring, or going on along it */
        int64_t j = k + need - e->p->slots - 1;             /* the child's free that gives the credit */
        e_o[o] = mx(s->out_free[o], j >= 0 ? freed(&e->st[c], j) + L + 2 : NEG);
    }
    unsigned pend = s->dirs, pe = s->recv;
    int64_t tp = R + 1, G = NEG; /* the next pass may start at tp */
    *pe_at = -1;
    while (pend || pe) {
        int64_t ts = INT64_MAX, epe = INT64_MAX;
        for (unsigned m = pend; m; m &= m - 1)
            ts = mn(ts, mx(tp, e_o[__builtin_ctz(m)]));
        if (pe) {
            if ((epe = pe_settle(e, s, tp)) < 0) {
                snprintf(e->msg, e->mlen, "engine=packet: node %d has two reports at once, which it does not model", v);
                return -1;
            }
            ts = mn(ts, epe);
        }
        for (unsigned m = pend; m; m &= m - 1) { /* every output ready at ts: one pass */
            int o = __builtin_ctz(m);
            if (mx(tp, e_o[o]) != ts)
                continue;
            pend &= ~(1u << o);
            s->out_free[o] = ts + len + 1;
            e->st[s->child[o]].A[k % RING] = ts + L + 1;
        }
        if (pe && epe == ts) {
            pe = 0;
            s->ret[s->pe_j % (uint64_t)e->p->pe_credits] = ts + len + 2 * E + 2;
            s->pe_j++;
            s->pe_free = ts + len + 1;
            s->last_stream = 1;
            *pe_at = ts + len + E + 1;
        }
        G = ts;
        tp = ts + step;
    }
    s->F[k % RING] = s->dirs || s->recv ? G + step : R + 1;
    return 0;
}

int tc_pkt_bcast_run(const tc_params *p, const tc_topo *t, const tc_row *rows, const tc_workload *w,
                     tc_wl_result *res, uint64_t *link_flits)
{
    size_t nn = (size_t)t->n, np = (size_t)(2 * t->ndims);
    int64_t P = w->packets > 1 ? w->packets : 1, len = w->len, I = p->inj_lat;
    int tree = w->tree, root = tc_tree_root(t, rows, tree), rc = 0;
    const char *why = tc_pkt_bcast_refuse(p, w);
    eng e = {p, t, (int)np, w->len, NULL, NULL, NULL, res->msg, sizeof res->msg};
    int32_t *order = NULL;
    size_t norder = 0, nrecv = 0;

    memset(res, 0, sizeof *res);
    memset(link_flits, 0, nn * np * sizeof *link_flits);
    if (why) {
        snprintf(res->msg, sizeof res->msg, "engine=packet: %s", why);
        return -1;
    }
    if (root < 0 || !TC_RGET(TC_ROWP(rows, root, tree), PE)) {
        snprintf(res->msg, sizeof res->msg, "tree %d has no root whose PE takes part", tree);
        return -1;
    }
    if (P > 1 && len == 0) {
        snprintf(res->msg, sizeof res->msg, "a broadcast split into %lld packets needs len >= 1", (long long)P);
        return -1;
    }
    e.st = calloc(nn, sizeof *e.st);
    e.idx = malloc(nn * sizeof *e.idx);
    order = malloc(nn * sizeof *order);
    res->op = calloc((size_t)w->repeat, sizeof *res->op);
    res->node_done = calloc((size_t)w->repeat * nn, sizeof *res->node_done);
    if (!e.st || !e.idx || !order || !res->op || !res->node_done)
        goto oom;
    /* the tree, parents before children; each child must take the packets on its
     * VCDown from the parent, as RC requires */
    for (size_t v = 0; v < nn; v++)
        e.idx[v] = -1;
    order[norder++] = root;
    e.idx[root] = 0;
    e.st[root].pin = -1;
    for (size_t i = 0; i < norder; i++) {
        int v = order[i];
        tc_row row = TC_ROWP(rows, v, tree);
        node_st *s = &e.st[v];
        s->dirs = TC_RGET(row, DIRS) & ((1u << np) - 1);
        s->recv = v != root && TC_RGET(row, PE);
        nrecv += s->recv;
        for (unsigned m = s->dirs; m; m &= m - 1) {
            int o = __builtin_ctz(m), c = tc_neighbour(t, v, o);
            tc_row cr = TC_ROWP(rows, c, tree);
            if (e.idx[c] >= 0 || !TC_RGET(cr, VALID) || TC_RGET(cr, ROOT) || (int)TC_RGET(cr, TOROOT) != (o ^ 1)) {
                snprintf(res->msg, sizeof res->msg,
                         "engine=packet: tree %d's table at node %d (direction %d) is not a tree the packets follow", tree,
                         v, o);
                rc = -1;
                goto out;
            }
            e.idx[c] = (int32_t)norder;
            s->child[o] = c;
            e.st[c].pin = o ^ 1;
            order[norder++] = c;
        }
    }
    e.ret = malloc((nrecv ? nrecv : 1) * (size_t)p->pe_credits * sizeof *e.ret);
    if (!e.ret)
        goto oom;
    for (size_t i = 0, r = 0; i < norder; i++) {
        node_st *s = &e.st[order[i]];
        for (int j = 0; j < RING; j++)
            s->F[j] = NEG;
        for (size_t o = 0; o < np; o++)
            s->out_free[o] = NEG;
        s->pe_free = NEG;
        s->report = 1;
        if (s->recv)
            s->ret = e.ret + (r++) * (size_t)p->pe_credits;
    }

    /* packet k of the whole run (operation k / P), through the tree in order */
    int64_t sent = NEG, start = 0;
    tc_flit pkt[TC_SLOT_FLITS];
    for (int op = 0; op < w->repeat && !rc; op++) {
        tc_op_result *o = &res->op[op];
        o->start = (uint64_t)start;
        if (w->deliver)
            tc_wl_packet(pkt, TC_TYPE_BCAST, root, tree, w->len, (uint32_t)op + 1);
        /* a block of packets at a time, node by node (each node's state is read once
         * a block, not once a packet): a node's grants need its children's frees of
         * packets at least slots - 1 before, so blocks of slots - 1 packets read only
         * frees of blocks done */
        int64_t B = p->slots - 1 < RING - 1 ? p->slots - 1 : RING - 1;
        for (int64_t q0 = 0; q0 < P && !rc; q0 += B) {
            int64_t q1 = q0 + B < P ? q0 + B : P;
            for (size_t i = 0; i < norder && !rc; i++) {
                int v = order[i];
                for (int64_t q = q0; q < q1 && !rc; q++) {
                    int64_t k = op * P + q, inj = p->inj_slots, at;
                    if (i == 0) { /* the root's PE: one flit a cycle, a packet started with a credit, from the
                                     operation's start */
                        node_st *rs = &e.st[root];
                        sent = mx(mx(sent + len + 1, q == 0 ? start : NEG), k >= inj ? freed(rs, k - inj) + I + 1 : NEG);
                        rs->A[k % RING] = sent + I;
                    }
                    if (node_packet(&e, v, k, &at)) {
                        rc = -1;
                        break;
                    }
                    if (at < 0)
                        continue;
                    if ((uint64_t)at >= w->max_cycles) {
                        snprintf(res->msg, sizeof res->msg,
                                 "operation %d of bcast: deliveries still missing after %llu cycles", op + 1,
                                 (unsigned long long)w->max_cycles);
                        rc = -1;
                        break;
                    }
                    o->deliveries++;
                    if ((uint64_t)at > o->end)
                        o->end = (uint64_t)at;
                    if (q == P - 1)
                        res->node_done[(size_t)op * nn + (size_t)v] = (uint64_t)at;
                    if (w->deliver)
                        w->deliver(w->deliver_ctx, (uint32_t)v, op, (uint64_t)at, pkt, w->len + 1);
                }
            }
        }
        start = (int64_t)o->end + 1; /* the next operation starts the cycle after */
    }
    res->cycles = (uint64_t)start;
    for (size_t i = 0; i < norder; i++)
        for (unsigned m = e.st[order[i]].dirs; m; m &= m - 1)
            link_flits[(size_t)order[i] * np + (size_t)__builtin_ctz(m)] = (uint64_t)(len + 1) * (uint64_t)P * (uint64_t)w->repeat;
    goto out;
oom:
    snprintf(res->msg, sizeof res->msg, "out of memory for %zu nodes", nn);
    rc = -1;
out:
    free(e.st);
    free(e.idx);
    free(e.ret);
    free(order);
    return rc;
}
