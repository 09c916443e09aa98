/* Golden-model unit tests: collective traces (cmodel/netsim/trace.c) and the point-to-point
 * pieces the applications use (cmodel/netsim/p2p.c): the reader takes a good trace and
 * refuses every kind of bad one naming the problem; concurrent exchanges and
 * collectives among a subset of nodes time as single messages and whole-torus
 * collectives do; the replay's gather, scatter, all-to-all, reduce_scatter and scan
 * pay LogGP's o and g as the MPI algorithms do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/netsim/trace.h"

static const char good[] = "torcoll-trace 1\nranks 2\n# comment\n"
                           "0 bcast 2 0 16 - MPI_LONG 100 20\n"
                           "1 bcast 2 0 16 - MPI_LONG 90 30\n"
                           "0 allreduce 2 -1 8 max MPI_DOUBLE 1000 5\n"
                           "1 allreduce 2 -1 8 max MPI_DOUBLE 1010 4\n"
                           "1 barrier 2 -1 0 - - 7 8\n"
                           "0 barrier 2 -1 0 - - 6 9\n"
                           "end 6\n";

/* Version 2: a split into halves {3, 1} and {0, 2} (descending and ascending
 * ranges, one continued on a second line), a message, a nonblocking allreduce and
 * its wait, the world's definition repeated. */
static const char good2[] = "torcoll-trace 2\nranks 4\n"
                            "comm 0 4 0-3\n"
                            "comm 7 2 3\ncomm 7 2 1\n"
                            "comm 8 2 0 2\n"
                            "0 send 8 1 64 5 MPI_BYTE 10 1\n"
                            "2 recv 8 0 64 5 MPI_BYTE 10 1\n"
                            "3 iallreduce 7 -1 8 sum MPI_DOUBLE 5 1\n"
                            "1 iallreduce 7 -1 8 sum MPI_DOUBLE 5 1\n"
                            "3 wait 7 0 0 - - 2 3\n"
                            "1 wait 7 0 0 - - 2 3\n"
                            "end 6\n";

/* Reads text as a trace: 0, or -1 with err. */
static int rd(const char *text, tc_trace *tr, char *err, size_t n)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(f);
    int rc = tc_trace_read(f, "t", tr, err, n);
    fclose(f);
    return rc;
}

static void test_good(void **state)
{
    (void)state;
    tc_trace tr;
    char err[256];
    assert_int_equal(rd(good, &tr, err, sizeof err), 0);
    assert_int_equal(tr.ranks, 2);
    assert_int_equal(tr.n[0], 3);
    assert_int_equal(tr.n[1], 3);
    const tc_trace_rec *r1 = &tr.rec[1][0], *r0 = &tr.rec[0][1];
    assert_int_equal(r1->call, TC_CALL_BCAST);
    assert_int_equal(r1->gap_ns, 90);
    assert_int_equal(r1->dur_ns, 30);
    assert_int_equal(r0->call, TC_CALL_ALLREDUCE);
    assert_int_equal(r0->bytes, 8);
    assert_string_equal(r0->op, "max");
    assert_int_equal(tr.rec[0][2].call, TC_CALL_BARRIER); /* rank 0's third, listed after rank 1's */
    assert_int_equal(tr.rec[0][2].gap_ns, 6);
    assert_int_equal(tr.rec[0][2].comm, 0);
    tc_trace_free(&tr);
}

static void test_good2(void **state)
{
    (void)state;
    tc_trace tr;
    char err[256] = "", *text = NULL;
    size_t len = 0;
    assert_int_equal(rd(good2, &tr, err, sizeof err), 0);
    assert_int_equal(tr.version, 2);
    assert_int_equal(tr.ncomms, 3);
    assert_int_equal(tr.comm[1].id, 7);
    assert_int_equal(tr.comm[1].member[0], 3);
    assert_int_equal(tr.comm[1].member[1], 1);
    assert_int_equal(tr.comm[2].member[1], 2);
    assert_int_equal(tr.rec[0][0].call, TC_CALL_SEND);
    assert_int_equal(tr.rec[0][0].root, 1);
    assert_int_equal(tr.rec[3][0].call, TC_CALL_ALLREDUCE);
    assert_int_equal(tr.rec[3][0].nb, 2); /* waited */
    assert_int_equal(tr.rec[3][1].call, TC_CALL_WAIT);
    /* written and read again: the same */
    FILE *f = open_memstream(&text, &len);
    tc_trace_write(f, &tr);
    fclose(f);
    tc_trace back;
    assert_int_equal(rd(text, &back, err, sizeof err), 0);
    assert_int_equal(back.records, tr.records);
    assert_int_equal(back.ncomms, tr.ncomms);
    for (int r = 0; r < tr.ranks; r++)
        for (int i = 0; i < tr.n[r]; i++)
            assert_memory_equal(&back.rec[r][i], &tr.rec[r][i], offsetof(tc_trace_rec, line));
    free(text);
    tc_trace_free(&back);
    tc_trace_free(&tr);
}

/* Calls the replay does not model: CALL their MPI name, ROOT a target or -1, BYTES
 * and OP kept; written and read back the same. */
static void test_unmodelled(void **state)
{
    (void)state;
    static const char text[] = "torcoll-trace 2\nranks 2\ncomm 8 2 1 0\n"
                               "0 MPI_Win_fence 8 -1 0 - - 10 200\n"
                               "0 MPI_Accumulate 8 0 24 sum MPI_DOUBLE 5 7\n"
                               "1 MPI_Neighbor_allgather 0 -1 4 - MPI_INT 3 9\n"
                               "end 3\n";
    tc_trace tr, back;
    char err[256] = "", *out = NULL;
    size_t len = 0;
    assert_int_equal(rd(text, &tr, err, sizeof err), 0);
    const tc_trace_rec *a = &tr.rec[0][1];
    assert_int_equal(tr.rec[0][0].call, TC_CALL_OTHER);
    assert_string_equal(tr.rec[0][0].name, "MPI_Win_fence");
    assert_int_equal(tr.rec[0][0].root, -1);
    assert_int_equal(a->call, TC_CALL_OTHER);
    assert_string_equal(a->name, "MPI_Accumulate");
    assert_int_equal(a->root, 0); /* comm rank 0 of communicator 8: world rank 1 */
    assert_int_equal(a->bytes, 24);
    assert_string_equal(a->op, "sum");
    assert_int_equal(a->dur_ns, 7);
    assert_int_equal(a->nb, 0);
    FILE *f = open_memstream(&out, &len);
    tc_trace_write(f, &tr);
    fclose(f);
    assert_non_null(strstr(out, "\n0 MPI_Accumulate 8 0 24 sum MPI_DOUBLE 5 7\n"));
    assert_int_equal(rd(out, &back, err, sizeof err), 0);
    for (int r = 0; r < tr.ranks; r++)
        for (int i = 0; i < tr.n[r]; i++)
            assert_string_equal(back.rec[r][i].name, tr.rec[r][i].name);
    free(out);
    tc_trace_free(&back);
    tc_trace_free(&tr);
}

/* Each bad trace is refused with a message holding want. */
static void test_bad(void **state)
{
    (void)state;
    static const struct { const char *text, *want; } bad[] = {
        {"", "empty, not a trace"},
        {"torcoll-trace x\n", "not a torcoll trace"},
        {"torcoll-trace 1\n", "no 'ranks' line"},
        {"torcoll-trace 1\nranks 0\n", "expected 'ranks R'"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 8 - T 1 1\n", "truncated: 1 records and no 'end' line"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 8 - T 1\nend 1\n", "8 fields, expected 9"},
        {"torcoll-trace 1\nranks 1\n0 scatter 1 0 8 - T 1 1\nend 1\n", "call 'scatter' is none of bcast, reduce, allreduce, barrier, allgather (version 1)"},
        {"torcoll-trace 1\nranks 1\n2 bcast 1 0 8 - T 1 1\nend 1\n", "rank '2' is not in 0..0"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 -8 - T 1 1\nend 1\n", "bytes '-8'"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 -1 8 - T 1 1\nend 1\n", "have a root"},
        {"torcoll-trace 1\nranks 1\n0 barrier 1 -1 8 - T 1 1\nend 1\n", "a barrier and a wait have none"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 8 - T 1x 1\nend 1\n", "GAP_NS and DUR_NS"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 8 - T 1 1\nend 2\n", "the end line counts 2 records, the file has 1"},
        {"torcoll-trace 1\nranks 1\nend 0\n0 bcast 1 0 8 - T 1 1\n", "a line after the end line"},
        {"torcoll-trace 3\n", "a newer format than this reader's"},
        {"torcoll-trace 1\nranks 2\n0 bcast 1 0 8 - T 1 1\nend 1\n", "a version 1 trace does not say which ranks"},
        {"torcoll-trace 1\nranks 1\n0 send 1 0 8 - T 1 1\nend 1\n", "(version 1)"},
        {"torcoll-trace 2\nranks 2\n0 bcast 5 0 8 - T 1 1\nend 1\n", "communicator '5' is not defined"},
        {"torcoll-trace 2\nranks 2\ncomm 5 1 1\n0 bcast 5 0 8 - T 1 1\nend 1\n", "which it is not a member of"},
        {"torcoll-trace 2\nranks 2\ncomm 5 2 1\n1 bcast 5 0 8 - T 1 1\nend 1\n", "used before all its 2 members"},
        {"torcoll-trace 2\nranks 2\ncomm 5 2 1 1\nend 0\n", "lists rank 1 twice"},
        {"torcoll-trace 2\nranks 2\ncomm 5 2 0-1\ncomm 5 2 1 0\nend 0\n", "defined again with other members"},
        {"torcoll-trace 2\nranks 2\ncomm 5 2 0-3\nend 0\n", "member '0-3' is not a rank"},
        {"torcoll-trace 2\nranks 2\ncomm 5 2 0\nend 0\n", "is given 1 of its 2 members"},
        {"torcoll-trace 2\nranks 2\ncomm x 2 0\nend 0\n", "expected 'comm ID SIZE MEMBER...'"},
        {"torcoll-trace 2\nranks 2\n0 send 0 2 8 5 T 1 1\nend 1\n", "peer '2' is not in 0..1"},
        {"torcoll-trace 2\nranks 2\n0 send 0 1 8 x T 1 1\nend 1\n", "tag 'x'"},
        {"torcoll-trace 2\nranks 2\n0 wait 0 0 0 - - 1 1\nend 1\n", "the waited record '0' is not in 0..-1"},
        {"torcoll-trace 2\nranks 2\n0 send 0 1 8 5 T 1 1\n0 wait 0 0 0 - - 1 1\nend 2\n", "a blocking call"},
        {"torcoll-trace 2\nranks 2\n0 isend 0 1 8 5 T 1 1\n0 wait 0 0 0 - - 1 1\n0 wait 0 0 0 - - 1 1\nend 3\n",
         "which an earlier wait completed"},
        {"torcoll-trace 2\nranks 2\n0 iwait 0 0 0 - - 1 1\nend 1\n", "call 'iwait' is none of"},
        {"torcoll-trace 2\nranks 1\n0 gather 0 -1 8 - T 1 1\nend 1\n", "root '-1' is not in 0..0"},
        /* calls not modelled */
        {"torcoll-trace 2\nranks 2\n0 MPI_Put 0 2 16 - T 1 1\nend 1\n", "t:3: peer or target '2' is not in -1..1"},
        {"torcoll-trace 2\nranks 2\n0 MPI_Put 0 -2 16 - T 1 1\nend 1\n", "t:3: peer or target '-2' is not in -1..1"},
        {"torcoll-trace 2\nranks 2\n0 MPI_ 0 -1 0 - - 1 1\nend 1\n", "t:3: call 'MPI_' is not an MPI name"},
        {"torcoll-trace 2\nranks 2\n0 MPI_Pu-t 0 -1 0 - - 1 1\nend 1\n", "t:3: call 'MPI_Pu-t' is not an MPI name"},
        {"torcoll-trace 2\nranks 2\n0 MPI_Neighbor_alltoallw_and_more_x 0 -1 0 - - 1 1\nend 1\n", "is not an MPI name"},
        {"torcoll-trace 2\nranks 2\n0 MPI_Put 0 1 -16 - T 1 1\nend 1\n", "t:3: bytes '-16'"},
        {"torcoll-trace 2\nranks 2\n0 MPI_Put 0 1 16 - T 1 x\nend 1\n", "t:3: GAP_NS and DUR_NS"},
        {"torcoll-trace 2\nranks 2\n0 MPI_Put 0 1 16 - T 1\nend 1\n", "t:3: 8 fields, expected 9"},
        {"torcoll-trace 2\nranks 2\n0 MPI_Rput 0 1 8 - T 1 1\n0 wait 0 0 0 - - 1 1\nend 2\n", "a blocking call"},
        {"torcoll-trace 2\nranks 2\n0 iMPI_Put 0 1 8 - T 1 1\nend 1\n", "call 'iMPI_Put' is none of"},
        {"torcoll-trace 2\nranks 2\n0 other 0 1 8 - T 1 1\nend 1\n", "call 'other' is none of"},
        {"torcoll-trace 1\nranks 1\n0 MPI_Put 1 0 8 - T 1 1\nend 1\n", "t:3: call 'MPI_Put' in a version 1 trace"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_trace tr;
        char err[256] = "";
        assert_int_equal(rd(bad[i].text, &tr, err, sizeof err), -1);
        if (!strstr(err, bad[i].want))
            fail_msg("trace %zu: '%s' does not say '%s'", i, err, bad[i].want);
        assert_null(tr.rec);
        assert_null(tr.comm);
    }
}

static void mk(tc_p2p *m, int x, int y)
{
    tc_params p;
    char err[128];
    tc_params_default(&p);
    p.ndims = 2;
    p.size[0] = x;
    p.size[1] = y;
    assert_int_equal(tc_p2p_init(m, &p, 0, err, sizeof err), 0);
}

/* Messages on disjoint paths take what one alone takes; two from the same PE queue
 * at its injection channel. */
static void test_exchange(void **state)
{
    (void)state;
    tc_p2p m;
    mk(&m, 4, 4);
    int from[2] = {0, 5}, to[2] = {1, 6}, fl[2] = {7, 7}, f0 = 0, t0 = 1, seven = 7;
    uint64_t one, two, same;
    assert_int_equal(tc_p2p_exchange(&m, 1, &f0, &t0, &seven, &one), 0);
    assert_int_equal(one, tc_p2p_send(&m, 2, 3, 7, 0)); /* the same on any free pair */
    assert_int_equal(tc_p2p_exchange(&m, 2, from, to, fl, &two), 0);
    assert_int_equal(two, one);
    from[1] = 0, to[1] = 4;
    assert_int_equal(tc_p2p_exchange(&m, 2, from, to, fl, &same), 0);
    assert_int_equal(same, one + 8); /* the second waits the first's 8 flits at the injection */
    to[1] = 16;
    assert_int_equal(tc_p2p_exchange(&m, 2, from, to, fl, &same), -1);
    assert_non_null(strstr(m.err, "on 16 nodes"));
    tc_p2p_free(&m);
}

/* A collective among ranks placed on nodes 0..n-1 is the whole-torus collective of a
 * torus of n nodes laid the same way: here 4 ranks on a 4x4 torus's first row
 * against the 4-node ring; a subset elsewhere only differs by its distances. */
static void test_collective_on(void **state)
{
    (void)state;
    tc_p2p big, ring;
    tc_params p;
    char err[128];
    mk(&big, 4, 4);
    tc_params_default(&p);
    p.ndims = 1;
    p.size[0] = 4;
    assert_int_equal(tc_p2p_init(&ring, &p, 0, err, sizeof err), 0);
    int row[4] = {0, 1, 2, 3};
    for (int k = TC_WL_BCAST; k <= TC_WL_ALLGATHER; k++) {
        uint64_t a, b;
        assert_int_equal(tc_p2p_collective_on(&big, (tc_wl_kind)k, 2, 0, row, 4, NULL, &a), 0);
        assert_int_equal(tc_p2p_collective(&ring, (tc_wl_kind)k, 2, 0, NULL, &b), 0);
        assert_int_equal(a, b);
    }
    uint64_t e;
    assert_int_equal(tc_p2p_collective_on(&big, TC_WL_BCAST, 2, 4, row, 4, NULL, &e), -1); /* root not a rank */
    tc_p2p_free(&big);
    tc_p2p_free(&ring);
}

/* The collectives of tc_p2p_coll_other pay the LogGP costs as the MPI algorithms do:
 * o at each end of a message, g between a rank's injections. On 4x4, with L the
 * latency of one message alone on the network: */
static uint64_t other(tc_p2p *m, tc_p2p_other what, int len, int root, const int *node, int n, uint64_t o, uint64_t g)
{
    uint64_t end;
    m->cost = (tc_p2p_loggp){o, o, g, 0};
    assert_int_equal(tc_p2p_coll_other(m, what, len, root, node, n, &end), 0);
    return end;
}

static uint64_t alone(tc_p2p *m, int a, int b, int flits)
{
    uint64_t end;
    assert_int_equal(tc_p2p_exchange(m, 1, &a, &b, &flits, &end), 0);
    return end;
}

static void test_other_loggp(void **state)
{
    (void)state;
    tc_p2p m;
    mk(&m, 4, 4);
    int row[4] = {0, 1, 2, 3}, pair[2] = {0, 1}, far[2] = {0, 10};
    /* an all-to-all of 2 ranks: one step, each sends (o) and receives (o) at once: L + 2 o, g nothing */
    uint64_t l01 = alone(&m, 0, 1, 1), l02 = alone(&m, 0, 2, 1), l10 = alone(&m, 1, 0, 1);
    for (uint64_t o = 0; o <= 1500; o += 750)
        assert_int_equal(other(&m, TC_P2P_ALLTOALL, 1, 0, pair, 2, o, 5000), l01 + 2 * o);
    assert_int_equal(other(&m, TC_P2P_ALLTOALL, 3, 0, far, 2, 750, 500), alone(&m, 0, 10, 3) + 1500);
    /* a scatter from rank 0 to 1 and 2: the root's second send leaves max(o, g) after its first (o after
     * the start), its receiver spends o: max(2 o, o + g) + L(0 -> 2) + o */
    assert_int_equal(other(&m, TC_P2P_SCATTER, 1, 0, row, 3, 0, 1000), 1000 + l02);
    assert_int_equal(other(&m, TC_P2P_SCATTER, 1, 0, row, 3, 750, 500), 2250 + l02);
    assert_int_equal(other(&m, TC_P2P_SCATTER, 1, 0, row, 3, 500, 1000), 2000 + l02);
    /* a gather of 4 ranks to rank 0: every message sent at o, the root takes them in turn, o each:
     * o + L(1 -> 0) + 3 o once o outlasts the later ones' arrivals */
    assert_int_equal(other(&m, TC_P2P_GATHER, 1, 0, row, 4, 1000, 0), l10 + 4000);
    assert_int_equal(other(&m, TC_P2P_GATHER, 1, 0, row, 4, 1000, 3000), l10 + 4000); /* one message a rank */
    /* a scan of 4 ranks (2 steps of exchanges) and a reduce_scatter ring of 4 (3 steps): each step an o to
     * send and one to receive, so o adds 4 o and 6 o over o = 0 (here no step waits on g) */
    uint64_t s0 = other(&m, TC_P2P_SCAN, 1, 0, row, 4, 0, 0), r0 = other(&m, TC_P2P_REDUCE_SCATTER, 4, 0, row, 4, 0, 0);
    assert_int_equal(other(&m, TC_P2P_SCAN, 1, 0, row, 4, 1000, 0), s0 + 4000);
    assert_int_equal(other(&m, TC_P2P_REDUCE_SCATTER, 4, 0, row, 4, 1000, 0), r0 + 6000);
    /* bad arguments */
    uint64_t end;
    assert_int_equal(tc_p2p_coll_other(&m, TC_P2P_GATHER, 1, 4, row, 4, &end), -1); /* root not a rank */
    assert_non_null(strstr(m.err, "p2p gather"));
    assert_int_equal(tc_p2p_coll_other(&m, TC_P2P_OTHERS, 1, 0, row, 4, &end), -1);
    tc_p2p_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_good2),
        cmocka_unit_test(test_unmodelled),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_exchange),
        cmocka_unit_test(test_collective_on),
        cmocka_unit_test(test_other_loggp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
