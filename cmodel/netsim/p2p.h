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

#include "../net.h"
#include "workload.h"

/* The software costs of the MPI algorithms (cmodel/netsim/p2p_coll.c), in the LogGP terms
 * of Alexandrov, Ionescu, Schauser and Scheiman (1995), in router cycles: a message
 * costs its sender o_send cycles of CPU before it leaves and its receiver o_recv
 * after its last flit reached the PE; a node starts injecting a message no sooner
 * than gap cycles after it started the one before (LogGP's g). G (cycles a byte) is
 * the packet model's: a PE channel and a link carry one 16-byte flit a cycle. L is
 * the packet model's too (hops, PCIe, contention). red_mcyc: the reduction's
 * arithmetic, thousandths of a cycle per data flit received and combined. */
typedef struct {
    uint64_t o_send, o_recv, gap;
    uint64_t red_mcyc;
} tc_p2p_loggp;

typedef struct {
    tc_params p;
    tc_topo t;
    int np;
    uint64_t *link_free; /* [node][port]: the cycle the link takes its next packet */
    uint64_t *inj_free, *ej_free; /* [node]: the PE channels */
    uint64_t *flits;     /* [node][port]: flits sent on each link since init */
    uint64_t *pe_flits, *pe_msgs; /* [node]: data flits and messages its PE sent since the last collective began */
    uint64_t sw;         /* classic: software cycles between receiving a message and sending the next */
    tc_p2p_loggp cost;   /* the MPI algorithms' software costs (tc_p2p_coll) */
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
/* The collective algorithms of MPI libraries (cmodel/netsim/p2p_coll.c). Each applies to
 * some operations (tc_p2p_alg_ops). */
typedef enum {
    TC_P2P_CLASSIC,      /* the fixed set of tc_p2p_collective: binomial, recursive doubling (else a reduce and
                            a broadcast), recursive doubling all-gather (else a ring), dissemination; sw, not LogGP */
    TC_P2P_BINOMIAL,     /* bcast, reduce: binomial tree */
    TC_P2P_LINEAR,       /* bcast, reduce, barrier: the root sends to / hears from every rank in turn */
    TC_P2P_SCATTER_RD,   /* bcast: binomial scatter + recursive-doubling all-gather (powers of two) */
    TC_P2P_SCATTER_RING, /* bcast: binomial scatter + ring all-gather (van de Geijn) */
    TC_P2P_RECDBL,       /* allreduce, allgather, barrier: recursive doubling, extra ranks folded in first */
    TC_P2P_RABENSEIFNER, /* allreduce, reduce: reduce-scatter by recursive halving + all-gather by recursive
                            doubling (allreduce) or a binomial gather (reduce) */
    TC_P2P_RING,         /* allreduce: ring reduce-scatter + ring all-gather; allgather: ring */
    TC_P2P_REDUCE_BCAST, /* allreduce: binomial reduce to rank 0, then binomial broadcast */
    TC_P2P_BRUCK,        /* allgather: Bruck's */
    TC_P2P_DISSEMINATION, /* barrier: dissemination (Hensgen, Finkel, Manber) */
    TC_P2P_TREE,         /* barrier: binomial fan-in then fan-out */
    TC_P2P_KNOMIAL,      /* bcast: k-nomial tree of radix 4 (Open MPI's), a child at a time */
    TC_P2P_ALGS
} tc_p2p_alg;

/* How an algorithm is chosen: one by name, or a rule. */
typedef enum { TC_P2P_PICK_ONE, TC_P2P_PICK_AUTO, TC_P2P_PICK_OMPI, TC_P2P_PICK_MPICH } tc_p2p_pick;

extern const char *const tc_p2p_alg_names[TC_P2P_ALGS + 1]; /* NULL at the end */
/* The operations (bit 1 << tc_wl_kind; tree_barrier as barrier) algorithm a applies to. */
unsigned tc_p2p_alg_ops(tc_p2p_alg a);
/* Whether algorithm a can run kind on n ranks (scatter_rd: powers of two only). */
int tc_p2p_alg_fits(tc_p2p_alg a, tc_wl_kind kind, int n);

/* The library's default pick for kind on n ranks, a message of `bytes` (bcast,
 * reduce, allreduce: the vector; allgather: a rank's block), a commutative
 * operation: the algorithm modelled, and in *lib (may be NULL) the library's own
 * name of what it picks (Open MPI: its coll/tuned name; it can be an algorithm not
 * modelled here, then the nearest one modelled runs, docs/p2p.md). */
tc_p2p_alg tc_p2p_pick_ompi(tc_wl_kind kind, int n, uint64_t bytes, const char **lib);
tc_p2p_alg tc_p2p_pick_mpich(tc_wl_kind kind, int n, uint64_t bytes, const char **lib);

/* One collective by algorithm alg among n ranks (rank r on node[r]; NULL: node r),
 * len data flits (allgather: a rank's block), root a rank, with m->cost; started at
 * cycle 0 on idle channels. done[rank] (or NULL): the cycle it leaves the
 * collective (its last receive processed, or its last send's overhead spent);
 * *end the latest. m->pe_flits and pe_msgs: what each node sent. 0, or -1 and
 * m->err (an algorithm that does not fit, too many steps, out of memory). */
int tc_p2p_coll(tc_p2p *m, tc_p2p_alg alg, tc_wl_kind kind, int len, int root, const int *node, int n,
                uint64_t *done, uint64_t *end);

/* Every algorithm but classic that fits kind on n ranks, one after another: t[a]
 * its end (UINT64_MAX: does not fit, or too many steps to track); *best the fastest
 * (the first of equals), its done[] and *end. 0, or -1 and m->err. */
int tc_p2p_coll_best(tc_p2p *m, tc_wl_kind kind, int len, int root, const int *node, int n,
                     uint64_t t[TC_P2P_ALGS], tc_p2p_alg *best, uint64_t *done, uint64_t *end);

/* The collectives the algorithms above do not cover, as MPI libraries run them over
 * point-to-point (the trace replay's), each a phase of steps of the same kind, with
 * the same LogGP costs (m->cost: o_send a send, o_recv and the reduction's
 * arithmetic a receive, gap between a rank's injections). */
typedef enum {
    TC_P2P_GATHER,         /* linear: every rank sends its block to the root, which takes them in turn (from
                              the rank after it on) */
    TC_P2P_SCATTER,        /* linear: the root sends each rank its block in turn */
    TC_P2P_ALLTOALL,       /* pairwise: in step k of n - 1, rank r sends its block for r + k + 1 and receives
                              from r - k - 1 */
    TC_P2P_REDUCE_SCATTER, /* ring: in step k of n - 1, r sends block r - k of the vector to r + 1, which
                              combines it with its own (the vector cut into n blocks of whole flits) */
    TC_P2P_SCAN,           /* recursive doubling (MPICH's scan and exscan): in step k of log2 n, r exchanges its
                              partial result with r xor 2^k if that is a rank, and combines */
    TC_P2P_OTHERS
} tc_p2p_other;
extern const char *const tc_p2p_other_names[TC_P2P_OTHERS + 1]; /* NULL at the end */

/* One of them among n ranks (rank r on node[r]; NULL: node r), len data flits (the
 * block a rank sends to one other; reduce_scatter and scan: the whole vector), root a
 * rank (gather, scatter), started at cycle 0 on idle channels: *end the cycle the last
 * rank is done. 0, or -1 and m->err. */
int tc_p2p_coll_other(tc_p2p *m, tc_p2p_other what, int len, int root, const int *node, int n, uint64_t *end);

/* The steady-state model of an algorithm, for runs too large to simulate (cmodel/netsim/apps.c):
 * the steps one after another, each costing o_send, one packet of the step's longest
 * message alone on the network (simulated), the step's busiest channel (a link, an
 * injection or an ejection channel; dimension-order paths, a header a packet) at
 * `rate` flits a cycle, then o_recv and the reduction's arithmetic. A ring's steps
 * repeat one pattern: its first step is routed and counted for all. Rank r on node r,
 * root 0; g is not modelled (a step of these long messages outlasts it). */
typedef struct {
    uint64_t model;   /* cycles */
    uint64_t fill;    /* its terms: the steps' one-packet latencies, */
    uint64_t busiest; /* the steps' busiest channels' flits */
    double flit_hops; /* link flits moved: the cost of an exact run */
} tc_p2p_est;

/* 0, or -1 and m->err (no such algorithm for kind on n ranks, out of memory). */
int tc_p2p_coll_model(tc_p2p *m, tc_p2p_alg alg, tc_wl_kind kind, int len, int n, double rate, tc_p2p_est *r);

/* The dimension-order direction (TC_DIR_*) a unicast packet takes from node towards
 * dst, -1 at dst. */
int tc_p2p_dir(const tc_topo *t, int node, int dst);

#endif
