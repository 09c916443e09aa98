// Thin C++ shim between the C testbench and the Verilated RTL as separate nodes: one
// model of tc_node (Vtc_node) per node of the torus, joined here as tc_torus joins
// them. The link from node n in direction d arrives at input d^1 of its neighbour
// through one register (the last cycle of the link's delay; the node has the others):
// that register is the copy below, from every node's outputs before the rising edge
// to its neighbour's inputs after it. A node's outputs are registers, so every node
// steps on its own: the torus is one model of a node, whatever its size. Observation
// records come from the monitors around the routers (tb/dut_obs.h), as in
// tb/dut_rtl.cpp (the whole torus, tc_torus). TC_RTL_THREADS=T steps the nodes on
// T threads, each a share of them (docs/bench.md measures it). Built with tracing
// (VM_TRACE: the wave builds, make wave) every node's model writes into one FST, on
// tb/dut_rtl.cpp's time line, with the links' registers shown as tc_torus has them.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "Vtc_node.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include "dut.h"
#include "dut_built.h"
#include "dut_obs.h"

namespace {

constexpr int NP = 2 * TC_NDIMS;
constexpr int FWORDS = 4; // a flit: 128 bits

struct Link { // one register of a link, at its far end: {vc, valid, flit} and the credits back
    uint32_t flit[FWORDS];
    uint8_t valid, vc, cred;
};

struct Nodes {
    VerilatedContext ctx;
    std::vector<Vtc_node *> node;
    std::vector<Link> cur, next; // [node * NP + d]: the register of node's output d, now and after the edge
    std::vector<int> src;        // [node * NP + d]: the register driving node's input d
    // Threads beyond the caller's, each stepping nodes [lo[i], lo[i + 1]) of a cycle:
    // go counts the cycles they were started on, done the shares finished.
    std::vector<std::thread> pool;
    std::vector<int> lo;
    std::atomic<uint64_t> go{0};
    std::atomic<int> done{0};
    std::atomic<bool> quit{false};
#if VM_TRACE
    VerilatedFstC *fst = nullptr;
    uint64_t time = 0; // FST steps: two a cycle, TC_WAVE_HALF_PS each (tb/waveview.c reads the times)
#endif
};

Nodes *nodes(tc_dut *d) { return static_cast<Nodes *>(d->impl); }

// A node's link inputs from the registers that drive them.
void link_inputs(Nodes *r, int k)
{
    Vtc_node *m = r->node[k];
    uint32_t valid = 0, vc = 0, cred = 0;
    for (int d = 0; d < NP; d++) {
        const Link &in = r->cur[(size_t)r->src[(size_t)k * NP + d]];
        valid |= (uint32_t)in.valid << d;
        vc |= (uint32_t)in.vc << d;
        cred |= (uint32_t)in.cred << (2 * d);
        std::memcpy(m->link_flit_i.data() + FWORDS * d, in.flit, sizeof in.flit);
    }
    m->link_valid_i = valid;
    m->link_vc_i = vc;
    m->link_cred_i = cred;
}

// One clock cycle of nodes [lo, hi). Inputs were set by the testbench (PE,
// configuration); the links' inputs come from their registers. Outputs before the
// edge go into the registers' next values (a node's outputs are registers: no input
// changes them before the edge). Traced, the falling half waits for every node
// (cycle()).
void step_nodes(Nodes *r, int lo, int hi, bool fall)
{
    for (int k = lo; k < hi; k++) {
        Vtc_node *m = r->node[k];
        Link *out = &r->next[(size_t)k * NP];
        for (int d = 0; d < NP; d++) {
            out[d].valid = (m->link_valid_o >> d) & 1;
            out[d].vc = (m->link_vc_o >> d) & 1;
            out[d].cred = (m->link_cred_o >> (2 * d)) & 3;
            std::memcpy(out[d].flit, m->link_flit_o.data() + FWORDS * d, sizeof out[d].flit);
        }
        link_inputs(r, k);
        m->clk_i = 1; // the inputs settle, then the rising edge (the monitor's record)
        m->eval();
        if (fall) {
            m->clk_i = 0;
            m->eval();
        }
    }
}

void worker(Nodes *r, int i)
{
    uint64_t seen = 0;
    for (;;) {
        for (int spin = 0; r->go.load(std::memory_order_acquire) == seen; spin++)
            if (r->quit.load(std::memory_order_relaxed))
                return;
            else if (spin > 1000)
                std::this_thread::yield();
        seen++;
        step_nodes(r, r->lo[i + 1], r->lo[i + 2], true);
        r->done.fetch_add(1, std::memory_order_release);
    }
}

// One clock cycle of every node: the caller's share and the pool's, then the links'
// registers take their next values. Traced (one thread), the rising edge of every
// node, the registers' new values on the link inputs (as tc_torus's registers show
// them), the falling edge: a dump after each half.
void cycle(Nodes *r)
{
#if VM_TRACE
    if (r->fst) {
        int n = (int)r->node.size();
        step_nodes(r, 0, n, false);
        r->cur.swap(r->next);
        for (int k = 0; k < n; k++) {
            link_inputs(r, k);
            r->node[k]->eval();
        }
        r->fst->dump(r->time++ * TC_WAVE_HALF_PS);
        for (Vtc_node *m : r->node) {
            m->clk_i = 0;
            m->eval();
        }
        r->fst->dump(r->time++ * TC_WAVE_HALF_PS);
        return;
    }
#endif
    r->done.store(0, std::memory_order_relaxed);
    r->go.fetch_add(1, std::memory_order_release);
    step_nodes(r, r->lo[0], r->lo[1], true);
    for (int spin = 0; r->done.load(std::memory_order_acquire) < (int)r->pool.size(); spin++)
        if (spin > 1000)
            std::this_thread::yield();
    r->cur.swap(r->next);
}

void nodes_cfg(tc_dut *d, int tree, const tc_row *rows)
{
    Nodes *r = nodes(d);
    for (int k = 0; k < d->nodes; k++) {
        r->node[k]->cfg_we_i = 1;
        r->node[k]->cfg_tree_i = (uint8_t)tree;
        r->node[k]->cfg_row_i = rows[k];
    }
    cycle(r);
    for (int k = 0; k < d->nodes; k++)
        r->node[k]->cfg_we_i = 0;
}

void nodes_pe_out(tc_dut *d, int node, tc_pe_out *out)
{
    const Vtc_node *m = nodes(d)->node[node];
    std::memset(out, 0, sizeof *out);
    out->ej.valid = m->ej_valid_o;
    for (int w = 0; w < FWORDS; w++)
        out->ej.flit.w[w >> 1] |= (uint64_t)m->ej_flit_o[w] << (32 * (w & 1));
    out->inj_cred = m->inj_cred_o;
}

void nodes_pe_in(tc_dut *d, int node, const tc_pe_in *in)
{
    Vtc_node *m = nodes(d)->node[node];
    m->inj_valid_i = in->inj.valid;
    for (int w = 0; w < FWORDS; w++)
        m->inj_flit_i[w] = (uint32_t)(in->inj.flit.w[w >> 1] >> (32 * (w & 1)));
    m->ej_cred_i = in->ej_cred;
}

void nodes_step(tc_dut *d, uint32_t *obs)
{
    tc_obs_to = obs; // each node's monitor writes its record of this cycle at the rising edge
    tc_obs_words = TC_OBS_WORDS(d->nports, d->p.red_slices);
    cycle(nodes(d));
    tc_obs_to = nullptr;
}

void nodes_close(tc_dut *d)
{
    Nodes *r = nodes(d);
    r->quit = true;
    for (std::thread &t : r->pool)
        t.join();
#if VM_TRACE
    if (r->fst) {
        r->fst->close();
        delete r->fst;
    }
#endif
    for (Vtc_node *m : r->node) {
        m->final();
        delete m;
    }
    delete r;
    std::free(d);
}

// The RTL's own checks are its assertions: Verilator stops on $error.
const char *nodes_fault(tc_dut *) { return nullptr; }

const tc_dut_ops nodes_ops = {nodes_cfg, nodes_pe_out, nodes_pe_in, nodes_step, nodes_close, nodes_fault};

} // namespace

extern "C" int tc_dut_rtl_traces(void) { return VM_TRACE; }

// Each node's model is named nodeK: its scopes in the trace begin there.
extern "C" const char *tc_dut_rtl_router_scope(void) { return "node%d.tc_node.u_router"; }

extern "C" tc_dut *tc_dut_rtl(tc_params *p, const char *fst, char *err, size_t errlen)
{
    tc_params_built(p);
#if !VM_TRACE
    if (fst) {
        std::snprintf(err, errlen, "%s: this build has no tracing (only the wave builds do: make wave NET=... SCEN=...)",
                      fst);
        return nullptr;
    }
#endif
    tc_topo t;
    if (tc_topo_init(&t, p->ndims, p->size, err, errlen))
        return nullptr;
    int threads = 1;
    if (const char *e = std::getenv("TC_RTL_THREADS")) {
        char *end;
        long v = std::strtol(e, &end, 10);
        if (!*e || *end || v < 1 || v > t.n) {
            std::snprintf(err, errlen, "TC_RTL_THREADS = '%s' is not an integer in 1..%d (the nodes)", e, t.n);
            return nullptr;
        }
        threads = (int)v;
    }

    if (fst)
        threads = 1; // the dumps take every node's half-cycle in turn
    Nodes *r = new Nodes;
    r->cur.assign((size_t)t.n * NP, Link{});
    r->next.assign((size_t)t.n * NP, Link{});
    r->src.resize((size_t)t.n * NP);
#if VM_TRACE
    if (fst)
        r->ctx.traceEverOn(true);
#endif
    for (int k = 0; k < t.n; k++) {
        char name[16];
        std::snprintf(name, sizeof name, "node%d", k);
        Vtc_node *m = new Vtc_node(&r->ctx, name);
        m->node_id_i = (uint16_t)k;
        m->diam_i = (uint16_t)tc_diameter(&t); // tc_torus's Diameter
        m->clk_i = 0;
        m->rst_ni = 0;
        r->node.push_back(m);
        for (int d = 0; d < NP; d++)
            r->src[(size_t)k * NP + d] = tc_neighbour(&t, k, d) * NP + (d ^ 1);
    }
#if VM_TRACE
    if (fst) {
        r->fst = new VerilatedFstC;
        for (Vtc_node *m : r->node)
            m->trace(r->fst, 99);
        r->fst->open(fst);
    }
#endif
    // reset: three half-cycles (dumped as tb/dut_rtl.cpp does), then released
    for (int clk : {0, 1, 0}) {
        for (Vtc_node *m : r->node) {
            m->clk_i = (uint8_t)clk;
            m->eval();
        }
#if VM_TRACE
        if (r->fst)
            r->fst->dump(r->time++ * TC_WAVE_HALF_PS);
#endif
    }
    for (Vtc_node *m : r->node) {
        m->rst_ni = 1;
        m->eval();
    }
    for (int i = 0; i <= threads; i++)
        r->lo.push_back((int)((int64_t)t.n * i / threads));
    for (int i = 0; i + 1 < threads; i++)
        r->pool.emplace_back(worker, r, i);
    tc_dut *d = static_cast<tc_dut *>(std::calloc(1, sizeof *d));
    d->name = "RTL";
    d->ops = &nodes_ops;
    d->p = *p;
    d->nodes = t.n;
    d->nports = NP;
    d->impl = r;
    return d;
}
