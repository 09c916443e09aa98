/* Collective traces: the strict reader and the replay on the subnet and on the
 * point-to-point baseline. */
#include "trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

const char *const tc_call_names[TC_CALLS + 1] = {"bcast", "reduce", "allreduce", "barrier", "allgather", NULL};

void tc_trace_free(tc_trace *tr)
{
    free(tr->rec);
    memset(tr, 0, sizeof *tr);
}

/* A decimal field in lo..hi, nothing else. */
static int num(const char *s, long long lo, long long hi, long long *v)
{
    char *e;
    errno = 0;
    long long x = strtoll(s, &e, 10);
    if (!*s || *e || errno || x < lo || x > hi || (*s == '+'))
        return -1;
    *v = x;
    return 0;
}

int tc_trace_read(FILE *f, const char *name, tc_trace *tr, char *err, size_t errlen)
{
    char line[TC_LINE_MAX], e2[160];
    long ln = 0, nrec = 0, ended = -1;
    int *count = NULL, rc;
    tc_trace_rec *all = NULL; /* in file order; sorted by rank after */
    int *rank_of = NULL;
    size_t cap = 0;
    memset(tr, 0, sizeof *tr);
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto bad; } while (0)
    while ((rc = tc_read_line(f, line, sizeof line, e2, sizeof e2)) == 1) {
        ln++;
        char *fld[12], *save = NULL;
        int nf = 0;
        for (char *w = strtok_r(line, " \t", &save); w && nf < 12; w = strtok_r(NULL, " \t", &save))
            fld[nf++] = w;
        long long v[9];
        if (ln == 1) {
            if (nf != 2 || strcmp(fld[0], "torcoll-trace") || strcmp(fld[1], "1"))
                FAIL("%s:1: not a torcoll trace (expected 'torcoll-trace 1'; an OTF2 trace: convert it with build/tcotf2)",
                     name);
            continue;
        }
        if (ln == 2) {
            if (nf != 2 || strcmp(fld[0], "ranks") || num(fld[1], 1, 65536, &v[0]))
                FAIL("%s:2: expected 'ranks R' with R in 1..65536", name);
            tr->ranks = (int)v[0];
            count = calloc((size_t)tr->ranks, sizeof *count);
            if (!count)
                FAIL("%s: out of memory", name);
            continue;
        }
        if (nf == 0 || fld[0][0] == '#')
            continue;
        if (ended >= 0)
            FAIL("%s:%ld: a line after the end line", name, ln);
        if (!strcmp(fld[0], "end")) {
            if (nf != 2 || num(fld[1], 0, 1LL << 40, &v[0]))
                FAIL("%s:%ld: expected 'end N'", name, ln);
            if (v[0] != nrec)
                FAIL("%s:%ld: the end line counts %lld records, the file has %ld", name, ln, v[0], nrec);
            ended = ln;
            continue;
        }
        if (nf != 9)
            FAIL("%s:%ld: %d fields, expected 9 (RANK CALL COMM ROOT BYTES OP TYPE GAP_NS DUR_NS)", name, ln, nf);
        tc_trace_rec r;
        memset(&r, 0, sizeof r);
        if (num(fld[0], 0, tr->ranks - 1, &v[0]))
            FAIL("%s:%ld: rank '%s' is not in 0..%d", name, ln, fld[0], tr->ranks - 1);
        for (r.call = 0; r.call < TC_CALLS && strcmp(fld[1], tc_call_names[r.call]); r.call++)
            ;
        if (r.call == TC_CALLS)
            FAIL("%s:%ld: call '%s' is none of bcast, reduce, allreduce, barrier, allgather", name, ln, fld[1]);
        if (num(fld[2], 1, tr->ranks, &v[2]))
            FAIL("%s:%ld: communicator size '%s' is not in 1..%d", name, ln, fld[2], tr->ranks);
        if (num(fld[3], -1, v[2] - 1, &v[3]))
            FAIL("%s:%ld: root '%s' is not in -1..%lld", name, ln, fld[3], v[2] - 1);
        if (num(fld[4], 0, 1LL << 40, &v[4]))
            FAIL("%s:%ld: bytes '%s' is not a number in 0..2^40", name, ln, fld[4]);
        if (strlen(fld[5]) >= sizeof r.op || strlen(fld[6]) >= sizeof r.type)
            FAIL("%s:%ld: operation or type name longer than %zu characters", name, ln, sizeof r.op - 1);
        if (num(fld[7], 0, 1LL << 62, &v[7]) || num(fld[8], 0, 1LL << 62, &v[8]))
            FAIL("%s:%ld: GAP_NS and DUR_NS must be numbers of nanoseconds", name, ln);
        if (r.call == TC_CALL_BARRIER ? v[4] != 0 || v[3] != -1 : (r.call <= TC_CALL_REDUCE) != (v[3] >= 0))
            FAIL("%s:%ld: %s with root %lld and %lld bytes (bcast and reduce have a root, the others none; a "
                 "barrier no bytes)", name, ln, fld[1], v[3], v[4]);
        r.comm = (int)v[2], r.root = (int)v[3], r.bytes = (uint64_t)v[4], r.gap_ns = (uint64_t)v[7];
        r.dur_ns = (uint64_t)v[8];
        strcpy(r.op, fld[5]);
        strcpy(r.type, fld[6]);
        if ((size_t)nrec == cap) {
            cap = cap ? 2 * cap : 256;
            tc_trace_rec *na = realloc(all, cap * sizeof *all);
            int *nr = realloc(rank_of, cap * sizeof *rank_of);
            if (na)
                all = na;
            if (nr)
                rank_of = nr;
            if (!na || !nr)
                FAIL("%s: out of memory", name);
        }
        all[nrec] = r;
        rank_of[nrec++] = (int)v[0];
        count[v[0]]++;
    }
    if (rc < 0)
        FAIL("%s:%ld: %s%s", name, ln + 1, e2,
             ln ? "" : " (not a torcoll trace; an OTF2 trace: convert it with build/tcotf2)");
    if (ln < 2)
        FAIL("%s: %s", name, ln ? "truncated after the first line (no 'ranks' line)" : "empty, not a trace");
    if (ended < 0)
        FAIL("%s: truncated: %ld records and no 'end' line", name, nrec);
    tr->calls = count[0];
    for (int k = 1; k < tr->ranks; k++)
        if (count[k] != tr->calls)
            FAIL("%s: rank %d made %d calls, rank 0 %d: every rank must make the same collectives", name, k, count[k],
                 tr->calls);
    tr->rec = calloc((size_t)tr->ranks * (size_t)(tr->calls ? tr->calls : 1), sizeof *tr->rec);
    if (!tr->rec)
        FAIL("%s: out of memory", name);
    memset(count, 0, (size_t)tr->ranks * sizeof *count);
    for (long i = 0; i < nrec; i++)
        tr->rec[(size_t)rank_of[i] * (size_t)tr->calls + (size_t)count[rank_of[i]]++] = all[i];
    for (int k = 1; k < tr->ranks; k++)
        for (int i = 0; i < tr->calls; i++) {
            const tc_trace_rec *a = &tr->rec[i], *b = &tr->rec[(size_t)k * (size_t)tr->calls + (size_t)i];
            if (a->call != b->call || a->comm != b->comm || a->root != b->root || a->bytes != b->bytes)
                FAIL("%s: call %d: rank %d makes %s (comm %d, root %d, %" PRIu64 " bytes), rank 0 %s (comm %d, root %d, "
                     "%" PRIu64 " bytes)", name, i + 1, k, tc_call_names[b->call], b->comm, b->root, b->bytes,
                     tc_call_names[a->call], a->comm, a->root, a->bytes);
        }
    free(all);
    free(rank_of);
    free(count);
    return 0;
bad:
#undef FAIL
    free(all);
    free(rank_of);
    free(count);
    tc_trace_free(tr);
    return -1;
}

/* rank -> node: linear, or one node a line from the map file. */
static int read_map(tc_app *a, const char *path, int ranks, int *node)
{
    uint8_t *used = calloc((size_t)a->t->n, 1);
    int rc = -1;
    if (!used)
        return -1;
    if (!*path) {
        for (int r = 0; r < ranks; r++)
            node[r] = r;
        rc = ranks <= a->t->n ? 0 : (snprintf(a->err, sizeof a->err, "trace: %d ranks on a %d-node torus", ranks,
                                              a->t->n), -1);
    } else {
        FILE *f = fopen(path, "r");
        char line[TC_LINE_MAX], e2[160];
        long long v;
        int r = 0, got;
        if (!f) {
            snprintf(a->err, sizeof a->err, "map = '%.100s': %s", path, strerror(errno));
            free(used);
            return -1;
        }
        while ((got = tc_read_line(f, line, sizeof line, e2, sizeof e2)) == 1 && r <= ranks) {
            if (!line[0] || line[0] == '#')
                continue;
            if (r == ranks) {
                snprintf(a->err, sizeof a->err, "map = '%.100s': more lines than the trace's %d ranks", path, ranks);
                break;
            }
            if (num(line, 0, a->t->n - 1, &v) || used[v]) {
                snprintf(a->err, sizeof a->err, "map = '%.100s': rank %d: '%.40s' is %s", path, r, line,
                         num(line, 0, a->t->n - 1, &v) ? "not a node of the torus" : "a node given twice");
                break;
            }
            used[v] = 1;
            node[r++] = (int)v;
        }
        if (got < 0)
            snprintf(a->err, sizeof a->err, "map = '%.100s': %.100s", path, e2);
        else if (got == 0 && r < ranks)
            snprintf(a->err, sizeof a->err, "map = '%.100s': %d nodes for %d ranks", path, r, ranks);
        else if (got == 0)
            rc = 0;
        fclose(f);
    }
    free(used);
    return rc;
}

/* Where a call runs in the subnet's configuration. The Reducer sums, compares and
 * combines bits of 32- and 64-bit integer lanes, sums binary64 and binary32 values as
 * binned elements (FSUM, 2 flits a value) and takes fmin/fmax as signed keys of the
 * values' width (docs/fpsum.md); a reduction it cannot do (a user op, PROD, the logical
 * ops, types of other widths or unknown names) runs over point-to-point, as an MPI
 * library would leave it in software. */
enum { PATH_SUBNET, PATH_INT, PATH_FSUM, PATH_FKEY, PATH_P2P, PATHS };
static const char *const path_names[PATHS] = {"subnet", "subnet int", "subnet fsum", "subnet fmin/fmax", "p2p"};

/* The datatypes the Reducer takes, by the names MPI_Type_get_name gives (C and
 * Fortran), with a value's bytes: 32- and 64-bit integers, MINLOC/MAXLOC's pairs of
 * 32-bit integers, binary32 and binary64. */
enum { T_INT, T_PAIR, T_FLOAT };
static const struct {
    const char *name;
    int bytes, kind;
} hw_types[] = {
    {"MPI_INT", 4, T_INT},         {"MPI_UNSIGNED", 4, T_INT},       {"MPI_INT32_T", 4, T_INT},
    {"MPI_UINT32_T", 4, T_INT},    {"MPI_INTEGER", 4, T_INT},        {"MPI_INTEGER4", 4, T_INT},
    {"MPI_LONG", 8, T_INT},        {"MPI_LONG_LONG", 8, T_INT},      {"MPI_LONG_LONG_INT", 8, T_INT},
    {"MPI_UNSIGNED_LONG", 8, T_INT}, {"MPI_UNSIGNED_LONG_LONG", 8, T_INT}, {"MPI_INT64_T", 8, T_INT},
    {"MPI_UINT64_T", 8, T_INT},    {"MPI_INTEGER8", 8, T_INT},       {"MPI_2INT", 4, T_PAIR},
    {"MPI_2INTEGER", 4, T_PAIR},   {"MPI_FLOAT", 4, T_FLOAT},        {"MPI_REAL", 4, T_FLOAT},
    {"MPI_REAL4", 4, T_FLOAT},     {"MPI_DOUBLE", 8, T_FLOAT},       {"MPI_REAL8", 8, T_FLOAT},
    {"MPI_DOUBLE_PRECISION", 8, T_FLOAT},
};

/* The path of call r, and the Reducer's lane for it (*lane). */
static int path_of(const tc_trace_rec *r, int *lane)
{
    const char *op = r->op;
    size_t t = 0, nt = sizeof hw_types / sizeof hw_types[0];
    while (t < nt && strcmp(r->type, hw_types[t].name))
        t++;
    *lane = t < nt && hw_types[t].bytes == 4 ? TC_LANE_32 : TC_LANE_64;
    if (r->call != TC_CALL_REDUCE && r->call != TC_CALL_ALLREDUCE)
        return PATH_SUBNET;
    if (t == nt)
        return PATH_P2P;
    int sum = !strcmp(op, "sum"), minmax = !strcmp(op, "min") || !strcmp(op, "max");
    int loc = !strcmp(op, "minloc") || !strcmp(op, "maxloc");
    switch (hw_types[t].kind) {
    case T_INT:
        return sum || minmax || !strcmp(op, "band") || !strcmp(op, "bor") || !strcmp(op, "bxor") ? PATH_INT : PATH_P2P;
    case T_PAIR:
        return loc ? PATH_INT : PATH_P2P;
    default:
        return sum ? PATH_FSUM : minmax ? PATH_FKEY : PATH_P2P;
    }
}

typedef struct {
    const tc_trace_rec *rec; /* the first call of its kind: call, root, bytes, op and type */
    int path;
    uint64_t hw, sw;
    int exact;
} timed;

static const tc_wl_kind kind_of[TC_CALLS] = {TC_WL_BCAST, TC_WL_REDUCE, TC_WL_ALLREDUCE, TC_WL_BARRIER,
                                             TC_WL_ALLGATHER};

/* One call's latency on both: the subnet's trees over the ranks' nodes (tree 0 rooted
 * at the call's root for bcast and reduce), and the software collective; a reduction
 * the subnet cannot do takes the software's time in both (out->path). */
static int time_call(tc_app *a, const tc_trace_rec *r, const int *node, int ranks, const uint8_t *pe, timed *out)
{
    uint64_t flits = (r->bytes + 15) / 16, vbytes;
    int lane;
    out->path = path_of(r, &lane);
    vbytes = lane == TC_LANE_32 ? 4 : 8;
    if (out->path == PATH_FSUM) /* a binned element of 2 flits a value */
        flits = 2 * ((r->bytes + vbytes - 1) / vbytes);
    int pk7 = (int)((flits + 6) / 7), red = a->p.red_flits;
    tc_workload w = {.kind = kind_of[r->call], .repeat = 1, .max_cycles = a->max_cycles};
    out->exact = 1;
    if (flits > (1u << 26)) {
        snprintf(a->err, sizeof a->err, "trace: a %s of %" PRIu64 " bytes is beyond the replay", tc_call_names[r->call],
                 r->bytes);
        return -1;
    }
    if (r->call == TC_CALL_BCAST || r->call == TC_CALL_REDUCE) {
        tc_plan_tree(a->t, a->rows, 0, node[r->root], pe);
        for (int k = 0; k < a->t->n; k++)
            tc_net_cfg(a->net, k, 0, TC_ROWP(a->rows, k, 0));
        w.dst = node[r->root];
    }
    switch (r->call) {
    case TC_CALL_BCAST:
        w.len = flits < 7 ? (int)flits : 7;
        w.packets = pk7;
        break;
    case TC_CALL_REDUCE:
    case TC_CALL_ALLREDUCE: /* the Reducer holds red_flits data flits: longer vectors in several operations */
        if (out->path == PATH_FSUM) { /* whole elements: an even length */
            red -= red % 2;
            if (!red) {
                snprintf(a->err, sizeof a->err, "trace: a floating-point sum needs red_flits >= 2 (an element is 2 "
                         "flits), not %d", a->p.red_flits);
                return -1;
            }
            w.op = TC_OP_FSUM;
        }
        w.len = flits < (uint64_t)red ? (int)flits : red;
        w.repeat = flits > (uint64_t)red ? (int)((flits + (uint64_t)red - 1) / (uint64_t)red) : 1;
        if (r->call == TC_CALL_ALLREDUCE && w.repeat > 1) /* the library streams them, 16 in flight */
            w.window = TC_RIDS;
        w.lane = lane;
        break;
    case TC_CALL_BARRIER:
        w.kind = TC_WL_TREE_BARRIER;
        break;
    default:
        w.len = flits < 7 ? (int)flits : 7;
        w.packets = pk7;
        break;
    }
    if (out->path == PATH_P2P) {
        /* below: the software collective's time is the call's in both */
    } else if (r->call == TC_CALL_ALLGATHER && pk7 > 1) {
        tc_app_time t;
        if (tc_app_allgather_hw(a, pk7, &t))
            return -1;
        out->hw = t.cycles;
        out->exact = t.exact;
    } else if (tc_app_run_hw(a, &w, &out->hw)) {
        return -1;
    }
    if (r->call == TC_CALL_BCAST || r->call == TC_CALL_REDUCE)
        tc_app_table(a, pe); /* tree 0 as before */
    if (tc_p2p_collective_on(&a->m, kind_of[r->call], (int)((r->bytes + 15) / 16), r->root < 0 ? 0 : r->root, node,
                             ranks, NULL, &out->sw)) {
        snprintf(a->err, sizeof a->err, "%s", a->m.err);
        return -1;
    }
    if (out->path == PATH_P2P)
        out->hw = out->sw;
    return 0;
}

int tc_trace_replay(tc_app *a, const tc_config *cfg, FILE *json, double ns)
{
    const char *path = tc_config_str(cfg, "trace");
    tc_trace tr;
    if (!*path) {
        snprintf(a->err, sizeof a->err, "workload = trace needs trace = FILE");
        return 2;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(a->err, sizeof a->err, "trace = '%.200s': %s", path, strerror(errno));
        return 2;
    }
    int rc = tc_trace_read(f, path, &tr, a->err, sizeof a->err);
    fclose(f);
    if (rc)
        return 2;
    int *node = malloc((size_t)tr.ranks * sizeof *node);
    uint8_t *pe = calloc((size_t)a->t->n, 1);
    timed *cache = calloc((size_t)tr.calls + 1, sizeof *cache);
    size_t ncache = 0;
    rc = 2;
    if (!node || !pe || !cache || read_map(a, tc_config_str(cfg, "map"), tr.ranks, node))
        goto out;
    for (int i = 0; i < tr.calls; i++)
        if (tr.rec[i].comm != tr.ranks) {
            snprintf(a->err, sizeof a->err, "trace: call %d (%s) is on a communicator of %d ranks; the replay takes "
                     "only those of all %d", i + 1, tc_call_names[tr.rec[i].call], tr.rec[i].comm, tr.ranks);
            goto out;
        }
    for (int r = 0; r < tr.ranks; r++)
        pe[node[r]] = 1;
    tc_app_table(a, pe);
    rc = 1;
    /* Every call starts when its last rank arrives (its previous call's end plus its
     * gap) and ends for all ranks at once, its latency later. */
    uint64_t t_hw = 0, t_sw = 0, gaps = 0, comm_hw = 0, comm_sw = 0, bytes = 0, real = 0;
    uint64_t per[TC_CALLS][3] = {{0}}; /* calls, hw cycles, p2p cycles */
    uint64_t paths[PATHS] = {0};        /* calls by where the subnet's configuration runs them */
    char p2p_why[160] = "";             /* the first few (op, type) pairs left to point-to-point */
    if (json)
        fprintf(json, "{\"workload\": \"trace\", \"trace\": \"%s\", \"ranks\": %d, \"nodes\": %d, \"calls\": [\n", path,
                tr.ranks, a->t->n);
    if (tr.calls <= 100)
        printf("  %5s %-10s %10s %5s %12s %12s %8s  %s\n", "call", "op", "bytes", "root", "hw cycles", "p2p cycles",
               "p2p/hw", "path (hw)");
    for (int i = 0; i < tr.calls; i++) {
        const tc_trace_rec *r0 = &tr.rec[i];
        uint64_t gap = 0, wall = 0;
        for (int k = 0; k < tr.ranks; k++) {
            const tc_trace_rec *r = &tr.rec[(size_t)k * (size_t)tr.calls + (size_t)i];
            gap = r->gap_ns > gap ? r->gap_ns : gap;
            wall = r->gap_ns + r->dur_ns > wall ? r->gap_ns + r->dur_ns : wall;
        }
        size_t c = 0;
        const tc_trace_rec *k0;
        while (c < ncache && (k0 = cache[c].rec, k0->call != r0->call || k0->root != r0->root ||
                              k0->bytes != r0->bytes || strcmp(k0->op, r0->op) || strcmp(k0->type, r0->type)))
            c++;
        if (c == ncache) {
            cache[c] = (timed){r0, 0, 0, 0, 1};
            if (time_call(a, r0, node, tr.ranks, pe, &cache[c]))
                goto out;
            ncache++;
        }
        uint64_t g = (uint64_t)((double)gap / ns + 0.5);
        t_hw += g + cache[c].hw;
        t_sw += g + cache[c].sw;
        gaps += g;
        comm_hw += cache[c].hw;
        comm_sw += cache[c].sw;
        bytes += r0->bytes;
        real += wall;
        per[r0->call][0]++, per[r0->call][1] += cache[c].hw, per[r0->call][2] += cache[c].sw;
        paths[cache[c].path]++;
        char pair[72];
        snprintf(pair, sizeof pair, "%s %s", r0->op, r0->type);
        if (cache[c].path == PATH_P2P && !strstr(p2p_why, pair) && strlen(p2p_why) + strlen(pair) + 8 < sizeof p2p_why)
            snprintf(p2p_why + strlen(p2p_why), sizeof p2p_why - strlen(p2p_why), "%s%s", *p2p_why ? ", " : "", pair);
        if (tr.calls <= 100)
            printf("  %5d %-10s %10" PRIu64 " %5d %12" PRIu64 " %12" PRIu64 " %7.2fx  %s%s\n", i + 1,
                   tc_call_names[r0->call], r0->bytes, r0->root, cache[c].hw, cache[c].sw,
                   (double)cache[c].sw / (double)(cache[c].hw ? cache[c].hw : 1), path_names[cache[c].path],
                   cache[c].exact ? "" : " (modelled)");
        if (json)
            fprintf(json, "  {\"call\": \"%s\", \"bytes\": %" PRIu64 ", \"root\": %d, \"op\": \"%s\", \"type\": \"%s\", "
                          "\"path\": \"%s\", \"gap_cycles\": %" PRIu64 ", \"hw\": %" PRIu64 ", \"p2p\": %" PRIu64 ", \"exact\": %s}%s\n",
                    tc_call_names[r0->call], r0->bytes, r0->root, r0->op, r0->type, path_names[cache[c].path], g,
                    cache[c].hw, cache[c].sw,
                    cache[c].exact ? "true" : "false", i + 1 < tr.calls ? "," : "");
    }
    printf("trace %s: %d ranks on %d nodes, replayed %d calls, %" PRIu64 " bytes a rank\n", path, tr.ranks, a->t->n,
           tr.calls, bytes);
    for (int k = 0; k < TC_CALLS; k++)
        if (per[k][0])
            printf("  %-10s %6" PRIu64 " calls: hw %10" PRIu64 " cycles, p2p %10" PRIu64 " cycles (%.2fx)\n",
                   tc_call_names[k], per[k][0], per[k][1], per[k][2], (double)per[k][2] / (double)per[k][1]);
    printf("  where the calls ran with the subnet: %" PRIu64 " on its trees (bcast, barrier, allgather), %" PRIu64
           " integer reductions, %" PRIu64 " floating-point sums, %" PRIu64 " fmin/fmax, %" PRIu64
           " reductions over point-to-point%s%s%s\n",
           paths[PATH_SUBNET], paths[PATH_INT], paths[PATH_FSUM], paths[PATH_FKEY], paths[PATH_P2P],
           paths[PATH_P2P] ? " (the subnet has no " : "", p2p_why, paths[PATH_P2P] ? ")" : "");
    printf("  compute gaps %.3f us; collectives hw %.3f us, p2p %.3f us (%.2fx)\n", (double)gaps * ns / 1e3,
           (double)comm_hw * ns / 1e3, (double)comm_sw * ns / 1e3, (double)comm_sw / (double)(comm_hw ? comm_hw : 1));
    printf("  total hw %.3f us, p2p %.3f us (%.2fx); recorded on this machine %.3f us\n", (double)t_hw * ns / 1e3,
           (double)t_sw * ns / 1e3, (double)t_sw / (double)(t_hw ? t_hw : 1), (double)real / 1e3);
    if (json)
        fprintf(json, "], \"replayed\": %d, \"bytes\": %" PRIu64 ", \"gap_cycles\": %" PRIu64 ", \"comm_hw\": %" PRIu64
                      ", \"comm_p2p\": %" PRIu64 ", \"total_hw\": %" PRIu64 ", \"total_p2p\": %" PRIu64
                      ", \"recorded_ns\": %" PRIu64 "}\n", tr.calls, bytes, gaps, comm_hw, comm_sw, t_hw, t_sw, real);
    rc = 0;
out:
    free(node);
    free(pe);
    free(cache);
    tc_trace_free(&tr);
    return rc;
}
