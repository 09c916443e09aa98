/* Golden-model unit tests: the strict line reader, the key = value configuration
 * parser behind tcnet, and the command-line style of every tool (cmodel/config.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/config.h"

static const char *const modes[] = {"half", "full", NULL};
static const char *const onoff[] = {"off", "on", NULL};
static const tc_key keys[] = {
    {"fast", "off", "flag", 0, 0, onoff},
    {"topo", "4x4x4", "sizes", 1, 0, NULL},
    {"link_lat", "40", "cycles", 1, 100000, NULL},
    {"dst", "-1", "node", -1, 65535, NULL},
    {"barrier", "half", "mode", 0, 0, modes},
    {"csv", "", "path", 1, 0, NULL},
};
#define NKEYS (sizeof keys / sizeof keys[0])

static int read_text(tc_config *c, const char *text, size_t len, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, len, "r");
    assert_non_null(f);
    int rc = tc_config_read(c, f, "x.cfg", err, errlen);
    fclose(f);
    return rc;
}

static void test_good(void **state)
{
    (void)state;
    tc_config c;
    char err[256];
    assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
    assert_string_equal(tc_config_str(&c, "topo"), "4x4x4");
    assert_int_equal(tc_config_int(&c, "dst"), -1);
    static const char text[] = "# comment\n\n  topo = 8x8   # trailing comment\r\nlink_lat=7\n"
                               "dst = 65535\nbarrier = full\ncsv =\n";
    if (read_text(&c, text, sizeof text - 1, err, sizeof err))
        fail_msg("refused: %s", err);
    assert_string_equal(tc_config_str(&c, "topo"), "8x8");
    assert_int_equal(tc_config_int(&c, "link_lat"), 7);
    assert_int_equal(tc_config_int(&c, "dst"), 65535);
    assert_int_equal(tc_config_enum(&c, "barrier"), 1);
    assert_string_equal(tc_config_str(&c, "csv"), "");
    /* the command line overrides the file, once */
    assert_int_equal(tc_config_arg(&c, "link_lat=9", err, sizeof err), 0);
    assert_int_equal(tc_config_int(&c, "link_lat"), 9);
    assert_int_equal(tc_config_arg(&c, "link_lat=10", err, sizeof err), -1);
    assert_non_null(strstr(err, "command line: key 'link_lat' is given twice"));
    /* the last line may lack its newline */
    tc_config d;
    assert_int_equal(tc_config_init(&d, keys, NKEYS), 0);
    assert_int_equal(read_text(&d, "dst = 3", 7, err, sizeof err), 0);
    assert_int_equal(tc_config_int(&d, "dst"), 3);
    tc_config_free(&c);
    tc_config_free(&d);
}

static void expect_file_error(const char *text, size_t len, const char *want)
{
    tc_config c;
    char err[256] = "";
    assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
    if (read_text(&c, text, len, err, sizeof err) != -1)
        fail_msg("accepted: '%.60s'", text);
    if (!strstr(err, want))
        fail_msg("'%s' does not contain '%s'", err, want);
    tc_config_free(&c);
}
#define FILE_ERR(text, want) expect_file_error(text, sizeof text - 1, want)

static void test_file_refused(void **state)
{
    (void)state;
    FILE_ERR("topo = 4x4\nfoo = 1\n", "x.cfg:2: unknown key 'foo'");
    FILE_ERR("topo = 4x4\n# c\ntopo = 2\n", "x.cfg:3: key 'topo' is set twice (first at line 1)");
    FILE_ERR("link_lat = 4\nlink_lat = 4\n", "x.cfg:2: key 'link_lat' is set twice (first at line 1)");
    FILE_ERR("topo 4x4\n", "x.cfg:1: expected 'key = value'");
    FILE_ERR("link_lat = abc\n", "x.cfg:1: link_lat = 'abc' is not an integer in 1..100000");
    FILE_ERR("link_lat = -4\n", "link_lat = '-4' is not an integer in 1..100000");
    FILE_ERR("link_lat = 0\n", "link_lat = '0' is not an integer");
    FILE_ERR("link_lat = 100001\n", "link_lat = '100001' is not an integer");
    FILE_ERR("link_lat = 4294967336\n", "'4294967336' is not an integer"); /* 2^32 + 40 is not 40 */
    FILE_ERR("link_lat = 99999999999999999999999\n", "is not an integer");
    FILE_ERR("link_lat = 12abc\n", "'12abc' is not an integer");
    FILE_ERR("link_lat = +12\n", "'+12' is not an integer");
    FILE_ERR("link_lat = 1 2\n", "'1 2' is not an integer");
    FILE_ERR("link_lat =\n", "link_lat = '' is not an integer");
    FILE_ERR("dst = -2\n", "dst = '-2' is not an integer in -1..65535");
    FILE_ERR("barrier = Full\n", "barrier = 'Full' is not one of: half full");
    /* not a text file */
    FILE_ERR("topo = 4x4\n\0\0\0", "x.cfg:2: a NUL byte at character 1: not a text file");
    FILE_ERR("topo = 4\0x4\n", "x.cfg:1: a NUL byte at character 9");
    FILE_ERR("\x7f" "ELF\x02\x01\x01\0", "x.cfg:1: a NUL byte");
    /* a line longer than the reader's buffer: refused with its number, never split */
    char *big = malloc(2 * TC_LINE_MAX);
    int o = snprintf(big, 2 * TC_LINE_MAX, "dst = 1\n#"); /* line 2: '#', x..., then what a split would read */
    memset(big + o, 'x', TC_LINE_MAX - 2);
    strcpy(big + o + TC_LINE_MAX - 2, "link_lat = 2\n");
    expect_file_error(big, strlen(big), "x.cfg:2: line longer than 1023 characters");
    /* a value longer than its buffer */
    o = snprintf(big, 2 * TC_LINE_MAX, "csv = ");
    memset(big + o, 'p', TC_VAL_MAX + 10);
    big[o + TC_VAL_MAX + 10] = 0;
    expect_file_error(big, strlen(big), "x.cfg:1: csv = 'pppp");
    expect_file_error(big, strlen(big), "is longer than 511 characters");
    free(big);
    /* a directory and /dev/zero */
    tc_config c;
    char err[256];
    assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
    FILE *f = fopen(".", "r");
    if (f) {
        assert_int_equal(tc_config_read(&c, f, "dir", err, sizeof err), -1);
        assert_non_null(strstr(err, "dir:1: read error: Is a directory"));
        fclose(f);
    }
    if ((f = fopen("/dev/zero", "r"))) {
        assert_int_equal(tc_config_read(&c, f, "/dev/zero", err, sizeof err), -1);
        assert_non_null(strstr(err, "/dev/zero:1: a NUL byte"));
        fclose(f);
    }
    tc_config_free(&c);
}

static void test_arg_refused(void **state)
{
    (void)state;
    tc_config c;
    char err[256];
    assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
    assert_int_equal(tc_config_arg(&c, "nokey", err, sizeof err), -1);
    assert_non_null(strstr(err, "'nokey': expected key=value"));
    assert_int_equal(tc_config_arg(&c, "foo=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "command line: unknown key 'foo'"));
    assert_int_equal(tc_config_arg(&c, "dst= 7", err, sizeof err), -1); /* taken as it is */
    assert_non_null(strstr(err, "dst = ' 7' is not an integer"));
    assert_int_equal(tc_config_arg(&c, "dst =7", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown key 'dst '"));
    assert_int_equal(tc_config_arg(&c, "dst=70000", err, sizeof err), -1);
    assert_non_null(strstr(err, "dst = '70000' is not an integer in -1..65535"));
    char *big = malloc(2 * TC_LINE_MAX);
    memset(big, 'a', 2 * TC_LINE_MAX - 1);
    big[2 * TC_LINE_MAX - 1] = 0;
    memcpy(big, "csv=", 4);
    assert_int_equal(tc_config_arg(&c, big, err, sizeof err), -1);
    assert_non_null(strstr(err, "is longer than 1023 characters"));
    free(big);
    assert_string_equal(tc_config_str(&c, "csv"), ""); /* nothing refused was kept */
    assert_int_equal(tc_config_int(&c, "dst"), -1);
    tc_config_free(&c);
}

static void test_read_line(void **state)
{
    (void)state;
    char buf[8], err[96];
    FILE *f = fmemopen((void *)"abc\n\n1234567\n12345678\n", 23, "r");
    assert_int_equal(tc_read_line(f, buf, sizeof buf, err, sizeof err), 1);
    assert_string_equal(buf, "abc");
    assert_int_equal(tc_read_line(f, buf, sizeof buf, err, sizeof err), 1);
    assert_string_equal(buf, "");
    assert_int_equal(tc_read_line(f, buf, sizeof buf, err, sizeof err), 1);
    assert_string_equal(buf, "1234567"); /* the longest that fits */
    assert_int_equal(tc_read_line(f, buf, sizeof buf, err, sizeof err), -1);
    assert_string_equal(err, "line longer than 7 characters");
    fclose(f);
    f = fmemopen((void *)"x", 1, "r");
    assert_int_equal(tc_read_line(f, buf, sizeof buf, err, sizeof err), 1);
    assert_int_equal(tc_read_line(f, buf, sizeof buf, err, sizeof err), 0);
    fclose(f);
}

/* The one command-line style: key=value, --key=value, --key value, a bare --flag. */
static void test_argv(void **state)
{
    (void)state;
    tc_config c;
    char err[256];
    char *argv[] = {"tool", "cfg", "--link-lat", "7", "--barrier=1", "dst=-1", "--fast", "--topo", "2x2", NULL};
    int argc = 9, i = 1;
    assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
    assert_int_equal(tc_config_argv(&c, argc, argv, &i, err, sizeof err), 1); /* not an option */
    assert_int_equal(i, 1);
    for (i = 2; i < argc;)
        if (tc_config_argv(&c, argc, argv, &i, err, sizeof err))
            fail_msg("refused at %d: %s", i, err);
    assert_int_equal(tc_config_int(&c, "link_lat"), 7);
    assert_string_equal(tc_config_str(&c, "barrier"), "full"); /* a name's number is the name */
    assert_int_equal(tc_config_enum(&c, "fast"), 1);
    assert_string_equal(tc_config_str(&c, "topo"), "2x2");
    tc_config_free(&c);

    char *off[] = {"tool", "--fast", "off", "--dst", "--topo", "x", "--nokey", "1", "--barrier", "2", NULL};
    assert_int_equal(tc_config_init(&c, keys, NKEYS), 0);
    i = 1;
    assert_int_equal(tc_config_argv(&c, 10, off, &i, err, sizeof err), 0);
    assert_int_equal(i, 3);
    assert_int_equal(tc_config_enum(&c, "fast"), 0); /* --fast off: the name is its value */
    assert_int_equal(tc_config_argv(&c, 10, off, &i, err, sizeof err), -1);
    assert_non_null(strstr(err, "option '--dst' needs a value"));
    i = 6;
    assert_int_equal(tc_config_argv(&c, 10, off, &i, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown option '--nokey'"));
    i = 8;
    assert_int_equal(tc_config_argv(&c, 10, off, &i, err, sizeof err), -1); /* 2 is past the names */
    assert_non_null(strstr(err, "barrier = '2' is not one of: half full"));
    i = 3;
    assert_int_equal(tc_config_argv(&c, 4, off, &i, err, sizeof err), -1);
    assert_non_null(strstr(err, "option '--dst' needs a value"));
    tc_config_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_file_refused),
        cmocka_unit_test(test_arg_refused),
        cmocka_unit_test(test_read_line),
        cmocka_unit_test(test_argv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
