/* The packet-level broadcast engine (cmodel/netsim/pkt_bcast.c, tcnet engine=packet) against
 * the cycle-exact model: every PE delivery (node, operation, the cycle of its last
 * flit, its flits) the same, and the operations' starts, ends and delivery counts,
 * each node's completion, the cycles simulated and the flits on every link. Fixed
 * cases (1D to 4D, odd and mixed radices, defaults and runs past the credit block's
 * report cycle, buffers and credits small enough to bind) and random ones over
 * tori, trees, members, lengths, sizes, depths and latencies; the engine's refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/netsim/pkt_bcast.h"
#include "deliveries.h"

static size_t total; /* deliveries compared */

static void run_case(const ecase *c) { total += engine_case(TC_WL_BCAST, c, tc_pkt_bcast_run); }

static void test_fixed(void **state)
{
    (void)state;
    static const ecase cases[] = {
        {"2", 0, 100, 1, 2, 0, 1, 0, 0, 0, 0, 0, 0},
        {"5", 0, 100, 1, 7, 20000, 1, 0, 0, 0, 0, 0, 0},
        {"7", 3, 100, 1, 0, 0, 4, 0, 0, 0, 0, 0, 0},
        {"4x4", 0, 100, 1, 7, 65536, 1, 0, 0, 0, 0, 0, 0}, /* past the report at cycle 4096 */
        {"5x3", 9, 60, 3, 3, 9000, 2, 0, 0, 0, 0, 0, 0},
        {"3x3x3", 5, 50, 4, 7, 16384, 1, 0, 0, 0, 0, 0, 0},
        {"2x2x2x2", 0, 100, 1, 7, 16384, 1, 0, 0, 0, 0, 0, 0},
        {"3x2x3x2", 11, 70, 2, 5, 12000, 1, 0, 0, 0, 0, 0, 0},
        {"4x4x4", 0, 100, 1, 7, 24000, 1, 3, 2, 1, 0, 0, 0}, /* every credit binds */
        {"5x4", 2, 100, 1, 2, 9000, 1, 2, 2, 2, 3, 5, 7},
        {"4x4", 0, 100, 1, 1, 3000, 3, 0, 0, 2, 0, 0, 0},
        {"6x5", 4, 100, 1, 6, 40000, 1, 4, 0, 0, 1, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
}

static void test_random(void **state)
{
    (void)state;
    uint64_t rng = 0x2545f4914f6cdd1dull;
#define RND(n) rnd(&rng, (n))
    for (int i = 0; i < 40; i++) {
        char topo[32];
        int nodes = random_topo(&rng, topo, sizeof topo);
        ecase c = {topo, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}; /* drawn in this order (an initializer's are not sequenced) */
        c.tree = RND(16);
        c.members = 30 + RND(71);
        c.seed = 1 + RND(1000);
        c.len = RND(8);
        c.repeat = 1 + RND(2);
        c.bytes = c.len ? RND(nodes > 30 ? 6000 : 12000) : 0;
        draw_limits(&rng, &c);
        run_case(&c);
    }
#undef RND
    print_message("packet engine: %zu deliveries equal to the cycle-exact model's\n", total);
}

static void test_refuse(void **state)
{
    (void)state;
    check_refuse(tc_pkt_bcast_refuse, TC_WL_BCAST, TC_MCAST_FORK);
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
