/* A packet-level engine for the allgather (tcnet engine=packet workload=allgather):
 * every PE broadcasts on its tree (node k on tree k mod 16), so packets of all the
 * trees and sources contend for every output. A discrete-event simulation of the
 * routers at packet granularity: store-and-forward makes a packet's boundaries the
 * only cycles at which a router decides anything (its header routed, an output
 * granted, a slot freed, a report written), and between them nothing changes; so a
 * router is evaluated only at those cycles, from timestamps (when each packet's
 * header was written and its header register filled, when each output and read port
 * is free, when each credit comes back), with the rules of the cycle-exact router
 * (router.c, vc_unit.c, credit_block.c): RC the cycle after a packet is whole or as
 * the one before is freed, each output's round-robin arbiter over the units with
 * credits (two to enter a ring, one to go on along it), one pass of a unit's read
 * port at a time, the slot freed as its last flit is read, credits back a link's
 * latency later, the credit block's reports to the PE every TC_REPORT_CYCLES, the
 * PEs' injection and ejection credits across the PCIe latencies. Exact where it
 * applies, which tc_pkt_allgather_refuse() says: tb/unit/test_pkt_allgather.c
 * compares every PE delivery, cycle and data, with the cycle-exact model. */
#ifndef TC_PKT_ALLGATHER_H
#define TC_PKT_ALLGATHER_H

#include "../net.h"
#include "workload.h"

/* NULL if the engine models w on p exactly; otherwise why not. */
const char *tc_pkt_allgather_refuse(const tc_params *p, const tc_workload *w);
/* Runs w (an allgather) on a torus t with p and routing table rows: the result as
 * tc_wl_run() gives it, flits sent per link into link_flits[node * 2 * ndims + port]
 * (zeroed first). 0, or -1 with res->msg. Free res with tc_wl_result_free(). */
int tc_pkt_allgather_run(const tc_params *p, const tc_topo *t, const tc_row *rows, const tc_workload *w,
                         tc_wl_result *res, uint64_t *link_flits);

#endif
