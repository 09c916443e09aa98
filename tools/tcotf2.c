/* tcotf2: OTF2 traces (Score-P and other tools) to and from torcoll traces
 * (cmodel/netsim/trace.h, version 2), with Debian's OTF2 library.
 *   tcotf2 ARCHIVE.otf2 [OUT]     an OTF2 archive's MPI communication as a torcoll
 *                                 trace (OUT, or stdout), for tcnet workload=trace
 *   tcotf2 --write TRACE DIR      a torcoll trace as an OTF2 archive DIR/traces.otf2
 *
 * Reading: a rank is a location's location group (one location a rank). Every MPI
 * collective (MpiCollectiveBegin/End; NonBlockingCollectiveRequest/Complete, a
 * nonblocking one and its wait) and message (MpiSend, MpiRecv; MpiIsend with its
 * MpiIsendComplete, MpiIrecvRequest with its MpiIrecv) is a record; a collective
 * kind the trace format has no name for is counted and named on stderr. The
 * communicators are the archive's: a Comm's group of type COMM_GROUP lists
 * positions in the MPI COMM_LOCATIONS group (locations, hence ranks); COMM_SELF is
 * each rank alone. Times are in the archive's timer resolution, converted to ns; a
 * rank's first gap counts from its leaving MPI_Init (or MPI_Init_thread), as the
 * recorder's, or without that region from the clock's global offset (its first
 * tick); a message's single timestamp is its call's end (its time inside goes into
 * its gap).
 * BYTES: an archive this tool wrote carries the trace's BYTES; in any other (Score-P's)
 * sizeSent and sizeReceived are what Score-P's MPI adapter counts a rank moving in
 * all (src/adapters/mpi/c/scorep_mpi_coll.inc.c): an allreduce's, allgather's and
 * alltoall's sizeSent is the comm size times the block, a bcast's root sends the
 * block to all, a scan's rank k receives k + 1 blocks; they are turned back into
 * the block (cmodel/netsim/trace.h) here. An in-place call counts one block less, which
 * this cannot see (the trace says so: comm size, not size - 1, is the divisor).
 * OTF2's collective events carry no reduction op or datatype: --write puts the
 * trace's OP and TYPE in two string attributes of each collective's end event,
 * "torcoll op" and "torcoll type", and reading takes them back; an archive without
 * them gives op "-" and type "unknown", which the replay runs over point-to-point. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "../cmodel/netsim/trace.h"

/* The trace's collectives in OTF2's terms (the index is TC_CALL_*). */
static const OTF2_CollectiveOp otf2_op[TC_CALL_COLLS] = {
    OTF2_COLLECTIVE_OP_BCAST,     OTF2_COLLECTIVE_OP_REDUCE,   OTF2_COLLECTIVE_OP_ALLREDUCE,
    OTF2_COLLECTIVE_OP_BARRIER,   OTF2_COLLECTIVE_OP_ALLGATHER, OTF2_COLLECTIVE_OP_ALLGATHERV,
    OTF2_COLLECTIVE_OP_GATHER,    OTF2_COLLECTIVE_OP_GATHERV,  OTF2_COLLECTIVE_OP_SCATTER,
    OTF2_COLLECTIVE_OP_SCATTERV,  OTF2_COLLECTIVE_OP_ALLTOALL, OTF2_COLLECTIVE_OP_ALLTOALLV,
    OTF2_COLLECTIVE_OP_ALLTOALLW, OTF2_COLLECTIVE_OP_REDUCE_SCATTER, OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
    OTF2_COLLECTIVE_OP_SCAN,      OTF2_COLLECTIVE_OP_EXSCAN};

/* ---------------------------------------------------------------- reading */
typedef struct {
    uint64_t ref, group;        /* location, its location group (the rank) */
    uint64_t begin, last;       /* the open collective's begin, the last record's end */
    tc_trace_rec *rec;
    int n, cap;
    struct { uint64_t id; int rec; } *req; /* open requests: their records */
    int nreq, capreq;
} loc;

typedef struct {
    uint64_t ref;
    int type;
    uint32_t n;
    uint64_t *member;
} grp;

typedef struct {
    loc *locs;
    size_t nlocs, caplocs;
    grp *g;
    size_t ng;
    uint64_t *cref, *cgroup, *cname; /* comms, their groups and names */
    size_t ncomms;
    uint64_t res, offset;       /* ticks a second; the first tick */
    char **str;                 /* the string definitions, by reference */
    size_t nstr;
    uint64_t *region;           /* the region definitions' names (string refs), by reference */
    size_t nregion;
    uint64_t attr_op, attr_type; /* the "torcoll op" and "torcoll type" attributes, or UINT64_MAX */
    char skipped[200];          /* collective kinds left out, by OTF2 number */
    long nskipped;
    char err[200];
} rd;

static void *grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    int c = *cap ? 2 * *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (q)
        *cap = c;
    return q;
}

static OTF2_CallbackCode def_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
    (void)len, (void)rt;
    ((rd *)u)->res = res;
    ((rd *)u)->offset = off;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *text)
{
    rd *r = u;
    if (self >= r->nstr) {
        char **a = realloc(r->str, ((size_t)self + 1) * sizeof *a);
        if (!a)
            return OTF2_CALLBACK_ERROR;
        memset(a + r->nstr, 0, ((size_t)self + 1 - r->nstr) * sizeof *a);
        r->str = a;
        r->nstr = (size_t)self + 1;
    }
    free(r->str[self]);
    if (!(r->str[self] = strdup(text)))
        return OTF2_CALLBACK_ERROR;
    return OTF2_CALLBACK_SUCCESS;
}

static const char *str_of(const rd *r, uint64_t ref) { return ref < r->nstr && r->str[ref] ? r->str[ref] : NULL; }

static OTF2_CallbackCode def_attr(void *u, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef desc,
                                  OTF2_Type type)
{
    rd *r = u;
    const char *n = str_of(r, name);
    (void)desc;
    if (n && type == OTF2_TYPE_STRING && !strcmp(n, "torcoll op"))
        r->attr_op = self;
    if (n && type == OTF2_TYPE_STRING && !strcmp(n, "torcoll type"))
        r->attr_type = self;
    return OTF2_CALLBACK_SUCCESS;
}

/* The string attribute a of an event into out (size 32), if there and short enough. */
static void attr_str(const rd *r, const OTF2_AttributeList *al, uint64_t a, char *out)
{
    OTF2_StringRef ref;
    const char *t;
    if (al && a != UINT64_MAX && OTF2_AttributeList_GetStringRef(al, (OTF2_AttributeRef)a, &ref) == OTF2_SUCCESS &&
        (t = str_of(r, ref)) && *t && strlen(t) < 32 && !strpbrk(t, " \t\n"))
        strcpy(out, t);
}

static OTF2_CallbackCode def_loc(void *u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                                 uint64_t nev, OTF2_LocationGroupRef group)
{
    rd *r = u;
    (void)name, (void)type, (void)nev;
    int cap = (int)r->caplocs;
    loc *l = grow(r->locs, &cap, (int)r->nlocs + 1, sizeof *l);
    if (!l)
        return OTF2_CALLBACK_ERROR;
    r->locs = l, r->caplocs = (size_t)cap;
    memset(&l[r->nlocs], 0, sizeof *l);
    l[r->nlocs].ref = self;
    l[r->nlocs++].group = group;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm par, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    rd *r = u;
    (void)name, (void)flags;
    grp *g = realloc(r->g, (r->ng + 1) * sizeof *g);
    if (!g)
        return OTF2_CALLBACK_ERROR;
    r->g = g;
    g[r->ng] = (grp){self, par == OTF2_PARADIGM_MPI ? (int)type : -1, n, malloc((n ? n : 1) * sizeof(uint64_t))};
    if (!g[r->ng].member)
        return OTF2_CALLBACK_ERROR;
    memcpy(g[r->ng++].member, members, n * sizeof *members);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canon,
                                    OTF2_StringRef desc, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t line0, uint32_t line1)
{
    (void)canon, (void)desc, (void)role, (void)paradigm, (void)flags, (void)file, (void)line0, (void)line1;
    rd *r = u;
    if (self >= r->nregion) {
        uint64_t *a = realloc(r->region, ((size_t)self + 1) * sizeof *a);
        if (!a)
            return OTF2_CALLBACK_ERROR;
        for (size_t i = r->nregion; i <= self; i++)
            a[i] = UINT64_MAX;
        r->region = a;
        r->nregion = (size_t)self + 1;
    }
    r->region[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag flags)
{
    rd *r = u;
    (void)parent, (void)flags;
    size_t n = r->ncomms + 1;
    uint64_t *a = realloc(r->cref, n * sizeof *a), *b = a ? realloc(r->cgroup, n * sizeof *b) : NULL;
    uint64_t *c = b ? realloc(r->cname, n * sizeof *c) : NULL;
    if (a)
        r->cref = a;
    if (b)
        r->cgroup = b;
    if (!c)
        return OTF2_CALLBACK_ERROR;
    r->cname = c;
    r->cref[r->ncomms] = self, r->cgroup[r->ncomms] = group, r->cname[r->ncomms++] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static loc *find_loc(rd *r, OTF2_LocationRef ref)
{
    for (size_t i = 0; i < r->nlocs; i++)
        if (r->locs[i].ref == ref)
            return &r->locs[i];
    snprintf(r->err, sizeof r->err, "an event of location %" PRIu64 ", which no definition names", (uint64_t)ref);
    return NULL;
}

/* A new record at l ending at t (the gap from l's last record's end); comm is the
 * OTF2 comm's ref until the trace is built. NULL: out of memory. */
static tc_trace_rec *new_rec(rd *r, loc *l, int call, OTF2_CommRef comm, uint64_t begin, uint64_t t)
{
    tc_trace_rec *a = grow(l->rec, &l->cap, l->n + 1, sizeof *a);
    if (!a) {
        snprintf(r->err, sizeof r->err, "out of memory");
        return NULL;
    }
    l->rec = a;
    tc_trace_rec *x = &a[l->n++];
    uint64_t res = r->res ? r->res : 1000000000u;
    memset(x, 0, sizeof *x);
    x->call = call, x->comm = (int)comm, x->root = -1;
    x->gap_ns = begin > l->last ? (uint64_t)((double)(begin - l->last) * 1e9 / (double)res + 0.5) : 0;
    x->dur_ns = t > begin ? (uint64_t)((double)(t - begin) * 1e9 / (double)res + 0.5) : 0;
    strcpy(x->op, "-");
    strcpy(x->type, "-");
    l->last = t;
    return x;
}

static int add_req(rd *r, loc *l, uint64_t id)
{
    void *q = grow(l->req, &l->capreq, l->nreq + 1, sizeof *l->req);
    if (!q) {
        snprintf(r->err, sizeof r->err, "out of memory");
        return -1;
    }
    l->req = q;
    l->req[l->nreq].id = id;
    l->req[l->nreq++].rec = l->n - 1;
    return 0;
}

/* The record of request id at l, taken off the open ones; -1: none. */
static int take_req(loc *l, uint64_t id)
{
    for (int i = 0; i < l->nreq; i++)
        if (l->req[i].id == id) {
            int k = l->req[i].rec;
            l->req[i] = l->req[--l->nreq];
            return k;
        }
    return -1;
}

/* A collective's fields from its end event: kind, root, op, type and a rank's BYTES
 * (an archive of ours carries them; Score-P's counts, turned into the block). */
static int coll_fields(rd *r, tc_trace_rec *x, const OTF2_AttributeList *al, OTF2_CollectiveOp op, uint32_t root,
                       uint64_t sent, uint64_t recvd, int rank, int size)
{
    int call = 0;
    while (call < TC_CALL_COLLS && otf2_op[call] != op)
        call++;
    if (call == TC_CALL_COLLS)
        return -1;
    x->call = call;
    x->root = call == TC_CALL_BCAST || call == TC_CALL_REDUCE || call == TC_CALL_GATHER || call == TC_CALL_GATHERV ||
                      call == TC_CALL_SCATTER || call == TC_CALL_SCATTERV ? (int)root : -1;
    strcpy(x->type, "unknown");
    attr_str(r, al, r->attr_op, x->op);
    attr_str(r, al, r->attr_type, x->type);
    uint64_t n = size > 0 ? (uint64_t)size : 1, b;
    if (r->attr_op != UINT64_MAX) { /* ours */
        x->bytes = call == TC_CALL_BARRIER ? 0 : sent;
        return 0;
    }
    switch (call) {
    case TC_CALL_BCAST: case TC_CALL_SCATTER: case TC_CALL_SCATTERV: /* the root sends all; a rank gets its block */
        b = x->root == rank ? sent / n : recvd;
        break;
    case TC_CALL_REDUCE: case TC_CALL_GATHER: case TC_CALL_GATHERV:
        b = sent;
        break;
    case TC_CALL_ALLREDUCE: case TC_CALL_ALLGATHER: case TC_CALL_ALLGATHERV: case TC_CALL_ALLTOALL:
        b = sent / n;
        break;
    case TC_CALL_SCAN: /* rank k gets k + 1 blocks */
        b = recvd / (uint64_t)(rank + 1);
        break;
    case TC_CALL_EXSCAN: /* rank k gets k blocks, sends size - k - 1 */
        b = rank ? recvd / (uint64_t)rank : n > 1 ? sent / (n - 1) : 0;
        break;
    case TC_CALL_BARRIER:
        b = 0;
        break;
    default: /* alltoallv/w: all it sends; reduce_scatter(_block): the whole vector */
        b = sent;
        break;
    }
    x->bytes = b;
    return 0;
}

/* The rank of a location in OTF2 comm ref's group, and its size (for the bytes). */
static void comm_rank(const rd *r, const loc *l, OTF2_CommRef comm, int *rank, int *size);

static void skipped(rd *r, OTF2_CollectiveOp op)
{
    char w[16];
    r->nskipped++;
    snprintf(w, sizeof w, " %d", (int)op);
    if (!strstr(r->skipped, w) && strlen(r->skipped) + strlen(w) < sizeof r->skipped)
        strcat(r->skipped, w);
}

/* Leaving MPI_Init (or MPI_Init_thread) before a rank's first record: its first gap
 * counts from there, as the recorder's does (cmodel/netsim/trace.h), not from the
 * clock's first tick (an archive without these regions, as --write's). */
static OTF2_CallbackCode ev_leave(OTF2_LocationRef where, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                  OTF2_RegionRef region)
{
    (void)al;
    rd *r = u;
    loc *l = find_loc(r, where);
    if (!l)
        return OTF2_CALLBACK_INTERRUPT;
    const char *name = region < r->nregion ? str_of(r, r->region[region]) : NULL;
    if (!l->n && name && (!strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread")) && t > l->last)
        l->last = t;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_begin(OTF2_LocationRef where, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al)
{
    (void)al;
    loc *l = find_loc(u, where);
    if (!l)
        return OTF2_CALLBACK_INTERRUPT;
    l->begin = t;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_end(OTF2_LocationRef where, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t recvd)
{
    rd *r = u;
    loc *l = find_loc(r, where);
    tc_trace_rec *x;
    int rank, size;
    if (!l || !(x = new_rec(r, l, 0, comm, l->begin, t)))
        return OTF2_CALLBACK_INTERRUPT;
    comm_rank(r, l, comm, &rank, &size);
    if (coll_fields(r, x, al, op, root, sent, recvd, rank, size)) {
        l->n--; /* not a kind the trace has: its time stays in the next gap */
        skipped(r, op);
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_nbc_req(OTF2_LocationRef where, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                    uint64_t id)
{
    rd *r = u;
    loc *l = find_loc(r, where);
    tc_trace_rec *x;
    (void)al;
    if (!l || !(x = new_rec(r, l, 0, 0, t, t)) || add_req(r, l, id))
        return OTF2_CALLBACK_INTERRUPT;
    x->nb = 1;
    return OTF2_CALLBACK_SUCCESS;
}

/* A wait for record k at l, ending at t. */
static OTF2_CallbackCode wait_for(rd *r, loc *l, int k, uint64_t t)
{
    tc_trace_rec *w = new_rec(r, l, TC_CALL_WAIT, 0, t, t);
    if (!w)
        return OTF2_CALLBACK_INTERRUPT;
    w->comm = l->rec[k].comm, w->root = k;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_nbc_done(OTF2_LocationRef where, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                     OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t recvd, uint64_t id)
{
    rd *r = u;
    loc *l = find_loc(r, where);
    int k, rank, size;
    if (!l)
        return OTF2_CALLBACK_INTERRUPT;
    if ((k = take_req(l, id)) < 0) {
        snprintf(r->err, sizeof r->err, "location %" PRIu64 ": a nonblocking collective's completion for request %"
                 PRIu64 ", which no request began", l->ref, id);
        return OTF2_CALLBACK_INTERRUPT;
    }
    comm_rank(r, l, comm, &rank, &size);
    l->rec[k].comm = (int)comm;
    if (coll_fields(r, &l->rec[k], al, op, root, sent, recvd, rank, size)) {
        snprintf(r->err, sizeof r->err, "location %" PRIu64 ": a nonblocking collective of OTF2 kind %d, which the "
                 "trace format has no name for", l->ref, (int)op);
        return OTF2_CALLBACK_INTERRUPT;
    }
    return wait_for(r, l, k, t);
}

/* A message record: a send to, or a receive from, peer. */
static OTF2_CallbackCode message(rd *r, OTF2_LocationRef where, const OTF2_AttributeList *al, uint64_t t, int call,
                                 uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len, int nb, uint64_t id)
{
    loc *l = find_loc(r, where);
    tc_trace_rec *x;
    if (!l || !(x = new_rec(r, l, call, comm, t, t)) || (nb && add_req(r, l, id)))
        return OTF2_CALLBACK_INTERRUPT;
    x->root = (int)peer, x->bytes = len, x->nb = nb;
    snprintf(x->op, sizeof x->op, "%" PRIu32, tag);
    strcpy(x->type, "MPI_BYTE");
    attr_str(r, al, r->attr_type, x->type);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef w, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                 uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
    return message(u, w, al, t, TC_CALL_SEND, peer, comm, tag, len, 0, 0);
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef w, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                  uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t id)
{
    return message(u, w, al, t, TC_CALL_SEND, peer, comm, tag, len, 1, id);
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef w, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                 uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
    return message(u, w, al, t, TC_CALL_RECV, peer, comm, tag, len, 0, 0);
}

/* An irecv's request: its peer unknown (-1) until it completes. */
static OTF2_CallbackCode ev_irecv_req(OTF2_LocationRef w, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                      uint64_t id)
{
    rd *r = u;
    OTF2_CallbackCode c = message(r, w, al, t, TC_CALL_RECV, 0, 0, 0, 0, 1, id);
    loc *l = find_loc(r, w);
    if (c == OTF2_CALLBACK_SUCCESS)
        l->rec[l->n - 1].root = -1, l->rec[l->n - 1].comm = -1;
    return c;
}

/* The completion of a request (isend, irecv): a wait record; an irecv's message known now. */
static OTF2_CallbackCode done(rd *r, OTF2_LocationRef where, uint64_t t, uint64_t id, int recv, uint32_t peer,
                              OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
    loc *l = find_loc(r, where);
    int k;
    if (!l)
        return OTF2_CALLBACK_INTERRUPT;
    if ((k = take_req(l, id)) < 0) {
        snprintf(r->err, sizeof r->err, "location %" PRIu64 ": the completion of request %" PRIu64 ", which no "
                 "MpiIsend or MpiIrecvRequest began", l->ref, id);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (recv) {
        tc_trace_rec *x = &l->rec[k];
        x->root = (int)peer, x->comm = (int)comm, x->bytes = len;
        snprintf(x->op, sizeof x->op, "%" PRIu32, tag);
    }
    return wait_for(r, l, k, t);
}

static OTF2_CallbackCode ev_isend_done(OTF2_LocationRef w, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                       uint64_t id)
{
    (void)al;
    return done(u, w, t, id, 0, 0, 0, 0, 0);
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef w, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                  uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t id)
{
    (void)al;
    return done(u, w, t, id, 1, peer, comm, tag, len);
}

static int ok(OTF2_ErrorCode e, const char *path, const char *what)
{
    if (e == OTF2_SUCCESS)
        return 1;
    fprintf(stderr, "tcotf2: %s: %s: %s (%s)\n", path, what, OTF2_Error_GetName(e), OTF2_Error_GetDescription(e));
    return 0;
}

static const grp *find_group(const rd *r, uint64_t ref)
{
    for (size_t i = 0; i < r->ng; i++)
        if (r->g[i].ref == ref)
            return &r->g[i];
    return NULL;
}

/* The MPI locations group: position -> location; NULL if the archive has none. */
static const grp *locations(const rd *r)
{
    for (size_t i = 0; i < r->ng; i++)
        if (r->g[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS)
            return &r->g[i];
    return NULL;
}

/* World rank of position p of a COMM_GROUP: its location's group; -1 if unknown. */
static int rank_of(const rd *r, uint64_t p)
{
    const grp *L = locations(r);
    uint64_t ref = L ? (p < L->n ? L->member[p] : UINT64_MAX) : p;
    for (size_t i = 0; i < r->nlocs; i++)
        if (r->locs[i].ref == ref)
            return (int)r->locs[i].group;
    return -1;
}

static const grp *comm_group(const rd *r, OTF2_CommRef comm)
{
    for (size_t c = 0; c < r->ncomms; c++)
        if (r->cref[c] == comm)
            return find_group(r, r->cgroup[c]);
    return NULL;
}

static void comm_rank(const rd *r, const loc *l, OTF2_CommRef comm, int *rank, int *size)
{
    const grp *g = comm_group(r, comm);
    *rank = 0, *size = 1;
    if (!g || g->type == OTF2_GROUP_TYPE_COMM_SELF)
        return;
    *size = (int)g->n;
    for (uint32_t k = 0; k < g->n; k++)
        if (rank_of(r, g->member[k]) == (int)l->group)
            *rank = (int)k;
}

/* The trace from what was read: communicator ids (the world 0; one this tool wrote
 * the id in its name, "torcoll comm ID"; another its reference + 1; a rank's
 * COMM_SELF (reference + 1) << 32 | rank), records by rank. */
static int build(rd *r, tc_trace *tr, const char *path)
{
    memset(tr, 0, sizeof *tr);
    tr->version = 2, tr->ranks = (int)r->nlocs;
    tr->n = calloc(r->nlocs, sizeof *tr->n);
    tr->rec = calloc(r->nlocs, sizeof *tr->rec);
    tr->comm = calloc(r->ncomms + r->nlocs + 1, sizeof *tr->comm);
    if (!tr->n || !tr->rec || !tr->comm)
        return -1;
    tr->ncomms = 1;
    tr->comm[0] = (tc_trace_comm){0, tr->ranks, malloc(r->nlocs * sizeof(int))};
    if (!tr->comm[0].member)
        return -1;
    for (int k = 0; k < tr->ranks; k++)
        tr->comm[0].member[k] = k;
    int *index = malloc((r->ncomms ? r->ncomms : 1) * sizeof *index); /* OTF2 comm -> trace comm; -2 self */
    int world_seen = 0;
    if (!index)
        return -1;
    for (size_t c = 0; c < r->ncomms; c++) {
        const grp *g = find_group(r, r->cgroup[c]);
        index[c] = -1;
        if (!g || (g->type != OTF2_GROUP_TYPE_COMM_GROUP && g->type != OTF2_GROUP_TYPE_COMM_SELF))
            continue; /* not MPI's (Score-P's measurement system has its own): refused if a record uses it */
        if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
            index[c] = -2;
            continue;
        }
        int world = g->n == (uint32_t)tr->ranks;
        for (uint32_t k = 0; world && k < g->n; k++)
            world = rank_of(r, g->member[k]) == (int)k;
        if (world && !world_seen) { /* the first group of all ranks in order is the world */
            index[c] = 0;
            world_seen = 1;
            continue;
        }
        const char *name = str_of(r, r->cname[c]);
        uint64_t id = r->cref[c] + 1;
        if (name && !strncmp(name, "torcoll comm ", 13))
            id = strtoull(name + 13, NULL, 10);
        tc_trace_comm *cm = &tr->comm[tr->ncomms];
        *cm = (tc_trace_comm){id, (int)g->n, malloc((g->n ? g->n : 1) * sizeof(int))};
        if (!cm->member)
            return free(index), -1;
        for (uint32_t k = 0; k < g->n; k++)
            if ((cm->member[k] = rank_of(r, g->member[k])) < 0) {
                fprintf(stderr, "tcotf2: %s: communicator %" PRIu64 ": member %u is no location of the archive\n",
                        path, r->cref[c], k);
                return free(index), -1;
            }
        index[c] = tr->ncomms++;
    }
    int selves = tr->ncomms;
    for (size_t i = 0; i < r->nlocs; i++) {
        loc *l = &r->locs[i];
        int g = (int)l->group;
        tr->rec[g] = l->rec, tr->n[g] = l->n;
        l->rec = NULL;
        for (int k = 0; k < tr->n[g]; k++) {
            tc_trace_rec *x = &tr->rec[g][k];
            size_t c = 0;
            if (x->comm < 0) /* an irecv never completed: on the world */
                x->comm = 0;
            else {
                while (c < r->ncomms && r->cref[c] != (uint64_t)x->comm)
                    c++;
                if (c == r->ncomms || index[c] == -1) {
                    fprintf(stderr, "tcotf2: %s: rank %d's %s on communicator %d, which no definition (with its MPI "
                            "group) names\n", path, g, tc_call_names[x->call], x->comm);
                    return free(index), -1;
                }
                if (index[c] == -2) { /* this rank's own COMM_SELF: defined once a rank */
                    uint64_t id = (r->cref[c] + 1) << 32 | (uint64_t)g;
                    int s = selves;
                    while (s < tr->ncomms && tr->comm[s].id != id)
                        s++;
                    if (s == tr->ncomms) {
                        tc_trace_comm *grown = realloc(tr->comm, (size_t)(tr->ncomms + 1) * sizeof *grown);
                        if (!grown)
                            return free(index), -1;
                        tr->comm = grown;
                        tr->comm[s] = (tc_trace_comm){id, 1, malloc(sizeof(int))};
                        if (!tr->comm[s].member)
                            return free(index), -1;
                        tr->comm[s].member[0] = g;
                        tr->ncomms++;
                    }
                    x->comm = s;
                } else {
                    x->comm = index[c];
                }
            }
            tr->records++;
        }
    }
    free(index);
    return 0;
}

static int from_otf2(const char *path, FILE *out)
{
    rd r;
    memset(&r, 0, sizeof r);
    r.attr_op = r.attr_type = UINT64_MAX;
    OTF2_Reader *rdr = OTF2_Reader_Open(path);
    int rc = 1;
    uint64_t n;
    tc_trace tr;
    memset(&tr, 0, sizeof tr);
    if (!rdr) {
        fprintf(stderr, "tcotf2: %s: not an OTF2 archive (the .otf2 anchor file) that the OTF2 library opens\n", path);
        return 1;
    }
    OTF2_GlobalDefReader *gdr = NULL;
    OTF2_GlobalDefReaderCallbacks *dcb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks *ecb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dcb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(dcb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(dcb, def_attr);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, def_loc);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dcb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(dcb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dcb, def_region);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ecb, ev_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(ecb, ev_begin);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(ecb, ev_end);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(ecb, ev_nbc_req);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(ecb, ev_nbc_done);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ecb, ev_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ecb, ev_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(ecb, ev_isend_done);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ecb, ev_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(ecb, ev_irecv_req);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ecb, ev_irecv);
    if (!ok(OTF2_Reader_SetSerialCollectiveCallbacks(rdr), path, "opening") ||
        !(gdr = OTF2_Reader_GetGlobalDefReader(rdr)) ||
        !ok(OTF2_Reader_RegisterGlobalDefCallbacks(rdr, gdr, dcb, &r), path, "global definitions") ||
        !ok(OTF2_Reader_ReadAllGlobalDefinitions(rdr, gdr, &n), path, "reading the global definitions"))
        goto out;
    if (!r.nlocs) {
        fprintf(stderr, "tcotf2: %s: the archive defines no locations\n", path);
        goto out;
    }
    for (size_t i = 0; i < r.nlocs; i++) { /* ranks 0..R-1, each a location group once */
        r.locs[i].last = r.offset;         /* the first gap: from the clock's first tick, or MPI_Init's end */
        for (size_t j = 0; j < r.nlocs; j++)
            if ((i != j && r.locs[i].group == r.locs[j].group) || r.locs[i].group >= r.nlocs) {
                fprintf(stderr, "tcotf2: %s: location groups must be the ranks 0..%zu, one location each (location %"
                        PRIu64 " is in group %" PRIu64 ")\n", path, r.nlocs - 1, r.locs[i].ref, r.locs[i].group);
                goto out;
            }
    }
    for (size_t i = 0; i < r.nlocs; i++)
        if (!ok(OTF2_Reader_SelectLocation(rdr, r.locs[i].ref), path, "selecting the locations"))
            goto out;
    /* the local definitions hold the mapping tables from a location's references to
     * the global ones (Score-P writes them); reading them makes the events global */
    if (OTF2_Reader_OpenDefFiles(rdr) == OTF2_SUCCESS) {
        for (size_t i = 0; i < r.nlocs; i++) {
            OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rdr, r.locs[i].ref);
            if (dr && (!ok(OTF2_Reader_ReadAllLocalDefinitions(rdr, dr, &n), path, "reading the local definitions") ||
                       !ok(OTF2_Reader_CloseDefReader(rdr, dr), path, "reading the local definitions")))
                goto out;
        }
        OTF2_Reader_CloseDefFiles(rdr);
    }
    if (!ok(OTF2_Reader_OpenEvtFiles(rdr), path, "opening the event files"))
        goto out;
    for (size_t i = 0; i < r.nlocs; i++)
        if (!OTF2_Reader_GetEvtReader(rdr, r.locs[i].ref)) {
            fprintf(stderr, "tcotf2: %s: no event reader for location %" PRIu64 "\n", path, r.locs[i].ref);
            goto out;
        }
    OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(rdr);
    if (!ger || !ok(OTF2_Reader_RegisterGlobalEvtCallbacks(rdr, ger, ecb, &r), path, "event callbacks"))
        goto out;
    OTF2_ErrorCode e = OTF2_Reader_ReadAllGlobalEvents(rdr, ger, &n);
    if (r.err[0]) {
        fprintf(stderr, "tcotf2: %s: %s\n", path, r.err);
        goto out;
    }
    if (!ok(e, path, "reading the events (a truncated or damaged event file?)"))
        goto out;
    OTF2_Reader_CloseGlobalEvtReader(rdr, ger);
    OTF2_Reader_CloseEvtFiles(rdr);
    if (build(&r, &tr, path)) {
        fprintf(stderr, "tcotf2: %s: out of memory, or a communicator the trace cannot name\n", path);
        goto out;
    }
    tc_trace_write(out, &tr);
    if (r.nskipped)
        fprintf(stderr, "tcotf2: %s: left out %ld collectives of kinds the trace has no name for (OTF2 collective "
                "op%s)\n", path, r.nskipped, r.skipped);
    rc = 0;
out:
    OTF2_GlobalDefReaderCallbacks_Delete(dcb);
    OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
    OTF2_Reader_Close(rdr);
    tc_trace_free(&tr);
    for (size_t i = 0; i < r.nlocs; i++)
        free(r.locs[i].rec), free(r.locs[i].req);
    for (size_t i = 0; i < r.nstr; i++)
        free(r.str[i]);
    for (size_t i = 0; i < r.ng; i++)
        free(r.g[i].member);
    free(r.str), free(r.region), free(r.locs), free(r.g), free(r.cref), free(r.cgroup), free(r.cname);
    return rc;
}

/* ---------------------------------------------------------------- writing */
static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *cd, bool final)
{
    (void)u, (void)ft, (void)l, (void)cd, (void)final;
    return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l)
{
    (void)u, (void)ft, (void)l;
    return 0;
}

/* The string definition of text: its reference in strs[0..*n), added if new (strings
 * 0..STR0-1 are the fixed ones below). */
enum { STR0 = 5 };
static OTF2_StringRef str_ref(const char **strs, size_t *n, const char *text)
{
    size_t i = 0;
    while (i < *n && strcmp(strs[i], text))
        i++;
    if (i == *n)
        strs[(*n)++] = text;
    return (OTF2_StringRef)(STR0 + i);
}

/* One rank's events: a collective is Begin/End (nonblocking: NonBlockingCollective
 * Request, and Complete at its wait), with its op and type in attributes; a message
 * one event at its call's end (an isend's or irecv's request id is its record's
 * index, completed at its wait). Timestamps in ns: each record begins its gap after
 * the previous one ended. */
static int write_rank(OTF2_EvtWriter *w, OTF2_AttributeList *al, const tc_trace *tr, int k, const char **strs,
                      size_t *nstrs, uint64_t *tmax)
{
    uint64_t t = 0;
    for (int i = 0; i < tr->n[k]; i++) {
        const tc_trace_rec *x = &tr->rec[k][i], *c = x->call == TC_CALL_WAIT ? &tr->rec[k][x->root] : x;
        uint32_t tag = (uint32_t)atoi(c->op), root = c->root < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)c->root;
        t += x->gap_ns;
        if (x->call == TC_CALL_OTHER) { /* OTF2 events for what the replay does not model: not written, its time in
                                         * the next record's gap */
            t += x->dur_ns;
            continue;
        }
        if (c->call < TC_CALL_COLLS) {
            if (x->call != TC_CALL_WAIT && x->nb) {
                OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, t, (uint64_t)i);
                t += x->dur_ns;
                continue;
            }
            if (!x->nb && x->call != TC_CALL_WAIT)
                OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
            t += x->dur_ns;
            OTF2_AttributeList_AddStringRef(al, 0, str_ref(strs, nstrs, c->op)); /* emptied by the write */
            OTF2_AttributeList_AddStringRef(al, 1, str_ref(strs, nstrs, c->type));
            if (x->call == TC_CALL_WAIT)
                OTF2_EvtWriter_NonBlockingCollectiveComplete(w, al, t, otf2_op[c->call], (OTF2_CommRef)c->comm, root,
                                                             c->bytes, c->bytes, (uint64_t)x->root);
            else
                OTF2_EvtWriter_MpiCollectiveEnd(w, al, t, otf2_op[c->call], (OTF2_CommRef)c->comm, root, c->bytes,
                                                c->bytes);
            continue;
        }
        t += x->dur_ns;
        if (x->call != TC_CALL_WAIT)
            OTF2_AttributeList_AddStringRef(al, 1, str_ref(strs, nstrs, x->type));
        if (x->call == TC_CALL_WAIT && c->call == TC_CALL_SEND)
            OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, (uint64_t)x->root);
        else if (x->call == TC_CALL_WAIT)
            OTF2_EvtWriter_MpiIrecv(w, NULL, t, root, (OTF2_CommRef)c->comm, tag, c->bytes, (uint64_t)x->root);
        else if (x->call == TC_CALL_SEND && x->nb)
            OTF2_EvtWriter_MpiIsend(w, al, t, root, (OTF2_CommRef)x->comm, tag, x->bytes, (uint64_t)i);
        else if (x->call == TC_CALL_SEND)
            OTF2_EvtWriter_MpiSend(w, al, t, root, (OTF2_CommRef)x->comm, tag, x->bytes);
        else if (x->nb)
            OTF2_EvtWriter_MpiIrecvRequest(w, al, t, (uint64_t)i);
        else
            OTF2_EvtWriter_MpiRecv(w, al, t, root, (OTF2_CommRef)x->comm, tag, x->bytes);
    }
    *tmax = t > *tmax ? t : *tmax;
    return 0;
}

static int to_otf2(const char *trace, const char *dir)
{
    char err[256];
    tc_trace tr;
    FILE *f = fopen(trace, "r");
    if (!f) {
        perror(trace);
        return 1;
    }
    int bad = tc_trace_read(f, trace, &tr, err, sizeof err);
    fclose(f);
    if (bad) {
        fprintf(stderr, "tcotf2: %s\n", err);
        return 1;
    }
    OTF2_Archive *ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20, OTF2_SUBSTRATE_POSIX,
                                         OTF2_COMPRESSION_NONE);
    OTF2_FlushCallbacks fl = {pre_flush, post_flush};
    uint64_t tmax = 0, *members = malloc((size_t)tr.ranks * sizeof *members);
    size_t nstrs = 0;
    const char **strs = malloc((2 * (size_t)tr.records + (size_t)tr.ncomms + 1) * sizeof *strs); /* names */
    char (*cname)[40] = calloc((size_t)tr.ncomms, sizeof *cname);            /* "torcoll comm ID" */
    OTF2_AttributeList *al = OTF2_AttributeList_New();
    int rc = 1;
    if (!ar || !members || !strs || !cname || !al || !ok(OTF2_Archive_SetFlushCallbacks(ar, &fl, NULL), dir, "writing") ||
        !ok(OTF2_Archive_SetSerialCollectiveCallbacks(ar), dir, "writing") ||
        !ok(OTF2_Archive_OpenEvtFiles(ar), dir, "opening the event files")) {
        if (!ar)
            fprintf(stderr, "tcotf2: %s: cannot create an OTF2 archive there\n", dir);
        goto out;
    }
    for (int k = 0; k < tr.ranks; k++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)k);
        if (!w || write_rank(w, al, &tr, k, strs, &nstrs, &tmax) ||
            !ok(OTF2_Archive_CloseEvtWriter(ar, w), dir, "writing the events"))
            goto out;
    }
    if (!ok(OTF2_Archive_CloseEvtFiles(ar), dir, "closing the event files") ||
        !ok(OTF2_Archive_OpenDefFiles(ar), dir, "opening the definition files"))
        goto out;
    for (int k = 0; k < tr.ranks; k++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)k);
        if (!dw || !ok(OTF2_Archive_CloseDefWriter(ar, dw), dir, "writing the definitions"))
            goto out;
    }
    OTF2_Archive_CloseDefFiles(ar);
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
    if (!g)
        goto out;
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000u, 0, tmax + 1, OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteString(g, 0, "");
    OTF2_GlobalDefWriter_WriteString(g, 1, "MPI_COMM_WORLD");
    OTF2_GlobalDefWriter_WriteString(g, 2, "node");
    OTF2_GlobalDefWriter_WriteString(g, 3, "torcoll op");
    OTF2_GlobalDefWriter_WriteString(g, 4, "torcoll type");
    for (int c = 1; c < tr.ncomms; c++)
        snprintf(cname[c], sizeof cname[c], "torcoll comm %" PRIu64, tr.comm[c].id), str_ref(strs, &nstrs, cname[c]);
    for (size_t i = 0; i < nstrs; i++)
        OTF2_GlobalDefWriter_WriteString(g, (OTF2_StringRef)(STR0 + i), strs[i]);
    OTF2_GlobalDefWriter_WriteAttribute(g, 0, 3, 0, OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteAttribute(g, 1, 4, 0, OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 2, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int k = 0; k < tr.ranks; k++) {
        OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)k, 0, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)k, 0, OTF2_LOCATION_TYPE_CPU_THREAD,
                                           2 * (uint64_t)tr.n[k], (OTF2_LocationGroupRef)k);
        members[k] = (uint64_t)k;
    }
    /* group 0 the locations; comm c's group c + 1, positions in group 0 (the world ranks) */
    OTF2_GlobalDefWriter_WriteGroup(g, 0, 1, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    (uint32_t)tr.ranks, members);
    for (int c = 0; c < tr.ncomms; c++) {
        for (int k = 0; k < tr.comm[c].size; k++)
            members[k] = (uint64_t)tr.comm[c].member[k];
        OTF2_GlobalDefWriter_WriteGroup(g, (OTF2_GroupRef)c + 1, c ? 0 : 1, OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)tr.comm[c].size, members);
        OTF2_GlobalDefWriter_WriteComm(g, (OTF2_CommRef)c, c ? str_ref(strs, &nstrs, cname[c]) : 1, (OTF2_GroupRef)c + 1,
                                       c ? 0 : OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    }
    rc = 0;
out:
    if (ar && !ok(OTF2_Archive_Close(ar), dir, "closing the archive"))
        rc = 1;
    free(members);
    free(strs);
    free(cname);
    if (al)
        OTF2_AttributeList_Delete(al);
    tc_trace_free(&tr);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--write"))
        return to_otf2(argv[2], argv[3]);
    if ((argc == 2 || argc == 3) && argv[1][0] != '-') {
        FILE *out = argc == 3 ? fopen(argv[2], "w") : stdout;
        if (!out) {
            perror(argv[2]);
            return 1;
        }
        int rc = from_otf2(argv[1], out);
        if (argc == 3 && fclose(out))
            rc = 1;
        return rc;
    }
    fprintf(stderr, "usage: tcotf2 ARCHIVE.otf2 [OUT]   |   tcotf2 --write TRACE DIR\n");
    return 2;
}
