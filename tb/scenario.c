#include "scenario.h"

#include "../cmodel/alu.h"
#include "../cmodel/fpsum.h"
#include "../cmodel/netsim/plan.h"
#include "../cmodel/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tc_scenario_names[] = {"bcast_root", "bcast_leaf",   "stream",    "transit",   "all_trees",
                                         "back_to_back", "backpressure", "bad_input", "credit_violation", "allreduce",
                                         "reduce_dst", "reduce_ops", "fsum", "fsum_stripe", "bad_reduce", "credits",
                                         "many_reduces", "random", "barrier", "barrier_full", "barrier_b2b",
                                         "barrier_traffic", "bad_barrier", "tree_barrier", "soak", NULL};
const char *const tc_scenario_descs[] = {
    "one broadcast from tree 0's root: a lone packet against the reference timing",
    "one broadcast from the node farthest from tree 0's root",
    "64 KiB from tree 0's root in packets of 7 data flits, back to back",
    "broadcasts through transit nodes on sparse trees (15, 8-11)",
    "broadcasts on all 16 trees",
    "32 broadcasts back to back",
    "back_to_back with a third of the PEs stalled: the credits hold the senders",
    "malformed packets refused with error reports, and the network goes on",
    "a rogue PE that ignores its injection credits",
    "one allreduce on tree 0",
    "reduces to a destination node, on a sparse tree with transit nodes",
    "the reduce operations and lane widths",
    "floating-point sums of values from the seed",
    "long floating-point allreduces striped over the 16 trees, red_rids ReduceIds in flight a tree",
    "contributions that disagree, a ReduceId used again in flight: poisoned results and reports",
    "a root's PE that contributes late: results held by the credits",
    "16 trees x red_rids ReduceIds in flight at once: 256 reduces at the default",
    "random broadcasts, reduces and a barrier from the seed",
    "a half barrier, every node entering at once",
    "a full barrier (2K phases), nodes entering at random cycles",
    "four barriers back to back",
    "a barrier with broadcasts in flight before and after it",
    "refused barrier requests (K = 0, K too large, an unknown mode), then a barrier that works",
    "the barrier as an allreduce without data on tree 0",
    "the soak's random mix of every operation, from the seed",
    NULL};

int tc_scenario_default_table_only(const char *name)
{
    static const char *const only[] = {"bcast_root",       "bcast_leaf", "stream",      "transit",         "bad_input",
                                       "credit_violation", "bad_reduce", "barrier_b2b", "barrier_traffic", NULL};
    for (int k = 0; only[k]; k++)
        if (!strcmp(name, only[k]))
            return 1;
    return 0;
}

const char *tc_scenario_refuse(const char *name, const tc_topo *t, const tc_params *p, char *buf, size_t len)
{
    if (t->n < 2 && !strcmp(name, "bad_reduce"))
        return "needs two nodes (a contribution that disagrees with another's, a second contribution to a ReduceId "
               "still in flight: on one node each completes its reduce alone)";
    if (t->n < 2 && !strcmp(name, "credit_violation"))
        return "needs two nodes: the rogue PE overruns the buffers on the way to another PE";
    if (p->red_flits < 2) { /* the scenarios' reduces carry up to 2 data flits, but soak's and random's */
        tc_row *rows = calloc((size_t)t->n * TC_TREES, sizeof *rows);
        tc_stim st;
        const char *why = NULL;
        if (!rows || tc_plan_table(t, rows, &(tc_plan){.variant = TC_PLAN_TESTBENCH})) {
            free(rows);
            return "out of memory";
        }
        if (!tc_scenario_build(name, t, rows, 1, p, &st)) {
            why = tc_stim_too_long(&st, p->red_flits, buf, len);
            tc_stim_free(&st);
        }
        free(rows);
        return why;
    }
    return NULL;
}


/* Hops from the farthest member of the tree to its root. */
static int tree_height(const tc_topo *t, const tc_row *rows, int tree)
{
    int height = 0;
    for (int node = 0; node < t->n; node++) {
        int hops = 0;
        if (!TC_RGET(TC_ROWP(rows, node, tree), VALID))
            continue;
        for (int m = node; !TC_RGET(TC_ROWP(rows, m, tree), ROOT); hops++)
            m = tc_neighbour(t, m, (int)TC_RGET(TC_ROWP(rows, m, tree), TOROOT));
        height = hops > height ? hops : height;
    }
    return height;
}


void tc_make_bcast(tc_pkt *p, int node, int tree, int len, uint32_t tag, uint64_t cycle)
{
    memset(p, 0, sizeof *p);
    p->cycle = cycle;
    p->node = node;
    p->nflits = len + 1;
    TC_HSET(&p->flit[0], TYPE, TC_TYPE_BCAST);
    TC_HSET(&p->flit[0], TREE, (unsigned)tree);
    TC_HSET(&p->flit[0], LEN, (unsigned)len);
    TC_HSET(&p->flit[0], SRC, (unsigned)node);
    TC_HSET(&p->flit[0], TAG, tag);
    for (int k = 1; k <= len; k++) {
        p->flit[k].w[0] = tc_plan_mix((uint64_t)tag * 16 + (uint64_t)k);
        p->flit[k].w[1] = tc_plan_mix(~((uint64_t)tag * 16 + (uint64_t)k));
    }
}

/* Room for element n of an array *a of *cap elements of size sz, doubling it: growing
 * by one is quadratic under ASan, whose realloc always copies (fsum_stripe has 16,000
 * packets on 4x4x4). */
static void *room(void *a, int n, int *cap, size_t sz)
{
    if (n < *cap)
        return a;
    *cap = *cap ? 2 * *cap : 64;
    if (!(a = realloc(a, sz * (size_t)*cap))) {
        fprintf(stderr, "scenario: out of memory for %d entries\n", *cap);
        abort();
    }
    return a;
}

static tc_pkt *add_pkt(tc_stim *s)
{
    s->pkt = room(s->pkt, s->npkt, &s->pkt_cap, sizeof *s->pkt);
    return &s->pkt[s->npkt++];
}

static tc_expect *add_exp(tc_stim *s)
{
    s->exp = room(s->exp, s->nexp, &s->exp_cap, sizeof *s->exp);
    memset(&s->exp[s->nexp], 0, sizeof *s->exp);
    return &s->exp[s->nexp++];
}

/* A broadcast packet, and what its receivers must get: the packet itself. */
static tc_pkt *add(tc_stim *s)
{
    tc_pkt *p = add_pkt(s);
    add_exp(s);
    return p;
}

static void seal(tc_stim *s)
{
    for (int i = 0; i < s->npkt; i++) {
        uint32_t tag = (uint32_t)TC_HGET(&s->pkt[i].flit[0], TAG);
        unsigned type = TC_HGET(&s->pkt[i].flit[0], TYPE);
        if (type != TC_TYPE_REDUCE && type != TC_TYPE_ALLREDUCE && type != TC_TYPE_BARRIER && tag >= 1 &&
            (int)tag <= s->nexp) {
            tc_expect *e = &s->exp[tag - 1];
            e->nflits = s->pkt[i].nflits;
            memcpy(e->flit, s->pkt[i].flit, sizeof e->flit);
            e->src = s->pkt[i].node;
        }
    }
}

/* Packet p as a floating-point sum of IEEE values (VALS), len / 2 of them, value j
 * tc_fpsum_value(dist, lane, seed, p's node, x0 + 2j) in lane j mod vpf of flit
 * 1 + j / vpf (vpf values a flit: 2 binary64, 4 binary32). */
static void set_values(tc_pkt *p, int lane, int len, unsigned dist, uint64_t seed, uint64_t x0)
{
    unsigned vpf = tc_fpsum_values_per_flit((unsigned)lane);
    TC_HSET(&p->flit[0], VALS, 1);
    memset(&p->flit[1], 0, sizeof p->flit[1] * (size_t)len);
    for (int j = 0; j < len / 2; j++)
        tc_lane_put(&p->flit[1 + j / vpf], 128 / vpf, (unsigned)j % vpf,
                    tc_fpsum_value(dist, (unsigned)lane, seed, (uint64_t)p->node, x0 + 2 * (uint64_t)j));
    p->nflits = 1 + (int)tc_wire_len(&p->flit[0]);
}

/* A contribution's data as the Reducer combines them: its flits, or for one of
 * values (VALS) their elements, made into el. */
static const tc_flit *contribution_data(const tc_pkt *p, tc_flit *el)
{
    const tc_flit *h = &p->flit[0];
    if (!TC_HGET(h, VALS) || TC_HGET(h, OP) != TC_OP_FSUM)
        return &p->flit[1];
    tc_fpsum_elements(TC_HGET(h, LANE), TC_HGET(h, LEN), &p->flit[1], el);
    return el;
}

/* The result every PE of reduce tag must get: the C combination of its contributions,
 * the packets from first on with its tag (the first contribution's header). */
static void reduce_expect(tc_stim *s, const tc_topo *t, const tc_row *rows, uint32_t tag, int first)
{
    tc_expect *e = &s->exp[tag - 1];
    int n = 0;
    for (int i = first; i < s->npkt; i++) {
        const tc_pkt *p = &s->pkt[i];
        const tc_flit *h = &p->flit[0];
        if (TC_HGET(h, TAG) != tag)
            continue;
        tc_flit el[TC_SLOT_FLITS];
        const tc_flit *d = contribution_data(p, el);
        if (TC_HGET(h, VALS))
            e->inj_nflits = p->nflits;
        if (n++ == 0) {
            e->nflits = 1 + (int)TC_HGET(h, LEN);
            e->flit[0] = *h;
            TC_HSET(&e->flit[0], VALS, 0); /* the Reducer sends elements up */
            memcpy(&e->flit[1], d, sizeof *d * TC_HGET(h, LEN));
        } else {
            tc_alu_data(&e->flit[1], d, TC_HGET(h, LEN), TC_HGET(h, OP), TC_HGET(h, LANE));
        }
    }
    const tc_flit *h = &e->flit[0];
    if (n && TC_HGET(h, OP) == TC_OP_FSUM && TC_HGET(h, LEN)) { /* the root converts the elements to values */
        tc_flit el[TC_SLOT_FLITS];
        e->up_nflits = e->nflits;
        e->root = tc_tree_root(t, rows, (int)TC_HGET(h, TREE));
        memcpy(el, &e->flit[1], sizeof el[0] * TC_HGET(h, LEN));
        unsigned len = tc_fpsum_values(TC_HGET(h, LANE), TC_HGET(h, LEN), el, &e->flit[1]);
        TC_HSET(&e->flit[0], LEN, len);
        e->nflits = (int)len + 1;
    }
}

uint32_t tc_add_reduce(tc_stim *s, const tc_topo *t, const tc_row *rows, int type, int tree, int op, int lane,
                       int len, int dst, uint64_t cycle, uint64_t seed)
{
    tc_expect *e = add_exp(s);
    uint32_t tag = (uint32_t)s->nexp;
    int first = s->npkt;
    e->src = -1;
    if (op == TC_OP_FSUM) /* whole elements, two flits each: an odd length is taken one flit shorter */
        len &= ~1;
    /* every other floating-point sum: the PEs send values, whose elements the Reducer
     * makes; the others any elements (the step's algebra holds for any bits) */
    int vals = op == TC_OP_FSUM && len && tag % 2 == 0;
    for (int k = 0; k < t->n; k++) {
        tc_row r = TC_ROWP(rows, k, tree);
        if (!TC_RGET(r, VALID) || !TC_RGET(r, PE))
            continue;
        tc_pkt *p = add_pkt(s);
        tc_make_bcast(p, k, tree, len, tag, cycle);
        TC_HSET(&p->flit[0], TYPE, (unsigned)type);
        TC_HSET(&p->flit[0], OP, (unsigned)op);
        TC_HSET(&p->flit[0], LANE, (unsigned)lane);
        TC_HSET(&p->flit[0], DST, (unsigned)dst);
        if (vals) {
            set_values(p, lane, len, (unsigned)(seed % TC_FPS_DISTS), seed, 1);
            continue;
        }
        for (int f = 1; f <= len; f++) { /* small values, boundary values, and index lanes */
            uint64_t r0 = tc_plan_mix(seed * 977 + (uint64_t)k * 31 + (uint64_t)f), r1 = tc_plan_mix(r0);
            p->flit[f].w[0] = (r0 & 3) == 0 ? r0 % 7 : (r0 & 3) == 1 ? ~0ull - r0 % 5 : r0;
            p->flit[f].w[1] = (r1 & 3) == 0 ? (uint64_t)k : r1;
            if (op == TC_OP_MINLOC || op == TC_OP_MAXLOC) /* values collide: ties by index */
                p->flit[f].w[0] = lane == TC_LANE_64 ? r0 % 3 : (r0 % 3) | (uint64_t)k << 32;
            if (op == TC_OP_FSUM && f % 2) /* elements of values of every distribution */
                tc_fpsum_in((unsigned)lane,
                            tc_fpsum_value((unsigned)(seed % TC_FPS_DISTS), (unsigned)lane, seed, (uint64_t)k,
                                           (uint64_t)f),
                            &p->flit[f]);
        }
    }
    reduce_expect(s, t, rows, tag, first);
    return tag;
}

static tc_pkt *barrier_request(tc_stim *s, int node, int mode, int k, uint32_t tag, uint64_t cycle)
{
    tc_pkt *p = add_pkt(s);
    memset(p, 0, sizeof *p);
    p->cycle = cycle;
    p->node = node;
    p->nflits = 1;
    TC_HSET(&p->flit[0], TYPE, TC_TYPE_BARRIER);
    TC_HSET(&p->flit[0], OP, (unsigned)mode);
    TC_HSET(&p->flit[0], DST, (unsigned)k);
    TC_HSET(&p->flit[0], SRC, (unsigned)node);
    TC_HSET(&p->flit[0], TAG, tag);
    return p;
}

uint32_t tc_add_barrier(tc_stim *s, const tc_topo *t, int mode, int k, const uint64_t *cycle, uint64_t at,
                        uint32_t after)
{
    tc_expect *e = add_exp(s);
    uint32_t tag = (uint32_t)s->nexp;
    int kk = mode & TC_BAR_DIAM ? tc_diameter(t) : k;
    e->src = -1; /* the completion leaves every router with its own SRC */
    e->nflits = 1;
    TC_HSET(&e->flit[0], TYPE, TC_TYPE_BARRIER);
    TC_HSET(&e->flit[0], OP, (unsigned)mode);
    TC_HSET(&e->flit[0], DST, (unsigned)(mode & TC_BAR_FULL ? 2 * kk : kk));
    TC_HSET(&e->flit[0], TAG, tag);
    for (int n = 0; n < t->n; n++)
        barrier_request(s, n, mode, k, tag, cycle ? cycle[n] : at)->after = after;
    return tag;
}

/* The index of the packet node sends with tag (its contribution to a reduce), or -1. */
static int contribution_at(const tc_stim *s, int node, uint32_t tag)
{
    for (int i = 0; i < s->npkt; i++)
        if (s->pkt[i].node == node && TC_HGET(&s->pkt[i].flit[0], TAG) == tag)
            return i;
    return -1;
}

/* The packet node sends with tag, or NULL. */
static tc_pkt *contribution(tc_stim *s, int node, uint32_t tag)
{
    int i = contribution_at(s, node, tag);
    return i < 0 ? NULL : &s->pkt[i];
}

/* A copy of packet i, put just before it in the array, so in its PE's order (a PE
 * injects its packets in array order); returns the copy (i + 1 is the original). */
static tc_pkt *copy_before(tc_stim *s, int i)
{
    add_pkt(s);
    memmove(&s->pkt[i + 1], &s->pkt[i], sizeof *s->pkt * (size_t)(s->npkt - 1 - i));
    return &s->pkt[i];
}

static void expect_err(tc_stim *s, uint32_t tag, int node, int err)
{
    s->experr = realloc(s->experr, sizeof *s->experr * (size_t)(s->nexperr + 1));
    s->experr[s->nexperr++] = (tc_experr){tag, node, err};
}

/* A packet the router drops at its source with err, reported to that node's PE. */
static void expect_drop(tc_stim *s, uint32_t tag, int node, int err)
{
    expect_err(s, tag, node, err);
    s->exp[tag - 1].none = 1;
}

/* A random node whose PE takes part in tree (the testbench table gives every tree one). */
static int member(const tc_topo *t, const tc_row *rows, int tree, uint64_t *rng)
{
    int start = (int)(tc_plan_mix((*rng)++) % (uint64_t)t->n);
    for (int i = 0; i < t->n; i++) {
        int k = (start + i) % t->n;
        if (TC_RGET(TC_ROWP(rows, k, tree), VALID) && TC_RGET(TC_ROWP(rows, k, tree), PE))
            return k;
    }
    return tc_plan_root(t, tree);
}

/* The soak's random mix (scenario "soak"; sim/soak.sh runs it over seeds, tori and
 * random tables). Every expectation is one the design must meet whatever the timing,
 * and the PEs keep the contract of docs/deadlock.md:
 * - reduces and allreduces on 2-6 trees, every op and lane width, 0..2 data flits,
 *   ReduceIds in order per tree (use j has ReduceId j % 16); use j >= 16 reuses the
 *   ReduceId of use j - 16, which is always an allreduce, and each PE sends its
 *   contribution to use j only once it has received the result of use j - 16
 *   (after_rx): then that reduce is complete at every node, and the children's
 *   results wait only for the credit block's credits (at most 32 uses a tree);
 * - a tree barrier (an allreduce without data, op AND) on a tree with every PE;
 * - one or two multiphase barriers of random modes, the second entered by each PE
 *   after the first completed there (a request while one runs would be refused);
 * - every PE enters these collectives in one order (their cycles before jitter);
 * - broadcasts of 0..7 data flits on any tree;
 * - a few malformed packets, each dropped at its source and reported: bad type,
 *   bad source, a tree not configured at the node, a transit node's packet, a
 *   barrier request with K = 0 or an unknown mode, and on a third of the trees a
 *   reduce contribution with an unknown op, lane width or a length beyond RedFlits,
 *   which its PE follows with the valid one;
 * - PE ejection stalls on about a third of the nodes.
 * Each PE's packets are sorted by cycle; whatever a packet waits for (a result, a
 * barrier) comes earlier in every PE's order, so the stimulus itself cannot hang. */
static void pkt_sort(tc_stim *s)
{
    tc_pkt *p = malloc(sizeof *p * (size_t)s->npkt);
    int *idx = malloc(sizeof(int) * (size_t)s->npkt);
    for (int i = 0; i < s->npkt; i++)
        idx[i] = i;
    for (int i = 1; i < s->npkt; i++) { /* insertion sort on (cycle, index): stable */
        int x = idx[i], j = i;
        for (; j > 0 && s->pkt[idx[j - 1]].cycle > s->pkt[x].cycle; j--)
            idx[j] = idx[j - 1];
        idx[j] = x;
    }
    for (int i = 0; i < s->npkt; i++)
        p[i] = s->pkt[idx[i]];
    free(s->pkt);
    free(idx);
    s->pkt = p;
    s->pkt_cap = s->npkt;
}

/* A node's refused packets, paced by their error reports: the router keeps TC_ERRQ
 * reports waiting for a PE and counts more as lost, so the PE sends its
 * (TC_ERRQ + 1)-th refused packet only once it has the report of the first. The soak
 * scenario needs it: it draws its refused packets, several from one node on a small
 * torus, and the soak draws PEs that take one packet per ejection round trip. The
 * written scenarios place theirs (bad_barrier's fifth must come while a barrier
 * runs, which waiting for a report would spoil on a 1-node torus). */
static void pace_errors(tc_stim *s, int nodes)
{
    int *at = malloc(sizeof(int) * (size_t)(s->nexp + 1)); /* per tag: the node it is refused at, or -1 */
    uint32_t *last = calloc((size_t)nodes * TC_ERRQ, sizeof *last); /* per node: its last TC_ERRQ refused tags */
    int *n = calloc((size_t)nodes, sizeof(int));
    if (!at || !last || !n) {
        fprintf(stderr, "scenario soak: out of memory pacing %d packets\n", s->npkt);
        abort();
    }
    for (int g = 0; g < s->nexp; g++)
        at[g] = -1;
    for (int e = 0; e < s->nexperr; e++)
        if (s->experr[e].node >= 0 && s->exp[s->experr[e].tag - 1].none)
            at[s->experr[e].tag - 1] = s->experr[e].node;
    for (int i = 0; i < s->npkt; i++) { /* in array order: each PE's order */
        tc_pkt *p = &s->pkt[i];
        uint32_t tag = (uint32_t)TC_HGET(&p->flit[0], TAG);
        if (tag < 1 || (int)tag > s->nexp || at[tag - 1] != p->node)
            continue;
        uint32_t *slot = &last[(size_t)p->node * TC_ERRQ + (size_t)(n[p->node]++ % TC_ERRQ)];
        p->after_err = *slot;
        *slot = tag;
    }
    free(at);
    free(last);
    free(n);
}

static int rnd(uint64_t *rng, int n) { return (int)(tc_plan_mix((*rng)++) % (uint64_t)n); }

/* The ReduceIds (the PEs' contract, docs/deadlock.md): the reduces of a tree use
 * them in turn, the n-th reduce of the tree (counted from reset, reduces and
 * allreduces alike) ReduceId n mod nr (red_rids), at every PE. A PE injects its packets in
 * the order of the array, so every Pe node of a tree must hold the tree's reduces
 * in one order, each once: a scenario that does not cannot keep the contract, and
 * stops here. A packet with rid_of (a contribution of its own tag that the router
 * refuses or ignores) takes that reduce's ReduceId plus rid_skip; a packet from a
 * node outside the tree keeps its ReduceId (it is refused at injection). */
static void assign_rids(tc_stim *s, const tc_topo *t, const tc_row *rows, unsigned nr)
{
    int *seq = malloc(sizeof(int) * (size_t)(s->nexp + 1)); /* per tag: the reduce's place in its tree */
    int *pos = calloc((size_t)t->n * TC_TREES, sizeof(int)); /* per node and tree: reduces injected so far */
    int cnt[TC_TREES] = {0};                                 /* per tree: reduces met so far */
    for (int g = 0; g <= s->nexp; g++)
        seq[g] = -1;
    for (int pass = 0; pass < 2; pass++) /* the reduces first, then the packets that borrow their ReduceId */
        for (int i = 0; i < s->npkt; i++) {
            tc_pkt *p = &s->pkt[i];
            unsigned type = TC_HGET(&p->flit[0], TYPE), tree = TC_HGET(&p->flit[0], TREE);
            uint32_t tag = (uint32_t)TC_HGET(&p->flit[0], TAG);
            tc_row r = TC_ROWP(rows, p->node, tree);
            if ((type != TC_TYPE_REDUCE && type != TC_TYPE_ALLREDUCE) || !TC_RGET(r, VALID) || !TC_RGET(r, PE))
                continue;
            if (pass == 1 && p->rid_of) {
                if (p->rid_of > (uint32_t)s->nexp || seq[p->rid_of] < 0) {
                    fprintf(stderr, "scenario %s: tag %u borrows the ReduceId of tag %u, which is no reduce\n",
                            s->name, tag, p->rid_of);
                    abort();
                }
                TC_HSET(&p->flit[0], RID, (unsigned)(seq[p->rid_of] + p->rid_skip) % nr + (p->rid_beyond ? nr : 0));
            }
            if (pass == 1 || p->rid_of)
                continue;
            int *at = &pos[(size_t)p->node * TC_TREES + tree];
            if (tag > (uint32_t)s->nexp || (seq[tag] < 0 ? *at != cnt[tree] : seq[tag] != *at)) {
                fprintf(stderr, "scenario %s: node %d injects reduce tag %u as its reduce %d of tree %u, other "
                                "nodes as their %d: the PEs of a tree must take its reduces in one order\n",
                        s->name, p->node, tag, *at, tree, tag > (uint32_t)s->nexp ? -1 : seq[tag] < 0 ? cnt[tree] : seq[tag]);
                abort();
            }
            if (seq[tag] < 0) {
                seq[tag] = cnt[tree]++;
                TC_HSET(&s->exp[tag - 1].flit[0], RID, (unsigned)seq[tag] % nr); /* the result's */
            }
            (*at)++;
            TC_HSET(&p->flit[0], RID, (unsigned)seq[tag] % nr);
        }
    for (int k = 0; k < t->n; k++)
        for (int tree = 0; tree < TC_TREES; tree++) {
            tc_row r = TC_ROWP(rows, k, tree);
            if (TC_RGET(r, VALID) && TC_RGET(r, PE) && pos[(size_t)k * TC_TREES + tree] != cnt[tree]) {
                fprintf(stderr, "scenario %s: node %d contributes to %d reduces of tree %d, not all %d\n", s->name, k,
                        pos[(size_t)k * TC_TREES + tree], tree, cnt[tree]);
                abort();
            }
        }
    free(seq);
    free(pos);
}

static void build_soak(tc_stim *s, const tc_topo *t, const tc_row *rows, uint64_t seed, int red_flits, uint64_t *rng)
{
#define R(n) rnd(rng, (n)) /* one R() an expression, so that the order is defined */
    int active[TC_TREES], nactive = 0, full = -1;
    for (int tree = 0; tree < TC_TREES && full < 0; tree++) {
        int all = 1;
        for (int k = 0; k < t->n && all; k++)
            all = TC_RGET(TC_ROWP(rows, k, tree), VALID) && TC_RGET(TC_ROWP(rows, k, tree), PE);
        if (all)
            full = tree;
    }
    /* 2-6 trees with reduces (the tree barrier's among them), in random order */
    int want = 2 + R(5);
    uint16_t used = 0;
    if (full >= 0) {
        active[nactive++] = full;
        used |= (uint16_t)(1u << full);
    }
    while (nactive < want) {
        int tree = R(TC_TREES);
        if (!((used >> tree) & 1)) {
            active[nactive++] = tree;
            used |= (uint16_t)(1u << tree);
        }
    }
    /* The collectives (reduces on those trees, multiphase barriers), each with a
     * cycle; all PEs enter them in one order, that of these cycles (contract 2 of
     * docs/deadlock.md): a PE's packets of a later collective never go before those
     * of an earlier one, whatever their jitter. */
    typedef struct {
        uint64_t when;
        int tree, use, nuses, bad; /* tree -1: a barrier */
    } coll;
    coll *c = malloc(sizeof *c * (size_t)(nactive * 32 + 2));
    int nc = 0;
    for (int a = 0; a < nactive; a++) {
        int many = R(2), nuses = 1 + R(many ? 32 : 12), bad = R(3) ? -1 : R(nuses);
        uint64_t when = (uint64_t)R(300);
        for (int j = 0; j < nuses; j++) {
            int gap = R(4) ? 60 : 400;
            when += (uint64_t)R(gap);
            c[nc++] = (coll){when, active[a], j, nuses, bad};
        }
    }
    uint64_t from = 300 + (uint64_t)R(2000);
    for (int i = R(3) ? 1 : 2; i > 0; i--) { /* one or two barriers, the second later */
        c[nc++] = (coll){from, -1, 0, 0, 0};
        from += 1 + (uint64_t)R(1500);
    }
    for (int i = 1; i < nc; i++) /* insertion sort on (when, index): stable */
        for (int j = i; j > 0 && c[j - 1].when > c[j].when; j--) {
            coll x = c[j];
            c[j] = c[j - 1];
            c[j - 1] = x;
        }
    /* every reduce of a tree is a use: use j's tag */
    uint32_t use_tag[TC_TREES][32], b = 0;
    uint64_t *last = calloc((size_t)t->n, sizeof(uint64_t)); /* each PE's latest collective packet */
    for (int i = 0; i < nc; i++) {
        int tree = c[i].tree, j = c[i].use, first = s->npkt;
        if (tree < 0) { /* every node enters at a random cycle, the second barrier after the first completed */
            uint64_t *at = malloc(sizeof(uint64_t) * (size_t)t->n);
            int span = R(2) ? 50 : 1500;
            for (int k = 0; k < t->n; k++) {
                at[k] = c[i].when + (uint64_t)R(span);
                at[k] = last[k] = at[k] > last[k] ? at[k] : last[k];
            }
            int mode = R(4), k = 1 + R(8);
            b = tc_add_barrier(s, t, mode, k, at, 0, b);
            free(at);
            continue;
        }
        int type = j + 16 < c[i].nuses ? TC_TYPE_ALLREDUCE : R(2) ? TC_TYPE_ALLREDUCE : TC_TYPE_REDUCE;
        int op = R(TC_OPS), lane = R(2), len = R(red_flits + 1);
        if (tree == full && j == 0) { /* the tree barrier */
            type = TC_TYPE_ALLREDUCE;
            op = TC_OP_AND;
            lane = TC_LANE_32;
            len = 0;
        }
        uint32_t tag = tc_add_reduce(s, t, rows, type, tree, op, lane, len,
                                     type == TC_TYPE_REDUCE ? member(t, rows, tree, rng) : 0, c[i].when,
                                     seed * 7919 + (uint64_t)(tree * 32 + j));
        use_tag[tree][j] = tag;
        for (int q = first; q < s->npkt; q++) { /* contributions jittered, a few late */
            tc_pkt *p = &s->pkt[q];
            p->cycle += (uint64_t)(R(16) ? R(100) : R(1000));
            p->cycle = last[p->node] = p->cycle > last[p->node] ? p->cycle : last[p->node];
            if (j >= 16)
                p->after_rx = use_tag[tree][j - 16];
        }
        if (j == c[i].bad) {
            /* One contribution the router refuses (BAD_OP), with a tag of its own (its
             * length may differ), followed by the valid one (contract 4). */
            int q = first + R(s->npkt - first);
            tc_pkt valid = s->pkt[q];
            *add_pkt(s) = valid;
            tc_pkt *p = &s->pkt[q];
            tag = (uint32_t)s->nexp + 1;
            add_exp(s)->nflits = p->nflits;
            p->rid_of = (uint32_t)TC_HGET(&p->flit[0], TAG); /* the valid one's ReduceId */
            TC_HSET(&p->flit[0], TAG, tag);
            int how = R(red_flits < TC_SLOT_FLITS - 1 ? 4 : 3); /* too long, where one can be */
            if (how == 0)
                TC_HSET(&p->flit[0], OP, (unsigned)(TC_OPS + R(16 - TC_OPS)));
            else if (how == 1)
                TC_HSET(&p->flit[0], LANE, (unsigned)(2 + R(2)));
            else {
                /* an FSUM of an odd length (half an element), or longer than the Reducer holds */
                int l = how == 2 ? 1 + 2 * R((red_flits + 1) / 2) : red_flits + 1 + R(TC_SLOT_FLITS - 1 - red_flits);
                if (how == 2)
                    TC_HSET(&p->flit[0], OP, TC_OP_FSUM);
                TC_HSET(&p->flit[0], LEN, (unsigned)l);
            }
            if (how == 0 && R(2)) { /* values, but of another operation */
                TC_HSET(&p->flit[0], OP, (unsigned)R(TC_OP_FSUM));
                TC_HSET(&p->flit[0], VALS, 1);
            }
            int wl = (int)tc_wire_len(&p->flit[0]); /* what the PE sends */
            for (int f = p->nflits; f <= wl; f++)
                p->flit[f] = p->flit[1];
            p->nflits = wl + 1;
            s->exp[tag - 1].nflits = p->nflits;
            expect_drop(s, tag, p->node, TC_ERR_BAD_OP);
        }
    }
    free(last);
    free(c);
    /* broadcasts */
    for (int i = 16 + R(48); i > 0; i--) {
        int tree = R(TC_TREES), src = member(t, rows, tree, rng), len = R(8);
        tc_pkt *p = add(s);
        tc_make_bcast(p, src, tree, len, (uint32_t)s->nexp, (uint64_t)R(3000));
    }
    /* malformed packets, each from its own node where possible */
    for (int i = R(4); i > 0; i--) {
        int tree = R(TC_TREES), src = member(t, rows, tree, rng), kind = R(5), outsider = -1, transit = -1;
        uint32_t tag = (uint32_t)s->nexp + 1;
        uint64_t when = (uint64_t)R(3000);
        for (int j = 0, k0 = R(t->n); j < t->n; j++) {
            int k = (k0 + j) % t->n;
            tc_row r = TC_ROWP(rows, k, tree);
            if (!TC_RGET(r, VALID) && outsider < 0)
                outsider = k;
            if (TC_RGET(r, VALID) && !TC_RGET(r, PE) && transit < 0)
                transit = k;
        }
        if (kind == 0) { /* not a type a PE may send on this subnet */
            static const unsigned badtype[] = {0, TC_TYPE_CREDIT, TC_TYPE_ERROR, TC_TYPE_REPORT, TC_TYPE_PHASE, 9, 15};
            tc_pkt *p = add(s);
            tc_make_bcast(p, src, tree, R(8), tag, when);
            TC_HSET(&p->flit[0], TYPE, badtype[R(7)]);
            expect_drop(s, tag, src, TC_ERR_BAD_TYPE);
        } else if (kind == 1 && t->n > 1) { /* another node's id as SRC */
            tc_pkt *p = add(s);
            tc_make_bcast(p, src, tree, R(8), tag, when);
            TC_HSET(&p->flit[0], SRC, (unsigned)((src + 1 + R(t->n - 1)) % t->n));
            expect_drop(s, tag, src, TC_ERR_BAD_SRC);
        } else if (kind == 2 && outsider >= 0) { /* a tree not configured at the node */
            tc_pkt *p = add(s);
            tc_make_bcast(p, outsider, tree, R(8), tag, when);
            if (R(2))
                TC_HSET(&p->flit[0], TYPE, R(2) ? TC_TYPE_REDUCE : TC_TYPE_ALLREDUCE);
            expect_drop(s, tag, outsider, TC_ERR_NO_TREE);
        } else if (kind == 3 && transit >= 0) { /* Pe = 0 there */
            tc_make_bcast(add(s), transit, tree, R(8), tag, when);
            expect_drop(s, tag, transit, TC_ERR_NOT_MEMBER);
        } else if (kind == 4) { /* K = 0, or an unknown mode, refused whatever runs */
            int node = R(t->n), unknown = R(2), mode = unknown ? 4 + R(4) : R(2), k = 1 + R(8);
            add_exp(s);
            barrier_request(s, node, mode, unknown ? k : 0, tag, when);
            expect_drop(s, tag, node, TC_ERR_BAD_BARRIER);
        }
    }
    /* PE ejection stalls */
    for (int k = 0; k < t->n; k++)
        if (R(3) == 0) {
            uint64_t f = (uint64_t)R(3000);
            s->stall[k] = (tc_stall){f, f + (uint64_t)R(R(4) ? 500 : 2500)};
        }
    pkt_sort(s);
    pace_errors(s, t->n);
#undef R
}

/* A long allreduce striped over the trees, as the PE library of the network simulator
 * runs one (cmodel/netsim/fpvec.c; workload.c's trees=16 window=256): every PE reduces
 * 8 vectors of floating-point values, one of each distribution (tc_fpsum_value) in each
 * lane, one after the other in one stream of FSUM allreduces. A vector takes
 * FSTRIPE_OPS / 8 operations of red_flits / 2 binned elements each (whole elements of
 * 2 data flits, as many as the Reducer holds; at red_flits 1 none fits, the operations
 * carry one element and tcsim refuses the scenario as too long), values i*per ..
 * i*per+per-1 in its operation i, the last operation one value and the rest padded
 * with the identity -0, as the library pads. Operation i of the stream goes to tree
 * i mod 16, so a PE's consecutive contributions go to different trees and, with 2 or
 * 4 Reducer slices, to different slices. A PE starts operation i once it has the
 * result of operation i - 16 nr (on the same tree, with the same ReduceId): at most
 * nr (red_rids) of its reduces in flight a tree (contract 3 of docs/deadlock.md).
 * Each tree takes 20, so at the default 16 its ReduceIds wrap, and a child sends its
 * 17th result of a tree up only with its parent's credit. Without the window, at long latencies a PE's
 * second use of a ReduceId meets the first still in flight (ERR_RID_REUSE). Every
 * result is the C combination of the contributions, as tc_add_reduce's. */
enum { FSTRIPE_OPS = 2 * TC_FPS_DISTS * 40 };
static void build_fsum_stripe(tc_stim *s, const tc_topo *t, const tc_row *rows, uint64_t seed, int red_flits, int nr)
{
    int window = TC_TREES * nr;
    enum { VECS = 2 * TC_FPS_DISTS, VOPS = FSTRIPE_OPS / VECS };
    int per = red_flits / 2 > 0 ? red_flits / 2 : 1;
    uint64_t nvals = (uint64_t)(VOPS - 1) * (uint64_t)per + 1; /* a vector's values */
    uint32_t tags[FSTRIPE_OPS];
    for (int i = 0; i < FSTRIPE_OPS; i++) {
        int v = i / VOPS, j = i % VOPS, first = s->npkt;
        unsigned lane = (unsigned)(v % 2), dist = (unsigned)(v / 2);
        uint64_t vseed = seed * VECS + (uint64_t)v;
        tags[i] = tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, i % TC_TREES, TC_OP_FSUM, (int)lane, 2 * per, 0, 0,
                                vseed);
        for (int q = first; q < s->npkt; q++) {
            tc_pkt *p = &s->pkt[q];
            unsigned vpf = tc_fpsum_values_per_flit(lane), vals = TC_HGET(&p->flit[0], VALS);
            for (int e = 0; e < per; e++) {
                uint64_t x = (uint64_t)j * (uint64_t)per + (uint64_t)e;
                uint64_t v = x < nvals ? tc_fpsum_value(dist, lane, vseed, (uint64_t)p->node, x)
                                       : 1ull << (lane == TC_LANE_32 ? 31 : 63); /* padding: -0, the identity */
                if (vals)
                    tc_lane_put(&p->flit[1 + e / (int)vpf], 128 / vpf, (unsigned)e % vpf, v);
                else
                    tc_fpsum_in(lane, v, &p->flit[1 + 2 * e]);
            }
            if (i >= window)
                p->after_rx = tags[i - window];
        }
        reduce_expect(s, t, rows, tags[i], first);
    }
}

int tc_scenario_build(const char *name, const tc_topo *t, const tc_row *rows, uint64_t seed, const tc_params *p,
                      tc_stim *s)
{
    uint64_t rng = seed * 1000003u + 7;
    uint32_t tag = 1;
    int nr = p->red_rids; /* ReduceIds a tree: the reduces of a tree in flight */

    memset(s, 0, sizeof *s);
    s->rogue_node = -1;
    s->stall = calloc((size_t)t->n, sizeof *s->stall);
    if (!strcmp(name, "bcast_root")) {
        s->exact = 1;
        tc_make_bcast(add(s), tc_plan_root(t, 0), 0, 2, tag, 0);
    } else if (!strcmp(name, "bcast_leaf")) {
        s->exact = 1;
        tc_make_bcast(add(s), tc_farthest(t, tc_plan_root(t, 0)), 0, 2, tag, 0);
    } else if (!strcmp(name, "stream")) {
        /* 64 KiB from tree 0's root in the longest packets, back to back: the links
         * at their rate (docs/bandwidth.md; tcnet's bcast bytes=65536 len=7) */
        for (int i = 0; i < (TC_STREAM_BYTES + 7 * 16 - 1) / (7 * 16); i++)
            tc_make_bcast(add(s), tc_plan_root(t, 0), 0, 7, tag++, 0);
    } else if (!strcmp(name, "transit")) {
        int root = tc_plan_root(t, 15);
        tc_make_bcast(add(s), root, 15, 3, tag++, 0);
        tc_make_bcast(add(s), tc_farthest(t, root), 15, 1, tag++, 1500);
        for (int i = 0; i < 4; i++) {
            int src = member(t, rows, 8 + i, &rng);
            tc_make_bcast(add(s), src, 8 + i, i, tag++, 3000 + 40u * (unsigned)i);
        }
    } else if (!strcmp(name, "all_trees")) {
        for (int tree = 0; tree < TC_TREES; tree++) {
            int src = member(t, rows, tree, &rng), len = (int)(tc_plan_mix(rng++) % 8);
            tc_make_bcast(add(s), src, tree, len, tag++, 0);
        }
    } else if (!strcmp(name, "back_to_back") || !strcmp(name, "backpressure")) {
        int a = member(t, rows, 3, &rng), b = member(t, rows, 3, &rng), b12 = b;
        if (!TC_RGET(TC_ROWP(rows, b, 12), VALID) || !TC_RGET(TC_ROWP(rows, b, 12), PE))
            b12 = member(t, rows, 12, &rng); // b sends on tree 12 where it is a member
        for (int i = 0; i < 24; i++)
            tc_make_bcast(add(s), a, 3, i % 8, tag++, 0);
        for (int i = 0; i < 8; i++)
            tc_make_bcast(add(s), i % 2 ? b : b12, i % 2 ? 3 : 12, 7 - i, tag++, 0);
        if (!strcmp(name, "backpressure"))
            for (int k = 0; k < t->n; k += 3)
                s->stall[k] = (tc_stall){200, 3000 + 100u * (unsigned)(k % 64)}; /* at most 9300: larger tori too */
    } else if (!strcmp(name, "bad_input")) {
        int outsider = -1, transit = -1;
        for (int k = 0; k < t->n; k++) {
            tc_row r = TC_ROWP(rows, k, 15);
            if (!TC_RGET(r, VALID) && outsider < 0)
                outsider = k;
            if (TC_RGET(r, VALID) && !TC_RGET(r, PE) && transit < 0)
                transit = k;
        }
        tc_pkt *p;
        if (outsider >= 0) {
            tc_make_bcast(add(s), outsider, 15, 1, tag, 0);
            expect_drop(s, tag++, outsider, TC_ERR_NO_TREE);
        }
        if (transit >= 0) {
            tc_make_bcast(add(s), transit, 15, 1, tag, 0);
            expect_drop(s, tag++, transit, TC_ERR_NOT_MEMBER);
        }
        p = add(s);
        tc_make_bcast(p, 0, 0, 0, tag, 10);
        TC_HSET(&p->flit[0], TYPE, 0xF);
        expect_drop(s, tag++, 0, TC_ERR_BAD_TYPE);
        p = add(s);
        tc_make_bcast(p, 0, 0, 2, tag, 20);
        TC_HSET(&p->flit[0], SRC, (unsigned)(t->n - 1 == 0 ? 1 : t->n - 1));
        expect_drop(s, tag++, 0, TC_ERR_BAD_SRC);
        p = add(s); /* a broadcast marked as values (VALS): they go only into the Reducer */
        tc_make_bcast(p, 0, 0, 4, tag, 25);
        TC_HSET(&p->flit[0], VALS, 1);
        TC_HSET(&p->flit[0], OP, TC_OP_FSUM);
        p->nflits = 1 + (int)tc_wire_len(&p->flit[0]);
        expect_drop(s, tag++, 0, TC_ERR_BAD_OP);
        tc_make_bcast(add(s), 0, 0, 3, tag++, 30); /* and the network goes on */
    } else if (!strcmp(name, "credit_violation")) {
        /* A PE sends, back to back on tree 15 (its root and the farthest node), more
         * packets than the path to the other PE holds while that PE takes none: its
         * ejection buffer, a VC buffer in every router on the way, its own PEGroup
         * FIFO. Then a well-behaved PE broadcasts on tree 0. */
        s->rogue_node = tc_plan_root(t, 15);
        int far = tc_farthest(t, s->rogue_node);
        int n = p->inj_slots + p->pe_credits + p->slots * (tc_diameter(t) + 1) + 4;
        for (int i = 0; i < n; i++)
            tc_make_bcast(add(s), s->rogue_node, 15, 3, tag++, 0);
        s->stall[far] = (tc_stall){0, (uint64_t)(8 * n + 2000)};
        int other = member(t, rows, 0, &rng);
        tc_make_bcast(add(s), other, 0, 1, tag++, (uint64_t)(8 * n + 100));
    } else if (!strcmp(name, "allreduce")) {
        tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 0, TC_OP_SUM, TC_LANE_32, 2, 0, 0, seed);
    } else if (!strcmp(name, "reduce_dst")) {
        /* sparse tree with transit nodes; the result goes to one Pe node */
        int dst = member(t, rows, 9, &rng);
        tc_add_reduce(s, t, rows, TC_TYPE_REDUCE, 9, TC_OP_MAX, TC_LANE_64, 1, dst, 0, seed);
        tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 15, TC_OP_MINU, TC_LANE_32, 2, 0, 500, seed + 1);
    } else if (!strcmp(name, "reduce_ops")) {
        /* every operation and lane width, all in flight at once on 8 trees */
        int k = 0;
        for (int op = 0; op < TC_OPS; op++)
            for (int lane = TC_LANE_32; lane <= TC_LANE_64; lane++, k++)
                tc_add_reduce(s, t, rows, k % 3 ? TC_TYPE_ALLREDUCE : TC_TYPE_REDUCE, k % 8, op, lane,
                              1 + k % 2, member(t, rows, k % 8, &rng), (uint64_t)k * 3, seed + (uint64_t)k);
    } else if (!strcmp(name, "fsum")) {
        /* the floating-point sum on 8 trees at once: reduces and allreduces of one
         * binned element, both lanes, values of each distribution (tc_add_reduce draws
         * them from seed % 4: k / 2 = uniform, wide, cancel, special) */
        for (int k = 0; k < 8; k++)
            tc_add_reduce(s, t, rows, k % 3 ? TC_TYPE_ALLREDUCE : TC_TYPE_REDUCE, k, TC_OP_FSUM, k % 2, 2,
                          member(t, rows, k, &rng), (uint64_t)k * 5, 4 * seed + (uint64_t)(k / 2));
    } else if (!strcmp(name, "fsum_stripe")) {
        build_fsum_stripe(s, t, rows, seed, p->red_flits, nr);
    } else if (!strcmp(name, "bad_reduce")) {
        /* 1. A leaf's contribution names another op: its parent reports the mismatch
         *    and every PE gets the result marked POISON. */
        int leaf = -1, inner = -1, far = tc_farthest(t, tc_plan_root(t, 15));
        for (int k = 0; k < t->n; k++) {
            tc_row r = TC_ROWP(rows, k, 0);
            if (!TC_RGET(r, DIRS) && leaf < 0)
                leaf = k;
            if (TC_RGET(r, DIRS) && !TC_RGET(r, ROOT) && inner < 0)
                inner = k;
        }
        if (inner < 0)
            inner = tc_plan_root(t, 0);
        uint32_t bad = tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 0, TC_OP_SUM, TC_LANE_32, 1, 0, 0, seed);
        tc_pkt *p;
        if ((p = contribution(s, leaf, bad)))
            TC_HSET(&p->flit[0], OP, TC_OP_MAX);
        s->exp[bad - 1].poison = 1;
        expect_err(s, bad, -1, TC_ERR_MISMATCH);
        /* 2. A PE contributes twice to one ReduceId (its PE's last packet): by then
         *    the PE's next ReduceId of the tree is a later one, so the second is out
         *    of turn, ignored and reported (ERR_RID_ORDER); the reduce completes with
         *    the right result. */
        uint32_t twice = tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 1, TC_OP_XOR, TC_LANE_64, 2, 0, 600, seed + 1);
        if ((p = contribution(s, inner, twice))) {
            tc_pkt copy = *p;
            uint32_t again = (uint32_t)s->nexp + 1; /* a tag of its own, to follow it */
            tc_expect *x = add_exp(s);
            x->none = 1;
            x->nflits = copy.nflits;
            TC_HSET(&copy.flit[0], TAG, again);
            copy.rid_of = twice;
            *add_pkt(s) = copy;
            expect_err(s, again, inner, TC_ERR_RID_ORDER);
        }
        /* 3. A PE skips a ReduceId: its contribution to the one after the tree's next
         *    is ignored and reported (ERR_RID_ORDER); it then sends the right one, and
         *    the reduce completes with the right result. */
        uint32_t next = tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 1, TC_OP_SUM, TC_LANE_32, 1, 0, 900, seed + 5);
        int at = contribution_at(s, leaf, next);
        if (at >= 0) {
            p = copy_before(s, at);
            uint32_t ahead = (uint32_t)s->nexp + 1;
            tc_expect *x = add_exp(s);
            x->none = 1;
            x->nflits = p->nflits;
            TC_HSET(&p->flit[0], TAG, ahead);
            p->rid_of = next;
            p->rid_skip = 1;
            expect_err(s, ahead, leaf, TC_ERR_RID_ORDER);
        }
        /* 4. An unknown operation is refused at injection: no contribution. Its PE,
         *    told so, sends a valid one for that reduce, marked POISON as it has no
         *    data to give (the PEs' contract, docs/deadlock.md), and the reduce
         *    completes POISON; the next reduce on the tree (which could not leave
         *    the Reducers before it, in turn) completes too. */
        uint32_t unk = tc_add_reduce(s, t, rows, TC_TYPE_REDUCE, 15, TC_OP_SUM, TC_LANE_32, 1, far, 1200, seed + 2);
        if ((at = contribution_at(s, far, unk)) >= 0) {
            p = copy_before(s, at); /* the refused one, with a tag of its own */
            uint32_t refused = (uint32_t)s->nexp + 1;
            add_exp(s)->nflits = p->nflits;
            TC_HSET(&p->flit[0], TAG, refused);
            TC_HSET(&p->flit[0], OP, 13);
            p->rid_of = unk;
            expect_drop(s, refused, far, TC_ERR_BAD_OP);
            TC_HSET(&s->pkt[at + 1].flit[0], POISON, 1); /* the valid one */
            s->exp[unk - 1].poison = 1;
        }
        /* 4b. So is a contribution to a ReduceId the Reducer does not have (red_rids
         *     or more; its entries are the low bits of the ReduceId). */
        if (nr < TC_MAX_RIDS && (at = contribution_at(s, far, unk)) >= 0) {
            p = copy_before(s, at);
            uint32_t beyond = (uint32_t)s->nexp + 1;
            add_exp(s)->nflits = p->nflits;
            TC_HSET(&p->flit[0], TAG, beyond);
            p->rid_of = unk;
            p->rid_beyond = 1;
            expect_drop(s, beyond, far, TC_ERR_BAD_OP);
        }
        tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 15, TC_OP_MIN, TC_LANE_64, 1, 0, 1300, seed + 3);
        /* 5. A contribution with another length, from a leaf: reported where it meets
         *    the first, the result POISON. */
        uint32_t len2 = tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 0, TC_OP_OR, TC_LANE_32, 2, 0, 1600, seed + 4);
        if ((p = contribution(s, leaf, len2))) {
            TC_HSET(&p->flit[0], LEN, 1);
            p->nflits = 2;
        }
        s->exp[len2 - 1].poison = 1;
        expect_err(s, len2, -1, TC_ERR_MISMATCH);
        /* 6. A reduce on a tree not configured at the contributing node. */
        for (int k = 0; k < t->n; k++)
            if (!TC_RGET(TC_ROWP(rows, k, 15), VALID)) {
                uint32_t tag = (uint32_t)s->nexp + 1;
                tc_expect *x = add_exp(s);
                tc_pkt *p = add_pkt(s);
                tc_make_bcast(p, k, 15, 1, tag, 1700);
                TC_HSET(&p->flit[0], TYPE, TC_TYPE_REDUCE);
                x->none = 1;
                x->nflits = 2;
                expect_err(s, tag, k, TC_ERR_NO_TREE);
                break;
            }
    } else if (!strcmp(name, "credits")) {
        /* The root's PE contributes late: its children send nr (red_rids) results up
         * tree 2 and must hold the next (the second use of ReduceId 0) until the root,
         * having completed nr / 2 reduces, sends them a credit. Without the credit
         * block it would meet ReduceId 0 still in flight at the root (ERR_RID_REUSE). */
        /* Unlike the PE contract of docs/deadlock.md, a PE sends its second use of a
         * ReduceId before it has the first's result: the credit block is what keeps
         * the two apart up the tree. Only down the tree must the first use be complete
         * at every node before that node's PE contributes again (else ERR_RID_REUSE):
         * the nr contributions of the first round enter through the PEGroup FIFO and
         * climb at most `height` hops, each a link whose `slots` credits come back
         * after a round trip (2 link_lat + 8 cycles), behind nr x 5 two-flit
         * contributions at a Reducer (the 200 for 16); the root's PE waits as long
         * again for the second round's wave. */
        int root = tc_tree_root(t, rows, 2);
        uint64_t trip = 2 * (uint64_t)p->link_lat + 8, itrip = 2 * (uint64_t)p->inj_lat + 8;
        uint64_t hop = (uint64_t)p->link_lat + (uint64_t)nr * (trip / (uint64_t)p->slots + 3);
        uint64_t again = (uint64_t)p->inj_lat + (uint64_t)nr * (itrip / (uint64_t)p->inj_slots + 3) +
                         (uint64_t)tree_height(t, rows, 2) * hop + 200 * (uint64_t)nr / 16;
        again = again > 400 ? again : 400;
        uint64_t late = again + 2600 * (uint64_t)nr / 16;
        late = late > 3000 ? late : 3000;
        for (int round = 0; round < 2; round++)
            for (int rid = 0; rid < (round ? 2 : nr); rid++) {
                uint32_t tag = tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 2, TC_OP_SUM, TC_LANE_64, 1, 0,
                                             round ? again : 0, seed + (uint64_t)(round * nr + rid));
                tc_pkt *c = contribution(s, root, tag);
                if (c)
                    c->cycle = late + (uint64_t)(round * nr + rid);
            }
    } else if (!strcmp(name, "many_reduces")) {
        /* 16 trees x nr (red_rids) ReduceIds in flight at once: 256 reduces at the
         * default, each node's report to the PE due after 128 results, and then every
         * 4096 cycles */
        for (int rid = 0; rid < nr; rid++)
            for (int tree = 0; tree < TC_TREES; tree++)
                tc_add_reduce(s, t, rows, (tree + rid) % 2 ? TC_TYPE_REDUCE : TC_TYPE_ALLREDUCE, tree,
                              (tree + rid) % TC_OPS, rid % 2, 1, member(t, rows, tree, &rng), (uint64_t)rid * 4,
                              seed + (uint64_t)(rid * 16 + tree));
    } else if (!strcmp(name, "random")) {
        for (int i = 0; i < 64; i++) {
            int tree = (int)(tc_plan_mix(rng++) % TC_TREES);
            int src = member(t, rows, tree, &rng), len = (int)(tc_plan_mix(rng++) % 8);
            uint64_t when = tc_plan_mix(rng++) % 4000;
            tc_make_bcast(add(s), src, tree, len, tag++, when);
        }
        for (int i = 0; i < 8; i++) { /* reduces and allreduces among the broadcasts */
            int tree = (int)(tc_plan_mix(rng++) % TC_TREES), op = (int)(tc_plan_mix(rng++) % TC_OPS);
            int lane = (int)(tc_plan_mix(rng++) % 2), dst = member(t, rows, tree, &rng);
            int len = 1 + (int)(tc_plan_mix(rng++) % (uint64_t)(p->red_flits < 2 ? p->red_flits : 2));
            uint64_t when = tc_plan_mix(rng++) % 4000;
            tc_add_reduce(s, t, rows, i % 2 ? TC_TYPE_REDUCE : TC_TYPE_ALLREDUCE, tree, op, lane, len, dst, when,
                          seed * 100 + (uint64_t)i);
        }
        for (int k = 0; k < t->n; k++)
            if (tc_plan_mix(rng++) % 4 == 0) {
                uint64_t from = tc_plan_mix(rng++) % 3000;
                s->stall[k] = (tc_stall){from, from + tc_plan_mix(rng++) % 2000};
            }
        /* and a barrier of a random mode that every PE enters after its packets */
        uint64_t *when = malloc(sizeof(uint64_t) * (size_t)t->n);
        int mode = (int)(tc_plan_mix(rng++) % 4);
        for (int k = 0; k < t->n; k++)
            when[k] = tc_plan_mix(rng++) % 4000;
        tc_add_barrier(s, t, mode, 1 + (int)(tc_plan_mix(rng++) % 8), when, 0, 0);
        free(when);
    } else if (!strcmp(name, "soak")) {
        build_soak(s, t, rows, seed, p->red_flits, &rng);
    } else if (!strcmp(name, "barrier")) {
        /* every node enters at once, on an empty network */
        s->exact = 1;
        tc_add_barrier(s, t, TC_BAR_DIAM, 0, NULL, 0, 0);
    } else if (!strcmp(name, "barrier_full")) {
        /* nodes enter at random cycles over 1500; a full barrier (2K phases, K named) */
        uint64_t *when = malloc(sizeof(uint64_t) * (size_t)t->n);
        for (int k = 0; k < t->n; k++)
            when[k] = tc_plan_mix(rng++) % 1500;
        tc_add_barrier(s, t, TC_BAR_FULL, tc_diameter(t), when, 0, 0);
        free(when);
    } else if (!strcmp(name, "barrier_b2b")) {
        /* four barriers back to back, each PE entering the next as soon as the last
         * completes: half and full, K from the configuration and named */
        static const int mode[4] = {TC_BAR_DIAM, TC_BAR_FULL, TC_BAR_DIAM | TC_BAR_FULL, 0};
        uint32_t b = 0;
        /* a broadcast from tree 0's root just before the first, a half-barrier: its
         * paths are at most K = diameter hops, so it must reach every PE first */
        tc_make_bcast(add(s), tc_plan_root(t, 0), 0, 2, tag, 0);
        for (int i = 0; i < 4; i++) {
            b = tc_add_barrier(s, t, mode[i], tc_diameter(t) + i % 2, NULL, 0, b);
            if (i == 0)
                s->exp[tag - 1].before = b;
        }
    } else if (!strcmp(name, "barrier_traffic")) {
        /* Broadcasts on random trees and an allreduce, then a full barrier that the
         * PEs enter at random cycles: each packet sent before it must reach every
         * destination before the barrier completes there (the full barrier covers the
         * 2 x depth hops of a tree), even though a third of the PEs take no packet
         * for a while, so that packets wait in the routers while the barrier runs.
         * Broadcasts after the barrier, and others at random cycles while it runs. */
        uint64_t *when = malloc(sizeof(uint64_t) * (size_t)t->n);
        int first = s->nexp;
        /* three from each of up to 64 sources spread over the torus: 3N from every
         * node would be 3N^2 deliveries, 3.2e9 on 32768 nodes */
        int nsrc = t->n < 64 ? t->n : 64;
        for (int i = 0; i < 3 * nsrc; i++) {
            int tree = (int)(tc_plan_mix(rng++) % 8), len = 4 + (int)(tc_plan_mix(rng++) % 4);
            int src = (int)((int64_t)(i % nsrc) * t->n / nsrc);
            tc_make_bcast(add(s), src, tree, len, tag++, tc_plan_mix(rng++) % 100); /* trees 0-7 have every PE */
        }
        tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 4, TC_OP_MAX, TC_LANE_32, 1, 0, 100, seed);
        int nbefore = s->nexp;
        for (int k = 0; k < t->n; k++)
            when[k] = 100 + tc_plan_mix(rng++) % 300;
        uint32_t b = tc_add_barrier(s, t, TC_BAR_FULL | TC_BAR_DIAM, 0, when, 0, 0);
        for (int i = first; i < nbefore; i++)
            s->exp[i].before = b;
        for (int k = 1; k < t->n; k += 3)
            s->stall[k] = (tc_stall){200, 2000 + tc_plan_mix(rng++) % 1500};
        tag = (uint32_t)s->nexp + 1;
        for (int i = 0; i < 8; i++) { /* in flight during the barrier: no promise */
            int tree = (int)(tc_plan_mix(rng++) % TC_TREES), src = member(t, rows, tree, &rng), len = (int)(tc_plan_mix(rng++) % 8);
            tc_make_bcast(add(s), src, tree, len, tag++, 1200 + tc_plan_mix(rng++) % 400);
        }
        for (int i = 0; i < 8; i++) { /* after the barrier */
            int tree = (int)(tc_plan_mix(rng++) % TC_TREES), src = member(t, rows, tree, &rng), len = (int)(tc_plan_mix(rng++) % 8);
            tc_pkt *p = add(s);
            tc_make_bcast(p, src, tree, len, tag++, 0);
            p->after = b;
        }
        free(when);
    } else if (!strcmp(name, "bad_barrier")) {
        /* Refused requests: K = 0, K beyond BAR_KMAX, an unknown mode, a phase packet
         * from a PE, and a second request while the node's barrier runs. None hangs
         * the barrier the other nodes then run. */
        static const struct {
            int mode, k, err;
        } bad[] = {{0, 0, TC_ERR_BAD_BARRIER}, {TC_BAR_FULL, TC_BAR_KMAX + 1, TC_ERR_BAD_BARRIER},
                   {4, 3, TC_ERR_BAD_BARRIER}};
        for (int i = 0; i < 3; i++) {
            uint32_t own = (uint32_t)s->nexp + 1;
            add_exp(s);
            barrier_request(s, i % t->n, bad[i].mode, bad[i].k, own, (uint64_t)i);
            expect_drop(s, own, i % t->n, bad[i].err);
        }
        uint32_t own = (uint32_t)s->nexp + 1;
        add_exp(s);
        TC_HSET(&barrier_request(s, 0, 0, 1, own, 5)->flit[0], TYPE, TC_TYPE_PHASE);
        expect_drop(s, own, 0, TC_ERR_BAD_TYPE);
        uint32_t b = tc_add_barrier(s, t, TC_BAR_DIAM, 0, NULL, 100, 0);
        own = (uint32_t)s->nexp + 1;
        add_exp(s);
        barrier_request(s, t->n - 1, TC_BAR_DIAM, 0, own, 110);
        expect_drop(s, own, t->n - 1, TC_ERR_BARRIER_BUSY);
        tc_add_barrier(s, t, TC_BAR_DIAM, 0, NULL, 0, b); /* and the next one works */
    } else if (!strcmp(name, "tree_barrier")) {
        /* the barrier as an allreduce without data on tree 0 */
        tc_add_reduce(s, t, rows, TC_TYPE_ALLREDUCE, 0, TC_OP_AND, TC_LANE_32, 0, 0, 0, seed);
    } else {
        tc_stim_free(s);
        return -1;
    }
    s->name = name;
    assign_rids(s, t, rows, (unsigned)nr);
    seal(s);
    return 0;
}

void tc_stim_free(tc_stim *s)
{
    free(s->pkt);
    free(s->stall);
    free(s->experr);
    free(s->exp);
    memset(s, 0, sizeof *s);
}

const char *tc_stim_too_long(const tc_stim *s, int red_flits, char *buf, size_t len)
{
    for (int i = 0; i < s->npkt; i++) {
        const tc_flit *h = &s->pkt[i].flit[0];
        unsigned type = TC_HGET(h, TYPE), tag = TC_HGET(h, TAG);
        if ((type == TC_TYPE_REDUCE || type == TC_TYPE_ALLREDUCE) && TC_HGET(h, LEN) > (unsigned)red_flits &&
            tag >= 1 && (int)tag <= s->nexp && !s->exp[tag - 1].none) {
            snprintf(buf, len, "its reduces carry %u data flits%s, more than red_flits %d (the Reducer would refuse them)",
                     TC_HGET(h, LEN), TC_HGET(h, OP) == TC_OP_FSUM ? " (floating-point sums: binned elements of 2 flits)" : "",
                     red_flits);
            return buf;
        }
    }
    return NULL;
}
