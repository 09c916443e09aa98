/* ALU test vectors in the manner of TestFloat: seeded, boundary cases of each lane
 * width mixed with weighted random ones, and a deliberately simple second ALU model
 * (bit by bit) to check cmodel/alu.c against. */
#ifndef TC_ALU_VEC_H
#define TC_ALU_VEC_H

#include <stdint.h>

#include "../cmodel/format.h"

/* Vector number i of the sequence for (seed, op, lane). */
void tc_alu_vector(uint64_t seed, uint64_t i, unsigned op, unsigned lane, tc_flit *a, tc_flit *b);
/* The simple model: one bit at a time, no host-width arithmetic. */
unsigned tc_alu_slow(const tc_flit *a, const tc_flit *b, unsigned op, unsigned lane, tc_flit *y);

#endif
