/* A packet-level engine for broadcasts (tcnet engine=packet): the cycles at which
 * each packet of a broadcast is written, routed, granted and freed at each node of
 * its tree, computed packet by packet from the rules of the cycle-exact router
 * (router.c, vc_unit.c) instead of simulating every router every cycle. A router
 * stores and forwards whole packets, so a packet's timing at a node follows from its
 * arrival, the node's previous packets and the credits its children have returned:
 * the head's header registers (captured as written, or read ahead), RC the cycle
 * after the packet is whole (or as the packet before is freed), each output's grant
 * when it is free and has credits (two to enter a ring, one to go on along it), one
 * pass of the read port at a time, the slot freed as its last flit is read, credits
 * back a link's latency later; the PE output shared with the credit block's periodic
 * reports under the round-robin arbiter; the PE's injection and ejection credits
 * across the PCIe latencies. Exact where it applies, which tc_pkt_bcast_refuse()
 * says: the test tb/unit/test_pkt_bcast.c compares every PE delivery, cycle and data,
 * with the cycle-exact model. */
#ifndef TC_PKT_BCAST_H
#define TC_PKT_BCAST_H

#include <stddef.h>

#include "../net.h"
#include "workload.h"

/* NULL if the engine models w on p exactly; otherwise why not. */
const char *tc_pkt_bcast_refuse(const tc_params *p, const tc_workload *w);
/* Runs w (a bcast) on a torus t with p and routing table rows: the result as
 * tc_wl_run() gives it, flits sent per link into link_flits[node * 2 * ndims + port]
 * (zeroed first). 0, or -1 with res->msg. Free res with tc_wl_result_free(). */
int tc_pkt_bcast_run(const tc_params *p, const tc_topo *t, const tc_row *rows, const tc_workload *w,
                     tc_wl_result *res, uint64_t *link_flits);

#endif
