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

# count_lines LOG: adds the PASS/FAIL lines a tool printed itself to the totals.
count_lines() {
  local p f
  p=$(grep -c '^PASS ' "$1" || true)
  f=$(grep -c '^FAIL ' "$1" || true)
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
}
