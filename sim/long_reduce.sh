#!/usr/bin/env bash
# Long allreduces: B bytes a PE, cut into operations by the PE library and dealt round
# the planner's 16 trees (tcnet trees=16 window=256, 16 in flight on each tree), on
# the subnet (integer sum, 7 data flits an operation; binary64 fsum, 3 values of 2
# flits an operation, and in two passes, 28 exponents then 7 words an operation; each
# with 1 Reducer slice, the default, and with 4) against the
# fastest point-to-point algorithm (tcnet impl=p2p
# p2p_alg=auto: recursive doubling, Rabenseifner, ring, reduce + broadcast at LogGP
# defaults, the arithmetic free; simulated where that takes minutes, and at every size by
# its steady-state model, checked against the simulation where both are). Writes
# docs/long-reduce.md. Part of make bench: about 3 hours on 2 busy cores, most of it the
# point-to-point simulation at 1 MiB and the subnet at 16 MiB and on 8x8x8x8 at 1 MiB.
#   LONG_SIZES  the sizes (default "8 1024 16384 65536 262144 1048576 4194304 16777216")
#   LONG_TORI   the tori (default "16x16"); LONG_BIG: the sizes on 8x8x8x8 as well
#               (default "65536 1048576")
#   LONG_P2P_WORK  point-to-point simulated where bytes x nodes is at most this (default
#               2^28: 1 MiB on 16x16, about 40 minutes there; its packet model grows with
#               the bytes and the nodes); its model at every size
#   LONG_ONE_SLICE_WORK  the subnet with one Reducer slice where bytes x nodes is at
#               most this (default 2^30: 4 MiB on 16x16, whose rate one slice reaches
#               from 256 KiB on); four slices at every size
#   LONG_REUSE=1  keep the runs build/long_reduce/rows.tsv has, run the others
set -eu
cd "$(dirname "$0")/.."
source sim/lib.sh
make -s build/tcnet build/gen_params
eval "$(build/gen_params sh)" # the defaults (cmodel/params.def): TC_LINK_LAT ...
SIZES=${LONG_SIZES:-8 1024 16384 65536 262144 1048576 4194304 16777216}
TORI=${LONG_TORI:-16x16}
BIG=${LONG_BIG-65536 1048576}
P2P_WORK=${LONG_P2P_WORK:-268435456}
ONE_WORK=${LONG_ONE_SLICE_WORK:-1073741824}
out=build/long_reduce
mkdir -p $out
rows=$out/rows.tsv
[ "${LONG_REUSE:-0}" = 1 ] && touch "$rows" || : >"$rows"

# run NAME TOPO BYTES ARGS...: appends "name topo bytes cycles link_rate extra" to $rows
i=0 N=$((8 * ($(wc -w <<<"$SIZES") * $(wc -w <<<"$TORI") + $(wc -w <<<"$BIG")) + 1)) # the runs below (at most)
run() {
  local name=$1 topo=$2 bytes=$3 json=$out/$1_$2_$3.json res
  shift 3
  i=$((i + 1))
  grep -q "^$name $topo $bytes " "$rows" && return 0
  progress "tcnet $name topo=$topo bytes=$bytes ($i of $N)"
  res=$(nice build/tcnet topo=$topo workload=allreduce bytes=$bytes progress=off json=$json "$@") ||
    { echo "long_reduce.sh: tcnet topo=$topo bytes=$bytes $* failed" >&2; echo "$res" >&2; exit 1; }
  local cyc rate alg
  cyc=$(grep -o '"cycles": [0-9]*' $json | cut -d' ' -f2)
  rate=$(awk -v b=$bytes -v c=$cyc 'BEGIN { printf "%.4f", b / (16 * c) }')
  alg=$(grep -o '"alg": "[a-z_]*"' $json | cut -d'"' -f4 || true)
  echo "$name $topo $bytes $cyc $rate ${alg:--}" >>"$rows"
  progress "$name $topo $bytes: $cyc cycles, $rate of a link's rate ${alg:+($alg)}"
}

HW="trees=16 window=256"
# size TOPO BYTES: every run of one row
size() {
  local topo=$1 b=$2 work=$(($2 * $(tr x '*' <<<"$1")))
  # a short vector in one shorter operation, as a library would send it
  local ls=$(((b + 15) / 16)) lf=$((2 * ((b + 7) / 8))) lw=$(((b + 7) / 8)) k
  for k in 1 4; do
    [ $k = 1 ] && [ $work -gt "$ONE_WORK" ] && continue
    run sum$k $topo $b $HW len=$((ls < 7 ? ls : 7)) red_flits=7 red_slices=$k
    run fsum$k $topo $b $HW op=fsum lane=64 values=uniform len=$((lf < 6 ? lf : 6)) red_flits=6 red_slices=$k
    run fsumtwo$k $topo $b $HW op=fsum fsum_pass=2 lane=64 values=uniform len=$((lw < 7 ? lw : 7)) red_flits=7 \
      red_slices=$k
  done
  # the binary64 sum with half the operations in flight: its rate against Little's law;
  # and with four times as many (64 ReduceIds a tree)
  if [ $topo = 16x16 ] && [ $b = 1048576 ]; then
    run fsumhalf4 $topo $b trees=16 window=128 op=fsum lane=64 values=uniform len=6 red_flits=6 red_slices=4
    run fsumrids4 $topo $b trees=16 window=1024 red_rids=64 op=fsum lane=64 values=uniform len=6 red_flits=6 \
      red_slices=4
  fi
  if [ $work -le "$P2P_WORK" ]; then run p2p $topo $b impl=p2p p2p_alg=auto; fi
  run p2pm $topo $b impl=p2p p2p_alg=auto p2p_model=1
}
for b in $BIG; do size 8x8x8x8 $b; done
for topo in $TORI; do
  for b in $SIZES; do size $topo $b; done
done

stage docs/long-reduce.md
# the mean latency of an operation of the binary64 sum, four slices, 1 MiB on 16x16 (its run's JSON)
lat=$(grep -o '"mean": [0-9.]*' $out/fsum4_16x16_1048576.json 2>/dev/null | cut -d' ' -f2 || :)
awk -v LAT="$lat" -v IS=$TC_INJ_SLOTS -v L=$TC_LINK_LAT -v PI=$TC_INJ_LAT -v PE=$TC_EJ_LAT -v P2P=$P2P_WORK -v ONE=$ONE_WORK '
function size(b) { return b >= 1048576 ? b / 1048576 " MiB" : b >= 1024 ? b / 1024 " KiB" : b " B" }
function pow2(x) { return sprintf("2^%d", log(x) / log(2) + 0.5) }
{ c[$1, $2, $3] = $4; r[$1, $2, $3] = $5; a[$1, $2, $3] = $6
  if (!(($2, $3) in seen)) { seen[$2, $3] = 1; key[++n] = $2 " " $3 } }
END {
  print "# Long allreduces against point-to-point (generated by sim/long_reduce.sh)\n"
  print "`build/tcnet workload=allreduce bytes=B trees=16 window=256`: every PE contributes B"
  print "bytes, which its library cuts into operations and deals round the planner'"'"'s 16 trees"
  print "(operation i on tree i mod 16, 16 in flight on each tree, [simulator.md](simulator.md)):"
  print "an integer sum in operations of 7 data flits (`len=7 red_flits=7`, 112 bytes each), and"
  print "a binary64 sum in binned elements (`op=fsum lane=64 values=uniform len=6 red_flits=6`,"
  print "3 values in 6 flits, 24 bytes, [fpsum.md](fpsum.md)) and in two passes (`fsum_pass=2 len=7"
  print "red_flits=7`: the exponents'"'"' maximum, 28 an operation, then a 128-bit fixed-point word a"
  print "value, 7 an operation, [fpsum.md](fpsum.md#two-passes-for-long-vectors)), each with the Reducer of one slice (the"
  print "default) and of four (`red_slices=4`: four Reducers, each over 4 of the trees,"
  print "[microarchitecture.md](microarchitecture.md)). Link rate: B / (16 x cycles),"
  print "the fraction of one link'"'"'s 16 bytes a cycle. Point-to-point: `impl=p2p p2p_alg=auto`,"
  print "the fastest of the MPI libraries'"'"' algorithms at the default LogGP costs, its arithmetic"
  print "free and not reproducible ([p2p.md](p2p.md)). It is simulated packet by packet where bytes x nodes"
  print "is at most " pow2(P2P) " (1 MiB on 16x16, about 40 minutes there; the time grows with the bytes and the"
  print "nodes), and timed at every size by its steady-state model (`p2p_model=1`: each step o, one"
  print "packet'"'"'s latency and the step'"'"'s busiest channel at a flit a cycle, [p2p.md](p2p.md)), whose error"
  print "against the simulation is given where both ran. The subnet with one Reducer slice runs where"
  print "bytes x nodes is at most " pow2(ONE) " (4 MiB on 16x16; one slice'"'"'s rate is flat from 256 KiB), with"
  print "four at every size; - where a run is left out. Defaults otherwise (LinkLat " L ", InjLat " PI ", EjLat " PE ").\n"
  print "| torus | bytes a PE | integer sum, 1 slice: cycles | link rate | 4 slices: cycles | link rate | binary64 fsum, 1 slice: cycles | link rate | 4 slices: cycles | link rate | fsum in two passes, 1 slice: cycles | link rate | 4 slices: cycles | link rate | point-to-point, simulated: cycles | link rate | its algorithm | point-to-point, model: cycles | link rate | its algorithm | model error |"
  print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  split("sum1 sum4 fsum1 fsum4 fsumtwo1 fsumtwo4 p2p p2pm", col, " ")
  lo = 1e9; hi = -1e9
  for (i = 1; i <= n; i++) {
    split(key[i], k, " "); t = k[1]; b = k[2]
    line = "| " t " | " size(b)
    for (j = 1; j <= 8; j++) {
      nm = col[j]
      if ((nm, t, b) in c) line = line sprintf(" | %d | %.3g%%", c[nm, t, b], 100 * r[nm, t, b])
      else line = line " | - | -"
      if (j == 7) line = line " | " (((nm, t, b) in a) ? a[nm, t, b] : "-")
    }
    line = line " | " ((("p2pm", t, b) in a) ? a["p2pm", t, b] : "-")
    if ((("p2p", t, b) in c) && (("p2pm", t, b) in c)) {
      e = 100 * (c["p2pm", t, b] - c["p2p", t, b]) / c["p2p", t, b]
      lo = e < lo ? e : lo; hi = e > hi ? e : hi
      line = line sprintf(" | %+.1f%% |", e)
    } else line = line " | - |"
    print line
  }
  print ""
  # where each subnet column is slower than point-to-point: simulated where it ran, else its model
  for (j = 1; j <= 6; j++) {
    nm = col[j]; lose[nm] = ""
    for (i = 1; i <= n; i++) {
      split(key[i], k, " "); q = (("p2p", k[1], k[2]) in c) ? "p2p" : "p2pm"
      if (((nm, k[1], k[2]) in c) && ((q, k[1], k[2]) in c) && c[q, k[1], k[2]] < c[nm, k[1], k[2]])
        lose[nm] = lose[nm] (lose[nm] == "" ? "" : ", ") k[1] " at " size(k[2]) (q == "p2pm" ? " (model)" : "")
    }
  }
  for (j = 1; j <= 6; j++) {
    nm = col[j]
    what[j] = (nm ~ /^sum/ ? "the integer sum" : nm ~ /two/ ? "the binary64 sum in two passes" : "the binary64 sum") \
              " with " (nm ~ /1$/ ? "1 slice " : "4 slices ") (lose[nm] == "" ? "nowhere here" : "on " lose[nm])
  }
  print "Slower than point-to-point (simulated, else its model): " what[1] "; " what[2] "; " what[3] "; " what[4] "; " what[5] "; " what[6] "."
  if (hi >= lo) print "\nThe point-to-point model against its simulation, where both ran: " sprintf("%+.1f%% to %+.1f%%", lo, hi) "."
  print ""
  print "Short vectors take one pass of a tree against log2 P rounds of messages. Long ones,"
  print "with one slice, are bound by the Reducer, which takes one contribution at a time, a"
  print "flit a cycle (len + 1 cycles with its header; len + 2 for a PE'"'"'s binary64 values, which"
  print "it converts on their way in), and a node takes its PE'"'"'s contribution and, on average"
  print "over the trees, one child'"'"'s: at most " sprintf("%.1f%%", 100 * 112 / (16 * 16)) " of a link'"'"'s rate for the integer sum (112 bytes"
  print "an operation in 2 x 8 cycles), " sprintf("%.1f%%", 100 * 24 / (16 * 15)) " for the binary64 sum (24 bytes of values, 6 flits of"
  print "elements in the Reducer, 8 + 7 cycles). With four slices four contributions of different"
  print "trees stream at once. The integer sum is then bound by the PE'"'"'s port, a flit a cycle in"
  print "and out with a header every len data flits: " sprintf("%.1f%%", 100 * 7 / 8) " of a link'"'"'s rate. The binary64 sum crosses the"
  print "PE'"'"'s port as values both ways (the Reducer converts them in at the PE'"'"'s slice and out"
  print "at each tree'"'"'s root), 3 in a header and 2 flits: " sprintf("%.0f%%", 100 * 24 / (16 * 3)) " of a link'"'"'s rate there, and the four"
  print "slices bound it at " sprintf("%.0f%%", 100 * 4 * 24 / (16 * 15)) " (15 cycles an operation a node, on average). It stays far below"
  print "both, held by two bounds of about the same height. Its operations in flight: a PE has"
  print "at most 16 on each of the 16 trees, 256 of 24 bytes, each for about one allreduce"
  w = "latency L, so it moves about 256 x 24 / (16 L) of a link'"'"'s rate (Little'"'"'s law)"
  if (LAT != "" && ("fsum4", "16x16", 1048576) in c)
    w = w ": with L the mean latency of an operation (from its first send to its last delivery) in" \
        " the 1 MiB run on 16x16 with four slices, " sprintf("%d", LAT + 0.5) " cycles, that is " \
        sprintf("%.1f%%", 100 * 256 * 24 / (16 * LAT)) ", where it moves " \
        sprintf("%.1f%%", 100 * r["fsum4", "16x16", 1048576]) " (a PE holds an operation for less than L)"
  if (("fsumhalf4", "16x16", 1048576) in c)
    w = w "; with half as many in flight (`window=128`) it moves " sprintf("%.1f%%", 100 * r["fsumhalf4", "16x16", 1048576]) ", half"
  w = w ". And the PE'"'"'s injection credits: " IS " packets (`inj_slots`) each round trip of 2 x " PI \
      " + 8 cycles to the PEGroup FIFO and back, " sprintf("%.1f%%", 100 * IS * 24 / (16 * (2 * PI + 8))) \
      " for packets of 24 bytes"
  if (("fsumrids4", "16x16", 1048576) in c)
    w = w ": with four times the operations in flight (64 ReduceIds a tree, `red_rids=64 window=1024`) it moves " \
        sprintf("%.1f%%", 100 * r["fsumrids4", "16x16", 1048576]) ", at that bound"
  print w ". The integer sum'"'"'s 112 bytes an operation give it"
  print "4.7 times that room. In two passes a value costs 4 bytes of exponent and 16 of word,"
  print "each way: at most " sprintf("%.1f%%", 100 * 7 / 8 * 8 / 20) " at the PE'"'"'s port with four slices, and the busiest links come"
  print "close to full there too. [fpsum.md](fpsum.md) counts what the element costs the links and"
  print "the Reducer, and what 80% of a link'"'"'s rate would take."
  print ""
  print "The conversion at the root costs the binary64 sum with one slice: there a result is held"
  print "and leaves by a converting copy, len + 4 cycles of the Reducer'"'"'s input, and a copy waits"
  print "for the input to be idle, which a single saturated Reducer seldom is, so the root'"'"'s"
  print "results wait and its tree'"'"'s window of 16 operations fills. The one-slice column stays"
  print "below its bound of " sprintf("%.1f%%", 100 * 24 / (16 * 15)) " by more than the integer sum'"'"'s does; with four slices the roots"
  print "have room and the conversion costs nothing."
}' <(sort -s -k2,2 -k3,3n "$rows") >docs/long-reduce.md.tmp # rows by torus, then size
# What bounds the binary64 sum at 1 MiB: tcnet's account of each run (its JSON's reducer
# and pe_wait), the runs whose JSON is here
python3 - $out "$rows" >>docs/long-reduce.md.tmp <<'PY'
import json, os, sys
out = sys.argv[1]
ran = {tuple(l.split()[:3]) for l in open(sys.argv[2])}
runs = [("fsum1", "16x16", "1 slice"), ("fsum4", "16x16", "4 slices"), ("fsumhalf4", "16x16", "4 slices, `window=128`"),
        ("fsumrids4", "16x16", "4 slices, `red_rids=64 window=1024`"), ("fsum4", "8x8x8x8", "4 slices")]
rows = []
for name, topo, what in runs:
    if (name, topo, "1048576") not in ran: # not among this run's sizes and tori
        continue
    f = os.path.join(out, "%s_%s_1048576.json" % (name, topo))
    d = json.load(open(f)) if os.path.exists(f) else {}
    if "node_busy" not in d.get("reducer", {}):
        sys.exit("long_reduce.sh: %s has no account of the Reducer (a run of an older tcnet): remove the row "
                 "'%s %s 1048576' from %s and run again" % (f, name, topo, sys.argv[2]))
    rows.append((name, topo, what, d))
if rows:
    pc = lambda x: "%.1f%%" % (100 * x)
    print("\n## What bounds the binary64 sum, measured\n")
    print("tcnet accounts for a stream of reduces ([simulator.md](simulator.md#what-bounds-a-stream)): the busiest Reducer")
    print("slice's busy cycles (taking a flit, copying a held result, converting values in: it takes no")
    print("other contribution meanwhile), the mean over that slice's node's slices (the node's work spread")
    print("evenly over them), the mean over every slice, the results held rather")
    print("than sent straight on, and the cycles the PEs waited for an injection credit and for the")
    print("window (every operation it allows in flight). The 1 MiB runs of the table above:\n")
    print("| torus | Reducer | link rate | busiest slice busy | its node's slices | every slice | results held | PEs waiting for an injection credit | for the window | busiest link busy |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, topo, what, d in rows:
        r, p = d["reducer"], d["pe_wait"]
        held = (r["held_root"] + r["held_room"] + r["held_credit"] + r["held_turn"]) / r["results"]
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (topo, what, pc(d["link_rate"]), pc(r["busiest_busy"]),
              pc(r["node_busy"]), pc(r["mean_busy"]), pc(held), pc(p["injection"]), pc(p["window"]), pc(d["link_util"])))
    by = {(n, t): d for n, t, _, d in rows}
    print()
    f4 = by.get(("fsum4", "16x16"))
    if f4:
        r = f4["reducer"]
        print("With four slices no one resource is full: the PEs wait for injection credits %s of their cycles"
              % pc(f4["pe_wait"]["injection"]))
        print("and for the window %s, and the busiest slice is busy %s. That slice is at a node whose trees"
              % (pc(f4["pe_wait"]["window"]), pc(r["busiest_busy"])))
        print("fall unevenly on its slices (tree t on slice t mod 4, whatever the node's children in each):")
        print("its node's slices are %s busy on average. So the next bounds in turn are the PE's injection"
              % pc(r["node_busy"]))
        print("credits (a packet of 3 values a credit), then the busiest slice, then the Reducers' work as a")
        print("whole (the mean).")
    g = by.get(("fsum4", "8x8x8x8"))
    if g:
        print("On 8x8x8x8 the busiest slice is busy %s (its node's slices %s): there it comes close to"
              % (pc(g["reducer"]["busiest_busy"]), pc(g["reducer"]["node_busy"])))
        print("binding beside the injection credits (%s waiting) and the window (%s)."
              % (pc(g["pe_wait"]["injection"]), pc(g["pe_wait"]["window"])))
    f1 = by.get(("fsum1", "16x16"))
    if f1:
        print("With one slice the Reducer is the bound, busy %s at the busiest node." % pc(f1["reducer"]["busiest_busy"]))
PY
publish docs/long-reduce.md.tmp docs/long-reduce.md
echo "long_reduce: docs/long-reduce.md ($(wc -l <"$rows") runs)"
