/* tccheck: the deadlock-freedom checker (cmodel/netsim/deadlock.h, docs/deadlock.md) on one
 * torus and table set. Exit 0 if the argument holds, 1 if it finds a violation, 2 on
 * bad input.
 *
 *   tccheck --topo 4x4x4x4 [--table planner|random|FILE] [--seed N] [--slots N] [--inj-slots N]
 *           [--pe-credits N] [--red-flits N] [--link-lat N] [--inj-lat N] [--ej-lat N]
 *           [--plant report-one|result-slot|fixed-priority] [--report N] [--premises]
 *                                                            (or topo=4x4x4x4 ..., --help)
 *
 * planner: the 16 trees the testbench uses (roots spread evenly, some transit nodes;
 * cmodel/netsim/plan.h's testbench, not tcnet's planner, which is spread); random: 16 trees
 * with random roots, member sets and shapes (--seed); or any other of cmodel/netsim/plan.h's
 * tables by name (spread with every PE, members: all nodes). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../cmodel/config.h"
#include "../cmodel/netsim/deadlock.h"
#include "../cmodel/netsim/plan.h"

static const char *const plants[] = {"none", "report-one", "result-slot", "fixed-priority", NULL};
static const char *const onoff[] = {"off", "on", NULL};
static const tc_key keys[] = {
    TC_TOPO_KEY,
    {"table", "planner", "planner (the testbench's 16 trees), random (from the seed), another of cmodel/netsim/plan.h's (testbench, spread, members), or a table file", 1, 0, NULL},
    TC_SEED_KEY("random and spread tables"),
#include "../cmodel/param_keys.h"
    {"plant", "none", "a planted bug the check must find (docs/deadlock.md)", 0, 0, plants},
    {"report", "3", "violations reported in full", 0, 1000000, NULL},
    {"premises", "off", "on (or yes): print the premises of the argument and how each is established", 0, 0, onoff},
};
#define NKEYS (sizeof keys / sizeof keys[0])

int main(int argc, char **argv)
{
    char err[256];
    static tc_config cfg; /* reachable to the end: an early exit leaks nothing */
    if (tc_config_init(&cfg, keys, NKEYS)) {
        fprintf(stderr, "tccheck: out of memory\n");
        return 2;
    }
    static const tc_cli cli = {"tccheck", "[--key value | --key=value | key=value ...] [--help]", 0, 0, NULL, NULL};
    int cr = tc_config_cli(&cfg, &cli, argc, argv);
    if (cr)
        return cr == 1 ? 0 : 2;
    const char *topo = tc_config_str(&cfg, "topo"), *table = tc_config_str(&cfg, "table");
    long report = tc_config_int(&cfg, "report");
    uint64_t seed;
    if (tc_config_seed(&cfg, &seed))
        return 2;
    int plant = tc_config_enum(&cfg, "plant");
    static const int plant_bits[] = {0, TC_PLANT_REPORT_ONE, TC_PLANT_RESULT_SLOT, TC_PLANT_FIXED_PRIO};
    tc_params p;
    tc_params_default(&p);
    tc_params_from_config(&p, &cfg);
    p.plant = plant_bits[plant];
    tc_topo t;
    if (tc_topo_parse(topo, &t, err, sizeof err)) {
        fprintf(stderr, "tccheck: %s\n", err);
        return 2;
    }
    p.ndims = t.ndims;
    for (int d = 0; d < TC_MAX_DIMS; d++)
        p.size[d] = d < t.ndims ? t.size[d] : 1;
    if (tc_params_check(&p, err, sizeof err)) {
        fprintf(stderr, "tccheck: %s\n", err);
        return 2;
    }
    tc_row *rows = calloc((size_t)t.n * TC_TREES, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "tccheck: out of memory for %d nodes\n", t.n);
        return 2;
    }
    int variant = !strcmp(table, "planner") ? TC_PLAN_TESTBENCH : tc_plan_find(table);
    if (variant >= 0) {
        if (tc_plan_table(&t, rows, &(tc_plan){.variant = (tc_plan_variant)variant, .seed = seed})) {
            fprintf(stderr, "tccheck: out of memory for %d nodes\n", t.n);
            return 2;
        }
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
    int trees = 0;
    for (int tree = 0; tree < TC_TREES; tree++)
        for (int k = 0; k < t.n; k++)
            if (TC_RGET(TC_ROWP(rows, k, tree), VALID)) {
                trees++;
                break;
            }
    if (!trees) { /* nothing to check is no proof of anything */
        fprintf(stderr, "tccheck: %s: the table configures no tree\n", table);
        return 2;
    }
    if (tc_config_enum(&cfg, "premises")) {
        printf("premises of the argument (docs/deadlock.md):\n");
        tc_deadlock_premises(stdout);
    }
    tc_dl_result r;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long v = tc_deadlock_check(&t, rows, &p, stdout, (long)report, &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    free(rows);
    if (v < 0) {
        fprintf(stderr, "tccheck: out of memory for the graph of %d nodes\n", t.n);
        return 2;
    }
    char name[64];
    printf("%s  tccheck %-12s table %-7s seed %-4" PRIu64 "%s trees %d  resources %ld  waits %ld  (well founded %ld)  rings %ld"
           "  entries into rings %ld  credit-block wait %d  violations %ld  %.2f s\n",
           v ? "FAIL" : "PASS", tc_topo_name(&t, name, sizeof name), strcmp(table, "random") ? table : "random",
           seed, plant ? " planted bug" : "", trees, r.vertices, r.edges, r.founded, r.rings, r.entries, r.cb_wait,
           r.violations, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    tc_config_free(&cfg);
    return v ? 1 : 0;
}
