/* tcpmpi: a PMPI library that records an MPI program's collectives (MPI_Bcast,
 * MPI_Reduce, MPI_Allreduce, MPI_Barrier, MPI_Allgather) into a torcoll trace
 * (cmodel/trace.h gives the format), for tcnet workload=trace. Link it before the
 * MPI library or preload it (LD_PRELOAD=build/libtcpmpi.so); the trace goes to
 * $TC_TRACE (default tcpmpi.trace), written by rank 0 at MPI_Finalize. Each rank
 * keeps its records in memory and sends them to rank 0 at the end, so recording
 * adds no I/O between the calls it times. */
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *buf;           /* this rank's record lines */
static size_t len, cap;
static long nrec;
static double last;         /* when the previous collective returned (or MPI_Init) */
static int me = -1, oom;

static void add(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line || oom)
        return;
    if (len + (size_t)n + 1 > cap) {
        size_t c = cap ? 2 * cap : 1 << 16;
        char *b = realloc(buf, c);
        if (!b) {
            oom = 1;
            return;
        }
        buf = b, cap = c;
    }
    memcpy(buf + len, line, (size_t)n + 1);
    len += (size_t)n;
    nrec++;
}

static const char *op_name(MPI_Op op)
{
    if (op == MPI_SUM) return "sum";
    if (op == MPI_MAX) return "max";
    if (op == MPI_MIN) return "min";
    if (op == MPI_PROD) return "prod";
    if (op == MPI_LAND) return "land";
    if (op == MPI_BAND) return "band";
    if (op == MPI_LOR) return "lor";
    if (op == MPI_BOR) return "bor";
    if (op == MPI_LXOR) return "lxor";
    if (op == MPI_BXOR) return "bxor";
    if (op == MPI_MAXLOC) return "maxloc";
    if (op == MPI_MINLOC) return "minloc";
    return "user";
}

/* One record: the call, its communicator's size, root, bytes a rank, op, type, the
 * gap since the last return and the time inside. */
static void record(const char *call, MPI_Comm comm, int root, int count, MPI_Datatype type, const char *op,
                   double t0, double t1)
{
    int size = 0, tsize = 0, nl = 0;
    char tname[MPI_MAX_OBJECT_NAME] = "-";
    PMPI_Comm_size(comm, &size);
    if (type != MPI_DATATYPE_NULL) {
        PMPI_Type_size(type, &tsize);
        PMPI_Type_get_name(type, tname, &nl);
        if (!nl)
            strcpy(tname, "derived");
        for (char *c = tname; *c; c++) /* one field: no blanks */
            if (*c == ' ')
                *c = '_';
    }
    add("%d %s %d %d %lld %s %s %.0f %.0f\n", me, call, size, root, (long long)count * tsize, op, tname,
        (t0 - last) * 1e9, (t1 - t0) * 1e9);
    last = t1;
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    last = PMPI_Wtime();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    last = PMPI_Wtime();
    return rc;
}

int MPI_Bcast(void *b, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    double t0 = PMPI_Wtime();
    int rc = PMPI_Bcast(b, count, type, root, comm);
    record("bcast", comm, root, count, type, "-", t0, PMPI_Wtime());
    return rc;
}

int MPI_Reduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    double t0 = PMPI_Wtime();
    int rc = PMPI_Reduce(s, r, count, type, op, root, comm);
    record("reduce", comm, root, count, type, op_name(op), t0, PMPI_Wtime());
    return rc;
}

int MPI_Allreduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    double t0 = PMPI_Wtime();
    int rc = PMPI_Allreduce(s, r, count, type, op, comm);
    record("allreduce", comm, -1, count, type, op_name(op), t0, PMPI_Wtime());
    return rc;
}

int MPI_Barrier(MPI_Comm comm)
{
    double t0 = PMPI_Wtime();
    int rc = PMPI_Barrier(comm);
    record("barrier", comm, -1, 0, MPI_DATATYPE_NULL, "-", t0, PMPI_Wtime());
    return rc;
}

int MPI_Allgather(const void *s, int scount, MPI_Datatype stype, void *r, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    double t0 = PMPI_Wtime();
    int rc = PMPI_Allgather(s, scount, stype, r, rcount, rtype, comm);
    if (s == MPI_IN_PLACE) /* the rank's part is already in place: its size is the receive count's */
        record("allgather", comm, -1, rcount, rtype, "-", t0, PMPI_Wtime());
    else
        record("allgather", comm, -1, scount, stype, "-", t0, PMPI_Wtime());
    return rc;
}

/* Rank 0 gathers every rank's lines and writes the trace. */
int MPI_Finalize(void)
{
    int size, n = (int)len, bad = oom || len > 0x7fffffff, anybad = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    PMPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int *lens = me ? NULL : malloc((size_t)size * sizeof *lens), *offs = me ? NULL : malloc((size_t)size * sizeof *offs);
    long total = 0, all = 0;
    PMPI_Gather(&n, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Reduce(&nrec, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (!me)
        for (int k = 0; k < size; k++)
            offs[k] = (int)total, total += lens[k];
    char *text = me ? NULL : malloc((size_t)total + 1);
    PMPI_Gatherv(buf ? buf : "", n, MPI_CHAR, text, lens, offs, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!me) {
        const char *path = getenv("TC_TRACE") ? getenv("TC_TRACE") : "tcpmpi.trace";
        FILE *f = fopen(path, "w");
        if (anybad || !text || !f) {
            fprintf(stderr, "tcpmpi: %s: no trace written (%s)\n", path,
                    anybad ? "a rank ran out of memory for its records" : !f ? "cannot write the file" : "out of memory");
        } else {
            fprintf(f, "torcoll-trace 1\nranks %d\n# rank call comm root bytes op type gap_ns dur_ns\n", size);
            fwrite(text, 1, (size_t)total, f);
            fprintf(f, "end %ld\n", all);
        }
        if (f && fclose(f))
            fprintf(stderr, "tcpmpi: %s: write failed\n", path);
    }
    free(lens), free(offs), free(text), free(buf);
    return PMPI_Finalize();
}
