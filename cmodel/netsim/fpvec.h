/* A vector of floating-point values reduced on the subnet, the PE library's side
 * (docs/fpsum.md): each node's values, drawn by tc_fpsum_value(), packed `per` to a
 * reduce packet, operation i carrying values i*per .. i*per+per-1. The sum (FSUM):
 * the values as they are (header VALS, the last packet padded with the identity, -0),
 * which the Reducer converts to binned elements of 2 flits; each result comes back as
 * values, converted and rounded once at the tree's root. fmin and fmax (MIN, MAX):
 * each value an order-preserving key in a lane of its width (2 or 4 a flit), the
 * result's keys mapped back. The sum in two passes (tc_fpvec_pass): exponent keys by
 * MAX, four 32-bit lanes a flit, then a fixed-point word a flit by SUM (fpsum.h). The
 * callbacks plug into tc_workload (data, deliver). */
#ifndef TC_FPVEC_H
#define TC_FPVEC_H

#include <stdint.h>
#include <stdio.h>

#include "../format.h"
#include "workload.h"

typedef struct {
    unsigned lane, dist; /* TC_LANE_*, TC_FPS_* */
    unsigned op;         /* TC_OP_FSUM, TC_OP_MIN (fmin) or TC_OP_MAX (fmax) */
    uint64_t seed;
    uint32_t nodes;
    uint64_t nvals;      /* values per node */
    unsigned per;        /* values per packet */
    unsigned pass;       /* 0: one pass; 1, 2: the two-pass sum's key pass and word pass */
    unsigned h;          /* two passes: the words' headroom, ceil(log2 members) */
    uint64_t ops;        /* operations of the pass (a multiple of the trees in pass 1) */
    uint16_t *key;       /* two passes: [nodes][nvals], pass 1's result at each node */
    uint64_t *in, *out;  /* [nodes][nvals]: IEEE bits (binary32 in the low 32) */
    uint8_t *member;     /* [nodes]: contributes */
    uint8_t *got;        /* [nodes]: received a result */
    char err[160];       /* the first result that did not fit (a wrong length or operation) */
} tc_fpvec;

/* 0, or -1 out of memory. member[k]: node k contributes (its values drawn). */
int tc_fpvec_init(tc_fpvec *v, unsigned op, unsigned lane, unsigned dist, uint64_t seed, uint32_t nodes,
                  uint64_t nvals, unsigned per, const uint8_t *member);
/* The sum in two passes of nvals values a PE in packets of len data flits over trees
 * trees: the operations of pass 1 (the keys, 4 a flit, rounded up to a multiple of the
 * trees, so that every tree makes as many reduces) or of pass 2 (the words, 1 a flit). */
static inline uint64_t tc_fpvec_two_pass_ops(unsigned pass, uint64_t nvals, int len, int trees)
{
    uint64_t per = pass == 1 ? 4u * (unsigned)len : (unsigned)len, ops = (nvals + per - 1) / per;
    uint64_t t = trees > 1 && pass == 1 ? (uint64_t)trees : 1;
    return (ops + t - 1) / t * t;
}
/* w's stream as the two passes' workloads: w1 the keys' (MAX on 32-bit lanes), w2 the
 * words' (SUM on 64-bit lanes), each of tc_fpvec_two_pass_ops operations of w->len
 * data flits, w2's ReduceIds going on from w1's (rid0). */
void tc_fpvec_two_pass(const tc_workload *w, uint64_t nvals, int red_rids, tc_workload *w1, tc_workload *w2);
/* The vector's callbacks for pass 1 (keys) or 2 (words) of tc_fpvec_two_pass's
 * workloads. 0; -1 out of memory; -2 more members than the words' headroom allows
 * (2^TC_FPS2_MAX_H). */
int tc_fpvec_pass(tc_fpvec *v, unsigned pass, int len, int trees);
/* Values a packet of len data flits holds for op on lane: len / 2 elements, or len
 * flits of keys. */
unsigned tc_fpvec_per(unsigned op, unsigned lane, int len);
void tc_fpvec_free(tc_fpvec *v);
/* Operations a node's values take: ceil(nvals / per) (in pass 1, rounded up to the trees). */
static inline uint64_t tc_fpvec_ops(const tc_fpvec *v) { return v->ops ? v->ops : (v->nvals + v->per - 1) / v->per; }
/* tc_workload's data: the len data flits of node's contribution to operation op. */
void tc_fpvec_data(void *ctx, uint32_t node, int op, tc_flit *flits, int len);
/* tc_workload's deliver: a result packet (header and data) of operation op at node. */
void tc_fpvec_deliver(void *ctx, uint32_t node, int op, uint64_t cycle, const tc_flit *pkt, int nflits);
/* The values file: per contributing node "<node> in <hex> ...", per receiving node
 * "<node> out <hex> ..." (16 hex digits a binary64 value, 8 a binary32). 0, or -1 if
 * a write failed. */
int tc_fpvec_write(const tc_fpvec *v, FILE *f);

#endif
