/* The point-to-point baseline of Mukosey, Semenov and Simonov (2015): unicast packets with dimension-order
 * routing over the same torus, links and PCIe channels as the collective subnet, and
 * the software collectives built on them (binomial broadcast and reduce, recursive
 * doubling allreduce and all-gather, dissemination barrier).
 *
 * An event simulation in time order, not a cycle-exact router: a packet is timed
 * hop by hop with the router's own costs (header arrives at A, whole at A + len,
 * routed at +1, granted at +2, on the link from +3; LinkLat to the next router; the
 * same into the PE with EjLat), and each link and each PE channel is held len + 1
 * cycles a packet, first come first served in time (ties: the packet that asked
 * first). Contention is timed; buffer back-pressure is not (a packet waiting for a
 * link holds no buffer that could stop another). Packets carry at most 7 data
 * flits; longer messages are split and sent back to back. */
#ifndef TC_P2P_H
#define TC_P2P_H

#include <stdint.h>

#include "net.h"
#include "workload.h"

typedef struct {
    tc_params p;
    tc_topo t;
    int np;
    uint64_t *link_free; /* [node][port]: the cycle the link takes its next packet */
    uint64_t *inj_free, *ej_free; /* [node]: the PE channels */
    uint64_t *flits;     /* [node][port]: flits sent on each link since init */
    uint64_t sw;         /* software cycles between receiving a message and sending the next */
    char err[128];       /* why the last call failed */
} tc_p2p;

int tc_p2p_init(tc_p2p *m, const tc_params *p, uint64_t sw_overhead, char *err, size_t errlen);
void tc_p2p_free(tc_p2p *m);
/* A message of `flits` data flits from a to b, its PE ready to send at t, on the
 * channels as the calls before left them: the cycle its last flit reaches b's PE
 * (a to a: t). 0 and m->err if out of memory. */
uint64_t tc_p2p_send(tc_p2p *m, int a, int b, int flits, uint64_t t);
/* One collective (bcast and reduce from/to `root`, allreduce, barrier, allgather of
 * `len` flits a node), started at cycle 0 on idle channels: *end is the cycle the
 * last node is done; done[node] (or NULL) gets the cycle each node received its
 * last message (0: none). 0, or -1 and m->err. */
int tc_p2p_collective(tc_p2p *m, tc_wl_kind kind, int len, int root, uint64_t *done, uint64_t *end);
/* The same among n ranks, rank r on node[r] (n distinct nodes; NULL: rank r on node
 * r), root a rank; done[rank]. */
int tc_p2p_collective_on(tc_p2p *m, tc_wl_kind kind, int len, int root, const int *node, int n, uint64_t *done,
                         uint64_t *end);
/* Messages i from node from[i] to to[i] of flits[i] data flits, all ready at cycle 0
 * on idle channels: *end is the cycle the last one is delivered. 0, or -1 and m->err. */
int tc_p2p_exchange(tc_p2p *m, size_t nmsg, const int *from, const int *to, const int *flits, uint64_t *end);
/* The dimension-order direction (TC_DIR_*) a unicast packet takes from node towards
 * dst, -1 at dst. */
int tc_p2p_dir(const tc_topo *t, int node, int dst);

#endif
