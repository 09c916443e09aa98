/* Traces of an MPI program's communication (written by tools/pmpi/tcpmpi.c, or
 * converted from OTF2 by tools/tcotf2.c) and their replay on the simulated torus
 * (tcnet workload=trace). The text format, one item a line ('#' lines are comments):
 *
 *   torcoll-trace 2
 *   ranks R
 *   comm ID SIZE MEMBER...                              (communicator definitions)
 *   RANK CALL COMM ROOT BYTES OP TYPE GAP_NS DUR_NS     (any number of these)
 *   end N                                               (N: the records above)
 *
 * comm: communicator ID (a decimal up to 2^64-1; 0 is MPI_COMM_WORLD, defined
 * without a line) has SIZE ranks, the MEMBERs in its rank order as world ranks, each
 * a number or a range a-b (ascending or descending); a long group continues on more
 * lines of the same ID until SIZE members are given. A definition given again must
 * be the same (the recorder may define a communicator it did not see made from each
 * member). A communicator is defined before its first record.
 *
 * A record is one call of rank RANK, in the rank's call order. CALL is a collective:
 * bcast, reduce, allreduce, barrier, allgather, allgatherv, gather, gatherv,
 * scatter, scatterv, alltoall, alltoallv, alltoallw, reduce_scatter,
 * reduce_scatter_block, scan, exscan, or its nonblocking form (the name with an 'i'
 * in front: iallreduce); a message: send, isend, recv, irecv; or wait, the
 * completion (MPI_Wait/Test families) of one nonblocking call. COMM is the call's
 * communicator ID. ROOT: a collective's root (comm rank; -1 for those without);
 * a message's peer (comm rank; an irecv never completed has -1); wait: the index
 * (0-based, among the rank's records) of the nonblocking record it completes. BYTES:
 * what one rank contributes: the vector of a reduction, a scan and a
 * reduce_scatter(_block) (the whole vector, before the scatter), the block of a
 * bcast, gather, scatter or allgather, the block to each rank of an alltoall, all it
 * sends in an alltoallv or alltoallw and its own block in the other v-variants (these
 * may differ between ranks), a message's size; 0 for a barrier and a wait. OP: the
 * reduction ("-" for none, "user" for a user-defined one); a message's tag. TYPE: the
 * datatype's name (MPI_Type_get_name; "derived" unnamed, "-" none). GAP_NS: the time
 * from the rank's previous record's return (or MPI_Init's) to this call; DUR_NS: the
 * time in it.
 *
 * A CALL that begins with "MPI_" (letters, digits and '_' after it, up to 31
 * characters) is a call the replay does not model, named as MPI names it: MPI_Probe,
 * MPI_Iprobe, MPI_Mprobe, MPI_Improbe; MPI_Put, MPI_Get, MPI_Accumulate,
 * MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap, MPI_Rput, MPI_Rget,
 * MPI_Raccumulate, MPI_Rget_accumulate and the windows' MPI_Win_* calls (create,
 * allocate, free, fence, lock, flush, post/start/complete/wait ...); the neighbourhood
 * collectives MPI_Neighbor_* and MPI_Ineighbor_*; MPI_Wait, the completion of one of
 * the nonblocking ones (by any Wait/Test call); and any other. Its fields as a
 * message's or a collective's: COMM its communicator (a one-sided call's: its
 * window's), ROOT its peer or target (comm rank; -1 none: a fence, a neighbourhood
 * collective, a probe that found nothing), BYTES what it moves (a transfer's origin
 * count x its type's size, a neighbourhood collective's as its global form's, 0 for
 * a probe or a synchronisation), OP its reduction (accumulates) or "-", TYPE its
 * datatype. The replay keeps its DUR_NS as compute time and counts it by name.
 *
 * Version 1 (the earlier recorder's: no comm lines, only bcast, reduce, allreduce,
 * barrier and allgather, COMM the communicator's size) is read too; a call of
 * version 1 on fewer than all ranks is refused: its group is not known.
 * docs/applications.md describes the replay. */
#ifndef TC_TRACE_H
#define TC_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "apps.h"

enum {
    TC_CALL_BCAST, TC_CALL_REDUCE, TC_CALL_ALLREDUCE, TC_CALL_BARRIER, TC_CALL_ALLGATHER, TC_CALL_ALLGATHERV,
    TC_CALL_GATHER, TC_CALL_GATHERV, TC_CALL_SCATTER, TC_CALL_SCATTERV, TC_CALL_ALLTOALL, TC_CALL_ALLTOALLV,
    TC_CALL_ALLTOALLW, TC_CALL_REDUCE_SCATTER, TC_CALL_REDUCE_SCATTER_BLOCK, TC_CALL_SCAN, TC_CALL_EXSCAN,
    TC_CALL_COLLS,                       /* the collectives are the calls before this */
    TC_CALL_SEND = TC_CALL_COLLS, TC_CALL_RECV, TC_CALL_WAIT,
    TC_CALL_OTHER,                       /* a call the replay does not model: CALL its MPI name (rec.name) */
    TC_CALLS
};
extern const char *const tc_call_names[TC_CALLS + 1];

typedef struct {
    int call, comm, root;  /* comm: an index into tc_trace.comm */
    int nb;                /* issued by a nonblocking call (isend, iallreduce, ...) */
    uint64_t bytes, gap_ns, dur_ns;
    long line;             /* its line in the file, for messages */
    char op[32], type[32];
    char name[32];         /* TC_CALL_OTHER: the MPI call's name */
} tc_trace_rec;

typedef struct {
    uint64_t id;
    int size, *member;     /* member[comm rank]: the world rank */
} tc_trace_comm;

typedef struct {
    int version, ranks, ncomms;
    tc_trace_comm *comm;   /* comm[0]: the world */
    int *n;                /* n[rank]: its records */
    tc_trace_rec **rec;    /* rec[rank][i] */
    long records;
} tc_trace;

/* Reads a whole trace from f (called name in messages) and checks it: the header,
 * every definition and field, the end line's count (a truncated file has none),
 * every rank a member of its call's communicator, every wait completing an earlier
 * nonblocking call once. That the ranks' calls match is the replay's check. 0, or -1
 * and err naming the line and field. */
int tc_trace_read(FILE *f, const char *name, tc_trace *tr, char *err, size_t errlen);
void tc_trace_free(tc_trace *tr);
/* Writes tr in the format above (version 2). */
void tc_trace_write(FILE *f, const tc_trace *tr);

/* tcnet workload=trace: replays cfg's `trace` with rank r on node r or on the node
 * line r of `map` names; 0, 1 if a run failed, 2 for bad input (a->err). */
int tc_trace_replay(tc_app *a, const tc_config *cfg, FILE *json, double ns);

#endif
