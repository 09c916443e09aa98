#!/usr/bin/env bash
# make soak: the C model (build/tcsim) over many runs, on all cores. One line per
# failing run, which reproduces it, then "N passed, M failed". docs/soak.md.
#
# Two modes:
#   SOAK_MODE=params (the default): each run draws its torus (1D-4D, radices 2 to 17,
#     odd and mixed ones), table (planner or random), scenario and every network
#     parameter over its legal range, the extremes often (sim/soak_draw.py)
#       SOAK_RUNS      a count N (runs 1..N) or a range A-B       (default 2000)
#       SOAK_MAX_NODES the largest torus drawn                    (default 1296)
#       SOAK_BUDGET    node-cycles a run may be estimated at      (default 5000000)
#   SOAK_MODE=grid: a range of seeds over a list of tori, the scenarios soak and
#     random, the default table and random tables, at the parameters SOAK_FLAGS gives
#       SOAK_SEEDS   a count N (seeds 1..N) or a range A-B        (default 100)
#       SOAK_TORI    the tori                                     (default below)
#       SOAK_SCENS   the scenarios                                (default "soak random")
#       SOAK_TABLES  default and/or random                        (default "default random")
#       SOAK_FLAGS   more tcsim flags, e.g. "--slots 3 --inj-slots 2 --pe-credits 1"
#       SOAK_FULL=1  with observation records: timing diagrams, lemma 1, report counters
#                    checked too (10-60x slower); otherwise --fast: deliveries, error
#                    reports and the progress watchdog
# Both:
#   SOAK_BIN     the simulator, e.g. build/tcsim-san           (default build/tcsim)
#   SOAK_JOBS    parallel runs                                 (default nproc)
#   SOAK_LOGS    where each failure's output goes              (default build/soak)
#   SOAK_PASS=1  print a PASS line for every passing run too (make test counts them)
set -u
cd "$(dirname "$0")/.."

if [ "${1:-}" = --one ]; then # one run alone: --one BIN LOGS FLAGS... (a run that crashed its batch)
  bin=$2 logs=$3
  shift 3
  name=$(echo "$*" | sed 's/--//g; s/ \+/_/g')
  cmd="$bin $*"
  out=$(timeout 600 $cmd 2>&1)
  rc=$?
  [ $rc = 124 ] && out="${out:+$out
}timed out: still running after 600 s of wall time (rerun it alone to tell a hang from a starved machine)"
  [ $rc = 0 ] && out="${out:+$out
}passed alone, but its batch stopped during it (a crash or a signal)"
  echo "$out" >"$logs/$name.log"
  why=$(echo "$out" | grep -m1 -vE '^(PASS|FAIL) ' | sed 's/^ *//' | cut -c1-160)
  [ $rc = 0 ] && why="its batch stopped during it; alone it passed"
  echo "FAIL  $cmd  # $why (log: $logs/$name.log)"
  exit 0
fi

MODE=${SOAK_MODE:-params}
BIN=${SOAK_BIN:-build/tcsim}
JOBS=${SOAK_JOBS:-$(nproc)}
LOGS=${SOAK_LOGS:-build/soak}
range() { # N or A-B: "first last"
  case $1 in
    *-*) echo "${1%-*} ${1#*-}" ;;
    *) echo "1 $1" ;;
  esac
}
[ -x "$BIN" ] || { echo "$BIN: not built (make $BIN)"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$LOGS" && rm -f "$LOGS"/*.log "$LOGS"/.run-*.out # this run's failures only

runs() { # one tcsim argument line per run (no trailing blank: xargs -L)
  if [ "$MODE" = params ]; then
    read -r first last <<<"$(range "${SOAK_RUNS:-2000}")"
    python3 sim/soak_draw.py "$first" "$last" "${SOAK_MAX_NODES:-1296}" "${SOAK_BUDGET:-5000000}"
  else
    # 15x17, 4x4x4x4 and 8x8x8 take 0.2-0.6 s a run with --fast (6-25 s with SOAK_FULL=1)
    local tori=${SOAK_TORI:-"2 3 5 7 16 4x4 5x5 7x5 15x17 3x3x3 4x4x4 2x2x2x2 3x3x3x3 4x4x4x4 4x4x4x2 2x3x5 8x8x8"}
    local fast=--fast
    [ "${SOAK_FULL:-0}" = 1 ] && fast=
    read -r first last <<<"$(range "${SOAK_SEEDS:-100}")"
    for seed in $(seq "$first" "$last"); do
      for topo in $tori; do
        for scen in ${SOAK_SCENS:-soak random}; do
          for table in ${SOAK_TABLES:-default random}; do
            echo "--topo $topo --scen $scen --seed $seed --table $table${fast:+ $fast}${SOAK_FLAGS:+ $SOAK_FLAGS}"
          done
        done
      done
    done
  fi
}
case $MODE in
  params) what="runs ${SOAK_RUNS:-2000} drawn by sim/soak_draw.py (at most ${SOAK_MAX_NODES:-1296} nodes, budget ${SOAK_BUDGET:-5000000} node-cycles)" ;;
  grid) what="seeds ${SOAK_SEEDS:-100}; tori ${SOAK_TORI:-default}; ${SOAK_SCENS:-soak random}; tables ${SOAK_TABLES:-default random}${SOAK_FLAGS:+; $SOAK_FLAGS}" ;;
  *) echo "SOAK_MODE=$MODE: params or grid"; echo "0 passed, 1 failed"; exit 1 ;;
esac

start=$(date +%s)
results=$(mktemp)
total=$(runs | wc -l)
echo "soak: $total runs on $JOBS jobs ($MODE: $what)" >&2
# Each job one tcsim process running its share of the runs (tcsim runs = -): a
# process a run cost more than the runs themselves on a small machine (docs/soak.md).
# A run that crashes its process is run again alone (--one), and its share goes on
# from the next run. Every failure (every run with SOAK_PASS=1) on stdout; a progress
# line on stderr every 5%.
parts=$(mktemp -d)
trap 'rm -f "$results"; rm -rf "$parts"' EXIT
runs | awk -v j="$JOBS" -v d="$parts" '{ print > (d "/" (NR % j)) }'
share() { # a share of the runs: tcsim on what is left of it until none is
  local part=$1 done=0 total n
  total=$(wc -l <"$part")
  while [ "$done" -lt "$total" ]; do
    tail -n +"$((done + 1))" "$part" | "$BIN" --runs - --run-logs "$LOGS" | tee "$part.out"
    n=$(grep -cE '^(PASS|FAIL)  ' "$part.out")
    done=$((done + n))
    if [ "$done" -lt "$total" ]; then
      # shellcheck disable=SC2046 # the line is the run's words
      bash sim/soak.sh --one "$BIN" "$LOGS" $(sed -n "$((done + 1))p" "$part")
      done=$((done + 1))
    fi
  done
}
{ for part in "$parts"/*; do share "$part" & done; wait; } | tee "$results" |
  awk -v all="${SOAK_PASS:-0}" -v total="$total" -v t0="$start" '
    { n++; f += /^FAIL/ }
    all == 1 || /^FAIL/ { print; fflush() }
    n % (total >= 20 ? int(total / 20) : 1) == 0 {
      "date +%s" | getline now; close("date +%s")
      printf "soak: %d of %d runs done, %d failed [%d s]\n", n, total, f, now - t0 > "/dev/stderr"; fflush("/dev/stderr") }'
passed=$(grep -c '^PASS ' "$results")
failed=$(grep -c '^FAIL ' "$results")
echo "soak: $((passed + failed)) runs in $(($(date +%s) - start)) s on $JOBS jobs ($MODE: $what)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
