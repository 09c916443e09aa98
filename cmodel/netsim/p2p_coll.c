/* The collective algorithms of MPI libraries on the point-to-point model (the
 * packets of cmodel/netsim/p2p.c), with LogGP software costs, and the default choices of
 * Open MPI and MPICH. docs/p2p.md, "Algorithms and selection".
 *
 * An algorithm is a list of phases; a phase is a number of steps; in a step a rank
 * sends at most one message and receives at most one (MPI_Sendrecv), and goes on to
 * the next step once its receive is processed. A send costs the sender o_send of
 * CPU, then leaves, no sooner than `gap` after the node's last injection; a receive
 * costs o_recv once the message is whole at the PE and the CPU free, plus the
 * reduction's arithmetic when it combines data. Sends do not wait for delivery.
 *
 * Volumes: a vector of len flits is cut into blocks of whole flits, len / B each
 * and one more for the first len % B (B: the ranks, or the power of two below them
 * for Rabenseifner's). A block of no flit still travels as a message without data
 * (one packet of its header: the MPI envelope). */
#include "p2p_sim.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tc_p2p_alg_names[TC_P2P_ALGS + 1] = {
    "classic", "binomial", "linear", "scatter_rd", "scatter_ring", "recursive_doubling", "rabenseifner",
    "ring",    "reduce_bcast", "bruck", "dissemination", "tree", "knomial", NULL};

/* Open MPI's k-nomial broadcast radix, coll_tuned_bcast_knomial_radix's default
 * (ompi/mca/coll/tuned/coll_tuned_bcast_decision.c). */
#define KNOMIAL_RADIX 4

#define OP(k) (1u << (k))
#define BARRIERS (OP(TC_WL_BARRIER) | OP(TC_WL_TREE_BARRIER))

unsigned tc_p2p_alg_ops(tc_p2p_alg a)
{
    static const unsigned ops[TC_P2P_ALGS] = {
        [TC_P2P_CLASSIC] = OP(TC_WL_BCAST) | OP(TC_WL_REDUCE) | OP(TC_WL_ALLREDUCE) | OP(TC_WL_ALLGATHER) | BARRIERS,
        [TC_P2P_BINOMIAL] = OP(TC_WL_BCAST) | OP(TC_WL_REDUCE),
        [TC_P2P_LINEAR] = OP(TC_WL_BCAST) | OP(TC_WL_REDUCE) | BARRIERS,
        [TC_P2P_SCATTER_RD] = OP(TC_WL_BCAST),
        [TC_P2P_SCATTER_RING] = OP(TC_WL_BCAST),
        [TC_P2P_RECDBL] = OP(TC_WL_ALLREDUCE) | OP(TC_WL_ALLGATHER) | BARRIERS,
        [TC_P2P_RABENSEIFNER] = OP(TC_WL_ALLREDUCE) | OP(TC_WL_REDUCE),
        [TC_P2P_RING] = OP(TC_WL_ALLREDUCE) | OP(TC_WL_ALLGATHER),
        [TC_P2P_REDUCE_BCAST] = OP(TC_WL_ALLREDUCE),
        [TC_P2P_BRUCK] = OP(TC_WL_ALLGATHER),
        [TC_P2P_DISSEMINATION] = BARRIERS,
        [TC_P2P_TREE] = BARRIERS,
        [TC_P2P_KNOMIAL] = OP(TC_WL_BCAST),
    };
    return (unsigned)a < TC_P2P_ALGS ? ops[a] : 0;
}

int tc_p2p_alg_fits(tc_p2p_alg a, tc_wl_kind kind, int n)
{
    if ((unsigned)kind >= 32 || !(tc_p2p_alg_ops(a) & OP(kind)))
        return 0;
    return a != TC_P2P_SCATTER_RD || (n & (n - 1)) == 0;
}

/* ---- the libraries' default choices ---- */

/* A rule's row: for n < nmax ranks and bytes < bmax, the library picks `name`. */
typedef struct {
    int nmax;
    uint64_t bmax;
    const char *name;
} rule;

#define NX INT_MAX
#define BX UINT64_MAX

/* Open MPI's coll/tuned fixed decisions for commutative operations
 * (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c of Open MPI 5, the tables
 * re-generated for Open MPI 4.1 from the ompi-collectives-tuning measurements):
 * bytes is the vector (allgather: a rank's block). */
static const rule ompi_allreduce[] = {
    {4, 8, "ring"}, {4, 4096, "recursive_doubling"}, {4, 8192, "ring"}, {4, 16384, "recursive_doubling"},
    {4, 65536, "ring"}, {4, 262144, "segmented_ring"}, {4, BX, "rabenseifner"},
    {8, 16, "ring"}, {8, 8192, "recursive_doubling"}, {8, BX, "rabenseifner"},
    {16, 8192, "recursive_doubling"}, {16, BX, "rabenseifner"},
    {32, 64, "segmented_ring"}, {32, 4096, "recursive_doubling"}, {32, BX, "rabenseifner"},
    {64, 128, "segmented_ring"}, {64, BX, "rabenseifner"},
    {128, 262144, "recursive_doubling"}, {128, BX, "rabenseifner"},
    {256, 131072, "nonoverlapping"}, {256, 262144, "recursive_doubling"}, {256, BX, "rabenseifner"},
    {512, 4096, "nonoverlapping"}, {512, BX, "rabenseifner"},
    {2048, 2048, "nonoverlapping"}, {2048, 16384, "recursive_doubling"}, {2048, BX, "rabenseifner"},
    {4096, 2048, "nonoverlapping"}, {4096, 4096, "segmented_ring"}, {4096, 16384, "recursive_doubling"},
    {4096, BX, "rabenseifner"},
    {NX, 2048, "nonoverlapping"}, {NX, 16384, "segmented_ring"}, {NX, 32768, "recursive_doubling"},
    {NX, BX, "rabenseifner"},
};
static const rule ompi_barrier[] = {
    {4, BX, "recursive_doubling"}, {8, BX, "linear"}, {64, BX, "recursive_doubling"}, {256, BX, "bruck"},
    {512, BX, "tree"}, {1024, BX, "bruck"}, {4096, BX, "tree"}, {NX, BX, "bruck"},
};
static const rule ompi_bcast[] = {
    {4, 32, "pipeline"}, {4, 256, "binary_tree"}, {4, 512, "pipeline"}, {4, 1024, "knomial"},
    {4, 32768, "basic_linear"}, {4, 131072, "binary_tree"}, {4, 262144, "chain"}, {4, 524288, "basic_linear"},
    {4, 1048576, "binomial"}, {4, BX, "binary_tree"},
    {8, 64, "binary_tree"}, {8, 128, "binomial"}, {8, 2048, "binary_tree"}, {8, 8192, "binomial"},
    {8, 1048576, "basic_linear"}, {8, BX, "chain"},
    {16, 8, "knomial"}, {16, 64, "binary_tree"}, {16, 4096, "knomial"}, {16, 16384, "binary_tree"},
    {16, 32768, "binomial"}, {16, BX, "basic_linear"},
    {32, 4096, "knomial"}, {32, 1048576, "binomial"}, {32, BX, "scatter_allgather"},
    {64, 2048, "binomial"}, {64, BX, "knomial"},
    {128, BX, "knomial"},
    {256, 2, "binomial"}, {256, 16384, "binary_tree"}, {256, 32768, "basic_linear"}, {256, 65536, "binary_tree"},
    {256, BX, "knomial"},
    {1024, 16384, "knomial"}, {1024, 32768, "split_binary_tree"}, {1024, BX, "knomial"},
    {2048, 524288, "knomial"}, {2048, BX, "scatter_allgather"},
    {4096, 262144, "knomial"}, {4096, BX, "scatter_allgather"},
    {NX, 8192, "knomial"}, {NX, 16384, "binary_tree"}, {NX, 262144, "knomial"}, {NX, BX, "scatter_allgather"},
};
static const rule ompi_reduce[] = {
    {4, 8, "rabenseifner"}, {4, 16, "binary"}, {4, 32, "pipeline"}, {4, 262144, "linear"}, {4, 524288, "pipeline"},
    {4, 1048576, "chain"}, {4, BX, "pipeline"},
    {8, 4096, "binary"}, {8, 65536, "chain"}, {8, 262144, "binomial"}, {8, 524288, "linear"},
    {8, 1048576, "binomial"}, {8, BX, "linear"},
    {16, 8192, "binary"}, {16, BX, "binomial"},
    {32, 4096, "binary"}, {32, BX, "binomial"},
    {256, BX, "binomial"},
    {512, 8192, "binomial"}, {512, 16384, "in-order_binary"}, {512, BX, "binomial"},
    {2048, BX, "binomial"},
    {4096, 512, "binomial"}, {4096, 1024, "in-order_binary"}, {4096, 8192, "binomial"},
    {4096, 16384, "in-order_binary"}, {4096, BX, "binomial"},
    {NX, 16, "binomial"}, {NX, 32, "in-order_binary"}, {NX, 1024, "binomial"}, {NX, 2048, "in-order_binary"},
    {NX, 8192, "binomial"}, {NX, 16384, "in-order_binary"}, {NX, BX, "binomial"},
};
static const rule ompi_allgather[] = {
    {3, BX, "two_proc"}, /* n == 2 (n == 1 has nothing to do) */
    {32, BX, "recursive_doubling"},
    {64, 1024, "recursive_doubling"}, {64, 65536, "neighbor"}, {64, BX, "ring"},
    {128, 512, "recursive_doubling"}, {128, 65536, "neighbor"}, {128, BX, "ring"},
    {256, 512, "recursive_doubling"}, {256, 131072, "neighbor"}, {256, 524288, "ring"}, {256, 1048576, "neighbor"},
    {256, BX, "ring"},
    {512, 32, "recursive_doubling"}, {512, 128, "bruck"}, {512, 1024, "recursive_doubling"},
    {512, 131072, "neighbor"}, {512, 524288, "ring"}, {512, 1048576, "neighbor"}, {512, BX, "ring"},
    {1024, 64, "recursive_doubling"}, {1024, 256, "bruck"}, {1024, 2048, "recursive_doubling"},
    {1024, BX, "neighbor"},
    {2048, 4, "recursive_doubling"}, {2048, 8, "bruck"}, {2048, 16, "recursive_doubling"}, {2048, 32, "bruck"},
    {2048, 256, "recursive_doubling"}, {2048, 512, "bruck"}, {2048, 4096, "recursive_doubling"},
    {2048, BX, "neighbor"},
    {4096, 32, "bruck"}, {4096, 128, "recursive_doubling"}, {4096, 512, "bruck"},
    {4096, 4096, "recursive_doubling"}, {4096, BX, "neighbor"},
    {NX, 2, "recursive_doubling"}, {NX, 8, "bruck"}, {NX, 16, "recursive_doubling"}, {NX, 512, "bruck"},
    {NX, 4096, "recursive_doubling"}, {NX, BX, "neighbor"},
};

static const char *lookup(const rule *r, size_t nr, int n, uint64_t bytes)
{
    for (size_t i = 0; i < nr; i++)
        if (n < r[i].nmax && bytes < r[i].bmax)
            return r[i].name;
    return r[nr - 1].name;
}

#define LOOKUP(t, n, b) lookup(t, sizeof t / sizeof t[0], n, b)

/* Open MPI's name to the algorithm modelled: itself, or the nearest one modelled
 * (docs/p2p.md): the k-nomial broadcast is built (radix 4, unsegmented); the other
 * unsegmented trees (binary, in-order binary) run as the binomial tree; the segmented, bandwidth-minded ones (pipeline, chain, split
 * binary) as the scatter + ring all-gather broadcast and Rabenseifner's reduce;
 * segmented ring as ring; neighbour exchange as ring (the same volume a rank);
 * Bruck's barrier is the dissemination barrier; recursive-doubling all-gather on a
 * number of ranks not a power of two is Bruck's in Open MPI itself. */
static tc_p2p_alg ompi_model(tc_wl_kind kind, int n, const char *name)
{
    static const struct {
        const char *name;
        tc_p2p_alg bcast, reduce, other;
    } map[] = {
        {"binomial", TC_P2P_BINOMIAL, TC_P2P_BINOMIAL, TC_P2P_BINOMIAL},
        {"knomial", TC_P2P_KNOMIAL, TC_P2P_BINOMIAL, TC_P2P_BINOMIAL},
        {"binary_tree", TC_P2P_BINOMIAL, TC_P2P_BINOMIAL, TC_P2P_BINOMIAL},
        {"binary", TC_P2P_BINOMIAL, TC_P2P_BINOMIAL, TC_P2P_BINOMIAL},
        {"in-order_binary", TC_P2P_BINOMIAL, TC_P2P_BINOMIAL, TC_P2P_BINOMIAL},
        {"basic_linear", TC_P2P_LINEAR, TC_P2P_LINEAR, TC_P2P_LINEAR},
        {"linear", TC_P2P_LINEAR, TC_P2P_LINEAR, TC_P2P_LINEAR},
        {"pipeline", TC_P2P_SCATTER_RING, TC_P2P_RABENSEIFNER, TC_P2P_RING},
        {"chain", TC_P2P_SCATTER_RING, TC_P2P_RABENSEIFNER, TC_P2P_RING},
        {"split_binary_tree", TC_P2P_SCATTER_RING, TC_P2P_RABENSEIFNER, TC_P2P_RING},
        {"scatter_allgather", TC_P2P_SCATTER_RD, TC_P2P_RABENSEIFNER, TC_P2P_RING},
        {"rabenseifner", TC_P2P_RABENSEIFNER, TC_P2P_RABENSEIFNER, TC_P2P_RABENSEIFNER},
        {"recursive_doubling", TC_P2P_RECDBL, TC_P2P_RECDBL, TC_P2P_RECDBL},
        {"ring", TC_P2P_RING, TC_P2P_RING, TC_P2P_RING},
        {"segmented_ring", TC_P2P_RING, TC_P2P_RING, TC_P2P_RING},
        {"neighbor", TC_P2P_RING, TC_P2P_RING, TC_P2P_RING},
        {"nonoverlapping", TC_P2P_REDUCE_BCAST, TC_P2P_REDUCE_BCAST, TC_P2P_REDUCE_BCAST},
        {"two_proc", TC_P2P_RECDBL, TC_P2P_RECDBL, TC_P2P_RECDBL},
        {"bruck", TC_P2P_BRUCK, TC_P2P_BRUCK, TC_P2P_BRUCK},
        {"tree", TC_P2P_TREE, TC_P2P_TREE, TC_P2P_TREE},
    };
    tc_p2p_alg a = TC_P2P_BINOMIAL;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(map[i].name, name))
            a = kind == TC_WL_BCAST ? map[i].bcast : kind == TC_WL_REDUCE ? map[i].reduce : map[i].other;
    if (kind == TC_WL_BARRIER || kind == TC_WL_TREE_BARRIER)
        a = a == TC_P2P_BRUCK ? TC_P2P_DISSEMINATION : a;
    if (a == TC_P2P_SCATTER_RD && (n & (n - 1)))
        a = TC_P2P_SCATTER_RING;
    if (kind == TC_WL_ALLGATHER && a == TC_P2P_RECDBL && (n & (n - 1)))
        a = TC_P2P_BRUCK;
    return a;
}

tc_p2p_alg tc_p2p_pick_ompi(tc_wl_kind kind, int n, uint64_t bytes, const char **lib)
{
    const char *name;
    switch (kind) {
    case TC_WL_BCAST:
        name = LOOKUP(ompi_bcast, n, bytes);
        break;
    case TC_WL_REDUCE:
        name = LOOKUP(ompi_reduce, n, bytes);
        break;
    case TC_WL_ALLREDUCE:
        name = LOOKUP(ompi_allreduce, n, bytes);
        break;
    case TC_WL_ALLGATHER:
        name = LOOKUP(ompi_allgather, n, bytes);
        break;
    default:
        name = LOOKUP(ompi_barrier, n, bytes);
        break;
    }
    if (lib)
        *lib = name;
    return ompi_model(kind, n, name);
}

/* MPICH 3.2's defaults (src/mpi/coll/bcast.c, allreduce.c, reduce.c, allgather.c,
 * barrier.c; the CVARs' defaults in src/util/cvar/mpich_cvars.c). Counts in 8-byte
 * elements (MPI_DOUBLE) where the rule compares a count with the ranks. */
enum {
    BCAST_SHORT_MSG_SIZE = 12288,
    BCAST_LONG_MSG_SIZE = 524288,
    BCAST_MIN_PROCS = 8,
    ALLREDUCE_SHORT_MSG_SIZE = 2048,
    REDUCE_SHORT_MSG_SIZE = 2048,
    ALLGATHER_SHORT_MSG_SIZE = 81920,
    ALLGATHER_LONG_MSG_SIZE = 524288,
};

tc_p2p_alg tc_p2p_pick_mpich(tc_wl_kind kind, int n, uint64_t bytes, const char **lib)
{
    int pof2 = 1, pow2 = (n & (n - 1)) == 0;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    uint64_t count = bytes / 8;
    tc_p2p_alg a;
    const char *name;
    switch (kind) {
    case TC_WL_BCAST:
        if (bytes < BCAST_SHORT_MSG_SIZE || n < BCAST_MIN_PROCS)
            a = TC_P2P_BINOMIAL, name = "binomial";
        else if (bytes < BCAST_LONG_MSG_SIZE && pow2)
            a = TC_P2P_SCATTER_RD, name = "scatter_doubling_allgather";
        else
            a = TC_P2P_SCATTER_RING, name = "scatter_ring_allgather";
        break;
    case TC_WL_REDUCE:
        if (bytes > REDUCE_SHORT_MSG_SIZE && count >= (uint64_t)pof2)
            a = TC_P2P_RABENSEIFNER, name = "reduce_scatter_gather";
        else
            a = TC_P2P_BINOMIAL, name = "binomial";
        break;
    case TC_WL_ALLREDUCE:
        if (bytes <= ALLREDUCE_SHORT_MSG_SIZE || count < (uint64_t)pof2)
            a = TC_P2P_RECDBL, name = "recursive_doubling";
        else
            a = TC_P2P_RABENSEIFNER, name = "reduce_scatter_allgather";
        break;
    case TC_WL_ALLGATHER: { /* MPICH compares the gathered total */
        uint64_t tot = bytes * (uint64_t)n;
        if (tot < ALLGATHER_LONG_MSG_SIZE && pow2)
            a = TC_P2P_RECDBL, name = "recursive_doubling";
        else if (tot < ALLGATHER_SHORT_MSG_SIZE)
            a = TC_P2P_BRUCK, name = "brucks";
        else
            a = TC_P2P_RING, name = "ring";
        break;
    }
    default:
        a = TC_P2P_DISSEMINATION, name = "dissemination";
        break;
    }
    if (lib)
        *lib = name;
    return a;
}

/* ---- the algorithms as phases of steps ---- */

enum {
    PH_BIN_BCAST,  /* binomial tree from rank 0: in step k, r < 2^k sends to r + 2^k */
    PH_KNOM_BCAST, /* k-nomial tree from rank 0, a level of K - 1 steps from the top: in step j of level l, r
                      = 0 mod K^(l+1) sends to r + j K^l (Open MPI's bcast knomial) */
    PH_BIN_REDUCE, /* binomial tree into rank 0: in step k, r = 2^k mod 2^(k+1) sends to r - 2^k */
    PH_LIN_BCAST,  /* step k: 0 sends to k + 1 */
    PH_LIN_REDUCE, /* step k: k + 1 sends to 0 */
    PH_SCATTER,    /* binomial scatter of the blocks from rank 0, the largest subtree first (MPICH's) */
    PH_AG_RING,    /* ring all-gather of the blocks: step k, r sends a block to r + 1 */
    PH_AG_RD,      /* recursive-doubling all-gather of the blocks, n a power of two */
    PH_FOLD_PRE,   /* ranks not a power of two: each extra rank hands its data to its neighbour */
    PH_FOLD_POST,  /* ... and gets the result back */
    PH_RD,         /* recursive doubling among the power of two left: exchange with nr ^ 2^k */
    PH_RS_HALVE,   /* reduce-scatter by recursive halving (bit k of nr in step k) */
    PH_AG_DOUBLE,  /* all-gather by recursive doubling, the halving undone */
    PH_GATHER0,    /* binomial gather of the halves into nr 0, the halving undone */
    PH_RING_RS,    /* ring reduce-scatter */
    PH_BRUCK,      /* Bruck's all-gather: step k, r sends min(2^k, n - 2^k) blocks to r - 2^k */
    PH_DISSEM,     /* dissemination: step k, r sends to r + 2^k */
    PH_PAIRWISE,   /* pairwise exchange: step k, r sends to r + k + 1 and receives from r - k - 1 */
    PH_SCAN_RD,    /* a scan's recursive doubling (MPICH's): step k, r exchanges with r ^ 2^k if below n */
};

typedef struct {
    int to, flits, recv, reduce; /* to: a relative rank, or -1 */
} act;

#define NPH 4

typedef struct {
    tc_wl_kind kind; /* tree_barrier as barrier; TC_WL_KINDS: a collective of tc_p2p_other (no reduction but
                        the phase's own, a vector of len flits) */
    int n, root, len, logn, logk, pof2, logp, rem; /* logk: levels of the k-nomial tree */
    int extra_odd; /* folding: the extra ranks are the odd ones below 2 rem (else the even ones) */
    int nph, ph[NPH], start[NPH + 1];
    const int *node;
    const tc_p2p_loggp *c;
    int *step;
    uint8_t *sent;
    uint64_t *ready, *nic;
    uint64_t *got; /* [rank][step]: when its message arrived, or NOT_YET */
    int *gotf;     /* [rank][step]: its data flits */
    int clash;     /* a second message for one step: a plan that does not match */
} sched;

#define NOT_YET UINT64_MAX

/* Flits of blocks a to b of len flits cut into nb blocks. */
static int64_t blocks(int64_t len, int64_t nb, int64_t a, int64_t b)
{
    int64_t q = len / nb, r = len % nb;
    return (b * q + (b < r ? b : r)) - (a * q + (a < r ? a : r));
}

/* The rank among the power of two of a folding, or -1 for an extra rank; and back. */
static int newrank(const sched *s, int r)
{
    if (r >= 2 * s->rem)
        return r - s->rem;
    return (r & 1) == s->extra_odd ? -1 : r / 2;
}
static int oldrank(const sched *s, int nr) { return nr < s->rem ? 2 * nr + !s->extra_odd : nr + s->rem; }

/* Ranks that newranks a to b stand for (newranks below rem stand for two). */
static int64_t stand_for(const sched *s, int a, int b)
{
    int hi = b < s->rem ? b : s->rem;
    return (int64_t)(b - a) + (hi > a ? hi - a : 0);
}

/* The first block of nr's window after halving step k (of size pof2 / 2^(k+1)). */
static int window(const sched *s, int nr, int k)
{
    int st = 0;
    for (int j = 0; j <= k; j++)
        if (nr >> j & 1)
            st += s->pof2 >> (j + 1);
    return st;
}

static int phase_steps(const sched *s, int ph)
{
    switch (ph) {
    case PH_LIN_BCAST:
    case PH_LIN_REDUCE:
    case PH_AG_RING:
    case PH_RING_RS:
    case PH_PAIRWISE:
        return s->n - 1;
    case PH_FOLD_PRE:
    case PH_FOLD_POST:
        return 1;
    case PH_KNOM_BCAST:
        return (KNOMIAL_RADIX - 1) * s->logk;
    case PH_RD:
    case PH_RS_HALVE:
    case PH_AG_DOUBLE:
    case PH_GATHER0:
        return s->logp;
    default:
        return s->logn;
    }
}

/* What step `step` holds for relative rank r. */
static act plan(const sched *s, int r, int step)
{
    act a = {-1, 0, 0, 0};
    int p = 0;
    while (step >= s->start[p + 1])
        p++;
    int k = step - s->start[p], n = s->n, len = s->len;
    int red = s->kind == TC_WL_ALLREDUCE || s->kind == TC_WL_REDUCE, ag = s->kind == TC_WL_ALLGATHER;
    int vec = s->kind == TC_WL_BARRIER ? 0 : len, mask = k < 30 ? 1 << k : 0;
    int nr = newrank(s, r);
    switch (s->ph[p]) {
    case PH_BIN_BCAST:
        if (r < mask && r + mask < n)
            a.to = r + mask, a.flits = vec;
        a.recv = r >= mask && r < 2 * mask;
        break;
    case PH_BIN_REDUCE:
        if (r % (2 * mask) == mask)
            a.to = r - mask, a.flits = vec;
        a.recv = r % (2 * mask) == 0 && r + mask < n, a.reduce = red;
        break;
    case PH_KNOM_BCAST: {
        int64_t lm = 1; /* K^l of this step's level */
        for (int l = s->logk - 1 - k / (KNOMIAL_RADIX - 1); l > 0; l--)
            lm *= KNOMIAL_RADIX;
        int64_t j = k % (KNOMIAL_RADIX - 1) + 1;
        if (r % (KNOMIAL_RADIX * lm) == 0 && r + j * lm < n)
            a.to = (int)(r + j * lm), a.flits = vec;
        a.recv = r % (KNOMIAL_RADIX * lm) == j * lm;
        break;
    }
    case PH_LIN_BCAST:
        if (r == 0)
            a.to = k + 1, a.flits = vec;
        a.recv = r == k + 1;
        break;
    case PH_LIN_REDUCE:
        if (r == k + 1)
            a.to = 0, a.flits = vec;
        a.recv = r == 0, a.reduce = red;
        break;
    case PH_SCATTER: {
        int m = 1 << (s->logn - 1 - k), hi = r + 2 * m < n ? r + 2 * m : n;
        if (r % (2 * m) == 0 && r + m < n)
            a.to = r + m, a.flits = (int)blocks(len, n, r + m, hi);
        a.recv = r % (2 * m) == m;
        break;
    }
    case PH_AG_RING: { /* after a ring reduce-scatter, r holds block r + 1 */
        int b = ((r + (s->kind == TC_WL_ALLREDUCE) - k) % n + n) % n;
        a.to = (r + 1) % n, a.flits = ag ? len : (int)blocks(len, n, b, b + 1), a.recv = 1;
        break;
    }
    case PH_AG_RD: {
        int lo = r & ~(mask - 1);
        a.to = r ^ mask, a.flits = (int)blocks(len, n, lo, lo + mask), a.recv = 1;
        break;
    }
    case PH_RING_RS: {
        int b = ((r - k) % n + n) % n;
        a.to = (r + 1) % n, a.flits = (int)blocks(len, n, b, b + 1), a.recv = 1, a.reduce = 1;
        break;
    }
    case PH_FOLD_PRE:
        if (r < 2 * s->rem) {
            if (nr < 0)
                a.to = s->extra_odd ? r - 1 : r + 1, a.flits = vec;
            else
                a.recv = 1, a.reduce = red;
        }
        break;
    case PH_FOLD_POST:
        if (r < 2 * s->rem) {
            if (nr >= 0)
                a.to = s->extra_odd ? r + 1 : r - 1, a.flits = ag ? (n - 1) * len : vec;
            else
                a.recv = 1;
        }
        break;
    case PH_RD:
        if (nr >= 0) {
            int lo = nr & ~(mask - 1);
            a.to = oldrank(s, nr ^ mask), a.recv = 1, a.reduce = red;
            a.flits = ag ? (int)(len * stand_for(s, lo, lo + mask)) : vec;
        }
        break;
    case PH_RS_HALVE:
        if (nr >= 0) {
            int half = s->pof2 >> (k + 1), st = k ? window(s, nr, k - 1) : 0;
            int send = nr >> k & 1 ? st : st + half; /* keep the lower half when bit k is 0 */
            a.to = oldrank(s, nr ^ mask), a.recv = 1, a.reduce = 1;
            a.flits = (int)blocks(len, s->pof2, send, send + half);
        }
        break;
    case PH_AG_DOUBLE:
        if (nr >= 0) {
            int b = s->logp - 1 - k, st = window(s, nr, b);
            a.to = oldrank(s, nr ^ (1 << b)), a.recv = 1;
            a.flits = (int)blocks(len, s->pof2, st, st + (s->pof2 >> (b + 1)));
        }
        break;
    case PH_GATHER0:
        if (nr >= 0) {
            int b = s->logp - 1 - k, st = window(s, nr, b);
            if (nr >> (b + 1))
                break; /* sent its part already */
            if (nr >> b & 1)
                a.to = oldrank(s, nr ^ (1 << b)), a.flits = (int)blocks(len, s->pof2, st, st + (s->pof2 >> (b + 1)));
            else
                a.recv = 1;
        }
        break;
    case PH_BRUCK: {
        int d = 1 << k;
        a.to = ((r - d) % n + n) % n, a.flits = (d < n - d ? d : n - d) * len, a.recv = 1;
        break;
    }
    case PH_DISSEM:
        a.to = (r + (1 << k)) % n, a.recv = 1;
        break;
    case PH_PAIRWISE:
        a.to = (r + k + 1) % n, a.flits = len, a.recv = 1;
        break;
    case PH_SCAN_RD:
        if ((r ^ mask) < n)
            a.to = r ^ mask, a.flits = len, a.recv = 1, a.reduce = 1;
        break;
    default:
        break;
    }
    return a;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static int node_of(const sched *s, int r)
{
    int v = (r + s->root) % s->n;
    return s->node ? s->node[v] : v;
}

/* Rank r goes through every step it can complete now. */
static void advance(sim *sm, int r)
{
    sched *s = sm->ctx;
    int steps = s->start[s->nph];
    const tc_p2p_loggp *c = s->c;
    while (s->step[r] < steps) {
        int k = s->step[r];
        act a = plan(s, r, k);
        if (a.to >= 0 && !s->sent[r]) { /* o on the CPU, then on its way, g after the last */
            uint64_t t0 = s->ready[r] + c->o_send, inj = max64(t0, s->nic[r]);
            s->nic[r] = inj + c->gap;
            s->ready[r] = t0;
            tc_p2p_sim_send(sm, node_of(s, r), node_of(s, a.to), a.to, a.flits, k, inj);
        }
        s->sent[r] = 1;
        if (a.recv) {
            size_t i = (size_t)r * (size_t)steps + (size_t)k;
            if (s->got[i] == NOT_YET)
                return;
            uint64_t red = a.reduce ? ((uint64_t)s->gotf[i] * c->red_mcyc + 999) / 1000 : 0;
            s->ready[r] = max64(s->ready[r], s->got[i]) + c->o_recv + red;
        }
        s->step[r]++;
        s->sent[r] = 0;
    }
}

static void arrived(sim *sm, const message *g, uint64_t t)
{
    sched *s = sm->ctx;
    size_t i = (size_t)g->to * (size_t)s->start[s->nph] + (size_t)g->round;
    if (s->got[i] != NOT_YET)
        s->clash = 1;
    s->got[i] = t;
    s->gotf[i] = g->flits;
    if (s->step[g->to] == g->round)
        advance(sm, g->to);
}

/* The phases of algorithm a for kind; 0 if it has none. */
static int phases(sched *s, tc_p2p_alg a)
{
    static const struct {
        tc_p2p_alg a;
        tc_wl_kind kind;
        int extra_odd, nph, ph[NPH];
    } algs[] = {
        {TC_P2P_BINOMIAL, TC_WL_BCAST, 0, 1, {PH_BIN_BCAST}},
        {TC_P2P_KNOMIAL, TC_WL_BCAST, 0, 1, {PH_KNOM_BCAST}},
        {TC_P2P_BINOMIAL, TC_WL_REDUCE, 0, 1, {PH_BIN_REDUCE}},
        {TC_P2P_LINEAR, TC_WL_BCAST, 0, 1, {PH_LIN_BCAST}},
        {TC_P2P_LINEAR, TC_WL_REDUCE, 0, 1, {PH_LIN_REDUCE}},
        {TC_P2P_LINEAR, TC_WL_BARRIER, 0, 2, {PH_LIN_REDUCE, PH_LIN_BCAST}},
        {TC_P2P_SCATTER_RD, TC_WL_BCAST, 0, 2, {PH_SCATTER, PH_AG_RD}},
        {TC_P2P_SCATTER_RING, TC_WL_BCAST, 0, 2, {PH_SCATTER, PH_AG_RING}},
        {TC_P2P_RECDBL, TC_WL_ALLREDUCE, 0, 3, {PH_FOLD_PRE, PH_RD, PH_FOLD_POST}},
        {TC_P2P_RECDBL, TC_WL_ALLGATHER, 0, 3, {PH_FOLD_PRE, PH_RD, PH_FOLD_POST}},
        {TC_P2P_RECDBL, TC_WL_BARRIER, 0, 3, {PH_FOLD_PRE, PH_RD, PH_FOLD_POST}},
        {TC_P2P_RABENSEIFNER, TC_WL_ALLREDUCE, 0, 4, {PH_FOLD_PRE, PH_RS_HALVE, PH_AG_DOUBLE, PH_FOLD_POST}},
        {TC_P2P_RABENSEIFNER, TC_WL_REDUCE, 1, 3, {PH_FOLD_PRE, PH_RS_HALVE, PH_GATHER0}}, /* rank 0 stays */
        {TC_P2P_RING, TC_WL_ALLREDUCE, 0, 2, {PH_RING_RS, PH_AG_RING}},
        {TC_P2P_RING, TC_WL_ALLGATHER, 0, 1, {PH_AG_RING}},
        {TC_P2P_REDUCE_BCAST, TC_WL_ALLREDUCE, 0, 2, {PH_BIN_REDUCE, PH_BIN_BCAST}},
        {TC_P2P_BRUCK, TC_WL_ALLGATHER, 0, 1, {PH_BRUCK}},
        {TC_P2P_DISSEMINATION, TC_WL_BARRIER, 0, 1, {PH_DISSEM}},
        {TC_P2P_TREE, TC_WL_BARRIER, 0, 2, {PH_BIN_REDUCE, PH_BIN_BCAST}},
    };
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++)
        if (algs[i].a == a && algs[i].kind == s->kind) {
            s->extra_odd = algs[i].extra_odd;
            s->nph = algs[i].nph;
            s->start[0] = 0;
            for (int p = 0; p < s->nph; p++) {
                s->ph[p] = algs[i].ph[p];
                s->start[p + 1] = s->start[p] + phase_steps(s, s->ph[p]);
            }
            for (int p = s->nph; p < NPH; p++)
                s->start[p + 1] = s->start[p];
            return 1;
        }
    return 0;
}

/* The schedule of alg for kind on n ranks, len flits: its sizes and phases. */
static sched setup(tc_p2p_alg alg, tc_wl_kind kind, int n, int len)
{
    sched s = {0};
    s.kind = kind == TC_WL_TREE_BARRIER ? TC_WL_BARRIER : kind;
    s.n = n, s.len = len;
    while ((1 << s.logn) < n)
        s.logn++;
    for (int64_t span = 1; span < n; span *= KNOMIAL_RADIX)
        s.logk++;
    s.pof2 = 1;
    while (s.pof2 * 2 <= n)
        s.pof2 *= 2, s.logp++;
    s.rem = n - s.pof2;
    phases(&s, alg);
    return s;
}

/* Runs schedule s (its sizes and phases set) among its n ranks, rank r on node[r]
 * (NULL: node r), with m->cost: as tc_p2p_coll; kn and an name it in m->err. */
static int run(tc_p2p *m, sched *s, const int *node, int root, uint64_t *done, uint64_t *end, const char *kn,
               const char *an)
{
    int n = s->n;
    s->node = node, s->c = &m->cost, s->root = root;
    int steps = s->start[s->nph];
    size_t ngot = (size_t)n * (size_t)(steps ? steps : 1);
    if (ngot > ((size_t)1 << 25)) {
        snprintf(m->err, sizeof m->err, "p2p %s %s: %d steps on %d ranks is too many to track", kn, an, steps, n);
        return -1;
    }
    tc_p2p_idle(m);
    s->step = calloc((size_t)n, sizeof *s->step);
    s->sent = calloc((size_t)n, sizeof *s->sent);
    s->ready = calloc((size_t)n, sizeof *s->ready);
    s->nic = calloc((size_t)n, sizeof *s->nic);
    s->got = malloc(ngot * sizeof *s->got);
    s->gotf = calloc(ngot, sizeof *s->gotf);
    sim sm = {.m = m, .arrived = arrived, .ctx = s};
    sm.oom = !s->step || !s->sent || !s->ready || !s->nic || !s->got || !s->gotf;
    for (size_t i = 0; i < ngot && !sm.oom; i++)
        s->got[i] = NOT_YET;
    for (int r = 0; r < n && !sm.oom; r++)
        advance(&sm, r);
    tc_p2p_sim_run(&sm);
    int rc = 0;
    if (sm.oom) {
        snprintf(m->err, sizeof m->err, "p2p %s %s: out of memory for %d ranks' messages", kn, an, n);
        rc = -1;
    } else if (s->clash) {
        snprintf(m->err, sizeof m->err, "p2p %s %s: two messages for one step on %d ranks", kn, an, n);
        rc = -1;
    }
    for (int r = 0; r < n && !rc; r++) {
        if (s->step[r] != steps) { /* a plan whose sends and receives do not match */
            snprintf(m->err, sizeof m->err, "p2p %s %s: rank %d stopped in step %d of %d on %d ranks", kn, an,
                     (r + s->root) % n, s->step[r], steps, n);
            rc = -1;
        }
        if (done)
            done[(r + s->root) % n] = s->ready[r];
        *end = max64(*end, s->ready[r]);
    }
    tc_p2p_sim_free(&sm);
    free(s->step);
    free(s->sent);
    free(s->ready);
    free(s->nic);
    free(s->got);
    free(s->gotf);
    return rc;
}

int tc_p2p_coll(tc_p2p *m, tc_p2p_alg alg, tc_wl_kind kind, int len, int root, const int *node, int n,
                uint64_t *done, uint64_t *end)
{
    const char *kn = (unsigned)kind < TC_WL_KINDS ? tc_wl_names[kind] : "?";
    const char *an = (unsigned)alg < TC_P2P_ALGS ? tc_p2p_alg_names[alg] : "?";
    *end = 0;
    if (n < 1 || n > m->t.n || root < 0 || root >= n || len < 0) {
        snprintf(m->err, sizeof m->err, "p2p %s: %d ranks (root %d, %d flits) on %d nodes", kn, n, root, len, m->t.n);
        return -1;
    }
    if (!tc_p2p_alg_fits(alg, kind, n)) {
        snprintf(m->err, sizeof m->err, "p2p %s: algorithm %s does not apply%s", kn, an,
                 alg == TC_P2P_SCATTER_RD && tc_p2p_alg_fits(alg, kind, 1) ? " (ranks not a power of two)" : "");
        return -1;
    }
    if (alg == TC_P2P_CLASSIC)
        return tc_p2p_collective_on(m, kind, len, root, node, n, done, end);
    if ((int64_t)len * n > INT_MAX - 8) {
        snprintf(m->err, sizeof m->err, "p2p %s: %d flits on %d ranks is more than a message holds", kn, len, n);
        return -1;
    }
    sched s = setup(alg, kind, n, len);
    return run(m, &s, node, kind == TC_WL_BCAST || kind == TC_WL_REDUCE ? root : 0, done, end, kn, an);
}

const char *const tc_p2p_other_names[TC_P2P_OTHERS + 1] = {"gather", "scatter", "alltoall", "reduce_scatter", "scan",
                                                           NULL};

int tc_p2p_coll_other(tc_p2p *m, tc_p2p_other what, int len, int root, const int *node, int n, uint64_t *end)
{
    /* each one phase; the linear ones are the linear broadcast's and reduce's, without a reduction */
    static const struct {
        int ph;
        const char *alg;
    } one[TC_P2P_OTHERS] = {
        [TC_P2P_GATHER] = {PH_LIN_REDUCE, "linear"},  [TC_P2P_SCATTER] = {PH_LIN_BCAST, "linear"},
        [TC_P2P_ALLTOALL] = {PH_PAIRWISE, "pairwise"}, [TC_P2P_REDUCE_SCATTER] = {PH_RING_RS, "ring"},
        [TC_P2P_SCAN] = {PH_SCAN_RD, "recursive_doubling"},
    };
    const char *kn = (unsigned)what < TC_P2P_OTHERS ? tc_p2p_other_names[what] : "?";
    *end = 0;
    if ((unsigned)what >= TC_P2P_OTHERS || n < 1 || n > m->t.n || root < 0 || root >= n || len < 0 ||
        (int64_t)len * n > INT_MAX - 8) {
        snprintf(m->err, sizeof m->err, "p2p %s: %d ranks (root %d, %d flits) on %d nodes", kn, n, root, len, m->t.n);
        return -1;
    }
    sched s = setup(TC_P2P_CLASSIC, TC_WL_KINDS, n, len); /* the sizes; no phases of tc_p2p_alg */
    s.nph = 1, s.ph[0] = one[what].ph;
    s.start[0] = 0;
    for (int p = 1; p <= NPH; p++)
        s.start[p] = phase_steps(&s, s.ph[0]);
    int gr = what == TC_P2P_GATHER || what == TC_P2P_SCATTER;
    return run(m, &s, node, gr ? root : 0, NULL, end, kn, one[what].alg);
}

int tc_p2p_coll_best(tc_p2p *m, tc_wl_kind kind, int len, int root, const int *node, int n,
                     uint64_t t[TC_P2P_ALGS], tc_p2p_alg *best, uint64_t *done, uint64_t *end)
{
    int found = 0;
    for (int a = 0; a < TC_P2P_ALGS; a++) {
        t[a] = UINT64_MAX;
        if (a == TC_P2P_CLASSIC || !tc_p2p_alg_fits((tc_p2p_alg)a, kind, n))
            continue;
        uint64_t e;
        if (tc_p2p_coll(m, (tc_p2p_alg)a, kind, len, root, node, n, NULL, &e)) {
            if (strstr(m->err, "too many to track"))
                continue; /* a linear or ring algorithm on very many ranks: left out */
            return -1;
        }
        t[a] = e;
        if (!found || e < t[*best])
            *best = (tc_p2p_alg)a;
        found = 1;
    }
    if (!found) {
        snprintf(m->err, sizeof m->err, "p2p %s: no algorithm fits %d ranks",
                 (unsigned)kind < TC_WL_KINDS ? tc_wl_names[kind] : "?", n);
        return -1;
    }
    return tc_p2p_coll(m, *best, kind, len, root, node, n, done, end); /* again, for its done[] and counts */
}

/* Flits a message of f data flits puts on each channel: a header a packet. */
static uint64_t wire(uint64_t f) { return f + (f ? (f + TC_SLOT_FLITS - 2) / (TC_SLOT_FLITS - 1) : 1); }

int tc_p2p_coll_model(tc_p2p *m, tc_p2p_alg alg, tc_wl_kind kind, int len, int n, double rate, tc_p2p_est *r)
{
    const char *kn = (unsigned)kind < TC_WL_KINDS ? tc_wl_names[kind] : "?";
    memset(r, 0, sizeof *r);
    if (alg == TC_P2P_CLASSIC || !tc_p2p_alg_fits(alg, kind, n) || n < 1 || n > m->t.n || len < 0 || rate <= 0 ||
        (int64_t)len * n > INT_MAX - 8) {
        snprintf(m->err, sizeof m->err, "p2p %s: no model of %s with %d flits on %d ranks", kn,
                 (unsigned)alg < TC_P2P_ALGS ? tc_p2p_alg_names[alg] : "?", len, n);
        return -1;
    }
    sched s = setup(alg, kind, n, len);
    int np = m->np, nc = n * (np + 2); /* per node: its links, then injection and ejection */
    uint64_t *ch = malloc((size_t)nc * sizeof *ch);
    if (!ch) {
        snprintf(m->err, sizeof m->err, "p2p %s: out of memory for %d ranks", kn, n);
        return -1;
    }
    for (int p = 0; p < s.nph; p++) {
        /* a ring's steps repeat one pattern: route its first step, count it for all */
        int ring = s.ph[p] == PH_AG_RING || s.ph[p] == PH_RING_RS, last = ring ? s.start[p] + 1 : s.start[p + 1];
        uint64_t times = ring ? (uint64_t)(s.start[p + 1] - s.start[p]) : 1;
        for (int k = s.start[p]; k < last; k++) {
            uint64_t busiest = 0, big = 0, step = 0, red = 0;
            int from = -1, to = -1, recv = 0;
            memset(ch, 0, (size_t)nc * sizeof *ch);
            for (int v = 0; v < n; v++) {
                act a = plan(&s, v, k);
                recv |= a.recv;
                if (a.reduce)
                    red = max64(red, ((uint64_t)a.flits * m->cost.red_mcyc + 999) / 1000);
                if (a.to < 0)
                    continue;
                uint64_t w = wire((uint64_t)a.flits);
                if (from < 0 || (uint64_t)a.flits > big)
                    from = v, to = a.to, big = (uint64_t)a.flits;
                ch[(size_t)v * (size_t)(np + 2) + (size_t)np] += w;
                ch[(size_t)a.to * (size_t)(np + 2) + (size_t)np + 1] += w;
                for (int u = v, d; (d = tc_p2p_dir(&m->t, u, a.to)) >= 0; u = tc_neighbour(&m->t, u, d))
                    ch[(size_t)u * (size_t)(np + 2) + (size_t)d] += w, r->flit_hops += (double)w * (double)times;
            }
            for (int i = 0; i < nc; i++)
                busiest = max64(busiest, ch[i]);
            if (from >= 0) { /* one packet of the step's longest message, alone on the network */
                int one = big < TC_SLOT_FLITS - 1 ? (int)big : TC_SLOT_FLITS - 1;
                tc_p2p_idle(m);
                uint64_t lat = tc_p2p_send(m, from, to, one, 0);
                if (!lat && from != to) {
                    free(ch);
                    snprintf(m->err, sizeof m->err, "p2p %s: out of memory", kn);
                    return -1;
                }
                r->fill += times * lat;
                step = m->cost.o_send + lat + (uint64_t)((double)(busiest - wire((uint64_t)one)) / rate + 0.5);
            }
            if (recv)
                step += m->cost.o_recv + red;
            r->busiest += times * busiest;
            r->model += times * step;
        }
    }
    free(ch);
    return 0;
}
