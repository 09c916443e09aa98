/* tccheck: the deadlock-freedom checker (cmodel/deadlock.h, docs/deadlock.md) on one
 * torus and table set. Exit 0 if the argument holds, 1 if it finds a violation, 2 on
 * bad input.
 *
 *   tccheck --topo 4x4x4x4 [--table planner|random|FILE] [--seed N] [--slots N]
 *           [--plant report-one|result-slot] [--report N]
 *
 * planner: the 16 trees the testbench uses (roots spread evenly, some transit nodes);
 * random: 16 trees with random roots, member sets and shapes (--seed). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../cmodel/config.h"
#include "../cmodel/deadlock.h"
#include "../cmodel/router.h"
#include "../tb/randtable.h"
#include "../tb/scenario.h"

int main(int argc, char **argv)
{
    const char *topo = "4x4", *table = "planner";
    uint64_t seed = 1, slots = 16, report = 3;
    int plant = 0;
    char err[256];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "usage: tccheck --topo AxBxCxD [--table planner|random|FILE] [--seed N] [--slots N]\n"
                            "               [--plant report-one|result-slot] [--report N]\n");
            return 2;
        }
        i++;
        if (!strcmp(a, "--seed") || !strcmp(a, "--slots") || !strcmp(a, "--report")) {
            int sl = !strcmp(a, "--slots"), sd = !strcmp(a, "--seed"); /* ranges: 1..TC_MAX_SLOTS, 0..2^40, 0..10^6 */
            if (tc_parse_num(a, v, sl ? 1 : 0, sl ? TC_MAX_SLOTS : sd ? 1ull << 40 : 1000000, sl ? &slots : sd ? &seed : &report))
                return 2;
        } else if (!strcmp(a, "--topo")) {
            topo = v;
        } else if (!strcmp(a, "--table")) {
            table = v;
        } else if (!strcmp(a, "--plant") && !strcmp(v, "report-one")) {
            plant |= TC_PLANT_REPORT_ONE;
        } else if (!strcmp(a, "--plant") && !strcmp(v, "result-slot")) {
            plant |= TC_PLANT_RESULT_SLOT;
        } else {
            fprintf(stderr, "tccheck: unknown option or value: %s %s\n", a, v);
            return 2;
        }
    }
    tc_topo t;
    if (tc_topo_parse(topo, &t, err, sizeof err)) {
        fprintf(stderr, "tccheck: %s\n", err);
        return 2;
    }
    tc_row *rows = calloc((size_t)t.n * TC_TREES, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "tccheck: out of memory for %d nodes\n", t.n);
        return 2;
    }
    if (!strcmp(table, "planner")) {
        tc_default_table(&t, rows);
    } else if (!strcmp(table, "random")) {
        tc_random_table(&t, rows, (uint64_t)seed);
    } else {
        FILE *f = fopen(table, "r");
        if (!f) {
            fprintf(stderr, "tccheck: %s: %s\n", table, strerror(errno));
            return 2;
        }
        int bad = tc_table_load(&t, rows, f, err, sizeof err);
        fclose(f);
        if (bad) {
            fprintf(stderr, "tccheck: %s: %s\n", table, err);
            return 2;
        }
    }
    if (tc_table_validate(&t, rows, err, sizeof err)) {
        fprintf(stderr, "tccheck: invalid table: %s\n", err);
        return 2;
    }
    tc_dl_result r;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long v = tc_deadlock_check(&t, rows, (int)slots, plant, stdout, (long)report, &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    free(rows);
    if (v < 0) {
        fprintf(stderr, "tccheck: out of memory for the graph of %d nodes\n", t.n);
        return 2;
    }
    char name[64];
    printf("%s  tccheck %-12s table %-7s seed %-4ld%s resources %ld  waits %ld  rings %ld  entries into rings %ld"
           "  violations %ld  %.2f s\n",
           v ? "FAIL" : "PASS", tc_topo_name(&t, name, sizeof name), strcmp(table, "random") ? table : "random",
           (long)seed, plant ? " planted bug" : "", r.vertices, r.edges, r.rings, r.entries, r.violations,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return v ? 1 : 0;
}
