#include "pe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tc_pe_init(tc_pe *pe, int node, int inj_credits, int ej_capacity)
{
    memset(pe, 0, sizeof *pe);
    pe->node = node;
    pe->credits = inj_credits;
    pe->capacity = ej_capacity;
}

static int stalled(const tc_pe *pe, uint64_t t)
{
    for (int i = 0; i < pe->nstall; i++)
        if (t >= pe->stall[i].from && t < pe->stall[i].to)
            return 1;
    return 0;
}

/* what: 1 delivered, 2 its error report */
static int received(const tc_pe *pe, uint32_t tag, unsigned what)
{
    return !tag || (tag / 2 < pe->ngot && (pe->got[tag / 2] >> (tag % 2 * 4)) & what);
}

static void mark(tc_pe *pe, uint32_t tag, unsigned what)
{
    if (tag / 2 >= pe->ngot) {
        uint32_t n = tag / 2 + 256;
        uint8_t *g = realloc(pe->got, n);
        if (!g) {
            fprintf(stderr, "PE model of node %d: out of memory for %u tags\n", pe->node, 2 * n);
            abort();
        }
        pe->got = g;
        memset(pe->got + pe->ngot, 0, n - pe->ngot);
        pe->ngot = n;
    }
    pe->got[tag / 2] |= (uint8_t)(what << (tag % 2 * 4));
}

void tc_pe_cycle(tc_pe *pe, const tc_pe_out *out, tc_pe_in *in, uint64_t t, const tc_pe_sink *s)
{
    memset(in, 0, sizeof *in);
    pe->credits += out->inj_cred;

    if (out->ej.valid) {
        if (pe->rx_n == 0)
            s->eject(s->ctx, pe->node, &out->ej.flit, t);
        pe->rx[pe->rx_n++] = out->ej.flit;
        if (pe->rx_n == (int)TC_HGET(&pe->rx[0], LEN) + 1) {
            if (TC_HGET(&pe->rx[0], TYPE) == TC_TYPE_BARRIER && TC_HGET(&pe->rx[0], TAG) > pe->bar_done)
                pe->bar_done = (uint32_t)TC_HGET(&pe->rx[0], TAG);
            uint32_t tag = (uint32_t)TC_HGET(&pe->rx[0], TAG);
            unsigned type = TC_HGET(&pe->rx[0], TYPE);
            if (tag < TC_TAG_PHASE && type != TC_TYPE_REPORT) /* not the router's own packets */
                mark(pe, tag, type == TC_TYPE_ERROR ? 2 : 1);
            s->deliver(s->ctx, pe->node, pe->rx, pe->rx_n, t);
            pe->rx_n = 0;
            if (++pe->held > pe->capacity) {
                char msg[128];
                snprintf(msg, sizeof msg, "credit violation: %d packets in a PE ejection buffer of %d",
                         pe->held, pe->capacity);
                s->error(s->ctx, pe->node, msg, t);
            }
        }
    }
    if (pe->held > 0 && !stalled(pe, t)) {
        pe->held--;
        in->ej_cred = 1;
    }

    if (pe->sent == 0 && pe->next < pe->nqueue && pe->queue[pe->next]->cycle <= t &&
        pe->queue[pe->next]->after <= pe->bar_done && received(pe, pe->queue[pe->next]->after_rx, 1) &&
        received(pe, pe->queue[pe->next]->after_err, 2) &&
        (pe->credits > 0 || pe->rogue)) {
        pe->credits--;
        s->inject(s->ctx, pe->node, TC_HGET(&pe->queue[pe->next]->flit[0], TAG), t);
        pe->sent = 1;
        in->inj.valid = 1;
        in->inj.flit = pe->queue[pe->next]->flit[0];
    } else if (pe->sent > 0) {
        in->inj.valid = 1;
        in->inj.flit = pe->queue[pe->next]->flit[pe->sent++];
    }
    if (pe->sent > 0 && pe->sent == pe->queue[pe->next]->nflits) {
        pe->sent = 0;
        pe->next++;
    }
}

int tc_pe_idle(const tc_pe *pe) { return pe->next == pe->nqueue && pe->rx_n == 0 && pe->held == 0; }
