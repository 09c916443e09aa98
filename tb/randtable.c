#include "randtable.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* One tree rooted at root over the Pe nodes pe[]. A node whose highest coordinate
 * that differs from the root's is k joins along the ring of dimension k through the
 * node e that agrees with the root in k and beyond: at offset off = 1..s-1 from e it
 * comes from e going + (toRoot k-) if off <= split, else going - (toRoot k+), with a
 * split drawn per ring (0: the whole ring joins going -, s - 1: going +). */
static int random_split(void *ctx, int k, const int c[TC_MAX_DIMS], int size)
{
    uint64_t ring = *(const uint64_t *)ctx ^ (uint64_t)k * 0x1000193u; /* the ring: coordinates below k */
    for (int d = 0; d < k; d++)
        ring = mix(ring + (uint64_t)c[d]);
    return (int)(mix(ring) % (uint64_t)size);
}

void tc_random_table(const tc_topo *t, tc_row *rows, uint64_t seed)
{
    uint8_t *pe = malloc((size_t)t->n);
    uint64_t rng = mix(seed ^ 0x72616e64u);
    int full_tree = (int)(mix(rng++) % TC_TREES); /* at least this one has every PE */
    char err[256];

    for (int tree = 0; tree < TC_TREES; tree++) {
        int root = (int)(mix(rng++) % (uint64_t)t->n), kind = (int)(mix(rng++) % 8), members = 0;
        /* 0-2: every PE; 3-5: each PE with a random density; 6-7: one to three PEs */
        uint64_t density = 1 + mix(rng++) % 7; /* in eighths */
        for (int k = 0; k < t->n; k++) {
            if (tree == full_tree || kind <= 2)
                pe[k] = 1;
            else if (kind <= 5)
                pe[k] = mix(rng++) % 8 < density;
            else
                pe[k] = 0;
        }
        if (tree != full_tree && kind >= 6)
            for (int i = 1 + (int)(mix(rng++) % 3); i > 0; i--)
                pe[mix(rng++) % (uint64_t)t->n] = 1;
        if (tree != full_tree && kind > 2 && mix(rng++) % 2) /* a transit root, half the time */
            pe[root] = 0;
        for (int k = 0; k < t->n; k++)
            members += pe[k];
        if (!members)
            pe[root] = 1;
        uint64_t ring_seed = mix(rng++);
        tc_plan_tree_split(t, rows, tree, root, pe, random_split, &ring_seed);
    }
    free(pe);
    if (tc_table_validate(t, rows, err, sizeof err)) {
        fprintf(stderr, "tc_random_table (seed %llu) built an invalid table: %s\n", (unsigned long long)seed, err);
        abort();
    }
}
