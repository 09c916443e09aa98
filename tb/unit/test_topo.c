/* Golden-model unit tests: the topology parser shared by tcsim --topo and tcnet topo=. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/topo.h"

static void test_parse_good(void **state)
{
    (void)state;
    const struct {
        const char *s;
        int nd, n, size[4];
    } good[] = {
        {"4x4", 2, 16, {4, 4, 1, 1}},        {"5", 1, 5, {5, 1, 1, 1}},
        {"3x1x2", 3, 6, {3, 1, 2, 1}},       {"16x16x16x8", 4, 32768, {16, 16, 16, 8}},
        {"65536", 1, 65536, {65536, 1, 1, 1}}, {"256x256", 2, 65536, {256, 256, 1, 1}},
        {"1", 1, 1, {1, 1, 1, 1}},           {"007x2", 2, 14, {7, 2, 1, 1}},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        tc_topo t;
        char err[256] = "";
        if (tc_topo_parse(good[i].s, &t, err, sizeof err))
            fail_msg("'%s' refused: %s", good[i].s, err);
        assert_int_equal(t.ndims, good[i].nd);
        assert_int_equal(t.n, good[i].n);
        for (int d = 0; d < 4; d++)
            assert_int_equal(t.size[d], good[i].size[d]);
    }
}

/* Each bad topology is refused with a message that names the string and the problem. */
static void test_parse_bad(void **state)
{
    (void)state;
    const struct {
        const char *s, *want;
    } bad[] = {
        {"", "empty"},
        {"4x4x4x4x4", "more than 4 dimensions"},
        {"4xx4", "a size is missing at character 3"},
        {"0", "size 0 of dimension X is not in 1..65536"},
        {"4x0", "size 0 of dimension Y"},
        {"4x-4", "sign at character 3"},
        {"-4", "sign at character 1"},
        {"+4", "sign at character 1"},
        {"x4", "a size is missing at character 1"},
        {"4x", "a size is missing at character 3"},
        {"4x4 ", "unexpected character code 32 at character 4"},
        {" 4x4", "unexpected character code 32 at character 1"},
        {"4x4abc", "unexpected character 'a' at character 4"},
        {"4X4", "unexpected character 'X' at character 2"},
        {"4,4", "unexpected character ','"},
        {"4x4\n", "unexpected character code 10"},
        {"4x\xff", "unexpected character code 255"},
        {"65537", "size 65537 of dimension X is not in 1..65536"},
        {"4294967300", "size 4294967300 of dimension X"},   /* 2^32 + 4 must not become 4 */
        {"4x18446744073709551620", "size 18446744073709551620 of dimension Y"},
        {"99999999999999999999999999999999999999", "is not in 1..65536"},
        {"257x256", "more than 65536 nodes"},
        {"65536x65536", "more than 65536 nodes"}, /* 2^32: wraps an int to 0 */
        {"65536x2", "more than 65536 nodes"},
        {"16x16x16x17", "more than 65536 nodes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_topo t;
        char err[256] = "", quoted[64];
        if (!tc_topo_parse(bad[i].s, &t, err, sizeof err))
            fail_msg("case %zu: '%s' accepted (%d nodes)", i, bad[i].s, t.n);
        if (!strstr(err, bad[i].want))
            fail_msg("case %zu: '%s' does not contain '%s'", i, err, bad[i].want);
        snprintf(quoted, sizeof quoted, "'%s'", bad[i].s);
        if (*bad[i].s && !strstr(err, quoted))
            fail_msg("case %zu: '%s' does not name the topology %s", i, err, quoted);
    }
    tc_topo t;
    char err[256];
    assert_int_equal(tc_topo_parse(NULL, &t, err, sizeof err), -1);
    char small[8]; /* a short buffer truncates, never overflows */
    assert_int_equal(tc_topo_parse("4x4abc", &t, small, sizeof small), -1);
    assert_int_equal(strlen(small), sizeof small - 1);
}

/* tc_topo_init itself: the node count is checked before it can wrap an int. */
static void test_init_overflow(void **state)
{
    (void)state;
    tc_topo t;
    char err[128];
    int big[4] = {65536, 65536, 1, 1};
    assert_int_equal(tc_topo_init(&t, 2, big, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than 65536 nodes"));
    int four[4] = {65536, 65536, 65536, 65536};
    assert_int_equal(tc_topo_init(&t, 4, four, err, sizeof err), -1);
    int neg[4] = {4, -4, 1, 1};
    assert_int_equal(tc_topo_init(&t, 2, neg, err, sizeof err), -1);
    assert_non_null(strstr(err, "size -4 of dimension Y"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good),
        cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_init_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
