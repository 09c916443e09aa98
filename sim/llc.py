#!/usr/bin/env python3
"""Liu, Li and Cui (1995), formulas (4)-(9): software store-and-forward broadcast on an
n x n torus, without and with pipelining, computed for the machines of its table 1 at
the paper's examples (n = 16, M = C = 1024 and 2048 bits/cycles, Tsnd = Trcv), beside
the design's own pipelined broadcast measured by sim/pipelined_broadcast.sh (its CSV, argv[1]).
Prints a markdown section for docs/pipelined-broadcast.md."""
import csv
import math
import sys

# table 1: cycle (ns), w (bits a cycle), Tsnd + Trcv, g, r (cycles)
MACHINES = {"NCUBE/2": (25, 1, 6400, 6400, 40), "CM-5": (25, 4, 3600, 3600, 8), "DASH": (30, 16, 30, 40, 2),
            "J-machine": (31, 8, 16, 40, 2), "Monsoon": (20, 16, 10, 10, 2)}
PAPER = {("CM-5", 1024): "pipelining does not pay (8)", ("DASH", 1024): "m = 248, 2560 -> 2240, 12.5%",
         ("DASH", 2048): "29%", ("Monsoon", 1024): "m = 144, 2240 -> 1628, 27.3%", ("Monsoon", 2048): "34%"}
N = 16


def times(w, sr, g, r, M, C, m):
    """(4) without pipelining; (6') with blocks of m bits, the gap between blocks the
    larger of 4g and Trcv + 3 Tsnd + C m / M."""
    ts = tr = sr / 2
    t = N * (sr + M / w + r) + C
    gap = max(4 * g, tr + 3 * ts + C * m / M)
    tp = N * (sr + m / w + r) + (math.ceil(M / m) - 1) * gap + C * m / M
    return t, tp


def row(name, M):
    cyc, w, sr, g, r = MACHINES[name]
    C = M
    ts = tr = sr / 2
    pays = N * M / w + C >= 4 * g or N * M / w >= tr + 3 * ts  # (8)
    # (9): the branch whose assumption holds at its own m
    m_a = math.sqrt(4 * g / (N / w + C / M))
    m_b = math.sqrt((tr + 3 * ts) * w * M / N)
    m9 = m_b if 4 * g < tr + 3 * ts + C * m_b / M else m_a
    m9 = max(1, min(M, round(m9)))
    t, tp = times(w, sr, g, r, M, C, m9)
    best = min(range(1, M + 1), key=lambda m: times(w, sr, g, r, M, C, m)[1])
    tb = times(w, sr, g, r, M, C, best)[1]
    red = 100 * (t - tp) / t
    return (f"| {name} | {M} | {4 * g} | {tr + 3 * ts:.0f} | {'yes' if pays else 'no'} | {m9} | {t:.0f} | {tp:.0f} | "
            f"{red:.1f}% | {best} ({100 * (t - tb) / t:.1f}%) | {PAPER.get((name, M), '')} |"), red, pays


def main():
    print("\n## Liu, Li and Cui's own examples, formulas (4)-(9)\n")
    print("Liu, Li and Cui (1995) model a broadcast on an n x n torus in which every processor "
          "receives a block, then sends it on in software (Tsnd, Trcv; g between two sends; w bits a "
          "cycle on a link; r a hop; C the computation on the data): (4) without pipelining, (6') with "
          "blocks of m bits, (7) the difference, (8) when pipelining pays, (9) the best m. Computed here "
          "for the machines of their table 1 at their examples, n = 16, M = C = 1024 and 2048, "
          "Tsnd = Trcv (sim/llc.py); the last column quotes the paper.\n")
    print("| machine | M (bits) | 4g | Trcv + 3Tsnd | (8) pays | m by (9) | t (4) | t' (6') at m | "
          "reduction | best integer m (reduction) | Liu, Li and Cui (1995) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    reds = {}
    for name in ("CM-5", "DASH", "J-machine", "Monsoon"):
        for M in (1024, 2048):
            line, red, pays = row(name, M)
            print(line)
            if M == 2048 and pays and name != "CM-5":
                reds[name] = red
    print(f"\nAt M = 2048 bits the reduction is DASH {reds['DASH']:.0f}% and Monsoon {reds['Monsoon']:.0f}%, the "
          "paper's \"about 30%\" and its 29% and 34%; J-machine, which its closing sentence also names, comes "
          f"out at {reds['J-machine']:.0f}% by the same formulas. At M = 1024 DASH's 12.5% and m = 248 are the "
          "paper's; Monsoon's (9) gives m = 143.1, which the paper rounds up to 144 (1628 cycles; 143 gives "
          "1619). (9) treats [M/m] as M/m: a block that divides M does better than (9)'s m (DASH, M = 1024: "
          "256 bits, 4 blocks instead of 5, 23% instead of 12.5%), the \"best integer m\" column. CM-5's gap "
          "g (3600 cycles) exceeds what pipelining saves: at M = 1024 (8) fails, as the paper says; at "
          "M = 2048 (8)'s second condition holds, but no m < M gains (the best m is M). J-machine at M = 1024 "
          "sits on the boundary of (9)'s two cases (4g = Trcv + 3Tsnd + C m/M at m = 128): the first case's "
          "m = 7 loses, m = 128 gains 46.7%.\n")
    data = [r for r in csv.DictReader(open(sys.argv[1])) if r["bytes"] == "256"]
    if data:
        meas = {int(r["len"]) * 16: int(r["measured"]) for r in data}
        best = min(meas, key=meas.get)
        print(f"Beside it, the hardware (the measurements above): the same M = 2048 bits (256 bytes) from "
              f"the root of a 16x16 torus takes {meas[112]} cycles in packets of 112 bytes and "
              f"{meas[best]} in the best, {best} bytes: {100 * (meas[112] - meas[best]) / meas[112]:.1f}% "
              "less. The routers forward a packet's flits as they arrive, so a long packet is already "
              "pipelined over the hops; splitting it only shortens the per-hop packet time (len + 3 "
              "cycles a hop) against the credit loops, and the gain is small where software "
              "store-and-forward gains a third.")


if __name__ == "__main__":
    main()
