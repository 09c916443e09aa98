/* Collective routing table: 16 rows per router (one per TreeId), its validity rules
 * (docs/microarchitecture.md), a dimension-ordered tree planner and a text loader. */
#ifndef TC_TABLE_H
#define TC_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "format.h"
#include "topo.h"

typedef uint32_t tc_row; /* packed as format.def TC_ROW fields */

/* A table is rows[node * TC_TREES + tree]. */
#define TC_ROWP(rows, node, tree) ((rows)[(size_t)(node) * TC_TREES + (tree)])

tc_row tc_row_make(int root, int toroot, int pe, unsigned dirs);

/* Checks one tree over the whole network. 0 if valid; otherwise the number of the
 * broken rule (1-3: the routing rules of the design; 4: a member does not reach the root;
 * 5: a field names a direction the torus does not have or Dir_sum is wrong;
 * 6: a node other than the root has Pe = 0 and no down direction, a transit leaf),
 * and err names the tree, the node and the rule. */
int tc_tree_validate(const tc_topo *t, const tc_row *rows, int tree, char *err, size_t errlen);
int tc_table_validate(const tc_topo *t, const tc_row *rows, char *err, size_t errlen);
/* The root node of tree, or -1 if no node is its root. */
int tc_tree_root(const tc_topo *t, const tc_row *rows, int tree);

/* Builds a dimension-ordered (X, Y, Z, W) tree rooted at root into rows[*][tree]:
 * pe[node] != 0 for the nodes whose PE takes part (pe == NULL: every node). Branches
 * with no Pe node are pruned; nodes left out get an invalid row. */
void tc_plan_tree(const tc_topo *t, tc_row *rows, int tree, int root, const uint8_t *pe);
/* The same with the split of every ring chosen by split(): the nodes of the ring of
 * dimension k through coordinates c (c[k] aside) at offsets 1..split from the root's
 * coordinate join going +, the others going - (tc_plan_tree: size / 2). */
void tc_plan_tree_split(const tc_topo *t, tc_row *rows, int tree, int root, const uint8_t *pe,
                        int (*split)(void *ctx, int k, const int c[TC_MAX_DIMS], int size), void *ctx);

/* Text form, one row a line: "tree node root toroot pe dirs", e.g. "3 5 0 X- 1 Y+,Y-";
 * "-" for no toRoot or no dirs; '#' starts a comment. Rows not listed are invalid.
 * Load refuses what is not such a text: a number out of range (never wrapped), a row
 * listed twice (both lines named), a line longer than TC_LINE_MAX - 1 characters, a
 * NUL byte, a read error; then it validates the whole table. 0, or -1 and a message
 * naming the line (or tree, node and rule). */
int tc_table_load(const tc_topo *t, tc_row *rows, FILE *f, char *err, size_t errlen);
void tc_table_write(const tc_topo *t, const tc_row *rows, FILE *f);

#endif
