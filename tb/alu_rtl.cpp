// Thin C++ shim over the Verilated rtl/tc_alu.v for tb/alu_check.c.
#include "Vtc_alu.h"
#include "verilated.h"

extern "C" {
#include "alu_rtl.h"
}

static VerilatedContext *ctx;
static Vtc_alu *alu;

extern "C" void tc_alu_rtl_open(void)
{
    ctx = new VerilatedContext;
    alu = new Vtc_alu(ctx, "TOP");
}

extern "C" unsigned tc_alu_rtl(const tc_flit *a, const tc_flit *b, const tc_flit *a0, const tc_flit *b0,
                               unsigned hi, unsigned op, unsigned lane, tc_flit *y)
{
    for (int w = 0; w < 4; w++) {
        alu->a_i[w] = (uint32_t)(a->w[w >> 1] >> (32 * (w & 1)));
        alu->b_i[w] = (uint32_t)(b->w[w >> 1] >> (32 * (w & 1)));
        alu->a0_i[w] = (uint32_t)(a0->w[w >> 1] >> (32 * (w & 1)));
        alu->b0_i[w] = (uint32_t)(b0->w[w >> 1] >> (32 * (w & 1)));
    }
    alu->hi_i = hi;
    alu->op_i = op;
    alu->lane_i = lane;
    alu->eval();
    y->w[0] = (uint64_t)alu->y_o[1] << 32 | alu->y_o[0];
    y->w[1] = (uint64_t)alu->y_o[3] << 32 | alu->y_o[2];
    return (alu->invalid_o ? TC_ALU_INVALID : 0) | (alu->overflow_o ? TC_ALU_OVERFLOW : 0);
}

extern "C" void tc_alu_rtl_close(void)
{
    alu->final();
    delete alu;
    delete ctx;
}
