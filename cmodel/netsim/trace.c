/* Communication traces: the strict reader and writer, and the replay on the subnet
 * and on the point-to-point baseline. */
#include "trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../config.h"
#include "../fpsum.h"
#include "fpvec.h"

const char *const tc_call_names[TC_CALLS + 1] = {
    "bcast", "reduce", "allreduce", "barrier", "allgather", "allgatherv", "gather", "gatherv", "scatter",
    "scatterv", "alltoall", "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan", "exscan",
    "send", "recv", "wait", "other", NULL};

static int has_root(int call)
{
    return call == TC_CALL_BCAST || call == TC_CALL_REDUCE || call == TC_CALL_GATHER || call == TC_CALL_GATHERV ||
           call == TC_CALL_SCATTER || call == TC_CALL_SCATTERV;
}

/* The collectives whose BYTES may differ between ranks. */
static int is_v(int call)
{
    return call == TC_CALL_ALLGATHERV || call == TC_CALL_GATHERV || call == TC_CALL_SCATTERV ||
           call == TC_CALL_ALLTOALLV || call == TC_CALL_ALLTOALLW;
}

void tc_trace_free(tc_trace *tr)
{
    for (int c = 0; tr->comm && c < tr->ncomms; c++)
        free(tr->comm[c].member);
    for (int r = 0; tr->rec && r < tr->ranks; r++)
        free(tr->rec[r]);
    free(tr->comm);
    free(tr->rec);
    free(tr->n);
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

static int unum(const char *s, uint64_t *v)
{
    char *e;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long x = strtoull(s, &e, 10);
    if (*e || errno)
        return -1;
    *v = x;
    return 0;
}

/* The reader's state beyond the trace: communicators by id (open addressing), how
 * many members each has been given, and each rank's record capacity. */
typedef struct {
    tc_trace *tr;
    int *given, *check, capcomms; /* check: where a repeated definition is compared (size: not repeating) */
    int *slot, nslot;             /* comm index + 1 by hash of id, 0 empty */
    int *cap;
} rdr;

static size_t hash_id(uint64_t id, int nslot) { return (size_t)((id * 0x9E3779B97F4A7C15ull) >> 20) & (size_t)(nslot - 1); }

static int find_comm(const rdr *d, uint64_t id)
{
    for (size_t h = hash_id(id, d->nslot);; h = (h + 1) & (size_t)(d->nslot - 1)) {
        if (!d->slot[h])
            return -1;
        if (d->tr->comm[d->slot[h] - 1].id == id)
            return d->slot[h] - 1;
    }
}

/* A new communicator (id, size): its index, or -1 out of memory. */
static int new_comm(rdr *d, uint64_t id, int size)
{
    tc_trace *tr = d->tr;
    if (tr->ncomms == d->capcomms) {
        int c = d->capcomms ? 2 * d->capcomms : 16;
        tc_trace_comm *a = realloc(tr->comm, (size_t)c * sizeof *a);
        int *g = a ? realloc(d->given, (size_t)c * sizeof *g) : NULL, *k = g ? realloc(d->check, (size_t)c * sizeof *k) : NULL;
        if (a)
            tr->comm = a;
        if (g)
            d->given = g;
        if (!k)
            return -1;
        d->check = k, d->capcomms = c;
    }
    if (2 * (tr->ncomms + 1) > d->nslot) { /* rehash at half full */
        int ns = d->nslot ? 2 * d->nslot : 64, *s = calloc((size_t)ns, sizeof *s);
        if (!s)
            return -1;
        free(d->slot);
        d->slot = s, d->nslot = ns;
        for (int c = 0; c < tr->ncomms; c++) {
            size_t h = hash_id(tr->comm[c].id, ns);
            while (s[h])
                h = (h + 1) & (size_t)(ns - 1);
            s[h] = c + 1;
        }
    }
    int c = tr->ncomms;
    if (!(tr->comm[c].member = malloc((size_t)size * sizeof(int))))
        return -1;
    tr->comm[c].id = id, tr->comm[c].size = size;
    d->given[c] = 0, d->check[c] = size;
    size_t h = hash_id(id, d->nslot);
    while (d->slot[h])
        h = (h + 1) & (size_t)(d->nslot - 1);
    d->slot[h] = c + 1;
    tr->ncomms++;
    return c;
}

/* One 'comm ID SIZE MEMBER...' line (fields fld[0..nf)); 0, or -1 and err. */
static int comm_line(rdr *d, char **fld, int nf, const char *name, long ln, char *err, size_t errlen)
{
    uint64_t id;
    long long size;
    tc_trace *tr = d->tr;
#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)
    if (nf < 4 || unum(fld[1], &id) || num(fld[2], 1, tr->ranks, &size))
        BAD("%s:%ld: expected 'comm ID SIZE MEMBER...' with SIZE in 1..%d and members", name, ln, tr->ranks);
    int c = find_comm(d, id);
    if (c < 0 && (c = new_comm(d, id, (int)size)) < 0)
        BAD("%s: out of memory", name);
    tc_trace_comm *cm = &tr->comm[c];
    if (cm->size != size)
        BAD("%s:%ld: communicator %" PRIu64 " defined again with %lld ranks, before with %d", name, ln, id, size,
            cm->size);
    if (d->given[c] == cm->size && d->check[c] == cm->size)
        d->check[c] = 0; /* a repeated definition: compared member by member */
    for (int f = 3; f < nf; f++) {
        char *dash = strchr(fld[f] + 1, '-');
        long long lo, hi;
        if (dash)
            *dash = 0;
        if (num(fld[f], 0, tr->ranks - 1, &lo) || (dash && num(dash + 1, 0, tr->ranks - 1, &hi)))
            BAD("%s:%ld: member '%s%s%s' is not a rank or a range a-b of ranks in 0..%d", name, ln, fld[f],
                dash ? "-" : "", dash ? dash + 1 : "", tr->ranks - 1);
        if (!dash)
            hi = lo;
        for (long long w = lo;; w += lo <= hi ? 1 : -1) {
            if (d->given[c] < cm->size) {
                for (int k = 0; k < d->given[c]; k++)
                    if (cm->member[k] == w)
                        BAD("%s:%ld: communicator %" PRIu64 " lists rank %lld twice", name, ln, id, w);
                cm->member[d->given[c]++] = (int)w;
            } else if (d->check[c] < cm->size) {
                if (cm->member[d->check[c]] != w)
                    BAD("%s:%ld: communicator %" PRIu64 " defined again with other members (rank %d is %lld, "
                        "before %d)", name, ln, id, d->check[c], w, cm->member[d->check[c]]);
                d->check[c]++;
            } else {
                BAD("%s:%ld: communicator %" PRIu64 " has more than its %d members", name, ln, id, cm->size);
            }
            if (w == hi)
                break;
        }
    }
    return 0;
#undef BAD
}

/* The rank of world rank w in communicator c, or -1. */
static int rank_in(const tc_trace_comm *c, int w)
{
    if (w < c->size && c->member[w] == w) /* the world, and groups of the first ranks in order */
        return w;
    for (int k = 0; k < c->size; k++)
        if (c->member[k] == w)
            return k;
    return -1;
}

int tc_trace_read(FILE *f, const char *name, tc_trace *tr, char *err, size_t errlen)
{
    char line[TC_LINE_MAX], e2[160];
    long ln = 0, ended = -1;
    int rc;
    rdr d = {.tr = tr};
    memset(tr, 0, sizeof *tr);
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto bad; } while (0)
    while ((rc = tc_read_line(f, line, sizeof line, e2, sizeof e2)) == 1) {
        ln++;
        char *fld[TC_LINE_MAX / 2], *save = NULL;
        int nf = 0;
        for (char *w = strtok_r(line, " \t", &save); w && nf < TC_LINE_MAX / 2; w = strtok_r(NULL, " \t", &save))
            fld[nf++] = w;
        long long v[9];
        if (ln == 1) {
            if (nf == 2 && !strcmp(fld[0], "torcoll-trace") && !num(fld[1], 3, 1000000, &v[0]))
                FAIL("%s:1: torcoll-trace %s: a newer format than this reader's (versions 1 and 2)", name, fld[1]);
            if (nf != 2 || strcmp(fld[0], "torcoll-trace") || (strcmp(fld[1], "1") && strcmp(fld[1], "2")))
                FAIL("%s:1: not a torcoll trace (expected 'torcoll-trace 2' or '1'; an OTF2 trace: convert it with "
                     "build/tcotf2)", name);
            tr->version = fld[1][0] - '0';
            continue;
        }
        if (ln == 2) {
            if (nf != 2 || strcmp(fld[0], "ranks") || num(fld[1], 1, 65536, &v[0]))
                FAIL("%s:2: expected 'ranks R' with R in 1..65536", name);
            tr->ranks = (int)v[0];
            tr->n = calloc((size_t)tr->ranks, sizeof *tr->n);
            tr->rec = calloc((size_t)tr->ranks, sizeof *tr->rec);
            d.cap = calloc((size_t)tr->ranks, sizeof *d.cap);
            if (!tr->n || !tr->rec || !d.cap || new_comm(&d, 0, tr->ranks) < 0)
                FAIL("%s: out of memory", name);
            for (int k = 0; k < tr->ranks; k++) /* the world: defined, a line for it is a repeat */
                tr->comm[0].member[k] = k;
            d.given[0] = tr->ranks;
            continue;
        }
        if (nf == 0 || fld[0][0] == '#')
            continue;
        if (ended >= 0)
            FAIL("%s:%ld: a line after the end line", name, ln);
        if (!strcmp(fld[0], "end")) {
            if (nf != 2 || num(fld[1], 0, 1LL << 40, &v[0]))
                FAIL("%s:%ld: expected 'end N'", name, ln);
            if (v[0] != tr->records)
                FAIL("%s:%ld: the end line counts %lld records, the file has %ld", name, ln, v[0], tr->records);
            ended = ln;
            continue;
        }
        if (!strcmp(fld[0], "comm")) {
            if (tr->version < 2)
                FAIL("%s:%ld: a 'comm' line in a version 1 trace", name, ln);
            if (comm_line(&d, fld, nf, name, ln, err, errlen))
                goto bad;
            continue;
        }
        if (nf != 9)
            FAIL("%s:%ld: %d fields, expected 9 (RANK CALL COMM ROOT BYTES OP TYPE GAP_NS DUR_NS)", name, ln, nf);
        tc_trace_rec r;
        memset(&r, 0, sizeof r);
        r.line = ln;
        if (num(fld[0], 0, tr->ranks - 1, &v[0]))
            FAIL("%s:%ld: rank '%s' is not in 0..%d", name, ln, fld[0], tr->ranks - 1);
        int me = (int)v[0];
        const char *cn = fld[1];
        if (tr->version >= 2 && cn[0] == 'i' && cn[1]) /* a nonblocking call */
            r.nb = 1, cn++;
        for (r.call = 0; r.call < TC_CALL_OTHER && strcmp(cn, tc_call_names[r.call]); r.call++)
            ;
        if (!strncmp(fld[1], "MPI_", 4)) { /* a call the replay does not model, by its name */
            size_t k = 4, len = strlen(fld[1]);
            while (k < len && (fld[1][k] == '_' || (fld[1][k] >= '0' && fld[1][k] <= '9') ||
                               ((fld[1][k] | 32) >= 'a' && (fld[1][k] | 32) <= 'z')))
                k++;
            if (len == 4 || k < len || len >= sizeof r.name)
                FAIL("%s:%ld: call '%s' is not an MPI name (MPI_ and up to %zu letters, digits and '_')", name, ln,
                     fld[1], sizeof r.name - 5);
            r.call = TC_CALL_OTHER, r.nb = 0;
            strcpy(r.name, fld[1]);
        }
        if (r.name[0] && tr->version < 2)
            FAIL("%s:%ld: call '%s' in a version 1 trace (it has only bcast, reduce, allreduce, barrier, allgather)",
                 name, ln, fld[1]);
        if ((r.call == TC_CALL_OTHER && !r.name[0]) || (r.nb && r.call == TC_CALL_WAIT) ||
            (tr->version < 2 && r.call > TC_CALL_ALLGATHER))
            FAIL("%s:%ld: call '%s' is none of %s", name, ln, fld[1], tr->version < 2
                 ? "bcast, reduce, allreduce, barrier, allgather (version 1)"
                 : "the collectives (bcast ... exscan, each also with an 'i' in front), send, isend, recv, irecv, "
                   "wait, or an MPI name (MPI_Put: a call the replay does not model)");
        if (tr->version < 2) { /* COMM is the size, and only the world's can be placed */
            if (num(fld[2], 1, tr->ranks, &v[2]))
                FAIL("%s:%ld: communicator size '%s' is not in 1..%d", name, ln, fld[2], tr->ranks);
            if (v[2] != tr->ranks)
                FAIL("%s:%ld: a %s on a communicator of %lld of the %d ranks: a version 1 trace does not say which "
                     "ranks; record it again (format 2 defines every communicator)", name, ln, fld[1], v[2], tr->ranks);
            r.comm = 0;
        } else {
            uint64_t id;
            if (unum(fld[2], &id) || (r.comm = find_comm(&d, id)) < 0)
                FAIL("%s:%ld: communicator '%s' is not defined (a 'comm' line must come before its first use)", name,
                     ln, fld[2]);
            if (d.given[r.comm] < tr->comm[r.comm].size)
                FAIL("%s:%ld: communicator %s is used before all its %d members are given", name, ln, fld[2],
                     tr->comm[r.comm].size);
        }
        const tc_trace_comm *cm = &tr->comm[r.comm];
        if (rank_in(cm, me) < 0)
            FAIL("%s:%ld: rank %d makes a call on communicator %s, which it is not a member of", name, ln, me, fld[2]);
        long long rlo = -1, rhi = -1; /* ROOT's range */
        if (r.call == TC_CALL_WAIT)
            rlo = 0, rhi = tr->n[me] - 1;
        else if (r.call == TC_CALL_SEND || r.call == TC_CALL_RECV)
            rlo = r.call == TC_CALL_RECV && r.nb ? -1 : 0, rhi = cm->size - 1;
        else if (r.call == TC_CALL_OTHER) /* its peer or target, or none */
            rlo = -1, rhi = cm->size - 1;
        else if (has_root(r.call))
            rlo = 0, rhi = cm->size - 1;
        if (num(fld[3], rlo, rhi, &v[3]))
            FAIL("%s:%ld: %s '%s' is not in %lld..%lld (%s)", name, ln,
                 r.call == TC_CALL_WAIT ? "the waited record" : r.call == TC_CALL_OTHER ? "peer or target"
                 : r.call >= TC_CALL_SEND ? "peer" : "root", fld[3],
                 rlo, rhi, r.call == TC_CALL_WAIT ? "an earlier record of its rank"
                 : r.call == TC_CALL_OTHER ? "a rank of the communicator, or -1 for none"
                 : r.call >= TC_CALL_SEND ? "a rank of the communicator" : has_root(r.call)
                 ? "bcast, reduce, gather and scatter have a root in the communicator" : "this call has no root");
        if (num(fld[4], 0, 1LL << 40, &v[4]))
            FAIL("%s:%ld: bytes '%s' is not a number in 0..2^40", name, ln, fld[4]);
        if ((r.call == TC_CALL_BARRIER || r.call == TC_CALL_WAIT) && v[4])
            FAIL("%s:%ld: %s with %lld bytes (a barrier and a wait have none)", name, ln, fld[1], v[4]);
        if (strlen(fld[5]) >= sizeof r.op || strlen(fld[6]) >= sizeof r.type)
            FAIL("%s:%ld: operation or type name longer than %zu characters", name, ln, sizeof r.op - 1);
        if ((r.call == TC_CALL_SEND || r.call == TC_CALL_RECV) && num(fld[5], -1, 1LL << 31, &v[5]))
            FAIL("%s:%ld: a message's tag '%s' (the OP field) is not a number", name, ln, fld[5]);
        if (num(fld[7], 0, 1LL << 62, &v[7]) || num(fld[8], 0, 1LL << 62, &v[8]))
            FAIL("%s:%ld: GAP_NS and DUR_NS must be numbers of nanoseconds", name, ln);
        if (r.call == TC_CALL_WAIT) {
            tc_trace_rec *x = &tr->rec[me][v[3]];
            if (x->nb != 1)
                FAIL("%s:%ld: rank %d's wait for its record %lld (line %ld), %s", name, ln, me, v[3], x->line,
                     x->nb ? "which an earlier wait completed" : "a blocking call");
            x->nb = 2;
        }
        r.root = (int)v[3], r.bytes = (uint64_t)v[4], r.gap_ns = (uint64_t)v[7], r.dur_ns = (uint64_t)v[8];
        strcpy(r.op, fld[5]);
        strcpy(r.type, fld[6]);
        if (tr->n[me] == d.cap[me]) {
            int c = d.cap[me] ? 2 * d.cap[me] : 64;
            tc_trace_rec *a = realloc(tr->rec[me], (size_t)c * sizeof *a);
            if (!a)
                FAIL("%s: out of memory", name);
            tr->rec[me] = a, d.cap[me] = c;
        }
        tr->rec[me][tr->n[me]++] = r;
        tr->records++;
    }
    if (rc < 0)
        FAIL("%s:%ld: %s%s", name, ln + 1, e2,
             ln ? "" : " (not a torcoll trace; an OTF2 trace: convert it with build/tcotf2)");
    if (ln < 2)
        FAIL("%s: %s", name, ln ? "truncated after the first line (no 'ranks' line)" : "empty, not a trace");
    if (ended < 0)
        FAIL("%s: truncated: %ld records and no 'end' line", name, tr->records);
    for (int c = 0; c < tr->ncomms; c++)
        if (d.given[c] < tr->comm[c].size || d.check[c] < tr->comm[c].size)
            FAIL("%s: communicator %" PRIu64 " is given %d of its %d members", name, tr->comm[c].id,
                 d.given[c] < tr->comm[c].size ? d.given[c] : d.check[c], tr->comm[c].size);
    free(d.given), free(d.check), free(d.slot), free(d.cap);
    return 0;
bad:
#undef FAIL
    free(d.given), free(d.check), free(d.slot), free(d.cap);
    tc_trace_free(tr);
    return -1;
}

void tc_trace_write(FILE *f, const tc_trace *tr)
{
    fprintf(f, "torcoll-trace 2\nranks %d\n", tr->ranks);
    for (int c = 1; c < tr->ncomms; c++) { /* ranges a-b, lines of about 900 characters */
        const tc_trace_comm *cm = &tr->comm[c];
        int len = 0;
        for (int k = 0; k < cm->size;) {
            int j = k, step = k + 1 < cm->size && abs(cm->member[k + 1] - cm->member[k]) == 1
                                  ? cm->member[k + 1] - cm->member[k] : 0;
            while (step && j + 1 < cm->size && cm->member[j + 1] == cm->member[j] + step)
                j++;
            if (!len)
                len = fprintf(f, "comm %" PRIu64 " %d", cm->id, cm->size);
            len += j > k ? fprintf(f, " %d-%d", cm->member[k], cm->member[j]) : fprintf(f, " %d", cm->member[k]);
            k = j + 1;
            if (len > 900 || k == cm->size)
                fputc('\n', f), len = 0;
        }
    }
    fprintf(f, "# rank call comm root|peer|wait bytes op|tag type gap_ns dur_ns\n");
    for (int r = 0; r < tr->ranks; r++)
        for (int i = 0; i < tr->n[r]; i++) {
            const tc_trace_rec *x = &tr->rec[r][i];
            fprintf(f, "%d %s%s %" PRIu64 " %d %" PRIu64 " %s %s %" PRIu64 " %" PRIu64 "\n", r, x->nb ? "i" : "",
                    x->call == TC_CALL_OTHER ? x->name : tc_call_names[x->call], tr->comm[x->comm].id, x->root,
                    x->bytes, x->op, x->type, x->gap_ns, x->dur_ns);
        }
    fprintf(f, "end %ld\n", tr->records);
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

/* ---------------------------------------------------------------- replay */
/* Where a call runs in the subnet's configuration. The Reducer sums, compares and
 * combines bits of 32- and 64-bit integer lanes, sums binary64 and binary32 values as
 * binned elements (FSUM, 2 flits a value) and takes fmin/fmax as signed keys of the
 * values' width (docs/fpsum.md); a reduction it cannot do (a user op, PROD, the logical
 * ops, types of other widths or unknown names) runs over point-to-point, as an MPI
 * library would leave it in software; so do the calls no tree operation does
 * (gather, all-to-all, scan), and a group's calls when the 16 trees are taken by
 * earlier groups. A call the subnet would take longer than point-to-point runs over
 * point-to-point too (PATH_SLOWER), as a library tuned per message size picks the
 * faster; its subnet time is kept and shown. A call on one rank, or of no bytes (but
 * a barrier), is local: Open MPI returns from it at once. */
enum { PATH_SUBNET, PATH_INT, PATH_FSUM, PATH_FSUM2, PATH_FKEY, PATH_P2P, PATH_NOTREE, PATH_SLOWER, PATH_LOCAL, PATHS };
static const char *const path_names[PATHS] = {"subnet", "subnet int", "subnet fsum", "subnet fsum, two passes",
                                              "subnet fmin/fmax", "p2p",
                                              "p2p (no free tree)", "p2p (subnet slower)", "local"};
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
    switch (r->call) {
    case TC_CALL_BCAST: case TC_CALL_BARRIER: case TC_CALL_ALLGATHER: case TC_CALL_ALLGATHERV:
    case TC_CALL_SCATTER: case TC_CALL_SCATTERV: /* a scatter: the root's whole buffer broadcast */
        return PATH_SUBNET;
    case TC_CALL_REDUCE: case TC_CALL_ALLREDUCE:
    case TC_CALL_REDUCE_SCATTER: case TC_CALL_REDUCE_SCATTER_BLOCK: /* an allreduce, each keeping its part */
        break;
    default:
        return PATH_P2P;
    }
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


/* One call's latency, timed once for each kind, root, bytes, op, type and group. */
typedef struct {
    const tc_trace_rec *rec; /* the first of its kind: call, root, op and type */
    uint64_t bytes;          /* the largest of its ranks' BYTES */
    int comm, path, exact;
    int alg;                 /* the point-to-point algorithm (alg_name) */
    uint64_t hw, sw;
    uint64_t subnet;         /* the subnet's time, whether taken or not (0: not on the subnet) */
} timed;

static const tc_wl_kind kind_of[TC_CALL_COLLS] = {
    [TC_CALL_BCAST] = TC_WL_BCAST,         [TC_CALL_REDUCE] = TC_WL_REDUCE,       [TC_CALL_ALLREDUCE] = TC_WL_ALLREDUCE,
    [TC_CALL_BARRIER] = TC_WL_BARRIER,     [TC_CALL_ALLGATHER] = TC_WL_ALLGATHER, [TC_CALL_ALLGATHERV] = TC_WL_ALLGATHER,
    [TC_CALL_SCATTER] = TC_WL_BCAST,       [TC_CALL_SCATTERV] = TC_WL_BCAST,
    [TC_CALL_REDUCE_SCATTER] = TC_WL_ALLREDUCE, [TC_CALL_REDUCE_SCATTER_BLOCK] = TC_WL_ALLREDUCE};

static int flits_of(tc_app *a, uint64_t bytes, const char *what, int *flits)
{
    uint64_t f = (bytes + 15) / 16;
    if (f > (1u << 26)) {
        snprintf(a->err, sizeof a->err, "trace: a %s of %" PRIu64 " bytes is beyond the replay", what, bytes);
        return -1;
    }
    *flits = (int)f;
    return 0;
}

/* The point-to-point algorithms a replayed call can take: those of p2p_coll.c, and
 * the pairwise exchange of an all-to-all. */
#define ALG_PAIRWISE TC_P2P_ALGS
#define ALGS (TC_P2P_ALGS + 1)
static const char *alg_name(int alg) { return alg < TC_P2P_ALGS ? tc_p2p_alg_names[alg] : "pairwise"; }

/* The point-to-point time of a call among n ranks on node[], and its algorithm
 * (*alg), with the LogGP costs a->m.cost (o at each end of a message, g between a
 * rank's injections, the reduction's arithmetic). Bcast, reduce, allreduce, barrier
 * and allgather(v) as a tuned MPI library runs them: every algorithm of
 * cmodel/netsim/p2p_coll.c that fits, the fastest (tc_p2p_coll_best, as the
 * applications and tcnet impl=p2p p2p_alg=auto). The others by an MPI library's
 * algorithm (tc_p2p_coll_other): gather and scatter linear to or from the root,
 * all-to-all pairwise (n - 1 steps, a v-variant's block its total over n),
 * reduce_scatter a ring (n - 1 steps of a block), scan and exscan by recursive
 * doubling. */
static int p2p_time(tc_app *a, int call, const int *node, int n, int root, uint64_t bytes, uint64_t *out, int *alg)
{
    int flits;
    if (call <= TC_CALL_ALLGATHERV) {
        uint64_t t[TC_P2P_ALGS];
        tc_p2p_alg best;
        if (flits_of(a, bytes, tc_call_names[call], &flits))
            return -1;
        if (tc_p2p_coll_best(&a->m, kind_of[call], flits, root < 0 ? 0 : root, node, n, t, &best, NULL, out)) {
            snprintf(a->err, sizeof a->err, "%s", a->m.err);
            return -1;
        }
        *alg = (int)best;
        return 0;
    }
    static const struct {
        tc_p2p_other what;
        int alg;
    } other[TC_CALL_COLLS] = {
        [TC_CALL_GATHER] = {TC_P2P_GATHER, TC_P2P_LINEAR},     [TC_CALL_GATHERV] = {TC_P2P_GATHER, TC_P2P_LINEAR},
        [TC_CALL_SCATTER] = {TC_P2P_SCATTER, TC_P2P_LINEAR},   [TC_CALL_SCATTERV] = {TC_P2P_SCATTER, TC_P2P_LINEAR},
        [TC_CALL_ALLTOALL] = {TC_P2P_ALLTOALL, ALG_PAIRWISE},  [TC_CALL_ALLTOALLV] = {TC_P2P_ALLTOALL, ALG_PAIRWISE},
        [TC_CALL_ALLTOALLW] = {TC_P2P_ALLTOALL, ALG_PAIRWISE},
        [TC_CALL_REDUCE_SCATTER] = {TC_P2P_REDUCE_SCATTER, TC_P2P_RING},
        [TC_CALL_REDUCE_SCATTER_BLOCK] = {TC_P2P_REDUCE_SCATTER, TC_P2P_RING},
        [TC_CALL_SCAN] = {TC_P2P_SCAN, TC_P2P_RECDBL},          [TC_CALL_EXSCAN] = {TC_P2P_SCAN, TC_P2P_RECDBL},
    };
    uint64_t per = call == TC_CALL_ALLTOALLV || call == TC_CALL_ALLTOALLW ? (bytes + (uint64_t)n - 1) / (uint64_t)n
                                                                        : bytes;
    *alg = other[call].alg;
    if (flits_of(a, per, tc_call_names[call], &flits))
        return -1;
    if (tc_p2p_coll_other(&a->m, other[call].what, flits, root < 0 ? 0 : root, node, n, out)) {
        snprintf(a->err, sizeof a->err, "%s", a->m.err);
        return -1;
    }
    return 0;
}

/* A long floating-point sum in two passes too (docs/fpsum.md, as tcnet fsum_pass = 2):
 * the exponents' maximum, 4 a flit, then a word a flit, striped as the one pass (w),
 * the second from the cycle after the first's last result, on a network of its own.
 * Where it is the faster the call takes it (PATH_FSUM2); it needs no more than
 * 2^TC_FPS2_MAX_H ranks. */
static int fsum_two_pass(tc_app *a, const tc_workload *w, uint64_t nvals, const uint8_t *pe, int at, timed *out)
{
    tc_workload wf = *w, w1, w2;
    wf.len = a->p.red_flits; /* words and keys fill the Reducer, whatever its parity */
    tc_fpvec_two_pass(&wf, nvals, a->p.red_rids, &w1, &w2);
    w1.drain = 0;
    tc_net *shared = a->net, *net = tc_net_new(&a->p, a->err, sizeof a->err);
    if (!net)
        return -1;
    a->net = net;
    memset(a->rid_next, 0, sizeof a->rid_next);
    tc_app_table(a, pe);
    uint64_t t1 = 0, t2 = 0;
    int rc = tc_app_run_hw_at(a, &w1, -1, &t1);
    a->rid_next[w->tree] = (uint8_t)w2.rid0;
    if (!rc)
        rc = tc_app_run_hw_at(a, &w2, at, &t2);
    tc_net_free(net);
    a->net = shared;
    if (!rc && t1 + t2 < out->hw)
        out->hw = t1 + t2, out->path = PATH_FSUM2;
    return rc;
}

/* The subnet's time of call r (bytes: its ranks' largest) on the n ranks at node[]
 * (pe: their nodes) on the group's tree `slot`, planned over them (rooted at the
 * call's root, or spread as the table spreads its roots). An all-gather uses all 16
 * trees, planned over the group for it; so does a reduction of more than one
 * operation (red_flits data flits each), striped as tcnet's long reductions
 * (workload=allreduce bytes=B trees=16 window=16 red_rids): its operations dealt round
 * the 16 trees, at most red_rids in flight on each, a reduce's as allreduces (every PE paces
 * its stream on their results; a reduce's go down the whole tree anyway), its time
 * to the last result at its root. Measured against the group's one tree (16 in
 * flight, a reduce's one after another) with groups of 8 to 64 ranks (the worlds of
 * 2x2x2, 4x4, 4x4x4, and 8 ranks spread over 8x8), the stripe is never slower: an
 * allreduce as fast up to 8 operations, 1.04-1.08x faster at 16, 3.9-5.8x at 256; a
 * reduce 1.7-1.8x faster at 2 operations. Each call plans its trees again, so the other groups' trees are
 * theirs when they next run. Each call runs on a network of its own, from reset,
 * its trees' rows written into it: a call is timed on idle channels, and every tree's
 * ReduceIds and credits start from reset, whatever trees earlier calls planned over
 * other nodes or roots (a tree planned anew finds, on the routers of an earlier plan,
 * a ReduceId turn and credits its other routers never had). 0, or -1 and a->err. */
static int hw_time(tc_app *a, const tc_trace_rec *r, uint64_t bytes, const int *node, int n, const uint8_t *pe,
                   int slot, int path, int lane, timed *out)
{
    if (r->call == TC_CALL_SCATTER || r->call == TC_CALL_SCATTERV)
        bytes *= (uint64_t)n; /* the root broadcasts the whole buffer; each rank keeps its part */
    uint64_t flits = (bytes + 15) / 16, vbytes = lane == TC_LANE_32 ? 4 : 8;
    if (path == PATH_FSUM) /* a binned element of 2 flits a value */
        flits = 2 * ((bytes + vbytes - 1) / vbytes);
    int pk7 = (int)((flits + 6) / 7), red = a->p.red_flits, call = r->call;
    /* drained: no packet of the call left when it ends (an ERROR packet late is seen) */
    tc_workload w = {.kind = kind_of[call], .tree = slot, .repeat = 1, .max_cycles = a->max_cycles, .drain = 1};
    if (flits > (1u << 26)) {
        snprintf(a->err, sizeof a->err, "trace: a %s of %" PRIu64 " bytes is beyond the replay", tc_call_names[call],
                 bytes);
        return -1;
    }
    int rooted = w.kind == TC_WL_BCAST || w.kind == TC_WL_REDUCE, stripe = 0;
    switch (w.kind) {
    case TC_WL_REDUCE:
    case TC_WL_ALLREDUCE: /* the Reducer holds red_flits data flits: longer vectors in several operations */
        if (path == PATH_FSUM) { /* whole elements: an even length */
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
        w.lane = lane;
        if (w.repeat > 1) { /* a stream over the 16 trees, red_rids in flight on each */
            stripe = 1;
            w.tree = 0, w.trees = TC_TREES, w.window = a->p.red_rids * TC_TREES;
            w.kind = TC_WL_ALLREDUCE; /* a reduce's too: every PE paces its stream on the results */
        }
        break;
    case TC_WL_BARRIER:
        w.kind = TC_WL_TREE_BARRIER;
        break;
    default:
        w.len = flits < 7 ? (int)flits : 7;
        w.packets = pk7;
        break;
    }
    tc_net *shared = a->net, *net = tc_net_new(&a->p, a->err, sizeof a->err);
    if (!net)
        return -1;
    a->net = net;
    memset(a->rid_next, 0, sizeof a->rid_next);
    if (w.kind == TC_WL_ALLGATHER || stripe)
        tc_app_table(a, pe);
    if (!stripe) {
        tc_plan_tree(a->t, a->rows, slot, rooted ? node[r->root] : node[(long)slot * n / TC_TREES], pe);
        for (int k = 0; k < a->t->n; k++)
            tc_net_cfg(a->net, k, slot, TC_ROWP(a->rows, k, slot));
    }
    if (rooted && !stripe)
        w.dst = node[r->root];
    int rc, at = stripe && kind_of[call] == TC_WL_REDUCE ? node[r->root] : -1; /* a striped reduce: its root's last */
    if (w.kind == TC_WL_ALLGATHER && pk7 > 1) {
        tc_app_time t;
        rc = tc_app_allgather_hw(a, pk7, &t);
        out->hw = t.cycles;
        out->exact = t.exact;
    } else {
        rc = tc_app_run_hw_at(a, &w, at, &out->hw);
    }
    tc_net_free(net);
    a->net = shared;
    if (!rc && path == PATH_FSUM && stripe && n <= 1 << TC_FPS2_MAX_H)
        rc = fsum_two_pass(a, &w, (bytes + vbytes - 1) / vbytes, pe, at, out);
    return rc;
}

/* The replay's state. Each rank runs its records in order; a collective ends for
 * all its group when the last member arrives, its latency later (an instance: the
 * seq-th collective on a communicator); a message leaves when its sender reaches it
 * and arrives when the point-to-point model (its links shared by every message in
 * flight) delivers it; a receive or a wait holds its rank until then. The rank with
 * the earliest time moves next, so messages enter the model in time order. */
typedef struct {
    int arrived, done, cache;
    const tc_trace_rec *r; /* the first member's record */
    uint64_t tmax, bmax, end;
} inst;

typedef struct {
    inst *v;
    int n, cap;
    int *seq;   /* per comm rank: its next collective */
    int tree;   /* the tree slot the group holds: -1 none yet, -2 none left */
} cstate;

typedef struct msg {
    int comm, src, dst, tag, rec; /* world ranks; rec: a posted irecv's record */
    uint64_t t;                   /* a send: its delivery */
    struct msg *next;
} msg;

enum { RUN, IN_COLL, IN_RECV, IN_WAIT, DONE };
typedef struct {
    int pos, state, bc, bs; /* blocked on instance (bc, bs), or on its record bs */
    uint64_t t, gaps, real;
    uint64_t nic;           /* the cycle its next message may leave, g after the last (LogGP's gap) */
    uint64_t *when;         /* per record: a nonblocking send's return, a receive's arrival (UINT64_MAX: not yet) */
    int *seq;               /* per record: a nonblocking collective's instance (-1: local) */
    msg *sends, *posted;    /* messages to it not yet received; its irecvs not yet matched */
} rstate;

typedef struct {
    uint64_t n, bytes, hw, sw, path[PATHS];
    uint64_t alg[ALGS];     /* calls by their point-to-point algorithm */
} kstat;

typedef struct {
    tc_app *a;
    tc_trace *tr;
    double ns;
    const int *node;        /* rank -> node */
    int *gnode;             /* scratch: a group's nodes */
    uint8_t *pe;
    timed *cache;
    size_t ncache, capcache;
    int trees;              /* tree slots given to groups */
    int pass;               /* 0: the subnet (with p2p messages), 1: the point-to-point network alone */
    cstate *cs;
    rstate *rs;
    tc_p2p msgm;            /* the messages' model, its links' state carried from message to message */
    kstat k[TC_CALLS];      /* per call kind (messages under send); times per pass in hw, sw */
    uint64_t comm_time[2], msg_time[2], end[2];
    char why[64][80];       /* what ran over point-to-point, and how often */
    uint64_t whyn[64];
    int nwhy;
    struct { char name[32]; uint64_t n, bytes, ns; } un[64]; /* the calls not modelled, by name (all ranks') */
    int nun;
    FILE *json;
    int shown, listed;
    int bad;                /* the trace, not a run, failed: its ranks' calls do not match */
} rp;

static void why(rp *x, const char *text)
{
    int i = 0;
    while (i < x->nwhy && strcmp(x->why[i], text))
        i++;
    if (i == x->nwhy && x->nwhy < 64)
        snprintf(x->why[x->nwhy++], sizeof x->why[0], "%s", text);
    if (i < x->nwhy)
        x->whyn[i]++;
}

static uint64_t cyc(const rp *x, uint64_t ns) { return (uint64_t)((double)ns / x->ns + 0.5); }

static void advance(rp *x, int r)
{
    rstate *s = &x->rs[r];
    s->state = RUN;
    if (++s->pos >= x->tr->n[r]) {
        s->state = DONE;
        return;
    }
    const tc_trace_rec *q = &x->tr->rec[r][s->pos];
    s->t += cyc(x, q->gap_ns);
    s->gaps += cyc(x, q->gap_ns);
    s->real += q->gap_ns + q->dur_ns;
}

/* The cache entry of instance in of communicator c (timed when new). */
static int lookup(rp *x, const inst *in, int c)
{
    tc_app *a = x->a;
    const tc_trace_rec *r = in->r;
    for (size_t i = 0; i < x->ncache; i++) {
        const timed *k = &x->cache[i];
        if (k->comm == c && k->rec->call == r->call && k->rec->root == r->root && k->bytes == in->bmax &&
            !strcmp(k->rec->op, r->op) && !strcmp(k->rec->type, r->type))
            return (int)i;
    }
    if (x->ncache == x->capcache) {
        size_t n = x->capcache ? 2 * x->capcache : 64;
        timed *t = realloc(x->cache, n * sizeof *t);
        if (!t) {
            snprintf(a->err, sizeof a->err, "trace: out of memory");
            return -1;
        }
        x->cache = t, x->capcache = n;
    }
    timed *out = &x->cache[x->ncache];
    const tc_trace_comm *cm = &x->tr->comm[c];
    int lane;
    *out = (timed){r, in->bmax, c, path_of(r, &lane), 1, 0, 0, 0, 0};
    memset(x->pe, 0, (size_t)a->t->n);
    for (int k = 0; k < cm->size; k++)
        x->gnode[k] = x->node[cm->member[k]], x->pe[x->gnode[k]] = 1;
    if (out->path != PATH_P2P && x->cs[c].tree == -1) /* the group's first call on the subnet takes a tree */
        x->cs[c].tree = x->trees < TC_TREES ? x->trees++ : -2;
    if (out->path != PATH_P2P && x->cs[c].tree == -2)
        out->path = PATH_NOTREE;
    if (p2p_time(a, r->call, x->gnode, cm->size, r->root, in->bmax, &out->sw, &out->alg))
        return -1;
    out->hw = out->sw;
    if (out->path < PATH_P2P && hw_time(a, r, in->bmax, x->gnode, cm->size, x->pe, x->cs[c].tree, out->path, lane, out))
        return -1;
    if (out->path < PATH_P2P) {
        out->subnet = out->hw;
        if (out->hw > out->sw) /* the library takes the faster */
            out->path = PATH_SLOWER, out->hw = out->sw;
    }
    return (int)x->ncache++;
}

static int wake(rp *x, int r, uint64_t t)
{
    rstate *s = &x->rs[r];
    s->t = t > s->t ? t : s->t;
    advance(x, r);
    return 0;
}

/* Rank r receives a message that arrived at t: its CPU takes it (LogGP's o) once it
 * is there and the rank has come to it. */
static int received(rp *x, int r, uint64_t t)
{
    const rstate *s = &x->rs[r];
    return wake(x, r, (t > s->t ? t : s->t) + x->a->m.cost.o_recv);
}

/* Instance in of communicator c has all its members: timed, its members released. */
static int complete(rp *x, int c, int seq)
{
    inst *in = &x->cs[c].v[seq];
    int i = lookup(x, in, c);
    if (i < 0)
        return -1;
    const timed *k = &x->cache[i];
    uint64_t lat = x->pass ? k->sw : k->hw;
    in->done = 1, in->end = in->tmax + lat;
    kstat *ks = &x->k[in->r->call];
    x->comm_time[x->pass] += lat;
    if (!x->pass) {
        ks->n++, ks->bytes += in->bmax, ks->path[k->path]++, ks->alg[k->alg]++, ks->hw += k->hw, ks->sw += k->sw;
        char w[80];
        if (k->path == PATH_P2P && in->r->call <= TC_CALL_REDUCE_SCATTER_BLOCK && in->r->call != TC_CALL_GATHER &&
            in->r->call != TC_CALL_GATHERV && (in->r->call < TC_CALL_ALLTOALL || in->r->call > TC_CALL_ALLTOALLW))
            snprintf(w, sizeof w, "%s %s %s", tc_call_names[in->r->call], in->r->op, in->r->type);
        else
            snprintf(w, sizeof w, "%s%s", tc_call_names[in->r->call],
                     k->path == PATH_NOTREE ? " (no free tree)" : k->path == PATH_SLOWER ? " (subnet slower)" : "");
        if (k->path == PATH_P2P || k->path == PATH_NOTREE || k->path == PATH_SLOWER)
            why(x, w);
        const tc_trace_comm *cm = &x->tr->comm[c];
        char sub[48] = "";
        if (k->path == PATH_SLOWER)
            snprintf(sub, sizeof sub, ": %" PRIu64 " cycles there", k->subnet);
        if (x->shown < 100)
            printf("  %5d %-20s %6d %10" PRIu64 " %5d %12" PRIu64 " %12" PRIu64 " %7.2fx  %s%s%s; %s\n", ++x->shown,
                   tc_call_names[in->r->call], cm->size, in->bmax, in->r->root, k->hw, k->sw,
                   (double)k->sw / (double)(k->hw ? k->hw : 1), path_names[k->path], sub,
                   k->exact ? "" : " (modelled)", alg_name(k->alg));
        if (x->json)
            fprintf(x->json, "%s  {\"call\": \"%s\", \"comm\": %" PRIu64 ", \"ranks\": %d, \"bytes\": %" PRIu64
                    ", \"root\": %d, \"op\": \"%s\", \"type\": \"%s\", \"path\": \"%s\", \"hw\": %" PRIu64
                    ", \"p2p\": %" PRIu64 ", \"p2p_alg\": \"%s\", \"subnet\": %" PRIu64 ", \"exact\": %s}",
                    x->listed++ ? ",\n" : "", tc_call_names[in->r->call], cm->id, cm->size, in->bmax, in->r->root,
                    in->r->op, in->r->type, path_names[k->path], k->hw, k->sw, alg_name(k->alg), k->subnet,
                    k->exact ? "true" : "false");
    }
    const tc_trace_comm *cm = &x->tr->comm[c];
    for (int m = 0; m < cm->size; m++) {
        rstate *s = &x->rs[cm->member[m]];
        if (s->state == IN_COLL && s->bc == c && s->bs == seq)
            wake(x, cm->member[m], in->end);
    }
    return 0;
}

/* A local call (one rank, or no bytes): no network, no wait for the others; counted
 * once, at its group's rank 0. */
static void local(rp *x, int r, const tc_trace_rec *q)
{
    if (!x->pass && rank_in(&x->tr->comm[q->comm], r) == 0)
        x->k[q->call].n++, x->k[q->call].bytes += q->bytes, x->k[q->call].path[PATH_LOCAL]++;
}

/* A collective's arrival: 0, or -1 and a->err (the members disagree). */
static int arrive(rp *x, int r, const tc_trace_rec *q)
{
    rstate *s = &x->rs[r];
    const tc_trace_comm *cm = &x->tr->comm[q->comm];
    if (cm->size == 1 || (q->bytes == 0 && q->call != TC_CALL_BARRIER && !is_v(q->call))) {
        local(x, r, q);
        s->seq[s->pos] = -1, s->when[s->pos] = s->t;
        advance(x, r);
        return 0;
    }
    cstate *c = &x->cs[q->comm];
    int me = rank_in(cm, r), seq = c->seq[me]++;
    if (seq == c->cap) {
        int n = c->cap ? 2 * c->cap : 16;
        inst *v = realloc(c->v, (size_t)n * sizeof *v);
        if (!v) {
            snprintf(x->a->err, sizeof x->a->err, "trace: out of memory");
            return -1;
        }
        memset(v + c->cap, 0, (size_t)(n - c->cap) * sizeof *v);
        c->v = v, c->cap = n;
    }
    c->n = seq + 1 > c->n ? seq + 1 : c->n;
    inst *in = &c->v[seq];
    if (!in->r) {
        in->r = q;
    } else if (in->r->call != q->call || in->r->root != q->root || (!is_v(q->call) && in->r->bytes != q->bytes)) {
        x->bad = 1;
        snprintf(x->a->err, sizeof x->a->err, "trace: line %ld: rank %d's collective %d on communicator %" PRIu64
                 " is a %s (root %d, %" PRIu64 " bytes); line %ld: another member's a %s (root %d, %" PRIu64 " bytes)",
                 q->line, r, seq + 1, cm->id, tc_call_names[q->call], q->root, q->bytes, in->r->line,
                 tc_call_names[in->r->call], in->r->root, in->r->bytes);
        return -1;
    }
    in->tmax = s->t > in->tmax ? s->t : in->tmax;
    in->bmax = q->bytes > in->bmax ? q->bytes : in->bmax;
    if (q->nb) {
        s->seq[s->pos] = seq;
        advance(x, r);
    } else {
        s->state = IN_COLL, s->bc = q->comm, s->bs = seq;
    }
    if (++in->arrived == cm->size)
        return complete(x, q->comm, seq);
    return 0;
}

static int matches(const msg *m, int comm, int src, int tag) { return m->comm == comm && m->src == src && m->tag == tag; }

/* A message from world rank src reaches rank dst at t: the earliest matching
 * posted irecv takes it, else a blocking recv waiting for it, else it waits. */
static int deliver(rp *x, int comm, int src, int dst, int tag, uint64_t t)
{
    rstate *d = &x->rs[dst];
    for (msg **p = &d->posted; *p; p = &(*p)->next)
        if (matches(*p, comm, src, tag)) {
            msg *m = *p;
            d->when[m->rec] = t;
            *p = m->next;
            if (d->state == IN_WAIT && d->bs == m->rec)
                received(x, dst, t);
            free(m);
            return 0;
        }
    if (d->state == IN_RECV) {
        const tc_trace_rec *q = &x->tr->rec[dst][d->pos];
        if (q->comm == comm && x->tr->comm[comm].member[q->root] == src && atoi(q->op) == tag)
            return received(x, dst, t);
    }
    msg *m = malloc(sizeof *m), **p = &d->sends;
    if (!m) {
        snprintf(x->a->err, sizeof x->a->err, "trace: out of memory");
        return -1;
    }
    *m = (msg){comm, src, dst, tag, -1, t, NULL};
    while (*p)
        p = &(*p)->next;
    *p = m;
    return 0;
}

/* The earliest message to r matching (comm, src, tag), taken: its delivery, or UINT64_MAX. */
static uint64_t take(rstate *s, int comm, int src, int tag)
{
    for (msg **p = &s->sends; *p; p = &(*p)->next)
        if (matches(*p, comm, src, tag)) {
            msg *m = *p;
            uint64_t t = m->t;
            *p = m->next;
            free(m);
            return t;
        }
    return UINT64_MAX;
}

/* Rank r's record at its position. 0, or -1 and a->err. */
static int step(rp *x, int r)
{
    rstate *s = &x->rs[r];
    const tc_trace_rec *q = &x->tr->rec[r][s->pos];
    const tc_trace_comm *cm = &x->tr->comm[q->comm];
    if (q->call < TC_CALL_COLLS)
        return arrive(x, r, q);
    if (q->call == TC_CALL_OTHER) { /* not modelled: its recorded time kept as compute, counted by name */
        if (!x->pass) {
            int i = 0;
            while (i < x->nun && strcmp(x->un[i].name, q->name))
                i++;
            if (i == x->nun && x->nun < 63)
                snprintf(x->un[x->nun++].name, sizeof x->un[0].name, "%s", q->name);
            else if (i == x->nun) /* more names than the table: its last row takes the rest */
                snprintf(x->un[i = 63].name, sizeof x->un[0].name, "(other names)"), x->nun = 64;
            x->un[i].n++, x->un[i].bytes += q->bytes, x->un[i].ns += q->dur_ns;
        }
        s->t += cyc(x, q->dur_ns);
        s->gaps += cyc(x, q->dur_ns);
        s->when[s->pos] = s->t;
        advance(x, r);
        return 0;
    }
    if (q->call == TC_CALL_SEND) {
        int flits;
        if (flits_of(x->a, q->bytes, "message", &flits))
            return -1;
        /* the sender's CPU (o), then the packets, no sooner than g after its last */
        const tc_p2p_loggp *c = &x->a->m.cost;
        uint64_t t0 = s->t + c->o_send, inj = t0 > s->nic ? t0 : s->nic;
        s->nic = inj + c->gap;
        uint64_t t = tc_p2p_send(&x->msgm, x->node[r], x->node[cm->member[q->root]], flits ? flits : 1, inj);
        if (!t && x->msgm.err[0]) {
            snprintf(x->a->err, sizeof x->a->err, "%s", x->msgm.err);
            return -1;
        }
        uint64_t took = t + c->o_recv - s->t; /* to its receiver's CPU having it, the receiver waiting */
        x->msg_time[x->pass] += took;
        if (!x->pass)
            x->k[TC_CALL_SEND].n++, x->k[TC_CALL_SEND].bytes += q->bytes;
        *(x->pass ? &x->k[TC_CALL_SEND].sw : &x->k[TC_CALL_SEND].hw) += took;
        s->when[s->pos] = t0;
        s->t = t0;
        int to = cm->member[q->root];
        advance(x, r);
        return deliver(x, q->comm, r, to, atoi(q->op), t);
    }
    if (q->call == TC_CALL_RECV) {
        if (q->root < 0) { /* an irecv never completed: nothing to replay */
            if (!x->pass)
                why(x, "irecv never completed (not replayed)");
            s->when[s->pos] = s->t;
            advance(x, r);
            return 0;
        }
        uint64_t t = take(s, q->comm, cm->member[q->root], atoi(q->op));
        if (q->nb) {
            s->when[s->pos] = t;
            if (t == UINT64_MAX) {
                msg *m = malloc(sizeof *m), **p = &s->posted;
                if (!m) {
                    snprintf(x->a->err, sizeof x->a->err, "trace: out of memory");
                    return -1;
                }
                *m = (msg){q->comm, cm->member[q->root], r, atoi(q->op), s->pos, 0, NULL};
                while (*p)
                    p = &(*p)->next;
                *p = m;
            }
            advance(x, r);
        } else if (t == UINT64_MAX) {
            s->state = IN_RECV;
        } else {
            received(x, r, t);
        }
        return 0;
    }
    /* wait: for a nonblocking collective's instance or a message's completion */
    const tc_trace_rec *w = &x->tr->rec[r][q->root];
    if (w->call < TC_CALL_COLLS && s->seq[q->root] >= 0) {
        const inst *in = &x->cs[w->comm].v[s->seq[q->root]];
        if (in->done)
            return wake(x, r, in->end);
        s->state = IN_COLL, s->bc = w->comm, s->bs = s->seq[q->root];
        return 0;
    }
    if (s->when[q->root] != UINT64_MAX) /* an isend returned at when; an irecv's message arrived */
        return w->call == TC_CALL_RECV ? received(x, r, s->when[q->root]) : wake(x, r, s->when[q->root]);
    s->state = IN_WAIT, s->bs = q->root;
    return 0;
}

/* Why the replay cannot go on: the first rank held in a collective and the first
 * held by a message (either can be the cause: a rank missing from a collective
 * holds the messages it would send after it, and the other way round). */
static void stuck(rp *x)
{
    int coll = -1, mess = -1, waiting = 0;
    size_t n = 0;
    x->bad = 1;
    for (int r = 0; r < x->tr->ranks; r++) {
        int st = x->rs[r].state;
        waiting += st != DONE;
        if (st == IN_COLL && coll < 0)
            coll = r;
        if ((st == IN_RECV || st == IN_WAIT) && mess < 0)
            mess = r;
    }
    n = (size_t)snprintf(x->a->err, sizeof x->a->err, "trace: %d ranks never finish;", waiting);
    for (int r = 0; r < x->tr->ranks; r++) { /* a collective a member will never make: the cause */
        const rstate *s = &x->rs[r];
        if (s->state != IN_COLL)
            continue;
        const tc_trace_comm *cm = &x->tr->comm[s->bc];
        for (int k = 0; k < cm->size; k++) {
            int m = cm->member[k], i = x->rs[m].pos;
            while (i < x->tr->n[m] && (x->tr->rec[m][i].comm != s->bc || x->tr->rec[m][i].call >= TC_CALL_COLLS))
                i++;
            if (m == r || (x->rs[m].state == IN_COLL && x->rs[m].bc == s->bc) || i < x->tr->n[m])
                continue;
            const tc_trace_rec *q = &x->tr->rec[r][s->pos];
            snprintf(x->a->err + n, sizeof x->a->err - n, " line %ld: rank %d's %s%s on communicator %" PRIu64 " never "
                     "completes: rank %d makes no more collectives on it", q->line, r, q->nb ? "i" : "",
                     tc_call_names[q->call], cm->id, m);
            return;
        }
    }
    for (int i = 0; i < 2; i++) {
        int r = i ? mess : coll;
        if (r < 0 || n >= sizeof x->a->err)
            continue;
        const tc_trace_rec *q = &x->tr->rec[r][x->rs[r].pos];
        n += (size_t)snprintf(x->a->err + n, sizeof x->a->err - n, " line %ld: rank %d's %s%s on communicator %" PRIu64
                              " never completes: %s;", q->line, r, q->nb ? "i" : "", tc_call_names[q->call],
                              x->tr->comm[q->comm].id, i ? "no rank sends the message it waits for"
                              : "a member of its group never makes the matching collective");
    }
}

/* One run of the whole trace: pass 0 on the subnet, pass 1 on the point-to-point network. */
static int run(rp *x, int pass)
{
    tc_trace *tr = x->tr;
    x->pass = pass;
    for (int c = 0; c < tr->ncomms; c++) {
        free(x->cs[c].v);
        x->cs[c].v = NULL, x->cs[c].n = x->cs[c].cap = 0;
        memset(x->cs[c].seq, 0, (size_t)tr->comm[c].size * sizeof(int));
    }
    tc_p2p_free(&x->msgm);
    if (tc_p2p_init(&x->msgm, &x->a->p, 0, x->a->err, sizeof x->a->err))
        return -1;
    for (int r = 0; r < tr->ranks; r++) {
        rstate *s = &x->rs[r];
        for (msg *m = s->sends, *n; m; m = n)
            n = m->next, free(m);
        for (msg *m = s->posted, *n; m; m = n)
            n = m->next, free(m);
        s->sends = s->posted = NULL;
        s->pos = -1, s->t = s->gaps = s->real = s->nic = 0;
        for (int i = 0; i < tr->n[r]; i++)
            s->when[i] = UINT64_MAX;
        advance(x, r);
    }
    for (;;) {
        int best = -1;
        for (int r = 0; r < tr->ranks; r++)
            if (x->rs[r].state == RUN && (best < 0 || x->rs[r].t < x->rs[best].t))
                best = r;
        if (best < 0)
            break;
        if (step(x, best))
            return -1;
    }
    x->end[pass] = 0;
    for (int r = 0; r < tr->ranks; r++) {
        if (x->rs[r].state != DONE) {
            stuck(x);
            return -1;
        }
        x->end[pass] = x->rs[r].t > x->end[pass] ? x->rs[r].t : x->end[pass];
    }
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
    rp x = {.a = a, .tr = &tr, .ns = ns, .json = json};
    int *node = malloc((size_t)tr.ranks * sizeof *node);
    x.node = node;
    x.gnode = malloc((size_t)tr.ranks * sizeof *x.gnode);
    x.pe = calloc((size_t)a->t->n, 1);
    x.cs = calloc((size_t)tr.ncomms, sizeof *x.cs);
    x.rs = calloc((size_t)tr.ranks, sizeof *x.rs);
    rc = 2;
    if (!node || !x.gnode || !x.pe || !x.cs || !x.rs)
        goto out;
    for (int c = 0; c < tr.ncomms; c++)
        if (!(x.cs[c].seq = calloc((size_t)tr.comm[c].size, sizeof(int))))
            goto out;
        else
            x.cs[c].tree = -1;
    for (int r = 0; r < tr.ranks; r++)
        if (!(x.rs[r].when = malloc((size_t)(tr.n[r] ? tr.n[r] : 1) * sizeof(uint64_t))) ||
            !(x.rs[r].seq = malloc((size_t)(tr.n[r] ? tr.n[r] : 1) * sizeof(int))))
            goto out;
    if (read_map(a, tc_config_str(cfg, "map"), tr.ranks, node))
        goto out;
    rc = 1;
    if (json)
        fprintf(json, "{\"workload\": \"trace\", \"trace\": \"%s\", \"ranks\": %d, \"nodes\": %d, \"calls\": [\n", path,
                tr.ranks, a->t->n);
    printf("  %5s %-20s %6s %10s %5s %12s %12s %8s  %s\n", "call", "op", "ranks", "bytes", "root", "hw cycles",
           "p2p cycles", "p2p/hw", "path (hw); p2p algorithm");
    if (run(&x, 0) || run(&x, 1)) {
        rc = x.bad ? 2 : 1;
        goto out;
    }
    uint64_t gaps = 0, real = 0, ncoll = 0, nbytes = 0, paths[PATHS] = {0};
    for (int r = 0; r < tr.ranks; r++) {
        gaps = x.rs[r].gaps > gaps ? x.rs[r].gaps : gaps;
        real = x.rs[r].real > real ? x.rs[r].real : real;
    }
    for (int k = 0; k < TC_CALL_COLLS; k++) {
        ncoll += x.k[k].n, nbytes += x.k[k].bytes;
        for (int p = 0; p < PATHS; p++)
            paths[p] += x.k[k].path[p];
    }
    int groups = 0;
    for (int c = 0; c < tr.ncomms; c++)
        groups += x.cs[c].tree != -1;
    uint64_t nun = 0;
    for (int i = 0; i < x.nun; i++)
        nun += x.un[i].n;
    printf("trace %s: %d ranks on %d nodes, replayed %" PRIu64 " collectives (%" PRIu64 " bytes a rank) and %" PRIu64
           " messages; %d groups on the subnet, %d with a tree of their own", path, tr.ranks, a->t->n, ncoll, nbytes,
           x.k[TC_CALL_SEND].n, groups, x.trees);
    if (nun)
        printf("; %" PRIu64 " calls not modelled (their recorded time kept as compute)", nun);
    printf("\n");
    printf("  %-24s %7s %12s %12s %12s %8s  %s\n", "kind", "calls", "bytes", "hw cycles", "p2p cycles", "p2p/hw",
           "paths (hw); p2p algorithms");
    for (int k = 0; k <= TC_CALL_SEND; k++) {
        const kstat *s = &x.k[k];
        char pl[400] = "";
        if (!s->n)
            continue;
        for (int p = 0; p < PATHS; p++)
            if (s->path[p])
                snprintf(pl + strlen(pl), sizeof pl - strlen(pl), "%s%" PRIu64 " %s", *pl ? ", " : "", s->path[p],
                         path_names[p]);
        for (int g = 0, first = 1; g < ALGS; g++)
            if (s->alg[g]) {
                snprintf(pl + strlen(pl), sizeof pl - strlen(pl), "%s%" PRIu64 " %s", first ? "; " : ", ", s->alg[g],
                         alg_name(g));
                first = 0;
            }
        printf("  %-24s %7" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %7.2fx  %s\n",
               k == TC_CALL_SEND ? "messages" : tc_call_names[k], s->n, s->bytes, s->hw, s->sw,
               (double)s->sw / (double)(s->hw ? s->hw : 1), k == TC_CALL_SEND ? "point-to-point in both" : pl);
    }
    for (int i = 0; i < x.nun; i++) /* not modelled: a row a name, its calls summed over the ranks */
        printf("  %-24s %7" PRIu64 " %12" PRIu64 " %12s %12s %8s  not modelled: %.3f us on the recording machine, "
               "kept as compute\n", x.un[i].name, x.un[i].n, x.un[i].bytes, "-", "-", "-", (double)x.un[i].ns / 1e3);
    printf("  where the calls ran with the subnet: %" PRIu64 " on its trees (bcast, barrier, allgather, scatter), %"
           PRIu64 " integer reductions, %" PRIu64 " floating-point sums (%" PRIu64 " in two passes), %" PRIu64
           " fmin/fmax, %" PRIu64 " local (one rank, or no bytes), %" PRIu64 " over point-to-point, %" PRIu64
           " of them because the subnet would take longer\n", paths[PATH_SUBNET], paths[PATH_INT],
           paths[PATH_FSUM] + paths[PATH_FSUM2], paths[PATH_FSUM2], paths[PATH_FKEY], paths[PATH_LOCAL],
           paths[PATH_P2P] + paths[PATH_NOTREE] + paths[PATH_SLOWER],
           paths[PATH_SLOWER]);
    printf("  point-to-point: bcast, reduce, allreduce, barrier, allgather(v) by the fastest MPI algorithm for each (o %"
           PRIu64 ", g %" PRIu64 " cycles, reduction %" PRIu64 "/1000 cycles a flit); gather and scatter linear, "
           "alltoall pairwise, reduce_scatter a ring, scan and exscan by recursive doubling, and the messages, at the "
           "same costs (o at each end of a message, g between a rank's)\n", a->m.cost.o_send, a->m.cost.gap,
           a->m.cost.red_mcyc);
    if (x.nwhy) {
        printf("  over point-to-point (what the subnet has no operation, type or tree for, or would take longer on):");
        for (int i = 0; i < x.nwhy; i++)
            printf("%s %s x%" PRIu64, i ? "," : "", x.why[i], x.whyn[i]);
        printf("%s\n", x.nwhy == 64 ? ", and more" : "");
    }
    printf("  compute %.3f us (the busiest rank's gaps); collectives hw %.3f us, p2p %.3f us (%.2fx); messages %.3f us "
           "in the hw run, %.3f us in the p2p run\n", (double)gaps * ns / 1e3, (double)x.comm_time[0] * ns / 1e3,
           (double)x.comm_time[1] * ns / 1e3, (double)x.comm_time[1] / (double)(x.comm_time[0] ? x.comm_time[0] : 1),
           (double)x.msg_time[0] * ns / 1e3, (double)x.msg_time[1] * ns / 1e3);
    printf("  total hw %.3f us, p2p %.3f us (%.2fx); recorded on this machine %.3f us\n", (double)x.end[0] * ns / 1e3,
           (double)x.end[1] * ns / 1e3, (double)x.end[1] / (double)(x.end[0] ? x.end[0] : 1), (double)real / 1e3);
    if (json) {
        fprintf(json, "\n], \"replayed\": %" PRIu64 ", \"messages\": %" PRIu64 ", \"bytes\": %" PRIu64
                ", \"message_bytes\": %" PRIu64 ", \"trees\": %d, \"kinds\": {", ncoll, x.k[TC_CALL_SEND].n, nbytes,
                x.k[TC_CALL_SEND].bytes, x.trees);
        for (int k = 0, first = 1; k <= TC_CALL_SEND; k++)
            if (x.k[k].n) {
                fprintf(json, "%s\"%s\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"hw\": %" PRIu64
                        ", \"p2p\": %" PRIu64, first ? "" : ", ", k == TC_CALL_SEND ? "messages" : tc_call_names[k],
                        x.k[k].n, x.k[k].bytes, x.k[k].hw, x.k[k].sw);
                fprintf(json, ", \"paths\": {"); /* calls by path (its names include "p2p", the time's key above) */
                for (int p = 0, f = 1; p < PATHS; p++)
                    if (x.k[k].path[p])
                        fprintf(json, "%s\"%s\": %" PRIu64, f ? "" : ", ", path_names[p], x.k[k].path[p]), f = 0;
                fprintf(json, "}, \"p2p_algs\": {");
                for (int g = 0, f = 1; g < ALGS; g++)
                    if (x.k[k].alg[g])
                        fprintf(json, "%s\"%s\": %" PRIu64, f ? "" : ", ", alg_name(g), x.k[k].alg[g]), f = 0;
                fprintf(json, "}}");
                first = 0;
            }
        fprintf(json, "}, \"unmodelled\": {");
        for (int i = 0; i < x.nun; i++)
            fprintf(json, "%s\"%s\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"recorded_ns\": %" PRIu64 "}",
                    i ? ", " : "", x.un[i].name, x.un[i].n, x.un[i].bytes, x.un[i].ns);
        fprintf(json, "}, \"p2p_named\": {");
        for (int i = 0; i < x.nwhy; i++)
            fprintf(json, "%s\"%s\": %" PRIu64, i ? ", " : "", x.why[i], x.whyn[i]);
        fprintf(json, "}, \"p2p_costs\": {\"o\": %" PRIu64 ", \"g\": %" PRIu64 ", \"red_mcyc\": %" PRIu64 "}",
                a->m.cost.o_send, a->m.cost.gap, a->m.cost.red_mcyc);
        fprintf(json, ", \"gap_cycles\": %" PRIu64 ", \"comm_hw\": %" PRIu64 ", \"comm_p2p\": %" PRIu64
                ", \"msg_hw\": %" PRIu64 ", \"msg_p2p\": %" PRIu64 ", \"total_hw\": %" PRIu64 ", \"total_p2p\": %" PRIu64
                ", \"recorded_ns\": %" PRIu64 "}\n", gaps, x.comm_time[0], x.comm_time[1], x.msg_time[0], x.msg_time[1],
                x.end[0], x.end[1], real);
    }
    rc = 0;
out:
    for (int c = 0; x.cs && c < tr.ncomms; c++)
        free(x.cs[c].v), free(x.cs[c].seq);
    for (int r = 0; x.rs && r < tr.ranks; r++) {
        for (msg *m = x.rs[r].sends, *n; m; m = n)
            n = m->next, free(m);
        for (msg *m = x.rs[r].posted, *n; m; m = n)
            n = m->next, free(m);
        free(x.rs[r].when), free(x.rs[r].seq);
    }
    tc_p2p_free(&x.msgm);
    free(node), free(x.gnode), free(x.pe), free(x.cs), free(x.rs), free(x.cache);
    tc_trace_free(&tr);
    return rc;
}
