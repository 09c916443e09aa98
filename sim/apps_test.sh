#!/usr/bin/env bash
# make test's part for the applications and the trace replay (docs/applications.md):
# SpMV's all-gather delivers every part everywhere, the steady-state models within their
# stated error of exact runs, the baseline's all-gather the fastest or the library's pick,
# the heat equation's figures consistent, the PMPI recorder's trace replayed with its calls
# and bytes, its long reductions striped as tcnet's, its point-to-point side at the LogGP
# costs throughout, the OTF2 round trip, real Score-P archives converted and replayed (a
# coverage test's collectives checked against the program and Score-P's own counts), and
# malformed or truncated traces and bad keys refused with a message naming the problem.
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh
A=build/apps-test
rm -rf $A && mkdir -p $A

# write_trace FILE RANKS "CALL ROOT BYTES OP TYPE"...: a trace (cmodel/netsim/trace.h) in
# which every rank of the world makes these calls in order, each after 1000 ns of
# compute and taking 500
write_trace() {
  python3 - "$@" <<'PY'
import sys
path, n, calls = sys.argv[1], int(sys.argv[2]), [c.split() for c in sys.argv[3:]]
with open(path, "w") as f:
    f.write("torcoll-trace 1\nranks %d\n" % n)
    for r in range(n):
        for c in calls:
            f.write("%d %s %d %s %s %s %s 1000 500\n" % (r, c[0], n, *c[1:]))
    f.write("end %d\n" % (n * len(calls)))
PY
}
make -s build/tcnet build/libtcpmpi.so build/heat_mpi build/other_mpi build/tcotf2 build/fcoll_f77 build/fcoll_mpi build/fcoll_f08 >$A/build.log 2>&1 || { cat $A/build.log; echo "FAIL  build"; exit 1; }

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
   build/tcnet topo=4x4x2x2 workload=spmv p2p_alg=mpich progress=off | grep -q \"all-gather p2p: ring (p2p_alg = mpich, the library's ring\""
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
rec() { TC_TRACE=$1 mpirun $root --oversubscribe -np "$2" -x LD_PRELOAD=$PWD/build/libtcpmpi.so -x TC_TRACE "${@:3}"; }
check "heat_mpi under mpirun, 4 ranks, recorded by libtcpmpi" bash -c "$(declare -f rec); root=$root; rec $A/demo.trace 4 build/heat_mpi 64 20 && grep -q '^end ' $A/demo.trace"
colls=$(awk '$1 == "0" && NF == 9 && $2 !~ /^(i?send|i?recv|wait)$/' $A/demo.trace | wc -l)
msgs=$(awk 'NF == 9 && $2 ~ /^i?send$/' $A/demo.trace | wc -l)
bytes=$(awk '$1 == "0" && NF == 9 && $2 !~ /^(i?send|i?recv|wait)$/ { s += $5 } END { print s + 0 }' $A/demo.trace)
build/tcnet topo=8x8x8 workload=trace trace=$A/demo.trace progress=off json=$A/replay.json >$A/replay.txt 2>&1
check "replay has the recorded $colls collectives, $bytes bytes a rank, and the $msgs messages of MPI_Sendrecv" \
  /usr/bin/python3 -c "
import json; j = json.load(open('$A/replay.json'))
assert j['replayed'] == $colls == len(j['calls']) and j['bytes'] == $bytes and j['messages'] == $msgs > 0, j
rec = [l.split() for l in open('$A/demo.trace') if l.split()[:1] == ['0'] and len(l.split()) == 9 and l.split()[1] not in ('send', 'recv')]
assert [(c['call'], c['bytes']) for c in j['calls']] == [(r[1], int(r[4])) for r in rec]
assert {c['call'] for c in j['calls']} == {'bcast', 'reduce', 'allreduce', 'barrier', 'allgather'}
assert all(0 < c['hw'] < c['p2p'] for c in j['calls']), j['calls']
assert j['msg_hw'] > 0 and j['kinds']['messages']['calls'] == $msgs, j
# the baseline's algorithm named per call and counted per kind; its costs given
algs = {'binomial', 'linear', 'scatter_rd', 'scatter_ring', 'recursive_doubling', 'rabenseifner', 'ring', 'reduce_bcast',
        'bruck', 'dissemination', 'tree', 'knomial'}
assert all(c['p2p_alg'] in algs for c in j['calls']), j['calls']
for kind, k in j['kinds'].items():
    want = {a: sum(c['p2p_alg'] == a for c in j['calls'] if c['call'] == kind) for a in algs}
    assert k['p2p_algs'] == {a: n for a, n in want.items() if n}, (kind, k)
    if kind != 'messages':  # each kind's times and paths: the sums over its calls
        mine = [c for c in j['calls'] if c['call'] == kind]
        assert (k['calls'], k['hw'], k['p2p']) == (len(mine), sum(c['hw'] for c in mine), sum(c['p2p'] for c in mine)), (kind, k)
        assert k['paths'] == {p: sum(c['path'] == p for c in mine) for p in {c['path'] for c in mine}}, (kind, k)
assert j['p2p_costs'] == {'o': 750, 'g': 500, 'red_mcyc': 0}, j['p2p_costs']
txt = open('$A/replay.txt').read()
rows = [l.split() for l in txt.splitlines() if l.split()[:1] and l.split()[0].isdigit()]
assert [r[-1] for r in rows] == [c['p2p_alg'] for c in j['calls']], rows
assert 'by the fastest MPI algorithm for each (o 750, g 500 cycles, reduction 0/1000 cycles a flit)' in txt, txt"
printf '3\n2\n1\n0\n' >$A/map
check "replay with a rank-to-node map file" bash -c "build/tcnet topo=8x8x8 workload=trace trace=$A/demo.trace map=$A/map progress=off | grep -q 'replayed $colls collectives'"

# Fortran: the same program through mpif.h, use mpi and use mpi_f08 records the same
# calls (sub-communicators, nonblocking, messages, alltoall, gather, scan, a
# 0-byte bcast, persistent messages, one-sided calls between fences); its replay
# keeps each group on its own tree and names what ran over point-to-point
fcalls="bcast allreduce iallreduce wait allreduce barrier allreduce irecv isend wait wait send recv alltoall gather scan reduce_scatter_block bcast"
fcalls="$fcalls isend irecv wait wait MPI_Win_create MPI_Win_fence MPI_Put MPI_Win_fence MPI_Get MPI_Win_fence MPI_Win_free"
for b in f77 mpi f08; do
  check "Fortran ($b binding) recorded: rank 0's 29 calls in order, every rank's" bash -c "$(declare -f rec); root=$root;
    rec $A/f_$b.trace 4 build/fcoll_$b | grep -q 'fcoll ok' &&
    [ \"\$(awk '\$1 == 0 && NF == 9 { printf \"%s \", \$2 }' $A/f_$b.trace)\" = '$fcalls ' ] &&
    [ \$(awk 'NF == 9' $A/f_$b.trace | wc -l) = 116 ] && [ \$(grep -c '^comm ' $A/f_$b.trace) = 6 ] &&
    awk 'NF == 9 && \$2 ~ /^MPI_(Put|Get)\$/ && (\$5 != 4 || \$7 != \"MPI_INTEGER\") { exit 1 }' $A/f_$b.trace"
done
check "the three Fortran bindings' traces are the same calls" bash -c \
  "diff <(awk 'NF == 9 { print \$1, \$2, \$3, \$4, \$5, \$6, \$7 }' $A/f_f77.trace) <(awk 'NF == 9 { print \$1, \$2, \$3, \$4, \$5, \$6, \$7 }' $A/f_mpi.trace) &&
   diff <(awk 'NF == 9 { print \$1, \$2, \$3, \$4, \$5, \$6, \$7 }' $A/f_f77.trace) <(awk 'NF == 9 { print \$1, \$2, \$3, \$4, \$5, \$6, \$7 }' $A/f_f08.trace)"
build/tcnet topo=4x4 workload=trace trace=$A/f_f08.trace progress=off json=$A/f.json >$A/f.txt 2>&1
check "replay of the Fortran trace: sub-communicators on trees of their own, 1-rank and 0-byte calls local, messages, the rest named" \
  /usr/bin/python3 -c "
import json; j = json.load(open('$A/f.json')); k = j['kinds']
halves = [c for c in j['calls'] if c['ranks'] == 2]
assert len(halves) == 4 and all(c['path'].startswith('subnet') for c in halves), j['calls']
assert j['trees'] == 3, j['trees']                     # the world and the two halves
assert k['allreduce']['paths']['local'] == 4 and k['bcast']['paths']['local'] == 1, k
assert k['bcast']['paths'].get('local') == 1 and k['bcast']['calls'] == 2, k
assert k['messages']['calls'] == 12 and k['messages']['bytes'] == 4 * 4 + 4 * 8 + 4 * 4, k
assert {n: (c['calls'], c['bytes']) for n, c in j['unmodelled'].items()} == {'MPI_Win_create': (4, 0),
  'MPI_Win_fence': (12, 0), 'MPI_Put': (4, 16), 'MPI_Get': (4, 16), 'MPI_Win_free': (4, 0)}, j['unmodelled']
assert set(j['p2p_named']) == {'alltoall', 'gather', 'scan'}, j['p2p_named']
assert k['reduce_scatter_block']['paths']['subnet int'] == 1, k
assert [k[c]['p2p_algs'] for c in ('alltoall', 'gather', 'scan', 'reduce_scatter_block')] == \
  [{'pairwise': 1}, {'linear': 1}, {'recursive_doubling': 1}, {'ring': 1}], k"
# What the replay does not model is recorded by name and counted, never dropped
# (tb/mpi/other_mpi.c on a ring of 4): persistent sends and receives started 4 times
# are isends and irecvs with their waits, the probed and matched-probed messages sends
# and recvs (24 messages in all); probes, one-sided calls and the neighbourhood
# allgathers are records of their own, named, counted in the report with their bytes
# (the completions of an MPI_Rget and an MPI_Ineighbor_allgather as MPI_Wait)
ocalls="$(printf 'isend irecv wait wait %.0s' 1 2 3)irecv isend wait wait send MPI_Probe recv send MPI_Mprobe recv MPI_Win_create MPI_Win_fence MPI_Put MPI_Win_fence MPI_Get MPI_Win_fence MPI_Win_lock MPI_Accumulate MPI_Rget MPI_Wait MPI_Win_unlock MPI_Win_free MPI_Neighbor_allgather MPI_Ineighbor_allgather MPI_Wait allreduce"
check "other_mpi recorded on 4 ranks: persistent messages, probes, mprobe/mrecv, one-sided, neighbourhood, each rank's 38 calls in order" bash -c "$(declare -f rec); root=$root;
  rec $A/other.trace 4 build/other_mpi | grep -q 'other ok' &&
  for r in 0 1 2 3; do [ \"\$(awk -v r=\$r '\$1 == r && NF == 9 { printf \"%s \", \$2 }' $A/other.trace)\" = '$ocalls ' ] || exit 1; done &&
  awk 'NF == 9 && \$2 ~ /^i?send\$/ && (\$4 != (\$1 + 1) % 4) { exit 1 }' $A/other.trace &&
  awk 'NF == 9 && \$2 ~ /^(i?recv|MPI_Probe|MPI_Mprobe|MPI_Get)\$/ && (\$4 != (\$1 + 3) % 4) { exit 1 }' $A/other.trace &&
  awk 'NF == 9 && \$2 ~ /^(MPI_Win_lock|MPI_Win_unlock|MPI_Accumulate|MPI_Rget)\$/ && (\$4 != (\$1 + 1) % 4) { exit 1 }' $A/other.trace &&
  awk 'NF == 9 && \$2 == \"MPI_Accumulate\" && (\$5 != 16 || \$6 != \"sum\") { exit 1 }' $A/other.trace &&
  awk 'NF == 9 && \$2 == \"MPI_Put\" && (\$4 != (\$1 + 1) % 4 || \$5 != 16 || \$7 != \"MPI_DOUBLE\") { exit 1 }' $A/other.trace &&
  [ \"\$(awk 'NF == 9 && /^. i?(send|recv) / { print \$5 }' $A/other.trace | sort | uniq -c | tr -s ' ' | tr '\n' ,)\" = ' 8 24, 32 64, 8 8,' ]"
build/tcnet topo=4x4 workload=trace trace=$A/other.trace progress=off json=$A/other.json >$A/other.txt 2>&1
check "replay of other_mpi: its 24 messages replayed as messages, each call not modelled named with its count, bytes and recorded time" \
  /usr/bin/python3 -c "
import json; j = json.load(open('$A/other.json')); u = j['unmodelled']
assert j['messages'] == 24 and j['message_bytes'] == 16 * 64 + 4 * 8 + 4 * 24 and j['replayed'] == 1, j
want = {'MPI_Probe': (4, 0), 'MPI_Mprobe': (4, 0), 'MPI_Win_create': (4, 0), 'MPI_Win_fence': (12, 0), 'MPI_Put': (4, 64),
        'MPI_Get': (4, 48), 'MPI_Win_lock': (4, 0), 'MPI_Accumulate': (4, 64), 'MPI_Rget': (4, 48), 'MPI_Wait': (8, 0),
        'MPI_Win_unlock': (4, 0), 'MPI_Win_free': (4, 0), 'MPI_Neighbor_allgather': (4, 16), 'MPI_Ineighbor_allgather': (4, 16)}
assert {n: (c['calls'], c['bytes']) for n, c in u.items()} == want, u
assert all(c['recorded_ns'] > 0 for c in u.values()), u
rec = sum(int(l.split()[8]) for l in open('$A/other.trace') if len(l.split()) == 9 and l.split()[1].startswith('MPI_'))
assert sum(c['recorded_ns'] for c in u.values()) == rec, (u, rec)
txt = open('$A/other.txt').read()
assert '24 messages' in txt and '68 calls not modelled (their recorded time kept as compute)' in txt, txt
for n, (c, b) in want.items():
    row = [l.split() for l in txt.splitlines() if l.split()[:1] == [n]]
    assert len(row) == 1 and row[0][1:3] == [str(c), str(b)] and row[0][6:8] == ['not', 'modelled:'], (n, row)
    assert ' '.join(row[0][-7:]) == 'on the recording machine, kept as compute', row"
printf 'torcoll-trace 2\nranks 2\n0 MPI_Put 0 1 16 - MPI_DOUBLE 1 1\n1 MPI_Put 0 2 16 - MPI_DOUBLE 1 1\nend 2\n' >$A/badput.trace
check "a call not modelled whose target is not a rank refused, naming the line" \
  refuses "badput.trace:4: peer or target '2' is not in -1..1" build/tcnet topo=2 workload=trace trace=$A/badput.trace
check "OTF2 round trip: torcoll trace -> OTF2 -> torcoll trace, the same records (communicators, messages, nonblocking; not the calls the replay does not model)" bash -c \
  "build/tcotf2 --write $A/f_f08.trace $A/fotf2 && build/tcotf2 $A/fotf2/traces.otf2 $A/f_back.trace &&
   diff <(awk '(NF == 9 && \$2 !~ /^MPI_/) || /^comm/ { print \$1, \$2, \$3, \$4, \$5, \$6, \$7 }' $A/f_f08.trace) \
        <(awk 'NF == 9 || /^comm/ { print \$1, \$2, \$3, \$4, \$5, \$6, \$7 }' $A/f_back.trace)"
check "OTF2 round trip of the heat trace; its replay: the same collectives and messages, the collectives' times" bash -c \
  "build/tcotf2 --write $A/demo.trace $A/otf2 && build/tcotf2 $A/otf2/traces.otf2 $A/back.trace &&
   diff <(awk 'NF == 9 { print \$1, \$2, \$3, \$4, \$5, \$6, \$7 }' $A/demo.trace) <(awk 'NF == 9 { print \$1, \$2, \$3, \$4, \$5, \$6, \$7 }' $A/back.trace) &&
   build/tcnet topo=8x8x8 workload=trace trace=$A/back.trace progress=off json=$A/back.json >/dev/null &&
   /usr/bin/python3 -c \"
import json; a, b = json.load(open('$A/replay.json')), json.load(open('$A/back.json'))
assert all(a[k] == b[k] for k in ('replayed', 'messages', 'bytes', 'message_bytes', 'comm_hw', 'comm_p2p')), (a, b)\""

# a real Score-P archive (tb/otf2/README.md): its messages, the first gap from MPI_Init's
# end (not from tick 0), its local definitions' mappings applied
check "OTF2 from Score-P (a public ping-pong): 16 messages of 8355840 bytes, the first gap under a second, replayed" bash -c \
  "build/tcotf2 tb/otf2/scorep-ping-pong/traces.otf2 $A/scorep.trace &&
   [ \$(awk 'NF == 9 && \$2 == \"send\" { n++; b += \$5 } END { print n, b }' $A/scorep.trace | tr ' ' _) = 16_8355840 ] &&
   awk 'NF == 9 && \$8 >= 1e9 { exit 1 }' $A/scorep.trace &&
   build/tcnet topo=4x4 workload=trace trace=$A/scorep.trace progress=off | grep -q 'replayed 0 collectives .* and 16 messages'"

# a real Score-P archive with collectives (tb/otf2/README.md: SST/macro's MPI coverage test,
# 10 ranks): what the program does, from its source; what Score-P wrote, from otf2-print
X=tb/otf2/scorep-mpi-coverage/traces.otf2
check "OTF2 from Score-P (SST/macro's MPI coverage test) converted" build/tcotf2 $X $A/cov.trace
{ otf2-print -G $X && otf2-print $X; } >$A/cov.print 2>&1
# the collectives' bytes a rank by Score-P's counts: a COMM's GROUP has N members (COMM_SELF:
# 1); allreduce, allgather, alltoall send and receive N blocks, bcast and scatter receive
# one, gather and reduce send one; a location is a rank
# otf2-print's GROUP and COMM lines: n[group] its members (COMM_SELF: 1), grp[comm] its group
SCOREP_GROUPS='$1 == "GROUP" { match($0, /Type: [A-Z_]*/); t = substr($0, RSTART + 6, RLENGTH - 6)
                 match($0, /[0-9]+ Members/); n[$2] = t == "COMM_SELF" ? 1 : substr($0, RSTART, RLENGTH - 8) + 0 }
 $1 == "COMM" { match($0, /Group: "[^"]*" <[0-9]+>/); g = substr($0, RSTART, RLENGTH); sub(/.*</, "", g); sub(/>/, "", g); grp[$2] = g }'
awk "$SCOREP_GROUPS"'
     $1 == "MPI_COLLECTIVE_END" {
       match($0, /Operation: [A-Z_]*/); op = substr($0, RSTART + 11, RLENGTH - 11)
       match($0, /Communicator: "[^"]*" <[0-9]+>/); c = substr($0, RSTART, RLENGTH); sub(/.*</, "", c); sub(/>/, "", c)
       match($0, /Sent: [0-9]+/); s = substr($0, RSTART + 6, RLENGTH - 6) + 0
       match($0, /Received: [0-9]+/); r = substr($0, RSTART + 10, RLENGTH - 10) + 0
       N = n[grp[c]]
       b = op ~ /^ALL/ ? s / N : op == "BCAST" || op == "SCATTER" ? r : op == "GATHER" || op == "REDUCE" ? s : op == "BARRIER" ? 0 : -1
       print $2, tolower(op), b }' $A/cov.print | sort -s -k1,1n >$A/cov.want
awk 'NF == 9 && $2 !~ /^(i?send|i?recv|wait|MPI_.*)$/ { print $1, $2, $5 }' $A/cov.trace | sort -s -k1,1n >$A/cov.got
check "Score-P's collectives: 1200, each rank's bytes in order as Score-P's counts in otf2-print give them (its sizeSent/Received and the comm's size)" bash -c \
  "[ \$(wc -l <$A/cov.want) = 1200 ] && diff $A/cov.want $A/cov.got"
# the program: on each of its 3 communicators a rank calls gather, scatter, reduce and bcast
# of 1 MPI_INT, and allgather, alltoall and allreduce of 1, 2, 4 ... 2048
all=$((10 * 3 * 4 * 4095)); one=$((10 * 3 * 4))
check "Score-P's collectives as the program makes them: bytes a rank 4 x count (alls $all bytes in 360 calls, the rooted ones $one in 30)" \
  test "$(awk '{ n[$2]++; b[$2] += $3 } END { for (k in n) print k, n[k], b[k] }' $A/cov.got | sort | tr '\n' ' ')" = \
  "allgather 360 $all allreduce 360 $all alltoall 360 $all bcast 30 $one gather 30 $one reduce 30 $one scatter 30 $one "
# the communicators: world, MPI_Comm_split(world, rank % 6) (its two-rank groups defined in
# rank order; ranks 4 and 5 alone), a split of that (every rank alone): 40 calls on each
check "Score-P's communicators: the split's four pairs and every rank alone defined, each rank's 40 collectives on each of its 3" awk '
  $1 == "comm" { m = ""; for (i = 4; i <= NF; i++) m = m " " $i; mem[$2] = mem[$2] m; size[$2] = $3 }
  NF == 9 && $2 !~ /^(i?send|i?recv|wait|MPI_.*)$/ { r = $1
    s1 = ""; for (j = 0; j < 10; j++) if (j % 6 == r % 6) s1 = s1 " " j
    k = $3 == 0 ? "world" : mem[$3] == s1 && s1 != " " r ? "split" : mem[$3] == " " r ? "self" : "other " $3
    n[r " " k]++ }
  END { for (c in size) if (size[c] == 2) { split(mem[c], p, " "); if (p[1] > 3 || p[2] != p[1] + 6) exit 1; np++ } else if (size[c] != 1) exit 1
        if (np != 4) exit 1
        for (r = 0; r < 10; r++) if (n[r " world"] != 40 || n[r " split"] != (r % 6 < 4 ? 40 : 0) || n[r " self"] != (r % 6 < 4 ? 40 : 80)) exit 1
        for (k in n) if (k ~ /other/) exit 1 }' $A/cov.trace
# each rank's first gap: from its leaving MPI_Init (which takes 1.2 s) to its first MPI event
# (an isend), as the recorder's; not from the clock's offset (1.15-1.21 s before the isends)
# nor from tick 0 (about 2 x 10^6 s)
check "Score-P's first gaps: from each rank's leaving MPI_Init to its first MPI event, within a microsecond" bash -c \
  "join <(awk '/^CLOCK_PROPERTIES/ { for (i = 1; i <= NF; i++) if (\$i == \"Seconds:\") res = \$(i + 1) }
               \$1 == \"LEAVE\" && /Region: \"MPI_Init(_thread)?\"/ && !(\$2 in init) { init[\$2] = \$3 }
               \$1 ~ /^MPI_/ && !(\$2 in t) { t[\$2] = 1; printf \"%d %.0f\\n\", \$2, (\$3 - init[\$2]) / res * 1e9 }' $A/cov.print | sort) \
        <(awk 'NF == 9 && !(\$1 in t) { t[\$1] = 1; print \$1, \$8 }' $A/cov.trace | sort) |
   awk '{ n++; d = \$2 - \$3; if (d < -1000 || d > 1000 || \$3 <= 0 || \$3 > 1e6) bad = 1 } END { exit bad || n != 10 }'"
check "OTF2 without MPI_Init (tcotf2's own): each rank's first gap from the clock's offset, as the trace had it" bash -c \
  "diff <(awk 'NF == 9 && !(\$1 in t) { t[\$1] = 1; print \$1, \$2, \$8 }' $A/demo.trace) \
        <(awk 'NF == 9 && !(\$1 in t) { t[\$1] = 1; print \$1, \$2, \$8 }' $A/back.trace)"
# the replay: one collective an instance (a COMM_SELF call is one; a pair's, two ranks' ends one)
ncoll=$(awk "$SCOREP_GROUPS"'
             $1 == "MPI_COLLECTIVE_END" { match($0, /Communicator: "[^"]*" <[0-9]+>/); c = substr($0, RSTART, RLENGTH); sub(/.*</, "", c); sub(/>/, "", c)
                                          x += 1 / n[grp[c]] }
             $1 == "MPI_ISEND" || $1 == "MPI_SEND" { m++ }
             END { printf "%d %d", x + 0.5, m }' $A/cov.print)
check "Score-P's coverage test replayed: the archive's collectives and messages (${ncoll% *} and ${ncoll#* })" bash -c \
  "build/tcnet topo=4x4 workload=trace trace=$A/cov.trace progress=off | grep -q 'replayed ${ncoll% *} collectives .* and ${ncoll#* } messages'"

# which path each reduction takes: the subnet's integer ALU, its floating-point sum or
# fmin/fmax keys, or point-to-point for what it cannot do (a user op, PROD, a pair type
# of mixed widths, 16-bit integers, an unknown type)
write_trace $A/paths.trace 8 "allreduce -1 8 sum MPI_DOUBLE" "allreduce -1 16 sum MPI_FLOAT" "allreduce -1 8 max MPI_DOUBLE" \
  "reduce 0 8 minloc MPI_2INT" "allreduce -1 4 bxor MPI_INT" "allreduce -1 64 user MPI_DOUBLE" "allreduce -1 8 prod MPI_DOUBLE" \
  "allreduce -1 12 minloc MPI_DOUBLE_INT" "allreduce -1 4 sum MPI_SHORT" "allreduce -1 8 sum unknown" "bcast 0 64 - MPI_BYTE" \
  "allreduce -1 16 sum MPI_DOUBLE"
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
  and '5 over point-to-point' in line, line
named = [l for l in open('$A/paths.txt') if 'over point-to-point (' in l][0]
assert 'allreduce user MPI_DOUBLE x1' in named and 'allreduce sum MPI_SHORT x1' in named, named"

# the replay's point-to-point baseline is tcnet impl=p2p p2p_alg=auto's, the fastest MPI algorithm: each
# call's time and algorithm those of one operation of its workload, bytes and LogGP costs on the same nodes
# (8 ranks, the world of 2x2x2), at the default costs and at others (where bcast, allreduce pick apart)
write_trace $A/p2p.trace 8 "allreduce -1 8 sum MPI_DOUBLE" "allreduce -1 65536 sum MPI_DOUBLE" "allreduce -1 4096 prod MPI_DOUBLE" \
  "bcast 0 4096 - MPI_BYTE" "barrier -1 0 - -" "allgather -1 1024 - MPI_BYTE"
cat >$A/p2p_same.py <<'PY'
import json, subprocess, sys
A, want, costs = sys.argv[1], sys.argv[2], sys.argv[3:]   # want: the algorithms picked, or -
run = lambda *a: subprocess.run(["build/tcnet", "topo=2x2x2", "progress=off", *costs, *a], check=True,
                                stdout=subprocess.DEVNULL)
run("workload=trace", "trace=%s/p2p.trace" % A, "json=%s/p2p.json" % A)
j = json.load(open("%s/p2p.json" % A))
assert [c["call"] for c in j["calls"]] == ["allreduce"] * 3 + ["bcast", "barrier", "allgather"], j["calls"]
assert j["calls"][2]["path"] == "p2p", j["calls"][2]   # prod: over point-to-point in both runs
for c in j["calls"]:
    run("impl=p2p", "p2p_alg=auto", "workload=" + c["call"], *(["bytes=%d" % c["bytes"]] if c["bytes"] else []),
        "json=%s/one.json" % A)
    one = json.load(open("%s/one.json" % A))
    assert (c["p2p"], c["p2p_alg"]) == (one["latency_cycles"]["min"], one["p2p"]["alg"]), (c, one["p2p"])
    assert c["p2p"] == min(one["p2p"]["times"].values()), (c, one["p2p"])
got = ",".join(sorted({c["p2p_alg"] for c in j["calls"]}))
assert want in ("-", got), (want, got)
PY
check "replay's p2p times and algorithms are tcnet impl=p2p p2p_alg=auto's (default o, g)" \
  /usr/bin/python3 $A/p2p_same.py $A -
check "replay's p2p times and algorithms are tcnet impl=p2p p2p_alg=auto's (o=100 g=50 red_mcyc=2400)" \
  /usr/bin/python3 $A/p2p_same.py $A knomial,rabenseifner,recursive_doubling o=100 g=50 red_mcyc=2400

# A reduce's result goes on down its tree past the rank it is for: a replay that
# planned the next call's tree at once met it at node 7 (ERR_BAD_DIR) on 512 ranks;
# the subnet now runs on until it is empty before the next tree is planned.
write_trace $A/drain.trace 512 "reduce 3 65536 sum MPI_INT" "barrier -1 0 - -"
check "replay of a 64 KiB reduce to rank 3 then a barrier, 512 ranks on 8x8x8: no packet of the reduce meets the barrier's tree" \
  bash -c "build/tcnet topo=8x8x8 workload=trace trace=$A/drain.trace progress=off | grep -q 'replayed 2 collectives'"
# ... and until only the credit block's reports are left: they come every 4096 cycles,
# so with a report's round trip to the PE longer than that (EjLat 3000) the network is
# never quiet, and a drain that waited for quiet ran to max_cycles.
write_trace $A/drain_ej.trace 8 "reduce 3 4096 sum MPI_INT" "barrier -1 0 - -"
check "replay of a reduce then a barrier at EjLat 3000 (the reports never stop): drained, replayed" \
  bash -c "build/tcnet topo=2x2x2 ej_lat=3000 max_cycles=2000000 workload=trace trace=$A/drain_ej.trace progress=off | grep -q 'replayed 2 collectives'"

# A call the subnet would take longer runs over point-to-point, as a library tuned per
# size picks (a 64 KiB binary64 sum on 8 ranks: 8192 operations of one element, 2 flits,
# striped over the 16 trees); the subnet's own time is kept in the JSON and the text.
write_trace $A/slower.trace 8 "allreduce -1 65536 sum MPI_DOUBLE" "allreduce -1 8 sum MPI_DOUBLE"
build/tcnet topo=2x2x2 workload=trace trace=$A/slower.trace progress=off json=$A/slower.json >$A/slower.txt 2>&1
check "replay: the 64 KiB sum, slower on the subnet, over point-to-point; the 8-byte one on the subnet" /usr/bin/python3 -c "
import json; j = json.load(open('$A/slower.json')); long, short = j['calls']
assert long['path'] == 'p2p (subnet slower)' and long['hw'] == long['p2p'] < long['subnet'], long
assert short['path'] == 'subnet fsum' and short['hw'] == short['subnet'] < short['p2p'], short
assert j['kinds']['allreduce']['paths'] == {'subnet fsum': 1, 'p2p (subnet slower)': 1}, j['kinds']
txt = open('$A/slower.txt').read()
assert 'p2p (subnet slower): %d cycles there' % long['subnet'] in txt and 'allreduce (subnet slower) x1' in txt, txt"

# A reduction of more than one operation is striped as tcnet's long reductions: its
# operations dealt round the 16 trees planned over the group, 16 in flight on each. On 8
# ranks a 64 KiB integer allreduce (2048 operations of 2 flits) takes on the subnet what
# tcnet's allreduce bytes=65536 trees=16 window=256 takes from its first start to its
# last delivery, and beats point-to-point (on its one tree it took 76,671 cycles and ran
# over point-to-point); a reduce as well (its time: to its root's last result); a 64 KiB
# binary64 sum takes tcnet's fsum stripe and stays slower than point-to-point. A short
# allreduce after them runs on the group's own tree.
write_trace $A/long.trace 8 "allreduce -1 65536 sum MPI_LONG" "reduce 5 65536 sum MPI_LONG" \
  "allreduce -1 65536 sum MPI_DOUBLE" "allreduce -1 32 sum MPI_LONG"
build/tcnet topo=2x2x2 workload=trace trace=$A/long.trace progress=off json=$A/long.json >$A/long.txt 2>&1
build/tcnet topo=2x2x2 workload=allreduce bytes=65536 len=2 lane=64 trees=16 window=256 progress=off \
  csv=$A/long_int >/dev/null 2>&1
build/tcnet topo=2x2x2 workload=allreduce bytes=65536 op=fsum lane=64 values=uniform len=2 trees=16 window=256 \
  progress=off csv=$A/long_fsum >/dev/null 2>&1
build/tcnet topo=2x2x2 workload=allreduce bytes=65536 op=fsum fsum_pass=2 lane=64 values=uniform len=2 trees=16 \
  window=256 progress=off csv=$A/long_fsum2 >/dev/null 2>&1
check "replay: long reductions striped over the 16 trees, each as long as tcnet's stripe; their paths counted" /usr/bin/python3 -c "
import csv, json; j = json.load(open('$A/long.json')); ar, red, fsum, short = j['calls']
def span(f):  # tcnet's stripe: its first start to its last delivery
    ops = list(csv.DictReader(open('$A/%s.ops.csv' % f)))
    assert len(ops) == {'long_int': 2048, 'long_fsum': 8192, 'long_fsum2': 1024 + 4096}[f], len(ops)
    return max(int(o['end']) for o in ops) - int(ops[0]['start'])
assert ar['subnet'] == ar['hw'] == span('long_int') < ar['p2p'] and ar['path'] == 'subnet int', (ar, span('long_int'))
assert red['path'] == 'subnet int' and red['hw'] == red['subnet'] <= ar['subnet'] and red['hw'] < red['p2p'], red
# the sum's subnet time: the faster form, here the two passes (their span within 2 cycles: the gap between them)
assert abs(fsum['subnet'] - span('long_fsum2')) <= 2 and fsum['subnet'] < span('long_fsum'), (fsum, span('long_fsum2'))
assert fsum['subnet'] > fsum['p2p'] == fsum['hw'] and fsum['path'] == 'p2p (subnet slower)', fsum
assert short['path'] == 'subnet int' and short['hw'] < 1000, short
assert j['kinds']['allreduce']['paths'] == {'subnet int': 2, 'p2p (subnet slower)': 1}, j['kinds']
assert j['kinds']['reduce']['paths'] == {'subnet int': 1}, j['kinds']
line = [l for l in open('$A/long.txt') if 'where the calls ran' in l][0]
assert '3 integer reductions' in line and '1 over point-to-point, 1 of them because the subnet would take longer' in line, line"

# A long floating-point sum is timed in two passes too (the exponents' maximum, then a
# word a value: tcnet fsum_pass=2), and takes them where they are the faster: 256 KiB
# of doubles on 16 ranks, with o = 20000 so that the subnet wins over point-to-point.
write_trace $A/two.trace 16 "allreduce -1 262144 sum MPI_DOUBLE" "reduce 3 262144 sum MPI_DOUBLE" \
  "allreduce -1 64 sum MPI_DOUBLE"
build/tcnet topo=4x4 workload=trace trace=$A/two.trace red_flits=7 o=20000 progress=off json=$A/two.json >$A/two.txt 2>&1
build/tcnet topo=4x4 workload=allreduce bytes=262144 op=fsum fsum_pass=2 lane=64 values=uniform len=7 red_flits=7 \
  trees=16 window=256 progress=off csv=$A/two >/dev/null 2>&1
check "replay: a long binary64 sum in two passes where they are the faster, as long as tcnet fsum_pass=2's (within 2 cycles)" /usr/bin/python3 -c "
import csv, json; j = json.load(open('$A/two.json')); ar, red, short = j['calls']
ops = list(csv.DictReader(open('$A/two.ops.csv')))
span = max(int(o['end']) for o in ops) - int(ops[0]['start'])  # both passes, first start to last delivery
assert len(ops) == 1184 + 4682, len(ops)  # 32768 values: 28 exponents an operation (to 16 trees), then 7 words
assert ar['path'] == red['path'] == 'subnet fsum, two passes' and abs(ar['hw'] - span) <= 2 and ar['hw'] < ar['p2p'], (ar, span)
assert red['hw'] <= ar['hw'] and short['path'] == 'subnet fsum', (red, short)
line = [l for l in open('$A/two.txt') if 'where the calls ran' in l][0]
assert '3 floating-point sums (2 in two passes)' in line, line"

# Each call runs on a network of its own, from reset: 8 ranks spread over 8x8 reducing to
# two roots (trees rooted apart, over other routers) and allreducing. On one network the
# third call never completed: the routers of the trees planned before held other
# ReduceId turns than the new tree's others.
write_trace $A/roots.trace 8 "reduce 0 64 sum MPI_LONG" "allreduce -1 64 sum MPI_LONG" "reduce 5 64 sum MPI_LONG" \
  "reduce 5 64 sum MPI_LONG" "allreduce -1 64 sum MPI_LONG" "reduce 0 64 sum MPI_LONG"
printf '%s\n' 0 9 18 27 36 45 54 63 >$A/diagonal
check "replay: reduces to two roots and allreduces of 8 ranks spread over 8x8, each call's tree planned anew" bash -c \
  "build/tcnet topo=8x8 workload=trace trace=$A/roots.trace map=$A/diagonal max_cycles=1000000 progress=off |
   grep -q 'replayed 6 collectives'"

# One cost model over point-to-point: a message pays LogGP's o at its sender and at its
# receiver and leaves no sooner than g after its sender's last (rank 0 sends rank 1 two
# messages 500 cycles apart), an alltoall's step (2 ranks: one) an o to send and one to
# receive, as the MPI algorithms of p2p_coll.c pay them.
printf 'torcoll-trace 2\nranks 2\n%s\n%s\n%s\n%s\n%s\n%s\nend 6\n' "0 send 0 1 16 1 MPI_BYTE 1000 1" \
  "0 send 0 1 16 2 MPI_BYTE 1000 1" "0 alltoall 0 -1 16 - MPI_BYTE 1000 1" "1 recv 0 0 16 1 MPI_BYTE 1000 1" \
  "1 recv 0 0 16 2 MPI_BYTE 1000 1" "1 alltoall 0 -1 16 - MPI_BYTE 1000 1" >$A/loggp.trace
check "replay: messages and an alltoall pay o at each end and g between a rank's messages" /usr/bin/python3 -c "
import json, subprocess
def run(o, g):
    subprocess.run(['build/tcnet', 'topo=2', 'workload=trace', 'trace=$A/loggp.trace', 'progress=off', 'o=%d' % o,
                    'g=%d' % g, 'json=$A/loggp.json'], check=True, stdout=subprocess.DEVNULL)
    j = json.load(open('$A/loggp.json')); a = j['calls'][0]
    assert j['messages'] == 2 and j['msg_hw'] == j['msg_p2p'] and a['call'] == 'alltoall' and a['path'] == 'p2p', j
    return j['msg_p2p'], a['p2p']
(m0, a0), (mo, ao), (mg, ag) = run(0, 0), run(300, 0), run(0, 2000)
assert mo == m0 + 4 * 300 and ao == a0 + 2 * 300, (m0, mo, a0, ao)   # o at both ends of each message
assert mg == m0 + 2000 - 500 and ag == a0, (m0, mg, a0, ag)          # the second message waits g, less its gap"

# malformed and truncated traces, both formats; bad keys (sim/lib.sh's refuses)
REFUSE_SECONDS=20
T="build/tcnet topo=4x4x4 workload=trace progress=off"
{ head -n 5 $A/demo.trace; sed -n 6p $A/demo.trace | cut -d' ' -f1-4 | tr -d '\n'; } >$A/cut.trace # 4 of a line's 9 fields
head -n 8 $A/demo.trace >$A/nolast.trace
sed '4s/ allreduce / allreduse /; 4s/ bcast / bcasd /' $A/demo.trace >$A/badcall.trace
sed '5s/^\([0-9]*\) \([a-z]*\) 0 /\1 \2 0 x /' $A/demo.trace >$A/fields.trace
awk 'NR == 4 { $5 = $5 + 8 } { print }' $A/demo.trace >$A/bytes.trace
sed '$d' $A/demo.trace | awk '{ print } END { print "end 3" }' >$A/count.trace
printf '0\n0\n' >$A/dupmap
check "trace: no trace= refused" refuses "workload = trace needs trace = FILE" $T
check "trace: a missing file refused" refuses "trace = '$A/none': No such file" $T trace=$A/none
check "trace: a truncated trace (cut mid-line) refused" refuses "fields, expected 9" $T trace=$A/cut.trace
check "trace: a truncated trace (no end line) refused" refuses "truncated: 5 records and no 'end' line" $T trace=$A/nolast.trace
check "trace: an unknown call refused" refuses "call 'bcasd' is none of the collectives" $T trace=$A/badcall.trace
check "trace: a line with a field too many refused" refuses ":5: 10 fields, expected 9" $T trace=$A/fields.trace
# (the replay meets the members' records in simulated time, which follows the recorded
# gaps: either side of the disagreement may be named first)
check "trace: ranks disagreeing on a call's bytes refused, naming both" bash -c \
  "out=\$($T trace=$A/bytes.trace 2>&1); rc=\$?; echo \"\$out\" | tail -3; [ \$rc -ne 0 ] &&
   echo \"\$out\" | grep -qE \"collective 1 on communicator 0 is a bcast \\(root 0, (24|16) bytes\\); line [0-9]+: another member's a bcast \\(root 0, (16|24) bytes\\)\" &&
   echo \"\$out\" | grep -q '24 bytes' && echo \"\$out\" | grep -q '16 bytes'"
sed 's/^3 barrier [0-9]* /3 barrier 17179869185 /' $A/f_f08.trace >$A/nosub.trace # rank 3 alone, not with rank 1
# rank 2's send made a call not modelled (the later records' indices kept for their waits)
awk '$1 == 2 && $2 == "send" && !done++ { $2 = "MPI_Iprobe"; $4 = -1; $5 = 0; $6 = $7 = "-" } { print }' $A/f_f08.trace >$A/nosend.trace
sed '1s/ 2$/ 3/' $A/f_f08.trace >$A/v3.trace
check "trace: a member missing from a sub-communicator's collective refused, naming the line" refuses \
  "rank 1's barrier on communicator 8589934593 never completes: rank 3 makes no more collectives on it" \
  $T trace=$A/nosub.trace
check "trace: a receive with no send refused, naming the line" refuses "rank 3's recv on communicator 0 never completes: no rank sends" \
  $T trace=$A/nosend.trace
check "trace: a newer format refused" refuses "torcoll-trace 3: a newer format than this reader's" $T trace=$A/v3.trace
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
  build/tcnet workload=spmv p2p_alg=classic
check "spmv with impl refused: it times both networks" \
  refuses "impl = 'p2p' does not apply to workload = spmv: impl is for workload = bcast, reduce, allreduce, barrier, tree_barrier, allgather" \
  build/tcnet workload=spmv impl=p2p
check "heat with sw_overhead refused" refuses "sw_overhead = '500' does not apply to workload = heat: sw_overhead is for workload = bcast, reduce, allreduce, barrier, tree_barrier, allgather" \
  build/tcnet workload=heat sw_overhead=500
check "trace with sw_overhead refused: every point-to-point call pays o and g" refuses "sw_overhead = '500' does not apply to workload = trace: sw_overhead is for workload = bcast, reduce, allreduce, barrier, tree_barrier, allgather" \
  build/tcnet workload=trace sw_overhead=500 trace=$A/demo.trace
check "trace with p2p_alg refused" refuses "p2p_alg = 'auto' does not apply to workload = trace: p2p_alg is for workload = bcast, reduce, allreduce, barrier, tree_barrier, allgather, spmv, heat" \
  build/tcnet workload=trace p2p_alg=auto trace=$A/demo.trace
check "exact=maybe refused" refuses "exact = 'maybe' is not one of" build/tcnet workload=spmv exact=maybe
check "hw_rate=0 refused" refuses "hw_rate = '0' is not an integer in 1..1000" build/tcnet workload=spmv hw_rate=0
check "csv with an application refused" refuses "csv = '$A/c' does not apply to workload = heat: csv is for workload = bcast, reduce, allreduce, barrier, tree_barrier, allgather" \
  build/tcnet workload=heat csv=$A/c
echo "apps tests: $PASSED passed, $FAILED failed"
