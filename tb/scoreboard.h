/* The co-simulation's scoreboard (tb/scoreboard.c): each side's (RTL, C model) PE
 * callbacks, the deliveries and error reports checked against the scenario, the
 * credit block's counters, and the reports of a mismatch between the sides. */
#ifndef TC_SCOREBOARD_H
#define TC_SCOREBOARD_H

#include "dut.h"
#include "events.h"
#include "pe.h"
#include "scenario.h"

typedef struct side side;

typedef struct {
    const tc_topo *topo;
    const tc_row *rows;
    const tc_stim *stim;
    uint8_t *expect;   /* [tag-1][node]: 1 = a copy is due, 2 = delivered */
    uint64_t *first_inj, *last_del; /* per tag */
    int pending, errors;
} scoreboard;

typedef struct {
    uint64_t cycle;
    int node;
    tc_flit hdr;
} report;

typedef struct {
    int node;
    tc_flit f[3];
} counters;

struct side {
    tc_dut *dut;
    report *rep; /* error reports the PEs received */
    int nrep;
    counters *cnt; /* the credit block's periodic reports */
    int ncnt;
    tc_pe *pe;
    tc_evlog log;
    scoreboard sb;
    uint32_t *obs;
    int noobs; /* stepped without observation records */
    uint64_t last_event;
    uint64_t progress; /* the last cycle a PE sent or received a packet */
    int *err_seen;     /* [nexperr]: reports of each expected error so far */
    int err_in;        /* expected errors reported (each at least once) */
};

/* A failure of side `who`, printed up to a cap; counted. */
void sb_error(scoreboard *sb, const char *who, const char *msg);
/* The PE callbacks of one side (ctx: its side): a packet injected, a header ejected,
 * a packet delivered, a protocol error the PE noticed. */
void sb_inject(void *ctx, int node, uint32_t tag, uint64_t cycle);
void sb_eject(void *ctx, int node, const tc_flit *hdr, uint64_t cycle);
void sb_deliver(void *ctx, int node, const tc_flit *f, int n, uint64_t cycle);
void sb_pe_error(void *ctx, int node, const char *m, uint64_t cycle);
/* Lemma 1 of the barrier on this cycle's observation records: neighbours' phases
 * differ by at most 1. */
void sb_check_lemma1(side *s, const tc_topo *t, const uint32_t *obs, size_t ow, uint64_t cycle);
/* The data flits of the scenario's packet `tag` (the PEs' callback). */
int sb_len_of(void *ctx, uint32_t tag, int node, int dir);
/* After a run: the drops, the error reports and the credit block's counters of a side. */
void sb_check_drops(side *s);
void sb_check_errors(side *s, int verbose);
/* A tag of the credit block's periodic reports. */
int sb_is_report_tag(uint32_t tag);
void sb_check_counters(side *s, uint64_t cfg_cycles, uint64_t run_cycles, int slots);
/* Both sides' records of node at the cycle they differ, and the events before it. */
void sb_report_obs_mismatch(side *sd, int nd, int node, uint64_t cycle);
/* The deliveries the scenario expects on the torus with these tables. */
void sb_init(scoreboard *sb, const tc_topo *t, const tc_row *rows, const tc_stim *st);
void sb_free(scoreboard *sb);

#endif
