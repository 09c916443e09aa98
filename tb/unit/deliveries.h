/* Shared by the unit tests that compare two runs of a workload delivery by delivery
 * (test_pkt_bcast.c, test_pkt_allgather.c, test_lookahead.c): the deliveries a run
 * records, the planner's table as tcnet builds it, random tori and draws, and a
 * packet-level engine's case run and compared with the cycle-exact model's. Include
 * after cmocka.h. */
#ifndef TC_UNIT_DELIVERIES_H
#define TC_UNIT_DELIVERIES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmodel/net.h"
#include "../../cmodel/table.h"
#include "../../cmodel/netsim/workload.h"
#include "../../cmodel/netsim/plan.h"

typedef struct {
    uint32_t node;
    int op, nflits;
    uint64_t cycle;
    tc_flit pkt[TC_SLOT_FLITS];
} delivery;

typedef struct {
    delivery *d;
    size_t n, cap;
} dlist;

/* tc_workload.deliver: appends to the dlist at ctx. */
static void record(void *ctx, uint32_t node, int op, uint64_t cycle, const tc_flit *pkt, int nflits)
{
    dlist *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->d = realloc(l->d, l->cap * sizeof *l->d);
        assert_non_null(l->d);
    }
    delivery *x = &l->d[l->n++];
    memset(x, 0, sizeof *x);
    x->node = node, x->op = op, x->cycle = cycle, x->nflits = nflits;
    memcpy(x->pkt, pkt, (size_t)nflits * sizeof *pkt);
}

/* Whether two deliveries differ in node, operation, cycle or flits. */
static int delivery_differs(const delivery *a, const delivery *b)
{
    return a->node != b->node || a->op != b->op || a->cycle != b->cycle || a->nflits != b->nflits ||
           memcmp(a->pkt, b->pkt, (size_t)a->nflits * sizeof a->pkt[0]);
}

/* A case's torus and parameters: the defaults but where a depth or latency is not 0. */
static void case_params(const char *topo, int slots, int inj_slots, int pe_credits, int link_lat, int inj_lat,
                        int ej_lat, tc_topo *t, tc_params *p)
{
    char err[256];
    assert_int_equal(tc_topo_parse(topo, t, err, sizeof err), 0);
    tc_params_default(p);
    p->ndims = t->ndims;
    for (int d = 0; d < TC_MAX_DIMS; d++)
        p->size[d] = t->size[d];
    p->slots = slots ? slots : p->slots;
    p->inj_slots = inj_slots ? inj_slots : p->inj_slots;
    p->pe_credits = pe_credits ? pe_credits : p->pe_credits;
    p->link_lat = link_lat ? link_lat : p->link_lat;
    p->inj_lat = inj_lat ? inj_lat : p->inj_lat;
    p->ej_lat = ej_lat ? ej_lat : p->ej_lat;
}

/* tcnet's table (TC_PLAN_SPREAD): every tree with a random member set of about
 * `members` percent, the root and its farthest node always in. */
static void plan(const tc_topo *t, tc_row *rows, int members, int seed)
{
    assert_int_equal(tc_plan_table(t, rows, &(tc_plan){.variant = TC_PLAN_SPREAD, .seed = (uint64_t)seed, .members = members}), 0);
}

static inline int by_node(const void *a, const void *b)
{
    const delivery *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return x->cycle < y->cycle ? -1 : x->cycle > y->cycle;
}

/* xorshift64: a draw in 0 .. n - 1 (the random cases are the same on every machine). */
static inline int rnd(uint64_t *s, int n)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (int)(*s % (uint64_t)n);
}

/* A random torus of 1 to 4 dimensions small enough for the cycle-exact model, as
 * topo= spells it, into topo[size]; returns its number of nodes. */
static inline int random_topo(uint64_t *rng, char *topo, size_t size)
{
    int nd = 1 + rnd(rng, 4), at = 0, nodes = 1;
    for (int d = 0; d < nd; d++) {
        int s = nd == 1 ? 2 + rnd(rng, 9) : nd == 2 ? 2 + rnd(rng, 5) : 2 + rnd(rng, nd == 3 ? 3 : 2);
        nodes *= s;
        at += snprintf(topo + at, size - (size_t)at, "%s%d", d ? "x" : "", s);
    }
    return nodes;
}

/* An engine's refusal (tc_pkt_*_refuse()): it takes workload kind with the defaults
 * and refuses every other kind, the multicast alternative other_mcast and a planted bug. */
static inline void check_refuse(const char *(*refuse)(const tc_params *, const tc_workload *), int kind, int other_mcast)
{
    tc_params p;
    tc_workload w = {0};
    tc_params_default(&p);
    w.window = 1;
    for (int k = 0; k < TC_WL_KINDS; k++) {
        w.kind = (tc_wl_kind)k;
        if (k == kind)
            assert_null(refuse(&p, &w));
        else
            assert_non_null(refuse(&p, &w));
    }
    w.kind = (tc_wl_kind)kind;
    p.mcast = other_mcast;
    assert_non_null(refuse(&p, &w));
    p.mcast = TC_MCAST_PASSES;
    p.plant = TC_PLANT_REPORT_ONE;
    assert_non_null(refuse(&p, &w));
}

/* A packet-level engine: tc_pkt_bcast_run(), tc_pkt_allgather_run(). */
typedef int (*pkt_engine)(const tc_params *p, const tc_topo *t, const tc_row *rows, const tc_workload *w,
                          tc_wl_result *res, uint64_t *link_flits);

/* w (its deliver hook set here) run by the cycle-exact model and by engine on t with
 * p and rows: every PE delivery (node, operation, the cycle of its last flit, its
 * flits), the operations' starts, ends and delivery counts, each node's completion,
 * the cycles simulated and the flits on every link the same; what names the case in
 * a failure. Returns the deliveries compared. */
static inline size_t compare_engine(const char *what, const tc_params *p, const tc_topo *t, const tc_row *rows, tc_workload *w,
                                    pkt_engine engine)
{
    char err[256];
    dlist cyc = {0}, pkt = {0};
    tc_net *n = tc_net_new(p, err, sizeof err);
    assert_non_null(n);
    for (int k = 0; k < t->n; k++)
        for (int tree = 0; tree < TC_TREES; tree++)
            tc_net_cfg(n, k, tree, TC_ROWP(rows, k, tree));
    tc_wl_result rc, rp;
    w->deliver = record;
    w->deliver_ctx = &cyc;
    int okc = tc_wl_run(n, rows, w, &rc, NULL, NULL);
    w->deliver_ctx = &pkt;
    size_t np = 2u * (size_t)t->ndims, nl = (size_t)t->n * np;
    uint64_t *lf = malloc(nl * sizeof *lf);
    assert_non_null(lf);
    int okp = engine(p, t, rows, w, &rp, lf);
    if (okc || okp)
        fail_msg("%s: cycle-exact %d (%s), packet %d (%s)", what, okc, rc.msg, okp, rp.msg);
    if (cyc.n != pkt.n)
        fail_msg("%s: %zu deliveries cycle-exact, %zu packet", what, cyc.n, pkt.n);
    qsort(cyc.d, cyc.n, sizeof *cyc.d, by_node);
    qsort(pkt.d, pkt.n, sizeof *pkt.d, by_node);
    for (size_t i = 0; i < cyc.n; i++) {
        const delivery *a = &cyc.d[i], *b = &pkt.d[i];
        if (delivery_differs(a, b))
            fail_msg("%s: delivery %zu: cycle-exact node %u op %d cycle %llu (%d flits), packet node %u op %d cycle %llu "
                     "(%d flits)%s", what, i, a->node, a->op, (unsigned long long)a->cycle, a->nflits, b->node, b->op,
                     (unsigned long long)b->cycle, b->nflits, a->cycle == b->cycle ? ", data differ" : "");
    }
    assert_int_equal(rc.cycles, rp.cycles);
    for (int i = 0; i < w->repeat; i++) {
        assert_int_equal(rc.op[i].start, rp.op[i].start);
        assert_int_equal(rc.op[i].end, rp.op[i].end);
        assert_int_equal(rc.op[i].deliveries, rp.op[i].deliveries);
    }
    assert_memory_equal(rc.node_done, rp.node_done, (size_t)w->repeat * (size_t)t->n * sizeof *rc.node_done);
    for (size_t i = 0; i < nl; i++)
        if (lf[i] != tc_net_link_flits(n, (int)(i / np), (int)(i % np)))
            fail_msg("%s: link %zu: %llu flits cycle-exact, %llu packet", what, i,
                     (unsigned long long)tc_net_link_flits(n, (int)(i / np), (int)(i % np)), (unsigned long long)lf[i]);
    size_t got = cyc.n;
    free(cyc.d), free(pkt.d), free(lf);
    tc_wl_result_free(&rc), tc_wl_result_free(&rp);
    tc_net_free(n);
    return got;
}

/* A case of an engine's comparison: a torus, a table (the planner's trees with members
 * per cent of the nodes, or, members 0, a random table from seed), the workload's
 * tree (a broadcast's), packet length, bytes per source and repeats, and parameters
 * (0: the default). */
typedef struct {
    const char *topo;
    int tree, members, seed, len, bytes, repeat;
    int slots, inj_slots, pe_credits, link_lat, inj_lat, ej_lat;
} ecase;

/* Half of the random cases: small buffers and credits, short latencies (drawn in
 * order), so that they bind; the other half keeps the defaults. */
static inline void draw_limits(uint64_t *rng, ecase *c)
{
    if (!rnd(rng, 2))
        return;
    c->slots = 2 + rnd(rng, 6);
    c->inj_slots = 2 + rnd(rng, 6);
    c->pe_credits = 1 + rnd(rng, 6);
    c->link_lat = 1 + rnd(rng, 40);
    c->inj_lat = 1 + rnd(rng, 60);
    c->ej_lat = 1 + rnd(rng, 60);
}

/* Workload kind of case c run by the cycle-exact model and by engine, compared
 * (compare_engine()); returns the deliveries compared. */
static inline size_t engine_case(tc_wl_kind kind, const ecase *c, pkt_engine engine)
{
    char what[256];
    tc_topo t;
    tc_params p;
    case_params(c->topo, c->slots, c->inj_slots, c->pe_credits, c->link_lat, c->inj_lat, c->ej_lat, &t, &p);
    snprintf(what, sizeof what, "%s tree %d members %d seed %d len %d bytes %d repeat %d slots %d/%d pe %d lat %d/%d/%d",
             c->topo, c->tree, c->members, c->seed, c->len, c->bytes, c->repeat, p.slots, p.inj_slots, p.pe_credits,
             p.link_lat, p.inj_lat, p.ej_lat);
    tc_row *rows = calloc((size_t)t.n * TC_TREES, sizeof *rows);
    assert_non_null(rows);
    if (c->members)
        plan(&t, rows, c->members, c->seed);
    else
        assert_int_equal(tc_plan_table(&t, rows, &(tc_plan){.variant = TC_PLAN_RANDOM, .seed = (uint64_t)c->seed}), 0);
    tc_workload w = {0};
    w.kind = kind;
    w.tree = c->tree;
    w.len = c->len;
    w.repeat = c->repeat;
    w.window = 1;
    w.packets = c->bytes && c->len ? (c->bytes + 16 * c->len - 1) / (16 * c->len) : 0;
    w.max_cycles = 100000000;
    size_t got = compare_engine(what, &p, &t, rows, &w, engine);
    free(rows);
    return got;
}

#endif
