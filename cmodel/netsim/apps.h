/* Applications on the simulated torus (tcnet workload=spmv, heat, trace): the
 * communication of a whole program timed on the collective subnet (impl hw, the
 * cycle-exact model) and on the point-to-point baseline (cmodel/netsim/p2p.c), with the
 * compute time between. Where a cycle-by-cycle run of a large data movement does
 * not fit, a steady-state model replaces it: the fill (one packet's latency, itself
 * simulated) plus the busiest channel's flits at a streaming rate calibrated on
 * exact runs. Every time says which it is. See docs/applications.md. */
#ifndef TC_APPS_H
#define TC_APPS_H

#include <stdint.h>
#include <stdio.h>

#include "../config.h"
#include "../net.h"
#include "p2p.h"
#include "workload.h"

/* Floating-point operations the shipped kernels (tools/tckern.c) do per unit of work:
 * SpMV, a multiply and an add per nonzero; heat, per cell and step (counted in the
 * kernel's comment). */
#define TC_SPMV_FLOPS_NZ 2
#define TC_HEAT_FLOPS_CELL 16

typedef struct {
    tc_net *net;
    tc_row *rows;         /* the table the net holds (tc_app_table changes both) */
    const tc_topo *t;
    tc_params p;
    tc_p2p m;
    int exact;            /* 0: where it fits (auto), 1: always, 2: never */
    double exact_limit;   /* flit-hops a cycle-by-cycle run may move (p2p: 8x, it is an event model) */
    double hw_rate, p2p_rate; /* the model's streaming rate, flits a cycle on the busiest channel */
    int rule;             /* spmv, heat: the baseline's algorithm, TC_P2P_PICK_AUTO (the fastest), _OMPI or _MPICH */
    uint64_t max_cycles;
    uint64_t deliveries;  /* packets the PEs took in the last tc_app_run_hw */
    uint8_t rid_next[TC_TREES]; /* per tree: the ReduceId its PEs use next (reduces run so far, mod red_rids) */
    char err[256];
} tc_app;

typedef struct {
    uint64_t cycles;      /* the time taken: the exact run's where there is one, else the model's */
    int exact;            /* 1: simulated (hw cycle by cycle, p2p by its event model); 0: modelled */
    uint64_t model;       /* the steady-state model's cycles (0 where it does not apply) */
    uint64_t fill, busiest; /* its terms: fill cycles, busiest channel's flits */
    double flit_hops;     /* link flits the operation moves (the cost of an exact run) */
    uint64_t deliveries;  /* exact runs on the subnet: packets delivered to PEs */
} tc_app_time;

/* An all-gather in which every node sends `packets` packets of 7 data flits: on the
 * subnet's 16 trees (node k on tree k % 16; exact runs by the packet engine) ... */
int tc_app_allgather_hw(tc_app *a, int packets, tc_app_time *r);
/* ... and by algorithm alg over unicast (cmodel/netsim/p2p_coll.c, with a->m.cost), every
 * node's part `flits` data flits: simulated where it fits, else tc_p2p_coll_model's
 * estimate. 0, or -1 and a->err. */
int tc_app_allgather_p2p(tc_app *a, tc_p2p_alg alg, int flits, tc_app_time *r);
/* One workload (w->repeat operations, one after another, or a stream) on the
 * subnet, cycle by cycle: *cycles from the first start to the last delivery. 0, or
 * -1 and a->err. */
int tc_app_run_hw(tc_app *a, const tc_workload *w, uint64_t *cycles);
/* The same, to the last delivery at node `at` (every operation's result there). */
int tc_app_run_hw_at(tc_app *a, const tc_workload *w, int at, uint64_t *cycles);
/* Every tree planned again with only the nodes pe[k] != 0 taking part (NULL: all):
 * cmodel/netsim/plan.h TC_PLAN_MEMBERS, into a->rows and the net. */
void tc_app_table(tc_app *a, const uint8_t *pe);

/* tcnet's entry for workload = spmv, heat or trace, with its configuration (the keys
 * tcnet declares), the network and its table built; the report on stdout, a summary
 * into json if not NULL. 0, 1 if a run failed, 2 for bad input (a message on stderr). */
int tc_app_main(const tc_config *cfg, tc_net *n, tc_row *rows, FILE *json);

#endif
