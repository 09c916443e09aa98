/* The RTL ALU (Verilated) against the C ALU, N vectors per operation and lane width,
 * plus the reserved operation codes and lane widths. Prints a PASS/FAIL line each. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cmodel/alu.h"
#include "alu_rtl.h"
#include "alu_vec.h"

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 1000000, seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    int pass = 0, fail = 0;
    uint64_t reserved_bad = 0;
    tc_alu_rtl_open();
    for (unsigned op = 0; op < 16; op++)
        for (unsigned lane = 0; lane < 4; lane++) {
            int valid = op < TC_OPS && lane <= TC_LANE_64;
            uint64_t count = valid ? n : 1000, bad = 0;
            for (uint64_t i = 0; i < count; i++) {
                tc_flit a, b, a0, b0, yc, yr;
                unsigned hi = i & 1; /* every other vector: an element's flit 1 (FSUM; the same for other ops) */
                tc_alu_vector(seed, i, op, lane, &a, &b);
                tc_alu_vector(seed + 1, i, op, lane, &a0, &b0);
                unsigned fc = hi ? tc_alu_hi(&a, &b, &a0, &b0, op, lane, &yc) : tc_alu(&a, &b, op, lane, &yc);
                unsigned fr = tc_alu_rtl(&a, &b, &a0, &b0, hi, op, lane, &yr);
                if (fc != fr || memcmp(&yc, &yr, sizeof yc)) {
                    if (bad++ < 3)
                        fprintf(stderr,
                                "  op %u (%s) lane %u vector %" PRIu64 ": a %016" PRIx64 "%016" PRIx64 " b %016" PRIx64
                                "%016" PRIx64 "\n    C   %016" PRIx64 "%016" PRIx64 " flags %u\n    RTL %016" PRIx64
                                "%016" PRIx64 " flags %u\n",
                                op, tc_op_name(op), lane, i, a.w[1], a.w[0], b.w[1], b.w[0], yc.w[1], yc.w[0], fc,
                                yr.w[1], yr.w[0], fr);
                }
            }
            if (!valid) {
                reserved_bad += bad;
                continue;
            }
            bad ? fail++ : pass++;
            printf("%s  alu %-6s lane %u %8" PRIu64 " vectors: RTL %s C\n", bad ? "FAIL" : "PASS", tc_op_name(op),
                   lane == TC_LANE_32 ? 32u : 64u, count, bad ? "differs from" : "=");
        }
    reserved_bad ? fail++ : pass++;
    printf("%s  alu reserved codes: %d op/lane pairs x 1000 vectors give 0 and the invalid flag in both\n",
           reserved_bad ? "FAIL" : "PASS", 16 * 4 - 2 * TC_OPS);
    printf("alu: %d passed, %d failed\n", pass, fail);
    tc_alu_rtl_close();
    return fail != 0;
}
