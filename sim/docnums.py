#!/usr/bin/env python3
"""The numbers that prose in docs/ and README.md quotes, taken from the tools and
from the generated data, never typed by hand.

A number in the text stands between markers, <!--n:KEY-->692<!--/n-->, a generated
table between <!--t:KEY--> and <!--/t--> on lines of their own; KEY names a function
below that computes it (a tcnet or tcsim run, a row of docs/synth.csv or of
docs/coverage.md). `sim/docnums.py write` (make docs) rewrites them; `sim/docnums.py
check` (make test) recomputes every one and fails on a stale value, on a marker
whose key is unknown, and on a count of scenarios that is not the tools' own.
"""
import csv
import hashlib
import json
import os
import re
import subprocess
import sys

from atomic import write_text  # written beside itself, moved into place when complete

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
NUM = re.compile(r"<!--n:([a-z0-9_]+)-->(.*?)<!--/n-->")
TABLE = re.compile(r"<!--t:([a-z0-9_]+)-->\n(.*?)<!--/t-->", re.S)
_cache = {}


def run(*args):
    if args not in _cache:
        _cache[args] = subprocess.run([os.path.join(ROOT, "build", args[0])] + list(args[1:]), cwd=ROOT,
                                      check=True, capture_output=True, text=True).stdout
    return _cache[args]


def tcnet(topo, workload="allreduce", **kw):
    """The latency per operation of one tcnet run, cycles."""
    extra = ["%s=%s" % kv for kv in sorted(kw.items())]
    out = run("tcnet", "topo=" + topo, "workload=" + workload, "progress=off", *extra)
    return int(re.search(r"latency per operation \(cycles\) min (\d+)", out).group(1))


def tcsim(topo, scen):
    """The largest latency of one scenario on the C model, cycles."""
    out = run("tcsim", "--topo", topo, "--scen", scen, "--fast")
    return int(re.search(r"^PASS .* max latency +(\d+)", out, re.M).group(1))


def sim_stat(topo, scen, key, *opts):
    """A scenario's "cycles" or "max latency" as make sim prints it (the C model with its
    observation records: the RTL's figures), with tcsim's options opts."""
    out = run("tcsim", "--topo", topo, "--scen", scen, *opts)
    return re.search(r"^PASS .* %s +(\d+)" % key, out, re.M).group(1)


def scenarios():
    return len(run("tcsim", "--list").splitlines())  # a scenario a line, its description beside it


def table_row(path, first_col, col):
    """A cell of a Markdown table in a generated doc: the row whose first cell is
    first_col, the column headed col."""
    head = None
    for line in open(os.path.join(ROOT, path)):
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        if head is None and col in cells:
            head = cells
        elif head and cells[0] == first_col:
            return cells[head.index(col)]
    raise KeyError("%s: no row '%s' with a column '%s'" % (path, first_col, col))


def long_reduce(topo, size, col):
    """A cell of docs/long-reduce.md (sim/long_reduce.sh, make bench): the row of topo
    and size ("1 MiB"), column col (3, 5: the integer sum's link rate with 1 and 4 Reducer
    slices; 7, 9: the binary64 sum's; 11, 13: the binary64 sum's in two passes; 15:
    point-to-point's; 16 its algorithm)."""
    for line in open(os.path.join(ROOT, "docs/long-reduce.md")):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > col and cells[:2] == [topo, size]:
            return cells[col]
    raise KeyError("docs/long-reduce.md: no row %s %s" % (topo, size))


def long_reduce_window():
    """docs/long-reduce.md's bound of the binary64 sum by its operations in flight: the
    mean latency of an operation (1 MiB on 16x16, four slices) and the link rate it
    allows."""
    text = open(os.path.join(ROOT, "docs/long-reduce.md")).read()
    m = re.search(r"with four slices, (\d+) cycles, that is ([\d.]+%)", text)
    h = re.search(r"\(`window=128`\) it moves ([\d.]+%)", text)
    q = re.search(r"`red_rids=64 window=1024`\) it moves ([\d.]+%)", text)
    if not m or not h or not q:
        raise KeyError("docs/long-reduce.md: no bound of the operations in flight")
    return m.group(1), m.group(2), h.group(1), q.group(1)


def synth_rows(slices=1):
    """docs/synth.csv's routers 1D..4D with the Reducer in this many slices (column
    red_slices; a file without it has only the default, one slice)."""
    return [r for r in csv.DictReader(open(os.path.join(ROOT, "docs/synth.csv")))
            if int(r.get("red_slices") or 1) == slices]


def synth_fo4(dims, slices=1):
    for row in synth_rows(slices):
        if row["dims"] == str(dims):
            return row["fo4"]
    raise KeyError("docs/synth.csv: no router of %d dimensions with %d Reducer slices" % (dims, slices))


def synth_growth(col):
    """Per router 1D..4D, what the floating-point sum's step added to col (cells,
    area_um2) in percent, from docs/synth.csv's columns beside the integer ALU's."""
    return " / ".join("%.1f" % (100.0 * float(r[col]) / float(r[col + "_int_alu"]) - 100) for r in synth_rows())


def synth_slices_growth(slices, col="area_um2"):
    """Per router 1D..4D, what the Reducer in this many slices adds to col against one
    slice, in percent (docs/synth.csv)."""
    one = {r["dims"]: float(r[col]) for r in synth_rows()}
    return " / ".join("%.1f" % (100.0 * float(r[col]) / one[r["dims"]] - 100) for r in synth_rows(slices))


def nodes(topo):
    n = 1
    for s in topo.split("x"):
        n *= int(s)
    return n


def depth(topo):
    """D: the planner's tree depth; odd: the dimensions of odd size >= 3."""
    sizes = [int(s) for s in topo.split("x")]
    return sum(s // 2 for s in sizes), sum(1 for s in sizes if s % 2 and s > 1)


def bcast_table():
    rows = ["| torus | nodes | hops to the farthest node h | measured (cycles) | model | lower bound | router share |",
            "|---|---|---|---|---|---|---|"]
    for topo in ("4x4", "8x8x8", "8x8x8x8"):
        h = depth(topo)[0]
        t = tcsim(topo, "bcast_root")
        model, bound = 150 + 40 * h + 5 * (h + 1) + 150 + 2, 150 + 40 * h + 150 + 2
        rows.append("| %s%s | %d | %d | %d (%d ns) | %d | %d | %d cycles, %.1f%% |" % (
            topo, " (default)" if topo == "4x4" else "", nodes(topo), h, t, 2 * t, model, bound, t - bound,
            100.0 * (t - bound) / t))
    return rows


def allreduce_table():
    rows = ["| torus | nodes | D | odd | measured (cycles) | formula | lower bound t_inj + t_ej + 2 D t_link | difference |",
            "|---|---|---|---|---|---|---|---|"]
    for topo in ("4x4", "5x5", "3x3x3", "8x8x8", "7x7x7", "8x8x8x8", "7x7x7x7"):
        d, odd = depth(topo)
        t, bound = tcnet(topo), 300 + 80 * d
        rows.append("| %s | %d | %d | %d | %d | %d | %d | %d |" % (topo, nodes(topo), d, odd, t,
                                                                   300 + 95 * d + 12 + 3 * odd, bound, t - bound))
    return rows


def rtl_allreduce_table():
    """The Verilated networks' allreduce: the C model's, which make test checks equal
    to the RTL's cycle for cycle on every network it builds."""
    rows = ["| Verilated torus | nodes | D | odd | allreduce (cycles) | lower bound |", "|---|---|---|---|---|---|"]
    nets = subprocess.run(["make", "-s", "print-nets"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.split()
    for topo in sorted(set(nets) | {"8x8"}, key=lambda t: (nodes(t), t)):
        d, odd = depth(topo)
        rows.append("| %s%s | %d | %d | %d | %d | %d |" % (topo, " (1D)" if "x" not in topo else "", nodes(topo), d,
                                                            odd, tcnet(topo), 300 + 80 * d))
    return rows


def fpsum(pattern, group=1):
    """A number that tb/unit/test_fpsum prints (a default run: its seeds are fixed)."""
    return re.search(pattern, run("unit/test_fpsum")).group(group)


def fpsum_count(pattern):
    return "{:,}".format(int(fpsum(pattern)))


FPSUM_ACC = re.compile(r"fpsum accuracy (\S+) (\S+)\s*: (\d+) sums \((\d+) values\); (\d+) finite: worst \|err\|/bound "
                       r"(\S+), worst \|err\| (\S+) ulp, (\S+) sum\|x\|, \|V-exact\| <= (\S+) of n 2\^-128 max\|x\|, "
                       r"correctly rounded (\d+) \((\S+)%\), zero results (\d+), overflowed (\d+); NaN in (\d+), "
                       r"Inf in (\d+), at the overflow threshold (\d+)")


def fpsum_table():
    rows = ["| distribution | lane | sums | values | finite results | worst error / bound | worst error (ulp) "
            "| worst \\|V-X\\| / (n 2^-128 max\\|x\\|) | correctly rounded |", "|---|---|---|---|---|---|---|---|---|"]
    for m in FPSUM_ACC.finditer(run("unit/test_fpsum")):
        g = m.groups()
        rows.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s%% (%s) |" % (
            g[1], g[0], "{:,}".format(int(g[2])), "{:,}".format(int(g[3])), "{:,}".format(int(g[4])), g[5], g[6],
            g[8], g[10], "{:,}".format(int(g[9]))))
    return rows


def fpsum_special_table():
    rows = ["| lane | zero results | overflowed to Inf | with a NaN input | with an infinity | at the overflow threshold |",
            "|---|---|---|---|---|---|"]
    for m in FPSUM_ACC.finditer(run("unit/test_fpsum")):
        g = m.groups()
        if g[1] == "special":
            rows.append("| %s | %s |" % (g[0], " | ".join("{:,}".format(int(v)) for v in g[11:16])))
    return rows


def fpsum_cancel_table():
    """cancel's condition numbers sum|x| / |sum x| by N and by how the nodes pair up."""
    kinds = ["pairs complete", "one node unpaired", "no pairs"]
    rows = ["| N | lane | " + " | ".join(kinds) + " |", "|---|---|---|---|---|"]
    cells = {}
    for m in re.finditer(r"cancel (\S+) N (\d+), ([a-z ]+): (\d+) sums, sum\|x\|/\|sum x\| (\S+) \.\. (\S+)",
                         run("unit/test_fpsum")):
        lane, n, kind, count, lo, hi = m.groups()
        cells[(int(n), lane, kind)] = "%s (%s)" % (lo if lo == hi else "%s .. %s" % (lo, hi), "{:,}".format(int(count)))
    for n, lane in sorted({k[:2] for k in cells}, key=lambda k: (k[0], k[1] != "binary64")):
        rows.append("| %d | %s | %s |" % (n, lane, " | ".join(cells.get((n, lane, k), "") for k in kinds)))
    return rows


def fpsum_net():
    """sim/fpsum_net.sh's checks (a run of about 30 s): the verifier's lines. With
    TC_FPSUM_NET_RUN=1 (make test, whose section before this check has just run
    sim/fpsum_net.sh with its defaults), that run's lines, not a second run."""
    if "fpsum_net" not in _cache:
        if os.environ.get("TC_FPSUM_NET_RUN") != "1":
            subprocess.run(["bash", os.path.join(ROOT, "sim", "fpsum_net.sh")], cwd=ROOT, check=True, capture_output=True)
        _cache["fpsum_net"] = open(os.path.join(ROOT, "build", "fpsum_net", "verify.out")).read()
    return _cache["fpsum_net"]


def fpsum_net_table():
    rows = ["| values | lane | form | inputs (values x PEs) | PEs with the same bits | worst error, ulp | worst error / bound |",
            "|---|---|---|---|---|---|---|"]
    for m in re.finditer(r"/(two_)?acc_(\w+)_\d+\.txt: binary(\d+), (\d+) values x (\d+) PEs in, (\d+) PEs received the "
                         r"same bits; worst error (\S+) ulp, (\S+) of the bound", fpsum_net()):
        two, d, lane, nv, npe, same, ulp, bound = m.groups()
        rows.append("| %s | binary%s | %s | %s x %s | %s | %s | %s |" % (d, lane, "two passes" if two else "one pass",
                                                                        "{:,}".format(int(nv)), npe, same, ulp, bound))
    return rows


def fpsum_latency(topo, fsum):
    """A small allreduce's latency: one binary64 value (an element, 2 flits) or a
    64-bit integer lane pair (1 flit)."""
    return tcnet(topo, op="fsum" if fsum else "sum", lane="64", len="2" if fsum else "1")


def replay(topo, ranks, calls, i, field):
    """Field `field` of call i in tcnet's replay (its JSON) of a trace in which every rank
    of the world makes the calls ("CALL ROOT BYTES OP TYPE") in order, each after 1000 ns
    of compute (as sim/apps_test.sh's write_trace), on topo: thousands separated."""
    text = "torcoll-trace 1\nranks %d\n" % ranks + "".join(
        "%d %s %d %s %s %s %s 1000 500\n" % (r, c.split()[0], ranks, *c.split()[1:]) for r in range(ranks)
        for c in calls) + "end %d\n" % (ranks * len(calls))
    name = os.path.join(ROOT, "build", "docnums", hashlib.md5(text.encode()).hexdigest()[:12])
    os.makedirs(os.path.dirname(name), exist_ok=True)
    with open(name + ".trace", "w") as f:
        f.write(text)
    run("tcnet", "topo=" + topo, "workload=trace", "trace=" + name + ".trace", "progress=off", "json=" + name + ".json")
    return "{:,}".format(json.load(open(name + ".json"))["calls"][i][field])


def stream_span(topo, **kw):
    """A tcnet stream's cycles from its first start to its last delivery (its .ops.csv)."""
    args = ["topo=" + topo, "progress=off"] + ["%s=%s" % kv for kv in sorted(kw.items())]
    name = os.path.join(ROOT, "build", "docnums", hashlib.md5(" ".join(args).encode()).hexdigest()[:12])
    os.makedirs(os.path.dirname(name), exist_ok=True)
    run("tcnet", *args, "csv=" + name)
    ops = list(csv.DictReader(open(name + ".ops.csv")))
    return "{:,}".format(max(int(o["end"]) for o in ops) - int(ops[0]["start"]))


# the trace replay's long reductions (docs/applications.md): 64 KiB a rank on 8 ranks
LONG = ("allreduce -1 65536 sum MPI_LONG", "allreduce -1 65536 sum MPI_DOUBLE")

def fsum_stripe(topo, slices, group):
    """tcsim's line on scenario fsum_stripe's Reducer slices: 1 the contributions they
    took, 2 those taken while another slice of the node took one, 3 the most at once."""
    out = run("tcsim", "--topo", topo, "--scen", "fsum_stripe", "--red-slices", str(slices))
    m = re.search(r"fsum_stripe: the Reducer slices \(\d+ a node\) took (\d+) contributions, (\d+) of them while "
                  r"another slice of the node took one; up to (\d+) at once", out)
    return "{:,}".format(int(m.group(group)))


NUMS = {
    "scenarios": lambda: str(scenarios()),
    "fsum_stripe_contribs_4x4x4": lambda: fsum_stripe("4x4x4", 4, 1),
    "fsum_stripe_overlap_4x4x4": lambda: fsum_stripe("4x4x4", 4, 2),
    "fsum_stripe_most_4x4x4": lambda: fsum_stripe("4x4x4", 4, 3),
    "fsum_cells_pct": lambda: synth_growth("cells"),
    "fsum_area_pct": lambda: synth_growth("area_um2"),
    "fo4_int_alu": lambda: " / ".join(r["fo4_int_alu"] for r in synth_rows()),
    "fpsum_net_inputs": lambda: "{:,}".format(int(re.search(r"\((\d+) input values summed\)", fpsum_net()).group(1))),
    "fpsum_net_same": lambda: ", ".join(re.findall(r"PASS  fpsum_verify: (\d+) runs with the inputs", fpsum_net())),
    "fpsum_lat_int_8x8x8": lambda: str(fpsum_latency("8x8x8", 0)),
    "fpsum_lat_fsum_8x8x8": lambda: str(fpsum_latency("8x8x8", 1)),
    "fpsum_lat_int_16x16x16x8": lambda: str(fpsum_latency("16x16x16x8", 0)),
    "fpsum_lat_fsum_16x16x16x8": lambda: str(fpsum_latency("16x16x16x8", 1)),
    "fpsum_lat_pct_8x8x8": lambda: "%.1f" % (100.0 * fpsum_latency("8x8x8", 1) / fpsum_latency("8x8x8", 0) - 100),
    "fpsum_lat_pct_16x16x16x8": lambda: "%.1f" % (100.0 * fpsum_latency("16x16x16x8", 1) /
                                                  fpsum_latency("16x16x16x8", 0) - 100),
    "fpsum_net_compared": lambda: "{:,}".format(sum(int(n) for n in re.findall(r"\((\d+) input values compared\)",
                                                                              fpsum_net()))),
    "fpsum_out_fo4": lambda: table_row("docs/synth.md", "fpsum_out_comb", "FO4"),
    "fo4_fpsum_out_pipe": lambda: table_row("docs/synth.md", "fpsum_out", "FO4"),
    "fo4_fpsum_in": lambda: table_row("docs/synth.md", "fpsum_in", "FO4"),
    "long_p2p_alg_16x16": lambda: long_reduce("16x16", "1 MiB", 16),
    "long_sum_16x16": lambda: long_reduce("16x16", "1 MiB", 3),
    # 256 operations of 24 bytes in flight, back one operation's latency later
    "long_fsum_lat_16x16": lambda: long_reduce_window()[0],
    "long_fsum_window_16x16": lambda: long_reduce_window()[1],
    "long_fsumhalf4_16x16": lambda: long_reduce_window()[2],
    "long_fsumrids4_16x16": lambda: long_reduce_window()[3],
    "long_sum4_16x16": lambda: long_reduce("16x16", "1 MiB", 5),
    "long_fsum_16x16": lambda: long_reduce("16x16", "1 MiB", 7),
    "long_fsum4_16x16": lambda: long_reduce("16x16", "1 MiB", 9),
    "long_fsumtwo_16x16": lambda: long_reduce("16x16", "1 MiB", 11),
    "long_fsumtwo4_16x16": lambda: long_reduce("16x16", "1 MiB", 13),
    "long_p2p_16x16": lambda: long_reduce("16x16", "1 MiB", 15),
    "long_sum_4d": lambda: long_reduce("8x8x8x8", "64 KiB", 3),
    "long_sum4_4d": lambda: long_reduce("8x8x8x8", "64 KiB", 5),
    "long_fsum_4d": lambda: long_reduce("8x8x8x8", "64 KiB", 7),
    "long_fsum4_4d": lambda: long_reduce("8x8x8x8", "64 KiB", 9),
    "long_fsumtwo_4d": lambda: long_reduce("8x8x8x8", "64 KiB", 11),
    "long_fsumtwo4_4d": lambda: long_reduce("8x8x8x8", "64 KiB", 13),
    "long_p2p_4d": lambda: long_reduce("8x8x8x8", "64 KiB", 15),
    "cov_rtl_lines": lambda: table_row("docs/coverage.md", "RTL lines", "coverage"),
    "cov_rtl_toggles": lambda: table_row("docs/coverage.md", "RTL toggles (bits)", "coverage"),
    "cov_c_lines": lambda: table_row("docs/coverage.md", "C model lines", "coverage"),
    "fo4_1d": lambda: synth_fo4(1),
    "fo4_2d": lambda: synth_fo4(2),
    "fo4_3d": lambda: synth_fo4(3),
    "fo4_4d": lambda: synth_fo4(4),
    "fo4_reducer": lambda: table_row("docs/synth.md", "reducer_4d", "FO4"),
    "fo4_s2": lambda: " / ".join(r["fo4"] for r in synth_rows(2)),
    "fo4_s4": lambda: " / ".join(r["fo4"] for r in synth_rows(4)),
    "slices_area_pct_s2": lambda: synth_slices_growth(2),
    "slices_area_pct_s4": lambda: synth_slices_growth(4),
    "bcast_leaf_4x4": lambda: str(tcsim("4x4", "bcast_leaf")),
    "bcast_leaf_8x8x8": lambda: str(tcsim("8x8x8", "bcast_leaf")),
    "bcast_leaf_8x8x8x8": lambda: str(tcsim("8x8x8x8", "bcast_leaf")),
    "b2b_lat_4x4": lambda: sim_stat("4x4", "back_to_back", "max latency"),
    "bp_lat_4x4": lambda: sim_stat("4x4", "backpressure", "max latency"),
    "b2b_cycles_4x4": lambda: sim_stat("4x4", "back_to_back", "cycles"),
    "bp_cycles_4x4": lambda: sim_stat("4x4", "backpressure", "cycles"),
    "b2b_lat_4x4_pc16": lambda: sim_stat("4x4", "back_to_back", "max latency", "--pe-credits", "16"),
    "bp_lat_4x4_pc16": lambda: sim_stat("4x4", "backpressure", "max latency", "--pe-credits", "16"),
    "barrier_4x4": lambda: str(tcnet("4x4", "barrier")),
    "tree_barrier_4x4": lambda: str(tcnet("4x4", "tree_barrier")),
    "barrier_32x32x32": lambda: table_row("docs/barrier.md", "32x32x32", "multiphase"),
    "tree_barrier_32x32x32": lambda: table_row("docs/barrier.md", "32x32x32", "tree barrier"),
    "allreduce_8x8": lambda: str(tcnet("8x8")),
    "fpsum_values": lambda: fpsum_count(r"fpsum accuracy: (\d+) values in all"),
    "fpsum_two_values": lambda: fpsum_count(r"fpsum two passes: (\d+) values in all"),
    "fpsum_round_trip": lambda: fpsum_count(r"fpsum round trip: (\d+) values"),
    "fpsum_repro_sums": lambda: fpsum_count(r"fpsum reproducibility: (\d+) sums"),
    "fpsum_repro_orders": lambda: fpsum_count(r"fpsum reproducibility: .*?, (\d+) trees and orders"),
    "fpsum_repro_merges": lambda: fpsum_count(r"fpsum reproducibility: .*?, (\d+) merges"),
    "fpsum_triples": lambda: fpsum_count(r"fpsum merge laws: (\d+) random triples"),
    "fpsum_flag_differs": lambda: fpsum_count(r"a\+\(b\+c\) in (\d+)"),
    "fpsum_causal_pairs": lambda: fpsum_count(r"fpsum causal step: (\d+) random pairs"),
    "fpsum_causal_splits": lambda: fpsum_count(r"fpsum causal step: .*?; (\d+) random splits"),
    "fpsum_causal_idx": lambda: fpsum_count(r"splits inside IDX .*? changed them in (\d+) of"),
    "fpsum_minmax_pairs": lambda: fpsum_count(r"fpsum fmin/fmax: (\d+) random pairs"),
    "fpsum_minmax_ops": lambda: fpsum_count(r"round trip, (\d+) MIN/MAX"),
    "fpsum_cancel_ulps": lambda: fpsum(r"binary64 cancel\s*: .*?worst \|err\| (\S+) ulp"),
    "replay_long_int": lambda: replay("2x2x2", 8, LONG, 0, "subnet"),
    "replay_long_p2p": lambda: replay("2x2x2", 8, LONG, 0, "p2p"),
    "replay_long_fsum": lambda: replay("2x2x2", 8, LONG, 1, "subnet"),
    "stripe_long_int": lambda: stream_span("2x2x2", workload="allreduce", bytes=65536, len=2, lane=64, trees=16,
                                           window=256),
    "one_tree_long_int": lambda: stream_span("2x2x2", workload="allreduce", bytes=65536, len=2, lane=64, window=16),
}
def sim_line():
    """make sim's line for one scenario, as the co-simulation prints it."""
    line = run("tcsim", "--topo", "4x4", "--scen", "bcast_leaf").splitlines()[0]
    return ["    " + line.replace("(C model)", "(RTL = C model)")]


TABLES = {"sim_line": sim_line, "bcast": bcast_table, "allreduce": allreduce_table, "rtl_allreduce": rtl_allreduce_table,
          "fpsum": fpsum_table, "fpsum_special": fpsum_special_table, "fpsum_cancel": fpsum_cancel_table,
          "fpsum_net": fpsum_net_table}
COUNT = re.compile(r"\b(\d+) scenarios\b")


def main(mode):
    stale = bad = 0
    for path in FILES:
        full = os.path.join(ROOT, path)
        text = open(full).read()
        problems = []

        def num(m):
            key, old = m.group(1), m.group(2)
            if key not in NUMS:
                problems.append("unknown number '%s'" % key)
                return m.group(0)
            new = NUMS[key]()
            if new != old:
                problems.append("%s is %s, the text says %s" % (key, new, old))
            return "<!--n:%s-->%s<!--/n-->" % (key, new)

        def table(m):
            key, old = m.group(1), m.group(2)
            if key not in TABLES:
                problems.append("unknown table '%s'" % key)
                return m.group(0)
            new = "\n".join(TABLES[key]()) + "\n"
            if new != old:
                problems.append("table %s differs:\n%s" % (key, "".join(
                    "        %s\n" % l for l in new.splitlines() if l not in old.splitlines())))
            return "<!--t:%s-->\n%s<!--/t-->" % (key, new)

        new_text = TABLE.sub(table, NUM.sub(num, text))
        for m in COUNT.finditer(NUM.sub("", new_text)):
            if int(m.group(1)) != scenarios():
                problems.append("'%s': the tools have %d scenarios (quote it as <!--n:scenarios-->)" %
                                (m.group(0), scenarios()))
        if mode == "write" and new_text != text:
            write_text(full, new_text)
        counted = len(NUM.findall(text)) + len(TABLE.findall(text))
        if problems and mode == "check":
            stale += 1
            print("FAIL  %s: stale numbers (make docs rewrites them)" % path)
            for p in problems:
                print("      " + p)
        elif counted and mode == "check":
            print("PASS  %s: its %d generated numbers and tables are current" % (path, counted))
        bad += mode == "write" and any(p.startswith(("unknown", "'")) for p in problems)
        if mode == "write" and problems:
            print("%s: %d rewritten" % (path, len(problems)))
    return 1 if stale or bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("check", "write"):
        sys.exit("usage: sim/docnums.py check|write")
    sys.exit(main(sys.argv[1]))
