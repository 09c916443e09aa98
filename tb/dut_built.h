// The parameters a Verilated torus was built with: the build passes Verilator's -G
// values again as TC_* macros (Makefile, net_d), so the shims can report them.
#ifndef TC_DUT_BUILT_H
#define TC_DUT_BUILT_H

#include "dut.h"

inline void tc_params_built(tc_params *p)
{
    tc_params_default(p);
    p->ndims = TC_NDIMS;
    p->size[0] = TC_SX;
    p->size[1] = TC_SY;
    p->size[2] = TC_SZ;
    p->size[3] = TC_SW;
    p->link_lat = TC_LINK_LAT;
    p->inj_lat = TC_INJ_LAT;
    p->ej_lat = TC_EJ_LAT;
    p->slots = TC_SLOTS;
    p->inj_slots = TC_INJ_SLOTS;
    p->pe_credits = TC_PE_CREDITS;
    p->red_flits = TC_RED_FLITS;
    p->red_rids = TC_RED_RIDS;
    p->red_slices = TC_RED_SLICES;
}

#endif
