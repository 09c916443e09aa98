#!/usr/bin/env python3
"""The figures of docs/ from the CSV data beside them (make bench): barrier variants,
hardware against point-to-point collectives, the Liu, Li and Cui, 1995 packet-size sweep.
Usage: sim/plots.py [NAME [CSV SVG]]: NAME's plot from docs/NAME.csv into docs/NAME.svg,
or from CSV into SVG (a sim/*.sh passes its .tmp files, which it moves into place
itself); each SVG is written beside itself and moved into place when complete."""
import csv
import os
import sys

import matplotlib

from atomic import savefig

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams["svg.hashsalt"] = "torcoll"  # the same bytes every run
DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def save(fig, path):
    fig.tight_layout()
    savefig(fig, path, metadata={"Date": None})
    plt.close(fig)
    print("plots: " + os.path.relpath(path, os.path.join(DOCS, "..")))


def dims(torus):
    return len(torus.split("x"))


def barrier(src, dst):
    data = rows(src)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for d, mark in ((3, "o"), (4, "s")):
        r = [x for x in data if dims(x["torus"]) == d]
        n = [int(x["nodes"]) for x in r]
        ax.plot(n, [int(x["multiphase"]) for x in r], mark, color="C0", label=f"multiphase, {d}D, measured")
        ax.plot(n, [int(x["formula"]) for x in r], "-" if d == 3 else "--", color="C0",
                label=f"K(lat_hop+lat_inc)+lat_inj+lat_ej, {d}D")
        ax.plot(n, [int(x["tree"]) for x in r], mark, color="C3", mfc="none", label=f"tree barrier, {d}D, measured")
        ax.plot(n, [int(x["tree_bound"]) for x in r], "-" if d == 3 else "--", color="C3",
                label=f"tree bound t_inj+t_ej+2D t_link, {d}D")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("nodes")
    ax.set_ylabel("cycles (2 ns)")
    ax.set_title("Barrier latency, every node entering at cycle 0")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    save(fig, dst)


def p2p(src, dst):
    data = rows(src)
    ops = ["bcast", "reduce", "allreduce", "barrier", "allgather"]
    fig, axes = plt.subplots(2, 3, figsize=(13, 6.5), sharex=True)
    for ax, op in zip(axes.flat, ops):
        for d, mark in ((3, "o"), (4, "s")):
            r = [x for x in data if x["workload"] == op and dims(x["torus"]) == d]
            n = [int(x["nodes"]) for x in r]
            ax.plot(n, [int(x["hw"]) for x in r], mark + "-", color="C0", label=f"hardware {d}D")
            ax.plot(n, [int(x["p2p"]) for x in r], mark + "--", color="C1", label=f"p2p, the best, LogGP {d}D")
            ax.plot(n, [int(x["p2p_o0"]) for x in r], mark + ":", color="C2", label=f"p2p, the best, o = g = 0 {d}D")
        ax.set_title(op)
        ax.set_xscale("log", base=2)
        ax.grid(alpha=0.3)
        ax.set_ylabel("cycles (2 ns)")
    ax = axes[1][2]  # what the hardware gains: p2p / hw, no software costs
    for op, color in zip(ops, ("C0", "C1", "C2", "C3", "C4")):
        for d, mark in ((3, "o"), (4, "s")):
            r = [x for x in data if x["workload"] == op and dims(x["torus"]) == d]
            ax.plot([int(x["nodes"]) for x in r], [int(x["p2p_o0"]) / int(x["hw"]) for x in r], mark + "-", color=color,
                    label=op if d == 3 else None)
    ax.axhline(1, color="k", lw=0.8)
    ax.set_title("the best point-to-point / hardware (o = g = 0)")
    ax.set_xscale("log", base=2)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    for ax in axes[1]:
        ax.set_xlabel("nodes")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Collective latency: the hardware subnet against software over unicast")
    save(fig, dst)


def pipelined_broadcast(src, dst):
    data = rows(src)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for i, m in enumerate(sorted({int(x["bytes"]) for x in data})):
        r = [x for x in data if int(x["bytes"]) == m]
        size = [16 * int(x["len"]) for x in r]
        ax.plot(size, [int(x["measured"]) for x in r], "o", color=f"C{i}", label=f"M = {m} B, measured")
        ax.plot(size, [float(x["model"]) for x in r], "-", color=f"C{i}", label=f"M = {m} B, model")
    ax.set_yscale("log")
    ax.set_xlabel("packet data m (bytes)")
    ax.set_ylabel("cycles (2 ns)")
    ax.set_title("Broadcast of M bytes in packets of m bytes, 16x16 torus")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3, which="both")
    save(fig, dst)


if __name__ == "__main__":
    if len(sys.argv) == 4:
        globals()[sys.argv[1]](sys.argv[2], sys.argv[3])
    else:
        for name in sys.argv[1:] or ["barrier", "p2p", "pipelined_broadcast"]:
            base = os.path.join(DOCS, name.replace("_", "-"))
            globals()[name](base + ".csv", base + ".svg")
