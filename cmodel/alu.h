/* The Reducer's ALU, bit-exact with rtl/tc_alu.v: combines two 128-bit data flits
 * lane by lane, 32-bit or 64-bit lanes, lanes independent (no carry between); or, for
 * FSUM, two binned elements of the floating-point sum (cmodel/fpsum.h) a flit at a
 * time: the step's flit 0 depends on the operands' flits 0 alone, its flit 1 on all
 * four (docs/fpsum.md), so the Reducer streams an element one flit a cycle. */
#ifndef TC_ALU_H
#define TC_ALU_H

#include "format.h"

/* Lane k of width w (32 or 64 bits; lane 0 the low bits of w[0]) as an unsigned
 * value, and its writing: the lanes the ALU combines, and a PE lays out. */
static inline uint64_t tc_lane_get(const tc_flit *f, unsigned w, unsigned k)
{
    return w == 64 ? f->w[k] : (f->w[k >> 1] >> (32 * (k & 1))) & 0xffffffffu;
}
static inline void tc_lane_put(tc_flit *f, unsigned w, unsigned k, uint64_t v)
{
    if (w == 64) {
        f->w[k] = v;
    } else {
        unsigned s = 32 * (k & 1);
        f->w[k >> 1] = (f->w[k >> 1] & ~(0xffffffffull << s)) | ((v & 0xffffffffu) << s);
    }
}

/* y = a op b (y may be a or b); returns TC_ALU_* flags. MINLOC/MAXLOC read lanes in pairs: the even
 * lane holds a signed value, the odd lane its owner's index (unsigned). */
unsigned tc_alu(const tc_flit *a, const tc_flit *b, unsigned op, unsigned lane, tc_flit *y);
/* The same for the second flit of an FSUM element, whose operands' first flits were a0
 * and b0 (any other op: tc_alu). */
unsigned tc_alu_hi(const tc_flit *a, const tc_flit *b, const tc_flit *a0, const tc_flit *b0, unsigned op,
                   unsigned lane, tc_flit *y);
/* acc = acc op in over the len data flits of a reduce (flit by flit; FSUM element by
 * element), as the Reducer combines two contributions; returns the flags ORed. */
unsigned tc_alu_data(tc_flit *acc, const tc_flit *in, unsigned len, unsigned op, unsigned lane);
/* The operations' names, in TC_OP_* order (NULL after the last): a tool's op = name. */
extern const char *const tc_op_names[TC_OPS + 1];
const char *tc_op_name(unsigned op);

#endif
