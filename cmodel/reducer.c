/* The Reducer, the twin of rtl/tc_reducer.v: takes the flit its input's output
 * register holds. Every data flit is combined with the stored partial result, or kept
 * as it is if it belongs to the first contribution. The last contribution's flits go
 * straight to the result buffer if it has a free slot, the result may leave (the
 * root, or a credit of the parent) and it is its tree's turn (its ReduceId is the
 * tree's nxt); else the result is held in memory, header first, and copied into the
 * result buffer later, in its turn, while no contribution comes in. So a
 * contribution never waits for the result buffer: the Reducer takes every one; and
 * a tree's results leave in ReduceId order, so that a credit the credit block sends
 * for them frees the children's next ReduceIds here. The PE's contributions must
 * come in that order too (pe_nxt): one out of turn is ignored (ERR_RID_ORDER).
 * The memory (tc_sram.v) is rd->data, read in the cycle its word is used (the
 * RTL gives its synchronous read the address a cycle ahead). A slice of ns takes
 * the trees t with t mod ns = slice, its entry of (t, rid) is (t / ns) * nr + rid.
 * At a tree's root an FSUM result is always held and its copy converts it
 * (tc_fpsum_values_len, cv_flit): the header with LEN counting flits of values, then
 * the values, element j's at cycle 2j + 5 of the copy, as the RTL's pipelined
 * tc_fpsum_out gives them. An FSUM contribution of IEEE values (VALS) is converted as
 * it comes in (core_in, conv_in): value j at cycle 2j + 1 after its header, its
 * element's flits taken at 2j + 2 and 2j + 3, the input held meanwhile. */
#include "reducer.h"

#include "alu.h"
#include "fpsum.h"

static unsigned entry(const tc_reducer *rd, unsigned tree, unsigned rid) { return tree / rd->ns * rd->nr + rid; }

/* What the Reducer takes this cycle: its input's flit, or, while a contribution of
 * values is converted, the flit of the element converted the cycle before (none in
 * the cycle after the header). */
static tc_wire core_in(const tc_reducer *rd, const tc_reducer_in *in)
{
    if (!rd->x_on)
        return in->in;
    return (tc_wire){.valid = rd->x_cyc >= 2, .flit = rd->xe[rd->x_cyc % 2]};
}

/* The conversion in's cycle: a contribution of values begins with its header (ev),
 * its value flits are kept, value j is converted at cycle 2j + 1. */
static void conv_in(tc_reducer *rd, const tc_reducer_in *in, const tc_reducer_ev *ev)
{
    const tc_wire *raw = &in->in;
    if (!rd->x_on) {
        const tc_flit *h = &raw->flit;
        if (ev->hdr && TC_HGET(h, VALS) && TC_HGET(h, OP) == TC_OP_FSUM && ev->len) {
            rd->x_on = 1;
            rd->x_cyc = 1;
            rd->x_len = (uint8_t)ev->len;
            rd->x_l32 = TC_HGET(h, LANE) == TC_LANE_32;
        }
        return;
    }
    unsigned t = rd->x_cyc, j = t / 2, w = rd->x_l32 ? 32 : 64;
    if (raw->valid && t <= 2)
        rd->xv[t - 1] = raw->flit;
    if (t % 2 && t < rd->x_len) {
        const tc_flit *word = t == 1 ? &raw->flit : &rd->xv[rd->x_l32 ? 0 : j / 2];
        tc_fpsum_in(rd->x_l32 ? TC_LANE_32 : TC_LANE_64, tc_lane_get(word, w, j % (128 / w)), rd->xe);
    }
    if (t == rd->x_len + 1u)
        rd->x_on = 0;
    rd->x_cyc++;
}

/* A converting copy's cycle t >= 5, odd: the flit its value j = (t - 5) / 2 fills (into
 * lane j mod vpf, vpf values a flit); returns whether the flit goes out (full, or the
 * last value). */
static unsigned cv_flit(const tc_reducer *rd, const tc_flit *hdr, unsigned t, tc_flit *f)
{
    unsigned lane = TC_HGET(hdr, LANE), vpf = tc_fpsum_values_per_flit(lane), j = (t - 2 - TC_CV_LAT) / 2;
    *f = rd->cv_pack;
    tc_lane_put(f, 128 / vpf, j % vpf, rd->cv_val[j]);
    return j % vpf == vpf - 1 || j + 1 == TC_HGET(hdr, LEN) / 2;
}

/* A held result the Reducer can copy into the result buffer: its tree's next (nxt),
 * one that goes down from the root, or up with a credit of the parent (credit
 * block). Round-robin over the slice's trees from cp_ptr, as the RTL's tc_rr_arb;
 * the entry (tree, nxt of the tree). */
static int pick(const tc_reducer *rd, const tc_reducer_in *in)
{
    unsigned nt = TC_TREES / rd->ns;
    for (unsigned i = 0; i < nt; i++) {
        unsigned lt = (rd->cp_ptr + i) % nt, t = lt * rd->ns + rd->slice, s = lt * rd->nr + rd->nxt[t];
        if (rd->ent[s].ready && (TC_RGET(in->table[t], ROOT) || in->up_cred[t]))
            return (int)s;
    }
    return -1;
}

void tc_reducer_eval(const tc_reducer *rd, const tc_reducer_in *in, tc_reducer_ev *ev)
{
    tc_wire cin = core_in(rd, in);
    const tc_wire *rin = &cin;
    unsigned ew = 1u + in->red_flits; /* memory words per entry */
    *ev = (tc_reducer_ev){.hdr = rin->valid && rd->idx == 0, .first = rd->first, .last = rd->last, .len = rd->len,
                          .tree = rd->tree, .rid = rd->rid, .skip = rd->skip, .fast = rd->fast, .val = rin->flit};
    if (ev->hdr) {
        const tc_flit *h = &rin->flit;
        tc_row row = in->table[TC_HGET(h, TREE)];
        ev->tree = TC_HGET(h, TREE);
        ev->rid = TC_HGET(h, RID) & (rd->nr - 1u); /* the RTL's low RID bits: a PE's beyond them is refused at RC */
        ev->len = TC_HGET(h, LEN);
        const tc_red_entry *e = &rd->ent[entry(rd, ev->tree, ev->rid)];
        ev->bit = in->src < 2u * in->np ? in->src >> 1 : 8;
        ev->first = e->cnt == 0;
        /* the PE out of turn; a result still held; or that source gave */
        unsigned order = ev->bit == 8 && ev->rid != rd->pe_nxt[ev->tree];
        ev->skip = order || e->ready || (!ev->first && ((e->seen >> ev->bit) & 1));
        if (ev->skip)
            ev->err = order ? TC_ERR_RID_ORDER : TC_ERR_RID_REUSE;
        else if (!ev->first && (e->type != TC_HGET(h, TYPE) || e->op != TC_HGET(h, OP) || e->lane != TC_HGET(h, LANE) ||
                                e->len != ev->len || e->dst != TC_HGET(h, DST)))
            ev->err = TC_ERR_MISMATCH;
        ev->last = !ev->skip && e->cnt + 1u >= TC_RGET(row, PE) + TC_RGET(row, DIRSUM);
        unsigned conv = TC_RGET(row, ROOT) && (ev->first ? TC_HGET(h, OP) : e->op) == TC_OP_FSUM &&
                        ev->len; /* converted, if it has data */
        ev->fast = ev->last && in->res_room && (TC_RGET(row, ROOT) || in->up_cred[ev->tree]) &&
                   ev->rid == rd->nxt[ev->tree] && !conv; /* straight to the result buffer only in its turn */
        TC_HSET(&ev->val, SRC, in->id); /* the result leaves from here */
        TC_HSET(&ev->val, VALS, 0);     /* ... as elements */
        if (!ev->first) { /* with the first contribution's type, op, lane and DST */
            TC_HSET(&ev->val, TYPE, e->type);
            TC_HSET(&ev->val, OP, e->op);
            TC_HSET(&ev->val, LANE, e->lane);
            TC_HSET(&ev->val, DST, e->dst);
            TC_HSET(&ev->val, POISON, e->poison || ev->err == TC_ERR_MISMATCH || TC_HGET(h, POISON));
        }
    } else if (rin->valid && !ev->first) {
        /* combine; a contribution that disagreed keeps the stored value */
        const tc_flit *prev = &rd->data[entry(rd, ev->tree, ev->rid) * ew + rd->idx];
        if (rd->keep)
            ev->val = *prev;
        else if (rd->idx % 2 == 0) /* data flits are 1..len: an FSUM element's flit 1 */
            tc_alu_hi(prev, &rin->flit, &rd->a0, &rd->b0, rd->op, rd->lane, &ev->val);
        else
            tc_alu(prev, &rin->flit, rd->op, rd->lane, &ev->val);
    }
    ev->tail = rin->valid && (ev->hdr ? ev->len == 0 : rd->idx == ev->len);
    if (rin->valid && ev->last && ev->fast) {
        ev->res.valid = 1;
        ev->res.flit = ev->val;
    }
    /* The copy of a held result: it starts while the Reducer's input is idle and
     * its output streams nothing, and blocks that output until it is done. */
    ev->cp_pick =
        rd->nready && !rd->cp_left && !rd->x_on && !rin->valid && !in->in_busy && in->res_room ? pick(rd, in) : -1;
    unsigned cp_start = ev->cp_pick >= 0;
    ev->block = cp_start || rd->cp_left || (rd->x_on && rd->x_cyc <= rd->x_len); /* a copy; the conversion in */
    if (rd->cp_left) {
        const tc_flit *w = &rd->data[rd->cp_slot * ew];
        unsigned t = rd->cp_idx;
        if (!rd->cp_conv) {
            ev->res.valid = 1;
            ev->res.flit = w[t];
        } else if (t == 0) {
            ev->res.valid = 1;
            ev->res.flit = w[0];
            TC_HSET(&ev->res.flit, LEN, tc_fpsum_values_len(TC_HGET(w, LANE), TC_HGET(w, LEN)));
        } else if (t >= 2 + TC_CV_LAT && t % 2 == TC_CV_LAT % 2) {
            ev->res.valid = cv_flit(rd, w, t, &ev->res.flit);
        }
    }
    /* a result enters the result buffer: it counts for the credit block */
    ev->made = (ev->hdr && ev->last && ev->fast) || cp_start;
    ev->made_tree = cp_start ? (unsigned)ev->cp_pick / rd->nr * rd->ns + rd->slice : ev->tree;
    ev->fenced_in = ev->hdr && ev->last && in->src_fenced;
    ev->cp_fenced = cp_start && rd->ent[ev->cp_pick].fenced;
    ev->res_fenced = (ev->fenced_in && ev->fast) || ev->cp_fenced;
    ev->fenced = ev->fenced_in || rd->nfenced != 0;
}

/* tc_red_stats: a cycle that was busy (busy: a flit taken), a result made or held. */
static void count(tc_reducer *rd, const tc_reducer_in *in, const tc_reducer_ev *ev, unsigned busy)
{
    tc_red_stats *st = &rd->st;
    st->busy += busy || ev->block;
    if (!ev->hdr || !ev->last)
        return;
    st->results++;
    if (ev->fast)
        return;
    /* at the root, held because converted: a floating-point sum with data (eval's conv) */
    if (TC_RGET(in->table[ev->tree], ROOT) && rd->ent[entry(rd, ev->tree, ev->rid)].op == TC_OP_FSUM && ev->len)
        st->held_root++;
    else if (!in->res_room)
        st->held_room++;
    else if (!in->up_cred[ev->tree])
        st->held_credit++;
    else
        st->held_turn++;
}

void tc_reducer_commit(tc_reducer *rd, const tc_reducer_in *in, const tc_reducer_ev *ev, unsigned snap)
{
    tc_wire cin = core_in(rd, in);
    const tc_wire *rin = &cin;
    unsigned ew = 1u + in->red_flits, base = entry(rd, ev->tree, ev->rid) * ew;
    if (ev->hdr) {
        const tc_flit *h = &rin->flit;
        tc_red_entry *e = &rd->ent[entry(rd, ev->tree, ev->rid)];
        if (!ev->skip) {
            if (ev->first) {
                e->type = (uint8_t)TC_HGET(h, TYPE);
                e->op = (uint8_t)TC_HGET(h, OP);
                e->lane = (uint8_t)TC_HGET(h, LANE);
                e->len = (uint8_t)ev->len;
                e->dst = (uint16_t)TC_HGET(h, DST);
                e->poison = 0;
                e->seen = 0;
            }
            e->poison |= ev->err == TC_ERR_MISMATCH || TC_HGET(h, POISON); /* or a poisoned partial result */
            e->seen = (uint16_t)(ev->last ? 0 : e->seen | 1u << ev->bit);
            e->cnt = (uint8_t)(ev->last ? 0 : e->cnt + 1);
            if (ev->last && !ev->fast) { /* held: the result's header, then its data flits, into memory */
                rd->data[base] = ev->val;
                e->ready = 1;
                e->fenced = (uint8_t)ev->fenced_in;
                rd->nready++;
            }
        }
        rd->tree = (uint8_t)ev->tree;
        rd->rid = (uint8_t)ev->rid;
        rd->len = (uint8_t)ev->len;
        rd->op = (uint8_t)TC_HGET(h, OP);
        rd->lane = (uint8_t)TC_HGET(h, LANE);
        rd->first = (uint8_t)ev->first;
        rd->last = (uint8_t)ev->last;
        rd->skip = (uint8_t)ev->skip;
        rd->fast = (uint8_t)ev->fast;
        rd->keep = ev->err == TC_ERR_MISMATCH;
        if (ev->bit == 8 && !ev->skip)
            rd->pe_nxt[ev->tree] = (uint8_t)((rd->pe_nxt[ev->tree] + 1) % rd->nr);
    } else if (rin->valid) {
        if (rd->idx % 2 && !ev->first) { /* an FSUM element's flit 1 needs the operands' flits 0 */
            rd->a0 = rd->data[base + rd->idx];
            rd->b0 = rin->flit;
        }
        if (!(ev->last && ev->fast) && !ev->skip)
            rd->data[base + rd->idx] = ev->val;
    }
    unsigned nfenced = rd->nfenced + (ev->fenced_in && !ev->fast) - ev->cp_fenced;
    if (rd->cp_left) {
        const tc_flit *w = &rd->data[rd->cp_slot * ew];
        unsigned t = rd->cp_idx;
        if (rd->cp_conv && t >= 2 && t % 2 == 0 && t <= TC_HGET(w, LEN)) /* element t / 2 - 1 is read whole */
            rd->cv_val[t / 2 - 1] = tc_fpsum_out(TC_HGET(w, LANE), &w[t - 1]);
        if (rd->cp_conv && t >= 2 + TC_CV_LAT && t % 2 == TC_CV_LAT % 2) {
            tc_flit f;
            rd->cv_pack = cv_flit(rd, w, t, &f) ? (tc_flit){{0, 0}} : f;
        }
        rd->cp_left--;
        rd->cp_idx++;
    }
    if (ev->cp_pick >= 0) {
        tc_red_entry *c = &rd->ent[ev->cp_pick];
        const tc_flit *h = &rd->data[(unsigned)ev->cp_pick * ew];
        rd->cp_slot = (uint16_t)ev->cp_pick;
        rd->cp_idx = 0;
        /* at the root an FSUM result is converted: 3 cycles more, for tc_fpsum_out's pipeline */
        rd->cp_conv = TC_HGET(h, OP) == TC_OP_FSUM && TC_HGET(h, LEN) && TC_RGET(in->table[ev->made_tree], ROOT);
        rd->cp_left = (uint8_t)(TC_HGET(h, LEN) + 1 + (rd->cp_conv ? TC_CV_LAT : 0));
        rd->cp_ptr = (uint8_t)(((unsigned)ev->cp_pick / rd->nr + 1) % (TC_TREES / rd->ns));
        rd->nready--;
        c->ready = c->fenced = 0;
    }
    if (ev->made) /* the tree's next result */
        rd->nxt[ev->made_tree] = (uint8_t)((rd->nxt[ev->made_tree] + 1) % rd->nr);
    rd->nfenced = (uint16_t)nfenced;
    if (rin->valid)
        rd->idx = (uint8_t)(ev->tail ? 0 : rd->idx + 1);
    conv_in(rd, in, ev);
    count(rd, in, ev, rin->valid);
    if (snap) { /* the results held in the Reducer are in the router too */
        for (unsigned s = 0; rd->nready && s < TC_RED_ENTRIES(rd->ns, rd->nr); s++)
            rd->ent[s].fenced = rd->ent[s].ready;
        rd->nfenced = rd->nready;
    }
}

void tc_reducer_obs(const tc_reducer *rd, const tc_reducer_in *in, const tc_reducer_ev *ev, uint32_t *obs,
                    unsigned lsb)
{
    if (ev->hdr) {
        tc_bv_put(obs, lsb + TC_OBS_R_HDR_LSB, 1, 1);
        tc_bv_put(obs, lsb + TC_OBS_R_FIRST_LSB, 1, ev->first);
        tc_bv_put(obs, lsb + TC_OBS_R_LAST_LSB, 1, ev->last);
        tc_bv_put(obs, lsb + TC_OBS_R_HELD_LSB, 1, ev->last && !ev->fast);
        tc_bv_put(obs, lsb + TC_OBS_R_TAG_LSB, 32, TC_HGET(&in->in.flit, TAG));
    } else if (rd->cp_left && rd->cp_idx == 0) {
        tc_bv_put(obs, lsb + TC_OBS_R_COPY_LSB, 1, 1);
        tc_bv_put(obs, lsb + TC_OBS_R_TAG_LSB, 32, TC_HGET(&ev->res.flit, TAG));
    }
}
