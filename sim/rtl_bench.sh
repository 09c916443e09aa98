#!/usr/bin/env bash
# The Verilated tori: how they are built and why, build time and memory from a clean
# object folder, and speed against the C model; --threads 2 against one thread.
# Markdown on stdout (sim/bench.sh puts it into docs/bench.md).
# Usage: sim/rtl_bench.sh            4x4, 8x8, 4x4x4, 4x4x2x2 and the threads
#        sim/rtl_bench.sh threads    only --threads 2 against one thread
#        sim/rtl_bench.sh 8x8x8      by hand (make bench-8x8x8): the 512-node torus,
#                                    built, then co-simulated on every scenario
# Builds run without ccache (CCACHE_DISABLE): the figures are those of a fresh clone.
# Wall time is noisy on a shared machine; CPU time (user + system, every process of
# the build) is what one core would take.
set -eu
cd "$(dirname "$0")/.."
source sim/lib.sh
log=build/rtl_bench.log
: >"$log"

# build NET [BIN]: a clean build of build/cosim_NET (or BIN); prints "wall cpu_s peak_mb".
build() {
  local net=$1 bin=${2:-build/cosim_$1} res
  rm -rf "build/obj_${bin#build/cosim_}" "$bin"
  res=$( { CCACHE_DISABLE=1 /usr/bin/time -f "TIME %e %U %S %M" make -s "$bin"; } 2>&1 ) ||
    { echo "rtl_bench: building $bin failed" >&2; echo "$res" | tail -20 >&2; exit 1; }
  echo "build $bin: $res" >>"$log"
  echo "$res" | awk '/^TIME/ { printf "%.0f %.0f %.0f\n", $2, $3 + $4, $5 / 1024 }'
}

# speed NET BIN SCEN: "cycles wall cpu" of the RTL alone (--fast: no observation records)
speed() {
  local res
  res=$( { /usr/bin/time -f "TIME %e %U" "$2" --scen "$3" --fast; } 2>&1 ) || true
  echo "$2 --scen $3 --fast: $res" >>"$log"
  echo "$res" | grep -q '^PASS' || { echo "rtl_bench: $2 --scen $3 did not pass" >&2; echo "$res" | tail >&2; exit 1; }
  echo "$res" | awk '/^PASS/ { for (i = 1; i < NF; i++) if ($i == "cycles") c = $(i + 1) }
                     /^TIME/ { w = $2; u = $3 } END { print c, w, u }'
}

flags() {
  cat <<'EOF'
## The Verilated RTL

### How the tori are built

A Verilated torus (`make build/cosim_NET`, the Makefile's `NET_RULES`) is built so
that the router's logic is compiled once, whatever the node count. The top level
still holds each node's block wrapper and link registers once per node: that part
grows with the node count, and at 512 nodes (8x8x8) it is most of the build.

- **One node, Verilated once** (`--hierarchical`, `hier_block tc_node` in
  `tb/sim.vlt`). Flat, Verilator emits every router instance's logic again (16 copies
  of 1.1 MB of C++ on 4x4); as a hierarchical block the node (the router, its
  outgoing links' delay lines but their last cycle, its PCIe delay lines;
  `rtl/tc_node.v`) is Verilated and compiled once and every node runs that model.
  The node's coordinates are a port (`node_id_i`), not a parameter, so every node
  shares one block. The last cycle of each link is a register in `tc_torus`,
  between nodes: Verilator takes a block's outputs to depend on its inputs, so
  without that register the nodes form a combinational loop (UNOPTFLAT).
- **Observation through monitors, not ports.** Nothing outside a hierarchical block
  may look into it, so `tc_torus` can no longer read each router's observation
  record by a hierarchical reference; a monitor around the router
  (`tb/tc_router_mon.sv`, Verilator builds only) hands the record to the C++ shim
  through DPI at each rising edge (`tb/dut_obs.h`). The record stays an internal wire
  of the router, which synthesis removes. Lemma 1 of the barrier, which needs the
  records of neighbours, is checked by the testbench on those records
  (`tb/cosim.c`).
- **Links as arrays.** `tc_torus` joins nodes through one array element per link
  rather than slices of buses as wide as the torus, so each link is its own variable
  to Verilator.
- **Tracing only in the wave builds.** Tracing compiled in was 42% of the generated
  code of the flat 8x8 torus, and Verilator cannot trace inside a hierarchical
  block: the co-simulation builds have none; `make wave` builds the torus flat with
  `--trace-fst` (`build/wave/cosim_NET`), so the FST has every block's signals. A
  co-simulation build asked for a waveform says which command builds one.
- **The arbiter's tree written out** (`rtl/tc_rr_arb.v`). Its lowest-requester
  search was a loop in a function; for the Reducer's 256 held results Verilator left
  it a 256-step loop run at every evaluation. A generate loop, node by node, gives
  the same logic (proved equal with Yosys' `sat` at 9, 19 and 256 requesters).
- `-O2` for the generated code (`OPT_FAST`, `OPT_GLOBAL`): about twice the speed of
  the default `-Os` at a modest compile cost.
- `ccache` for the generated C++ (`OBJCACHE`), when installed: an unchanged
  rebuild takes seconds. The figures below are measured without it.
- DFG stays on: its long concatenation chains came from the flat buses as wide as
  the torus, which are gone, and with `-fno-dfg` Verilator 5.006
  finds a combinational loop (UNOPTFLAT, which halves speed) in the phase counters'
  fence (`clear` in `rtl/tc_phase.v`) that DFG removes.
- `--assert` and `TC_ASSERT`: the RTL's own checks stop the run on `$error`.

EOF
}

if [ "${1:-}" = 8x8x8 ]; then
  net=8x8x8
  n=$(nodes $net)
  read -r bw bc bm <<<"$(build $net)"
  echo "## The 512-node torus (8x8x8), Verilated (make bench-8x8x8, $(date -u +%Y-%m-%d))"
  echo
  echo "Built from a clean object folder without ccache: $bw s wall, $bc s CPU, peak"
  echo "memory $bm MB (the largest process of the build)."
  echo
  echo "Every scenario, RTL against the C model cycle by cycle (observation records of"
  echo "every node every cycle and the PE ports):"
  echo
  echo "| scenario | result | cycles | wall (s) |"
  echo "|---|---|---|---|"
  res=$( { /usr/bin/time -f "TIME %e" build/cosim_$net --scen all; } 2>&1 ) || true
  echo "build/cosim_$net --scen all: $res" >>"$log"
  echo "$res" | awk '/^(PASS|FAIL) / { c = ""; for (i = 1; i < NF; i++) if ($i == "cycles") c = $(i + 1)
                                       printf "| %s | %s | %s | |\n", $3, $1, c }
                     /^TIME/ { printf "| all | | | %s |\n", $2 }'
  echo
  echo "Speed of the RTL alone (--fast; node-cycles/s from the CPU time):"
  echo
  echo "| workload | cycles | wall (s) | CPU (s) | node-cycles/s |"
  echo "|---|---|---|---|---|"
  for scen in allreduce random; do
    read -r c w u <<<"$(speed $net build/cosim_$net $scen)"
    awk -v s=$scen -v c=$c -v w=$w -v u=$u -v n=$n 'BEGIN { u = u < 0.01 ? 0.01 : u
      printf "| %s | %d | %.2f | %.2f | %.3fM |\n", s, c, w, u, n * c / u / 1e6 }'
  done
  echo "$res" | grep -q '^FAIL' && { echo "rtl_bench: 8x8x8 failed a scenario" >&2; exit 1; }
  exit 0
fi

threads() {
  local tw tc tm
  read -r tw tc tm <<<"$(build 8x8 build/cosim_8x8_t2)"
  [ -n "$tm" ] || exit 1
  echo "### Verilator's \`--threads 2\` against one thread (8x8)"
  echo
  echo "The 8x8 built with \`--threads 2\`: $tw s wall, $tc s CPU, $tm MB. Verilator warns"
  echo "that it cannot give the hierarchical model two threads' work (UNOPTTHREADS)."
  echo
  echo "| workload | cycles | 1 thread wall (s) | 1 thread CPU (s) | 2 threads wall (s) | 2 threads CPU (s) | wall speed-up |"
  echo "|---|---|---|---|---|---|---|"
  for scen in allreduce random many_reduces; do
    read -r c1 w1 u1 <<<"$(speed 8x8 build/cosim_8x8 $scen)"
    read -r c2 w2 u2 <<<"$(speed 8x8 build/cosim_8x8_t2 $scen)"
    [ "$c1" = "$c2" ] || { echo "rtl_bench: 1 and 2 threads ran $c1 and $c2 cycles on $scen" >&2; exit 1; }
    awk -v s=$scen -v c=$c1 -v w1=$w1 -v u1=$u1 -v w2=$w2 -v u2=$u2 'BEGIN { w2 = w2 < 0.01 ? 0.01 : w2
      printf "| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2fx |\n", s, c, w1, u1, w2, u2, w1 / w2 }'
  done
}
if [ "${1:-}" = threads ]; then # only the threads (needs build/cosim_8x8)
  threads
  exit 0
fi

flags
NETS_B="4x4 8x8 4x4x4 4x4x2x2"
echo "### Build time and memory"
echo
echo "From a clean object folder, without ccache, \`make -s build/cosim_NET\` (make's own"
echo "\`-j 2\` inside Verilator's build); CPU is user + system time of every process of"
echo "the build, what one core would take; memory is the peak of the largest process."
echo
echo "| torus | nodes | wall (s) | CPU (s) | peak memory (MB) |"
echo "|---|---|---|---|---|"
for net in $NETS_B; do
  read -r bw bc bm <<<"$(build $net)"
  echo "| $net | $(nodes $net) | $bw | $bc | $bm |"
done
[ -f docs/bench-8x8x8.md ] && echo && echo "The 512-node torus: below (make bench-8x8x8)."
echo
echo "### Speed against the C model"
echo
echo "The co-simulation harness drives both the same way, PE models and scoreboard"
echo "included: \`build/cosim_NET --fast\` runs the RTL alone (no trace, no observation"
echo "records read), \`build/tcsim --topo NET --fast\` the C model. node-cycles/s from"
echo "the CPU time of the run (wall time is that of a shared machine)."
echo
echo "| torus | workload | cycles | RTL wall (s) | RTL CPU (s) | RTL node-cycles/s | C model CPU (s) | C model node-cycles/s | C model / RTL |"
echo "|---|---|---|---|---|---|---|---|---|"
for net in $NETS_B; do
  n=$(nodes $net)
  for scen in allreduce random many_reduces; do
    read -r cr wr ur <<<"$(speed $net build/cosim_$net $scen)"
    res=$( { /usr/bin/time -f "TIME %e %U" build/tcsim --topo $net --scen $scen --fast; } 2>&1 ) || true
    echo "tcsim $net $scen: $res" >>"$log"
    read -r cc uc <<<"$(echo "$res" | awk '/^PASS/ { for (i = 1; i < NF; i++) if ($i == "cycles") c = $(i + 1) }
                                          /^TIME/ { u = $3 } END { print c, u }')"
    [ "$cr" = "$cc" ] || { echo "rtl_bench: RTL and C model ran $cr and $cc cycles on $net $scen" >&2; exit 1; }
    awk -v t=$net -v s=$scen -v c=$cr -v w=$wr -v u=$ur -v uc=$uc -v n=$n 'BEGIN {
      u = u < 0.01 ? 0.01 : u; uc = uc < 0.01 ? 0.01 : uc
      printf "| %s | %s | %d | %.2f | %.2f | %.3fM | %.2f | %.1fM | %.0fx |\n", t, s, c, w, u, n * c / u / 1e6,
             uc, n * c / uc / 1e6, u / uc }'
  done
done
echo
threads
if [ -f docs/bench-8x8x8.md ]; then
  echo
  sed 's/^## /### /' docs/bench-8x8x8.md
fi
