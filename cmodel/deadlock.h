/* The deadlock-freedom checker: the wait-for graph of every resource a packet can
 * hold while it waits for another, built for a torus and a table set from the
 * router's own rules (tc_router_route, tc_router_credits), and the argument of
 * docs/deadlock.md checked on it:
 *   1. every cycle of waits runs along one ring (one VC, one direction of one
 *      dimension), each of its waits a copy that continues along the ring;
 *   2. every wait that enters such a ring from outside needs two free slots (bubble
 *      flow control), and every ring buffer has at least two;
 * so the graph's strongly connected components, ordered, form a DAG of rings and
 * single resources, each of which drains once those after it do. */
#ifndef TC_DEADLOCK_H
#define TC_DEADLOCK_H

#include <stdio.h>

#include "table.h"
#include "topo.h"

typedef struct {
    long vertices, edges; /* resources, and waits between them */
    long rings;           /* strongly connected components with a cycle: rings */
    long entries;         /* waits that enter a ring from outside it */
    long violations;      /* cycles through a wait that enters a ring, entries into a ring with one credit */
} tc_dl_result;

/* Checks the rules for torus t with table rows (validated), buffers of slots
 * packets, planted bugs plant (TC_PLANT_*, 0 for the design as built). Prints the
 * violations (at most max_report, each with its cycle of resources) to f (NULL: none).
 * Returns res->violations, or -1 if out of memory. */
long tc_deadlock_check(const tc_topo *t, const tc_row *rows, int slots, int plant, FILE *f, long max_report,
                       tc_dl_result *res);

#endif
