/* The Verilated ALU, for tb/alu_check.c. */
#ifndef TC_ALU_RTL_H
#define TC_ALU_RTL_H

#include "../cmodel/format.h"

void tc_alu_rtl_open(void);
unsigned tc_alu_rtl(const tc_flit *a, const tc_flit *b, unsigned op, unsigned lane, tc_flit *y);
void tc_alu_rtl_close(void);

#endif
