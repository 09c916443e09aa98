#include "net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tc_net {
    tc_params p;
    tc_topo topo;
    int np;
    uint64_t cycle;
    tc_router *r;
    tc_flit *mem;
    tc_red_entry *red_ent;
    int *nbr;            /* nbr[node * np + port] */
    tc_router_in *in;    /* inputs gathered for the cycle being evaluated */
    tc_pe_in *pe_in;     /* what each PE drives this cycle */
    /* Delay lines, one slot per cycle of latency, indexed by cycle % latency. */
    tc_wire *link;       /* [node][port][link_lat]: router node's output port */
    uint8_t *cred;       /* [node][port][link_lat]: credits of router node's input port */
    tc_wire *inj, *ej;   /* [node][inj_lat], [node][ej_lat] */
    uint8_t *inj_cred, *ej_cred;
    char fault[160];     /* the first broken invariant (lemma 1), or "" */
};

void tc_params_default(tc_params *p)
{
    memset(p, 0, sizeof *p);
    p->ndims = 2;
    p->size[0] = p->size[1] = 4;
    p->size[2] = p->size[3] = 1;
    p->link_lat = 40;
    p->inj_lat = p->ej_lat = 150;
    p->slots = 2;
    p->pe_credits = 16;
    p->red_flits = 2;
}

tc_net *tc_net_new(const tc_params *p, char *err, size_t errlen)
{
    tc_topo t;
    if (tc_topo_init(&t, p->ndims, p->size, err, errlen))
        return NULL;
    if (p->link_lat < 1 || p->inj_lat < 1 || p->ej_lat < 1) {
        snprintf(err, errlen, "link_lat, inj_lat and ej_lat must be at least 1 cycle (got %d, %d, %d)",
                 p->link_lat, p->inj_lat, p->ej_lat);
        return NULL;
    }
    if (p->slots < 2 || p->slots > TC_MAX_SLOTS) { /* bubble flow control needs 2 */
        snprintf(err, errlen, "slots %d is not in 2..%d", p->slots, TC_MAX_SLOTS);
        return NULL;
    }
    if (p->pe_credits < 1 || p->pe_credits > 255) {
        snprintf(err, errlen, "pe_credits %d is not in 1..255", p->pe_credits);
        return NULL;
    }
    if (p->red_flits < 1 || p->red_flits > TC_SLOT_FLITS - 1) {
        snprintf(err, errlen, "red_flits %d is not in 1..%d", p->red_flits, TC_SLOT_FLITS - 1);
        return NULL;
    }
    tc_net *n = calloc(1, sizeof *n);
    size_t nn = (size_t)t.n, np = (size_t)(2 * t.ndims);
    size_t per = tc_router_mem_flits((int)np, p->slots, p->red_flits);
    n->p = *p;
    n->topo = t;
    n->np = (int)np;
    n->r = calloc(nn, sizeof *n->r);
    n->mem = calloc(nn * per, sizeof(tc_flit));
    n->red_ent = calloc(nn * TC_TREES * TC_RIDS, sizeof(tc_red_entry));
    n->nbr = malloc(nn * np * sizeof(int));
    n->in = calloc(nn, sizeof *n->in);
    n->pe_in = calloc(nn, sizeof *n->pe_in);
    n->link = calloc(nn * np * (size_t)p->link_lat, sizeof(tc_wire));
    n->cred = calloc(nn * np * (size_t)p->link_lat, 1);
    n->inj = calloc(nn * (size_t)p->inj_lat, sizeof(tc_wire));
    n->inj_cred = calloc(nn * (size_t)p->inj_lat, 1);
    n->ej = calloc(nn * (size_t)p->ej_lat, sizeof(tc_wire));
    n->ej_cred = calloc(nn * (size_t)p->ej_lat, 1);
    if (!n->r || !n->mem || !n->red_ent || !n->nbr || !n->in || !n->pe_in || !n->link || !n->cred || !n->inj ||
        !n->inj_cred || !n->ej || !n->ej_cred) {
        snprintf(err, errlen, "out of memory for %zu nodes", nn);
        tc_net_free(n);
        return NULL;
    }
    int diam = 0;
    for (int d = 0; d < t.ndims; d++)
        diam += t.size[d] / 2;
    for (size_t k = 0; k < nn; k++) {
        tc_router_reset(&n->r[k], (int)k, (int)np, p->slots, p->pe_credits, p->red_flits, n->mem + k * per,
                        n->red_ent + k * TC_TREES * TC_RIDS);
        n->r[k].diam = (uint16_t)(diam ? diam : 1);
        for (size_t d = 0; d < np; d++)
            n->nbr[k * np + d] = tc_neighbour(&t, (int)k, (int)d);
    }
    return n;
}

void tc_net_free(tc_net *n)
{
    if (!n)
        return;
    free(n->r);
    free(n->mem);
    free(n->red_ent);
    free(n->nbr);
    free(n->in);
    free(n->pe_in);
    free(n->link);
    free(n->cred);
    free(n->inj);
    free(n->inj_cred);
    free(n->ej);
    free(n->ej_cred);
    free(n);
}

const tc_topo *tc_net_topo(const tc_net *n) { return &n->topo; }
int tc_net_nports(const tc_net *n) { return n->np; }
uint64_t tc_net_cycle(const tc_net *n) { return n->cycle; }

void tc_net_cfg(tc_net *n, int node, int tree, tc_row row) { n->r[node].row[tree] = row; }

void tc_net_pe_out(const tc_net *n, int node, tc_pe_out *out)
{
    size_t k = (size_t)node;
    out->ej = n->ej[k * (size_t)n->p.ej_lat + n->cycle % (uint64_t)n->p.ej_lat];
    out->inj_cred = n->inj_cred[k * (size_t)n->p.inj_lat + n->cycle % (uint64_t)n->p.inj_lat];
}

void tc_net_pe_in(tc_net *n, int node, const tc_pe_in *in) { n->pe_in[node] = *in; }

void tc_net_step(tc_net *n, uint32_t *obs)
{
    size_t nn = (size_t)n->topo.n, np = (size_t)n->np, ll = (size_t)n->p.link_lat;
    size_t li = n->cycle % ll, ii = n->cycle % (uint64_t)n->p.inj_lat, ei = n->cycle % (uint64_t)n->p.ej_lat;
    size_t ow = (size_t)TC_OBS_WORDS(n->np);

    /* Every delay line is read (value of cycle - latency) before it is written. */
    for (size_t k = 0; k < nn; k++) {
        tc_router_in *in = &n->in[k];
        for (size_t d = 0; d < np; d++) {
            size_t from = (size_t)n->nbr[k * np + d] * np + (d ^ 1);
            in->link[d] = n->link[from * ll + li];
            in->cred[d] = n->cred[from * ll + li];
        }
        in->inj = n->inj[k * (size_t)n->p.inj_lat + ii];
        in->ej_cred = n->ej_cred[k * (size_t)n->p.ej_lat + ei];
    }
    for (size_t k = 0; k < nn; k++) {
        const tc_router *r = &n->r[k];
        for (size_t d = 0; d < np; d++) {
            n->link[(k * np + d) * ll + li] = r->o[d].q;
            n->cred[(k * np + d) * ll + li] = r->cred_q[d];
        }
        n->ej[k * (size_t)n->p.ej_lat + ei] = r->o[TC_O_PE(np)].q;
        n->inj_cred[k * (size_t)n->p.inj_lat + ii] = r->inj_cred_q;
        n->inj[k * (size_t)n->p.inj_lat + ii] = n->pe_in[k].inj;
        n->ej_cred[k * (size_t)n->p.ej_lat + ei] = n->pe_in[k].ej_cred;
    }
    /* Without observation records an idle router with no input only ticks its timer. */
    for (size_t k = 0; k < nn; k++) {
        const tc_router_in *in = &n->in[k];
        unsigned any = in->inj.valid | in->ej_cred;
        for (size_t d = 0; d < np; d++)
            any |= in->link[d].valid | in->cred[d];
        if (!obs && !any && tc_router_idle(&n->r[k]))
            tc_router_idle_cycle(&n->r[k]);
        else
            tc_router_cycle(&n->r[k], in, obs ? obs + k * ow : NULL);
    }
    /* Lemma 1 of seed 000: the phases of neighbours differ by at most 1. */
    for (size_t k = 0; k < nn && !n->fault[0]; k++)
        for (size_t d = 0; d < np; d += 2) {
            size_t j = (size_t)n->nbr[k * np + d];
            int16_t diff = (int16_t)(n->r[k].ph.total - n->r[j].ph.total);
            if (diff > 1 || diff < -1) {
                snprintf(n->fault, sizeof n->fault, "cycle %llu: lemma 1 broken: node %zu completed %u phases, its neighbour %zu %u",
                         (unsigned long long)n->cycle, k, n->r[k].ph.total, j, n->r[j].ph.total);
                break;
            }
        }
    n->cycle++;
}

const char *tc_net_fault(const tc_net *n) { return n->fault[0] ? n->fault : NULL; }
