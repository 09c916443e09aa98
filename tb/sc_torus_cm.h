// The C golden model as a SystemC module with the ports of the Verilated torus
// (Vtc_torus from verilator --sc), so a SystemC platform can put either in its place.
// Port timing is the RTL's: the inputs of a cycle are taken at the falling clock edge,
// where the model steps one cycle and drives obs_o, the observation record of that
// cycle (the RTL has no such port: the monitors around its routers hand over its
// records, tb/dut_obs.h); the registered outputs change at the rising edge. rst_ni
// low starts the network anew.
#ifndef TC_SC_TORUS_CM_H
#define TC_SC_TORUS_CM_H

#include <cstring>
#include <type_traits>
#include <vector>

#include <systemc.h>

#include "dut.h"

// Verilator's SystemC port types: bool for 1 bit, uint32_t up to 32, uint64_t up to
// 64, sc_bv above.
template <int W>
using tc_sc_t = typename std::conditional<
    W == 1, bool,
    typename std::conditional<W <= 32, uint32_t,
                              typename std::conditional<W <= 64, uint64_t, sc_bv<W>>::type>::type>::type;

inline bool tc_sc_get(bool v, int) { return v; }
inline bool tc_sc_get(uint32_t v, int i) { return (v >> i) & 1; }
inline bool tc_sc_get(uint64_t v, int i) { return (v >> i) & 1; }
template <int W> bool tc_sc_get(const sc_bv<W> &v, int i) { return v.get_bit(i) != 0; }
inline void tc_sc_put(bool &v, int, bool b) { v = b; }
inline void tc_sc_put(uint32_t &v, int i, bool b) { v = b ? v | (1u << i) : v & ~(1u << i); }
inline void tc_sc_put(uint64_t &v, int i, bool b) { v = b ? v | (1ull << i) : v & ~(1ull << i); }
template <int W> void tc_sc_put(sc_bv<W> &v, int i, bool b) { v.set_bit(i, b ? sc_dt::Log_1 : sc_dt::Log_0); }

// 128-bit flit k of a wide port, 32 bits at a time.
template <int W> void tc_sc_get_flit(const sc_bv<W> &v, int k, tc_flit *f)
{
    f->w[0] = f->w[1] = 0;
    for (int w = 0; w < 4; w++)
        f->w[w >> 1] |= (uint64_t)v.range(128 * k + 32 * w + 31, 128 * k + 32 * w).to_uint() << (32 * (w & 1));
}
template <int W> void tc_sc_put_flit(sc_bv<W> &v, int k, const tc_flit *f)
{
    for (int w = 0; w < 4; w++)
        v.range(128 * k + 32 * w + 31, 128 * k + 32 * w) = (uint32_t)(f->w[w >> 1] >> (32 * (w & 1)));
}

template <int N, int OBSW>
struct tc_torus_cm : sc_module {
    sc_in<bool> clk_i, rst_ni;
    sc_in<tc_sc_t<N>> cfg_we_i;
    sc_in<uint32_t> cfg_tree_i;
    sc_in<tc_sc_t<N * TC_ROW_W>> cfg_row_i;
    sc_in<tc_sc_t<N>> inj_valid_i;
    sc_in<tc_sc_t<N * 128>> inj_flit_i;
    sc_out<tc_sc_t<N>> inj_cred_o;
    sc_out<tc_sc_t<N>> ej_valid_o;
    sc_out<tc_sc_t<N * 128>> ej_flit_o;
    sc_in<tc_sc_t<N>> ej_cred_i;
    sc_out<tc_sc_t<N * OBSW>> obs_o;

    tc_params p;
    tc_net *net = nullptr;
    std::vector<uint32_t> obs;
    tc_sc_t<N> next_inj_cred{}, next_ej_valid{};
    tc_sc_t<N * 128> next_ej_flit{};

    SC_HAS_PROCESS(tc_torus_cm);
    tc_torus_cm(sc_module_name name, const tc_params &params) : sc_module(name), p(params)
    {
        SC_METHOD(fall);
        sensitive << clk_i.neg();
        dont_initialize();
        SC_METHOD(rise);
        sensitive << clk_i.pos() << rst_ni.neg();
        dont_initialize();
    }
    ~tc_torus_cm() { tc_net_free(net); }
    const char *fault() const { return net ? tc_net_fault(net) : nullptr; }

    void fall()
    {
        if (!rst_ni.read() || !net)
            return;
        const int words = TC_OBS_WORDS(2 * p.ndims, p.red_slices);
        for (int k = 0; k < N; k++) {
            if (tc_sc_get(cfg_we_i.read(), k)) {
                tc_row row = 0;
                for (int b = 0; b < TC_ROW_W; b++)
                    row |= (tc_row)tc_sc_get(cfg_row_i.read(), k * TC_ROW_W + b) << b;
                tc_net_cfg(net, k, (int)cfg_tree_i.read(), row);
            }
            tc_pe_in in;
            std::memset(&in, 0, sizeof in);
            in.inj.valid = tc_sc_get(inj_valid_i.read(), k);
            if (in.inj.valid)
                tc_sc_get_flit(inj_flit_i.read(), k, &in.inj.flit);
            in.ej_cred = tc_sc_get(ej_cred_i.read(), k);
            tc_net_pe_in(net, k, &in);
        }
        tc_net_step(net, obs.data());
        tc_sc_t<N * OBSW> o;
        for (int k = 0; k < N; k++)
            for (int b = 0; b < OBSW; b++)
                tc_sc_put(o, k * OBSW + b, (obs[(size_t)k * words + (b >> 5)] >> (b & 31)) & 1);
        obs_o.write(o);
        for (int k = 0; k < N; k++) {
            tc_pe_out out;
            tc_net_pe_out(net, k, &out);
            tc_sc_put(next_inj_cred, k, out.inj_cred);
            tc_sc_put(next_ej_valid, k, out.ej.valid);
            tc_sc_put_flit(next_ej_flit, k, &out.ej.flit);
        }
    }

    void rise()
    {
        if (!rst_ni.read()) { // asynchronous reset: a new network, outputs low
            char err[256];
            tc_net_free(net);
            net = tc_net_new(&p, err, sizeof err);
            if (!net)
                SC_REPORT_FATAL("tc_torus_cm", err);
            obs.assign((size_t)N * TC_OBS_WORDS(2 * p.ndims, p.red_slices), 0);
            next_inj_cred = next_ej_valid = tc_sc_t<N>{};
            next_ej_flit = tc_sc_t<N * 128>{};
        }
        inj_cred_o.write(next_inj_cred);
        ej_valid_o.write(next_ej_valid);
        ej_flit_o.write(next_ej_flit);
    }
};

#endif
