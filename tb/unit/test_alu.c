/* The C ALU against the simple bit-by-bit model, on boundary and random vectors of
 * every operation and lane width; and hand-checked cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/alu.h"
#include "../../cmodel/fpsum.h"
#include "../alu_vec.h"

static uint64_t count = 200000;

static void test_against_slow_model(void **state)
{
    (void)state;
    for (unsigned op = 0; op < TC_OPS; op++)
        for (unsigned lane = TC_LANE_32; lane <= TC_LANE_64; lane++)
            for (uint64_t i = 0; op != TC_OP_FSUM && i < count; i++) {
                tc_flit a, b, y, s;
                tc_alu_vector(1, i, op, lane, &a, &b);
                unsigned f = tc_alu(&a, &b, op, lane, &y), fs = tc_alu_slow(&a, &b, op, lane, &s);
                if (f != fs || memcmp(&y, &s, sizeof y))
                    fail_msg("%s lane %u vector %llu: a %016llx%016llx b %016llx%016llx\n"
                             "  alu  %016llx%016llx flags %u\n  slow %016llx%016llx flags %u",
                             tc_op_name(op), lane, (unsigned long long)i, (unsigned long long)a.w[1],
                             (unsigned long long)a.w[0], (unsigned long long)b.w[1], (unsigned long long)b.w[0],
                             (unsigned long long)y.w[1], (unsigned long long)y.w[0], f,
                             (unsigned long long)s.w[1], (unsigned long long)s.w[0], fs);
            }
}

/* FSUM a flit at a time: tc_alu gives the step's flit 0 from the flits 0 alone, and
 * tc_alu_hi its flit 1, equal to the halves of tc_fpsum_merge on the whole elements. */
static void test_fsum_flits(void **state)
{
    (void)state;
    for (unsigned lane = TC_LANE_32; lane <= TC_LANE_64; lane++)
        for (uint64_t i = 0; i < count / 4; i++) {
            tc_flit a[2], b[2], y[2], lo, hi, c[2];
            tc_alu_vector(1, i, TC_OP_FSUM, lane, &a[0], &b[0]);
            tc_alu_vector(2, i, TC_OP_FSUM, lane, &a[1], &b[1]);
            if (i % 2) { /* and elements of real values, whose indices are near each other */
                tc_fpsum_in(lane, a[0].w[0] ^ a[1].w[1], a);
                tc_fpsum_in(lane, b[0].w[1] ^ b[1].w[0], b);
            }
            unsigned f = tc_fpsum_merge(a, b, y);
            assert_int_equal(tc_alu(&a[0], &b[0], TC_OP_FSUM, lane, &lo), 0);
            assert_int_equal(tc_alu_hi(&a[1], &b[1], &a[0], &b[0], TC_OP_FSUM, lane, &hi), f);
            assert_memory_equal(&lo, &y[0], sizeof lo);
            assert_memory_equal(&hi, &y[1], sizeof hi);
            memcpy(c, a, sizeof c); /* a payload of one element, as the Reducer combines it */
            assert_int_equal(tc_alu_data(c, b, 2, TC_OP_FSUM, lane), f);
            assert_memory_equal(c, y, sizeof c);
        }
}

static void test_cases(void **state)
{
    (void)state;
    tc_flit a = {{0x00000001ffffffffull, 0x800000007fffffffull}};
    tc_flit b = {{0x0000000100000001ull, 0x8000000000000001ull}}, y;
    /* 32-bit sum: each lane wraps on its own, no carry into the next lane */
    assert_int_equal(tc_alu(&a, &b, TC_OP_SUM, TC_LANE_32, &y), TC_ALU_OVERFLOW);
    assert_int_equal(y.w[0], 0x0000000200000000ull);
    assert_int_equal(y.w[1], 0x0000000080000000ull);
    /* 64-bit sum: the carry crosses bit 32 */
    assert_int_equal(tc_alu(&a, &b, TC_OP_SUM, TC_LANE_64, &y), TC_ALU_OVERFLOW);
    assert_int_equal(y.w[0], 0x0000000300000000ull);
    assert_int_equal(y.w[1], 0x0000000080000000ull);
    /* signed and unsigned minimum of 0xffffffff and 1 */
    tc_alu(&a, &b, TC_OP_MIN, TC_LANE_32, &y);
    assert_int_equal(y.w[0] & 0xffffffffu, 0xffffffffu);
    tc_alu(&a, &b, TC_OP_MINU, TC_LANE_32, &y);
    assert_int_equal(y.w[0] & 0xffffffffu, 1);
    /* MINLOC: equal values, the lower index wins; MAXLOC: the larger value's pair */
    tc_flit p = {{7ull << 32 | 5, 0}}, q = {{3ull << 32 | 5, 0}};
    tc_alu(&p, &q, TC_OP_MINLOC, TC_LANE_32, &y);
    assert_int_equal(y.w[0], 3ull << 32 | 5);
    tc_flit r = {{9ull << 32 | 0xfffffffeu, 0}}; /* value -2 at index 9 */
    tc_alu(&p, &r, TC_OP_MAXLOC, TC_LANE_32, &y);
    assert_int_equal(y.w[0], 7ull << 32 | 5);
    tc_alu(&p, &r, TC_OP_MINLOC, TC_LANE_32, &y);
    assert_int_equal(y.w[0], 9ull << 32 | 0xfffffffeu);
    /* unknown operation or lane width: zero and the invalid flag */
    assert_int_equal(tc_alu(&a, &b, TC_OPS, TC_LANE_32, &y), TC_ALU_INVALID);
    assert_int_equal(y.w[0] | y.w[1], 0);
    assert_int_equal(tc_alu(&a, &b, TC_OP_SUM, 2, &y), TC_ALU_INVALID);
    assert_int_equal(tc_alu_slow(&a, &b, TC_OP_SUM, 3, &y), TC_ALU_INVALID);
}

int main(void)
{
    const char *n = getenv("TC_ALU_VECTORS");
    if (n)
        count = strtoull(n, NULL, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_against_slow_model),
        cmocka_unit_test(test_fsum_flits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
