#!/usr/bin/env bash
# The deadlock-freedom checker (build/tccheck, docs/deadlock.md) on tori of 1 to 4
# dimensions, radices 2, 3, 5, 7 and 16, and the named odd and mixed ones, with the
# planner's 16 trees and with random tables, and at every parameter's extremes;
# bad input refused; then the planted bugs, which it must find. One PASS/FAIL line per run; exit 1 if any failed.
set -u
cd "$(dirname "$0")/.."
TCCHECK=${TCCHECK:-build/tccheck}
SEEDS=${DEADLOCK_SEEDS:-3}
fail=0
tori=""
for r in 2 3 5 7 16; do tori="$tori $r ${r}x$r ${r}x${r}x$r ${r}x${r}x${r}x$r"; done
tori="$tori 2x2x2x2 3x3x3x3 4x4x4x4 5x5 7x5 15x17 8x8x8 16x16x16x8 2x3x5 3x1x2 4x4x4x2"

run() { # expected-exit args...: prints the checker's result line
  local want=$1 out rc
  shift
  out=$($TCCHECK "$@" 2>&1); rc=$?
  if [ "$rc" = "$want" ]; then
    echo "$out" | tail -1 | sed 's/^[A-Z]*  /PASS  /'
  else
    echo "$out" | tail -12 | sed 's/^/      /'
    echo "FAIL  tccheck $* (exit $rc, expected $want)"
    fail=1
  fi
}

for t in $tori; do
  run 0 --topo "$t" --table planner
  for s in $(seq 1 "$SEEDS"); do run 0 --topo "$t" --table random --seed "$s"; done
done
# Every parameter at its extremes (the graph's rules and premises read them all; the
# ranges of cmodel/params.def)
make -s build/gen_params && eval "$(build/gen_params sh)"
for t in 5 7x5 3x3x3 2x2x2x2; do
  run 0 --topo "$t" --table random --seed 7 --slots $TC_SLOTS_MIN --inj-slots $TC_INJ_SLOTS_MIN \
        --pe-credits $TC_PE_CREDITS_MIN --red-flits $TC_RED_FLITS_MIN --red-rids $TC_RED_RIDS_MIN --red-slices $TC_RED_SLICES_MAX \
        --link-lat $TC_LINK_LAT_MIN --inj-lat $TC_INJ_LAT_MAX --ej-lat $TC_EJ_LAT_MAX
  run 0 --topo "$t" --table random --seed 8 --slots $TC_SLOTS_MAX --inj-slots $TC_INJ_SLOTS_MAX \
        --pe-credits $TC_PE_CREDITS_MAX --red-flits $TC_RED_FLITS_MAX --red-rids $TC_RED_RIDS_MAX --red-slices $TC_RED_SLICES_MIN \
        --link-lat $TC_LINK_LAT_MAX --inj-lat $TC_INJ_LAT_MIN --ej-lat $TC_EJ_LAT_MIN
done
# Reducer slices: 2 and 4, on the planner's and random tables
for t in 5 4x4 3x3x3 2x2x2x2; do
  for k in 2 4; do
    run 0 --topo "$t" --table random --seed 9 --red-slices "$k" --slots 2 --inj-slots 2 --pe-credits 1
  done
done
# Bad input is refused by name (exit 2): an empty table, a degenerate parameter
: >build/empty.table
refused() { # words args...
  local want=$1 out
  shift
  out=$($TCCHECK "$@" 2>&1)
  if [ $? = 2 ] && echo "$out" | grep -q "$want"; then
    echo "PASS  tccheck refuses $*: $out"
  else
    echo "FAIL  tccheck $* should be refused with '$want': $out"
    fail=1
  fi
}
refused "configures no tree" --table build/empty.table
refused "slots" --slots 1
refused "pe_credits" --pe-credits 0
refused "red_flits" --red-flits 8
refused "does not divide the 16 trees" --red-slices 3
refused "link_lat" --link-lat 100001

# Planted bugs: each must be found, with the cycle it names.
planted() { # topo plant words-the-report-must-contain [more tccheck options]
  local out
  out=$($TCCHECK --topo "$1" --plant "$2" --report 1 "${@:4}" 2>&1)
  if [ $? = 1 ] && echo "$out" | grep -q "$3"; then
    echo "PASS  tccheck finds the planted bug $2 on $1${4:+ ${*:4}}: $(echo "$out" | grep -c 'which waits for') waits in its first cycle"
  else
    echo "$out" | tail -8 | sed 's/^/      /'
    echo "FAIL  tccheck did not find the planted bug $2 on $1"
    fail=1
  fi
}
for t in 5 4x4 7x5 5x5x5 4x4x4x4; do
  planted "$t" report-one "enters a ring with one credit"
  planted "$t" result-slot "cycle through a wait"
  planted "$t" fixed-priority "the credit block starves a duty"
done
planted 4x4 result-slot "Result [0-3], which waits for" --red-slices 4
# The watchdog names the planted Reducer cycle when a simulation meets it. With
# two slots per buffer (the depth before the SRAM buffers), where the soak
# scenario fills the rings enough to close it; deeper buffers make it rarer, not
# impossible (the checker above finds it at any depth).
w="--topo 5x5 --scen soak --seed 86 --table random --plant result-slot --slots 2 --inj-slots 2 --pe-credits 16"
out=$(timeout 300 build/tcsim $w --fast 2>&1)
if echo "$out" | grep -q "a cycle of 4 waits" && echo "$out" | grep -q "needs a result slot" &&
   echo "$out" | grep -q "Result head tag .* needs link credits VCUp"; then
  echo "PASS  the watchdog prints the planted result-slot cycle (tcsim $w)"
else
  echo "$out" | grep -v "never reached" | head -12 | sed 's/^/      /'
  echo "FAIL  the watchdog did not print the planted result-slot cycle"
  fail=1
fi
exit $fail
