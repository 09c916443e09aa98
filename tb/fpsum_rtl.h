/* The Verilated floating-point sum blocks (rtl/tc_fpsum_in.v, tc_fpsum_merge.v,
 * tc_fpsum_out.v), for tb/fpsum_check.c: the same arguments as their C twins in
 * cmodel/fpsum.h. */
#ifndef TC_FPSUM_RTL_H
#define TC_FPSUM_RTL_H

#include "../cmodel/format.h"

void tc_fpsum_rtl_open(void);
void tc_fpsum_in_rtl(unsigned lane, uint64_t bits, tc_flit e[2]);
unsigned tc_fpsum_merge_rtl(const tc_flit a[2], const tc_flit b[2], tc_flit y[2]);
/* tc_fpsum_out is pipelined: one call is one cycle, whose clock edge takes e; it returns
 * the value of the element given TC_FPSUM_OUT_LAT calls before. */
#define TC_FPSUM_OUT_LAT 2
uint64_t tc_fpsum_out_rtl(unsigned lane, const tc_flit e[2]);
void tc_fpsum_rtl_close(void);

#endif
