/* Linked into tools built without a Verilated torus (the C-model-only simulator). */
#include <stdio.h>

#include "dut.h"

tc_dut *tc_dut_rtl(tc_params *p, const char *fst, char *err, size_t errlen)
{
    (void)p;
    (void)fst;
    snprintf(err, errlen, "this binary has no Verilated RTL: use a build/cosim_* binary");
    return NULL;
}

int tc_dut_rtl_traces(void) { return 0; }
