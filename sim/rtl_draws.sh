#!/usr/bin/env bash
# RTL = C model at drawn parameters (docs/soak.md): each network of RTL_DRAWS
# (Makefile; NET@SPEC, its parameters in its name and built into its binary) co-simulated
# cycle by cycle against the C model on every scenario, on random mixes and on soak
# mixes over random tables. The scenarios a draw cannot run (reduces longer than its
# red_flits) are left out by cosim itself, which says so.
#   sim/rtl_draws.sh        the runs of make test: random seed 2, and
#                           --scen all for RTL_DRAWS_ALL (make print-draws-all)
#   RTL_DRAWS_ALL="$(make -s print-draws)" sim/rtl_draws.sh   --scen all for every draw
#   RTL_DRAW_SEEDS="2 3 4 5" sim/rtl_draws.sh   more seeds (make regress: 2 to 7)
# J runs at a time (2). Prints cosim's PASS/FAIL lines, each with its draw and its
# options, a FAIL line for a run that printed no result, the first lines that explain a
# failure, each run's time, and "N passed, M failed"; exits 1 on a failure. The
# binaries must be built (make build/cosim_NET@SPEC; sim/test.sh builds them first).
set -u
cd "$(dirname "$0")/.."
J=${J:-2}
LOGDIR=${LOGDIR:-build/logs}
mkdir -p "$LOGDIR/rtl_draws"
DRAWS=${RTL_DRAWS:-$(make -s print-draws)}
SEEDS=${RTL_DRAW_SEEDS:-2}
ALL=${RTL_DRAWS_ALL-$(make -s print-draws-all)}

# the runs, one a line: DRAW OPTIONS...; even seeds random mixes, odd ones soak mixes
runs() {
  local d s
  for d in $DRAWS; do
    [[ " $ALL " == *" $d "* ]] && echo "$d --scen all"
    for s in $SEEDS; do
      if [ $((s % 2)) = 0 ]; then echo "$d --scen random --seed $s"; else echo "$d --scen soak --table random --seed $s"; fi
    done
  done
}
log_of() { local a="$*"; echo "$LOGDIR/rtl_draws/${a// /_}.log"; }
run_one() { # DRAW OPTIONS...
  local d=$1 log t0
  shift
  log=$(log_of "$d" "$@")
  t0=$EPOCHREALTIME
  if [ -x "build/cosim_$d" ]; then
    "build/cosim_$d" "$@" >"$log" 2>&1
    echo "exit $?" >>"$log"
  else
    echo "build/cosim_$d: not built (make build/cosim_$d)" >"$log"
  fi
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "time %.1f s\n", b - a }' >>"$log"
}
export -f run_one log_of
export LOGDIR

runs | xargs -P "$J" -L 1 bash -c 'run_one "$@"' _
passed=0 failed=0
while read -r d opts; do
  log=$(log_of "$d" $opts)
  grep -E '^leaving out' "$log" | sed "s/^/      cosim_$d $opts: /"
  grep -E '^(PASS|FAIL)' "$log" | sed "s/\$/  (cosim_$d $opts)/"
  p=$(grep -c '^PASS' "$log") f=$(grep -c '^FAIL' "$log")
  if [ $((p + f)) = 0 ]; then
    echo "FAIL  cosim_$d $opts: no result ($(grep -m1 '^exit' "$log" || echo "not run"))"
    tail -5 "$log" | sed 's/^/      /'
    f=1
  fi
  if [ "$f" -gt 0 ]; then # a mismatch stops the run: without one, RTL and C model were equal to its end
    grep -q MISMATCH "$log" && echo "      RTL != C model:" || echo "      no MISMATCH: RTL = C model to the end; the failure is both sides':"
    grep -E 'MISMATCH|violated|lost|duplicate|no report|differ' "$log" | head -12 | sed 's/^/      /'
  fi
  echo "      cosim_$d $opts: $(grep -m1 '^time' "$log")"
  passed=$((passed + p)) failed=$((failed + f))
done < <(runs)
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
