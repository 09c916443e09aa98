/* Linked into tools built without a Verilated torus (the C-model-only simulator). */
#include "dut.h"

tc_dut *tc_dut_rtl(tc_params *p, const char *fst, char *err, size_t errlen)
{
    (void)p;
    (void)fst;
    (void)errlen;
    err[0] = '\0'; /* no RTL here, which is no error */
    return NULL;
}

int tc_dut_rtl_traces(void) { return 0; }

const char *tc_dut_rtl_router_scope(void) { return ""; }
