#include "router.h"

#include <stdio.h>
#include <string.h>

#include "alu.h"

size_t tc_router_buf_flits(int nports, int slots) { return (size_t)TC_NUNITS(nports) * (size_t)slots * TC_SLOT_FLITS; }
size_t tc_router_red_flits(int red_flits) { return (size_t)TC_TREES * TC_RIDS * (size_t)(1 + red_flits); }

void tc_router_reset(tc_router *r, int id, int nports, int slots, int pe_credits, int red_flits,
                     tc_flit *buf, tc_flit *red, tc_red_entry *ent)
{
    memset(r, 0, sizeof *r);
    r->id = (uint16_t)id;
    r->nports = (uint8_t)nports;
    r->slots = (uint8_t)slots;
    r->red_flits = (uint8_t)red_flits;
    for (int u = 0; u < TC_NUNITS(nports); u++)
        r->u[u].mem = buf + (size_t)u * slots * TC_SLOT_FLITS;
    r->red.data = red;
    r->red.ent = ent;
    for (int o = 0; o < nports; o++)
        r->o[o].cred[0] = r->o[o].cred[1] = (uint16_t)slots;
    r->o[TC_O_PE(nports)].cred[0] = (uint16_t)pe_credits;
    for (int t = 0; t < TC_TREES; t++)
        r->up_cred[t] = TC_INFLIGHT;
    r->diam = 1;
}

static const tc_flit *head_flit(const tc_router *r, int u, int idx)
{
    const tc_unit *un = &r->u[u];
    return &un->mem[un->rd_slot * TC_SLOT_FLITS + idx];
}

/* Route decision of unit u for a head packet with header h (tc_vc_unit.v, "RC"). */
unsigned tc_router_route(const tc_router *r, int u, const tc_flit *h, unsigned *mask, unsigned *vc)
{
    int np = r->nports, port = u >> 1;
    int is_link = u < 2 * np, is_down = is_link && (u & 1) == TC_VC_DOWN, is_bcast = u == TC_U_BCAST(np);
    tc_row row = r->row[TC_HGET(h, TREE)];
    unsigned type = TC_HGET(h, TYPE), red = type == TC_TYPE_REDUCE || type == TC_TYPE_ALLREDUCE;
    unsigned dirs = TC_RGET(row, DIRS) & ((1u << np) - 1);
    unsigned up = (1u << TC_RGET(row, TOROOT)) & ((1u << np) - 1);
    unsigned pe_copy = type == TC_TYPE_BCAST       ? TC_RGET(row, PE) && TC_HGET(h, SRC) != r->id
                       : type == TC_TYPE_ALLREDUCE ? TC_RGET(row, PE)
                                                   : TC_HGET(h, DST) == r->id;

    *mask = 0;
    *vc = TC_VC_DOWN;
    if (u == TC_U_REPORT(np)) { /* credits to the children, phase packets to every link, the rest to the PE */
        *mask = type == TC_TYPE_CREDIT ? dirs : type == TC_TYPE_PHASE ? (1u << np) - 1 : 1u << np;
        return TC_ERR_NONE;
    }
    /* the phase counters take barrier requests from the PE and phase packets from the links */
    if (type == TC_TYPE_BARRIER && is_bcast) {
        unsigned mode = TC_HGET(h, OP), k = mode & TC_BAR_DIAM ? r->diam : TC_HGET(h, DST);
        if (mode > (TC_BAR_FULL | TC_BAR_DIAM) || k == 0 || k > TC_BAR_KMAX)
            return TC_ERR_BAD_BARRIER;
        return r->ph.active ? TC_ERR_BARRIER_BUSY : TC_ERR_NONE;
    }
    if (type == TC_TYPE_PHASE && is_down)
        return r->ph.cnt[port] >= 2 ? TC_ERR_PHASE_AHEAD : TC_ERR_NONE;
    if (type == TC_TYPE_BARRIER || type == TC_TYPE_PHASE)
        return TC_ERR_BAD_TYPE;
    if (!TC_RGET(row, VALID))
        return TC_ERR_NO_TREE;
    if (type != TC_TYPE_BCAST && !red && !(type == TC_TYPE_CREDIT && is_down))
        return TC_ERR_BAD_TYPE;
    if (is_bcast) { /* a packet injected by this node's PE */
        if (!TC_RGET(row, PE))
            return TC_ERR_NOT_MEMBER;
        if (TC_HGET(h, SRC) != r->id)
            return TC_ERR_BAD_SRC;
        if (red && (TC_HGET(h, OP) >= TC_OPS || TC_HGET(h, LANE) > TC_LANE_64 || TC_HGET(h, LEN) > r->red_flits))
            return TC_ERR_BAD_OP;
    } else if (is_down) {
        if (TC_RGET(row, ROOT) || TC_RGET(row, TOROOT) != (unsigned)port)
            return TC_ERR_BAD_DIR;
    } else if (is_link && !((dirs >> port) & 1)) {
        return TC_ERR_BAD_DIR;
    }
    if (type == TC_TYPE_CREDIT) {
        *mask = 0; /* taken by this node's credit block */
    } else if (red && (is_bcast || (is_link && !is_down))) {
        *mask = 1u << TC_O_RED(np); /* a contribution: into the Reducer */
        *vc = TC_VC_UP;
    } else if (TC_RGET(row, ROOT) || is_down) {
        *mask = dirs | pe_copy << np;
    } else {
        *mask = up;
        *vc = TC_VC_UP;
    }
    return TC_ERR_NONE;
}

int tc_router_idle(const tc_router *r)
{
    int np = r->nports;
    const tc_phase *ph = &r->ph;
    if (r->o[TC_O_RED(np)].q.valid || r->red.idx || r->red.nready || r->red.cp_left || r->nerr || r->gen_idx ||
        r->report_due || r->inj_cred_q || ph->send_due || ph->done_due)
        return 0;
    for (int u = 0; u < TC_NUNITS(np); u++) {
        const tc_unit *un = &r->u[u];
        if (un->wr_idx || un->routed || un->full[un->rd_slot]) /* a FIFO: any full slot means the head is */
            return 0;
    }
    for (int o = 0; o < TC_NOUTS(np); o++)
        if (r->o[o].busy || r->o[o].q.valid)
            return 0;
    unsigned all_cnt = 1;
    for (int p = 0; p < np; p++) {
        if (r->cred_q[p])
            return 0;
        all_cnt &= r->ph.cnt[p] != 0;
    }
    for (int t = 0; t < TC_TREES; t++)
        if (r->cred_due[t])
            return 0;
    return !(ph->active && all_cnt);
}

void tc_router_idle_cycle(tc_router *r)
{
    unsigned cyc = r->cyc + 1u;
    r->report_due = cyc == TC_REPORT_CYCLES;
    r->cyc = (uint16_t)(cyc % TC_REPORT_CYCLES);
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

/* Credits a copy of unit u's head needs on link or PE output o. Bubble flow
 * control: a copy that enters a ring (new dimension, new VC, or from the PEGroup
 * FIFO, the result or the report buffer) needs two free slots there, so that every
 * ring keeps one for the packets already in it; a copy that continues along its
 * ring needs one. The PE is not a ring. */
unsigned tc_router_credits(const tc_router *r, int u, int o, unsigned vc)
{
    int np = r->nports;
    unsigned cont = o >= np || (u < 2 * np && o == ((u >> 1) ^ 1) && vc == (unsigned)(u & 1)) ||
                    (u == TC_U_REPORT(np) && (r->plant & TC_PLANT_REPORT_ONE));
    return cont ? 1u : 2u;
}

unsigned tc_router_red_waits_slot(const tc_router *r) { return r->plant & TC_PLANT_RESULT_SLOT; }

static unsigned credits_needed(const tc_router *r, int u, int o)
{
    return tc_router_credits(r, u, o, o >= r->nports ? 0 : r->u[u].out_vc);
}

/* A held result the Reducer can copy into the result buffer: one that goes down
 * from the root, or up with a credit of the parent (credit block). */
static int red_pick(const tc_router *r)
{
    const tc_reducer *rd = &r->red;
    for (unsigned i = 0; i < TC_TREES * TC_RIDS; i++) {
        unsigned s = (rd->cp_ptr + i) % (TC_TREES * TC_RIDS), t = s / TC_RIDS;
        if (rd->ent[s].ready && (TC_RGET(r->row[t], ROOT) || r->up_cred[t]))
            return (int)s;
    }
    return -1;
}

static unsigned rr_pick(unsigned elig, unsigned ptr)
{
    unsigned hi = elig & ~((1u << ptr) - 1);
    return (unsigned)__builtin_ctz(hi ? hi : elig);
}

void tc_router_cycle(tc_router *r, const tc_router_in *in, uint32_t *obs)
{
    int np = r->nports, nu = TC_NUNITS(np), no = TC_NOUTS(np), ored = TC_O_RED(np);
    unsigned route_ev = 0, free_ev = 0, busy_from = 0, ovf = 0, drop = 0, grant_u[TC_MAX_OUTS];
    unsigned rmask[TC_MAX_UNITS], rvc[TC_MAX_UNITS], rerr[TC_MAX_UNITS];
    const tc_wire *wr[TC_MAX_UNITS];

    /* Reducer (tc_reducer.v): takes the flit its input's output register holds. Every
     * data flit is combined with the stored partial result, or kept as it is if it
     * belongs to the first contribution. The last contribution's flits go straight
     * to the result buffer if it has a free slot and the result may leave (the root,
     * or a credit of the parent); else the result is held in memory, header first,
     * and copied into the result buffer later, while no contribution comes in. So a
     * contribution never waits for the result buffer: the Reducer takes every one. */
    tc_reducer *rd = &r->red;
    tc_unit *resu = &r->u[TC_U_RESULT(np)];
    const tc_wire rin_q = r->o[ored].q, *rin = &rin_q; /* the output register is committed below */
    unsigned r_hdr = rin->valid && rd->idx == 0, r_first = rd->first, r_last = rd->last, r_len = rd->len;
    unsigned r_tree = rd->tree, r_rid = rd->rid, r_skip = rd->skip, r_fast = rd->fast, r_err = 0, r_bit = 0;
    unsigned ew = 1u + r->red_flits; /* memory words per entry */
    tc_red_entry *e = NULL;
    tc_wire res = {0, 0, {{0, 0}}};
    tc_flit r_val = rin->flit;
    if (r_hdr) {
        const tc_flit *h = &rin->flit;
        tc_row row = r->row[TC_HGET(h, TREE)];
        unsigned own = r->o[ored].owner; /* the unit that sent the contribution */
        r_tree = TC_HGET(h, TREE);
        r_rid = TC_HGET(h, RID);
        r_len = TC_HGET(h, LEN);
        e = &rd->ent[r_tree * TC_RIDS + r_rid];
        r_bit = own < 2u * (unsigned)np ? own >> 1 : 8;
        r_first = e->cnt == 0;
        r_skip = e->ready || (!r_first && ((e->seen >> r_bit) & 1)); /* a result still held, or that source gave */
        if (r_skip)
            r_err = TC_ERR_RID_REUSE;
        else if (!r_first && (e->type != TC_HGET(h, TYPE) || e->op != TC_HGET(h, OP) || e->lane != TC_HGET(h, LANE) ||
                              e->len != r_len || e->dst != TC_HGET(h, DST)))
            r_err = TC_ERR_MISMATCH;
        r_last = !r_skip && e->cnt + 1u >= TC_RGET(row, PE) + TC_RGET(row, DIRSUM);
        r_fast = r_last && !resu->full[resu->wr_slot] && (TC_RGET(row, ROOT) || r->up_cred[r_tree]);
        TC_HSET(&r_val, SRC, r->id); /* the result leaves from here */
        if (!r_first) { /* with the first contribution's type, op, lane and DST */
            TC_HSET(&r_val, TYPE, e->type);
            TC_HSET(&r_val, OP, e->op);
            TC_HSET(&r_val, LANE, e->lane);
            TC_HSET(&r_val, DST, e->dst);
            TC_HSET(&r_val, POISON, e->poison || r_err == TC_ERR_MISMATCH || TC_HGET(h, POISON));
        }
    } else if (rin->valid && !r_first) {
        /* combine; a contribution that disagreed keeps the stored value */
        const tc_flit *prev = &rd->data[(r_tree * TC_RIDS + r_rid) * ew + rd->idx];
        if (rd->keep)
            r_val = *prev;
        else
            tc_alu(prev, &rin->flit, rd->op, rd->lane, &r_val);
    }
    unsigned r_tail = rin->valid && (r_hdr ? r_len == 0 : rd->idx == r_len);
    if (rin->valid && r_last && r_fast) {
        res.valid = 1;
        res.flit = r_val;
    }
    /* The copy of a held result: it starts while the Reducer's input is idle and
     * its output streams nothing, and blocks that output until it is done. */
    int cp_pick = rd->nready && !rd->cp_left && !rin->valid && !r->o[ored].busy && !resu->full[resu->wr_slot]
                      ? red_pick(r) : -1;
    unsigned cp_start = cp_pick >= 0, red_block = cp_start || rd->cp_left;
    if (rd->cp_left) {
        res.valid = 1;
        res.flit = rd->data[rd->cp_slot * ew + rd->cp_idx];
    }
    /* a result enters the result buffer: it counts for the credit block */
    unsigned made = (r_hdr && r_last && r_fast) || cp_start, made_tree = cp_start ? (unsigned)cp_pick / TC_RIDS : r_tree;

    /* Route decisions of the head packets, and frees. */
    for (int o = 0; o < no; o++)
        if (r->o[o].busy)
            busy_from |= 1u << r->o[o].owner;
    for (int u = 0; u < nu; u++) {
        tc_unit *un = &r->u[u];
        rerr[u] = 0;
        if (!un->routed && un->full[un->rd_slot]) {
            route_ev |= 1u << u;
            rerr[u] = tc_router_route(r, u, head_flit(r, u, 0), &rmask[u], &rvc[u]);
        }
        if (un->routed && !un->pend && !((busy_from >> u) & 1))
            free_ev |= 1u << u;
    }

    /* Phase counters (tc_phase.v): the PE's request enters the barrier; a phase is
     * completed when a phase packet has been counted from every link and this node's
     * own has been sent. The next phase packet, or the completion for the PE, waits
     * for the fence: every packet that was here when it became due has left. */
    tc_phase *ph = &r->ph;
    unsigned bu = TC_U_BCAST(np), ru_res = TC_U_RESULT(np), ph_arr = 0, all_cnt = 1, fence_clear = 1;
    unsigned ph_enter = ((route_ev >> bu) & 1) && !rerr[bu] && TC_HGET(head_flit(r, (int)bu, 0), TYPE) == TC_TYPE_BARRIER;
    uint8_t fence_n[TC_MAX_UNITS];
    for (int p = 0; p < np; p++) {
        int u = 2 * p + TC_VC_DOWN;
        if (((route_ev >> u) & 1) && !rerr[u] && TC_HGET(head_flit(r, u, 0), TYPE) == TC_TYPE_PHASE)
            ph_arr |= 1u << p;
        all_cnt &= ph->cnt[p] != 0;
    }
    unsigned ph_adv = ph->active && !ph->send_due && !ph->done_due && all_cnt;
    for (int u = 0; u <= (int)ru_res; u++)
        fence_n[u] = (uint8_t)(ph->fence[u] - (((free_ev >> u) & 1) && ph->fence[u]));
    /* A result made from a fenced contribution is fenced too: held in the Reducer,
     * or in the result buffer behind the packets now there. The fence is clear when
     * every count is zero and the Reducer holds no fenced result and makes none; a
     * fenced result entering the result buffer comes from one of those, so its place
     * in the FIFO counts from the next cycle (as tc_phase.v, for timing). */
    unsigned fenced_in = r_hdr && r_last && ph->fence[r->o[ored].owner], ahead = 0;
    unsigned cp_fenced = cp_start && rd->ent[cp_pick].fenced;
    for (int u = 0; u <= (int)ru_res; u++)
        fence_clear &= fence_n[u] == 0;
    fence_clear &= !fenced_in && rd->nfenced == 0;
    for (int k = 0; k < r->slots; k++)
        ahead += resu->full[k];
    ahead -= (free_ev >> ru_res) & 1;
    if (((fenced_in && r_fast) || cp_fenced) && fence_n[ru_res] < ahead + 1)
        fence_n[ru_res] = (uint8_t)(ahead + 1);
    unsigned nfenced = rd->nfenced + (fenced_in && !r_fast) - cp_fenced;

    /* Credit block (tc_credit_block.v): one flit a cycle into the report buffer when it
     * has room: the oldest error, else this node's phase packet, else the barrier's
     * completion, else a due report (header, then its two data flits), else the
     * credit owed to the children of the lowest tree. */
    tc_wire rep = {0, 0, {{0, 0}}};
    tc_unit *ru = &r->u[TC_U_REPORT(np)];
    unsigned room = !r->gen_idx && !ru->full[ru->wr_slot];
    unsigned pop = room && r->nerr, cred_tree = 0;
    unsigned gen_phase = room && !pop && ph->send_due && fence_clear;
    unsigned gen_done = room && !pop && !gen_phase && ph->done_due && fence_clear;
    unsigned gen_report = room && !pop && !gen_phase && !gen_done && r->report_due;
    for (unsigned t = TC_TREES; t-- > 0;)
        if (r->cred_due[t])
            cred_tree = t;
    unsigned gen_credit = room && !pop && !gen_phase && !gen_done && !gen_report && r->cred_due[cred_tree];
    if (r->gen_idx) { /* the report's data flits follow its header */
        rep.valid = 1;
        rep.flit = r->gen_data[r->gen_idx - 1];
    } else if (gen_phase) {
        rep.valid = 1;
        rep.flit = make_hdr(TC_TYPE_PHASE, 0, 0, 0, 0, r->id, ph->total, TC_TAG_PHASE | (uint32_t)r->id << 12 | (ph->total & 0xfffu));
    } else if (gen_done) {
        rep.valid = 1;
        rep.flit = make_hdr(TC_TYPE_BARRIER, 0, 0, 0, ph->mode, r->id, ph->target, ph->tag);
    } else if (gen_report || gen_credit) {
        rep.valid = 1;
        rep.flit = make_hdr(gen_report ? TC_TYPE_REPORT : TC_TYPE_CREDIT, gen_credit ? cred_tree : 0, 0, gen_report ? 2 : 0,
                            0, r->id, 0, (gen_report ? TC_TAG_REPORT : TC_TAG_CREDIT) | (uint32_t)r->id << 12 | r->seq);
    } else if (pop) {
        const tc_errrec *x = &r->errq[0];
        rep.valid = 1;
        rep.flit = make_hdr(TC_TYPE_ERROR, x->tree, x->rid, 0, x->code, r->id, (unsigned)x->unit | (unsigned)r->lost << 8, x->tag);
    }

    /* Evaluate: which unit each input flit writes, route decisions, frees. */
    for (int u = 0; u < nu; u++) {
        const tc_wire *w = u == TC_U_REPORT(np)   ? &rep
                           : u == TC_U_RESULT(np) ? &res
                           : u == TC_U_BCAST(np)  ? &in->inj
                                                  : &in->link[u >> 1];
        wr[u] = (w->valid && (u >= 2 * np || w->vc == (u & 1))) ? w : NULL;
        /* a header that finds no free slot: the packet is dropped (credit violation) */
        if (wr[u] && r->u[u].wr_idx == 0 && r->u[u].full[r->u[u].wr_slot])
            ovf |= 1u << u;
        if (wr[u] && (r->u[u].wr_idx == 0 ? (ovf >> u) & 1 : r->u[u].drop))
            drop |= 1u << u;
    }
    /* Errors of this cycle: the Reducer's first, then dropped packets, then route
     * errors, lowest unit first. One is queued; the others are counted as lost. */
    tc_errrec newerr = {0, 0, 0, 0, 0};
    unsigned nev = 0;
    if (r_err) {
        newerr = (tc_errrec){(uint8_t)r_err, (uint8_t)r_tree, (uint8_t)r_rid, (uint8_t)r->o[ored].owner,
                             (uint32_t)TC_HGET(&rin->flit, TAG)};
        nev++;
    }
    /* Only the link buffers and the PEGroup FIFO can drop: the result and report
     * buffers are written only into a reserved or free slot (as rtl/tc_router.v). */
    for (int u = 0; u <= TC_U_BCAST(np); u++)
        if ((ovf >> u) & 1) {
            if (!nev)
                newerr = (tc_errrec){TC_ERR_CREDIT, (uint8_t)TC_HGET(&wr[u]->flit, TREE),
                                     (uint8_t)TC_HGET(&wr[u]->flit, RID), (uint8_t)u,
                                     (uint32_t)TC_HGET(&wr[u]->flit, TAG)};
            nev++;
        }
    for (int u = 0; u < nu; u++)
        if (rerr[u]) {
            const tc_flit *h = head_flit(r, u, 0);
            if (!nev)
                newerr = (tc_errrec){(uint8_t)rerr[u], (uint8_t)TC_HGET(h, TREE), (uint8_t)TC_HGET(h, RID),
                                     (uint8_t)u, (uint32_t)TC_HGET(h, TAG)};
            nev++;
        }
    unsigned push = nev && r->nerr < TC_ERRQ;

    /* Switch allocation: one round-robin arbiter per output, over units with credit. */
    unsigned req[TC_MAX_OUTS] = {0}; /* units asking for each output */
    for (int u = 0; u < nu; u++)
        if (r->u[u].routed)
            for (unsigned m = r->u[u].pend; m; m &= m - 1)
                req[__builtin_ctz(m)] |= 1u << u;
    for (int o = 0; o < no; o++) {
        tc_outp *op = &r->o[o];
        unsigned elig = 0;
        grant_u[o] = ~0u;
        if (op->busy)
            continue;
        for (unsigned m = req[o]; m; m &= m - 1) {
            int u = __builtin_ctz(m);
            const tc_unit *un = &r->u[u];
            if (o == ored ? !red_block && (!tc_router_red_waits_slot(r) || !resu->full[resu->wr_slot])
                          : op->cred[o >= np ? 0 : un->out_vc] >= credits_needed(r, u, o))
                elig |= 1u << u;
        }
        if (elig)
            grant_u[o] = rr_pick(elig, op->ptr);
    }

    if (obs) {
        memset(obs, 0, sizeof(uint32_t) * TC_OBS_WORDS(np));
        for (int u = 0; u < nu; u++) {
            const tc_unit *un = &r->u[u];
            unsigned b = (unsigned)u * TC_OBS_UNIT_W;
            if (wr[u]) {
                unsigned first = un->wr_idx == 0, o = (ovf >> u) & 1;
                unsigned len = first ? TC_HGET(&wr[u]->flit, LEN) : un->wr_len;
                unsigned full = un->wr_idx == len && !((drop >> u) & 1);
                tc_bv_put(obs, b + TC_OBS_U_ARRIVE_LSB, 1, first && !o);
                tc_bv_put(obs, b + TC_OBS_U_FULL_LSB, 1, full);
                tc_bv_put(obs, b + TC_OBS_U_DROP_LSB, 1, o);
                tc_bv_put(obs, b + TC_OBS_U_WRTAG_LSB, 32,
                          first ? TC_HGET(&wr[u]->flit, TAG) : full ? un->wr_tag : 0);
            }
            if (((route_ev | free_ev) >> u) & 1)
                tc_bv_put(obs, b + TC_OBS_U_HEADTAG_LSB, 32, TC_HGET(head_flit(r, u, 0), TAG));
            tc_bv_put(obs, b + TC_OBS_U_ROUTE_LSB, 1, (route_ev >> u) & 1);
            tc_bv_put(obs, b + TC_OBS_U_FREE_LSB, 1, (free_ev >> u) & 1);
            tc_bv_put(obs, b + TC_OBS_U_ERR_LSB, 4, rerr[u]);
        }
        for (int o = 0; o < no; o++) {
            unsigned b = (unsigned)nu * TC_OBS_UNIT_W + (unsigned)o * TC_OBS_OUT_W;
            if (grant_u[o] != ~0u) {
                tc_bv_put(obs, b + TC_OBS_O_GRANT_LSB, 1, 1);
                tc_bv_put(obs, b + TC_OBS_O_SRC_LSB, 5, grant_u[o]);
            }
        }
        unsigned b = (unsigned)nu * TC_OBS_UNIT_W + (unsigned)no * TC_OBS_OUT_W;
        if (r_hdr) {
            tc_bv_put(obs, b + TC_OBS_R_HDR_LSB, 1, 1);
            tc_bv_put(obs, b + TC_OBS_R_FIRST_LSB, 1, r_first);
            tc_bv_put(obs, b + TC_OBS_R_LAST_LSB, 1, r_last);
            tc_bv_put(obs, b + TC_OBS_R_HELD_LSB, 1, r_last && !r_fast);
            tc_bv_put(obs, b + TC_OBS_R_TAG_LSB, 32, TC_HGET(&rin->flit, TAG));
        } else if (rd->cp_left && rd->cp_idx == 0) {
            tc_bv_put(obs, b + TC_OBS_R_COPY_LSB, 1, 1);
            tc_bv_put(obs, b + TC_OBS_R_TAG_LSB, 32, TC_HGET(&res.flit, TAG));
        }
        b = TC_OBS_PH_LSB(np);
        tc_bv_put(obs, b + TC_OBS_P_ENTER_LSB, 1, ph_enter);
        tc_bv_put(obs, b + TC_OBS_P_ADV_LSB, 1, ph_adv);
        tc_bv_put(obs, b + TC_OBS_P_SEND_LSB, 1, gen_phase);
        tc_bv_put(obs, b + TC_OBS_P_DONE_LSB, 1, gen_done);
        tc_bv_put(obs, b + TC_OBS_P_TOTAL_LSB, 16, ph->total);
    }

    /* Commit. Outputs first: they read head packets before any slot is freed. */
    for (int o = 0; o < no; o++) {
        tc_outp *op = &r->o[o];
        unsigned g = grant_u[o];
        if (o < np) {
            for (unsigned vc = 0; vc < 2; vc++)
                op->cred[vc] = (uint16_t)(op->cred[vc] + ((in->cred[o] >> vc) & 1) -
                                          (g != ~0u && r->u[g].out_vc == vc));
        } else if (o == TC_O_PE(np)) {
            op->cred[0] = (uint16_t)(op->cred[0] + in->ej_cred - (g != ~0u));
        }
        if (op->busy) {
            op->q.flit = *head_flit(r, op->owner, op->cnt);
            op->q.valid = 1;
            if (op->cnt == op->len)
                op->busy = 0;
            op->cnt++;
        } else if (g != ~0u) {
            const tc_flit *h = head_flit(r, (int)g, 0);
            op->q.flit = *h;
            op->q.valid = 1;
            op->q.vc = r->u[g].out_vc;
            op->owner = (uint8_t)g;
            op->len = (uint8_t)TC_HGET(h, LEN);
            op->busy = op->len != 0;
            op->cnt = 1;
            op->ptr = (uint8_t)(g + 1 == (unsigned)nu ? 0 : g + 1);
            r->u[g].pend &= (uint16_t) ~(1u << o);
        } else {
            memset(&op->q, 0, sizeof op->q);
        }
    }
    for (int u = 0; u < nu; u++) {
        tc_unit *un = &r->u[u];
        if ((route_ev >> u) & 1) {
            un->routed = 1;
            un->pend = (uint16_t)rmask[u];
            un->out_vc = (uint8_t)rvc[u];
        }
        if ((free_ev >> u) & 1) {
            un->routed = 0;
            un->full[un->rd_slot] = 0;
            un->rd_slot = (uint8_t)(un->rd_slot + 1 == r->slots ? 0 : un->rd_slot + 1);
        }
        if (wr[u]) {
            if (un->wr_idx == 0) {
                un->wr_len = (uint8_t)TC_HGET(&wr[u]->flit, LEN);
                un->wr_tag = (uint32_t)TC_HGET(&wr[u]->flit, TAG);
            }
            unsigned len = un->wr_idx == 0 ? TC_HGET(&wr[u]->flit, LEN) : un->wr_len;
            unsigned dropping = (drop >> u) & 1;
            if (!dropping)
                un->mem[un->wr_slot * TC_SLOT_FLITS + un->wr_idx] = wr[u]->flit;
            if (un->wr_idx == len) {
                if (!dropping) {
                    un->full[un->wr_slot] = 1;
                    un->wr_slot = (uint8_t)(un->wr_slot + 1 == r->slots ? 0 : un->wr_slot + 1);
                }
                un->wr_idx = 0;
                un->drop = 0;
            } else {
                un->wr_idx++;
                un->drop = (uint8_t)dropping;
            }
        }
    }
    if (r_hdr) {
        const tc_flit *h = &rin->flit;
        if (!r_skip) {
            if (r_first) {
                e->type = (uint8_t)TC_HGET(h, TYPE);
                e->op = (uint8_t)TC_HGET(h, OP);
                e->lane = (uint8_t)TC_HGET(h, LANE);
                e->len = (uint8_t)r_len;
                e->dst = (uint16_t)TC_HGET(h, DST);
                e->poison = 0;
                e->seen = 0;
            }
            e->poison |= r_err == TC_ERR_MISMATCH || TC_HGET(h, POISON); /* or a poisoned partial result */
            e->seen = (uint16_t)(r_last ? 0 : e->seen | 1u << r_bit);
            e->cnt = (uint8_t)(r_last ? 0 : e->cnt + 1);
            if (r_last && !r_fast) { /* held: the result's header, then its data flits, into memory */
                rd->data[(r_tree * TC_RIDS + r_rid) * ew] = r_val;
                e->ready = 1;
                e->fenced = (uint8_t)fenced_in;
                rd->nready++;
            }
        }
        rd->tree = (uint8_t)r_tree;
        rd->rid = (uint8_t)r_rid;
        rd->len = (uint8_t)r_len;
        rd->op = (uint8_t)TC_HGET(h, OP);
        rd->lane = (uint8_t)TC_HGET(h, LANE);
        rd->first = (uint8_t)r_first;
        rd->last = (uint8_t)r_last;
        rd->skip = (uint8_t)r_skip;
        rd->fast = (uint8_t)r_fast;
        rd->keep = r_err == TC_ERR_MISMATCH;
    } else if (rin->valid && !(r_last && r_fast) && !r_skip) {
        rd->data[(r_tree * TC_RIDS + r_rid) * ew + rd->idx] = r_val;
    }
    if (rd->cp_left) {
        rd->cp_left--;
        rd->cp_idx++;
    }
    if (cp_start) {
        tc_red_entry *c = &rd->ent[cp_pick];
        rd->cp_slot = (uint8_t)cp_pick;
        rd->cp_idx = 0;
        rd->cp_left = (uint8_t)(TC_HGET(&rd->data[(unsigned)cp_pick * ew], LEN) + 1);
        rd->cp_ptr = (uint8_t)(cp_pick + 1);
        rd->nready--;
        c->ready = c->fenced = 0;
    }
    rd->nfenced = (uint16_t)nfenced;
    if (rin->valid)
        rd->idx = (uint8_t)(r_tail ? 0 : rd->idx + 1);
    /* credit block: results counted as the Reducer produces them */
    if (gen_report) { /* a snapshot of the counters, as the report's header is made */
        memset(r->gen_data, 0, sizeof r->gen_data);
        for (int t = 0; t < TC_TREES; t++)
            r->gen_data[t / 8].w[(t % 8) / 4] |= (uint64_t)r->done[t] << (16 * (t % 4));
    }
    /* Results counted as the Reducer completes them (reports), and as they enter the
     * result buffer (credits for the children; a credit of the parent used, if up). */
    unsigned got[TC_TREES] = {0}, any = (r_hdr && r_last) || made || gen_credit;
    for (int u = 0; u < 2 * np; u++) /* credits from the parent */
        if (((route_ev >> u) & 1) && !rerr[u] && TC_HGET(head_flit(r, u, 0), TYPE) == TC_TYPE_CREDIT)
            got[TC_HGET(head_flit(r, u, 0), TREE)]++, any = 1;
    for (int t = 0; t < TC_TREES && any; t++) {
        unsigned res_now = r_hdr && r_last && r_tree == (unsigned)t, made_now = made && made_tree == (unsigned)t;
        r->up_cred[t] = (uint8_t)(r->up_cred[t] + TC_CREDIT_EVERY * got[t] - (made_now && !TC_RGET(r->row[t], ROOT)));
        unsigned since = r->since[t] + made_now, due = r->cred_due[t] - (gen_credit && cred_tree == (unsigned)t);
        if (since == TC_CREDIT_EVERY) {
            since = 0;
            if (TC_RGET(r->row[t], DIRSUM) && due < 3)
                due++;
        }
        r->since[t] = (uint8_t)since;
        r->cred_due[t] = (uint8_t)due;
        r->done[t] = (uint16_t)(r->done[t] + res_now);
    }
    unsigned total = r->total + (r_hdr && r_last), cyc = r->cyc + 1u;
    r->report_due = (uint8_t)((r->report_due && !gen_report) || total == TC_REPORT_RESULTS || cyc == TC_REPORT_CYCLES);
    r->total = (uint8_t)(total % TC_REPORT_RESULTS);
    r->cyc = (uint16_t)(cyc % TC_REPORT_CYCLES);
    r->seq = (uint16_t)((r->seq + (gen_report || gen_credit)) & 0xfff);
    r->gen_idx = (uint8_t)(gen_report ? 1 : r->gen_idx == 2 ? 0 : r->gen_idx ? r->gen_idx + 1 : 0);
    if (pop) {
        memmove(&r->errq[0], &r->errq[1], sizeof r->errq[0] * (TC_ERRQ - 1));
        r->nerr--;
    }
    if (push)
        r->errq[r->nerr++] = newerr;
    unsigned lost = (pop ? 0u : r->lost) + nev - push;
    r->lost = (uint8_t)(lost > 255 ? 255 : lost);
    /* phase counters; a new fence counts the packets in each unit after this cycle */
    unsigned snap = ph_enter || ph_adv;
    if (ph_enter) {
        const tc_flit *h = head_flit(r, (int)bu, 0); /* read before the slot is reused: freed next cycle */
        unsigned mode = TC_HGET(h, OP), k = mode & TC_BAR_DIAM ? r->diam : TC_HGET(h, DST);
        ph->active = 1;
        ph->mode = (uint8_t)mode;
        ph->target = (uint16_t)(mode & TC_BAR_FULL ? 2 * k : k);
        ph->ph = 0;
        ph->tag = (uint32_t)TC_HGET(h, TAG);
        ph->send_due = 1;
    } else if (ph_adv) {
        ph->ph++;
        ph->total++;
        if (ph->ph == ph->target)
            ph->done_due = 1;
        else
            ph->send_due = 1;
    }
    if (gen_phase)
        ph->send_due = 0;
    if (gen_done)
        ph->done_due = ph->active = 0;
    for (int p = 0; p < np; p++)
        ph->cnt[p] = (uint8_t)(ph->cnt[p] - ph_adv + ((ph_arr >> p) & 1));
    for (int u = 0; u <= (int)ru_res; u++) {
        unsigned n = 0;
        if (snap) {
            for (int k = 0; k < r->slots; k++)
                n += r->u[u].full[k];
            n += r->u[u].wr_idx != 0 && !r->u[u].drop;
        }
        ph->fence[u] = (uint8_t)(snap ? n : fence_n[u]);
    }
    if (snap && rd->nready) /* the results held in the Reducer are in the router too */
        for (int s = 0; s < TC_TREES * TC_RIDS; s++)
            rd->ent[s].fenced = rd->ent[s].ready;
    if (snap)
        rd->nfenced = rd->nready;
    for (int p = 0; p < np; p++)
        r->cred_q[p] = (uint8_t)((free_ev >> (2 * p)) & 3);
    r->inj_cred_q = (uint8_t)((free_ev >> TC_U_BCAST(np)) & 1);
}

const char *tc_unit_name(int nports, int unit, char *buf, size_t len)
{
    if (unit == TC_U_BCAST(nports))
        snprintf(buf, len, "Broadcaster");
    else if (unit == TC_U_RESULT(nports))
        snprintf(buf, len, "Result");
    else if (unit == TC_U_REPORT(nports))
        snprintf(buf, len, "Report");
    else
        snprintf(buf, len, "%s %s", (unit & 1) == TC_VC_DOWN ? "VCDown" : "VCUp",
                 tc_dir_name((unsigned)unit >> 1));
    return buf;
}

const char *tc_out_name(int nports, int out, char *buf, size_t len)
{
    if (out == TC_O_PE(nports))
        snprintf(buf, len, "PE");
    else if (out == TC_O_RED(nports))
        snprintf(buf, len, "Reducer");
    else
        snprintf(buf, len, "link %s", tc_dir_name((unsigned)out));
    return buf;
}


int tc_router_waits(const tc_router *r, tc_wait *w, int max)
{
    int np = r->nports, nu = TC_NUNITS(np), n = 0;
#define WAIT(...)                          \
    do {                                   \
        if (n < max)                       \
            w[n] = (tc_wait){__VA_ARGS__}; \
        n++;                               \
    } while (0)
    for (int u = 0; u < nu; u++) {
        const tc_unit *un = &r->u[u];
        if (!un->routed)
            continue;
        const tc_flit *h = head_flit(r, u, 0);
        for (unsigned m = un->pend; m; m &= m - 1) {
            int o = __builtin_ctz(m);
            unsigned vc = o >= np ? 0 : un->out_vc, need = credits_needed(r, u, o);
            if (o == TC_O_RED(np)) { /* served after a copy; with the planted bug, waits for a result slot */
                const tc_unit *resu = &r->u[TC_U_RESULT(np)];
                if (tc_router_red_waits_slot(r) && resu->full[resu->wr_slot])
                    WAIT(TC_WAIT_RESULT, (uint8_t)u, (uint8_t)TC_U_RESULT(np), 0, (uint8_t)TC_HGET(h, TREE), 1, 0,
                         (uint32_t)TC_HGET(h, TAG));
                continue;
            }
            if (r->o[o].cred[vc] >= need)
                continue; /* eligible, served in turn */
            WAIT(o < np ? TC_WAIT_LINK : TC_WAIT_PE, (uint8_t)u, (uint8_t)o, (uint8_t)vc, (uint8_t)TC_HGET(h, TREE),
                 (uint8_t)need, (uint8_t)r->o[o].cred[vc], (uint32_t)TC_HGET(h, TAG));
        }
    }
    const tc_unit *resu = &r->u[TC_U_RESULT(np)];
    for (int s = 0; r->red.nready && s < TC_TREES * TC_RIDS; s++) { /* results held in the Reducer */
        unsigned t = (unsigned)s / TC_RIDS;
        if (!r->red.ent[s].ready)
            continue;
        if (!TC_RGET(r->row[t], ROOT) && !r->up_cred[t])
            WAIT(TC_WAIT_UPCRED, (uint8_t)(nu + 1), (uint8_t)TC_RGET(r->row[t], TOROOT), 0, (uint8_t)t, 1, 0,
                 (uint32_t)TC_HGET(&r->red.data[(size_t)s * (1u + r->red_flits)], TAG));
        else if (resu->full[resu->wr_slot])
            WAIT(TC_WAIT_RESULT, (uint8_t)(nu + 1), (uint8_t)TC_U_RESULT(np), 0, (uint8_t)t, 1, 0,
                 (uint32_t)TC_HGET(&r->red.data[(size_t)s * (1u + r->red_flits)], TAG));
    }
    const tc_unit *ru = &r->u[TC_U_REPORT(np)];
    unsigned duty = r->nerr || r->report_due || r->ph.send_due || r->ph.done_due;
    for (int t = 0; t < TC_TREES; t++)
        duty |= r->cred_due[t] != 0;
    if (duty && !r->gen_idx && ru->full[ru->wr_slot])
        WAIT(TC_WAIT_REPORT, (uint8_t)nu, (uint8_t)TC_U_REPORT(np), 0, 0, 1, 0, 0);
    if (r->ph.send_due || r->ph.done_due) {
        for (int u = 0; u <= TC_U_RESULT(np); u++)
            if (r->ph.fence[u])
                WAIT(TC_WAIT_FENCE, (uint8_t)nu, (uint8_t)u, 0, 0, 0, r->ph.fence[u], r->ph.tag);
        if (r->red.nfenced)
            WAIT(TC_WAIT_FENCE, (uint8_t)nu, (uint8_t)(nu + 1), 0, 0, 0, (uint8_t)r->red.nfenced, r->ph.tag);
    }
    if (r->ph.active && !r->ph.send_due && !r->ph.done_due)
        for (int p = 0; p < np; p++)
            if (!r->ph.cnt[p])
                WAIT(TC_WAIT_PHASE, (uint8_t)nu, (uint8_t)p, 0, 0, 1, 0, r->ph.tag);
#undef WAIT
    return n;
}
