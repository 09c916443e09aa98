#!/usr/bin/env python3
"""make apps: the applications of Mukosey, Semenov and Simonov (2015) on tcnet:
the all-gather's steady-state model calibrated and validated on exact runs, SpMV and
the heat equation on 4D tori of 8 to 32768 nodes, with the paper's compute rates and
the rates the shipped kernels (build/tckern) measure here. Writes
docs/applications.md, docs/apps.csv, docs/apps_spmv.svg, docs/apps_heat.svg."""
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import matplotlib

from atomic import savefig, write_text  # each file written beside itself, moved into place when complete

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams["svg.hashsalt"] = "torcoll"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DOCS = os.path.join(ROOT, "docs")
TCNET = os.path.join(ROOT, "build", "tcnet")
TCKERN = os.path.join(ROOT, "build", "tckern")
TORI = ["2x2x2x1", "2x2x2x2", "4x2x2x2", "4x4x2x2", "4x4x4x2", "4x4x4x4", "8x4x4x4", "8x8x4x4",
        "8x8x8x4", "8x8x8x8", "16x8x8x8", "16x16x8x8", "16x16x16x8"]
N, D = 20480000, 10
CELLS = [40960000, 81920000, 163840000]
PAPER_SPMV, PAPER_HEAT = 591.0, 11000.0  # Mflop/s a node
LARGE = 256  # nodes from which the subnet's large-torus rate applies
AG = ["recursive_doubling", "bruck", "ring"]  # the all-gathers the baseline times (cmodel/netsim/apps.c)
# LogGP's o and g in cycles of 2 ns; the default is LogGOPSim's (1500 and 1000 ns, docs/p2p.md)
LOGGP = [(0, 0), (375, 250), (750, 500), (1500, 1000)]
DEFAULT = (750, 500)
# the subnet's all-gather at application size runs exactly up to this many nodes (over an hour in all: make apps)
EXACT_NODES = int(os.environ.get("APPS_EXACT_NODES", "4096"))
EXACT_DIR = os.path.join(ROOT, "build", "apps-exact")
DATA = os.path.join(ROOT, "build", "apps-data.json")  # the last run's figures, for APPS_DOCS_ONLY
ENGINE_SRC = ["cmodel/netsim/pkt_allgather.c", "cmodel/netsim/pkt_allgather.h", "cmodel/table.c", "cmodel/topo.c", "cmodel/net.h"]
# the models checked at the packets a node of the node counts listed, on tori run exactly: both (every
# p2p algorithm too), ...
VALIDATE = [("4x4x2x2", [512, 4096, 8192, 32768]), ("8x4x4x4", [32768])]
# ... and the subnet's alone (its packet engine; p2p's event model keeps every packet, too many here)
VALIDATE_HW = [("8x8x4x4", 8192), ("8x8x8x4", 16384), ("8x8x8x8", 32768)]


def packets(p):
    """Packets of 7 flits a node's part of the SpMV vector takes on p nodes."""
    return -(-(-(-N // p) * 8) // 112)


def nodes(t):
    n = 1
    for s in t.split("x"):
        n *= int(s)
    return n


def tcnet(*args):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([TCNET, "progress=off", "json=" + f.name, *args], check=True, stdout=subprocess.DEVNULL)
        return json.load(open(f.name))


def kern(*args):
    """The better of one thread and all (OpenMP): on this shared machine a second
    thread often waits at every step's barrier for a core."""
    best = 0.0
    for threads in ("1", str(os.cpu_count())):
        out = subprocess.run([TCKERN, *map(str, args)], check=True, capture_output=True, text=True,
                             env={**os.environ, "OMP_NUM_THREADS": threads}).stdout
        best = max(best, float(out.split()[-1]))
    return best


_T0 = time.monotonic()


def log(*a):
    """A progress line: minutes:seconds since the start, then what runs or ran."""
    t = int(time.monotonic() - _T0)
    print("apps: [%d:%02d]" % (t // 60, t % 60), *a, file=sys.stderr, flush=True)


def calibrate():
    """Exact runs of small all-gathers; the subnet's rate fitted on the calibration set,
    the models' error on the validation set (p2p: every algorithm, at its rate 1)."""
    runs = []
    for t in TORI[:6]:
        p = nodes(t)
        for k in (4, 16, 64):
            if p * k > 256 * 16:  # keep each run under about 10 s
                continue
            j = tcnet("topo=" + t, "workload=spmv", f"spmv_n={p * 14 * k}", "exact=on")
            runs.append((t, p, k, j))
            log("calibration", t, k, j["hw"]["cycles"], j["p2p"]["cycles"])
    j = tcnet("topo=8x4x4x4", "workload=spmv", f"spmv_n={512 * 14 * 4}", "exact=on")  # about a minute
    runs.append(("8x4x4x4", 512, 4, j))
    cal = [r for r in runs if r[1] in (8, 32, 128, 256)]

    def rate(r):
        h = r[3]["hw"]
        return (h["busiest"] - 8) / (h["cycles"] - h["fill"])  # flits at rate 1

    # The subnet streams its all-gather at a lower rate on 256 nodes and more than on
    # the small tori: a rate for each (LARGE).
    rates = {"hw": statistics.median(rate(r) for r in cal if r[1] < LARGE),
             "hw_large": statistics.median(rate(r) for r in cal if r[1] >= LARGE)}

    def model(r):
        h = r[3]["hw"]
        return h["fill"] + (h["busiest"] - 8) / rates["hw_large" if r[1] >= LARGE else "hw"]

    rows = []
    for r in runs:
        a = r[3]["p2p_algs"]
        rows.append({"torus": r[0], "nodes": r[1], "packets": r[2], "set": "calibration" if r in cal else "validation",
                     "hw_exact": r[3]["hw"]["cycles"], "hw_model": round(model(r)),
                     **{f"{x}_{k}": a[x][v] for x in AG for k, v in (("exact", "cycles"), ("model", "model"))}})
    return rates, rows


def take_lock(lock):
    """Whether this process now holds lock (a file with its pid); a lock whose process
    is gone (a run killed) is taken over."""
    while True:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                os.kill(int(open(lock).read().strip() or 0), 0)
                return False
            except (ProcessLookupError, ValueError):
                os.unlink(lock)  # its process is gone
                continue
            except FileNotFoundError:
                continue
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return True


def exact_hw(t, part_bytes):
    """The subnet's all-gather of SpMV at application size, run exactly by the packet
    engine (tcnet engine=packet): cycles and the run's wall time. Up to half an hour a run, so
    each is kept in build/apps-exact/, valid while the engine's and the planner's
    sources are unchanged."""
    args = [TCNET, "topo=" + t, "workload=allgather", "engine=packet", "len=7", f"bytes={part_bytes}", "progress=off"]
    h = hashlib.sha256()
    for src in ENGINE_SRC:
        h.update(open(os.path.join(ROOT, src), "rb").read())
    os.makedirs(EXACT_DIR, exist_ok=True)
    path = os.path.join(EXACT_DIR, f"{t}_{part_bytes}_{h.hexdigest()[:16]}.txt")
    while not os.path.exists(path):
        if os.environ.get("APPS_CACHED_ONLY"):
            return None
        if not take_lock(path + ".lock"):  # the same run under way in another process (sim/apps.py exact)
            log("waiting for the exact run of", t, part_bytes, "under way in another process")
            time.sleep(30)
            continue
        try:
            log("exact all-gather on the subnet:", t, part_bytes, "bytes a node")
            out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
            with open(path + ".tmp", "w") as f:
                f.write(out)
            os.rename(path + ".tmp", path)
        finally:
            os.unlink(path + ".lock")
    out = open(path).read()
    cyc = int(re.search(r"latency per operation \(cycles\) min (\d+)", out).group(1))
    wall = float(re.search(r"run ([0-9.]+) s", out).group(1))
    return cyc, wall


def err(row, w):
    return 100.0 * (row[f"{w}_model"] - row[f"{w}_exact"]) / row[f"{w}_exact"]


def hw_model(t, k, rate):
    """The subnet's model of an all-gather of k packets a node on torus t at rate."""
    return tcnet("topo=" + t, "workload=spmv", f"spmv_n={nodes(t) * 14 * k}", "exact=off", f"hw_rate={rate}")["hw"]["model"]


def validate(hw_rate):
    """The models at the packets a node they are used at, on tori small enough to run
    exactly: the subnet's beyond EXACT_NODES (its rate from LARGE), p2p's everywhere
    but 8 nodes (every algorithm, at the default LogGP costs)."""
    rows = []
    used = {nodes(t): packets(nodes(t)) for t in TORI}
    for t, ks in VALIDATE:
        p = nodes(t)
        for n in ks:
            k = used[n]
            j = tcnet("topo=" + t, "workload=spmv", f"spmv_n={p * 14 * k}", "exact=on",
                      f"hw_rate={hw_rate[p >= LARGE]}")
            rows.append({"torus": t, "nodes": p, "packets": k, "used_at": n, "hw_exact": j["hw"]["cycles"],
                         "hw_model": j["hw"]["model"],
                         **{f"{x}_{w}": j["p2p_algs"][x][v] for x in AG for w, v in (("exact", "cycles"), ("model", "model"))}})
            log("validation", t, k, j["hw"]["cycles"], j["hw"]["model"])
    return rows


def trace_demo():
    """The demo MPI program under mpirun with the PMPI recorder, replayed on 8x8x8 (and
    again without software costs: the collectives' ratio then)."""
    tr = "build/apps_demo.trace"  # relative to ROOT, the commands' directory
    root = ["--allow-run-as-root"] if os.getuid() == 0 else []
    env = {**os.environ, "TC_TRACE": tr}
    run = subprocess.run(["mpirun", *root, "--oversubscribe", "-np", "8", "-x",
                          "LD_PRELOAD=" + os.path.join(ROOT, "build", "libtcpmpi.so"), "-x", "TC_TRACE",
                          os.path.join(ROOT, "build", "heat_mpi"), "256", "40"],
                         check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    rep, rep0 = (subprocess.run([TCNET, "topo=8x8x8", "workload=trace", "trace=" + tr, "progress=off", *og],
                                check=True, capture_output=True, text=True, cwd=ROOT).stdout
                 for og in ([], ["o=0", "g=0"]))
    rep = rep[rep.index("trace " + tr):]  # the totals, not every call
    head = [l for l in open(os.path.join(ROOT, tr)) if not l.startswith("#")][:4]
    return run.stdout.strip(), "".join(head).rstrip("\n"), rep, re.search(r"collectives hw .*?\(([0-9.]+x)\)", rep0).group(1)


def gains(r):
    """An SpMV row's gains from its all-gathers' cycles and compute rates."""
    for name, rate in (("paper", PAPER_SPMV), ("measured", r["mflops_measured"])):
        tc = 2 * D * r["rows"] / (rate * 1e6)
        th = tc + r["hw_cycles"] * 2e-9
        for og in LOGGP:
            r[f"gain_{name}_o{og[0]}"] = (tc + r[f"p2p_o{og[0]}"] * 2e-9) / th - 1
        # the former baseline: recursive doubling without software costs
        r[f"gain_{name}_former"] = (tc + r["recursive_doubling_o0"] * 2e-9) / th - 1
        r[f"gflops_hw_{name}"] = 2 * D * N / th / 1e9
        r[f"gflops_p2p_{name}"] = 2 * D * N / (tc + r[f"p2p_o{DEFAULT[0]}"] * 2e-9) / 1e9
    return r


def validate_hw(hw_large):
    """The subnet's model against its packet engine on large tori (VALIDATE_HW)."""
    rows = []
    for t, n in VALIDATE_HW:
        p, k = nodes(t), packets(n)
        x = exact_hw(t, 112 * k)
        if x:
            rows.append({"torus": t, "nodes": p, "packets": k, "used_at": n, "hw_exact": x[0], "wall": x[1],
                         "hw_model": hw_model(t, k, hw_large)})
    return rows


def p2p_args(og):
    """tcnet's keys for LogGP costs o, g (with the rule: the applications always time both networks)."""
    return [] if og == DEFAULT else ["p2p_alg=auto", f"o={og[0]}", f"g={og[1]}"]


def main():
    demo = trace_demo()
    rates, cal = calibrate()
    hw_rate, hw_large = (max(1, min(1000, round(1000 * rates[w]))) for w in ("hw", "hw_large"))
    val = validate((hw_rate, hw_large))
    val_hw = validate_hw(hw_large)
    spmv = []
    for i, t in enumerate(TORI, 1):
        p = nodes(t)
        log(f"spmv: {t} ({i} of {len(TORI)})")
        hr = f"hw_rate={hw_rate if p < LARGE else hw_large}"
        # 8 nodes: every all-gather simulated (10^7 packets each, minutes) at the default costs; else the p2p model
        js = {og: tcnet("topo=" + t, "workload=spmv", hr, "exact=" + ("on" if p == 8 and og == DEFAULT else "off"),
                        *p2p_args(og)) for og in LOGGP}
        j = js[DEFAULT]
        rows = j["part_bytes"] // 8
        hw, hw_exact, wall = j["hw"]["cycles"], j["hw"]["exact"], None
        if not hw_exact and p <= EXACT_NODES:
            x = exact_hw(t, j["part_bytes"])
            if x:
                hw, hw_exact, wall = x[0], True, x[1]
        meas = kern("spmv", rows, N, D)
        r = {"torus": t, "nodes": p, "packets": j["packets"], "rows": rows, "hw_cycles": hw, "hw_exact": hw_exact,
             "hw_wall_s": wall, "hw_model": j["hw"]["model"], "mflops_measured": meas}
        for og, jj in js.items():
            tag = f"o{og[0]}"
            r[f"p2p_{tag}"] = jj["p2p"]["cycles"]
            r[f"p2p_{tag}_alg"] = jj["p2p_alg"]
            r[f"p2p_{tag}_exact"] = jj["p2p"]["exact"]
            for a in AG:
                r[f"{a}_{tag}"] = jj["p2p_algs"][a]["cycles"]
        spmv.append(gains(r))
        log("spmv", t, f"{r[f'gain_paper_o{DEFAULT[0]}']:.3f}")
    heat = []
    for i, t in enumerate(TORI, 1):
        log(f"heat: {t} ({i} of {len(TORI)})")
        ar = {og: tcnet("topo=" + t, "workload=heat", *p2p_args(og)) for og in LOGGP}
        for c in CELLS:
            p = nodes(t)
            j = tcnet("topo=" + t, "workload=heat", f"heat_cells={c}")
            meas = kern("heat", j["local"])
            r = {"cells": c, "torus": t, "nodes": p, "halo": j["halo_cycles"], "ar_hw": j["allreduce_hw"],
                 "ar_alg": j["p2p_alg"], "mflops_measured": meas,
                 **{f"ar_p2p_o{og[0]}": ar[og]["allreduce_p2p"] for og in LOGGP},
                 **{f"ar_alg_o{og[0]}": ar[og]["p2p_alg"] for og in LOGGP}}
            for name, rate in (("paper", PAPER_HEAT), ("measured", meas)):
                ts = 16 * j["local"] / (rate * 1e6)
                s = 2e-9
                for og in LOGGP:
                    a = r[f"ar_p2p_o{og[0]}"]
                    r[f"gain_{name}_o{og[0]}"] = (ts + a * s) / (ts + r["ar_hw"] * s)
                    r[f"gain_{name}_halo_o{og[0]}"] = (ts + (r["halo"] + a) * s) / (ts + (r["halo"] + r["ar_hw"]) * s)
            heat.append(r)
            log("heat", c, t, f"{r[f'gain_paper_o{DEFAULT[0]}']:.2f}")
    data = [rates, (hw_rate, hw_large), cal, val, val_hw, spmv, heat, demo]
    write_text(DATA, json.dumps(data))
    write(*data)


def docs_only():
    """APPS_DOCS_ONLY=1: the page again from the last run's data (build/apps-data.json),
    with the exact runs build/apps-exact/ has gained since in place of the model."""
    rates, hw_rate, cal, val, val_hw, spmv, heat, demo = json.load(open(DATA))
    for r in spmv:
        x = None if r["hw_exact"] or r["nodes"] > EXACT_NODES else exact_hw(r["torus"], r["rows"] * 8)
        if x:
            r["hw_cycles"], r["hw_exact"], r["hw_wall_s"] = x[0], True, x[1]
            gains(r)
    for r in val:  # the subnet's model at the rate of its torus's size
        r["hw_model"] = hw_model(r["torus"], r["packets"], hw_rate[r["nodes"] >= LARGE])
    write(rates, hw_rate, cal, val, validate_hw(hw_rate[1]), spmv, heat, demo)



def demo_section(demo):
    """The page's trace-demo paragraphs (lines) from trace_demo()'s run."""
    L = []
    w = L.append
    w('`make trace-demo` runs tb/mpi/heat_mpi.c, the heat equation with a strip decomposition (a broadcast of the parameters, an allreduce (max) a step, a reduce of the total every 10 steps, the halo exchanged with `MPI_Sendrecv`, a barrier and an all-gather at the end), under mpirun with 8 ranks on this machine and replays it on an 8x8x8 torus. This run (' + demo[0] + "):\n")
    w("    " + demo[1].replace("\n", "\n    "))
    w("    ...\n")
    w("    " + "\n    ".join(demo[2].splitlines()))
    ratio = len(demo) > 3 and re.search(r"collectives hw .*?\(([0-9.]+x)\)", demo[2])  # (a run before this: none)
    w("\nThe compute gaps are what the 8 ranks took on this 2-core machine (oversubscribed), so the collectives are a small part of the replayed run; the per-call ratios are the point. "
      + (f"They are mostly the software costs of point-to-point, o at each end of every message: replayed with o = g = 0 the collectives take {demo[3]} as long over point-to-point as with the subnet, against {ratio.group(1)} above. "
         if ratio else "") + "The Fortran test program's replay shows the rest: its two halves from `MPI_Comm_split` each on a tree of their own, the allreduces on the four 1-rank communicators and the 0-byte bcast local, alltoall, gather and scan over point-to-point and named.\n")
    return L

def demo_only():
    """sim/apps.py demo: the trace demo run again (trace_demo) and its paragraphs of
    docs/applications.md replaced, the rest of the page as it is (build/apps-data.json,
    if there is one, gets the new run too): for a change to the replay alone, without
    the exact runs of make apps."""
    demo = trace_demo()
    path = os.path.join(DOCS, "applications.md")
    text = open(path).read()
    a, b = text.index("`make trace-demo` runs"), text.index("## Reproduce\n")
    write_text(path, text[:a] + "\n".join(demo_section(demo)) + "\n" + text[b:])
    if os.path.exists(DATA):
        data = json.load(open(DATA))
        data[-1] = demo
        write_text(DATA, json.dumps(data))
    print("apps: docs/applications.md (the trace demo)")


def write(rates, hw_rate, cal, val, val_hw, spmv, heat, demo):
    lines = []
    for app, rows in (("spmv", spmv), ("heat", heat)):
        keys = list(rows[0])
        lines.append("app," + ",".join(keys) + "\n")
        for r in rows:
            lines.append(app + "," + ",".join(str(r[k]) for k in keys) + "\n")
    write_text(os.path.join(DOCS, "apps.csv"), "".join(lines))
    d = f"o{DEFAULT[0]}"
    # plots
    fig, ax = plt.subplots(figsize=(7, 4.2))
    n = [r["nodes"] for r in spmv]
    ax.plot(n, [100 * r[f"gain_paper_{d}"] for r in spmv], "-", color="C0",
            label=f"against the best all-gather, LogGP o = {DEFAULT[0]}, g = {DEFAULT[1]} cycles")
    ax.plot(n, [100 * r["gain_paper_o0"] for r in spmv], "--", color="C1", label="against the best all-gather, o = g = 0")
    ax.plot(n, [100 * r["gain_paper_former"] for r in spmv], ":", color="C7",
            label="against recursive doubling, o = g = 0 (the former baseline)")
    for r in spmv:
        ax.plot(r["nodes"], 100 * r[f"gain_paper_{d}"], "o" if r["hw_exact"] else "x", color="C0")
    ax.plot([2048], [28], "*", color="C3", markersize=12, label="Mukosey et al. (2015): best gain 28% at 2048")
    ax.plot([], [], "x", color="C0", label="the subnet's all-gather modelled")
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("nodes (4D torus)")
    ax.set_ylabel("SpMV gain of the subnet over p2p, %")
    ax.set_title("compute at the paper's 591 Mflop/s; o: the subnet's all-gather simulated, x: modelled", fontsize=8)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    save(fig, "apps_spmv.svg")
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for i, c in enumerate(CELLS):
        h = [r for r in heat if r["cells"] == c]
        ax.plot([r["nodes"] for r in h], [r[f"gain_paper_{d}"] for r in h], "-o", color=f"C{i}", ms=3,
                label=f"{c // 1000000}M cells, p2p at o = {DEFAULT[0]}, g = {DEFAULT[1]}")
        ax.plot([r["nodes"] for r in h], [r["gain_paper_o0"] for r in h], ":", color=f"C{i}",
                label=f"{c // 1000000}M, p2p at o = g = 0")
    ax.plot([32768, 32768], [3.0, 2.7], "*", color="C3", markersize=12, label="Mukosey et al. (2015): 3x (40M), 2.7x")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("nodes (4D torus)")
    ax.set_ylabel("heat equation: performance hw / p2p")
    ax.set_title("compute + allreduce; p2p: the best allreduce at each size; every point simulated", fontsize=8)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    save(fig, "apps_heat.svg")

    L = []
    w = L.append
    w("# Applications: SpMV and the heat equation on the subnet (generated by sim/apps.sh, make apps)\n")
    w("Mukosey, Semenov and Simonov (2015), \"Simulation of the collective operations subnet of the Angara "
      "network\" (in Russian), sections 3.2 and 3.3, time two programs on a 4D torus with the collective subnet and with "
      "software collectives over point-to-point packets. Here `build/tcnet workload=spmv` and `workload=heat` do "
      "the same on the C model of this design (impl hw) and on the point-to-point baseline of "
      "[p2p.md](p2p.md) (an event model timing every packet on every link, dimension-order routing), with the "
      "paper's network parameters (500 MHz, 80 ns links, 300 ns PCIe each way). The baseline is the one an MPI "
      "library tuned for the machine would approach: **every algorithm MPI libraries use for the operation, the "
      "fastest at each size** (`p2p_alg=auto`; all-gather: recursive doubling, Bruck's, ring; allreduce: recursive "
      "doubling, Rabenseifner's, ring, reduce + broadcast), with the LogGP software costs of "
      f"[p2p.md](p2p.md) (o = {DEFAULT[0]} cycles at each end of a message, g = {DEFAULT[1]}: LogGOPSim's defaults, "
      "1.5 and 1 us) and, beside them, without software costs (o = g = 0) and at two more settings. Data: "
      "[apps.csv](apps.csv).\n")
    w("## What is simulated and what is modelled\n")
    ex = [r for r in spmv if r["hw_exact"]]
    top = max(r["nodes"] for r in ex)
    gap = [str(r["nodes"]) for r in spmv if not r["hw_exact"] and r["nodes"] < top]
    upto = f"up to {top} nodes" + (f" (but {', '.join(gap)}: not run yet, modelled)" if gap else "")
    w(f"An all-gather of a {N:,}-element vector of 8-byte values delivers the whole 164 MB vector into every node "
      "every iteration. **The subnet's all-gather is simulated packet by packet** (tcnet's allgather packet engine, "
      "which gives the cycle-exact model's deliveries, cycle for cycle, tb/unit/test_pkt_allgather.c) at "
      f"application size {upto}: the SpMV table below gives each run's wall time on this machine "
      "(2 shared cores; `make apps` runs them one after another, about an hour and a quarter in all, and keeps them in build/apps-exact/). Beyond "
      f"{top} nodes, and in the point-to-point baseline at every size but 8 nodes, the steady-state model "
      "remains: the fill (one 7-flit packet's latency, itself simulated) plus the busiest channel's flits (a "
      "link, an injection or an ejection channel) at a streaming rate; for the subnet counted from the routing "
      "table's trees, for an MPI algorithm step by step (cmodel/netsim/p2p_coll.c, `tc_p2p_coll_model`: each step o, "
      "one packet's latency to the partner of its longest message, its busiest channel on the dimension-order "
      "paths, o again; a ring's steps repeat one pattern). The baseline's event model keeps every packet "
      "in memory, P (P - 1) times a part's packets (10^9 and more from 64 nodes at application size): too many "
      "to simulate.\n")
    w(f"- the subnet's rate, fitted on exact runs on 8, 32, 128 and 256 nodes (4, 16 and 64 packets a node): "
      f"{rates['hw']:.3f} flits a cycle on the busiest channel up to 128 nodes (`hw_rate={hw_rate[0]}`), "
      f"{rates['hw_large']:.3f} from 256 (`hw_rate={hw_rate[1]}`); point-to-point: 1 flit a cycle (the "
      "channels' rate, not fitted: `p2p_rate=1000`)\n")
    w("Validation **at the packets a node each model is used at**: a part of k packets is what a node sends at "
      "application size on the node count given (45 packets on 32768 nodes, 179 on 8192, 358 on 4096, 2858 on "
      "512), run exactly on a torus small enough to simulate and compared with the model there (the subnet at "
      f"the rate of the torus's size; on 1024 nodes and more, `hw_rate={hw_rate[1]}`, the rate it is used at beyond "
      f"{top} nodes; every p2p algorithm at o = {DEFAULT[0]}, g = {DEFAULT[1]}):\n")
    w("| torus | nodes | packets a node (as on) | subnet exact | model | error | " +
      " | ".join(f"{a} exact | model | error" for a in AG) + " |")
    w("|---|---|---|---|---|---|" + "---|---|---|" * len(AG))
    for r in val:
        w(f"| {r['torus']} | {r['nodes']} | {r['packets']} ({r['used_at']}) | {r['hw_exact']} | {r['hw_model']} | "
          f"{err(r, 'hw'):+.1f}% | " +
          " | ".join(f"{r[a + '_exact']} | {r[a + '_model']} | {err(r, a):+.1f}%" for a in AG) + " |")
    for r in val_hw:
        w(f"| {r['torus']} | {r['nodes']} | {r['packets']} ({r['used_at']}) | {r['hw_exact']} | {r['hw_model']} | "
          f"{err(r, 'hw'):+.1f}% | " + " | ".join("- | - | -" for a in AG) + " |")
    if val_hw:
        w("\nThe subnet's runs on " + ", ".join(f"{r['nodes']} nodes" for r in val_hw) + " took " +
          ", ".join(f"{r['wall']:.0f} s" for r in val_hw) + " (the p2p ones are left out there: too many packets).")
    ve = [abs(err(r, "hw")) for r in val + val_hw if r["used_at"] > top]
    pe = {a: [abs(err(r, a)) for r in val] for a in AG}
    w(f"\nThe subnet's model where it is used (beyond {top} nodes) is within {max(ve):.1f}% of exact runs at those "
      "packets a node; the p2p models within " +
      ", ".join(f"{max(pe[a]):.1f}% ({a})" for a in AG) + ". At application size, where both exist (the subnet up "
      f"to {top} nodes), the model against the simulation: " +
      ", ".join(f"{r['nodes']} nodes {100.0 * (r['hw_model'] - r['hw_cycles']) / r['hw_cycles']:+.1f}%" for r in ex) +
      ".\n")
    big = [r for r in val_hw if r["nodes"] >= 1024]
    if big and all(r["hw_model"] < r["hw_exact"] for r in big):
        w("On the large tori the subnet's model is optimistic for the subnet: it takes less time than the packet "
          "engine, by " + ", ".join(f"{-err(r, 'hw'):.1f}% on {r['nodes']} nodes ({r['packets']} packets a node)"
                                    for r in big) + ": the modelled SpMV gains beyond the simulated sizes are "
          "upper bounds by about that much of the subnet's all-gather.\n")
    w("The calibration runs (subnet and every p2p algorithm simulated; the p2p models are not fitted on them):\n")
    w("| torus | nodes | packets a node | set | hw exact | hw model | error | " +
      " | ".join(f"{a} exact | model | error" for a in AG) + " |")
    w("|---|---|---|---|---|---|---|" + "---|---|---|" * len(AG))
    for r in cal:
        w(f"| {r['torus']} | {r['nodes']} | {r['packets']} | {r['set']} | {r['hw_exact']} | {r['hw_model']} | "
          f"{err(r, 'hw'):+.1f}% | " +
          " | ".join(f"{r[a + '_exact']} | {r[a + '_model']} | {err(r, a):+.1f}%" for a in AG) + " |")
    w("\nThe heat equation's collectives (a halo exchange over unicast, one allreduce of an 8-byte maximum) "
      "are small and always simulated: the allreduce cycle by cycle on the subnet and by the event model "
      "for every p2p algorithm, the halo exchange by the event model (unicast in both variants: the subnet "
      "carries only collectives).\n")
    w("## Compute rates\n")
    w("The paper measured its kernels on an 8-core Intel Xeon E5-2660 node: 591 Mflop/s for SpMV, about "
      "11 Gflop/s for the stencil. `build/tckern` (tools/tckern.c, C with OpenMP) times the same kernels "
      "here for each node's share: SpMV in CSR with 10 nonzeros a row at random columns over the whole "
      "vector (2 flops a nonzero), the explicit nonlinear heat step on a square block (16 flops a cell, "
      "counted in the source). This machine has 2 cores shared with other jobs, so its rates are far "
      "below the paper's and vary from run to run; each rate is the best of three 0.1 s windows, "
      "with one thread and with all (OpenMP), the better taken. Curves and columns marked *paper* use the paper's "
      "rates; *measured* use tckern's.\n")
    w("## SpMV (N = 20,480,000, d = 10)\n")
    w("An iteration: every node multiplies its N/P rows, then the vector is all-gathered: with the "
      "subnet every node broadcasts its part on tree k mod 16 (16 trees, roots spread evenly) in "
      "packets of 7 data flits; without it, by the fastest of recursive doubling, Bruck's and the ring "
      f"(each column: its all-gather, o = {DEFAULT[0]}, g = {DEFAULT[1]}). Gain = p2p iteration time / hw iteration "
      "time - 1, compute at the paper's 591 Mflop/s a node unless marked *measured*.\n")
    w("![SpMV gain](apps_spmv.svg)\n")
    w("| torus | nodes | packets a node | all-gather hw (cycles) | how (wall time) | recursive doubling | Bruck | ring | "
      "gain against the best | gain, o = g = 0 | former: recursive doubling, o = g = 0 | gain, measured rate (Mflop/s) |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in spmv:
        how = ("simulated" + (f" ({r['hw_wall_s']:.0f} s)" if r["hw_wall_s"] else "")) if r["hw_exact"] else "modelled"
        best = r[f"p2p_{d}_alg"]
        cells = " | ".join((f"**{r[a + '_' + d]}**" if a == best else str(r[a + "_" + d])) for a in AG)
        w(f"| {r['torus']} | {r['nodes']} | {r['packets']} | {r['hw_cycles']} | {how} | {cells} | "
          f"{100 * r[f'gain_paper_{d}']:+.1f}% | {100 * r['gain_paper_o0']:+.1f}% ({r['p2p_o0_alg']}) | "
          f"{100 * r['gain_paper_former']:+.1f}% | {100 * r[f'gain_measured_{d}']:+.1f}% ({r['mflops_measured']:.0f}) |")
    w(f"\nThe p2p all-gathers are modelled but on 8 nodes at o = {DEFAULT[0]}, g = {DEFAULT[1]} (simulated there: " +
      ", ".join(f"{a} {spmv[0][a + '_' + d]}" for a in AG) + " cycles). LogGP swept: the gain against the best "
      "all-gather (its name) at each o, g (cycles):\n")
    w("| nodes | " + " | ".join(f"o = {o}, g = {g}" for o, g in LOGGP) + " |")
    w("|---|" + "---|" * len(LOGGP))
    for r in spmv:
        w(f"| {r['nodes']} | " + " | ".join(f"{100 * r[f'gain_paper_o{o}']:+.1f}% ({r[f'p2p_o{o}_alg']})"
                                           for o, g in LOGGP) + " |")
    g2048 = [r for r in spmv if r["nodes"] == 2048][0]
    best = max(spmv, key=lambda r: r[f"gain_paper_{d}"])
    w("\n| | Mukosey et al. (2015) | here, against the best all-gather | o = g = 0 | former baseline |\n|---|---|---|---|---|")
    w(f"| gain at 2048 nodes | 28% | {100 * g2048[f'gain_paper_{d}']:+.0f}% | {100 * g2048['gain_paper_o0']:+.0f}% | "
      f"{100 * g2048['gain_paper_former']:+.0f}% |")
    w(f"| best gain | 28% at 2048 nodes | {100 * best[f'gain_paper_{d}']:+.0f}% at {best['nodes']} nodes | | |\n")
    lose = [r["nodes"] for r in spmv if r[f"gain_paper_{d}"] < 0]
    lose0 = [r["nodes"] for r in spmv if r["gain_paper_o0"] < 0]
    ring_best = [r["nodes"] for r in spmv if r[f"p2p_{d}_alg"] == "ring"]
    last = spmv[-1]
    w("**Where the subnet loses, and why.** The all-gather moves the whole vector into every node every "
      "iteration, so from a few dozen nodes on it takes far longer than the multiply. Both networks are then "
      "bound by the same channel, **ejection**: every PE must take in the P - 1 other parts, about "
      f"{N * 8 // 16 // 7 * 8 / 1e6:.1f} M flits with headers, and neither delivers more than a flit a cycle. On "
      "the subnet every PE ejects them at its streaming rate, so its all-gather stays near "
      f"{g2048['hw_cycles'] / 1e6:.1f} M cycles whatever the node count. The ring does the same over neighbours "
      "mostly one hop away, at a flit a cycle (the p2p model has no ejection credit loop; the subnet streams at "
      f"{rates['hw_large']:.3f} flits a cycle on 256 nodes and more): where its steps are long it is as fast or "
      "faster, and the subnet loses: at " +
      (", ".join(map(str, lose)) if lose else "no node count") + f" nodes at o = {DEFAULT[0]}, g = {DEFAULT[1]}; at " +
      (", ".join(map(str, lose0)) if lose0 else "none") + " with o = g = 0. The ring is the best all-gather at " +
      (", ".join(map(str, ring_best)) if ring_best else "no size") + " nodes. Its cost is P - 1 steps each "
      "paying 2 o and a message latency, so it grows with the node count once the parts are short: at "
      f"{last['nodes']} nodes the ring takes {last['ring_' + d] / 1e6:.1f} M cycles at o = {DEFAULT[0]} and "
      f"{last['ring_o0'] / 1e6:.1f} M at o = 0, recursive doubling {last['recursive_doubling_' + d] / 1e6:.1f} M: "
      "there the subnet wins by the gain in the table. Recursive doubling and Bruck's take log2 P steps, but with "
      "ranks in node order their late steps send to partners far away on the torus, so their busiest link "
      "carries many messages at once: that contention, not the subnet, made the former baseline's gain (last "
      f"but one column: {100 * g2048['gain_paper_former']:+.0f}% at 2048 nodes). The paper's network had adaptive "
      "routing, which this model has not; the ring, whose messages go one hop, does not depend on it.\n")
    w("## Heat equation (2D explicit scheme)\n")
    w("A step: every node computes its square block (cells / P), exchanges its edges with its four "
      "neighbours over unicast, and the time step needs the maximum of the conductivity, an allreduce of "
      "one 8-byte value (max). The paper's performance formula counts compute and the allreduce only, "
      "N_op / (T_S + T_max); the columns *with halo* add the halo exchange, the same for both variants. "
      f"Gain = hw performance / p2p performance; p2p: the fastest allreduce (its name) at o = {DEFAULT[0]}, "
      f"g = {DEFAULT[1]}, and at o = g = 0.\n")
    w("![heat gain](apps_heat.svg)\n")
    w(f"| cells | torus | nodes | allreduce hw / p2p (best, o = {DEFAULT[0]}) / p2p (o = 0) (cycles) | halo (cycles) | "
      "gain | gain, o = g = 0 | gain with halo | gain with halo, o = g = 0 | gain, measured rate (Mflop/s) |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for r in heat:
        w(f"| {r['cells'] // 1000000}M | {r['torus']} | {r['nodes']} | {r['ar_hw']} / {r[f'ar_p2p_{d}']} "
          f"({r[f'ar_alg_{d}']}) / {r['ar_p2p_o0']} | {r['halo']} | {r[f'gain_paper_{d}']:.2f}x | "
          f"{r['gain_paper_o0']:.2f}x | {r[f'gain_paper_halo_{d}']:.2f}x | {r['gain_paper_halo_o0']:.2f}x | "
          f"{r[f'gain_measured_{d}']:.2f}x ({r['mflops_measured']:.0f}) |")
    w("\n| at 32768 nodes | Mukosey et al. (2015) | " + " | ".join(f"o = {o}, g = {g}" for o, g in LOGGP) +
      " |\n|---|---|" + "---|" * len(LOGGP))
    paper = {40960000: "3x", 81920000: "2.7x", 163840000: "2.7x"}
    at = {c: [x for x in heat if x["cells"] == c and x["nodes"] == 32768][0] for c in CELLS}
    for c in CELLS:
        w(f"| {c // 1000000}M cells | {paper[c]} | " + " | ".join(f"{at[c][f'gain_paper_o{o}']:.2f}x" for o, g in LOGGP) + " |")
    first = {c: min([r["nodes"] for r in heat if r["cells"] == c and r[f"gain_paper_{d}"] >= 1.05] or [0]) for c in CELLS}
    first0 = {c: min([r["nodes"] for r in heat if r["cells"] == c and r["gain_paper_o0"] >= 1.05] or [0]) for c in CELLS}
    w(f"\nThe paper sees the subnet matter from 64 nodes on; here the gain passes 5% at "
      + ", ".join(f"{first[c]} nodes ({c // 1000000}M)" for c in CELLS)
      + ", and without software costs at "
      + ", ".join(f"{first0[c]} ({c // 1000000}M)" for c in CELLS) + ". "
      "The gain at 32768 nodes is the allreduce's: the compute per node is only microseconds there, so "
      "the step time is mostly the allreduce's latency, which the subnet cuts by the ratio in the table. "
      "For one 8-byte value the fastest p2p allreduce is always a latency algorithm ("
      + ", ".join(sorted({r[f"ar_alg_o{o}"] for r in heat for o, g in LOGGP})) + "), log2 P steps "
      "each paying 2 o: with LogGOPSim's o the gain "
      f"({', '.join('%.2fx' % at[c]['gain_paper_' + d] for c in CELLS)}) is above the paper's 3x and 2.7x, "
      f"without software costs ({', '.join('%.2fx' % at[c]['gain_paper_o0'] for c in CELLS)}) below them"
      + "".join(f"; the paper's 3x (40M) lies between o = {a[0]} and o = {b[0]} cycles in the sweep"
                for a, b in zip(LOGGP, LOGGP[1:])
                if at[CELLS[0]][f"gain_paper_o{a[0]}"] <= 3.0 < at[CELLS[0]][f"gain_paper_o{b[0]}"]) + ". "
      "The halo exchange, which the paper's formula leaves out, costs the same on both "
      "and lowers the gain. With the rates measured here (2 shared cores, far slower than the paper's node) the "
      "compute dominates and the gain shrinks.\n")
    w("## Real programs' collectives: record, convert, replay\n")
    w("Three tools take a real MPI program's communication to the simulated torus: a recorder, a converter for traces of other tools, and the replay.\n")
    w("**Recording.** `build/libtcpmpi.so` (tools/pmpi/tcpmpi.c, built with Debian's Open MPI 4.1) is a library of PMPI wrappers: preloaded into an MPI program (`mpirun -x LD_PRELOAD=$PWD/build/libtcpmpi.so -x TC_TRACE=FILE prog`), it records, in memory, every collective of MPI-3, blocking and nonblocking (bcast, reduce, allreduce, barrier, allgather(v), gather(v), scatter(v), alltoall(v/w), reduce_scatter(_block), scan, exscan, and each one's `MPI_I` form with the `MPI_Wait`/`MPI_Test` call (any of the families: all, any, some) that completes it), every point-to-point message (`MPI_Send`, `Ssend`, `Bsend`, `Rsend`, their nonblocking forms, `MPI_Recv`, `MPI_Irecv`, `MPI_Sendrecv`, `Sendrecv_replace`: peer, tag, bytes, and the source and size from the status when the receive named `MPI_ANY_SOURCE`), and every communicator its calls run on (`MPI_Comm_split`, `split_type`, `dup`, `dup_with_info`, `create`, `create_group`, `MPI_Cart_create`, `Cart_sub`, `Graph_create`: each defined in the trace by its members' world ranks; a communicator made by a call it does not wrap is defined from its group the first time it is used). Each record has the call's operation and datatype (by the name `MPI_Type_get_name` gives), the time since the rank's previous recorded call returned (the compute gap) and the time inside; rank 0 gathers them at `MPI_Finalize` and writes the trace (format 2, documented in cmodel/netsim/trace.h; version 1 traces of the earlier recorder are still read). Fortran programs are recorded too: Open MPI's Fortran bindings call the `PMPI_` functions directly, so the library also wraps the same calls under gfortran's names for `mpif.h` and `use mpi` (`mpi_allreduce_`, forwarding to `pmpi_allreduce_`) and for `use mpi_f08` (`mpi_allreduce_f08_`, forwarding to `pmpi_allreduce_f08_`); `make test` records tb/mpi/fcoll.F90 built once through each binding and checks the three traces are the same calls.\n")
    w("Persistent point-to-point requests are recorded as the messages they are: each `MPI_Start` (or each request of an `MPI_Startall`) of a request made by `MPI_Send_init`, `Ssend_init`, `Bsend_init`, `Rsend_init` or `MPI_Recv_init` is an isend or irecv with its peer, tag and bytes, and its completion by any Wait/Test call the wait of it, so the replay runs it as a message; the `_init` calls and `MPI_Request_free` only set up, as a communicator's creation, and are not records. A matched receive is a receive too: `MPI_Mrecv` of a message `MPI_Mprobe` or `MPI_Improbe` found is a recv of that message's source, tag and size, `MPI_Imrecv` an irecv. A call the replay cannot model is recorded under its MPI name, never dropped (trace.h's format: CALL `MPI_Put` and the like, with its communicator, its peer or target, bytes, op and type, gap and time inside): `MPI_Probe`, `Iprobe` (the source of the message found), `Mprobe`, `Improbe` (no data); one-sided communication, `MPI_Put`, `Get`, `Accumulate`, `Get_accumulate`, `Fetch_and_op`, `Compare_and_swap`, `Rput`, `Rget`, `Raccumulate`, `Rget_accumulate` (the target rank in the window's communicator, the origin's count times its type's size; an accumulate's op), and the windows' `MPI_Win_create`, `allocate`, `allocate_shared`, `create_dynamic`, `free`, `fence`, `lock`, `unlock`, `lock_all`, `unlock_all`, `flush`, `flush_local`, `flush_all`, `flush_local_all`, `sync`, `post`, `start`, `complete`, `wait`, `test`; the neighbourhood collectives `MPI_Neighbor_allgather(v)`, `alltoall(v/w)` and their `MPI_Ineighbor_` forms (bytes as their global forms'); `MPI_Wait`, the completion of one of the nonblocking ones (`Rput`, `Ineighbor_...`) by any Wait/Test call; an `MPI_Start` of a request not made by the calls above. In Fortran the recorder wraps the persistent calls (`_init`, `MPI_Start`, `Startall`, `Request_free`), `MPI_Probe`, `Iprobe`, `MPI_Win_create`, `Win_allocate`, `Win_free`, `Win_fence`, `MPI_Put`, `Get` and `Accumulate` in all three bindings; the other calls above are recorded from C only (a Fortran program's stay in its gaps). `make test` records tb/mpi/other_mpi.c on 4 ranks (persistent messages, a probe, a matched probe and receive, a fenced put and get, an accumulate and an `MPI_Rget` under a lock, a neighbourhood allgather blocking and nonblocking on a Cart communicator) and checks every call is in the trace with its count, peer and bytes, and that the replay runs its 24 messages and names each call it does not model with its count and bytes; fcoll.F90 makes persistent messages and a fenced put and get in each binding. Not recorded: persistent collectives (MPI-4, not in Open MPI 4.1), intercommunicator collectives (recorded, but on the local group), other Fortran compilers' symbol names, and programs that call MPI from several threads at once (the recorder is not thread safe). `tcotf2 --write` leaves the calls not modelled out of the OTF2 it writes, their time in the next call's gap.\n")
    w("The recorder's cost, measured with tb/mpi/ovh_mpi.c (one rank, 200,000 rounds, `build/ovh_mpi` with and without the library preloaded, three runs each on this shared 2-core machine): an `MPI_Allreduce` of one int 20-27 ns bare, 222-301 ns recorded; an `MPI_Bcast` 5-7 ns bare, 195-281 ns recorded; an `MPI_Irecv` + `MPI_Isend` + `MPI_Waitall` round 184-232 ns bare, 901-1281 ns recorded (3 calls, 4 records). So about 200-300 ns a recorded call (two clock reads, the datatype's and the communicator's table look-ups, a 64-byte record), and memory of 64 bytes a record until `MPI_Finalize` formats and gathers them.\n")
    w('**Converting.** `build/tcotf2 ARCHIVE.otf2 OUT` turns an OTF2 archive (Score-P, and other tools writing OTF2 with Debian\'s OTF2 3.0 library) into the same format: MPI collectives (`MpiCollectiveBegin/End`; `NonBlockingCollectiveRequest/Complete` as a nonblocking call and its wait), messages (`MpiSend`, `MpiRecv`, `MpiIsend` with `MpiIsendComplete`, `MpiIrecvRequest` with `MpiIrecv`), the communicators from the archive\'s MPI groups (a `COMM_GROUP` lists positions in the MPI `COMM_LOCATIONS` group; `COMM_SELF` is each rank alone), the per-location mapping tables of the local definitions applied (Score-P\'s events name communicators through them), a rank\'s first gap counted from its leaving `MPI_Init` (or `MPI_Init_thread`), as the recorder\'s, or, in an archive without that region, from the clock\'s global offset. OTF2\'s collective events carry no operation or datatype, and Score-P counts bytes its own way: its MPI adapter (scorep_mpi_coll.inc.c in Score-P\'s sources) writes an allreduce\'s, allgather\'s and alltoall\'s `sizeSent` as the communicator\'s size times the block, a bcast root\'s as the block to every rank, a scan\'s `sizeReceived` at rank k as k + 1 blocks; tcotf2 divides these back into the block a rank contributes (an in-place call, which Score-P counts one block less, cannot be told apart and comes out slightly small). An archive without op and type (Score-P\'s) gives op `-` and type `unknown`, which the replay runs over point-to-point. `tcotf2 --write TRACE DIR` writes a trace as OTF2 (the op and type in two string attributes, "torcoll op" and "torcoll type", a communicator\'s ID in its name), and reading that back gives the same records; an OTF2 message event has one timestamp, so a message\'s time inside its call comes back in its gap. `make test` converts a real Score-P archive, a two-rank ping-pong from the test data of Pipit (the trace analysis library of the University of Maryland\'s Parallel Software and Systems Group, MIT licence; tb/otf2/README.md), whose clock\'s offset would otherwise make the first gap about 3.5 x 10^6 seconds, and a ten-rank MPI coverage test from the test data of SST/macro (Sandia\'s network simulator, BSD licence; tb/otf2/README.md) with 1200 collectives (gather, scatter, reduce, bcast, allgather, alltoall, allreduce) on MPI_COMM_WORLD, on the pairs of an MPI_Comm_split and on communicators of one rank (Score-P\'s `COMM_SELF` groups): each rank\'s bytes come out as the program\'s (4 bytes times its count) and as Score-P\'s counts in `otf2-print` divide back, the communicators with their members, each first gap the time from that rank\'s leaving `MPI_Init` to its first MPI event (the clock\'s offset is over a second before it), and the replay has the archive\'s collectives and messages. It round-trips the recorder\'s traces through `--write`.\n')
    w("**Replaying.** `build/tcnet workload=trace trace=FILE [map=FILE]` places rank r on node r (or on the node the map's line r names) and runs every rank's records in order, twice: once with the subnet, once on the point-to-point network alone. A rank's compute gaps are kept; its calls take what the simulated networks make them take:\n")
    w("- A collective ends for its whole group when the last member arrives, its latency later. Its group is the communicator's: on the subnet each group gets a tree of its own, planned over the group's nodes (rooted at the call's root for bcast, reduce and scatter), at its first collective on the subnet; the 16 trees go to the first 16 groups in the replay's time order and stay theirs to the end (the recorder does not record `MPI_Comm_free`), and the collectives of a 17th group and later run over point-to-point (path `p2p (no free tree)`, named in the report). An all-gather uses all 16 trees, planned over its group for it. The subnet runs bcast, reduce, allreduce, barrier and allgather(v) as before (all-gathers beyond `exact_limit` by the steady-state model), a scatter(v) as a broadcast of the root's whole buffer, a reduce_scatter(_block) as an allreduce of the whole vector. A reduction longer than the Reducer holds, `red_flits` data flits (2 by default; a floating-point sum's in whole elements of 2 flits), runs as several operations striped as tcnet stripes a long reduction (`workload=allreduce bytes=B trees=16 window=256`, [long-reduce.md](long-reduce.md)): dealt round all 16 trees, planned over its group for the call, at most 16 in flight on each; a reduce's as allreduces, whose results pace every rank's stream (a reduce's result goes down the whole tree anyway), until its root has every result. Measured against the group's own tree (16 operations in flight, a reduce's one after another) on groups of 8 to 64 ranks, the stripe is never slower, so every reduction of more than one operation is striped: a 64 KiB integer allreduce on 8 ranks (2x2x2, 2048 operations) takes <!--n:replay_long_int-->16,335<!--/n--> cycles, what tcnet's stripe takes from its first start to its last delivery (<!--n:stripe_long_int-->16,335<!--/n-->), against <!--n:one_tree_long_int-->76,671<!--/n--> in a stream on one tree (tcnet `window=16`) and <!--n:replay_long_p2p-->19,350<!--/n--> over point-to-point. A reduction goes to the subnet only where the Reducer does it: sum, min, max, band, bor, bxor on 32- and 64-bit integer types, minloc and maxloc on MPI_2INT; sum of MPI_DOUBLE and MPI_FLOAT (and their Fortran names) as the bit-reproducible floating-point sum, a binned element of 2 flits a value (docs/fpsum.md), or, for a long vector where it is faster, in two passes on the integer ALU (the exponents' maximum, then a 128-bit word a value: `tcnet fsum_pass=2`, path `subnet fsum, two passes`; its bits are not the one pass's, so a library would pick the form by the vector's length, which every rank knows alike); their min and max as fmin/fmax keys. Every other reduction (a user op, prod, the logical ops, types of other widths such as MPI_SHORT or pairs such as MPI_DOUBLE_INT, a type the trace does not name), and the calls no tree operation does (gather(v), alltoall(v/w), scan, exscan), run over point-to-point in both runs. Each is counted and named in the report. A call the subnet can take but would take longer than point-to-point (a long floating-point sum: 64 KiB of doubles on those 8 ranks takes <!--n:replay_long_fsum-->40,531<!--/n--> cycles striped, in two passes, the faster form) runs over point-to-point in the subnet run too, as an MPI library tuned per message size picks the faster: path `p2p (subnet slower)`, with the subnet's time beside it in the report and the JSON (`subnet`). The choice knows both times, which a library's size thresholds only approximate.\n- Over point-to-point (every collective of the point-to-point run, and those above in the run with the subnet) a call takes what a tuned MPI library would: a bcast, reduce, allreduce, barrier or allgather(v) is simulated over its group by every algorithm of [p2p.md](p2p.md) that fits (cmodel/netsim/p2p_coll.c: binomial, k-nomial, linear and scatter + all-gather broadcasts; binomial, linear and Rabenseifner's reduce; recursive doubling, Rabenseifner's, ring and reduce + broadcast allreduces; recursive doubling, Bruck's and ring all-gathers; dissemination, recursive doubling, tree and linear barriers), with the LogGP costs `o`, `g` and `red_mcyc` (LogGOPSim's o = 1.5 us and g = 1 us by default), and takes the fastest, as `tcnet impl=p2p p2p_alg=auto` and the applications above do (`make test` checks the replay's time and choice against `impl=p2p p2p_alg=auto`'s). The other collectives, which the algorithms of p2p.md do not cover, run as an MPI library's algorithm, in steps of messages scheduled as p2p_coll.c schedules those, at the same costs: gather and scatter linear to or from the root (the root takes or sends the blocks one after another, o each), alltoall pairwise in n - 1 steps, reduce_scatter a ring of n - 1 steps, scan and exscan by MPICH's recursive doubling. So every call over point-to-point, and every message below, pays one model: o at the sender and at the receiver of each message, g between a rank's messages (`make test` checks the terms: a scatter from a root to two ranks takes max(2 o, o + g) + L + o, L one message's time alone on the network). `sw_overhead`, the cost of tcnet's classic set (`impl=p2p p2p_alg=classic`), does not apply to the replay. The report names the algorithm of every call and counts them per kind, and gives the costs.\n- A collective on a communicator of one rank, or of no bytes (all but a barrier), is local and costs nothing: Open MPI returns from these at once, without waiting for the other ranks.\n- A call the replay does not model (a record named `MPI_...`: probes, one-sided communication, neighbourhood collectives; see Recording) takes on its rank the time it took on the recording machine, kept as compute time (added to the rank's gaps), the same in both runs; it waits for no other rank and sends nothing. The report counts these by name, with their bytes and that time.\n- A message leaves when its sender reaches it and has spent o on it, no sooner than g after the sender's previous message, and is timed on the point-to-point model (cmodel/netsim/p2p.c) with the links and PE channels it shares with every other message in flight, in time order (the rank with the earliest time moves next); a receive, or a wait for a nonblocking call, holds its rank until the message or the collective is done, and a message received costs its receiver o more. Messages match by communicator, source and tag in order, as MPI matches them. Messages run on the point-to-point network in both runs: the subnet carries only collectives.\n- Each collective is timed once for each kind, root, largest BYTES of its ranks, operation, datatype and group, in isolation: on idle channels, on a subnet of its own from reset with its trees' rows written for it (a tree planned anew, over other nodes or rooted elsewhere, would find on the routers of an earlier plan a ReduceId turn and credits its other routers never had), run until no packet of it is left (such as a reduce's result going on down the tree past the rank it is for; the credit block's reports, which come every 4096 cycles whatever the traffic, aside: with an EjLat above about 2040 a report's round trip to its PE is longer than that, and the network is never empty); collectives do not contend with messages or with each other.\n")
    w("A trace whose ranks do not match is refused, naming the line: a collective whose members disagree on its kind, root or bytes, a member that never makes a collective its group waits in (\"line 33: rank 1's barrier on communicator 8589934593 never completes: rank 3 makes no more collectives on it\"), a receive no rank sends to. So is a malformed or truncated one (no `end` line, a record cut short, an undefined or half-defined communicator, a wait for a call that is not nonblocking or was completed before), naming the line and the field. The report gives every collective (up to 100; the JSON all of them) with its group's size, path and time on both networks, then per call kind the calls, bytes, time on the subnet and on point-to-point and the paths taken, the messages, then a row for each call the replay does not model (by its MPI name: its calls summed over the ranks, their bytes, and the time they took on the recording machine, which the replay keeps as compute time on their rank, in both runs; the JSON's `unmodelled`: `calls`, `bytes`, `recorded_ns`), what ran over point-to-point and why, and the whole run on both. The summary line counts the calls not modelled; nothing recorded is left out.\n")
    L.extend(demo_section(demo))
    w("## Reproduce\n")
    w("    make apps                      # this page: calibration, sweeps, kernels, plots; the exact runs up to APPS_EXACT_NODES (4096) nodes take over an hour; kept in build/apps-exact/")
    w("    APPS_CACHED_ONLY=1 make apps     # the subnet's all-gather simulated only where build/apps-exact/ has the run")
    w("    python3 sim/apps.py exact 8x8x8x4 80000   # one exact run of the subnet's all-gather (bytes a node) into the cache")
    w("    build/tcnet topo=8x8x8x4 workload=spmv [spmv_n= spmv_d= node_mflops= exact=auto|on|off exact_limit= hw_rate= p2p_rate=]")
    w("    build/tcnet topo=8x8x8x4 workload=spmv p2p_alg=auto|ompi|mpich o=0 g=0   # other LogGP costs, a library's pick")
    w("    build/tcnet topo=16x16x16x8 workload=heat heat_cells=163840000 [p2p_alg=auto o= g= red_mcyc=]")
    w("    build/tckern spmv ROWS N D; build/tckern heat CELLS")
    w("    make trace-demo; build/tcnet topo=8x8x8 workload=trace trace=build/heat_mpi.trace [o= g= red_mcyc=]")
    w("    python3 sim/apps.py demo       # the trace demo above run again, its section of this page replaced")
    w("    make build/ovh_mpi; mpirun -np 1 [-x LD_PRELOAD=$PWD/build/libtcpmpi.so] build/ovh_mpi   # the recorder's cost")
    w("    build/tcotf2 ARCHIVE.otf2 my.trace   # an OTF2 trace, then tcnet workload=trace trace=my.trace")
    write_text(os.path.join(DOCS, "applications.md"), "\n".join(L) + "\n")
    print("apps: docs/applications.md")


def save(fig, name):
    fig.tight_layout()
    savefig(fig, os.path.join(DOCS, name), metadata={"Date": None})
    plt.close(fig)
    print("apps: docs/" + name)


if __name__ == "__main__":
    if sys.argv[1:2] == ["exact"]:  # sim/apps.py exact TORUS BYTES: one exact run into build/apps-exact/
        print(exact_hw(sys.argv[2], int(sys.argv[3])))
    elif sys.argv[1:2] == ["demo"]:  # sim/apps.py demo: the trace demo run again, its section of the page replaced
        demo_only()
    elif os.environ.get("APPS_DOCS_ONLY"):
        docs_only()
    else:
        main()
