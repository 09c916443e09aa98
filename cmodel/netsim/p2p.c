#include "p2p.h"
#include "p2p_sim.h"

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
    m->flits = calloc((size_t)m->t.n * (size_t)m->np, sizeof *m->flits);
    m->pe_flits = calloc((size_t)m->t.n, sizeof *m->pe_flits);
    m->pe_msgs = calloc((size_t)m->t.n, sizeof *m->pe_msgs);
    if (!m->link_free || !m->inj_free || !m->ej_free || !m->flits || !m->pe_flits || !m->pe_msgs) {
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
    free(m->flits);
    free(m->pe_flits);
    free(m->pe_msgs);
    memset(m, 0, sizeof *m);
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static int before(const event *a, const event *b) { return a->t < b->t || (a->t == b->t && a->seq < b->seq); }

static void *grow(void *a, size_t *cap, size_t need, size_t size, int *oom)
{
    if (need <= *cap)
        return a;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *b = realloc(a, c * size);
    if (!b) {
        *oom = 1;
        return a;
    }
    *cap = c;
    return b;
}

static void push(sim *s, uint64_t t, int what, int pkt, int node)
{
    s->ev = grow(s->ev, &s->capev, s->nev + 1, sizeof *s->ev, &s->oom);
    if (s->oom)
        return;
    size_t i = s->nev++;
    event e = {t, s->seq++, what, pkt, node};
    for (; i && before(&e, &s->ev[(i - 1) / 2]); i = (i - 1) / 2)
        s->ev[i] = s->ev[(i - 1) / 2];
    s->ev[i] = e;
}

static event pop(sim *s)
{
    event top = s->ev[0], last = s->ev[--s->nev];
    size_t i = 0, n = s->nev;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&s->ev[c + 1], &s->ev[c]))
            c++;
        if (!before(&s->ev[c], &last))
            break;
        s->ev[i] = s->ev[c];
        i = c;
    }
    if (n)
        s->ev[i] = last;
    return top;
}

void tc_p2p_sim_send(sim *s, int from, int to, int id, int flits, int round, uint64_t t)
{
    int npk = flits ? (flits + TC_SLOT_FLITS - 2) / (TC_SLOT_FLITS - 1) : 1;
    s->msg = grow(s->msg, &s->capmsg, s->nmsg + 1, sizeof *s->msg, &s->oom);
    s->pk = grow(s->pk, &s->cappk, s->npk + (size_t)npk, sizeof *s->pk, &s->oom);
    if (s->oom)
        return;
    s->msg[s->nmsg] = (message){id, round, npk, flits};
    s->m->pe_flits[from] += (uint64_t)flits;
    s->m->pe_msgs[from]++;
    for (int i = 0; i < npk; i++, flits -= TC_SLOT_FLITS - 1) {
        s->pk[s->npk] = (packet){to, flits > TC_SLOT_FLITS - 1 ? TC_SLOT_FLITS - 1 : flits, (int)s->nmsg};
        push(s, t, INJECT, (int)s->npk++, from);
    }
    s->nmsg++;
}

/* The same, the message known by its destination node. */
static void send(sim *s, int from, int to, int flits, int round, uint64_t t) { tc_p2p_sim_send(s, from, to, to, flits, round, t); }

/* The next dimension-order hop from node to dst (the shorter way, + on a tie), or
 * -1 at dst. */
static int next_dir(const tc_topo *t, int node, int dst)
{
    int c[TC_MAX_DIMS], cd[TC_MAX_DIMS];
    tc_coords(t, node, c);
    tc_coords(t, dst, cd);
    for (int d = 0; d < TC_MAX_DIMS; d++) {
        int sz = t->size[d], off = (cd[d] - c[d] + sz) % sz;
        if (off)
            return 2 * d + (off > sz / 2);
    }
    return -1;
}

void tc_p2p_idle(tc_p2p *m)
{
    memset(m->link_free, 0, sizeof *m->link_free * (size_t)m->t.n * (size_t)m->np);
    memset(m->inj_free, 0, sizeof *m->inj_free * (size_t)m->t.n);
    memset(m->ej_free, 0, sizeof *m->ej_free * (size_t)m->t.n);
    memset(m->pe_flits, 0, sizeof *m->pe_flits * (size_t)m->t.n);
    memset(m->pe_msgs, 0, sizeof *m->pe_msgs * (size_t)m->t.n);
}

int tc_p2p_dir(const tc_topo *t, int node, int dst) { return next_dir(t, node, dst); }

void tc_p2p_sim_run(sim *s)
{
    tc_p2p *m = s->m;
    while (s->nev && !s->oom) {
        event e = pop(s);
        const packet *p = &s->pk[e.pkt];
        uint64_t hold = (uint64_t)p->len + 1, g;
        if (e.what == INJECT) { /* the PE sends one flit a cycle; the header reaches the PEGroup FIFO */
            g = max64(e.t, m->inj_free[e.node]);
            m->inj_free[e.node] = g + hold;
            push(s, g + (uint64_t)m->p.inj_lat + (uint64_t)p->len + 2, HOP, e.pkt, e.node);
        } else if (e.what == HOP) { /* whole and routed: granted when the channel is free */
            int dir = next_dir(&m->t, e.node, p->dst);
            uint64_t *ch = dir < 0 ? &m->ej_free[e.node] : &m->link_free[(size_t)e.node * (size_t)m->np + (size_t)dir];
            g = max64(e.t, *ch);
            *ch = g + hold;
            if (dir >= 0)
                m->flits[(size_t)e.node * (size_t)m->np + (size_t)dir] += hold;
            if (dir < 0)
                push(s, g + 1 + (uint64_t)m->p.ej_lat + (uint64_t)p->len, DELIVER, e.pkt, e.node);
            else
                push(s, g + 1 + (uint64_t)m->p.link_lat + (uint64_t)p->len + 2, HOP, e.pkt, tc_neighbour(&m->t, e.node, dir));
        } else if (--s->msg[p->msg].left == 0) {
            message g2 = s->msg[p->msg]; /* arrived() may send, and move the messages */
            s->arrived(s, &g2, e.t);
        }
    }
}

void tc_p2p_sim_free(sim *s)
{
    free(s->ev);
    free(s->pk);
    free(s->msg);
}

static void one_arrived(sim *s, const message *g, uint64_t t)
{
    (void)g;
    *(uint64_t *)s->ctx = t;
}

uint64_t tc_p2p_send(tc_p2p *m, int a, int b, int flits, uint64_t t)
{
    if (a == b)
        return t;
    uint64_t done = 0;
    sim s = {.m = m, .arrived = one_arrived, .ctx = &done};
    send(&s, a, b, flits, 0, t);
    tc_p2p_sim_run(&s);
    tc_p2p_sim_free(&s);
    if (s.oom)
        snprintf(m->err, sizeof m->err, "out of memory for the packets in flight");
    return s.oom ? 0 : done;
}

/* The collectives as rounds: in round r node v sends at most one message and
 * receives at most one, and starts round r + 1 once it has sent and received what
 * round r holds for it (its sends leave as soon as it is ready: they do not wait
 * for delivery). Receiving costs the software time before the next send. */
typedef struct {
    tc_wl_kind kind;
    int n, len, root, logn, pow2, rounds; /* n ranks, root a rank */
    const int *node;        /* [rank]: its node; NULL: rank r on node r */
    int *round;             /* [node]: the round it is in */
    uint8_t *sent;          /* [node]: its send of that round is out */
    uint64_t *ready, *last; /* [node]: when it may send; its last receive */
    uint64_t *got;          /* [node][round]: when its message arrived, or NOT_YET */
} coll;

#define NOT_YET UINT64_MAX

/* What round r holds for node v: the node it sends to (-1: none) with how many
 * flits, and whether it receives. */
static int plan(const coll *c, int v, int r, int *flits, int *recv)
{
    int n = c->n, rel = (v - c->root + n) % n, to = -1;
    tc_wl_kind k = c->kind;
    *flits = k == TC_WL_BARRIER || k == TC_WL_TREE_BARRIER ? 0 : c->len;
    *recv = 0;
    if ((k == TC_WL_ALLREDUCE || k == TC_WL_TREE_BARRIER) && !c->pow2) { /* a reduce to the root, then a broadcast */
        k = r < c->logn ? TC_WL_REDUCE : TC_WL_BCAST;
        r %= c->logn;
    }
    int mask = r < 30 ? 1 << r : 0; /* the ring all-gather's later rounds have none */
    switch (k) {
    case TC_WL_BCAST: /* binomial tree, ranks relative to the root */
        if (rel < mask && rel + mask < n)
            to = (rel + mask + c->root) % n;
        *recv = rel >= mask && rel < 2 * mask;
        break;
    case TC_WL_REDUCE: /* binomial tree into the root: a partial result goes down a mask */
        if (rel % (2 * mask) == mask)
            to = (rel - mask + c->root) % n;
        *recv = rel % (2 * mask) == 0 && rel + mask < n;
        break;
    case TC_WL_ALLREDUCE:
    case TC_WL_TREE_BARRIER: /* recursive doubling: exchange with v ^ mask */
        to = v ^ mask;
        *recv = 1;
        break;
    case TC_WL_BARRIER: /* dissemination: send to v + 2^r, hear from v - 2^r */
        to = (v + mask) % n;
        *recv = 1;
        break;
    case TC_WL_ALLGATHER: /* recursive doubling, the data doubling every round; else a ring */
        to = c->pow2 ? v ^ mask : (v + 1) % n;
        *flits = c->pow2 ? c->len << r : c->len;
        *recv = 1;
        break;
    default:
        break;
    }
    return to;
}

/* Node v goes through every round it can complete now. */
static void advance(sim *s, int v)
{
    coll *c = s->ctx;
    while (c->round[v] < c->rounds) {
        int r = c->round[v], flits, recv, to = plan(c, v, r, &flits, &recv);
        if (!c->sent[v] && to >= 0)
            tc_p2p_sim_send(s, c->node ? c->node[v] : v, c->node ? c->node[to] : to, to, flits, r, c->ready[v]);
        c->sent[v] = 1;
        if (recv) {
            uint64_t t = c->got[(size_t)v * (size_t)c->rounds + (size_t)r];
            if (t == NOT_YET)
                return;
            c->last[v] = max64(c->last[v], t);
            c->ready[v] = max64(c->ready[v], t + s->m->sw);
        }
        c->round[v]++;
        c->sent[v] = 0;
    }
}

static void coll_arrived(sim *s, const message *g, uint64_t t)
{
    coll *c = s->ctx;
    c->got[(size_t)g->to * (size_t)c->rounds + (size_t)g->round] = t;
    if (c->round[g->to] == g->round)
        advance(s, g->to);
}

int tc_p2p_collective(tc_p2p *m, tc_wl_kind kind, int len, int root, uint64_t *done, uint64_t *end)
{
    return tc_p2p_collective_on(m, kind, len, root, NULL, m->t.n, done, end);
}

int tc_p2p_collective_on(tc_p2p *m, tc_wl_kind kind, int len, int root, const int *node, int n, uint64_t *done,
                         uint64_t *end)
{
    int logn = 0;
    while ((1 << logn) < n)
        logn++;
    coll c = {kind, n, len, root, logn, (n & (n - 1)) == 0, logn, node, NULL, NULL, NULL, NULL, NULL};
    if ((kind == TC_WL_ALLREDUCE || kind == TC_WL_TREE_BARRIER) && !c.pow2)
        c.rounds = 2 * logn;
    if (kind == TC_WL_ALLGATHER && !c.pow2)
        c.rounds = n - 1;
    if ((size_t)n * (size_t)c.rounds > ((size_t)1 << 27)) { /* a ring all-gather on very many nodes */
        snprintf(m->err, sizeof m->err, "p2p %s: %d rounds on %d nodes is too many to track",
                 tc_wl_names[kind], c.rounds, n);
        return -1;
    }
    if (n < 1 || n > m->t.n || root < 0 || root >= n) {
        snprintf(m->err, sizeof m->err, "p2p %s: %d ranks (root %d) on %d nodes", tc_wl_names[kind], n, root, m->t.n);
        return -1;
    }
    tc_p2p_idle(m);
    size_t ngot = (size_t)n * (size_t)(c.rounds ? c.rounds : 1);
    c.round = calloc((size_t)n, sizeof *c.round);
    c.sent = calloc((size_t)n, sizeof *c.sent);
    c.ready = calloc((size_t)n, sizeof *c.ready);
    c.last = calloc((size_t)n, sizeof *c.last);
    c.got = malloc(ngot * sizeof *c.got);
    sim s = {.m = m, .arrived = coll_arrived, .ctx = &c};
    s.oom = !c.round || !c.sent || !c.ready || !c.last || !c.got;
    for (size_t i = 0; i < ngot && !s.oom; i++)
        c.got[i] = NOT_YET;
    for (int v = 0; v < n && !s.oom; v++)
        advance(&s, v);
    tc_p2p_sim_run(&s);
    int rc = s.oom ? -1 : 0;
    if (s.oom)
        snprintf(m->err, sizeof m->err, "out of memory for %d nodes' messages", n);
    *end = 0;
    for (int v = 0; v < n && !rc; v++) {
        if (c.round[v] != c.rounds) { /* a plan whose sends and receives do not match */
            snprintf(m->err, sizeof m->err, "p2p %s: node %d stopped in round %d of %d", tc_wl_names[kind], v,
                     c.round[v], c.rounds);
            rc = -1;
        }
        if (done)
            done[v] = c.last[v];
        *end = max64(*end, c.last[v]);
    }
    tc_p2p_sim_free(&s);
    free(c.round);
    free(c.sent);
    free(c.ready);
    free(c.last);
    free(c.got);
    return rc;
}

static void many_arrived(sim *s, const message *g, uint64_t t)
{
    (void)g;
    uint64_t *last = s->ctx;
    *last = max64(*last, t);
}

int tc_p2p_exchange(tc_p2p *m, size_t nmsg, const int *from, const int *to, const int *flits, uint64_t *end)
{
    *end = 0;
    tc_p2p_idle(m);
    sim s = {.m = m, .arrived = many_arrived, .ctx = end};
    for (size_t i = 0; i < nmsg && !s.oom; i++) {
        if (from[i] < 0 || from[i] >= m->t.n || to[i] < 0 || to[i] >= m->t.n || flits[i] < 0) {
            snprintf(m->err, sizeof m->err, "p2p exchange: message %zu from %d to %d of %d flits on %d nodes", i,
                     from[i], to[i], flits[i], m->t.n);
            tc_p2p_sim_free(&s);
            return -1;
        }
        if (from[i] != to[i])
            send(&s, from[i], to[i], flits[i], 0, 0);
    }
    tc_p2p_sim_run(&s);
    tc_p2p_sim_free(&s);
    if (s.oom)
        snprintf(m->err, sizeof m->err, "p2p exchange: out of memory for %zu messages", nmsg);
    return s.oom ? -1 : 0;
}
