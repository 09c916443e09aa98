/* One router of the collective subnet, cycle-exact with rtl/tc_router.v.
 * Units: u = 2*port + vc is the VCUp (vc 0) or VCDown (vc 1) buffer of link input
 * `port`; u = 2*nports is the Broadcaster behind the PEGroup FIFO (PE injection);
 * u = 2*nports + 1 is the result buffer the Reducer writes; u = 2*nports + 2 holds
 * the credit block's packets (credits for the children, reports and errors for the PE).
 * Outputs: o < nports are the links, o = nports the ejection port to the PE,
 * o = nports + 1 the Reducer's input. */
#ifndef TC_ROUTER_H
#define TC_ROUTER_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "table.h"
#include "topo.h"

#define TC_NUNITS(np) (2 * (np) + 3)
#define TC_NOUTS(np) ((np) + 2)
#define TC_U_BCAST(np) (2 * (np))
#define TC_U_RESULT(np) (2 * (np) + 1)
#define TC_U_REPORT(np) (2 * (np) + 2)
#define TC_O_PE(np) (np)
#define TC_O_RED(np) ((np) + 1)
#define TC_MAX_UNITS TC_NUNITS(TC_MAX_PORTS)
#define TC_MAX_OUTS TC_NOUTS(TC_MAX_PORTS)
#define TC_MAX_SLOTS 8
#define TC_RIDS 16
#define TC_OBS_BITS(np) (TC_NUNITS(np) * TC_OBS_UNIT_W + TC_NOUTS(np) * TC_OBS_OUT_W + TC_OBS_RED_W + TC_OBS_PH_W)
#define TC_OBS_PH_LSB(np) (TC_NUNITS(np) * TC_OBS_UNIT_W + TC_NOUTS(np) * TC_OBS_OUT_W + TC_OBS_RED_W)
#define TC_OBS_WORDS(nports) ((TC_OBS_BITS(nports) + 31) / 32)
#define TC_OBS_MAX_WORDS TC_OBS_WORDS(TC_MAX_PORTS)

typedef struct {
    uint8_t valid, vc;
    tc_flit flit;
} tc_wire;

typedef struct {
    tc_flit *mem;               /* slots * TC_SLOT_FLITS flits */
    uint8_t full[TC_MAX_SLOTS]; /* slot holds a whole packet */
    uint8_t wr_slot, wr_idx, wr_len, rd_slot;
    uint8_t routed;  /* route of the head packet decided, copies pending */
    uint8_t drop;    /* dropping the packet being received (it found no free slot) */
    uint8_t out_vc;  /* VC of the link copies of the head packet */
    uint16_t pend;   /* outputs still to be granted */
    uint32_t wr_tag;
} tc_unit;

typedef struct {
    uint8_t busy, owner, cnt, len, ptr;
    uint16_t cred[2]; /* per VC for a link; cred[0] only for the PE */
    tc_wire q;        /* output register */
} tc_outp;

/* One (TreeId, ReduceId) of the Reducer: contributions counted, which sources have
 * contributed (bit = link port, bit 8 = the PE), and the first one's header fields
 * that every other contribution must repeat. */
typedef struct {
    uint8_t cnt, type, op, lane, len, poison;
    uint8_t ready;  /* complete, its result held here until the result buffer takes it */
    uint8_t fenced; /* ... and a barrier's phase packet waits for it */
    uint16_t seen, dst;
} tc_red_entry;

/* The Reducer: entries and partial results; the contribution being received; the
 * copy of a held result into the result buffer. */
typedef struct {
    tc_red_entry *ent; /* [tree][rid] */
    tc_flit *data;     /* [tree][rid][1 + red_flits]: a held result's header, then the data flits */
    uint8_t idx;       /* flit of the contribution expected next; 0: a header */
    uint8_t tree, rid, len, op, lane, first, last;
    uint8_t skip; /* a reused ReduceId: the contribution is ignored */
    uint8_t keep; /* a contribution that disagreed: the stored values are kept */
    uint8_t fast; /* the last contribution: its result goes straight into the result buffer */
    uint8_t cp_left, cp_idx, cp_slot, cp_ptr; /* copy: flits still to write, next flit, entry; round-robin pointer */
    uint16_t nready, nfenced; /* entries ready, and fenced */
} tc_reducer;

/* An error waiting to be reported to the PE. */
typedef struct {
    uint8_t code, tree, rid, unit;
    uint32_t tag;
} tc_errrec;

/* Phase counters of the multiphase barrier (seed 000; tc_phase.v). A phase packet
 * (or the barrier-complete packet for the PE) is made only after every packet that
 * was in the router when it became due has left: the fence. */
typedef struct {
    uint8_t active, send_due, done_due, mode;
    uint16_t target, ph;         /* phases this barrier needs, and completed so far */
    uint16_t total;              /* phases completed since reset */
    uint8_t cnt[TC_MAX_PORTS];   /* phase packets counted per link input, not yet used (0..2) */
    uint8_t fence[TC_MAX_UNITS]; /* packets per unit that must leave first */
    uint32_t tag;                /* the PE's request, returned with the completion */
} tc_phase;

typedef struct {
    tc_wire link[TC_MAX_PORTS];
    uint8_t cred[TC_MAX_PORTS]; /* bit vc: a slot of that VC freed downstream */
    tc_wire inj;
    uint8_t ej_cred;
} tc_router_in;

/* Planted bugs, for the tests that show the deadlock checker and the watchdog find
 * what they must: the report buffer's copies take a ring's last slot (one credit);
 * a contribution waits for a free result-buffer slot (the Reducer before it held
 * results). */
enum { TC_PLANT_REPORT_ONE = 1, TC_PLANT_RESULT_SLOT = 2 };

typedef struct {
    uint16_t id;
    uint8_t nports, slots, red_flits;
    uint8_t plant; /* TC_PLANT_* bits: 0 but in the planted-bug tests */
    tc_row row[TC_TREES];
    tc_unit u[TC_MAX_UNITS];
    tc_outp o[TC_MAX_OUTS];
    uint8_t cred_q[TC_MAX_PORTS]; /* credit returned upstream, bit vc */
    uint8_t inj_cred_q;
    tc_reducer red;
    tc_errrec errq[TC_ERRQ];
    uint8_t nerr, lost;
    /* credit block */
    uint16_t done[TC_TREES];     /* reduces completed here, per tree (wraps) */
    uint8_t since[TC_TREES];     /* results since the last credit to the children */
    uint8_t cred_due[TC_TREES];  /* credit packets due to the children */
    uint8_t up_cred[TC_TREES];   /* results this node may still send to its parent */
    uint8_t total, report_due;
    uint16_t cyc;
    uint8_t gen_idx;             /* data flits of the report being written, 0: none */
    uint16_t seq;                /* credits and reports made, for their tags (12 bits) */
    tc_flit gen_data[2];
    tc_phase ph;
    uint16_t diam;               /* K of a BAR_DIAM barrier: the torus diameter, at least 1 */
} tc_router;

/* Memory a router needs, zeroed: buf for its buffers, tc_router_buf_flits() flits;
 * red for the Reducer's partial results, tc_router_red_flits() flits; ent,
 * TC_TREES * TC_RIDS entries. diam is set to 1; a network sets it to its diameter. */
size_t tc_router_buf_flits(int nports, int slots);
size_t tc_router_red_flits(int red_flits);
void tc_router_reset(tc_router *r, int id, int nports, int slots, int pe_credits, int red_flits,
                     tc_flit *buf, tc_flit *red, tc_red_entry *ent);
/* One clock cycle: evaluate from the registered state and in, then commit.
 * obs (TC_OBS_WORDS words, or NULL) receives this cycle's observation record. */
void tc_router_cycle(tc_router *r, const tc_router_in *in, uint32_t *obs);
/* A router with nothing in its buffers, outputs, Reducer input, credit block queue
 * or phase counters' work list: with no input this cycle, tc_router_cycle() would
 * only advance the report timer, which tc_router_idle_cycle() does alone. */
int tc_router_idle(const tc_router *r);
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
unsigned tc_router_red_waits_slot(const tc_router *r);

/* What a router waits for, for the progress watchdog: one record per head packet
 * that cannot leave its unit (or per credit-block duty that cannot be written). */
enum {
    TC_WAIT_LINK,   /* a unit's head: credits of VC vc on link output out (the neighbour's input unit) */
    TC_WAIT_UPCRED, /* a result held in the Reducer (unit = TC_NUNITS + 1) for the parent of tree, through
                       link out: a CREDIT from that parent */
    TC_WAIT_PE,     /* a unit's head: ejection credits (the PE takes no packet) */
    TC_WAIT_RESULT, /* a result held in the Reducer (unit = TC_NUNITS + 1), or with TC_PLANT_RESULT_SLOT a
                       contribution: a free result-buffer slot */
    TC_WAIT_REPORT, /* the credit block (unit = TC_NUNITS): room in the report buffer */
    TC_WAIT_FENCE,  /* the phase counters (unit = TC_NUNITS): unit out (TC_NUNITS + 1: the Reducer) holds
                       fenced packets */
    TC_WAIT_PHASE,  /* the phase counters (unit = TC_NUNITS): a phase packet from link input out */
};
typedef struct {
    uint8_t kind, unit, out, vc, tree, need, have;
    uint32_t tag; /* of the waiting head packet */
} tc_wait;
/* Up to max waits of r into w; returns how many there are. */
int tc_router_waits(const tc_router *r, tc_wait *w, int max);
const char *tc_unit_name(int nports, int unit, char *buf, size_t len);
const char *tc_out_name(int nports, int out, char *buf, size_t len);

#endif
