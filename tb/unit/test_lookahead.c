/* The network's lookahead (tc_net_lookahead: the routers lag the PEs and each runs a
 * sweep of cycles alone) changes nothing: every workload kind run with it and with
 * every router evaluated in every cycle (tc_workload.step) gives the same PE
 * deliveries (node, operation, the cycle of its last flit, its flits), operation
 * starts, ends and counts, node completions, cycles, error reports and flits on every
 * link; over 1D to 4D tori, odd and mixed radices, random member sets, latencies from
 * 1 cycle (no lookahead) to the defaults (40), small buffers, runs past the credit
 * block's report cycle, and a stream. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "deliveries.h"

typedef struct {
    const char *topo;
    tc_wl_kind kind;
    int members, seed, len, packets, repeat, window;
    int slots, link_lat, inj_lat, ej_lat; /* 0: the default */
} lcase;

static size_t total; /* deliveries compared */

/* One run of c, with lookahead or stepping every router every cycle. */
static int run(const lcase *c, const tc_params *p, const tc_topo *t, const tc_row *rows, int step, dlist *got,
               tc_wl_result *res, uint64_t *lf, int *blk)
{
    char err[256];
    tc_net *n = tc_net_new(p, err, sizeof err);
    assert_non_null(n);
    for (int k = 0; k < t->n; k++)
        for (int tree = 0; tree < TC_TREES; tree++)
            tc_net_cfg(n, k, tree, TC_ROWP(rows, k, tree));
    tc_workload w = {0};
    w.kind = c->kind;
    w.len = c->len;
    w.op = TC_OP_SUM;
    w.lane = TC_LANE_32;
    w.dst = tc_tree_root(t, rows, 0);
    w.bar_mode = TC_BAR_DIAM;
    w.packets = c->packets;
    w.repeat = c->repeat;
    w.window = c->window;
    w.max_cycles = 10000000;
    w.deliver = record;
    w.deliver_ctx = got;
    w.step = step;
    int rc = tc_wl_run(n, rows, &w, res, NULL, NULL);
    *blk = tc_net_lookahead(n, 1); /* the sweep it had */
    for (int k = 0; k < t->n; k++)
        for (int d = 0; d < 2 * t->ndims; d++)
            lf[(size_t)k * 2u * (size_t)t->ndims + (size_t)d] = tc_net_link_flits(n, k, d);
    tc_net_free(n);
    return rc;
}

static void run_case(const lcase *c)
{
    char what[256];
    tc_topo t;
    tc_params p;
    case_params(c->topo, c->slots, 0, 0, c->link_lat, c->inj_lat, c->ej_lat, &t, &p);
    snprintf(what, sizeof what, "%s %s members %d seed %d len %d packets %d repeat %d window %d slots %d lat %d/%d/%d",
             c->topo, tc_wl_names[c->kind], c->members, c->seed, c->len, c->packets, c->repeat, c->window, p.slots,
             p.link_lat, p.inj_lat, p.ej_lat);
    tc_row *rows = calloc((size_t)t.n * TC_TREES, sizeof *rows);
    assert_non_null(rows);
    plan(&t, rows, c->members, c->seed);

    size_t nl = (size_t)t.n * 2u * (size_t)t.ndims;
    uint64_t *la = malloc(nl * sizeof *la), *ls = malloc(nl * sizeof *ls);
    assert_non_null(la);
    assert_non_null(ls);
    dlist da = {0}, ds = {0};
    tc_wl_result ra, rs;
    int blk_a, blk_s;
    int oka = run(c, &p, &t, rows, 0, &da, &ra, la, &blk_a);
    int oks = run(c, &p, &t, rows, 1, &ds, &rs, ls, &blk_s);
    if (oka || oks)
        fail_msg("%s: lookahead %d (%s), every cycle %d (%s)", what, oka, ra.msg, oks, rs.msg);
    if (da.n != ds.n)
        fail_msg("%s: %zu deliveries with lookahead, %zu without", what, da.n, ds.n);
    for (size_t i = 0; i < da.n; i++) { /* in the order the PEs took them: the same */
        const delivery *a = &da.d[i], *b = &ds.d[i];
        if (delivery_differs(a, b))
            fail_msg("%s: delivery %zu: lookahead node %u op %d cycle %llu, without node %u op %d cycle %llu%s", what, i,
                     a->node, a->op, (unsigned long long)a->cycle, b->node, b->op, (unsigned long long)b->cycle,
                     a->cycle == b->cycle ? ", flits differ" : "");
    }
    assert_int_equal(ra.cycles, rs.cycles);
    assert_int_equal(ra.errors, rs.errors);
    for (int i = 0; i < c->repeat; i++) {
        assert_int_equal(ra.op[i].start, rs.op[i].start);
        assert_int_equal(ra.op[i].end, rs.op[i].end);
        assert_int_equal(ra.op[i].deliveries, rs.op[i].deliveries);
    }
    assert_memory_equal(ra.node_done, rs.node_done, (size_t)c->repeat * (size_t)t.n * sizeof *ra.node_done);
    assert_memory_equal(la, ls, nl * sizeof *la);
    /* the lookahead is the smallest latency */
    int lat = p.link_lat < p.inj_lat ? p.link_lat : p.inj_lat;
    lat = lat < p.ej_lat ? lat : p.ej_lat;
    assert_int_equal(blk_a, lat < TC_NET_MAX_LOOKAHEAD ? lat : TC_NET_MAX_LOOKAHEAD);
    total += da.n;
    free(da.d), free(ds.d), free(la), free(ls), free(rows);
    tc_wl_result_free(&ra), tc_wl_result_free(&rs);
}

static void test_fixed(void **state)
{
    (void)state;
    static const lcase cases[] = {
        {"5", TC_WL_ALLGATHER, 100, 1, 7, 0, 1, 1, 0, 0, 0, 0},
        {"7", TC_WL_ALLREDUCE, 100, 1, 2, 0, 5, 1, 0, 0, 0, 0},
        {"4x4", TC_WL_BCAST, 100, 1, 7, 600, 1, 1, 0, 0, 0, 0}, /* past the report at cycle 4096 */
        {"5x3", TC_WL_ALLGATHER, 60, 3, 3, 4, 1, 1, 0, 3, 5, 7},
        {"4x4", TC_WL_BARRIER, 100, 1, 0, 0, 3, 1, 0, 0, 0, 0},
        {"3x3x3", TC_WL_REDUCE, 70, 2, 2, 0, 4, 1, 0, 0, 0, 0},
        {"3x3x3", TC_WL_TREE_BARRIER, 100, 1, 0, 0, 6, 1, 0, 2, 9, 4},
        {"4x4", TC_WL_ALLREDUCE, 100, 1, 1, 0, 40, 16, 0, 0, 0, 0}, /* a stream */
        {"4x4x4", TC_WL_ALLGATHER, 100, 1, 7, 2, 1, 1, 3, 0, 0, 0}, /* small buffers bind */
        {"2x2x2x2", TC_WL_BARRIER, 100, 1, 0, 0, 2, 1, 0, 1, 1, 1}, /* no lookahead: a sweep of 1 */
        {"3x2x3x2", TC_WL_ALLGATHER, 50, 7, 1, 0, 2, 1, 0, 5, 2, 150},
        {"2x3x2", TC_WL_ALLREDUCE, 100, 4, 2, 0, 8, 4, 0, 40, 150, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
}

static void test_random(void **state)
{
    (void)state;
    static const char *const topos[] = {"6", "3x5", "4x3x2", "2x3x2x2", "5x5", "3x3x3"};
    static const tc_wl_kind kinds[] = {TC_WL_BCAST, TC_WL_ALLGATHER, TC_WL_ALLREDUCE, TC_WL_REDUCE, TC_WL_BARRIER,
                                       TC_WL_TREE_BARRIER};
    uint64_t rng = 12345;
    for (int i = 0; i < 60; i++) {
        uint64_t r[8];
        for (int j = 0; j < 8; j++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            r[j] = rng;
        }
        lcase c = {topos[r[0] % 6], kinds[r[1] % 6], 40 + (int)(r[2] % 61), (int)(r[3] % 100), 0, 0, 1 + (int)(r[4] % 3),
                   1, r[5] % 3 ? 0 : 2 + (int)(r[5] % 4), 1 + (int)(r[6] % 45), 1 + (int)(r[7] % 160),
                   1 + (int)((r[7] >> 20) % 160)};
        int red = c.kind == TC_WL_ALLREDUCE || c.kind == TC_WL_REDUCE;
        c.len = red ? 1 + (int)((r[6] >> 20) % 2) : (int)((r[6] >> 20) % 8);
        c.packets = (c.kind == TC_WL_BCAST || c.kind == TC_WL_ALLGATHER) && c.len ? (int)((r[5] >> 20) % 5) : 0;
        run_case(&c);
    }
    printf("lookahead: %zu deliveries the same with and without\n", total);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
