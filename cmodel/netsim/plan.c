#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tc_plan_names[] = {"testbench", "spread", "random", "members", NULL};

int tc_plan_find(const char *name)
{
    for (int v = 0; tc_plan_names[v]; v++)
        if (!strcmp(name, tc_plan_names[v]))
            return v;
    return -1;
}


static void testbench(const tc_topo *t, tc_row *rows, uint8_t *pe)
{
    for (int tree = 0; tree < TC_TREES; tree++) {
        int root = tc_plan_root(t, tree);
        for (int k = 0; k < t->n; k++)
            pe[k] = tree < 8 ? 1 : tree < 15 ? (tc_plan_mix((uint64_t)(tree * 65536 + k)) % 3 != 0) : 0;
        int members = 0;
        for (int k = 0; k < t->n; k++)
            members += pe[k];
        if (tree == 15 || members < 2) { /* every tree has a sender and a receiver */
            pe[root] = 1;
            pe[tc_farthest(t, root)] = 1;
        }
        tc_plan_tree(t, rows, tree, root, pe);
    }
}

static void spread(const tc_topo *t, tc_row *rows, uint8_t *pe, uint64_t seed, int members)
{
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 1;
    for (int tree = 0; tree < TC_TREES; tree++) {
        int root = tc_plan_root(t, tree);
        for (int k = 0; k < t->n; k++) { /* xorshift: a member with the given chance */
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            pe[k] = rng % 100 < (uint64_t)members;
        }
        pe[root] = pe[tc_farthest(t, root)] = 1;
        tc_plan_tree(t, rows, tree, root, pe);
    }
}

/* A random tree's ring splits: a node whose highest coordinate that differs from the
 * root's is k joins along the ring of dimension k through the node e that agrees with
 * the root in k and beyond: at offset off = 1..s-1 from e it comes from e going +
 * (toRoot k-) if off <= split, else going - (toRoot k+), with a split drawn per ring
 * (0: the whole ring joins going -, s - 1: going +). */
static int random_split(void *ctx, int k, const int c[TC_MAX_DIMS], int size)
{
    uint64_t ring = *(const uint64_t *)ctx ^ (uint64_t)k * 0x1000193u; /* the ring: coordinates below k */
    for (int d = 0; d < k; d++)
        ring = tc_plan_mix(ring + (uint64_t)c[d]);
    return (int)(tc_plan_mix(ring) % (uint64_t)size);
}

static void random_table(const tc_topo *t, tc_row *rows, uint8_t *pe, uint64_t seed)
{
    uint64_t rng = tc_plan_mix(seed ^ 0x72616e64u);
    int full_tree = (int)(tc_plan_mix(rng++) % TC_TREES); /* at least this one has every PE */
    char err[256];

    for (int tree = 0; tree < TC_TREES; tree++) {
        int root = (int)(tc_plan_mix(rng++) % (uint64_t)t->n), kind = (int)(tc_plan_mix(rng++) % 8), members = 0;
        /* 0-2: every PE; 3-5: each PE with a random density; 6-7: one to three PEs */
        uint64_t density = 1 + tc_plan_mix(rng++) % 7; /* in eighths */
        for (int k = 0; k < t->n; k++) {
            if (tree == full_tree || kind <= 2)
                pe[k] = 1;
            else if (kind <= 5)
                pe[k] = tc_plan_mix(rng++) % 8 < density;
            else
                pe[k] = 0;
        }
        if (tree != full_tree && kind >= 6)
            for (int i = 1 + (int)(tc_plan_mix(rng++) % 3); i > 0; i--)
                pe[tc_plan_mix(rng++) % (uint64_t)t->n] = 1;
        if (tree != full_tree && kind > 2 && tc_plan_mix(rng++) % 2) /* a transit root, half the time */
            pe[root] = 0;
        for (int k = 0; k < t->n; k++)
            members += pe[k];
        if (!members)
            pe[root] = 1;
        uint64_t ring_seed = tc_plan_mix(rng++);
        tc_plan_tree_split(t, rows, tree, root, pe, random_split, &ring_seed);
    }
    if (tc_table_validate(t, rows, err, sizeof err)) {
        fprintf(stderr, "tc_plan_table random (seed %llu) built an invalid table: %s\n", (unsigned long long)seed, err);
        abort();
    }
}

static void members_table(const tc_topo *t, tc_row *rows, const uint8_t *pe, int *mem)
{
    int nm = 0;
    for (int k = 0; k < t->n; k++)
        if (!pe || pe[k])
            mem[nm++] = k;
    for (int tree = 0; tree < TC_TREES && nm; tree++) /* roots spread evenly over the members */
        tc_plan_tree(t, rows, tree, mem[(long)tree * nm / TC_TREES], pe);
}

int tc_plan_table(const tc_topo *t, tc_row *rows, const tc_plan *p)
{
    if ((unsigned)p->variant >= TC_PLAN_VARIANTS)
        return -1;
    void *work = malloc((size_t)t->n * (p->variant == TC_PLAN_MEMBERS ? sizeof(int) : 1));
    if (!work)
        return -1;
    switch (p->variant) {
    case TC_PLAN_TESTBENCH:
        testbench(t, rows, work);
        break;
    case TC_PLAN_SPREAD:
        spread(t, rows, work, p->seed, p->members ? p->members : 100);
        break;
    case TC_PLAN_RANDOM:
        random_table(t, rows, work, p->seed);
        break;
    default:
        members_table(t, rows, p->pe, work);
        break;
    }
    free(work);
    return 0;
}
