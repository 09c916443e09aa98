/* tcnet: the C golden model as a network simulator. Reads a configuration file of
 * `key = value` lines and `key=value` arguments (every key below, each with its
 * default), builds the torus and its routing table, runs the workload and prints
 * a table; --csv / --json write the results for plots. See docs/simulator.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../cmodel/alu.h"
#include "../cmodel/netsim/apps.h"
#include "../cmodel/config.h"
#include "../cmodel/fpsum.h"
#include "../cmodel/netsim/fpvec.h"
#include "../cmodel/net.h"
#include "../cmodel/netsim/p2p.h"
#include "../cmodel/netsim/pkt_allgather.h"
#include "../cmodel/netsim/pkt_bcast.h"
#include "../cmodel/netsim/plan.h"
#include "../cmodel/netsim/workload.h"

static const char *const modes[] = {"half", "full", NULL};
static const char *const impls[] = {"hw", "p2p", NULL};
static const char *const lanes[] = {"32", "64", NULL}; /* TC_LANE_* */
static const char *const exacts[] = {"auto", "on", "off", NULL};
static const char *const mcasts[] = {"passes", "serial", "fork", NULL}; /* TC_MCAST_* */
static const char *const engines[] = {"auto", "cycle", "packet", NULL};
enum { ENGINE_AUTO, ENGINE_CYCLE, ENGINE_PACKET };
/* values: none, or tc_fpsum_dist_names[i - 1] */
static const char *const valdists[] = {"none", "uniform", "wide", "cancel", "special", NULL};
/* p2p_alg: the classic set, a rule, or one algorithm (tc_p2p_alg_names after the first 4) */
static const char *const p2p_algs[] = {"classic", "auto", "ompi", "mpich", "binomial", "linear", "scatter_rd",
                                       "scatter_ring", "recursive_doubling", "rabenseifner", "ring", "reduce_bcast",
                                       "bruck", "dissemination", "tree", NULL};
enum { P2P_RULES = 4 }; /* p2p_algs[i] for i >= P2P_RULES is tc_p2p_alg_names[i - P2P_RULES + 1] */

static const tc_key keys[] = {
    TC_TOPO_KEY,
    {"clock_mhz", "500", "router clock, for times in ns", 1, 10000, NULL},
#include "../cmodel/param_keys.h"
    {"mcast", "passes", "a multicast's copies: passes (the design); serial, fork (alternatives, C model only; docs/bandwidth.md)", 0, 0, mcasts},
    {"table", "planner", "routing table: 'planner' (16 dimension-ordered trees, roots spread evenly: cmodel/netsim/plan.h's spread), another of its tables (testbench, random, members: all nodes) or a file", 1, 0, NULL},
    {"members", "100", "planner: percent of the PEs that take part in each tree (a random set, with the root and its farthest node)", 1, 100, NULL},
    TC_SEED_KEY("random choices (members, table = random, values)"),
    {"workload", "allreduce", "operation", 0, 0, tc_wl_names},
    {"impl", "hw", "hw: the collective subnet (cycle-exact); p2p: software collectives over unicast (docs/p2p.md)", 0, 0, impls},
    {"engine", "auto", "impl = hw: auto (the fastest exact: packet where it applies, else cycle), cycle (the cycle-exact model) or packet (bcast and allgather, exact: docs/simulator.md)", 0, 0, engines},
    {"sw_overhead", "0", "p2p_alg = classic: software cycles between receiving a message and sending the next", 0, 1000000, NULL},
    {"p2p_alg", "classic", "p2p: the collective algorithm: classic (the fixed set, sw_overhead), auto (the fastest of all), ompi, mpich (their default pick) or one by name (docs/p2p.md)", 0, 0, p2p_algs},
    {"o", "750", "p2p_alg other than classic (and spmv, heat, trace): LogGP overhead o, CPU cycles a message costs its sender and its receiver (LogGOPSim's 1500 ns)", 0, 10000000, NULL},
    {"g", "500", "p2p_alg other than classic (and spmv, heat, trace): LogGP gap g, cycles between a node's message injections (LogGOPSim's 1000 ns)", 0, 10000000, NULL},
    {"red_mcyc", "0", "p2p_alg other than classic (and spmv, heat, trace): the reduction's arithmetic, thousandths of a cycle per data flit combined", 0, 100000000, NULL},
    {"tree", "0", "TreeId of bcast, reduce, allreduce, tree_barrier", 0, 15, NULL},
    {"len", "2", "data flits per packet (reduce: at most red_flits)", 0, 7, NULL},
    {"bytes", "0", "bcast, allgather: M bytes from each sender, in packets of len flits (16 bytes each); 0: one packet. reduce, allreduce: each PE's bytes, in operations of len data flits (with values: of the values, lane / 8 bytes each), and the report's link rate. impl = p2p: every workload's message (allgather: a rank's block), in flits of 16 bytes", 0, 1L << 30, NULL},
    {"op", "sum", "reduce operation (by name, or its number TC_OP_* of cmodel/format.def)", 0, 0, tc_op_names},
    {"lane", "32", "reduce lane width in bits (or 0 for 32, 1 for 64)", 0, 0, lanes},
    {"values", "none", "op = fsum, min, max: the PEs' floating-point values (docs/fpsum.md), a function of (seed, node, index); lane 64: binary64, 32: binary32; fsum: each value a binned element of 2 flits, len / 2 to a packet; min, max: fmin, fmax, each value a key in a lane, len x 128 / lane to a packet; one reduce per packet", 0, 0, valdists},
    {"fsum_pass", "1", "values with op = fsum, workload = allreduce: 1, binned elements (one pass); 2, the exponents' maximum first (MAX, 4 a flit), then a 128-bit fixed-point word a value (SUM, one a flit): for long vectors, other bits than one pass's (docs/fpsum.md)", 1, 2, NULL},
    {"values_out", "", "values: write each PE's values and results here, a line each: '<node> in <hex> ...', '<node> out <hex> ...'", 1, 0, NULL},
    {"dst", "-1", "reduce destination node (-1: the tree's root)", -1, 65535, NULL},
    {"barrier", "half", "multiphase barrier: half (K phases) or full (2K)", 0, 0, modes},
    {"barrier_k", "0", "K (0: the torus diameter)", 0, 4095, NULL},
    {"repeat", "1", "operations, back to back", 1, 1000000, NULL},
    {"window", "1", "1: one operation at a time; 2..red_rids x trees: a stream (allreduce, tree_barrier), a PE starts operation i with the result of i - window", 1, TC_WL_WINDOW_MAX, NULL},
    {"trees", "1", "a stream's trees: operation i on tree tree + i mod trees, its ReduceIds in turn on each (the trees of one member set)", 1, TC_TREES, NULL},
    {"spmv_n", "20480000", "spmv: matrix rows N, split evenly over the nodes (docs/applications.md)", 1, 1L << 34, NULL},
    {"spmv_d", "10", "spmv: nonzeros a row", 1, 100000, NULL},
    {"heat_cells", "40960000", "heat: cells of the 2D grid, split evenly over the nodes", 1, 1L << 40, NULL},
    {"node_mflops", "0", "spmv, heat: compute rate of a node in Mflop/s (0: the paper's, 591 spmv, 11000 heat)", 0, 100000000, NULL},
    {"exact", "auto", "spmv, trace all-gathers: auto (cycle by cycle up to exact_limit flit-hops, else the steady-state model), on, off", 0, 0, exacts},
    {"exact_limit", "20000000", "link flit-hops an exact all-gather may move (p2p: 8x)", 0, 1L << 50, NULL},
    {"hw_rate", "1000", "steady-state model: flits per 1000 cycles on the subnet's busiest channel", 1, 1000, NULL},
    {"p2p_rate", "1000", "steady-state model: flits per 1000 cycles on p2p's busiest channel", 1, 1000, NULL},
    {"p2p_model", "0", "impl = p2p, allreduce and allgather: 1 times each algorithm by its steady-state model (p2p_rate; docs/p2p.md) instead of simulating it, for vectors too long to simulate", 0, 1, NULL},
    {"trace", "", "trace: the collective trace to replay (tools/pmpi, tools/tcotf2)", 1, 0, NULL},
    {"map", "", "trace: rank to node map, node of rank r on line r (default: rank r on node r)", 1, 0, NULL},
    {"max_cycles", "100000000", "give up after this many cycles", 1, 4000000000L, NULL},
    TC_PROGRESS_KEY,
    {"csv", "", "write per-operation, per-node and per-link results here (three files: .ops.csv, .nodes.csv, .links.csv)", 1, 0, NULL},
    {"json", "", "write a summary here", 1, 0, NULL},
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* The workloads, one entry each: what it is, the keys of its own that apply to it (the
 * keys that apply to every workload, topo, the network's parameters, table, seed,
 * max_cycles, json ..., are in none), how it is built and run, and its point-to-point
 * plan. A key that some workload has and the chosen one has not is refused, naming the
 * workloads it is for. A new workload: its kind (cmodel/netsim/workload.h), its name
 * (workload.c), its entry here and its own code. */
#define COLL "impl engine repeat csv mcast sw_overhead p2p_alg o g red_mcyc " /* every collective's */
#define APP_P2P "p2p_alg o g red_mcyc " /* the applications' point-to-point side: the MPI algorithms */
#define EXACT "exact exact_limit hw_rate p2p_rate " /* an application's all-gathers */
enum { TREES_NONE, TREES_STREAM, TREES_NODES };       /* which trees a collective uses */
enum { P2P_COLL, P2P_APP };
typedef struct {
    const char *desc; /* a line for --list */
    const char *keys; /* its own keys, each followed by a blank */
    int app;          /* 1: an application (cmodel/netsim/apps.c, tc_app_main), not run by tc_wl_run */
    int trees;        /* TREES_NONE; TREES_STREAM: tree .. tree + trees - 1; TREES_NODES: node k on tree k % 16 */
    /* its packet-level engine (exact where refuse says NULL), or NULL */
    const char *(*pkt_refuse)(const tc_params *p, const tc_workload *w);
    int (*pkt_run)(const tc_params *p, const tc_topo *t, const tc_row *rows, const tc_workload *w, tc_wl_result *res,
                   uint64_t *link_flits);
    int p2p;          /* P2P_COLL: impl = p2p runs one operation of software collectives (cmodel/netsim/p2p_coll.c),
                         repeat times; P2P_APP: the application times both networks itself */
} wl_desc;

static const wl_desc workloads[TC_WL_KINDS] = {
    [TC_WL_BCAST] = {"the root's PE of `tree` broadcasts len data flits (bytes: M bytes in packets of len flits)",
                     COLL "tree len bytes ", 0, TREES_STREAM, tc_pkt_bcast_refuse, tc_pkt_bcast_run, P2P_COLL},
    [TC_WL_REDUCE] = {"every PE of `tree` contributes len data flits, the result to dst (bytes: a long reduce)",
                      COLL "tree len bytes op lane values values_out dst ", 0, TREES_STREAM, NULL, NULL, P2P_COLL},
    [TC_WL_ALLREDUCE] = {"every PE of `tree` contributes, the result to every PE (bytes: a long one; window: a stream)",
                         COLL "tree len bytes op lane values fsum_pass values_out window trees p2p_model p2p_rate ", 0, TREES_STREAM, NULL, NULL,
                         P2P_COLL},
    [TC_WL_BARRIER] = {"every PE enters a multiphase barrier (barrier: half or full; barrier_k phases)",
                       COLL "barrier barrier_k ", 0, TREES_NONE, NULL, NULL, P2P_COLL},
    [TC_WL_TREE_BARRIER] = {"a barrier as an allreduce without data (AND) on `tree` (window: a stream)",
                            COLL "tree window trees ", 0, TREES_STREAM, NULL, NULL, P2P_COLL},
    [TC_WL_ALLGATHER] = {"every PE broadcasts len data flits (bytes: M bytes), node k on tree k mod 16",
                         COLL "len bytes p2p_model p2p_rate ", 0, TREES_NODES, tc_pkt_allgather_refuse, tc_pkt_allgather_run, P2P_COLL},
    [TC_WL_SPMV] = {"application: sparse matrix-vector products, all-gathers of the vector (docs/applications.md)",
                    APP_P2P EXACT "spmv_n spmv_d node_mflops ", 1, TREES_NONE, NULL, NULL, P2P_APP},
    [TC_WL_HEAT] = {"application: a 2D heat equation, halo exchanges and an allreduce a step (docs/applications.md)",
                    APP_P2P "heat_cells node_mflops ", 1, TREES_NONE, NULL, NULL, P2P_APP},
    [TC_WL_TRACE] = {"replays a collective trace (tools/pmpi, tools/tcotf2) on the subnet and on point-to-point",
                     EXACT "o g red_mcyc trace map ", 1, TREES_NONE, NULL, NULL, P2P_APP},
};

/* Whether key is one of the blank-separated keys of list. */
static int in_list(const char *list, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = list; (p = strstr(p, key)); p += n)
        if ((p == list || p[-1] == ' ') && p[n] == ' ')
            return 1;
    return 0;
}

static void list_workloads(FILE *f)
{
    for (int k = 0; k < TC_WL_KINDS; k++)
        fprintf(f, "%-13s %s\n", tc_wl_names[k], workloads[k].desc);
}

static tc_config cfg; /* the values of keys[] */

static long ival(const char *k) { return tc_config_int(&cfg, k); }
static const char *sval(const char *k) { return tc_config_str(&cfg, k); }

/* Opens an output file before the run, so a path that cannot be written stops it at once. */
static FILE *open_out(const char *key, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "tcnet: %s: cannot write '%s': %s\n", key, path, strerror(errno));
    return f;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* More words on a configuration error. */
static const char *hint(const char *err)
{
    if (strstr(err, "window = '"))
        return " (the operations a PE has in flight: at least 1; a tree's operations take its ReduceIds in turn, so more"
               " than red_rids a tree would reuse a ReduceId still in flight)";
    return "";
}

/* The products of configuration values a run forms must fit their types; a value
 * whose products would not is refused before the run, in the parser's words, with
 * the range that fits on this torus. n nodes; packets: a sender's of one operation. */
static int too_big(const char *key, uint64_t max, const char *why)
{
    uint64_t v = (uint64_t)ival(key);
    if (v <= max)
        return 0;
    fprintf(stderr, "tcnet: %s = '%s' is not an integer in %ld..%" PRIu64 " (%s)\n", key, sval(key),
            keys[tc_config_find(&cfg, key)].min, max, why);
    return 1;
}

/* spmv with N rows on n nodes: 8-byte elements, ceil(N / n) a node, in flits of 16
 * bytes and packets of 7 flits; whether the products fit: the exact all-gather's
 * deliveries a node (packets x (n - 1), 32 bits), the point-to-point all-gather's
 * largest message (flits x n / 2, an int) and the packets' flits (an int). */
static int spmv_fits(uint64_t nrows, uint64_t n)
{
    uint64_t part = (nrows + n - 1) / n, flits = (8 * part + 15) / 16, packets = (flits + 6) / 7;
    return packets * (n - 1) <= UINT32_MAX && flits * (n / 2 > 1 ? n / 2 : 1) <= (uint64_t)INT32_MAX - 8 &&
           packets <= (uint64_t)INT32_MAX / TC_SLOT_FLITS;
}

static int check_sizes(const tc_topo *t, const tc_workload *w)
{
    char why[200];
    uint64_t n = (uint64_t)t->n, len = (uint64_t)w->len;
    int ag = w->kind == TC_WL_ALLGATHER;
    if ((w->kind == TC_WL_BCAST || ag) && len) {
        /* a node's deliveries of one operation: packets (x n - 1 senders for an
         * allgather) in 32 bits (cmodel/netsim/workload.c, the packet engines) */
        uint64_t from = ag && n > 1 ? n - 1 : 1, packets_max = UINT32_MAX / from;
        snprintf(why, sizeof why, "with %d nodes and len = %d: at most %" PRIu64 " packets of %d flits to a node in one "
                 "operation", t->n, w->len, packets_max * from, w->len);
        if (too_big("bytes", packets_max * 16 * len, why))
            return 1;
    }
    /* over the run: deliveries (a node's x n) and a PE's payload bytes x repeat in 64 bits */
    uint64_t packets = w->packets > 1 ? (uint64_t)w->packets : 1;
    uint64_t per_op = packets * (ag ? n : 1) * n * (len * 16 > 1 ? len * 16 : 1);
    snprintf(why, sizeof why, "with %d nodes: the run's deliveries and bytes a PE receives, over every operation, "
             "in 64 bits", t->n);
    if (too_big("repeat", UINT64_MAX / per_op, why))
        return 1;
    if (w->kind == TC_WL_SPMV) {
        uint64_t lo = 1, hi = (uint64_t)keys[tc_config_find(&cfg, "spmv_n")].max; /* the largest that fits */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo + 1) / 2;
            if (spmv_fits(mid, n))
                lo = mid;
            else
                hi = mid - 1;
        }
        snprintf(why, sizeof why, "with %d nodes: a node's part in packets, the all-gathers' messages and "
                 "deliveries must fit their 32-bit counts", t->n);
        if (too_big("spmv_n", lo, why))
            return 1;
    }
    return 0;
}

static double clock_s(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double now_s(void) { return clock_s(CLOCK_MONOTONIC); }
static double cpu_s(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

/* The progress bar, on stderr at most 4 times a second: deliveries (the share done),
 * simulated cycles and their rate, operations, and the time left at that rate. */
typedef struct {
    double t0, shown;
} bar;

static void progress(void *ctx, const tc_wl_progress *p)
{
    bar *b = ctx;
    double now = now_s(), el = now - b->t0, f = p->due ? (double)p->delivered / (double)p->due : 1.0;
    int end = p->ops_done == p->ops;
    if (!end && now - b->shown < 0.25)
        return;
    b->shown = now;
    int w = 30, fill = (int)(f * w);
    fprintf(stderr, "\r[%.*s%*s] %llu/%llu deliveries, cycle %llu (%.2f M cycles/s), operation %d/%d, %.0f s", fill,
            "##############################", w - fill, "", (unsigned long long)p->delivered,
            (unsigned long long)p->due, (unsigned long long)p->cycle, el > 0 ? (double)p->cycle / el * 1e-6 : 0.0,
            p->ops_done, p->ops, el);
    if (end)
        fputs("            \n", stderr);
    else if (f > 0.01)
        fprintf(stderr, ", ~%.0f s left  ", el * (1.0 - f) / f);
    else
        fputs("            ", stderr);
}

/* A network of routers with the table set rows loaded (NULL, said on stderr, if it
 * cannot be made): engine = auto's cycle-exact model where the packet engine is not. */
static tc_net *net_with_rows(const tc_params *p, const tc_topo *t, const tc_row *rows)
{
    char err[256];
    tc_net *n = tc_net_new(p, err, sizeof err);
    if (!n) {
        fprintf(stderr, "tcnet: %s\n", err);
        return NULL;
    }
    for (int k = 0; k < t->n; k++)
        for (int tree = 0; tree < TC_TREES; tree++)
            tc_net_cfg(n, k, tree, TC_ROWP(rows, k, tree));
    return n;
}

/* The Reducer slices' account of a run (tc_red_stats): the busiest slice's busy
 * cycles and where it is, the busiest node's (its slices' mean: its work spread evenly
 * over them), the mean over every slice, the results and those held. */
typedef struct {
    tc_red_stats st; /* summed over the slices */
    uint64_t busiest, busy, held; /* busy, held: summed over the slices */
    double mean_busy, node_busy;
    int node, slice;
} red_acct;

static void red_account(const tc_net *n, red_acct *a)
{
    const tc_topo *t = tc_net_topo(n);
    int ns = tc_net_params(n)->red_slices;
    memset(a, 0, sizeof *a);
    for (int k = 0; k < t->n; k++) {
        uint64_t nb = 0;
        for (int s = 0; s < ns; s++) {
            tc_red_stats x = tc_net_red_stats(n, k, s);
            nb += x.busy;
            if (x.busy > a->busiest) {
                a->busiest = x.busy;
                a->node = k;
                a->slice = s;
            }
            a->busy += x.busy;
            a->st.results += x.results;
            a->st.held_root += x.held_root;
            a->st.held_room += x.held_room;
            a->st.held_credit += x.held_credit;
            a->st.held_turn += x.held_turn;
        }
        a->node_busy = (double)nb / ns > a->node_busy ? (double)nb / ns : a->node_busy;
    }
    a->mean_busy = (double)a->busy / ((double)t->n * ns);
    a->held = a->st.held_root + a->st.held_room + a->st.held_credit + a->st.held_turn;
}

/* The PEs taking part in tree's operations. */
static int pe_members(const tc_topo *t, const tc_row *rows, int tree)
{
    int m = 0;
    for (int k = 0; k < t->n; k++)
        m += TC_RGET(TC_ROWP(rows, k, tree), VALID) && TC_RGET(TC_ROWP(rows, k, tree), PE);
    return m;
}

/* The sum in two passes (fsum_pass = 2, docs/fpsum.md): the exponent keys' allreduce
 * (MAX), then from the cycle after its last result the words' (SUM) on the same trees,
 * whose ReduceIds go on from the keys' (pass 1 gives every tree as many reduces). One
 * result of both: the keys' operations, then the words'; w->repeat becomes their sum. */
static int run_two_pass(tc_net *n, const tc_row *rows, tc_workload *w, tc_fpvec *fv, tc_wl_result *res,
                        tc_wl_progress_fn pf, void *ctx)
{
    tc_workload w1, w2;
    tc_wl_result r2;
    tc_fpvec_two_pass(w, fv->nvals, tc_net_params(n)->red_rids, &w1, &w2);
    int rc = tc_wl_run(n, rows, &w1, res, pf, ctx);
    if (rc || fv->err[0] || tc_fpvec_pass(fv, 2, w->len, w->trees)) {
        if (!rc)
            snprintf(res->msg, sizeof res->msg, "%s", fv->err[0] ? fv->err : "out of memory");
        w->repeat = w1.repeat;
        return -1;
    }
    rc = tc_wl_run(n, rows, &w2, &r2, pf, ctx);
    size_t nn = (size_t)tc_net_topo(n)->n, r = (size_t)w1.repeat + (size_t)w2.repeat;
    tc_op_result *op = realloc(res->op, r * sizeof *op);
    uint64_t *done = realloc(res->node_done, r * nn * sizeof *done);
    if (op)
        res->op = op;
    if (done)
        res->node_done = done;
    if (!op || !done) {
        snprintf(res->msg, sizeof res->msg, "out of memory");
        tc_wl_result_free(&r2);
        return -1;
    }
    memcpy(op + w1.repeat, r2.op, (size_t)w2.repeat * sizeof *op);
    memcpy(done + (size_t)w1.repeat * nn, r2.node_done, (size_t)w2.repeat * nn * sizeof *done);
    res->cycles += r2.cycles;
    res->errors += r2.errors;
    if (rc)
        memcpy(res->msg, r2.msg, sizeof res->msg);
    tc_wl_result_free(&r2);
    w->repeat = (int)r;
    return rc;
}

int main(int argc, char **argv)
{
    char err[256];
    int rc = 0; /* set by every run below (initialised for GCC -O1 with the sanitizers, which cannot tell) */
    if (tc_config_init(&cfg, keys, NKEYS)) {
        fprintf(stderr, "tcnet: out of memory\n");
        return 2;
    }
    static const tc_cli cli = {"tcnet", "[CONFIG_FILE] [--key value | --key=value | key=value ...] [--list] [--help]", 0,
                               1, list_workloads, hint};
    int cr = tc_config_cli(&cfg, &cli, argc, argv);
    if (cr)
        return cr == 1 ? 0 : 2;
    for (int k = 0; k < TC_WL_KINDS; k++) /* every workload described */
        if (!workloads[k].desc) {
            fprintf(stderr, "tcnet: workload %s has no entry in the table\n", tc_wl_names[k]);
            return 2;
        }
    const wl_desc *wl = &workloads[tc_config_enum(&cfg, "workload")];
    /* A key of some workloads' given to another is refused, naming those it is for. */
    for (size_t i = 0; i < NKEYS; i++) {
        if (!cfg.from[i] || in_list(wl->keys, keys[i].key))
            continue;
        char for_[256] = "";
        size_t o = 0;
        for (int k = 0; k < TC_WL_KINDS && o < sizeof for_; k++)
            if (in_list(workloads[k].keys, keys[i].key))
                o += (size_t)snprintf(for_ + o, sizeof for_ - o, "%s%s", o ? ", " : "", tc_wl_names[k]);
        if (o) {
            fprintf(stderr, "tcnet: %s = '%s' does not apply to workload = %s: %s is for workload = %s\n", keys[i].key,
                    cfg.val[i], sval("workload"), keys[i].key, for_);
            return 2;
        }
    }
    int p2p = tc_config_enum(&cfg, "impl"), engine = tc_config_enum(&cfg, "engine");
    uint64_t seed;
    if (tc_config_seed(&cfg, &seed))
        return 2;
    if (tc_config_given(&cfg, "members") && strcmp(sval("table"), "planner") && tc_plan_find(sval("table")) < 0) {
        fprintf(stderr, "tcnet: members = %s does not apply to table = '%s': it is for the planner's tables (planner, "
                "spread, random, testbench, members)\n", sval("members"), sval("table"));
        return 2;
    }
    if (tc_config_given(&cfg, "exact_limit") && tc_config_enum(&cfg, "exact")) {
        fprintf(stderr, "tcnet: exact_limit = %s does not apply to exact = %s: it is for exact = auto\n",
                sval("exact_limit"), sval("exact"));
        return 2;
    }
    static const char *const hw_keys[] = {"engine", "mcast"};
    for (size_t i = 0; i < 2 && p2p; i++)
        if (tc_config_given(&cfg, hw_keys[i])) {
            fprintf(stderr, "tcnet: %s = %s does not apply to impl = p2p: it is for impl = hw (the collective subnet)\n",
                    hw_keys[i], sval(hw_keys[i]));
            return 2;
        }

    tc_params p;
    tc_topo topo;
    tc_params_default(&p);
    if (tc_topo_parse(sval("topo"), &topo, err, sizeof err)) {
        fprintf(stderr, "tcnet: %s\n", err);
        return 2;
    }
    p.ndims = topo.ndims;
    for (int d = 0; d < TC_MAX_DIMS; d++)
        p.size[d] = topo.size[d];
    /* Outputs first: a path that cannot be written stops before the run. */
    FILE *out[4] = {NULL, NULL, NULL, NULL}, **csv = out, *json = NULL; /* .ops, .nodes, .links.csv, json */
    char out_path[4][TC_VAL_MAX + 16];
    static const char *const csv_ext[3] = {"ops", "nodes", "links"};
    for (int i = 0; i < 3 && *sval("csv"); i++) {
        snprintf(out_path[i], sizeof out_path[i], "%s.%s.csv", sval("csv"), csv_ext[i]);
        if (!(csv[i] = open_out("csv", out_path[i])))
            return 2;
    }
    snprintf(out_path[3], sizeof out_path[3], "%s", sval("json"));
    if (*sval("json") && !(json = out[3] = open_out("json", out_path[3])))
        return 2;
    tc_params_from_config(&p, &cfg);
    p.mcast = tc_config_enum(&cfg, "mcast");
    double t0 = now_s();
    /* the packet-level engine of the workload, if it has one: forced, or (auto) where it is exact; it runs without
     * a network of routers */
    int packet = !p2p && wl->pkt_run && engine != ENGINE_CYCLE;
    tc_net *n = packet ? NULL : tc_net_new(&p, err, sizeof err);
    if (!n && !packet) {
        fprintf(stderr, "tcnet: %s\n", err);
        return 2;
    }
    const tc_topo *t = n ? tc_net_topo(n) : &topo;
    tc_row *rows = calloc((size_t)t->n * TC_TREES, sizeof *rows);
    int variant = !strcmp(sval("table"), "planner") ? TC_PLAN_SPREAD : tc_plan_find(sval("table"));
    if (variant >= 0) {
        tc_plan plan = {.variant = (tc_plan_variant)variant, .seed = seed, .members = (int)ival("members")};
        if (!rows || tc_plan_table(t, rows, &plan)) {
            fprintf(stderr, "tcnet: out of memory for the table of %d nodes\n", t->n);
            return 2;
        }
    } else {
        FILE *f = fopen(sval("table"), "r");
        if (!f) {
            fprintf(stderr, "tcnet: table = '%s': %s\n", sval("table"), strerror(errno));
            return 2;
        }
        int bad = tc_table_load(t, rows, f, err, sizeof err);
        fclose(f);
        if (bad) {
            fprintf(stderr, "tcnet: table = '%s': %s\n", sval("table"), err);
            return 2;
        }
    }
    for (int k = 0; k < t->n && n; k++)
        for (int tree = 0; tree < TC_TREES; tree++)
            tc_net_cfg(n, k, tree, TC_ROWP(rows, k, tree));

    tc_workload w = {0};
    w.kind = (tc_wl_kind)tc_config_enum(&cfg, "workload");
    w.tree = (int)ival("tree");
    w.len = (int)ival("len");
    w.op = tc_config_enum(&cfg, "op");
    w.lane = tc_config_enum(&cfg, "lane");
    w.dst = (int)ival("dst");
    if (w.dst < 0)
        w.dst = tc_tree_root(t, rows, w.tree);
    w.bar_mode = (tc_config_enum(&cfg, "barrier") ? TC_BAR_FULL : 0) | (ival("barrier_k") ? 0 : TC_BAR_DIAM);
    w.bar_k = (int)ival("barrier_k");
    w.repeat = (int)ival("repeat");
    w.window = (int)ival("window");
    w.trees = (int)ival("trees");
    if (ival("bytes") && w.len)
        w.packets = (int)((ival("bytes") + 16 * w.len - 1) / (16 * w.len));
    w.max_cycles = (uint64_t)ival("max_cycles");
    /* A tree the table does not configure would run nothing and report latency 0. */
    if (w.window > p.red_rids * w.trees || w.tree + w.trees > TC_TREES) {
        fprintf(stderr, "tcnet: window = %d, trees = %d from tree = %d: at most red_rids = %d operations in flight a "
                "tree (window <= red_rids x trees), on trees up to 15\n", w.window, w.trees, w.tree, p.red_rids);
        return 2;
    }
    if (w.trees > 1 && w.window < 2) {
        fprintf(stderr, "tcnet: trees = %d: the trees are a stream's (window >= 2)\n", w.trees);
        return 2;
    }
    int ntrees = wl->trees == TREES_NONE ? 0 : wl->trees == TREES_STREAM ? w.trees : t->n < TC_TREES ? t->n : TC_TREES;
    for (int i = 0; i < ntrees; i++) { /* allgather: node k broadcasts on tree k % 16 */
        int tree = wl->trees == TREES_NODES ? i : w.tree + i;
        if (tc_tree_root(t, rows, tree) < 0) {
            fprintf(stderr, "tcnet: workload = %s uses tree %d, which no row of table = '%s' configures\n",
                    tc_wl_names[w.kind], tree, sval("table"));
            return 2;
        }
    }
    if (w.kind == TC_WL_REDUCE && w.dst >= t->n) {
        fprintf(stderr, "tcnet: dst = %d is not a node of the %d-node torus\n", w.dst, t->n);
        return 2;
    }
    if (w.window > 1 && (tc_config_enum(&cfg, "impl") || (w.kind != TC_WL_ALLREDUCE && w.kind != TC_WL_TREE_BARRIER))) {
        fprintf(stderr, "tcnet: window = %d: a stream is of workload = allreduce or tree_barrier with impl = hw, not "
                "workload = %s, impl = %s\n", w.window, tc_wl_names[w.kind], sval("impl"));
        return 2;
    }
    int p2p_rule = tc_config_enum(&cfg, "p2p_alg");
    tc_p2p_alg p2p_one = p2p_rule >= P2P_RULES ? (tc_p2p_alg)(p2p_rule - P2P_RULES + 1) : TC_P2P_CLASSIC;
    static const char *const p2p_keys[] = {"p2p_alg", "o", "g", "red_mcyc", "sw_overhead"};
    for (size_t i = 0; i < 5 && !wl->app && !p2p; i++)
        if (cfg.from[tc_config_find(&cfg, p2p_keys[i])]) {
            fprintf(stderr, "tcnet: %s = %s applies to impl = p2p, not impl = %s\n", p2p_keys[i], sval(p2p_keys[i]),
                    sval("impl"));
            return 2;
        }
    for (size_t i = 1; i < 4 && p2p_rule == 0 && !wl->app; i++)
        if (cfg.from[tc_config_find(&cfg, p2p_keys[i])]) {
            fprintf(stderr, "tcnet: %s = %s applies to the MPI algorithms, not p2p_alg = classic (which has "
                    "sw_overhead); give p2p_alg = auto, ompi, mpich or an algorithm's name\n", p2p_keys[i],
                    sval(p2p_keys[i]));
            return 2;
        }
    if (p2p_rule && !wl->app && tc_config_given(&cfg, "sw_overhead")) {
        fprintf(stderr, "tcnet: sw_overhead = %s does not apply to p2p_alg = %s: it is for p2p_alg = classic (the MPI "
                "algorithms have o, g)\n", sval("sw_overhead"), sval("p2p_alg"));
        return 2;
    }
    int p2p_model = (int)ival("p2p_model");
    if ((p2p_model || tc_config_given(&cfg, "p2p_rate")) && !wl->app && (!p2p || !p2p_rule)) {
        fprintf(stderr, "tcnet: %s = %s applies to impl = p2p with the MPI algorithms (p2p_alg = auto, ompi, mpich or "
                "one by name), not impl = %s, p2p_alg = %s\n", p2p_model ? "p2p_model" : "p2p_rate",
                sval(p2p_model ? "p2p_model" : "p2p_rate"), sval("impl"), sval("p2p_alg"));
        return 2;
    }
    if (tc_config_given(&cfg, "p2p_rate") && !wl->app && !p2p_model) {
        fprintf(stderr, "tcnet: p2p_rate = %s is the steady-state model's: give p2p_model = 1\n", sval("p2p_rate"));
        return 2;
    }
    if (p2p_rule >= P2P_RULES && !wl->app && !tc_p2p_alg_fits(p2p_one, w.kind, t->n)) {
        if (tc_p2p_alg_fits(p2p_one, w.kind, 1)) {
            fprintf(stderr, "tcnet: p2p_alg = %s needs a power of two of nodes, not %d\n", sval("p2p_alg"), t->n);
            return 2;
        }
        fprintf(stderr, "tcnet: p2p_alg = %s is not an algorithm of workload = %s (its algorithms:",
                sval("p2p_alg"), tc_wl_names[w.kind]);
        for (int a = 1; a < TC_P2P_ALGS; a++)
            if (tc_p2p_alg_ops((tc_p2p_alg)a) & (1u << w.kind))
                fprintf(stderr, " %s", tc_p2p_alg_names[a]);
        fprintf(stderr, "; or classic, auto, ompi, mpich)\n");
        return 2;
    }
    if ((w.kind == TC_WL_REDUCE || w.kind == TC_WL_ALLREDUCE) && w.len > p.red_flits) {
        fprintf(stderr, "tcnet: len = %d is more than the Reducer holds (red_flits = %d)\n", w.len, p.red_flits);
        return 2;
    }
    tc_fpvec fv = {0};
    FILE *vout = NULL;
    int vdist = tc_config_enum(&cfg, "values");
    /* a long reduction: bytes a PE, cut into operations (of len data flits, or len / 2
     * values), reported as a fraction of a link's rate, bytes / (16 x cycles) */
    uint64_t long_bytes = (w.kind == TC_WL_REDUCE || w.kind == TC_WL_ALLREDUCE) && !tc_config_enum(&cfg, "impl") ?
                          (uint64_t)ival("bytes") : 0;
    if (long_bytes && !vdist) {
        if (cfg.from[tc_config_find(&cfg, "repeat")] || !w.len) {
            fprintf(stderr, "tcnet: bytes = %" PRIu64 ": the operations are the bytes' (bytes / (16 x len)): give bytes "
                    "and len >= 1, not repeat\n", long_bytes);
            return 2;
        }
        if ((long_bytes + 16u * (unsigned)w.len - 1) / (16u * (unsigned)w.len) > 1000000) {
            fprintf(stderr, "tcnet: bytes = %" PRIu64 ": more than 1000000 operations of len = %d\n", long_bytes, w.len);
            return 2;
        }
        w.repeat = (int)((long_bytes + 16u * (unsigned)w.len - 1) / (16u * (unsigned)w.len));
    }
    int fsum2 = ival("fsum_pass") == 2;
    if (fsum2 && (!vdist || w.op != TC_OP_FSUM)) {
        fprintf(stderr, "tcnet: fsum_pass = 2 is for values with op = fsum (not values = %s, op = %s)\n", sval("values"),
                sval("op"));
        return 2;
    }
    if (*sval("values_out") && !vdist) {
        fprintf(stderr, "tcnet: values_out = '%s' needs values = uniform, wide, cancel or special\n", sval("values_out"));
        return 2;
    }
    if (vdist) { /* a vector of floating-point values: one reduce per packet of them */
        unsigned vbytes = w.lane == TC_LANE_32 ? 4 : 8;
        unsigned per = fsum2 ? (unsigned)w.len : tc_fpvec_per((unsigned)w.op, (unsigned)w.lane, w.len); /* a word a flit */
        long bytes = ival("bytes");
        if ((w.op != TC_OP_FSUM && w.op != TC_OP_MIN && w.op != TC_OP_MAX) ||
            (w.kind != TC_WL_REDUCE && w.kind != TC_WL_ALLREDUCE) || tc_config_enum(&cfg, "impl")) {
            fprintf(stderr, "tcnet: values = %s is for op = fsum, min or max (fmin, fmax on keys), workload = reduce or "
                    "allreduce, impl = hw (not op = %s, workload = %s, impl = %s)\n", sval("values"), sval("op"),
                    sval("workload"), sval("impl"));
            return 2;
        }
        if (w.op == TC_OP_FSUM && !fsum2 && (w.len < 2 || w.len % 2)) {
            fprintf(stderr, "tcnet: values: len = %d must be even and at least 2 (an element is 2 flits)\n", w.len);
            return 2;
        }
        if (!per) {
            fprintf(stderr, "tcnet: values: len = %d must be at least 1\n", w.len);
            return 2;
        }
        if (bytes % vbytes) {
            fprintf(stderr, "tcnet: values: bytes = %ld is not a multiple of a lane-%s value's %u bytes\n", bytes,
                    sval("lane"), vbytes);
            return 2;
        }
        if (cfg.from[tc_config_find(&cfg, "repeat")]) {
            fprintf(stderr, "tcnet: values: the operations are the values' (bytes / (%u x %u)); give bytes, not "
                    "repeat\n", per, vbytes);
            return 2;
        }
        uint8_t *mem = malloc((size_t)t->n);
        for (int k = 0; mem && k < t->n; k++) {
            tc_row r = TC_ROWP(rows, k, w.tree);
            mem[k] = TC_RGET(r, VALID) && TC_RGET(r, PE);
        }
        uint64_t nvals = bytes ? (uint64_t)bytes / vbytes : per;
        if (!mem || tc_fpvec_init(&fv, (unsigned)w.op, (unsigned)w.lane, (unsigned)vdist - 1, seed,
                                  (uint32_t)t->n, nvals, per, mem)) {
            fprintf(stderr, "tcnet: out of memory for %" PRIu64 " values on each of %d nodes\n", nvals, t->n);
            return 2;
        }
        free(mem);
        int prc = fsum2 ? tc_fpvec_pass(&fv, 1, w.len, w.trees) : 0;
        if (prc) {
            if (prc == -1)
                fprintf(stderr, "tcnet: out of memory for the keys of %" PRIu64 " values on each of %d nodes\n", nvals,
                        t->n);
            else
                fprintf(stderr, "tcnet: fsum_pass = 2: more than 2^%d PEs in tree %d, the words' headroom (docs/fpsum.md)"
                        "\n", TC_FPS2_MAX_H, w.tree);
            return 2;
        }
        if (*sval("values_out") && !(vout = open_out("values_out", sval("values_out"))))
            return 2;
        uint64_t vops = tc_fpvec_ops(&fv) + (fsum2 ? tc_fpvec_two_pass_ops(2, nvals, w.len, w.trees) : 0);
        if (vops > 1000000) {
            fprintf(stderr, "tcnet: values: %" PRIu64 " operations, more than 1000000\n", vops);
            return 2;
        }
        w.repeat = (int)tc_fpvec_ops(&fv);
        w.data = tc_fpvec_data;
        w.data_ctx = &fv;
        w.deliver = tc_fpvec_deliver;
        w.deliver_ctx = &fv;
    }
    if (check_sizes(t, &w))
        return 2;
    if (wl->app) { /* the applications (cmodel/netsim/apps.c) */
        rc = tc_app_main(&cfg, n, rows, json);
        if (json && (ferror(json) | fclose(json))) {
            fprintf(stderr, "tcnet: json: writing '%s' failed: %s\n", out_path[3], strerror(errno));
            rc = 1;
        }
        free(rows);
        tc_net_free(n);
        return rc;
    }
    const char *why = wl->pkt_refuse ? wl->pkt_refuse(&p, &w) : "it has no packet-level engine";
    if (engine == ENGINE_PACKET && (p2p || why)) {
        fprintf(stderr, "tcnet: engine = packet is exact for workload = bcast or allgather with impl = hw and mcast = passes only; "
                "not for workload = %s, impl = %s, mcast = %s%s%s\n", tc_wl_names[w.kind], sval("impl"), sval("mcast"),
                why ? ": " : "", why ? why : "");
        return 2;
    }
    if (packet && why) { /* auto, where the packet engine is not exact: the cycle-exact model */
        packet = 0;
        if (!(n = net_with_rows(&p, t, rows)))
            return 2;
    }
    double t1 = now_s(), c1 = cpu_s();
    bar start = {now_s(), 0.0};
    tc_wl_result res;
    red_acct acct = {0};
    int np = 2 * t->ndims;
    uint64_t *lf = calloc((size_t)t->n * (size_t)np, sizeof *lf); /* flits per link */
    if (!lf) {
        fprintf(stderr, "tcnet: out of memory\n");
        return 2;
    }
    tc_p2p_alg p2p_pick = TC_P2P_CLASSIC; /* the algorithm run; with auto, every one's time */
    const char *p2p_lib = NULL;           /* ompi, mpich: the library's own name of its pick */
    uint64_t p2p_t[TC_P2P_ALGS];
    for (int a = 0; a < TC_P2P_ALGS; a++)
        p2p_t[a] = UINT64_MAX;
    if (p2p && wl->p2p == P2P_COLL) { /* the point-to-point baseline: one operation, timed alone */
        tc_p2p m;
        if (tc_p2p_init(&m, &p, (uint64_t)ival("sw_overhead"), err, sizeof err)) {
            fprintf(stderr, "tcnet: %s\n", err);
            return 2;
        }
        m.cost = (tc_p2p_loggp){(uint64_t)ival("o"), (uint64_t)ival("o"), (uint64_t)ival("g"), (uint64_t)ival("red_mcyc")};
        memset(&res, 0, sizeof res);
        res.op = calloc((size_t)w.repeat, sizeof *res.op);
        res.node_done = calloc((size_t)w.repeat * (size_t)t->n, sizeof *res.node_done);
        int root = w.kind == TC_WL_REDUCE ? w.dst : tc_tree_root(t, rows, w.tree);
        /* the message: bytes in flits of 16 bytes, else len flits */
        int p2p_len = ival("bytes") ? (int)((ival("bytes") + 15) / 16) : w.len;
        uint64_t p2p_bytes = ival("bytes") ? (uint64_t)ival("bytes") : 16u * (uint64_t)w.len, end;
        p2p_pick = p2p_one;
        if (p2p_rule == 2 || p2p_rule == 3)
            p2p_pick = (p2p_rule == 2 ? tc_p2p_pick_ompi : tc_p2p_pick_mpich)(w.kind, t->n, p2p_bytes, &p2p_lib);
        if (p2p_model) { /* each algorithm (auto: every one that fits) by its steady-state model, the fastest */
            for (int a = 1; a < TC_P2P_ALGS; a++) {
                tc_p2p_est e;
                if ((p2p_rule == 1 ? !tc_p2p_alg_fits((tc_p2p_alg)a, w.kind, t->n) : a != (int)p2p_pick))
                    continue;
                if (tc_p2p_coll_model(&m, (tc_p2p_alg)a, w.kind, p2p_len, t->n, (double)ival("p2p_rate") / 1000.0,
                                      &e)) {
                    fprintf(stderr, "tcnet: %s\n", m.err);
                    return 2;
                }
                p2p_t[a] = e.model;
                if (p2p_rule != 1 || p2p_t[a] < p2p_t[p2p_pick])
                    p2p_pick = (tc_p2p_alg)a;
            }
            end = p2p_t[p2p_pick];
        } else if (p2p_rule == 1) { /* auto: every algorithm simulated, the fastest */
            if (tc_p2p_coll_best(&m, w.kind, p2p_len, root, NULL, t->n, p2p_t, &p2p_pick, NULL, &end)) {
                fprintf(stderr, "tcnet: %s\n", m.err);
                return 2;
            }
        }
        /* the links' counts are the runs below: not auto's trials of every algorithm, nor the model's probes */
        memset(m.flits, 0, sizeof *m.flits * (size_t)t->n * (size_t)np);
        for (int i = 0; i < w.repeat; i++) {
            res.op[i].start = res.cycles;
            uint64_t *done = res.node_done + (size_t)i * (size_t)t->n;
            if (p2p_model) {
                for (int v = 0; v < t->n; v++)
                    done[v] = end;
            } else if (tc_p2p_coll(&m, p2p_pick, w.kind, p2p_len, root, NULL, t->n, done, &end)) {
                fprintf(stderr, "tcnet: %s\n", m.err);
                return 2;
            }
            for (int v = 0; v < t->n; v++) /* cycles of the whole run, as the hardware's */
                done[v] += done[v] ? res.cycles : 0;
            res.op[i].end = res.cycles + end;
            res.op[i].deliveries = (uint64_t)t->n;
            res.cycles = res.op[i].end + 1;
        }
        memcpy(lf, m.flits, sizeof *lf * (size_t)t->n * (size_t)np);
        tc_p2p_free(&m);
        rc = 0;
    } else if (packet) {
        rc = wl->pkt_run(&p, t, rows, &w, &res, lf);
        if (rc && engine == ENGINE_AUTO) { /* auto: a failed run (out of cycles, say) as the cycle-exact model has it */
            tc_wl_result_free(&res);
            packet = 0;
            if (!(n = net_with_rows(&p, t, rows)))
                return 2;
        } else if (tc_config_progress(&cfg) && !rc) {
            progress(&start, &(tc_wl_progress){res.cycles, res.op[0].deliveries * (uint64_t)w.repeat,
                                            res.op[0].deliveries * (uint64_t)w.repeat, w.repeat, w.repeat});
        }
    }
    if (!p2p && !packet) {
        rc = fsum2 ? run_two_pass(n, rows, &w, &fv, &res, tc_config_progress(&cfg) ? progress : NULL, &start)
                   : tc_wl_run(n, rows, &w, &res, tc_config_progress(&cfg) ? progress : NULL, &start);
        if (!rc && fv.err[0]) {
            snprintf(res.msg, sizeof res.msg, "%s", fv.err);
            rc = -1;
        }
        for (int k = 0; k < t->n; k++)
            for (int d = 0; d < np; d++)
                lf[(size_t)k * (size_t)np + (size_t)d] = tc_net_link_flits(n, k, d);
        red_account(n, &acct);
    }
    double t2 = now_s(), c2 = cpu_s();

    /* the table */
    double ns = 1000.0 / (double)ival("clock_mhz");
    uint64_t lo = UINT64_MAX, hi = 0, sum = 0, flits = 0, busiest = 0;
    int done_ops = 0;
    for (int i = 0; i < w.repeat; i++) {
        const tc_op_result *o = &res.op[i];
        if (!o->deliveries)
            continue;
        uint64_t l = o->end - o->start;
        lo = l < lo ? l : lo;
        hi = l > hi ? l : hi;
        sum += l;
        done_ops++;
    }
    for (size_t i = 0; i < (size_t)t->n * (size_t)np; i++) {
        flits += lf[i];
        busiest = lf[i] > busiest ? lf[i] : busiest;
    }
    /* link_util: the busiest link's flits over the run's cycles, the fraction of
     * link rate where it limits; bandwidth: the payload each receiving PE got over
     * the run's time at the clock (bytes per ns = GB/s) */
    double link_util = res.cycles ? (double)busiest / (double)res.cycles : 0.0;
    uint64_t per_pe = (uint64_t)w.len * 16u; /* payload bytes a receiver gets from one operation */
    if (w.kind == TC_WL_BCAST || w.kind == TC_WL_ALLGATHER)
        per_pe *= (uint64_t)(w.packets > 1 ? w.packets : 1);
    if (w.kind == TC_WL_ALLGATHER)
        per_pe *= (uint64_t)(t->n - 1);
    else if (w.kind == TC_WL_BARRIER || w.kind == TC_WL_TREE_BARRIER)
        per_pe = 0;
    if (tc_config_enum(&cfg, "impl") && ival("bytes") && per_pe) /* p2p: the message of bytes */
        per_pe = (uint64_t)ival("bytes") * (w.kind == TC_WL_ALLGATHER ? (uint64_t)(t->n - 1) : 1u);
    /* With window given: the throughput in steady state, operations per 1000 cycles
     * between the completions (last deliveries) of operations s0 and s1 in the middle
     * of the run, a whole number of windows apart: a stream's operations complete in
     * bursts of a window (the whole run if it has one operation) */
    int stream = cfg.from[tc_config_find(&cfg, "window")] != 0, s0 = w.repeat / 4;
    int s1 = s0 + (w.repeat / 2 >= w.window ? w.repeat / 2 / w.window * w.window : w.repeat / 2);
    double rate = res.cycles ? 1000.0 * done_ops / (double)res.cycles : 0.0;
    if (done_ops == w.repeat && res.op[s1].end > res.op[s0].end)
        rate = 1000.0 * (s1 - s0) / (double)(res.op[s1].end - res.op[s0].end);
    double run_ns = (double)res.cycles * ns, bw_pe = run_ns > 0.0 ? (double)per_pe * (double)done_ops / run_ns : 0.0;
    char name[64];
    printf("tcnet: %s torus, %d nodes, %s x %d%s\n", tc_topo_name(t, name, sizeof name), t->n, tc_wl_names[w.kind],
           w.repeat, rc ? "  FAILED" : "");
    /* A failed run's operations did not all complete: no latency, rate or bandwidth of
     * it means anything. It says why, and what it simulated. */
    if (rc) {
        printf("  FAILED: %s\n", res.msg);
        printf("  simulated %" PRIu64 " cycles, link flits %" PRIu64 " (busiest link %" PRIu64 "); no latency, "
               "link_util or bandwidth: the run failed\n", res.cycles, flits, busiest);
    } else {
        printf("  latency per operation (cycles) min %" PRIu64 "  mean %.1f  max %" PRIu64 "  (%.1f ns mean)\n",
               done_ops ? lo : 0, done_ops ? (double)sum / done_ops : 0.0, hi,
               done_ops ? ns * (double)sum / done_ops : 0.0);
        if (p2p_model) /* no packets were run: no link counts */
            printf("  modelled %" PRIu64 " cycles (the steady-state model: no link counts)\n", res.cycles);
        else
            printf("  simulated %" PRIu64 " cycles, link flits %" PRIu64 " (busiest link %" PRIu64 ", link_util %.3f)\n",
                   res.cycles, flits, busiest, link_util);
    }
    if (tc_config_enum(&cfg, "impl") && p2p_rule) {
        printf("  p2p algorithm %s (p2p_alg = %s%s%s; o %ld, g %ld cycles, reduction %ld/1000 cycles a flit)%s\n",
               tc_p2p_alg_names[p2p_pick], sval("p2p_alg"), p2p_lib ? ", the library's " : "", p2p_lib ? p2p_lib : "",
               ival("o"), ival("g"), ival("red_mcyc"), p2p_model ? ", by the steady-state model" : "");
        if (p2p_rule == 1) {
            printf("  p2p algorithms, %s cycles:", p2p_model ? "modelled" : "simulated");
            for (int a = 1; a < TC_P2P_ALGS; a++)
                if (p2p_t[a] != UINT64_MAX)
                    printf(" %s %" PRIu64 "%s", tc_p2p_alg_names[a], p2p_t[a], a == (int)p2p_pick ? " (best)" : "");
            printf("\n");
        }
    }
    if (per_pe && !rc)
        printf("  delivered %.3f GB/s to each receiving PE (at %ld MHz)\n", bw_pe, ival("clock_mhz"));
    double link_rate = res.cycles ? (double)long_bytes / (16.0 * (double)res.cycles) : 0.0;
    if (long_bytes && !rc)
        printf("  long %s: %" PRIu64 " bytes a PE in %" PRIu64 " cycles, %.2f%% of a link's rate (bytes / (16 x cycles))"
               "\n", tc_wl_names[w.kind], long_bytes, res.cycles, 100.0 * link_rate);
    if (stream && s1 > s0 && !rc)
        printf("  stream: window %d, %.3f operations per 1000 cycles in steady state (operations %d to %d)\n", w.window,
               rate, s0 + 1, s1 + 1);
    else if (stream && !rc)
        printf("  stream: window %d, %.3f operations per 1000 cycles over the whole run\n", w.window, rate);
    /* what bounds a stream of reduces: the busiest Reducer slice, results held, the
     * PEs' waits (docs/long-reduce.md) */
    int accounted = stream && !rc && !fsum2 && acct.st.results && res.cycles;
    double pe_cyc = (double)pe_members(t, rows, w.tree) * (double)res.cycles;
    if (accounted) {
        double nres = (double)acct.st.results, cyc = (double)res.cycles;
        printf("  Reducer: busiest slice busy %.1f%% of the cycles (node %d, slice %d), busiest node's slices %.1f%%, "
               "%.1f%% on average; results held %.1f%% (at the root %.1f, no result slot %.1f, no parent's credit %.1f, "
               "out of turn %.1f)\n", 100.0 * (double)acct.busiest / cyc, acct.node, acct.slice,
               100.0 * acct.node_busy / cyc, 100.0 * acct.mean_busy / cyc, 100.0 * (double)acct.held / nres, 100.0 * (double)acct.st.held_root / nres,
               100.0 * (double)acct.st.held_room / nres, 100.0 * (double)acct.st.held_credit / nres,
               100.0 * (double)acct.st.held_turn / nres);
        printf("  PEs: waiting for an injection credit %.1f%%, for the window %.1f%% of their cycles\n",
               100.0 * (double)res.inj_wait / pe_cyc, 100.0 * (double)res.win_wait / pe_cyc);
    }
    /* speed over the run's processor time (its wall time also counts other programs on
     * a shared machine): node-cycles, and flit-hops (link flits) per second */
    double cpu = c2 - c1 > 1e-9 ? c2 - c1 : 1e-9, node_cps = (double)t->n * (double)res.cycles / cpu,
           hops_ps = (double)flits / cpu;
    const char *ran = p2p ? "p2p" : packet ? "packet" : "cycle"; /* the engine that ran */
    printf("  set-up %.3f s, run %.3f s (processor %.3f s): %.1f M node-cycles/s, %.2f M flit-hops/s; engine %s\n",
           t1 - t0, t2 - t1, c2 - c1, node_cps / 1e6, hops_ps / 1e6, ran);
    if (rc)
        fprintf(stderr, "tcnet: FAILED: %s\n", res.msg);

    if (csv[0]) {
        fprintf(csv[0], "op,start,end,latency,deliveries\n");
        for (int i = 0; i < w.repeat; i++)
            fprintf(csv[0], "%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", i + 1, res.op[i].start,
                    res.op[i].end, res.op[i].end - res.op[i].start, res.op[i].deliveries);
        fprintf(csv[1], "op,node,done\n");
        for (int i = 0; i < w.repeat; i++)
            for (int k = 0; k < t->n; k++)
                if (res.node_done[(size_t)i * (size_t)t->n + (size_t)k])
                    fprintf(csv[1], "%d,%d,%" PRIu64 "\n", i + 1, k, res.node_done[(size_t)i * (size_t)t->n + (size_t)k]);
        fprintf(csv[2], "node,port,flits\n");
        for (int k = 0; k < t->n; k++)
            for (int d = 0; d < np; d++)
                fprintf(csv[2], "%d,%s,%" PRIu64 "\n", k, tc_dir_name((unsigned)d),
                        lf[(size_t)k * (size_t)np + (size_t)d]);
    }
    if (json) {
        fprintf(json, "{\"topo\": \"%s\", \"nodes\": %d, \"workload\": \"%s\", \"repeat\": %d, \"engine\": \"%s\", "
                "\"ok\": %s,\n", name, t->n, tc_wl_names[w.kind], w.repeat, ran, rc ? "false" : "true");
        fprintf(json, " \"params\": {");
        for (size_t i = 0; i < NKEYS; i++) {
            fprintf(json, "%s\"%s\": ", i ? ", " : "", keys[i].key);
            json_str(json, cfg.val[i]);
        }
        if (rc) /* a failed run: its latency, link_util, bandwidth and stream rate are null */
            fprintf(json, "},\n \"latency_cycles\": null,\n");
        else
            fprintf(json, "},\n \"latency_cycles\": {\"min\": %" PRIu64 ", \"mean\": %.2f, \"max\": %" PRIu64 "},\n",
                    done_ops ? lo : 0, done_ops ? (double)sum / done_ops : 0.0, hi);
        fprintf(json, " \"cycles\": %" PRIu64 ", \"link_flits\": %" PRIu64 ", \"busiest_link_flits\": %" PRIu64 ",\n",
                res.cycles, flits, busiest);
        if (rc)
            fprintf(json, " \"link_util\": null, \"payload_bytes_per_pe\": null, \"bandwidth_gbs_per_pe\": null,\n");
        else
            fprintf(json, " \"link_util\": %.4f, \"payload_bytes_per_pe\": %" PRIu64 ", \"bandwidth_gbs_per_pe\": %.4f,\n",
                    link_util, per_pe * (uint64_t)done_ops, bw_pe);
        if (long_bytes)
            fprintf(json, rc ? " \"long_bytes\": %" PRIu64 ", \"link_rate\": null,\n"
                             : " \"long_bytes\": %" PRIu64 ", \"link_rate\": %.4f,\n", long_bytes, link_rate);
        if (stream && rc)
            fprintf(json, " \"window\": %d, \"ops_per_kcycle\": null, \"steady_ops\": null,\n", w.window);
        else if (stream)
            fprintf(json, " \"window\": %d, \"ops_per_kcycle\": %.4f, \"steady_ops\": [%d, %d],\n", w.window, rate,
                    s0 + 1, s1 + 1);
        if (accounted)
            fprintf(json, " \"reducer\": {\"busiest_busy\": %.4f, \"busiest_node\": %d, \"busiest_slice\": %d, "
                    "\"busiest_cycles\": %" PRIu64 ", \"busy_cycles\": %" PRIu64 ", \"node_busy\": %.4f, "
                    "\"mean_busy\": %.4f, \"results\": %" PRIu64 ", \"held_root\": %" PRIu64 ", \"held_room\": %" PRIu64
                    ", \"held_credit\": %" PRIu64 ", \"held_turn\": %" PRIu64 "},\n \"pe_wait\": {\"injection\": %.4f, "
                    "\"window\": %.4f},\n", (double)acct.busiest / (double)res.cycles, acct.node, acct.slice,
                    acct.busiest, acct.busy, acct.node_busy / (double)res.cycles, acct.mean_busy / (double)res.cycles,
                    acct.st.results, acct.st.held_root, acct.st.held_room, acct.st.held_credit, acct.st.held_turn,
                    (double)res.inj_wait / pe_cyc, (double)res.win_wait / pe_cyc);
        if (tc_config_enum(&cfg, "impl")) {
            fprintf(json, " \"p2p\": {\"rule\": \"%s\", \"alg\": \"%s\", \"model\": %s, \"library_pick\": ",
                    sval("p2p_alg"), tc_p2p_alg_names[p2p_pick], p2p_model ? "true" : "false");
            if (p2p_lib)
                json_str(json, p2p_lib);
            else
                fprintf(json, "null");
            fprintf(json, ", \"times\": {");
            for (int a = 1, first = 1; a < TC_P2P_ALGS; a++)
                if (p2p_t[a] != UINT64_MAX) {
                    fprintf(json, "%s\"%s\": %" PRIu64, first ? "" : ", ", tc_p2p_alg_names[a], p2p_t[a]);
                    first = 0;
                }
            fprintf(json, "}},\n");
        }
        fprintf(json, " \"setup_s\": %.3f, \"run_s\": %.3f, \"cpu_s\": %.3f, \"node_cycles_per_s\": %.4g, \"flit_hops_per_s\": %.4g, \"error\": ",
                t1 - t0, t2 - t1, c2 - c1, node_cps, hops_ps);
        json_str(json, rc ? res.msg : "");
        fprintf(json, "}\n");
    }
    for (int i = 0; i < 4; i++) { /* a write that failed (a full disk) is an error too */
        if (!out[i])
            continue;
        int bad = ferror(out[i]);
        bad |= fclose(out[i]);
        if (bad) {
            fprintf(stderr, "tcnet: %s: writing '%s' failed: %s\n", i < 3 ? "csv" : "json", out_path[i],
                    strerror(errno));
            rc = -1;
        }
    }
    if (vout) { /* after a failed run too: what each PE sent and got */
        int bad = tc_fpvec_write(&fv, vout);
        bad |= fclose(vout);
        if (bad) {
            fprintf(stderr, "tcnet: values_out: writing '%s' failed: %s\n", sval("values_out"), strerror(errno));
            rc = -1;
        }
    }
    tc_fpvec_free(&fv);
    tc_wl_result_free(&res);
    free(lf);
    free(rows);
    tc_net_free(n);
    return rc ? 1 : 0;
}
