#!/usr/bin/env bash
# make test's part for the applications and the trace replay (docs/applications.md):
# SpMV's all-gather delivers every part everywhere, the steady-state models within their
# stated error of exact runs, the baseline's all-gather the fastest or the library's pick,
# the heat equation's figures consistent, the PMPI recorder's trace replayed with its calls
# and bytes, the OTF2 round trip, and malformed or truncated traces and bad keys refused
# with a message naming the problem.
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh
A=build/apps-test
rm -rf $A && mkdir -p $A
make -s build/tcnet build/libtcpmpi.so build/heat_mpi build/tcotf2 >$A/build.log 2>&1 || { cat $A/build.log; echo "FAIL  build"; exit 1; }

# SpMV, cycle by cycle on 16 nodes: every node's 6 packets reach the 15 others
check "spmv exact on 2x2x2x2: every part delivered to every node" bash -c \
  "build/tcnet topo=2x2x2x2 workload=spmv spmv_n=1344 exact=on progress=off | tee /dev/stderr |
   grep -q 'delivered 1440 packets, every node.s part to every other node: yes'"
# the models' stated errors (docs/applications.md's validation table) against an exact run of one of its
# rows: 45 packets a node, what a node sends on 32768 nodes, on 64 (every p2p all-gather simulated too)
hw_rate=$(sed -n 's/.*up to 128 nodes (`hw_rate=\([0-9]*\)`).*/\1/p' docs/applications.md | head -n 1)
row=$(grep -m1 '^| 4x4x2x2 | 64 | 45 (32768) |' docs/applications.md)
out=$(build/tcnet topo=4x4x2x2 workload=spmv spmv_n=$((64 * 14 * 45)) exact=on hw_rate=$hw_rate progress=off)
got=$(awk '/all-gather hw .*model/ || /p2p (recursive_doubling|bruck|ring) .*model/ { gsub(/[(%)]/, "", $NF); printf "%+.1f%% ", $NF }' <<<"$out")
want=$(awk -F' [|] ' '{ sub(/ [|]$/, ""); printf "%s %s %s %s ", $6, $9, $12, $15 }' <<<"$row")
check "spmv models on 4x4x2x2 at 45 packets a node: errors $got as docs/applications.md states ($want)" \
  test -n "$row" -a "$got" = "$want"
check "spmv at application size on 32768 nodes: the subnet's and the three p2p all-gathers modelled, said so" bash -c \
  "build/tcnet topo=16x16x16x8 workload=spmv progress=off | grep -E 'all-gather hw .*modelled|p2p (recursive_doubling|bruck|ring) .*modelled' | wc -l | grep -qx 4"
check "spmv picks the fastest all-gather, or the library's with p2p_alg=mpich" bash -c \
  "build/tcnet topo=4x4x2x2 workload=spmv progress=off | grep -q 'all-gather p2p: ring (p2p_alg = auto' &&
   build/tcnet topo=4x4x2x2 workload=spmv impl=p2p p2p_alg=mpich progress=off | grep -q \"all-gather p2p: ring (p2p_alg = mpich, the library's ring\""
# heat: the gain is the allreduce's, the halo the same for both
build/tcnet topo=8x8x8x8 workload=heat progress=off json=$A/heat.json >$A/heat.txt 2>&1
check "heat on 4096 nodes: the subnet's allreduce faster, gains consistent with the times" /usr/bin/python3 -c "
import json; j = json.load(open('$A/heat.json'))
ts, s = j['compute_s'], 2e-9
g = (ts + j['allreduce_p2p'] * s) / (ts + j['allreduce_hw'] * s)
gh = (ts + (j['halo_cycles'] + j['allreduce_p2p']) * s) / (ts + (j['halo_cycles'] + j['allreduce_hw']) * s)
assert j['allreduce_hw'] < j['allreduce_p2p'] and j['halo_cycles'] > 0, j
assert abs(g - j['gain']) < 1e-4 and abs(gh - j['gain_halo']) < 1e-4 and 1 < gh < g, (g, gh, j)"

# the PMPI recorder under mpirun, the replay on 8x8x8
root=; [ "$(id -u)" = 0 ] && root=--allow-run-as-root
check "heat_mpi under mpirun, 4 ranks, recorded by libtcpmpi" bash -c "TC_TRACE=$A/demo.trace mpirun $root --oversubscribe \
  -np 4 -x LD_PRELOAD=$PWD/build/libtcpmpi.so -x TC_TRACE build/heat_mpi 64 20 && grep -q '^end ' $A/demo.trace"
calls=$(awk '$1 == "0" && NF == 9' $A/demo.trace | wc -l)
bytes=$(awk '$1 == "0" && NF == 9 { s += $5 } END { print s + 0 }' $A/demo.trace)
build/tcnet topo=8x8x8 workload=trace trace=$A/demo.trace progress=off json=$A/replay.json >$A/replay.txt 2>&1
check "replay has the recorded $calls calls and $bytes bytes a rank (bcast, reduce, allreduce, barrier, allgather)" \
  /usr/bin/python3 -c "
import json; j = json.load(open('$A/replay.json'))
assert j['replayed'] == $calls == len(j['calls']) and j['bytes'] == $bytes, (j['replayed'], j['bytes'])
rec = [l.split() for l in open('$A/demo.trace') if l.split()[:1] == ['0'] and len(l.split()) == 9]
assert [(c['call'], c['bytes']) for c in j['calls']] == [(r[1], int(r[4])) for r in rec]
assert {c['call'] for c in j['calls']} == {'bcast', 'reduce', 'allreduce', 'barrier', 'allgather'}
assert all(0 < c['hw'] < c['p2p'] for c in j['calls']), j['calls']"
printf '3\n2\n1\n0\n' >$A/map
check "replay with a rank-to-node map file" bash -c "build/tcnet topo=8x8x8 workload=trace trace=$A/demo.trace map=$A/map progress=off | grep -q 'replayed $calls calls'"
check "OTF2 round trip: torcoll trace -> OTF2 archive -> torcoll trace, the same records (op and type in attributes)" bash -c \
  "build/tcotf2 --write $A/demo.trace $A/otf2 && build/tcotf2 $A/otf2/traces.otf2 $A/back.trace &&
   diff <(awk 'NF == 9' $A/demo.trace) <(awk 'NF == 9' $A/back.trace)"
check "replay of the converted OTF2 trace: the same totals" bash -c \
  "diff <(build/tcnet topo=8x8x8 workload=trace trace=$A/back.trace progress=off | tail -n 3) <(tail -n 3 $A/replay.txt)"

# which path each reduction takes: the subnet's integer ALU, its floating-point sum or
# fmin/fmax keys, or point-to-point for what it cannot do (a user op, PROD, a pair type
# of mixed widths, 16-bit integers, an unknown type)
python3 - "$A/paths.trace" <<'PY'
import sys
calls = [("allreduce", -1, 8, "sum", "MPI_DOUBLE"), ("allreduce", -1, 16, "sum", "MPI_FLOAT"),
         ("allreduce", -1, 8, "max", "MPI_DOUBLE"), ("reduce", 0, 8, "minloc", "MPI_2INT"),
         ("allreduce", -1, 4, "bxor", "MPI_INT"), ("allreduce", -1, 64, "user", "MPI_DOUBLE"),
         ("allreduce", -1, 8, "prod", "MPI_DOUBLE"), ("allreduce", -1, 12, "minloc", "MPI_DOUBLE_INT"),
         ("allreduce", -1, 4, "sum", "MPI_SHORT"), ("allreduce", -1, 8, "sum", "unknown"), ("bcast", 0, 64, "-", "MPI_BYTE"),
         ("allreduce", -1, 16, "sum", "MPI_DOUBLE")]
with open(sys.argv[1], "w") as f:
    f.write("torcoll-trace 1\nranks 8\n")
    for r in range(8):
        for c in calls:
            f.write("%d %s 8 %d %d %s %s 1000 500\n" % (r, c[0], c[1], c[2], c[3], c[4]))
    f.write("end %d\n" % (8 * len(calls)))
PY
build/tcnet topo=2x2x2 workload=trace trace=$A/paths.trace progress=off json=$A/paths.json >$A/paths.txt 2>&1
check "replay: each reduction on the path the subnet can take, said per call and in sum" /usr/bin/python3 -c "
import json; j = json.load(open('$A/paths.json'))
want = ['subnet fsum', 'subnet fsum', 'subnet fmin/fmax', 'subnet int', 'subnet int'] + ['p2p'] * 5 + ['subnet', 'subnet fsum']
got = [c['path'] for c in j['calls']]
assert got == want, got
# 16 bytes of binary32 are 4 elements, of binary64 2: timed apart, not taken from one another
assert j['calls'][1]['hw'] > j['calls'][11]['hw'], (j['calls'][1], j['calls'][11])
assert all(c['hw'] == c['p2p'] for c in j['calls'] if c['path'] == 'p2p'), j['calls']
line = [l for l in open('$A/paths.txt') if 'where the calls ran' in l][0]
assert '1 on its trees' in line and '2 integer' in line and '3 floating-point sums' in line and '1 fmin/fmax' in line \
  and '5 reductions over point-to-point' in line and 'user MPI_DOUBLE' in line and 'sum MPI_SHORT' in line, line"

# malformed and truncated traces, both formats; bad keys (sim/lib.sh's refuses)
REFUSE_SECONDS=20
T="build/tcnet topo=4x4x4 workload=trace progress=off"
{ head -n 5 $A/demo.trace; sed -n 6p $A/demo.trace | cut -d' ' -f1-4 | tr -d '\n'; } >$A/cut.trace # 4 of a line's 9 fields
head -n 8 $A/demo.trace >$A/nolast.trace
sed '4s/ allreduce / allreduse /; 4s/ bcast / bcasd /' $A/demo.trace >$A/badcall.trace
sed '5s/^\([0-9]*\) \([a-z]*\) 4 /\1 \2 4 x /' $A/demo.trace >$A/fields.trace
awk 'NR == 4 { $5 = $5 + 8 } { print }' $A/demo.trace >$A/bytes.trace
sed '$d' $A/demo.trace | awk '{ print } END { print "end 3" }' >$A/count.trace
printf '0\n0\n' >$A/dupmap
check "trace: no trace= refused" refuses "workload = trace needs trace = FILE" $T
check "trace: a missing file refused" refuses "trace = '$A/none': No such file" $T trace=$A/none
check "trace: a truncated trace (cut mid-line) refused" refuses "fields, expected 9" $T trace=$A/cut.trace
check "trace: a truncated trace (no end line) refused" refuses "truncated: 5 records and no 'end' line" $T trace=$A/nolast.trace
check "trace: an unknown call refused" refuses "is none of bcast, reduce, allreduce, barrier, allgather" $T trace=$A/badcall.trace
check "trace: a line with a field too many refused" refuses ":5: 10 fields, expected 9" $T trace=$A/fields.trace
check "trace: ranks disagreeing on a call's bytes refused" refuses "call 1: rank" $T trace=$A/bytes.trace
check "trace: a wrong end count refused" refuses "the end line counts 3 records" $T trace=$A/count.trace
check "trace: a binary file refused" refuses "a NUL byte" $T trace=/dev/zero
check "trace: an OTF2 archive given to tcnet refused, pointing to tcotf2" refuses "convert it with build/tcotf2" \
  $T trace=$A/otf2/traces.otf2
check "trace: more ranks than nodes refused" refuses "4 ranks on a 2-node torus" build/tcnet topo=2 workload=trace trace=$A/demo.trace
check "trace: a map naming a node twice refused" refuses "'0' is a node given twice" $T trace=$A/demo.trace map=$A/dupmap
cp -r $A/otf2 $A/otf2cut && truncate -s 100 $A/otf2cut/traces/1.evt
check "OTF2: a truncated event file refused" refuses "reading the events (a truncated or damaged event file?)" \
  build/tcotf2 $A/otf2cut/traces.otf2 $A/x.trace
check "OTF2: not an archive refused" refuses "not an OTF2 archive" build/tcotf2 $A/demo.trace $A/x.trace
check "OTF2: a malformed torcoll trace refused by --write" refuses "truncated" build/tcotf2 --write $A/nolast.trace $A/o
check "spmv on a torus of 3 nodes (no power of two): recursive doubling folds, Bruck and the ring run" bash -c \
  "build/tcnet topo=3 workload=spmv spmv_n=3000 progress=off | grep -c 'p2p \(recursive_doubling\|bruck\|ring\) .*simulated' | grep -qx 3"
check "spmv with p2p_alg=classic refused" refuses "p2p_alg = classic: workload = spmv times the MPI algorithms" \
  build/tcnet workload=spmv impl=p2p p2p_alg=classic
check "heat with sw_overhead refused" refuses "sw_overhead = 500: workload = heat times the MPI algorithms" \
  build/tcnet workload=heat sw_overhead=500
check "trace with p2p_alg refused" refuses "p2p_alg = auto: workload = trace replays with the classic set" \
  build/tcnet workload=trace impl=p2p p2p_alg=auto trace=$A/demo.trace
check "exact=maybe refused" refuses "exact = 'maybe' is not one of" build/tcnet workload=spmv exact=maybe
check "hw_rate=0 refused" refuses "hw_rate = '0' is not an integer in 1..1000" build/tcnet workload=spmv hw_rate=0
check "csv with an application refused" refuses "csv: workload = heat writes json only" build/tcnet workload=heat csv=$A/c
echo "apps tests: $PASSED passed, $FAILED failed"
