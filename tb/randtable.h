/* The random table (cmodel/netsim/plan.h, TC_PLAN_RANDOM) under its old name, for the unit
 * tests that still call it. */
#ifndef TC_RANDTABLE_H
#define TC_RANDTABLE_H

#include <stdint.h>

#include "../cmodel/netsim/plan.h"

static inline void tc_random_table(const tc_topo *t, tc_row *rows, uint64_t seed)
{
    tc_plan_table(t, rows, &(tc_plan){.variant = TC_PLAN_RANDOM, .seed = seed});
}

#endif
