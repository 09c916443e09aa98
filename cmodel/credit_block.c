/* The credit block and error reports, the twin of rtl/tc_credit_block.v: one flit a
 * cycle into the report buffer when it has room, its duties taking turns round-robin
 * (tc_rr_arb): the oldest error, this node's phase packet, the barrier's completion,
 * a due report (header, then its two data flits; one at a time: the next waits until
 * the report buffer has routed this one), the credit owed to each tree's children. A
 * duty that stays due is written within 19 others' packets. */
#include "credit_block.h"

#include <string.h>

void tc_credit_block_reset(tc_credit_block *cb, unsigned red_rids)
{
    memset(cb, 0, sizeof *cb);
    cb->nr = (uint8_t)red_rids;
    for (int t = 0; t < TC_TREES; t++)
        cb->up_cred[t] = (uint8_t)red_rids;
}

/* A header of a packet this router makes itself (credit block, phase counters). */
static tc_flit make_hdr(unsigned type, unsigned tree, unsigned rid, unsigned len, unsigned op, unsigned src, unsigned dst,
                        uint32_t tag)
{
    tc_flit h = {{0, 0}};
    TC_HSET(&h, TYPE, type);
    TC_HSET(&h, TREE, tree);
    TC_HSET(&h, RID, rid);
    TC_HSET(&h, LEN, len);
    TC_HSET(&h, OP, op);
    TC_HSET(&h, SRC, src);
    TC_HSET(&h, DST, dst);
    TC_HSET(&h, TAG, tag);
    return h;
}

void tc_credit_block_gen(const tc_credit_block *cb, unsigned id, unsigned ready, const tc_phase *ph,
                         const tc_phase_ev *pe, tc_credit_block_ev *ev)
{
    unsigned room = !cb->gen_idx && ready, req = 0, pick = TC_CB_REQS;
    if (room) {
        req = (cb->nerr != 0) << TC_CB_ERROR | pe->send << TC_CB_PHASE | pe->done << TC_CB_DONE |
              (cb->report_due && !cb->rep_in) << TC_CB_REPORT;
        uint64_t due[2]; /* the 16 trees' counts: any due */
        _Static_assert(sizeof due == sizeof cb->cred_due, "cred_due is 16 bytes");
        memcpy(due, cb->cred_due, sizeof due);
        for (unsigned t = 0; (due[0] | due[1]) && t < TC_TREES; t++)
            req |= (cb->cred_due[t] != 0) << (TC_CB_CREDIT + t);
        if (req)
            pick = tc_rr_pick(req, cb->rr);
    }
    unsigned pop = pick == TC_CB_ERROR, gen_phase = pick == TC_CB_PHASE, gen_done = pick == TC_CB_DONE;
    unsigned gen_report = pick == TC_CB_REPORT, gen_credit = pick >= TC_CB_CREDIT && pick < TC_CB_REQS;
    unsigned cred_tree = gen_credit ? pick - TC_CB_CREDIT : 0;
    tc_wire rep = {0, 0, {{0, 0}}};
    if (cb->gen_idx) { /* the report's data flits follow its header */
        rep.valid = 1;
        rep.flit = cb->gen_data[cb->gen_idx - 1];
    } else if (gen_phase) {
        rep.valid = 1;
        rep.flit = make_hdr(TC_TYPE_PHASE, 0, 0, 0, 0, id, ph->total, TC_TAG_PHASE | (uint32_t)id << 12 | (ph->total & 0xfffu));
    } else if (gen_done) {
        rep.valid = 1;
        rep.flit = make_hdr(TC_TYPE_BARRIER, 0, 0, 0, ph->mode, id, ph->target, ph->tag);
    } else if (gen_report || gen_credit) {
        rep.valid = 1;
        rep.flit = make_hdr(gen_report ? TC_TYPE_REPORT : TC_TYPE_CREDIT, gen_credit ? cred_tree : 0, 0, gen_report ? 2 : 0,
                             0, id, 0, (gen_report ? TC_TAG_REPORT : TC_TAG_CREDIT) | (uint32_t)id << 12 | cb->seq);
    } else if (pop) {
        const tc_errrec *x = &cb->errq[0];
        rep.valid = 1;
        rep.flit = make_hdr(TC_TYPE_ERROR, x->tree, x->rid, 0, x->code, id, (unsigned)x->unit | (unsigned)cb->lost << 8, x->tag);
    }
    *ev = (tc_credit_block_ev){pop, gen_phase, gen_done, gen_report, gen_credit, cred_tree, pick, rep, {0, 0, 0, 0, 0},
                               0, 0};
}

/* Errors of this cycle: the Reducer slices', lowest slice first, then dropped
 * packets, then route errors, lowest unit first. One is queued; the others are
 * counted as lost. */
void tc_credit_block_errors(const tc_credit_block *cb, int np, int ns, const tc_errrec *red, const tc_unit_sig *s,
                            tc_credit_block_ev *ev)
{
    unsigned nev = 0;
    for (int k = 0; k < ns; k++)
        if (red[k].code) {
            if (!nev)
                ev->err = red[k];
            nev++;
        }
    /* Only the link buffers and the PEGroup FIFO can drop: the result and report
     * buffers are written only into a reserved or free slot (as rtl/tc_router.v). */
    for (unsigned m = s->ovf & ((2u << TC_U_BCAST(np)) - 1); m; m &= m - 1, nev++) {
        unsigned u = (unsigned)__builtin_ctz(m);
        const tc_flit *f = &s->wr[u]->flit;
        if (!nev)
            ev->err = (tc_errrec){TC_ERR_CREDIT, (uint8_t)TC_HGET(f, TREE), (uint8_t)TC_HGET(f, RID), (uint8_t)u,
                                  (uint32_t)TC_HGET(f, TAG)};
    }
    for (unsigned m = s->route; m; m &= m - 1) { /* route errors: only units that route have one */
        unsigned u = (unsigned)__builtin_ctz(m);
        const tc_flit *h = s->head[u];
        if (s->err[u] && !nev)
            ev->err = (tc_errrec){(uint8_t)s->err[u], (uint8_t)TC_HGET(h, TREE), (uint8_t)TC_HGET(h, RID), (uint8_t)u,
                                  (uint32_t)TC_HGET(h, TAG)};
        nev += s->err[u] != 0;
    }
    ev->nev = nev;
    ev->push = nev && cb->nerr < TC_ERRQ;
}

void tc_credit_block_commit(tc_credit_block *cb, const tc_credit_block_ev *ev, int np, int ns, const tc_row *table,
                            const tc_unit_sig *s, unsigned complete, unsigned made)
{
    if (ev->gen_report) { /* a snapshot of the counters, as the report's header is made */
        memset(cb->gen_data, 0, sizeof cb->gen_data);
        for (int t = 0; t < TC_TREES; t++)
            cb->gen_data[t / 8].w[(t % 8) / 4] |= (uint64_t)cb->done[t] << (16 * (t % 4));
    }
    /* Results counted as the Reducer completes them (reports), and as they enter the
     * result buffer (credits for the children; a credit of the parent used, if up). */
    unsigned ur = (unsigned)TC_U_REPORT(np, ns), got[TC_TREES] = {0}, any = complete || made || ev->gen_credit;
    cb->rep_in = ev->gen_report || (cb->rep_in && !((s->route >> ur & 1) && TC_HGET(s->head[ur], TYPE) == TC_TYPE_REPORT));
    for (unsigned m = s->route & ((1u << 2 * np) - 1); m; m &= m - 1) { /* credits from the parent */
        unsigned u = (unsigned)__builtin_ctz(m);
        if (!s->err[u] && TC_HGET(s->head[u], TYPE) == TC_TYPE_CREDIT)
            got[TC_HGET(s->head[u], TREE)]++, any = 1;
    }
    for (int t = 0; t < TC_TREES && any; t++) {
        unsigned res_now = (complete >> t) & 1, made_now = (made >> t) & 1;
        cb->up_cred[t] = (uint8_t)(cb->up_cred[t] + tc_credit_every(cb->nr) * got[t] - (made_now && !TC_RGET(table[t], ROOT)));
        unsigned since = cb->since[t] + made_now, due = cb->cred_due[t] - (ev->gen_credit && ev->cred_tree == (unsigned)t);
        if (since == tc_credit_every(cb->nr)) {
            since = 0;
            if (TC_RGET(table[t], DIRSUM) && due < TC_CRED_DUE_MAX)
                due++;
        }
        cb->since[t] = (uint8_t)since;
        cb->cred_due[t] = (uint8_t)due;
        cb->done[t] = (uint16_t)(cb->done[t] + res_now);
    }
    unsigned total = cb->total + (unsigned)__builtin_popcount(complete), cyc = cb->cyc + 1u; /* a slice each */
    cb->report_due = (uint8_t)((cb->report_due && !ev->gen_report) || total >= TC_REPORT_RESULTS || cyc == TC_REPORT_CYCLES);
    cb->total = (uint8_t)(total >= TC_REPORT_RESULTS ? total - TC_REPORT_RESULTS : total);
    cb->cyc = (uint16_t)(cyc % TC_REPORT_CYCLES);
    cb->seq = (uint16_t)((cb->seq + (ev->gen_report || ev->gen_credit)) & 0xfff);
    if (ev->pick < TC_CB_REQS && !cb->fixed)
        cb->rr = (uint8_t)(ev->pick + 1 == TC_CB_REQS ? 0 : ev->pick + 1);
    cb->gen_idx = (uint8_t)(ev->gen_report ? 1 : cb->gen_idx == 2 ? 0 : cb->gen_idx ? cb->gen_idx + 1 : 0);
    if (ev->pop) {
        memmove(&cb->errq[0], &cb->errq[1], sizeof cb->errq[0] * (TC_ERRQ - 1));
        cb->nerr--;
    }
    if (ev->push)
        cb->errq[cb->nerr++] = ev->err;
    unsigned lost = (ev->pop ? 0u : cb->lost) + ev->nev - ev->push;
    cb->lost = (uint8_t)(lost > 255 ? 255 : lost);
}

void tc_credit_block_idle_cycle(tc_credit_block *cb)
{
    unsigned cyc = cb->cyc + 1u;
    cb->report_due = cyc == TC_REPORT_CYCLES;
    cb->cyc = (uint16_t)(cyc % TC_REPORT_CYCLES);
}

int tc_credit_block_max_wait(unsigned fixed)
{
    tc_credit_block cb;
    tc_credit_block_reset(&cb, 16); /* any window: the duties take turns whatever it is */
    cb.fixed = (uint8_t)fixed;
    tc_phase ph;
    memset(&ph, 0, sizeof ph);
    tc_phase_ev pe = {.send = 1, .done = 1};
    tc_unit_sig s;
    memset(&s, 0, sizeof s);
    tc_row table[TC_TREES] = {0};
    int waited[TC_CB_REQS] = {0}, most = 0;
    for (int c = 0; c < 8 * TC_CB_REQS; c++) {
        cb.nerr = TC_ERRQ; /* every duty due, always */
        cb.report_due = 1;
        cb.rep_in = 0;
        memset(cb.cred_due, 1, sizeof cb.cred_due);
        tc_credit_block_ev ev;
        tc_credit_block_gen(&cb, 0, 1, &ph, &pe, &ev);
        tc_credit_block_commit(&cb, &ev, 1, 1, table, &s, 0, 0);
        for (unsigned d = 0; ev.pick < TC_CB_REQS && d < TC_CB_REQS; d++) {
            waited[d] = d == ev.pick ? 0 : waited[d] + 1;
            most = waited[d] > most ? waited[d] : most;
        }
    }
    return most >= 2 * TC_CB_REQS ? -1 : most;
}
