# Shared by sim/*.sh: run a named check, print PASS/FAIL, count it.
PASSED=${PASSED:-0}
FAILED=${FAILED:-0}
LOGDIR=${LOGDIR:-build/logs}
mkdir -p "$LOGDIR"

# check NAME CMD...: output goes to build/logs/NAME.log, shown on failure. Its wall
# time goes into build/logs/timing.log.
check() {
  local name=$1 log="$LOGDIR/${1//[^A-Za-z0-9_.-]/_}.log" t0=${EPOCHREALTIME/./} rc
  shift
  "$@" >"$log" 2>&1
  rc=$?
  printf '%8d ms  check %s\n' $(( (${EPOCHREALTIME/./} - t0) / 1000 )) "$name" >>"$LOGDIR/timing.log"
  if [ $rc = 0 ]; then
    printf 'PASS  %s\n' "$name"
    PASSED=$((PASSED + 1))
  else
    printf 'FAIL  %s  (log: %s)\n' "$name" "$log"
    tail -n 25 "$log" | sed 's/^/      /'
    FAILED=$((FAILED + 1))
  fi
}

# section TITLE: a test section's header, with the minutes:seconds since the script
# started (bash's SECONDS), so a slow section shows in the log
section() { printf '== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

# cpu_seconds: the CPU seconds (user and system) of this shell and of the children it
# has waited for, into CPU_SECONDS (times runs in this shell: a subshell has its own)
cpu_seconds() {
  local f="$LOGDIR/.times.$BASHPID"
  times >"$f"
  CPU_SECONDS=$(tr '\n' ' ' <"$f" | sed 's/m/ /g; s/s//g' |
                awk '{ printf "%.1f", $1 * 60 + $2 + $3 * 60 + $4 + $5 * 60 + $6 + $7 * 60 + $8 }')
  rm -f "$f"
}

# count_lines LOG: adds the PASS/FAIL lines a tool printed itself to the totals.
count_lines() {
  local p f
  p=$(grep -c '^PASS ' "$1" || true)
  f=$(grep -c '^FAIL ' "$1" || true)
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
}

# count_results LOG NAME: count_lines LOG, and a failure of NAME if LOG has no result
# at all (the tool stopped before it printed one).
count_results() {
  grep -qE '^(PASS|FAIL)' "$1" || { echo "FAIL  $2: no result"; FAILED=$((FAILED + 1)); tail -5 "$1"; }
  count_lines "$1"
}

# nodes AxBxC: the node count of a torus.
nodes() { local n=1 s; for s in ${1//x/ }; do n=$((n * s)); done; echo $n; }

# timed_sim LOG CMD...: runs a tcsim or cosim command under /usr/bin/time, its output
# appended to LOG; prints "cycles wall_s rss_kb" of its PASS line, or fails (the
# output on stderr) when it did not pass. Use as x=$(timed_sim ...) || exit 1.
timed_sim() {
  local log=$1 res
  shift
  res=$( { /usr/bin/time -f "TIME %e %M" "$@"; } 2>&1 ) || true
  echo "$*: $res" >>"$log"
  echo "$res" | grep -q '^PASS' || { echo "$*: did not pass" >&2; echo "$res" | tail -20 >&2; return 1; }
  echo "$res" | awk '/^PASS/ { for (i = 1; i < NF; i++) if ($i == "cycles") c = $(i + 1) }
                     /^TIME/ { w = $2; m = $3 }
                     END { print c, w, m }'
}

# refuses WANT CMD...: CMD exits non-zero within REFUSE_SECONDS (10; no hang) and its
# output says WANT.
refuses() {
  local want=$1 out rc
  shift
  out=$(timeout "${REFUSE_SECONDS:-10}" "$@" 2>&1 </dev/null); rc=$?
  echo "exit $rc: $out"
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -qF -- "$want" <<<"$out"
}

# Docs, data and plots are never written in place: a script writes DEST.tmp beside
# DEST and moves it onto DEST (publish, one rename) only once it is complete, so an
# interrupted or failed run leaves the last complete DEST. stage DEST...: starts each
# DEST.tmp empty; any not yet published is removed when the script exits (also on
# Ctrl-C, SIGTERM, SIGHUP). cleanup_on_exit PATH...: more temporary files or folders
# of the script to remove then. Nothing else is removed.
_STAGED=()
_CLEANUP=()
_lib_exit() {
  local f
  for f in "${_STAGED[@]}"; do rm -f -- "$f"; done
  for f in "${_CLEANUP[@]}"; do rm -rf -- "$f"; done
}
trap _lib_exit EXIT
trap 'exit 143' TERM
trap 'exit 129' HUP
stage() { local f; for f in "$@"; do : >"$f.tmp"; _STAGED+=("$f.tmp"); done; }
cleanup_on_exit() { _CLEANUP+=("$@"); }
# publish TMP DEST: TMP, complete, onto DEST (same folder: an atomic rename).
publish() { mv -f -- "$1" "$2"; }

# progress WHAT...: a progress line on the terminal (stderr, so that a script's
# Markdown on stdout stays clean): the script, minutes:seconds since it started, WHAT
# (say "n of N" where there are N steps).
progress() { printf '%s [%d:%02d] %s\n' "${0##*/}" $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }

# live LOG CMD...: runs CMD, its whole output into LOG, and prints its PASS and FAIL
# lines as they come (a long section shows its progress, not minutes of silence).
live() {
  local log=$1
  shift
  "$@" 2>&1 | tee "$log" | grep -E --line-buffered '^(PASS|FAIL)'
  return "${PIPESTATUS[0]}"
}

# ---------------------------------------------------------------- concurrent jobs
# sim/test.sh's sections run as jobs, several at a time, and their output is printed
# in the order they were declared, each section whole, so the log reads as if they had
# run one after the other:
#   job NAME WIDTH "DEPS" FUNC [TITLE]  declares a job: FUNC (a shell function) runs
#       in a subshell once every job of DEPS has ended (whether it passed or not),
#       its stdout and stderr into $JOBDIR/NAME.out; its PASSED and FAILED counts are
#       added to the totals when its turn to print comes. WIDTH: the cores it keeps
#       busy (1, or 2 for make -j2 and runs J at a time). TITLE: what a progress line
#       calls it (default: NAME).
#   run_jobs CAP NAME...  starts the jobs in the order they were declared (the long
#       chains first), a job whenever fewer than CAP cores are taken by running jobs,
#       and prints the output of NAME... in that order as it comes: the job whose turn
#       it is live, the others when their turn comes (a job left out of NAME... still
#       counts, its output printed at the end if it counted anything). While the job whose turn it is
#       prints nothing, a progress line (stderr) every JOB_QUIET seconds (30) names what
#       runs. Returns when all have ended; a job that touches $JOBDIR/ABORT stops the
#       start of any other (run_jobs then stops those running and returns 1 once that
#       job is printed).
# Each job runs in its own process group; the jobs still running when the script
# exits (Ctrl-C, an error) are stopped with it. $LOGDIR/timing.log gets a line per
# job: its wall and CPU seconds.
JOBDIR=${JOBDIR:-$LOGDIR/jobs}
_JOBS=()
declare -A _JOB_W _JOB_DEPS _JOB_FN _JOB_TITLE
job() {
  _JOBS+=("$1")
  _JOB_W[$1]=$2 _JOB_DEPS[$1]=$3 _JOB_FN[$1]=$4 _JOB_TITLE[$1]=${5:-$1}
}
_job_body() { # NAME: in the job's subshell
  local n=$1 t0=${EPOCHREALTIME/./}
  set +m
  trap - TERM HUP INT
  trap '_job_end $?' EXIT
  PASSED=0 FAILED=0
  _JOB_NAME=$n _JOB_T0=$t0 _JOB_S0=$SECONDS
  "${_JOB_FN[$n]}"
}
_job_end() { # RC: the job's EXIT trap (also after an exit in FUNC)
  cpu_seconds
  printf '%8d ms  job %s (%s s of CPU; started at %d:%02d, ended at %d:%02d)\n' $(( (${EPOCHREALTIME/./} - _JOB_T0) / 1000 )) \
    "$_JOB_NAME" "$CPU_SECONDS" $((_JOB_S0 / 60)) $((_JOB_S0 % 60)) $((SECONDS / 60)) $((SECONDS % 60)) >>"$LOGDIR/timing.log"
  printf '%s %s %s\n' "$1" "$PASSED" "$FAILED" >"$JOBDIR/$_JOB_NAME.tmp" && mv -f "$JOBDIR/$_JOB_NAME.tmp" "$JOBDIR/$_JOB_NAME.done"
}
_jobs_schedule() { # CAP: in a background subshell, every job in its own process group
  local cap=$1 used=0 n d ok
  local -A state pid
  set -m
  while :; do
    for n in "${_JOBS[@]}"; do # the ended
      [ "${state[$n]:-}" = run ] || continue
      [ -e "$JOBDIR/$n.done" ] || ! kill -0 "${pid[$n]}" 2>/dev/null || continue
      wait "${pid[$n]}" 2>/dev/null
      [ -e "$JOBDIR/$n.done" ] || echo "1 0 1" >"$JOBDIR/$n.done" # killed before its EXIT trap
      state[$n]=done used=$((used - _JOB_W[$n]))
    done
    ok=0
    for n in "${_JOBS[@]}"; do [ "${state[$n]:-}" = done ] || ok=1; done
    [ $ok = 1 ] || break
    for n in "${_JOBS[@]}"; do # the ready, while cores are free
      [ -z "${state[$n]:-}" ] && [ "$used" -lt "$cap" ] && [ ! -e "$JOBDIR/ABORT" ] || continue
      ok=1
      for d in ${_JOB_DEPS[$n]}; do [ -e "$JOBDIR/$d.done" ] || { ok=0; break; }; done
      [ $ok = 1 ] || continue
      _job_body "$n" >"$JOBDIR/$n.out" 2>&1 </dev/null &
      pid[$n]=$! state[$n]=run used=$((used + _JOB_W[$n]))
      echo "$!" >"$JOBDIR/$n.pid"
    done
    if [ -e "$JOBDIR/ABORT" ]; then # the jobs not started: ended
      for n in "${_JOBS[@]}"; do [ -n "${state[$n]:-}" ] || { state[$n]=done; echo "1 0 0" >"$JOBDIR/$n.done"; }; done
    fi
    sleep 0.3
  done
}
# milestone NAME: a point inside a job that other jobs may wait for (in their DEPS)
milestone() { echo "0 0 0" >"$JOBDIR/$1.done"; }
_jobs_stop() { # every job still running, its whole process group
  local f pid
  [ -n "${_JOBS_SCHED:-}" ] && kill "$_JOBS_SCHED" 2>/dev/null
  for f in "$JOBDIR"/*.pid; do
    [ -e "$f" ] && [ ! -e "${f%.pid}.done" ] || continue
    pid=$(cat "$f") && kill -TERM -- "-$pid" 2>/dev/null
  done
}
_jobs_running() { # the titles of the jobs started and not ended, comma-separated
  local f n out=
  for f in "$JOBDIR"/*.pid; do
    [ -e "$f" ] && [ ! -e "${f%.pid}.done" ] || continue
    n=$(basename "$f" .pid)
    out="${out:+$out, }${_JOB_TITLE[$n]}"
  done
  echo "${out:-nothing}"
}
run_jobs() { # CAP NAME...
  local cap=$1 n off size rc p f quiet fin ended=0
  shift
  rm -rf "$JOBDIR" && mkdir -p "$JOBDIR"
  _jobs_schedule "$cap" >"$JOBDIR/schedule.log" 2>&1 &
  _JOBS_SCHED=$!
  trap '_jobs_stop; _lib_exit' EXIT
  trap 'exit 130' INT
  for n in "$@"; do
    off=0 quiet=$SECONDS
    while :; do
      fin=0
      [ -e "$JOBDIR/$n.done" ] && fin=1
      size=$(stat -c %s "$JOBDIR/$n.out" 2>/dev/null || echo 0)
      if [ "$size" -gt "$off" ]; then
        tail -c +$((off + 1)) "$JOBDIR/$n.out" | head -c $((size - off))
        off=$size quiet=$SECONDS
      fi
      [ $fin = 1 ] && break
      if [ $((SECONDS - quiet)) -ge "${JOB_QUIET:-30}" ] && { [ "$off" = 0 ] || [ "$(tail -c 1 "$JOBDIR/$n.out")" = "" ]; }; then
        progress "waiting for: ${_JOB_TITLE[$n]}; running: $(_jobs_running); $ended of $# printed"
        quiet=$SECONDS
      fi
      sleep 0.5
    done
    ended=$((ended + 1))
    read -r rc p f <"$JOBDIR/$n.done"
    PASSED=$((PASSED + p)) FAILED=$((FAILED + f))
    if [ -e "$JOBDIR/ABORT" ]; then _jobs_stop; return 1; fi
  done
  wait "$_JOBS_SCHED"
  for n in "${_JOBS[@]}"; do # the jobs not printed (the builds): their counts too, and their output if they counted
    [[ " $* " == *" $n "* ]] && continue
    read -r rc p f <"$JOBDIR/$n.done"
    PASSED=$((PASSED + p)) FAILED=$((FAILED + f))
    [ "$p$f" = 00 ] || cat "$JOBDIR/$n.out"
  done
}
