#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tc_wl_names[TC_WL_KINDS + 1] = {"bcast", "reduce", "allreduce", "barrier", "tree_barrier",
                                                  "allgather", NULL};

/* One PE: the packet of the current operation it has to send, its credits, the
 * packet it is receiving, and what it still expects. */
typedef struct {
    tc_flit pkt[TC_SLOT_FLITS];
    int nflits, sent, credits, rx;
    int more; /* packets to send after this one (a broadcast split into packets) */
    uint32_t expect, got;
    uint8_t rx_type;
    uint32_t rx_tag;
} pe_state;

static int pe_of(const tc_row *rows, int node, int tree)
{
    tc_row r = TC_ROWP(rows, node, tree);
    return TC_RGET(r, VALID) && TC_RGET(r, PE);
}

static void make_pkt(pe_state *pe, int type, int node, int tree, int len, uint32_t tag)
{
    memset(pe->pkt, 0, sizeof pe->pkt);
    TC_HSET(&pe->pkt[0], TYPE, (unsigned)type);
    TC_HSET(&pe->pkt[0], TREE, (unsigned)tree);
    TC_HSET(&pe->pkt[0], LEN, (unsigned)len);
    TC_HSET(&pe->pkt[0], SRC, (unsigned)node);
    TC_HSET(&pe->pkt[0], TAG, tag);
    for (int f = 1; f <= len; f++) /* data: any bits will do, the testbench checks the values */
        pe->pkt[f].w[0] = pe->pkt[f].w[1] = (uint64_t)node * 0x9e3779b97f4a7c15ull + (uint64_t)f;
    pe->nflits = len + 1;
    pe->sent = 0;
    pe->more = 0;
}

/* Sets up operation i: every sender's packet and every node's expected count.
 * Returns the deliveries expected, or -1 with msg. */
static long build_op(const tc_workload *w, const tc_topo *t, const tc_row *rows, int i, pe_state *pe,
                     uint32_t *senders, size_t *nsend, char *msg, size_t mlen)
{
    uint32_t tag = (uint32_t)i + 1;
    long due = 0;
    int tree = w->kind == TC_WL_ALLGATHER ? 0 : w->tree, root = tc_tree_root(t, rows, tree);
    *nsend = 0;
    for (int k = 0; k < t->n; k++) {
        pe[k].nflits = 0;
        pe[k].expect = pe[k].got = 0;
    }
    switch (w->kind) {
    case TC_WL_BCAST:
        if (root < 0 || !pe_of(rows, root, tree)) {
            snprintf(msg, mlen, "tree %d has no root whose PE takes part", tree);
            return -1;
        }
        make_pkt(&pe[root], TC_TYPE_BCAST, root, tree, w->len, tag);
        senders[(*nsend)++] = (uint32_t)root;
        if (w->packets > 1) { /* M bytes in packets of len flits, back to back */
            if (w->len == 0) {
                snprintf(msg, mlen, "a broadcast split into %d packets needs len >= 1", w->packets);
                return -1;
            }
            pe[root].more = w->packets - 1;
        }
        for (int k = 0; k < t->n; k++)
            pe[k].expect = (pe_of(rows, k, tree) && k != root) * (uint32_t)(w->packets > 1 ? w->packets : 1);
        break;
    case TC_WL_REDUCE:
    case TC_WL_ALLREDUCE:
    case TC_WL_TREE_BARRIER:
        if (w->kind == TC_WL_REDUCE && (w->dst < 0 || w->dst >= t->n || !pe_of(rows, w->dst, tree))) {
            snprintf(msg, mlen, "reduce destination %d is not a Pe node of tree %d", w->dst, tree);
            return -1;
        }
        for (int k = 0; k < t->n; k++) {
            if (!pe_of(rows, k, tree))
                continue;
            int barrier = w->kind == TC_WL_TREE_BARRIER;
            make_pkt(&pe[k], w->kind == TC_WL_REDUCE ? TC_TYPE_REDUCE : TC_TYPE_ALLREDUCE, k, tree,
                     barrier ? 0 : w->len, tag);
            TC_HSET(&pe[k].pkt[0], RID, (unsigned)i % TC_RIDS);
            TC_HSET(&pe[k].pkt[0], OP, barrier ? TC_OP_AND : (unsigned)w->op);
            TC_HSET(&pe[k].pkt[0], LANE, barrier ? TC_LANE_32 : (unsigned)w->lane);
            TC_HSET(&pe[k].pkt[0], DST, w->kind == TC_WL_REDUCE ? (unsigned)w->dst : 0);
            senders[(*nsend)++] = (uint32_t)k;
            pe[k].expect = w->kind == TC_WL_REDUCE ? k == w->dst : 1;
        }
        break;
    case TC_WL_BARRIER:
        for (int k = 0; k < t->n; k++) {
            make_pkt(&pe[k], TC_TYPE_BARRIER, k, 0, 0, tag);
            TC_HSET(&pe[k].pkt[0], OP, (unsigned)w->bar_mode);
            TC_HSET(&pe[k].pkt[0], DST, (unsigned)w->bar_k);
            senders[(*nsend)++] = (uint32_t)k;
            pe[k].expect = 1;
        }
        break;
    case TC_WL_ALLGATHER:
        for (int k = 0; k < t->n; k++) {
            int tr = k % TC_TREES;
            if (!pe_of(rows, k, tr))
                continue;
            make_pkt(&pe[k], TC_TYPE_BCAST, k, tr, w->len, tag);
            senders[(*nsend)++] = (uint32_t)k;
            for (int j = 0; j < t->n; j++)
                pe[j].expect += pe_of(rows, j, tr) && j != k;
        }
        break;
    default:
        snprintf(msg, mlen, "unknown workload %d", (int)w->kind);
        return -1;
    }
    for (int k = 0; k < t->n; k++)
        due += pe[k].expect;
    return due;
}

int tc_wl_run(tc_net *n, const tc_row *rows, const tc_workload *w, tc_wl_result *res,
              void (*progress)(void *ctx, int done, int total), void *ctx)
{
    const tc_topo *t = tc_net_topo(n);
    size_t nn = (size_t)t->n;
    pe_state *pe = calloc(nn, sizeof *pe);
    uint32_t *send = malloc(nn * sizeof *send), *touched = malloc(2 * nn * sizeof *touched);
    uint64_t *stamp = calloc(nn, sizeof *stamp);
    tc_pe_in *in = calloc(nn, sizeof *in);
    int rc = 0;

    memset(res, 0, sizeof *res);
    res->op = calloc((size_t)w->repeat, sizeof *res->op);
    res->node_done = calloc((size_t)w->repeat * nn, sizeof *res->node_done);
    if (!pe || !send || !touched || !stamp || !in || !res->op || !res->node_done) {
        snprintf(res->msg, sizeof res->msg, "out of memory for %zu nodes", nn);
        rc = -1;
        goto out;
    }
    for (size_t k = 0; k < nn; k++) /* a credit per PEGroup FIFO slot */
        pe[k].credits = tc_net_params(n)->inj_slots;
    uint64_t start = tc_net_cycle(n);
    for (int i = 0; i < w->repeat && !rc; i++) {
        size_t nsend;
        long due = build_op(w, t, rows, i, pe, send, &nsend, res->msg, sizeof res->msg);
        if (due < 0) {
            rc = -1;
            break;
        }
        tc_op_result *op = &res->op[i];
        op->start = tc_net_cycle(n);
        while (due > 0 || nsend > 0) {
            uint64_t now = tc_net_cycle(n);
            size_t nt = 0;
            if (now - start >= w->max_cycles) {
                snprintf(res->msg, sizeof res->msg,
                         "operation %d of %s: %ld deliveries still missing after %llu cycles", i + 1,
                         tc_wl_names[w->kind], due, (unsigned long long)w->max_cycles);
                rc = -1;
                break;
            }
            /* what the PEs see: credits, ejected flits; a whole packet is taken at once */
            const uint32_t *act;
            size_t na = tc_net_pe_active(n, &act);
            for (size_t a = 0; a < na; a++) {
                uint32_t k = act[a];
                tc_pe_out o;
                if (stamp[k] == now + 1)
                    continue;
                stamp[k] = now + 1;
                tc_net_pe_out(n, (int)k, &o);
                pe[k].credits += o.inj_cred;
                if (!o.ej.valid)
                    continue;
                if (pe[k].rx == 0) {
                    pe[k].rx_type = (uint8_t)TC_HGET(&o.ej.flit, TYPE);
                    pe[k].rx_tag = (uint32_t)TC_HGET(&o.ej.flit, TAG);
                    pe[k].rx = (int)TC_HGET(&o.ej.flit, LEN) + 1;
                }
                if (--pe[k].rx)
                    continue;
                in[k].ej_cred = 1;
                touched[nt++] = k;
                if (pe[k].rx_type == TC_TYPE_ERROR) {
                    if (!res->errors++)
                        snprintf(res->msg, sizeof res->msg, "cycle %llu: node %u reports an error (tag %u)",
                                 (unsigned long long)now, k, pe[k].rx_tag);
                } else if (pe[k].rx_type != TC_TYPE_REPORT && pe[k].rx_tag == (uint32_t)i + 1 &&
                           pe[k].got < pe[k].expect) {
                    op->deliveries++;
                    op->end = now;
                    due--;
                    if (++pe[k].got == pe[k].expect)
                        res->node_done[(size_t)i * nn + k] = now;
                }
            }
            /* injection: one flit a cycle, a packet started with a credit */
            for (size_t s = 0; s < nsend;) {
                uint32_t k = send[s];
                pe_state *p = &pe[k];
                if (p->sent == 0 && p->credits == 0) {
                    s++;
                    continue;
                }
                if (p->sent == 0)
                    p->credits--;
                in[k].inj.valid = 1;
                in[k].inj.flit = p->pkt[p->sent++];
                if (!in[k].ej_cred) /* else listed already, with its credit */
                    touched[nt++] = k;
                if (p->sent == p->nflits && p->more) { /* the next packet of the same broadcast */
                    p->more--;
                    p->sent = 0;
                    s++;
                } else if (p->sent == p->nflits) {
                    send[s] = send[--nsend];
                } else {
                    s++;
                }
            }
            for (size_t a = 0; a < nt; a++) {
                tc_net_pe_in(n, (int)touched[a], &in[touched[a]]);
                memset(&in[touched[a]], 0, sizeof in[0]);
            }
            tc_net_step(n, NULL);
            if (tc_net_fault(n)) {
                snprintf(res->msg, sizeof res->msg, "%s", tc_net_fault(n));
                rc = -1;
                break;
            }
        }
        if (progress)
            progress(ctx, i + 1, w->repeat);
    }
    res->cycles = tc_net_cycle(n) - start;
    if (!rc && res->errors)
        rc = -1;
out:
    free(pe);
    free(send);
    free(touched);
    free(stamp);
    free(in);
    return rc;
}

void tc_wl_result_free(tc_wl_result *res)
{
    free(res->op);
    free(res->node_done);
    memset(res, 0, sizeof *res);
}
