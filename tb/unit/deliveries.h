/* Shared by the unit tests that compare two runs of a workload delivery by delivery
 * (test_pkt_bcast.c, test_lookahead.c): the deliveries a run records, and the
 * planner's table as tcnet builds it. Include after cmocka.h. */
#ifndef TC_UNIT_DELIVERIES_H
#define TC_UNIT_DELIVERIES_H

#include <stdlib.h>
#include <string.h>

#include "../../cmodel/table.h"
#include "../../cmodel/workload.h"

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

/* The planner's table, as tcnet builds it: every tree with a random member set (the
 * root and its farthest node always in). */
static void plan(const tc_topo *t, tc_row *rows, int members, int seed)
{
    uint8_t *pe = malloc((size_t)t->n);
    uint64_t rng = (uint64_t)seed * 0x9e3779b97f4a7c15ull + 1;
    assert_non_null(pe);
    for (int tree = 0; tree < TC_TREES; tree++) {
        int root = (int)((long)tree * t->n / TC_TREES);
        for (int k = 0; k < t->n; k++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            pe[k] = rng % 100 < (uint64_t)members;
        }
        pe[root] = pe[tc_farthest(t, root)] = 1;
        tc_plan_tree(t, rows, tree, root, pe);
    }
    free(pe);
}

#endif
