/* The credit block and error reports, the twin of rtl/tc_credit_block.v. */
#ifndef TC_CREDIT_BLOCK_H
#define TC_CREDIT_BLOCK_H

#include "phase.h"
#include "rr_arb.h"

/* Credit packets owed to a tree's children, at most (a 2-bit count, due_q in the RTL):
 * red_rids results in flight, a credit every red_rids / 2: 2 can be owed at once
 * (docs/deadlock.md). */
#define TC_CRED_DUE_MAX 3
/* Results of a tree a credit packet is worth (tc_credit_block.v: 2^Lg), for a
 * window of red_rids results: the block's rule, which the deadlock checker reads. */
static inline unsigned tc_credit_every(unsigned red_rids) { return red_rids / 2; }

/* An error waiting to be reported to the PE. */
typedef struct {
    uint8_t code, tree, rid, unit;
    uint32_t tag;
} tc_errrec;

typedef struct {
    uint8_t nr;                  /* red_rids: a node may have nr results of a tree in flight to its parent,
                                    a credit lets it send nr / 2 more */
    tc_errrec errq[TC_ERRQ];
    uint8_t nerr, lost;
    uint16_t done[TC_TREES];     /* reduces completed here, per tree (wraps) */
    uint8_t since[TC_TREES];     /* results since the last credit to the children */
    uint8_t cred_due[TC_TREES];  /* credit packets due to the children */
    uint8_t up_cred[TC_TREES];   /* results this node may still send to its parent */
    uint8_t total, report_due;
    uint8_t rep_in;              /* a REPORT in the report buffer, not yet routed: the next one waits */
    uint16_t cyc;
    uint8_t gen_idx;             /* data flits of the report being written, 0: none */
    uint16_t seq;                /* credits and reports made, for their tags (12 bits) */
    uint8_t rr;                  /* the round-robin pointer over the duties (TC_CB_REQS) */
    uint8_t fixed;               /* planted bug (TC_PLANT_FIXED_PRIO): the pointer stays at 0, a fixed priority */
    tc_flit gen_data[2];
} tc_credit_block;

/* The duties that take turns for the report buffer, as requesters of a round-robin
 * (tc_rr_arb): the oldest error, the phase packet, the barrier's completion, a due
 * report, and the credit owed to each tree's children. */
enum { TC_CB_ERROR, TC_CB_PHASE, TC_CB_DONE, TC_CB_REPORT, TC_CB_CREDIT, TC_CB_REQS = TC_CB_CREDIT + TC_TREES };

/* One cycle's evaluation: what is written into the report buffer (rep), and the error
 * of this cycle (err; nev errors in all, push: err is queued). */
typedef struct {
    unsigned pop, gen_phase, gen_done, gen_report, gen_credit, cred_tree;
    unsigned pick; /* the duty written (TC_CB_*), TC_CB_REQS: none */
    tc_wire rep;
    tc_errrec err;
    unsigned nev, push;
} tc_credit_block_ev;

void tc_credit_block_reset(tc_credit_block *cb, unsigned red_rids);
/* The most other duties' packets one duty that stays due waits for, found by running
 * the block with every duty due (the deadlock checker's fairness premise); -1 if one
 * waits for ever. */
int tc_credit_block_max_wait(unsigned fixed);
/* ready: the report buffer has a free slot; pe: the phase counters' send and done. */
void tc_credit_block_gen(const tc_credit_block *cb, unsigned id, unsigned ready, const tc_phase *ph,
                         const tc_phase_ev *pe, tc_credit_block_ev *ev);
/* red[k]: Reducer slice k's error (code 0: none), k < ns; the units' drops and
 * route errors. */
void tc_credit_block_errors(const tc_credit_block *cb, int np, int ns, const tc_errrec *red, const tc_unit_sig *s,
                            tc_credit_block_ev *ev);
/* complete, bit t: a reduce of tree t completes; made, bit t: a result of tree t
 * enters its slice's result buffer (a tree has one slice: one of each a cycle). */
void tc_credit_block_commit(tc_credit_block *cb, const tc_credit_block_ev *ev, int np, int ns, const tc_row *table,
                            const tc_unit_sig *s, unsigned complete, unsigned made);
/* No error queued, no report or credit due, none being written: with neither a phase
 * packet nor a completion to send (tc_phase_ev's send, done), tc_credit_block_gen()
 * writes nothing (the event is all 0). */
static inline unsigned tc_credit_block_quiet(const tc_credit_block *cb)
{
    uint64_t due[2]; /* the 16 trees' counts (credit_block.c asserts the size; C++ includes this too) */
    __builtin_memcpy(due, cb->cred_due, sizeof due);
    return !cb->nerr && !cb->gen_idx && !cb->report_due && !(due[0] | due[1]);
}
/* A cycle with nothing to do: only the report timer advances. It is also
 * tc_credit_block_commit() after a quiet tc_credit_block_gen() in a cycle with no
 * error, no head routed (no credit from the parent), no reduce completed and no
 * result made. */
void tc_credit_block_idle_cycle(tc_credit_block *cb);

#endif
