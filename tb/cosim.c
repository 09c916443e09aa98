/* Co-simulation: runs each scenario on the Verilated RTL and on the C golden model in
 * lockstep with the same PE models, compares every node's observation record and PE
 * ports every cycle, checks every packet against the reference timing diagrams and
 * every delivery against a scoreboard. Built once per Verilated network
 * (build/cosim_<net>); build/tcsim is the same program on the C model alone. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../cmodel/config.h"
#include "../cmodel/fpsum.h"
#include "../cmodel/netsim/plan.h"
#include "dut.h"
#include "events.h"
#include "pe.h"
#include "scenario.h"
#include "scoreboard.h"
#include "waveview.h"

#define MAX_DUTS 2
/* The progress watchdog (watchdog_window) never stops a run sooner than this. */
#define WATCHDOG_FLOOR 20000

/* DIR/FILE.json from the C model's trace, DIR/FILE.rtl.json from the RTL's. */
static const char *diagram_suffix;
static FILE *open_diagram(const char *dir, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s%s.json", dir, file, diagram_suffix);
    return fopen(path, "w");
}

/* One reference picture: the passage of tag through one unit of one node. */
static void write_diagram(const char *dir, const char *file, const tc_evlog *l, int node, int unit, uint32_t tag,
                          int len, const char *title)
{
    FILE *f;
    if (node < 0 || unit < 0 || !(f = open_diagram(dir, file)))
        return;
    tc_wavedrom(f, l, node, unit, tag, len, title);
    fclose(f);
}

static const tc_event *first_event(const tc_evlog *l, int kind, int node, int unit, uint32_t tag_mask)
{
    for (size_t i = 0; i < l->n; i++) {
        const tc_event *e = &l->ev[i];
        if (e->kind == kind && (node < 0 || e->node == node) && (unit < 0 || e->idx == unit) &&
            (!tag_mask || (e->tag & tag_mask)))
            return e;
    }
    return NULL;
}

/* The reference pictures of docs/microarchitecture.md, from the scenarios that show
 * each block: bcast_leaf (Broadcaster, VCDown, VCUp at the root), all_trees (a
 * multicast in two passes of the read port), allreduce (the Reducer and the result
 * buffer), fsum (the result buffer at the root, written by a converting copy, and at
 * a leaf, taking its PE's values converted as they come in),
 * credits (the credit block), barrier (the phase counters). */
static void write_diagrams(const char *dir, const char *scen, const tc_stim *st, const tc_topo *t,
                           const tc_row *rows, const tc_evlog *l)
{
    int np = 2 * t->ndims, root = -1, leaf = -1;
    const tc_event *e;
    for (int k = 0; k < t->n; k++) {
        if (TC_RGET(TC_ROWP(rows, k, 0), ROOT))
            root = k;
        if (!TC_RGET(TC_ROWP(rows, k, 0), DIRS) && leaf < 0)
            leaf = k;
    }
    if (!strcmp(scen, "bcast_leaf")) {
        uint32_t tag = (uint32_t)TC_HGET(&st->pkt[0].flit[0], TAG);
        int len = st->pkt[0].nflits - 1;
        write_diagram(dir, "broadcaster", l, st->pkt[0].node, TC_U_BCAST(np), tag, len,
                      "PEGroup FIFO and Broadcaster: a packet injected by a PE");
        for (size_t i = 0; i < l->n; i++) /* the first VCDown hop */
            if (l->ev[i].kind == TC_EV_ARRIVE && l->ev[i].idx < 2 * np && (l->ev[i].idx & 1) == TC_VC_DOWN) {
                write_diagram(dir, "vcdown", l, l->ev[i].node, l->ev[i].idx, tag, len, "VCDown: one hop down the tree");
                break;
            }
        if ((e = first_event(l, TC_EV_ARRIVE, root, -1, 0)))
            write_diagram(dir, "vcup_root", l, root, e->idx, tag, len,
                          "VCUp at the root: a broadcast request turns down the tree");
    } else if (!strcmp(scen, "all_trees")) {
        for (size_t i = 0; i < l->n; i++) /* the first packet whose outputs are granted in two cycles */
            for (size_t j = i + 1; l->ev[i].kind == TC_EV_GRANT && j < l->n; j++)
                if (l->ev[j].kind == TC_EV_GRANT && l->ev[j].node == l->ev[i].node && l->ev[j].src == l->ev[i].src &&
                    l->ev[j].tag == l->ev[i].tag && l->ev[j].cycle != l->ev[i].cycle) {
                    write_diagram(dir, "multicast_passes", l, l->ev[i].node, l->ev[i].src, l->ev[i].tag,
                                  sb_len_of((void *)st, l->ev[i].tag, l->ev[i].node, TC_LEN_UP),
                                  "Multicast: a later grant reads the packet again");
                    return;
                }
    } else if (!strcmp(scen, "allreduce")) {
        int len = st->exp[0].nflits - 1;
        for (size_t i = 0; i < l->n; i++) /* the first contribution from a child */
            if (l->ev[i].kind == TC_EV_ARRIVE && l->ev[i].node == root && l->ev[i].idx < 2 * np) {
                write_diagram(dir, "reducer_in", l, root, l->ev[i].idx, 1, len,
                              "VCUp at the root: a child's contribution into the Reducer");
                break;
            }
        FILE *f = open_diagram(dir, "reducer");
        if (f) {
            tc_wavedrom_reducer(f, l, root, 1, len, "Reducer at the root: every contribution of one allreduce");
            fclose(f);
        }
        write_diagram(dir, "result_leaf", l, leaf, TC_U_RESULT(np, 0), 1, len,
                      "Result buffer at a leaf: the Reducer's result (its PE's contribution) goes up");
        write_diagram(dir, "result_root", l, root, TC_U_RESULT(np, 0), 1, len,
                      "Result buffer at the root: the allreduce result goes down and to the PE");
    } else if (!strcmp(scen, "fsum")) {
        for (int i = 0; i < st->nexp; i++) { /* the first floating-point allreduce: its result at the root */
            const tc_expect *x = &st->exp[i];
            if (!x->up_nflits || TC_HGET(&x->flit[0], TYPE) != TC_TYPE_ALLREDUCE)
                continue;
            /* the converting copy writes value flit k when its last value leaves tc_fpsum_out */
            unsigned lane = TC_HGET(&x->flit[0], LANE), vpf = tc_fpsum_values_per_flit(lane);
            int nel = (x->up_nflits - 1) / 2, wr[TC_SLOT_FLITS];
            for (int k = 0; k < x->nflits - 1; k++) {
                int j = (k + 1) * (int)vpf < nel ? (k + 1) * (int)vpf : nel; /* values up to this flit's last */
                wr[k] = 2 * j + TC_CV_LAT;
            }
            FILE *f = open_diagram(dir, "result_root_fsum");
            if (f) {
                tc_wavedrom_writes(f, l, x->root, TC_U_RESULT(np, (int)TC_HGET(&x->flit[0], TREE) % l->nslices),
                                   (uint32_t)i + 1, x->nflits - 1, wr,
                                   "Result buffer at the root: a floating-point sum converted to values on its way in");
                fclose(f);
            }
            break;
        }
        for (int i = 0; i < st->nexp; i++) { /* the first sum the PEs send as values: at a leaf of its tree */
            const tc_expect *x = &st->exp[i];
            int tree = (int)TC_HGET(&x->flit[0], TREE), at = -1, wr[TC_SLOT_FLITS];
            for (int k = 0; k < t->n && at < 0; k++) {
                tc_row r = TC_ROWP(rows, k, tree);
                if (TC_RGET(r, VALID) && TC_RGET(r, PE) && !TC_RGET(r, DIRS))
                    at = k;
            }
            if (!x->inj_nflits || at < 0)
                continue;
            for (int k = 0; k < x->up_nflits - 1; k++) /* each value converted as it comes: one cycle late */
                wr[k] = k + 2;
            FILE *f = open_diagram(dir, "result_leaf_fsum");
            if (f) {
                tc_wavedrom_writes(f, l, at, TC_U_RESULT(np, tree % l->nslices), (uint32_t)i + 1, x->up_nflits - 1, wr,
                                   "Result buffer at a leaf: its PE's floating-point values, converted on their way "
                                   "into the Reducer, go up as elements");
                fclose(f);
            }
            break;
        }
    } else if (!strcmp(scen, "barrier")) {
        FILE *f = open_diagram(dir, "phase");
        if (f) {
            tc_wavedrom_phase(f, l, root, "Phase counters of one node through a barrier (K = diameter)");
            fclose(f);
        }
    } else if (!strcmp(scen, "credits") && (e = first_event(l, TC_EV_ARRIVE, -1, TC_U_REPORT(np, l->nslices), TC_TAG_CREDIT))) {
        const tc_event made = *e;
        write_diagram(dir, "credit_block", l, made.node, made.idx, made.tag, 0,
                      "Credit block: a credit for the children after 8 results");
        for (size_t i = 0; i < l->n; i++)
            if (l->ev[i].kind == TC_EV_ARRIVE && l->ev[i].tag == made.tag && l->ev[i].node != made.node) {
                write_diagram(dir, "credit_child", l, l->ev[i].node, l->ev[i].idx, made.tag, 0,
                              "VCDown at a child: a credit taken");
                break;
            }
    }
}

/* Hops from the farthest node of any tree (a member or a transit node) to its root. */
static int tree_height(const tc_topo *t, const tc_row *rows)
{
    int height = 0;
    for (int tree = 0; tree < TC_TREES; tree++)
        for (int node = 0; node < t->n; node++) {
            int hops = 0;
            if (!TC_RGET(TC_ROWP(rows, node, tree), VALID))
                continue;
            for (int m = node; !TC_RGET(TC_ROWP(rows, m, tree), ROOT) && hops <= t->n; hops++)
                m = tc_neighbour(t, m, (int)TC_RGET(TC_ROWP(rows, m, tree), TOROOT));
            height = hops > height ? hops : height;
        }
    return height;
}

/* The progress watchdog's window: the longest a correct network can go without a PE
 * sending or receiving a packet while work is left. A PE's next packet scheduled for
 * later, or a PE stalled on purpose, is not a stall: the window counts from the last
 * PE event, or the last scheduled injection or stall end, whichever is later. With H
 * the height of the highest tree (hops from its farthest node to its root), F =
 * TC_SLOT_FLITS (the longest packet) and P = 8 cycles of router pipeline:
 *   hop    = 3 link_lat + 2 F + 2 P                  one hop of the longest packet,
 *                                                    after a link credit's round trip
 *   trip   = inj_lat + ej_lat + 2 H hop + 4 F        a PE's packet up to the root and
 *                                                    down to every PE (broadcast or reduce)
 *   credit = 2 (inj_lat + ej_lat + link_lat + P)     the round trips of an injection,
 *                                                    ejection (pe_credits) and link credit
 *   path   = 2 trip + credit + TC_REPORT_CYCLES
 * Two trips: a contribution a child holds for the credit block's credit waits for it
 * to come down from the root, then climbs, and its result comes down; results queued
 * behind each other at the Reducers wait for link credits hop by hop. A credit or an
 * error report waits behind a periodic report; one report interval (TC_REPORT_CYCLES)
 * is the margin.
 * A slow PE adds its own term. Periodic reports are no progress (they come whatever
 * else happens), and a PE that takes a packet in more than TC_REPORT_CYCLES fills the
 * report buffer with them: a credit or a phase packet made then waits for a report
 * written first (the duties take turns) and behind up to `slots` reports, each taking
 * the PE's port for
 *   pe     = ceil((2 ej_lat + F + P) / pe_credits) + F    (an ejection credit's round trip,
 *                                                          shared by pe_credits packets)
 * and a barrier of B phases (the most any request of the stimulus names: 2K for a
 * full one, K = the diameter for BAR_DIAM; at least 2 diameter) takes B such steps,
 * its fence and completion one more each, one hop each; twice that is the margin
 * (measured: 0.41 of it, a full barrier on the 5-ring, slots 2, pe_credits 1, ej_lat
 * 3000):
 *   slow   = 2 (B + 2) ((slots + 2) pe + hop) + TC_REPORT_CYCLES
 *   window = max(WATCHDOG_FLOOR, path, slow)
 * Measured (--fast, every scenario on 5, 4x4, 3x3x3, 8x8): the longest quiet spell
 * with link_lat 3000 to 10000 was 0.41 of the window (many_reduces); at the default
 * latencies (where the floor holds) 0.13, with --slots 2 0.65 (many_reduces on 4x4,
 * 12989 cycles: 256 reduces queued for 2-slot links, which the formula does not
 * model; the floor covers it). */
static uint64_t watchdog_window(const tc_params *p, int height, uint64_t phases)
{
    uint64_t f = TC_SLOT_FLITS, pipe = 8, hop = 3 * (uint64_t)p->link_lat + 2 * f + 2 * pipe;
    uint64_t trip = (uint64_t)p->inj_lat + (uint64_t)p->ej_lat + 2 * (uint64_t)height * hop + 4 * f;
    uint64_t credit = 2 * ((uint64_t)p->inj_lat + (uint64_t)p->ej_lat + (uint64_t)p->link_lat + pipe);
    uint64_t path = 2 * trip + credit + TC_REPORT_CYCLES;
    uint64_t pe = (2 * (uint64_t)p->ej_lat + f + pipe + (uint64_t)p->pe_credits - 1) / (uint64_t)p->pe_credits + f;
    uint64_t slow = 2 * (phases + 2) * (((uint64_t)p->slots + 2) * pe + hop) + TC_REPORT_CYCLES;
    uint64_t w = path > slow ? path : slow;
    return w > WATCHDOG_FLOOR ? w : WATCHDOG_FLOOR;
}

/* B of watchdog_window: the most phases a barrier of the stimulus takes, at least
 * twice the diameter. */
static uint64_t barrier_phases(const tc_stim *st, int diameter)
{
    uint64_t most = 2 * (uint64_t)diameter;
    for (int i = 0; i < st->npkt; i++) {
        const tc_flit *h = &st->pkt[i].flit[0];
        if (TC_HGET(h, TYPE) != TC_TYPE_BARRIER)
            continue;
        uint64_t mode = TC_HGET(h, OP), k = mode & TC_BAR_DIAM ? (uint64_t)(diameter ? diameter : 1) : TC_HGET(h, DST);
        k = (k > TC_BAR_KMAX ? TC_BAR_KMAX : k) * (mode & TC_BAR_FULL ? 2 : 1);
        most = k > most ? k : most;
    }
    return most;
}

static uint64_t since_of(const side *s, uint64_t sched_last)
{
    return s->progress > sched_last ? s->progress : sched_last;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether events from..to of the log are the credit block's periodic reports only
 * (which come for ever, every TC_REPORT_CYCLES, and are no sign of work left). */
static int reports_only(const tc_evlog *l, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (!sb_is_report_tag(l->ev[i].tag))
            return 0;
    return 1;
}

/* Every copy due is in and every expected error report, but a rogue PE's dropped
 * packets' copies, which stay due until the run's end reconciles them (with the
 * observation records: those of the packets a DROP was seen for; without: any of the
 * rogue's). */
static int done_but_rogue(const side *s, const tc_stim *st)
{
    if (s->err_in != st->nexperr)
        return 0;
    if (!s->sb.pending)
        return 1;
    if (st->rogue_node < 0)
        return 0;
    for (int i = 0; i < st->nexp; i++) {
        int due = 0, dropped = s->noobs && st->exp[i].src == st->rogue_node;
        for (int k = 0; k < s->sb.topo->n && !due; k++)
            due = s->sb.expect[(size_t)i * (size_t)s->sb.topo->n + (size_t)k] == 1;
        for (size_t e = 0; due && !dropped && st->exp[i].src == st->rogue_node && e < s->log.n; e++)
            dropped = s->log.ev[e].kind == TC_EV_DROP && s->log.ev[e].tag == (uint32_t)i + 1;
        if (due && !dropped)
            return 0;
    }
    return 1;
}

/* --plant rid-twice, a PE's bug rather than the router's: a PE whose node has children
 * on a tree gives its contribution to a later allreduce there the ReduceId of its
 * first reduce on that tree, out of the tree's turn. The router ignores it
 * (ERR_RID_ORDER), so the later allreduce never completes: the run must say why
 * before it lists the copies lost. */
static void plant_rid_twice(tc_stim *st, const tc_row *rows)
{
    for (int a = 0; a < st->npkt; a++) {
        const tc_flit *ha = &st->pkt[a].flit[0];
        unsigned type = TC_HGET(ha, TYPE), tree = TC_HGET(ha, TREE);
        int node = st->pkt[a].node;
        if ((type != TC_TYPE_REDUCE && type != TC_TYPE_ALLREDUCE) || !TC_RGET(TC_ROWP(rows, node, tree), DIRS))
            continue;
        for (int b = a + 1; b < st->npkt; b++) {
            tc_flit *hb = &st->pkt[b].flit[0];
            if (st->pkt[b].node == node && TC_HGET(hb, TYPE) == TC_TYPE_ALLREDUCE && TC_HGET(hb, TREE) == tree &&
                TC_HGET(hb, TAG) != TC_HGET(ha, TAG) && TC_HGET(hb, RID) != TC_HGET(ha, RID)) {
                TC_HSET(hb, RID, TC_HGET(ha, RID));
                return;
            }
        }
    }
}

typedef struct {
    const char *scen, *net_name;
    int use_rtl;
    uint64_t seed;
    const char *fst;       /* trace the RTL into this file */
    uint64_t stop_at;      /* stop after this cycle (0: run to the end) */
    const char *wavedrom;  /* directory for reference diagrams, or NULL */
    int events_node;       /* print this node's events after the run (-1: none) */
    int fast;              /* C model without observation records (idle routers skipped): deliveries
                              only; 2: beside a C model with them, PE ports compared every cycle */
    int table_random;      /* --table random: the random table from the seed, else the testbench's */
    tc_params p;
    const char *mis_dir;   /* write a mismatch's view (tc_wave_mismatch_view) here, or NULL */
    int plant_rid_twice;   /* --plant rid-twice (plant_rid_twice) */
    int progress;          /* a progress line on stderr every few seconds */
    const char *tool;      /* tcsim or cosim: the messages' first word */
    /* out: the first delivery (the waveform's key event): cycle, node, the packet's
     * source (a reduce's result: its tree's root) and first injection; key_node -1 if none */
    uint64_t key_cycle, key_inj, key_out; /* key_out: the router granted its PE output (UINT64_MAX: unknown) */
    int key_node, key_src;
} run_opts;

/* A progress line on stderr, every 5 s of a scenario's run: the network, the
 * scenario, its cycles so far and the seconds since it started. */
static void show_progress(const run_opts *o, uint64_t t)
{
    static double start, last;
    static const char *scen;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    if (scen != o->scen || !t) { /* a new scenario: its first line after 5 s */
        scen = o->scen;
        start = last = now;
        return;
    }
    if (now - last < 5.0)
        return;
    last = now;
    fprintf(stderr, "%s: %s %s: cycle %" PRIu64 ", %.0f s\n", o->tool, o->net_name, o->scen, t, now - start);
}

/* How many of the Reducer slices' contributions (headers into a slice's input, which
 * it takes for len + 1 cycles) started while another slice of the same node was taking
 * one, and the most slices of a node taking contributions at once: what fsum_stripe is
 * for, with 2 or 4 slices (its line after the PASS line, with more than one slice). */
static void slices_at_once(const tc_evlog *l, const tc_stim *st, int nodes, int ns, uint64_t *all, uint64_t *overlap,
                           int *most)
{
    uint64_t *until = calloc((size_t)nodes * (size_t)ns, sizeof *until); /* per node and slice: busy until */
    *all = *overlap = 0;
    *most = 0;
    for (size_t i = 0; i < l->n; i++) {
        const tc_event *e = &l->ev[i];
        if (e->kind != TC_EV_REDUCE || (e->idx & 8) || e->tag < 1 || e->tag > (uint32_t)st->nexp)
            continue;
        uint64_t *u = until + (size_t)e->node * (size_t)ns;
        int busy = 1;
        for (int k = 0; k < ns; k++)
            busy += k != e->src && u[k] > e->cycle;
        u[e->src] = e->cycle + (uint64_t)st->exp[e->tag - 1].nflits; /* header and data */
        (*all)++;
        *overlap += busy > 1;
        *most = busy > *most ? busy : *most;
    }
    free(until);
}

/* Runs one scenario; returns 0 on PASS, the cycle of a mismatch + 1 otherwise in *mis. */
static int run_scenario(run_opts *o, uint64_t *mis_cycle, int *mis_node)
{
    char err[256];
    tc_topo topo;
    tc_params p = o->p;
    side sd[MAX_DUTS];
    int nd = 0, fail = 0, stalled = 0;
    tc_stim st;

    memset(sd, 0, sizeof sd);
    *mis_cycle = 0;
    if (o->use_rtl) {
        if (!(sd[nd].dut = tc_dut_rtl(&p, o->fst, err, sizeof err))) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        sd[nd].noobs = o->fast == 1; /* the RTL alone, for speed */
        nd++;
    }
    for (int k = o->fast == 2 ? 0 : 1; k < 2 && !o->fst && !(o->use_rtl && o->fast); k++) {
        if (!(sd[nd].dut = tc_dut_cmodel(&p, err, sizeof err))) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        sd[nd].noobs = o->fast == 1 || (o->fast == 2 && k == 0);
        nd++;
    }
    tc_topo_init(&topo, p.ndims, p.size, err, sizeof err);
    tc_row *rows = calloc((size_t)topo.n * TC_TREES, sizeof(tc_row));
    tc_plan plan = {.variant = o->table_random ? TC_PLAN_RANDOM : TC_PLAN_TESTBENCH, .seed = o->seed};
    if (!rows || tc_plan_table(&topo, rows, &plan)) {
        fprintf(stderr, "out of memory for the table of %d nodes\n", topo.n);
        return 1;
    }
    if (tc_table_validate(&topo, rows, err, sizeof err)) {
        fprintf(stderr, "planner built an invalid table: %s\n", err);
        return 1;
    }
    if (tc_scenario_build(o->scen, &topo, rows, o->seed, &p, &st)) {
        fprintf(stderr, "unknown scenario '%s'\n", o->scen);
        return 1;
    }
    if (o->plant_rid_twice)
        plant_rid_twice(&st, rows);

    int np = 2 * p.ndims, ns = p.red_slices;
    size_t ow = (size_t)TC_OBS_WORDS(np, ns);
    enum { HIST = 64 }; /* the cycles a mismatch's view shows */
    uint32_t *hist[MAX_DUTS] = {NULL};
    for (int d = 0; d < nd; d++) {
        side *s = &sd[d];
        s->pe = calloc((size_t)topo.n, sizeof *s->pe);
        s->obs = calloc((size_t)topo.n * ow, sizeof(uint32_t));
        if (o->mis_dir && nd == 2 && !s->noobs)
            hist[d] = calloc((size_t)HIST * (size_t)topo.n * ow, sizeof(uint32_t));
        tc_evlog_init(&s->log, topo.n, np, ns);
        sb_init(&s->sb, &topo, rows, &st);
        s->err_seen = calloc((size_t)st.nexperr + 1, sizeof *s->err_seen);
        for (int k = 0; k < topo.n; k++) {
            tc_pe_init(&s->pe[k], k, p.inj_slots, p.pe_credits);
            s->pe[k].stall = &st.stall[k];
            s->pe[k].nstall = 1;
            s->pe[k].rogue = k == st.rogue_node;
        }
        for (int i = 0; i < st.npkt; i++) /* each PE's packets, in the array's order: counted, then placed */
            s->pe[st.pkt[i].node].nqueue++;
        for (int k = 0; k < topo.n; k++) {
            s->pe[k].queue = malloc(sizeof *s->pe[k].queue * (size_t)(s->pe[k].nqueue + 1));
            s->pe[k].nqueue = 0;
        }
        for (int i = 0; i < st.npkt; i++) {
            tc_pe *pe = &s->pe[st.pkt[i].node];
            pe->queue[pe->nqueue++] = &st.pkt[i];
        }
        tc_row *tree_rows = malloc(sizeof *tree_rows * (size_t)topo.n);
        for (int tree = 0; tree < TC_TREES; tree++) {
            for (int k = 0; k < topo.n; k++)
                tree_rows[k] = TC_ROWP(rows, k, tree);
            s->dut->ops->cfg(s->dut, tree, tree_rows);
        }
        free(tree_rows);
    }

    uint64_t t, drain = 2 * (uint64_t)(p.link_lat + p.inj_lat + p.ej_lat) + 64, stalls_end = 0;
    for (int k = 0; k < topo.n; k++) /* a quiet network is not done while a PE is still to resume */
        stalls_end = st.stall[k].to > stalls_end ? st.stall[k].to : stalls_end;
    /* The points the stimulus schedules (injections, stall ends), in order: the
     * watchdog's window counts from the last one passed, if later than the last PE
     * event. The cycle cap: a correct run has at most E PE events (packets sent,
     * copies and expected error reports received), each within a window of the one
     * before or of the last scheduled point, then ends when quiet (--fast: nothing
     * for `quiet` cycles, the longer of 50 x drain and a window):
     *   limit = last scheduled point + (E + 1) x window + quiet
     * A run past it makes progress without end (a packet delivered again and again). */
    uint64_t window = watchdog_window(&p, tree_height(&topo, rows), barrier_phases(&st, tc_diameter(&topo)));
    uint64_t *sched, sched_last = 0;
    size_t nsched = 0, next_sched = 0;
    sched = malloc(sizeof *sched * ((size_t)st.npkt + (size_t)topo.n + 1));
    for (int i = 0; i < st.npkt; i++)
        sched[nsched++] = st.pkt[i].cycle;
    for (int k = 0; k < topo.n; k++)
        if (st.stall[k].to > st.stall[k].from)
            sched[nsched++] = st.stall[k].to;
    qsort(sched, nsched, sizeof *sched, cmp_u64);
    uint64_t events = (uint64_t)st.npkt + (uint64_t)sd[0].sb.pending + (uint64_t)st.nexperr;
    uint64_t quiet = 50 * drain > window ? 50 * drain : window;
    uint64_t limit = (nsched ? sched[nsched - 1] : 0) + (events + 1) * window + quiet;
    tc_pe_sink sinks[MAX_DUTS];
    for (int d = 0; d < nd; d++)
        sinks[d] = (tc_pe_sink){&sd[d], sb_inject, sb_eject, sb_deliver, sb_pe_error};
    for (t = 0; t < limit && !fail; t++) {
        if (o->progress && !(t & 0xff))
            show_progress(o, t);
        tc_pe_out out[MAX_DUTS];
        size_t before[MAX_DUTS];
        for (int d = 0; d < nd; d++)
            before[d] = sd[d].log.n;
        for (int k = 0; k < topo.n && !fail; k++) {
            for (int d = 0; d < nd; d++) {
                tc_pe_in in;
                sd[d].dut->ops->pe_out(sd[d].dut, k, &out[d]);
                tc_pe_cycle(&sd[d].pe[k], &out[d], &in, t, &sinks[d]);
                sd[d].dut->ops->pe_in(sd[d].dut, k, &in);
            }
            if (nd == 2 && (out[0].inj_cred != out[1].inj_cred || out[0].ej.valid != out[1].ej.valid ||
                            (out[0].ej.valid && memcmp(&out[0].ej.flit, &out[1].ej.flit, sizeof(tc_flit))))) {
                fprintf(stderr, "  MISMATCH at cycle %" PRIu64 ", node %d PE port: %s ej %d/%016" PRIx64
                        "%016" PRIx64 " inj_cred %d | %s ej %d/%016" PRIx64 "%016" PRIx64 " inj_cred %d\n",
                        t, k, sd[0].dut->name, out[0].ej.valid, out[0].ej.flit.w[1], out[0].ej.flit.w[0],
                        out[0].inj_cred, sd[1].dut->name, out[1].ej.valid, out[1].ej.flit.w[1],
                        out[1].ej.flit.w[0], out[1].inj_cred);
                *mis_cycle = t + 1;
                *mis_node = k;
                fail = 1;
            }
        }
        if (fail)
            break;
        for (int d = 0; d < nd; d++) {
            const char *fault;
            sd[d].dut->ops->step(sd[d].dut, sd[d].noobs ? NULL : sd[d].obs);
            if (hist[d])
                memcpy(hist[d] + (t % HIST) * (size_t)topo.n * ow, sd[d].obs, (size_t)topo.n * ow * sizeof(uint32_t));
            if (!sd[d].noobs) {
                for (int k = 0; k < topo.n; k++)
                    tc_evlog_decode(&sd[d].log, t, k, sd[d].obs + (size_t)k * ow);
                sb_check_lemma1(&sd[d], &topo, sd[d].obs, ow, t);
            }
            if ((fault = sd[d].dut->ops->fault(sd[d].dut)) && !sd[d].sb.errors)
                sb_error(&sd[d].sb, sd[d].dut->name, fault);
            if (!reports_only(&sd[d].log, before[d], sd[d].log.n))
                sd[d].last_event = t;
        }
        if (nd == 2 && !sd[0].noobs)
            for (int k = 0; k < topo.n; k++)
                if (memcmp(sd[0].obs + (size_t)k * ow, sd[1].obs + (size_t)k * ow, ow * sizeof(uint32_t))) {
                    sb_report_obs_mismatch(sd, nd, k, t);
                    if (hist[0] && hist[1]) {
                        char vcd[600], gtkw[600];
                        uint32_t *mine[2];
                        for (int d = 0; d < 2; d++) {
                            mine[d] = malloc(sizeof(uint32_t) * HIST * ow);
                            for (int c = 0; c < HIST; c++)
                                memcpy(mine[d] + (size_t)c * ow, hist[d] + ((size_t)c * (size_t)topo.n + (size_t)k) * ow,
                                       ow * sizeof(uint32_t));
                        }
                        mkdir(o->mis_dir, 0777);
                        snprintf(vcd, sizeof vcd, "%s/%s_%s_mismatch.vcd", o->mis_dir, o->net_name, o->scen);
                        snprintf(gtkw, sizeof gtkw, "%s/%s_%s_mismatch.gtkw", o->mis_dir, o->net_name, o->scen);
                        tc_wave_mismatch_view(vcd, gtkw, (const uint32_t *const *)mine, HIST, np, ns, k,
                                            t >= HIST ? t - HIST + 1 : 0, t);
                        fprintf(stderr, "  both sides' records: %s (gtkwave %s)\n", vcd, gtkw);
                        free(mine[0]);
                        free(mine[1]);
                    }
                    *mis_cycle = t + 1;
                    *mis_node = k;
                    fail = 1;
                    break;
                }
        if (o->stop_at && t >= o->stop_at)
            break;
        int idle = 1;
        for (int k = 0; k < topo.n && idle; k++)
            idle = tc_pe_idle(&sd[0].pe[k]);
        /* quiet: whatever is missing is lost. Deliveries only: nothing more due and
         * every expected error report in, or no PE saw anything for `quiet` cycles.
         * Else the same, and no event but the periodic reports for a drain after the
         * last, so that nothing more arrives (a slow PE's packets wait for ejection
         * credits longer than a drain: quiet). */
        side *ref = &sd[nd - 1];
        if (idle && (o->fast == 1 ? done_but_rogue(ref, &st) || t > ref->last_event + quiet
                                  : t > stalls_end + drain && t > ref->last_event + drain &&
                                        (t > ref->last_event + quiet || done_but_rogue(ref, &st))))
            break;
        /* the watchdog: work left (a PE's packets to send, or deliveries due; a rogue
         * PE's dropped packets stay due until the run's end reconciles them), and no
         * progress for a window since the last PE event or scheduled point, and no
         * scheduled point ahead (the network may wait for it: the credits scenario's
         * late PE) */
        while (next_sched < nsched && sched[next_sched] <= t)
            sched_last = sched[next_sched++];
        uint64_t since = next_sched < nsched ? t : since_of(&sd[nd - 1], sched_last);
        int work = t > since + window && sd[nd - 1].sb.pending && st.rogue_node < 0;
        for (int k = 0; k < topo.n && !work && t > since + window; k++)
            work = sd[nd - 1].pe[k].next < sd[nd - 1].pe[k].nqueue;
        if (work) {
            stalled = 1;
            break;
        }
    }

    int violations = 0;
    uint64_t maxlat = 0, copies = 0;
    if (!fail && !o->stop_at) {
        for (int d = 0; d < nd; d++) {
            side *s = &sd[d];
            if (t >= limit || stalled) {
                char msg[200];
                if (stalled)
                    snprintf(msg, sizeof msg, "no progress: no PE sent or received a packet in cycles %" PRIu64
                             "..%" PRIu64 " (the watchdog's window: %" PRIu64 " cycles)", since_of(s, sched_last) + 1,
                             t, window);
                else
                    snprintf(msg, sizeof msg, "no end: still running after %" PRIu64 " cycles, the limit for %" PRIu64
                             " PE events (a window of %" PRIu64 " cycles each)", limit, events, window);
                sb_error(&s->sb, s->dut->name, msg);
            }
            sb_check_errors(s, d == nd - 1); /* the causes of what is lost, before it */
            if (!s->noobs) { /* they need the observation records */
                sb_check_drops(s);
                sb_check_counters(s, TC_TREES, t, o->p.slots);
            } else if (st.rogue_node >= 0) { /* a rogue PE's packet reached everyone or nobody */
                for (int i = 0; i < st.nexp; i++) {
                    uint8_t *x = &s->sb.expect[(size_t)i * (size_t)topo.n];
                    int got = 0;
                    for (int k = 0; k < topo.n; k++)
                        got |= x[k] == 2;
                    for (int k = 0; k < topo.n && st.exp[i].src == st.rogue_node && !got; k++)
                        x[k] = 0;
                }
            }
            for (int i = 0; i < st.nexp; i++)
                for (int k = 0; k < topo.n; k++)
                    if (s->sb.expect[(size_t)i * (size_t)topo.n + (size_t)k] == 1) {
                        char msg[128];
                        snprintf(msg, sizeof msg, "tag %d never reached node %d (lost)", i + 1, k);
                        sb_error(&s->sb, s->dut->name, msg);
                    } else if (s->sb.expect[(size_t)i * (size_t)topo.n + (size_t)k] == 2) {
                        copies++;
                    }
            tc_net *net = tc_dut_cmodel_net(s->dut);
            if (s->sb.errors && net) { /* the watchdog: who waits for what, where the lost packets are */
                char where[256];
                int shown = 0;
                fprintf(stderr, "  %s at cycle %" PRIu64 ":\n", s->dut->name, t);
                tc_net_explain(net, stderr);
                for (int i = 0; i < st.nexp && shown < 8; i++)
                    for (int k = 0; k < topo.n; k++)
                        if (s->sb.expect[(size_t)i * (size_t)topo.n + (size_t)k] == 1) {
                            fprintf(stderr, "  tag %d is held at: %s\n", i + 1,
                                    *tc_net_where(net, (uint32_t)i + 1, where, sizeof where) ? where : "nowhere");
                            shown++;
                            break;
                        }
            }
            if (s->sb.errors)
                fail = 1;
        }
        copies /= (uint64_t)nd;
        side *ref = &sd[nd - 1];
        if (!ref->noobs)
            violations = tc_ref_check(&ref->log, &topo, &p, st.exact, sb_len_of, &st, stderr);
        if (violations)
            fail = 1;
        for (int i = 0; i < st.nexp; i++)
            if (ref->sb.first_inj[i] != UINT64_MAX && ref->sb.last_del[i] > ref->sb.first_inj[i] &&
                ref->sb.last_del[i] - ref->sb.first_inj[i] > maxlat)
                maxlat = ref->sb.last_del[i] - ref->sb.first_inj[i];
        char what[64];
        if (o->fast == 2)
            snprintf(what, sizeof what, "C model without observation = with");
        else if (nd == 2)
            snprintf(what, sizeof what, "%s = C model", sd[0].dut->name);
        else if (o->fast)
            snprintf(what, sizeof what, "%s, deliveries only", o->use_rtl ? "RTL" : "C model");
        else
            snprintf(what, sizeof what, "%s", sd[0].dut->name);
        printf("%s  %-8s %-16s packets %3d  copies %5" PRIu64 "  cycles %7" PRIu64
               "  max latency %6" PRIu64 "  (%s)\n",
               fail ? "FAIL" : "PASS", o->net_name, o->scen, st.npkt, copies, t, maxlat, what);
        tc_net *refnet = tc_dut_cmodel_net(ref->dut);
        if (!strcmp(o->scen, "stream") && refnet) {
            /* the stream's span, first injection to last delivery, and its busiest
             * link (the C model counts; the RTL's grants were equal to it): tcnet's
             * bcast latency and link_util */
            uint64_t first = UINT64_MAX, last = 0, busiest = 0;
            for (int i = 0; i < st.nexp; i++) {
                first = ref->sb.first_inj[i] < first ? ref->sb.first_inj[i] : first;
                last = ref->sb.last_del[i] > last ? ref->sb.last_del[i] : last;
            }
            for (int k = 0; k < topo.n; k++)
                for (int d = 0; d < 2 * topo.ndims; d++)
                    if (tc_net_link_flits(refnet, k, d) > busiest)
                        busiest = tc_net_link_flits(refnet, k, d);
            if (first < last)
                printf("      stream: %" PRIu64 " cycles from the first injection to the last delivery, busiest link %" PRIu64
                       " flits, link_util %.3f\n", last - first, busiest, (double)busiest / (double)(last - first + 1));
        }
        if (!strcmp(o->scen, "fsum_stripe") && !ref->noobs && ns > 1) {
            uint64_t all, overlap;
            int most;
            slices_at_once(&ref->log, &st, topo.n, ns, &all, &overlap, &most);
            printf("      fsum_stripe: the Reducer slices (%d a node) took %" PRIu64 " contributions, %" PRIu64
                   " of them while another slice of the node took one; up to %d at once\n", ns, all, overlap, most);
        }
        for (int d = 0; d < nd && o->wavedrom && !fail; d++) /* from each trace that has the records */
            if (!sd[d].noobs) {
                diagram_suffix = tc_dut_cmodel_net(sd[d].dut) ? "" : ".rtl";
                write_diagrams(o->wavedrom, o->scen, &st, &topo, rows, &sd[d].log);
            }
        for (size_t i = 0; o->events_node >= 0 && i < ref->log.n; i++)
            if (ref->log.ev[i].node == o->events_node)
                tc_event_print(stdout, np, ns, &ref->log.ev[i]);
    } else if (fail) {
        printf("FAIL  %-8s %-16s mismatch at cycle %" PRIu64 " node %d\n", o->net_name, o->scen,
               *mis_cycle - 1, *mis_node);
    }

    o->key_node = -1;
    for (size_t i = 0; i < sd[0].log.n && o->key_node < 0; i++) {
        const tc_event *e = &sd[0].log.ev[i];
        if (e->kind == TC_EV_DELIVER && e->tag >= 1 && e->tag <= (uint32_t)st.nexp) {
            o->key_cycle = e->cycle;
            o->key_node = e->node;
            o->key_src = st.exp[e->tag - 1].src;
            for (int k = 0; k < topo.n && o->key_src < 0; k++) /* a reduce's result: from its tree's root */
                if (TC_RGET(TC_ROWP(rows, k, TC_HGET(&st.exp[e->tag - 1].flit[0], TREE)), ROOT))
                    o->key_src = k;
            if (o->key_src < 0)
                o->key_src = e->node;
            o->key_inj = sd[0].sb.first_inj[e->tag - 1] == UINT64_MAX ? 0 : sd[0].sb.first_inj[e->tag - 1];
            o->key_out = UINT64_MAX;
            for (size_t j = 0; j < i; j++)
                if (sd[0].log.ev[j].kind == TC_EV_GRANT && sd[0].log.ev[j].idx == np && sd[0].log.ev[j].node == e->node &&
                    sd[0].log.ev[j].tag == e->tag)
                    o->key_out = sd[0].log.ev[j].cycle;
        }
    }
    for (int d = 0; d < nd; d++) {
        free(hist[d]);
        for (int k = 0; k < topo.n; k++) {
            free(sd[d].pe[k].queue);
            free(sd[d].pe[k].got);
        }
        free(sd[d].pe);
        free(sd[d].obs);
        tc_evlog_free(&sd[d].log);
        sb_free(&sd[d].sb);
        free(sd[d].err_seen);
        free(sd[d].rep);
        free(sd[d].cnt);
        sd[d].dut->ops->close(sd[d].dut);
    }
    tc_stim_free(&st);
    free(sched);
    free(rows);
    return fail;
}

/* An output directory must be one we can write, before anything runs. */
static int check_dir(const char *tool, const char *opt, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) || (!S_ISDIR(st.st_mode) && (errno = ENOTDIR)) || access(dir, W_OK | X_OK)) {
        fprintf(stderr, "%s: %s = '%s': cannot write there: %s\n", tool, opt, dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* The options, in the one command-line style of tcsim, tcnet and tccheck
 * (tc_config_cli: --key value, --key=value or key=value). The keys after `events`
 * are the C model's: a Verilated network has them fixed when it is built. */
static const char *const tables[] = {"default", "random", NULL};
static const char *const fasts[] = {"off", "on", "check", NULL};
static const char *const plants[] = {"none", "report-one", "result-slot", "rid-twice", NULL};
static const tc_key keys[] = {
    {"scen", "all", "scenario, or all (--list names them)", 1, 0, NULL},
    TC_SEED_KEY("random choices of the scenario and of a random table"),
    {"table", "default", "routing tables: the planner's 16 trees, or random trees from the seed", 0, 0, tables},
    {"wave", "", "a waveform into this directory: the RTL's of the scenario (a build with tracing: make wave), or "
                 "of a mismatch (the RTL's; tcsim's with fast = check)", 1, 0, NULL},
    {"wavedrom", "", "write the scenario's reference timing diagrams (WaveDrom JSON) into this directory", 1, 0, NULL},
    {"events", "-1", "print this node's observed events after the run (-1: none)", -1, 65535, NULL},
    {"fast", "off", "on: no observation records, only PE deliveries checked (with RTL: the RTL alone); "
                    "check: that beside the full C model, PE ports equal every cycle", 0, 0, fasts},
    TC_PROGRESS_KEY,
    {"runs", "", "run each line of this file (- : standard input) as its own options, all in this process; one PASS "
                 "or FAIL line a run (sim/soak.sh)", 1, 0, NULL},
    {"run_logs", "build/soak", "with runs: each failing run's output into this directory, as OPTIONS.log", 1, 0, NULL},
    TC_TOPO_KEY,
#include "../cmodel/param_keys.h"
    {"plant", "none", "a planted bug, for the watchdog's test (docs/deadlock.md); rid-twice: a PE's, in the stimulus", 0, 0, plants},
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* The scenarios write_diagrams draws reference diagrams of (--wavedrom). */
static const char *const diagram_scens[] = {"bcast_leaf", "all_trees", "allreduce", "fsum", "credits", "barrier", NULL};

static void list_scenarios(FILE *f)
{
    for (int k = 0; tc_scenario_names[k]; k++)
        fprintf(f, "%-17s %s\n", tc_scenario_names[k], tc_scenario_descs[k]);
}

/* The Makefile's name of a network built with p's parameters: the torus, and
 * "@" with a letter and value for each parameter off its default (Makefile, NET@SPEC). */
static const char *spec_name(const tc_params *p, const char *torus, char *buf, size_t size)
{
    tc_params d;
    tc_params_default(&d);
    const struct {
        char key;
        int v, def;
    } par[] = {{'s', p->slots, d.slots},         {'i', p->inj_slots, d.inj_slots}, {'p', p->pe_credits, d.pe_credits},
               {'r', p->red_flits, d.red_flits}, {'k', p->red_slices, d.red_slices}, {'l', p->link_lat, d.link_lat},
               {'j', p->inj_lat, d.inj_lat},     {'e', p->ej_lat, d.ej_lat}};
    size_t at = (size_t)snprintf(buf, size, "%s", torus);
    const char *sep = "@";
    for (size_t k = 0; k < sizeof par / sizeof *par && at < size; k++)
        if (par[k].v != par[k].def) {
            at += (size_t)snprintf(buf + at, size - at, "%s%c%d", sep, par[k].key, par[k].v);
            sep = "";
        }
    return buf;
}

/* One invocation's runs: the options in cfg, taken by tc_config_cli; o holds the
 * defaults (the RTL's network in a cosim binary). 0 all passed, 1 a failure, 2 refused. */
static int run_config(run_opts o, const tc_config *cfg)
{
    char err[256], net_name[32];
    const char *scen, *wave_dir = NULL, *tool = o.tool;
    int nfail = 0, npass = 0;

    for (size_t k = (size_t)tc_config_find(cfg, "topo"); k < NKEYS && o.use_rtl; k++)
        if (cfg->from[k]) {
            fprintf(stderr, "%s: %s = '%s' does not apply: this Verilated network's is fixed when it is built "
                    "(build/tcsim, the C model, takes it)\n", tool, keys[k].key, cfg->val[k]);
            return 2;
        }
    if (o.use_rtl && tc_config_enum(cfg, "fast") == 2) {
        fprintf(stderr, "%s: fast = check does not apply: it runs the C model against itself, in build/tcsim; "
                "here: off or on\n", tool);
        return 2;
    }
    scen = tc_config_str(cfg, "scen");
    if (strcmp(scen, "all")) { /* a scenario by name: a near miss suggested */
        int known = 0;
        for (int k = 0; tc_scenario_names[k]; k++)
            known |= !strcmp(scen, tc_scenario_names[k]);
        if (!known) {
            size_t ns = 0;
            while (tc_scenario_names[ns])
                ns++;
            const char *near = tc_suggest(scen, tc_scenario_names, ns, sizeof *tc_scenario_names);
            fprintf(stderr, "%s: unknown scenario '%s': %s --list names them, or all", tool, scen, tool);
            if (near)
                fprintf(stderr, ": did you mean '%s'?", near);
            fprintf(stderr, "\n");
            return 2;
        }
    }
    if (tc_config_seed(cfg, &o.seed))
        return 2;
    o.table_random = tc_config_enum(cfg, "table");
    o.fast = tc_config_enum(cfg, "fast");
    o.progress = tc_config_progress(cfg);
    o.events_node = (int)tc_config_int(cfg, "events");
    if (*tc_config_str(cfg, "wave")) {
        wave_dir = tc_config_str(cfg, "wave");
        /* refused before the directory is made: a build that would write nothing there */
        if (o.use_rtl && !tc_dut_rtl_traces()) {
            fprintf(stderr, "%s: wave = '%s' does not apply: this build has no tracing; make wave NET=... SCEN=... "
                    "builds one that has\n", tool, wave_dir);
            return 2;
        }
        if (!o.use_rtl && o.fast != 2) {
            fprintf(stderr, "%s: wave = '%s' does not apply: build/tcsim writes a waveform only of a mismatch between "
                    "two models, with fast = check (the RTL's: make wave NET=... SCEN=...)\n", tool, wave_dir);
            return 2;
        }
        mkdir(wave_dir, 0777); /* as a mismatch's waveform would */
        if (check_dir(tool, "wave", wave_dir))
            return 2;
    }
    if (*tc_config_str(cfg, "wavedrom")) {
        o.wavedrom = tc_config_str(cfg, "wavedrom");
        int draws = !strcmp(scen, "all");
        for (int k = 0; diagram_scens[k]; k++)
            draws |= !strcmp(scen, diagram_scens[k]);
        if (!draws) {
            fprintf(stderr, "%s: wavedrom = '%s' does not apply to scen = %s: the reference diagrams are of scen = "
                    "bcast_leaf, all_trees, allreduce, fsum, credits, barrier (or all)\n", tool, o.wavedrom, scen);
            return 2;
        }
        if (check_dir(tool, "wavedrom", o.wavedrom))
            return 2;
    }
    if (!o.use_rtl) {
        tc_topo t;
        if (tc_topo_parse(tc_config_str(cfg, "topo"), &t, err, sizeof err)) {
            fprintf(stderr, "%s: topo: %s\n", tool, err);
            return 2;
        }
        o.p.ndims = t.ndims;
        for (int d = 0; d < TC_MAX_DIMS; d++)
            o.p.size[d] = t.size[d];
        tc_params_from_config(&o.p, cfg);
        int plant = tc_config_enum(cfg, "plant");
        o.p.plant = plant == 1 ? TC_PLANT_REPORT_ONE : plant == 2 ? TC_PLANT_RESULT_SLOT : 0;
        o.plant_rid_twice = plant == 3;
    }
    tc_topo topo;
    if (tc_topo_init(&topo, o.p.ndims, o.p.size, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", tool, err);
        return 2;
    }
    o.net_name = tc_topo_name(&topo, net_name, sizeof net_name);
    if (o.events_node >= topo.n) {
        fprintf(stderr, "%s: events = %d: not a node of the %d-node torus: -1..%d\n", tool, o.events_node, topo.n, topo.n - 1);
        return 2;
    }

    if (o.table_random && tc_scenario_default_table_only(scen)) {
        fprintf(stderr, "%s: scen = %s: written for the planner's trees (table = default), not random tables\n", tool, scen);
        return 2;
    }
    if (o.table_random && !strcmp(scen, "all")) {
        printf("table = random: leaving out the scenarios written for the planner's trees:");
        for (int k = 0; tc_scenario_names[k]; k++)
            if (tc_scenario_default_table_only(tc_scenario_names[k]))
                printf(" %s", tc_scenario_names[k]);
        printf("\n");
    }
    char whybuf[160];
    const char *why = strcmp(scen, "all") ? tc_scenario_refuse(scen, &topo, &o.p, whybuf, sizeof whybuf) : NULL;
    if (why) {
        fprintf(stderr, "%s: scen = %s on the %d-node torus: %s\n", tool, scen, topo.n, why);
        return 2;
    }
    for (int k = 0, any = 0; !strcmp(scen, "all") && tc_scenario_names[k]; k++)
        if (tc_scenario_refuse(tc_scenario_names[k], &topo, &o.p, whybuf, sizeof whybuf))
            printf("%s %s", any++ ? "" : "leaving out the scenarios that need two nodes or longer reduces:",
                   tc_scenario_names[k]);
    if (!strcmp(scen, "all") && (topo.n < 2 || o.p.red_flits < 2))
        printf("\n");
    for (int k = 0; tc_scenario_names[k]; k++) {
        uint64_t mis;
        int node;
        if (strcmp(scen, "all") && strcmp(scen, tc_scenario_names[k]))
            continue;
        if ((o.table_random && tc_scenario_default_table_only(tc_scenario_names[k])) ||
            tc_scenario_refuse(tc_scenario_names[k], &topo, &o.p, whybuf, sizeof whybuf))
            continue;
        o.scen = tc_scenario_names[k];
        o.fst = NULL;
        o.mis_dir = wave_dir ? wave_dir : "build/wave";
        o.stop_at = 0;
        int f = run_scenario(&o, &mis, &node);
        if (f && mis && o.use_rtl && !tc_dut_rtl_traces()) {
            char wave_net[160];
            fprintf(stderr, "  waveform: make wave NET=%s SCEN=%s (this build has no tracing)\n",
                    spec_name(&o.p, net_name, wave_net, sizeof wave_net), o.scen);
        } else if (f && mis && o.use_rtl) {
            /* Run the RTL again with a waveform up to the mismatch: the mismatching
             * node and the packet's source around it. */
            char fst[512], gtkw[512];
            const char *dir = wave_dir ? wave_dir : "build/wave";
            mkdir(dir, 0777);
            snprintf(fst, sizeof fst, "%s/%s_%s.fst", dir, net_name, o.scen);
            snprintf(gtkw, sizeof gtkw, "%s/%s_%s.gtkw", dir, net_name, o.scen);
            run_opts w = o;
            w.fst = fst;
            w.stop_at = mis + 200; /* past the view's window, which GTKWave would otherwise move to 0 */
            w.mis_dir = NULL;
            uint64_t m2;
            int n2;
            run_scenario(&w, &m2, &n2);
            int nodes[2] = {node, w.key_src};
            const char *roles[2] = {"the mismatch", "source of the first delivery"};
            tc_wave_view(gtkw, fst, dir, nodes, roles, w.key_node >= 0 && w.key_src != node ? 2 : 1, &o.p,
                       mis > 101 ? mis - 101 : 0, mis + 10, mis - 1, UINT64_MAX);
            fprintf(stderr, "  waveform: %s (gtkwave %s)\n", fst, gtkw);
        } else if (!f && wave_dir && o.use_rtl && !strcmp(scen, o.scen)) {
            /* The first delivery: its node and the packet's source, from the injection on. */
            char fst[512], gtkw[512];
            snprintf(fst, sizeof fst, "%s/%s_%s.fst", wave_dir, net_name, o.scen);
            snprintf(gtkw, sizeof gtkw, "%s/%s_%s.gtkw", wave_dir, net_name, o.scen);
            run_opts w = o;
            w.fst = fst;
            w.stop_at = 0;
            uint64_t m2;
            int n2;
            run_scenario(&w, &m2, &n2);
            if (w.key_node < 0) {
                fprintf(stderr, "  %s: no packet delivered: the view opens at cycle 0 on router 0\n", o.scen);
                w.key_node = w.key_src = 0;
                w.key_cycle = w.key_inj = 0;
            }
            /* The marker where the router grants the packet its PE output, ej_lat cycles
             * before the PE sees it; marker A at the PE's delivery (its tail); the
             * window the packet's passage through the router (its arrival, a few cycles
             * before), narrow enough to read the decoded fields. */
            int nodes[2] = {w.key_node, w.key_src};
            const char *roles[2] = {"first delivery", "its source (a reduce's: the root)"};
            uint64_t out = w.key_out != UINT64_MAX ? w.key_out : w.key_cycle;
            tc_wave_view(gtkw, fst, wave_dir, nodes, roles, w.key_src != w.key_node ? 2 : 1, &o.p,
                       out > 12 ? out - 12 : 0, out + 12, out, w.key_cycle);
            fprintf(stderr, "  waveform: %s (gtkwave %s): marker at cycle %" PRIu64 ", router %d ejects the first "
                    "delivery, from node %d (marker A: its PE has it all, cycle %" PRIu64 ")\n",
                    fst, gtkw, out, w.key_node, w.key_src, w.key_cycle);
        }
        if (f)
            nfail++;
        else
            npass++;
    }
    if (npass + nfail == 0) {
        fprintf(stderr, "%s: unknown scenario '%s': %s --list names them\n", tool, scen, tool);
        return 2;
    }
    printf("%s: %d passed, %d failed\n", net_name, npass, nfail);
    return nfail ? 1 : 0;
}

/* runs = FILE: each line of FILE (-: standard input) the options of one run, as on the
 * command line, all in this one process: make soak's thousands of short runs. On a
 * small virtual machine a process's start and the page faults of its first allocations
 * cost more than a short run, and more still on two cores at once (docs/soak.md).
 * Each run's output goes to a capture file, kept as LOGS/NAME.log if the run fails;
 * one line a run on stdout: "PASS  TOOL OPTIONS" or "FAIL  TOOL OPTIONS  # why (log:
 * ...)". A run still going after RUN_TIMEOUT s of wall time ends the batch with its
 * FAIL line; a crash ends it with none (sim/soak.sh reruns that line alone, then goes
 * on from the next). */
#ifndef RUN_TIMEOUT
#define RUN_TIMEOUT 600 /* seconds */
#endif
static char timeout_line[3 * TC_LINE_MAX], capture_path[512], timeout_log[TC_LINE_MAX + 512];
static int result_fd = -1;

static void on_timeout(int sig)
{
    (void)sig;
    /* rename, write and _exit are async-signal-safe; the FAIL line is written even if
     * the log could not be kept */
    int kept = rename(capture_path, timeout_log) == 0;
    ssize_t wrote = write(result_fd, timeout_line, strlen(timeout_line));
    _exit(kept && wrote > 0 ? 1 : 2);
}

/* Where the next line of text starts. */
static const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : p + strlen(p);
}

/* The reason a failed run gives: the watchdog's waits and whether they form a cycle,
 * else its first line that is not a scenario's PASS/FAIL line. */
static void fail_reason(const char *out, char *why, size_t size)
{
    const char *cyc = strstr(out, "a cycle of "), *line = NULL;
    char c[64] = "";
    int n;
    if (cyc && sscanf(cyc, "a cycle of %d waits", &n) == 1)
        snprintf(c, sizeof c, "a cycle of %d waits; ", n);
    else if (strstr(out, "no cycle of waits"))
        snprintf(c, sizeof c, "no cycle of waits; ");
    for (const char *p = out; *p && !line; p = next_line(p))
        if (!strncmp(p, "  waits:", 8))
            line = p;
    for (const char *p = out; *p && !line; p = next_line(p))
        if (strncmp(p, "PASS ", 5) && strncmp(p, "FAIL ", 5))
            line = p;
    if (!line)
        line = "(no output)";
    while (*line == ' ')
        line++;
    int len = (int)strcspn(line, "\n");
    snprintf(why, size, "%s%.*s", c, len > 160 ? 160 : len, line);
}

/* A run's log name: its options without the dashes, words joined by '_'. */
static void log_name(char *const *args, int argc, char *name, size_t size)
{
    size_t at = 0;
    for (int k = 1; k < argc; k++) {
        for (const char *c = args[k]; *c && at + 2 < size; c++)
            if (c[0] == '-' && c[1] == '-')
                c++;
            else
                name[at++] = *c;
        if (k + 1 < argc && at + 2 < size)
            name[at++] = '_';
    }
    name[at] = 0;
}

static int run_lines(const run_opts *base, const char *argv0, const char *path, const char *logs)
{
    const char *tool = base->tool;
    FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!in) {
        fprintf(stderr, "%s: runs = '%s': cannot read it: %s\n", tool, path, strerror(errno));
        return 2;
    }
    mkdir(logs, 0777);
    if (check_dir(tool, "run_logs", logs)) {
        if (in != stdin)
            fclose(in);
        return 2;
    }
    snprintf(capture_path, sizeof capture_path, "%s/.run-%ld.out", logs, (long)getpid());
    int cap = open(capture_path, O_RDWR | O_CREAT | O_TRUNC, 0666), saved_err = dup(2);
    FILE *res = (result_fd = dup(1)) >= 0 ? fdopen(result_fd, "w") : NULL;
    if (cap < 0 || saved_err < 0 || !res) {
        fprintf(stderr, "%s: run_logs = '%s': cannot write %s: %s\n", tool, logs, capture_path, strerror(errno));
        if (in != stdin)
            fclose(in);
        return 2;
    }
    setvbuf(res, NULL, _IOLBF, 0);
    signal(SIGALRM, on_timeout);
    int nfail = 0, rc = 0, lineno = 0;
    char line[TC_LINE_MAX], err[256], *out = NULL;
    for (int got; !rc && (got = tc_read_line(in, line, sizeof line, err, sizeof err)) != 0;) {
        char *args[64], cmd[TC_LINE_MAX + 256], name[TC_LINE_MAX], logpath[TC_LINE_MAX + 512];
        int argc = 0;
        lineno++;
        if (got < 0) {
            dprintf(saved_err, "%s: runs = '%s': line %d: %s\n", tool, path, lineno, err);
            rc = 2;
            break;
        }
        args[argc++] = (char *)argv0;
        for (char *t = strtok(line, " \t"); t && !rc; t = strtok(NULL, " \t"))
            if (argc < 63)
                args[argc++] = t;
            else {
                dprintf(saved_err, "%s: runs = '%s': line %d: more than 62 words\n", tool, path, lineno);
                rc = 2;
            }
        if (rc || argc == 1 || args[1][0] == '#') /* a blank line or a comment */
            continue;
        args[argc] = NULL;
        size_t at = (size_t)snprintf(cmd, sizeof cmd, "%s", argv0);
        for (int k = 1; k < argc && at < sizeof cmd; k++)
            at += (size_t)snprintf(cmd + at, sizeof cmd - at, " %s", args[k]);
        log_name(args, argc, name, sizeof name);
        snprintf(logpath, sizeof logpath, "%s/%s.log", logs, name);
        snprintf(timeout_log, sizeof timeout_log, "%s", logpath);
        snprintf(timeout_line, sizeof timeout_line, "FAIL  %s  # timed out: still running after %d s of wall time "
                 "(rerun it alone to tell a hang from a starved machine) (log: %s)\n", cmd, RUN_TIMEOUT, logpath);
        /* the run's stdout and stderr into the capture file */
        fflush(stdout);
        fflush(stderr);
        if (ftruncate(cap, 0) || lseek(cap, 0, SEEK_SET) || dup2(cap, 1) < 0 || dup2(cap, 2) < 0) {
            dprintf(saved_err, "%s: %s: %s\n", tool, capture_path, strerror(errno));
            rc = 2;
            break;
        }
        tc_config cfg;
        int r = 2;
        if (tc_config_init(&cfg, keys, NKEYS))
            fprintf(stderr, "%s: out of memory\n", tool);
        else {
            tc_cli cli = {tool, "", 0, 0, list_scenarios, NULL};
            r = tc_config_cli(&cfg, &cli, argc, args);
            if (!r && (cfg.from[tc_config_find(&cfg, "runs")] || cfg.from[tc_config_find(&cfg, "run_logs")])) {
                fprintf(stderr, "%s: runs and run_logs do not apply on a line of a runs file\n", tool);
                r = 2;
            } else if (!r) {
                alarm(RUN_TIMEOUT);
                r = run_config(*base, &cfg);
                alarm(0);
            }
            tc_config_free(&cfg);
        }
        fflush(stdout);
        fflush(stderr);
        if (!r) {
            fprintf(res, "PASS  %s\n", cmd);
            continue;
        }
        /* a failure: its output kept, and why it failed on its line */
        off_t size = lseek(cap, 0, SEEK_END);
        char *grown = size >= 0 ? realloc(out, (size_t)size + 1) : NULL;
        if (!grown || pread(cap, grown, (size_t)size, 0) != size) {
            dprintf(saved_err, "%s: %s: cannot read it back\n", tool, capture_path);
            rc = 2;
            if (grown)
                out = grown;
            break;
        }
        out = grown;
        out[size] = 0;
        char why[256];
        fail_reason(out, why, sizeof why);
        FILE *lf = fopen(logpath, "w");
        if (!lf || fputs(out, lf) < 0 || fclose(lf))
            snprintf(logpath, sizeof logpath, "not written: %s", strerror(errno));
        fprintf(res, "FAIL  %s  # %s (log: %s)\n", cmd, why, logpath);
        nfail++;
    }
    dup2(saved_err, 1); /* stdout's own descriptor is result_fd's copy now */
    dup2(saved_err, 2);
    close(saved_err);
    close(cap);
    unlink(capture_path);
    free(out);
    fclose(res);
    if (in != stdin)
        fclose(in);
    return rc ? rc : nfail ? 1 : 0;
}

int main(int argc, char **argv)
{
    run_opts o;
    static tc_config cfg; /* reachable to the end: an early exit leaks nothing */
    char err[256];
    tc_params rtl_p;
    tc_dut *probe;

    setvbuf(stdout, NULL, _IOLBF, 0); /* each line out at once, also into a file or a pipe */
    memset(&o, 0, sizeof o);
    tc_params_default(&o.p);
    /* A binary with RTL compares it with the C model on the RTL's network. */
    if ((probe = tc_dut_rtl(&rtl_p, NULL, err, sizeof err))) {
        probe->ops->close(probe);
        o.use_rtl = 1;
        o.p = rtl_p;
    } else if (*err) {
        fprintf(stderr, "cosim: %s\n", err);
        return 2;
    }
    o.tool = o.use_rtl ? "cosim" : "tcsim";
    if (tc_config_init(&cfg, keys, NKEYS)) {
        fprintf(stderr, "%s: out of memory\n", o.tool);
        return 2;
    }
    tc_cli cli = {o.tool, "[--key value | --key=value | key=value ...] [--list] [--help]",
                  o.use_rtl ? (size_t)tc_config_find(&cfg, "topo") : 0, 0, list_scenarios, NULL};
    int cr = tc_config_cli(&cfg, &cli, argc, argv);
    if (cr)
        return cr == 1 ? 0 : 2;
    int runs = tc_config_find(&cfg, "runs"), logs = tc_config_find(&cfg, "run_logs"), r;
    if (!cfg.from[runs]) {
        if (cfg.from[logs]) {
            fprintf(stderr, "%s: run_logs = '%s' does not apply without runs: a single run prints its output\n", o.tool,
                    cfg.val[logs]);
            return 2;
        }
        r = run_config(o, &cfg);
    } else {
        for (size_t k = 0; k < NKEYS; k++)
            if (cfg.from[k] && (int)k != runs && (int)k != logs) {
                fprintf(stderr, "%s: %s = '%s' does not apply with runs: each line of the runs file has its own "
                        "options\n", o.tool, keys[k].key, cfg.val[k]);
                return 2;
            }
        r = run_lines(&o, argv[0], cfg.val[runs], cfg.val[logs]);
    }
    tc_config_free(&cfg);
    return r;
}
