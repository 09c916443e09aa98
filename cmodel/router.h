/* One router of the collective subnet, cycle-exact with rtl/tc_router.v, built like
 * it from its blocks: vc_unit.c (tc_vc_unit.v), reducer.c (tc_reducer.v),
 * credit_block.c (tc_credit_block.v), phase.c (tc_phase.v). The numbering of units
 * and outputs is in vc_unit.h. */
#ifndef TC_ROUTER_H
#define TC_ROUTER_H

#include <stddef.h>
#include <stdint.h>

#include "credit_block.h"
#include "phase.h"
#include "reducer.h"
#include "vc_unit.h"

/* Observation record: the units', the outputs', the Reducer slices', the phase counters' fields. */
#define TC_OBS_RED_LSB(np, ns, k) (TC_NUNITS(np, ns) * TC_OBS_UNIT_W + TC_NOUTS(np, ns) * TC_OBS_OUT_W + (k) * TC_OBS_RED_W)
#define TC_OBS_PH_LSB(np, ns) TC_OBS_RED_LSB(np, ns, ns)
#define TC_OBS_BITS(np, ns) (TC_OBS_PH_LSB(np, ns) + TC_OBS_PH_W)
#define TC_OBS_WORDS(np, ns) ((TC_OBS_BITS(np, ns) + 31) / 32)
#define TC_OBS_MAX_WORDS TC_OBS_WORDS(TC_MAX_PORTS, TC_MAX_SLICES)

typedef struct {
    uint8_t busy, owner, cnt, len, ptr;
    uint16_t cred[2]; /* per VC for a link; cred[0] only for the PE */
    tc_wire q;        /* output register */
} tc_outp;

typedef struct {
    tc_wire link[TC_MAX_PORTS];
    uint8_t cred[TC_MAX_PORTS]; /* bit vc: a slot of that VC freed downstream */
    tc_wire inj;
    uint8_t ej_cred;
} tc_router_in;

/* Planted bugs, for the tests that show the deadlock checker and the watchdog find
 * what they must: the report buffer's copies take a ring's last slot (one credit);
 * a contribution waits for a free result-buffer slot (the Reducer before it held
 * results); the credit block serves its duties by fixed priority (as it did before
 * they took turns; the deadlock checker's fairness premise, tc_credit_block_max_wait). */
enum { TC_PLANT_REPORT_ONE = 1, TC_PLANT_RESULT_SLOT = 2, TC_PLANT_FIXED_PRIO = 4 };

/* How a multicast's copies share the unit's one read port. PASSES is the design (the
 * RTL): each output grants on its own, those that grant together form a pass, a
 * late one is read again. The other two exist in the C model only, to measure the
 * choice (docs/bandwidth.md): SERIAL, one copy a pass, lowest output first; FORK,
 * every copy in one pass, granted together when all of the outputs are free with
 * credit, by one allocator that visits the units round-robin. */
enum { TC_MCAST_PASSES, TC_MCAST_SERIAL, TC_MCAST_FORK };

typedef struct {
    /* What every cycle of a busy router reads, first and together (a few cache lines);
     * the units, most of them empty, last. */
    uint16_t id;
    uint8_t nports, nslices, slots, red_flits, red_rids;
    uint8_t plant; /* TC_PLANT_* bits: 0 but in the planted-bug tests */
    uint8_t mcast, fork_ptr; /* TC_MCAST_*; FORK: the unit the allocator visits first */
    uint32_t live; /* bit u: unit u holds or receives a packet, or has a read pending (tc_unit_live); the
                      others are skipped, as nothing in them changes without a flit written */
    uint16_t diam; /* K of a BAR_DIAM barrier: the torus diameter, at least 1 */
    uint8_t cred_q[TC_MAX_PORTS]; /* credit returned upstream, bit vc */
    uint8_t cqmask;  /* bit p: cred_q[p] is not 0 */
    uint16_t qmask;  /* bit o: o[o].q is valid (so is every output that streams) */
    uint8_t inj_cred_q;
    tc_outp o[TC_MAX_OUTS];
    tc_reducer red[TC_MAX_SLICES]; /* the Reducer's slices: tree t is reduced by red[t % nslices] */
    tc_credit_block cb;
    tc_phase ph;
    tc_row row[TC_TREES];
    tc_unit u[TC_MAX_UNITS];
} tc_router;

/* Memory a router needs, zeroed: buf for its buffers, tc_router_buf_flits() flits (or
 * NULL: the caller sets each unit's mem, nslots * TC_SLOT_FLITS flits, before a flit is
 * written into it);
 * red for the Reducer's partial results, tc_router_red_flits() flits; ent,
 * TC_TREES * red_rids entries (the slices share both out, TC_TREES / slices trees
 * each). diam is set to 1; a network sets it to its diameter. */
size_t tc_router_buf_flits(int nports, int slices, int slots, int inj_slots);
size_t tc_router_red_flits(int red_flits, int red_rids);
void tc_router_reset(tc_router *r, int id, int nports, int slices, int slots, int inj_slots, int pe_credits,
                     int red_flits, int red_rids, tc_flit *buf, tc_flit *red, tc_red_entry *ent);
/* One clock cycle: evaluate from the registered state and in, then commit.
 * obs (TC_OBS_WORDS words, or NULL) receives this cycle's observation record. */
void tc_router_cycle(tc_router *r, const tc_router_in *in, uint32_t *obs);
/* A router with nothing in its buffers, outputs, Reducer input, credit block queue
 * or phase counters' work list: with no input this cycle, tc_router_cycle() would
 * only advance the report timer, which tc_router_idle_cycle() does alone. */
int tc_router_idle(const tc_router *r);
/* As tc_router_idle, but for the credit block's reports: nothing else held or due. */
int tc_router_settled(const tc_router *r);
void tc_router_idle_cycle(tc_router *r);

/* The routing and flow-control rules, as the cycle above applies them (the deadlock
 * checker reads them from here). tc_router_route: the outputs (bit o) that unit u
 * sends a head packet with header h to, the VC of its link copies; or the error that
 * drops it. tc_router_credits: the credits a copy from unit u to output o on vc needs
 * (1: it continues along its ring, or goes to the PE; 2: it enters a ring).
 * tc_router_red_waits_slot: whether a contribution waits for a free result-buffer
 * slot (only with TC_PLANT_RESULT_SLOT). */
unsigned tc_router_route(const tc_router *r, int u, const tc_flit *h, unsigned *mask, unsigned *vc);
unsigned tc_router_credits(const tc_router *r, int u, int o, unsigned vc);
/* The same for a router of np ports with the planted bugs plant (the packet engines). */
unsigned tc_credits_need(int np, int ns, unsigned plant, int u, int o, unsigned vc);
unsigned tc_router_red_waits_slot(const tc_router *r);

/* What a router waits for, for the progress watchdog: one record per head packet
 * that cannot leave its unit (or per credit-block duty that cannot be written).
 * unit TC_NUNITS stands for the credit block and phase counters, TC_NUNITS + 1 + k
 * for the results held in Reducer slice k. */
enum {
    TC_WAIT_LINK,   /* a unit's head: credits of VC vc on link output out (the neighbour's input unit) */
    TC_WAIT_UPCRED, /* a result held in the Reducer (unit = TC_NUNITS + 1 + k) for the parent of tree, through
                       link out: a CREDIT from that parent */
    TC_WAIT_PE,     /* a unit's head: ejection credits (the PE takes no packet) */
    TC_WAIT_RESULT, /* a result held in the Reducer (unit = TC_NUNITS + 1 + k), or with TC_PLANT_RESULT_SLOT a
                       contribution: a free slot in result buffer out */
    TC_WAIT_REPORT, /* the credit block (unit = TC_NUNITS): room in the report buffer */
    TC_WAIT_FENCE,  /* the phase counters (unit = TC_NUNITS): unit out (TC_NUNITS + 1 + k: slice k) holds
                       fenced packets */
    TC_WAIT_PHASE,  /* the phase counters (unit = TC_NUNITS): a phase packet from link input out */
    TC_WAIT_ORDER,  /* a result held in the Reducer (unit = TC_NUNITS + 1 + k): its tree's results leave in
                       ReduceId order, and ReduceId have of tree (the tree's next) has not left: that reduce
                       still lacks contributions */
    TC_WAIT_KINDS
};
typedef struct {
    uint8_t kind, unit, out, vc, tree, need, have;
    uint32_t tag; /* of the waiting head packet */
} tc_wait;
/* Up to max waits of r into w; returns how many there are. */
int tc_router_waits(const tc_router *r, tc_wait *w, int max);
const char *tc_unit_name(int nports, int slices, int unit, char *buf, size_t len);
const char *tc_out_name(int nports, int slices, int out, char *buf, size_t len);

#endif
