/* Golden-model unit tests of one router: replication, the per-block pipeline of a
 * lone packet, credits and bubble flow control, route errors, parameter checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cmodel/net.h"

#define NP 4
#define RIDS 16 /* ReduceIds a tree: the default red_rids */
enum { P_XP, P_XM, P_YP, P_YM };
#define UNIT(port, vc) (2 * (port) + (vc))
#define BCASTER (2 * NP)

typedef struct {
    tc_router r;
    tc_flit buf[TC_NUNITS(NP, 2) * 2 * TC_SLOT_FLITS], red[TC_TREES * RIDS * 3]; /* up to 2 Reducer slices */
    tc_red_entry ent[TC_TREES * RIDS];
    uint32_t obs[TC_OBS_MAX_WORDS];
} rig;

static void setup_rig(rig *g)
{
    memset(g, 0, sizeof *g);
    assert_true(sizeof g->buf / sizeof g->buf[0] >= tc_router_buf_flits(NP, 1, 2, 2));
    tc_router_reset(&g->r, 5, NP, 1, 2, 2, 4, 2, RIDS, g->buf, g->red, g->ent);
    /* tree 0 at node 5: parent X-, children X+, Y+, Y-, PE takes part */
    g->r.row[0] = tc_row_make(0, TC_DIR_XM, 1, 1u << TC_DIR_XP | 1u << TC_DIR_YP | 1u << TC_DIR_YM);
}

static unsigned ev(const rig *g, int unit, unsigned lsb) { return (unsigned)tc_bv_get(g->obs, (unsigned)unit * TC_OBS_UNIT_W + lsb, 1); }
static int granted(const rig *g, int out)
{
    unsigned b = TC_NUNITS(NP, 1) * TC_OBS_UNIT_W + (unsigned)out * TC_OBS_OUT_W;
    return tc_bv_get(g->obs, b, 1) ? (int)tc_bv_get(g->obs, b + 1, 5) : -1;
}

static tc_flit bcast(int len, int src, uint32_t tag)
{
    tc_flit h = {{0, 0}};
    TC_HSET(&h, TYPE, TC_TYPE_BCAST);
    TC_HSET(&h, LEN, (unsigned)len);
    TC_HSET(&h, SRC, (unsigned)src);
    TC_HSET(&h, TAG, tag);
    return h;
}

/* Cycle with an optional flit on one link input (VCDown). */
static void cycle(rig *g, const tc_flit *f, int port, unsigned cred_port_mask)
{
    tc_router_in in;
    memset(&in, 0, sizeof in);
    if (f) {
        in.link[port].valid = 1;
        in.link[port].vc = TC_VC_DOWN;
        in.link[port].flit = *f;
    }
    for (int p = 0; p < NP; p++)
        if ((cred_port_mask >> p) & 1)
            in.cred[p] = 1u << TC_VC_DOWN;
    tc_router_cycle(&g->r, &in, g->obs);
}

static void test_lone_packet(void **state)
{
    (void)state;
    static rig g;
    tc_flit h = bcast(2, 0, 77), d = {{0x1234, 0x5678}};
    setup_rig(&g);
    int u = UNIT(P_XM, TC_VC_DOWN);
    /* BW: header at cycle 0, data at 1 and 2 */
    cycle(&g, &h, P_XM, 0);
    assert_int_equal(ev(&g, u, TC_OBS_U_ARRIVE_LSB), 1);
    assert_int_equal(tc_bv_get(g.obs, (unsigned)u * TC_OBS_UNIT_W + TC_OBS_U_WRTAG_LSB, 32), 77);
    cycle(&g, &d, P_XM, 0);
    assert_int_equal(ev(&g, u, TC_OBS_U_FULL_LSB), 0);
    cycle(&g, &d, P_XM, 0);
    assert_int_equal(ev(&g, u, TC_OBS_U_FULL_LSB), 1);
    /* RC at cycle 3 */
    cycle(&g, NULL, 0, 0);
    assert_int_equal(ev(&g, u, TC_OBS_U_ROUTE_LSB), 1);
    assert_int_equal(tc_bv_get(g.obs, (unsigned)u * TC_OBS_UNIT_W + TC_OBS_U_ERR_LSB, 4), TC_ERR_NONE);
    /* SA at cycle 4: one copy to each child and to the PE, none back up */
    cycle(&g, NULL, 0, 0);
    assert_int_equal(granted(&g, P_XP), u);
    assert_int_equal(granted(&g, P_YP), u);
    assert_int_equal(granted(&g, P_YM), u);
    assert_int_equal(granted(&g, NP), u);
    assert_int_equal(granted(&g, P_XM), -1);
    /* ST: the header leaves every output register at cycle 5, the data at 6 and 7; FR
     * at grant + len = 6, as the last flit is read, and its credit leaves the cycle after */
    for (int k = 0; k < 3; k++) {
        for (int o = 0; o <= NP; o++) { /* not the Reducer */
            assert_int_equal(g.r.o[o].q.valid, o != P_XM);
            if (o != P_XM)
                assert_memory_equal(&g.r.o[o].q.flit, k ? &d : &h, sizeof h);
        }
        assert_int_equal(g.r.o[P_XP].q.vc, TC_VC_DOWN);
        cycle(&g, NULL, 0, 0);
        assert_int_equal(ev(&g, u, TC_OBS_U_FREE_LSB), k == 1);
        assert_int_equal(g.r.cred_q[P_XM], k == 1 ? 1u << TC_VC_DOWN : 0u);
    }
    assert_int_equal(g.r.o[P_XP].cred[TC_VC_DOWN], 1);
    assert_int_equal(g.r.o[NP].cred[0], 3);
}

/* A stream: packets of 3 data flits, one after the other into X- (VCDown, 4 slots, the
 * sender keeping to its credits), each to X+ alone, whose credits come straight
 * back. Store-and-forward and the synchronous read cost no gap: X+ sends a flit in
 * every cycle from the first header to the last flit, each packet intact. */
static void test_stream(void **state)
{
    (void)state;
    enum { SLOTS = 4, PKTS = 12, LEN = 3 };
    static struct {
        tc_router r;
        tc_flit buf[TC_NUNITS(NP, 1) * SLOTS * TC_SLOT_FLITS], red[TC_TREES * RIDS * 3];
        tc_red_entry ent[TC_TREES * RIDS];
    } g;
    memset(&g, 0, sizeof g);
    tc_router_reset(&g.r, 5, NP, 1, SLOTS, SLOTS, 4, 2, RIDS, g.buf, g.red, g.ent);
    g.r.row[1] = tc_row_make(0, TC_DIR_XM, 0, 1u << TC_DIR_XP);
    int sent = 0, idx = 0, credits = SLOTS, out = 0, first = -1, last = -1;
    unsigned back = 0;
    for (int c = 0; c < 200; c++) {
        tc_router_in in;
        memset(&in, 0, sizeof in);
        if (idx || (sent < PKTS && credits)) {
            tc_flit f = bcast(LEN, 0, (uint32_t)(100 + sent));
            TC_HSET(&f, TREE, 1);
            if (idx) {
                f.w[0] = (uint64_t)sent << 8 | (uint64_t)idx;
                f.w[1] = ~f.w[0];
            } else {
                credits--;
            }
            in.link[P_XM] = (tc_wire){1, TC_VC_DOWN, f};
            if (++idx > LEN) {
                idx = 0;
                sent++;
            }
        }
        in.cred[P_XP] = (uint8_t)(back << TC_VC_DOWN);
        tc_router_cycle(&g.r, &in, NULL);
        credits += (g.r.cred_q[P_XM] >> TC_VC_DOWN) & 1;
        const tc_wire *q = &g.r.o[P_XP].q;
        back = q->valid && TC_HGET(&q->flit, TYPE) == TC_TYPE_BCAST && (out % (LEN + 1)) == 0;
        if (q->valid) {
            int p = out / (LEN + 1), i = out % (LEN + 1);
            if (first < 0)
                first = c;
            last = c;
            if (i == 0)
                assert_int_equal(TC_HGET(&q->flit, TAG), 100 + p);
            else
                assert_true(q->flit.w[0] == ((uint64_t)p << 8 | (uint64_t)i) && q->flit.w[1] == ~q->flit.w[0]);
            out++;
        }
    }
    assert_int_equal(out, PKTS * (LEN + 1));
    assert_int_equal(last - first + 1, PKTS * (LEN + 1)); /* no gap */
}

/* Multicast in passes: the outputs free and with credit take a copy together; one
 * whose credit comes later takes its own pass, the packet read again from the SRAM,
 * flit for flit the same. */
static void test_replay(void **state)
{
    (void)state;
    static rig g;
    tc_flit h0 = bcast(0, 0, 1), h = bcast(2, 0, 2), d[2] = {{{11, 12}}, {{21, 22}}};
    int u = UNIT(P_XM, TC_VC_DOWN);
    setup_rig(&g);
    cycle(&g, &h0, P_XM, 0); /* a first packet leaves Y+ and Y- one credit: too few to enter */
    for (int c = 0; c < 3; c++)
        cycle(&g, NULL, 0, 0);
    cycle(&g, &h, P_XM, 0);
    cycle(&g, &d[0], P_XM, 0);
    cycle(&g, &d[1], P_XM, 0);
    cycle(&g, NULL, 0, 0); /* route */
    cycle(&g, NULL, 0, 0); /* one pass: X+ (continues, one credit) and the PE */
    assert_int_equal(granted(&g, P_XP), u);
    assert_int_equal(granted(&g, NP), u);
    assert_int_equal(granted(&g, P_YP), -1);
    for (int k = 0; k < 3; k++) {
        assert_memory_equal(&g.r.o[P_XP].q.flit, k ? &d[k - 1] : &h, sizeof h);
        assert_memory_equal(&g.r.o[NP].q.flit, k ? &d[k - 1] : &h, sizeof h);
        cycle(&g, NULL, 0, k == 2 ? 1u << P_YP : 0);
        assert_int_equal(ev(&g, u, TC_OBS_U_FREE_LSB), 0); /* Y+ and Y- still to go */
    }
    cycle(&g, NULL, 0, 0); /* Y+ has its second credit: a pass of its own */
    assert_int_equal(granted(&g, P_YP), u);
    for (int k = 0; k < 3; k++) {
        assert_memory_equal(&g.r.o[P_YP].q.flit, k ? &d[k - 1] : &h, sizeof h);
        cycle(&g, NULL, 0, 0);
    }
}

static void test_credits_and_bubble(void **state)
{
    (void)state;
    static rig g;
    tc_flit h = bcast(0, 0, 1);
    int u = UNIT(P_XM, TC_VC_DOWN);
    setup_rig(&g);
    cycle(&g, &h, P_XM, 0); /* packet 1: full at once (no data flits) */
    cycle(&g, NULL, 0, 0);  /* route */
    cycle(&g, NULL, 0, 0);  /* grants: X+ (continues its ring, needs 1), Y+/Y- (enter, need 2) */
    assert_int_equal(granted(&g, P_XP), u);
    assert_int_equal(granted(&g, P_YP), u);
    cycle(&g, &h, P_XM, 0); /* free packet 1; packet 2 arrives */
    assert_int_equal(ev(&g, u, TC_OBS_U_FREE_LSB), 1);
    cycle(&g, NULL, 0, 0);  /* route packet 2 */
    cycle(&g, NULL, 0, 0);
    /* X+ has 1 credit left: enough to continue; Y+ and Y- have 1: not enough to enter */
    assert_int_equal(granted(&g, P_XP), u);
    assert_int_equal(granted(&g, P_YP), -1);
    assert_int_equal(granted(&g, P_YM), -1);
    assert_int_equal(granted(&g, NP), u);
    for (int k = 0; k < 20; k++) {
        cycle(&g, NULL, 0, 0);
        assert_int_equal(granted(&g, P_YP), -1);
        assert_int_equal(ev(&g, u, TC_OBS_U_FREE_LSB), 0); /* the slot waits for every copy */
    }
    cycle(&g, NULL, 0, 1u << P_YP); /* a credit comes back on Y+: granted next cycle */
    assert_int_equal(granted(&g, P_YP), -1);
    cycle(&g, NULL, 0, 0);
    assert_int_equal(granted(&g, P_YP), u);
    assert_int_equal(g.r.o[P_YP].cred[TC_VC_DOWN], 1); /* 1 + 1 returned - 1 taken */
    assert_int_equal(g.r.o[P_XP].cred[TC_VC_DOWN], 0);
    cycle(&g, NULL, 0, 1u << P_YM);
    cycle(&g, NULL, 0, 0);
    assert_int_equal(granted(&g, P_YM), u);
    cycle(&g, NULL, 0, 0);
    assert_int_equal(ev(&g, u, TC_OBS_U_FREE_LSB), 1);
}

static void test_route_errors(void **state)
{
    (void)state;
    static rig g;
    const struct {
        int tree, port, vc, type, src, err;
    } cases[] = {
        {1, P_XM, TC_VC_DOWN, TC_TYPE_BCAST, 0, TC_ERR_NO_TREE},
        {0, P_XM, TC_VC_DOWN, 9, 0, TC_ERR_BAD_TYPE},
        {0, P_YP, TC_VC_DOWN, TC_TYPE_BCAST, 0, TC_ERR_BAD_DIR},  /* down, not from the parent */
        {0, P_XM, TC_VC_UP, TC_TYPE_BCAST, 0, TC_ERR_BAD_DIR},    /* up, not from a child */
        {0, -1, 0, TC_TYPE_BCAST, 4, TC_ERR_BAD_SRC},             /* injected as node 4 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tc_router_in in;
        tc_flit h = bcast(0, cases[i].src, 9);
        int u = cases[i].port < 0 ? BCASTER : UNIT(cases[i].port, cases[i].vc);
        setup_rig(&g);
        TC_HSET(&h, TYPE, (unsigned)cases[i].type);
        TC_HSET(&h, TREE, (unsigned)cases[i].tree);
        memset(&in, 0, sizeof in);
        if (cases[i].port < 0) {
            in.inj.valid = 1;
            in.inj.flit = h;
            TC_HSET(&in.inj.flit, SRC, (unsigned)cases[i].src);
        } else {
            in.link[cases[i].port] = (tc_wire){1, (uint8_t)cases[i].vc, h};
        }
        tc_router_cycle(&g.r, &in, g.obs);
        cycle(&g, NULL, 0, 0);
        assert_int_equal(ev(&g, u, TC_OBS_U_ROUTE_LSB), 1);
        assert_int_equal(tc_bv_get(g.obs, (unsigned)u * TC_OBS_UNIT_W + TC_OBS_U_ERR_LSB, 4), cases[i].err);
        cycle(&g, NULL, 0, 0); /* dropped: no copy, slot freed at once */
        for (int o = 0; o <= NP; o++)
            assert_int_equal(granted(&g, o), -1);
        assert_int_equal(ev(&g, u, TC_OBS_U_FREE_LSB), 1);
    }
    for (unsigned e = 0; e <= TC_ERR_RID_ORDER; e++)
        assert_string_not_equal(tc_err_name(e), "unknown error code");
}

/* A PE that ignores its credits overruns the PEGroup FIFO: the packet that finds no
 * free slot is dropped whole and reported; the packets before and after go on. */
static void test_credit_violation(void **state)
{
    (void)state;
    static rig g;
    setup_rig(&g);
    int grants = 0, drops = 0, frees = 0, cred_back = -1;
    for (int c = 0; c < 60; c++) {
        tc_router_in in;
        memset(&in, 0, sizeof in);
        if (c < 4 || c == 30) { /* 4 one-flit packets back to back, then one in time */
            in.inj.valid = 1;
            in.inj.flit = bcast(0, 5, (uint32_t)(100 + c));
        }
        if (c == cred_back) /* the parent frees the slot 5 cycles after each packet */
            in.cred[P_XM] = 1u << TC_VC_UP;
        tc_router_cycle(&g.r, &in, g.obs);
        if (granted(&g, P_XM) == BCASTER) {
            grants++;
            cred_back = c + 5;
        }
        frees += (int)ev(&g, BCASTER, TC_OBS_U_FREE_LSB);
        if (ev(&g, BCASTER, TC_OBS_U_DROP_LSB)) {
            /* slot 0 is busy until cycle 3: the packets of cycles 2 and 3 find no room */
            assert_true(c == 2 || c == 3);
            assert_int_equal(tc_bv_get(g.obs, BCASTER * TC_OBS_UNIT_W + TC_OBS_U_WRTAG_LSB, 32), 100 + c);
            assert_int_equal(ev(&g, BCASTER, TC_OBS_U_ARRIVE_LSB), 0);
            drops++;
        }
    }
    assert_int_equal(drops, 2);
    assert_int_equal(grants, 3); /* up to the parent: packets 100, 101 and 130 */
    assert_int_equal(frees, 3);
}

/* The Reducer at node 5: contributions from its PE and its three children are summed
 * lane by lane; the result goes up to the parent (X-) once, as the last arrives; the
 * slot is clear again for the next round, which takes the tree's next ReduceId (in
 * turn); an unknown operation is refused. */
static tc_flit contribution(int op, uint32_t tag, int src, int rid)
{
    tc_flit h = bcast(1, src, tag);
    TC_HSET(&h, TYPE, TC_TYPE_ALLREDUCE);
    TC_HSET(&h, RID, (unsigned)rid);
    TC_HSET(&h, OP, (unsigned)op);
    TC_HSET(&h, LANE, TC_LANE_32);
    return h;
}

static void test_reducer(void **state)
{
    (void)state;
    static rig g;
    setup_rig(&g);
    const int ports[4] = {-1, P_XP, P_YP, P_YM}; /* the PE, then the children */
    for (int round = 0; round < 2; round++) {
        tc_flit sent[2] = {{{0, 0}}, {{0, 0}}};
        int got = 0, lasts = 0, c = 0, cred = -1;
        for (int i = 0; i < 4; i++) {
            tc_flit h = contribution(TC_OP_SUM, 40 + (uint32_t)round, i ? 9 : 5, round);
            tc_flit d = {{(uint64_t)(i + 1) << 32 | 0xffffffffu, (uint64_t)i}};
            for (int f = 0; f < 2; f++, c++) {
                tc_router_in in;
                memset(&in, 0, sizeof in);
                tc_wire w = {1, TC_VC_UP, f ? d : h};
                if (ports[i] < 0)
                    in.inj = w;
                else
                    in.link[ports[i]] = w;
                tc_router_cycle(&g.r, &in, g.obs);
            }
        }
        for (; c < 60; c++) {
            tc_router_in in;
            memset(&in, 0, sizeof in);
            if (c == cred)
                in.cred[P_XM] = 1u << TC_VC_UP;
            tc_router_cycle(&g.r, &in, g.obs);
            unsigned b = TC_NUNITS(NP, 1) * TC_OBS_UNIT_W + TC_NOUTS(NP, 1) * TC_OBS_OUT_W;
            if (tc_bv_get(g.obs, b + TC_OBS_R_HDR_LSB, 1))
                lasts += (int)tc_bv_get(g.obs, b + TC_OBS_R_LAST_LSB, 1);
            if (granted(&g, P_XM) == TC_U_RESULT(NP, 0))
                cred = c + 3;
            if (g.r.o[P_XM].q.valid && got < 2)
                sent[got++] = g.r.o[P_XM].q.flit;
        }
        assert_int_equal(got, 2);
        assert_int_equal(lasts, 1);
        assert_int_equal(TC_HGET(&sent[0], TYPE), TC_TYPE_ALLREDUCE);
        assert_int_equal(TC_HGET(&sent[0], SRC), 5); /* the result leaves from here */
        assert_int_equal(g.r.o[P_XM].q.vc, TC_VC_UP);
        /* lanes: 4 x 0xffffffff wraps to 0xfffffffc; 1+2+3+4 = 10; 0+1+2+3 = 6; 0 */
        assert_int_equal(sent[1].w[0], 10ull << 32 | 0xfffffffcu);
        assert_int_equal(sent[1].w[1], 6);
        assert_int_equal(g.r.red[0].ent[0 * RIDS + round].cnt, 0);
        assert_int_equal(g.r.red[0].nxt[0], round + 1);    /* the tree's next result */
        assert_int_equal(g.r.red[0].pe_nxt[0], round + 1); /* and the PE's next contribution */
    }
    /* op 12 does not exist: refused at injection, nothing reaches the Reducer */
    tc_router_in in;
    memset(&in, 0, sizeof in);
    in.inj = (tc_wire){1, 0, contribution(12, 50, 5, 2)};
    TC_HSET(&in.inj.flit, LEN, 0);
    tc_router_cycle(&g.r, &in, g.obs);
    memset(&in, 0, sizeof in);
    tc_router_cycle(&g.r, &in, g.obs);
    assert_int_equal(ev(&g, BCASTER, TC_OBS_U_ROUTE_LSB), 1);
    assert_int_equal(tc_bv_get(g.obs, BCASTER * TC_OBS_UNIT_W + TC_OBS_U_ERR_LSB, 4), TC_ERR_BAD_OP);
}

/* Reducer slices: with 2, tree 0's contribution (from X+) and tree 1's (from Y+),
 * arriving together, go into slices 0 and 1 in the same cycle; with 1 slice the
 * second waits for the first to stream through (its header and data flit). */
static void test_slices(void **state)
{
    (void)state;
    static rig g;
    for (int ns = 1; ns <= 2; ns++) {
        memset(&g, 0, sizeof g);
        assert_true(sizeof g.buf / sizeof g.buf[0] >= tc_router_buf_flits(NP, ns, 2, 2));
        tc_router_reset(&g.r, 5, NP, ns, 2, 2, 4, 2, RIDS, g.buf, g.red, g.ent);
        for (int tree = 0; tree < 2; tree++)
            g.r.row[tree] = tc_row_make(0, TC_DIR_XM, 1, 1u << TC_DIR_XP | 1u << TC_DIR_YP);
        int first[2] = {-1, -1}, hdr_cycle[2] = {-1, -1}; /* per tree: its grant, its header in a slice */
        for (int c = 0; c < 12; c++) {
            tc_router_in in;
            memset(&in, 0, sizeof in);
            for (int tree = 0; tree < 2 && c < 2; tree++) {
                tc_flit h = contribution(TC_OP_SUM, 60 + (uint32_t)tree, 9, 0), d = {{7, 8}};
                TC_HSET(&h, TREE, (unsigned)tree);
                in.link[tree ? P_YP : P_XP] = (tc_wire){1, TC_VC_UP, c ? d : h};
            }
            tc_router_cycle(&g.r, &in, g.obs);
            for (int k = 0; k < ns; k++) {
                unsigned b = TC_NUNITS(NP, ns) * TC_OBS_UNIT_W + (unsigned)TC_O_RED(NP, k) * TC_OBS_OUT_W;
                int u = tc_bv_get(g.obs, b, 1) ? (int)tc_bv_get(g.obs, b + 1, 5) : -1;
                if (u >= 0)
                    first[u == UNIT(P_YP, TC_VC_UP)] = c;
                b = TC_OBS_RED_LSB(NP, ns, k);
                if (tc_bv_get(g.obs, b + TC_OBS_R_HDR_LSB, 1))
                    hdr_cycle[tc_bv_get(g.obs, b + TC_OBS_R_TAG_LSB, 32) - 60] = c;
            }
        }
        assert_true(first[0] >= 0 && first[1] >= 0);
        assert_int_equal(hdr_cycle[0] - first[0], 1); /* the header in the slice the cycle after its grant */
        assert_int_equal(hdr_cycle[1] - first[1], 1);
        if (ns == 2)
            assert_int_equal(first[0], first[1]); /* both at once */
        else
            assert_int_equal(abs(first[0] - first[1]), 2); /* one after the other: header and data flit */
    }
}

static void test_params(void **state)
{
    (void)state;
    tc_params p;
    char err[128];
    tc_params_default(&p);
    p.slots = 1;
    assert_null(tc_net_new(&p, err, sizeof err));
    assert_non_null(strstr(err, "slots 1"));
    tc_params_default(&p);
    p.inj_slots = 65;
    assert_null(tc_net_new(&p, err, sizeof err));
    assert_non_null(strstr(err, "inj_slots 65"));
    tc_params_default(&p);
    p.link_lat = 0;
    assert_null(tc_net_new(&p, err, sizeof err));
    assert_non_null(strstr(err, "link_lat"));
    tc_params_default(&p);
    p.size[1] = 0;
    assert_null(tc_net_new(&p, err, sizeof err));
    assert_non_null(strstr(err, "dimension Y"));
    tc_params_default(&p);
    tc_net *n = tc_net_new(&p, err, sizeof err);
    assert_non_null(n);
    assert_int_equal(tc_net_topo(n)->n, 16);
    tc_net_free(n);
}


static tc_flit phase_pkt(uint32_t tag)
{
    tc_flit h = {{0, 0}};
    TC_HSET(&h, TYPE, TC_TYPE_PHASE);
    TC_HSET(&h, TAG, tag);
    return h;
}

static unsigned ph_obs(const rig *g, unsigned lsb, unsigned w)
{
    return (unsigned)tc_bv_get(g->obs, TC_OBS_PH_LSB(NP, 1) + lsb, w);
}

/* Phase counters alone: a neighbour that sends a third phase packet ahead breaks
 * lemma 1 and is refused; a phase packet on VCUp is not carried; a barrier request
 * with K beyond the counter is refused; a valid one completes when every link has
 * given one phase packet per phase. */
static void test_phase_counters(void **state)
{
    (void)state;
    static rig g;
    setup_rig(&g);
    tc_flit ph = phase_pkt(0x10000001);
    int u = UNIT(P_XP, TC_VC_DOWN);
    for (int i = 0; i < 3; i++) { /* three phase packets from X+, the router not in a barrier */
        cycle(&g, &ph, P_XP, 0);
        cycle(&g, NULL, 0, 0); /* RC: counted, or refused */
        assert_int_equal(ev(&g, u, TC_OBS_U_ROUTE_LSB), 1);
        assert_int_equal(tc_bv_get(g.obs, (unsigned)u * TC_OBS_UNIT_W + TC_OBS_U_ERR_LSB, 4),
                         i < 2 ? TC_ERR_NONE : TC_ERR_PHASE_AHEAD);
        cycle(&g, NULL, 0, 0);
        assert_int_equal(ev(&g, u, TC_OBS_U_FREE_LSB), 1); /* freed either way: nothing hangs */
        /* the refusal goes to the PE: an ERROR with the phase packet's tag */
        assert_int_equal(ev(&g, TC_U_REPORT(NP, 1), TC_OBS_U_ARRIVE_LSB), i == 2);
    }
    assert_int_equal(g.r.ph.cnt[P_XP], 2);
    assert_int_equal(TC_HGET(&g.r.u[TC_U_REPORT(NP, 1)].mem[0], OP), TC_ERR_PHASE_AHEAD);
    assert_int_equal(TC_HGET(&g.r.u[TC_U_REPORT(NP, 1)].mem[0], TAG), 0x10000001);

    tc_router_in in;
    memset(&in, 0, sizeof in);
    in.link[P_YP].valid = 1; /* on VCUp: not carried there */
    in.link[P_YP].vc = TC_VC_UP;
    in.link[P_YP].flit = ph;
    tc_router_cycle(&g.r, &in, g.obs);
    cycle(&g, NULL, 0, 0);
    assert_int_equal(tc_bv_get(g.obs, (unsigned)UNIT(P_YP, TC_VC_UP) * TC_OBS_UNIT_W + TC_OBS_U_ERR_LSB, 4),
                     TC_ERR_BAD_TYPE);

    /* the PE asks for K = BAR_KMAX + 1, then for a half-barrier of K = 1 */
    for (int k = TC_BAR_KMAX + 1; k >= 1; k = k > 1 ? 1 : 0) {
        memset(&in, 0, sizeof in);
        in.inj.valid = 1;
        TC_HSET(&in.inj.flit, TYPE, TC_TYPE_BARRIER);
        TC_HSET(&in.inj.flit, DST, (unsigned)k);
        TC_HSET(&in.inj.flit, TAG, 99);
        tc_router_cycle(&g.r, &in, g.obs);
        cycle(&g, NULL, 0, 0);
        assert_int_equal(tc_bv_get(g.obs, (unsigned)BCASTER * TC_OBS_UNIT_W + TC_OBS_U_ERR_LSB, 4),
                         k > 1 ? TC_ERR_BAD_BARRIER : TC_ERR_NONE);
        assert_int_equal(ph_obs(&g, TC_OBS_P_ENTER_LSB, 1), k == 1);
        cycle(&g, NULL, 0, 0);
        assert_int_equal(ph_obs(&g, TC_OBS_P_SEND_LSB, 1), k == 1); /* the first phase packet */
    }
    /* X+ already gave 2; the other links give one each: the only phase completes and
     * no other phase packet is sent */
    int done = 0, sent = 0;
    for (int c = 0; c < 40 && !done; c++) {
        memset(&in, 0, sizeof in);
        if (c < 3) {
            in.link[P_XM + c].valid = 1;
            in.link[P_XM + c].vc = TC_VC_DOWN;
            in.link[P_XM + c].flit = ph;
        }
        for (int p = 0; p < NP; p++)
            in.cred[p] = 0;
        tc_router_cycle(&g.r, &in, g.obs);
        sent += (int)ph_obs(&g, TC_OBS_P_SEND_LSB, 1);
        done = (int)ph_obs(&g, TC_OBS_P_DONE_LSB, 1);
    }
    assert_int_equal(sent, 0);
    assert_int_equal(done, 1);
    assert_int_equal(g.r.ph.total, 1);
    assert_int_equal(g.r.ph.cnt[P_XP], 1); /* one phase ahead of this node, kept */
    assert_int_equal(g.r.ph.cnt[P_XM], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lone_packet),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_replay),
        cmocka_unit_test(test_credits_and_bubble),
        cmocka_unit_test(test_route_errors),
        cmocka_unit_test(test_credit_violation),
        cmocka_unit_test(test_reducer),
        cmocka_unit_test(test_slices),
        cmocka_unit_test(test_phase_counters),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
