/* One router, the twin of rtl/tc_router.v: the routing table, the blocks (vc_unit.c,
 * reducer.c, credit_block.c, phase.c) wired together in the RTL's order of evaluation,
 * and per output the switch allocator, credit counters and output register; the
 * credit returns. The round-robin arbiter, tc_rr_arb.v's twin, is tc_rr_pick() (rr_arb.h). */
#include "router.h"

#include <stdio.h>
#include <string.h>

size_t tc_router_buf_flits(int nports, int slices, int slots, int inj_slots)
{
    return ((size_t)(TC_NUNITS(nports, slices) - 1) * (size_t)slots + (size_t)inj_slots) * TC_SLOT_FLITS;
}
size_t tc_router_red_flits(int red_flits, int red_rids) { return (size_t)TC_TREES * (size_t)red_rids * (size_t)(1 + red_flits); }

void tc_router_reset(tc_router *r, int id, int nports, int slices, int slots, int inj_slots, int pe_credits,
                     int red_flits, int red_rids, tc_flit *buf, tc_flit *red, tc_red_entry *ent)
{
    memset(r, 0, sizeof *r);
    r->id = (uint16_t)id;
    r->nports = (uint8_t)nports;
    r->nslices = (uint8_t)slices;
    r->slots = (uint8_t)slots;
    r->red_flits = (uint8_t)red_flits;
    r->red_rids = (uint8_t)red_rids;
    for (int u = 0; u < TC_NUNITS(nports, slices); u++) { /* the PEGroup FIFO covers the PE's credit loop */
        r->u[u].nslots = (uint8_t)(u == TC_U_BCAST(nports) ? inj_slots : slots);
        r->u[u].vals = u == TC_U_BCAST(nports); /* the PE's packets of values come in here only */
        r->u[u].mem = buf; /* NULL: the owner gives it before the unit's first flit */
        buf += buf ? (size_t)r->u[u].nslots * TC_SLOT_FLITS : 0;
    }
    for (int k = 0; k < slices; k++) {
        tc_reducer *rd = &r->red[k];
        rd->slice = (uint8_t)k;
        rd->ns = (uint8_t)slices;
        rd->nr = (uint8_t)red_rids;
        rd->data = red + (size_t)k * TC_RED_ENTRIES(slices, red_rids) * (size_t)(1 + red_flits);
        rd->ent = ent + (size_t)k * TC_RED_ENTRIES(slices, red_rids);
    }
    for (int o = 0; o < nports; o++)
        r->o[o].cred[0] = r->o[o].cred[1] = (uint16_t)slots;
    r->o[TC_O_PE(nports)].cred[0] = (uint16_t)pe_credits;
    tc_credit_block_reset(&r->cb, (unsigned)red_rids);
    r->diam = 1;
}

/* RC of unit u (tc_vc_unit.v), with the phase counters' verdict on a barrier request
 * or a phase packet (tc_phase.v's err_o). */
unsigned tc_router_route(const tc_router *r, int u, const tc_flit *h, unsigned *mask, unsigned *vc)
{
    return tc_vc_unit_route(r->row, r->id, r->nports, r->nslices, r->red_flits, r->red_rids, u,
                            tc_phase_err(&r->ph, r->diam, r->nports, u, h), h, mask, vc);
}

/* Idle (reports = 0), or idle but for the credit block's reports (reports = 1): a
 * report due or being made, the report buffer's packet, the PE output streaming it. */
static int idle_but(const tc_router *r, int reports)
{
    int np = r->nports;
    const tc_phase *ph = &r->ph;
    for (int k = 0; k < r->nslices; k++)
        if (r->o[TC_O_RED(np, k)].q.valid || r->red[k].idx || r->red[k].nready || r->red[k].cp_left)
            return 0;
    if (r->cb.nerr || r->inj_cred_q || ph->send_due || ph->done_due)
        return 0;
    if (!reports && (r->cb.gen_idx || r->cb.report_due))
        return 0;
    uint32_t rep = reports ? 1u << TC_U_REPORT(np, r->nslices) : 0;
    if (r->live & ~rep) /* a unit with a packet or a read pending */
        return 0;
    unsigned pe = 1u << TC_O_PE(np);
    if ((r->qmask & ~(reports ? pe : 0)) || r->cqmask) /* an output streaming has its register valid */
        return 0;
    if ((r->qmask & pe) && r->o[TC_O_PE(np)].owner != TC_U_REPORT(np, r->nslices))
        return 0;
    uint64_t due[2];
    memcpy(due, r->cb.cred_due, sizeof due);
    if (due[0] | due[1])
        return 0;
    unsigned all_cnt = ph->active;
    for (int p = 0; p < np && all_cnt; p++)
        all_cnt &= r->ph.cnt[p] != 0;
    return !all_cnt;
}

int tc_router_idle(const tc_router *r) { return idle_but(r, 0); }

int tc_router_settled(const tc_router *r) { return idle_but(r, 1); }

void tc_router_idle_cycle(tc_router *r) { tc_credit_block_idle_cycle(&r->cb); }

/* Credits a copy of unit u's head needs on link or PE output o. Bubble flow
 * control: a copy that enters a ring (new dimension, new VC, or from the PEGroup
 * FIFO, the result or the report buffer) needs two free slots there, so that every
 * ring keeps one for the packets already in it; a copy that continues along its
 * ring needs one. The PE is not a ring. */
unsigned tc_credits_need(int np, int ns, unsigned plant, int u, int o, unsigned vc)
{
    unsigned cont = o >= np || (u < 2 * np && o == ((u >> 1) ^ 1) && vc == (unsigned)(u & 1)) ||
                    (u == TC_U_REPORT(np, ns) && (plant & TC_PLANT_REPORT_ONE));
    return cont ? 1u : 2u;
}

unsigned tc_router_credits(const tc_router *r, int u, int o, unsigned vc)
{
    return tc_credits_need(r->nports, r->nslices, r->plant, u, o, vc);
}

unsigned tc_router_red_waits_slot(const tc_router *r) { return r->plant & TC_PLANT_RESULT_SLOT; }

static unsigned credits_needed(const tc_router *r, int u, int o)
{
    return tc_router_credits(r, u, o, o >= r->nports ? 0 : r->u[u].out_vc);
}

/* Output o may take unit u's copy: a Reducer slice's input when the slice is not
 * blocked (and, with the planted bug, a slot of its result buffer is free); any other
 * with its credits. */
static unsigned can_grant(const tc_router *r, const tc_reducer_ev *re, int u, int o)
{
    int k = o - TC_O_RED(r->nports, 0);
    if (k >= 0) {
        const tc_unit *resu = &r->u[TC_U_RESULT(r->nports, k)];
        return !re[k].block && (!tc_router_red_waits_slot(r) || !resu->full[resu->wr_slot]);
    }
    return r->o[o].cred[o >= r->nports ? 0 : r->u[u].out_vc] >= credits_needed(r, u, o);
}

/* One cycle's signals between the stages of tc_router_cycle, as the RTL's wires. */
typedef struct {
    tc_unit_sig s;           /* the units' signals: RC, FR, BW, SA grants, reads */
    tc_reducer_in ri[TC_MAX_SLICES]; /* per Reducer slice */
    tc_reducer_ev re[TC_MAX_SLICES];
    tc_phase_ev pe;
    tc_credit_block_ev ce;
    unsigned busy_from;      /* units with a pass that still has flits to read */
    unsigned grant_u[TC_MAX_OUTS], granted; /* per output the unit granted (~0u: none); the outputs granted */
    unsigned wr, cm;         /* the units written (BW); the outputs a credit returns to */
    /* Speed only (the same results without them): the units evaluated (every one with
     * observation records, else the live ones and those written), and the blocks that
     * are quiet this cycle, whose evaluation makes nothing and whose commit changes
     * nothing (but the credit block's report timer, cb_still). red_quiet: bit k, slice k. */
    unsigned act, red_quiet, ph_quiet, cb_quiet, cb_still;
    /* the slices' signals to the phase counters and the credit block, bit k (res_fenced)
     * or bit t, a tree (complete, made) */
    unsigned res_fenced, red_fenced, complete, made;
} router_cyc;

/* The Reducer's slices: each fed by its output register (committed after it), writes
 * its result buffer. */
static void stage_reducer(const tc_router *r, router_cyc *c, const uint32_t *obs)
{
    int np = r->nports;
    c->red_quiet = c->res_fenced = c->red_fenced = c->complete = c->made = 0;
    for (int k = 0; k < r->nslices; k++) {
        const tc_unit *resu = &r->u[TC_U_RESULT(np, k)];
        const tc_outp *rop = &r->o[TC_O_RED(np, k)];
        tc_reducer_ev *re = &c->re[k];
        if (!obs && tc_reducer_quiet(&r->red[k], rop->q.valid)) {
            c->red_quiet |= 1u << k;
            *re = (tc_reducer_ev){.cp_pick = -1};
            continue;
        }
        c->ri[k] = (tc_reducer_in){r->id, (uint8_t)np, r->red_flits, r->row, r->cb.up_cred, rop->q, rop->owner,
                                   rop->busy, !resu->full[resu->wr_slot],
                                   (uint8_t)tc_phase_src_fenced(&r->ph, rop->owner)};
        tc_reducer_eval(&r->red[k], &c->ri[k], re);
        c->res_fenced |= re->res_fenced << k;
        c->red_fenced |= re->fenced;
        c->complete |= (re->hdr && re->last) << re->tree;
        c->made |= re->made << re->made_tree;
    }
}

/* The units: FR (a head packet's slot freed) and RC (the route of the head packet,
 * of the next one where the head is freed). */
static void stage_route_free(const tc_router *r, router_cyc *c, const uint32_t *obs)
{
    tc_unit_sig *s = &c->s;
    s->route = s->free = s->ovf = s->drop = s->ahead = 0;
    memset(s->err, 0, sizeof s->err);
    memset(s->grant, 0, sizeof s->grant);
    c->act = obs ? (1u << TC_NUNITS(r->nports, r->nslices)) - 1 : r->live;
    for (unsigned m = c->act; m; m &= m - 1) {
        int u = __builtin_ctz(m);
        const tc_unit *un = &r->u[u];
        c->busy_from |= tc_vc_unit_stream(un) << u;
        if (tc_vc_unit_free(un, (c->busy_from >> u) & 1))
            s->free |= 1u << u;
        unsigned rt = tc_vc_unit_do_route(un, (s->free >> u) & 1);
        s->head[u] = &un->hdr[0];
        if (rt) { /* the phase counters and the credit block read it after the units' commit */
            s->rc_hdr[u] = un->hdr[rt == 2];
            s->head[u] = &s->rc_hdr[u];
            s->route |= 1u << u;
            s->ahead |= (rt == 2) << u;
            s->err[u] = tc_router_route(r, u, s->head[u], &s->mask[u], &s->vc[u]);
        }
    }
}

/* The phase counters, then the credit block's flit for the report buffer. */
static void stage_barrier_reports(const tc_router *r, router_cyc *c, const uint32_t *obs)
{
    int np = r->nports;
    const tc_unit *repu = &r->u[TC_U_REPORT(np, r->nslices)];
    c->ph_quiet = c->red_quiet == (1u << r->nslices) - 1 && tc_phase_quiet(&r->ph, np, c->s.route);
    if (c->ph_quiet)
        c->pe = (tc_phase_ev){0, 0, 0, 0, 0, 0, {0}, 0};
    else
        tc_phase_eval(&r->ph, np, r->nslices, r->u, &c->s, c->res_fenced, c->red_fenced, &c->pe);
    c->cb_quiet = !obs && !c->pe.send && !c->pe.done && tc_credit_block_quiet(&r->cb);
    if (c->cb_quiet)
        c->ce = (tc_credit_block_ev){.pick = TC_CB_REQS};
    else
        tc_credit_block_gen(&r->cb, r->id, !repu->full[repu->wr_slot], &r->ph, &c->pe, &c->ce);
}

/* BW: the unit each input flit writes (a link's flit the unit of its VC); the outputs
 * a credit returns to; then the errors of this cycle into the credit block. */
static void stage_write(const tc_router *r, const tc_router_in *in, router_cyc *c)
{
    int np = r->nports, ns = r->nslices;
    tc_unit_sig *s = &c->s;
    uint64_t cb8; /* a bit per byte of in->cred that is not 0, gathered by a multiply */
    _Static_assert(sizeof in->cred == 8, "a credit byte per port, 8 ports");
    memcpy(&cb8, in->cred, sizeof cb8);
    cb8 |= cb8 >> 4, cb8 |= cb8 >> 2, cb8 |= cb8 >> 1;
    c->cm = (unsigned)(((cb8 & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56) |
            (unsigned)(in->ej_cred != 0) << TC_O_PE(np);
    memset(s->wr, 0, sizeof s->wr);
    for (int p = 0; p < np; p++)
        if (in->link[p].valid && in->link[p].vc < 2) {
            s->wr[2 * p + in->link[p].vc] = &in->link[p];
            c->wr |= 1u << (2 * p + in->link[p].vc);
        }
    s->wr[TC_U_BCAST(np)] = in->inj.valid ? &in->inj : NULL;
    c->wr |= (unsigned)in->inj.valid << TC_U_BCAST(np);
    unsigned red_err = 0;
    for (int k = 0; k < ns; k++) {
        s->wr[TC_U_RESULT(np, k)] = c->re[k].res.valid ? &c->re[k].res : NULL;
        c->wr |= (unsigned)c->re[k].res.valid << TC_U_RESULT(np, k);
        red_err |= c->re[k].err;
    }
    s->wr[TC_U_REPORT(np, ns)] = c->ce.rep.valid ? &c->ce.rep : NULL;
    c->wr |= (unsigned)c->ce.rep.valid << TC_U_REPORT(np, ns);
    for (unsigned m = c->wr; m; m &= m - 1)
        tc_vc_unit_bw(&r->u[__builtin_ctz(m)], __builtin_ctz(m), s);
    c->act |= c->wr;
    /* no error, no credit from a parent, no result: the credit block's commit is the report timer's tick */
    c->cb_still = c->cb_quiet && !s->ovf && !s->route && !red_err && !c->complete && !c->made;
    if (!c->cb_still) {
        tc_errrec errs[TC_MAX_SLICES] = {{0, 0, 0, 0, 0}};
        for (int k = 0; k < ns; k++) {
            const tc_outp *rop = &r->o[TC_O_RED(np, k)];
            if (c->re[k].err)
                errs[k] = (tc_errrec){c->re[k].err, c->re[k].tree, c->re[k].rid, rop->owner,
                                      (uint32_t)TC_HGET(&rop->q.flit, TAG)};
        }
        tc_credit_block_errors(&r->cb, np, ns, errs, s, &c->ce);
    }
}

/* SA: one round-robin arbiter per output over the units with credit (or, with
 * mcast = fork, all of a packet's copies at once or none); then each unit's read. */
static void stage_switch(tc_router *r, router_cyc *c)
{
    int nu = TC_NUNITS(r->nports, r->nslices), no = TC_NOUTS(r->nports, r->nslices);
    tc_unit_sig *s = &c->s;
    for (int o = 0; o < no; o++)
        c->grant_u[o] = ~0u;
    if (r->mcast == TC_MCAST_FORK) {
        unsigned taken = 0, next = r->fork_ptr;
        for (int i = 0; i < nu; i++) {
            int u = (r->fork_ptr + i) % nu;
            unsigned pend = r->u[u].routed ? r->u[u].pend : 0, ok = pend && !((c->busy_from >> u) & 1) && !(pend & taken);
            for (unsigned m = pend; m && ok; m &= m - 1)
                ok = !r->o[__builtin_ctz(m)].busy && can_grant(r, c->re, u, __builtin_ctz(m));
            if (!ok)
                continue;
            taken |= pend;
            s->grant[u] = pend;
            for (unsigned m = pend; m; m &= m - 1)
                c->grant_u[__builtin_ctz(m)] = (unsigned)u;
            c->granted |= pend;
            next = (unsigned)(u + 1) % (unsigned)nu;
        }
        r->fork_ptr = (uint8_t)next; /* state, but read by nothing else in this cycle */
    } else {
        unsigned req[TC_MAX_OUTS] = {0}, reqo = 0; /* units asking for each output; outputs asked for */
        for (unsigned a = c->act; a; a &= a - 1) /* a routed unit is live */
            if (r->u[__builtin_ctz(a)].routed)
                for (unsigned u = (unsigned)__builtin_ctz(a),
                              m = r->mcast == TC_MCAST_SERIAL ? r->u[u].pend & -r->u[u].pend : r->u[u].pend;
                     m; m &= m - 1)
                    req[__builtin_ctz(m)] |= 1u << u, reqo |= m & -m;
        for (unsigned om = reqo; om; om &= om - 1) {
            int o = __builtin_ctz(om);
            unsigned elig = 0;
            if (r->o[o].busy)
                continue;
            for (unsigned m = req[o] & ~c->busy_from; m; m &= m - 1) { /* the read port streams one pass at a time */
                int u = __builtin_ctz(m);
                if (can_grant(r, c->re, u, o))
                    elig |= 1u << u;
            }
            if (elig) {
                c->grant_u[o] = tc_rr_pick(elig, r->o[o].ptr);
                c->granted |= 1u << o;
                s->grant[c->grant_u[o]] |= 1u << o;
            }
        }
    }
    for (unsigned m = c->act; m; m &= m - 1) {
        int u = __builtin_ctz(m);
        s->rd[u] = tc_vc_unit_read(&r->u[u], s->grant[u] != 0, (s->free >> u) & 1);
    }
}

/* The observation record of the cycle (tc_router.v's obs). */
static void observe(const tc_router *r, const router_cyc *c, uint32_t *obs)
{
    int np = r->nports, ns = r->nslices, nu = TC_NUNITS(np, ns), no = TC_NOUTS(np, ns);
    memset(obs, 0, sizeof(uint32_t) * TC_OBS_WORDS(np, ns));
    for (int u = 0; u < nu; u++)
        tc_vc_unit_obs(&r->u[u], u, &c->s, obs);
    for (int o = 0; o < no; o++) {
        unsigned b = (unsigned)nu * TC_OBS_UNIT_W + (unsigned)o * TC_OBS_OUT_W;
        if (c->grant_u[o] != ~0u) {
            tc_bv_put(obs, b + TC_OBS_O_GRANT_LSB, 1, 1);
            tc_bv_put(obs, b + TC_OBS_O_SRC_LSB, 5, c->grant_u[o]);
        }
    }
    for (int k = 0; k < ns; k++)
        tc_reducer_obs(&r->red[k], &c->ri[k], &c->re[k], obs, TC_OBS_RED_LSB(np, ns, k));
    tc_phase_obs(&r->ph, &c->pe, c->ce.gen_phase, c->ce.gen_done, obs, TC_OBS_PH_LSB(np, ns));
}

/* The outputs' commit, first: they read head packets before any slot is freed. Credit
 * counters, and the output register: the next flit of a packet streaming, the head of
 * the unit granted, or nothing. The others (no credit, no grant, the register clear,
 * so not streaming) do not change. */
static void commit_outputs(tc_router *r, const tc_router_in *in, const router_cyc *c)
{
    int np = r->nports, nu = TC_NUNITS(np, r->nslices);
    unsigned qv = 0;
    for (unsigned om = r->qmask | c->granted | c->cm; om; om &= om - 1) {
        int o = __builtin_ctz(om);
        tc_outp *op = &r->o[o];
        unsigned g = c->grant_u[o];
        if (o < np) {
            for (unsigned vc = 0; vc < 2; vc++)
                op->cred[vc] = (uint16_t)(op->cred[vc] + ((in->cred[o] >> vc) & 1) -
                                          (g != ~0u && r->u[g].out_vc == vc));
        } else if (o == TC_O_PE(np)) {
            op->cred[0] = (uint16_t)(op->cred[0] + in->ej_cred - (g != ~0u));
        }
        if (op->busy) {
            op->q.flit = r->u[op->owner].dout;
            op->q.valid = 1;
            if (op->cnt == op->len)
                op->busy = 0;
            op->cnt++;
        } else if (g != ~0u) {
            const tc_flit *h = tc_vc_unit_head(&r->u[g]);
            op->q.flit = *h;
            op->q.valid = 1;
            op->q.vc = r->u[g].out_vc;
            op->owner = (uint8_t)g;
            op->len = (uint8_t)tc_wire_len(h);
            op->busy = op->len != 0;
            op->cnt = 1;
            op->ptr = (uint8_t)(g + 1 == (unsigned)nu ? 0 : g + 1);
        } else {
            memset(&op->q, 0, sizeof op->q);
        }
        qv |= (unsigned)op->q.valid << o;
    }
    r->qmask = (uint16_t)qv;
}

/* The units', the Reducer's, the credit block's and the phase counters' commits (the
 * phase counters' after the units'), and the credits the freed slots return. */
static void commit_blocks(tc_router *r, const router_cyc *c)
{
    int np = r->nports;
    const tc_unit_sig *s = &c->s;
    for (unsigned m = c->act; m; m &= m - 1) {
        int u = __builtin_ctz(m);
        if ((((s->route | s->free) >> u) & 1) || s->wr[u] || s->grant[u] || r->u[u].rd_idx || r->u[u].pf) /* else nothing changes */
            tc_vc_unit_commit(&r->u[u], u, s);
        r->live = (r->live & ~(1u << u)) | tc_vc_unit_live(&r->u[u]) << u; /* only the commit changes a unit */
    }
    for (int k = 0; k < r->nslices; k++)
        if (!((c->red_quiet >> k) & 1))
            tc_reducer_commit(&r->red[k], &c->ri[k], &c->re[k], c->pe.snap);
    if (c->cb_still)
        tc_credit_block_idle_cycle(&r->cb);
    else
        tc_credit_block_commit(&r->cb, &c->ce, np, r->nslices, r->row, s, c->complete, c->made);
    if (!c->ph_quiet || c->ce.gen_phase || c->ce.gen_done)
        tc_phase_commit(&r->ph, &c->pe, np, r->nslices, r->u, s, r->diam, c->ce.gen_phase, c->ce.gen_done);
    if (r->cqmask || (s->free & ((1u << 2 * np) - 1))) { /* else every cred_q is 0 and stays 0 */
        r->cqmask = 0;
        for (int p = 0; p < np; p++) {
            r->cred_q[p] = (uint8_t)((s->free >> (2 * p)) & 3);
            r->cqmask |= (uint8_t)((r->cred_q[p] != 0) << p);
        }
    }
    r->inj_cred_q = (uint8_t)((s->free >> TC_U_BCAST(np)) & 1);
}

/* One clock cycle, in the RTL's order: the Reducer, the units' FR and RC, the phase
 * counters and the credit block, BW and the errors, SA and the reads, the observation
 * record (obs, or NULL), then every register's commit. */
void tc_router_cycle(tc_router *r, const tc_router_in *in, uint32_t *obs)
{
    router_cyc c;
    c.busy_from = c.granted = c.wr = 0;
    stage_reducer(r, &c, obs);
    stage_route_free(r, &c, obs);
    stage_barrier_reports(r, &c, obs);
    stage_write(r, in, &c);
    stage_switch(r, &c);
    if (obs)
        observe(r, &c, obs);
    commit_outputs(r, in, &c);
    commit_blocks(r, &c);
}

const char *tc_unit_name(int nports, int slices, int unit, char *buf, size_t len)
{
    if (unit == TC_U_BCAST(nports))
        snprintf(buf, len, "Broadcaster");
    else if (unit == TC_U_REPORT(nports, slices))
        snprintf(buf, len, "Report");
    else if (unit > TC_U_BCAST(nports) && slices > 1)
        snprintf(buf, len, "Result %d", unit - TC_U_RESULT(nports, 0));
    else if (unit > TC_U_BCAST(nports))
        snprintf(buf, len, "Result");
    else
        snprintf(buf, len, "%s %s", (unit & 1) == TC_VC_DOWN ? "VCDown" : "VCUp",
                 tc_dir_name((unsigned)unit >> 1));
    return buf;
}

const char *tc_out_name(int nports, int slices, int out, char *buf, size_t len)
{
    if (out == TC_O_PE(nports))
        snprintf(buf, len, "PE");
    else if (out > TC_O_PE(nports) && slices > 1)
        snprintf(buf, len, "Reducer %d", out - TC_O_RED(nports, 0));
    else if (out > TC_O_PE(nports))
        snprintf(buf, len, "Reducer");
    else
        snprintf(buf, len, "link %s", tc_dir_name((unsigned)out));
    return buf;
}

int tc_router_waits(const tc_router *r, tc_wait *w, int max)
{
    int np = r->nports, ns = r->nslices, nu = TC_NUNITS(np, ns), n = 0;
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
        const tc_flit *h = tc_vc_unit_head(un);
        for (unsigned m = un->pend; m; m &= m - 1) {
            int o = __builtin_ctz(m), k = o - TC_O_RED(np, 0);
            unsigned vc = o >= np ? 0 : un->out_vc, need = credits_needed(r, u, o);
            if (k >= 0) { /* served after a copy; with the planted bug, waits for a result slot */
                const tc_unit *resu = &r->u[TC_U_RESULT(np, k)];
                if (tc_router_red_waits_slot(r) && resu->full[resu->wr_slot])
                    WAIT(TC_WAIT_RESULT, (uint8_t)u, (uint8_t)TC_U_RESULT(np, k), 0, (uint8_t)TC_HGET(h, TREE), 1, 0,
                         (uint32_t)TC_HGET(h, TAG));
                continue;
            }
            if (r->o[o].cred[vc] >= need)
                continue; /* eligible, served in turn */
            WAIT(o < np ? TC_WAIT_LINK : TC_WAIT_PE, (uint8_t)u, (uint8_t)o, (uint8_t)vc, (uint8_t)TC_HGET(h, TREE),
                 (uint8_t)need, (uint8_t)r->o[o].cred[vc], (uint32_t)TC_HGET(h, TAG));
        }
    }
    for (int k = 0; k < ns; k++) { /* results held in the Reducer's slices */
        const tc_reducer *rd = &r->red[k];
        const tc_unit *resu = &r->u[TC_U_RESULT(np, k)];
        for (unsigned s = 0; rd->nready && s < TC_RED_ENTRIES(ns, rd->nr); s++) {
            unsigned t = s / rd->nr * (unsigned)ns + (unsigned)k, nxt = s / rd->nr * rd->nr + rd->nxt[t];
            uint32_t tag = (uint32_t)TC_HGET(&rd->data[(size_t)s * (1u + r->red_flits)], TAG);
            if (!rd->ent[s].ready)
                continue;
            if (s != nxt && !rd->ent[nxt].ready)
                WAIT(TC_WAIT_ORDER, (uint8_t)(nu + 1 + k), 0, 0, (uint8_t)t, 0, rd->nxt[t], tag);
            else if (s != nxt)
                continue; /* behind its tree's next, which is held: that one's wait is the tree's */
            else if (!TC_RGET(r->row[t], ROOT) && !r->cb.up_cred[t])
                WAIT(TC_WAIT_UPCRED, (uint8_t)(nu + 1 + k), (uint8_t)TC_RGET(r->row[t], TOROOT), 0, (uint8_t)t, 1, 0,
                     tag);
            else if (resu->full[resu->wr_slot])
                WAIT(TC_WAIT_RESULT, (uint8_t)(nu + 1 + k), (uint8_t)TC_U_RESULT(np, k), 0, (uint8_t)t, 1, 0, tag);
        }
    }
    const tc_unit *ru = &r->u[TC_U_REPORT(np, ns)];
    unsigned duty = r->cb.nerr || r->cb.report_due || r->ph.send_due || r->ph.done_due;
    for (int t = 0; t < TC_TREES; t++)
        duty |= r->cb.cred_due[t] != 0;
    if (duty && !r->cb.gen_idx && ru->full[ru->wr_slot])
        WAIT(TC_WAIT_REPORT, (uint8_t)nu, (uint8_t)TC_U_REPORT(np, ns), 0, 0, 1, 0, 0);
    if (r->ph.send_due || r->ph.done_due) {
        for (int u = 0; u < TC_U_REPORT(np, ns); u++)
            if (r->ph.fence[u])
                WAIT(TC_WAIT_FENCE, (uint8_t)nu, (uint8_t)u, 0, 0, 0, r->ph.fence[u], r->ph.tag);
        for (int k = 0; k < ns; k++)
            if (r->red[k].nfenced)
                WAIT(TC_WAIT_FENCE, (uint8_t)nu, (uint8_t)(nu + 1 + k), 0, 0, 0, (uint8_t)r->red[k].nfenced, r->ph.tag);
    }
    if (r->ph.active && !r->ph.send_due && !r->ph.done_due)
        for (int p = 0; p < np; p++)
            if (!r->ph.cnt[p])
                WAIT(TC_WAIT_PHASE, (uint8_t)nu, (uint8_t)p, 0, 0, 1, 0, r->ph.tag);
#undef WAIT
    return n;
}
