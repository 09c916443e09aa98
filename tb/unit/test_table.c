/* Golden-model unit tests: torus geometry, routing-table rules, planner, loader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/config.h"
#include "../../cmodel/table.h"

static tc_topo mk(int nd, int a, int b, int c, int d)
{
    tc_topo t;
    int s[4] = {a, b, c, d};
    char err[128];
    assert_int_equal(tc_topo_init(&t, nd, s, err, sizeof err), 0);
    return t;
}

static int hops(const tc_topo *t, int a, int b)
{
    int ca[4], cb[4], h = 0;
    tc_coords(t, a, ca);
    tc_coords(t, b, cb);
    for (int d = 0; d < 4; d++) {
        int s = t->size[d], off = (cb[d] - ca[d] + s) % s;
        h += off <= s / 2 ? off : s - off;
    }
    return h;
}

static void test_topo(void **state)
{
    (void)state;
    tc_topo t = mk(3, 3, 2, 5, 1);
    int c[4];
    char err[128];
    assert_int_equal(t.n, 30);
    for (int k = 0; k < t.n; k++) {
        tc_coords(&t, k, c);
        assert_int_equal(tc_node_at(&t, c), k);
        for (int d = 0; d < 6; d++)
            assert_int_equal(tc_neighbour(&t, tc_neighbour(&t, k, d), d ^ 1), k);
    }
    /* size 2: both directions reach the same neighbour; size 1: the node itself */
    tc_topo r = mk(2, 2, 1, 1, 1);
    assert_int_equal(tc_neighbour(&r, 0, 0), 1);
    assert_int_equal(tc_neighbour(&r, 0, 1), 1);
    assert_int_equal(tc_neighbour(&r, 0, 2), 0);
    int bad[4] = {4, 0, 1, 1};
    assert_int_equal(tc_topo_init(&t, 2, bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "dimension Y"));
    assert_int_equal(tc_topo_init(&t, 5, bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "dimensions"));
}

/* Planner: valid trees on 1D-4D tori, sizes 1, 2 and odd, every Pe node a member, each
 * node as deep as its torus distance from the root, no leaf without a PE. */
static void check_plan(const tc_topo *t, const uint8_t *pe, int root)
{
    tc_row *rows = calloc((size_t)t->n * TC_TREES, sizeof *rows);
    char err[256];
    tc_plan_tree(t, rows, 5, root, pe);
    if (tc_tree_validate(t, rows, 5, err, sizeof err))
        fail_msg("planner built an invalid tree: %s", err);
    for (int k = 0; k < t->n; k++) {
        tc_row r = TC_ROWP(rows, k, 5);
        if (!pe || pe[k]) {
            assert_true(TC_RGET(r, VALID));
            assert_int_equal(TC_RGET(r, PE), 1);
        }
        if (!TC_RGET(r, VALID))
            continue;
        assert_int_equal(TC_RGET(r, ROOT), k == root);
        if (k != root && !TC_RGET(r, PE))
            assert_int_not_equal(TC_RGET(r, DIRS), 0); /* pruned: a transit node has children */
        int depth = 0, m = k;
        while (!TC_RGET(TC_ROWP(rows, m, 5), ROOT)) {
            m = tc_neighbour(t, m, (int)TC_RGET(TC_ROWP(rows, m, 5), TOROOT));
            depth++;
        }
        assert_int_equal(depth, hops(t, k, root));
    }
    free(rows);
}

static void test_planner(void **state)
{
    (void)state;
    const int shapes[][5] = {{1, 1, 1, 1, 1}, {1, 2, 1, 1, 1}, {1, 7, 1, 1, 1}, {1, 8, 1, 1, 1},
                             {2, 4, 4, 1, 1}, {2, 5, 3, 1, 1}, {2, 2, 2, 1, 1}, {2, 1, 6, 1, 1},
                             {3, 3, 3, 3, 1}, {3, 2, 5, 4, 1}, {3, 4, 1, 3, 1}, {4, 2, 2, 2, 2},
                             {4, 3, 2, 1, 5}, {4, 3, 3, 3, 3}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        tc_topo t = mk(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], shapes[i][4]);
        uint8_t *pe = malloc((size_t)t.n);
        for (int root = 0; root < t.n; root += 1 + t.n / 5) {
            check_plan(&t, NULL, root);
            for (int k = 0; k < t.n; k++)
                pe[k] = (uint8_t)((k * 7 + root) % 3 == 0);
            check_plan(&t, pe, root);
            memset(pe, 0, (size_t)t.n);
            pe[t.n - 1] = 1;
            check_plan(&t, pe, root); /* one member besides the root */
        }
        free(pe);
    }
}

static void test_plan_replication(void **state)
{
    (void)state;
    /* On a 4x4 torus rooted at 0: the root sends X+, X-, Y+, Y-; (2,0) ends the X+ run. */
    tc_topo t = mk(2, 4, 4, 1, 1);
    tc_row rows[16 * TC_TREES] = {0};
    tc_plan_tree(&t, rows, 0, 0, NULL);
    assert_int_equal(TC_RGET(TC_ROWP(rows, 0, 0), DIRS), 0xF);
    assert_int_equal(TC_RGET(TC_ROWP(rows, 0, 0), DIRSUM), 4);
    assert_int_equal(TC_RGET(TC_ROWP(rows, 1, 0), DIRS), (1u << TC_DIR_XP) | (1u << TC_DIR_YP) | (1u << TC_DIR_YM));
    assert_int_equal(TC_RGET(TC_ROWP(rows, 1, 0), TOROOT), TC_DIR_XM);
    assert_int_equal(TC_RGET(TC_ROWP(rows, 2, 0), DIRS), (1u << TC_DIR_YP) | (1u << TC_DIR_YM));
    assert_int_equal(TC_RGET(TC_ROWP(rows, 3, 0), TOROOT), TC_DIR_XP);
    assert_int_equal(TC_RGET(TC_ROWP(rows, 8, 0), DIRS), 0); /* (0,2): end of the Y+ run */
    int copies = 0;
    for (int k = 0; k < t.n; k++)
        copies += (int)TC_RGET(TC_ROWP(rows, k, 0), DIRSUM);
    assert_int_equal(copies, t.n - 1); /* a spanning tree: one link copy per non-root node */
}

/* Each rule broken on purpose must be reported with its tree, node and number. */
static void expect_rule(const tc_topo *t, const tc_row *rows, int rule, int node)
{
    char err[256], want[64];
    int got = tc_tree_validate(t, rows, 3, err, sizeof err);
    if (got != rule)
        fail_msg("expected rule %d, got %d: %s", rule, got, err);
    snprintf(want, sizeof want, "tree 3, node %d ", node);
    if (!strstr(err, want))
        fail_msg("message does not name '%s': %s", want, err);
    snprintf(want, sizeof want, "rule %d", rule);
    assert_non_null(strstr(err, want));
}

static void test_rules(void **state)
{
    (void)state;
    tc_topo t = mk(2, 4, 4, 1, 1);
    tc_row base[16 * TC_TREES] = {0}, r[16 * TC_TREES];
    char err[256];
    tc_plan_tree(&t, base, 3, 5, NULL);
    assert_int_equal(tc_table_validate(&t, base, err, sizeof err), 0);

    memcpy(r, base, sizeof r); /* rule 1: a second root */
    TC_RSET(TC_ROWP(r, 9, 3), ROOT, 1);
    expect_rule(&t, r, 1, 9);
    memcpy(r, base, sizeof r); /* rule 1: no root */
    TC_RSET(TC_ROWP(r, 5, 3), ROOT, 0);
    TC_RSET(TC_ROWP(r, 5, 3), TOROOT, TC_DIR_XP);
    assert_int_equal(tc_tree_validate(&t, r, 3, err, sizeof err), 1);
    assert_non_null(strstr(err, "no root"));
    memcpy(r, base, sizeof r); /* rule 2: child's toRoot does not point back */
    TC_RSET(TC_ROWP(r, 6, 3), TOROOT, TC_DIR_YP);
    expect_rule(&t, r, 2, 5);
    memcpy(r, base, sizeof r); /* rule 2: down direction into a node outside the tree */
    TC_ROWP(r, 13, 3) = 0;     /* (1,3), a leaf below (1,2) */
    expect_rule(&t, r, 2, 9);
    memcpy(r, base, sizeof r); /* rule 2: parent does not list the child */
    TC_ROWP(r, 5, 3) = tc_row_make(1, -1, 1, TC_RGET(TC_ROWP(r, 5, 3), DIRS) & ~(1u << TC_DIR_XP));
    expect_rule(&t, r, 2, 6);
    memcpy(r, base, sizeof r); /* rule 3: down direction in an earlier dimension */
    {
        /* node 9 = (1,2) has toRoot Y-; give it X+ and make (2,2) = 10 its child */
        tc_row *n9 = &TC_ROWP(r, 9, 3), *n10 = &TC_ROWP(r, 10, 3), *p10 = &TC_ROWP(r, 6, 3);
        *n9 = tc_row_make(0, TC_DIR_YM, 1, TC_RGET(*n9, DIRS) | 1u << TC_DIR_XP);
        *p10 = tc_row_make(0, (int)TC_RGET(*p10, TOROOT), 1, TC_RGET(*p10, DIRS) & ~(1u << TC_DIR_YP));
        *n10 = tc_row_make(0, TC_DIR_XM, 1, TC_RGET(*n10, DIRS));
        expect_rule(&t, r, 3, 9);
    }
    {   /* rule 4: rules 1-3 hold, but (0,0) <- (1,0) <- (2,0) <- (0,0) is a cycle
         * through the wrap-around link that never reaches the root (0,1) */
        tc_topo ring = mk(2, 3, 2, 1, 1);
        tc_row rc[6 * TC_TREES] = {0};
        TC_ROWP(rc, 3, 3) = tc_row_make(1, -1, 1, 0);
        for (int k = 0; k < 3; k++)
            TC_ROWP(rc, k, 3) = tc_row_make(0, TC_DIR_XP, 1, 1u << TC_DIR_XM);
        expect_rule(&ring, rc, 4, 0);
    }
    memcpy(r, base, sizeof r); /* rule 5: Dir_sum disagrees with Dirs */
    TC_RSET(TC_ROWP(r, 5, 3), DIRSUM, 3);
    expect_rule(&t, r, 5, 5);
    memcpy(r, base, sizeof r); /* rule 5: a direction of a dimension the torus lacks */
    TC_RSET(TC_ROWP(r, 6, 3), DIRS, TC_RGET(TC_ROWP(r, 6, 3), DIRS) | 1u << TC_DIR_ZP);
    TC_RSET(TC_ROWP(r, 6, 3), DIRSUM, __builtin_popcount(TC_RGET(TC_ROWP(r, 6, 3), DIRS)));
    expect_rule(&t, r, 5, 6);
    memcpy(r, base, sizeof r); /* rule 6: a transit leaf, (1,3) = 13 with Pe = 0 */
    TC_RSET(TC_ROWP(r, 13, 3), PE, 0);
    expect_rule(&t, r, 6, 13);
    memcpy(r, base, sizeof r); /* the root may be a transit node with Pe = 0 (decision 5) */
    TC_RSET(TC_ROWP(r, 5, 3), PE, 0);
    assert_int_equal(tc_tree_validate(&t, r, 3, err, sizeof err), 0);
    {   /* rule 2: a down direction along a dimension of size 1 loops to the node itself */
        tc_topo flat = mk(2, 3, 1, 1, 1);
        tc_row f[3 * TC_TREES] = {0};
        tc_plan_tree(&flat, f, 3, 0, NULL);
        TC_ROWP(f, 0, 3) = tc_row_make(1, -1, 1, TC_RGET(TC_ROWP(f, 0, 3), DIRS) | 1u << TC_DIR_YP);
        expect_rule(&flat, f, 2, 0);
    }
}

static void test_loader(void **state)
{
    (void)state;
    tc_topo t = mk(3, 3, 2, 2, 1);
    tc_row *a = calloc((size_t)t.n * TC_TREES, sizeof *a), *b = calloc((size_t)t.n * TC_TREES, sizeof *b);
    uint8_t pe[12] = {1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1};
    char err[256], *buf = NULL;
    size_t len = 0;
    for (int tree = 0; tree < TC_TREES; tree++)
        tc_plan_tree(&t, a, tree, tree % t.n, tree % 2 ? pe : NULL);
    FILE *f = open_memstream(&buf, &len);
    tc_table_write(&t, a, f);
    fclose(f);
    f = fmemopen(buf, len, "r");
    if (tc_table_load(&t, b, f, err, sizeof err))
        fail_msg("round trip failed: %s", err);
    fclose(f);
    assert_memory_equal(a, b, sizeof *a * (size_t)t.n * TC_TREES);
    free(buf);

    const struct {
        const char *text, *want;
    } bad[] = {
        {"0 0 1 - 1\n", "line 1: expected"},
        {"# c\n0 0 1 - 1 Q+\n", "line 2: down direction 'Q+'"},
        {"0 0 1 - 1 W+\n", "down direction 'W+' is not a direction"},
        {"0 1 0 - 1 -\n", "not the root but has no toRoot"},
        {"16 0 1 - 1 -\n", "line 1: tree '16' is not a number in 0..15"},
        {"0 0 1 - 1 -\n0 0 1 - 1 -\n", "listed twice"},
        {"0 0 1 - 1 X+\n", "tree 0, node 0 (0,0,0): rule 2"},
        {"0 0 1 - 1 X+\n0 1 0 X- 1 -\n0 2 1 - 1 -\n", "rule 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        f = fmemopen((void *)bad[i].text, strlen(bad[i].text), "r");
        assert_int_equal(tc_table_load(&t, b, f, err, sizeof err), -1);
        fclose(f);
        if (!strstr(err, bad[i].want))
            fail_msg("case %zu: '%s' does not contain '%s'", i, err, bad[i].want);
    }
    free(a);
    free(b);
}

/* Bad input to the loader: refused with a message naming the line and the problem;
 * nothing wraps, nothing is split, nothing that is not text is read as a table. */
static void expect_load_error(const tc_topo *t, const char *text, size_t len, const char *want)
{
    tc_row *rows = calloc((size_t)t->n * TC_TREES, sizeof *rows);
    char err[256] = "";
    FILE *f = fmemopen((void *)text, len, "r");
    assert_non_null(f);
    int rc = tc_table_load(t, rows, f, err, sizeof err);
    fclose(f);
    free(rows);
    if (rc != -1)
        fail_msg("accepted: '%.60s'", text);
    if (!strstr(err, want))
        fail_msg("'%s' does not contain '%s'", err, want);
}
#define LOAD_ERR(t, text, want) expect_load_error(t, text, sizeof text - 1, want)

static void test_loader_refuses(void **state)
{
    (void)state;
    tc_topo t = mk(3, 3, 2, 2, 1); /* 12 nodes */
    /* numbers out of range, never wrapped: 4294967299 = 2^32 + 3 is not node 3 */
    LOAD_ERR(&t, "0 4294967299 1 - 1 -\n", "line 1: node '4294967299' is not a number in 0..11");
    LOAD_ERR(&t, "0 18446744073709551619 1 - 1 -\n", "node '18446744073709551619' is not a number in 0..11");
    LOAD_ERR(&t, "4294967296 0 1 - 1 -\n", "tree '4294967296' is not a number in 0..15");
    LOAD_ERR(&t, "0 12 1 - 1 -\n", "node '12' is not a number in 0..11");
    LOAD_ERR(&t, "-1 0 1 - 1 -\n", "tree '-1' is not a number");
    LOAD_ERR(&t, "0 -0 1 - 1 -\n", "node '-0' is not a number");
    LOAD_ERR(&t, "0 +3 1 - 1 -\n", "node '+3' is not a number");
    LOAD_ERR(&t, "0 3x 1 - 1 -\n", "node '3x' is not a number");
    LOAD_ERR(&t, "0 0 2 - 1 -\n", "root '2' is not a number in 0..1");
    LOAD_ERR(&t, "0 0 1 - 4294967297 -\n", "pe '4294967297' is not a number in 0..1");
    LOAD_ERR(&t, "0 0 1 - 1 - extra\n", "line 1: expected 'tree node root toroot pe dirs', found more than 6");
    LOAD_ERR(&t, "0 0 1 - 1 X+,Q-\n", "down direction 'Q-'");
    LOAD_ERR(&t, "0 1 0 Y+Y- 1 -\n", "toRoot 'Y+Y-'");
    LOAD_ERR(&t, "4\r5\r1\rY+\r0\r-", "line 1: tree 4, node 5 is the root but names toRoot Y+"); /* fuzzer */
    /* a row listed twice: both lines named */
    LOAD_ERR(&t, "0 0 1 - 1 X+\n# c\n0 1 0 X- 1 -\n0 0 1 - 1 -\n", "line 4: tree 0, node 0 is listed twice (first at line 1)");
    /* a transit leaf: rule 6, naming the tree and node */
    LOAD_ERR(&t, "5 0 1 - 1 X+\n5 1 0 X- 0 -\n", "tree 5, node 1 (1,0,0): rule 6: Pe = 0 and no down direction");
    /* not a text file */
    LOAD_ERR(&t, "0 0 1 - 1 -\n\0\0\0\0", "line 2: a NUL byte at character 1: not a text file");
    LOAD_ERR(&t, "0 0\0 1 - 1 -\n", "line 1: a NUL byte at character 4");
    LOAD_ERR(&t, "\x7f" "ELF\x02\x01\x01\0\0\0", "line 1: a NUL byte");
    LOAD_ERR(&t, "\x89PNG\r\n\x1a\n", "line 1: expected 'tree node root toroot pe dirs', found 1 field");

    /* a line longer than the reader's buffer is refused with its number, never split:
     * here its tail would otherwise read as a valid row */
    size_t n = TC_LINE_MAX + 40;
    char *big = malloc(n + 64), *ok = malloc(n + 64);
    memset(big, ' ', n);
    big[0] = '#';
    strcpy(big + n - 14, "0 0 1 - 1 -\n");
    char *text = malloc(2 * n + 64);
    snprintf(text, 2 * n + 64, "# one\n%s", big);
    expect_load_error(&t, text, strlen(text), "line 2: line longer than 1023 characters");
    /* the longest line accepted: TC_LINE_MAX - 1 characters and its newline */
    memset(ok, ' ', TC_LINE_MAX - 1);
    ok[0] = '#';
    ok[TC_LINE_MAX - 1] = 0;
    snprintf(text, 2 * n + 64, "%s\n0 0 1 - 1 -\n", ok);
    tc_row *rows = calloc((size_t)t.n * TC_TREES, sizeof *rows);
    char err[256];
    FILE *f = fmemopen(text, strlen(text), "r");
    if (tc_table_load(&t, rows, f, err, sizeof err))
        fail_msg("a line of %d characters refused: %s", TC_LINE_MAX - 1, err);
    fclose(f);
    assert_true(TC_RGET(TC_ROWP(rows, 0, 0), VALID));
    free(big);
    free(ok);
    free(text);

    /* a directory and /dev/zero: refused at once, no hang */
    f = fopen(".", "r");
    if (f) { /* Linux opens a directory for reading; reading it fails */
        assert_int_equal(tc_table_load(&t, rows, f, err, sizeof err), -1);
        assert_non_null(strstr(err, "line 1: read error: Is a directory"));
        fclose(f);
    }
    if ((f = fopen("/dev/zero", "r"))) {
        assert_int_equal(tc_table_load(&t, rows, f, err, sizeof err), -1);
        assert_non_null(strstr(err, "line 1: a NUL byte"));
        fclose(f);
    }
    /* an empty table and one of comments only: valid, every row invalid */
    LOAD_ERR(&t, "0 0 1 - 1 -\n0 1 0 X- 1 -\n", "rule 2"); /* (sanity: validation still runs) */
    f = fmemopen((void *)"# nothing\n\n   \t\r\n", 17, "r");
    assert_int_equal(tc_table_load(&t, rows, f, err, sizeof err), 0);
    fclose(f);
    for (size_t i = 0; i < (size_t)t.n * TC_TREES; i++)
        assert_false(TC_RGET(rows[i], VALID));
    free(rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_topo),   cmocka_unit_test(test_planner), cmocka_unit_test(test_plan_replication),
        cmocka_unit_test(test_rules),  cmocka_unit_test(test_loader),  cmocka_unit_test(test_loader_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
