/* An input unit, the twin of rtl/tc_vc_unit.v: BW (flits written as they arrive),
 * RC (the head packet's route), FR (its slot freed as the last flit of its last copy
 * is read). Store-and-forward: a slot holds a whole packet (header + up to 7 data
 * flits); the buffer is SRAM-shaped (vc_unit.h). */
#include "vc_unit.h"

/* RC (tc_vc_unit.v, r_mask/r_vc/r_err). */
unsigned tc_vc_unit_route(const tc_row *table, unsigned id, int np, int ns, unsigned red_flits, unsigned red_rids, int u,
                          unsigned ph_err, const tc_flit *h, unsigned *mask, unsigned *vc)
{
    int port = u >> 1;
    int is_link = u < 2 * np, is_down = is_link && (u & 1) == TC_VC_DOWN, is_bcast = u == TC_U_BCAST(np);
    tc_row row = table[TC_HGET(h, TREE)];
    unsigned type = TC_HGET(h, TYPE), red = type == TC_TYPE_REDUCE || type == TC_TYPE_ALLREDUCE;
    unsigned dirs = TC_RGET(row, DIRS) & ((1u << np) - 1);
    unsigned up = (1u << TC_RGET(row, TOROOT)) & ((1u << np) - 1);
    unsigned pe_copy = type == TC_TYPE_BCAST       ? TC_RGET(row, PE) && TC_HGET(h, SRC) != id
                       : type == TC_TYPE_ALLREDUCE ? TC_RGET(row, PE)
                                                   : TC_HGET(h, DST) == id;

    *mask = 0;
    *vc = TC_VC_DOWN;
    if (u == TC_U_REPORT(np, ns)) { /* credits to the children, phase packets to every link, the rest to the PE */
        *mask = type == TC_TYPE_CREDIT ? dirs : type == TC_TYPE_PHASE ? (1u << np) - 1 : 1u << np;
        return TC_ERR_NONE;
    }
    /* the phase counters take barrier requests from the PE and phase packets from the links */
    if ((type == TC_TYPE_BARRIER && is_bcast) || (type == TC_TYPE_PHASE && is_down))
        return ph_err;
    if (type == TC_TYPE_BARRIER || type == TC_TYPE_PHASE)
        return TC_ERR_BAD_TYPE;
    if (!TC_RGET(row, VALID))
        return TC_ERR_NO_TREE;
    if (type != TC_TYPE_BCAST && !red && !(type == TC_TYPE_CREDIT && is_down))
        return TC_ERR_BAD_TYPE;
    if (is_bcast) { /* a packet injected by this node's PE */
        if (!TC_RGET(row, PE))
            return TC_ERR_NOT_MEMBER;
        if (TC_HGET(h, SRC) != id)
            return TC_ERR_BAD_SRC;
        if (red && (TC_HGET(h, OP) >= TC_OPS || TC_HGET(h, LANE) > TC_LANE_64 || TC_HGET(h, LEN) > red_flits ||
                    TC_HGET(h, RID) >= red_rids ||
                    (TC_HGET(h, OP) == TC_OP_FSUM && TC_HGET(h, LEN) % 2) || /* FSUM: whole elements */
                    (TC_HGET(h, VALS) && TC_HGET(h, OP) != TC_OP_FSUM))) /* values: of an FSUM only */
            return TC_ERR_BAD_OP;
        if (!red && TC_HGET(h, VALS)) /* values go only into the Reducer */
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
        *mask = 1u << TC_O_RED(np, TC_HGET(h, TREE) % (unsigned)ns); /* a contribution: into its tree's Reducer slice */
        *vc = TC_VC_UP;
    } else if (TC_RGET(row, ROOT) || is_down) {
        *mask = dirs | pe_copy << np;
    } else {
        *mask = up;
        *vc = TC_VC_UP;
    }
    return TC_ERR_NONE;
}

/* A header that finds no free slot broke the sender's credits (a PE that ignores
 * them): the whole packet is dropped and reported, nothing else is disturbed. */
void tc_vc_unit_bw(const tc_unit *un, int u, tc_unit_sig *s)
{
    if (un->wr_idx == 0 && un->full[un->wr_slot])
        s->ovf |= 1u << u;
    if (un->wr_idx == 0 ? (s->ovf >> u) & 1 : un->drop)
        s->drop |= 1u << u;
}

static unsigned wrap(unsigned x, unsigned slots) { return x >= slots ? x - slots : x; }

int tc_vc_unit_read(const tc_unit *un, unsigned granted, unsigned free)
{
    int base = un->rd_slot * TC_SLOT_FLITS;
    if (granted) /* the outputs load the header from hdr[0] now, flit 1 next cycle */
        return tc_unit_len(un, &un->hdr[0]) ? base + 1 : -1;
    if (tc_vc_unit_stream(un))
        return base + un->rd_idx + 1;
    if (!free)
        return -1;
    /* read ahead the header of the packet after the new head's next, if it has begun
     * (one whose header is written this cycle is captured); the next one's is in
     * hdr[1] or lands there this cycle, as it has begun if this one has */
    unsigned t = wrap(un->rd_slot + 2u, un->nslots);
    unsigned begun = t != un->rd_slot && (un->full[t] || (t == un->wr_slot && un->wr_idx && !un->drop));
    return begun ? (int)t * TC_SLOT_FLITS : -1;
}

void tc_vc_unit_commit(tc_unit *un, int u, const tc_unit_sig *s)
{
    unsigned slots = un->nslots;
    const tc_wire *w = s->wr[u];
    un->pend &= (uint16_t)~s->grant[u];
    un->rd_idx = (uint8_t)(s->grant[u] ? tc_unit_len(un, &un->hdr[0]) != 0 : tc_vc_unit_stream(un) ? un->rd_idx + 1u : 0u);
    if (un->pf) { /* the header read ahead last cycle */
        un->hdr[1] = un->dout;
        un->hv |= 2;
        un->pf = 0;
    }
    if ((s->free >> u) & 1) {
        un->routed = 0;
        un->full[un->rd_slot] = 0;
        un->rd_slot = (uint8_t)wrap(un->rd_slot + 1u, slots);
        un->hdr[0] = un->hdr[1];
        un->hv >>= 1;
        un->pf = s->rd[u] >= 0;
    }
    if ((s->route >> u) & 1) {
        un->routed = 1;
        un->pend = (uint16_t)s->mask[u];
        un->out_vc = (uint8_t)s->vc[u];
    }
    if (s->rd[u] >= 0)
        un->dout = un->mem[s->rd[u]];
    if (w) {
        if (un->wr_idx == 0) {
            un->wr_len = (uint8_t)tc_unit_len(un, &w->flit);
            un->wr_tag = (uint32_t)TC_HGET(&w->flit, TAG);
        }
        unsigned len = un->wr_idx == 0 ? tc_unit_len(un, &w->flit) : un->wr_len;
        unsigned dropping = (s->drop >> u) & 1;
        if (!dropping) {
            un->mem[un->wr_slot * TC_SLOT_FLITS + un->wr_idx] = w->flit;
            /* a header one of the registers waits for is captured as it is written */
            unsigned j = wrap(un->wr_slot + slots - un->rd_slot, slots);
            if (un->wr_idx == 0 && j < 2 && !((un->hv >> j) & 1) && !(j == 1 && un->pf)) {
                un->hdr[j] = w->flit;
                un->hv |= (uint8_t)(1u << j);
            }
        }
        if (un->wr_idx == len) {
            if (!dropping) {
                un->full[un->wr_slot] = 1;
                un->wr_slot = (uint8_t)(un->wr_slot + 1u == slots ? 0u : un->wr_slot + 1u);
            }
            un->wr_idx = 0;
            un->drop = 0;
        } else {
            un->wr_idx++;
            un->drop = (uint8_t)dropping;
        }
    }
}

unsigned tc_vc_unit_npkt(const tc_unit *un)
{
    unsigned n = un->wr_idx != 0 && !un->drop;
    for (unsigned k = 0; k < un->nslots; k++)
        n += un->full[k];
    return n;
}

void tc_vc_unit_obs(const tc_unit *un, int u, const tc_unit_sig *s, uint32_t *obs)
{
    unsigned b = (unsigned)u * TC_OBS_UNIT_W;
    const tc_wire *w = s->wr[u];
    if (w) {
        unsigned first = un->wr_idx == 0, o = (s->ovf >> u) & 1;
        unsigned len = first ? tc_unit_len(un, &w->flit) : un->wr_len;
        unsigned full = un->wr_idx == len && !((s->drop >> u) & 1);
        tc_bv_put(obs, b + TC_OBS_U_ARRIVE_LSB, 1, first && !o);
        tc_bv_put(obs, b + TC_OBS_U_FULL_LSB, 1, full);
        tc_bv_put(obs, b + TC_OBS_U_DROP_LSB, 1, o);
        tc_bv_put(obs, b + TC_OBS_U_WRTAG_LSB, 32, first ? TC_HGET(&w->flit, TAG) : full ? un->wr_tag : 0);
    }
    /* the tag of the packet routed, else of the one freed (a free with a route is of
     * the packet routed before) */
    if (((s->route | s->free) >> u) & 1)
        tc_bv_put(obs, b + TC_OBS_U_HEADTAG_LSB, 32,
                  TC_HGET((s->route >> u) & 1 ? s->head[u] : tc_vc_unit_head(un), TAG));
    tc_bv_put(obs, b + TC_OBS_U_ROUTE_LSB, 1, (s->route >> u) & 1);
    tc_bv_put(obs, b + TC_OBS_U_FREE_LSB, 1, (s->free >> u) & 1);
    tc_bv_put(obs, b + TC_OBS_U_ERR_LSB, 4, s->err[u]);
}
