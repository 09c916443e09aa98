/* Processing-element model of the testbench: injects scheduled packets into its node
 * under injection credits, assembles ejected packets, and takes them out of its
 * ejection buffer one per cycle unless stalled (back-pressure). */
#ifndef TC_PE_H
#define TC_PE_H

#include <stdint.h>

#include "../cmodel/net.h"

typedef struct {
    uint64_t cycle; /* earliest cycle the PE starts to send it */
    int node;
    int nflits;     /* header + data */
    uint32_t after; /* the PE waits for the completion of this barrier (its tag) first; 0: none */
    uint32_t after_rx; /* ... and until it has received this tag (e.g. an allreduce's result); 0: none */
    uint32_t after_err; /* ... and the error report of this tag (pacing its refused packets); 0: none */
    /* A reduce contribution with a tag of its own (one the router refuses, or one
     * deliberately out of turn): it carries the ReduceId of reduce rid_of (a tag)
     * plus rid_skip (mod red_rids), plus red_rids if rid_beyond (one the Reducer
     * does not have), and is not a reduce of its tree itself. 0: its tag is its
     * reduce, whose ReduceId the scenario gives in turn (tb/scenario.c). */
    uint32_t rid_of;
    uint8_t rid_skip, rid_beyond;
    tc_flit flit[TC_SLOT_FLITS];
} tc_pkt;

typedef struct {
    uint64_t from, to; /* the PE takes no ejected packet in [from, to) */
} tc_stall;

/* What the PE tells the scoreboard and the event log. */
typedef struct {
    void *ctx;
    void (*inject)(void *ctx, int node, uint32_t tag, uint64_t cycle);  /* header sent */
    void (*eject)(void *ctx, int node, const tc_flit *hdr, uint64_t cycle); /* header received */
    void (*deliver)(void *ctx, int node, const tc_flit *f, int n, uint64_t cycle);
    void (*error)(void *ctx, int node, const char *msg, uint64_t cycle);
} tc_pe_sink;

typedef struct {
    int node, credits, capacity, held;
    int rogue; /* ignores injection credits (credit-violation scenario) */
    const tc_pkt **queue; /* this PE's packets, in cycle order */
    int nqueue, next, sent;
    const tc_stall *stall;
    int nstall;
    tc_flit rx[TC_SLOT_FLITS];
    int rx_n;
    uint32_t bar_done; /* the last barrier completed here (barrier tags grow in time) */
    /* Tags received, bit 0 of a nibble per tag: delivered (for after_rx); bit 1: an
     * error report of it (after_err). Allocated as they come; free it. */
    uint8_t *got;
    uint32_t ngot; /* bytes of got */
} tc_pe;

void tc_pe_init(tc_pe *pe, int node, int inj_credits, int ej_capacity);
/* One cycle: react to the node's outputs, drive its inputs. */
void tc_pe_cycle(tc_pe *pe, const tc_pe_out *out, tc_pe_in *in, uint64_t t, const tc_pe_sink *s);
int tc_pe_idle(const tc_pe *pe);

#endif
