/* The co-simulation's scoreboard (scoreboard.h): every delivery and error report of a
 * side checked against what the scenario expects, and a mismatch's report. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scoreboard.h"

void sb_error(scoreboard *sb, const char *who, const char *msg)
{
    if (sb->errors++ < 10)
        fprintf(stderr, "  %s: %s\n", who, msg);
}

/* A message that explains a loss (a report of a packet refused or a contribution
 * ignored, a packet dropped): printed whatever the cap of sb_error, and counted. */
static void sb_cause(scoreboard *sb, const char *who, const char *msg)
{
    sb->errors++;
    fprintf(stderr, "  %s: %s\n", who, msg);
}

static int experr_index(const tc_stim *st, uint32_t tag, int node, unsigned code)
{
    for (int i = 0; i < st->nexperr; i++)
        if (st->experr[i].tag == tag && (st->experr[i].node == node || st->experr[i].node < 0) &&
            (unsigned)st->experr[i].err == code)
            return i;
    return -1;
}

void sb_inject(void *ctx, int node, uint32_t tag, uint64_t cycle)
{
    side *s = ctx;
    s->progress = cycle;
    tc_evlog_add(&s->log, cycle, node, TC_EV_INJ, 0, 0, 0, tag);
    if (tag >= 1 && tag <= (uint32_t)s->sb.stim->nexp && s->sb.first_inj[tag - 1] == UINT64_MAX)
        s->sb.first_inj[tag - 1] = cycle;
}

void sb_eject(void *ctx, int node, const tc_flit *hdr, uint64_t cycle)
{
    side *s = ctx;
    if (TC_HGET(hdr, TYPE) != TC_TYPE_ERROR && TC_HGET(hdr, TYPE) != TC_TYPE_REPORT) /* not a delivery */
        tc_evlog_add(&s->log, cycle, node, TC_EV_EJ, 0, 0, 0, (uint32_t)TC_HGET(hdr, TAG));
}

void sb_deliver(void *ctx, int node, const tc_flit *f, int n, uint64_t cycle)
{
    side *s = ctx;
    scoreboard *sb = &s->sb;
    uint32_t tag = (uint32_t)TC_HGET(&f[0], TAG);
    char msg[200];
    if (TC_HGET(&f[0], TYPE) == TC_TYPE_REPORT) { /* the credit block's counters: checked at the end */
        s->cnt = realloc(s->cnt, sizeof *s->cnt * (size_t)(s->ncnt + 1));
        s->cnt[s->ncnt].node = node;
        memcpy(s->cnt[s->ncnt].f, f, sizeof s->cnt[s->ncnt].f);
        s->ncnt++;
        return;
    }
    s->progress = cycle;
    if (TC_HGET(&f[0], TYPE) == TC_TYPE_ERROR) { /* a report from the router, not a delivery */
        s->rep = realloc(s->rep, sizeof *s->rep * (size_t)(s->nrep + 1));
        s->rep[s->nrep++] = (report){cycle, node, f[0]};
        int x = experr_index(sb->stim, tag, node, TC_HGET(&f[0], OP));
        if (x >= 0 && !s->err_seen[x]++)
            s->err_in++;
        return;
    }
    tc_evlog_add(&s->log, cycle, node, TC_EV_DELIVER, 0, 0, 0, tag);
    if (tag < 1 || tag > (uint32_t)sb->stim->nexp) {
        snprintf(msg, sizeof msg, "cycle %" PRIu64 ": node %d received a packet with unknown tag %u", cycle,
                 node, tag);
        sb_error(sb, s->dut->name, msg);
        return;
    }
    uint8_t *e = &sb->expect[(size_t)(tag - 1) * (size_t)sb->topo->n + (size_t)node];
    const tc_expect *x = &sb->stim->exp[tag - 1];
    if (*e != 1) {
        snprintf(msg, sizeof msg, "cycle %" PRIu64 ": node %d received tag %u %s", cycle, node, tag,
                 *e == 2 ? "a second time (duplicate)" : "although it is not a destination");
        sb_error(sb, s->dut->name, msg);
        return;
    }
    tc_flit h = f[0], want = x->flit[0];
    if (x->src < 0) { /* a reduce result leaves from the root: SRC is not the contributors' */
        TC_HSET(&h, SRC, 0);
        TC_HSET(&want, SRC, 0);
    }
    TC_HSET(&want, POISON, (unsigned)x->poison);
    if (x->poison) { /* its length and data are the last contribution's: undefined */
        TC_HSET(&h, LEN, 0);
        TC_HSET(&want, LEN, 0);
    }
    int data_bad = !x->poison && (n != x->nflits || memcmp(f + 1, x->flit + 1, sizeof(tc_flit) * (size_t)(n - 1)));
    if (memcmp(&h, &want, sizeof h) || data_bad) {
        snprintf(msg, sizeof msg, "cycle %" PRIu64 ": node %d received tag %u with different bits", cycle,
                 node, tag);
        sb_error(sb, s->dut->name, msg);
        for (int k = 1; k < n && k < x->nflits; k++)
            fprintf(stderr, "    flit %d: got %016" PRIx64 "%016" PRIx64 " want %016" PRIx64 "%016" PRIx64 "\n", k,
                    f[k].w[1], f[k].w[0], x->flit[k].w[1], x->flit[k].w[0]);
    }
    *e = 2;
    sb->pending--;
    sb->last_del[tag - 1] = cycle;
    if (TC_HGET(&f[0], TYPE) == TC_TYPE_BARRIER) /* what was sent before it must be here */
        for (int i = 0; i < sb->stim->nexp; i++)
            if (sb->stim->exp[i].before == tag && sb->expect[(size_t)i * (size_t)sb->topo->n + (size_t)node] == 1) {
                snprintf(msg, sizeof msg, "cycle %" PRIu64 ": barrier %u completed at node %d before tag %d, sent before the barrier, arrived there",
                         cycle, tag, node, i + 1);
                sb_error(sb, s->dut->name, msg);
            }
}

/* Lemma 1 of Makagon and Syromyatnikov (2012) on the observation records: the barrier phases completed by
 * neighbours differ by at most 1. */
void sb_check_lemma1(side *s, const tc_topo *t, const uint32_t *obs, size_t ow, uint64_t cycle)
{
    int np = 2 * t->ndims;
    unsigned b = TC_OBS_PH_LSB(np, s->dut->p.red_slices) + TC_OBS_P_TOTAL_LSB;
    for (int k = 0; k < t->n; k++)
        for (int d = 0; d < np; d += 2) {
            int j = tc_neighbour(t, k, d);
            int16_t diff = (int16_t)(tc_bv_get(obs + (size_t)k * ow, b, 16) - tc_bv_get(obs + (size_t)j * ow, b, 16));
            if (diff > 1 || diff < -1) {
                char msg[160];
                snprintf(msg, sizeof msg, "cycle %" PRIu64 ": lemma 1 broken: nodes %d and %d are %d phases apart", cycle,
                         k, j, diff);
                sb_error(&s->sb, s->dut->name, msg);
            }
        }
}

void sb_pe_error(void *ctx, int node, const char *m, uint64_t cycle)
{
    side *s = ctx;
    char msg[256];
    snprintf(msg, sizeof msg, "cycle %" PRIu64 ": node %d: %s", cycle, node, m);
    sb_error(&s->sb, s->dut->name, msg);
}

int sb_len_of(void *ctx, uint32_t tag, int node, int dir)
{
    const tc_stim *st = ctx;
    if (tag < 1 || tag > (uint32_t)st->nexp)
        return 0;
    const tc_expect *e = &st->exp[tag - 1];
    if (e->poison)
        return -1; /* contributions of different lengths: no one diagram */
    if (dir == TC_LEN_INJ)
        return e->inj_nflits ? e->inj_nflits - 1 : sb_len_of(ctx, tag, node, TC_LEN_UP);
    int at_root = (dir == TC_LEN_RESULT || dir == TC_LEN_RESULT_WRITE) && node == e->root;
    if (e->up_nflits && dir == TC_LEN_RESULT_WRITE && at_root)
        return e->up_nflits - 1 + TC_CV_LAT; /* the converting copy */
    if (e->up_nflits && dir != TC_LEN_DOWN && !at_root)
        return e->up_nflits - 1; /* a converted result's contributions */
    return e->nflits - 1;
}

void sb_init(scoreboard *sb, const tc_topo *t, const tc_row *rows, const tc_stim *st)
{
    memset(sb, 0, sizeof *sb);
    sb->topo = t;
    sb->rows = rows;
    sb->stim = st;
    sb->expect = calloc((size_t)st->nexp * (size_t)t->n, 1);
    sb->first_inj = malloc(sizeof(uint64_t) * (size_t)st->nexp);
    sb->last_del = calloc((size_t)st->nexp, sizeof(uint64_t));
    for (int i = 0; i < st->nexp; i++) {
        const tc_flit *h = &st->exp[i].flit[0];
        unsigned type = TC_HGET(h, TYPE);
        int tree = (int)TC_HGET(h, TREE);
        sb->first_inj[i] = UINT64_MAX;
        if (st->exp[i].none)
            continue;
        for (int k = 0; k < t->n; k++) {
            tc_row r = TC_ROWP(rows, k, tree);
            int due = type == TC_TYPE_BARRIER  ? 1
                      : type == TC_TYPE_REDUCE ? k == (int)TC_HGET(h, DST)
                      : type == TC_TYPE_ALLREDUCE ? TC_RGET(r, VALID) && TC_RGET(r, PE)
                                                  : k != st->exp[i].src && TC_RGET(r, VALID) && TC_RGET(r, PE);
            if (due) {
                sb->expect[(size_t)i * (size_t)t->n + (size_t)k] = 1;
                sb->pending++;
            }
        }
    }
}

void sb_free(scoreboard *sb)
{
    free(sb->expect);
    free(sb->first_inj);
    free(sb->last_del);
}

/* A packet dropped for a credit violation must be one of the rogue PE's, and must
 * then reach nobody; the rogue PE must have lost at least one. */
void sb_check_drops(side *s)
{
    const tc_stim *st = s->sb.stim;
    char msg[320], un[32];
    int drops = 0, bad = 0, n = 0;
    for (size_t i = 0; i < s->log.n; i++) { /* a drop explains a loss: the first shown whatever the cap */
        const tc_event *e = &s->log.ev[i];
        if (e->kind == TC_EV_DROP && (e->tag < 1 || e->tag > (uint32_t)st->nexp ||
                                      st->exp[e->tag - 1].src != st->rogue_node || e->node != st->rogue_node) &&
            !bad++)
            n = snprintf(msg, sizeof msg, "cycle %" PRIu64 ": node %d %s dropped tag %u: credit violation", e->cycle,
                         e->node, tc_unit_name(s->dut->nports, s->dut->p.red_slices, e->idx, un, sizeof un), e->tag);
    }
    if (bad > 1 && n > 0 && (size_t)n < sizeof msg)
        snprintf(msg + n, sizeof msg - (size_t)n, " (the first of %d such drops)", bad);
    if (bad)
        sb_cause(&s->sb, s->dut->name, msg);
    for (size_t i = 0; i < s->log.n; i++) {
        const tc_event *e = &s->log.ev[i];
        if (e->kind != TC_EV_DROP)
            continue;
        if (e->tag < 1 || e->tag > (uint32_t)st->nexp || st->exp[e->tag - 1].src != st->rogue_node ||
            e->node != st->rogue_node)
            continue;
        drops++;
        for (int k = 0; k < s->sb.topo->n; k++) {
            uint8_t *x = &s->sb.expect[(size_t)(e->tag - 1) * (size_t)s->sb.topo->n + (size_t)k];
            if (*x == 2) {
                snprintf(msg, sizeof msg, "tag %u was dropped at its source yet reached node %d", e->tag, k);
                sb_error(&s->sb, s->dut->name, msg);
            }
            *x = 0;
        }
    }
    if (st->rogue_node >= 0 && drops == 0)
        sb_error(&s->sb, s->dut->name, "a PE overran its PEGroup FIFO but no packet was dropped");
}

/* The error reports the PEs received must be exactly the expected ones (a rogue PE's
 * credit violations aside), none lost but a rogue PE's (its violations may come faster
 * than reports leave). The unexpected ones are the causes of what is lost: each kind
 * (error code; reports lost) is shown by sb_cause, its first instance with the count
 * of the others, so they come before the lost packets whatever the cap. */
enum { ERR_KINDS = 1 << TC_HDR_OP_W }; /* the error codes a report's OP field holds */
void sb_check_errors(side *s, int verbose)
{
    const tc_stim *st = s->sb.stim;
    int *seen = calloc((size_t)st->nexperr + 1, sizeof(int));
    int kinds[ERR_KINDS + 1] = {0}, first[ERR_KINDS + 1], lost_kind = ERR_KINDS;
    char msg[320], un[32];
    for (int i = 0; i < s->nrep; i++) {
        const tc_flit *h = &s->rep[i].hdr;
        unsigned code = TC_HGET(h, OP), unit = TC_HGET(h, DST) & 0xff, lost = TC_HGET(h, DST) >> 8;
        uint32_t tag = (uint32_t)TC_HGET(h, TAG);
        int node = s->rep[i].node, x = experr_index(st, tag, node, code);
        int rogue = code == TC_ERR_CREDIT && node == st->rogue_node;
        if (lost && node != st->rogue_node && !kinds[lost_kind]++)
            first[lost_kind] = i;
        if (x >= 0 || rogue) {
            if (x >= 0)
                seen[x]++;
            if (verbose && x >= 0)
                printf("    expected error, reported to the PE of node %d at cycle %" PRIu64 ": %s, tag %u: %s\n", node,
                       s->rep[i].cycle, tc_unit_name(s->dut->nports, s->dut->p.red_slices, (int)unit, un, sizeof un), tag, tc_err_name(code));
            continue;
        }
        int k = code < ERR_KINDS ? (int)code : ERR_KINDS - 1;
        if (!kinds[k]++)
            first[k] = i;
    }
    for (int k = 0; k <= ERR_KINDS; k++) {
        if (!kinds[k])
            continue;
        const report *r = &s->rep[first[k]];
        unsigned code = TC_HGET(&r->hdr, OP), unit = TC_HGET(&r->hdr, DST) & 0xff;
        int n;
        if (k == lost_kind)
            n = snprintf(msg, sizeof msg, "node %d reports %u errors lost", r->node, (unsigned)(TC_HGET(&r->hdr, DST) >> 8));
        else
            n = snprintf(msg, sizeof msg, "cycle %" PRIu64 ": node %d reports %s, tag %u: %s", r->cycle, r->node,
                         tc_unit_name(s->dut->nports, s->dut->p.red_slices, (int)unit, un, sizeof un), (unsigned)TC_HGET(&r->hdr, TAG),
                         tc_err_name(code));
        if (kinds[k] > 1 && n > 0 && (size_t)n < sizeof msg)
            snprintf(msg + n, sizeof msg - (size_t)n, " (the first of %d such reports)", kinds[k]);
        sb_cause(&s->sb, s->dut->name, msg);
    }
    for (int x = 0; x < st->nexperr; x++)
        if (st->experr[x].node >= 0 ? seen[x] != 1 : seen[x] < 1) {
            char at[32];
            snprintf(at, sizeof at, st->experr[x].node >= 0 ? "node %d" : "any node", st->experr[x].node);
            snprintf(msg, sizeof msg, "tag %u: error '%s' expected at %s, reported %d times", st->experr[x].tag,
                     tc_err_name((unsigned)st->experr[x].err), at, seen[x]);
            sb_error(&s->sb, s->dut->name, msg);
        }
    free(seen);
}

/* Every counter of a periodic report equals the reduces the node completed on that
 * tree before the report was made (its header entered the report buffer). */
/* A report's tag (TC_TAG_REPORT | node << 12 | sequence). */
int sb_is_report_tag(uint32_t tag) { return (tag & (TC_TAG_CREDIT | TC_TAG_REPORT | TC_TAG_PHASE)) == TC_TAG_REPORT; }

/* A span of cycles [from, to) in which a node's report buffer could take a report. */
struct report_span {
    uint64_t from, to;
    int node;
};
/* The cycles of [a, b) within the spans sp[0..n) (in cycle order). */
static uint64_t span_open(const struct report_span *sp, size_t n, uint64_t a, uint64_t b)
{
    uint64_t sum = 0;
    for (size_t k = 0; k < n && sp[k].from < b; k++) {
        uint64_t lo = sp[k].from > a ? sp[k].from : a, hi = sp[k].to < b ? sp[k].to : b;
        sum += hi > lo ? hi - lo : 0;
    }
    return sum;
}

/* The credit block's reports: each one's counters are the reduces completed at its
 * node up to the cycle it was made; and the timer makes one due every 4096 cycles
 * from reset (table writes included), written as soon as the report buffer can take
 * it: it has room, and holds no report not yet routed (one at a time: a due report
 * waits and merges with the next). So a window of 4096 cycles without a report made
 * is an error unless the report buffer could not take one for all but SLACK of its
 * cycles (the other duties' turns, at most 19, and a report's data flits). */
#define REPORT_SLACK 24
void sb_check_counters(side *s, uint64_t cfg_cycles, uint64_t run_cycles, int slots)
{
    char msg[200];
    int n = s->sb.topo->n, np = 2 * s->sb.topo->ndims, ur = TC_U_REPORT(np, s->dut->p.red_slices), by_results = 0;
    uint64_t nt = run_cycles / TC_REPORT_CYCLES + 2;
    uint8_t *timer = calloc((size_t)n * nt, 1);
    uint32_t *open = calloc((size_t)n * nt, sizeof *open); /* per window: cycles the report buffer could take one */
    /* The report buffers' state through the run, from their events (in cycle order):
     * packets held, and whether a report not yet routed is among them; the spans in
     * which it could take a report, per node in cycle order (span[sfirst[node]..]). */
    int *held = calloc((size_t)n, sizeof *held);
    uint8_t *unrouted = calloc((size_t)n, 1);
    uint64_t *since = calloc((size_t)n, sizeof *since); /* the cycle the state last changed */
    struct report_span *span = NULL;
    size_t nspan = 0, cspan = 0;
    for (size_t e = 0; e <= s->log.n; e++) {
        const tc_event *v = e < s->log.n ? &s->log.ev[e] : NULL;
        if (v && (v->idx != ur || (v->kind != TC_EV_ARRIVE && v->kind != TC_EV_ROUTE && v->kind != TC_EV_FREE)))
            continue;
        for (int node = 0; node < n; node++) { /* the spans up to this event (or the run's end) */
            if (v && v->node != node)
                continue;
            uint64_t to = v ? v->cycle : run_cycles;
            if (!unrouted[node] && held[node] < slots && since[node] < to) {
                if (nspan == cspan) {
                    cspan = cspan ? 2 * cspan : 1024;
                    struct report_span *g = realloc(span, cspan * sizeof *span);
                    if (!g)
                        abort(); /* out of memory */
                    span = g;
                }
                span[nspan++] = (struct report_span){since[node], to, node};
            }
            for (uint64_t c = since[node]; !unrouted[node] && held[node] < slots && c < to;) {
                uint64_t k = (c + cfg_cycles) / TC_REPORT_CYCLES, end = (k + 1) * TC_REPORT_CYCLES - cfg_cycles;
                end = end < to ? end : to;
                if (k < nt)
                    open[(size_t)node * nt + k] += (uint32_t)(end - c);
                c = end;
            }
            since[node] = to;
        }
        if (!v)
            break;
        if (v->kind == TC_EV_ARRIVE) { /* a report made (delivered to the PE or not by the run's end) */
            uint64_t k = (v->cycle + cfg_cycles) / TC_REPORT_CYCLES;
            if (sb_is_report_tag(v->tag) && k < nt)
                timer[(size_t)v->node * nt + k] = 1;
            held[v->node]++;
            unrouted[v->node] |= sb_is_report_tag(v->tag);
        } else if (v->kind == TC_EV_ROUTE && sb_is_report_tag(v->tag)) {
            unrouted[v->node] = 0;
        } else if (v->kind == TC_EV_FREE) {
            held[v->node]--;
        }
    }
    size_t *sfirst = calloc((size_t)n + 1, sizeof *sfirst);
    struct report_span *by_node = malloc(sizeof *by_node * (nspan + 1));
    for (size_t k = 0; k < nspan; k++)
        sfirst[span[k].node + 1]++;
    for (int node = 0; node < n; node++)
        sfirst[node + 1] += sfirst[node];
    size_t *sfill = malloc(sizeof *sfill * ((size_t)n + 1));
    memcpy(sfill, sfirst, sizeof *sfill * ((size_t)n + 1));
    for (size_t k = 0; k < nspan; k++)
        by_node[sfill[span[k].node]++] = span[k];
    /* The log read once (not once per report and tree: many_reduces and fsum_stripe
     * make hundreds of reports over logs of a million events): each node's completed
     * reduces in log order, with their trees, and where each report was made (its
     * first ARRIVE), per node in log order (made_at[mfirst[node]..]). */
    size_t *ndone = calloc((size_t)n + 1, sizeof *ndone), *mfirst = calloc((size_t)n + 1, sizeof *mfirst);
    for (size_t k = 0; k < s->log.n; k++) {
        const tc_event *e = &s->log.ev[k];
        if (e->kind == TC_EV_REDUCE && (e->idx & 2))
            ndone[e->node + 1]++;
        if (e->kind == TC_EV_ARRIVE && sb_is_report_tag(e->tag))
            mfirst[e->node + 1]++;
    }
    for (int node = 0; node < n; node++) { /* ndone[node]: the node's first entry in done */
        ndone[node + 1] += ndone[node];
        mfirst[node + 1] += mfirst[node];
    }
    struct done {
        uint64_t cycle;
        int tree;
    } *done = malloc(sizeof *done * (ndone[n] + 1));
    struct made {
        uint64_t cycle;
        uint32_t tag;
    } *made_at = malloc(sizeof *made_at * (mfirst[n] + 1));
    size_t *fill = malloc(sizeof *fill * ((size_t)n + 1)), *mfill = malloc(sizeof *mfill * ((size_t)n + 1));
    memcpy(fill, ndone, sizeof *fill * ((size_t)n + 1));
    memcpy(mfill, mfirst, sizeof *mfill * ((size_t)n + 1));
    for (size_t k = 0; k < s->log.n; k++) {
        const tc_event *e = &s->log.ev[k];
        if (e->kind == TC_EV_REDUCE && (e->idx & 2))
            done[fill[e->node]++] = (struct done){e->cycle, (int)TC_HGET(&s->sb.stim->exp[e->tag - 1].flit[0], TREE)};
        else if (e->kind == TC_EV_ARRIVE && sb_is_report_tag(e->tag))
            made_at[mfill[e->node]++] = (struct made){e->cycle, e->tag};
    }
    /* The results' trigger: after a node's 128th, 256th, ... result a report is made as
     * soon as its report buffer can take one, within REPORT_SLACK of the buffer's open
     * cycles and before the timer's next window. Checked wherever the buffer is open
     * longer than that before the window ends (with one PE credit and long latencies
     * it may stay full for many windows); where no report of the timer was due at the
     * result (one made since the window began), the report can only be the results'
     * (by_results: many_reduces must have one, where any result could be checked). */
    int eligible = 0;
    for (int node = 0; node < n; node++)
        for (size_t k = ndone[node], results = 0; k < ndone[node + 1]; k++) {
            if (++results % TC_REPORT_RESULTS)
                continue;
            uint64_t dc = done[k].cycle, made = UINT64_MAX, before = UINT64_MAX;
            for (size_t j = mfirst[node]; j < mfirst[node + 1] && made == UINT64_MAX; j++)
                if (made_at[j].cycle > dc)
                    made = made_at[j].cycle;
                else
                    before = made_at[j].cycle;
            uint64_t w0 = (dc + cfg_cycles) / TC_REPORT_CYCLES * TC_REPORT_CYCLES;
            uint64_t wend = w0 + TC_REPORT_CYCLES - cfg_cycles, last = wend < run_cycles ? wend : run_cycles;
            if (span_open(by_node + sfirst[node], sfirst[node + 1] - sfirst[node], dc, last) <= REPORT_SLACK)
                continue; /* the buffer could not take a report before the window's end */
            eligible++;
            if (made >= wend || span_open(by_node + sfirst[node], sfirst[node + 1] - sfirst[node], dc, made) > REPORT_SLACK) {
                snprintf(msg, sizeof msg, "node %d made no report after its result %zu (cycle %" PRIu64
                         ") as soon as its report buffer could take one", node, results, dc);
                sb_error(&s->sb, s->dut->name, msg);
            } else if (w0 <= cfg_cycles || (before != UINT64_MAX && before + cfg_cycles >= w0))
                by_results++;
        }
    for (int i = 0; i < s->ncnt; i++) {
        uint32_t tag = (uint32_t)TC_HGET(&s->cnt[i].f[0], TAG);
        int node = s->cnt[i].node;
        uint64_t made = UINT64_MAX;
        for (size_t k = mfirst[node]; k < mfirst[node + 1] && made == UINT64_MAX; k++)
            if (made_at[k].tag == tag)
                made = made_at[k].cycle;
        unsigned want[TC_TREES] = {0};
        for (size_t k = ndone[node]; k < ndone[node + 1]; k++)
            want[done[k].tree] += done[k].cycle < made;
        for (int t = 0; t < TC_TREES; t++) {
            unsigned got = (unsigned)((s->cnt[i].f[1 + t / 8].w[(t % 8) / 4] >> (16 * (t % 4))) & 0xffff);
            if (got != (want[t] & 0xffff)) {
                snprintf(msg, sizeof msg, "node %d report %08x: tree %d counts %u reduces, %u were completed", node,
                         tag, t, got, want[t]);
                sb_error(&s->sb, s->dut->name, msg);
            }
        }
    }
    free(ndone), free(done), free(made_at), free(fill), free(mfirst), free(mfill);
    free(span), free(sfirst), free(sfill), free(by_node);
    for (int node = 0; node < n; node++)
        for (uint64_t k = cfg_cycles / TC_REPORT_CYCLES + 1; (k + 1) * TC_REPORT_CYCLES <= cfg_cycles + run_cycles;
             k++)
            if (!timer[(size_t)node * nt + k] && open[(size_t)node * nt + k] > REPORT_SLACK) {
                snprintf(msg, sizeof msg, "node %d sent no report in cycles %" PRIu64 "..%" PRIu64
                         ", though its report buffer could take one for %u of them", node,
                         k * TC_REPORT_CYCLES - cfg_cycles, (k + 1) * TC_REPORT_CYCLES - cfg_cycles - 1,
                         open[(size_t)node * nt + k]);
                sb_error(&s->sb, s->dut->name, msg);
                break;
            }
    if (!strcmp(s->sb.stim->name, "many_reduces") && eligible && !by_results)
        sb_error(&s->sb, s->dut->name, "no report right after a node's 128th result");
    free(timer), free(open), free(held), free(unrouted), free(since);
}

/* Prints both sides' events of one tag up to cycle, side by side. */
static void print_side_by_side(side *sd, int nd, uint32_t tag, uint64_t cycle)
{
    char line[2][160];
    size_t i[2] = {0, 0};
    int np = sd[0].dut->nports, ns = sd[0].dut->p.red_slices;
    fprintf(stderr, "  timing diagram of tag %u up to cycle %" PRIu64 ":\n  %-74s | %s\n", tag, cycle,
            sd[0].dut->name, nd > 1 ? sd[1].dut->name : "");
    for (;;) {
        int any = 0;
        for (int d = 0; d < 2; d++) {
            line[d][0] = 0;
            if (d >= nd)
                continue;
            while (i[d] < sd[d].log.n && sd[d].log.ev[i[d]].tag != tag)
                i[d]++;
            if (i[d] < sd[d].log.n && sd[d].log.ev[i[d]].cycle <= cycle) {
                char *buf = NULL;
                size_t len = 0;
                FILE *m = open_memstream(&buf, &len);
                tc_event_print(m, np, ns, &sd[d].log.ev[i[d]]);
                fclose(m);
                buf[len ? len - 1 : 0] = 0;
                snprintf(line[d], sizeof line[d], "%s", buf);
                free(buf);
                i[d]++;
                any = 1;
            }
        }
        if (!any)
            break;
        fprintf(stderr, "  %-74s | %s\n", line[0], line[1]);
    }
}

void sb_report_obs_mismatch(side *sd, int nd, int node, uint64_t cycle)
{
    tc_evlog l[2];
    size_t w = (size_t)TC_OBS_WORDS(sd[0].dut->nports, sd[0].dut->p.red_slices);
    fprintf(stderr, "  MISMATCH at cycle %" PRIu64 ", node %d: observation records differ\n", cycle, node);
    for (int d = 0; d < nd; d++) {
        tc_evlog_init(&l[d], sd[d].dut->nodes, sd[d].dut->nports, sd[d].dut->p.red_slices);
        memcpy(l[d].head_tag, sd[d].log.head_tag, sizeof(uint32_t) * (size_t)sd[d].dut->nodes *
                                                       (size_t)TC_NUNITS(sd[d].dut->nports, sd[d].dut->p.red_slices));
        tc_evlog_decode(&l[d], cycle, node, sd[d].obs + (size_t)node * w);
        fprintf(stderr, "  %s events this cycle:\n", sd[d].dut->name);
        for (size_t i = 0; i < l[d].n; i++) {
            fprintf(stderr, "    ");
            tc_event_print(stderr, sd[d].dut->nports, sd[d].dut->p.red_slices, &l[d].ev[i]);
        }
    }
    uint32_t shown[16];
    int nshown = 0;
    for (int d = 0; d < nd; d++) {
        for (size_t i = 0; i < l[d].n; i++) {
            int seen = !l[d].ev[i].tag;
            for (int k = 0; k < nshown; k++)
                seen |= shown[k] == l[d].ev[i].tag;
            if (seen || nshown == 16)
                continue;
            shown[nshown++] = l[d].ev[i].tag;
            print_side_by_side(sd, nd, l[d].ev[i].tag, cycle);
        }
        tc_evlog_free(&l[d]);
    }
    fprintf(stderr, "  cycle window: %" PRIu64 "..%" PRIu64 "\n", cycle > 50 ? cycle - 50 : 0, cycle);
}

