#include "deadlock.h"

#include <stdlib.h>
#include <string.h>

#include "router.h"

/* Resources, per node: the units' buffers (TC_NUNITS), then per tree the results of
 * that tree the Reducer holds (TC_TREES). A contribution needs no resource of the
 * Reducer: it takes every one (but with TC_PLANT_RESULT_SLOT, where it waits for a
 * result-buffer slot). The PE and packets a router consumes (credits, phase packets,
 * barrier requests, dropped packets) wait for nothing. */
typedef struct {
    const tc_topo *t;
    const tc_row *rows;
    int np, nu, vn;
    long nv;
    int *nbr;          /* [node][port] */
    uint16_t *tmask;   /* [node][unit]: link outputs waited for, bit 2 * port + vc */
    uint16_t *cmask;   /* ... of which a copy continues along its ring (one credit) */
    uint8_t *slot;     /* [node][unit]: waits for a result-buffer slot (planted) */
} graph;

typedef struct {
    long v;
    uint8_t cont; /* the wait continues along a ring: one credit */
} edge;

/* The waits of resource v, into e (at most 2 * TC_MAX_PORTS + 3). */
static int succ(const graph *g, long v, edge *e)
{
    long k = v / g->vn;
    int x = (int)(v % g->vn), n = 0;
    if (x < g->nu) {
        size_t i = (size_t)k * (size_t)g->nu + (size_t)x;
        for (unsigned m = g->tmask[i]; m; m &= m - 1) {
            int b = __builtin_ctz(m), o = b >> 1, vc = b & 1;
            e[n++] = (edge){(long)g->nbr[k * g->np + o] * g->vn + 2 * (o ^ 1) + vc, (uint8_t)((g->cmask[i] >> b) & 1)};
        }
        if (g->slot[i])
            e[n++] = (edge){k * g->vn + TC_U_RESULT(g->np), 0};
        return n;
    }
    int tree = x - g->nu;
    tc_row row = TC_ROWP(g->rows, k, tree);
    if (!TC_RGET(row, VALID))
        return 0;
    e[n++] = (edge){k * g->vn + TC_U_RESULT(g->np), 0}; /* a held result needs a result slot */
    if (!TC_RGET(row, ROOT)) { /* and, going up, a credit of the parent: its own results of the tree,
                                  and its report buffer, which sends the credit */
        long p = g->nbr[k * g->np + (long)TC_RGET(row, TOROOT)];
        e[n++] = (edge){p * g->vn + g->nu + tree, 0};
        e[n++] = (edge){p * g->vn + TC_U_REPORT(g->np), 0};
    }
    return n;
}

/* Every output each unit may wait for, over every tree and packet type its head can
 * have: the router's own routing function decides. */
static void build_units(graph *g, int plant)
{
    static const unsigned types[] = {TC_TYPE_BCAST,   TC_TYPE_REDUCE, TC_TYPE_ALLREDUCE, TC_TYPE_CREDIT,
                                     TC_TYPE_BARRIER, TC_TYPE_PHASE,  TC_TYPE_ERROR,     TC_TYPE_REPORT};
    tc_router r;
    memset(&r, 0, sizeof r);
    r.nports = (uint8_t)g->np;
    r.red_flits = TC_SLOT_FLITS - 1;
    r.plant = (uint8_t)plant;
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
                    if (tc_router_route(&r, u, &h, &mask, &vc) != TC_ERR_NONE)
                        continue; /* dropped: waits for nothing */
                    for (int o = 0; o < g->np; o++)
                        if ((mask >> o) & 1) {
                            g->tmask[i] |= (uint16_t)(1u << (2 * o + (int)vc));
                            if (tc_router_credits(&r, u, o, vc) == 1)
                                g->cmask[i] |= (uint16_t)(1u << (2 * o + (int)vc));
                        }
                    if (((mask >> TC_O_RED(g->np)) & 1) && tc_router_red_waits_slot(&r))
                        g->slot[i] = 1;
                }
        }
    }
}

static void name(const graph *g, long v, char *buf, size_t len)
{
    char c[48], u[32];
    long k = v / g->vn;
    int x = (int)(v % g->vn);
    tc_coord_name(g->t, (int)k, c, sizeof c);
    if (x < g->nu)
        snprintf(buf, len, "node %ld %s %s", k, c, tc_unit_name(g->np, x, u, sizeof u));
    else
        snprintf(buf, len, "node %ld %s Reducer, results of tree %d held", k, c, x - g->nu);
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
    edge e[2 * TC_MAX_PORTS + 3];
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
    edge e[2 * TC_MAX_PORTS + 3];
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
            if (comp[e[i].v] == comp[a] && prev[e[i].v] < 0) {
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

long tc_deadlock_check(const tc_topo *t, const tc_row *rows, int slots, int plant, FILE *f, long max_report,
                       tc_dl_result *res)
{
    graph g = {t, rows, 2 * t->ndims, TC_NUNITS(2 * t->ndims), TC_NUNITS(2 * t->ndims) + TC_TREES, 0,
               NULL, NULL, NULL, NULL};
    size_t nn = (size_t)t->n, nu = nn * (size_t)g.nu;
    long *comp = NULL, *size = NULL, ncomp = -1, shown = 0;
    uint8_t *cyclic = NULL;
    edge e[2 * TC_MAX_PORTS + 3];
    char a[128], b[128];

    memset(res, 0, sizeof *res);
    g.nv = (long)nn * g.vn;
    g.nbr = malloc(nn * (size_t)g.np * sizeof *g.nbr);
    g.tmask = calloc(nu, sizeof *g.tmask);
    g.cmask = calloc(nu, sizeof *g.cmask);
    g.slot = calloc(nu, 1);
    comp = malloc((size_t)g.nv * sizeof *comp);
    if (!g.nbr || !g.tmask || !g.cmask || !g.slot || !comp)
        goto out;
    for (int k = 0; k < t->n; k++)
        for (int d = 0; d < g.np; d++)
            g.nbr[k * g.np + d] = tc_neighbour(t, k, d);
    build_units(&g, plant);
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
        for (int i = 0; i < n; i++)
            if (e[i].v == v)
                cyclic[comp[v]] = 1; /* a wait for itself: a ring of one node */
    }
    for (long c = 0; c < ncomp; c++) {
        cyclic[c] |= size[c] > 1;
        res->rings += cyclic[c];
    }
    /* 1. inside a component, only waits that continue along a ring */
    for (long v = 0; v < g.nv; v++) {
        int n = succ(&g, v, e);
        for (int i = 0; i < n; i++) {
            long w = e[i].v;
            if (comp[w] == comp[v] && !e[i].cont) {
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
                if (e[i].cont) {
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
    if (res->rings && slots < 2) {
        if (f && shown++ < max_report)
            fprintf(f, "  %ld rings and buffers of %d slot: bubble flow control needs 2\n", res->rings, slots);
        res->violations++;
    }
out:
    free(g.nbr), free(g.tmask), free(g.cmask), free(g.slot), free(comp), free(size), free(cyclic);
    return ncomp < 0 ? -1 : res->violations;
}
