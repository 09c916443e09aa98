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

#include "../cmodel/net.h"
#include "../cmodel/p2p.h"
#include "../cmodel/workload.h"

typedef struct {
    const char *key, *def, *help;
    long min, max;           /* integers; min > max: a string */
    const char *const *enums; /* or NULL */
} key_spec;

static const char *const modes[] = {"half", "full", NULL};
static const char *const onoff[] = {"off", "on", NULL};
static const char *const impls[] = {"hw", "p2p", NULL};

static const key_spec keys[] = {
    {"topo", "4x4x4", "torus sizes per dimension, 1 to 4 of them: 8x8x8, 16x16x16x8", 1, 0, NULL},
    {"clock_mhz", "500", "router clock, for times in ns", 1, 10000, NULL},
    {"link_lat", "40", "link latency, cycles", 1, 100000, NULL},
    {"inj_lat", "150", "PE to router (PCIe), cycles", 1, 100000, NULL},
    {"ej_lat", "150", "router to PE (PCIe), cycles", 1, 100000, NULL},
    {"slots", "2", "packet slots per VC buffer and in the PEGroup FIFO", 2, 8, NULL},
    {"pe_credits", "16", "packets the PE's ejection buffer holds", 1, 255, NULL},
    {"red_flits", "2", "data flits of a reduce the Reducer holds", 1, 7, NULL},
    {"table", "planner", "routing table: 'planner' (16 dimension-ordered trees, roots spread evenly) or a file", 1, 0, NULL},
    {"members", "100", "planner: percent of the PEs that take part in each tree (a random set, with the root and its farthest node)", 1, 100, NULL},
    {"seed", "1", "random choices (members)", 0, 1000000000, NULL},
    {"workload", "allreduce", "operation", 0, 0, tc_wl_names},
    {"impl", "hw", "hw: the collective subnet (cycle-exact); p2p: software collectives over unicast (docs/p2p.md)", 0, 0, impls},
    {"sw_overhead", "0", "p2p: software cycles between receiving a message and sending the next", 0, 1000000, NULL},
    {"tree", "0", "TreeId of bcast, reduce, allreduce, tree_barrier", 0, 15, NULL},
    {"len", "2", "data flits per packet (reduce: at most red_flits)", 0, 7, NULL},
    {"bytes", "0", "bcast: M bytes from the root, in packets of len flits (16 bytes each); 0: one packet", 0, 1L << 30, NULL},
    {"op", "0", "reduce operation, TC_OP_* of cmodel/format.def (0 = sum)", 0, 9, NULL},
    {"lane", "0", "reduce lane width: 0 = 32-bit, 1 = 64-bit", 0, 1, NULL},
    {"dst", "-1", "reduce destination node (-1: the tree's root)", -1, 65535, NULL},
    {"barrier", "half", "multiphase barrier: half (K phases) or full (2K)", 0, 0, modes},
    {"barrier_k", "0", "K (0: the torus diameter)", 0, 4095, NULL},
    {"repeat", "1", "operations, back to back", 1, 1000000, NULL},
    {"max_cycles", "100000000", "give up after this many cycles", 1, 4000000000L, NULL},
    {"progress", "on", "progress bar on stderr", 0, 0, onoff},
    {"csv", "", "write per-operation, per-node and per-link results here (three files: .ops.csv, .nodes.csv, .links.csv)", 1, 0, NULL},
    {"json", "", "write a summary here", 1, 0, NULL},
};
#define NKEYS (sizeof keys / sizeof keys[0])

static char val[NKEYS][512];

static int find_key(const char *k)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (!strcmp(keys[i].key, k))
            return (int)i;
    return -1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        *--e = 0;
    return s;
}

/* key = value: checked against its spec; 0, or -1 with a message naming it. */
static int set_key(const char *where, char *k, char *v)
{
    k = trim(k);
    v = trim(v);
    int i = find_key(k);
    if (i < 0) {
        fprintf(stderr, "tcnet: %s: unknown key '%s' (tcnet --help lists them)\n", where, k);
        return -1;
    }
    const key_spec *s = &keys[i];
    if (s->enums) {
        int ok = 0;
        for (int e = 0; s->enums[e]; e++)
            ok |= !strcmp(v, s->enums[e]);
        if (!ok) {
            fprintf(stderr, "tcnet: %s: %s = '%s' is not one of:", where, k, v);
            for (int e = 0; s->enums[e]; e++)
                fprintf(stderr, " %s", s->enums[e]);
            fprintf(stderr, "\n");
            return -1;
        }
    } else if (s->min <= s->max) {
        char *end;
        errno = 0;
        long x = strtol(v, &end, 10);
        if (!*v || *end || errno || x < s->min || x > s->max) {
            fprintf(stderr, "tcnet: %s: %s = '%s' is not an integer in %ld..%ld\n", where, k, v, s->min, s->max);
            return -1;
        }
    }
    snprintf(val[i], sizeof val[i], "%s", v);
    return 0;
}

static long ival(const char *k) { return strtol(val[find_key(k)], NULL, 10); }
static const char *sval(const char *k) { return val[find_key(k)]; }
static int eval_(const char *k, const char *const *names)
{
    for (int e = 0; names[e]; e++)
        if (!strcmp(sval(k), names[e]))
            return e;
    return 0;
}

static int read_config(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024], where[600];
    int no = 0, rc = 0;
    if (!f) {
        fprintf(stderr, "tcnet: cannot open configuration '%s': %s\n", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f) && !rc) {
        char *h = strchr(line, '#'), *eq;
        no++;
        if (h)
            *h = 0;
        if (!*trim(line))
            continue;
        snprintf(where, sizeof where, "%s:%d", path, no);
        if (!(eq = strchr(line, '='))) {
            fprintf(stderr, "tcnet: %s: expected 'key = value'\n", where);
            rc = -1;
            break;
        }
        *eq = 0;
        rc = set_key(where, line, eq + 1);
    }
    fclose(f);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: tcnet [CONFIG_FILE] [key=value ...]\n\nkeys (default):\n");
    for (size_t i = 0; i < NKEYS; i++) {
        fprintf(f, "  %-11s %-10s %s", keys[i].key, keys[i].def[0] ? keys[i].def : "\"\"", keys[i].help);
        for (int e = 0; keys[i].enums && keys[i].enums[e]; e++)
            fprintf(f, "%s%s", e ? " | " : ": ", keys[i].enums[e]);
        fputc('\n', f);
    }
}

static void progress(void *ctx, int done, int total)
{
    const time_t *t0 = ctx;
    int w = 40, fill = (int)((long)done * w / total);
    fprintf(stderr, "\r[%.*s%*s] %d/%d operations, %lds", fill, "########################################", w - fill,
            "", done, total, (long)(time(NULL) - *t0));
    if (done == total)
        fputc('\n', stderr);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    char err[256];
    for (size_t i = 0; i < NKEYS; i++)
        snprintf(val[i], sizeof val[i], "%s", keys[i].def);
    for (int a = 1; a < argc; a++) {
        char *eq = strchr(argv[a], '=');
        if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
            usage(stdout);
            return 0;
        }
        if (eq) {
            *eq = 0;
            if (set_key("command line", argv[a], eq + 1))
                return 2;
        } else if (a == 1) {
            if (read_config(argv[a]))
                return 2;
        } else {
            fprintf(stderr, "tcnet: '%s': expected key=value\n", argv[a]);
            usage(stderr);
            return 2;
        }
    }

    tc_params p;
    tc_params_default(&p);
    int nd = sscanf(sval("topo"), "%dx%dx%dx%d", &p.size[0], &p.size[1], &p.size[2], &p.size[3]);
    char tail[8];
    if (nd < 1 || sscanf(sval("topo"), "%*d%*[x0-9]%7s", tail) == 1) {
        fprintf(stderr, "tcnet: topo = '%s' is not sizes joined by x (e.g. 8x8x8)\n", sval("topo"));
        return 2;
    }
    p.ndims = nd;
    for (int d = nd; d < TC_MAX_DIMS; d++)
        p.size[d] = 1;
    p.link_lat = (int)ival("link_lat");
    p.inj_lat = (int)ival("inj_lat");
    p.ej_lat = (int)ival("ej_lat");
    p.slots = (int)ival("slots");
    p.pe_credits = (int)ival("pe_credits");
    p.red_flits = (int)ival("red_flits");
    double t0 = now_s();
    tc_net *n = tc_net_new(&p, err, sizeof err);
    if (!n) {
        fprintf(stderr, "tcnet: %s\n", err);
        return 2;
    }
    const tc_topo *t = tc_net_topo(n);
    tc_row *rows = calloc((size_t)t->n * TC_TREES, sizeof *rows);
    if (!strcmp(sval("table"), "planner")) {
        uint8_t *pe = malloc((size_t)t->n);
        uint64_t rng = (uint64_t)ival("seed") * 0x9e3779b97f4a7c15ull + 1;
        for (int tree = 0; tree < TC_TREES; tree++) {
            int root = (int)((long)tree * t->n / TC_TREES);
            for (int k = 0; k < t->n; k++) { /* xorshift: a member with the given chance */
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                pe[k] = rng % 100 < (uint64_t)ival("members");
            }
            pe[root] = pe[tc_farthest(t, root)] = 1; /* every tree keeps a sender and a receiver */
            tc_plan_tree(t, rows, tree, root, pe);
        }
        free(pe);
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
    for (int k = 0; k < t->n; k++)
        for (int tree = 0; tree < TC_TREES; tree++)
            tc_net_cfg(n, k, tree, TC_ROWP(rows, k, tree));

    tc_workload w = {0};
    w.kind = (tc_wl_kind)eval_("workload", tc_wl_names);
    w.tree = (int)ival("tree");
    w.len = (int)ival("len");
    w.op = (int)ival("op");
    w.lane = (int)ival("lane");
    w.dst = (int)ival("dst");
    if (w.dst < 0)
        w.dst = tc_tree_root(t, rows, w.tree);
    w.bar_mode = (eval_("barrier", modes) ? TC_BAR_FULL : 0) | (ival("barrier_k") ? 0 : TC_BAR_DIAM);
    w.bar_k = (int)ival("barrier_k");
    w.repeat = (int)ival("repeat");
    if (ival("bytes") && w.len)
        w.packets = (int)((ival("bytes") + 16 * w.len - 1) / (16 * w.len));
    w.max_cycles = (uint64_t)ival("max_cycles");
    if ((w.kind == TC_WL_REDUCE || w.kind == TC_WL_ALLREDUCE) && w.len > p.red_flits) {
        fprintf(stderr, "tcnet: len = %d is more than the Reducer holds (red_flits = %d)\n", w.len, p.red_flits);
        return 2;
    }
    double t1 = now_s();
    time_t start = time(NULL);
    tc_wl_result res;
    int rc, np = tc_net_nports(n);
    uint64_t *lf = calloc((size_t)t->n * (size_t)np, sizeof *lf); /* flits per link */
    if (!lf) {
        fprintf(stderr, "tcnet: out of memory\n");
        return 2;
    }
    if (eval_("impl", impls)) { /* the point-to-point baseline: one operation, timed alone */
        tc_p2p m;
        if (tc_p2p_init(&m, &p, (uint64_t)ival("sw_overhead"), err, sizeof err)) {
            fprintf(stderr, "tcnet: %s\n", err);
            return 2;
        }
        memset(&res, 0, sizeof res);
        res.op = calloc((size_t)w.repeat, sizeof *res.op);
        res.node_done = calloc((size_t)w.repeat * (size_t)t->n, sizeof *res.node_done);
        for (int i = 0; i < w.repeat; i++) {
            res.op[i].start = res.cycles;
            int root = w.kind == TC_WL_REDUCE ? w.dst : tc_tree_root(t, rows, w.tree);
            uint64_t end, *done = res.node_done + (size_t)i * (size_t)t->n;
            if (tc_p2p_collective(&m, w.kind, w.len, root, done, &end)) {
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
    } else {
        rc = tc_wl_run(n, rows, &w, &res, eval_("progress", onoff) ? progress : NULL, &start);
        for (int k = 0; k < t->n; k++)
            for (int d = 0; d < np; d++)
                lf[(size_t)k * (size_t)np + (size_t)d] = tc_net_link_flits(n, k, d);
    }
    double t2 = now_s();

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
    char name[64];
    printf("tcnet: %s torus, %d nodes, %s x %d%s\n", tc_topo_name(t, name, sizeof name), t->n, tc_wl_names[w.kind],
           w.repeat, rc ? "  FAILED" : "");
    printf("  latency per operation (cycles) min %" PRIu64 "  mean %.1f  max %" PRIu64 "  (%.1f ns mean)\n",
           done_ops ? lo : 0, done_ops ? (double)sum / done_ops : 0.0, hi, done_ops ? ns * (double)sum / done_ops : 0.0);
    printf("  simulated %" PRIu64 " cycles, link flits %" PRIu64 " (busiest link %" PRIu64 ")\n", res.cycles, flits,
           busiest);
    printf("  set-up %.3f s, run %.3f s: %.1f M node-cycles/s\n", t1 - t0, t2 - t1,
           (double)t->n * (double)res.cycles / (t2 - t1 > 1e-9 ? t2 - t1 : 1e-9) / 1e6);
    if (rc)
        fprintf(stderr, "tcnet: %s\n", res.msg);

    if (*sval("csv")) {
        char path[600];
        FILE *f;
        snprintf(path, sizeof path, "%s.ops.csv", sval("csv"));
        if ((f = fopen(path, "w"))) {
            fprintf(f, "op,start,end,latency,deliveries\n");
            for (int i = 0; i < w.repeat; i++)
                fprintf(f, "%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", i + 1, res.op[i].start, res.op[i].end,
                        res.op[i].end - res.op[i].start, res.op[i].deliveries);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s.nodes.csv", sval("csv"));
        if ((f = fopen(path, "w"))) {
            fprintf(f, "op,node,done\n");
            for (int i = 0; i < w.repeat; i++)
                for (int k = 0; k < t->n; k++)
                    if (res.node_done[(size_t)i * (size_t)t->n + (size_t)k])
                        fprintf(f, "%d,%d,%" PRIu64 "\n", i + 1, k, res.node_done[(size_t)i * (size_t)t->n + (size_t)k]);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s.links.csv", sval("csv"));
        if ((f = fopen(path, "w"))) {
            fprintf(f, "node,port,flits\n");
            for (int k = 0; k < t->n; k++)
                for (int d = 0; d < np; d++)
                    fprintf(f, "%d,%s,%" PRIu64 "\n", k, tc_dir_name((unsigned)d), lf[(size_t)k * (size_t)np + (size_t)d]);
            fclose(f);
        }
    }
    if (*sval("json")) {
        FILE *f = fopen(sval("json"), "w");
        if (f) {
            fprintf(f, "{\"topo\": \"%s\", \"nodes\": %d, \"workload\": \"%s\", \"repeat\": %d, \"ok\": %s,\n",
                    name, t->n, tc_wl_names[w.kind], w.repeat, rc ? "false" : "true");
            fprintf(f, " \"params\": {");
            for (size_t i = 0; i < NKEYS; i++)
                fprintf(f, "%s\"%s\": \"%s\"", i ? ", " : "", keys[i].key, val[i]);
            fprintf(f, "},\n \"latency_cycles\": {\"min\": %" PRIu64 ", \"mean\": %.2f, \"max\": %" PRIu64 "},\n",
                    done_ops ? lo : 0, done_ops ? (double)sum / done_ops : 0.0, hi);
            fprintf(f, " \"cycles\": %" PRIu64 ", \"link_flits\": %" PRIu64 ", \"busiest_link_flits\": %" PRIu64 ",\n",
                    res.cycles, flits, busiest);
            fprintf(f, " \"setup_s\": %.3f, \"run_s\": %.3f, \"error\": \"%s\"}\n", t1 - t0, t2 - t1, rc ? res.msg : "");
            fclose(f);
        }
    }
    tc_wl_result_free(&res);
    free(lf);
    free(rows);
    tc_net_free(n);
    return rc ? 1 : 0;
}
