#!/usr/bin/env python3
"""The runs of make soak's parameter mode: one tcsim command line per run index, drawn
from the index alone (the same index, the same run), so that a failing run is
reproduced from its line. Each run draws a torus (1D-4D, radices 2 to 17 and named
odd and mixed ones), a table (the planner's or random), a scenario and every
parameter of the network over its legal range, the extremes (one PE credit, two
slots, one data flit, the longest latencies) often, the Reducer's slices (1, 2, 4) and ReduceIds
a tree (16, 32, 64).

A run's cost is about its cycles times its nodes, and a slow PE (one credit, a long
ejection latency) stretches the cycles: each of the few hundred packets a PE takes
costs an ejection credit's round trip. So the torus is drawn after the parameters,
among those whose estimated node-cycles stay within BUDGET (5 million, under a
second of the C model; one run in twenty gets 16 times that): the slowest PEs run on
the smallest tori, the fast ones on up to MAX_NODES.

  soak_draw.py FIRST LAST [MAX_NODES [BUDGET]]
"""
import signal
import sys

NAMED = ["1", "2", "3", "5", "7", "16", "17", "31", "64", "2x16", "3x17", "2x9", "4x4", "5x5", "7x5",
         "15x17", "3x3x3", "4x4x4", "5x2x3", "2x3x5", "8x8x8", "2x2x2x2", "3x3x3x3", "4x4x4x4",
         "2x3x5x7", "6x6x6x6", "4x4x4x2", "3x1x2"]
SCENS = ["soak", "soak", "random", "random", "credits", "many_reduces"]


def mix(x):
    """splitmix64: a well-mixed 64-bit value of x."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


class Draw:
    def __init__(self, run):
        self.state = mix(run * 0x2545F4914F6CDD1D + 1)

    def below(self, n):
        self.state = mix(self.state)
        return self.state % n

    def value(self, lo, hi):
        """lo..hi, each extreme a quarter of the time."""
        r = self.below(4)
        return lo if r == 0 else hi if r == 1 else lo + self.below(hi - lo + 1)


def nodes(t):
    n = 1
    for s in t.split("x"):
        n *= int(s)
    return n


def torus(d, cap):
    while True:
        if d.below(2):
            t = NAMED[d.below(len(NAMED))]
        else:
            t = "x".join(str(2 + d.below(16)) for _ in range(1 + d.below(4)))
        if nodes(t) <= cap:
            return t


def run(i, max_nodes, budget):
    d = Draw(i)
    scen = SCENS[d.below(len(SCENS))]
    table = "random" if d.below(2) else "default"
    slots, inj_slots, pe_credits = d.value(2, 64), d.value(2, 64), d.value(1, 64)
    red_flits, link_lat, inj_lat, ej_lat = d.value(1, 7), d.value(1, 2000), d.value(1, 5000), d.value(1, 5000)
    # cycles: ~400 packets into each PE, ~50 out, the links' latencies, a floor
    cycles = 400 * (2 * ej_lat + 8) // pe_credits + 50 * (2 * inj_lat + 8) // inj_slots + 40 * link_lat + 20000
    if d.below(20) == 0:
        budget *= 16
    t = torus(d, max(1, min(max_nodes, budget // cycles)))
    red_slices = 1 << d.below(3)  # drawn after the rest: the draws before it are those of earlier soaks
    red_rids = 16 << d.below(3)   # 16, 32 or 64 ReduceIds a tree; drawn last, likewise
    # fsum_stripe in half of many_reduces' runs that can run it (red_flits 2 or more: a
    # binned element is 2 flits), chosen by a hash of the index, not a draw, so that
    # every run keeps the torus and parameters it drew before; both are streams of
    # some 300 reduces a PE, of about the same cost
    if scen == "many_reduces" and red_flits >= 2 and mix(i * 0x9E3779B97F4A7C15 + 2) % 2:
        scen = "fsum_stripe"
    args = [("topo", t), ("scen", scen), ("seed", i), ("table", table), ("slots", slots),
            ("inj-slots", inj_slots), ("pe-credits", pe_credits), ("red-flits", red_flits),
            ("red-rids", red_rids), ("red-slices", red_slices), ("link-lat", link_lat), ("inj-lat", inj_lat), ("ej-lat", ej_lat)]
    return " ".join("--%s %s" % a for a in args) + " --fast"


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a soak stopped early: no traceback
    first, last = int(sys.argv[1]), int(sys.argv[2])
    max_nodes = int(sys.argv[3]) if len(sys.argv) > 3 else 1296
    budget = int(sys.argv[4]) if len(sys.argv) > 4 else 5000000
    for i in range(first, last + 1):
        print(run(i, max_nodes, budget))


if __name__ == "__main__":
    main()
