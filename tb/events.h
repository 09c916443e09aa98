/* Timing diagrams: every packet's passage through every observation point, decoded
 * from the routers' observation records and the PE models, and the reference
 * diagram of each block (docs/timing.md) that both RTL and C model must follow. */
#ifndef TC_EVENTS_H
#define TC_EVENTS_H

#include <stdint.h>
#include <stdio.h>

#include "../cmodel/net.h"

typedef enum {
    TC_EV_INJ,     /* PE sends the header (idx: -) */
    TC_EV_ARRIVE,  /* header written into unit idx */
    TC_EV_FULL,    /* tail written: whole packet in unit idx */
    TC_EV_ROUTE,   /* unit idx read the table and built the output list (err) */
    TC_EV_GRANT,   /* output idx granted a copy (src: the unit) */
    TC_EV_FREE,    /* unit idx freed the slot */
    TC_EV_EJ,      /* header reached the PE */
    TC_EV_DELIVER, /* tail reached the PE */
    TC_EV_DROP,    /* header found no free slot in unit idx: packet dropped */
    TC_EV_REDUCE,  /* a contribution's header reached the Reducer (idx: 1 first, 2 last, 4 its result held);
                      or idx 8: a held result's header is copied into the result buffer */
    TC_EV_PHASE,   /* phase counters (idx: 1 enter, 2 phase completed, 4 phase packet sent, 8 barrier
                      complete; tag: TAG_PHASE | node << 12 | phases completed before this cycle) */
    TC_EV_KINDS
} tc_ev_kind;

typedef struct {
    uint64_t cycle;
    uint32_t tag;
    int32_t node;
    uint8_t kind, idx, src, err;
} tc_event;

typedef struct {
    tc_event *ev;
    size_t n, cap;
    int nodes, nports, nslices;
    uint32_t *head_tag; /* [node][unit]: tag of the head packet, set at ROUTE */
} tc_evlog;

void tc_evlog_init(tc_evlog *l, int nodes, int nports, int nslices);
void tc_evlog_free(tc_evlog *l);
void tc_evlog_add(tc_evlog *l, uint64_t cycle, int node, int kind, int idx, int src, int err, uint32_t tag);
/* Appends the events of one node's observation record of one cycle. */
void tc_evlog_decode(tc_evlog *l, uint64_t cycle, int node, const uint32_t *obs);
const char *tc_ev_name(int kind);
/* "VCDown X-", "Broadcaster", "Result"; "link Y+", "PE", "Reducer" */
void tc_event_print(FILE *f, int nports, int nslices, const tc_event *e);

/* Packet lengths (data flits) by tag, needed by the reference diagram; -1: not
 * one length (the tag is not checked). A floating-point sum's result is converted at
 * the root, so its length depends on where the packet is: dir TC_LEN_UP for a
 * contribution (the Broadcaster, VCUp), TC_LEN_DOWN down the tree (VCDown, the PE's
 * ejection), TC_LEN_RESULT in a result buffer, at node (up, or down at the root);
 * TC_LEN_RESULT_WRITE: the cycles from the header's write into that result buffer to the
 * tail's, the length but for a converting copy, which writes the tail TC_CV_LAT cycles
 * after the last element's flit 1 is read; TC_LEN_INJ: as the PE sends it (the
 * Broadcaster), IEEE values if its header says VALS. */
enum { TC_LEN_UP, TC_LEN_DOWN, TC_LEN_RESULT, TC_LEN_RESULT_WRITE, TC_LEN_INJ };
typedef int (*tc_len_of)(void *ctx, uint32_t tag, int node, int dir);

/* Checks every packet against the reference diagrams of docs/timing.md. exact: no
 * packet ever waited (a lone packet), so every wait must be 0. Returns violations;
 * prints the first few to f. */
int tc_ref_check(const tc_evlog *l, const tc_topo *t, const tc_params *p, int exact,
                 tc_len_of len_of, void *ctx, FILE *f);

/* Writes the passage of one packet through one unit of one node as a WaveDrom diagram. */
void tc_wavedrom(FILE *f, const tc_evlog *l, int node, int unit, uint32_t tag, int len, const char *title);
/* The same, data flit k (1..len) written wr[k - 1] cycles after the header, not k. */
void tc_wavedrom_writes(FILE *f, const tc_evlog *l, int node, int unit, uint32_t tag, int len, const int *wr,
                        const char *title);
/* Writes the Reducer of one node through one reduce (its contributions' tag). */
void tc_wavedrom_reducer(FILE *f, const tc_evlog *l, int node, uint32_t tag, int len, const char *title);
/* Writes the phase counters of one node through the barriers of the log. */
void tc_wavedrom_phase(FILE *f, const tc_evlog *l, int node, const char *title);

#endif
