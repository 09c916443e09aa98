#include "fpvec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../fpsum.h"

/* keys a flit: 2 binary64 or 4 binary32 */
static unsigned keys_per_flit(unsigned lane) { return lane == TC_LANE_32 ? 4 : 2; }

unsigned tc_fpvec_per(unsigned op, unsigned lane, int len)
{
    return op == TC_OP_FSUM ? (unsigned)len / 2 : (unsigned)len * keys_per_flit(lane);
}

/* data flits of a packet of per values */
static int data_flits(const tc_fpvec *v) { return v->op == TC_OP_FSUM ? 2 * (int)v->per : (int)(v->per / keys_per_flit(v->lane)); }

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
    memset(v, 0, sizeof *v);
}

void tc_fpvec_data(void *ctx, uint32_t node, int op, tc_flit *flits, int len)
{
    const tc_fpvec *v = ctx;
    if (v->op != TC_OP_FSUM) { /* keys, lane by lane as the ALU reads them; padding keys 0 (lanes apart) */
        unsigned kpf = keys_per_flit(v->lane), w = 128 / kpf;
        for (int f = 0; f < len; f++)
            for (unsigned j = 0; j < kpf; j++) {
                uint64_t i = (uint64_t)op * v->per + (uint64_t)f * kpf + j;
                uint64_t key = i < v->nvals ? tc_fpsum_key_in(v->lane, v->op, v->in[(size_t)node * v->nvals + i]) : 0;
                if (w == 64)
                    flits[f].w[j] = key;
                else
                    flits[f].w[j / 2] = (flits[f].w[j / 2] & ~(0xffffffffull << (32 * (j % 2)))) |
                                        (key & 0xffffffffu) << (32 * (j % 2));
            }
        return;
    }
    for (int e = 0; 2 * e + 1 < len; e++) {
        uint64_t i = (uint64_t)op * v->per + (uint64_t)e;
        if (i < v->nvals && (unsigned)e < v->per)
            tc_fpsum_in(v->lane, v->in[(size_t)node * v->nvals + i], &flits[2 * e]);
        else /* padding: the identity */
            tc_fpsum_zero(&flits[2 * e]);
    }
}

void tc_fpvec_deliver(void *ctx, uint32_t node, int op, uint64_t cycle, const tc_flit *pkt, int nflits)
{
    tc_fpvec *v = ctx;
    (void)cycle;
    if (node >= v->nodes || op < 0 || (uint64_t)op >= tc_fpvec_ops(v) || nflits != 1 + data_flits(v)) {
        if (!v->err[0])
            snprintf(v->err, sizeof v->err, "node %u: a result of operation %d with %d data flits, not %d", node,
                     op + 1, nflits - 1, data_flits(v));
        return;
    }
    v->got[node] = 1;
    if (v->op != TC_OP_FSUM) {
        unsigned kpf = keys_per_flit(v->lane);
        for (unsigned j = 0; j < v->per; j++) {
            uint64_t i = (uint64_t)op * v->per + j;
            const tc_flit *f = &pkt[1 + j / kpf];
            uint64_t key = kpf == 2 ? f->w[j % 2] : (f->w[j % 4 / 2] >> (32 * (j % 2))) & 0xffffffffu;
            if (i < v->nvals)
                v->out[(size_t)node * v->nvals + i] = tc_fpsum_key_out(v->lane, key);
        }
        return;
    }
    for (unsigned e = 0; e < v->per; e++) {
        uint64_t i = (uint64_t)op * v->per + e;
        if (i < v->nvals)
            v->out[(size_t)node * v->nvals + i] = tc_fpsum_out(v->lane, &pkt[1 + 2 * e]);
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
