/* Traces of an MPI program's collectives (written by tools/pmpi/tcpmpi.c, or converted
 * from OTF2 by tools/tcotf2.c) and their replay on the simulated torus (tcnet
 * workload=trace). The text format, one record a line:
 *
 *   torcoll-trace 1
 *   ranks R
 *   RANK CALL COMM ROOT BYTES OP TYPE GAP_NS DUR_NS     (any number of these)
 *   end N                                               (N: the records above)
 *
 * CALL is bcast, reduce, allreduce, barrier or allgather; COMM the communicator's
 * size; ROOT the root rank (-1 for none); BYTES what one rank contributes (count x
 * type size); OP the reduction ("-" for none); TYPE the datatype's name; GAP_NS the
 * time from the rank's previous collective's return (or MPI_Init's) to this call,
 * DUR_NS the time in it. A rank's records are in its call order; every rank makes
 * the same calls. docs/applications.md describes the replay. */
#ifndef TC_TRACE_H
#define TC_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "apps.h"

enum { TC_CALL_BCAST, TC_CALL_REDUCE, TC_CALL_ALLREDUCE, TC_CALL_BARRIER, TC_CALL_ALLGATHER, TC_CALLS };
extern const char *const tc_call_names[TC_CALLS + 1];

typedef struct {
    int call, comm, root;
    uint64_t bytes, gap_ns, dur_ns;
    char op[32], type[32];
} tc_trace_rec;

typedef struct {
    int ranks, calls;    /* every rank makes `calls` calls */
    tc_trace_rec *rec;   /* [rank * calls + i] */
} tc_trace;

/* Reads a whole trace from f (called name in messages) and checks it: the header, every
 * field, the end line's count (a truncated file has none), every rank with the same
 * calls (call, communicator, root, bytes). 0, or -1 and err naming the line and field. */
int tc_trace_read(FILE *f, const char *name, tc_trace *tr, char *err, size_t errlen);
void tc_trace_free(tc_trace *tr);

/* tcnet workload=trace: replays cfg's `trace` with rank r on node r or on the node
 * line r of `map` names; 0, 1 if a run failed, 2 for bad input (a->err). */
int tc_trace_replay(tc_app *a, const tc_config *cfg, FILE *json, double ns);

#endif
