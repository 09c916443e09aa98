/* Golden-model unit tests: the point-to-point baseline (cmodel/p2p.c): packet timing
 * on an empty path, channel contention, dimension order, long messages, and the
 * software collectives' rounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/p2p.h"

/* Latencies unlike the defaults, so that every term of a formula shows. */
enum { L = 7, INJ = 11, EJ = 13 };

static void mk(tc_p2p *m, int nd, int a, int b, uint64_t sw)
{
    tc_params p;
    char err[128];
    tc_params_default(&p);
    p.ndims = nd;
    p.size[0] = a;
    p.size[1] = b;
    p.link_lat = L;
    p.inj_lat = INJ;
    p.ej_lat = EJ;
    assert_int_equal(tc_p2p_init(m, &p, sw, err, sizeof err), 0);
}

/* A packet of len data flits over h hops of an empty network: the router's costs
 * (whole at +len, routed +1, granted +2, on the link +3) at every hop and at the
 * ejection, the PCIe channels at both ends. */
static uint64_t empty_path(int len, int h) { return INJ + EJ + L + 3u * len + 6 + (uint64_t)(h - 1) * (len + 3 + L); }

static void test_empty_path(void **state)
{
    (void)state;
    tc_p2p m;
    mk(&m, 1, 8, 1, 0);
    for (int h = 1; h <= 4; h++)
        for (int len = 0; len <= 7; len += 7) {
            memset(m.link_free, 0, sizeof *m.link_free * 8 * 2);
            memset(m.inj_free, 0, sizeof *m.inj_free * 8);
            memset(m.ej_free, 0, sizeof *m.ej_free * 8);
            assert_int_equal(tc_p2p_send(&m, 0, h, len, 100), 100 + empty_path(len, h));
            assert_int_equal(tc_p2p_send(&m, 0, 8 - h, len, 1000), 1000 + empty_path(len, h)); /* the other way round */
        }
    assert_int_equal(tc_p2p_send(&m, 3, 3, 2, 5), 5); /* to itself: nothing sent */
    tc_p2p_free(&m);
}

static void test_contention(void **state)
{
    (void)state;
    tc_p2p m;
    /* one source: the injection channel holds each packet len + 1 cycles */
    mk(&m, 1, 8, 1, 0);
    assert_int_equal(tc_p2p_send(&m, 0, 2, 2, 0), empty_path(2, 2));
    assert_int_equal(tc_p2p_send(&m, 0, 2, 2, 0), empty_path(2, 2) + 3);
    tc_p2p_free(&m);
    /* one destination from both sides: they meet only at its ejection channel */
    mk(&m, 1, 8, 1, 0);
    assert_int_equal(tc_p2p_send(&m, 1, 2, 4, 0), empty_path(4, 1));
    assert_int_equal(tc_p2p_send(&m, 3, 2, 4, 0), empty_path(4, 1) + 5);
    tc_p2p_free(&m);
    /* one link: 0 -> 2 and 1 -> 3 share the link 1 -> 2; the second packet reaches
     * node 1's router whole before the first has left it, and waits for the link */
    mk(&m, 1, 8, 1, 0);
    assert_int_equal(tc_p2p_send(&m, 0, 2, 4, 0), empty_path(4, 2));
    uint64_t first_on_link = INJ + 4 + 2 + 1 + L + 4 + 2; /* granted at node 1 */
    assert_int_equal(m.link_free[1 * 2 + 0], first_on_link + 5);
    assert_int_equal(tc_p2p_send(&m, 1, 3, 4, 0), first_on_link + 5 + 2 * (1 + L + 4 + 2) + 1 + EJ + 4);
    tc_p2p_free(&m);
}

static void test_dimension_order(void **state)
{
    (void)state;
    tc_p2p m;
    mk(&m, 2, 4, 4, 0);
    int a = 0, b = 1 + 4 * 1; /* (0,0) to (1,1) */
    tc_p2p_send(&m, a, b, 1, 0);
    assert_true(m.link_free[a * 4 + TC_DIR_XP] > 0); /* X first */
    assert_int_equal(m.link_free[a * 4 + TC_DIR_YP], 0);
    assert_true(m.link_free[1 * 4 + TC_DIR_YP] > 0); /* then Y from (1,0) */
    for (int i = 0; i < 16 * 4; i++) /* three links only */
        if (i != a * 4 + TC_DIR_XP && i != 1 * 4 + TC_DIR_YP)
            assert_int_equal(m.link_free[i], 0);
    tc_p2p_free(&m);
}

static void test_long_message(void **state)
{
    (void)state;
    tc_p2p m;
    mk(&m, 1, 4, 1, 0);
    uint64_t t = tc_p2p_send(&m, 0, 1, 10, 0); /* 7 + 3 flits, back to back */
    tc_p2p_free(&m);
    mk(&m, 1, 4, 1, 0);
    tc_p2p_send(&m, 0, 1, 7, 0);
    assert_int_equal(tc_p2p_send(&m, 0, 1, 3, 0), t);
    /* the 3-flit packet is granted each channel 8 cycles (7 + 1) after the 7-flit one,
     * and ends 4 flits sooner */
    assert_int_equal(t, empty_path(7, 1) + 8 - 4);
    tc_p2p_free(&m);
}

static uint64_t coll(tc_p2p *m, tc_wl_kind kind, int len, int root, uint64_t *done)
{
    uint64_t end = 0;
    assert_int_equal(tc_p2p_collective(m, kind, len, root, done, &end), 0);
    return end;
}

static void test_collectives(void **state)
{
    (void)state;
    tc_p2p m;
    uint64_t done[8], e1 = empty_path(1, 1);
    /* two nodes: every collective is one message, or one each way */
    mk(&m, 1, 2, 1, 0);
    assert_int_equal(coll(&m, TC_WL_BCAST, 2, 1, done), empty_path(2, 1));
    assert_int_equal(done[1], 0); /* the root receives nothing */
    assert_int_equal(coll(&m, TC_WL_REDUCE, 2, 0, done), empty_path(2, 1));
    assert_int_equal(done[1], 0);
    assert_int_equal(coll(&m, TC_WL_ALLREDUCE, 2, 0, done), empty_path(2, 1));
    assert_int_equal(done[0], done[1]);
    assert_int_equal(coll(&m, TC_WL_BARRIER, 0, 0, NULL), empty_path(0, 1));
    tc_p2p_free(&m);

    /* a ring of 8, binomial broadcast from 5: 5 -> 6; 5 -> 7, 6 -> 0; 5 -> 1 (4 hops
     * through 7 and 0), 6 -> 2, 7 -> 3, 0 -> 4. The root's packets follow each other
     * through its injection channel, 2 cycles apart. 5 -> 1 passes node 7 before
     * 6 -> 0 does, although 6 -> 0 belongs to an earlier round: first come first
     * served in time. At node 7, 6 -> 2 and 7 -> 3 ask for the link in the same
     * cycle; 7 -> 3 asked first. */
    mk(&m, 1, 8, 1, 0);
    uint64_t end = coll(&m, TC_WL_BCAST, 1, 5, done);
    assert_int_equal(done[5], 0);
    assert_int_equal(done[6], e1);
    assert_int_equal(done[7], empty_path(1, 2) + 2);
    assert_int_equal(done[0], e1 + empty_path(1, 2));
    assert_int_equal(done[1], empty_path(1, 4) + 4);
    assert_int_equal(done[2], e1 + 2 + empty_path(1, 4) + 2);
    for (int v = 0; v < 8; v++)
        assert_true(done[v] <= end);
    tc_p2p_free(&m);
    /* with software time after each receive: only what follows a receive moves */
    mk(&m, 1, 8, 1, 500);
    coll(&m, TC_WL_BCAST, 1, 5, done);
    assert_int_equal(done[6], e1);
    assert_int_equal(done[1], empty_path(1, 4) + 4);
    assert_int_equal(done[0], e1 + 500 + empty_path(1, 2));
    assert_int_equal(done[2], e1 + 500 + 2 + empty_path(1, 4) + 2); /* the same tie at node 7 */
    tc_p2p_free(&m);

    /* 3 nodes, not a power of two: allreduce as a reduce to the root (1 -> 0 and
     * 2 -> 0 meet at 0's ejection channel) and a broadcast back (0 -> 1, 0 -> 2) */
    mk(&m, 1, 3, 1, 0);
    assert_int_equal(coll(&m, TC_WL_ALLREDUCE, 1, 0, done), 2 * e1 + 4);
    assert_int_equal(done[0], e1 + 2);
    assert_int_equal(done[1], 2 * e1 + 2);
    assert_int_equal(done[2], 2 * e1 + 4);
    /* all-gather on a ring of 3: 2 rounds to the next node */
    assert_int_equal(coll(&m, TC_WL_ALLGATHER, 1, 0, done), 2 * e1);
    tc_p2p_free(&m);
    /* ... and of 35: 34 rounds, more than a mask has bits */
    mk(&m, 1, 35, 1, 0);
    assert_int_equal(coll(&m, TC_WL_ALLGATHER, 1, 0, NULL), 34 * e1);
    tc_p2p_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_path),  cmocka_unit_test(test_contention), cmocka_unit_test(test_dimension_order),
        cmocka_unit_test(test_long_message), cmocka_unit_test(test_collectives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
