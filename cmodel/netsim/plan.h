/* The routing-table sets of the tools and tests: every 16-tree table a tool builds
 * comes from tc_plan_table, by variant. The variants differ on purpose (each is the
 * table some checked result was measured on: timing diagrams, tcnet's latencies, the
 * numbers in docs/), so none replaces another. */
#ifndef TC_PLAN_H
#define TC_PLAN_H

#include <stdint.h>

#include "../table.h"

typedef enum {
    /* "testbench": the scenarios' trees (tcsim and cosim --table default, tccheck
     * --table planner). Roots at tree * n / 16; trees 0-7 have every PE, trees 8-14
     * leave about a third of the nodes as transit nodes, tree 15 has only the root
     * and its farthest node (long transit paths, most nodes outside the tree). */
    TC_PLAN_TESTBENCH,
    /* "spread": tcnet's table = planner. Roots at tree * n / 16; each PE a member with
     * chance members percent (a xorshift stream from seed), the root and its farthest
     * node always (every tree keeps a sender and a receiver). */
    TC_PLAN_SPREAD,
    /* "random": the soak's (--table random): random roots, member sets with transit
     * nodes and transit roots, and random splits of every ring (see tc_plan_table). */
    TC_PLAN_RANDOM,
    /* "members": only the nodes with pe[k] != 0 take part (pe NULL: all), the roots
     * spread evenly over them (tcnet's spmv, heat and trace all-gathers). */
    TC_PLAN_MEMBERS,
    TC_PLAN_VARIANTS
} tc_plan_variant;

/* The root of tree `tree` in the testbench and spread variants: tree * n / 16. */
static inline int tc_plan_root(const tc_topo *t, int tree) { return (int)(((long)tree * t->n) / TC_TREES); }
/* The planner's hash (splitmix64's finalizer), for the draws that follow a seed. */
static inline uint64_t tc_plan_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The variants' names, by tc_plan_variant, NULL-terminated. */
extern const char *const tc_plan_names[];

typedef struct {
    tc_plan_variant variant;
    uint64_t seed;     /* spread, random */
    int members;       /* spread: percent of the PEs in each tree, 1..100 (0: 100) */
    const uint8_t *pe; /* members: the nodes that take part, t->n of them (NULL: all) */
} tc_plan;

/* Builds all 16 trees of p's variant into rows (t->n * TC_TREES rows, the trees
 * dimension-ordered as cmodel/table.h requires). Every variant configures every tree
 * (members: when pe has a member) with at least one Pe node; random makes at least
 * one tree with every PE, and on every ring the split between the nodes that join
 * through the + and the - neighbour is random (the other variants take the shorter
 * way); leaves that are not Pe nodes are pruned (rule 6). A random table is checked
 * with tc_table_validate: the program aborts with the broken rule if it is not valid.
 * 0, or -1 out of memory or an unknown variant. */
int tc_plan_table(const tc_topo *t, tc_row *rows, const tc_plan *p);
/* The variant named name, or -1. */
int tc_plan_find(const char *name);

#endif
