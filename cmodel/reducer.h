/* The Reducer, the twin of rtl/tc_reducer.v with its memory (tc_sram.v) and
 * ALU (tc_alu.v: cmodel/alu.c). */
#ifndef TC_REDUCER_H
#define TC_REDUCER_H

#include "vc_unit.h"

/* A converting copy (an FSUM result at the root): an element's value leaves
 * tc_fpsum_out's pipeline this many cycles after its flit 1 is read. */
#define TC_CV_LAT 3

/* One (TreeId, ReduceId) of the Reducer: contributions counted, which sources have
 * contributed (bit = link port, bit 8 = the PE), and the first one's header fields
 * that every other contribution must repeat. */
typedef struct {
    uint8_t cnt, type, op, lane, len, poison;
    uint8_t ready;  /* complete, its result held here until the result buffer takes it */
    uint8_t fenced; /* ... and a barrier's phase packet waits for it */
    uint16_t seen, dst;
} tc_red_entry;

/* What a slice did, for the network simulator's account of what bounds a long
 * reduction (no hardware): the cycles it was busy (taking a flit, copying a held
 * result, converting values in: it takes no other contribution then), the results it
 * made, and those it held rather than sending straight on, by why (the first that
 * applies): at the root (a floating-point sum, converted by a copy), no free slot in
 * the result buffer, no credit of the parent, out of its tree's turn. */
typedef struct {
    uint64_t busy, results, held_root, held_room, held_credit, held_turn;
} tc_red_stats;

/* A Reducer slice: entries and partial results of its trees (TreeId mod ns = slice,
 * the slice's own tree t / ns indexes them); the contribution being received; the
 * copy of a held result into its result buffer. */
typedef struct {
    uint8_t slice, ns, nr; /* tc_reducer.v's Slice, Slices, RedRids */
    tc_red_entry *ent; /* [tree / ns][rid] */
    tc_flit *data;     /* [tree / ns][rid][1 + red_flits]: a held result's header, then the data flits */
    uint8_t idx;       /* flit of the contribution expected next; 0: a header */
    uint8_t tree, rid, len, op, lane, first, last;
    uint8_t skip; /* a reused ReduceId, or the PE's out of turn: the contribution is ignored */
    uint8_t keep; /* a contribution that disagreed: the stored values are kept */
    uint8_t fast; /* the last contribution: its result goes straight into the result buffer */
    tc_flit a0, b0; /* the stored and the incoming flit 0 of the FSUM element being combined */
    uint8_t cp_left, cp_idx, cp_ptr; /* copy: cycles left, its cycle; round-robin pointer (a tree of
                                        the slice, tree / ns) */
    uint16_t cp_slot;                /* ... its entry */
    uint8_t cp_conv;      /* the copy converts an FSUM result at the root to values */
    uint64_t cv_val[4];   /* ... the values of its elements, as tc_fpsum_out gives them */
    tc_flit cv_pack;      /* ... the values of the flit being filled */
    uint8_t x_on, x_cyc, x_len, x_l32; /* the conversion in of a contribution of values: its cycle
                                          after the header (1 .. len + 1), len, binary32 */
    tc_flit xv[2];                     /* ... its value flits */
    tc_flit xe[2];                     /* ... the element of the value converted last */
    uint8_t nxt[TC_TREES];    /* per tree: the ReduceId whose result enters the result buffer next */
    uint8_t pe_nxt[TC_TREES]; /* per tree: the ReduceId the PE contributes to next */
    uint16_t nready, nfenced; /* entries ready, and fenced */
    tc_red_stats st;
} tc_reducer;

/* tc_reducer.v's parameters and inputs. */
typedef struct {
    uint16_t id;
    uint8_t np, red_flits;
    const tc_row *table;
    const uint8_t *up_cred; /* per tree: credits of the parent left (up_ok_i: not 0) */
    tc_wire in;             /* the Reducer output's register */
    uint8_t src;            /* the unit that sent the contribution */
    uint8_t in_busy;        /* that register streams a packet */
    uint8_t res_room;       /* the result buffer has a free slot */
    uint8_t src_fenced;     /* the contribution is fenced (tc_phase) */
} tc_reducer_in;

/* One cycle's evaluation: the input flit's header fields and verdicts, the flit made
 * from it (val), the flit written into the result buffer (res). */
typedef struct {
    tc_wire res;
    tc_flit val;
    unsigned hdr, first, last, fast, skip, tail, err, bit, tree, rid, len; /* tree: the TreeId */
    unsigned block;                 /* a held result is being copied, or values converted: hold the input */
    unsigned made, made_tree;       /* a result enters the result buffer, of this tree */
    unsigned fenced_in, cp_fenced;  /* a fenced contribution completes a reduce; a fenced held result's copy begins */
    unsigned res_fenced, fenced;    /* a fenced result enters the result buffer; one is held, or made now */
    int cp_pick;                    /* the held result whose copy begins (its entry), or -1 */
} tc_reducer_ev;

/* A slice's entries, TC_RED_ENTRIES(ns, nr), and its memory words, that times 1 + red_flits. */
#define TC_RED_ENTRIES(ns, nr) ((unsigned)TC_TREES / (unsigned)(ns) * (unsigned)(nr))

void tc_reducer_eval(const tc_reducer *rd, const tc_reducer_in *in, tc_reducer_ev *ev);
/* No flit in (in_valid: the Reducer output's register), no result held, being copied
 * or fenced, no values being converted: the evaluation makes nothing (every field of tc_reducer_ev the router
 * reads is 0 but cp_pick, -1) and the commit changes nothing, so the router skips both. */
static inline unsigned tc_reducer_quiet(const tc_reducer *rd, unsigned in_valid)
{
    return !in_valid && !rd->nready && !rd->cp_left && !rd->nfenced && !rd->x_on;
}
/* snap: tc_phase takes a new fence, which takes every result held. */
void tc_reducer_commit(tc_reducer *rd, const tc_reducer_in *in, const tc_reducer_ev *ev, unsigned snap);
void tc_reducer_obs(const tc_reducer *rd, const tc_reducer_in *in, const tc_reducer_ev *ev, uint32_t *obs,
                    unsigned lsb);

#endif
