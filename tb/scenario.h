/* Co-simulation scenarios: a routing table and a stimulus (packets to inject, PE
 * stalls, route errors expected), the same for the RTL and the C model. */
#ifndef TC_SCENARIO_H
#define TC_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "../cmodel/table.h"
#include "pe.h"

/* An error report the PE of node must receive (node -1: any node, at least once). */
typedef struct {
    uint32_t tag;
    int node, err;
} tc_experr;

/* What the PEs must receive for one tag: a broadcast's packet, or a reduce's result
 * (then the header's SRC is not compared: the result leaves from the root). */
typedef struct {
    int nflits;
    tc_flit flit[TC_SLOT_FLITS];
    int src;    /* the node that injected a broadcast */
    int none;   /* dropped at its source: nobody receives it */
    int poison; /* a reduce whose contributions disagreed: delivered marked POISON */
    int up_nflits, root; /* a floating-point sum converted at its tree's root (node root): the
                            contributions' flits, more than the result's (0: the same) */
    int inj_nflits;      /* a floating-point sum the PEs send as values (VALS): their packets'
                            flits, fewer than the elements' that go up (0: the same) */
    uint32_t before; /* sent before this barrier (tag): every copy arrives before it completes there */
} tc_expect;

typedef struct {
    const char *name;
    int exact;  /* a lone packet: the reference diagram must hold with zero waits */
    tc_pkt *pkt;
    int npkt, pkt_cap;
    tc_expect *exp; /* by tag - 1: every packet of a broadcast or reduce shares its tag */
    int nexp, exp_cap;
    tc_stall *stall; /* per node: stall[node] ([0, 0) if none) */
    tc_experr *experr;
    int nexperr;
    int rogue_node; /* a PE that ignores injection credits, or -1: its packets may be
                       dropped, each one whole (never some copies) */
} tc_stim;

extern const char *const tc_scenario_names[];
extern const char *const tc_scenario_descs[]; /* a line on each, as tc_scenario_names */
/* Whether the scenario is written for the testbench table's trees (cmodel/netsim/plan.h,
 * TC_PLAN_TESTBENCH: its roots, members and transit nodes), so that it cannot run on
 * random tables. */
int tc_scenario_default_table_only(const char *name);
/* Why the scenario cannot run on torus t (a 1-node torus) with parameters p (its
 * reduces longer than p->red_flits), into buf or a constant; NULL if it can. */
const char *tc_scenario_refuse(const char *name, const tc_topo *t, const tc_params *p, char *buf, size_t len);
/* scenario stream: the bytes tree 0's root broadcasts, in 586 packets of 7 data flits */
#define TC_STREAM_BYTES 65536
/* 0, or -1 if there is no such scenario. p: the buffers' depths, which a PE that
 * ignores its credits must overrun. */
int tc_scenario_build(const char *name, const tc_topo *t, const tc_row *rows, uint64_t seed, const tc_params *p,
                      tc_stim *s);
void tc_stim_free(tc_stim *s);
/* Why the stimulus cannot run with red_flits (a contribution it expects to complete
 * is longer), into buf; NULL if it can. */
const char *tc_stim_too_long(const tc_stim *s, int red_flits, char *buf, size_t len);

/* Header of a broadcast; data flits are filled from the tag. */
void tc_make_bcast(tc_pkt *p, int node, int tree, int len, uint32_t tag, uint64_t cycle);
/* A reduce or allreduce: one contribution from every Pe node of the tree, injected at
 * cycle; returns its tag. Its ReduceId is given when the scenario is built: the
 * reduces of a tree take the ReduceIds in turn, in the order every PE injects them
 * (the PEs' contract, docs/deadlock.md). */
uint32_t tc_add_reduce(tc_stim *s, const tc_topo *t, const tc_row *rows, int type, int tree, int op, int lane,
                       int len, int dst, uint64_t cycle, uint64_t seed);

/* A barrier every node enters: mode TC_BAR_*, k (ignored with TC_BAR_DIAM); node k
 * enters at cycle[k] (cycle NULL: all at at), after the completion of barrier `after`
 * (0: none). The completion every PE must receive is expected; returns its tag. */
uint32_t tc_add_barrier(tc_stim *s, const tc_topo *t, int mode, int k, const uint64_t *cycle, uint64_t at,
                        uint32_t after);

#endif
