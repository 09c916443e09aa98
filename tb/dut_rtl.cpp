// Thin C++ shim between the C testbench and the whole Verilated torus (Vtc_torus: the
// flat and coverage builds, never traced; the co-simulation and wave builds join
// nodes: tb/dut_nodes.cpp): it only moves bits between tc_dut calls and the model's
// ports, and takes the observation records from the monitors around the routers
// (tb/dut_obs.h).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

#include "Vtc_torus.h"
#include "verilated.h"

#include "dut.h"
#include "dut_built.h"
#include "dut_obs.h"

namespace {

struct Rtl {
    VerilatedContext ctx;
    Vtc_torus *top;
};

template <typename T> void put_bit(T &v, int i, bool b)
{
    v = b ? (T)(v | ((T)1 << i)) : (T)(v & ~((T)1 << i));
}
template <std::size_t W> void put_bit(VlWide<W> &v, int i, bool b)
{
    v[i >> 5] = b ? (v[i >> 5] | (1u << (i & 31))) : (v[i >> 5] & ~(1u << (i & 31)));
}
template <typename T> bool get_bit(const T &v, int i) { return (v >> i) & 1; }
template <std::size_t W> bool get_bit(const VlWide<W> &v, int i) { return (v[i >> 5] >> (i & 31)) & 1; }

Rtl *rtl(tc_dut *d) { return static_cast<Rtl *>(d->impl); }

// Two half cycles a cycle, as tb/dut_nodes.cpp steps its nodes.
void half_cycle(Rtl *r, int clk)
{
    r->top->clk_i = clk;
    r->top->eval();
}

void rtl_cfg(tc_dut *d, int tree, const tc_row *rows)
{
    Rtl *r = rtl(d);
    r->top->cfg_tree_i = (uint8_t)tree;
    for (int n = 0; n < d->nodes; n++) {
        put_bit(r->top->cfg_we_i, n, true);
        for (int b = 0; b < TC_ROW_W; b++)
            put_bit(r->top->cfg_row_i, n * TC_ROW_W + b, (rows[n] >> b) & 1);
    }
    half_cycle(r, 1);
    half_cycle(r, 0);
    for (int n = 0; n < d->nodes; n++)
        put_bit(r->top->cfg_we_i, n, false);
}

void rtl_pe_out(tc_dut *d, int node, tc_pe_out *out)
{
    Vtc_torus *t = rtl(d)->top;
    std::memset(out, 0, sizeof *out);
    out->ej.valid = get_bit(t->ej_valid_o, node);
    for (int w = 0; w < 4; w++)
        out->ej.flit.w[w >> 1] |= (uint64_t)t->ej_flit_o[node * 4 + w] << (32 * (w & 1));
    out->inj_cred = get_bit(t->inj_cred_o, node);
}

void rtl_pe_in(tc_dut *d, int node, const tc_pe_in *in)
{
    Vtc_torus *t = rtl(d)->top;
    put_bit(t->inj_valid_i, node, in->inj.valid);
    for (int w = 0; w < 4; w++)
        t->inj_flit_i[node * 4 + w] = (uint32_t)(in->inj.flit.w[w >> 1] >> (32 * (w & 1)));
    put_bit(t->ej_cred_i, node, in->ej_cred);
}

void rtl_step(tc_dut *d, uint32_t *obs)
{
    Rtl *r = rtl(d);
    r->top->eval(); // inputs of this cycle settle before the edge
    tc_obs_to = obs; // the monitors write the records of this cycle at its rising edge
    tc_obs_words = TC_OBS_WORDS(d->nports, d->p.red_slices);
    half_cycle(r, 1);
    tc_obs_to = nullptr;
    half_cycle(r, 0);
}

void rtl_close(tc_dut *d)
{
    Rtl *r = rtl(d);
#if VM_COVERAGE // make coverage: every run's points into a file of its own, merged later
    static int runs;
    const char *dir = std::getenv("TC_COV_DIR");
    std::string file = std::string(dir ? dir : ".") + "/rtl_" + std::to_string(getpid()) + "_" +
                       std::to_string(runs++) + ".dat";
    r->ctx.coveragep()->write(file.c_str());
#endif
    r->top->final();
    delete r->top;
    delete r;
    std::free(d);
}

// The RTL's own checks are its assertions: Verilator stops on $error.
const char *rtl_fault(tc_dut *) { return nullptr; }

const tc_dut_ops rtl_ops = {rtl_cfg, rtl_pe_out, rtl_pe_in, rtl_step, rtl_close, rtl_fault};

} // namespace

extern "C" int tc_dut_rtl_traces(void) { return 0; }

extern "C" const char *tc_dut_rtl_router_scope(void) { return "TOP.tc_torus.g_node[%d].u_node.u_router"; }

extern "C" tc_dut *tc_dut_rtl(tc_params *p, const char *fst, char *err, size_t errlen)
{
    tc_params_built(p);
    if (fst) {
        std::snprintf(err, errlen, "%s: this build has no tracing (only the wave builds do: make wave NET=... SCEN=...)",
                      fst);
        return nullptr;
    }

    Rtl *r = new Rtl;
    r->top = new Vtc_torus(&r->ctx, "TOP");
    tc_dut *d = static_cast<tc_dut *>(std::calloc(1, sizeof *d));
    d->name = "RTL";
    d->ops = &rtl_ops;
    d->p = *p;
    d->nodes = TC_SX * TC_SY * TC_SZ * TC_SW;
    d->nports = 2 * TC_NDIMS;
    d->impl = r;
    r->top->clk_i = 0;
    r->top->rst_ni = 0;
    half_cycle(r, 0);
    half_cycle(r, 1);
    half_cycle(r, 0);
    r->top->rst_ni = 1;
    r->top->eval();
    return d;
}
