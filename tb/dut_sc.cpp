// The torus in SystemC, driven by the C testbench (tb/cosim.c) through the tc_dut
// interface: either the Verilated RTL (verilator --sc) or the C golden model wrapped
// with the same ports (tb/sc_torus_cm.h), chosen by TC_SC_MODEL=rtl|cmodel. Both sit
// on the same signals of one SystemC top; a scenario is compared cycle by cycle with
// the plain C model, so RTL and wrapped model must give the same timing diagram.
// SystemC elaborates once per process: the top is built at the first tc_dut_rtl()
// and every later one resets it (rst_ni low) instead of building a new one.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <systemc.h>

#include "Vtc_torus.h"
#include "verilated.h"
#include "verilated_fst_sc.h"

#include "dut.h"
#include "dut_built.h"
#include "dut_obs.h"
#include "sc_torus_cm.h"

extern "C" int tc_cosim_main(int argc, char **argv);

namespace {

constexpr int N = TC_SX * TC_SY * TC_SZ * TC_SW;
constexpr int OBSW = TC_OBS_BITS(2 * TC_NDIMS, TC_RED_SLICES);

struct Top {
    sc_signal<bool> clk{"clk"}, rst_n{"rst_n"};
    sc_signal<tc_sc_t<N>> cfg_we{"cfg_we"}, inj_valid{"inj_valid"}, inj_cred{"inj_cred"}, ej_valid{"ej_valid"},
        ej_cred{"ej_cred"};
    sc_signal<uint32_t> cfg_tree{"cfg_tree"};
    sc_signal<tc_sc_t<N * TC_ROW_W>> cfg_row{"cfg_row"};
    sc_signal<tc_sc_t<N * 128>> inj_flit{"inj_flit"}, ej_flit{"ej_flit"};
    sc_signal<tc_sc_t<N * OBSW>> obs{"obs"};
    tc_sc_t<N> inj_valid_v{}, ej_cred_v{}; // what the PEs drive, written at the next step
    tc_sc_t<N * 128> inj_flit_v{};
    Vtc_torus *rtl = nullptr;
    tc_torus_cm<N, OBSW> *cm = nullptr;
    VerilatedFstSc *fst = nullptr;

    template <typename M> void bind(M *m)
    {
        m->clk_i(clk);
        m->rst_ni(rst_n);
        m->cfg_we_i(cfg_we);
        m->cfg_tree_i(cfg_tree);
        m->cfg_row_i(cfg_row);
        m->inj_valid_i(inj_valid);
        m->inj_flit_i(inj_flit);
        m->inj_cred_o(inj_cred);
        m->ej_valid_o(ej_valid);
        m->ej_flit_o(ej_flit);
        m->ej_cred_i(ej_cred);
    }
};
Top *top;
bool use_cm;

// A clock phase: 1 ns of simulated time each, so cycle t of a run is 2 ns long.
void phase(bool clk)
{
    top->clk.write(clk);
    sc_start(1, SC_NS);
}
void cycle()
{
    phase(false); // the inputs are taken
    phase(true);  // registers update
}

void sc_cfg(tc_dut *d, int tree, const tc_row *rows)
{
    tc_sc_t<N> we{};
    tc_sc_t<N * TC_ROW_W> row{};
    for (int n = 0; n < d->nodes; n++) {
        tc_sc_put(we, n, true);
        for (int b = 0; b < TC_ROW_W; b++)
            tc_sc_put(row, n * TC_ROW_W + b, (rows[n] >> b) & 1);
    }
    top->cfg_we.write(we);
    top->cfg_tree.write((uint32_t)tree);
    top->cfg_row.write(row);
    cycle();
    top->cfg_we.write(tc_sc_t<N>{});
}

void sc_pe_out(tc_dut *, int node, tc_pe_out *out)
{
    std::memset(out, 0, sizeof *out);
    out->ej.valid = tc_sc_get(top->ej_valid.read(), node);
    tc_sc_get_flit(top->ej_flit.read(), node, &out->ej.flit);
    out->inj_cred = tc_sc_get(top->inj_cred.read(), node);
}

// A signal shows a write only after a delta cycle: the PEs' inputs are gathered
// here and written together at the step.
void sc_pe_in(tc_dut *, int node, const tc_pe_in *in)
{
    tc_sc_put(top->inj_valid_v, node, in->inj.valid);
    tc_sc_put_flit(top->inj_flit_v, node, &in->inj.flit);
    tc_sc_put(top->ej_cred_v, node, in->ej_cred);
}

void sc_step(tc_dut *d, uint32_t *obs)
{
    top->inj_valid.write(top->inj_valid_v);
    top->inj_flit.write(top->inj_flit_v);
    top->ej_cred.write(top->ej_cred_v);
    phase(false);
    if (obs && use_cm) { // the C model module drives its records at the falling edge
        const int words = TC_OBS_WORDS(d->nports, d->p.red_slices);
        std::memset(obs, 0, sizeof(uint32_t) * words * d->nodes);
        const tc_sc_t<N * OBSW> o = top->obs.read();
        for (int n = 0; n < d->nodes; n++)
            for (int b = 0; b < OBSW; b++)
                if (tc_sc_get(o, n * OBSW + b))
                    obs[n * words + (b >> 5)] |= 1u << (b & 31);
    }
    tc_obs_to = use_cm ? nullptr : obs; // the RTL's monitors write them at the rising edge
    tc_obs_words = TC_OBS_WORDS(d->nports, d->p.red_slices);
    phase(true);
    tc_obs_to = nullptr;
}

void sc_close(tc_dut *d)
{
    if (top->fst) {
        top->fst->close();
        delete top->fst;
        top->fst = nullptr;
    }
    std::free(d);
}

const char *sc_fault(tc_dut *) { return use_cm ? top->cm->fault() : nullptr; }

const tc_dut_ops sc_ops = {sc_cfg, sc_pe_out, sc_pe_in, sc_step, sc_close, sc_fault};

} // namespace

extern "C" int tc_dut_rtl_traces(void) { return VM_TRACE; }

extern "C" const char *tc_dut_rtl_router_scope(void) { return "TOP.tc_torus.g_node[%d].u_node.u_router"; }

extern "C" tc_dut *tc_dut_rtl(tc_params *p, const char *fst, char *err, size_t errlen)
{
    tc_params_built(p);
    if (!top) {
        const char *m = std::getenv("TC_SC_MODEL");
        if (m && std::strcmp(m, "rtl") && std::strcmp(m, "cmodel")) {
            std::snprintf(err, errlen, "TC_SC_MODEL='%s': expected rtl or cmodel", m);
            return nullptr;
        }
        use_cm = m && !std::strcmp(m, "cmodel");
        top = new Top;
        if (use_cm) {
            top->cm = new tc_torus_cm<N, OBSW>("torus", *p);
            top->bind(top->cm);
            top->cm->obs_o(top->obs); // the RTL's records come from its monitors
        } else {
            Verilated::traceEverOn(true);
            top->rtl = new Vtc_torus("torus");
            top->bind(top->rtl);
        }
        sc_start(SC_ZERO_TIME); // elaborate
    }
    if (fst && top->rtl) { // the C model has no signals inside to trace
        top->fst = new VerilatedFstSc;
        top->rtl->trace(top->fst, 99);
        top->fst->open(fst);
    }
    tc_dut *d = static_cast<tc_dut *>(std::calloc(1, sizeof *d));
    d->name = use_cm ? "SystemC C model" : "SystemC RTL";
    d->ops = &sc_ops;
    d->p = *p;
    d->nodes = N;
    d->nports = 2 * TC_NDIMS;
    // reset, as the Verilated shim does: low through a rising edge, then released
    top->inj_valid_v = top->ej_cred_v = tc_sc_t<N>{};
    top->cfg_we.write(tc_sc_t<N>{});
    top->inj_valid.write(tc_sc_t<N>{});
    top->ej_cred.write(tc_sc_t<N>{});
    top->rst_n.write(false);
    phase(false);
    phase(true);
    top->rst_n.write(true);
    sc_start(1, SC_NS);
    return d;
}

int sc_main(int argc, char **argv) { return tc_cosim_main(argc, argv); }
