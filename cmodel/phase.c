/* Phase counters, the twin of rtl/tc_phase.v: the PE's request enters the barrier; a
 * phase is completed when a phase packet has been counted from every link and this
 * node's own has been sent. The next phase packet, or the completion for the PE,
 * waits for the fence: every packet that was here when it became due has left. */
#include "phase.h"

unsigned tc_phase_err(const tc_phase *ph, unsigned diam, int np, int u, const tc_flit *h)
{
    unsigned type = TC_HGET(h, TYPE);
    if (type == TC_TYPE_BARRIER && u == TC_U_BCAST(np)) {
        unsigned mode = TC_HGET(h, OP), k = mode & TC_BAR_DIAM ? diam : TC_HGET(h, DST);
        if (mode > (TC_BAR_FULL | TC_BAR_DIAM) || k == 0 || k > TC_BAR_KMAX)
            return TC_ERR_BAD_BARRIER;
        return ph->active ? TC_ERR_BARRIER_BUSY : TC_ERR_NONE;
    }
    if (type == TC_TYPE_PHASE && u < 2 * np && (u & 1) == TC_VC_DOWN) /* a neighbour 2 phases ahead */
        return ph->cnt[u >> 1] >= 2 ? TC_ERR_PHASE_AHEAD : TC_ERR_NONE;
    return TC_ERR_NONE;
}

void tc_phase_eval(const tc_phase *ph, int np, int ns, const tc_unit *units, const tc_unit_sig *s,
                   unsigned res_fenced, unsigned red_fenced, tc_phase_ev *ev)
{
    int bu = TC_U_BCAST(np);
    unsigned all_cnt = 1, clear = 1, route = s->route, free = s->free;
    unsigned *fence_n = ev->fence_n;
    ev->enter = ((route >> bu) & 1) && !s->err[bu] && TC_HGET(s->head[bu], TYPE) == TC_TYPE_BARRIER;
    ev->arr = 0;
    for (int p = 0; p < np; p++) {
        int u = 2 * p + TC_VC_DOWN;
        if (((route >> u) & 1) && !s->err[u] && TC_HGET(s->head[u], TYPE) == TC_TYPE_PHASE)
            ev->arr |= 1u << p;
        all_cnt &= ph->cnt[p] != 0;
    }
    ev->adv = ph->active && !ph->send_due && !ph->done_due && all_cnt;
    ev->snap = ev->enter || ev->adv;
    /* A result made from a fenced contribution is fenced too: held in the Reducer,
     * or in the result buffer behind the packets now there. The fence is clear when
     * every count is zero and the Reducer holds no fenced result and makes none; a
     * fenced result entering the result buffer comes from one of those, so its place
     * in the FIFO counts from the next cycle (as tc_phase.v, for timing). */
    ev->nmask = 0;
    for (unsigned m = ph->fmask; m; m &= m - 1) { /* the units without a fence count 0 */
        int u = __builtin_ctz(m);
        fence_n[u] = ph->fence[u] - ((free >> u) & 1);
        clear &= fence_n[u] == 0;
        ev->nmask |= (fence_n[u] != 0) << u;
    }
    clear &= !red_fenced;
    for (unsigned m = res_fenced & ((1u << ns) - 1); m; m &= m - 1) { /* bit k: slice k's result buffer */
        int ur = TC_U_RESULT(np, __builtin_ctz(m));
        unsigned ahead = 0;
        for (unsigned k = 0; k < units[ur].nslots; k++)
            ahead += units[ur].full[k];
        ahead -= (free >> ur) & 1;
        if (!((ev->nmask >> ur) & 1))
            fence_n[ur] = 0;
        if (fence_n[ur] < ahead + 1)
            fence_n[ur] = ahead + 1;
        ev->nmask |= 1u << ur;
    }
    ev->send = ph->send_due && clear;
    ev->done = ph->done_due && clear;
}

void tc_phase_commit(tc_phase *ph, const tc_phase_ev *ev, int np, int ns, const tc_unit *units,
                     const tc_unit_sig *s, unsigned diam, unsigned gen_phase, unsigned gen_done)
{
    if (ev->enter) {
        const tc_flit *h = s->head[TC_U_BCAST(np)]; /* read before the slot is reused: freed next cycle */
        unsigned mode = TC_HGET(h, OP), k = mode & TC_BAR_DIAM ? diam : TC_HGET(h, DST);
        ph->active = 1;
        ph->mode = (uint8_t)mode;
        ph->target = (uint16_t)(mode & TC_BAR_FULL ? 2 * k : k);
        ph->ph = 0;
        ph->tag = (uint32_t)TC_HGET(h, TAG);
        ph->send_due = 1;
    } else if (ev->adv) {
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
    for (int p = 0; p < np && (ev->adv || ev->arr); p++)
        ph->cnt[p] = (uint8_t)(ph->cnt[p] - ev->adv + ((ev->arr >> p) & 1));
    /* a new fence counts the packets in each unit after this cycle */
    if (ev->snap) {
        ph->fmask = 0;
        for (int u = 0; u < TC_U_REPORT(np, ns); u++) { /* all but the report buffer */
            ph->fence[u] = (uint8_t)tc_vc_unit_npkt(&units[u]);
            ph->fmask |= (ph->fence[u] != 0u) << u;
        }
        return;
    }
    for (unsigned m = ph->fmask | ev->nmask; m; m &= m - 1) {
        int u = __builtin_ctz(m);
        ph->fence[u] = (uint8_t)((ev->nmask >> u) & 1 ? ev->fence_n[u] : 0);
    }
    ph->fmask = ev->nmask;
}

void tc_phase_obs(const tc_phase *ph, const tc_phase_ev *ev, unsigned gen_phase, unsigned gen_done, uint32_t *obs,
                  unsigned lsb)
{
    tc_bv_put(obs, lsb + TC_OBS_P_ENTER_LSB, 1, ev->enter);
    tc_bv_put(obs, lsb + TC_OBS_P_ADV_LSB, 1, ev->adv);
    tc_bv_put(obs, lsb + TC_OBS_P_SEND_LSB, 1, gen_phase);
    tc_bv_put(obs, lsb + TC_OBS_P_DONE_LSB, 1, gen_done);
    tc_bv_put(obs, lsb + TC_OBS_P_TOTAL_LSB, 16, ph->total);
}
