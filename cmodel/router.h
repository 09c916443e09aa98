/* One router of the collective subnet, cycle-exact with rtl/tc_router.v.
 * Units: u = 2*port + vc is the VCUp (vc 0) or VCDown (vc 1) buffer of link input
 * `port`; u = 2*nports is the Broadcaster behind the PEGroup FIFO (PE injection).
 * Outputs: o < nports are the links, o = nports is the ejection port to the PE. */
#ifndef TC_ROUTER_H
#define TC_ROUTER_H

#include <stdint.h>

#include "format.h"
#include "table.h"
#include "topo.h"

#define TC_MAX_UNITS (2 * TC_MAX_PORTS + 1)
#define TC_MAX_OUTS (TC_MAX_PORTS + 1)
#define TC_MAX_SLOTS 8
#define TC_OBS_BITS(nports) ((2 * (nports) + 1) * TC_OBS_UNIT_W + ((nports) + 1) * TC_OBS_OUT_W)
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

typedef struct {
    tc_wire link[TC_MAX_PORTS];
    uint8_t cred[TC_MAX_PORTS]; /* bit vc: a slot of that VC freed downstream */
    tc_wire inj;
    uint8_t ej_cred;
} tc_router_in;

typedef struct {
    uint16_t id;
    uint8_t nports, slots;
    tc_row row[TC_TREES];
    tc_unit u[TC_MAX_UNITS];
    tc_outp o[TC_MAX_OUTS];
    uint8_t cred_q[TC_MAX_PORTS]; /* credit returned upstream, bit vc */
    uint8_t inj_cred_q;
} tc_router;

/* mem must hold (2*nports+1) * slots * TC_SLOT_FLITS flits. */
void tc_router_reset(tc_router *r, int id, int nports, int slots, int pe_credits, tc_flit *mem);
/* One clock cycle: evaluate from the registered state and in, then commit.
 * obs (TC_OBS_WORDS words, or NULL) receives this cycle's observation record. */
void tc_router_cycle(tc_router *r, const tc_router_in *in, uint32_t *obs);

#endif
