#!/usr/bin/env bash
# The GTKWave views of make wave (docs/waves.md) on the 5-node ring with 2 Reducer
# slices (make wave NET=5@k2; the view has every slice's signals): the first
# delivery's views of a passing broadcast and allreduce, and a planted mismatch's two views (the RTL's FST
# and both sides' records), each opened in GTKWave under Xvfb: every signal the save
# file lists must load, and the marker must sit at the cycle the run reported.
# Prints a PASS/FAIL line per check.
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh
NET=5 K=2 # the files are named by the torus alone
BIN=build/wave/cosim_$NET@k$K
D=build/wave-test
rm -rf "$D" && mkdir -p "$D"
make -s -j2 NET=$NET@k$K "$BIN" >"$LOGDIR/wave-build.log" 2>&1 || { tail -20 "$LOGDIR/wave-build.log"; echo "FAIL  make $BIN"; exit 1; }
ps_of() { echo $(( (3 + 2 * 16 + 2 * $1) * 1000 )); } # tb/waveview.c: 2 ns cycles after reset and the 16 trees

# view GTKW MARKER_PS: GTKWave loads every signal of GTKW, its marker at MARKER_PS, in
# the window, which starts where the file says
view() {
  local out n want marker win start
  out=$(timeout 120 xvfb-run -a gtkwave -S sim/wave_check.tcl "$1" 2>&1) || { echo "$out" | tail -5; return 1; }
  n=$(echo "$out" | sed -n 's/^WAVECHECK signals //p')
  want=$(grep -c '^+{' "$1") # the traces' lines, each with its label (the rest: flags @, comments -, options [ * ^)
  marker=$(echo "$out" | sed -n 's/^WAVECHECK marker //p')
  win=($(echo "$out" | sed -n 's/^WAVECHECK window //p'))
  start=$(sed -n 's/^\[timestart\] //p' "$1")
  echo "$1: $n of $want signals loaded, marker $marker (want $2); window ${win[*]} (want from $start)"
  [ -n "$n" ] && [ "$n" -eq "$want" ] && [ "$want" -gt 0 ] && [ "$marker" = "$2" ] &&
    [ "${win[0]}" = "$start" ] && [ "$marker" -ge "${win[0]}" ] && [ "$marker" -le "${win[1]}" ]
}

# A passing run: the view at the first delivery (the cycle cosim names).
$BIN --scen bcast_leaf --wave "$D" >"$LOGDIR/wave-bcast.log" 2>&1
check "wave: bcast_leaf passes and writes its FST" grep -q "^PASS  $NET *bcast_leaf" "$LOGDIR/wave-bcast.log"
c=$(sed -n 's/.*marker at cycle \([0-9]*\),.*/\1/p' "$LOGDIR/wave-bcast.log")
check "wave: GTKWave opens the bcast_leaf view at its first delivery (cycle ${c:-?})" view "$D/${NET}_bcast_leaf.gtkw" "$(ps_of "${c:-0}")"

# A reduce's result has no source node: the view shows its tree's root instead.
$BIN --scen allreduce --wave "$D" >"$LOGDIR/wave-allreduce.log" 2>&1
c=$(sed -n 's/.*marker at cycle \([0-9]*\),.*/\1/p' "$LOGDIR/wave-allreduce.log")
check "wave: GTKWave opens the allreduce view at its first delivery (cycle ${c:-?})" view "$D/${NET}_allreduce.gtkw" "$(ps_of "${c:-0}")"

# The floating-point sum: the Reducer's operands and result decoded, and at the root the
# converted value, shown as reals (GTKWave's flag 0x40000 on the monitor's 64-bit fsum_*
# wires): four a slice in each router group, whose title line comes twice (the group's
# start and end).
$BIN --scen fsum --wave "$D" >"$LOGDIR/wave-fsum.log" 2>&1
c=$(sed -n 's/.*marker at cycle \([0-9]*\),.*/\1/p' "$LOGDIR/wave-fsum.log")
check "wave: the fsum view shows every Reducer slice's FSUM operands, result and converted value as reals, in every router it shows" bash -c \
  "[ \$(grep -A1 '^@40000' $D/${NET}_fsum.gtkw | grep -cE 'g_fsum\[[0-$((K - 1))]\]\.fsum_(a|b|y|cv)\[63:0\]') -eq \$((4 * $K * \$(grep -c '^-router ' $D/${NET}_fsum.gtkw) / 2)) ]"
check "wave: GTKWave opens the fsum view at its first delivery (cycle ${c:-?})" view "$D/${NET}_fsum.gtkw" "$(ps_of "${c:-0}")"

# A mismatch planted in the C model's record of node 2 at cycle 400.
TC_PLANT_OBS=400,2,3 $BIN --scen bcast_leaf --wave "$D" >"$LOGDIR/wave-mismatch.log" 2>&1
check "wave: the planted mismatch is reported at cycle 400, node 2" grep -q "mismatch at cycle 400 node 2" "$LOGDIR/wave-mismatch.log"
check "wave: GTKWave opens the RTL's view at the mismatch" view "$D/${NET}_bcast_leaf.gtkw" "$(ps_of 400)"
check "wave: GTKWave opens both sides' records at the mismatch" view "$D/${NET}_bcast_leaf_mismatch.gtkw" "$(ps_of 400)"
check "wave: the records' view shows only the part that differs (unit 0) on each side" bash -c \
  "grep -c '^-rtl\.\|^-cmodel\.' $D/${NET}_bcast_leaf_mismatch.gtkw | grep -qx 2"

# make wave's names, checked before any build: a torus with its own parameters has its
# rule (NET@SPEC, as build/cosim_NET@SPEC), a malformed one is refused by name (grep
# reads all of make's output, not -q: make, under make test, prints a line after the
# error, and a grep gone would kill it with SIGPIPE).
check "make wave NET=5@s2p1r1: a rule for build/wave/cosim_5@s2p1r1 (its key's traced node, after tccheck)" bash -c \
  "make -n -B wave NET=5@s2p1r1 2>&1 | grep -q 'tccheck --topo 2 --slots 2 .*--pe-credits 1 --red-flits 1' && \
   make -n -B wave NET=5@s2p1r1 2>&1 | grep -q 'linked build/wave/cosim_5@s2p1r1'"
for bad in "5@s2x:'s2x' is none of s i p r k l j e followed by a number" "5@q3:'q3' is none of" \
           "3x3x:'3x3x' is not a torus" "abc:'abc' is not a torus"; do
  check "make wave NET=${bad%%:*} refused before any build" bash -c \
    "make -n wave NET='${bad%%:*}' 2>&1 | grep -F \"${bad#*:}\" >/dev/null; test \${PIPESTATUS[0]} = 2"
done
