#!/usr/bin/env bash
# The floating-point allreduce on the network (C model), checked by a program that
# shares no code with it: tcnet writes each PE's values and results (values_out),
# build/fpsum_verify sums the inputs exactly in GNU MPFR and checks every result
# against the error bound of docs/fpsum.md, and that runs with the same inputs (other
# tori of the same node count, other trees, random latencies) got the same bits.
#   accuracy: 4 distributions x binary64, binary32 on 4x4x4, 2,048 values a PE
#   (1,048,576 input values in all), in a stream of 16 allreduces of 3 values each;
#   fmin and fmax: the same values as keys, 12 (binary64) or 24 (binary32) a packet,
#   each result the exact least or greatest input (a NaN if one is);
#   trees: 8 tori of 64 nodes, a stream striped over 1 to 4 trees from one of 13
#   first trees = 128 runs of 300 values a PE (cancel and special, binary64), each with
#   its own random link, injection and ejection latency.
#   two passes (fsum_pass=2, docs/fpsum.md): the accuracy runs again, cancelling sums
#   on 128x128 (2^14 PEs, the most the words' headroom takes) and 32 tree runs on the
#   8 tori as above; checked apart from the one-pass runs, whose bits differ.
# Usage: sim/fpsum_net.sh [VALUES_PER_PE] [TREE_RUNS]; ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh
NV=${1:-2048}
RUNS=${2:-128}
J=${J:-2}
OUT=build/fpsum_net
rm -rf "$OUT" && mkdir -p "$OUT"
TCNET="build/tcnet progress=off workload=allreduce red_flits=6 len=6"

run() { # NAME ARGS...: one tcnet run writing OUT/NAME.txt; its output in OUT/NAME.log
  local name=$1
  shift
  $TCNET values_out="$OUT/$name.txt" "$@" >"$OUT/$name.log" 2>&1 || { echo "FAIL  tcnet $*"; tail -3 "$OUT/$name.log"; }
}
export -f run
export TCNET OUT

jobs=()
for d in uniform wide cancel special; do
  for l in 64 32; do
    jobs+=("acc_${d}_$l topo=4x4x4 op=fsum values=$d lane=$l bytes=$((NV * l / 8)) seed=7 window=16")
    jobs+=("two_acc_${d}_$l topo=4x4x4 op=fsum fsum_pass=2 values=$d lane=$l bytes=$((NV * l / 8)) seed=7 window=16")
    for op in min max; do # fmin, fmax on keys, 12 or 24 values a packet
      jobs+=("${op}_${d}_$l topo=4x4x4 op=$op values=$d lane=$l bytes=$((NV * l / 8)) seed=7 window=16")
    done
  done
done
TOPOS=(4x4x4 8x8 64 2x2x2x8 4x16 2x4x8 2x2x4x4 8x2x4)
for ((i = 0; i < RUNS; i++)); do
  topo=${TOPOS[$((i % 8))]}
  # a stream over 1 to 4 trees from tree, 16 operations in flight on each: 100
  # operations of 3 values, so each tree's ReduceIds wrap; every distribution and
  # torus with every tree count
  trees=$(((i / 8) % 4 + 1)) tree=$(((i / 2 * 5) % 13))
  d=$([ $((i % 2)) = 0 ] && echo cancel || echo special)
  # latencies from a hash of the run number: 1..2000 link, 1..3000 PE
  h=$(((i * 2654435761 + 12345) & 0x7fffffff))
  jobs+=("tree_${d}_$i topo=$topo tree=$tree trees=$trees window=$((16 * trees)) op=fsum values=$d lane=64 bytes=2400 seed=11 link_lat=$((h % 2000 + 1)) inj_lat=$(((h >> 11) % 3000 + 1)) ej_lat=$(((h >> 5) % 3000 + 1))")
done
# two passes on 2^14 PEs, the most the words' headroom takes: cancelling sums, each lane
jobs+=("two_edge_64 topo=128x128 op=fsum fsum_pass=2 values=cancel lane=64 bytes=240 seed=7 window=16")
jobs+=("two_edge_32 topo=128x128 op=fsum fsum_pass=2 values=cancel lane=32 bytes=120 seed=7 window=16")
TWO=32
for ((i = 0; i < TWO; i++)); do # two passes: every torus, 1 to 4 trees, both inputs, latencies as above
  topo=${TOPOS[$((i % 8))]} trees=$(((i / 8) % 4 + 1)) tree=$(((i * 7) % 13))
  d=$([ $(((i + i / 8) % 2)) = 0 ] && echo cancel || echo special)
  h=$(((i * 2246822519 + 777) & 0x7fffffff))
  jobs+=("two_tree_${d}_$i topo=$topo tree=$tree trees=$trees window=$((16 * trees)) op=fsum fsum_pass=2 values=$d lane=64 bytes=2400 seed=11 link_lat=$((h % 2000 + 1)) inj_lat=$(((h >> 11) % 3000 + 1)) ej_lat=$(((h >> 5) % 3000 + 1))")
done
printf '%s\n' "${jobs[@]}" | xargs -P "$J" -I{} bash -c 'run {}' > "$OUT/tcnet.out" 2>&1
cat "$OUT/tcnet.out"
count_lines "$OUT/tcnet.out"
build/fpsum_verify "$OUT"/acc_*.txt "$OUT"/tree_cancel_*.txt "$OUT"/tree_special_*.txt > "$OUT/verify.out" 2>&1
vrc=$?
build/fpsum_verify "$OUT"/two_acc_*.txt "$OUT"/two_edge_*.txt "$OUT"/two_tree_cancel_*.txt "$OUT"/two_tree_special_*.txt \
  >> "$OUT/verify.out" 2>&1 || vrc=1
for op in min max; do
  build/fpsum_verify --op $op "$OUT"/${op}_*.txt >> "$OUT/verify.out" 2>&1 || vrc=1
done
cat "$OUT/verify.out"
count_results "$OUT/verify.out" fpsum_verify
check "fpsum_verify exits 0 on every run" test $vrc = 0
for op in fmin fmax; do # a verifier that died early would leave these out
  check "fpsum_net: 8 $op files checked, each result exact" bash -c "[ \$(grep -c '^PASS  fpsum_verify .*: $op of' $OUT/verify.out) = 8 ]"
done
# the tree runs compared as two groups of equal inputs (cancel, special), not apart:
# a change that gave them other inputs would otherwise leave nothing to compare
check "fpsum_net: the $RUNS tree runs form 2 groups of equal inputs, $((RUNS / 2)) runs each" bash -c \
  "[ \$(grep -c '^PASS  fpsum_verify: $((RUNS / 2)) runs with the inputs of $OUT/tree_' $OUT/verify.out) = 2 ]"
check "fpsum_net: two passes on 16384 PEs (2^14, the words' headroom), both lanes: within the bound" bash -c \
  "[ \$(grep -c '^PASS  fpsum_verify $OUT/two_edge_.*16384 PEs received the same bits' $OUT/verify.out) = 2 ]"
check "fpsum_net: two passes: 8 accuracy files and the $TWO tree runs in 2 groups of equal inputs, $((TWO / 2)) runs each" bash -c \
  "[ \$(grep -c '^PASS  fpsum_verify $OUT/two_acc_' $OUT/verify.out) = 8 ] &&
   [ \$(grep -c '^PASS  fpsum_verify: $((TWO / 2)) runs with the inputs of $OUT/two_tree_' $OUT/verify.out) = 2 ]"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
