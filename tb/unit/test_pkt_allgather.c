/* The packet-level allgather engine (cmodel/netsim/pkt_allgather.c, tcnet engine=packet
 * workload=allgather) against the cycle-exact model: every PE delivery (node,
 * operation, the cycle of its last flit, its flits) the same, and the operations'
 * starts, ends and delivery counts, each node's completion, the cycles simulated and
 * the flits on every link. Fixed cases (1D to 4D, odd and mixed radices, runs past
 * the credit block's report cycle, reports that wait past the next one's and merge
 * with it, buffers and credits small enough to bind, latencies
 * from 1 cycle to the defaults) and random ones over tori, the planner's trees and
 * random ones (transit nodes, random shapes), members, lengths, sizes, depths and
 * latencies; the engine's refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/netsim/pkt_allgather.h"
#include "deliveries.h"

static size_t total, ncases; /* deliveries compared, cases run */

static void run_case(const ecase *c)
{
    total += engine_case(TC_WL_ALLGATHER, c, tc_pkt_allgather_run);
    ncases++;
}

static void test_fixed(void **state)
{
    (void)state;
    static const ecase cases[] = {
        {"2", 0, 100, 1, 2, 0, 1, 0, 0, 0, 0, 0, 0},
        {"5", 0, 100, 1, 7, 2000, 1, 0, 0, 0, 0, 0, 0},
        {"7", 0, 100, 1, 0, 0, 4, 0, 0, 0, 0, 0, 0},
        {"4x4", 0, 100, 1, 7, 0, 2, 0, 0, 0, 0, 0, 0},
        {"3x5", 0, 100, 1, 7, 4000, 1, 0, 0, 0, 0, 0, 0}, /* past the report at cycle 4096 */
        {"5x3", 0, 60, 3, 3, 900, 2, 0, 0, 0, 0, 0, 0},
        {"3x4x5", 0, 100, 1, 7, 0, 1, 0, 0, 0, 0, 0, 0},
        {"3x3x3", 0, 50, 4, 5, 400, 1, 0, 0, 0, 0, 0, 0},
        {"2x2x2x2", 0, 100, 1, 7, 600, 1, 0, 0, 0, 0, 0, 0},
        {"2x3x2x3", 0, 70, 2, 4, 300, 1, 0, 0, 0, 0, 0, 0},
        {"4x4x4", 0, 100, 1, 7, 200, 1, 3, 2, 1, 0, 0, 0}, /* every credit binds */
        {"5x4", 0, 100, 1, 2, 900, 1, 2, 2, 2, 3, 5, 7},
        {"4x4", 0, 100, 1, 1, 300, 3, 0, 0, 2, 1, 1, 1},
        {"6x5", 0, 0, 7, 6, 800, 1, 4, 0, 0, 1, 1, 1},
        {"3x4x5", 0, 0, 3, 7, 0, 2, 2, 3, 1, 2, 40, 9},
        {"3x4", 0, 100, 1, 7, 500, 1, 0, 0, 0, 120, 400, 500}, /* long latencies */
        /* one ejection credit and a long ejection latency: the PE output is so slow that
         * reports wait past the next one's cycle, and fill the report buffer */
        {"3x3", 0, 100, 1, 7, 400, 1, 2, 0, 1, 0, 0, 900},
        {"3x3", 0, 100, 1, 7, 600, 1, 2, 0, 1, 0, 0, 2100},
        /* slower still (an ejection credit's round trip past two report intervals),
         * deeper buffers: reports one at a time in the report buffer, which holds room
         * for more. (The deliveries would be the same with reports piling up: the
         * buffer's head is a routed report either way; what the rule shortens is the
         * wait of the credits and phase packets behind them, which an allgather has
         * none of.) */
        {"3x3", 0, 100, 1, 7, 600, 1, 5, 0, 1, 0, 0, 5000},
        /* a PE output slow enough (two ejection credits, ejection latency 1847) that a
         * report waits past the next one's cycle and merges with it, then fast enough
         * again that a report not merged would be written before the next cycle */
        {"3x3", 0, 100, 11, 0, 0, 3, 2, 7, 2, 12, 84, 1847},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
}

static void test_random(void **state)
{
    (void)state;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
#define RND(n) rnd(&rng, (n))
    for (int i = 0; i < 200; i++) {
        char topo[32];
        int nodes = random_topo(&rng, topo, sizeof topo);
        ecase c = {topo, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}; /* drawn in this order (an initializer's are not sequenced) */
        c.members = RND(3) ? 30 + RND(71) : 0;
        c.seed = 1 + RND(1000);
        c.len = RND(8);
        c.repeat = 1 + RND(2);
        c.bytes = c.len && RND(2) ? RND(nodes > 30 ? 300 : 1500) : 0;
        draw_limits(&rng, &c);
        run_case(&c);
    }
#undef RND
    print_message("packet allgather engine: %zu cases, %zu deliveries equal to the cycle-exact model's\n", ncases, total);
}

static void test_refuse(void **state)
{
    (void)state;
    check_refuse(tc_pkt_allgather_refuse, TC_WL_ALLGATHER, TC_MCAST_SERIAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_refuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
