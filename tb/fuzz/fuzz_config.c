/* libFuzzer harness of the key = value configuration parser (cmodel/config.c) with
 * keys of every kind tcnet declares, and of the topology parser on what it accepts
 * as topo. The input is read as a configuration file, and up to its first NUL as
 * one key=value argument. Run by sim/fuzz.sh (make fuzz). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmodel/config.h"
#include "../../cmodel/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const modes[] = {"half", "full", NULL};
static const tc_key keys[] = {
    {"topo", "4x4x4", "sizes", 1, 0, NULL},
    {"link_lat", "40", "cycles", 1, 100000, NULL},
    {"dst", "-1", "node", -1, 65535, NULL},
    {"bytes", "0", "bytes", 0, 1L << 30, NULL},
    {"max_cycles", "100000000", "cycles", 1, 4000000000L, NULL},
    {"barrier", "half", "mode", 0, 0, modes},
    {"csv", "", "path", 1, 0, NULL},
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* Whatever was accepted is a value its key allows. */
static void check(const tc_config *c)
{
    for (size_t i = 0; i < NKEYS; i++) {
        const char *v = c->val[i];
        if (!memchr(v, 0, TC_VAL_MAX))
            abort();
        if (keys[i].enums) {
            int ok = 0;
            for (int e = 0; keys[i].enums[e]; e++)
                ok |= !strcmp(v, keys[i].enums[e]);
            if (!ok)
                abort();
        } else if (keys[i].min <= keys[i].max) {
            char *end;
            errno = 0;
            long x = strtol(v, &end, 10);
            if (!*v || *end || errno || x < keys[i].min || x > keys[i].max)
                abort();
        }
    }
    tc_topo t;
    char err[256];
    if (!tc_topo_parse(c->val[0], &t, err, sizeof err) && (t.n < 1 || t.n > 65536))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tc_config c;
    char err[256];
    if (tc_config_init(&c, keys, NKEYS))
        abort();
    FILE *f = fmemopen(size ? (void *)data : (void *)"", size, "r");
    if (!f)
        abort();
    err[0] = 0;
    int rc = tc_config_read(&c, f, "fuzz.cfg", err, sizeof err);
    fclose(f);
    if (rc != 0 && rc != -1)
        abort();
    if (rc == -1 && strncmp(err, "fuzz.cfg:", 9)) /* every error names file:line */
        abort();
    check(&c);
    char *arg = malloc(size + 1);
    memcpy(arg, data, size);
    arg[size] = 0;
    rc = tc_config_arg(&c, arg, err, sizeof err);
    if (rc != 0 && rc != -1)
        abort();
    check(&c);
    free(arg);
    tc_config_free(&c);
    return 0;
}
