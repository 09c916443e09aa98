#include "deadlock.h"

#include <stdlib.h>
#include <string.h>

#include "../router.h"

/* Resources, per node (vn of them): the units' buffers (nu); per tree the results of
 * that tree its Reducer slice holds (the slice's memory entries, TC_TREES); the PE's
 * ejection buffer and credits; the Reducer slices' inputs (one vertex: none waits
 * for anything); the credit block (its duties, one arbiter); the phase counters;
 * each unit's read port (nu). */
enum { V_PE, V_RIN, V_CB, V_PH, V_RP };
/* A wait: a copy that enters its next buffer (two credits if that is a ring's), one
 * that continues along its ring (one credit); or a well-founded one, which may close
 * a cycle: a held result's wait for a credit of its parent, which comes once the
 * parent's results of red_rids reduces earlier have left (the reduce window); the phase
 * counters' wait for a neighbour's phase packet, which that neighbour sends once it
 * has the packets of the phase before (lemma 1). */
enum { E_ENTER, E_CONT, E_WINDOW, E_PHASE };
#define MAX_SUCC 64

typedef struct {
    const tc_topo *t;
    const tc_row *rows;
    int np, ns, nu, vn;
    long nv;
    int *nbr;        /* [node][port] */
    uint16_t *tmask; /* [node][unit]: link outputs waited for, bit 2 * port + vc */
    uint16_t *cmask; /* ... of which a copy continues along its ring (one credit) */
    uint8_t *other;  /* [node][unit]: bit 0 the PE, bit 1 a Reducer slice's input, bit 2 + k a slot of slice
                        k's result buffer (planted) */
} graph;

typedef struct {
    long v;
    uint8_t kind; /* E_* */
} edge;

static long vx(const graph *g, long k, int x) { return k * g->vn + x; }
static int vbase(const graph *g, int which) { return g->nu + TC_TREES + which; }

/* The waits of resource v, into e (at most MAX_SUCC). */
static int succ(const graph *g, long v, edge *e)
{
    long k = v / g->vn;
    int x = (int)(v % g->vn), n = 0;
    if (x < g->nu) { /* a unit's head packet: each copy's output */
        size_t i = (size_t)k * (size_t)g->nu + (size_t)x;
        for (unsigned m = g->tmask[i]; m; m &= m - 1) {
            int b = __builtin_ctz(m), o = b >> 1, vc = b & 1;
            e[n++] = (edge){vx(g, g->nbr[k * g->np + o], 2 * (o ^ 1) + vc), (uint8_t)((g->cmask[i] >> b) & 1)};
        }
        if (g->other[i] & 1)
            e[n++] = (edge){vx(g, k, vbase(g, V_PE)), E_ENTER};
        if (g->other[i] & 2)
            e[n++] = (edge){vx(g, k, vbase(g, V_RIN)), E_ENTER};
        for (int s = 0; s < g->ns; s++)
            if ((g->other[i] >> (2 + s)) & 1)
                e[n++] = (edge){vx(g, k, TC_U_RESULT(g->np, s)), E_ENTER};
        if (g->tmask[i] || (g->other[i] & 3)) /* a copy granted while a pass streams waits for it */
            e[n++] = (edge){vx(g, k, vbase(g, V_RP) + x), E_ENTER};
        return n;
    }
    if (x < g->nu + TC_TREES) { /* the results of a tree the Reducer holds */
        int tree = x - g->nu;
        tc_row row = TC_ROWP(g->rows, k, tree);
        if (!TC_RGET(row, VALID))
            return 0;
        e[n++] = (edge){vx(g, k, TC_U_RESULT(g->np, tree % g->ns)), E_ENTER}; /* a free slot of its result buffer */
        if (!TC_RGET(row, ROOT)) { /* going up, a credit of the parent: the parent's results of the tree
                                      16 reduces earlier, and its credit block and report buffer */
            long p = g->nbr[k * g->np + (long)TC_RGET(row, TOROOT)];
            e[n++] = (edge){vx(g, p, g->nu + tree), E_WINDOW};
            e[n++] = (edge){vx(g, p, vbase(g, V_CB)), E_ENTER};
        }
        /* in ReduceId order: the oldest waits for its contributions, the children's
         * results (held there, or on their way up in this node's VCUp buffers) */
        for (unsigned m = TC_RGET(row, DIRS); m; m &= m - 1) {
            int d = __builtin_ctz(m);
            e[n++] = (edge){vx(g, g->nbr[k * g->np + d], g->nu + tree), E_ENTER};
            e[n++] = (edge){vx(g, k, 2 * d), E_ENTER};
        }
        return n;
    }
    switch (x - vbase(g, 0)) {
    case V_CB: /* a free slot of the report buffer */
        e[n++] = (edge){vx(g, k, TC_U_REPORT(g->np, g->ns)), E_ENTER};
        return n;
    case V_PH: /* the fence (every unit, every held result), the neighbours' phase packets */
        for (int u = 0; u < g->nu; u++)
            e[n++] = (edge){vx(g, k, u), E_ENTER};
        for (int tree = 0; tree < TC_TREES; tree++)
            if (TC_RGET(TC_ROWP(g->rows, k, tree), VALID))
                e[n++] = (edge){vx(g, k, g->nu + tree), E_ENTER};
        for (int d = 0; d < g->np; d++) {
            long w = g->nbr[k * g->np + d];
            e[n++] = (edge){vx(g, w, vbase(g, V_CB)), E_ENTER};
            e[n++] = (edge){vx(g, w, vbase(g, V_PH)), E_PHASE};
        }
        return n;
    default: /* the PE (its contract), the Reducer's input, a read port: wait for nothing */
        return 0;
    }
}

/* Every output each unit may wait for, over every tree and packet type its head can
 * have: the router's own routing function decides. Also checks that a contribution
 * longer than the Reducer's entry is refused at injection (it would wait for room
 * the memory does not have); returns the nodes where it is not. */
static long build_units(graph *g, const tc_params *p)
{
    static const unsigned types[] = {TC_TYPE_BCAST,   TC_TYPE_REDUCE, TC_TYPE_ALLREDUCE, TC_TYPE_CREDIT,
                                     TC_TYPE_BARRIER, TC_TYPE_PHASE,  TC_TYPE_ERROR,     TC_TYPE_REPORT};
    tc_router r;
    long bad_len = 0;
    memset(&r, 0, sizeof r);
    r.nports = (uint8_t)g->np;
    r.nslices = (uint8_t)g->ns;
    r.red_flits = (uint8_t)p->red_flits;
    r.plant = (uint8_t)p->plant;
    r.diam = 1;
    for (int k = 0; k < g->t->n; k++) {
        r.id = (uint16_t)k;
        for (int tree = 0; tree < TC_TREES; tree++)
            r.row[tree] = TC_ROWP(g->rows, k, tree);
        for (int u = 0; u < g->nu; u++) {
            size_t i = (size_t)k * (size_t)g->nu + (size_t)u;
            for (int tree = 0; tree < TC_TREES; tree++)
                for (size_t ty = 0; ty < sizeof types / sizeof types[0]; ty++) {
                    tc_flit h = {{0, 0}};
                    unsigned mask, vc;
                    TC_HSET(&h, TYPE, types[ty]);
                    TC_HSET(&h, TREE, (unsigned)tree);
                    TC_HSET(&h, SRC, (unsigned)k);
                    TC_HSET(&h, DST, 1); /* a barrier of K = 1 */
                    if (u == TC_U_BCAST(g->np) && (types[ty] == TC_TYPE_REDUCE || types[ty] == TC_TYPE_ALLREDUCE))
                        TC_HSET(&h, LEN, (unsigned)p->red_flits); /* the longest the Reducer holds */
                    if (tc_router_route(&r, u, &h, &mask, &vc) != TC_ERR_NONE)
                        continue; /* dropped: waits for nothing */
                    if (TC_HGET(&h, LEN) && p->red_flits < TC_SLOT_FLITS - 1) { /* one flit longer: refused */
                        tc_flit l = h;
                        unsigned lm, lvc;
                        TC_HSET(&l, LEN, (unsigned)p->red_flits + 1);
                        bad_len += tc_router_route(&r, u, &l, &lm, &lvc) != TC_ERR_BAD_OP;
                    }
                    for (int o = 0; o < g->np; o++)
                        if ((mask >> o) & 1) {
                            g->tmask[i] |= (uint16_t)(1u << (2 * o + (int)vc));
                            if (tc_router_credits(&r, u, o, vc) == 1)
                                g->cmask[i] |= (uint16_t)(1u << (2 * o + (int)vc));
                        }
                    g->other[i] |= (uint8_t)((mask >> TC_O_PE(g->np)) & 1);
                    for (int s = 0; s < g->ns; s++)
                        if ((mask >> TC_O_RED(g->np, s)) & 1)
                            g->other[i] |= (uint8_t)(2u | (tc_router_red_waits_slot(&r) != 0) << (2 + s));
                }
        }
    }
    return bad_len;
}

static void name(const graph *g, long v, char *buf, size_t len)
{
    static const char *const what[] = {"the PE's ejection buffer", "the Reducer slices' inputs", "the credit block",
                                       "the phase counters"};
    char c[48], u[32];
    long k = v / g->vn;
    int x = (int)(v % g->vn);
    tc_coord_name(g->t, (int)k, c, sizeof c);
    if (x < g->nu)
        snprintf(buf, len, "node %ld %s %s", k, c, tc_unit_name(g->np, g->ns, x, u, sizeof u));
    else if (x < g->nu + TC_TREES)
        snprintf(buf, len, "node %ld %s Reducer, results of tree %d held", k, c, x - g->nu);
    else if (x < vbase(g, V_RP))
        snprintf(buf, len, "node %ld %s %s", k, c, what[x - vbase(g, 0)]);
    else
        snprintf(buf, len, "node %ld %s %s's read port", k, c,
                 tc_unit_name(g->np, g->ns, x - vbase(g, V_RP), u, sizeof u));
}

/* Strongly connected components (Tarjan, without recursion); comp[v] is the
 * component, and the components come out in reverse topological order. */
static long scc(const graph *g, long *comp)
{
    long nv = g->nv, idx = 0, ncomp = 0, sp = 0, dp = 0;
    long *index = malloc((size_t)nv * sizeof *index), *low = malloc((size_t)nv * sizeof *low);
    long *stack = malloc((size_t)nv * sizeof *stack), *dfs = malloc((size_t)nv * sizeof *dfs);
    int *pos = malloc((size_t)nv * sizeof *pos);
    uint8_t *on = calloc((size_t)nv, 1);
    edge e[MAX_SUCC];
    if (!index || !low || !stack || !dfs || !pos || !on) {
        ncomp = -1;
        goto out;
    }
    for (long v = 0; v < nv; v++)
        index[v] = -1;
    for (long s = 0; s < nv; s++) {
        if (index[s] >= 0)
            continue;
        dfs[dp++] = s;
        index[s] = low[s] = idx++;
        pos[s] = 0;
        stack[sp++] = s;
        on[s] = 1;
        while (dp) {
            long v = dfs[dp - 1];
            int n = succ(g, v, e);
            while (pos[v] < n && e[pos[v]].kind > E_CONT) /* well founded: no cycle through it */
                pos[v]++;
            if (pos[v] < n) {
                long w = e[pos[v]++].v;
                if (index[w] < 0) {
                    index[w] = low[w] = idx++;
                    pos[w] = 0;
                    stack[sp++] = w;
                    on[w] = 1;
                    dfs[dp++] = w;
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            dp--;
            if (dp && low[v] < low[dfs[dp - 1]])
                low[dfs[dp - 1]] = low[v];
            if (low[v] == index[v]) {
                long w;
                do {
                    w = stack[--sp];
                    on[w] = 0;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
        }
    }
out:
    free(index), free(low), free(stack), free(dfs), free(pos), free(on);
    return ncomp;
}

/* A path of waits from a to b (b == a: a cycle) inside a's component, breadth
 * first, printed one resource a line. */
static void print_path(const graph *g, const long *comp, long a, long b, FILE *f)
{
    long *prev = malloc((size_t)g->nv * sizeof *prev), *q = malloc((size_t)g->nv * sizeof *q), qh = 0, qt = 0;
    edge e[MAX_SUCC];
    char buf[128];
    if (!prev || !q) {
        free(prev), free(q);
        return;
    }
    for (long v = 0; v < g->nv; v++)
        prev[v] = -1;
    q[qt++] = a;
    while (qh < qt && prev[b] < 0) {
        long v = q[qh++];
        int n = succ(g, v, e);
        for (int i = 0; i < n; i++)
            if (e[i].kind <= E_CONT && comp[e[i].v] == comp[a] && prev[e[i].v] < 0) {
                prev[e[i].v] = v;
                q[qt++] = e[i].v;
            }
    }
    long len = 0;
    q[len++] = b;
    for (long v = prev[b]; v >= 0 && v != a && len < g->nv - 1; v = prev[v])
        q[len++] = v;
    q[len++] = a;
    for (long i = len; i-- > 0;) {
        name(g, q[i], buf, sizeof buf);
        fprintf(f, "      %s%s\n", buf, i ? ", which waits for" : "");
    }
    free(prev), free(q);
}

static void violation(FILE *f, long *shown, long max_report, const char *msg)
{
    if (f && (*shown)++ < max_report)
        fprintf(f, "  %s\n", msg);
}

long tc_deadlock_check(const tc_topo *t, const tc_row *rows, const tc_params *p, FILE *f, long max_report,
                       tc_dl_result *res)
{
    int np = 2 * t->ndims, ns = p->red_slices, nu = TC_NUNITS(np, ns);
    graph g = {t, rows, np, ns, nu, 2 * nu + TC_TREES + V_RP, 0, NULL, NULL, NULL, NULL};
    size_t nn = (size_t)t->n, nun = nn * (size_t)g.nu;
    long *comp = NULL, *size = NULL, ncomp = -1, shown = 0;
    uint8_t *cyclic = NULL;
    edge e[MAX_SUCC];
    char a[128], b[128], msg[256];

    memset(res, 0, sizeof *res);
    g.nv = (long)nn * g.vn;
    g.nbr = malloc(nn * (size_t)g.np * sizeof *g.nbr);
    g.tmask = calloc(nun, sizeof *g.tmask);
    g.cmask = calloc(nun, sizeof *g.cmask);
    g.other = calloc(nun, 1);
    comp = malloc((size_t)g.nv * sizeof *comp);
    if (!g.nbr || !g.tmask || !g.cmask || !g.other || !comp)
        goto out;
    for (int k = 0; k < t->n; k++)
        for (int d = 0; d < g.np; d++)
            g.nbr[k * g.np + d] = tc_neighbour(t, k, d);
    long bad_len = build_units(&g, p);
    if ((ncomp = scc(&g, comp)) < 0)
        goto out;
    size = calloc((size_t)ncomp, sizeof *size);
    cyclic = calloc((size_t)ncomp, 1);
    if (!size || !cyclic) {
        ncomp = -1;
        goto out;
    }
    res->vertices = g.nv;
    for (long v = 0; v < g.nv; v++) {
        int n = succ(&g, v, e);
        size[comp[v]]++;
        res->edges += n;
        for (int i = 0; i < n; i++) {
            res->founded += e[i].kind > E_CONT;
            if (e[i].v == v && e[i].kind <= E_CONT)
                cyclic[comp[v]] = 1; /* a wait for itself: a ring of one node */
        }
    }
    for (long c = 0; c < ncomp; c++) {
        cyclic[c] |= size[c] > 1;
        res->rings += cyclic[c];
    }
    /* 1. inside a component, only waits that continue along a ring; and no buffer
     * waits for a held result, the credit block or the phase counters (the proof
     * drains the buffers first, then serves those by their numbers) */
    for (long v = 0; v < g.nv; v++) {
        int n = succ(&g, v, e);
        for (int i = 0; i < n; i++) {
            long w = e[i].v;
            int wx = (int)(w % g.vn);
            if (v % g.vn < g.nu && wx >= g.nu && wx < vbase(&g, V_RP) && wx != vbase(&g, V_PE) &&
                wx != vbase(&g, V_RIN)) {
                if (f && shown++ < max_report) {
                    name(&g, v, a, sizeof a), name(&g, w, b, sizeof b);
                    fprintf(f, "  a buffer waits for a resource served after the buffers drain: %s waits for %s\n", a,
                            b);
                }
                res->violations++;
            }
            if (e[i].kind > E_CONT)
                continue;
            if (comp[w] == comp[v] && e[i].kind != E_CONT) {
                if (f && shown++ < max_report) {
                    name(&g, v, a, sizeof a), name(&g, w, b, sizeof b);
                    fprintf(f, "  cycle through a wait that enters a ring or is no ring at all: %s waits for %s, and\n",
                            a, b);
                    print_path(&g, comp, w, v, f);
                }
                res->violations++;
            } else if (comp[w] != comp[v] && cyclic[comp[w]]) {
                /* 2. into a ring: two credits, so the ring keeps a free slot */
                res->entries++;
                if (e[i].kind == E_CONT) {
                    if (f && shown++ < max_report) {
                        name(&g, v, a, sizeof a), name(&g, w, b, sizeof b);
                        fprintf(f, "  a copy enters a ring with one credit, taking the ring's last free slot: "
                                   "%s into %s; the ring:\n", a, b);
                        print_path(&g, comp, w, w, f);
                    }
                    res->violations++;
                }
            }
        }
    }
    if (res->rings && p->slots < 2) {
        snprintf(msg, sizeof msg, "%ld rings and buffers of %d slot: bubble flow control needs 2", res->rings, p->slots);
        violation(f, &shown, max_report, msg);
        res->violations++;
    }
    /* 3. the premises a program can check */
    res->cb_wait = tc_credit_block_max_wait((p->plant & TC_PLANT_FIXED_PRIO) != 0);
    if (res->cb_wait < 0 || res->cb_wait > TC_CB_REQS - 1) {
        snprintf(msg, sizeof msg, "the credit block starves a duty: with all %d due and the report buffer free, one "
                 "waits for %s (a credit held back stops its tree's results for good)", TC_CB_REQS,
                 res->cb_wait < 0 ? "ever" : "more than 19 others");
        violation(f, &shown, max_report, msg);
        res->violations++;
    }
    if (bad_len) {
        snprintf(msg, sizeof msg, "at %ld nodes a contribution of %d data flits, longer than the Reducer's entry, "
                 "is not refused at injection", bad_len, p->red_flits + 1);
        violation(f, &shown, max_report, msg);
        res->violations++;
    }
    /* a child's window (red_rids, one ReduceId each, tc_params_check) in whole credits
     * of the credit block's worth, at most as many as its count of owed credits holds */
    unsigned nr = (unsigned)p->red_rids, every = tc_credit_every(nr);
    if (!every || nr % every || nr / every > TC_CRED_DUE_MAX) {
        snprintf(msg, sizeof msg, "the reduce window: %u results in flight per tree in credits of %u results, "
                 "%u owed credits at most %d", nr, every, every ? nr / every : 0, TC_CRED_DUE_MAX);
        violation(f, &shown, max_report, msg);
        res->violations++;
    }
out:
    free(g.nbr), free(g.tmask), free(g.cmask), free(g.other), free(comp), free(size), free(cyclic);
    return ncomp < 0 ? -1 : res->violations;
}

void tc_deadlock_premises(FILE *f)
{
    static const char *const lines[] = {
        "P1 PE contract: a PE takes every packet ejected to it, sooner or later   [assumed: the PEs' contract]",
        "P2 PE contract: every member contributes to every reduce of its tree, in ReduceId order, and enters every "
        "barrier, in the same order everywhere   [assumed: the PEs' contract]",
        "D1 a copy that continues along its ring needs 1 credit, one that enters a buffer 2 (tc_router_credits; "
        "tc_router.v avail >= (cont ? 1 : 2))   [checked here, the graph's edges; make formal router: credits exact]",
        "D2 every buffer holds at least 2 packets (slots, inj_slots >= 2; tc_params_check)   [checked here]",
        "D3 the Reducer's input takes every contribution; a result that cannot leave is held in its entry "
        "(reducer.c, tc_reducer.v)   [checked here: tc_router_red_waits_slot]",
        "D4 a contribution longer than the Reducer's entry (red_flits) is refused at injection, ERR_BAD_OP "
        "(vc_unit.c, tc_vc_unit.v)   [checked here, at every node]",
        "D5 a unit's read port: a pass starts only with every one of its outputs granted, then streams a flit "
        "a cycle (vc_unit.c, tc_vc_unit.v)   [make formal vc_unit]",
        "D6 outputs and the credit block serve their requesters round-robin (tc_rr_arb.v, rr_arb.h): a credit-"
        "block duty that stays due waits for at most 19 others   [checked here on the C block; make formal "
        "credit_block proves it on the RTL]",
        "D7 the reduce window: a tree's results leave a Reducer in ReduceId order; a child sends at most "
        "red_rids results up before its parent's first credit, red_rids / 2 more per credit, and the parent owes "
        "at most 2 credit packets (a 2-bit count)   [make formal reducer, credit_block; the arithmetic checked "
        "here]",
        "D8 phase counters of neighbours differ by at most one phase (lemma 1; phase.c, tc_phase.v)   "
        "[make formal phase]",
        "D9 every latency is a fixed delay, of data and credits alike (link_lat, inj_lat, ej_lat 1..100000): "
        "it delays a wait but adds none   [checked here: the range]",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        fprintf(f, "  %s\n", lines[i]);
}
