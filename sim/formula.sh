#!/usr/bin/env bash
# The empty-network allreduce latency formula of docs/results.md against the C model:
#
#   T = InjLat + EjLat + D (2 LinkLat + 3 len + 9) + 3 len + 6 + odd (len + 1)
#
# D = sum of floor(size / 2) over the dimensions (the depth of the planner's tree),
# odd = the number of dimensions of odd size >= 3. For every case it runs
# `build/tcnet workload=allreduce` (and workload=tree_barrier for len 0, and
# `build/tcsim --scen allreduce`, len 2, where given), prints a PASS or FAIL line,
# then "N passed, M failed"; the exit status is non-zero on any FAIL.
# `sim/formula.sh random N [SEED]` runs N random cases of tcnet instead: tori of 1 to 4
# dimensions of sizes 1 to 16 (at most 4096 nodes), len 0 to 7 (red_flits 7 above 2),
# slots 2 to 8, LinkLat 1 to 12, InjLat and EjLat 1 to 30.
set -u
cd "$(dirname "$0")/.."
[ -x build/tcnet ] && [ -x build/tcsim ] || make -s build/tcnet build/tcsim || exit 1
pass=0 fail=0

# formula TOPO LEN LINK INJ EJ
formula() {
  awk -v topo="$1" -v len="$2" -v L="$3" -v I="$4" -v E="$5" 'BEGIN {
    n = split(topo, s, "x"); D = 0; odd = 0
    for (i = 1; i <= n; i++) { D += int(s[i] / 2); if (s[i] % 2 == 1 && s[i] > 1) odd++ }
    print I + E + D * (2 * L + 3 * len + 9) + 3 * len + 6 + odd * (len + 1) }'
}

# result NAME MEASURED EXPECTED
result() {
  if [ -n "$2" ] && [ "$2" = "$3" ]; then
    printf 'PASS  %s: %s cycles, as the formula\n' "$1" "$2"; pass=$((pass + 1))
  else
    printf 'FAIL  %s: measured %s cycles, formula %s\n' "$1" "${2:-nothing}" "$3"; fail=$((fail + 1))
  fi
}

if [ "${1:-}" = random ]; then
  RANDOM=${3:-1}
  for k in $(seq "${2:-500}"); do
    topo="" nodes=1
    for d in $(seq $((RANDOM % 4 + 1))); do
      s=$((RANDOM % 16 + 1))
      [ $((nodes * s)) -le 4096 ] || s=1
      topo="$topo${topo:+x}$s" nodes=$((nodes * s))
    done
    L=$((RANDOM % 12 + 1)) I=$((RANDOM % 30 + 1)) E=$((RANDOM % 30 + 1))
    len=$((RANDOM % 8)) slots=$((RANDOM % 7 + 2))
    rf=2; [ $len -gt 2 ] && rf=7
    args="topo=$topo len=$len red_flits=$rf slots=$slots link_lat=$L inj_lat=$I ej_lat=$E"
    got=$(build/tcnet $args workload=allreduce progress=off 2>&1 | awk '/latency per operation/ { print $6 }')
    result "tcnet allreduce $args" "$got" "$(formula $topo $len $L $I $E)"
  done
  echo "formula: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi

TOPOS="1 2 3 5 8 16 2x3 4x4 5x5 7x5 8x8 3x1x2 3x3x2 3x3x3 4x4x4 2x3x5 5x4x3 2x2x2x2 3x3x3x3 4x4x4x2 5x2x3x4"
# LinkLat InjLat EjLat: Mukosey, Semenov and Simonov's (2015) latencies, and short ones with InjLat != EjLat
PARAMS="40:150:150 1:3:1 7:1:20"
for topo in $TOPOS; do
  for p in $PARAMS; do
    IFS=: read -r L I E <<<"$p"
    lat="link_lat=$L inj_lat=$I ej_lat=$E"
    for len in 0 1 2; do
      want=$(formula "$topo" $len $L $I $E)
      got=$(build/tcnet topo=$topo workload=allreduce len=$len $lat progress=off 2>&1 |
            awk '/latency per operation/ { print $6 }')
      result "tcnet $topo allreduce len=$len $lat" "$got" "$want"
    done
    want=$(formula "$topo" 0 $L $I $E)
    got=$(build/tcnet topo=$topo workload=tree_barrier $lat progress=off 2>&1 |
          awk '/latency per operation/ { print $6 }')
    result "tcnet $topo tree_barrier $lat" "$got" "$want"
  done
done

# The testbench's default table (cmodel/netsim/plan.c, variant testbench) and its allreduce scenario (len 2).
for topo in 2 3 5 8 4x4 5x5 7x5 3x3x2 3x3x3 2x3x5 2x2x2x2 3x3x3x3; do
  for p in $PARAMS; do
    IFS=: read -r L I E <<<"$p"
    want=$(formula "$topo" 2 $L $I $E)
    got=$(build/tcsim --topo $topo --scen allreduce --link-lat $L --inj-lat $I --ej-lat $E 2>&1 |
          awk '$1 == "PASS" && $3 == "allreduce" { for (i = 1; i < NF; i++) if ($i == "latency") print $(i + 1) }')
    result "tcsim $topo allreduce link-lat $L inj-lat $I ej-lat $E" "$got" "$want"
  done
done

echo "formula: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
