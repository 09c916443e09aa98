/* The point-to-point model's event simulation, shared by cmodel/netsim/p2p.c (the
 * packets, the classic collectives) and cmodel/netsim/p2p_coll.c (the MPI algorithms).
 * Internal to the two: not a public interface. */
#ifndef TC_P2P_SIM_H
#define TC_P2P_SIM_H

#include "p2p.h"

/* A packet asks for a channel when it is ready: to enter at its PE (INJECT), at a
 * router with its header routed (HOP: a link or the ejection channel); its last
 * flit reaches the PE at DELIVER. */
enum { INJECT, HOP, DELIVER };

typedef struct {
    uint64_t t, seq;
    int what, pkt, node;
} event;

typedef struct {
    int dst, len, msg;
} packet;

typedef struct {
    int to, round, left, flits; /* left: packets not yet delivered; flits: the message's data */
} message;

/* One simulation: its events in a heap by (time, order of asking), its packets and
 * messages; `arrived` is called as a message's last packet reaches its PE. */
typedef struct sim {
    tc_p2p *m;
    event *ev;
    size_t nev, capev;
    uint64_t seq;
    packet *pk;
    message *msg;
    size_t npk, cappk, nmsg, capmsg;
    int oom;
    void (*arrived)(struct sim *s, const message *g, uint64_t t);
    void *ctx;
} sim;

/* A message of `flits` data flits from node `from` to node `to`, known as `id`
 * (its receiver's rank) in `round`, its PE ready to send at t: packets of at most 7
 * flits (one of none for a message without data), injected back to back. */
void tc_p2p_sim_send(sim *s, int from, int to, int id, int flits, int round, uint64_t t);
/* Every event, in time order, until none is left. */
void tc_p2p_sim_run(sim *s);
void tc_p2p_sim_free(sim *s);
/* Every channel free from cycle 0; the per-node counts back to 0. */
void tc_p2p_idle(tc_p2p *m);

#endif
