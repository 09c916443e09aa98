/* The PE library's side of the floating-point sum (cmodel/netsim/fpvec.c): values packed
 * as they are, len / 2 to a packet, two binary64 a flit, padded with the identity -0 (the
 * Reducer converts them to binned elements: tc_fpsum_elements); results read as
 * the values the root converted them to; fmin/fmax keys a lane each; the values file; and a stream of FSUM allreduces on small tori with random
 * member sets and latencies, whose every PE gets the bits of the whole sum merged in C
 * (the order does not matter: the step is associative and commutative). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/fpsum.h"
#include "../../cmodel/netsim/fpvec.h"
#include "deliveries.h"

static void test_pack(void **state)
{
    (void)state;
    uint8_t mem[3] = {1, 0, 1};
    tc_fpvec v;
    assert_int_equal(tc_fpvec_init(&v, TC_OP_FSUM, TC_LANE_64, TC_FPS_WIDE, 5, 3, 7, 3, mem), 0);
    assert_int_equal(tc_fpvec_ops(&v), 3);
    for (int op = 0; op < 3; op++) { /* the values as they are, two a flit; the Reducer makes the elements */
        tc_flit f[6], el[6], e[2];
        memset(f, 0, sizeof f);
        tc_fpvec_data(&v, 2, op, f, 6);
        tc_fpsum_elements(TC_LANE_64, 6, f, el);
        for (int k = 0; k < 3; k++) {
            uint64_t i = (uint64_t)op * 3 + (uint64_t)k;
            uint64_t x = i < 7 ? tc_fpsum_value(TC_FPS_WIDE, TC_LANE_64, 5, 2, i) : 1ull << 63; /* padding: -0 */
            assert_int_equal(f[k / 2].w[k % 2], x);
            if (i < 7)
                tc_fpsum_in(TC_LANE_64, x, e);
            else
                tc_fpsum_zero(e); /* the identity */
            assert_memory_equal(&el[2 * k], e, sizeof e);
        }
        assert_true(f[1].w[1] == 0 && f[2].w[0] == 0 && f[2].w[1] == 0); /* 2 flits on the wire, the last half full */
    }
    /* a result of operation 1 at node 1 (not a member: it still receives): 3 values, as
     * the root converted them, two binary64 a flit */
    tc_flit pkt[3];
    memset(pkt, 0, sizeof pkt);
    for (int k = 0; k < 3; k++)
        pkt[1 + k / 2].w[k % 2] = 0x3ff0000000000000ull + (uint64_t)k;
    tc_fpvec_deliver(&v, 1, 1, 0, pkt, 3);
    assert_string_equal(v.err, "");
    for (int k = 0; k < 3; k++)
        assert_int_equal(v.out[1 * 7 + 3 + (uint64_t)k], 0x3ff0000000000000ull + (uint64_t)k);
    tc_fpvec_deliver(&v, 1, 1, 0, pkt, 2); /* too short: named, nothing written */
    assert_non_null(strstr(v.err, "node 1: a result of operation 2 with 1 data flits, not 2"));
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(tc_fpvec_write(&v, f), 0);
    rewind(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(strncmp(line, "0 in ", 5), 0);
    assert_int_equal(strlen(line), 5 + 7 * 17); /* 7 values of 16 hex digits, blank-separated, a newline */
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(strncmp(line, "2 in ", 5), 0);
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(strncmp(line, "1 out 0000000000000000 0000000000000000 0000000000000000 3ff0000000000000", 73), 0);
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    tc_fpvec_free(&v);
}

typedef struct {
    const char *topo;
    unsigned lane, dist;
    int members, len, window, link_lat;
} vcase;

static void run_case(const vcase *c)
{
    tc_topo t;
    tc_params p;
    char err[256];
    case_params(c->topo, 0, 0, 0, c->link_lat, c->link_lat + 3, c->link_lat + 7, &t, &p);
    p.red_flits = 6;
    tc_row *rows = calloc((size_t)t.n * TC_TREES, sizeof *rows);
    uint8_t *mem = malloc((size_t)t.n);
    assert_non_null(rows);
    assert_non_null(mem);
    plan(&t, rows, c->members, 7);
    for (int k = 0; k < t.n; k++) {
        tc_row r = TC_ROWP(rows, k, 3);
        mem[k] = TC_RGET(r, VALID) && TC_RGET(r, PE);
    }
    tc_fpvec v;
    assert_int_equal(tc_fpvec_init(&v, TC_OP_FSUM, c->lane, c->dist, 9, (uint32_t)t.n, 40, (unsigned)c->len / 2, mem), 0);
    tc_net *n = tc_net_new(&p, err, sizeof err);
    assert_non_null(n);
    for (int k = 0; k < t.n; k++)
        for (int tree = 0; tree < TC_TREES; tree++)
            tc_net_cfg(n, k, tree, TC_ROWP(rows, k, tree));
    tc_workload w = {.kind = TC_WL_ALLREDUCE, .tree = 3, .len = c->len, .op = TC_OP_FSUM, .lane = (int)c->lane,
                     .repeat = (int)tc_fpvec_ops(&v), .window = c->window, .max_cycles = 10000000,
                     .data = tc_fpvec_data, .data_ctx = &v, .deliver = tc_fpvec_deliver, .deliver_ctx = &v};
    tc_wl_result res;
    int rc = tc_wl_run(n, rows, &w, &res, NULL, NULL);
    if (rc)
        fail_msg("%s: %s", c->topo, res.msg);
    assert_string_equal(v.err, "");
    for (uint64_t i = 0; i < 40; i++) { /* the whole sum in C, in node order */
        tc_flit acc[2], e[2];
        tc_fpsum_zero(acc);
        for (int k = 0; k < t.n; k++)
            if (mem[k]) {
                tc_fpsum_in(c->lane, v.in[(size_t)k * 40 + i], e);
                tc_fpsum_merge(acc, e, acc);
            }
        uint64_t want = tc_fpsum_out(c->lane, acc);
        for (int k = 0; k < t.n; k++)
            if (mem[k] && v.out[(size_t)k * 40 + i] != want)
                fail_msg("%s: node %d value %llu: %016llx, want %016llx", c->topo, k, (unsigned long long)i,
                         (unsigned long long)v.out[(size_t)k * 40 + i], (unsigned long long)want);
    }
    tc_wl_result_free(&res);
    tc_net_free(n);
    tc_fpvec_free(&v);
    free(rows);
    free(mem);
}

/* fmin/fmax: keys one a lane (2 binary64 or 4 binary32 a flit), in the ALU's lane
 * order; a result's keys come back as the values; padding lanes are left out */
static void test_keys(void **state)
{
    (void)state;
    static const unsigned lanes[] = {TC_LANE_64, TC_LANE_32}, ops[] = {TC_OP_MIN, TC_OP_MAX};
    uint8_t mem[2] = {1, 1};
    for (int c = 0; c < 4; c++) {
        unsigned lane = lanes[c % 2], op = ops[c / 2], kpf = lane == TC_LANE_32 ? 4 : 2, per = tc_fpvec_per(op, lane, 3);
        uint64_t e = lane == TC_LANE_32 ? 0x7f800000u : 0x7ff0000000000000ull;
        uint64_t m = lane == TC_LANE_32 ? 0x7fffffu : 0xfffffffffffffull;
        assert_int_equal(per, 3 * kpf);
        tc_fpvec v;
        assert_int_equal(tc_fpvec_init(&v, op, lane, TC_FPS_SPECIAL, 3, 2, per + 1, per, mem), 0);
        assert_int_equal(tc_fpvec_ops(&v), 2);
        for (int o = 0; o < 2; o++) { /* operation 1 holds one value and padding */
            tc_flit pkt[4];
            memset(pkt, 0, sizeof pkt);
            tc_fpvec_data(&v, 1, o, &pkt[1], 3);
            for (unsigned j = 0; j < per; j++) { /* lane j of the packet: value j's key */
                uint64_t key = kpf == 2 ? pkt[1 + j / 2].w[j % 2] : (pkt[1 + j / 4].w[j % 4 / 2] >> (32 * (j % 2))) & 0xffffffffu;
                uint64_t i = (uint64_t)o * per + j;
                assert_int_equal(key, i < v.nvals ? tc_fpsum_key_in(lane, op, v.in[1 * v.nvals + i]) : 0);
            }
            tc_fpvec_deliver(&v, 0, o, 0, pkt, 4); /* node 1's keys as a result at node 0: its values back */
            assert_string_equal(v.err, "");
        }
        for (unsigned j = 0; j < per + 1; j++) {
            uint64_t x = v.in[1 * v.nvals + j], y = v.out[j];
            if ((x & e) == e && (x & m)) /* a NaN: the canonical quiet one */
                assert_true((y & e) == e && (y & m));
            else
                assert_int_equal(y, x);
        }
        tc_flit pkt[4] = {0};
        tc_fpvec_deliver(&v, 0, 1, 0, pkt, 2); /* a key packet of the wrong length: named */
        assert_non_null(strstr(v.err, "with 1 data flits, not 3"));
        tc_fpvec_free(&v);
    }
}

static void test_network(void **state)
{
    (void)state;
    static const vcase cases[] = {
        {"4x4", TC_LANE_64, TC_FPS_CANCEL, 100, 6, 16, 40},   {"5", TC_LANE_32, TC_FPS_SPECIAL, 100, 2, 1, 1},
        {"3x2x2", TC_LANE_64, TC_FPS_WIDE, 60, 4, 5, 300},   {"2x3x2x2", TC_LANE_32, TC_FPS_UNIFORM, 50, 6, 16, 7},
        {"7", TC_LANE_64, TC_FPS_SPECIAL, 70, 2, 16, 1000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pack),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_network),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
