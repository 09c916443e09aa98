/* Applications of Mukosey, Semenov and Simonov (2015), sections 3.2 and 3.3: the
 * sparse matrix-vector product with its vector all-gathered every iteration, and the
 * explicit 2D heat equation with a halo exchange and an allreduce (max) a step; the
 * shared timing of collectives on the subnet and on the point-to-point baseline. */
#include "apps.h"

#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define PKT_DATA (TC_SLOT_FLITS - 1) /* data flits of a full packet: 7, 112 bytes */

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Cycles to move f flits at rate flits a cycle, rounded. */
static uint64_t at_rate(uint64_t f, double rate) { return (uint64_t)((double)f / rate + 0.5); }

/* The least s with s * s >= x. */
static long ceil_sqrt(long x)
{
    long s = 0;
    while (s * s < x)
        s++;
    return s;
}

static int pe_of(const tc_row *rows, int node, int tree)
{
    tc_row r = TC_ROWP(rows, node, tree);
    return TC_RGET(r, VALID) && TC_RGET(r, PE);
}

void tc_app_table(tc_app *a, const uint8_t *pe)
{
    const tc_topo *t = a->t;
    int nm = 0, *mem = malloc((size_t)t->n * sizeof *mem);
    for (int k = 0; k < t->n && mem; k++)
        if (!pe || pe[k])
            mem[nm++] = k;
    for (int tree = 0; tree < TC_TREES && mem && nm; tree++) /* roots spread evenly over the members */
        tc_plan_tree(t, a->rows, tree, mem[(long)tree * nm / TC_TREES], pe);
    for (int k = 0; k < t->n; k++)
        for (int tree = 0; tree < TC_TREES; tree++)
            tc_net_cfg(a->net, k, tree, TC_ROWP(a->rows, k, tree));
    free(mem);
}

int tc_app_run_hw(tc_app *a, const tc_workload *w0, uint64_t *cycles)
{
    tc_wl_result res;
    tc_workload wr = *w0, *w = &wr;
    int red = w->kind == TC_WL_REDUCE || w->kind == TC_WL_ALLREDUCE || w->kind == TC_WL_TREE_BARRIER;
    if (red) /* the PEs go on with the tree's next ReduceId: the network keeps its turns from run to run */
        wr.rid0 = a->rid_next[w->tree];
    int rc = tc_wl_run(a->net, a->rows, w, &res, NULL, NULL);
    if (red)
        a->rid_next[w->tree] = (uint8_t)((wr.rid0 + w->repeat) % TC_RIDS);
    if (rc)
        snprintf(a->err, sizeof a->err, "%s on the subnet: %.200s", tc_wl_names[w->kind], res.msg);
    else
        *cycles = res.op[w->repeat - 1].end - res.op[0].start;
    a->deliveries = 0;
    for (int i = 0; !rc && i < w->repeat; i++)
        a->deliveries += res.op[i].deliveries;
    tc_wl_result_free(&res);
    return rc;
}

/* Flits a unicast message of f data flits puts on each channel (a header a packet). */
static uint64_t wire(uint64_t f) { return f + (f ? (f + PKT_DATA - 1) / PKT_DATA : 1); }

int tc_app_allgather_hw(tc_app *a, int packets, tc_app_time *r)
{
    const tc_topo *t = a->t;
    int np = 2 * t->ndims;
    uint64_t f = (uint64_t)packets * TC_SLOT_FLITS, *link = calloc((size_t)t->n * (size_t)np, sizeof *link);
    uint64_t *ej = calloc((size_t)t->n, sizeof *ej);
    memset(r, 0, sizeof *r);
    if (!link || !ej) {
        free(link);
        free(ej);
        snprintf(a->err, sizeof a->err, "out of memory for %d nodes", t->n);
        return -1;
    }
    /* The steady-state model's load: a sender's packets climb its tree to the root
     * (toRoot links), then go down every down-direction of the tree to every member. */
    for (int tree = 0; tree < TC_TREES; tree++) {
        uint64_t s = 0;
        for (int k = tree; k < t->n; k += TC_TREES) {
            if (!pe_of(a->rows, k, tree))
                continue;
            s++;
            for (int v = k, hops = 0; !TC_RGET(TC_ROWP(a->rows, v, tree), ROOT) && hops <= t->n; hops++) {
                int d = (int)TC_RGET(TC_ROWP(a->rows, v, tree), TOROOT);
                link[(size_t)v * (size_t)np + (size_t)d] += f;
                v = tc_neighbour(t, v, d);
            }
        }
        for (int v = 0; v < t->n && s; v++) {
            tc_row row = TC_ROWP(a->rows, v, tree);
            if (!TC_RGET(row, VALID))
                continue;
            for (int d = 0; d < np; d++)
                if ((TC_RGET(row, DIRS) >> d) & 1)
                    link[(size_t)v * (size_t)np + (size_t)d] += s * f;
            if (TC_RGET(row, PE))
                ej[v] += (s - (v % TC_TREES == tree)) * f; /* not its own part */
        }
    }
    r->busiest = f;
    for (size_t i = 0; i < (size_t)t->n * (size_t)np; i++) {
        r->busiest = max64(r->busiest, link[i]);
        r->flit_hops += (double)link[i];
    }
    for (int v = 0; v < t->n; v++)
        r->busiest = max64(r->busiest, ej[v]);
    free(link);
    free(ej);
    /* fill: one packet broadcast on tree 0, cycle by cycle */
    tc_workload w = {.kind = TC_WL_BCAST, .len = PKT_DATA, .repeat = 1, .max_cycles = a->max_cycles};
    if (tc_app_run_hw(a, &w, &r->fill))
        return -1;
    r->model = r->fill + at_rate(r->busiest - TC_SLOT_FLITS, a->hw_rate);
    r->cycles = r->model;
    if (a->exact == 1 || (a->exact == 0 && r->flit_hops <= a->exact_limit)) {
        w = (tc_workload){.kind = TC_WL_ALLGATHER, .len = PKT_DATA, .packets = packets, .repeat = 1,
                          .max_cycles = a->max_cycles};
        if (tc_app_run_hw(a, &w, &r->cycles))
            return -1;
        r->exact = 1;
        r->deliveries = a->deliveries;
    }
    return 0;
}

int tc_app_allgather_p2p(tc_app *a, int flits, tc_app_time *r)
{
    const tc_topo *t = a->t;
    int np = 2 * t->ndims, n = t->n;
    memset(r, 0, sizeof *r);
    if (n & (n - 1)) {
        snprintf(a->err, sizeof a->err, "the recursive-doubling all-gather needs a power-of-two node count, not %d", n);
        return -1;
    }
    uint64_t *link = malloc((size_t)n * (size_t)np * sizeof *link);
    if (!link) {
        snprintf(a->err, sizeof a->err, "out of memory for %d nodes", n);
        return -1;
    }
    /* The model, round by round (a round starts when the one before has ended): one
     * packet's latency to the partner, simulated, plus the round's busiest channel
     * at the streaming rate. Round r: v and v ^ 2^r swap 2^r parts. */
    for (int mask = 1; mask < n; mask <<= 1) {
        uint64_t m = wire((uint64_t)flits * (uint64_t)mask), busiest = m, lat;
        memset(link, 0, (size_t)n * (size_t)np * sizeof *link);
        for (int v = 0; v < n; v++)
            for (int u = v, d; (d = tc_p2p_dir(t, u, v ^ mask)) >= 0; u = tc_neighbour(t, u, d))
                link[(size_t)u * (size_t)np + (size_t)d] += m;
        for (size_t i = 0; i < (size_t)n * (size_t)np; i++) {
            busiest = max64(busiest, link[i]);
            r->flit_hops += (double)link[i];
        }
        int from = 0, to = mask, one = flits * mask < PKT_DATA ? flits * mask : PKT_DATA;
        if (tc_p2p_exchange(&a->m, 1, &from, &to, &one, &lat)) {
            snprintf(a->err, sizeof a->err, "%s", a->m.err);
            free(link);
            return -1;
        }
        r->fill += lat;
        r->busiest += busiest;
        r->model += lat + at_rate(busiest - wire((uint64_t)one), a->p2p_rate);
    }
    free(link);
    r->cycles = r->model;
    if (a->exact == 1 || (a->exact == 0 && r->flit_hops <= 8 * a->exact_limit)) {
        if (tc_p2p_collective(&a->m, TC_WL_ALLGATHER, flits, 0, NULL, &r->cycles)) {
            snprintf(a->err, sizeof a->err, "%s", a->m.err);
            return -1;
        }
        r->exact = 1;
    }
    return 0;
}

static const char *how(const tc_app_time *r) { return r->exact ? "simulated" : "modelled"; }

static void time_line(const char *name, const tc_app_time *r, double ns)
{
    printf("  %-10s %12llu cycles (%10.3f us) %s", name, (unsigned long long)r->cycles, (double)r->cycles * ns / 1e3,
           how(r));
    if (r->model && r->exact)
        printf("; model %llu (%+.1f%%)", (unsigned long long)r->model,
               100.0 * ((double)r->model - (double)r->cycles) / (double)r->cycles);
    else if (r->model)
        printf(" (fill %llu + busiest channel %llu flits)", (unsigned long long)r->fill,
               (unsigned long long)r->busiest);
    printf("\n");
}

static void time_json(FILE *f, const char *name, const tc_app_time *r)
{
    fprintf(f, " \"%s\": {\"cycles\": %llu, \"exact\": %s, \"model\": %llu, \"fill\": %llu, \"busiest\": %llu, "
               "\"flit_hops\": %.0f},\n", name, (unsigned long long)r->cycles, r->exact ? "true" : "false",
            (unsigned long long)r->model, (unsigned long long)r->fill, (unsigned long long)r->busiest, r->flit_hops);
}

/* SpMV (section 3.2): N rows of d nonzeros over P nodes, N / P rows each; an iteration
 * computes its rows, then all-gathers the vector (8-byte elements). */
static int spmv(tc_app *a, const tc_config *cfg, FILE *json, double ns)
{
    long nrows = tc_config_int(cfg, "spmv_n"), d = tc_config_int(cfg, "spmv_d");
    double mflops = (double)tc_config_int(cfg, "node_mflops");
    int p = a->t->n;
    if (mflops <= 0)
        mflops = 591.0; /* Mukosey et al.'s measured rate per node */
    long part = (nrows + p - 1) / p, bytes = 8 * part;
    long flits = (bytes + 15) / 16, packets = (flits + PKT_DATA - 1) / PKT_DATA;
    if (packets > 0x7fffffffL / TC_SLOT_FLITS) {
        snprintf(a->err, sizeof a->err, "spmv_n = %ld: %ld packets a node is too many", nrows, packets);
        return 2;
    }
    tc_app_time hw, sw;
    if (tc_app_allgather_hw(a, (int)packets, &hw) || tc_app_allgather_p2p(a, (int)flits, &sw))
        return 1;
    double tc = (double)TC_SPMV_FLOPS_NZ * (double)d * (double)part / (mflops * 1e6);
    double th = tc + (double)hw.cycles * ns * 1e-9, tp = tc + (double)sw.cycles * ns * 1e-9;
    double flop = (double)TC_SPMV_FLOPS_NZ * (double)d * (double)nrows;
    printf("spmv: N = %ld rows, d = %ld, %d nodes: %ld rows and %ld bytes a node (%ld packets of 7 flits)\n", nrows,
           d, p, part, bytes, packets);
    printf("  compute    %12.3f us at %.0f Mflop/s a node\n", tc * 1e6, mflops);
    time_line("all-gather hw", &hw, ns);
    if (hw.exact) { /* tc_wl_run waits for every packet; count them again */
        uint64_t want = (uint64_t)p * (uint64_t)(p - 1) * (uint64_t)packets;
        printf("  all-gather hw delivered %llu packets, every node's part to every other node: %s\n",
               (unsigned long long)hw.deliveries, hw.deliveries == want ? "yes" : "NO");
        if (hw.deliveries != want) {
            snprintf(a->err, sizeof a->err, "spmv: %llu packets delivered, %llu expected",
                     (unsigned long long)hw.deliveries, (unsigned long long)want);
            return 1;
        }
    }
    time_line("all-gather p2p", &sw, ns);
    printf("  iteration  hw %.3f us, p2p %.3f us; %.3f and %.3f Gflop/s; gain %.1f%%\n", th * 1e6, tp * 1e6,
           flop / th * 1e-9, flop / tp * 1e-9, 100.0 * (tp / th - 1.0));
    if (json) {
        fprintf(json, "{\"workload\": \"spmv\", \"nodes\": %d, \"spmv_n\": %ld, \"spmv_d\": %ld, \"mflops\": %.1f,\n",
                p, nrows, d, mflops);
        fprintf(json, " \"part_bytes\": %ld, \"packets\": %ld, \"compute_s\": %.9g,\n", bytes, packets, tc);
        time_json(json, "hw", &hw);
        time_json(json, "p2p", &sw);
        fprintf(json, " \"iter_hw_s\": %.9g, \"iter_p2p_s\": %.9g, \"gflops_hw\": %.6g, \"gflops_p2p\": %.6g, "
                      "\"gain\": %.6f}\n", th, tp, flop / th * 1e-9, flop / tp * 1e-9, tp / th - 1.0);
    }
    return 0;
}

/* The heat equation (section 3.3): C cells split evenly, in square blocks over a
 * px x py grid of ranks (rank r on node r); a step computes its block, exchanges the
 * block's edges with its four neighbours (none past the domain's edge) over unicast,
 * and takes the maximum of the conductivity with an allreduce of one 8-byte value. */
static int heat(tc_app *a, const tc_config *cfg, FILE *json, double ns)
{
    long cells = tc_config_int(cfg, "heat_cells");
    double mflops = (double)tc_config_int(cfg, "node_mflops");
    int p = a->t->n, px = (int)ceil_sqrt(p);
    while (p % px)
        px++;
    int py = p / px;
    if (mflops <= 0)
        mflops = 11000.0; /* Mukosey et al.: about 11 Gflop/s a node */
    long local = (cells + p - 1) / p, side = ceil_sqrt(local);
    int edge = (int)((8 * side + 15) / 16); /* flits of one edge of 8-byte cells */
    int *from = malloc(4 * (size_t)p * sizeof *from), *to = malloc(4 * (size_t)p * sizeof *to);
    int *fl = malloc(4 * (size_t)p * sizeof *fl);
    size_t nmsg = 0;
    if (!from || !to || !fl) {
        free(from), free(to), free(fl);
        snprintf(a->err, sizeof a->err, "out of memory for %d nodes", p);
        return 1;
    }
    for (int r = 0; r < p; r++) {
        int x = r % px, y = r / px;
        int nb[4] = {x > 0 ? r - 1 : -1, x < px - 1 ? r + 1 : -1, y > 0 ? r - px : -1, y < py - 1 ? r + px : -1};
        for (int i = 0; i < 4; i++)
            if (nb[i] >= 0)
                from[nmsg] = r, to[nmsg] = nb[i], fl[nmsg++] = edge;
    }
    uint64_t halo = 0, red_hw = 0, red_sw = 0;
    int rc = tc_p2p_exchange(&a->m, nmsg, from, to, fl, &halo);
    free(from), free(to), free(fl);
    tc_workload w = {.kind = TC_WL_ALLREDUCE, .len = 1, .op = TC_OP_MAX, .lane = TC_LANE_64, .repeat = 1,
                     .max_cycles = a->max_cycles};
    if (rc || tc_p2p_collective(&a->m, TC_WL_ALLREDUCE, 1, 0, NULL, &red_sw)) {
        snprintf(a->err, sizeof a->err, "%s", a->m.err);
        return 1;
    }
    if (tc_app_run_hw(a, &w, &red_hw))
        return 1;
    double ts = (double)TC_HEAT_FLOPS_CELL * (double)local / (mflops * 1e6), s = ns * 1e-9;
    double flop = (double)TC_HEAT_FLOPS_CELL * (double)cells;
    double ph = flop / (ts + (double)red_hw * s), pp = flop / (ts + (double)red_sw * s); /* the paper's formula */
    double hh = flop / (ts + (double)(halo + red_hw) * s), hp = flop / (ts + (double)(halo + red_sw) * s);
    printf("heat: %ld cells, %d nodes as %d x %d blocks of %ld cells (edge %ld cells, %d flits)\n", cells, p, px, py,
           local, side, edge);
    printf("  compute    %12.3f us at %.0f Mflop/s a node\n", ts * 1e6, mflops);
    printf("  halo       %12llu cycles (%10.3f us) simulated, unicast in both\n", (unsigned long long)halo,
           (double)halo * ns / 1e3);
    printf("  allreduce  hw %llu cycles, p2p %llu cycles, simulated\n", (unsigned long long)red_hw,
           (unsigned long long)red_sw);
    printf("  compute + allreduce (the paper's formula): hw %.1f, p2p %.1f Gflop/s, gain %.2fx\n", ph * 1e-9,
           pp * 1e-9, ph / pp);
    printf("  with the halo exchange:                    hw %.1f, p2p %.1f Gflop/s, gain %.2fx\n", hh * 1e-9,
           hp * 1e-9, hh / hp);
    if (json)
        fprintf(json, "{\"workload\": \"heat\", \"nodes\": %d, \"cells\": %ld, \"mflops\": %.1f, \"local\": %ld, "
                      "\"compute_s\": %.9g, \"halo_cycles\": %llu, \"allreduce_hw\": %llu, \"allreduce_p2p\": %llu,\n"
                      " \"gflops_hw\": %.6g, \"gflops_p2p\": %.6g, \"gain\": %.6f, \"gflops_hw_halo\": %.6g, "
                      "\"gflops_p2p_halo\": %.6g, \"gain_halo\": %.6f}\n",
                p, cells, mflops, local, ts, (unsigned long long)halo, (unsigned long long)red_hw,
                (unsigned long long)red_sw, ph * 1e-9, pp * 1e-9, ph / pp, hh * 1e-9, hp * 1e-9, hh / hp);
    return 0;
}

int tc_app_main(const tc_config *cfg, tc_net *n, tc_row *rows, FILE *json)
{
    tc_app a;
    memset(&a, 0, sizeof a);
    a.net = n;
    a.rows = rows;
    a.t = tc_net_topo(n);
    a.p = *tc_net_params(n);
    a.exact = tc_config_enum(cfg, "exact");
    a.exact_limit = (double)tc_config_int(cfg, "exact_limit");
    a.hw_rate = (double)tc_config_int(cfg, "hw_rate") / 1000.0;
    a.p2p_rate = (double)tc_config_int(cfg, "p2p_rate") / 1000.0;
    a.max_cycles = (uint64_t)tc_config_int(cfg, "max_cycles");
    double ns = 1000.0 / (double)tc_config_int(cfg, "clock_mhz");
    const char *wl = tc_config_str(cfg, "workload");
    if (tc_p2p_init(&a.m, &a.p, (uint64_t)tc_config_int(cfg, "sw_overhead"), a.err, sizeof a.err)) {
        fprintf(stderr, "tcnet: %s\n", a.err);
        return 2;
    }
    int rc = !strcmp(wl, "spmv") ? spmv(&a, cfg, json, ns)
             : !strcmp(wl, "heat") ? heat(&a, cfg, json, ns)
                                   : tc_trace_replay(&a, cfg, json, ns);
    if (rc)
        fprintf(stderr, "tcnet: %s\n", a.err);
    tc_p2p_free(&a.m);
    return rc;
}
