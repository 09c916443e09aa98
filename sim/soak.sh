#!/usr/bin/env bash
# make soak: the C model (build/tcsim) over a range of seeds, a list of tori, the
# scenarios soak and random, the default table and random tables (--table random),
# on all cores. One line per failing run, which reproduces it, then
# "N passed, M failed". docs/soak.md.
#
#   SOAK_SEEDS   a count N (seeds 1..N) or a range A-B        (default 100)
#   SOAK_TORI    the tori                                      (default below)
#   SOAK_SCENS   the scenarios                                 (default "soak random")
#   SOAK_TABLES  default and/or random                         (default "default random")
#   SOAK_BIN     the simulator, e.g. build/tcsim-san           (default build/tcsim)
#   SOAK_FLAGS   more tcsim flags, e.g. "--slots 3 --inj-slots 2 --pe-credits 1"
#   SOAK_FULL=1  with observation records: timing diagrams, lemma 1, report counters
#                checked too (10-60x slower); otherwise --fast: deliveries, error
#                reports and the progress watchdog
#   SOAK_JOBS    parallel runs                                 (default nproc)
#   SOAK_LOGS    where each failure's output goes              (default build/soak)
#   SOAK_PASS=1  print a PASS line for every passing run too (make test counts them)
set -u
cd "$(dirname "$0")/.."

if [ "${1:-}" = --one ]; then # one run: --one BIN LOGS FLAGS...
  bin=$2 logs=$3
  shift 3
  name=$(echo "$*" | sed 's/--//g; s/ \+/_/g')
  cmd="$bin $*"
  if out=$(timeout 600 $cmd 2>&1); then
    [ "${SOAK_PASS:-0}" = 1 ] && echo "PASS  $cmd"
    exit 0
  fi
  echo "$out" >"$logs/$name.log"
  # what failed: the watchdog's waits and cycle of waits, or the first scoreboard error
  why=$(echo "$out" | grep -m1 -E '^  waits:' | sed 's/^ *//')
  cyc=$(echo "$out" | grep -m1 -oE 'a cycle of [0-9]+ waits|no cycle of waits')
  [ -n "$why" ] || why=$(echo "$out" | grep -m1 -vE '^(PASS|FAIL) ' | sed 's/^ *//' | cut -c1-160)
  echo "FAIL  $cmd  # ${cyc:+$cyc; }$why (log: $logs/$name.log)"
  exit 0
fi

SEEDS=${SOAK_SEEDS:-100}
# 15x17, 4x4x4x4 and 8x8x8 take 0.2-0.6 s a run with --fast (6-25 s with SOAK_FULL=1)
TORI=${SOAK_TORI:-"2 3 5 7 16 4x4 5x5 7x5 15x17 3x3x3 4x4x4 2x2x2x2 3x3x3x3 4x4x4x4 4x4x4x2 2x3x5 8x8x8"}
SCENS=${SOAK_SCENS:-"soak random"}
TABLES=${SOAK_TABLES:-"default random"}
BIN=${SOAK_BIN:-build/tcsim}
JOBS=${SOAK_JOBS:-$(nproc)}
LOGS=${SOAK_LOGS:-build/soak}
FAST=--fast
[ "${SOAK_FULL:-0}" = 1 ] && FAST=
case $SEEDS in
  *-*) first=${SEEDS%-*} last=${SEEDS#*-} ;;
  *) first=1 last=$SEEDS ;;
esac
[ -x "$BIN" ] || { echo "$BIN: not built (make $BIN)"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$LOGS" && rm -f "$LOGS"/*.log # this run's failures only

start=$(date +%s)
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for seed in $(seq "$first" "$last"); do
  for topo in $TORI; do
    for scen in $SCENS; do
      for table in $TABLES; do
        echo "--topo $topo --scen $scen --seed $seed --table $table${FAST:+ $FAST}${SOAK_FLAGS:+ $SOAK_FLAGS}" # no trailing blank (xargs -L)
      done
    done
  done
done | SOAK_PASS=1 xargs -P "$JOBS" -L 1 bash sim/soak.sh --one "$BIN" "$LOGS" | tee "$results" |
  { if [ "${SOAK_PASS:-0}" = 1 ]; then cat; else grep '^FAIL' || true; fi; }
passed=$(grep -c '^PASS ' "$results")
failed=$(grep -c '^FAIL ' "$results")
echo "soak: $((passed + failed)) runs in $(($(date +%s) - start)) s on $JOBS jobs (seeds $first-$last; tori $TORI; $SCENS; tables $TABLES)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
