#include "fpvec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../alu.h"
#include "../fpsum.h"

/* keys a flit: 2 binary64 or 4 binary32 */
static unsigned keys_per_flit(unsigned lane) { return lane == TC_LANE_32 ? 4 : 2; }

unsigned tc_fpvec_per(unsigned op, unsigned lane, int len)
{
    return op == TC_OP_FSUM ? (unsigned)len / 2 : (unsigned)len * keys_per_flit(lane);
}

/* data flits of a packet of per values */
static int data_flits(const tc_fpvec *v)
{
    if (v->pass)
        return v->pass == 1 ? (int)v->per / 4 : (int)v->per;
    return v->op == TC_OP_FSUM ? 2 * (int)v->per : (int)(v->per / keys_per_flit(v->lane));
}

int tc_fpvec_pass(tc_fpvec *v, unsigned pass, int len, int trees)
{
    uint64_t members = 0;
    for (uint32_t k = 0; k < v->nodes; k++)
        members += v->member[k];
    for (v->h = 0; (1ull << v->h) < members; v->h++)
        ;
    if (v->h > TC_FPS2_MAX_H)
        return -2;
    if (!v->key && !(v->key = calloc((size_t)v->nodes * (size_t)v->nvals, sizeof *v->key)))
        return -1;
    v->pass = pass;
    v->per = pass == 1 ? 4 * (unsigned)len : (unsigned)len; /* a key a 32-bit lane; a word a flit */
    v->ops = tc_fpvec_two_pass_ops(pass, v->nvals, len, trees);
    return 0;
}

void tc_fpvec_two_pass(const tc_workload *w, uint64_t nvals, int red_rids, tc_workload *w1, tc_workload *w2)
{
    int nt = w->trees > 1 ? w->trees : 1;
    *w1 = *w, *w2 = *w;
    w1->op = TC_OP_MAX, w1->lane = TC_LANE_32, w1->repeat = (int)tc_fpvec_two_pass_ops(1, nvals, w->len, nt);
    w2->op = TC_OP_SUM, w2->lane = TC_LANE_64, w2->repeat = (int)tc_fpvec_two_pass_ops(2, nvals, w->len, nt);
    w2->rid0 = (w->rid0 + w1->repeat / nt) % red_rids;
}

int tc_fpvec_init(tc_fpvec *v, unsigned op, unsigned lane, unsigned dist, uint64_t seed, uint32_t nodes,
                  uint64_t nvals, unsigned per, const uint8_t *member)
{
    memset(v, 0, sizeof *v);
    v->op = op;
    v->lane = lane;
    v->dist = dist;
    v->seed = seed;
    v->nodes = nodes;
    v->nvals = nvals;
    v->per = per ? per : 1;
    size_t n = (size_t)nodes * (size_t)nvals;
    v->in = malloc(n * sizeof *v->in);
    v->out = calloc(n, sizeof *v->out);
    v->member = malloc(nodes);
    v->got = calloc(nodes, 1);
    if (!v->in || !v->out || !v->member || !v->got) {
        tc_fpvec_free(v);
        return -1;
    }
    memcpy(v->member, member, nodes);
    for (uint32_t k = 0; k < nodes; k++)
        for (uint64_t i = 0; i < nvals; i++)
            v->in[(size_t)k * nvals + i] = member[k] ? tc_fpsum_value(dist, lane, seed, k, i) : 0;
    return 0;
}

void tc_fpvec_free(tc_fpvec *v)
{
    free(v->in);
    free(v->out);
    free(v->member);
    free(v->got);
    free(v->key);
    memset(v, 0, sizeof *v);
}

void tc_fpvec_data(void *ctx, uint32_t node, int op, tc_flit *flits, int len)
{
    const tc_fpvec *v = ctx;
    const uint64_t *in = v->in + (size_t)node * v->nvals;
    if (v->pass == 1) { /* exponent keys, four 32-bit lanes a flit; padding 0, MAX's identity here */
        for (unsigned j = 0; j < 4 * (unsigned)len; j++) {
            uint64_t i = (uint64_t)op * v->per + j;
            tc_lane_put(&flits[j / 4], 32, j % 4, i < v->nvals ? tc_fpsum_exp_key(v->lane, in[i]) : 0);
        }
        return;
    }
    if (v->pass == 2) { /* a word a flit, at this node's copy of pass 1's key; padding 0 */
        for (int f = 0; f < len; f++) {
            uint64_t i = (uint64_t)op * v->per + (uint64_t)f;
            if (i < v->nvals)
                tc_fpsum_word(v->lane, in[i], v->key[(size_t)node * v->nvals + i], v->h, flits[f].w);
            else
                flits[f].w[0] = flits[f].w[1] = 0;
        }
        return;
    }
    if (v->op != TC_OP_FSUM) { /* keys, lane by lane as the ALU reads them; padding keys 0 (lanes apart) */
        unsigned kpf = keys_per_flit(v->lane);
        for (unsigned j = 0; j < kpf * (unsigned)len; j++) {
            uint64_t i = (uint64_t)op * v->per + j;
            tc_lane_put(&flits[j / kpf], 128 / kpf, j % kpf, i < v->nvals ? tc_fpsum_key_in(v->lane, v->op, in[i]) : 0);
        }
        return;
    }
    /* the values themselves (VALS: the Reducer converts them), as tc_fpsum_elements reads
     * them; padding -0, the identity */
    unsigned vpf = tc_fpsum_values_per_flit(v->lane);
    for (int e = 0; 2 * e + 1 < len; e++) {
        uint64_t i = (uint64_t)op * v->per + (uint64_t)e;
        uint64_t x = i < v->nvals && (unsigned)e < v->per ? in[i] : 1ull << (v->lane == TC_LANE_32 ? 31 : 63);
        tc_lane_put(&flits[e / (int)vpf], 128 / vpf, (unsigned)e % vpf, x);
    }
}

void tc_fpvec_deliver(void *ctx, uint32_t node, int op, uint64_t cycle, const tc_flit *pkt, int nflits)
{
    tc_fpvec *v = ctx;
    (void)cycle;
    /* an FSUM result comes as values (the root converts it), the others as they went up */
    int want = !v->pass && v->op == TC_OP_FSUM ? (int)tc_fpsum_values_len(v->lane, 2 * v->per) : data_flits(v);
    if (node >= v->nodes || op < 0 || (uint64_t)op >= tc_fpvec_ops(v) || nflits != 1 + want) {
        if (!v->err[0])
            snprintf(v->err, sizeof v->err, "node %u: a result of operation %d with %d data flits, not %d", node,
                     op + 1, nflits - 1, want);
        return;
    }
    if (v->pass == 1) { /* the keys' maxima, kept for pass 2's words */
        for (unsigned j = 0; j < v->per; j++) {
            uint64_t i = (uint64_t)op * v->per + j;
            if (i < v->nvals)
                v->key[(size_t)node * v->nvals + i] = (uint16_t)tc_lane_get(&pkt[1 + j / 4], 32, j % 4);
        }
        return;
    }
    v->got[node] = 1;
    if (v->pass == 2) {
        for (unsigned j = 0; j < v->per; j++) {
            uint64_t i = (uint64_t)op * v->per + j;
            if (i < v->nvals)
                v->out[(size_t)node * v->nvals + i] =
                    tc_fpsum_word_out(v->lane, v->key[(size_t)node * v->nvals + i], v->h, pkt[1 + j].w);
        }
        return;
    }
    if (v->op != TC_OP_FSUM) {
        unsigned kpf = keys_per_flit(v->lane);
        for (unsigned j = 0; j < v->per; j++) {
            uint64_t i = (uint64_t)op * v->per + j;
            if (i < v->nvals)
                v->out[(size_t)node * v->nvals + i] =
                    tc_fpsum_key_out(v->lane, tc_lane_get(&pkt[1 + j / kpf], 128 / kpf, j % kpf));
        }
        return;
    }
    unsigned vpf = tc_fpsum_values_per_flit(v->lane);
    for (unsigned e = 0; e < v->per; e++) {
        uint64_t i = (uint64_t)op * v->per + e;
        if (i < v->nvals)
            v->out[(size_t)node * v->nvals + i] = tc_lane_get(&pkt[1 + e / vpf], 128 / vpf, e % vpf);
    }
}

static void write_line(const tc_fpvec *v, FILE *f, uint32_t k, const char *what, const uint64_t *x)
{
    int w = v->lane == TC_LANE_32 ? 8 : 16;
    fprintf(f, "%u %s", k, what);
    for (uint64_t i = 0; i < v->nvals; i++)
        fprintf(f, " %0*" PRIx64, w, x[i]);
    fputc('\n', f);
}

int tc_fpvec_write(const tc_fpvec *v, FILE *f)
{
    for (uint32_t k = 0; k < v->nodes; k++)
        if (v->member[k])
            write_line(v, f, k, "in", v->in + (size_t)k * v->nvals);
    for (uint32_t k = 0; k < v->nodes; k++)
        if (v->got[k])
            write_line(v, f, k, "out", v->out + (size_t)k * v->nvals);
    return ferror(f) ? -1 : 0;
}
