/* Golden-model unit tests: collective traces (cmodel/trace.c) and the point-to-point
 * pieces the applications use (cmodel/p2p.c): the reader takes a good trace and
 * refuses every kind of bad one naming the problem; concurrent exchanges and
 * collectives among a subset of nodes time as single messages and whole-torus
 * collectives do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/trace.h"

static const char good[] = "torcoll-trace 1\nranks 2\n# comment\n"
                           "0 bcast 2 0 16 - MPI_LONG 100 20\n"
                           "1 bcast 2 0 16 - MPI_LONG 90 30\n"
                           "0 allreduce 2 -1 8 max MPI_DOUBLE 1000 5\n"
                           "1 allreduce 2 -1 8 max MPI_DOUBLE 1010 4\n"
                           "1 barrier 2 -1 0 - - 7 8\n"
                           "0 barrier 2 -1 0 - - 6 9\n"
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
    assert_int_equal(tr.calls, 3);
    const tc_trace_rec *r1 = &tr.rec[1 * 3 + 0], *r0 = &tr.rec[1];
    assert_int_equal(r1->call, TC_CALL_BCAST);
    assert_int_equal(r1->gap_ns, 90);
    assert_int_equal(r1->dur_ns, 30);
    assert_int_equal(r0->call, TC_CALL_ALLREDUCE);
    assert_int_equal(r0->bytes, 8);
    assert_string_equal(r0->op, "max");
    assert_int_equal(tr.rec[2].call, TC_CALL_BARRIER); /* rank 0's third, listed after rank 1's */
    assert_int_equal(tr.rec[2].gap_ns, 6);
    tc_trace_free(&tr);
}

/* Each bad trace is refused with a message holding want. */
static void test_bad(void **state)
{
    (void)state;
    static const struct { const char *text, *want; } bad[] = {
        {"", "empty, not a trace"},
        {"torcoll-trace 2\n", "not a torcoll trace"},
        {"torcoll-trace 1\n", "no 'ranks' line"},
        {"torcoll-trace 1\nranks 0\n", "expected 'ranks R'"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 8 - T 1 1\n", "truncated: 1 records and no 'end' line"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 8 - T 1\nend 1\n", "8 fields, expected 9"},
        {"torcoll-trace 1\nranks 1\n0 scatter 1 0 8 - T 1 1\nend 1\n", "call 'scatter' is none of"},
        {"torcoll-trace 1\nranks 1\n2 bcast 1 0 8 - T 1 1\nend 1\n", "rank '2' is not in 0..0"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 -8 - T 1 1\nend 1\n", "bytes '-8'"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 -1 8 - T 1 1\nend 1\n", "have a root"},
        {"torcoll-trace 1\nranks 1\n0 barrier 1 -1 8 - T 1 1\nend 1\n", "a barrier no bytes"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 8 - T 1x 1\nend 1\n", "GAP_NS and DUR_NS"},
        {"torcoll-trace 1\nranks 1\n0 bcast 1 0 8 - T 1 1\nend 2\n", "the end line counts 2 records, the file has 1"},
        {"torcoll-trace 1\nranks 1\nend 0\n0 bcast 1 0 8 - T 1 1\n", "a line after the end line"},
        {"torcoll-trace 1\nranks 2\n0 bcast 2 0 8 - T 1 1\nend 1\n", "rank 1 made 0 calls, rank 0 1"},
        {"torcoll-trace 1\nranks 2\n0 bcast 2 0 8 - T 1 1\n1 bcast 2 0 16 - T 1 1\nend 2\n", "call 1: rank 1 makes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_trace tr;
        char err[256] = "";
        assert_int_equal(rd(bad[i].text, &tr, err, sizeof err), -1);
        if (!strstr(err, bad[i].want))
            fail_msg("trace %zu: '%s' does not say '%s'", i, err, bad[i].want);
        assert_null(tr.rec);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_exchange),
        cmocka_unit_test(test_collective_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
