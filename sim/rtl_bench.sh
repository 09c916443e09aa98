#!/usr/bin/env bash
# The Verilated RTL: how the co-simulation builds are made and why, build time and
# memory from a clean object folder and speed against the C model, each beside the
# figures of the earlier builds (the whole torus with --hierarchical, as this script
# measured them at commit $BEFORE); the nodes stepped on two threads against one.
# Markdown on stdout (sim/bench.sh puts it into docs/bench.md).
# Usage: sim/rtl_bench.sh            4x4, 8x8, 4x4x4, 4x4x2x2, 8x8x8 and the threads
#        sim/rtl_bench.sh threads    only the threads (build/rtl_bench/cosim_8x8, _8x8x8)
#        sim/rtl_bench.sh 8x8x8      by hand (make bench-8x8x8): the 512-node torus,
#                                    built, then co-simulated on every scenario
# Builds run without ccache (CCACHE_DISABLE): the figures are those of a fresh clone.
# They are this script's own, in build/rtl_bench/ (make B=build/rtl_bench): it removes
# and rebuilds only those, never build/cosim_NET, which make sim and make test use.
# Wall time is noisy on a shared machine; CPU time (user + system, every process of
# the build) is what one core would take.
set -eu
cd "$(dirname "$0")/.."
source sim/lib.sh
log=build/rtl_bench${1:+_$1}.log
: >"$log"
BEFORE=39d56f4
BB=build/rtl_bench
# make in BB: its own libraries and builds; rtl/tc_format.vh is make bench's (-o: not
# regenerated here)
BMAKE=(make -s -o rtl/tc_format.vh B=$BB)
mkdir -p $BB
"${BMAKE[@]}" $BB/libtb.a $BB/libtc.a >/dev/null

# build NET: a clean build of $BB/cosim_NET; prints "wall cpu_s peak_mb".
build() {
  local net=$1 bin=$BB/cosim_$1 res
  progress "building $bin from a clean object folder"
  rm -rf "$BB"/obj_node_* "$BB"/node_* "$BB/shim" "$bin" # this script's own builds only: NET's node model from clean
  res=$( { CCACHE_DISABLE=1 /usr/bin/time -f "TIME %e %U %S %M" "${BMAKE[@]}" "$bin"; } 2>&1 ) ||
    { echo "rtl_bench: building $bin failed" >&2; echo "$res" | tail -20 >&2; exit 1; }
  echo "build $bin: $res" >>"$log"
  echo "$res" | awk '/^TIME/ { printf "%.0f %.0f %.0f\n", $2, $3 + $4, $5 / 1024 }'
}

# speed NET BIN SCEN: "cycles wall cpu" of the RTL alone (--fast: no observation records)
speed() {
  local res
  progress "$2 --scen $3 --fast${TC_RTL_THREADS:+ (TC_RTL_THREADS=$TC_RTL_THREADS)}"
  res=$( { /usr/bin/time -f "TIME %e %U" "$2" --scen "$3" --fast; } 2>&1 ) || true
  echo "$2 --scen $3 --fast: $res" >>"$log"
  echo "$res" | grep -q '^PASS' || { echo "rtl_bench: $2 --scen $3 did not pass" >&2; echo "$res" | tail >&2; exit 1; }
  echo "$res" | awk '/^PASS/ { for (i = 1; i < NF; i++) if ($i == "cycles") c = $(i + 1) }
                     /^TIME/ { w = $2; u = $3 } END { print c, w, u }'
}

# before NET [SCEN]: the earlier build's "wall cpu_s peak_mb" of NET, or its RTL
# node-cycles/s on SCEN, from docs/bench.md at $BEFORE; "-" where it had none.
before() {
  git show "$BEFORE:docs/bench.md" 2>/dev/null | awk -F'|' -v t="$1" -v s="${2:-}" '
    /^#/ { sec = $0 }
    { for (i = 2; i < NF; i++) { f[i] = $i; gsub(/ /, "", f[i]) } }
    sec ~ /Build time/ && s == "" && f[2] == t && f[3] ~ /^[0-9]+$/ { r = f[4] " " f[5] " " f[6] }
    sec ~ /Speed against/ && s != "" && f[2] == t && f[3] == s { r = f[7] }
    END { print (r == "" ? (s == "" ? "- - -" : "-") : r) }'
}

# failed_scens RES NET: for each scenario RES (a cosim run's output) failed with the
# RTL equal to the C model, its line and the C model alone's result on it.
failed_scens() {
  local scen
  for scen in $(echo "$1" | awk '/^FAIL / && /\(RTL = C model\)/ { print $3 }'); do
    echo
    echo "\`$scen\` fails with the RTL equal to the C model cycle by cycle: the scenario's"
    echo "own checks fail on both, and on the C model alone (\`build/tcsim --topo $2 --scen $scen\`):"
    echo
    echo "    $(echo "$1" | grep "^FAIL  $2 *$scen ")"
    echo "    $(build/tcsim --topo "$2" --scen "$scen" 2>&1 | grep -E '^(PASS|FAIL) ')"
  done
}

flags() {
  cat <<'EOF'
## The Verilated RTL

### How the co-simulation builds are made

A co-simulation build (`make build/cosim_NET`, the Makefile's `VL_RULES` and `VL_NET`)
Verilates one node, not the torus: its cost does not grow with the node count, and
512 nodes build as fast as 16. The node's model depends on the dimension count and
the parameters, not on the sizes (the torus's diameter is an input), so it is
Verilated once per kind (`build/node_KEY`) and every torus of that kind is only its
shim compiled for the sizes and linked with it, in seconds.

- **One node as the top level** (`--top-module tc_node`, `rtl/tc_node.v`: the
  router, its outgoing links' delay lines but their last cycle, its PCIe delay
  lines). The C++ shim `tb/dut_nodes.cpp` makes one model of it per node and joins
  them as `tc_torus` does: the link in direction d of node n arrives at input d^1
  of its neighbour through one register, and that register is the shim's copy of
  every node's link outputs, taken before the rising edge, into its neighbours'
  link inputs after it. A node's outputs are all registers, so each node is
  stepped on its own (inputs, rising edge, falling edge), in one pass over the
  nodes. Before, the torus was Verilated with `--hierarchical` and the node as a
  hierarchical block: the router was compiled once, but the top level still held
  every node's block wrapper, link registers and port copies, which grew with the
  node count (most of the build at 64 nodes; 512 nodes were never built).
- **`tc_torus` stays the RTL of the whole torus**, Verilated flat
  (`build/flat/cosim_NET`), for the coverage builds and SystemC (`make sim-sc`); the
  waveforms (`make wave`, `build/wave/cosim_NET`) are the node's model with
  `--trace-fst`, every node writing into one FST. `make test` runs the 5-node ring's flat build
  on every scenario against the C model, so both the shim's wiring and
  `tc_torus`'s are shown equal to the C model.
- **Observation through monitors, not ports.** A monitor around the router
  (`tb/tc_router_mon.sv`, Verilator builds only) hands the router's observation
  record, an internal wire no port carries, to the shim through DPI at each rising
  edge (`tb/dut_obs.h`); synthesis removes the record. Lemma 1 of the barrier,
  which needs the records of neighbours, is checked by the testbench on those
  records (`tb/cosim.c`).
- **No tracing in the co-simulation builds.** Tracing compiled in was 42% of the
  generated code of the flat 8x8 torus; `make wave` builds the node's model once
  more with `--trace-fst` (at `-O1`: the trace code is most of it), every node
  writing its signals into one FST. A co-simulation build asked for a waveform says
  which command builds one.
- **Loops the model would run bit by bit, written as logic.** The arbiter's
  lowest-requester search (`rtl/tc_rr_arb.v`) is a generate tree, not a loop in a
  function (proved equal with Yosys' `sat` at 9, 19 and 256 requesters); the
  Reducer's results eligible for a copy (`rtl/tc_reducer.v`) are 16 masks, one per
  tree, not a loop over 256 bits, which Verilator ran bit by bit at every cycle
  (a fifth of a node's evaluation).
- `-O2` for the generated code (`OPT_FAST`, `OPT_GLOBAL`): about twice the speed of
  the default `-Os` at a modest compile cost.
- `ccache` for the generated C++ (`OBJCACHE`), when installed: an unchanged
  rebuild takes seconds. The figures below are measured without it.
- DFG stays on: with `-fno-dfg` Verilator 5.006 finds a combinational loop
  (UNOPTFLAT, which halves speed) in the phase counters' fence (`clear` in
  `rtl/tc_phase.v`) that DFG removes.
- `--assert` and `TC_ASSERT`: the RTL's own checks stop the run on `$error`.

EOF
}

if [ "${1:-}" = 8x8x8 ]; then
  net=8x8x8
  n=$(nodes $net)
  x=$(build $net) || exit 1; read -r bw bc bm <<<"$x"
  echo "## The 512-node torus (8x8x8), Verilated (make bench-8x8x8, $(date -u +%Y-%m-%d))"
  echo
  echo "One node Verilated, 512 models of it joined by the shim (tb/dut_nodes.cpp),"
  echo "built from a clean object folder without ccache: $bw s wall, $bc s CPU, peak"
  echo "memory $bm MB (the largest process of the build)."
  echo
  echo "Every scenario, RTL against the C model cycle by cycle (observation records of"
  echo "every node every cycle and the PE ports):"
  echo
  echo "| scenario | result | cycles | wall (s) | CPU (s) |"
  echo "|---|---|---|---|---|"
  progress "$BB/cosim_$net --scen all"
  res=$( { /usr/bin/time -f "TIME %e %U %S" $BB/cosim_$net --scen all; } 2>&1 ) || true
  echo "$BB/cosim_$net --scen all: $res" >>"$log"
  echo "$res" | awk '/^(PASS|FAIL) / { c = ""; for (i = 1; i < NF; i++) if ($i == "cycles") c = $(i + 1)
                                       printf "| %s | %s | %s | | |\n", $3, $1, c }
                     /^TIME/ { printf "| all | | | %.0f | %.0f |\n", $2, $3 + $4 }'
  echo
  echo "Speed of the RTL alone (--fast; node-cycles/s from the CPU time):"
  echo
  echo "| workload | cycles | wall (s) | CPU (s) | node-cycles/s |"
  echo "|---|---|---|---|---|"
  for scen in allreduce random; do
    x=$(speed $net $BB/cosim_$net $scen) || exit 1; read -r c w u <<<"$x"
    awk -v s=$scen -v c=$c -v w=$w -v u=$u -v n=$n 'BEGIN { u = u < 0.01 ? 0.01 : u
      printf "| %s | %d | %.2f | %.2f | %.3fM |\n", s, c, w, u, n * c / u / 1e6 }'
  done
  # A scenario can fail with the RTL equal to the C model (its line ends "(RTL = C
  # model)"): the scenario's own checks fail on both, and on the C model alone too.
  failed_scens "$res" "$net"
  echo "$res" | grep '^FAIL' | grep -vq '(RTL = C model)' && { echo "rtl_bench: 8x8x8: the RTL differs from the C model" >&2; exit 1; }
  exit 0
fi

threads() {
  echo "### The nodes on two threads against one"
  echo
  echo "\`TC_RTL_THREADS=2\` has the shim step the nodes on two threads, each half of"
  echo "them, with a barrier per cycle (the testbench between cycles stays on one)."
  echo "Same build; wall time is what threads can win, on a machine shared with other"
  echo "jobs."
  echo
  echo "| torus | workload | cycles | 1 thread wall (s) | 1 thread CPU (s) | 2 threads wall (s) | 2 threads CPU (s) | wall speed-up |"
  echo "|---|---|---|---|---|---|---|---|"
  for net in 8x8 8x8x8; do
    for scen in allreduce random; do
      x=$(speed $net $BB/cosim_$net $scen) || exit 1; read -r c1 w1 u1 <<<"$x"
      x=$(TC_RTL_THREADS=2 speed $net $BB/cosim_$net $scen) || exit 1; read -r c2 w2 u2 <<<"$x"
      [ "$c1" = "$c2" ] || { echo "rtl_bench: 1 and 2 threads ran $c1 and $c2 cycles on $net $scen" >&2; exit 1; }
      row $net $scen "$c1" "$w1" "$u1" "$w2" "$u2"
    done
  done
  echo
  echo "Verilator's own \`--threads 2\` inside each node (\`make build/cosim_8x8_vt2\`) against the"
  echo "one-thread build: Verilator warns that it cannot split a node two ways"
  echo "(UNOPTTHREADS, waived for this build only), and the threads' handshakes in every"
  echo "node's evaluation cost more than they share."
  echo
  echo "| torus | workload | cycles | 1 thread wall (s) | 1 thread CPU (s) | --threads 2 wall (s) | --threads 2 CPU (s) | wall speed-up |"
  echo "|---|---|---|---|---|---|---|---|"
  progress "building $BB/cosim_8x8_vt2"
  "${BMAKE[@]}" $BB/cosim_8x8_vt2 >/dev/null
  for scen in allreduce random; do
    x=$(speed 8x8 $BB/cosim_8x8 $scen) || exit 1; read -r c1 w1 u1 <<<"$x"
    x=$(speed 8x8 $BB/cosim_8x8_vt2 $scen) || exit 1; read -r c2 w2 u2 <<<"$x"
    [ "$c1" = "$c2" ] || { echo "rtl_bench: --threads 1 and 2 ran $c1 and $c2 cycles on 8x8 $scen" >&2; exit 1; }
    row 8x8 $scen "$c1" "$w1" "$u1" "$w2" "$u2"
  done
}
row() { # NET SCEN CYCLES WALL1 CPU1 WALL2 CPU2
  awk -v t=$1 -v s=$2 -v c=$3 -v w1=$4 -v u1=$5 -v w2=$6 -v u2=$7 'BEGIN { w2 = w2 < 0.01 ? 0.01 : w2
    printf "| %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %.2fx |\n", t, s, c, w1, u1, w2, u2, w1 / w2 }'
}
if [ "${1:-}" = threads ]; then # only the threads: $BB/cosim_8x8 and _8x8x8 built if stale
  progress "building $BB/cosim_8x8 and $BB/cosim_8x8x8"
  "${BMAKE[@]}" $BB/cosim_8x8 $BB/cosim_8x8x8 >/dev/null
  threads
  exit 0
fi

flags
NETS_B="4x4 8x8 4x4x4 4x4x2x2 8x8x8"
echo "### Build time and memory"
echo
echo "From a clean object folder, without ccache, \`make -s build/cosim_NET\` (into the bench's own"
echo "folder, \`B=build/rtl_bench\`; make's own"
echo "\`-j 2\` inside Verilator's build); CPU is user + system time of every process of"
echo "the build, what one core would take; memory is the peak of the largest process."
echo "Before: the hierarchical builds of the whole torus (commit $BEFORE); 8x8x8 was"
echo "never built that way."
echo
echo "| torus | nodes | before: wall (s) | before: CPU (s) | before: peak (MB) | wall (s) | CPU (s) | peak memory (MB) |"
echo "|---|---|---|---|---|---|---|---|"
for net in $NETS_B; do
  read -r pw pc pm <<<"$(before $net)"
  x=$(build $net) || exit 1; read -r bw bc bm <<<"$x"
  echo "| $net | $(nodes $net) | $pw | $pc | $pm | $bw | $bc | $bm |"
done
echo
echo "### Speed against the C model"
echo
echo "The co-simulation harness drives both the same way, PE models and scoreboard"
echo "included: \`build/cosim_NET --fast\` runs the RTL alone (no trace, no observation"
echo "records read), \`build/tcsim --topo NET --fast\` the C model. node-cycles/s from"
echo "the CPU time of the run (wall time is that of a shared machine); before: the"
echo "hierarchical builds (commit $BEFORE)."
echo
echo "| torus | workload | cycles | RTL wall (s) | RTL CPU (s) | before: RTL node-cycles/s | RTL node-cycles/s | C model CPU (s) | C model node-cycles/s | C model / RTL |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for net in $NETS_B; do
  n=$(nodes $net)
  for scen in allreduce random many_reduces; do
    x=$(speed $net $BB/cosim_$net $scen) || exit 1; read -r cr wr ur <<<"$x"
    progress "build/tcsim --topo $net --scen $scen --fast"
    res=$( { /usr/bin/time -f "TIME %e %U" build/tcsim --topo $net --scen $scen --fast; } 2>&1 ) || true
    echo "tcsim $net $scen: $res" >>"$log"
    read -r cc uc <<<"$(echo "$res" | awk '/^PASS/ { for (i = 1; i < NF; i++) if ($i == "cycles") c = $(i + 1) }
                                          /^TIME/ { u = $3 } END { print c, u }')"
    [ "$cr" = "$cc" ] || { echo "rtl_bench: RTL and C model ran $cr and $cc cycles on $net $scen" >&2; exit 1; }
    awk -v t=$net -v s=$scen -v c=$cr -v w=$wr -v u=$ur -v uc=$uc -v n=$n -v b="$(before $net $scen)" 'BEGIN {
      u = u < 0.01 ? 0.01 : u; uc = uc < 0.01 ? 0.01 : uc
      printf "| %s | %s | %d | %.2f | %.2f | %s | %.3fM | %.2f | %.1fM | %.0fx |\n", t, s, c, w, u, b, n * c / u / 1e6,
             uc, n * c / uc / 1e6, u / uc }'
  done
done
echo
threads
if [ -f docs/bench-8x8x8.md ]; then
  echo
  sed 's/^## /### /' docs/bench-8x8x8.md
fi
