/* Unit tests of the deadlock checker (cmodel/netsim/deadlock.c) and of the progress
 * watchdog's report (tc_net_explain, tc_net_where). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/netsim/deadlock.h"
#include "../../cmodel/netsim/plan.h"
#include "../../cmodel/net.h"

/* 16 trees, roots spread evenly, every PE a member (TC_PLAN_MEMBERS of all). */
static tc_row *table(const tc_topo *t)
{
    tc_row *rows = calloc((size_t)t->n * TC_TREES, sizeof *rows);
    assert_non_null(rows);
    assert_int_equal(tc_plan_table(t, rows, &(tc_plan){.variant = TC_PLAN_MEMBERS}), 0);
    char err[256];
    assert_int_equal(tc_table_validate(t, rows, err, sizeof err), 0);
    return rows;
}

static long check_params(const char *topo, const tc_params *p, char **report, tc_dl_result *res)
{
    tc_topo t;
    char err[128];
    size_t len;
    assert_int_equal(tc_topo_parse(topo, &t, err, sizeof err), 0);
    tc_row *rows = table(&t);
    FILE *f = open_memstream(report, &len);
    long v = tc_deadlock_check(&t, rows, p, f, 1, res);
    fclose(f);
    free(rows);
    return v;
}

static long check(const char *topo, int slots, int plant, char **report, tc_dl_result *res)
{
    tc_params p;
    tc_params_default(&p);
    p.slots = slots;
    p.plant = plant;
    return check_params(topo, &p, report, res);
}

/* The design as built: rings on every torus with a ring of 4 or more, no violation. */
static void test_design(void **state)
{
    (void)state;
    static const char *const tori[] = {"5", "16", "4x4", "7x5", "3x3x3", "5x5x5", "2x2x2x2", "4x4x4x4"};
    for (size_t i = 0; i < sizeof tori / sizeof tori[0]; i++) {
        char *rep;
        tc_dl_result r;
        assert_int_equal(check(tori[i], 2, 0, &rep, &r), 0);
        assert_string_equal(rep, "");
        assert_true(r.vertices > 0 && r.edges > 0);
        free(rep);
    }
    char *rep;
    tc_dl_result r;
    check("8", 2, 0, &rep, &r);
    assert_true(r.rings > 0 && r.entries > 0); /* there is something to check */
    free(rep);
    assert_true(check("8", 1, 0, &rep, &r) > 0); /* one slot: no bubble */
    assert_non_null(strstr(rep, "bubble flow control needs 2"));
    free(rep);
}

/* Every legal parameter at its extremes: the argument holds, the credit block's
 * duties wait for 19 others at most, and the window and barrier waits that close
 * cycles are there (well founded). */
static void test_params(void **state)
{
    (void)state;
    static const int slots[] = {2, 64}, pec[] = {1, 255}, red[] = {1, 2, 7}, lat[] = {1, 100000};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3 * 3; k++) {
                tc_params p;
                tc_params_default(&p);
                p.slots = p.inj_slots = slots[i];
                p.pe_credits = pec[j];
                p.red_flits = red[k % 3];
                p.red_slices = 1 << k / 3; /* 1, 2, 4 Reducer slices */
                p.link_lat = p.inj_lat = p.ej_lat = lat[(i + j + k) % 2];
                p.ndims = 2;
                p.size[0] = 7, p.size[1] = 5;
                char err[128], *rep;
                assert_int_equal(tc_params_check(&p, err, sizeof err), 0);
                tc_dl_result r;
                assert_int_equal(check_params("7x5", &p, &rep, &r), 0);
                assert_string_equal(rep, "");
                assert_int_equal(r.cb_wait, TC_CB_REQS - 1);
                assert_true(r.founded > 0 && r.rings > 0);
                free(rep);
            }
}

/* The three rules the design changed, planted back: each one is found, with its cycle. */
static void test_planted(void **state)
{
    (void)state;
    char *rep;
    tc_dl_result r;
    assert_true(check("4x4", 2, TC_PLANT_REPORT_ONE, &rep, &r) > 0);
    assert_non_null(strstr(rep, "enters a ring with one credit"));
    assert_non_null(strstr(rep, "Report into"));
    assert_non_null(strstr(rep, "VCDown X-, which waits for"));
    free(rep);
    assert_true(check("5x5", 2, TC_PLANT_RESULT_SLOT, &rep, &r) > 0);
    assert_non_null(strstr(rep, "cycle through a wait"));
    assert_non_null(strstr(rep, "Result, which waits for"));
    assert_non_null(strstr(rep, "VCUp"));
    free(rep);
    tc_params p; /* with Reducer slices: through a slice's own result buffer */
    tc_params_default(&p);
    p.slots = 2;
    p.plant = TC_PLANT_RESULT_SLOT;
    p.red_slices = 4;
    assert_true(check_params("5x5", &p, &rep, &r) > 0);
    assert_non_null(strstr(rep, "cycle through a wait"));
    assert_non_null(strstr(rep, "Result "));
    free(rep);
    /* the credit block's duties by fixed priority: one starves */
    assert_true(check("4x4", 2, TC_PLANT_FIXED_PRIO, &rep, &r) > 0);
    assert_non_null(strstr(rep, "the credit block starves a duty"));
    assert_int_equal(r.cb_wait, -1);
    free(rep);
}

/* The watchdog's report on a network that stopped: node 2's PE never takes a packet,
 * node 0's PE broadcasts on tree 0 until everything between them is full. */
static void test_watchdog(void **state)
{
    (void)state;
    tc_params p;
    char err[128], *rep, where[256];
    size_t len;
    tc_params_default(&p);
    p.ndims = 1;
    p.size[0] = 4;
    p.size[1] = 1;
    p.link_lat = p.inj_lat = p.ej_lat = 3;
    tc_net *n = tc_net_new(&p, err, sizeof err);
    assert_non_null(n);
    tc_row *rows = table(tc_net_topo(n));
    for (int k = 0; k < 4; k++)
        for (int tree = 0; tree < TC_TREES; tree++)
            tc_net_cfg(n, k, tree, TC_ROWP(rows, k, tree));
    free(rows);
    int credits = p.inj_slots;
    uint32_t tag = 0;
    for (int c = 0; c < 3000; c++) {
        for (int k = 0; k < 4; k++) {
            tc_pe_out out;
            tc_pe_in in;
            memset(&in, 0, sizeof in);
            tc_net_pe_out(n, k, &out);
            in.ej_cred = out.ej.valid && k != 2; /* one-flit packets: taken at once, but at node 2 */
            if (k == 0) {
                credits += out.inj_cred;
                if (credits > 0) {
                    credits--;
                    in.inj.valid = 1;
                    TC_HSET(&in.inj.flit, TYPE, TC_TYPE_BCAST);
                    TC_HSET(&in.inj.flit, TAG, ++tag);
                }
            }
            tc_net_pe_in(n, k, &in);
        }
        tc_net_step(n, NULL);
    }
    FILE *f = open_memstream(&rep, &len);
    assert_int_equal(tc_net_explain(n, f), 0); /* no cycle: a PE that takes nothing */
    fclose(f);
    assert_non_null(strstr(rep, "for the PE"));
    assert_non_null(strstr(rep, "node 2 (2) VCDown X- head tag"));
    assert_non_null(strstr(rep, "needs an ejection credit: the PE takes no packet"));
    assert_non_null(strstr(rep, "needs link credits VCDown for link X+"));
    assert_non_null(strstr(rep, "no cycle of waits"));
    free(rep);
    /* the last packets are still in node 0's PEGroup FIFO */
    assert_non_null(strstr(tc_net_where(n, tag, where, sizeof where), "node 0 Broadcaster"));
    assert_string_equal(tc_net_where(n, 1, where, sizeof where), ""); /* delivered and gone */
    tc_net_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_design),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_planted),
        cmocka_unit_test(test_watchdog),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
