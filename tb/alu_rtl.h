/* The Verilated ALU, for tb/alu_check.c. */
#ifndef TC_ALU_RTL_H
#define TC_ALU_RTL_H

#include "../cmodel/format.h"

void tc_alu_rtl_open(void);
/* hi: a and b are an FSUM element's flit 1, whose flits 0 were a0 and b0 (tc_alu_hi) */
unsigned tc_alu_rtl(const tc_flit *a, const tc_flit *b, const tc_flit *a0, const tc_flit *b0, unsigned hi,
                    unsigned op, unsigned lane, tc_flit *y);
void tc_alu_rtl_close(void);

#endif
