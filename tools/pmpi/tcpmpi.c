/* tcpmpi: a PMPI library that records an MPI program's communication into a torcoll
 * trace (cmodel/netsim/trace.h gives the format, version 2), for tcnet workload=trace:
 * every collective of MPI-3, blocking and nonblocking (with the MPI_Wait/Test call
 * that completes it), point-to-point messages (peer, bytes, tag; a persistent
 * request's each MPI_Start as an isend or irecv, MPI_Mrecv as the recv of the
 * message MPI_Mprobe found), and the communicators they run on (MPI_Comm_split, dup,
 * create, Cart_create and the rest: each call's group is defined in the trace).
 * What the replay cannot model (probes, one-sided calls, neighbourhood collectives)
 * is recorded under its MPI name with its peer or target, bytes and time, so that
 * the replay counts it: nothing is dropped. Preload it (LD_PRELOAD=build/
 * libtcpmpi.so) or link it before the MPI library; the trace goes to $TC_TRACE
 * (default tcpmpi.trace), written by rank 0 at MPI_Finalize. Each rank keeps its
 * records in memory (fixed-size structs, formatted at the end), so recording adds no
 * I/O between the calls it times.
 *
 * Fortran: Open MPI's Fortran bindings call PMPI_ directly, so C wrappers never see
 * a Fortran program's calls. The same calls are wrapped here under gfortran's names
 * for mpif.h and `use mpi` (mpi_allreduce_, forwarding to pmpi_allreduce_) and for
 * `use mpi_f08` (mpi_allreduce_f08_ to pmpi_allreduce_f08_); their handles are
 * converted with MPI_*_f2c. Of the calls beyond collectives and messages, Fortran
 * has the persistent ones, probe, iprobe, win_create, win_allocate, win_free,
 * win_fence, put, get and accumulate; the others are C only. The Fortran symbols
 * are weak references: a C program loads no Fortran library and never calls them.
 * Other compilers' manglings (no underscore, two, upper case) are not wrapped.
 *
 * Not thread safe: a program calling MPI from several threads at once
 * (MPI_THREAD_MULTIPLE) would race on the record buffer. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The trace's call names (cmodel/netsim/trace.h); the nonblocking form of a collective is
 * its name with an 'i' in front. */
enum {
    C_BCAST, C_REDUCE, C_ALLREDUCE, C_BARRIER, C_ALLGATHER, C_ALLGATHERV, C_GATHER, C_GATHERV, C_SCATTER,
    C_SCATTERV, C_ALLTOALL, C_ALLTOALLV, C_ALLTOALLW, C_REDUCE_SCATTER, C_REDUCE_SCATTER_BLOCK, C_SCAN, C_EXSCAN,
    C_COLLS, C_SEND = C_COLLS, C_RECV, C_WAIT, C_NAMES,
    C_OTHER = C_NAMES /* a call the replay does not model: its record's CALL is its MPI name */
};
static const char *const names[C_NAMES] = {
    "bcast", "reduce", "allreduce", "barrier", "allgather", "allgatherv", "gather", "gatherv", "scatter",
    "scatterv", "alltoall", "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan", "exscan",
    "send", "recv", "wait"};

typedef struct {
    uint64_t comm, bytes;
    double t0, t1;
    int32_t root;           /* collectives: the root; messages: the peer; wait: the record it completes */
    int32_t tag;
    uint8_t call, nb;       /* nb: issued by a nonblocking call */
    const char *op, *type;  /* static strings or the type-name cache's */
    const char *name;       /* C_OTHER: the MPI call's name */
} rec;

static rec *recs;
static size_t nrec, caprec;
static char *defs;          /* communicator definition lines */
static size_t ndefs, capdefs;
static double last0;        /* MPI_Init's return: the first record's gap is from it */
static int me = -1, oom, depth;
static uint64_t comm_seq;   /* the communicators this rank created as their rank 0 */

/* ------------------------------------------------------------ the buffers */
/* Array a of items of size bytes, its capacity *cap doubled (from first) until item n
 * fits; NULL with oom set if out of memory (a kept). Every growing list here uses it. */
static void *grow(void *a, size_t *cap, size_t n, size_t size, size_t first)
{
    if (n < *cap)
        return a;
    size_t c = *cap ? 2 * *cap : first;
    while (c <= n)
        c *= 2;
    void *g = realloc(a, c * size);
    if (!g) {
        oom = 1;
        return NULL;
    }
    *cap = c;
    return g;
}

static rec *new_rec(void)
{
    rec *r = grow(recs, &caprec, nrec, sizeof *recs, 4096);
    if (!r)
        return NULL;
    recs = r;
    return &recs[nrec++];
}

static void add_def(const char *s, size_t n)
{
    char *d = grow(defs, &capdefs, ndefs + n, 1, 4096); /* and its NUL */
    if (!d)
        return;
    defs = d;
    memcpy(defs + ndefs, s, n);
    ndefs += n;
    defs[ndefs] = 0;
}

/* ------------------------------------------------------------ names */
static const char *op_name(MPI_Op op)
{
    static const struct { MPI_Op op; const char *name; } ops[] = {
        {MPI_SUM, "sum"}, {MPI_MAX, "max"}, {MPI_MIN, "min"}, {MPI_PROD, "prod"}, {MPI_LAND, "land"},
        {MPI_BAND, "band"}, {MPI_LOR, "lor"}, {MPI_BOR, "bor"}, {MPI_LXOR, "lxor"}, {MPI_BXOR, "bxor"},
        {MPI_MAXLOC, "maxloc"}, {MPI_MINLOC, "minloc"}, {MPI_REPLACE, "replace"}, {MPI_NO_OP, "no_op"}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (op == ops[i].op)
            return ops[i].name;
    return "user";
}

/* A datatype's size and name (MPI_Type_get_name; "derived" for an unnamed one),
 * cached by handle: getting a name costs more than the call it describes. A freed
 * type's handle reused by a new one keeps the old name: the size is asked anew. */
enum { NTYPES = 64 };
static struct { MPI_Datatype t; char name[MPI_MAX_OBJECT_NAME]; } types[NTYPES];
static int ntypes;

static const char *type_name(MPI_Datatype t)
{
    if (t == MPI_DATATYPE_NULL)
        return "-";
    for (int i = 0; i < ntypes; i++)
        if (types[i].t == t)
            return types[i].name;
    int i = ntypes < NTYPES ? ntypes++ : NTYPES - 1, nl = 0;
    types[i].t = t;
    PMPI_Type_get_name(t, types[i].name, &nl);
    if (!nl)
        strcpy(types[i].name, "derived");
    for (char *c = types[i].name; *c; c++) /* one field: no blanks */
        if (*c == ' ' || *c == '\t')
            *c = '_';
    return types[i].name;
}

static uint64_t tsz(MPI_Datatype t)
{
    int s = 0;
    if (t != MPI_DATATYPE_NULL)
        PMPI_Type_size(t, &s);
    return (uint64_t)(s > 0 ? s : 0);
}

static int csize(MPI_Comm c)
{
    int n = 0;
    PMPI_Comm_size(c, &n);
    return n;
}

static int crank(MPI_Comm c)
{
    int r = 0;
    PMPI_Comm_rank(c, &r);
    return r;
}

/* ------------------------------------------------------------ communicators */
/* Each communicator has an id the trace uses: 0 the world; one made by a wrapped
 * call gets (world rank of its rank 0 + 1) << 32 | that rank's count, agreed by a
 * broadcast in the new communicator; one this library did not see made (an
 * intercommunicator, MPI_Comm_idup, a communicator from a library) gets a hash of
 * its members with the top bit set, which every member computes alike. */
typedef struct {
    MPI_Comm c;
    uint64_t id;
} comm_ent;
static comm_ent *comms;
static int ncomms;
static size_t capcomms;

/* "comm ID SIZE MEMBERS" lines, the world ranks as ranges a-b (either way), at most
 * about 900 characters each; a long group continues on lines of the same ID. */
static void define(uint64_t id, MPI_Comm c)
{
    MPI_Group g, wg;
    int n = csize(c);
    int *in = malloc(2 * (size_t)n * sizeof *in);
    if (!in) {
        oom = 1;
        return;
    }
    int *w = in + n;
    PMPI_Comm_group(c, &g);
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int k = 0; k < n; k++)
        in[k] = k;
    PMPI_Group_translate_ranks(g, n, in, wg, w);
    PMPI_Group_free(&g);
    PMPI_Group_free(&wg);
    char line[1024];
    int len = 0;
    for (int k = 0; k < n;) {
        int j = k, step = k + 1 < n && (w[k + 1] == w[k] + 1 || w[k + 1] == w[k] - 1) ? w[k + 1] - w[k] : 0;
        while (step && j + 1 < n && w[j + 1] == w[j] + step)
            j++;
        if (!len)
            len = snprintf(line, sizeof line, "comm %llu %d", (unsigned long long)id, n);
        len += j > k ? snprintf(line + len, sizeof line - (size_t)len, " %d-%d", w[k], w[j])
                     : snprintf(line + len, sizeof line - (size_t)len, " %d", w[k]);
        k = j + 1;
        if (len > 900 || k == n) {
            line[len++] = '\n';
            add_def(line, (size_t)len);
            len = 0;
        }
    }
    free(in);
}

static void remember(MPI_Comm c, uint64_t id)
{
    comm_ent *e = grow(comms, &capcomms, (size_t)ncomms, sizeof *comms, 16);
    if (!e)
        return;
    comms = e;
    comms[ncomms++] = (comm_ent){c, id};
}

static uint64_t comm_id(MPI_Comm c)
{
    if (c == MPI_COMM_WORLD)
        return 0;
    for (int i = ncomms - 1; i >= 0; i--)
        if (comms[i].c == c)
            return comms[i].id;
    MPI_Group g, wg;
    int n = csize(c), flag = 0;
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the members' world ranks */
    PMPI_Comm_test_inter(c, &flag);
    (flag ? PMPI_Comm_remote_group : PMPI_Comm_group)(c, &g); /* an intercommunicator: its remote group */
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int k = 0; k < n; k++) {
        int w = -1;
        PMPI_Group_translate_ranks(g, 1, &k, wg, &w);
        h = (h ^ (uint64_t)(uint32_t)w) * 1099511628211ull;
    }
    PMPI_Group_free(&g);
    PMPI_Group_free(&wg);
    h |= 1ull << 63;
    remember(c, h);
    if (!flag)
        define(h, c);
    return h;
}

/* A communicator a wrapped call made: its id agreed, defined by its rank 0. */
static void made(MPI_Comm c)
{
    int inter = 0;
    if (c == MPI_COMM_NULL)
        return;
    PMPI_Comm_test_inter(c, &inter);
    if (inter) {
        comm_id(c);
        return;
    }
    int r = crank(c);
    uint64_t id = r ? 0 : (uint64_t)(me + 1) << 32 | ++comm_seq;
    PMPI_Bcast(&id, 1, MPI_UINT64_T, 0, c);
    remember(c, id);
    if (!r)
        define(id, c);
}

static void forget(MPI_Comm c)
{
    for (int i = 0; i < ncomms; i++)
        if (comms[i].c == c) {
            comms[i] = comms[--ncomms];
            return;
        }
}

/* ------------------------------------------------------------ records */
/* Nonblocking calls not yet completed: the request and its record. */
static struct { MPI_Request r; size_t rec; } *pend;
static size_t npend, cappend;

static rec *put(int call, MPI_Comm comm, int root, uint64_t bytes, MPI_Datatype type, const char *op, int tag,
                double t0, MPI_Request *req)
{
    rec *r = new_rec();
    double t1 = PMPI_Wtime();
    if (!r)
        return NULL;
    *r = (rec){comm_id(comm), bytes, t0, t1, root, tag, (uint8_t)call, req != NULL, op, type_name(type), NULL};
    if (req && *req != MPI_REQUEST_NULL) {
        void *p = grow(pend, &cappend, npend, sizeof *pend, 64);
        if (!p)
            return r;
        pend = p;
        pend[npend].r = *req;
        pend[npend++].rec = nrec - 1;
    }
    return r;
}

/* A request that completed (its handle before the call): a wait record for it, and a
 * receive's peer, tag and bytes from its status. first: the call's first completion
 * (it carries the gap; the others follow at once). */
static void completed(MPI_Request req, const MPI_Status *st, double t0, int first)
{
    for (size_t i = 0; i < npend; i++)
        if (pend[i].r == req) {
            size_t k = pend[i].rec;
            pend[i] = pend[--npend];
            rec *x = &recs[k], *w;
            int n = 0, cancelled = 0;
            if (st && x->call == C_RECV) {
                PMPI_Test_cancelled(st, &cancelled);
                PMPI_Get_count(st, MPI_BYTE, &n);
                if (!cancelled && st->MPI_SOURCE >= 0)
                    x->root = st->MPI_SOURCE, x->tag = st->MPI_TAG, x->bytes = (uint64_t)(n > 0 ? n : 0);
            }
            double t1 = PMPI_Wtime();
            if (!(w = new_rec()))
                return;
            x = &recs[k]; /* new_rec may move the records */
            *w = (rec){x->comm, 0, first ? t0 : t1, t1, (int32_t)k, 0, C_WAIT, 0, "-", "-", NULL};
            if (x->call == C_OTHER) /* the replay has no wait for what it does not model: counted as MPI_Wait */
                *w = (rec){x->comm, 0, first ? t0 : t1, t1, -1, 0, C_OTHER, 0, "-", "-", "MPI_Wait"};
            return;
        }
}

/* Whether a buffer is MPI_IN_PLACE, in C or Fortran. */
extern char mpi_fortran_in_place_ __attribute__((weak));
static int in_place(const void *b) { return b == MPI_IN_PLACE || (&mpi_fortran_in_place_ && b == &mpi_fortran_in_place_); }

static uint64_t sum_counts(const int *c, int n, MPI_Datatype t)
{
    uint64_t s = 0;
    for (int k = 0; k < n; k++)
        s += (uint64_t)c[k];
    return s * tsz(t);
}

/* BYTES of each collective (cmodel/netsim/trace.h): what one rank contributes. The
 * wrappers of both languages call these with C handles. */
static void rec_coll(int call, const void *s, const void *r, int sc, const int *scs, MPI_Datatype st, int rc,
                     const int *rcs, MPI_Datatype rt, MPI_Op op, int root, MPI_Comm comm, double t0, MPI_Request *req)
{
    int n = call == C_ALLTOALLV || call == C_REDUCE_SCATTER || call == C_REDUCE_SCATTER_BLOCK ? csize(comm) : 0;
    int meh = call == C_ALLGATHERV || call == C_GATHERV || call == C_SCATTERV ? crank(comm) : 0;
    uint64_t b = 0;
    MPI_Datatype ty = st;
    const char *o = op == MPI_OP_NULL ? "-" : op_name(op);
    switch (call) {
    case C_BCAST: case C_REDUCE: case C_ALLREDUCE: case C_SCAN: case C_EXSCAN:
        b = (uint64_t)sc * tsz(st);
        break;
    case C_ALLGATHER: case C_GATHER: case C_ALLTOALL: /* its block (alltoall: to each rank) */
        b = in_place(s) ? (uint64_t)rc * tsz(ty = rt) : (uint64_t)sc * tsz(st);
        break;
    case C_ALLGATHERV: case C_GATHERV:
        b = in_place(s) ? (rcs ? (uint64_t)rcs[meh] * tsz(ty = rt) : 0) : (uint64_t)sc * tsz(st);
        break;
    case C_SCATTER:
        b = in_place(r) ? (uint64_t)sc * tsz(st) : (uint64_t)rc * tsz(ty = rt);
        break;
    case C_SCATTERV:
        b = in_place(r) ? (scs ? (uint64_t)scs[meh] * tsz(st) : 0) : (uint64_t)rc * tsz(ty = rt);
        break;
    case C_ALLTOALLV: /* everything it sends */
        b = in_place(s) ? sum_counts(rcs, n, ty = rt) : sum_counts(scs, n, st);
        break;
    case C_REDUCE_SCATTER: /* the whole vector */
        b = sum_counts(rcs, n, ty = rt);
        break;
    case C_REDUCE_SCATTER_BLOCK:
        b = (uint64_t)rc * (uint64_t)n * tsz(ty = rt);
        break;
    default:
        break;
    }
    put(call, comm, root, b, ty, o, 0, t0, req);
}

static void rec_alltoallw(const void *s, const int *scs, const MPI_Datatype *sts, const int *rcs,
                          const MPI_Datatype *rts, MPI_Comm comm, double t0, MPI_Request *req)
{
    int n = csize(comm);
    uint64_t b = 0;
    for (int k = 0; k < n; k++)
        b += in_place(s) ? (uint64_t)rcs[k] * tsz(rts[k]) : (uint64_t)scs[k] * tsz(sts[k]);
    put(C_ALLTOALLW, comm, -1, b, n ? (in_place(s) ? rts[0] : sts[0]) : MPI_DATATYPE_NULL, "-", 0, t0, req);
}

/* A blocking receive's status, the caller's or ours when it passed MPI_STATUS_IGNORE. */
static void rec_recv(const MPI_Status *st, MPI_Comm comm, MPI_Datatype t, double t0, double t1)
{
    int n = 0;
    PMPI_Get_count(st, MPI_BYTE, &n);
    rec *r = put(C_RECV, comm, st->MPI_SOURCE, (uint64_t)(n > 0 ? n : 0), t, "-", st->MPI_TAG, t0, NULL);
    if (r)
        r->t0 = t0, r->t1 = t1;
}

/* Requests before a Wait/Test call: the handles change to MPI_REQUEST_NULL. */
enum { NSTACK = 64 };
typedef struct {
    MPI_Request stack_r[NSTACK], *r;
    MPI_Status stack_s[NSTACK], *s;
    int n;
} reqs;

static int save(reqs *q, int n, const MPI_Request *r, MPI_Status *user)
{
    q->n = n;
    q->r = n <= NSTACK ? q->stack_r : malloc((size_t)n * sizeof *q->r);
    q->s = user != MPI_STATUSES_IGNORE ? user : n <= NSTACK ? q->stack_s : malloc((size_t)n * sizeof *q->s);
    if (!q->r || !q->s)
        return -1;
    if (n)
        memcpy(q->r, r, (size_t)n * sizeof *r);
    return 0;
}

static void unsave(reqs *q, const MPI_Status *user)
{
    if (q->r != q->stack_r)
        free(q->r);
    if (q->s != user && q->s != q->stack_s)
        free(q->s);
}

/* The recorded completions of a Waitall/Testall (all of q) or Waitsome/Testsome. */
static void done_all(const reqs *q, double t0)
{
    for (int i = 0; i < q->n; i++)
        completed(q->r[i], &q->s[i], t0, i == 0);
}

static void done_some(const reqs *q, int outcount, const int *idx, double t0)
{
    for (int i = 0; i < outcount && outcount != MPI_UNDEFINED; i++)
        completed(q->r[idx[i]], &q->s[i], t0, i == 0);
}

/* ------------------------------------------------------------ C wrappers */
#define BEGIN double t0 = depth++ ? -1 : PMPI_Wtime()
#define REC(x) do { if (--depth == 0 && t0 >= 0) { x; } } while (0)
#define NONE MPI_OP_NULL

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    last0 = PMPI_Wtime();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    last0 = PMPI_Wtime();
    return rc;
}

int MPI_Bcast(void *b, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Bcast(b, count, type, root, comm);
    REC(rec_coll(C_BCAST, b, b, count, NULL, type, 0, NULL, type, NONE, root, comm, t0, NULL));
    return rc;
}
int MPI_Ibcast(void *b, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Ibcast(b, count, type, root, comm, q);
    REC(rec_coll(C_BCAST, b, b, count, NULL, type, 0, NULL, type, NONE, root, comm, t0, q));
    return rc;
}
int MPI_Reduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Reduce(s, r, count, type, op, root, comm);
    REC(rec_coll(C_REDUCE, s, r, count, NULL, type, 0, NULL, type, op, root, comm, t0, NULL));
    return rc;
}
int MPI_Ireduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Ireduce(s, r, count, type, op, root, comm, q);
    REC(rec_coll(C_REDUCE, s, r, count, NULL, type, 0, NULL, type, op, root, comm, t0, q));
    return rc;
}
int MPI_Allreduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Allreduce(s, r, count, type, op, comm);
    REC(rec_coll(C_ALLREDUCE, s, r, count, NULL, type, 0, NULL, type, op, -1, comm, t0, NULL));
    return rc;
}
int MPI_Iallreduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Iallreduce(s, r, count, type, op, comm, q);
    REC(rec_coll(C_ALLREDUCE, s, r, count, NULL, type, 0, NULL, type, op, -1, comm, t0, q));
    return rc;
}
int MPI_Scan(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Scan(s, r, count, type, op, comm);
    REC(rec_coll(C_SCAN, s, r, count, NULL, type, 0, NULL, type, op, -1, comm, t0, NULL));
    return rc;
}
int MPI_Iscan(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Iscan(s, r, count, type, op, comm, q);
    REC(rec_coll(C_SCAN, s, r, count, NULL, type, 0, NULL, type, op, -1, comm, t0, q));
    return rc;
}
int MPI_Exscan(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Exscan(s, r, count, type, op, comm);
    REC(rec_coll(C_EXSCAN, s, r, count, NULL, type, 0, NULL, type, op, -1, comm, t0, NULL));
    return rc;
}
int MPI_Iexscan(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Iexscan(s, r, count, type, op, comm, q);
    REC(rec_coll(C_EXSCAN, s, r, count, NULL, type, 0, NULL, type, op, -1, comm, t0, q));
    return rc;
}
int MPI_Barrier(MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Barrier(comm);
    REC(rec_coll(C_BARRIER, NULL, NULL, 0, NULL, MPI_DATATYPE_NULL, 0, NULL, MPI_DATATYPE_NULL, NONE, -1, comm, t0,
                 NULL));
    return rc;
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Ibarrier(comm, q);
    REC(rec_coll(C_BARRIER, NULL, NULL, 0, NULL, MPI_DATATYPE_NULL, 0, NULL, MPI_DATATYPE_NULL, NONE, -1, comm, t0,
                 q));
    return rc;
}
int MPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Allgather(s, sc, st, r, rc_, rt, comm);
    REC(rec_coll(C_ALLGATHER, s, r, sc, NULL, st, rc_, NULL, rt, NONE, -1, comm, t0, NULL));
    return rc;
}
int MPI_Iallgather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm,
                   MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Iallgather(s, sc, st, r, rc_, rt, comm, q);
    REC(rec_coll(C_ALLGATHER, s, r, sc, NULL, st, rc_, NULL, rt, NONE, -1, comm, t0, q));
    return rc;
}
int MPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rcs, const int *dis,
                   MPI_Datatype rt, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Allgatherv(s, sc, st, r, rcs, dis, rt, comm);
    REC(rec_coll(C_ALLGATHERV, s, r, sc, NULL, st, 0, rcs, rt, NONE, -1, comm, t0, NULL));
    return rc;
}
int MPI_Iallgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rcs, const int *dis,
                    MPI_Datatype rt, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Iallgatherv(s, sc, st, r, rcs, dis, rt, comm, q);
    REC(rec_coll(C_ALLGATHERV, s, r, sc, NULL, st, 0, rcs, rt, NONE, -1, comm, t0, q));
    return rc;
}
int MPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Gather(s, sc, st, r, rc_, rt, root, comm);
    REC(rec_coll(C_GATHER, s, r, sc, NULL, st, rc_, NULL, rt, NONE, root, comm, t0, NULL));
    return rc;
}
int MPI_Igather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm,
                MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Igather(s, sc, st, r, rc_, rt, root, comm, q);
    REC(rec_coll(C_GATHER, s, r, sc, NULL, st, rc_, NULL, rt, NONE, root, comm, t0, q));
    return rc;
}
int MPI_Gatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rcs, const int *dis, MPI_Datatype rt,
                int root, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Gatherv(s, sc, st, r, rcs, dis, rt, root, comm);
    REC(rec_coll(C_GATHERV, s, r, sc, NULL, st, 0, rcs, rt, NONE, root, comm, t0, NULL));
    return rc;
}
int MPI_Igatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rcs, const int *dis, MPI_Datatype rt,
                 int root, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Igatherv(s, sc, st, r, rcs, dis, rt, root, comm, q);
    REC(rec_coll(C_GATHERV, s, r, sc, NULL, st, 0, rcs, rt, NONE, root, comm, t0, q));
    return rc;
}
int MPI_Scatter(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Scatter(s, sc, st, r, rc_, rt, root, comm);
    REC(rec_coll(C_SCATTER, s, r, sc, NULL, st, rc_, NULL, rt, NONE, root, comm, t0, NULL));
    return rc;
}
int MPI_Iscatter(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root,
                 MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Iscatter(s, sc, st, r, rc_, rt, root, comm, q);
    REC(rec_coll(C_SCATTER, s, r, sc, NULL, st, rc_, NULL, rt, NONE, root, comm, t0, q));
    return rc;
}
int MPI_Scatterv(const void *s, const int *scs, const int *dis, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt,
                 int root, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Scatterv(s, scs, dis, st, r, rc_, rt, root, comm);
    REC(rec_coll(C_SCATTERV, s, r, 0, scs, st, rc_, NULL, rt, NONE, root, comm, t0, NULL));
    return rc;
}
int MPI_Iscatterv(const void *s, const int *scs, const int *dis, MPI_Datatype st, void *r, int rc_,
                  MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Iscatterv(s, scs, dis, st, r, rc_, rt, root, comm, q);
    REC(rec_coll(C_SCATTERV, s, r, 0, scs, st, rc_, NULL, rt, NONE, root, comm, t0, q));
    return rc;
}
int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Alltoall(s, sc, st, r, rc_, rt, comm);
    REC(rec_coll(C_ALLTOALL, s, r, sc, NULL, st, rc_, NULL, rt, NONE, -1, comm, t0, NULL));
    return rc;
}
int MPI_Ialltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm,
                  MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Ialltoall(s, sc, st, r, rc_, rt, comm, q);
    REC(rec_coll(C_ALLTOALL, s, r, sc, NULL, st, rc_, NULL, rt, NONE, -1, comm, t0, q));
    return rc;
}
int MPI_Alltoallv(const void *s, const int *scs, const int *sd, MPI_Datatype st, void *r, const int *rcs,
                  const int *rd, MPI_Datatype rt, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Alltoallv(s, scs, sd, st, r, rcs, rd, rt, comm);
    REC(rec_coll(C_ALLTOALLV, s, r, 0, scs, st, 0, rcs, rt, NONE, -1, comm, t0, NULL));
    return rc;
}
int MPI_Ialltoallv(const void *s, const int *scs, const int *sd, MPI_Datatype st, void *r, const int *rcs,
                   const int *rd, MPI_Datatype rt, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Ialltoallv(s, scs, sd, st, r, rcs, rd, rt, comm, q);
    REC(rec_coll(C_ALLTOALLV, s, r, 0, scs, st, 0, rcs, rt, NONE, -1, comm, t0, q));
    return rc;
}
int MPI_Alltoallw(const void *s, const int *scs, const int *sd, const MPI_Datatype *sts, void *r, const int *rcs,
                  const int *rd, const MPI_Datatype *rts, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Alltoallw(s, scs, sd, sts, r, rcs, rd, rts, comm);
    REC(rec_alltoallw(s, scs, sts, rcs, rts, comm, t0, NULL));
    return rc;
}
int MPI_Ialltoallw(const void *s, const int *scs, const int *sd, const MPI_Datatype *sts, void *r, const int *rcs,
                   const int *rd, const MPI_Datatype *rts, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Ialltoallw(s, scs, sd, sts, r, rcs, rd, rts, comm, q);
    REC(rec_alltoallw(s, scs, sts, rcs, rts, comm, t0, q));
    return rc;
}
int MPI_Reduce_scatter(const void *s, void *r, const int *rcs, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Reduce_scatter(s, r, rcs, t, op, comm);
    REC(rec_coll(C_REDUCE_SCATTER, s, r, 0, NULL, t, 0, rcs, t, op, -1, comm, t0, NULL));
    return rc;
}
int MPI_Ireduce_scatter(const void *s, void *r, const int *rcs, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                        MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Ireduce_scatter(s, r, rcs, t, op, comm, q);
    REC(rec_coll(C_REDUCE_SCATTER, s, r, 0, NULL, t, 0, rcs, t, op, -1, comm, t0, q));
    return rc;
}
int MPI_Reduce_scatter_block(const void *s, void *r, int rc_, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    BEGIN;
    int rc = PMPI_Reduce_scatter_block(s, r, rc_, t, op, comm);
    REC(rec_coll(C_REDUCE_SCATTER_BLOCK, s, r, 0, NULL, t, rc_, NULL, t, op, -1, comm, t0, NULL));
    return rc;
}
int MPI_Ireduce_scatter_block(const void *s, void *r, int rc_, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                              MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Ireduce_scatter_block(s, r, rc_, t, op, comm, q);
    REC(rec_coll(C_REDUCE_SCATTER_BLOCK, s, r, 0, NULL, t, rc_, NULL, t, op, -1, comm, t0, q));
    return rc;
}

/* Point to point: a send's record is at its call (the replay sends it then); a
 * receive's at its completion, when its source, tag and size are known. */
#define SEND(name, lname)                                                                                       \
    int MPI_##name(const void *b, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)                 \
    {                                                                                                           \
        BEGIN;                                                                                                  \
        int rc = PMPI_##name(b, count, t, dest, tag, comm);                                                     \
        REC(if (dest != MPI_PROC_NULL) put(C_SEND, comm, dest, (uint64_t)count * tsz(t), t, "-", tag, t0, NULL)); \
        return rc;                                                                                              \
    }                                                                                                           \
    int MPI_I##lname(const void *b, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,         \
                           MPI_Request *q)                                                                      \
    {                                                                                                           \
        BEGIN;                                                                                                  \
        int rc = PMPI_I##lname(b, count, t, dest, tag, comm, q);                                          \
        REC(if (dest != MPI_PROC_NULL) put(C_SEND, comm, dest, (uint64_t)count * tsz(t), t, "-", tag, t0, q)); \
        return rc;                                                                                              \
    }
SEND(Send, send)
SEND(Ssend, ssend)
SEND(Bsend, bsend)
SEND(Rsend, rsend)
#undef SEND

int MPI_Recv(void *b, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    MPI_Status mine;
    BEGIN;
    int rc = PMPI_Recv(b, count, t, src, tag, comm, st == MPI_STATUS_IGNORE ? &mine : st);
    REC(if (src != MPI_PROC_NULL) rec_recv(st == MPI_STATUS_IGNORE ? &mine : st, comm, t, t0, PMPI_Wtime()));
    return rc;
}
int MPI_Irecv(void *b, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Irecv(b, count, t, src, tag, comm, q);
    REC(if (src != MPI_PROC_NULL) put(C_RECV, comm, src, (uint64_t)count * tsz(t), t, "-", tag, t0, q));
    return rc;
}
/* Sendrecv: its send at the call, its receive at the return. */
int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int dest, int stag, void *rb, int rc_, MPI_Datatype rt,
                 int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Status mine, *s = status == MPI_STATUS_IGNORE ? &mine : status;
    BEGIN;
    int rc = PMPI_Sendrecv(sb, sc, st, dest, stag, rb, rc_, rt, src, rtag, comm, s);
    REC(if (dest != MPI_PROC_NULL) { rec *x = put(C_SEND, comm, dest, (uint64_t)sc * tsz(st), st, "-", stag, t0,
                                                  NULL); if (x) x->t1 = t0; }
        if (src != MPI_PROC_NULL) rec_recv(s, comm, rt, t0, PMPI_Wtime()));
    return rc;
}
int MPI_Sendrecv_replace(void *b, int count, MPI_Datatype t, int dest, int stag, int src, int rtag, MPI_Comm comm,
                         MPI_Status *status)
{
    MPI_Status mine, *s = status == MPI_STATUS_IGNORE ? &mine : status;
    BEGIN;
    int rc = PMPI_Sendrecv_replace(b, count, t, dest, stag, src, rtag, comm, s);
    REC(if (dest != MPI_PROC_NULL) { rec *x = put(C_SEND, comm, dest, (uint64_t)count * tsz(t), t, "-", stag, t0,
                                                  NULL); if (x) x->t1 = t0; }
        if (src != MPI_PROC_NULL) rec_recv(s, comm, t, t0, PMPI_Wtime()));
    return rc;
}

/* ------------------------------------------------------------ persistent, probes, one-sided, neighbours */
/* Persistent point-to-point: each MPI_Start of a send or receive made by
 * MPI_Send_init (Ssend, Bsend, Rsend) or MPI_Recv_init is recorded as the isend or
 * irecv it is, its completion as the wait of any other; the _init calls and
 * MPI_Request_free set up and record nothing, as a communicator's creation. */
typedef struct {
    MPI_Request r;
    MPI_Comm comm;
    MPI_Datatype type;
    int call, peer, tag, count;
} pers_ent;
static pers_ent *pers;
static int npers;
static size_t cappers;

static void persist(int call, MPI_Request r, MPI_Comm comm, int peer, int tag, int count, MPI_Datatype t)
{
    pers_ent *e = grow(pers, &cappers, (size_t)npers, sizeof *pers, 16);
    if (!e)
        return;
    pers = e;
    pers[npers++] = (pers_ent){r, comm, t, call, peer, tag, count};
}

static pers_ent *pers_of(MPI_Request r)
{
    for (int i = npers - 1; i >= 0; i--)
        if (pers[i].r == r)
            return &pers[i];
    return NULL;
}

/* A started request: its message; a request not ours (a persistent collective, I/O) names itself. */
static void started(MPI_Request *q, double t0)
{
    pers_ent *p = pers_of(*q);
    if (!p) {
        rec *x = put(C_OTHER, MPI_COMM_WORLD, -1, 0, MPI_DATATYPE_NULL, "-", 0, t0, q);
        if (x)
            x->name = "MPI_Start";
    } else if (p->peer != MPI_PROC_NULL) {
        put(p->call, p->comm, p->peer, (uint64_t)p->count * tsz(p->type), p->type, "-", p->tag, t0, q);
    }
}

#define PINIT(name, call)                                                                                        \
    int MPI_##name(const void *b, int count, MPI_Datatype t, int peer, int tag, MPI_Comm comm, MPI_Request *q) \
    {                                                                                                           \
        int rc = PMPI_##name(b, count, t, peer, tag, comm, q);                                                  \
        if (rc == MPI_SUCCESS)                                                                                  \
            persist(call, *q, comm, peer, tag, count, t);                                                       \
        return rc;                                                                                              \
    }
PINIT(Send_init, C_SEND)
PINIT(Ssend_init, C_SEND)
PINIT(Bsend_init, C_SEND)
PINIT(Rsend_init, C_SEND)
#undef PINIT
int MPI_Recv_init(void *b, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *q)
{
    int rc = PMPI_Recv_init(b, count, t, src, tag, comm, q);
    if (rc == MPI_SUCCESS)
        persist(C_RECV, *q, comm, src, tag, count, t);
    return rc;
}
int MPI_Start(MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Start(q);
    REC(if (rc == MPI_SUCCESS) started(q, t0));
    return rc;
}
int MPI_Startall(int n, MPI_Request q[])
{
    BEGIN;
    int rc = PMPI_Startall(n, q);
    REC(for (int i = 0; rc == MPI_SUCCESS && i < n; i++) started(&q[i], i ? PMPI_Wtime() : t0));
    return rc;
}
static void unpersist(MPI_Request r)
{
    pers_ent *p = pers_of(r);
    if (p)
        *p = pers[--npers];
}
int MPI_Request_free(MPI_Request *q)
{
    unpersist(*q);
    for (size_t i = 0; i < npend; i++) /* never completed here: its handle may come back for another request */
        if (pend[i].r == *q) {
            pend[i] = pend[--npend];
            break;
        }
    return PMPI_Request_free(q);
}

/* A call the replay does not model: its name, peer or target (comm rank, -1 none),
 * bytes, op. */
static rec *other(const char *name, MPI_Comm comm, int peer, uint64_t bytes, MPI_Datatype t, MPI_Op op, double t0,
                  MPI_Request *q)
{
    rec *x = put(C_OTHER, comm, peer, bytes, t, op == MPI_OP_NULL ? "-" : op_name(op), 0, t0, q);
    if (x)
        x->name = name;
    return x;
}

/* Probes: no data; the matched message's source. A matched probe's message is
 * remembered: its MPI_Mrecv or Imrecv is the receive of it. */
typedef struct { MPI_Message m; MPI_Comm comm; int src, tag; } probed_msg;
static probed_msg mprobed[64];
static int nmprobed;

static void probed(const char *name, MPI_Comm comm, const MPI_Status *st, int found, const MPI_Message *m,
                   double t0)
{
    other(name, comm, found && st->MPI_SOURCE >= 0 ? st->MPI_SOURCE : -1, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, t0,
          NULL);
    if (found && m && *m != MPI_MESSAGE_NO_PROC && *m != MPI_MESSAGE_NULL) {
        if (nmprobed == 64) /* probed and never received: the oldest forgotten */
            memmove(mprobed, mprobed + 1, sizeof mprobed - sizeof mprobed[0]), nmprobed--;
        mprobed[nmprobed++] = (probed_msg){*m, comm, st->MPI_SOURCE, st->MPI_TAG};
    }
}

/* The matched probe of m taken out of the list into *p: 1, or 0 if m was not probed here. */
static int mprobed_take(MPI_Message m, probed_msg *p)
{
    for (int i = 0; i < nmprobed; i++)
        if (mprobed[i].m == m) {
            *p = mprobed[i], mprobed[i] = mprobed[--nmprobed];
            return 1;
        }
    return 0;
}

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    MPI_Status mine, *s = st == MPI_STATUS_IGNORE ? &mine : st;
    BEGIN;
    int rc = PMPI_Probe(src, tag, comm, s);
    REC(if (src != MPI_PROC_NULL) probed("MPI_Probe", comm, s, 1, NULL, t0));
    return rc;
}
int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *st)
{
    MPI_Status mine, *s = st == MPI_STATUS_IGNORE ? &mine : st;
    BEGIN;
    int rc = PMPI_Iprobe(src, tag, comm, flag, s);
    REC(if (src != MPI_PROC_NULL) probed("MPI_Iprobe", comm, s, *flag, NULL, t0));
    return rc;
}
int MPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *m, MPI_Status *st)
{
    MPI_Status mine, *s = st == MPI_STATUS_IGNORE ? &mine : st;
    BEGIN;
    int rc = PMPI_Mprobe(src, tag, comm, m, s);
    REC(if (src != MPI_PROC_NULL) probed("MPI_Mprobe", comm, s, 1, m, t0));
    return rc;
}
int MPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *m, MPI_Status *st)
{
    MPI_Status mine, *s = st == MPI_STATUS_IGNORE ? &mine : st;
    BEGIN;
    int rc = PMPI_Improbe(src, tag, comm, flag, m, s);
    REC(if (src != MPI_PROC_NULL) probed("MPI_Improbe", comm, s, *flag, m, t0));
    return rc;
}
/* The matched receives: a recv or irecv of the probed message (an unknown one named). */
int MPI_Mrecv(void *b, int count, MPI_Datatype t, MPI_Message *m, MPI_Status *st)
{
    MPI_Status mine, *s = st == MPI_STATUS_IGNORE ? &mine : st;
    MPI_Message was = *m;
    probed_msg p;
    int k = mprobed_take(was, &p);
    BEGIN;
    int rc = PMPI_Mrecv(b, count, t, m, s);
    REC(if (k) rec_recv(s, p.comm, t, t0, PMPI_Wtime());
        else if (was != MPI_MESSAGE_NO_PROC) other("MPI_Mrecv", MPI_COMM_WORLD, -1, (uint64_t)count * tsz(t), t,
                                                   MPI_OP_NULL, t0, NULL));
    return rc;
}
int MPI_Imrecv(void *b, int count, MPI_Datatype t, MPI_Message *m, MPI_Request *q)
{
    MPI_Message was = *m;
    probed_msg p;
    int k = mprobed_take(was, &p);
    BEGIN;
    int rc = PMPI_Imrecv(b, count, t, m, q);
    REC(if (k) put(C_RECV, p.comm, p.src, (uint64_t)count * tsz(t), t, "-", p.tag, t0, q);
        else if (was != MPI_MESSAGE_NO_PROC) other("MPI_Imrecv", MPI_COMM_WORLD, -1, (uint64_t)count * tsz(t), t,
                                                   MPI_OP_NULL, t0, q));
    return rc;
}

/* One-sided: each window's communicator (its targets are ranks of it), from its creation. */
static struct { MPI_Win w; uint64_t id; } *wins;
static int nwins;
static size_t capwins;

static void win_made(MPI_Win w, MPI_Comm c)
{
    void *e = grow(wins, &capwins, (size_t)nwins, sizeof *wins, 8);
    if (!e)
        return;
    wins = e;
    wins[nwins].w = w, wins[nwins++].id = comm_id(c);
}

static void win_gone(MPI_Win w)
{
    for (int i = 0; i < nwins; i++)
        if (wins[i].w == w) {
            wins[i] = wins[--nwins];
            return;
        }
}

/* A one-sided call on window w (the world's ranks if this library did not see it made). */
static rec *rma(const char *name, MPI_Win w, int target, uint64_t bytes, MPI_Datatype t, MPI_Op op, double t0,
                MPI_Request *q)
{
    rec *x = other(name, MPI_COMM_WORLD, target == MPI_PROC_NULL ? -1 : target, bytes, t, op, t0, q);
    for (int i = 0; x && i < nwins; i++)
        if (wins[i].w == w)
            x->comm = wins[i].id;
    return x;
}

#define WINMADE(name, params, args, comm)                                                                      \
    int MPI_##name params                                                                                      \
    {                                                                                                          \
        BEGIN;                                                                                                 \
        int rc = PMPI_##name args;                                                                             \
        if (rc == MPI_SUCCESS)                                                                                 \
            win_made(*w, comm);                                                                                \
        REC(rma("MPI_" #name, *w, -1, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, t0, NULL));                           \
        return rc;                                                                                             \
    }
WINMADE(Win_create, (void *b, MPI_Aint size, int du, MPI_Info i, MPI_Comm c, MPI_Win *w), (b, size, du, i, c, w), c)
WINMADE(Win_allocate, (MPI_Aint size, int du, MPI_Info i, MPI_Comm c, void *b, MPI_Win *w), (size, du, i, c, b, w), c)
WINMADE(Win_allocate_shared, (MPI_Aint size, int du, MPI_Info i, MPI_Comm c, void *b, MPI_Win *w),
        (size, du, i, c, b, w), c)
WINMADE(Win_create_dynamic, (MPI_Info i, MPI_Comm c, MPI_Win *w), (i, c, w), c)
#undef WINMADE
int MPI_Win_free(MPI_Win *w)
{
    MPI_Win was = *w; /* a freed window's handle: still its entry's key */
    BEGIN;
    int rc = PMPI_Win_free(w);
    REC(rma("MPI_Win_free", was, -1, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, t0, NULL));
    win_gone(was);
    return rc;
}
/* The synchronisations: (name, params, args) of one window argument w, and the target
 * rank (r) or -1. */
#define WSYNC(name, params, args, target)                                                                      \
    int MPI_##name params                                                                                      \
    {                                                                                                          \
        BEGIN;                                                                                                 \
        int rc = PMPI_##name args;                                                                             \
        REC(rma("MPI_" #name, w, target, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, t0, NULL));                        \
        return rc;                                                                                             \
    }
WSYNC(Win_fence, (int a, MPI_Win w), (a, w), -1)
WSYNC(Win_lock, (int l, int r, int a, MPI_Win w), (l, r, a, w), r)
WSYNC(Win_unlock, (int r, MPI_Win w), (r, w), r)
WSYNC(Win_lock_all, (int a, MPI_Win w), (a, w), -1)
WSYNC(Win_unlock_all, (MPI_Win w), (w), -1)
WSYNC(Win_flush, (int r, MPI_Win w), (r, w), r)
WSYNC(Win_flush_local, (int r, MPI_Win w), (r, w), r)
WSYNC(Win_flush_all, (MPI_Win w), (w), -1)
WSYNC(Win_flush_local_all, (MPI_Win w), (w), -1)
WSYNC(Win_sync, (MPI_Win w), (w), -1)
WSYNC(Win_post, (MPI_Group g, int a, MPI_Win w), (g, a, w), -1)
WSYNC(Win_start, (MPI_Group g, int a, MPI_Win w), (g, a, w), -1)
WSYNC(Win_complete, (MPI_Win w), (w), -1)
WSYNC(Win_wait, (MPI_Win w), (w), -1)
WSYNC(Win_test, (MPI_Win w, int *flag), (w, flag), -1)
#undef WSYNC
/* The transfers: the origin's bytes (count x type size), the target. */
int MPI_Put(const void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Win w)
{
    BEGIN;
    int rc = PMPI_Put(o, oc, ot, r, d, tc, tt, w);
    REC(rma("MPI_Put", w, r, (uint64_t)oc * tsz(ot), ot, MPI_OP_NULL, t0, NULL));
    return rc;
}
int MPI_Get(void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Win w)
{
    BEGIN;
    int rc = PMPI_Get(o, oc, ot, r, d, tc, tt, w);
    REC(rma("MPI_Get", w, r, (uint64_t)oc * tsz(ot), ot, MPI_OP_NULL, t0, NULL));
    return rc;
}
int MPI_Accumulate(const void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Op op,
                   MPI_Win w)
{
    BEGIN;
    int rc = PMPI_Accumulate(o, oc, ot, r, d, tc, tt, op, w);
    REC(rma("MPI_Accumulate", w, r, (uint64_t)oc * tsz(ot), ot, op, t0, NULL));
    return rc;
}
int MPI_Get_accumulate(const void *o, int oc, MPI_Datatype ot, void *res, int rc_, MPI_Datatype rt, int r,
                       MPI_Aint d, int tc, MPI_Datatype tt, MPI_Op op, MPI_Win w)
{
    BEGIN;
    int rc = PMPI_Get_accumulate(o, oc, ot, res, rc_, rt, r, d, tc, tt, op, w);
    REC(rma("MPI_Get_accumulate", w, r, (uint64_t)oc * tsz(ot), ot, op, t0, NULL));
    return rc;
}
int MPI_Fetch_and_op(const void *o, void *res, MPI_Datatype t, int r, MPI_Aint d, MPI_Op op, MPI_Win w)
{
    BEGIN;
    int rc = PMPI_Fetch_and_op(o, res, t, r, d, op, w);
    REC(rma("MPI_Fetch_and_op", w, r, tsz(t), t, op, t0, NULL));
    return rc;
}
int MPI_Compare_and_swap(const void *o, const void *c, void *res, MPI_Datatype t, int r, MPI_Aint d, MPI_Win w)
{
    BEGIN;
    int rc = PMPI_Compare_and_swap(o, c, res, t, r, d, w);
    REC(rma("MPI_Compare_and_swap", w, r, tsz(t), t, MPI_OP_NULL, t0, NULL));
    return rc;
}
int MPI_Rput(const void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Win w,
             MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Rput(o, oc, ot, r, d, tc, tt, w, q);
    REC(rma("MPI_Rput", w, r, (uint64_t)oc * tsz(ot), ot, MPI_OP_NULL, t0, q));
    return rc;
}
int MPI_Rget(void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Win w,
             MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Rget(o, oc, ot, r, d, tc, tt, w, q);
    REC(rma("MPI_Rget", w, r, (uint64_t)oc * tsz(ot), ot, MPI_OP_NULL, t0, q));
    return rc;
}
int MPI_Raccumulate(const void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Op op,
                    MPI_Win w, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Raccumulate(o, oc, ot, r, d, tc, tt, op, w, q);
    REC(rma("MPI_Raccumulate", w, r, (uint64_t)oc * tsz(ot), ot, op, t0, q));
    return rc;
}
int MPI_Rget_accumulate(const void *o, int oc, MPI_Datatype ot, void *res, int rc_, MPI_Datatype rt, int r,
                        MPI_Aint d, int tc, MPI_Datatype tt, MPI_Op op, MPI_Win w, MPI_Request *q)
{
    BEGIN;
    int rc = PMPI_Rget_accumulate(o, oc, ot, res, rc_, rt, r, d, tc, tt, op, w, q);
    REC(rma("MPI_Rget_accumulate", w, r, (uint64_t)oc * tsz(ot), ot, op, t0, q));
    return rc;
}

/* Neighbourhood collectives: BYTES as their global forms' (the block it sends, to each
 * neighbour in an alltoall; all it sends in alltoallv/w). */
static int outdegree(MPI_Comm c)
{
    int topo = MPI_UNDEFINED, n = 0, in = 0, w = 0;
    PMPI_Topo_test(c, &topo);
    if (topo == MPI_CART)
        PMPI_Cartdim_get(c, &n), n *= 2;
    else if (topo == MPI_GRAPH)
        PMPI_Graph_neighbors_count(c, crank(c), &n);
    else if (topo == MPI_DIST_GRAPH)
        PMPI_Dist_graph_neighbors_count(c, &in, &n, &w);
    return n;
}
static uint64_t nsum(const int *c, const MPI_Datatype *ts, MPI_Datatype t, MPI_Comm comm)
{
    uint64_t b = 0;
    for (int k = 0, n = outdegree(comm); k < n; k++)
        b += (uint64_t)c[k] * tsz(ts ? ts[k] : t);
    return b;
}
#define NBR_UN(...) __VA_ARGS__
#define NBR(Name, params, args, bytes, type)                                                                   \
    int MPI_Neighbor_##Name params                                                                             \
    {                                                                                                          \
        BEGIN;                                                                                                 \
        int rc = PMPI_Neighbor_##Name args;                                                                    \
        REC(other("MPI_Neighbor_" #Name, comm, -1, bytes, type, MPI_OP_NULL, t0, NULL));                       \
        return rc;                                                                                             \
    }                                                                                                          \
    int MPI_Ineighbor_##Name(NBR_UN params, MPI_Request *q)                                                    \
    {                                                                                                          \
        BEGIN;                                                                                                 \
        int rc = PMPI_Ineighbor_##Name(NBR_UN args, q);                                                        \
        REC(other("MPI_Ineighbor_" #Name, comm, -1, bytes, type, MPI_OP_NULL, t0, q));                         \
        return rc;                                                                                             \
    }
NBR(allgather, (const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm),
    (s, sc, st, r, rc_, rt, comm), (uint64_t)sc * tsz(st), st)
NBR(allgatherv, (const void *s, int sc, MPI_Datatype st, void *r, const int *rcs, const int *rd, MPI_Datatype rt,
                 MPI_Comm comm), (s, sc, st, r, rcs, rd, rt, comm), (uint64_t)sc * tsz(st), st)
NBR(alltoall, (const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm),
    (s, sc, st, r, rc_, rt, comm), (uint64_t)sc * tsz(st), st)
NBR(alltoallv, (const void *s, const int *scs, const int *sd, MPI_Datatype st, void *r, const int *rcs,
                const int *rd, MPI_Datatype rt, MPI_Comm comm), (s, scs, sd, st, r, rcs, rd, rt, comm),
    nsum(scs, NULL, st, comm), st)
NBR(alltoallw, (const void *s, const int *scs, const MPI_Aint *sd, const MPI_Datatype *sts, void *r, const int *rcs,
                const MPI_Aint *rd, const MPI_Datatype *rts, MPI_Comm comm), (s, scs, sd, sts, r, rcs, rd, rts, comm),
    nsum(scs, sts, MPI_DATATYPE_NULL, comm), outdegree(comm) ? sts[0] : MPI_DATATYPE_NULL)
#undef NBR
#undef NBR_UN

/* Completion. A request this library did not issue (I/O, a generalized request) records nothing. */
int MPI_Wait(MPI_Request *q, MPI_Status *st)
{
    MPI_Status mine;
    MPI_Request r = *q;
    BEGIN;
    int rc = PMPI_Wait(q, st == MPI_STATUS_IGNORE ? &mine : st);
    REC(completed(r, st == MPI_STATUS_IGNORE ? &mine : st, t0, 1));
    return rc;
}
int MPI_Test(MPI_Request *q, int *flag, MPI_Status *st)
{
    MPI_Status mine;
    MPI_Request r = *q;
    BEGIN;
    int rc = PMPI_Test(q, flag, st == MPI_STATUS_IGNORE ? &mine : st);
    REC(if (*flag) completed(r, st == MPI_STATUS_IGNORE ? &mine : st, t0, 1));
    return rc;
}
int MPI_Waitany(int n, MPI_Request q[], int *idx, MPI_Status *st)
{
    MPI_Status mine;
    reqs s;
    if (save(&s, n, q, MPI_STATUSES_IGNORE))
        return PMPI_Waitany(n, q, idx, st);
    BEGIN;
    int rc = PMPI_Waitany(n, q, idx, st == MPI_STATUS_IGNORE ? &mine : st);
    REC(if (*idx != MPI_UNDEFINED) completed(s.r[*idx], st == MPI_STATUS_IGNORE ? &mine : st, t0, 1));
    unsave(&s, MPI_STATUSES_IGNORE);
    return rc;
}
int MPI_Testany(int n, MPI_Request q[], int *idx, int *flag, MPI_Status *st)
{
    MPI_Status mine;
    reqs s;
    if (save(&s, n, q, MPI_STATUSES_IGNORE))
        return PMPI_Testany(n, q, idx, flag, st);
    BEGIN;
    int rc = PMPI_Testany(n, q, idx, flag, st == MPI_STATUS_IGNORE ? &mine : st);
    REC(if (*flag && *idx != MPI_UNDEFINED) completed(s.r[*idx], st == MPI_STATUS_IGNORE ? &mine : st, t0, 1));
    unsave(&s, MPI_STATUSES_IGNORE);
    return rc;
}
int MPI_Waitall(int n, MPI_Request q[], MPI_Status st[])
{
    reqs s;
    if (save(&s, n, q, st))
        return PMPI_Waitall(n, q, st);
    BEGIN;
    int rc = PMPI_Waitall(n, q, s.s);
    REC(done_all(&s, t0));
    unsave(&s, st);
    return rc;
}
int MPI_Testall(int n, MPI_Request q[], int *flag, MPI_Status st[])
{
    reqs s;
    if (save(&s, n, q, st))
        return PMPI_Testall(n, q, flag, st);
    BEGIN;
    int rc = PMPI_Testall(n, q, flag, s.s);
    REC(if (*flag) done_all(&s, t0));
    unsave(&s, st);
    return rc;
}
int MPI_Waitsome(int n, MPI_Request q[], int *out, int idx[], MPI_Status st[])
{
    reqs s;
    if (save(&s, n, q, st))
        return PMPI_Waitsome(n, q, out, idx, st);
    BEGIN;
    int rc = PMPI_Waitsome(n, q, out, idx, s.s);
    REC(done_some(&s, *out, idx, t0));
    unsave(&s, st);
    return rc;
}
int MPI_Testsome(int n, MPI_Request q[], int *out, int idx[], MPI_Status st[])
{
    reqs s;
    if (save(&s, n, q, st))
        return PMPI_Testsome(n, q, out, idx, st);
    BEGIN;
    int rc = PMPI_Testsome(n, q, out, idx, s.s);
    REC(done_some(&s, *out, idx, t0));
    unsave(&s, st);
    return rc;
}

/* Communicators: every one a wrapped call makes is defined in the trace. */
int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *out)
{
    int rc = PMPI_Comm_split(c, color, key, out);
    made(*out);
    return rc;
}
int MPI_Comm_split_type(MPI_Comm c, int type, int key, MPI_Info info, MPI_Comm *out)
{
    int rc = PMPI_Comm_split_type(c, type, key, info, out);
    made(*out);
    return rc;
}
int MPI_Comm_dup(MPI_Comm c, MPI_Comm *out)
{
    int rc = PMPI_Comm_dup(c, out);
    made(*out);
    return rc;
}
int MPI_Comm_dup_with_info(MPI_Comm c, MPI_Info info, MPI_Comm *out)
{
    int rc = PMPI_Comm_dup_with_info(c, info, out);
    made(*out);
    return rc;
}
int MPI_Comm_create(MPI_Comm c, MPI_Group g, MPI_Comm *out)
{
    int rc = PMPI_Comm_create(c, g, out);
    made(*out);
    return rc;
}
int MPI_Comm_create_group(MPI_Comm c, MPI_Group g, int tag, MPI_Comm *out)
{
    int rc = PMPI_Comm_create_group(c, g, tag, out);
    made(*out);
    return rc;
}
int MPI_Cart_create(MPI_Comm c, int nd, const int dims[], const int periods[], int reorder, MPI_Comm *out)
{
    int rc = PMPI_Cart_create(c, nd, dims, periods, reorder, out);
    made(*out);
    return rc;
}
int MPI_Cart_sub(MPI_Comm c, const int remain[], MPI_Comm *out)
{
    int rc = PMPI_Cart_sub(c, remain, out);
    made(*out);
    return rc;
}
int MPI_Graph_create(MPI_Comm c, int n, const int index[], const int edges[], int reorder, MPI_Comm *out)
{
    int rc = PMPI_Graph_create(c, n, index, edges, reorder, out);
    made(*out);
    return rc;
}
int MPI_Comm_free(MPI_Comm *c)
{
    forget(*c);
    return PMPI_Comm_free(c);
}

/* ------------------------------------------------------------ Fortran */
/* f2c of a Fortran request after the call made it (MPI_REQUEST_NULL stays null). */
static MPI_Request freq(const MPI_Fint *q) { return PMPI_Request_f2c(*q); }

/* A Fortran status (mpif.h's integer array; use mpi_f08's TYPE(MPI_Status) has the
 * same layout in Open MPI) or ours where it passed MPI_STATUS_IGNORE. */
static MPI_Status fstat(const MPI_Fint *f)
{
    MPI_Status s;
    PMPI_Status_f2c(f, &s);
    return s;
}
#define FST(st, mine) ((st) == MPI_F_STATUS_IGNORE ? (mine) : (st))

/* Each Fortran wrapper twice: mpi_NAME_ (mpif.h, use mpi) calling pmpi_NAME_, and
 * mpi_NAME_f08_ (use mpi_f08) calling pmpi_NAME_f08_; same arguments (handles are
 * one integer in both), same recording. */
#define FORTRAN(name, params, args, pre, post)                                                                    \
    void pmpi_##name##_ params __attribute__((weak));                                                             \
    void pmpi_##name##_f08_ params __attribute__((weak));                                                         \
    void mpi_##name##_ params;                                                                                    \
    void mpi_##name##_f08_ params;                                                                                 \
    void mpi_##name##_ params { pre; BEGIN; pmpi_##name##_ args; int top = --depth == 0 && t0 >= 0; post; }      \
    void mpi_##name##_f08_ params { pre; BEGIN; pmpi_##name##_f08_ args; int top = --depth == 0 && t0 >= 0; post; }

typedef MPI_Fint F;
enum { FSS = sizeof(MPI_Status) / sizeof(F) }; /* a Fortran status's integers */
#define CM(c) PMPI_Comm_f2c(*(c))
#define TY(t) PMPI_Type_f2c(*(t))
#define OP(o) PMPI_Op_f2c(*(o))
#define OK (top && (!e || !*e)) /* the outermost wrapper, and the call succeeded */

FORTRAN(init, (F *e), (e), , (void)top; last0 = PMPI_Wtime(); PMPI_Comm_rank(MPI_COMM_WORLD, &me))
FORTRAN(init_thread, (F *req, F *prov, F *e), (req, prov, e), , (void)top; last0 = PMPI_Wtime();
        PMPI_Comm_rank(MPI_COMM_WORLD, &me))
FORTRAN(bcast, (void *b, F *n, F *t, F *root, F *c, F *e), (b, n, t, root, c, e), ,
        if (OK) rec_coll(C_BCAST, b, b, *n, NULL, TY(t), 0, NULL, TY(t), NONE, *root, CM(c), t0, NULL))
FORTRAN(ibcast, (void *b, F *n, F *t, F *root, F *c, F *q, F *e), (b, n, t, root, c, q, e), ,
        if (OK) { MPI_Request r = freq(q); rec_coll(C_BCAST, b, b, *n, NULL, TY(t), 0, NULL, TY(t), NONE, *root,
                                                    CM(c), t0, &r); })
/* The reductions: (s, r, n, t, op[, root], c); ROOT and ROOTA the root's parameter
 * and argument with their commas (RT, RTA), or nothing. */
#define RT F *ro,
#define RTA ro,
#define FRED(name, call, ROOT, ROOTA, rootv)                                                                      \
    FORTRAN(name, (void *s, void *r, F *n, F *t, F *o, ROOT F *c, F *e), (s, r, n, t, o, ROOTA c, e), ,         \
            if (OK) rec_coll(call, s, r, *n, NULL, TY(t), 0, NULL, TY(t), OP(o), rootv, CM(c), t0, NULL))          \
    FORTRAN(i##name, (void *s, void *r, F *n, F *t, F *o, ROOT F *c, F *q, F *e),                               \
            (s, r, n, t, o, ROOTA c, q, e), ,                                                                    \
            if (OK) { MPI_Request x = freq(q); rec_coll(call, s, r, *n, NULL, TY(t), 0, NULL, TY(t), OP(o), rootv, \
                                                        CM(c), t0, &x); })
FRED(allreduce, C_ALLREDUCE, , , -1)
FRED(scan, C_SCAN, , , -1)
FRED(exscan, C_EXSCAN, , , -1)
FRED(reduce, C_REDUCE, RT, RTA, *ro)
FORTRAN(barrier, (F *c, F *e), (c, e), ,
        if (OK) rec_coll(C_BARRIER, NULL, NULL, 0, NULL, MPI_DATATYPE_NULL, 0, NULL, MPI_DATATYPE_NULL, NONE, -1,
                         CM(c), t0, NULL))
FORTRAN(ibarrier, (F *c, F *q, F *e), (c, q, e), ,
        if (OK) { MPI_Request x = freq(q); rec_coll(C_BARRIER, NULL, NULL, 0, NULL, MPI_DATATYPE_NULL, 0, NULL,
                                                    MPI_DATATYPE_NULL, NONE, -1, CM(c), t0, &x); })
/* The gathers, scatters and all-to-all of equal blocks: (s, sc, st, r, rc, rt[, root], c). */
#define FBLK(name, call, ROOT, ROOTA, rootv)                                                                    \
    FORTRAN(name, (void *s, F *sc, F *st, void *r, F *rc, F *rt, ROOT F *c, F *e),                              \
            (s, sc, st, r, rc, rt, ROOTA c, e), ,                                                              \
            if (OK) rec_coll(call, s, r, *sc, NULL, TY(st), *rc, NULL, TY(rt), NONE, rootv, CM(c), t0, NULL))      \
    FORTRAN(i##name, (void *s, F *sc, F *st, void *r, F *rc, F *rt, ROOT F *c, F *q, F *e),                     \
            (s, sc, st, r, rc, rt, ROOTA c, q, e), ,                                                           \
            if (OK) { MPI_Request x = freq(q); rec_coll(call, s, r, *sc, NULL, TY(st), *rc, NULL, TY(rt), NONE,    \
                                                        rootv, CM(c), t0, &x); })
FBLK(allgather, C_ALLGATHER, , , -1)
FBLK(alltoall, C_ALLTOALL, , , -1)
FBLK(gather, C_GATHER, RT, RTA, *ro)
FBLK(scatter, C_SCATTER, RT, RTA, *ro)
FORTRAN(allgatherv, (void *s, F *sc, F *st, void *r, F *rcs, F *d, F *rt, F *c, F *e), (s, sc, st, r, rcs, d, rt, c, e),
        , if (OK) rec_coll(C_ALLGATHERV, s, r, *sc, NULL, TY(st), 0, rcs, TY(rt), NONE, -1, CM(c), t0, NULL))
FORTRAN(iallgatherv, (void *s, F *sc, F *st, void *r, F *rcs, F *d, F *rt, F *c, F *q, F *e),
        (s, sc, st, r, rcs, d, rt, c, q, e), ,
        if (OK) { MPI_Request x = freq(q); rec_coll(C_ALLGATHERV, s, r, *sc, NULL, TY(st), 0, rcs, TY(rt), NONE,
                                                    -1, CM(c), t0, &x); })
FORTRAN(gatherv, (void *s, F *sc, F *st, void *r, F *rcs, F *d, F *rt, F *root_, F *c, F *e),
        (s, sc, st, r, rcs, d, rt, root_, c, e), ,
        if (OK) rec_coll(C_GATHERV, s, r, *sc, NULL, TY(st), 0, rcs, TY(rt), NONE, *root_, CM(c), t0, NULL))
FORTRAN(igatherv, (void *s, F *sc, F *st, void *r, F *rcs, F *d, F *rt, F *root_, F *c, F *q, F *e),
        (s, sc, st, r, rcs, d, rt, root_, c, q, e), ,
        if (OK) { MPI_Request x = freq(q); rec_coll(C_GATHERV, s, r, *sc, NULL, TY(st), 0, rcs, TY(rt), NONE,
                                                    *root_, CM(c), t0, &x); })
FORTRAN(scatterv, (void *s, F *scs, F *d, F *st, void *r, F *rc, F *rt, F *root_, F *c, F *e),
        (s, scs, d, st, r, rc, rt, root_, c, e), ,
        if (OK) rec_coll(C_SCATTERV, s, r, 0, scs, TY(st), *rc, NULL, TY(rt), NONE, *root_, CM(c), t0, NULL))
FORTRAN(iscatterv, (void *s, F *scs, F *d, F *st, void *r, F *rc, F *rt, F *root_, F *c, F *q, F *e),
        (s, scs, d, st, r, rc, rt, root_, c, q, e), ,
        if (OK) { MPI_Request x = freq(q); rec_coll(C_SCATTERV, s, r, 0, scs, TY(st), *rc, NULL, TY(rt), NONE,
                                                    *root_, CM(c), t0, &x); })
FORTRAN(alltoallv, (void *s, F *scs, F *sd, F *st, void *r, F *rcs, F *rd, F *rt, F *c, F *e),
        (s, scs, sd, st, r, rcs, rd, rt, c, e), ,
        if (OK) rec_coll(C_ALLTOALLV, s, r, 0, scs, TY(st), 0, rcs, TY(rt), NONE, -1, CM(c), t0, NULL))
FORTRAN(ialltoallv, (void *s, F *scs, F *sd, F *st, void *r, F *rcs, F *rd, F *rt, F *c, F *q, F *e),
        (s, scs, sd, st, r, rcs, rd, rt, c, q, e), ,
        if (OK) { MPI_Request x = freq(q); rec_coll(C_ALLTOALLV, s, r, 0, scs, TY(st), 0, rcs, TY(rt), NONE, -1,
                                                    CM(c), t0, &x); })
FORTRAN(reduce_scatter, (void *s, void *r, F *rcs, F *t, F *o, F *c, F *e), (s, r, rcs, t, o, c, e), ,
        if (OK) rec_coll(C_REDUCE_SCATTER, s, r, 0, NULL, TY(t), 0, rcs, TY(t), OP(o), -1, CM(c), t0, NULL))
FORTRAN(ireduce_scatter, (void *s, void *r, F *rcs, F *t, F *o, F *c, F *q, F *e), (s, r, rcs, t, o, c, q, e), ,
        if (OK) { MPI_Request x = freq(q); rec_coll(C_REDUCE_SCATTER, s, r, 0, NULL, TY(t), 0, rcs, TY(t), OP(o),
                                                    -1, CM(c), t0, &x); })
FORTRAN(reduce_scatter_block, (void *s, void *r, F *rc, F *t, F *o, F *c, F *e), (s, r, rc, t, o, c, e), ,
        if (OK) rec_coll(C_REDUCE_SCATTER_BLOCK, s, r, 0, NULL, TY(t), *rc, NULL, TY(t), OP(o), -1, CM(c), t0,
                         NULL))
FORTRAN(ireduce_scatter_block, (void *s, void *r, F *rc, F *t, F *o, F *c, F *q, F *e), (s, r, rc, t, o, c, q, e), ,
        if (OK) { MPI_Request x = freq(q); rec_coll(C_REDUCE_SCATTER_BLOCK, s, r, 0, NULL, TY(t), *rc, NULL, TY(t),
                                                    OP(o), -1, CM(c), t0, &x); })
/* alltoallw's types are arrays of Fortran handles: converted one by one. */
static void f_alltoallw(void *s, const F *scs, const F *sts, const F *rcs, const F *rts, const F *c, double t0,
                        MPI_Request *q)
{
    MPI_Comm cc = CM(c);
    int n = csize(cc);
    MPI_Datatype *ty = malloc(2 * (size_t)(n ? n : 1) * sizeof *ty);
    if (!ty) {
        oom = 1;
        return;
    }
    for (int k = 0; k < n; k++)
        ty[k] = in_place(s) ? MPI_DATATYPE_NULL : TY(&sts[k]), ty[n + k] = TY(&rts[k]);
    rec_alltoallw(s, scs, ty, rcs, ty + n, cc, t0, q);
    free(ty);
}
FORTRAN(alltoallw, (void *s, F *scs, F *sd, F *st, void *r, F *rcs, F *rd, F *rt, F *c, F *e),
        (s, scs, sd, st, r, rcs, rd, rt, c, e), , if (OK) f_alltoallw(s, scs, st, rcs, rt, c, t0, NULL))
FORTRAN(ialltoallw, (void *s, F *scs, F *sd, F *st, void *r, F *rcs, F *rd, F *rt, F *c, F *q, F *e),
        (s, scs, sd, st, r, rcs, rd, rt, c, q, e), ,
        if (OK) { MPI_Request x = freq(q); f_alltoallw(s, scs, st, rcs, rt, c, t0, &x); })

#define FSEND(name)                                                                                                \
    FORTRAN(name, (void *b, F *n, F *t, F *d, F *tag, F *c, F *e), (b, n, t, d, tag, c, e), ,                    \
            if (OK) put(C_SEND, CM(c), *d, (uint64_t)*n * tsz(TY(t)), TY(t), "-", *tag, t0, NULL))                 \
    FORTRAN(i##name, (void *b, F *n, F *t, F *d, F *tag, F *c, F *q, F *e), (b, n, t, d, tag, c, q, e), ,        \
            if (OK) { MPI_Request x = freq(q); put(C_SEND, CM(c), *d, (uint64_t)*n * tsz(TY(t)), TY(t), "-", *tag, \
                                                   t0, &x); })
FSEND(send)
FSEND(ssend)
FSEND(bsend)
FSEND(rsend)
FORTRAN(irecv, (void *b, F *n, F *t, F *src, F *tag, F *c, F *q, F *e), (b, n, t, src, tag, c, q, e), ,
        if (OK) { MPI_Request x = freq(q); put(C_RECV, CM(c), *src, (uint64_t)*n * tsz(TY(t)), TY(t), "-", *tag, t0,
                                               &x); })
FORTRAN(recv, (void *b, F *n, F *t, F *src, F *tag, F *c, F *st, F *e), (b, n, t, src, tag, c, FST(st, mine), e),
        F mine[FSS],
        if (OK && *src != MPI_PROC_NULL) { MPI_Status s = fstat(FST(st, mine)); rec_recv(&s, CM(c), TY(t), t0,
                                                                                         PMPI_Wtime()); })
FORTRAN(sendrecv, (void *sb, F *sc, F *stt, F *d, F *stag, void *rb, F *rc, F *rt, F *src, F *rtag, F *c, F *st, F *e),
        (sb, sc, stt, d, stag, rb, rc, rt, src, rtag, c, FST(st, mine), e), F mine[FSS],
        if (OK) {
            if (*d != MPI_PROC_NULL) { rec *x = put(C_SEND, CM(c), *d, (uint64_t)*sc * tsz(TY(stt)), TY(stt), "-",
                                                    *stag, t0, NULL); if (x) x->t1 = t0; }
            if (*src != MPI_PROC_NULL) { MPI_Status s = fstat(FST(st, mine)); rec_recv(&s, CM(c), TY(rt), t0,
                                                                                      PMPI_Wtime()); }
        })
FORTRAN(sendrecv_replace, (void *b, F *n, F *t, F *d, F *stag, F *src, F *rtag, F *c, F *st, F *e),
        (b, n, t, d, stag, src, rtag, c, FST(st, mine), e), F mine[FSS],
        if (OK) {
            if (*d != MPI_PROC_NULL) { rec *x = put(C_SEND, CM(c), *d, (uint64_t)*n * tsz(TY(t)), TY(t), "-", *stag,
                                                    t0, NULL); if (x) x->t1 = t0; }
            if (*src != MPI_PROC_NULL) { MPI_Status s = fstat(FST(st, mine)); rec_recv(&s, CM(c), TY(t), t0,
                                                                                      PMPI_Wtime()); }
        })

/* Fortran completion: the C requests taken before the call; statuses converted. */
static void f_done(const MPI_Request *r, const F *st, const int *idx, int nidx, double t0)
{
    for (int i = 0; i < nidx; i++) {
        MPI_Status s = fstat(st + (size_t)i * FSS);
        completed(r[idx ? idx[i] - 1 : i], &s, t0, i == 0); /* Fortran indices count from 1 */
    }
}
FORTRAN(wait, (F *q, F *st, F *e), (q, FST(st, mine), e), F mine[FSS]; MPI_Request r = freq(q),
        if (OK) f_done(&r, FST(st, mine), NULL, 1, t0))
FORTRAN(test, (F *q, F *flag, F *st, F *e), (q, flag, FST(st, mine), e), F mine[FSS]; MPI_Request r = freq(q),
        if (OK && *flag) f_done(&r, FST(st, mine), NULL, 1, t0))
/* The arrays' forms: requests saved (C handles), statuses ours where ignored. */
typedef struct {
    MPI_Request *r;
    F *st;
} fsave;
static fsave fsave_of(int n, const F *q, F *st)
{
    fsave s = {malloc((size_t)(n ? n : 1) * sizeof *s.r),
               st == MPI_F_STATUSES_IGNORE ? malloc((size_t)(n ? n : 1) * FSS * sizeof(F)) : st};
    if (!s.r || !s.st)
        oom = 1;
    for (int i = 0; s.r && i < n; i++)
        s.r[i] = PMPI_Request_f2c(q[i]);
    return s;
}
static void fsave_free(fsave *s, const F *st)
{
    free(s->r);
    if (s->st != st)
        free(s->st);
}
FORTRAN(waitall, (F *n, F *q, F *st, F *e), (n, q, s.st ? s.st : st, e), fsave s = fsave_of(*n, q, st),
        if (OK && s.r && s.st) f_done(s.r, s.st, NULL, *n, t0); fsave_free(&s, st))
FORTRAN(testall, (F *n, F *q, F *flag, F *st, F *e), (n, q, flag, s.st ? s.st : st, e), fsave s = fsave_of(*n, q, st),
        if (OK && *flag && s.r && s.st) f_done(s.r, s.st, NULL, *n, t0); fsave_free(&s, st))
FORTRAN(waitany, (F *n, F *q, F *idx, F *st, F *e), (n, q, idx, FST(st, mine), e),
        F mine[FSS]; fsave s = fsave_of(*n, q, mine),
        if (OK && s.r && *idx != MPI_UNDEFINED) f_done(s.r, FST(st, mine), idx, 1, t0); fsave_free(&s, mine))
FORTRAN(waitsome, (F *n, F *q, F *out, F *idx, F *st, F *e), (n, q, out, idx, s.st ? s.st : st, e),
        fsave s = fsave_of(*n, q, st),
        if (OK && s.r && s.st && *out != MPI_UNDEFINED) f_done(s.r, s.st, idx, *out, t0); fsave_free(&s, st))
FORTRAN(testsome, (F *n, F *q, F *out, F *idx, F *st, F *e), (n, q, out, idx, s.st ? s.st : st, e),
        fsave s = fsave_of(*n, q, st),
        if (OK && s.r && s.st && *out != MPI_UNDEFINED) f_done(s.r, s.st, idx, *out, t0); fsave_free(&s, st))

/* Persistent requests, probes, and the one-sided calls of a fence epoch (the others
 * are C only). */
#define FPINIT(name, call)                                                                                       \
    FORTRAN(name, (void *b, F *n, F *t, F *d, F *tag, F *c, F *q, F *e), (b, n, t, d, tag, c, q, e), ,          \
            (void)top; if (!e || !*e) persist(call, freq(q), CM(c), *d, *tag, *n, TY(t)))
FPINIT(send_init, C_SEND)
FPINIT(ssend_init, C_SEND)
FPINIT(bsend_init, C_SEND)
FPINIT(rsend_init, C_SEND)
FPINIT(recv_init, C_RECV)
FORTRAN(start, (F *q, F *e), (q, e), , if (OK) { MPI_Request x = freq(q); started(&x, t0); })
FORTRAN(startall, (F *n, F *q, F *e), (n, q, e), ,
        if (OK) for (int i = 0; i < *n; i++) { MPI_Request x = freq(&q[i]); started(&x, i ? PMPI_Wtime() : t0); })
FORTRAN(request_free, (F *q, F *e), (q, e), unpersist(freq(q)), (void)top)
FORTRAN(probe, (F *src, F *tag, F *c, F *st, F *e), (src, tag, c, FST(st, mine), e), F mine[FSS],
        if (OK && *src != MPI_PROC_NULL) { MPI_Status s = fstat(FST(st, mine)); probed("MPI_Probe", CM(c), &s, 1,
                                                                                       NULL, t0); })
FORTRAN(iprobe, (F *src, F *tag, F *c, F *flag, F *st, F *e), (src, tag, c, flag, FST(st, mine), e), F mine[FSS],
        if (OK && *src != MPI_PROC_NULL) { MPI_Status s = fstat(FST(st, mine)); probed("MPI_Iprobe", CM(c), &s, *flag,
                                                                                       NULL, t0); })
#define WN(w) PMPI_Win_f2c(*(w))
FORTRAN(win_create, (void *b, MPI_Aint *size, F *du, F *info, F *c, F *w, F *e), (b, size, du, info, c, w, e), ,
        if (!e || !*e) win_made(WN(w), CM(c));
        if (OK) rma("MPI_Win_create", WN(w), -1, 0, MPI_DATATYPE_NULL, NONE, t0, NULL))
FORTRAN(win_allocate, (MPI_Aint *size, F *du, F *info, F *c, void *b, F *w, F *e), (size, du, info, c, b, w, e), ,
        if (!e || !*e) win_made(WN(w), CM(c));
        if (OK) rma("MPI_Win_allocate", WN(w), -1, 0, MPI_DATATYPE_NULL, NONE, t0, NULL))
FORTRAN(win_free, (F *w, F *e), (w, e), MPI_Win was = WN(w),
        if (OK) rma("MPI_Win_free", was, -1, 0, MPI_DATATYPE_NULL, NONE, t0, NULL);
        win_gone(was))
FORTRAN(win_fence, (F *a, F *w, F *e), (a, w, e), ,
        if (OK) rma("MPI_Win_fence", WN(w), -1, 0, MPI_DATATYPE_NULL, NONE, t0, NULL))
FORTRAN(put, (void *o, F *oc, F *ot, F *r, MPI_Aint *d, F *tc, F *tt, F *w, F *e), (o, oc, ot, r, d, tc, tt, w, e), ,
        if (OK) rma("MPI_Put", WN(w), *r, (uint64_t)*oc * tsz(TY(ot)), TY(ot), NONE, t0, NULL))
FORTRAN(get, (void *o, F *oc, F *ot, F *r, MPI_Aint *d, F *tc, F *tt, F *w, F *e), (o, oc, ot, r, d, tc, tt, w, e), ,
        if (OK) rma("MPI_Get", WN(w), *r, (uint64_t)*oc * tsz(TY(ot)), TY(ot), NONE, t0, NULL))
FORTRAN(accumulate, (void *o, F *oc, F *ot, F *r, MPI_Aint *d, F *tc, F *tt, F *op, F *w, F *e),
        (o, oc, ot, r, d, tc, tt, op, w, e), ,
        if (OK) rma("MPI_Accumulate", WN(w), *r, (uint64_t)*oc * tsz(TY(ot)), TY(ot), OP(op), t0, NULL))

#define FCOMM(name, params, args, out) FORTRAN(name, params, args, , if (OK) made(PMPI_Comm_f2c(*(out))))
FCOMM(comm_split, (F *c, F *color, F *key, F *out, F *e), (c, color, key, out, e), out)
FCOMM(comm_split_type, (F *c, F *ty, F *key, F *info, F *out, F *e), (c, ty, key, info, out, e), out)
FCOMM(comm_dup, (F *c, F *out, F *e), (c, out, e), out)
FCOMM(comm_dup_with_info, (F *c, F *info, F *out, F *e), (c, info, out, e), out)
FCOMM(comm_create, (F *c, F *g, F *out, F *e), (c, g, out, e), out)
FCOMM(comm_create_group, (F *c, F *g, F *tag, F *out, F *e), (c, g, tag, out, e), out)
FCOMM(cart_create, (F *c, F *nd, F *dims, F *per, F *reorder, F *out, F *e), (c, nd, dims, per, reorder, out, e), out)
FCOMM(cart_sub, (F *c, F *remain, F *out, F *e), (c, remain, out, e), out)
FORTRAN(comm_free, (F *c, F *e), (c, e), forget(PMPI_Comm_f2c(*c)), (void)top)

/* ------------------------------------------------------------ the trace */
/* Record k as a line; its gap is from record k-1's return (record 0: MPI_Init's). */
static size_t fmt_rec(char *out, size_t cap, size_t k)
{
    const rec *r = &recs[k];
    char opf[24];
    if (r->call == C_SEND || r->call == C_RECV) /* a message's tag in the OP field */
        snprintf(opf, sizeof opf, "%d", r->tag);
    int n = snprintf(out, cap, "%d %s%s %llu %d %llu %s %s %.0f %.0f\n", me,
                     r->nb && r->call < C_WAIT ? "i" : "", r->call == C_OTHER ? r->name : names[r->call],
                     (unsigned long long)r->comm, r->root,
                     (unsigned long long)r->bytes, r->call == C_SEND || r->call == C_RECV ? opf : r->op, r->type,
                     (r->t0 - (k ? recs[k - 1].t1 : last0)) * 1e9, (r->t1 - r->t0) * 1e9);
    return n < 0 ? 0 : (size_t)n;
}

/* Rank 0 gathers every rank's definitions and records, and writes the trace. */
static char *format_all(size_t *len)
{
    size_t cap = nrec * 96 + 1, n = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    for (size_t k = 0; k < nrec; k++) {
        if (cap - n < 512) {
            char *u = realloc(t, cap *= 2);
            if (!u) {
                free(t);
                return NULL;
            }
            t = u;
        }
        n += fmt_rec(t + n, cap - n, k);
    }
    t[n] = 0;
    *len = n;
    return t;
}

static char *gather(const char *mine, size_t len, int size, long *total)
{
    int n = (int)len, *lens = me ? NULL : malloc((size_t)size * sizeof *lens);
    int *offs = me ? NULL : malloc((size_t)size * sizeof *offs);
    PMPI_Gather(&n, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    *total = 0;
    if (!me)
        for (int k = 0; k < size; k++)
            offs[k] = (int)*total, *total += lens[k];
    char *text = me ? NULL : malloc((size_t)*total + 1);
    PMPI_Gatherv(mine ? mine : "", n, MPI_CHAR, text, lens, offs, MPI_CHAR, 0, MPI_COMM_WORLD);
    free(lens), free(offs);
    return text;
}

static void finish(void)
{
    int size;
    size_t len = 0;
    char *mine = format_all(&len);
    int bad = oom || !mine || len > 0x7fffffff || ndefs > 0x7fffffff, anybad = 0;
    long all = 0, nr = (long)nrec, tdefs, trecs;
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    PMPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    PMPI_Reduce(&nr, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    char *d = gather(anybad ? NULL : defs, anybad ? 0 : ndefs, size, &tdefs);
    char *t = gather(anybad ? NULL : mine, anybad ? 0 : len, size, &trecs);
    if (!me) {
        const char *path = getenv("TC_TRACE") ? getenv("TC_TRACE") : "tcpmpi.trace";
        FILE *f = fopen(path, "w");
        if (anybad || !d || !t || !f) {
            fprintf(stderr, "tcpmpi: %s: no trace written (%s)\n", path,
                    anybad ? "a rank ran out of memory for its records" : !f ? "cannot write the file" : "out of memory");
        } else {
            fprintf(f, "torcoll-trace 2\nranks %d\n", size);
            fwrite(d, 1, (size_t)tdefs, f);
            fprintf(f, "# rank call comm root|peer|wait bytes op|tag type gap_ns dur_ns\n");
            fwrite(t, 1, (size_t)trecs, f);
            fprintf(f, "end %ld\n", all);
        }
        if (f && fclose(f))
            fprintf(stderr, "tcpmpi: %s: write failed\n", path);
    }
    free(d), free(t), free(mine), free(recs), free(defs), free(pend), free(comms), free(pers), free(wins);
}

int MPI_Finalize(void)
{
    finish();
    return PMPI_Finalize();
}
FORTRAN(finalize, (F *e), (e), finish(), (void)top)
