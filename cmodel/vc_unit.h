/* An input unit of a router, the twin of rtl/tc_vc_unit.v: a buffer of whole packets
 * and the routing of its head packet (BW, RC, FR; SA is the router's).
 * Units: u = 2*port + vc is the VCUp (vc 0) or VCDown (vc 1) buffer of link input
 * `port`; u = 2*nports is the Broadcaster behind the PEGroup FIFO (PE injection);
 * u = 2*nports + 1 + k is the result buffer of Reducer slice k (k < ns, the slices);
 * u = 2*nports + 1 + ns holds the credit block's packets (credits for the children,
 * reports and errors for the PE).
 * Outputs: o < nports are the links, o = nports the ejection port to the PE,
 * o = nports + 1 + k the input of Reducer slice k. Slice k reduces the trees with
 * TreeId mod ns = k. */
#ifndef TC_VC_UNIT_H
#define TC_VC_UNIT_H

#include <stdint.h>

#include "format.h"
#include "table.h"
#include "topo.h"

#define TC_MAX_SLICES 4
#define TC_NUNITS(np, ns) (2 * (np) + 2 + (ns))
#define TC_NOUTS(np, ns) ((np) + 1 + (ns))
#define TC_U_BCAST(np) (2 * (np))
#define TC_U_RESULT(np, k) (2 * (np) + 1 + (k))
#define TC_U_REPORT(np, ns) (2 * (np) + 1 + (ns))
#define TC_O_PE(np) (np)
#define TC_O_RED(np, k) ((np) + 1 + (k))
#define TC_MAX_UNITS TC_NUNITS(TC_MAX_PORTS, TC_MAX_SLICES)
#define TC_MAX_OUTS TC_NOUTS(TC_MAX_PORTS, TC_MAX_SLICES)
#define TC_MAX_SLOTS 64

typedef struct {
    uint8_t valid, vc;
    tc_flit flit;
} tc_wire;

/* The buffer is SRAM-shaped: one write port (BW), one read port with a synchronous
 * read (the address in one cycle, the flit in `dout` the next). The headers of the
 * head packet and the next one are kept in registers (hdr, valid bits hv), captured
 * as they are written, or, for the packet after the next, read ahead in the cycle the
 * head is freed (the read port is idle then), so that the next packet is routed
 * while the head's last flit leaves and the outputs start it the cycle after. The read port streams one pass of the head packet at a time: every
 * output granted in the pass's first cycle takes the same flit each cycle. */
typedef struct {
    tc_flit *mem;               /* nslots * TC_SLOT_FLITS flits: the SRAM */
    uint8_t nslots;             /* its depth in packet slots */
    uint8_t vals;               /* it takes a PE's packets of values (VALS): the Broadcaster */
    uint8_t wr_slot, wr_idx, wr_len, rd_slot;
    uint8_t routed;  /* route of the head packet decided, copies pending */
    uint8_t drop;    /* dropping the packet being received (it found no free slot) */
    uint8_t out_vc;  /* VC of the link copies of the head packet */
    uint8_t hv;      /* bit i: hdr[i] holds the header of slot rd_slot + i */
    uint8_t pf;      /* a header read ahead, into hdr[1] next cycle */
    uint8_t rd_idx;  /* the flit of the head packet a pass's outputs load this cycle, 0: no pass */
    uint16_t pend;   /* outputs still to be granted */
    uint32_t wr_tag;
    tc_flit hdr[2];
    tc_flit dout;    /* the read port's data register */
    uint8_t full[TC_MAX_SLOTS]; /* slot holds a whole packet */
} tc_unit;

/* The units' signals of one cycle (tc_router.v's unit_* wires): bit u of route, free,
 * ovf and drop; per unit its head header, RC's outputs and error, the outputs that
 * granted it a copy, the flit written into it (NULL: none). */
typedef struct {
    unsigned route, free, ovf, drop, ahead; /* ahead: the route is of the next packet (the head is freed) */
    const tc_flit *head[TC_MAX_UNITS];      /* the header RC reads (rc_hdr: a copy, as the commits change hdr) */
    tc_flit rc_hdr[TC_MAX_UNITS];
    int rd[TC_MAX_UNITS];                   /* the read port's address this cycle, -1: none */
    const tc_wire *wr[TC_MAX_UNITS];
    unsigned mask[TC_MAX_UNITS], vc[TC_MAX_UNITS], err[TC_MAX_UNITS], grant[TC_MAX_UNITS];
} tc_unit_sig;

static inline const tc_flit *tc_vc_unit_head(const tc_unit *un) { return &un->hdr[0]; }
/* FR: every copy granted and no pass still to read a flit (busy: an output streams
 * the head packet and has flits of it to come), so the slot is freed as the last
 * flit leaves the SRAM. */
static inline unsigned tc_vc_unit_free(const tc_unit *un, unsigned busy) { return un->routed && !un->pend && !busy; }
/* RC this cycle: a whole head packet not yet routed, or, as the head is freed, the
 * next one if it is whole and its header is at hand. 2: the next one. */
static inline unsigned tc_vc_unit_do_route(const tc_unit *un, unsigned free)
{
    if (free) {
        unsigned next = un->rd_slot + 1u == un->nslots ? 0u : un->rd_slot + 1u;
        return un->full[next] && (un->hv & 2) ? 2u : 0u;
    }
    return !un->routed && un->full[un->rd_slot] && (un->hv & 1);
}

/* The unit holds or receives a packet, or has a pass or a read-ahead pending: without
 * it, and with no flit written, a cycle changes nothing in the unit and drives nothing. */
static inline unsigned tc_vc_unit_live(const tc_unit *un)
{
    return un->wr_idx || un->routed || un->full[un->rd_slot] || un->pf || un->rd_idx; /* a FIFO: any full slot means the head is */
}

/* RC: the outputs (bit o) that unit u of router id sends a head packet with header h
 * to, the VC of its link copies; or the error that drops it. ph_err is tc_phase's
 * verdict on a barrier request or phase packet (tc_phase_err). */
unsigned tc_vc_unit_route(const tc_row *table, unsigned id, int np, int ns, unsigned red_flits, unsigned red_rids, int u,
                          unsigned ph_err, const tc_flit *h, unsigned *mask, unsigned *vc);
/* BW of a flit s->wr[u] (not NULL): sets bit u of s->ovf (a header that finds no
 * free slot) and of s->drop (a flit of a dropped packet). */
void tc_vc_unit_bw(const tc_unit *un, int u, tc_unit_sig *s);
/* A pass has flits still to read: no output may start another (stream_o). */
/* A packet's data flits in unit un: tc_wire_len in the Broadcaster, LEN elsewhere
 * (tc_vc_unit.v's unit_len). */
static inline unsigned tc_unit_len(const tc_unit *un, const tc_flit *h) { return un->vals ? tc_wire_len(h) : TC_HGET(h, LEN); }
static inline unsigned tc_vc_unit_stream(const tc_unit *un) { return un->rd_idx && un->rd_idx < tc_unit_len(un, &un->hdr[0]); }
/* The read port's address this cycle: the next flit of the pass (granted: some output
 * granted a copy this cycle, a new pass), or, as the head is freed, a header read
 * ahead. -1: no read that matters (the RTL reads flit 1 of the head whenever a pass
 * may start, without waiting for the grants; only a pass uses it). */
int tc_vc_unit_read(const tc_unit *un, unsigned granted, unsigned free);
/* Next state: RC's decision registered, grants taken, FR, the read port, BW. */
void tc_vc_unit_commit(tc_unit *un, int u, const tc_unit_sig *s);
/* Packets held, whole or being received (npkt_o: tc_phase's fence). */
unsigned tc_vc_unit_npkt(const tc_unit *un);
/* Unit u's observation fields of this cycle, before the commit. */
void tc_vc_unit_obs(const tc_unit *un, int u, const tc_unit_sig *s, uint32_t *obs);

#endif
