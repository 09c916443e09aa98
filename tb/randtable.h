/* Random valid routing tables for the soak (tcsim/cosim --table random): random
 * roots, random member sets (Pe bits) with transit nodes, and random tree shapes
 * within the rules of cmodel/table.h. */
#ifndef TC_RANDTABLE_H
#define TC_RANDTABLE_H

#include <stdint.h>

#include "../cmodel/table.h"

/* Builds all 16 trees from seed into rows (t->n * TC_TREES rows). Every tree is
 * configured and has at least one Pe node, and at least one tree has every PE.
 * Trees are dimension-ordered (X, Y, Z, W) as the rules require, but on every ring
 * the split between the nodes that join through the + and the - neighbour is
 * random (the planner takes the shorter way); leaves that are not Pe nodes are
 * pruned (rule 6). The table is checked with tc_table_validate: the program aborts
 * with the broken rule if it is not valid. */
void tc_random_table(const tc_topo *t, tc_row *rows, uint64_t seed);

#endif
