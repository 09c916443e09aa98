/* The Reducer's integer ALU, bit-exact with rtl/tc_alu.v: combines two 128-bit data
 * flits lane by lane, 32-bit or 64-bit lanes, lanes independent (no carry between). */
#ifndef TC_ALU_H
#define TC_ALU_H

#include "format.h"

/* y = a op b (y may be a or b); returns TC_ALU_* flags. MINLOC/MAXLOC read lanes in pairs: the even
 * lane holds a signed value, the odd lane its owner's index (unsigned). */
unsigned tc_alu(const tc_flit *a, const tc_flit *b, unsigned op, unsigned lane, tc_flit *y);
/* The operations' names, in TC_OP_* order (NULL after the last): a tool's op = name. */
extern const char *const tc_op_names[TC_OPS + 1];
const char *tc_op_name(unsigned op);

#endif
