#include "workload.h"

#include "../alu.h"
#include "../fpsum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tc_wl_names[TC_WL_KINDS + 1] = {"bcast", "reduce", "allreduce", "barrier", "tree_barrier",
                                                  "allgather", "spmv", "heat", "trace", NULL};

/* One PE: the packet of the current operation it has to send, its credits, the
 * packet it is receiving, and what it still expects. */
typedef struct {
    tc_flit pkt[TC_SLOT_FLITS];
    int nflits, sent, credits, rx;
    int more; /* packets to send after this one (a broadcast split into packets) */
    uint32_t expect, got;
    uint8_t rx_type, rx_len, rx_bad;
    tc_flit rxbuf[TC_SLOT_FLITS]; /* the packet being taken, when a deliver hook wants it */
    const tc_flit *rx_want;       /* what it must be (pe_see) */
    uint32_t rx_tag;
    tc_flit rx_hdr; /* the header of the packet being received */
    /* a stream: operations started, the oldest without its result, results got
     * after it (bit b: operation low + 1 + b), on the list of PEs with work, the
     * cycle after its last result */
    int next, low, listed;
    uint64_t later[TC_WL_WINDOW_MAX / 64];
    uint64_t wake;
    uint64_t win_from; /* the cycle it left the list with the window full */
} pe_state;

static int later_bit(const pe_state *p, int b) { return (int)(p->later[b / 64] >> (b % 64)) & 1; }

/* drops bit 0 (operation low + 1 becomes low + 0) */
static void later_shift(pe_state *p)
{
    for (int i = 0; i < TC_WL_WINDOW_MAX / 64; i++)
        p->later[i] = p->later[i] >> 1 | (i + 1 < TC_WL_WINDOW_MAX / 64 ? p->later[i + 1] << 63 : 0);
}

static int pe_of(const tc_row *rows, int node, int tree)
{
    tc_row r = TC_ROWP(rows, node, tree);
    return TC_RGET(r, VALID) && TC_RGET(r, PE);
}

void tc_wl_packet(tc_flit *pkt, int type, int node, int tree, int len, uint32_t tag)
{
    memset(pkt, 0, sizeof(tc_flit) * TC_SLOT_FLITS);
    TC_HSET(&pkt[0], TYPE, (unsigned)type);
    TC_HSET(&pkt[0], TREE, (unsigned)tree);
    TC_HSET(&pkt[0], LEN, (unsigned)len);
    TC_HSET(&pkt[0], SRC, (unsigned)node);
    TC_HSET(&pkt[0], TAG, tag);
    for (int f = 1; f <= len; f++) /* data: any bits will do, the testbench checks the values */
        pkt[f].w[0] = pkt[f].w[1] = (uint64_t)node * 0x9e3779b97f4a7c15ull + (uint64_t)f;
}

static void make_pkt(pe_state *pe, int type, int node, int tree, int len, uint32_t tag)
{
    tc_wl_packet(pe->pkt, type, node, tree, len, tag);
    pe->nflits = len + 1;
    pe->sent = 0;
    pe->more = 0;
}

/* Node k's contribution to reduce operation i, the (i / T)-th on tree tree + i mod T
 * (T = trees): ReduceId (rid0 + i / T) mod nr (the network's red_rids), in turn on
 * each tree, tag i + 1. */
static void make_contrib(pe_state *pe, const tc_workload *w, int k, int i, unsigned nr)
{
    int barrier = w->kind == TC_WL_TREE_BARRIER, nt = w->trees > 1 ? w->trees : 1;
    make_pkt(pe, w->kind == TC_WL_REDUCE ? TC_TYPE_REDUCE : TC_TYPE_ALLREDUCE, k, w->tree + i % nt,
             barrier ? 0 : w->len, (uint32_t)i + 1);
    TC_HSET(&pe->pkt[0], RID, (unsigned)(w->rid0 + i / nt) % nr);
    TC_HSET(&pe->pkt[0], OP, barrier ? TC_OP_AND : (unsigned)w->op);
    TC_HSET(&pe->pkt[0], LANE, barrier ? TC_LANE_32 : (unsigned)w->lane);
    TC_HSET(&pe->pkt[0], DST, w->kind == TC_WL_REDUCE ? (unsigned)w->dst : 0);
    if (w->op == TC_OP_FSUM && !barrier) { /* IEEE values: the Reducer converts them */
        TC_HSET(&pe->pkt[0], VALS, 1);
        pe->nflits = 1 + (int)tc_wire_len(&pe->pkt[0]);
    }
    if (w->data && !barrier)
        w->data(w->data_ctx, (uint32_t)k, i, &pe->pkt[1], w->len);
}

/* What PE k sees this cycle: its injection credits, and an ejected flit, taken at
 * once (its data compared with want[] if given: rx_bad; with nwant > 1, want holds
 * TC_SLOT_FLITS flits for each of nwant operations, and the tag picks them). 1 when a
 * whole packet is in (rx_type, rx_tag): the PE hands back its ejection credit in `in`. */
static int pe_see(const tc_net *n, uint32_t k, pe_state *p, tc_pe_in *in, const tc_flit *want, int nwant, int keep)
{
    tc_pe_out o;
    tc_net_pe_out(n, (int)k, &o);
    p->credits += o.inj_cred;
    if (!o.ej.valid)
        return 0;
    int first = p->rx == 0;
    if (first) {
        p->rx_hdr = o.ej.flit;
        p->rx_type = (uint8_t)TC_HGET(&o.ej.flit, TYPE);
        p->rx_tag = (uint32_t)TC_HGET(&o.ej.flit, TAG);
        p->rx_len = (uint8_t)TC_HGET(&o.ej.flit, LEN);
        p->rx_bad = want && TC_HGET(&o.ej.flit, POISON);
        p->rx = p->rx_len + 1;
        p->rx_want = want;
        if (want && nwant > 1) /* a tag out of range is not an expected result: no data to compare */
            p->rx_want = p->rx_tag - 1 < (uint32_t)nwant ? want + (size_t)(p->rx_tag - 1) * TC_SLOT_FLITS : NULL;
    }
    if (keep)
        p->rxbuf[p->rx_len + 1 - p->rx] = o.ej.flit;
    if (!first && p->rx_want) {
        const tc_flit *f = &p->rx_want[p->rx_len + 1 - p->rx];
        p->rx_bad |= o.ej.flit.w[0] != f->w[0] || o.ej.flit.w[1] != f->w[1];
    }
    if (--p->rx)
        return 0;
    in->ej_cred = 1;
    return 1;
}

/* "cycle C: node K reports an error: what (tree T, ReduceId R, tag G)", from the ERROR
 * packet PE k has just received. */
static void error_msg(char *msg, size_t len, unsigned long long now, uint32_t k, const pe_state *p)
{
    snprintf(msg, len, "cycle %llu: node %u reports an error: %s (tree %u, ReduceId %u, tag %u)", now, k,
             tc_err_name((unsigned)TC_HGET(&p->rx_hdr, OP)), (unsigned)TC_HGET(&p->rx_hdr, TREE),
             (unsigned)TC_HGET(&p->rx_hdr, RID), p->rx_tag);
}

/* The PEs that see a flit or a credit this cycle (each once: stamp) take it (pe_see,
 * with want, nwant and keep); those with a whole packet in are appended to touched[]
 * from *nt on (they hand back an ejection credit). */
static void take(const tc_net *n, uint64_t now, pe_state *pe, tc_pe_in *in, uint64_t *stamp, uint32_t *touched,
                 size_t *nt, const tc_flit *want, int nwant, int keep)
{
    const uint32_t *act;
    size_t na = tc_net_pe_active(n, &act);
    for (size_t a = 0; a < na; a++) {
        uint32_t k = act[a];
        if (stamp[k] == now + 1)
            continue;
        stamp[k] = now + 1;
        if (pe_see(n, k, &pe[k], &in[k], want, nwant, keep))
            touched[(*nt)++] = k;
    }
}

/* Sets up operation i: every sender's packet and every node's expected count.
 * Returns the deliveries expected, or -1 with msg. */
static long build_op(const tc_workload *w, const tc_topo *t, const tc_row *rows, unsigned nr, int i, pe_state *pe,
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
        if (w->kind != TC_WL_TREE_BARRIER && w->op == TC_OP_FSUM && w->len % 2) {
            snprintf(msg, mlen, "an fsum reduce carries whole elements, two flits each: len %d is odd", w->len);
            return -1;
        }
        if (w->kind == TC_WL_REDUCE && (w->dst < 0 || w->dst >= t->n || !pe_of(rows, w->dst, tree))) {
            snprintf(msg, mlen, "reduce destination %d is not a Pe node of tree %d", w->dst, tree);
            return -1;
        }
        for (int k = 0; k < t->n; k++) {
            if (!pe_of(rows, k, tree))
                continue;
            make_contrib(&pe[k], w, k, i, nr);
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
    case TC_WL_ALLGATHER: /* each sender's M bytes in packets of len flits, as a broadcast's */
        if (w->packets > 1 && w->len == 0) {
            snprintf(msg, mlen, "an allgather split into %d packets needs len >= 1", w->packets);
            return -1;
        }
    {
        uint32_t nsenders[TC_TREES] = {0}, per = (uint32_t)(w->packets > 1 ? w->packets : 1);
        for (int k = 0; k < t->n; k++) {
            int tr = k % TC_TREES;
            if (!pe_of(rows, k, tr))
                continue;
            make_pkt(&pe[k], TC_TYPE_BCAST, k, tr, w->len, tag);
            pe[k].more = w->packets > 1 ? w->packets - 1 : 0;
            senders[(*nsend)++] = (uint32_t)k;
            nsenders[tr]++;
        }
        for (int j = 0; j < t->n; j++) /* every sender's packets on the trees j is a member of, but its own */
            for (int tr = 0; tr < TC_TREES; tr++)
                if (pe_of(rows, j, tr))
                    pe[j].expect += (nsenders[tr] - (j % TC_TREES == tr)) * per;
        break;
    }
    default:
        snprintf(msg, mlen, "unknown workload %d", (int)w->kind);
        return -1;
    }
    for (int k = 0; k < t->n; k++)
        due += pe[k].expect;
    return due;
}

/* A stream of allreduces or tree barriers on w->tree (window W = w->window > 1):
 * each member's PE starts operation i, under its injection credits, the cycle after
 * it has the results of operations 0 .. i - W, so at most W of its operations are
 * in flight. An operation starts when its first PE sends. Every result is checked:
 * its data equal the operation applied to every member's contribution, no POISON. */
/* One cycle of the network: the PE inputs of the nodes touched, then cleared; -1 with
 * the network's fault in res->msg. */
static int step_touched(tc_net *n, tc_pe_in *in, const uint32_t *touched, size_t nt, tc_wl_result *res)
{
    for (size_t a = 0; a < nt; a++) {
        tc_net_pe_in(n, (int)touched[a], &in[touched[a]]);
        memset(&in[touched[a]], 0, sizeof in[0]);
    }
    tc_net_step(n, NULL);
    if (tc_net_fault(n)) {
        snprintf(res->msg, sizeof res->msg, "%s", tc_net_fault(n));
        return -1;
    }
    return 0;
}

static int run_stream(tc_net *n, const tc_row *rows, const tc_workload *w, tc_wl_result *res, pe_state *pe,
                      uint32_t *send, uint32_t *touched, uint64_t *stamp, tc_pe_in *in,
                      tc_wl_progress_fn progress, void *ctx)
{
    const tc_topo *t = tc_net_topo(n);
    size_t nn = (size_t)t->n, nsend = 0;
    uint64_t members = 0, got = 0, start = tc_net_cycle(n);
    int started = 0, completed = 0, win = w->window, rc = 0;
    int nwant = w->data ? w->repeat : 1; /* contributions of their own: each operation's result */
    tc_flit *want = calloc((size_t)nwant * TC_SLOT_FLITS, sizeof *want);
    if (!want) {
        snprintf(res->msg, sizeof res->msg, "out of memory for the results of %d operations", nwant);
        return -1;
    }
    int nt = w->trees > 1 ? w->trees : 1;
    unsigned nr = (unsigned)tc_net_params(n)->red_rids;
    if (win > (int)nr * nt || win > TC_WL_WINDOW_MAX || w->tree + nt > TC_TREES ||
        (w->kind != TC_WL_ALLREDUCE && w->kind != TC_WL_TREE_BARRIER)) {
        snprintf(res->msg, sizeof res->msg, "a stream (window %d, trees %d from tree %d) is of allreduce or "
                 "tree_barrier, window 2..%u x trees (red_rids; at most %d), on trees up to %d", win, nt, w->tree, nr,
                 TC_WL_WINDOW_MAX, TC_TREES - 1);
        rc = -1;
        goto out;
    }
    for (int k = 0; k < t->n; k++) /* the trees' member sets are one: each operation's result is the same */
        for (int j = 1; j < nt; j++)
            if (pe_of(rows, k, w->tree + j) != pe_of(rows, k, w->tree)) {
                snprintf(res->msg, sizeof res->msg, "a stream over trees %d..%d: node %d's PE is a member of tree %d "
                         "but not of tree %d (the trees must have one member set)", w->tree, w->tree + nt - 1, k,
                         pe_of(rows, k, w->tree) ? w->tree : w->tree + j, pe_of(rows, k, w->tree) ? w->tree + j : w->tree);
                rc = -1;
                goto out;
            }
    for (int k = 0; k < t->n; k++) { /* every member sends; the result it must get back */
        if (!pe_of(rows, k, w->tree))
            continue;
        for (int i = 0; i < nwant; i++) {
            tc_flit *wi = want + (size_t)i * TC_SLOT_FLITS;
            make_contrib(&pe[k], w, k, i, nr);
            const tc_flit *h = &pe[k].pkt[0], *d = &pe[k].pkt[1];
            tc_flit el[TC_SLOT_FLITS];
            if (TC_HGET(h, VALS)) { /* values: combined as the elements the Reducer makes */
                tc_fpsum_elements(TC_HGET(h, LANE), TC_HGET(h, LEN), d, el);
                d = el;
            }
            if (members) {
                tc_alu_data(&wi[1], d, TC_HGET(h, LEN), TC_HGET(h, OP), TC_HGET(h, LANE));
            } else {
                wi[0] = *h;
                TC_HSET(&wi[0], VALS, 0);
                memcpy(&wi[1], d, sizeof *d * TC_HGET(h, LEN));
            }
        }
        pe[k].nflits = pe[k].sent = 0; /* nothing being sent */
        pe[k].listed = 1;
        send[nsend++] = (uint32_t)k;
        members++;
    }
    unsigned rlen = (unsigned)w->len; /* the results' data flits */
    if (w->op == TC_OP_FSUM && w->len) { /* the root converts the elements: the PEs get values */
        rlen = tc_fpsum_values_len(w->lane, (unsigned)w->len);
        for (int i = 0; i < nwant; i++) {
            tc_flit *wi = want + (size_t)i * TC_SLOT_FLITS, el[TC_SLOT_FLITS];
            memcpy(el, &wi[1], sizeof el[0] * (size_t)w->len);
            tc_fpsum_values(w->lane, (unsigned)w->len, el, &wi[1]);
        }
    }
    while (got < members * (uint64_t)w->repeat) {
        uint64_t now = tc_net_cycle(n);
        size_t nt = 0;
        if (now - start >= w->max_cycles) {
            snprintf(res->msg, sizeof res->msg, "%s stream: %llu of %llu results still missing after %llu cycles",
                     tc_wl_names[w->kind], (unsigned long long)(members * (uint64_t)w->repeat - got),
                     (unsigned long long)(members * (uint64_t)w->repeat), (unsigned long long)w->max_cycles);
            rc = -1;
            goto out;
        }
        take(n, now, pe, in, stamp, touched, &nt, want, nwant, w->deliver != NULL);
        for (size_t x = 0, nin = nt; x < nin; x++) {
            uint32_t k = touched[x];
            pe_state *p = &pe[k];
            if (p->rx_type == TC_TYPE_REPORT)
                continue;
            /* a result of operation j: one it has started and not yet received */
            int j = (int)p->rx_tag - 1, b = j - p->low - 1;
            p->rx_bad |= p->rx_len != rlen; /* the result's length: the contributions' (or the values') */
            int ok = p->rx_type == TC_TYPE_ALLREDUCE && j >= p->low && j < p->next && !(b >= 0 && later_bit(p, b));
            if ((!ok || p->rx_bad) && !res->errors++) {
                if (p->rx_type == TC_TYPE_ERROR)
                    error_msg(res->msg, sizeof res->msg, (unsigned long long)now, k, p);
                else
                    snprintf(res->msg, sizeof res->msg, "cycle %llu: node %u %s (type %u, tag %u)",
                             (unsigned long long)now, k,
                             !ok ? "received a packet it does not expect" : "received a wrong result", p->rx_type,
                             p->rx_tag);
            }
            if (!ok)
                continue;
            if (w->deliver)
                w->deliver(w->deliver_ctx, k, j, now, p->rxbuf, p->rx_len + 1);
            if (b >= 0) {
                p->later[b / 64] |= 1ull << (b % 64);
            } else { /* the oldest: move on past every result already in */
                for (p->low++; later_bit(p, 0); later_shift(p))
                    p->low++;
                later_shift(p);
                p->wake = now + 1;
            }
            tc_op_result *op = &res->op[j];
            op->end = now;
            res->node_done[(size_t)j * nn + k] = now;
            got++;
            if (++op->deliveries == members && progress) {
                tc_wl_progress pr = {tc_net_cycle(n) - start, got, members * (uint64_t)w->repeat, ++completed,
                                     w->repeat};
                progress(ctx, &pr);
            }
            if (!p->listed && p->next < w->repeat && p->next < p->low + win) {
                res->win_wait += now - p->win_from;
                p->listed = 1;
                send[nsend++] = k;
            }
        }
        /* injection: one flit a cycle; a PE between packets starts its next operation
         * if the window and a credit allow, from the cycle after the result that let
         * it, or leaves the list */
        for (size_t s = 0; s < nsend;) {
            uint32_t k = send[s];
            pe_state *p = &pe[k];
            if (p->sent == p->nflits) {
                if (p->next >= w->repeat || p->next >= p->low + win) {
                    p->win_from = now;
                    p->listed = 0;
                    send[s] = send[--nsend];
                    continue;
                }
                if (!p->credits || now < p->wake) {
                    res->inj_wait += !p->credits && now >= p->wake;
                    s++;
                    continue;
                }
                make_contrib(p, w, (int)k, p->next, nr);
                if (p->next == started)
                    res->op[started++].start = now;
                p->next++;
                p->credits--;
            }
            in[k].inj.valid = 1;
            in[k].inj.flit = p->pkt[p->sent++];
            if (!in[k].ej_cred) /* else listed already, with its credit */
                touched[nt++] = k;
            s++;
        }
        if (step_touched(n, in, touched, nt, res)) {
            rc = -1;
            goto out;
        }
    }
out:
    free(want);
    return rc;
}

int tc_wl_run(tc_net *n, const tc_row *rows, const tc_workload *w, tc_wl_result *res,
              tc_wl_progress_fn progress, void *ctx)
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
    tc_net_lookahead(n, !w->step);
    long due0 = 0; /* above 2^31 for a broadcast of 2^30 bytes in one-flit packets on 64 nodes */
    if (w->window > 1)
        rc = run_stream(n, rows, w, res, pe, send, touched, stamp, in, progress, ctx);
    else
    for (int i = 0; i < w->repeat && !rc; i++) {
        size_t nsend;
        long due = build_op(w, t, rows, (unsigned)tc_net_params(n)->red_rids, i, pe, send, &nsend, res->msg, sizeof res->msg);
        if (due < 0) {
            rc = -1;
            break;
        }
        due0 = i ? due0 : due; /* every operation of a run delivers as much as the first */
        tc_wl_progress pr = {0, (uint64_t)due0 * (uint64_t)i, (uint64_t)due0 * (uint64_t)w->repeat, i, w->repeat};
        tc_op_result *op = &res->op[i];
        op->start = tc_net_cycle(n);
        while (due > 0 || nsend > 0) {
            uint64_t now = tc_net_cycle(n);
            size_t nt = 0;
            if (progress && !(now & 8191)) {
                pr.cycle = now - start;
                pr.delivered = (uint64_t)due0 * (uint64_t)i + (uint64_t)(due0 - due);
                progress(ctx, &pr);
            }
            if (now - start >= w->max_cycles) {
                snprintf(res->msg, sizeof res->msg,
                         "operation %d of %s: %ld deliveries still missing after %llu cycles", i + 1,
                         tc_wl_names[w->kind], due, (unsigned long long)w->max_cycles);
                rc = -1;
                break;
            }
            /* what the PEs see: credits, ejected flits; a whole packet is taken at once */
            take(n, now, pe, in, stamp, touched, &nt, NULL, 0, w->deliver != NULL);
            for (size_t x = 0; x < nt; x++) {
                uint32_t k = touched[x];
                if (pe[k].rx_type == TC_TYPE_ERROR) {
                    if (!res->errors++)
                        error_msg(res->msg, sizeof res->msg, (unsigned long long)now, k, &pe[k]);
                } else if (pe[k].rx_type != TC_TYPE_REPORT && pe[k].rx_tag == (uint32_t)i + 1 &&
                           pe[k].got < pe[k].expect) {
                    if (w->deliver)
                        w->deliver(w->deliver_ctx, k, i, now, pe[k].rxbuf, pe[k].rx_len + 1);
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
            if (step_touched(n, in, touched, nt, res)) {
                rc = -1;
                break;
            }
        }
        if (progress) {
            pr.cycle = tc_net_cycle(n) - start;
            pr.delivered = (uint64_t)due0 * (uint64_t)(i + 1);
            pr.ops_done = i + 1;
            progress(ctx, &pr);
        }
    }
    tc_net_lookahead(n, 0); /* the routers in step with the PEs again */
    /* drain: the PEs take what is still in flight (a reduce's result on its way down
     * the tree past its DST, the credit block's reports) and send nothing, until no
     * packet but the credit block's periodic reports is left anywhere (with EjLat
     * above about 2040 those never stop: tc_net_settled), so that the caller may
     * rewrite a routing table */
    for (uint64_t t0 = tc_net_cycle(n); !rc && w->drain && !tc_net_settled(n);) {
        uint64_t now = tc_net_cycle(n);
        size_t nt = 0;
        if (now - t0 >= w->max_cycles) {
            snprintf(res->msg, sizeof res->msg, "%s: packets still in flight %llu cycles after the last delivery",
                     tc_wl_names[w->kind], (unsigned long long)w->max_cycles);
            rc = -1;
            break;
        }
        take(n, now, pe, in, stamp, touched, &nt, NULL, 0, 0);
        for (size_t x = 0; x < nt; x++)
            if (pe[touched[x]].rx_type == TC_TYPE_ERROR && !res->errors++)
                error_msg(res->msg, sizeof res->msg, (unsigned long long)now, touched[x], &pe[touched[x]]);
        rc = step_touched(n, in, touched, nt, res);
    }
    if (!rc && tc_net_fault(n)) { /* found in the cycles the routers lagged */
        snprintf(res->msg, sizeof res->msg, "%s", tc_net_fault(n));
        rc = -1;
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
