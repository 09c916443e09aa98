/* Golden-model unit tests: the one command line of tcsim, tcnet and tccheck
 * (cmodel/config.c's tc_config_cli): its one error format, the near misses it
 * suggests, and off/on keys alike in every spelling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../cmodel/config.h"

static const char *const ops[] = {"sum", "min", "max", "fsum", NULL};
static const char *const fasts[] = {"off", "on", "check", NULL};
static const tc_key keys[] = {
    {"workload", "allreduce", "what", 1, 0, NULL},
    {"window", "1", "in flight", 1, 256, NULL},
    {"op", "sum", "operation", 0, 0, ops},
    {"fast", "off", "flag", 0, 0, fasts},
    {"topo", "4x4", "sizes", 1, 0, NULL},
};
#define NKEYS (sizeof keys / sizeof keys[0])

static void test_suggest(void **state)
{
    (void)state;
    assert_string_equal(tc_suggest("wokload", &keys[0].key, NKEYS, sizeof keys[0]), "workload");
    assert_string_equal(tc_suggest("fsun", ops, 4, sizeof *ops), "fsum");
    assert_string_equal(tc_suggest("wind", &keys[0].key, NKEYS, sizeof keys[0]), "window"); /* a unique prefix */
    assert_null(tc_suggest("w", &keys[0].key, NKEYS, sizeof keys[0]));     /* a prefix of two */
    assert_null(tc_suggest("xyzzy", &keys[0].key, NKEYS, sizeof keys[0])); /* nothing near */
    assert_null(tc_suggest("mix", ops, 4, sizeof *ops));                   /* min and max both at 1 */
    assert_string_equal(tc_suggest("sm", ops, 4, sizeof *ops), "sum");
}

/* Runs tc_config_cli on args with stderr into a file; returns its result, the
 * message in msg. */
static int cli(tc_config *c, char **args, int n, char *msg, size_t len)
{
    static const tc_cli desc = {"tool", "[key=value ...]", 0, 0, NULL, NULL};
    char *argv[16] = {"tool"};
    for (int i = 0; i < n; i++)
        argv[i + 1] = args[i];
    fflush(stderr);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    int r = tc_config_cli(c, &desc, n + 1, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t got = fread(msg, 1, len - 1, tmp);
    msg[got] = 0;
    fclose(tmp);
    return r;
}

static void test_one_format(void **state)
{
    (void)state;
    tc_config c;
    char msg[512];
    struct {
        char *args[3];
        int n;
        const char *want;
    } cases[] = {
        {{"wokload=bcast"}, 1, "tool: unknown key 'wokload': did you mean 'workload'?\n"},
        {{"--wokload", "bcast"}, 2, "tool: unknown key 'wokload': did you mean 'workload'?\n"},
        {{"--wokload=bcast"}, 1, "tool: unknown key 'wokload': did you mean 'workload'?\n"},
        {{"bogus=1"}, 1, "tool: unknown key 'bogus': tool --help lists the keys\n"},
        {{"op=fsun"}, 1, "tool: op = 'fsun' is not one of: sum min max fsum: did you mean 'fsum'?\n"},
        {{"--op", "fsun"}, 2, "tool: op = 'fsun' is not one of: sum min max fsum: did you mean 'fsum'?\n"},
        {{"--fast", "maybe"}, 2, "tool: fast = 'maybe' is not one of: off on check (or yes, no)\n"},
        {{"--fast=maybe"}, 1, "tool: fast = 'maybe' is not one of: off on check (or yes, no)\n"},
        {{"fast=maybe"}, 1, "tool: fast = 'maybe' is not one of: off on check (or yes, no)\n"},
        {{"window=0"}, 1, "tool: window = '0' is not an integer in 1..256\n"},
        {{"--window"}, 1, "tool: option '--window' needs a value: in flight\n"},
        {{"stray"}, 1, "tool: 'stray': expected --key value or key=value (tool --help lists the keys)\n"},
        {{"topo=2", "--topo", "3"}, 3, "tool: key 'topo' is given twice: once is allowed\n"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
        assert_int_equal(cli(&c, cases[k].args, cases[k].n, msg, sizeof msg), 2);
        assert_string_equal(msg, cases[k].want);
        tc_config_free(&c);
    }
}

static void test_onoff(void **state)
{
    (void)state;
    tc_config c;
    char msg[512];
    char *forms[][2] = {{"--fast", "yes"}, {"--fast=yes", NULL}, {"fast=on", NULL}, {"--fast", NULL}, {"--fast", "1"}};
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
        assert_int_equal(cli(&c, forms[k], forms[k][1] ? 2 : 1, msg, sizeof msg), 0);
        assert_string_equal(tc_config_str(&c, "fast"), "on");
        assert_true(tc_config_given(&c, "fast"));
        assert_false(tc_config_given(&c, "op"));
        tc_config_free(&c);
    }
    char *bare[] = {"--fast", "--op", "max"}; /* a bare flag before another option */
    assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
    assert_int_equal(cli(&c, bare, 3, msg, sizeof msg), 0);
    assert_string_equal(tc_config_str(&c, "fast"), "on");
    assert_string_equal(tc_config_str(&c, "op"), "max");
    tc_config_free(&c);
    char *no[] = {"--fast", "no"};
    assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
    assert_int_equal(cli(&c, no, 2, msg, sizeof msg), 0);
    assert_string_equal(tc_config_str(&c, "fast"), "off");
    tc_config_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_one_format),
        cmocka_unit_test(test_onoff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
