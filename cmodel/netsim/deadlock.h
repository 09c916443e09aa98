/* The deadlock-freedom checker: the wait-for graph of every resource a packet or a
 * result can hold while it waits for another, built for a torus, a table set and the
 * network's parameters from the router's own rules (tc_router_route,
 * tc_router_credits, the credit block's arbiter), and the argument of
 * docs/deadlock.md checked on it:
 *   1. every cycle of waits runs along one ring (one VC, one direction of one
 *      dimension), each of its waits a copy that continues along the ring; the
 *      waits that close a cycle otherwise are well founded: a held result waits for
 *      its parent's results of red_rids reduces earlier (the reduce window), phase
 *      counters for a neighbour's previous phase;
 *   2. every wait that enters such a ring from outside needs two free slots (bubble
 *      flow control), and every ring buffer has at least two;
 *   3. the premises the graph stands on, where a program can check them: the credit
 *      block serves every duty within a bounded number of others, a contribution
 *      longer than the Reducer's entry is refused, the window's arithmetic;
 * so the graph's strongly connected components, ordered, form a DAG of rings and
 * single resources, each of which drains once those after it do. */
#ifndef TC_DEADLOCK_H
#define TC_DEADLOCK_H

#include <stdio.h>

#include "../net.h"

typedef struct {
    long vertices, edges; /* resources, and waits between them */
    long founded;         /* waits that decrease a sequence or phase number (the window, the barrier) */
    long rings;           /* strongly connected components with a cycle: rings */
    long entries;         /* waits that enter a ring from outside it */
    int cb_wait;          /* the most packets a credit-block duty waits for (-1: for ever) */
    long violations;      /* cycles through a wait that enters a ring, entries into a ring with one credit,
                             broken premises */
} tc_dl_result;

/* Checks the rules for torus t with table rows (validated) and the network's
 * parameters p (tc_params_check'ed; p->plant: planted bugs, TC_PLANT_*). Prints the
 * violations (at most max_report, each with its cycle of resources) to f (NULL:
 * none). Returns res->violations, or -1 if out of memory. */
long tc_deadlock_check(const tc_topo *t, const tc_row *rows, const tc_params *p, FILE *f, long max_report,
                       tc_dl_result *res);
/* The premises of the argument, one a line, each with the code that guarantees it
 * and how it is established (checked here, proved by make formal, or the PEs'
 * contract), to f. */
void tc_deadlock_premises(FILE *f);

#endif
