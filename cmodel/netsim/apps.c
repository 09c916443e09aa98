/* Applications of Mukosey, Semenov and Simonov (2015), sections 3.2 and 3.3: the
 * sparse matrix-vector product with its vector all-gathered every iteration, and the
 * explicit 2D heat equation with a halo exchange and an allreduce (max) a step; the
 * shared timing of collectives on the subnet and on the point-to-point baseline. */
#include "apps.h"

#include <stdlib.h>
#include <string.h>

#include "pkt_allgather.h"
#include "plan.h"
#include "trace.h"

#define PKT_DATA (TC_SLOT_FLITS - 1) /* data flits of a full packet: 7, 112 bytes */

/* The all-gather algorithms of MPI libraries the point-to-point baseline times for
 * SpMV (docs/p2p.md); and p2p_alg's rules, by their tc_p2p_pick number. */
#define TC_APP_AG_ALGS 3
static const tc_p2p_alg tc_app_ag_algs[TC_APP_AG_ALGS] = {TC_P2P_RECDBL, TC_P2P_BRUCK, TC_P2P_RING};
static const char *const tc_app_rules[] = {"classic", "auto", "ompi", "mpich"};

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
    tc_plan_table(t, a->rows, &(tc_plan){.variant = TC_PLAN_MEMBERS, .pe = pe});
    for (int k = 0; k < t->n; k++)
        for (int tree = 0; tree < TC_TREES; tree++)
            tc_net_cfg(a->net, k, tree, TC_ROWP(a->rows, k, tree));
}

int tc_app_run_hw(tc_app *a, const tc_workload *w, uint64_t *cycles) { return tc_app_run_hw_at(a, w, -1, cycles); }

int tc_app_run_hw_at(tc_app *a, const tc_workload *w0, int at, uint64_t *cycles)
{
    tc_wl_result res;
    tc_workload wr = *w0, *w = &wr;
    int red = w->kind == TC_WL_REDUCE || w->kind == TC_WL_ALLREDUCE || w->kind == TC_WL_TREE_BARRIER;
    if (red) /* the PEs go on with the tree's next ReduceId: the network keeps its turns from run to run */
        wr.rid0 = a->rid_next[w->tree];
    int rc = tc_wl_run(a->net, a->rows, w, &res, NULL, NULL);
    if (red)
        a->rid_next[w->tree] = (uint8_t)((wr.rid0 + w->repeat) % tc_net_params(a->net)->red_rids);
    if (rc)
        snprintf(a->err, sizeof a->err, "%s on the subnet: %.200s", tc_wl_names[w->kind], res.msg);
    a->deliveries = 0;
    uint64_t end = 0; /* a stream over several trees may complete its operations out of order */
    for (int i = 0; !rc && i < w->repeat; i++) {
        a->deliveries += res.op[i].deliveries;
        end = max64(end, at < 0 ? res.op[i].end : res.node_done[(size_t)i * (size_t)a->t->n + (size_t)at]);
    }
    if (!rc)
        *cycles = end - res.op[0].start;
    tc_wl_result_free(&res);
    return rc;
}

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
        if (tc_pkt_allgather_refuse(&a->p, &w)) { /* the cycle-exact model, for what the engine does not model */
            if (tc_app_run_hw(a, &w, &r->cycles))
                return -1;
            r->deliveries = a->deliveries;
        } else { /* the packet engine: the same deliveries, 5 to 100 times faster (tb/unit/test_pkt_allgather.c) */
            tc_wl_result res;
            uint64_t *lf = malloc((size_t)t->n * (size_t)np * sizeof *lf);
            int rc = !lf ? -1 : tc_pkt_allgather_run(&a->p, t, a->rows, &w, &res, lf);
            if (rc)
                snprintf(a->err, sizeof a->err, "allgather on the subnet: %.200s", lf ? res.msg : "out of memory");
            else
                r->cycles = res.op[0].end - res.op[0].start, r->deliveries = res.op[0].deliveries;
            if (lf)
                tc_wl_result_free(&res);
            free(lf);
            if (rc)
                return -1;
        }
        r->exact = 1;
    }
    return 0;
}

int tc_app_allgather_p2p(tc_app *a, tc_p2p_alg alg, int flits, tc_app_time *r)
{
    tc_p2p_est e;
    memset(r, 0, sizeof *r);
    if (tc_p2p_coll_model(&a->m, alg, TC_WL_ALLGATHER, flits, a->t->n, a->p2p_rate, &e)) {
        snprintf(a->err, sizeof a->err, "%s", a->m.err);
        return -1;
    }
    r->cycles = r->model = e.model, r->fill = e.fill, r->busiest = e.busiest, r->flit_hops = e.flit_hops;
    if (a->exact == 1 || (a->exact == 0 && e.flit_hops <= 8 * a->exact_limit)) {
        if (tc_p2p_coll(&a->m, alg, TC_WL_ALLGATHER, flits, 0, NULL, a->t->n, NULL, &r->cycles)) {
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
    printf("  %-22s %12llu cycles (%10.3f us) %s", name, (unsigned long long)r->cycles, (double)r->cycles * ns / 1e3,
           how(r));
    if (r->model && r->exact)
        printf("; model %llu (%+.1f%%)", (unsigned long long)r->model,
               100.0 * ((double)r->model - (double)r->cycles) / (double)r->cycles);
    else if (r->model)
        printf(" (fill %llu + busiest channel %llu flits)", (unsigned long long)r->fill,
               (unsigned long long)r->busiest);
    printf("\n");
}

static void time_json(FILE *f, const char *name, const tc_app_time *r, const char *end)
{
    fprintf(f, " \"%s\": {\"cycles\": %llu, \"exact\": %s, \"model\": %llu, \"fill\": %llu, \"busiest\": %llu, "
               "\"flit_hops\": %.0f}%s", name, (unsigned long long)r->cycles, r->exact ? "true" : "false",
            (unsigned long long)r->model, (unsigned long long)r->fill, (unsigned long long)r->busiest, r->flit_hops, end);
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
    tc_app_time hw, ag[TC_APP_AG_ALGS], sw;
    if (tc_app_allgather_hw(a, (int)packets, &hw))
        return 1;
    int pick = 0; /* the baseline: the fastest (auto), or the library's pick */
    const char *lib = NULL;
    tc_p2p_alg want = a->rule == TC_P2P_PICK_OMPI    ? tc_p2p_pick_ompi(TC_WL_ALLGATHER, p, (uint64_t)bytes, &lib)
                      : a->rule == TC_P2P_PICK_MPICH ? tc_p2p_pick_mpich(TC_WL_ALLGATHER, p, (uint64_t)bytes, &lib)
                                                     : TC_P2P_CLASSIC;
    for (int i = 0; i < TC_APP_AG_ALGS; i++) {
        if (tc_app_allgather_p2p(a, tc_app_ag_algs[i], (int)flits, &ag[i]))
            return 1;
        if (want == TC_P2P_CLASSIC ? ag[i].cycles < ag[pick].cycles : tc_app_ag_algs[i] == want)
            pick = i;
    }
    sw = ag[pick];
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
    for (int i = 0; i < TC_APP_AG_ALGS; i++) {
        char name[40];
        snprintf(name, sizeof name, "p2p %s", tc_p2p_alg_names[tc_app_ag_algs[i]]);
        time_line(name, &ag[i], ns);
    }
    printf("  all-gather p2p: %s (p2p_alg = %s%s%s; o %llu, g %llu cycles)\n", tc_p2p_alg_names[tc_app_ag_algs[pick]],
           tc_app_rules[a->rule], lib ? ", the library's " : "", lib ? lib : "", (unsigned long long)a->m.cost.o_send,
           (unsigned long long)a->m.cost.gap);
    printf("  iteration  hw %.3f us, p2p %.3f us; %.3f and %.3f Gflop/s; gain %.1f%%\n", th * 1e6, tp * 1e6,
           flop / th * 1e-9, flop / tp * 1e-9, 100.0 * (tp / th - 1.0));
    if (json) {
        fprintf(json, "{\"workload\": \"spmv\", \"nodes\": %d, \"spmv_n\": %ld, \"spmv_d\": %ld, \"mflops\": %.1f,\n",
                p, nrows, d, mflops);
        fprintf(json, " \"part_bytes\": %ld, \"packets\": %ld, \"compute_s\": %.9g,\n", bytes, packets, tc);
        time_json(json, "hw", &hw, ",\n");
        time_json(json, "p2p", &sw, ",\n");
        fprintf(json, " \"p2p_alg\": \"%s\", \"o\": %llu, \"g\": %llu, \"p2p_algs\": {\n",
                tc_p2p_alg_names[tc_app_ag_algs[pick]], (unsigned long long)a->m.cost.o_send,
                (unsigned long long)a->m.cost.gap);
        for (int i = 0; i < TC_APP_AG_ALGS; i++) {
            fprintf(json, "  ");
            time_json(json, tc_p2p_alg_names[tc_app_ag_algs[i]], &ag[i], i + 1 < TC_APP_AG_ALGS ? ",\n" : "},\n");
        }
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
    uint64_t t[TC_P2P_ALGS];
    tc_p2p_alg alg = TC_P2P_RECDBL;
    const char *lib = NULL;
    for (int i = 0; i < TC_P2P_ALGS; i++)
        t[i] = UINT64_MAX;
    if (a->rule == TC_P2P_PICK_AUTO) {
        rc = rc || tc_p2p_coll_best(&a->m, TC_WL_ALLREDUCE, 1, 0, NULL, p, t, &alg, NULL, &red_sw);
    } else {
        alg = a->rule == TC_P2P_PICK_OMPI ? tc_p2p_pick_ompi(TC_WL_ALLREDUCE, p, 8, &lib)
                                          : tc_p2p_pick_mpich(TC_WL_ALLREDUCE, p, 8, &lib);
        rc = rc || tc_p2p_coll(&a->m, alg, TC_WL_ALLREDUCE, 1, 0, NULL, p, NULL, &red_sw);
        t[alg] = red_sw;
    }
    if (rc) {
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
    printf("  allreduce  hw %llu cycles, p2p %llu cycles (%s; p2p_alg = %s%s%s; o %llu, g %llu cycles), simulated\n",
           (unsigned long long)red_hw, (unsigned long long)red_sw, tc_p2p_alg_names[alg], tc_app_rules[a->rule],
           lib ? ", the library's " : "", lib ? lib : "", (unsigned long long)a->m.cost.o_send,
           (unsigned long long)a->m.cost.gap);
    for (int i = 0; i < TC_P2P_ALGS; i++)
        if (t[i] != UINT64_MAX)
            printf("    p2p %-20s %llu cycles\n", tc_p2p_alg_names[i], (unsigned long long)t[i]);
    printf("  compute + allreduce (the paper's formula): hw %.1f, p2p %.1f Gflop/s, gain %.2fx\n", ph * 1e-9,
           pp * 1e-9, ph / pp);
    printf("  with the halo exchange:                    hw %.1f, p2p %.1f Gflop/s, gain %.2fx\n", hh * 1e-9,
           hp * 1e-9, hh / hp);
    if (json) {
        fprintf(json, "{\"workload\": \"heat\", \"p2p_alg\": \"%s\", \"o\": %llu, \"g\": %llu, \"allreduce_p2p_algs\": {",
                tc_p2p_alg_names[alg], (unsigned long long)a->m.cost.o_send, (unsigned long long)a->m.cost.gap);
        for (int i = 0, first = 1; i < TC_P2P_ALGS; i++)
            if (t[i] != UINT64_MAX)
                fprintf(json, "%s\"%s\": %llu", first ? "" : ", ", tc_p2p_alg_names[i], (unsigned long long)t[i]),
                    first = 0;
        fprintf(json, "},\n \"nodes\": %d, \"cells\": %ld, \"mflops\": %.1f, \"local\": %ld, "
                      "\"compute_s\": %.9g, \"halo_cycles\": %llu, \"allreduce_hw\": %llu, \"allreduce_p2p\": %llu,\n"
                      " \"gflops_hw\": %.6g, \"gflops_p2p\": %.6g, \"gain\": %.6f, \"gflops_hw_halo\": %.6g, "
                      "\"gflops_p2p_halo\": %.6g, \"gain_halo\": %.6f}\n",
                p, cells, mflops, local, ts, (unsigned long long)halo, (unsigned long long)red_hw,
                (unsigned long long)red_sw, ph * 1e-9, pp * 1e-9, ph / pp, hh * 1e-9, hp * 1e-9, hh / hp);
    }
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
    int trace = strcmp(wl, "spmv") && strcmp(wl, "heat");
    /* spmv and heat time the MPI algorithms (auto unless p2p_alg names a library); the
     * trace replay the fastest for each call (auto) where it has them, the rest by a
     * library's algorithm (cmodel/netsim/trace.c); all with the LogGP costs o, g */
    int alg_given = cfg->from[tc_config_find(cfg, "p2p_alg")], rule = tc_config_enum(cfg, "p2p_alg");
    if (alg_given && (trace || rule < TC_P2P_PICK_AUTO || rule > TC_P2P_PICK_MPICH)) {
        fprintf(stderr, "tcnet: p2p_alg = %s: workload = %s %s\n", tc_config_str(cfg, "p2p_alg"), wl,
                trace ? "replays with the fastest MPI algorithm for each call (auto)"
                      : "times the MPI algorithms: p2p_alg = auto (the default here), ompi or mpich, with o, g");
        return 2;
    }
    a.rule = alg_given ? rule : TC_P2P_PICK_AUTO;
    if (tc_p2p_init(&a.m, &a.p, 0, a.err, sizeof a.err)) { /* no sw_overhead: that is p2p_alg = classic's */
        fprintf(stderr, "tcnet: %s\n", a.err);
        return 2;
    }
    a.m.cost = (tc_p2p_loggp){(uint64_t)tc_config_int(cfg, "o"), (uint64_t)tc_config_int(cfg, "o"),
                              (uint64_t)tc_config_int(cfg, "g"), (uint64_t)tc_config_int(cfg, "red_mcyc")};
    int rc = !strcmp(wl, "spmv") ? spmv(&a, cfg, json, ns)
             : !strcmp(wl, "heat") ? heat(&a, cfg, json, ns)
                                   : tc_trace_replay(&a, cfg, json, ns);
    if (rc)
        fprintf(stderr, "tcnet: %s\n", a.err);
    tc_p2p_free(&a.m);
    return rc;
}
