#!/usr/bin/env bash
# Two tcnet binaries give the same results: report (wall-time and speed figures
# apart), JSON (run_s, setup_s and the speed fields apart) and the three CSVs, on a set
# of workloads over 1D-4D tori, odd radices, every workload kind, streams, the
# multicast alternatives, unequal buffer depths. For optimizations of the model:
# keep the old binary, then
#   sim/tcnet_same.sh OLD_TCNET [NEW_TCNET (build/tcnet)] [quick]
# Exit status 1 and the first difference if any run differs.
set -u
old=${1:?usage: sim/tcnet_same.sh OLD_TCNET [NEW_TCNET] [quick]}
new=${2:-build/tcnet}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
runs=(
  "topo=2 workload=bcast"
  "topo=5 workload=allgather len=7"
  "topo=7 workload=allreduce repeat=20"
  "topo=4x4 workload=bcast bytes=65536 len=7"
  "topo=4x4 workload=allreduce window=16 repeat=64"
  "topo=5x3 workload=allgather len=3 members=60 seed=3"
  "topo=4x4 workload=barrier barrier=full repeat=3"
  "topo=3x3x3 workload=reduce len=2 repeat=5 op=3"
  "topo=3x3x3 workload=tree_barrier repeat=8"
  "topo=4x4x4 workload=allgather len=7"
  "topo=4x4x4 workload=allgather len=7 mcast=serial"
  "topo=4x4x4 workload=allgather len=2 mcast=fork"
  "topo=5x4x3 workload=bcast bytes=20000 len=7 tree=5"
  "topo=6x6x6 workload=bcast bytes=16384 len=5 slots=3 inj_slots=2 pe_credits=1"
  "topo=2x3x2x3 workload=allgather len=1 members=50 seed=7"
  "topo=2x2x2x2 workload=barrier repeat=4"
  "topo=4x4x4x2 workload=allreduce repeat=10 lane=1 op=1"
  "topo=4x4x4x4 workload=bcast bytes=65536 len=7"
  "topo=8x8x8 workload=allgather len=7"
  "topo=3x5x7 workload=allgather len=7 link_lat=3 inj_lat=5 ej_lat=7"
  "topo=8x8 workload=allreduce impl=p2p"
)
[ "${3:-}" = quick ] && runs=("${runs[@]:0:12}")
strip() { sed -E 's/set-up [0-9.]+ s, run [0-9.]+ s.*//; s/"(setup_s|run_s|cpu_s|node_cycles_per_s|flit_hops_per_s)": [0-9.e+]+,? ?//g; s/, "engine": "[a-z0-9]*"//; /flit-hops\/s/d' "$1"; }
bad=0
for r in "${runs[@]}"; do
  for b in old new; do
    bin=$(realpath $old); [ $b = new ] && bin=$(realpath $new)
    mkdir -p $dir/$b
    (cd $dir/$b && $bin $r progress=off csv=out json=out.json >out.txt 2>&1; echo "exit $?" >>out.txt)
  done
  for f in txt json ops.csv nodes.csv links.csv; do
    if ! cmp -s <(strip $dir/old/out.$f) <(strip $dir/new/out.$f); then
      echo "DIFFERENT: $r ($f)"; diff <(strip $dir/old/out.$f) <(strip $dir/new/out.$f) | head -5; bad=1
    fi
  done
  [ $bad = 0 ] && echo "same: $r"
  [ $bad = 0 ] || exit 1
done
echo "tcnet_same: ${#runs[@]} runs identical"
