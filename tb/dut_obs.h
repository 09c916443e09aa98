// The observation records of a Verilated torus: the monitor around every router
// (tb/tc_router_mon.sv) hands its record to tc_obs_record() through DPI at each
// rising clock edge. A shim points tc_obs_to at the records of the cycle it steps
// (node n at n * tc_obs_words), or at nothing. Include in one file of a binary.
#ifndef TC_DUT_OBS_H
#define TC_DUT_OBS_H

#include <cstdint>
#include <cstring>

#include "svdpi.h"

static uint32_t *tc_obs_to;
static int tc_obs_words;

extern "C" void tc_obs_record(int node, const svBitVecVal *rec);
void tc_obs_record(int node, const svBitVecVal *rec)
{
    if (tc_obs_to)
        std::memcpy(tc_obs_to + (size_t)node * tc_obs_words, rec, sizeof(uint32_t) * tc_obs_words);
}

#endif
