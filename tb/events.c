#include "events.h"

#include <stdlib.h>
#include <string.h>

#include "../cmodel/router.h"

void tc_evlog_init(tc_evlog *l, int nodes, int nports, int nslices)
{
    memset(l, 0, sizeof *l);
    l->nodes = nodes;
    l->nports = nports;
    l->nslices = nslices;
    l->head_tag = calloc((size_t)nodes * (size_t)TC_NUNITS(nports, nslices), sizeof(uint32_t));
}

void tc_evlog_free(tc_evlog *l)
{
    free(l->ev);
    free(l->head_tag);
    memset(l, 0, sizeof *l);
}

void tc_evlog_add(tc_evlog *l, uint64_t cycle, int node, int kind, int idx, int src, int err, uint32_t tag)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4096;
        l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
    }
    l->ev[l->n++] = (tc_event){cycle, tag, node, (uint8_t)kind, (uint8_t)idx, (uint8_t)src, (uint8_t)err};
}

void tc_evlog_decode(tc_evlog *l, uint64_t cycle, int node, const uint32_t *obs)
{
    int np = l->nports, ns = l->nslices, nu = TC_NUNITS(np, ns), no = TC_NOUTS(np, ns);
    for (int u = 0; u < nu; u++) {
        unsigned b = (unsigned)u * TC_OBS_UNIT_W;
        uint32_t wr_tag = (uint32_t)tc_bv_get(obs, b + TC_OBS_U_WRTAG_LSB, 32);
        uint32_t head_tag = (uint32_t)tc_bv_get(obs, b + TC_OBS_U_HEADTAG_LSB, 32);
        if (tc_bv_get(obs, b + TC_OBS_U_ARRIVE_LSB, 1))
            tc_evlog_add(l, cycle, node, TC_EV_ARRIVE, u, 0, 0, wr_tag);
        if (tc_bv_get(obs, b + TC_OBS_U_DROP_LSB, 1))
            tc_evlog_add(l, cycle, node, TC_EV_DROP, u, 0, 0, wr_tag);
        if (tc_bv_get(obs, b + TC_OBS_U_FULL_LSB, 1))
            tc_evlog_add(l, cycle, node, TC_EV_FULL, u, 0, 0, wr_tag);
        /* a free is of the packet routed before: the next one may be routed this cycle */
        if (tc_bv_get(obs, b + TC_OBS_U_FREE_LSB, 1))
            tc_evlog_add(l, cycle, node, TC_EV_FREE, u, 0, 0, l->head_tag[(size_t)node * (size_t)nu + (size_t)u]);
        if (tc_bv_get(obs, b + TC_OBS_U_ROUTE_LSB, 1)) {
            l->head_tag[(size_t)node * (size_t)nu + (size_t)u] = head_tag;
            tc_evlog_add(l, cycle, node, TC_EV_ROUTE, u, 0,
                         (int)tc_bv_get(obs, b + TC_OBS_U_ERR_LSB, 4), head_tag);
        }
    }
    for (int o = 0; o < no; o++) {
        unsigned b = (unsigned)nu * TC_OBS_UNIT_W + (unsigned)o * TC_OBS_OUT_W;
        if (tc_bv_get(obs, b + TC_OBS_O_GRANT_LSB, 1)) {
            int u = (int)tc_bv_get(obs, b + TC_OBS_O_SRC_LSB, 5);
            tc_evlog_add(l, cycle, node, TC_EV_GRANT, o, u, 0,
                         u < nu ? l->head_tag[(size_t)node * (size_t)nu + (size_t)u] : 0);
        }
    }
    for (int k = 0; k < ns; k++) { /* the Reducer's slices: the slice in src */
        unsigned b = TC_OBS_RED_LSB(np, ns, k);
        if (tc_bv_get(obs, b + TC_OBS_R_HDR_LSB, 1) || tc_bv_get(obs, b + TC_OBS_R_COPY_LSB, 1))
            tc_evlog_add(l, cycle, node, TC_EV_REDUCE,
                         (int)(tc_bv_get(obs, b + TC_OBS_R_FIRST_LSB, 1) | tc_bv_get(obs, b + TC_OBS_R_LAST_LSB, 1) << 1 |
                               tc_bv_get(obs, b + TC_OBS_R_HELD_LSB, 1) << 2 |
                               tc_bv_get(obs, b + TC_OBS_R_COPY_LSB, 1) << 3),
                         k, 0, (uint32_t)tc_bv_get(obs, b + TC_OBS_R_TAG_LSB, 32));
    }
    unsigned b = TC_OBS_PH_LSB(np, ns);
    int ph = (int)tc_bv_get(obs, b, 4); /* ENTER, ADV, SEND, DONE: bits 0-3 */
    if (ph)
        tc_evlog_add(l, cycle, node, TC_EV_PHASE, ph, 0, 0,
                     TC_TAG_PHASE | (uint32_t)node << 12 | ((uint32_t)tc_bv_get(obs, b + TC_OBS_P_TOTAL_LSB, 16) & 0xfff));
}

const char *tc_ev_name(int kind)
{
    static const char *const names[TC_EV_KINDS] = {"inject", "arrive", "full",    "route", "grant",
                                                   "free",   "eject",  "deliver", "DROP", "reduce", "phase"};
    return kind >= 0 && kind < TC_EV_KINDS ? names[kind] : "?";
}

void tc_event_print(FILE *f, int nports, int nslices, const tc_event *e)
{
    char a[32], b[32];
    fprintf(f, "cycle %6llu  node %3d  %-7s tag %-6u ", (unsigned long long)e->cycle, e->node,
            tc_ev_name(e->kind), e->tag);
    switch (e->kind) {
    case TC_EV_ARRIVE:
    case TC_EV_FULL:
    case TC_EV_FREE:
    case TC_EV_DROP:
        fprintf(f, "%s", tc_unit_name(nports, nslices, e->idx, a, sizeof a));
        break;
    case TC_EV_ROUTE:
        fprintf(f, "%s%s%s", tc_unit_name(nports, nslices, e->idx, a, sizeof a), e->err ? "  error: " : "",
                e->err ? tc_err_name(e->err) : "");
        break;
    case TC_EV_GRANT:
        fprintf(f, "%s <- %s", tc_out_name(nports, nslices, e->idx, a, sizeof a),
                tc_unit_name(nports, nslices, e->src, b, sizeof b));
        break;
    case TC_EV_REDUCE:
        if (nslices > 1)
            fprintf(f, "slice %d: ", e->src);
        fprintf(f, "%s%s%s", e->idx & 1 ? "first " : "",
                e->idx & 8 ? "held result copied out" : e->idx & 4 ? "last: result held" : "",
                (e->idx & 6) == 2 ? "last: result out" : "");
        break;
    case TC_EV_PHASE:
        fprintf(f, "%s%s%s%s(%u phases done)", e->idx & 1 ? "barrier entered " : "", e->idx & 2 ? "phase completed " : "",
                e->idx & 4 ? "phase packet sent " : "", e->idx & 8 ? "barrier complete " : "", e->tag & 0xfff);
        break;
    default:
        break;
    }
    fputc('\n', f);
}

/* ---- reference diagrams ---- */

static int by_tag(const void *a, const void *b)
{
    const tc_event *x = a, *y = b;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return x->cycle < y->cycle ? -1 : x->cycle > y->cycle;
}

/* The events of one node in a tag's group (sorted by node, then cycle): [*lo, *hi). */
static void node_range(const tc_event *g, size_t n, int node, size_t *lo, size_t *hi)
{
    size_t a = 0, b = n;
    while (a < b) {
        size_t m = (a + b) / 2;
        if (g[m].node < node)
            a = m + 1;
        else
            b = m;
    }
    *lo = a;
    for (b = a; b < n && g[b].node == node; b++)
        ;
    *hi = b;
}

static const tc_event *find(const tc_event *g, size_t n, int kind, int node, int idx, int any_vc_port)
{
    size_t lo, hi;
    node_range(g, n, node, &lo, &hi);
    for (size_t i = lo; i < hi; i++)
        if (g[i].kind == kind && (idx < 0 || g[i].idx == idx || (any_vc_port && g[i].idx >> 1 == idx >> 1)))
            return &g[i];
    return NULL;
}

/* Result buffer arrival e is a result that goes straight there as its last
 * contribution comes in, and that contribution is the PE's (the Reducer's input was
 * granted to the Broadcaster the cycle before) of IEEE values: its data flits follow
 * the header one cycle late, each value converted on its way in. */
static int pe_values_last(const tc_event *g, size_t n, const tc_event *e, int np, tc_len_of len_of, void *ctx)
{
    if (len_of(ctx, e->tag, e->node, TC_LEN_INJ) == len_of(ctx, e->tag, e->node, TC_LEN_UP))
        return 0;
    const tc_event *r = NULL, *gr = NULL;
    size_t lo, hi;
    node_range(g, n, e->node, &lo, &hi);
    for (size_t k = lo; k < hi; k++)
        if (g[k].kind == TC_EV_REDUCE && g[k].cycle == e->cycle && (g[k].idx & 14) == 2)
            r = &g[k];
    for (size_t k = lo; r && k < hi; k++)
        if (g[k].kind == TC_EV_GRANT && g[k].cycle + 1 == e->cycle && g[k].idx == TC_O_RED(np, r->src))
            gr = &g[k];
    return gr && gr->src == TC_U_BCAST(np);
}

int tc_ref_check(const tc_evlog *l, const tc_topo *t, const tc_params *p, int exact,
                 tc_len_of len_of, void *ctx, FILE *f)
{
    size_t n = l->n;
    int np = l->nports, ns = l->nslices, bad = 0;
    tc_event *ev = malloc(n * sizeof *ev + 1);
    memcpy(ev, l->ev, n * sizeof *ev);
    qsort(ev, n, sizeof *ev, by_tag);

#define VIOLATION(e, ...)                                                         \
    do {                                                                          \
        if (bad++ < 8) {                                                          \
            fprintf(f, "  reference diagram violated: ");                         \
            fprintf(f, __VA_ARGS__);                                              \
            fprintf(f, "\n    at ");                                              \
            tc_event_print(f, np, ns, (e));                                       \
        }                                                                         \
    } while (0)

    for (size_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo; hi < n && ev[hi].tag == ev[lo].tag; hi++)
            ;
        const tc_event *g = ev + lo;
        size_t gn = hi - lo;
        if (len_of(ctx, ev[lo].tag, -1, TC_LEN_UP) < 0) /* the testbench knows no single length for this tag */
            continue;
        for (size_t i = 0; i < gn; i++) {
            const tc_event *e = &g[i], *x;
            uint64_t c = e->cycle;
            /* the length where the event is: its unit's (a grant's: the unit granted) */
            int u = e->kind == TC_EV_GRANT ? e->src : e->idx;
            int dir = e->kind == TC_EV_EJ ? TC_LEN_DOWN
                      : u < 2 * np       ? ((u & 1) == TC_VC_DOWN ? TC_LEN_DOWN : TC_LEN_UP)
                      : u == TC_U_BCAST(np) ? TC_LEN_INJ
                                            : TC_LEN_RESULT;
            int len = len_of(ctx, e->tag, e->node, dir);
            /* error reports carry the tag of the packet they report, not its length */
            if ((e->kind == TC_EV_GRANT ? e->src : e->idx) == TC_U_REPORT(np, ns) && e->kind >= TC_EV_ARRIVE &&
                e->kind <= TC_EV_FREE)
                continue;
            switch (e->kind) {
            case TC_EV_INJ:
                x = find(g, gn, TC_EV_ARRIVE, e->node, TC_U_BCAST(np), 0);
                if (!x)
                    x = find(g, gn, TC_EV_DROP, e->node, TC_U_BCAST(np), 0);
                if (!x || x->cycle != c + (uint64_t)p->inj_lat)
                    VIOLATION(e, "Broadcaster arrive = inject + %d", p->inj_lat);
                break;
            case TC_EV_ARRIVE: {
                int wl = dir == TC_LEN_RESULT ? len_of(ctx, e->tag, e->node, TC_LEN_RESULT_WRITE) : len;
                int vals = dir == TC_LEN_RESULT && wl == len && pe_values_last(g, gn, e, np, len_of, ctx);
                x = find(g, gn, TC_EV_FULL, e->node, e->idx, 0);
                if (!x || x->cycle != c + (uint64_t)(wl + vals))
                    VIOLATION(e, "full = arrive + %d (%d data flits%s)", wl + vals, len,
                              vals        ? ", the last contribution's values converted as they come in"
                              : wl != len ? ", written by a converting copy"
                                          : "");
                break;
            }
            case TC_EV_FULL:
                x = find(g, gn, TC_EV_ROUTE, e->node, e->idx, 0);
                if (!x || x->cycle < c + 1 || (exact && x->cycle != c + 1))
                    VIOLATION(e, "route %s full + 1", exact ? "=" : ">=");
                break;
            case TC_EV_ROUTE: {
                uint64_t last = c;
                size_t lo, hi;
                node_range(g, gn, e->node, &lo, &hi);
                for (size_t k = lo; k < hi; k++)
                    if (g[k].kind == TC_EV_GRANT && g[k].src == e->idx) {
                        if (g[k].cycle < c + 1 || (exact && g[k].cycle != c + 1))
                            VIOLATION(&g[k], "grant %s route + 1", exact ? "=" : ">=");
                        if (g[k].cycle + (uint64_t)(len ? len : 1) > last)
                            last = g[k].cycle + (uint64_t)(len ? len : 1);
                    }
                if (last == c)
                    last = c + 1;
                x = find(g, gn, TC_EV_FREE, e->node, e->idx, 0);
                if (!x || x->cycle != last)
                    VIOLATION(e, "free = last grant + %d data flits, at least + 1 (or route + 1 with no copy)", len);
                break;
            }
            case TC_EV_GRANT:
                if (e->idx < np) {
                    int nb = tc_neighbour(t, e->node, e->idx);
                    x = find(g, gn, TC_EV_ARRIVE, nb, 2 * (e->idx ^ 1), 1);
                    if (!x || x->cycle != c + 1 + (uint64_t)p->link_lat)
                        VIOLATION(e, "arrive at node %d = grant + 1 + %d (link)", nb, p->link_lat);
                } else if (e->idx == TC_O_PE(np)) {
                    x = find(g, gn, TC_EV_EJ, e->node, -1, 0);
                    if (!x || x->cycle != c + 1 + (uint64_t)p->ej_lat)
                        VIOLATION(e, "eject = grant + 1 + %d", p->ej_lat);
                } else {
                    int ok = 0;
                    size_t lo, hi;
                    node_range(g, gn, e->node, &lo, &hi);
                    for (size_t k = lo; k < hi; k++)
                        ok |= g[k].kind == TC_EV_REDUCE && g[k].cycle == c + 1;
                    if (!ok)
                        VIOLATION(e, "Reducer takes the header = grant + 1");
                }
                break;
            case TC_EV_REDUCE:
                if ((e->idx & 6) == 2 || (e->idx & 8)) {
                    x = find(g, gn, TC_EV_ARRIVE, e->node, TC_U_RESULT(np, e->src), 0);
                    if (!x || x->cycle != c)
                        VIOLATION(e, e->idx & 8 ? "a held result's header is written into the Result buffer as it is copied"
                                                : "the result's header is written into the Result buffer as the last contribution's header reaches the Reducer");
                } else if (e->idx & 4) {
                    int ok = 0;
                    size_t lo, hi;
                    node_range(g, gn, e->node, &lo, &hi);
                    for (size_t k = lo; k < hi; k++)
                        ok |= g[k].kind == TC_EV_REDUCE && (g[k].idx & 8) && g[k].tag == e->tag && g[k].cycle > c;
                    if (!ok)
                        VIOLATION(e, "a held result is copied into the Result buffer later");
                }
                break;
            case TC_EV_PHASE:
                x = find(g, gn, TC_EV_ARRIVE, e->node, TC_U_REPORT(np, ns), 0);
                if ((e->idx & 4) && (!x || x->cycle != c))
                    VIOLATION(e, "the phase packet enters the report buffer as the phase counters send it");
                break;
            case TC_EV_EJ:
                x = find(g, gn, TC_EV_DELIVER, e->node, -1, 0);
                if (!x || x->cycle != c + (uint64_t)len)
                    VIOLATION(e, "deliver = eject + %d data flits", len);
                break;
            default:
                break;
            }
        }
    }
    /* Phase counters with nothing in the fence (a lone barrier): a phase packet or the
     * completion is written the cycle after the barrier is entered or a phase is
     * completed. */
    if (exact) {
        uint64_t *since = calloc((size_t)l->nodes, sizeof *since);
        for (size_t i = 0; i < n; i++) {
            const tc_event *e = &l->ev[i];
            if (e->kind != TC_EV_PHASE)
                continue;
            if ((e->idx & 12) && e->cycle != since[e->node] + 1)
                VIOLATION(e, "phase packet or completion = barrier entered or phase completed + 1");
            if (e->idx & 3)
                since[e->node] = e->cycle;
        }
        free(since);
    }
#undef VIOLATION
    if (bad > 8)
        fprintf(f, "  ... %d violations in all\n", bad);
    free(ev);
    return bad;
}

static int of_unit(const tc_event *e, int node, int unit, uint32_t tag)
{
    if (e->tag != tag || e->node != node)
        return 0;
    if (e->kind == TC_EV_GRANT)
        return e->src == unit;
    return e->kind >= TC_EV_ARRIVE && e->kind <= TC_EV_FREE && e->idx == unit;
}

/* An output's name without "link ": X+, PE, Reducer. */
static const char *short_out(int nports, int nslices, int out, char *buf, size_t len)
{
    tc_out_name(nports, nslices, out, buf, len);
    return strncmp(buf, "link ", 5) ? buf : buf + 5;
}

/* The passage of one packet through one unit: the flits written, the packet whole,
 * the route, a grant row per output it goes to, and a row per pass of the unit's read
 * port (the outputs granted in one cycle take the same flits; an output granted later
 * reads the packet again), then the slot freed and its credit. So every unit's
 * diagram shows its own outputs: a VCDown's children and PE, a VCUp's parent or the
 * Reducer, a credit taken without any output. */
void tc_wavedrom(FILE *f, const tc_evlog *l, int node, int unit, uint32_t tag, int len, const char *title)
{
    tc_wavedrom_writes(f, l, node, unit, tag, len, NULL, title);
}

void tc_wavedrom_writes(FILE *f, const tc_evlog *l, int node, int unit, uint32_t tag, int len, const int *wr,
                        const char *title)
{
    enum { MAXO = 24, MAXR = 8 + 2 * MAXO, W = 250 };
    uint64_t lo = UINT64_MAX, hi = 0;
    int nout = 0, npass = 0, out[MAXO];
    uint64_t gcyc[MAXO], pcyc[MAXO];
    for (size_t i = 0; i < l->n; i++) {
        const tc_event *e = &l->ev[i];
        if (!of_unit(e, node, unit, tag))
            continue;
        lo = e->cycle < lo ? e->cycle : lo;
        hi = e->cycle > hi ? e->cycle : hi;
        if (e->kind == TC_EV_GRANT && nout < MAXO) {
            int p = 0;
            while (p < npass && pcyc[p] != e->cycle)
                p++;
            if (p == npass)
                pcyc[npass++] = e->cycle;
            out[nout] = e->idx;
            gcyc[nout++] = e->cycle;
        }
    }
    if (lo == UINT64_MAX)
        return;
    lo = lo ? lo - 1 : 0;
    hi += 3; /* the credit leaves the cycle after the slot is freed */
    int w = (int)(hi - lo + 1) < W ? (int)(hi - lo + 1) : W - 1, nr = 0;
    char rows[MAXR][W], names[MAXR][128], a[32], list[96] = "";
    for (int o = 0; o < nout; o++) /* the route's outputs, in grant order */
        snprintf(list + strlen(list), sizeof list - strlen(list), " %s", short_out(l->nports, l->nslices, out[o], a, sizeof a));
#define ROW(name_fmt, ...) (snprintf(names[nr], sizeof names[nr], name_fmt, __VA_ARGS__), \
                            memset(rows[nr], '0', (size_t)w), rows[nr][w] = 0, nr++)
    int r_in = ROW("flit in, %s", tc_unit_name(l->nports, l->nslices, unit, a, sizeof a));
    int r_full = ROW("%s", "full");
    int r_route = ROW("route:%s", nout ? list : " none");
    int r_grant = nr;
    for (int o = 0; o < nout; o++)
        ROW("grant %s", short_out(l->nports, l->nslices, out[o], a, sizeof a));
    int r_pass = nr;
    for (int p = 0; p < npass; p++) {
        if (npass > 1)
            ROW("out, pass %d", p + 1);
        else
            ROW("%s", "flits out");
    }
    int r_free = ROW("%s", "free");
    int r_cred = ROW("%s", "credit out");
#undef ROW
    for (int r = 0; r < nr; r++) /* flit rows are x between packets */
        if (r == r_in || (r >= r_pass && r < r_pass + npass))
            memset(rows[r], 'x', (size_t)w);
    for (size_t i = 0; i < l->n; i++) {
        const tc_event *e = &l->ev[i];
        int c = (int)(e->cycle - lo);
        if (!of_unit(e, node, unit, tag) || c >= w)
            continue;
        if (e->kind == TC_EV_ARRIVE) {
            rows[r_in][c] = '3';
            for (int k = 1, d; k <= len; k++)
                if ((d = c + (wr ? wr[k - 1] : k)) < w)
                    rows[r_in][d] = '4';
        } else if (e->kind == TC_EV_FULL)
            rows[r_full][c] = '1';
        else if (e->kind == TC_EV_ROUTE)
            rows[r_route][c] = '1';
        else if (e->kind == TC_EV_FREE) {
            rows[r_free][c] = '1';
            if (c + 1 < w)
                rows[r_cred][c + 1] = '1';
        }
    }
    for (int o = 0; o < nout; o++) {
        int c = (int)(gcyc[o] - lo);
        rows[r_grant + o][c] = '1';
    }
    for (int p = 0; p < npass; p++)
        for (int k = 0, c = (int)(pcyc[p] - lo) + 1; k <= len && c + k < w; k++)
            rows[r_pass + p][c + k] = k ? '4' : '3';
    fprintf(f, "{\"signal\": [\n  {\"name\": \"clk\", \"wave\": \"p%.*s\"},\n", w - 1,
            "................................................................................"
            "................................................................................"
            "................................................................................");
    for (int r = 0; r < nr; r++) {
        char o[W];
        for (int k = 0; k < w; k++) /* '.' repeats a level; every flit and the route keep their mark */
            o[k] = k && rows[r][k] == rows[r][k - 1] && (rows[r][k] == '0' || rows[r][k] == 'x' || rows[r][k] == '1')
                       ? '.' : rows[r][k];
        o[w] = 0;
        int flits = r == r_in || (r >= r_pass && r < r_pass + npass);
        fprintf(f, "  {\"name\": \"%s\", \"wave\": \"%s\"", names[r], o);
        if (flits)
            fprintf(f, ", \"data\": [\"hdr\",\"d\",\"d\",\"d\",\"d\",\"d\",\"d\",\"d\"]");
        fprintf(f, "}%s\n", r + 1 < nr ? "," : "");
    }
    fprintf(f, "],\n \"head\": {\"text\": \"%s\", \"tick\": %llu}\n}\n", title, (unsigned long long)lo);
}

/* Writes a diagram whose idle cycles are cut out: the clock with a gap mark where
 * cycles were left out, then every row ('.' repeats an x or a 0, '|' marks the gap
 * on a row that stays the same) with its data labels. */
static void write_cut(FILE *f, int n, const char *gap, int nrows, const char *const *names, const char *const *rows,
                      const char *const *const *data, const int *ndata, const char *title)
{
    fprintf(f, "{\"signal\": [\n  {\"name\": \"clk\", \"wave\": \"");
    for (int k = 0; k < n; k++)
        fputs(gap[k] ? "|" : k ? "." : "p", f);
    fprintf(f, "\"},\n");
    for (int r = 0; r < nrows; r++) {
        fprintf(f, "  {\"name\": \"%s\", \"wave\": \"", names[r]);
        for (int k = 0; k < n; k++) {
            char c = rows[r][k];
            if (gap[k] && (c == 'x' || c == '0' || c == '.') && (c == '.' || c == rows[r][k - 1]))
                c = '|';
            else if (k && c != '.' && c == rows[r][k - 1] && (c == 'x' || c == '0'))
                c = '.';
            fputc(c, f);
        }
        fprintf(f, "\"");
        if (ndata[r]) {
            fprintf(f, ", \"data\": [");
            for (int d = 0; d < ndata[r]; d++)
                fprintf(f, "%s\"%s\"", d ? "," : "", data[r][d]);
            fprintf(f, "]");
        }
        fprintf(f, "}%s\n", r + 1 < nrows ? "," : "");
    }
    fprintf(f, "],\n \"head\": {\"text\": \"%s\"}\n}\n", title);
}

/* The Reducer of one node through one reduce (all contributions with this tag):
 * each contribution's grant on the Reducer's output, its flits into the Reducer,
 * what the Reducer does with each (count, ALU, partial memory) and the result
 * written into the result buffer. Idle stretches longer than 3 cycles are drawn as
 * a gap. */
void tc_wavedrom_reducer(FILE *f, const tc_evlog *l, int node, uint32_t tag, int len, const char *title)
{
    enum { W = 256, ROWS = 6 };
    int np = l->nports;
    uint64_t cyc[W];
    int n = 0;
    /* every cycle in which something happens: grant .. last data flit of each contribution */
    for (size_t i = 0; i < l->n && n < W - 8; i++) {
        const tc_event *e = &l->ev[i];
        if (e->node != node || e->tag != tag || e->kind != TC_EV_GRANT || e->idx <= TC_O_PE(np)) /* to a Reducer slice */
            continue;
        for (int k = 0; k <= len + 2 && n < W; k++)
            if (!n || cyc[n - 1] < e->cycle + (uint64_t)k)
                cyc[n++] = e->cycle + (uint64_t)k;
    }
    if (!n)
        return;
    char rows[ROWS][W + 1], gap[W + 1];
    const char *data[ROWS][W];
    char src[W][40]; /* the granted units and their cycles */
    int nd[ROWS] = {0};
    static const char *const names[ROWS] = {"grant: from, cycle", "flit in", "count",
                                            "ALU", "partial memory", "result buffer"};
    for (int r = 0; r < ROWS; r++) {
        memset(rows[r], r == 0 ? '0' : 'x', (size_t)n);
        rows[r][n] = 0;
    }
    for (int k = 0; k < n; k++)
        gap[k] = k && cyc[k] != cyc[k - 1] + 1;
    for (int k = 0; k < n; k++) {
        for (size_t i = 0; i < l->n; i++) {
            const tc_event *e = &l->ev[i];
            if (e->node != node || e->tag != tag || e->cycle != cyc[k])
                continue;
            if (e->kind == TC_EV_GRANT && e->idx > TC_O_PE(np)) {
                char b[24];
                rows[0][k] = '3';
                for (int d = 1; d <= len + 1 && k + d < n; d++)
                    rows[0][k + d] = '.';
                snprintf(src[nd[0]], sizeof src[0], "%s @%llu", tc_unit_name(np, l->nslices, e->src, b, sizeof b),
                         (unsigned long long)e->cycle);
                data[0][nd[0]] = src[nd[0]];
                nd[0]++;
            } else if (e->kind == TC_EV_REDUCE) {
                int first = e->idx & 1, last = e->idx & 2;
                rows[1][k] = '3', data[1][nd[1]++] = "hdr";
                rows[2][k] = '5', data[2][nd[2]++] = last ? (first ? "first, last" : "last") : (first ? "first" : "+1");
                for (int d = 1; d <= len && k + d < n; d++) {
                    rows[1][k + d] = '4', data[1][nd[1]++] = "d";
                    rows[3][k + d] = first ? '2' : '4';
                    data[3][nd[3]++] = first ? "pass" : "op";
                    if (!last)
                        rows[4][k + d] = '4', data[4][nd[4]++] = "write";
                }
                if (last)
                    for (int d = 0; d <= len && k + d < n; d++)
                        rows[5][k + d] = d ? '4' : '3', data[5][nd[5]++] = d ? "d" : "hdr";
            }
        }
    }
    const char *rp[ROWS];
    const char *const *dp[ROWS];
    for (int r = 0; r < ROWS; r++)
        rp[r] = rows[r], dp[r] = data[r];
    write_cut(f, n, gap, ROWS, names, rp, dp, nd, title);
}

/* The phase counters of one node through one barrier: the request entering, the
 * phase packets counted from every link input, each phase completed, the node's own
 * phase packets and the completion for the PE. Idle stretches are drawn as gaps. */
void tc_wavedrom_phase(FILE *f, const tc_evlog *l, int node, const char *title)
{
    enum { W = 256, ROWS = 4 + TC_MAX_PORTS };
    int np = l->nports, nr = 4 + np, n = 0;
    uint64_t cyc[W];
    char rows[ROWS][W + 1], gap[W + 1], name[ROWS][32], lab[ROWS][W][8];
    int nl[ROWS] = {0};
    /* every cycle with an event of the barrier, and the one after it */
    for (size_t i = 0; i < l->n && n < W - 2; i++) {
        const tc_event *e = &l->ev[i];
        int ph_in = e->kind == TC_EV_ROUTE && e->idx < 2 * np && (e->idx & 1) == TC_VC_DOWN && (e->tag & TC_TAG_PHASE);
        if (e->node != node || !(e->kind == TC_EV_PHASE || ph_in))
            continue;
        for (uint64_t c = e->cycle ? e->cycle - 1 : 0; c <= e->cycle + 1; c++)
            if (!n || cyc[n - 1] < c)
                cyc[n++] = c;
    }
    if (!n)
        return;
    snprintf(name[0], sizeof name[0], "barrier entered");
    for (int p = 0; p < np; p++)
        snprintf(name[1 + p], sizeof name[0], "phase in %s", tc_dir_name((unsigned)p));
    snprintf(name[1 + np], sizeof name[0], "phase completed");
    snprintf(name[2 + np], sizeof name[0], "phase packet out");
    snprintf(name[3 + np], sizeof name[0], "completion to PE");
    for (int r = 0; r < nr; r++) {
        memset(rows[r], '0', (size_t)n);
        rows[r][n] = 0;
    }
    for (int k = 0; k < n; k++)
        gap[k] = k && cyc[k] != cyc[k - 1] + 1;
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < l->n; i++) {
            const tc_event *e = &l->ev[i];
            int r = -1;
            unsigned phase = (e->tag & 0xfff) + 1;
            if (e->node != node || e->cycle != cyc[k])
                continue;
            if (e->kind == TC_EV_ROUTE && e->idx < 2 * np && (e->idx & 1) == TC_VC_DOWN && (e->tag & TC_TAG_PHASE))
                r = 1 + e->idx / 2;
            else if (e->kind == TC_EV_PHASE && (e->idx & 1))
                rows[0][k] = '1';
            if (e->kind == TC_EV_PHASE && (e->idx & 2))
                r = 1 + np, phase--; /* phases completed, after this one */
            if (e->kind == TC_EV_PHASE && (e->idx & 4))
                r = 2 + np;
            if (e->kind == TC_EV_PHASE && (e->idx & 8))
                rows[3 + np][k] = '1';
            if (r >= 0) {
                rows[r][k] = '3';
                snprintf(lab[r][nl[r]++], sizeof lab[0][0], "%u", r == 1 + np ? phase + 1 : phase);
            }
        }
    const char *rp[ROWS], *np_[ROWS], *lp[ROWS][W];
    const char *const *dp[ROWS];
    for (int r = 0; r < nr; r++) {
        rp[r] = rows[r], np_[r] = name[r], dp[r] = lp[r];
        for (int d = 0; d < nl[r]; d++)
            lp[r][d] = lab[r][d];
    }
    write_cut(f, n, gap, nr, np_, rp, dp, nl, title);
}
