/* A device under test: the C golden model or the Verilated RTL torus, driven through
 * the same narrow interface so the testbench logic is written once, in C. */
#ifndef TC_DUT_H
#define TC_DUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "../cmodel/net.h"

typedef struct tc_dut tc_dut;

typedef struct {
    /* before cycle 0: one cycle writes one tree's row into every router (rows[node]) */
    void (*cfg)(tc_dut *d, int tree, const tc_row *rows);
    void (*pe_out)(tc_dut *d, int node, tc_pe_out *out);    /* registered outputs */
    void (*pe_in)(tc_dut *d, int node, const tc_pe_in *in);
    void (*step)(tc_dut *d, uint32_t *obs); /* one clock; obs of all nodes, or NULL */
    void (*close)(tc_dut *d);
    const char *(*fault)(tc_dut *d); /* the first broken invariant the DUT checks itself, or NULL */
} tc_dut_ops;

struct tc_dut {
    const char *name;
    const tc_dut_ops *ops;
    tc_params p;
    int nodes, nports;
    void *impl;
    uint64_t steps; /* run cycles stepped (the C model's planted mismatch counts them) */
};

tc_dut *tc_dut_cmodel(const tc_params *p, char *err, size_t errlen);
/* The C model's network behind d, or NULL if d is not the C model. */
tc_net *tc_dut_cmodel_net(tc_dut *d);
/* The RTL's parameters are fixed when it is Verilated: it reports them in p.
 * fst: write a waveform there (NULL: no trace). NULL and a message in err if the
 * RTL cannot be made; NULL and an empty err if the binary has no RTL. */
tc_dut *tc_dut_rtl(tc_params *p, const char *fst, char *err, size_t errlen);
/* Picoseconds per half clock cycle in the RTL's waveforms: a 2 ns cycle. */
#define TC_WAVE_HALF_PS 1000
/* Whether this binary's RTL can write a waveform (the wave builds: make wave). */
int tc_dut_rtl_traces(void);
/* The scope of node n's router in that waveform: a printf format of n. */
const char *tc_dut_rtl_router_scope(void);

#ifdef __cplusplus
}
#endif

#endif
