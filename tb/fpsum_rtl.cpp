// Thin C++ shim over the Verilated tb/tc_fpsum_blocks.sv for tb/fpsum_check.c.
#include "Vtc_fpsum_blocks.h"
#include "verilated.h"

extern "C" {
#include "fpsum_rtl.h"
}

static VerilatedContext *ctx;
static Vtc_fpsum_blocks *top;

// An element (two flits, e[0] bits 127..0) to and from a 256-bit port, 8 words of 32 bits.
static void put(VlWide<8> &p, const tc_flit e[2])
{
    for (int w = 0; w < 8; w++)
        p[w] = (uint32_t)(e[w >> 2].w[(w >> 1) & 1] >> (32 * (w & 1)));
}
static void get(const VlWide<8> &p, tc_flit e[2])
{
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < 2; k++)
            e[f].w[k] = (uint64_t)p[4 * f + 2 * k + 1] << 32 | p[4 * f + 2 * k];
}

extern "C" void tc_fpsum_rtl_open(void)
{
    ctx = new VerilatedContext;
    top = new Vtc_fpsum_blocks(ctx, "TOP");
}

extern "C" void tc_fpsum_in_rtl(unsigned lane, uint64_t bits, tc_flit e[2])
{
    top->lane_i = lane;
    top->in_bits_i = bits;
    top->eval();
    get(top->in_e_o, e);
}

extern "C" unsigned tc_fpsum_merge_rtl(const tc_flit a[2], const tc_flit b[2], tc_flit y[2])
{
    put(top->a_i, a);
    put(top->b_i, b);
    top->eval();
    get(top->y_o, y);
    return top->overflow_o ? TC_ALU_OVERFLOW : 0;
}

extern "C" uint64_t tc_fpsum_out_rtl(unsigned lane, const tc_flit e[2])
{
    top->lane_i = lane;
    put(top->out_e_i, e);
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    return top->out_bits_o;
}

extern "C" void tc_fpsum_rtl_close(void)
{
    top->final();
    delete top;
    delete ctx;
}
