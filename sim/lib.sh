# Shared by sim/*.sh: run a named check, print PASS/FAIL, count it.
PASSED=${PASSED:-0}
FAILED=${FAILED:-0}
LOGDIR=${LOGDIR:-build/logs}
mkdir -p "$LOGDIR"

# check NAME CMD...: output goes to build/logs/NAME.log, shown on failure.
check() {
  local name=$1 log="$LOGDIR/${1//[^A-Za-z0-9_.-]/_}.log"
  shift
  if "$@" >"$log" 2>&1; then
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
