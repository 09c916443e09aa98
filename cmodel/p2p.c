#include "p2p.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tc_p2p_init(tc_p2p *m, const tc_params *p, uint64_t sw_overhead, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (tc_topo_init(&m->t, p->ndims, p->size, err, errlen))
        return -1;
    m->p = *p;
    m->np = 2 * p->ndims;
    m->sw = sw_overhead;
    m->link_free = calloc((size_t)m->t.n * (size_t)m->np, sizeof *m->link_free);
    m->inj_free = calloc((size_t)m->t.n, sizeof *m->inj_free);
    m->ej_free = calloc((size_t)m->t.n, sizeof *m->ej_free);
    if (!m->link_free || !m->inj_free || !m->ej_free) {
        snprintf(err, errlen, "out of memory for %d nodes", m->t.n);
        tc_p2p_free(m);
        return -1;
    }
    return 0;
}

void tc_p2p_free(tc_p2p *m)
{
    free(m->link_free);
    free(m->inj_free);
    free(m->ej_free);
    memset(m, 0, sizeof *m);
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* One packet of len data flits: the cycle its last flit reaches b's PE. */
static uint64_t packet(tc_p2p *m, int a, int b, int len, uint64_t t)
{
    uint64_t hold = (uint64_t)len + 1, at, g;
    int c[TC_MAX_DIMS], cb[TC_MAX_DIMS], node = a;
    at = max64(t, m->inj_free[a]); /* the PE sends one flit a cycle */
    m->inj_free[a] = at + hold;
    at += (uint64_t)m->p.inj_lat; /* header in the router's PEGroup FIFO */
    tc_coords(&m->t, a, c);
    tc_coords(&m->t, b, cb);
    for (int d = 0; d < TC_MAX_DIMS; d++) { /* dimension order, the shorter way (+ on a tie) */
        int s = m->t.size[d], off = (cb[d] - c[d] + s) % s;
        int dir = 2 * d + (off > s / 2), steps = off > s / 2 ? s - off : off;
        for (int k = 0; k < steps; k++) {
            uint64_t *lf = &m->link_free[(size_t)node * (size_t)m->np + (size_t)dir];
            g = max64(at + (uint64_t)len + 2, *lf); /* whole, routed, granted */
            *lf = g + hold;
            at = g + 1 + (uint64_t)m->p.link_lat;
            node = tc_neighbour(&m->t, node, dir);
        }
    }
    g = max64(at + (uint64_t)len + 2, m->ej_free[b]);
    m->ej_free[b] = g + hold;
    return g + 1 + (uint64_t)m->p.ej_lat + (uint64_t)len;
}

uint64_t tc_p2p_send(tc_p2p *m, int a, int b, int flits, uint64_t t)
{
    uint64_t done = t;
    if (a == b)
        return t;
    do { /* packets of at most 7 data flits, back to back */
        int len = flits > TC_SLOT_FLITS - 1 ? TC_SLOT_FLITS - 1 : flits;
        done = packet(m, a, b, len, t);
        flits -= len;
    } while (flits > 0);
    return done;
}

typedef struct {
    uint64_t t;
    int from, to, flits;
} msg;

static int by_time(const void *x, const void *y)
{
    const msg *a = x, *b = y;
    return a->t < b->t ? -1 : a->t > b->t ? 1 : a->from - b->from;
}

/* One round: every message sent at its time, in time order (the links are served
 * first come first served); when[to] becomes the later of itself and the arrival. */
static void round_of(tc_p2p *m, msg *ms, int n, uint64_t *when)
{
    qsort(ms, (size_t)n, sizeof *ms, by_time);
    uint64_t *arr = malloc(sizeof *arr * (size_t)n);
    for (int i = 0; i < n; i++)
        arr[i] = tc_p2p_send(m, ms[i].from, ms[i].to, ms[i].flits, ms[i].t);
    for (int i = 0; i < n; i++) /* a node sends from its time before, receives after */
        when[ms[i].to] = max64(when[ms[i].to], arr[i] + m->sw);
    free(arr);
}

uint64_t tc_p2p_collective(tc_p2p *m, tc_wl_kind kind, int len, int root, uint64_t *done)
{
    int n = m->t.n;
    uint64_t *when = calloc((size_t)n, sizeof *when), last = 0;
    msg *ms = malloc(sizeof *ms * (size_t)n);
    memset(m->link_free, 0, sizeof *m->link_free * (size_t)n * (size_t)m->np);
    memset(m->inj_free, 0, sizeof *m->inj_free * (size_t)n);
    memset(m->ej_free, 0, sizeof *m->ej_free * (size_t)n);
    int pow2 = (n & (n - 1)) == 0, k;
    switch (kind) {
    case TC_WL_BCAST: /* binomial tree from root, ranks relative to it */
        for (int mask = 1; mask < n; mask <<= 1) {
            k = 0;
            for (int v = 0; v < mask && v + mask < n; v++)
                ms[k++] = (msg){when[(v + root) % n], (v + root) % n, (v + mask + root) % n, len};
            round_of(m, ms, k, when);
        }
        break;
    case TC_WL_REDUCE: /* binomial tree into root: every partial result goes down a mask */
        for (int mask = 1; mask < n; mask <<= 1) {
            k = 0;
            for (int v = mask; v < n; v += 2 * mask)
                ms[k++] = (msg){when[(v + root) % n], (v + root) % n, (v - mask + root) % n, len};
            round_of(m, ms, k, when);
        }
        break;
    case TC_WL_ALLREDUCE:
    case TC_WL_TREE_BARRIER:
        if (!pow2) { /* a reduce to 0, then a broadcast from 0 */
            free(when);
            free(ms);
            uint64_t *mid = calloc((size_t)n, sizeof *mid);
            tc_p2p_collective(m, TC_WL_REDUCE, len, 0, mid);
            uint64_t t0 = mid[0], end;
            free(mid);
            /* the broadcast starts when the root has the result: shift it */
            end = tc_p2p_collective(m, TC_WL_BCAST, len, 0, done);
            if (done)
                for (int i = 0; i < n; i++)
                    done[i] += t0;
            return end + t0;
        }
        for (int mask = 1; mask < n; mask <<= 1) { /* recursive doubling: exchange with v ^ mask */
            k = 0;
            for (int v = 0; v < n; v++)
                ms[k++] = (msg){when[v], v, v ^ mask, kind == TC_WL_TREE_BARRIER ? 0 : len};
            round_of(m, ms, k, when);
        }
        break;
    case TC_WL_BARRIER: /* dissemination: round r, send to v + 2^r, hear from v - 2^r */
        for (int dist = 1; dist < n; dist <<= 1) {
            k = 0;
            for (int v = 0; v < n; v++)
                ms[k++] = (msg){when[v], v, (v + dist) % n, 0};
            round_of(m, ms, k, when);
        }
        break;
    case TC_WL_ALLGATHER: /* recursive doubling, the data doubling every round (a ring if n is not 2^k) */
        if (pow2) {
            for (int mask = 1, f = len; mask < n; mask <<= 1, f *= 2) {
                k = 0;
                for (int v = 0; v < n; v++)
                    ms[k++] = (msg){when[v], v, v ^ mask, f};
                round_of(m, ms, k, when);
            }
        } else {
            for (int r = 0; r < n - 1; r++) {
                k = 0;
                for (int v = 0; v < n; v++)
                    ms[k++] = (msg){when[v], v, (v + 1) % n, len};
                round_of(m, ms, k, when);
            }
        }
        break;
    default:
        break;
    }
    for (int v = 0; v < n; v++) {
        uint64_t t = when[v] > m->sw ? when[v] - m->sw : 0; /* the last receive needs no overhead after it */
        if (done)
            done[v] = t;
        last = max64(last, t);
    }
    free(when);
    free(ms);
    return last;
}
