/* Golden-model unit tests: the point-to-point baseline (cmodel/netsim/p2p.c): packet timing
 * on an empty path, channel contention, dimension order, long messages, and the
 * software collectives' rounds; the MPI algorithms of cmodel/netsim/p2p_coll.c: every rank
 * done, the flits each rank sends against the algorithms' formulas (the k-nomial
 * broadcast's tree too), ranks not a power of two, LogGP costs, auto, the libraries'
 * thresholds, and the steady-state model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/netsim/p2p.h"

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

/* ---- the MPI algorithms (cmodel/netsim/p2p_coll.c) ---- */

static const tc_wl_kind kinds[] = {TC_WL_BCAST, TC_WL_REDUCE, TC_WL_ALLREDUCE, TC_WL_ALLGATHER, TC_WL_BARRIER};

static uint64_t run_alg(tc_p2p *m, tc_p2p_alg a, tc_wl_kind k, int len, int root, int n, uint64_t *done)
{
    uint64_t end = 0;
    int rc = tc_p2p_coll(m, a, k, len, root, NULL, n, done, &end);
    if (rc)
        fail_msg("%s %s on %d ranks: %s", tc_p2p_alg_names[a], tc_wl_names[k], n, m->err);
    return end;
}

/* Every algorithm of every operation leaves every rank done (with software costs,
 * even a rank that only sends spends them), on 1 to 300 ranks. */
static void test_every_rank_done(void **state)
{
    (void)state;
    static const int ranks[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 31, 64, 100, 256, 300};
    tc_p2p m;
    mk(&m, 2, 20, 16, 0);
    m.cost = (tc_p2p_loggp){10, 12, 5, 500};
    uint64_t *done = calloc(320, sizeof *done);
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            for (int a = 1; a < TC_P2P_ALGS; a++) {
                int n = ranks[i];
                if (!tc_p2p_alg_fits((tc_p2p_alg)a, kinds[k], n))
                    continue;
                for (int len = 1; len <= 40; len += 39) {
                    if (n > 100 && len > 1) /* the long vectors on 300 ranks add time, not cases */
                        continue;
                    int root = kinds[k] == TC_WL_BCAST || kinds[k] == TC_WL_REDUCE ? n / 3 : 0;
                    memset(done, 0, 320 * sizeof *done);
                    uint64_t end = run_alg(&m, (tc_p2p_alg)a, kinds[k], len, root, n, done);
                    for (int r = 0; r < n && n > 1; r++)
                        if (!done[r] || done[r] > end)
                            fail_msg("%s %s, %d ranks, len %d: rank %d done at %llu, end %llu", tc_p2p_alg_names[a],
                                     tc_wl_names[kinds[k]], n, len, r, (unsigned long long)done[r],
                                     (unsigned long long)end);
                    if (n == 1)
                        assert_int_equal(end, 0);
                }
            }
    free(done);
    tc_p2p_free(&m);
}

/* Data flits and messages each rank sends, against the formulas. */
static void test_volumes(void **state)
{
    (void)state;
    tc_p2p m;
    mk(&m, 2, 8, 8, 0);
    enum { P = 8, LEN = 64 };
    uint64_t done[64];
    struct {
        tc_p2p_alg a;
        tc_wl_kind k;
        uint64_t flits, msgs; /* each rank's */
    } every[] = {
        {TC_P2P_RING, TC_WL_ALLREDUCE, 2 * (P - 1) * LEN / P, 2 * (P - 1)},     /* 2 (P - 1) / P of the vector */
        {TC_P2P_RABENSEIFNER, TC_WL_ALLREDUCE, 2 * (P - 1) * LEN / P, 2 * 3},   /* likewise, in 2 log2 P steps */
        {TC_P2P_RECDBL, TC_WL_ALLREDUCE, 3 * LEN, 3},                           /* log2 P times the vector */
        {TC_P2P_REDUCE_BCAST, TC_WL_ALLREDUCE, 0, 0},                           /* (checked below) */
        {TC_P2P_RING, TC_WL_ALLGATHER, (P - 1) * LEN, P - 1},                   /* every block but its own */
        {TC_P2P_RECDBL, TC_WL_ALLGATHER, (P - 1) * LEN, 3},                     /* 1 + 2 + 4 blocks */
        {TC_P2P_BRUCK, TC_WL_ALLGATHER, (P - 1) * LEN, 3},
        {TC_P2P_DISSEMINATION, TC_WL_BARRIER, 0, 3},
        {TC_P2P_RECDBL, TC_WL_BARRIER, 0, 3},
    };
    for (size_t i = 0; i < sizeof every / sizeof every[0]; i++) {
        run_alg(&m, every[i].a, every[i].k, LEN, 0, P, done);
        if (every[i].a == TC_P2P_REDUCE_BCAST)
            continue;
        for (int r = 0; r < P; r++) {
            if (m.pe_flits[r] != every[i].flits || m.pe_msgs[r] != every[i].msgs)
                fail_msg("%s %s rank %d: %llu flits in %llu messages, expected %llu in %llu",
                         tc_p2p_alg_names[every[i].a], tc_wl_names[every[i].k], r,
                         (unsigned long long)m.pe_flits[r], (unsigned long long)m.pe_msgs[r],
                         (unsigned long long)every[i].flits, (unsigned long long)every[i].msgs);
        }
    }
    /* trees: every rank but the root sends the vector once (reduce) or receives it
     * once (bcast: P - 1 vectors leave the ranks in all) */
    uint64_t sum = 0;
    run_alg(&m, TC_P2P_BINOMIAL, TC_WL_REDUCE, LEN, 3, P, done);
    for (int r = 0; r < P; r++) {
        assert_int_equal(m.pe_flits[r], r == 3 ? 0 : LEN);
        sum += m.pe_flits[r];
    }
    run_alg(&m, TC_P2P_BINOMIAL, TC_WL_BCAST, LEN, 3, P, done);
    sum = 0;
    for (int r = 0; r < P; r++)
        sum += m.pe_flits[r];
    assert_int_equal(sum, (P - 1) * LEN);
    /* the k-nomial tree of radix 4 from rank 3: the root sends to relative ranks 4, 1, 2
     * and 3, relative rank 4 to 5, 6 and 7; every rank gets the vector once */
    run_alg(&m, TC_P2P_KNOMIAL, TC_WL_BCAST, LEN, 3, P, done);
    for (int r = 0; r < P; r++) {
        assert_int_equal(m.pe_flits[r], r == 3 ? 4 * LEN : r == (3 + 4) % P ? 3 * LEN : 0);
        assert_int_equal(m.pe_msgs[r], r == 3 ? 4 : r == (3 + 4) % P ? 3 : 0);
    }
    /* scatter + ring: the scatter moves each block log2 P - (its depth) times, then
     * every rank forwards P - 1 blocks of LEN / P */
    run_alg(&m, TC_P2P_SCATTER_RING, TC_WL_BCAST, LEN, 0, P, done);
    sum = 0;
    for (int r = 0; r < P; r++)
        sum += m.pe_flits[r];
    assert_int_equal(sum, (4 + 2 + 2 + 1 * 4) * LEN / P + P * (P - 1) * LEN / P); /* 4, 2 + 2, 1 x 4 blocks */
    /* Rabenseifner's reduce: the halving (LEN (P - 1) / P each), then the gather into
     * rank 0: 4, 2 and 1 blocks from ranks of the upper halves */
    run_alg(&m, TC_P2P_RABENSEIFNER, TC_WL_REDUCE, LEN, 0, P, done);
    sum = 0;
    for (int r = 0; r < P; r++)
        sum += m.pe_flits[r];
    assert_int_equal(sum, P * (P - 1) * LEN / P + (4 * 1 + 2 * 2 + 1 * 4) * LEN / P);
    tc_p2p_free(&m);

    /* 6 ranks, the MPICH folding: ranks 0 and 2 hand their vectors to 1 and 3, the 4
     * ranks left halve and double (1.5 vectors each), 1 and 3 send the result back */
    mk(&m, 1, 6, 1, 0);
    run_alg(&m, TC_P2P_RABENSEIFNER, TC_WL_ALLREDUCE, 16, 0, 6, done);
    static const uint64_t rab6[6] = {16, 24 + 16, 16, 24 + 16, 24, 24};
    for (int r = 0; r < 6; r++)
        assert_int_equal(m.pe_flits[r], rab6[r]);
    run_alg(&m, TC_P2P_RECDBL, TC_WL_ALLREDUCE, 16, 0, 6, done);
    static const uint64_t rd6[6] = {16, 32 + 16, 16, 32 + 16, 32, 32};
    for (int r = 0; r < 6; r++)
        assert_int_equal(m.pe_flits[r], rd6[r]);
    /* all-gather: 0 and 2 hand over their blocks; newranks 0, 1 stand for two ranks
     * each (2 blocks, then 4); 4 and 5 send 1 block, then 2; 1 and 3 send the 5
     * other blocks back */
    run_alg(&m, TC_P2P_RECDBL, TC_WL_ALLGATHER, 4, 0, 6, done);
    static const uint64_t ag6[6] = {4, 4 * (2 + 4) + 20, 4, 4 * (2 + 4) + 20, 4 * (1 + 2), 4 * (1 + 2)};
    for (int r = 0; r < 6; r++)
        assert_int_equal(m.pe_flits[r], ag6[r]);
    /* the ring on 6 ranks, a vector of 4 flits: blocks of 1,1,1,1,0,0 flits; the empty
     * ones still go, as messages without data */
    run_alg(&m, TC_P2P_RING, TC_WL_ALLREDUCE, 4, 0, 6, done);
    sum = 0;
    for (int r = 0; r < 6; r++) {
        assert_int_equal(m.pe_msgs[r], 10);
        sum += m.pe_flits[r];
    }
    assert_int_equal(sum, 2 * 5 * 4); /* each block passes P - 1 links twice */
    tc_p2p_free(&m);
}

/* With no software cost the algorithms the classic set uses give its times. */
static void test_classic_equal(void **state)
{
    (void)state;
    tc_p2p m;
    uint64_t d1[8], d2[8];
    mk(&m, 1, 8, 1, 0);
    struct {
        tc_p2p_alg a;
        tc_wl_kind k;
        int n, root;
    } same[] = {
        {TC_P2P_BINOMIAL, TC_WL_BCAST, 8, 5},      {TC_P2P_BINOMIAL, TC_WL_REDUCE, 8, 2},
        {TC_P2P_RECDBL, TC_WL_ALLREDUCE, 8, 0},    {TC_P2P_REDUCE_BCAST, TC_WL_ALLREDUCE, 6, 0},
        {TC_P2P_RECDBL, TC_WL_ALLGATHER, 8, 0},    {TC_P2P_RING, TC_WL_ALLGATHER, 7, 0},
        {TC_P2P_DISSEMINATION, TC_WL_BARRIER, 5, 0},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        uint64_t e1 = run_alg(&m, same[i].a, same[i].k, 3, same[i].root, same[i].n, d1);
        uint64_t e2 = run_alg(&m, TC_P2P_CLASSIC, same[i].k, 3, same[i].root, same[i].n, d2);
        assert_int_equal(e1, e2);
        for (int r = 0; r < same[i].n; r++)
            assert_int_equal(d1[r], d2[r]);
    }
    tc_p2p_free(&m);
    /* the old software time sw is a receive overhead: o_recv = sw, o_send = 0 */
    mk(&m, 1, 8, 1, 500);
    run_alg(&m, TC_P2P_CLASSIC, TC_WL_BCAST, 1, 5, 8, d2);
    m.cost = (tc_p2p_loggp){0, 500, 0, 0};
    run_alg(&m, TC_P2P_BINOMIAL, TC_WL_BCAST, 1, 5, 8, d1);
    for (int r = 0; r < 8; r++)
        assert_int_equal(d1[r] ? d1[r] - 500 : 0, d2[r]); /* done: once the last receive is processed */
    tc_p2p_free(&m);
}

/* LogGP terms exactly: o at both ends, g between a node's injections, the reduction. */
static void test_loggp(void **state)
{
    (void)state;
    tc_p2p m;
    uint64_t done[4];
    mk(&m, 1, 4, 1, 0);
    m.cost = (tc_p2p_loggp){10, 20, 100, 2500};
    /* two ranks exchange 8 flits: o_send, the packets (7 + 1 flits back to back), o_recv, 8 x 2.5 */
    uint64_t end = run_alg(&m, TC_P2P_RECDBL, TC_WL_ALLREDUCE, 8, 0, 2, done);
    assert_int_equal(end, 10 + empty_path(7, 1) + 2 + 20 + 20);
    assert_int_equal(done[0], end);
    /* linear broadcast from 0: its second message leaves g after the first */
    run_alg(&m, TC_P2P_LINEAR, TC_WL_BCAST, 1, 0, 4, done);
    assert_int_equal(done[1], 10 + empty_path(1, 1) + 20);
    assert_int_equal(done[2], 10 + 100 + empty_path(1, 2) + 20);
    assert_int_equal(done[0], 30); /* three sends' overhead */
    tc_p2p_free(&m);
}

/* auto: the fastest of every algorithm that fits. */
static void test_auto(void **state)
{
    (void)state;
    tc_p2p m;
    mk(&m, 2, 8, 8, 0);
    m.cost = (tc_p2p_loggp){750, 750, 500, 0};
    uint64_t t[TC_P2P_ALGS], end;
    tc_p2p_alg best = TC_P2P_CLASSIC;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int len = 1; len <= 1024; len *= 32) {
            for (int n = 6; n <= 64; n += 58) {
                assert_int_equal(tc_p2p_coll_best(&m, kinds[k], len, 0, NULL, n, t, &best, NULL, &end), 0);
                assert_int_equal(end, t[best]);
                for (int a = 1; a < TC_P2P_ALGS; a++)
                    assert_true(end <= t[a]);
                assert_true(t[TC_P2P_CLASSIC] == UINT64_MAX);
            }
        }
    tc_p2p_free(&m);
}

/* The libraries' documented thresholds, either side. */
static void test_selection(void **state)
{
    (void)state;
    const char *lib;
    /* MPICH 3.2 */
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_BCAST, 64, 12287, &lib), TC_P2P_BINOMIAL);
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_BCAST, 64, 12288, &lib), TC_P2P_SCATTER_RD);
    assert_string_equal(lib, "scatter_doubling_allgather");
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_BCAST, 7, 100000, &lib), TC_P2P_BINOMIAL); /* < BCAST_MIN_PROCS */
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_BCAST, 12, 100000, &lib), TC_P2P_SCATTER_RING);
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_BCAST, 64, 524288, &lib), TC_P2P_SCATTER_RING);
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_ALLREDUCE, 64, 2048, &lib), TC_P2P_RECDBL);
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_ALLREDUCE, 64, 2056, &lib), TC_P2P_RABENSEIFNER);
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_ALLREDUCE, 512, 4000, &lib), TC_P2P_RECDBL); /* 500 < 512 elements */
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_REDUCE, 64, 2048, &lib), TC_P2P_BINOMIAL);
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_REDUCE, 64, 2056, &lib), TC_P2P_RABENSEIFNER);
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_ALLGATHER, 64, 8191, &lib), TC_P2P_RECDBL); /* 64 x 8191 < 512 KiB */
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_ALLGATHER, 64, 8192, &lib), TC_P2P_RING);
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_ALLGATHER, 10, 8191, &lib), TC_P2P_BRUCK); /* < 80 KiB */
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_ALLGATHER, 10, 8192, &lib), TC_P2P_RING);
    assert_int_equal(tc_p2p_pick_mpich(TC_WL_BARRIER, 10, 0, &lib), TC_P2P_DISSEMINATION);
    /* Open MPI 5 */
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_ALLREDUCE, 8, 8191, &lib), TC_P2P_RECDBL);
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_ALLREDUCE, 8, 8192, &lib), TC_P2P_RABENSEIFNER);
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_ALLREDUCE, 300, 4095, &lib), TC_P2P_REDUCE_BCAST);
    assert_string_equal(lib, "nonoverlapping");
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_ALLREDUCE, 40, 127, &lib), TC_P2P_RING);
    assert_string_equal(lib, "segmented_ring");
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_BCAST, 20, 4095, &lib), TC_P2P_KNOMIAL);
    assert_string_equal(lib, "knomial");
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_BCAST, 12, 32, &lib), TC_P2P_BINOMIAL); /* binary tree: as binomial */
    assert_string_equal(lib, "binary_tree");
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_BCAST, 20, 1048576, &lib), TC_P2P_SCATTER_RING); /* not a power of two */
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_BCAST, 16, 1048576, &lib), TC_P2P_SCATTER_RD);
    assert_string_equal(lib, "scatter_allgather");
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_BCAST, 6, 8192, &lib), TC_P2P_LINEAR);
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_BARRIER, 100, 0, &lib), TC_P2P_DISSEMINATION);
    assert_string_equal(lib, "bruck");
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_BARRIER, 63, 0, &lib), TC_P2P_RECDBL);
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_BARRIER, 300, 0, &lib), TC_P2P_TREE);
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_ALLGATHER, 12, 100, &lib), TC_P2P_BRUCK); /* its own fallback */
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_ALLGATHER, 16, 100, &lib), TC_P2P_RECDBL);
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_ALLGATHER, 40, 1023, &lib), TC_P2P_BRUCK); /* recursive_doubling, 40 ranks */
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_ALLGATHER, 40, 70000, &lib), TC_P2P_RING);
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_REDUCE, 100, 1 << 20, &lib), TC_P2P_BINOMIAL);
    assert_int_equal(tc_p2p_pick_ompi(TC_WL_REDUCE, 6, 8192, &lib), TC_P2P_RABENSEIFNER);
    assert_string_equal(lib, "chain");
}

/* The steady-state model (tc_p2p_coll_model): without contention a ring step is its
 * message's latency between the overheads, which is what the model adds up, so on a
 * ring of nodes it equals the simulation; with contention (a 4x4 torus, Bruck's and
 * recursive doubling's far partners) it stays within 3% of it on long blocks; it
 * refuses what it does not model. */
static void test_model(void **state)
{
    (void)state;
    tc_p2p m;
    tc_p2p_est e;
    mk(&m, 1, 8, 1, 0);
    m.cost = (tc_p2p_loggp){100, 120, 0, 0};
    for (int len = 1; len <= 70; len += 69) {
        assert_int_equal(tc_p2p_coll_model(&m, TC_P2P_RING, TC_WL_ALLGATHER, len, 8, 1.0, &e), 0);
        assert_int_equal(e.model, run_alg(&m, TC_P2P_RING, TC_WL_ALLGATHER, len, 0, 8, NULL));
    }
    tc_p2p_free(&m);
    mk(&m, 2, 4, 4, 0);
    m.cost = (tc_p2p_loggp){750, 750, 500, 0};
    static const tc_p2p_alg ag[] = {TC_P2P_RECDBL, TC_P2P_BRUCK, TC_P2P_RING};
    for (size_t i = 0; i < sizeof ag / sizeof ag[0]; i++) {
        uint64_t x = run_alg(&m, ag[i], TC_WL_ALLGATHER, 700, 0, 16, NULL);
        assert_int_equal(tc_p2p_coll_model(&m, ag[i], TC_WL_ALLGATHER, 700, 16, 1.0, &e), 0);
        if (e.model > x * 103 / 100 || e.model < x * 97 / 100)
            fail_msg("%s: model %llu, simulated %llu", tc_p2p_alg_names[ag[i]], (unsigned long long)e.model,
                     (unsigned long long)x);
    }
    assert_int_equal(tc_p2p_coll_model(&m, TC_P2P_CLASSIC, TC_WL_ALLGATHER, 7, 16, 1.0, &e), -1);
    assert_int_equal(tc_p2p_coll_model(&m, TC_P2P_RING, TC_WL_BCAST, 7, 16, 1.0, &e), -1);
    assert_int_equal(tc_p2p_coll_model(&m, TC_P2P_RING, TC_WL_ALLGATHER, 7, 17, 1.0, &e), -1);
    assert_int_equal(tc_p2p_coll_model(&m, TC_P2P_RING, TC_WL_ALLGATHER, 7, 16, 0.0, &e), -1);
    tc_p2p_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_path),  cmocka_unit_test(test_contention), cmocka_unit_test(test_dimension_order),
        cmocka_unit_test(test_long_message), cmocka_unit_test(test_collectives),
        cmocka_unit_test(test_every_rank_done), cmocka_unit_test(test_volumes),  cmocka_unit_test(test_classic_equal),
        cmocka_unit_test(test_loggp),           cmocka_unit_test(test_auto),     cmocka_unit_test(test_selection), cmocka_unit_test(test_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
