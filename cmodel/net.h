/* A torus of routers joined by links with latency; the PE side of every node sits
 * behind injection and ejection channels with their own latency (rtl/tc_torus.v). */
#ifndef TC_NET_H
#define TC_NET_H

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "router.h"
#include "table.h"
#include "topo.h"

/* The parameters after size are those of cmodel/params.def, their defaults and
 * ranges there. */
typedef struct {
    int ndims;
    int size[TC_MAX_DIMS];
    int link_lat;   /* cycles, router output to neighbour input */
    int inj_lat;    /* cycles, PE to router (PCIe) */
    int ej_lat;     /* cycles, router to PE */
    int slots;      /* packet slots per VC buffer of a link input, and in the result and report buffers */
    int inj_slots;  /* packet slots in the PEGroup FIFO */
    int pe_credits; /* packets the PE's ejection buffer holds */
    int red_flits;  /* data flits of a reduce the Reducer holds per (TreeId, ReduceId) */
    int red_rids;   /* ReduceIds of a tree at the Reducer: the reduces of a tree in flight to a parent */
    int red_slices; /* Reducer slices: tree t is reduced by slice t mod red_slices */
    int plant;      /* planted bugs, TC_PLANT_* (0: none; for the tests of the checkers) */
    int mcast;      /* TC_MCAST_*: the multicast alternatives the C model can measure (0: the design) */
} tc_params;

/* What a PE drives into its node, and what it sees, in one cycle. */
typedef struct {
    tc_wire inj;     /* a flit injected (vc ignored) */
    uint8_t ej_cred; /* one ejected packet taken, its buffer entry free again */
} tc_pe_in;

typedef struct {
    tc_wire ej;       /* a flit ejected */
    uint8_t inj_cred; /* a PEGroup FIFO slot freed */
} tc_pe_out;

typedef struct tc_net tc_net;

#define TC_MAX_LAT 100000 /* cycles, of any latency */

/* The 4x4 torus, every parameter of cmodel/params.def at its default. */
void tc_params_default(tc_params *p);
/* -1 and a message naming the bad parameter if p is not valid. */
int tc_params_check(const tc_params *p, char *err, size_t errlen);
/* Every parameter of cmodel/params.def from c, which declares them (cmodel/param_keys.h). */
void tc_params_from_config(tc_params *p, const tc_config *c);
/* NULL and a message naming the bad parameter if p is not valid. */
tc_net *tc_net_new(const tc_params *p, char *err, size_t errlen);
void tc_net_free(tc_net *n);
const tc_topo *tc_net_topo(const tc_net *n);
const tc_params *tc_net_params(const tc_net *n);
int tc_net_nports(const tc_net *n);
/* Writes one routing-table row of one node (the RTL's configuration port). */
void tc_net_cfg(tc_net *n, int node, int tree, tc_row row);
/* Top-level outputs of the current cycle: they depend on registered state only. */
void tc_net_pe_out(const tc_net *n, int node, tc_pe_out *out);
void tc_net_pe_in(tc_net *n, int node, const tc_pe_in *in);
/* Ends the PEs' cycle. Observation records of this cycle are written if obs is not
 * NULL: node k's record starts at obs + k * TC_OBS_WORDS(nports, red_slices). */
void tc_net_step(tc_net *n, uint32_t *obs);
/* Lookahead: nothing a router does reaches another router or a PE sooner than the
 * smallest of the latencies, so with it on (1) the routers lag the PEs and are
 * evaluated that many cycles at a time, one router after another, its state in the
 * cache (at most TC_NET_MAX_LOOKAHEAD; the PEs see and drive the same in every cycle).
 * Off (0, the default), every tc_net_step() evaluates them. Returns the cycles a sweep
 * takes. tc_net_sync() brings the routers to the PEs' cycle: the routers' state
 * (tc_net_link_flits, tc_net_explain, tc_net_where) is of that cycle only after it;
 * tc_net_fault() may be found up to the lookahead late. */
#define TC_NET_MAX_LOOKAHEAD 64
int tc_net_lookahead(tc_net *n, int on);
void tc_net_sync(tc_net *n);
uint64_t tc_net_cycle(const tc_net *n);
/* The first broken invariant of the network (lemma 1: the barrier phases of
 * neighbours differ by at most 1), or NULL. */
const char *tc_net_fault(const tc_net *n);
/* The nodes whose PE sees a flit or a credit this cycle (tc_net_pe_out() is zero for
 * all others; a node may be listed twice). */
size_t tc_net_pe_active(const tc_net *n, const uint32_t **nodes);
/* The progress watchdog's report: what every busy router waits for, summed by kind,
 * and a cycle of waits (node, unit, VC, tag) if there is one. Returns the length of
 * the cycle found, 0 if none. */
int tc_net_explain(const tc_net *n, FILE *f);
/* Where a packet with tag is held now (units' buffers and output registers), into
 * buf; "" if nowhere. */
const char *tc_net_where(const tc_net *n, uint32_t tag, char *buf, size_t len);
/* 1 when no packet, flit or credit is anywhere in the network (every router idle, no
 * link, PCIe or PE-side arrival due, none for the PEs to take this cycle): the only
 * time a routing table may be rewritten
 * without a packet in flight meeting the new one. Brings the routers in step with
 * the PEs (tc_net_sync). */
int tc_net_quiet(tc_net *n);
/* Nothing of the PEs' packets left: quiet but for the credit block's reports (and the
 * ejection credits they and the last packets bring back). Reports come every
 * TC_REPORT_CYCLES whatever the traffic, so with a report's round trip to the PE
 * longer than that (EjLat above about 2040) the network is never quiet. */
int tc_net_settled(tc_net *n);
/* Flits node has sent on its link output port since reset. */
uint64_t tc_net_link_flits(const tc_net *n, int node, int port);
/* What Reducer slice `slice` of node has done since reset (tc_red_stats). */
tc_red_stats tc_net_red_stats(const tc_net *n, int node, int slice);

#endif
