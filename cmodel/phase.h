/* Phase counters of the multiphase barrier (Makagon, Syromyatnikov, 2012), the twin of rtl/tc_phase.v. A
 * phase packet (or the barrier-complete packet for the PE) is made only after every
 * packet that was in the router when it became due has left: the fence. */
#ifndef TC_PHASE_H
#define TC_PHASE_H

#include "vc_unit.h"

typedef struct {
    uint8_t active, send_due, done_due, mode;
    uint16_t target, ph;         /* phases this barrier needs, and completed so far */
    uint16_t total;              /* phases completed since reset */
    uint8_t cnt[TC_MAX_PORTS];   /* phase packets counted per link input, not yet used (0..2) */
    uint8_t fence[TC_MAX_UNITS]; /* packets per unit that must leave first */
    uint32_t fmask;              /* bit u: fence[u] != 0 (the others are skipped) */
    uint32_t tag;                /* the PE's request, returned with the completion */
} tc_phase;

/* One cycle's evaluation: the PE's request enters, a phase completes (adv), so a new
 * fence is taken (snap); phase packets arrive (bit p); the fence's next counts;
 * send/done: the phase packet or the completion may be written (due, fence clear). */
typedef struct {
    unsigned enter, adv, snap, send, done, arr;
    unsigned fence_n[TC_MAX_UNITS]; /* defined where nmask has a bit, 0 elsewhere */
    unsigned nmask;
} tc_phase_ev;

/* err_o: the route error of a barrier request at the Broadcaster (unit u) or of a
 * phase packet at a VCDown, header h; diam is K of a BAR_DIAM barrier. */
unsigned tc_phase_err(const tc_phase *ph, unsigned diam, int np, int u, const tc_flit *h);
/* src_fenced_o: the contribution the Reducer takes from unit src is fenced. */
static inline unsigned tc_phase_src_fenced(const tc_phase *ph, unsigned src) { return ph->fence[src] != 0; }
/* res_fenced, bit k: a fenced result enters the result buffer of Reducer slice k;
 * red_fenced: a slice holds a fenced result or makes one now (tc_reducer.v's
 * res_fenced_o, fenced_o); ns: the slices. */
void tc_phase_eval(const tc_phase *ph, int np, int ns, const tc_unit *units, const tc_unit_sig *s,
                   unsigned res_fenced, unsigned red_fenced, tc_phase_ev *ev);
/* No barrier under way, no fence, and no head routed (route: the units' bits) that
 * the counters take (a barrier request at the Broadcaster, a phase packet at a
 * VCDown): with a quiet Reducer (tc_reducer_quiet) the evaluation is all 0 and the
 * commit, without gen_phase or gen_done, changes nothing. */
static inline unsigned tc_phase_quiet(const tc_phase *ph, int np, unsigned route)
{
    unsigned taken = (1u << TC_U_BCAST(np)) | (0xaaaaaaaau & ((1u << 2 * np) - 1)); /* VCDown: u = 2 * port + 1 */
    return !ph->active && !ph->send_due && !ph->done_due && !ph->fmask && !(route & taken);
}
/* After the units' commit: a new fence counts the packets in each unit after this
 * cycle. gen_phase, gen_done: the credit block wrote the phase packet, the completion. */
void tc_phase_commit(tc_phase *ph, const tc_phase_ev *ev, int np, int ns, const tc_unit *units,
                     const tc_unit_sig *s, unsigned diam, unsigned gen_phase, unsigned gen_done);
void tc_phase_obs(const tc_phase *ph, const tc_phase_ev *ev, unsigned gen_phase, unsigned gen_done, uint32_t *obs,
                  unsigned lsb);

#endif
