#include <stdio.h>
#include <stdlib.h>

#include "dut.h"

/* A tree a cycle, as through the RTL's configuration ports: the credit block's
 * report timer counts those cycles too. */
static void cm_cfg(tc_dut *d, int tree, const tc_row *rows)
{
    tc_pe_in idle = {{0, 0, {{0, 0}}}, 0};
    for (int k = 0; k < d->nodes; k++) {
        tc_net_cfg(d->impl, k, tree, rows[k]);
        tc_net_pe_in(d->impl, k, &idle);
    }
    tc_net_step(d->impl, NULL);
}
static void cm_pe_out(tc_dut *d, int node, tc_pe_out *out) { tc_net_pe_out(d->impl, node, out); }
static void cm_pe_in(tc_dut *d, int node, const tc_pe_in *in) { tc_net_pe_in(d->impl, node, in); }
/* A simulation-only fault for testing the mismatch report and its waveforms (sim/test.sh):
 * TC_PLANT_OBS=CYCLE,NODE,BIT flips that bit of that node's observation record at that
 * run cycle, as a bug in the model would. */
static void cm_step(tc_dut *d, uint32_t *obs)
{
    tc_net_step(d->impl, obs);
    const char *plant = getenv("TC_PLANT_OBS");
    unsigned long long cycle;
    int node, bit;
    if (obs && plant && sscanf(plant, "%llu,%d,%d", &cycle, &node, &bit) == 3 && cycle == d->steps &&
        node >= 0 && node < d->nodes && bit >= 0 && bit < 32 * TC_OBS_WORDS(d->nports, d->p.red_slices))
        obs[(size_t)node * (size_t)TC_OBS_WORDS(d->nports, d->p.red_slices) + (size_t)bit / 32] ^= 1u << (bit % 32);
    d->steps++;
}
static void cm_close(tc_dut *d)
{
    tc_net_free(d->impl);
    free(d);
}

static const char *cm_fault(tc_dut *d) { return tc_net_fault(d->impl); }

static const tc_dut_ops cm_ops = {cm_cfg, cm_pe_out, cm_pe_in, cm_step, cm_close, cm_fault};

tc_dut *tc_dut_cmodel(const tc_params *p, char *err, size_t errlen)
{
    tc_net *n = tc_net_new(p, err, errlen);
    if (!n)
        return NULL;
    tc_dut *d = calloc(1, sizeof *d);
    d->name = "C model";
    d->ops = &cm_ops;
    d->p = *p;
    d->nodes = tc_net_topo(n)->n;
    d->nports = tc_net_nports(n);
    d->impl = n;
    return d;
}

tc_net *tc_dut_cmodel_net(tc_dut *d) { return d->ops == &cm_ops ? d->impl : NULL; }
