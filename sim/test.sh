#!/usr/bin/env bash
# Every test: golden-model unit tests (plain and under ASan/UBSan), RTL checks in
# Verilator, Icarus and Yosys, RTL-against-C-model co-simulation on every Verilated
# network, and the C model alone on networks larger than the RTL runs here.
# Ends with "N passed, M failed".
# Each section below is a job (sim/lib.sh, job and run_jobs), and so is each
# Verilated build: J + 1 (3) cores' worth of them run at a time, a section once the
# builds it needs are done, the long chains first (formal proofs, lint, the RTL
# builds and the co-simulations). Each section's output is held in its file
# (build/logs/jobs/NAME.out) and printed in the order below, whole: the log reads as
# if they had run one after the other, each header with the time its section started.
# build/logs/timing.log: every job's and every check's time.
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh
J=${J:-2}
NETS=$(make -s -f Makefile print-nets 2>/dev/null || echo "4x4")
SC_NET=$(make -s print-sc-net)
DRAWS=$(make -s print-draws)
UNITS=$(ls tb/unit/test_*.c | xargs -n1 basename | sed 's/\.c$//')
rm -f "$LOGDIR/timing.log"

# unit_run BIN: runs one cmocka binary into its log; unit BIN: counts its test cases
unit_log() { echo "$LOGDIR/$(basename "$(dirname "$1")")_$(basename "$1").log"; }
unit_run() {
  case $1 in
    */unit-san/*) TC_ALU_VECTORS=20000 TC_FPSUM_ELEMENTS=100000 "$1" >"$(unit_log "$1")" 2>&1 ;;
    *) "$1" >"$(unit_log "$1")" 2>&1 ;;
  esac
}
export -f unit_run unit_log
export LOGDIR
unit() { # BIN: counts the cmocka test cases of one binary
  local log p f
  log=$(unit_log "$1")
  p=$(sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
  f=$(sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
  PASSED=$((PASSED + ${p:-0}))
  FAILED=$((FAILED + ${f:-0}))
  if [ "${f:-0}" != 0 ] || [ -z "$p" ]; then
    printf 'FAIL  unit %s\n' "$1"; grep -E 'FAILED|ERROR|error' "$log" | head -20 | sed 's/^/      /'
    [ -z "$p" ] && [ -z "$f" ] && FAILED=$((FAILED + 1))
  else
    printf 'PASS  unit %s: %s test cases\n' "$1" "$p"
  fi
}

# vector_check BIN N: build a Verilated block's check against its C twin, run N
# vectors per case and count its PASS/FAIL lines
vector_check() {
  check "verilate and build $1" make -s "$1"
  [ -x "$1" ] || return 0
  "$1" "$2" >"$LOGDIR/$(basename "$1").log" 2>&1
  grep -E '^(PASS|FAIL)' "$LOGDIR/$(basename "$1").log"
  count_results "$LOGDIR/$(basename "$1").log" "$(basename "$1")"
}

# ---------------------------------------------------------------- the sections

# The C build first (every job that runs a C program waits for its milestone c),
# then the unit tests.
s_unit() {
section "golden-model unit tests"
make -s -j"$J" $(for u in $UNITS; do echo build/unit/$u build/unit-san/$u; done) build/tcsim build/tcsim-san build/tcnet build/tccheck \
  build/gen_format >"$LOGDIR/build-c.log" 2>&1 || { cat "$LOGDIR/build-c.log"; touch "$JOBDIR/ABORT"; exit 1; }
milestone c # the C programs are built: the jobs that need them may start
# every binary, J at a time, into its log; the results read in order
for u in $UNITS; do echo "build/unit/$u"; echo "build/unit-san/$u"; done |
  xargs -P "$J" -I{} bash -c 'unit_run {}'
for u in $UNITS; do unit build/unit/$u; unit build/unit-san/$u; done
}

s_lint() {
section "RTL lint, compile, synthesis"
live "$LOGDIR/lint.log" bash sim/lint.sh
count_results "$LOGDIR/lint.log" "sim/lint.sh"
}

s_formal() {
section "formal proofs (yosys-smtbmc, z3)"
live "$LOGDIR/formal.log" bash sim/formal.sh
count_results "$LOGDIR/formal.log" "sim/formal.sh"
}

s_cosim() {
section "co-simulation: RTL against C model, cycle by cycle"
# Every co-simulation run, J at a time, into its log (the builds are done: the job's DEPS); the
# results are read in order. build/cosim_NET joins a model per node in C++
# (tb/dut_nodes.cpp); the 5-node ring's flat build is the whole torus of tc_torus, so
# its run checks tc_torus's wiring against the C model too.
cosim_run() { # NET SEED: every scenario; random mixes; soak mixes on random tables
  local args="--scen all"
  [ "$2" -gt 1 ] && args="--scen random"; [ "$2" -gt 3 ] && args="--scen soak --table random"
  build/cosim_$1 $args --seed $2 >"$LOGDIR/cosim_$1_$2.log" 2>&1
}
export -f cosim_run
export LOGDIR
for net in $NETS; do [ -x build/cosim_$net ] && for seed in 1 2 3 4 5 6; do echo "$net $seed"; done; done |
  xargs -P "$J" -n 2 bash -c 'cosim_run "$@"' _
for net in $NETS; do
  check "verilate and build build/cosim_$net" make -s build/cosim_$net
  [ -x build/cosim_$net ] || continue
  for seed in 1 2 3 4 5 6; do
    grep -E '^(PASS|FAIL)' "$LOGDIR/cosim_${net}_$seed.log" | sed "s/\$/  seed $seed/"
    count_results "$LOGDIR/cosim_${net}_$seed.log" "cosim_$net seed $seed"
    grep -q '^FAIL' "$LOGDIR/cosim_${net}_$seed.log" && sed -n '/MISMATCH\|violated\|lost\|duplicate\|waveform/p' "$LOGDIR/cosim_${net}_$seed.log" | head -20 | sed 's/^/      /'
  done
  # The network simulator's PEs and workloads give the latencies that the RTL gave.
  for pair in bcast:bcast_root allreduce:allreduce barrier:barrier tree_barrier:tree_barrier; do
    rtl=$(awk -v s=${pair#*:} '$1 == "PASS" && $3 == s { for (i = 1; i < NF; i++) if ($i == "latency") print $(i + 1) }' \
          "$LOGDIR/cosim_${net}_1.log")
    sim=$(build/tcnet topo=$net workload=${pair%%:*} progress=off | awk '/latency per operation/ { print $6 }')
    check "tcnet $net ${pair%%:*}: $sim cycles, as the RTL (${pair#*:}: $rtl)" test -n "$rtl" -a "$sim" = "$rtl"
  done
  # A 64 KiB stream: the RTL's span and busiest link are tcnet's latency and link_util.
  rtl=$(awk '$1 == "stream:" { print $2, $NF }' "$LOGDIR/cosim_${net}_1.log")
  sim=$(build/tcnet topo=$net workload=bcast bytes=65536 len=7 progress=off |
        awk '/latency per operation/ { l = $6 } /link_util/ { u = $NF; sub(/\)/, "", u) } END { print l, u }')
  check "tcnet $net 64 KiB bcast: cycles and link_util $sim, as the RTL's stream ($rtl)" test -n "$rtl" -a "$sim" = "$rtl"
done

check "verilate and build build/flat/cosim_5 (tc_torus, flat)" make -s build/flat/cosim_5
check "tc_torus (build/flat/cosim_5) = C model, every scenario, cycle by cycle" build/flat/cosim_5 --scen all
}

s_draws() {
section "RTL = C model at drawn parameters: 2 slots, 1 PE credit, 1 data flit, latencies 1 to 3000 (docs/soak.md)"
# make print-draws lists them (Makefile RTL_DRAWS); each on a random mix, 2x3's on every
# scenario too (sim/rtl_draws.sh; make regress runs soak mixes, more seeds, every
# scenario of each and RTL_DRAWS_MORE)
for d in $DRAWS; do check "verilate and build build/cosim_$d" make -s build/cosim_$d; done
bash sim/rtl_draws.sh >"$LOGDIR/rtl_draws.log" 2>&1
grep -E '^(PASS|FAIL|      )' "$LOGDIR/rtl_draws.log"
count_results "$LOGDIR/rtl_draws.log" "sim/rtl_draws.sh"
}

s_sc() {
section "SystemC: Verilated RTL and the C model module against the C model"
live "$LOGDIR/sc.log" bash sim/sc.sh
count_results "$LOGDIR/sc.log" "sim/sc.sh"
}

s_alu() {
section "Reducer ALU: RTL against C model (make alu-check N=1000000 for the full run)"
vector_check build/alu_check 20000
}

s_fpsum() {
section "floating-point sum blocks: RTL against C model (make fpsum-check N=1000000 for the full run)"
vector_check build/fpsum_check 20000
}

s_fpsum_net() {
section "floating-point allreduce on the network: exact sums in MPFR, the same bits on 128 trees (docs/fpsum.md)"
make -s build/fpsum_verify >"$LOGDIR/build-fpsum-verify.log" 2>&1 || { echo "FAIL  make build/fpsum_verify"; cat "$LOGDIR/build-fpsum-verify.log"; FAILED=$((FAILED + 1)); }
J=$J bash sim/fpsum_net.sh >"$LOGDIR/fpsum_net.log" 2>&1
grep -vE '^([0-9]+ passed|PASS  fpsum_verify build/fpsum_net/tree_)' "$LOGDIR/fpsum_net.log"
echo "($(grep -c '^PASS  fpsum_verify build/fpsum_net/tree_' "$LOGDIR/fpsum_net.log") runs on other trees, tori and latencies passed; their lines in $LOGDIR/fpsum_net.log)"
count_results "$LOGDIR/fpsum_net.log" "sim/fpsum_net.sh"
}

s_docs() {
section "docs follow the design"
check "make help lists every target a user runs (each with its line in the Makefile)" bash -c \
  "want=\$(sed -n 's/^\.PHONY: //p' Makefile | tr ' ' '\n' | grep -vE '^(deps|deps-.*|print-.*)\$' | sort); \
   got=\$(make -s help | awk '/^  / { print \$1 }' | sort); echo \"\$want\" >&2; [ \"\$want\" = \"\$got\" ]"
first=${NETS%% *}
check "docs/timing/*.json equal the diagrams drawn from the RTL's trace and from the C model's" bash -c \
  "rm -rf build/timing && mkdir -p build/timing && \
   for s in bcast_leaf all_trees allreduce fsum credits barrier; do build/cosim_$first --scen \$s --wavedrom build/timing >/dev/null || exit 1; done && \
   for j in docs/timing/*.json; do b=build/timing/\$(basename \$j .json); diff -u \$j \$b.json && diff -u \$j \$b.rtl.json || exit 1; done"
check "docs/format-tables.md equals cmodel/format.def" bash -c "build/gen_format md | diff -u docs/format-tables.md -"
check "docs/README.md links every docs/*.md page, and each of its links resolves" bash -c \
  'for f in docs/*.md; do [ $f = docs/README.md ] || grep -qF "](${f#docs/})" docs/README.md || { echo "not linked: $f"; exit 1; }; done
   for l in $(grep -oE "\]\([^)#]+" docs/README.md | cut -c3-); do [ -e "docs/$l" ] || { echo "no such page: $l"; exit 1; }; done'
check "rtl/tc_params.vh and docs/params.md equal cmodel/params.def" bash -c \
  "make -s build/gen_params && build/gen_params | diff -u rtl/tc_params.vh - && build/gen_params md | diff -u docs/params.md -"
# every number the prose quotes between <!--n:...--> markers, every generated table,
# every count of scenarios: recomputed from the tools and the generated data
# (sim/fpsum_net.sh's figures from the run of the section before, not a second run)
TC_FPSUM_NET_RUN=1 python3 sim/docnums.py check >"$LOGDIR/docnums.log" 2>&1
grep -E '^(PASS|FAIL)' -A8 "$LOGDIR/docnums.log" | grep -v '^--'
count_results "$LOGDIR/docnums.log" "sim/docnums.py"
}

s_cmodel_san() {
section "C model alone, larger and odd networks (ASan/UBSan build)"
# (each run into its log, J at a time; the results read in order)
SAN_TOPOS="2 7 8x8 3x1x2 4x4x4 3x3x3x2"
echo $SAN_TOPOS | tr ' ' '\n' | xargs -P "$J" -I{} bash -c 'build/tcsim-san --topo {} --scen all >"$LOGDIR/tcsim_{}.log" 2>&1'
for topo in $SAN_TOPOS; do
  grep -E '^(PASS|FAIL)' "$LOGDIR/tcsim_$topo.log"
  count_results "$LOGDIR/tcsim_$topo.log" "tcsim $topo"
done
check "tcsim-san 3x3 with 4 Reducer slices, every scenario" build/tcsim-san --topo 3x3 --red-slices 4 --scen all

# The scenarios' own timing at larger diameters (--fast: 16x16's credits once had the
# second use of a ReduceId reach interior nodes before the first completed there), and
# every scenario that takes any table on random trees.
FAST_RUNS=("16x16 --scen all" "15x17 --scen credits" "4x4x4x4 --scen credits" "9x7 --scen all --table random --seed 3"
           "5x3x2 --scen all --table random --seed 1" "3x3x3x3 --scen all --table random --seed 2"
           "7x5 --scen all --table random --seed 4 --red-slices 4")
printf '%s\n' "${FAST_RUNS[@]}" | xargs -P "$J" -d '\n' -n 1 bash -c 'build/tcsim --topo $1 --fast >"$LOGDIR/tcsim_fast_${1// /_}.log" 2>&1' _
for run in "${FAST_RUNS[@]}"; do
  log="$LOGDIR/tcsim_fast_${run// /_}.log"
  grep -E '^(PASS|FAIL)' "$log" | sed "s/\$/  (--topo $run --fast)/"
  count_results "$log" "tcsim --topo $run"
done
}

s_limits() {
section "tcsim's limits from the configuration, the 1-node torus, a loss's cause shown first"
# The watchdog's window and the cycle cap follow the latencies, the trees and the
# stimulus (tb/cosim.c, docs/deadlock.md): long links, PCIe latencies and slow
# injection are no failure
check "tcsim 4x4 many_reduces --link-lat 3000 --fast passes (no progress at a fixed window of 20000)" \
  bash -c "build/tcsim --topo 4x4 --scen many_reduces --link-lat 3000 --fast | grep -q '^PASS'"
check "tcsim 4x4 stream --inj-lat 2000 --inj-slots 2 --fast passes (past a fixed 400000-cycle limit)" \
  bash -c "build/tcsim --topo 4x4 --scen stream --inj-lat 2000 --inj-slots 2 --fast | grep -q '^PASS'"
check "tcsim 4x4 bcast_root --inj-lat 2000 ends (periodic reports are no work left)" \
  bash -c "build/tcsim --topo 4x4 --scen bcast_root --inj-lat 2000 | grep -q '^PASS'"
check "tcsim 4x4 every scenario, --link-lat 2000 --inj-lat 5000 --ej-lat 5000 --fast, passes" \
  build/tcsim --topo 4x4 --scen all --link-lat 2000 --inj-lat 5000 --ej-lat 5000 --fast
check "tcsim 4x4 bad_reduce --link-lat 1 --fast waits for every expected error (one reported twice)" \
  build/tcsim --topo 4x4 --scen bad_reduce --link-lat 1 --fast
check "tcsim --topo 1: every scenario that a node alone can run passes, with and without --fast" bash -c \
  "build/tcsim --topo 1 --scen all && build/tcsim --topo 1 --scen all --fast"
for s in bad_reduce credit_violation; do
  check "tcsim --topo 1 --scen $s refused (exit 2), naming it" bash -c \
    "build/tcsim --topo 1 --scen $s 2>&1 | grep -q 'scen = $s on the 1-node torus: needs two nodes'; test \${PIPESTATUS[0]} = 2"
done
# a PE gives a later allreduce the ReduceId of one still in flight: the router's report
# that it ignored the contribution comes before the 16 copies it lost, whatever the cap
check "tcsim --plant rid-twice: the ignored contribution's report printed before the lost copies" bash -c \
  "build/tcsim --topo 4x4 --scen many_reduces --plant rid-twice --fast 2>&1 | tee /dev/stderr | \
   awk '/lost\\)\$/ && !lost { lost = NR } /its tree.s next ReduceId .they go in turn.; ignored/ && !cause { cause = NR }
        END { exit !(cause && lost && cause < lost) }'"
}

s_live() {
section "live under every legal parameter: slow PEs, two slots, long latencies (docs/deadlock.md)"
# runs that stalled or lost packets before the credit block's duties took turns, its
# reports went one at a time and a tree's results left the Reducer in ReduceId order;
# seed 99200: 7 refused packets from one node's slow PE, paced by their error reports
for a in "--topo 5 --scen soak --seed 2 --slots 2 --pe-credits 1 --ej-lat 3000" \
         "--topo 5 --scen credits --seed 1 --slots 2 --pe-credits 1 --ej-lat 3000" \
         "--topo 3x3x3x3 --scen random --seed 197 --slots 13 --inj-slots 7 --pe-credits 1 --link-lat 129 --inj-lat 84 --ej-lat 771" \
         "--topo 7x5 --scen random --seed 30029 --slots 15 --inj-slots 33 --pe-credits 1 --link-lat 174 --inj-lat 861 --ej-lat 966" \
         "--topo 2x9 --scen credits --seed 1 --slots 2" "--topo 5x2x3 --scen random --seed 1 --slots 2" \
         "--topo 3x3x3 --scen random --seed 1 --slots 2" "--topo 5 --scen credits --link-lat 2000 --slots 2 --pe-credits 1" \
         "--topo 1 --scen soak --seed 1005 --table random --slots 61 --pe-credits 1 --link-lat 2000 --inj-lat 5000 --ej-lat 5000" \
         "--topo 1 --scen soak --seed 99200 --slots 2 --inj-slots 2 --pe-credits 1 --red-flits 6 --link-lat 2000 --inj-lat 1 --ej-lat 2746" \
         "--topo 4x4 --scen all --red-flits 1 --slots 2 --pe-credits 1" "--topo 3x3x3 --scen all --red-flits 7 --slots 64 --pe-credits 255"; do
  check "tcsim $a --fast" build/tcsim $a --fast
done
check "tcnet topo=5 allreduce repeat=100 window=16 slots=2 pe_credits=1 ej_lat=2200: all 100 complete" bash -c \
  "build/tcnet topo=5 workload=allreduce repeat=100 window=16 slots=2 pe_credits=1 ej_lat=2200 max_cycles=20000000 progress=off \
   | grep -q 'allreduce x 100' && ! build/tcnet topo=5 workload=allreduce repeat=100 window=16 slots=2 pe_credits=1 \
   ej_lat=2200 max_cycles=20000000 progress=off | grep -q FAILED"
check "tcsim --scen allreduce --red-flits 1 refused (exit 2), naming the reduces' length" bash -c \
  "build/tcsim --topo 4x4 --scen allreduce --red-flits 1 2>&1 | grep -q 'more than red_flits 1'; test \${PIPESTATUS[0]} = 2"
check "tcsim --scen fsum_stripe --red-flits 1 refused (exit 2): a floating-point sum's element is 2 flits" bash -c \
  "build/tcsim --topo 4x4 --scen fsum_stripe --red-flits 1 2>&1 | grep -q 'binned elements of 2 flits), more than red_flits 1'; test \${PIPESTATUS[0]} = 2"
}

s_p2p() {
section "point-to-point baseline: its per-hop costs are the router's"
hw=$(build/tcnet topo=2 workload=bcast progress=off | awk '/latency per operation/ { print $6 }')
p2p=$(build/tcnet topo=2 workload=bcast impl=p2p progress=off | awk '/latency per operation/ { print $6 }')
check "one packet over one hop: p2p $p2p cycles, the hardware's broadcast $hw" test -n "$hw" -a "$p2p" = "$hw"
# the steady-state model of the MPI algorithms (tcnet p2p_model=1, docs/long-reduce.md's
# long vectors) against their simulation: each algorithm's time within 10% on 4x4 at
# 16 KiB, the same fastest one, and an algorithm by name modelled as auto models it
sim_t=$(build/tcnet topo=4x4 workload=allreduce bytes=16384 impl=p2p p2p_alg=auto progress=off | grep 'p2p algorithms')
mod_t=$(build/tcnet topo=4x4 workload=allreduce bytes=16384 impl=p2p p2p_alg=auto p2p_model=1 progress=off | grep 'p2p algorithms')
near=$(printf '%s\n%s\n' "$sim_t" "$mod_t" | awk '{ for (i = 5; i < NF; i++) if ($(i + 1) ~ /^[0-9]+$/) t[NR, $i] = $(i + 1); if (/best/) for (i = 5; i <= NF; i++) if ($i == "(best)") b[NR] = $(i - 2) }
  END { n = 0; for (k in t) { split(k, x, SUBSEP); if (x[1] == 1) { n++; e = t[2, x[2]] / t[1, x[2]] - 1; if (e > 0.1 || e < -0.1) bad = bad " " x[2] } }
        print (n >= 3 && bad == "" && b[1] == b[2]) ? "yes" : "no" bad " " b[1] " " b[2] }')
check "tcnet p2p_model=1: every allreduce algorithm within 10% of its simulation on 4x4 at 16 KiB, the same fastest ($near)" \
  test "$near" = yes
one=$(build/tcnet topo=4x4 workload=allreduce bytes=16384 impl=p2p p2p_alg=rabenseifner p2p_model=1 progress=off \
  json=$LOGDIR/p2pm.json | awk '/latency per operation/ { print $6 }')
check "tcnet p2p_model=1 p2p_alg=rabenseifner: $one cycles, as auto models it (JSON model true)" bash -c \
  "grep -q 'rabenseifner $one' <<<'$mod_t' && grep -q '\"model\": true' $LOGDIR/p2pm.json"
# auto's link counts are its pick's run alone, not its trials of every algorithm
auto_l=$(build/tcnet topo=4x4 workload=allreduce bytes=16384 impl=p2p p2p_alg=auto progress=off | grep -o 'link flits [0-9]*')
pick_l=$(build/tcnet topo=4x4 workload=allreduce bytes=16384 impl=p2p p2p_alg=recursive_doubling progress=off | grep -o 'link flits [0-9]*')
check "tcnet p2p_alg=auto: the links carry what its pick alone does ($auto_l, recursive_doubling's $pick_l)" \
  test -n "$auto_l" -a "$auto_l" = "$pick_l"
}

s_tcnet_bw() {
section "tcnet's link utilization and delivered bandwidth"
# 586 packets of 7 data flits (65632 bytes) from the root of a 4x4 torus: link_util
# is the busiest link's flits over the cycles, the bandwidth each PE's bytes over
# the run's time (2 ns a cycle), the same in the report and in the JSON
build/tcnet topo=4x4 workload=bcast bytes=65536 len=7 progress=off engine=cycle json=$LOGDIR/bw.json >$LOGDIR/bw.txt
bw_ok=$(awk '/simulated/ { c = $2; b = $9; gsub(/,/, "", b); u = $11; gsub(/\)/, "", u) }
             /delivered/ { g = $2 }
             END { print (c > 0 && b > 0 && sprintf("%.3f", b / c) == u && sprintf("%.3f", 65632 / (c * 2)) == g) ? "yes" : "no " c " " b " " u " " g }' $LOGDIR/bw.txt)
check "tcnet bcast 64 KiB on 4x4: link_util and GB/s from the busiest link and the cycles ($bw_ok)" test "$bw_ok" = yes
check "tcnet JSON has link_util and bandwidth_gbs_per_pe" \
  grep -qE '"link_util": 0\.[0-9]+, "payload_bytes_per_pe": 65632, "bandwidth_gbs_per_pe": [0-9]+\.[0-9]+' $LOGDIR/bw.json

# a failed run (here out of cycles) says FAILED and why, and gives no latency, rate or
# bandwidth: not in the report, null in the JSON
check "tcnet: a failed 1 GiB bcast (max_cycles) prints FAILED and its reason, no link_util or GB/s" bash -c \
  "build/tcnet topo=4x4 workload=bcast bytes=1073741824 max_cycles=20000 progress=off json=$LOGDIR/failed.json \
     >$LOGDIR/failed.txt 2>&1; rc=\$?; cat $LOGDIR/failed.txt; [ \$rc = 1 ] && \
   grep -q '^  FAILED: operation 1 of bcast: [0-9]* deliveries still missing after 20000 cycles' $LOGDIR/failed.txt && \
   ! grep -qE 'link_util [0-9]|GB/s|latency per operation' $LOGDIR/failed.txt && \
   grep -q '\"latency_cycles\": null' $LOGDIR/failed.json && \
   grep -q '\"link_util\": null, \"payload_bytes_per_pe\": null, \"bandwidth_gbs_per_pe\": null' $LOGDIR/failed.json"
check "tcnet: a failed stream prints no operations per 1000 cycles (null in the JSON)" bash -c \
  "build/tcnet topo=4x4 window=16 repeat=64 max_cycles=2000 progress=off json=$LOGDIR/failed_stream.json \
     >$LOGDIR/failed_stream.txt 2>&1; cat $LOGDIR/failed_stream.txt; grep -q '  FAILED: allreduce stream' $LOGDIR/failed_stream.txt && \
   ! grep -q 'operations per 1000 cycles' $LOGDIR/failed_stream.txt && grep -q '\"ops_per_kcycle\": null' $LOGDIR/failed_stream.json"
# the Reducer's account of a stream (what bounds a long reduction, docs/long-reduce.md),
# counted by hand on 2 nodes: an integer allreduce of 2 flits takes 3 cycles of a slice a
# contribution (the root's two, the leaf's one); an fsum of one binary64 value 4 (its
# conversion in: header, a cycle, 2 flits) and at the root, where the result is always
# held (at the root) and copied, 3 for the leaf's element and 1 + 6 for the converting copy
check "tcnet: the Reducer's account of a stream: busy cycles, results, held at the root (2 nodes, by hand)" bash -c \
  "build/tcnet topo=2 workload=allreduce len=2 window=2 progress=off json=$LOGDIR/acct_int.json >/dev/null &&
   build/tcnet topo=2 workload=allreduce op=fsum lane=64 values=uniform bytes=8 len=2 window=2 progress=off \
     json=$LOGDIR/acct_fsum.json >/dev/null &&
   grep -q '\"busiest_node\": 0, \"busiest_slice\": 0, \"busiest_cycles\": 6, \"busy_cycles\": 9, .*\"results\": 2, \"held_root\": 0, \"held_room\": 0, \"held_credit\": 0, \"held_turn\": 0' $LOGDIR/acct_int.json &&
   grep -q '\"busiest_node\": 0, \"busiest_slice\": 0, \"busiest_cycles\": 14, \"busy_cycles\": 18, .*\"results\": 2, \"held_root\": 1, \"held_room\": 0' $LOGDIR/acct_fsum.json &&
   grep -q '\"pe_wait\": {\"injection\": 0.0000, \"window\": 0.0000}' $LOGDIR/acct_int.json"
# ... and the PEs' waits: two in flight with results some 400 cycles away wait for the
# window; eight with two PEGroup FIFO credits (one back every PCIe round trip of 308
# cycles) for an injection credit
check "tcnet: a stream's PEs wait for the window (window 2) or for injection credits (inj_slots 2)" bash -c \
  "build/tcnet topo=2 workload=allreduce len=2 window=2 repeat=32 progress=off |
     awk '/^  PEs:/ { ok = \$7 == \"0.0%,\" && \$11 + 0 > 80 } END { exit !ok }' &&
   build/tcnet topo=2 workload=allreduce len=2 window=8 repeat=32 inj_slots=2 progress=off |
     awk '/^  PEs:/ { ok = \$7 + 0 > 80 && \$11 == \"0.0%\" } END { exit !ok }'"
# a value whose products with the others would overflow is refused before the run
# (exit 2), naming the key, the value and the range that fits on that torus
for bad in "topo=4x4x4 workload=spmv spmv_n=17179869184:spmv_n = '17179869184' is not an integer in 1..8589934464 (with 64 nodes" \
           "topo=2 workload=spmv spmv_n=17179869184:spmv_n = '17179869184' is not an integer in 1..7516192740 (with 2 nodes" \
           "topo=16x16 workload=allgather bytes=1073741824 len=1:bytes = '1073741824' is not an integer in 0..269488144 (with 256 nodes and len = 1"; do
  check "tcnet ${bad%%:*} refused before the run (exit 2)" bash -c \
    "timeout 10 build/tcnet ${bad%%:*} progress=off 2>&1 | tee /dev/stderr | grep -qF \"${bad#*:}\"; test \${PIPESTATUS[0]} = 2"
done
}

s_tcnet_pkt() {
section "tcnet engine=packet: the packet-level broadcast and allgather (tb/unit/test_pkt_bcast.c, test_pkt_allgather.c check them delivery by delivery); engine=auto runs them"
build/tcnet topo=4x4 workload=bcast bytes=65536 len=7 progress=off engine=packet json=$LOGDIR/pkt.json >$LOGDIR/pkt.txt
# same_run A B: tcnet's reports ($LOGDIR/A.txt, B.txt) and JSON (A.json, B.json) equal
# but for the engine and the times
same_run() {
  local t='s/set-up.*//' j='s/"(engine|json|setup_s|run_s|cpu_s|node_cycles_per_s|flit_hops_per_s)": [^,]+, ?//g'
  diff <(sed "$t" "$LOGDIR/$1.txt") <(sed "$t" "$LOGDIR/$2.txt") &&
    diff <(sed -E "$j" "$LOGDIR/$1.json") <(sed -E "$j" "$LOGDIR/$2.json")
}
check "tcnet engine=packet: the 64 KiB bcast's report and JSON as engine=cycle's (speed apart)" same_run bw pkt
build/tcnet topo=4x4x3 workload=allgather bytes=1024 len=7 progress=off engine=cycle json=$LOGDIR/ag.json >$LOGDIR/ag.txt
build/tcnet topo=4x4x3 workload=allgather bytes=1024 len=7 progress=off engine=packet json=$LOGDIR/agp.json >$LOGDIR/agp.txt
check "tcnet engine=packet: the allgather's report and JSON as engine=cycle's (speed apart; test_pkt_allgather.c checks every delivery)" same_run ag agp
build/tcnet topo=4x4x3 workload=allgather bytes=1024 len=7 progress=off json=$LOGDIR/aga.json >$LOGDIR/aga.txt
check "tcnet engine=auto: the allgather on the packet engine, its report and JSON as engine=cycle's" bash -c \
  "grep -q 'engine packet\$' $LOGDIR/aga.txt && grep -q '\"engine\": \"packet\"' $LOGDIR/aga.json && \
   grep -q 'engine cycle\$' $LOGDIR/ag.txt && LOGDIR=$LOGDIR; $(declare -f same_run); same_run ag aga"
check "tcnet engine=auto: the cycle-exact model where the packet engine does not apply (mcast=serial, allreduce)" bash -c \
  "build/tcnet topo=4x4 workload=bcast mcast=serial progress=off | grep -q 'engine cycle\$' && \
   build/tcnet topo=4x4 progress=off | grep -q 'engine cycle\$'"
check "tcnet engine=packet refuses workload=allreduce (exit 2, naming what it covers)" bash -c \
  "build/tcnet topo=4x4 workload=allreduce engine=packet progress=off 2>&1 >/dev/null | grep -q 'exact for workload = bcast or allgather'; test \${PIPESTATUS[0]} = 2"
}

s_tcnet_stream() {
section "tcnet streams: allreduces with a window of operations in flight (docs/allreduce-stream.md)"
# 64 allreduces on 4x4, each PE with 16 in flight: every result checked by tcnet, the
# latency and the throughput in the report and the JSON; the window binds there, so the
# rate is 16 operations per T + 1 cycles, T the latency of one allreduce (692)
check "tcnet window=16 stream of 64 allreduces on 4x4 completes, results correct" \
  bash -c "build/tcnet topo=4x4 window=16 repeat=64 progress=off json=$LOGDIR/stream.json >$LOGDIR/stream.txt"
check "tcnet stream: latency and throughput in the report and the JSON" bash -c \
  "grep -qE 'latency per operation \(cycles\) min [0-9]+  mean [0-9.]+  max [0-9]+' $LOGDIR/stream.txt && \
   grep -qE 'stream: window 16, [0-9.]+ operations per 1000 cycles in steady state \(operations 17 to 49\)' $LOGDIR/stream.txt && \
   grep -qE '\"latency_cycles\": \{\"min\": [0-9]+' $LOGDIR/stream.json && \
   grep -qE '\"window\": 16, \"ops_per_kcycle\": [0-9.]+, \"steady_ops\": \[17, 49\]' $LOGDIR/stream.json"
t1=$(build/tcnet topo=4x4 progress=off | awk '/latency per operation/ { print $6 }')
rate=$(awk '/stream:/ { print $4 }' $LOGDIR/stream.txt)
check "tcnet stream on 4x4: $rate operations per 1000 cycles, the window's 16000 / ($t1 + 1)" \
  test -n "$t1" -a "$rate" = "$(awk -v t="$t1" 'BEGIN { printf "%.3f", 16000 / (t + 1) }')"

# a long allreduce cut into operations dealt round trees (16 in flight on each):
# every result checked, the link fraction reported; a tree set of two member sets,
# more than 16 in flight a tree, or trees without a stream are refused
check "tcnet bytes=16384 trees=8 window=128 on 4x4: 512 allreduces over trees 0-7 complete, the link fraction reported" bash -c \
  "build/tcnet topo=4x4 workload=allreduce bytes=16384 len=2 trees=8 window=128 progress=off json=$LOGDIR/striped.json \
   >$LOGDIR/striped.txt && grep -q 'allreduce x 512' $LOGDIR/striped.txt && \
   grep -qE 'long allreduce: 16384 bytes a PE in [0-9]+ cycles, [0-9.]+% of a link.s rate' $LOGDIR/striped.txt && \
   grep -qE '\"long_bytes\": 16384, \"link_rate\": 0\.[0-9]+' $LOGDIR/striped.json"
check "tcnet trees=8: faster than one tree at the same bytes" bash -c \
  "one=\$(build/tcnet topo=4x4 workload=allreduce bytes=16384 len=2 window=16 progress=off | awk '/simulated/ { print \$2 }'); \
   four=\$(awk '/simulated/ { print \$2 }' $LOGDIR/striped.txt); test \"\$four\" -lt \"\$one\""
for bad in "members=50 trees=2 window=32:must have one member set" "trees=2 window=40:window <= red_rids x trees" \
           "trees=2:trees are a stream's" "tree=14 trees=4 window=32:on trees up to 15" \
           "workload=allreduce bytes=64 repeat=4:give bytes and len >= 1, not repeat"; do
  check "tcnet ${bad%%:*} refused: ${bad#*:}" refuses "${bad#*:}" build/tcnet topo=4x4 ${bad%%:*} progress=off
done
}

s_fast_check() {
section "C model with idle routers skipped (no observation records) equals the full model, PE ports every cycle"
echo 4x4 5 3x3x2 2x2x2x2 8x8 | tr ' ' '\n' | xargs -P "$J" -I{} bash -c 'build/tcsim --topo {} --scen all --fast check >"$LOGDIR/fast_{}.log" 2>&1'
for topo in 4x4 5 3x3x2 2x2x2x2 8x8; do
  grep -E '^(PASS|FAIL)' "$LOGDIR/fast_$topo.log"
  count_results "$LOGDIR/fast_$topo.log" "tcsim --fast check $topo"
done
}

s_formula() {
section "allreduce latency: the formula of docs/results.md against tcnet and tcsim"
bash sim/formula.sh >"$LOGDIR/formula.log" 2>&1
grep -E '^FAIL' "$LOGDIR/formula.log"
count_results "$LOGDIR/formula.log" "sim/formula.sh"
tail -n 1 "$LOGDIR/formula.log"
}

s_apps() {
section "applications and trace replay: spmv, heat, the PMPI recorder, OTF2 (docs/applications.md)"
bash sim/apps_test.sh >"$LOGDIR/apps.log" 2>&1
grep -E '^FAIL' -A6 "$LOGDIR/apps.log"
tail -n 1 "$LOGDIR/apps.log"
count_results "$LOGDIR/apps.log" "sim/apps_test.sh"
}

s_refused() {
section "bad input is refused: at once, non-zero exit, a message that names the problem"
R=build/robust
rm -rf $R && mkdir -p $R/dir
printf '\177ELF\002\001\001\000\000\000\000' >$R/binary
head -c 3000 /dev/zero | tr '\0' a >$R/huge
printf 'topo = 4x4\nseed = 3\nfoo = 1\n' >$R/unknown.cfg
printf 'topo = 4x4\n# again\ntopo = 2\n' >$R/repeated.cfg
printf '0 0 1 - 1 X+\n# c\n0 1 0 X- 1 -\n0 0 1 - 1 -\n' >$R/twice.tab
printf '0 4294967299 1 - 1 -\n' >$R/wrap.tab
printf '0 0 1 - 1 X+\n0 1 0 X- 0 -\n' >$R/transit.tab
printf '0 0 1 - 1 X+\n0 1 0 X- 1 -\n' >$R/tree0.tab
for bad in 4x4x4x4x4:"more than 4 dimensions" 4xx4:"a size is missing" 0:"size 0 of dimension X" 4x-4:"sign at character 3" \
           x4:"a size is missing at character 1" 4x:"a size is missing at character 3" "4x4 ":"unexpected character code 32" \
           4x4abc:"unexpected character 'a'" 65536x65536:"more than 65536 nodes" 4294967300:"not in 1..65536"; do
  check "tcsim --topo '${bad%%:*}' refused: ${bad#*:}" refuses "${bad#*:}" build/tcsim --topo "${bad%%:*}" --scen bcast_leaf
  check "tcnet topo='${bad%%:*}' refused: ${bad#*:}" refuses "${bad#*:}" build/tcnet "topo=${bad%%:*}" progress=off
done
for bad in "--seed -1:tcsim: seed = '-1' is not an integer in 0..18446744073709551615" \
           "--seed abc:tcsim: seed = 'abc' is not an integer in 0..18446744073709551615" \
           "--seed 18446744073709551616:seed = '18446744073709551616' is not an integer in 0..18446744073709551615" \
           "--seed 0x10:seed = '0x10' is not an integer" \
           "--link-lat 0:link_lat = '0' is not an integer in 1..100000" "--inj-lat -5:inj_lat = '-5' is not an integer" \
           "ej_lat=1e3:ej_lat = '1e3' is not an integer" "--link-lat=4294967336:link_lat = '4294967336' is not an integer" \
           "--events 70000:events = '70000' is not an integer in -1..65535" \
           "--fast maybe:tcsim: fast = 'maybe' is not one of: off on check" "--fast=maybe:tcsim: fast = 'maybe' is not one of: off on check" \
           "fast=maybe:tcsim: fast = 'maybe' is not one of: off on check" \
           "--tabel random:tcsim: unknown key 'tabel': did you mean 'table'?" "--table=rand:table = 'rand' is not one of: default random: did you mean 'random'?" \
           "--table=other:table = 'other' is not one of: default random" "--topo:option '--topo' needs a value" \
           "--bogus 1:tcsim: unknown key 'bogus': tcsim --help lists the keys" "stray:tcsim: 'stray': expected --key value or key=value"; do
  check "tcsim ${bad%%:*} refused" refuses "${bad#*:}" build/tcsim ${bad%%:*} --scen bcast_leaf
done
# the floating-point sum's values: what they need, said by name
V="build/tcnet topo=4 progress=off workload=allreduce"
check "tcnet values with an integer op refused" refuses "values = wide is for op = fsum, min or max" $V values=wide op=sum
check "tcnet values with an odd len refused" refuses "len = 3 must be even" $V values=wide op=fsum len=3 red_flits=3
check "tcnet values of a size not whole values refused" refuses "bytes = 12 is not a multiple of a lane-64 value's 8 bytes" \
  $V values=wide op=fsum lane=64 bytes=12
check "tcnet values with repeat refused" refuses "give bytes, not repeat" $V values=wide op=fsum repeat=3
check "tcnet values_out without values refused" refuses "values_out = '$R/v' needs values" $V op=fsum values_out=$R/v
check "tcnet values_out into a missing directory refused before the run" refuses "values_out: cannot write '$R/none/v'" \
  $V op=fsum values=cancel values_out=$R/none/v
check "tcnet fsum_pass=2 without values refused" refuses "fsum_pass = 2 is for values with op = fsum (not values = none" \
  $V op=fsum fsum_pass=2
check "tcnet fsum_pass=2 of fmin refused" refuses "fsum_pass = 2 is for values with op = fsum (not values = wide, op = min)" \
  $V op=min values=wide fsum_pass=2
check "tcnet fsum_pass=2 on 16385 PEs refused (the words' headroom: 2^14)" \
  refuses "fsum_pass = 2: more than 2^14 PEs in tree 0" build/tcnet topo=16385 progress=off values=cancel op=fsum fsum_pass=2 bytes=8
check "tcnet op=fsum of an odd len refused" refuses "an fsum reduce carries whole elements, two flits each: len 1 is odd" \
  $V op=fsum len=1
check "tcsim: a scenario written for the planner's trees refused on random tables" \
  refuses "scen = bcast_root: written for the planner's trees (table = default), not random tables" \
  build/tcsim --scen bcast_root --table random
check "tcsim --events beyond the torus refused" refuses "events = 5: not a node of the 2-node torus" \
  build/tcsim --topo 2 --events 5 --scen bcast_leaf
check "tcsim --wavedrom into a missing directory refused first" refuses "tcsim: wavedrom = '$R/none/x': cannot write there: No such file" \
  build/tcsim --wavedrom $R/none/x --scen all
check "tcsim --wavedrom onto a file refused first" refuses "cannot write there: Not a directory" build/tcsim --wavedrom $R/binary
check "tcsim --wavedrom with a scenario it draws nothing of refused" \
  refuses "tcsim: wavedrom = '$R/dir' does not apply to scen = soak: the reference diagrams are of scen = bcast_leaf" \
  build/tcsim --wavedrom $R/dir --scen soak
check "tcsim --wave into a missing path refused first" refuses "tcsim: wave = '$R/none/x': cannot write there" \
  build/tcsim --wave $R/none/x --fast check
check "tcsim --wave without fast = check refused, before making the directory" bash -c \
  "out=\$(build/tcsim --wave $R/nowave --scen bcast_leaf 2>&1); echo \"\$out\"; \
   grep -qF \"tcsim: wave = '$R/nowave' does not apply: build/tcsim writes a waveform only of a mismatch\" <<<\"\$out\" && [ ! -e $R/nowave ]"
check "tcsim --list: every scenario with a line beside it" bash -c \
  "build/tcsim --list | awk 'NF < 3 { bad = 1 } END { exit bad || NR < 20 }'"
# runs = FILE: make soak's runs in one process (sim/soak.sh), each as its own command line
printf -- '--topo 3x2 --scen allreduce --fast\n# a comment\n\n--topo 4x4 --scen many_reduces --plant result-slot --slots 2 --pe-credits 1 --fast\n--topo 3x2 --scen allredue\n--topo 2 --scen soak --seed 9\n' >$R/runs
check "tcsim runs = FILE: a PASS or FAIL line a run, the failures' reasons and logs, exit 1" bash -c \
  "out=\$(build/tcsim --runs $R/runs --run-logs $R/runlogs); rc=\$?; echo \"\$out\"; [ \$rc = 1 ] && [ \$(wc -l <<<\"\$out\") = 4 ] && \
   grep -qx 'PASS  build/tcsim --topo 3x2 --scen allreduce --fast' <<<\"\$out\" && \
   grep -qF 'FAIL  build/tcsim --topo 4x4 --scen many_reduces --plant result-slot --slots 2 --pe-credits 1 --fast  # a cycle of 4 waits; waits:' <<<\"\$out\" && \
   grep -qF \"did you mean 'allreduce'? (log: $R/runlogs/topo_3x2_scen_allredue.log)\" <<<\"\$out\" && \
   grep -qx 'PASS  build/tcsim --topo 2 --scen soak --seed 9' <<<\"\$out\" && \
   grep -q 'no progress' $R/runlogs/topo_4x4_scen_many_reduces_plant_result-slot_slots_2_pe-credits_1_fast.log && \
   [ \$(ls -A $R/runlogs | wc -l) = 2 ]"
check "tcsim runs: another option beside it refused" refuses "tcsim: topo = '4x4' does not apply with runs: each line of the runs file has its own options" \
  build/tcsim --runs $R/runs --topo 4x4
check "tcsim run_logs without runs refused" refuses "tcsim: run_logs = '$R' does not apply without runs" build/tcsim --run-logs $R
check "tcsim runs: an unreadable file refused" refuses "tcsim: runs = '$R/none': cannot read it: No such file" build/tcsim --runs $R/none
check "tcsim runs: runs on a line of the file refused on that line" bash -c \
  "out=\$(echo '--runs x' | build/tcsim --runs - --run-logs $R/runlogs2); echo \"\$out\"; grep -qF 'FAIL  build/tcsim --runs x  # tcsim: runs and run_logs do not apply on a line of a runs file' <<<\"\$out\""
check "tcsim --fast yes is --fast=yes is fast=on" bash -c \
  "a=\$(build/tcsim --topo 3x2 --scen allreduce --fast yes | head -1); b=\$(build/tcsim --topo 3x2 --scen allreduce --fast=yes | head -1); \
   c=\$(build/tcsim topo=3x2 scen=allreduce fast=on | head -1); echo \"\$a\"; [ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ] && [ \"\$a\" = \"\$c\" ]"
# one command-line style: tcsim, tcnet and tccheck take --key value, --key=value and key=value alike
check "tcsim takes key=value, --key=value and --key value alike" bash -c \
  "a=\$(build/tcsim --topo 3x2 --link-lat 7 --scen allreduce --fast | head -1); \
   b=\$(build/tcsim topo=3x2 link_lat=7 scen=allreduce fast=on | head -1); \
   c=\$(build/tcsim --topo=3x2 --link_lat=7 --scen=allreduce --fast=on | head -1); \
   echo \"\$a\"; [ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ] && [ \"\$a\" = \"\$c\" ]"
check "tcnet takes --key value and operations and lanes by name or number" bash -c \
  "a=\$(build/tcnet --topo 3x2 --op max --lane 64 --progress off | grep latency); \
   b=\$(build/tcnet topo=3x2 op=2 lane=1 progress=off | grep latency); \
   echo \"\$a\"; [ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ]"
check "tcnet op=foo refused, naming the operations" refuses "op = 'foo' is not one of: sum min max minu maxu and or xor minloc maxloc" \
  build/tcnet op=foo
check "tccheck takes --key value and key=value alike" bash -c \
  "[ \"\$(build/tccheck --topo 3x3 --table random --seed 4 | cut -c1-60)\" = \"\$(build/tccheck topo=3x3 table=random seed=4 | cut -c1-60)\" ]"
check "tccheck --slots 0 refused" refuses "slots = '0' is not an integer" build/tccheck --topo 3x3 --slots 0
for bad in "seed=-1:seed = '-1' is not an integer" "link_lat=abc:link_lat = 'abc' is not an integer" \
           "dst=70000:dst = '70000' is not an integer in -1..65535" "max_cycles=99999999999999999999:is not an integer" \
           "foo=1:unknown key 'foo'" "impl=fpga:impl = 'fpga' is not one of" "workload=reduce dst=20:dst = 20 is not a node" \
           "window=17:window = 17, trees = 1 from tree = 0: at most red_rids = 16 operations in flight a tree (window <= red_rids x trees)" \
           "window=0:window = '0' is not an integer in 1..1024 (the operations a PE has in flight" \
           "window=1025:window = '1025' is not an integer in 1..1024" \
           "red_rids=64 window=1025:window = '1025' is not an integer in 1..1024" \
           "red_rids=48:red_rids 48 is not a power of two: 16, 32 or 64" \
           "window=4 workload=bcast:tcnet: window = '4' does not apply to workload = bcast: window is for workload = allreduce, tree_barrier" \
           "wokload=bcast:tcnet: unknown key 'wokload': did you mean 'workload'?" \
           "op=fsun:tcnet: op = 'fsun' is not one of: sum min max minu maxu and or xor minloc maxloc fsum: did you mean 'fsum'?" \
           "workload=barrier bytes=64:tcnet: bytes = '64' does not apply to workload = barrier: bytes is for workload = bcast, reduce, allreduce, allgather" \
           "workload=allgather tree=3:tree = '3' does not apply to workload = allgather: tree is for workload = bcast, reduce, allreduce, tree_barrier" \
           "workload=bcast op=max:op = 'max' does not apply to workload = bcast" \
           "workload=allreduce dst=3:dst = '3' does not apply to workload = allreduce: dst is for workload = reduce" \
           "workload=heat spmv_n=100:spmv_n = '100' does not apply to workload = heat: spmv_n is for workload = spmv" \
           "impl=p2p engine=cycle:tcnet: engine = cycle does not apply to impl = p2p: it is for impl = hw" \
           "sw_overhead=10:sw_overhead = 10 applies to impl = p2p, not impl = hw" \
           "impl=p2p p2p_alg=ring sw_overhead=10:sw_overhead = 10 does not apply to p2p_alg = ring: it is for p2p_alg = classic" \
           "members=50 table=/dev/null:members = 50 does not apply to table = '/dev/null'" \
           "workload=allreduce p2p_model=1:p2p_model = 1 applies to impl = p2p with the MPI algorithms" \
           "workload=allreduce impl=p2p p2p_alg=auto p2p_rate=900:p2p_rate = 900 is the steady-state model's: give p2p_model = 1" \
           "workload=bcast impl=p2p p2p_model=1:p2p_model = '1' does not apply to workload = bcast: p2p_model is for workload = allreduce, allgather"; do
  check "tcnet ${bad%%:*} refused" refuses "${bad#*:}" build/tcnet topo=4x4 progress=off ${bad%%:*}
done
check "tcsim: a scenario's near miss suggested" \
  refuses "tcsim: unknown scenario 'bcast_lea': tcsim --list names them, or all: did you mean 'bcast_leaf'?" build/tcsim --scen bcast_lea
check "tcnet --progress maybe refused as progress=maybe is" refuses "tcnet: progress = 'maybe' is not one of: off on auto (or yes, no)" \
  build/tcnet --progress maybe
check "tcnet --list: every workload with a line beside it" bash -c \
  "build/tcnet --list | awk 'NF < 3 { bad = 1 } END { exit bad || NR < 9 }'"
check "tccheck --premises yes is --premises=on" bash -c \
  "[ \"\$(build/tccheck --topo 3x3 --premises yes | cut -c1-40)\" = \"\$(build/tccheck --topo 3x3 --premises=on | cut -c1-40)\" ]"
check "tccheck: a near miss suggested" refuses "tccheck: plant = 'report_one' is not one of: none report-one result-slot fixed-priority: did you mean 'report-one'?" \
  build/tccheck --plant report_one
check "tcnet topo given twice refused" refuses "key 'topo' is given twice" build/tcnet topo=4x4 topo=2
check "tcnet configuration /dev/zero refused" refuses "/dev/zero:1: a NUL byte" build/tcnet /dev/zero
check "tcnet configuration: a directory refused" refuses "$R/dir:1: read error: Is a directory" build/tcnet $R/dir
check "tcnet configuration: a binary file refused" refuses "$R/binary:1: a NUL byte" build/tcnet $R/binary
check "tcnet configuration: a huge line refused" refuses "$R/huge:1: line longer than 1023 characters" build/tcnet $R/huge
check "tcnet configuration: an unknown key refused" refuses "$R/unknown.cfg:3: unknown key 'foo'" build/tcnet $R/unknown.cfg
check "tcnet configuration: a repeated key refused" refuses "$R/repeated.cfg:3: key 'topo' is set twice (first at line 1)" \
  build/tcnet $R/repeated.cfg
check "tcnet configuration: a missing file refused" refuses "cannot open configuration '$R/none'" build/tcnet $R/none
check "tcnet table /dev/zero refused" refuses "line 1: a NUL byte" build/tcnet topo=4x4 table=/dev/zero
check "tcnet table: a directory refused" refuses "line 1: read error: Is a directory" build/tcnet topo=4x4 table=$R/dir
check "tcnet table: a binary file refused" refuses "line 1: a NUL byte" build/tcnet topo=4x4 table=$R/binary
check "tcnet table: a huge line refused" refuses "line 1: line longer than 1023 characters" build/tcnet topo=4x4 table=$R/huge
check "tcnet table: a row twice refused, both lines named" refuses "line 4: tree 0, node 0 is listed twice (first at line 1)" \
  build/tcnet topo=4x4 table=$R/twice.tab
check "tcnet table: node 4294967299 refused, not node 3" refuses "line 1: node '4294967299' is not a number in 0..15" \
  build/tcnet topo=4x4 table=$R/wrap.tab
check "tcnet table: a transit leaf refused (rule 6)" refuses "tree 0, node 1 (1,0): rule 6" build/tcnet topo=4x4 table=$R/transit.tab
check "tcnet workload on a tree no row configures refused" refuses "uses tree 3, which no row of table = '$R/tree0.tab' configures" \
  build/tcnet topo=4x4 table=$R/tree0.tab tree=3 progress=off
check "tcnet workload on an empty table refused" refuses "uses tree 0, which no row" build/tcnet topo=4x4 table=/dev/null
check "tcnet workload on tree 0 of that table runs" build/tcnet topo=4x4 table=$R/tree0.tab workload=bcast progress=off
check "tcnet csv into a missing directory refused first" refuses "csv: cannot write '$R/none/run.ops.csv': No such file" \
  build/tcnet topo=4x4 csv=$R/none/run
check "tcnet json onto a directory refused first" refuses "json: cannot write '$R/dir': Is a directory" \
  build/tcnet topo=4x4 json=$R/dir
check "tcnet csv and json written when they can be" bash -c "build/tcnet topo=4x4 progress=off csv=$R/ok json=$R/ok.json && \
  [ -s $R/ok.ops.csv ] && [ -s $R/ok.nodes.csv ] && [ -s $R/ok.links.csv ] && python3 -m json.tool $R/ok.json"
}

s_waves() {
section "waveforms: make wave's GTKWave views, opened under Xvfb (docs/waves.md)"
bash sim/waves.sh >"$LOGDIR/waves.log" 2>&1
grep -E '^(PASS|FAIL)' -A3 "$LOGDIR/waves.log" | grep -v '^--'
count_results "$LOGDIR/waves.log" "sim/waves.sh"
}

s_deadlock() {
section "deadlock freedom: the checker on 1D-4D tori, planner and random tables, and the planted bugs (docs/deadlock.md)"
bash sim/deadlock.sh >"$LOGDIR/deadlock.log" 2>&1
grep -E '^FAIL' -B12 "$LOGDIR/deadlock.log" | head -40
echo "$(grep -c '^PASS' "$LOGDIR/deadlock.log") checker runs passed, $(grep -c '^FAIL' "$LOGDIR/deadlock.log") failed"
count_results "$LOGDIR/deadlock.log" "sim/deadlock.sh"
}

s_fuzz() {
section "fuzzing: the table loader and the configuration parser (make fuzz for longer; docs/robustness.md)"
FUZZ_SECONDS=${FUZZ_SECONDS:-30} bash sim/fuzz.sh >"$LOGDIR/fuzz.log" 2>&1
grep -E '^(PASS|FAIL)' "$LOGDIR/fuzz.log"
count_results "$LOGDIR/fuzz.log" "sim/fuzz.sh"
}

s_soak() {
section "soak slice: scenarios soak and random, default and random tables, 1D-4D (make soak for the long run; docs/soak.md)"
# 2160 runs of build/tcsim --fast, each one counted; only the failing ones are shown
SOAK_MODE=grid SOAK_SEEDS=${SOAK_SLICE_SEEDS:-60} SOAK_TORI="2 5 7 4x4 3x5 3x3x3 2x3x4 2x2x2x2 3x2x2x2" SOAK_PASS=1 \
  SOAK_LOGS=build/soak-slice bash sim/soak.sh >"$LOGDIR/soak_slice.log" 2>&1
grep '^FAIL' "$LOGDIR/soak_slice.log" | head -20
[ "$(grep -c '^FAIL' "$LOGDIR/soak_slice.log")" -gt 20 ] && echo "      ... every failing run in $LOGDIR/soak_slice.log"
count_results "$LOGDIR/soak_slice.log" "sim/soak.sh"
tail -n 2 "$LOGDIR/soak_slice.log"
}

s_soak_params() {
section "soak slice over parameters: each run draws its torus, table, scenario and every parameter, extremes often"
# 2000 runs of make soak's draw (the runs past the long soak's range, on tori of at
# most 64 nodes and a smaller budget, so the slice stays within a couple of minutes)
SOAK_RUNS=${SOAK_PARAM_RUNS:-900001-902000} SOAK_MAX_NODES=64 SOAK_BUDGET=1000000 SOAK_PASS=1 \
  SOAK_LOGS=build/soak-params bash sim/soak.sh >"$LOGDIR/soak_params.log" 2>&1
grep '^FAIL' "$LOGDIR/soak_params.log" | head -20
[ "$(grep -c '^FAIL' "$LOGDIR/soak_params.log")" -gt 20 ] && echo "      ... every failing run in $LOGDIR/soak_params.log"
count_results "$LOGDIR/soak_params.log" "sim/soak.sh params"
tail -n 2 "$LOGDIR/soak_params.log"

}


# ---------------------------------------------------------------- the builds
# Every Verilated build of make test, each a job of its own (each compiles on two
# cores); a failed build shows in the section that needs it (its check "verilate and
# build" makes it again).
b_nets() { make -s $(for net in $NETS; do echo build/cosim_$net; done); }
b_flat() { make -s build/flat/cosim_5; }
b_wave() { make -s NET=5@k2 build/wave/cosim_5@k2; } # sim/waves.sh's
b_sc() { make -s build/sc_$SC_NET; }
b_alu() { make -s build/alu_check; }
b_fpsum() { make -s build/fpsum_check; }
b_draws() { make -s $(for d in $DRAWS; do echo build/cosim_$d; done); } # the networks with drawn parameters

# ---------------------------------------------------------------- the jobs
# NAME WIDTH DEPS FUNCTION TITLE, in the order they start when they can: the long
# chains first. "c" is the C build's milestone in s_unit.
job formal 1 "" s_formal "formal proofs"
job unit 2 "" s_unit "C build and unit tests"
job lint 1 "" s_lint "RTL lint"
job b_nets 2 "c" b_nets "co-simulation builds"
job b_sc 2 "c" b_sc "SystemC build"
job b_flat 2 "c" b_flat "flat torus build"
job cosim 2 "c b_nets b_flat" s_cosim "co-simulations"
job b_draws 2 "c" b_draws "drawn-parameter builds"
job draws 2 "c b_draws" s_draws "drawn-parameter co-simulations"
job soak_params 2 "c" s_soak_params "soak slice over parameters"
job cmodel_san 2 "c" s_cmodel_san "C model under ASan/UBSan"
job b_wave 2 "c" b_wave "wave build"
job waves 1 "c b_wave" s_waves "waveforms"
job sc 1 "c b_sc" s_sc "SystemC"
job apps 1 "c" s_apps "applications"
job fpsum_net 2 "c" s_fpsum_net "floating-point allreduce"
job docs 1 "c b_nets fpsum_net" s_docs "docs" # build/cosim_4x4; fpsum_net's figures
job b_alu 2 "c" b_alu "ALU build"
job alu 1 "c b_alu" s_alu "ALU vectors"
job b_fpsum 2 "c" b_fpsum "fpsum blocks build"
job fpsum 1 "c b_fpsum" s_fpsum "fpsum vectors"
job deadlock 1 "c" s_deadlock "deadlock freedom"
job soak 2 "c" s_soak "soak slice"
job fast_check 2 "c" s_fast_check "tcsim --fast check"
job fuzz 2 "c" s_fuzz "fuzzing"
job live 1 "c" s_live "live under every parameter"
job limits 1 "c" s_limits "tcsim's limits"
job refused 1 "c" s_refused "bad input"
job formula 1 "c" s_formula "allreduce formula"
job p2p 1 "c" s_p2p "p2p baseline"
job tcnet_bw 1 "c" s_tcnet_bw "tcnet bandwidth"
job tcnet_pkt 1 "c tcnet_bw" s_tcnet_pkt "tcnet engine=packet" # same_run compares with tcnet_bw's bw.txt
job tcnet_stream 1 "c" s_tcnet_stream "tcnet streams"

# rtl/tc_format.vh made now, if make would remake it (its generator is newer in a
# fresh clone), not by the first build while lint and the proofs read it
make -s build/gen_format rtl/tc_format.vh >"$LOGDIR/build-format.log" 2>&1 || { cat "$LOGDIR/build-format.log"; echo "0 passed, 1 failed"; exit 1; }
run_jobs "${TEST_CORES:-$((J + 1))}" unit lint formal cosim draws sc alu fpsum fpsum_net docs cmodel_san limits live p2p tcnet_bw tcnet_pkt tcnet_stream fast_check formula apps refused waves deadlock fuzz soak soak_params || { echo "0 passed, 1 failed"; exit 1; }

echo
section "done"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
