/* Unit tests of the table planner (cmodel/netsim/plan.c): every variant builds the very
 * tables its callers built before it was one planner (the hashes below were taken
 * from those callers' code: tb/scenario.c, tb/randtable.c, tools/tcnet.c and
 * cmodel/netsim/apps.c), so timing diagrams, latencies and docs' numbers stay as they were. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/netsim/plan.h"

static uint64_t fnv(const tc_row *r, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            h = (h ^ ((r[i] >> (8 * b)) & 0xff)) * 0x100000001b3ull;
    return h;
}

static const struct {
    tc_plan_variant v;
    const char *topo;
    uint64_t seed;
    int members;
    int pe; /* members: -1 every node, 1 the nodes k with (7k + 1) % 3 == 0 */
    uint64_t hash;
} golden[] = {
    {TC_PLAN_TESTBENCH, "5", 0, 0, -1, 0xf261500f072294a5ull},
    {TC_PLAN_RANDOM, "5", 1000003, 0, -1, 0x4a704cbde46c57f0ull},
    {TC_PLAN_RANDOM, "5", 3000009 + 0xffffffff00000000ull, 0, -1, 0x5b3c2b7d26d80a15ull},
    {TC_PLAN_SPREAD, "5", 1, 100, -1, 0x2026ede1a13a8525ull},
    {TC_PLAN_SPREAD, "5", 1, 50, -1, 0x46ff52084b141dd0ull},
    {TC_PLAN_SPREAD, "5", 1, 1, -1, 0xe8bc9464a071a105ull},
    {TC_PLAN_SPREAD, "5", 15, 1, -1, 0x98cb3447d2839a05ull},
    {TC_PLAN_SPREAD, "5", 1, 37, -1, 0x6fc2a296013ef714ull},
    {TC_PLAN_SPREAD, "5", 8, 37, -1, 0x31e314b121049274ull},
    {TC_PLAN_MEMBERS, "5", 0, 0, -1, 0x2026ede1a13a8525ull},
    {TC_PLAN_MEMBERS, "5", 0, 0, 1, 0x6889e5c65f4f00a5ull},
    {TC_PLAN_TESTBENCH, "4x4", 0, 0, -1, 0x06413e87e8d4add7ull},
    {TC_PLAN_RANDOM, "4x4", 1000003, 0, -1, 0xf548c5eeddc47c81ull},
    {TC_PLAN_RANDOM, "4x4", 3000009 + 0xffffffff00000000ull, 0, -1, 0xfc9236b26311916aull},
    {TC_PLAN_SPREAD, "4x4", 1, 100, -1, 0xf8edd0d252251765ull},
    {TC_PLAN_SPREAD, "4x4", 1, 50, -1, 0xff9eba9d609421c5ull},
    {TC_PLAN_SPREAD, "4x4", 1, 1, -1, 0xc4358a5f12d6ac75ull},
    {TC_PLAN_SPREAD, "4x4", 15, 1, -1, 0xc4358a5f12d6ac75ull},
    {TC_PLAN_SPREAD, "4x4", 1, 37, -1, 0x2501e037ce1ad9caull},
    {TC_PLAN_SPREAD, "4x4", 8, 37, -1, 0xf18d2a69ebb9d47bull},
    {TC_PLAN_MEMBERS, "4x4", 0, 0, -1, 0xf8edd0d252251765ull},
    {TC_PLAN_MEMBERS, "4x4", 0, 0, 1, 0x4cbf35fa2fcc5a1cull},
    {TC_PLAN_TESTBENCH, "3x3x2", 0, 0, -1, 0x33b85f4d50c364dfull},
    {TC_PLAN_RANDOM, "3x3x2", 1000003, 0, -1, 0x475c90c1ddffcc64ull},
    {TC_PLAN_RANDOM, "3x3x2", 3000009 + 0xffffffff00000000ull, 0, -1, 0x5c9442c9742c6dd2ull},
    {TC_PLAN_SPREAD, "3x3x2", 1, 100, -1, 0x74b002675e596cb5ull},
    {TC_PLAN_SPREAD, "3x3x2", 1, 50, -1, 0xf347fe1c68c51ec5ull},
    {TC_PLAN_SPREAD, "3x3x2", 1, 1, -1, 0x9fd80572d6b1cf2eull},
    {TC_PLAN_SPREAD, "3x3x2", 15, 1, -1, 0x8d628a33d62f97d7ull},
    {TC_PLAN_SPREAD, "3x3x2", 1, 37, -1, 0xcaee6438a7b41fc4ull},
    {TC_PLAN_SPREAD, "3x3x2", 8, 37, -1, 0xdb73fa322d8e947cull},
    {TC_PLAN_MEMBERS, "3x3x2", 0, 0, -1, 0x74b002675e596cb5ull},
    {TC_PLAN_MEMBERS, "3x3x2", 0, 0, 1, 0xe481be56dae87235ull},
    {TC_PLAN_TESTBENCH, "9x7", 0, 0, -1, 0x236abc3591ea5ceeull},
    {TC_PLAN_RANDOM, "9x7", 1000003, 0, -1, 0x006ce73eceb4cb7eull},
    {TC_PLAN_RANDOM, "9x7", 3000009 + 0xffffffff00000000ull, 0, -1, 0x489aa42cf4e12b5cull},
    {TC_PLAN_SPREAD, "9x7", 1, 100, -1, 0x89b479050d7669ddull},
    {TC_PLAN_SPREAD, "9x7", 1, 50, -1, 0x1a796785a172c12full},
    {TC_PLAN_SPREAD, "9x7", 1, 1, -1, 0x45e7ab78d1e2d88full},
    {TC_PLAN_SPREAD, "9x7", 15, 1, -1, 0x4f33df72dd42b422ull},
    {TC_PLAN_SPREAD, "9x7", 1, 37, -1, 0xb8f674db46516df3ull},
    {TC_PLAN_SPREAD, "9x7", 8, 37, -1, 0x3ad8069044cb4353ull},
    {TC_PLAN_MEMBERS, "9x7", 0, 0, -1, 0x89b479050d7669ddull},
    {TC_PLAN_MEMBERS, "9x7", 0, 0, 1, 0xd466ac7a9886751dull},
    {TC_PLAN_TESTBENCH, "2x2x2x2", 0, 0, -1, 0x7a970bd7e706dcebull},
    {TC_PLAN_RANDOM, "2x2x2x2", 1000003, 0, -1, 0x6dd4b7dd242c8983ull},
    {TC_PLAN_RANDOM, "2x2x2x2", 3000009 + 0xffffffff00000000ull, 0, -1, 0xb99291fb6d9f2471ull},
    {TC_PLAN_SPREAD, "2x2x2x2", 1, 100, -1, 0x722f32cf4b6bbba5ull},
    {TC_PLAN_SPREAD, "2x2x2x2", 1, 50, -1, 0x797a8cb52f296713ull},
    {TC_PLAN_SPREAD, "2x2x2x2", 1, 1, -1, 0xda57b6f7b6c4ed25ull},
    {TC_PLAN_SPREAD, "2x2x2x2", 15, 1, -1, 0xda57b6f7b6c4ed25ull},
    {TC_PLAN_SPREAD, "2x2x2x2", 1, 37, -1, 0xbbda60233b3f6192ull},
    {TC_PLAN_SPREAD, "2x2x2x2", 8, 37, -1, 0x024d4640875dff69ull},
    {TC_PLAN_MEMBERS, "2x2x2x2", 0, 0, -1, 0x722f32cf4b6bbba5ull},
    {TC_PLAN_MEMBERS, "2x2x2x2", 0, 0, 1, 0x5122275248eb3cc4ull},
};

static void test_golden(void **state)
{
    (void)state;
    char err[256];
    for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
        tc_topo t;
        assert_int_equal(tc_topo_parse(golden[i].topo, &t, err, sizeof err), 0);
        size_t n = (size_t)t.n * TC_TREES;
        tc_row *rows = calloc(n, sizeof *rows);
        uint8_t *pe = malloc((size_t)t.n);
        assert_non_null(rows);
        assert_non_null(pe);
        for (int k = 0; k < t.n; k++)
            pe[k] = (7 * k + 1) % 3 == 0;
        tc_plan p = {.variant = golden[i].v, .seed = golden[i].seed, .members = golden[i].members,
                     .pe = golden[i].pe < 0 ? NULL : pe};
        assert_int_equal(tc_plan_table(&t, rows, &p), 0);
        if (fnv(rows, n) != golden[i].hash)
            fail_msg("%s on %s seed %llu members %d: hash %016llx, not %016llx", tc_plan_names[golden[i].v],
                     golden[i].topo, (unsigned long long)golden[i].seed, golden[i].members,
                     (unsigned long long)fnv(rows, n), (unsigned long long)golden[i].hash);
        assert_int_equal(tc_table_validate(&t, rows, err, sizeof err), 0);
        free(rows);
        free(pe);
    }
}

/* Every variant configures all 16 trees, each with a Pe node; a random table has a
 * tree with every PE; names and variants agree. */
static void test_variants(void **state)
{
    (void)state;
    char err[256];
    tc_topo t;
    assert_int_equal(tc_topo_parse("3x4x2", &t, err, sizeof err), 0);
    tc_row *rows = calloc((size_t)t.n * TC_TREES, sizeof *rows);
    assert_non_null(rows);
    for (int v = 0; v < TC_PLAN_VARIANTS; v++) {
        assert_non_null(tc_plan_names[v]);
        assert_int_equal(tc_plan_find(tc_plan_names[v]), v);
        for (uint64_t seed = 0; seed < 20; seed++) {
            memset(rows, 0, (size_t)t.n * TC_TREES * sizeof *rows);
            assert_int_equal(tc_plan_table(&t, rows, &(tc_plan){.variant = (tc_plan_variant)v, .seed = seed}), 0);
            assert_int_equal(tc_table_validate(&t, rows, err, sizeof err), 0);
            int full = 0;
            for (int tree = 0; tree < TC_TREES; tree++) {
                int pes = 0;
                for (int k = 0; k < t.n; k++)
                    pes += TC_RGET(TC_ROWP(rows, k, tree), VALID) && TC_RGET(TC_ROWP(rows, k, tree), PE);
                assert_true(pes >= 1);
                full |= pes == t.n;
            }
            assert_true(full);
        }
    }
    assert_null(tc_plan_names[TC_PLAN_VARIANTS]);
    assert_int_equal(tc_plan_find("planner"), -1); /* each tool names its own default */
    assert_int_equal(tc_plan_table(&t, rows, &(tc_plan){.variant = TC_PLAN_VARIANTS}), -1);
    free(rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_variants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
