#!/usr/bin/env bash
# Every test: golden-model unit tests (plain and under ASan/UBSan), RTL checks in
# Verilator, Icarus and Yosys, RTL-against-C-model co-simulation on every Verilated
# network, and the C model alone on networks larger than the RTL runs here.
# Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh
J=${J:-2}
NETS=$(make -s -f Makefile print-nets 2>/dev/null || echo "4x4")

unit() { # BIN: counts the cmocka test cases of one binary
  local log="$LOGDIR/$(basename "$1").log" p f
  "$1" >"$log" 2>&1
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

echo "== golden-model unit tests"
UNITS=$(ls tb/unit/test_*.c | xargs -n1 basename | sed 's/\.c$//')
make -s -j"$J" $(for u in $UNITS; do echo build/unit/$u build/unit-san/$u; done) build/tcsim build/tcsim-san build/tcnet \
  build/gen_format >"$LOGDIR/build-c.log" 2>&1 || { cat "$LOGDIR/build-c.log"; echo "0 passed, 1 failed"; exit 1; }
for u in $UNITS; do unit build/unit/$u; TC_ALU_VECTORS=20000 unit build/unit-san/$u; done

echo "== RTL lint, compile, synthesis"
bash sim/lint.sh >"$LOGDIR/lint.log" 2>&1
grep -E '^(PASS|FAIL)' "$LOGDIR/lint.log"
count_lines "$LOGDIR/lint.log"

echo "== formal proofs (yosys-smtbmc, z3)"
bash sim/formal.sh >"$LOGDIR/formal.log" 2>&1
grep -E '^(PASS|FAIL)' "$LOGDIR/formal.log"
count_lines "$LOGDIR/formal.log"

echo "== co-simulation: RTL against C model, cycle by cycle"
for net in $NETS; do
  check "verilate and build build/cosim_$net" make -s build/cosim_$net
  [ -x build/cosim_$net ] || continue
  for seed in 1 2 3; do
    scen=all; [ "$seed" != 1 ] && scen=random
    build/cosim_$net --scen $scen --seed $seed >"$LOGDIR/cosim_${net}_$seed.log" 2>&1
    grep -E '^(PASS|FAIL)' "$LOGDIR/cosim_${net}_$seed.log" | sed "s/\$/  seed $seed/"
    grep -qE '^(PASS|FAIL)' "$LOGDIR/cosim_${net}_$seed.log" || { echo "FAIL  cosim_$net seed $seed: no result"; FAILED=$((FAILED + 1)); tail -5 "$LOGDIR/cosim_${net}_$seed.log"; }
    grep -q '^FAIL' "$LOGDIR/cosim_${net}_$seed.log" && sed -n '/MISMATCH\|violated\|lost\|duplicate\|waveform/p' "$LOGDIR/cosim_${net}_$seed.log" | head -20 | sed 's/^/      /'
    count_lines "$LOGDIR/cosim_${net}_$seed.log"
  done
  # The network simulator's PEs and workloads give the latencies that the RTL gave.
  for pair in bcast:bcast_root allreduce:allreduce barrier:barrier tree_barrier:tree_barrier; do
    rtl=$(awk -v s=${pair#*:} '$1 == "PASS" && $3 == s { for (i = 1; i < NF; i++) if ($i == "latency") print $(i + 1) }' \
          "$LOGDIR/cosim_${net}_1.log")
    sim=$(build/tcnet topo=$net workload=${pair%%:*} progress=off | awk '/latency per operation/ { print $6 }')
    check "tcnet $net ${pair%%:*}: $sim cycles, as the RTL (${pair#*:}: $rtl)" test -n "$rtl" -a "$sim" = "$rtl"
  done
done

echo "== SystemC: Verilated RTL and the C model module against the C model"
bash sim/sc.sh >"$LOGDIR/sc.log" 2>&1
grep -E '^(PASS|FAIL)' "$LOGDIR/sc.log"
count_lines "$LOGDIR/sc.log"

echo "== Reducer ALU: RTL against C model (make alu-check N=1000000 for the full run)"
check "verilate and build build/alu_check" make -s build/alu_check
if [ -x build/alu_check ]; then
  build/alu_check 20000 >"$LOGDIR/alu_check.log" 2>&1
  grep -E '^(PASS|FAIL)' "$LOGDIR/alu_check.log"
  grep -qE '^(PASS|FAIL)' "$LOGDIR/alu_check.log" || { echo "FAIL  alu_check: no result"; FAILED=$((FAILED + 1)); }
  count_lines "$LOGDIR/alu_check.log"
fi

echo "== docs follow the design"
first=${NETS%% *}
check "docs/timing/*.json equal the diagrams RTL and C model produce" bash -c \
  "mkdir -p build/timing && build/cosim_$first --scen bcast_leaf --wavedrom build/timing >/dev/null && \
   build/cosim_$first --scen allreduce --wavedrom build/timing >/dev/null && \
   build/cosim_$first --scen credits --wavedrom build/timing >/dev/null && \
   build/cosim_$first --scen barrier --wavedrom build/timing >/dev/null && \
   for j in docs/timing/*.json; do diff -u \$j build/timing/\$(basename \$j) || exit 1; done"
check "docs/format-tables.md equals cmodel/format.def" bash -c "build/gen_format md | diff -u docs/format-tables.md -"

echo "== C model alone, larger and odd networks (ASan/UBSan build)"
for topo in 2 7 8x8 3x1x2 4x4x4 3x3x3x2; do
  build/tcsim-san --topo $topo --scen all >"$LOGDIR/tcsim_$topo.log" 2>&1
  grep -E '^(PASS|FAIL)' "$LOGDIR/tcsim_$topo.log"
  grep -qE '^(PASS|FAIL)' "$LOGDIR/tcsim_$topo.log" || { echo "FAIL  tcsim $topo: no result"; FAILED=$((FAILED + 1)); tail -5 "$LOGDIR/tcsim_$topo.log"; }
  count_lines "$LOGDIR/tcsim_$topo.log"
done

echo "== point-to-point baseline: its per-hop costs are the router's"
hw=$(build/tcnet topo=2 workload=bcast progress=off | awk '/latency per operation/ { print $6 }')
p2p=$(build/tcnet topo=2 workload=bcast impl=p2p progress=off | awk '/latency per operation/ { print $6 }')
check "one packet over one hop: p2p $p2p cycles, the hardware's broadcast $hw" test -n "$hw" -a "$p2p" = "$hw"

echo "== C model with idle routers skipped (no observation records) equals the full model, PE ports every cycle"
for topo in 4x4 5 3x3x2 2x2x2x2 8x8; do
  build/tcsim --topo $topo --scen all --fast-check >"$LOGDIR/fast_$topo.log" 2>&1
  grep -E '^(PASS|FAIL)' "$LOGDIR/fast_$topo.log"
  grep -qE '^(PASS|FAIL)' "$LOGDIR/fast_$topo.log" || { echo "FAIL  tcsim --fast-check $topo: no result"; FAILED=$((FAILED + 1)); }
  count_lines "$LOGDIR/fast_$topo.log"
done

echo "== allreduce latency: the formula of docs/results.md against tcnet and tcsim"
bash sim/formula.sh >"$LOGDIR/formula.log" 2>&1
grep -E '^FAIL' "$LOGDIR/formula.log"
grep -qE '^(PASS|FAIL)' "$LOGDIR/formula.log" || { echo "FAIL  sim/formula.sh: no result"; FAILED=$((FAILED + 1)); tail -5 "$LOGDIR/formula.log"; }
tail -n 1 "$LOGDIR/formula.log"
count_lines "$LOGDIR/formula.log"

echo
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
