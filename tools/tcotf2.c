/* tcotf2: OTF2 traces (Score-P and other tools) to and from torcoll collective traces
 * (cmodel/trace.h), with Debian's OTF2 library.
 *   tcotf2 ARCHIVE.otf2 [OUT]     the MPI collectives of an OTF2 archive as a torcoll
 *                                 trace (OUT, or stdout), for tcnet workload=trace
 *   tcotf2 --write TRACE DIR      a torcoll trace as an OTF2 archive DIR/traces.otf2
 * Reading: a rank is a location's location group; every MpiCollectiveBegin/End pair
 * of a bcast, reduce, allreduce, barrier or allgather is a record (other collectives
 * are counted and left out); the communicator's size is its group's member count;
 * BYTES, what a rank contributes, is sizeReceived of a rank other than the root for a
 * bcast and sizeSent of a rank other than the root otherwise (writers differ in what
 * the root counts); times are in the archive's timer resolution, converted to ns.
 * OTF2's collective events carry no reduction op or datatype: --write puts the
 * trace's OP and TYPE in two string attributes of each end event, "torcoll op" and
 * "torcoll type", and reading takes them back; an archive without them (Score-P's)
 * gives op "-" and type "unknown", which the replay runs over point-to-point. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "../cmodel/trace.h"

static const OTF2_CollectiveOp otf2_op[TC_CALLS] = {OTF2_COLLECTIVE_OP_BCAST, OTF2_COLLECTIVE_OP_REDUCE,
                                                    OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_COLLECTIVE_OP_BARRIER,
                                                    OTF2_COLLECTIVE_OP_ALLGATHER};

/* ---------------------------------------------------------------- reading */
typedef struct {
    uint64_t ref, group;        /* location, its location group (the rank) */
    uint64_t begin, last;       /* the open collective's begin, the last end */
    tc_trace_rec *rec;
    size_t n, cap;
} loc;

typedef struct {
    loc *locs;
    size_t nlocs, caplocs;
    uint64_t *gref, *gsize, *cref, *cgroup; /* groups and comms */
    size_t ngroups, ncomms;
    uint64_t res;               /* ticks a second */
    char **str;                 /* the string definitions, by reference */
    size_t nstr;
    uint64_t attr_op, attr_type; /* the "torcoll op" and "torcoll type" attributes, or UINT64_MAX */
    long skipped;
    int bad;
    char err[200];
} rd;

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? 2 * *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (q)
        *cap = c;
    return q;
}

static OTF2_CallbackCode def_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
    (void)off, (void)len, (void)rt;
    ((rd *)u)->res = res;
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
    loc *l = grow(r->locs, &r->caplocs, r->nlocs + 1, sizeof *l);
    if (!l)
        return OTF2_CALLBACK_ERROR;
    r->locs = l;
    memset(&l[r->nlocs], 0, sizeof *l);
    l[r->nlocs].ref = self;
    l[r->nlocs++].group = group;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm par, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    rd *r = u;
    (void)name, (void)type, (void)par, (void)flags, (void)members;
    uint64_t *a = realloc(r->gref, (r->ngroups + 1) * sizeof *a), *b = a ? realloc(r->gsize, (r->ngroups + 1) * sizeof *b) : NULL;
    if (a)
        r->gref = a;
    if (!b)
        return OTF2_CALLBACK_ERROR;
    r->gsize = b;
    r->gref[r->ngroups] = self;
    r->gsize[r->ngroups++] = n;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag flags)
{
    rd *r = u;
    (void)name, (void)parent, (void)flags;
    uint64_t *a = realloc(r->cref, (r->ncomms + 1) * sizeof *a), *b = a ? realloc(r->cgroup, (r->ncomms + 1) * sizeof *b) : NULL;
    if (a)
        r->cref = a;
    if (!b)
        return OTF2_CALLBACK_ERROR;
    r->cgroup = b;
    r->cref[r->ncomms] = self;
    r->cgroup[r->ncomms++] = group;
    return OTF2_CALLBACK_SUCCESS;
}

static loc *find_loc(rd *r, OTF2_LocationRef ref)
{
    for (size_t i = 0; i < r->nlocs; i++)
        if (r->locs[i].ref == ref)
            return &r->locs[i];
    return NULL;
}

static OTF2_CallbackCode ev_begin(OTF2_LocationRef where, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al)
{
    (void)al;
    loc *l = find_loc(u, where);
    if (!l)
        return OTF2_CALLBACK_ERROR;
    l->begin = t;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_end(OTF2_LocationRef where, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t recvd)
{
    rd *r = u;
    loc *l = find_loc(r, where);
    int call = 0;
    while (call < TC_CALLS && otf2_op[call] != op)
        call++;
    if (!l) {
        snprintf(r->err, sizeof r->err, "an event of location %" PRIu64 ", which no definition names", (uint64_t)where);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (call == TC_CALLS) {
        r->skipped++;
        l->last = t;
        return OTF2_CALLBACK_SUCCESS;
    }
    size_t c = 0, g = 0;
    while (c < r->ncomms && r->cref[c] != comm)
        c++;
    while (c < r->ncomms && g < r->ngroups && r->gref[g] != r->cgroup[c])
        g++;
    if (c == r->ncomms || g == r->ngroups) {
        snprintf(r->err, sizeof r->err, "a %s on communicator %" PRIu64 ", which no definition (with its group) names",
                 tc_call_names[call], (uint64_t)comm);
        return OTF2_CALLBACK_INTERRUPT;
    }
    tc_trace_rec *a = grow(l->rec, &l->cap, l->n + 1, sizeof *a);
    if (!a)
        return OTF2_CALLBACK_ERROR;
    l->rec = a;
    tc_trace_rec *x = &a[l->n++];
    memset(x, 0, sizeof *x);
    x->call = call;
    x->comm = (int)r->gsize[g];
    x->root = call == TC_CALL_BCAST || call == TC_CALL_REDUCE ? (int)root : -1;
    x->bytes = call == TC_CALL_BARRIER ? 0 : call == TC_CALL_BCAST ? recvd : sent;
    strcpy(x->op, "-");
    strcpy(x->type, "unknown");
    attr_str(r, al, r->attr_op, x->op);
    attr_str(r, al, r->attr_type, x->type);
    uint64_t res = r->res ? r->res : 1000000000u;
    x->gap_ns = (uint64_t)((double)(l->begin - l->last) * 1e9 / (double)res + 0.5);
    x->dur_ns = (uint64_t)((double)(t - l->begin) * 1e9 / (double)res + 0.5);
    l->last = t;
    return OTF2_CALLBACK_SUCCESS;
}

static int ok(OTF2_ErrorCode e, const char *path, const char *what)
{
    if (e == OTF2_SUCCESS)
        return 1;
    fprintf(stderr, "tcotf2: %s: %s: %s (%s)\n", path, what, OTF2_Error_GetName(e), OTF2_Error_GetDescription(e));
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
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(ecb, ev_begin);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(ecb, ev_end);
    if (!ok(OTF2_Reader_SetSerialCollectiveCallbacks(rdr), path, "opening") ||
        !(gdr = OTF2_Reader_GetGlobalDefReader(rdr)) ||
        !ok(OTF2_Reader_RegisterGlobalDefCallbacks(rdr, gdr, dcb, &r), path, "global definitions") ||
        !ok(OTF2_Reader_ReadAllGlobalDefinitions(rdr, gdr, &n), path, "reading the global definitions"))
        goto out;
    if (!r.nlocs) {
        fprintf(stderr, "tcotf2: %s: the archive defines no locations\n", path);
        goto out;
    }
    for (size_t i = 0; i < r.nlocs; i++) /* ranks 0..R-1, each a location group once */
        for (size_t j = 0; j < r.nlocs; j++)
            if ((i != j && r.locs[i].group == r.locs[j].group) || r.locs[i].group >= r.nlocs) {
                fprintf(stderr, "tcotf2: %s: location groups must be the ranks 0..%zu, one location each (location %"
                        PRIu64 " is in group %" PRIu64 ")\n", path, r.nlocs - 1, r.locs[i].ref, r.locs[i].group);
                goto out;
            }
    for (size_t i = 0; i < r.nlocs; i++)
        if (!ok(OTF2_Reader_SelectLocation(rdr, r.locs[i].ref), path, "selecting the locations"))
            goto out;
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
    /* one BYTES a call, from a rank other than its root */
    size_t calls = r.locs[0].n;
    for (size_t i = 0; i < r.nlocs; i++)
        if (r.locs[i].n != calls) {
            fprintf(stderr, "tcotf2: %s: rank %" PRIu64 " has %zu collectives, rank %" PRIu64 " %zu\n", path,
                    r.locs[i].group, r.locs[i].n, r.locs[0].group, calls);
            goto out;
        }
    for (size_t c = 0; c < calls; c++) {
        int root = r.locs[0].rec[c].root;
        size_t other = 0;
        while (other + 1 < r.nlocs && (int)r.locs[other].group == root)
            other++;
        for (size_t i = 0; i < r.nlocs; i++)
            r.locs[i].rec[c].bytes = r.locs[other].rec[c].bytes;
    }
    fprintf(out, "torcoll-trace 1\nranks %zu\n# from %s\n", r.nlocs, path);
    for (size_t g = 0; g < r.nlocs; g++)
        for (size_t i = 0; i < r.nlocs; i++)
            for (size_t c = 0; r.locs[i].group == g && c < r.locs[i].n; c++) {
                const tc_trace_rec *x = &r.locs[i].rec[c];
                fprintf(out, "%zu %s %d %d %" PRIu64 " %s %s %" PRIu64 " %" PRIu64 "\n", g, tc_call_names[x->call],
                        x->comm, x->root, x->bytes, x->op, x->type, x->gap_ns, x->dur_ns);
            }
    fprintf(out, "end %zu\n", calls * r.nlocs);
    if (r.skipped)
        fprintf(stderr, "tcotf2: %s: left out %ld collectives of other kinds\n", path, r.skipped);
    rc = 0;
out:
    OTF2_GlobalDefReaderCallbacks_Delete(dcb);
    OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
    OTF2_Reader_Close(rdr);
    for (size_t i = 0; i < r.nlocs; i++)
        free(r.locs[i].rec);
    for (size_t i = 0; i < r.nstr; i++)
        free(r.str[i]);
    free(r.str), free(r.locs), free(r.gref), free(r.gsize), free(r.cref), free(r.cgroup);
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
    size_t nstrs = 0, nrec = (size_t)tr.ranks * (size_t)tr.calls;
    const char **strs = malloc((2 * nrec + 1) * sizeof *strs); /* the ops' and types' names */
    OTF2_AttributeList *al = OTF2_AttributeList_New();
    int rc = 1;
    if (!ar || !members || !strs || !al || !ok(OTF2_Archive_SetFlushCallbacks(ar, &fl, NULL), dir, "writing") ||
        !ok(OTF2_Archive_SetSerialCollectiveCallbacks(ar), dir, "writing") ||
        !ok(OTF2_Archive_OpenEvtFiles(ar), dir, "opening the event files")) {
        if (!ar)
            fprintf(stderr, "tcotf2: %s: cannot create an OTF2 archive there\n", dir);
        goto out;
    }
    for (int k = 0; k < tr.ranks; k++) { /* ns timestamps: each call begins its gap after the last one ended */
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)k);
        uint64_t t = 0;
        for (int i = 0; w && i < tr.calls; i++) {
            const tc_trace_rec *x = &tr.rec[(size_t)k * (size_t)tr.calls + (size_t)i];
            t += x->gap_ns;
            OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
            t += x->dur_ns;
            OTF2_AttributeList_AddStringRef(al, 0, str_ref(strs, &nstrs, x->op)); /* emptied by the write */
            OTF2_AttributeList_AddStringRef(al, 1, str_ref(strs, &nstrs, x->type));
            OTF2_EvtWriter_MpiCollectiveEnd(w, al, t, otf2_op[x->call], 0,
                                            x->root < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)x->root, x->bytes, x->bytes);
        }
        tmax = t > tmax ? t : tmax;
        if (!w || !ok(OTF2_Archive_CloseEvtWriter(ar, w), dir, "writing the events"))
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
    for (size_t i = 0; i < nstrs; i++)
        OTF2_GlobalDefWriter_WriteString(g, (OTF2_StringRef)(STR0 + i), strs[i]);
    OTF2_GlobalDefWriter_WriteAttribute(g, 0, 3, 0, OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteAttribute(g, 1, 4, 0, OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 2, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int k = 0; k < tr.ranks; k++) {
        OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)k, 0, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)k, 0, OTF2_LOCATION_TYPE_CPU_THREAD,
                                           2 * (uint64_t)tr.calls, (OTF2_LocationGroupRef)k);
        members[k] = (uint64_t)k;
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, 1, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    (uint32_t)tr.ranks, members);
    OTF2_GlobalDefWriter_WriteGroup(g, 1, 1, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    (uint32_t)tr.ranks, members);
    OTF2_GlobalDefWriter_WriteComm(g, 0, 1, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    rc = 0;
out:
    if (ar && !ok(OTF2_Archive_Close(ar), dir, "closing the archive"))
        rc = 1;
    free(members);
    free(strs);
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
