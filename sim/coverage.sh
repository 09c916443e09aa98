#!/usr/bin/env bash
# Coverage (make coverage): Verilator line and toggle coverage of the RTL over the
# co-simulation regression on the networks given (every scenario, random seeds), and
# gcov line coverage of the C model over its unit tests, the C-model-only runs of
# make test and the network simulator's workloads. Writes docs/coverage.md
# (sim/coverage.py) with every uncovered line listed.
set -eu
cd "$(dirname "$0")/.."
source sim/lib.sh
OUT=build/coverage # this script's own results
rm -rf $OUT && mkdir -p $OUT/rtl $OUT/gcov
find build/gcov -name '*.gcda' -delete # the counts of make coverage's own gcov builds, from an earlier run

i=0
for net in "$@"; do
  progress "RTL coverage: build/cov/cosim_$net, every scenario and random seeds 1-4 ($((i += 1)) of $#)"
  TC_COV_DIR=$OUT/rtl build/cov/cosim_$net --scen all | tail -1
  for seed in 1 2 3 4; do TC_COV_DIR=$OUT/rtl build/cov/cosim_$net --scen random --seed $seed | tail -1; done
done

progress "C model coverage: the unit tests, tcsim, tcnet (gcov builds)"
for u in build/gcov/unit/*; do TC_ALU_VECTORS=20000 TC_FPSUM_ELEMENTS=100000 $u >/dev/null 2>&1 || echo "unit $u failed"; done
for topo in 2 5 7 2x3 4x4 8x8 3x1x2 4x4x4 3x3x3x2; do build/gcov/tcsim --topo $topo --scen all | tail -1; done
for topo in 4x4 3x3x2 2x2x2x2; do
  build/gcov/tcsim --topo $topo --scen all --fast check | tail -1
  for seed in 2 3; do build/gcov/tcsim --topo $topo --scen random --seed $seed | tail -1; done
done
for impl in hw p2p; do
  for w in bcast reduce allreduce barrier tree_barrier allgather; do
    build/gcov/tcnet topo=4x4x2 impl=$impl workload=$w repeat=2 progress=off csv=$OUT/tcnet json=$OUT/tcnet.json >/dev/null
  done
done
build/gcov/tcnet topo=8x8 workload=bcast bytes=1000 members=30 progress=off >/dev/null
for w in reduce allreduce allgather; do build/gcov/tcnet topo=4x4 workload=$w members=50 progress=off >/dev/null; done
build/gcov/tcnet topo=4x4x4 workload=barrier barrier=full barrier_k=3 progress=on >/dev/null 2>&1
build/gcov/tcnet topo=6x6 workload=reduce dst=5 op=2 lane=1 len=1 progress=off >/dev/null
for topo in 2x2x2x2 4x4; do # the applications, simulated (exact) and modelled
  for w in spmv heat; do build/gcov/tcnet topo=$topo workload=$w exact=on progress=off >/dev/null; done
done
build/gcov/tcnet topo=16x16x16x8 workload=spmv progress=off >/dev/null
for w in allreduce allgather tree_barrier; do # not a power of two: reduce + bcast, a ring
  build/gcov/tcnet topo=3x3x2 impl=p2p workload=$w progress=off >/dev/null
done
# bad input: each must stop with an error that names it
for bad in pe_credits=0 red_flits=8 topo=300x300 "workload=reduce dst=999" \
           "max_cycles=10"; do
  ! build/gcov/tcnet topo=4x4 progress=off $bad >/dev/null 2>&1 || echo "tcnet $bad did not fail"
done
gcov -o build/gcov/cmodel cmodel/*.c >/dev/null && gcov -o build/gcov/cmodel/netsim cmodel/netsim/*.c >/dev/null && mv ./*.gcov $OUT/gcov/

stage docs/coverage.md
/usr/bin/python3 sim/coverage.py $OUT "$*" >docs/coverage.md.tmp
publish docs/coverage.md.tmp docs/coverage.md
grep -E '^\| \*\*' docs/coverage.md
