/* Workloads for the network simulator (tools/tcnet.c): collective operations run
 * one after another on a tc_net, with PE models that inject under credits and take
 * every ejected packet at once. Operation i+1 starts the cycle after operation i
 * has completed at every node that receives something from it; or, with a window W
 * > 1 (allreduce and tree barrier), a stream: each PE starts operation i the cycle
 * after it has the results of operations 0 .. i - W, the operations dealt round the
 * trees given (a long vector's pieces spread over trees, at most red_rids in flight on
 * each). */
#ifndef TC_WORKLOAD_H
#define TC_WORKLOAD_H

#include <stdint.h>

#include "../net.h"

typedef enum {
    TC_WL_BCAST,        /* the root's PE of `tree` broadcasts `len` data flits */
    TC_WL_REDUCE,       /* every Pe node of `tree` contributes; the result goes to `dst` */
    TC_WL_ALLREDUCE,    /* ... the result goes to every Pe node */
    TC_WL_BARRIER,      /* every PE enters a multiphase barrier (`bar_mode`, `bar_k`) */
    TC_WL_TREE_BARRIER, /* an allreduce without data (AND) on `tree` */
    TC_WL_ALLGATHER,    /* every PE broadcasts `packets` of `len` flits, node k on tree k % 16 */
    TC_WL_SPMV,         /* applications (cmodel/netsim/apps.h), not run by tc_wl_run */
    TC_WL_HEAT,
    TC_WL_TRACE,
    TC_WL_KINDS
} tc_wl_kind;

#define TC_WL_WINDOW_MAX (TC_MAX_RIDS * TC_TREES) /* a stream's window: red_rids operations on each tree, at most */

typedef struct {
    tc_wl_kind kind;
    int tree, len, op, lane, dst;
    int bar_mode, bar_k; /* TC_BAR_* bits; K when BAR_DIAM is not set */
    int packets;         /* bcast, allgather: each sender sends this many packets of `len` flits (0 or 1: one) */
    int repeat;          /* operations, back to back */
    int window;          /* 0 or 1: one operation at a time; 2..red_rids x trees: a stream */
    int trees;           /* a stream striped over trees tree .. tree + trees - 1 (of one member set): operation i
                            on tree tree + i mod trees, its (i / trees)-th reduce there; 0 or 1: on tree only */
    int rid0;            /* reduces: the reduces the tree's PEs made before on this network (mod 16), so that
                            operation i takes ReduceId (rid0 + i / trees) mod 16 (each of the trees having made
                            rid0): a tree's ReduceIds go in turn from
                            reset (docs/deadlock.md); 0 on a new network */
    uint64_t max_cycles; /* give up (an error) after this many cycles */
    int step;            /* 1: the routers evaluated in every cycle, without lookahead (tc_net_lookahead), to
                            show that it changes nothing */
    int drain;           /* 1: after the last delivery, run on (the PEs taking every packet, sending none) until
                            no packet is in flight (tc_net_quiet), so that a routing table may be rewritten */
    /* if not NULL: called for every packet a PE takes (not the credit block's reports),
     * with its operation, the cycle its last flit arrived and its flits (to compare
     * engines delivery by delivery) */
    void (*deliver)(void *ctx, uint32_t node, int op, uint64_t cycle, const tc_flit *pkt, int nflits);
    void *deliver_ctx;
    /* if not NULL: fills the `len` data flits of node's contribution to reduce operation op
     * (else fixed bits stand in); a stream then checks each result against its own
     * operation's contributions */
    void (*data)(void *ctx, uint32_t node, int op, tc_flit *flits, int len);
    void *data_ctx;
} tc_workload;

typedef struct {
    uint64_t start, end;  /* first injection, last delivery (cycle) */
    uint64_t deliveries;
} tc_op_result;

typedef struct {
    tc_op_result *op;     /* [repeat] */
    uint64_t *node_done;  /* [repeat][nodes]: the cycle node had all it gets from op (0: nothing) */
    uint64_t cycles;      /* simulated */
    uint64_t errors;      /* ERROR packets the PEs received */
    /* a stream: PE-cycles its PEs waited to start an operation the window allowed, for
     * an injection credit (inj_wait); and with every operation the window allows in
     * flight (win_wait: until the result of the oldest) */
    uint64_t inj_wait, win_wait;
    char msg[256];        /* the first error, or why the run stopped */
} tc_wl_result;

extern const char *const tc_wl_names[TC_WL_KINDS + 1]; /* NULL at the end */
/* The packet node sends: header (type, tree, len data flits, SRC node, tag) and data. */
void tc_wl_packet(tc_flit *pkt, int type, int node, int tree, int len, uint32_t tag);

/* Where a run is, for a progress bar: called every few thousand cycles and as each
 * operation completes. */
typedef struct {
    uint64_t cycle;           /* cycles simulated */
    uint64_t delivered, due;  /* PE deliveries so far, and of the whole run */
    int ops_done, ops;
} tc_wl_progress;
typedef void (*tc_wl_progress_fn)(void *ctx, const tc_wl_progress *p);

/* Runs w on n (its routing table written); progress(ctx, ...) is called now and then
 * if not NULL. 0 if every operation completed without error reports; otherwise -1
 * and res->msg says why. Free res with tc_wl_result_free(). */
int tc_wl_run(tc_net *n, const tc_row *rows, const tc_workload *w, tc_wl_result *res, tc_wl_progress_fn progress,
              void *ctx);
void tc_wl_result_free(tc_wl_result *res);

#endif
