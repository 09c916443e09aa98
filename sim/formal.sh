#!/usr/bin/env bash
# Formal proofs (make formal): Yosys reads each block with the properties written in
# its `ifdef FORMAL_<BLOCK>` section, yosys-smtbmc with z3 checks them: a bounded
# check of K cycles from reset (the base case) and K-step induction, which together
# prove the property for every cycle and every input the assumptions allow. A
# block's properties are assumed nowhere else: the router's proof runs its blocks
# with their own properties off. Then each proof is run once more on a copy of the
# block with a known bug put in, and must fail, so that no proof passes vacuously.
# Ends with "N passed, M failed". z3 runs with --unroll: Debian's z3 4.8.12 stalls
# on the uninterpreted state sort of yosys-smtbmc's default encoding.
# Speed, for the same queries and verdicts: in a check of depth 1 z3's incremental
# solver, which smtbmc's push/pop puts it in, took 10x longer than its one-shot one,
# so it hands over after 200 ms there (combined_solver.solver2_timeout; at depth 2
# and more the incremental solver reuses what it learnt and was as fast or faster);
# induction asks only at its depth K (-t K:K), not first at 0..K-1, whose attempts
# fail here or pass only where K does.
# FORMAL_ONLY=REGEX runs only the proofs (and their refutations) whose names match it,
# e.g. FORMAL_ONLY=fpsum bash sim/formal.sh; unset, all of them.
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh
OUT=build/formal
mkdir -p $OUT
RTL=$(ls rtl/*.v | grep -v tc_torus.v | tr '\n' ' ')
SMTBMC="yosys-smtbmc -s z3 --unroll --noprogress"
handover() { [ "$1" = 1 ] && echo "-S combined_solver.solver2_timeout=200"; } # K

# selected NAME: the proof is run (FORMAL_ONLY unset, or NAME matches it)
selected() { [ -z "${FORMAL_ONLY:-}" ] || grep -qE -- "$FORMAL_ONLY" <<<"$1"; }

# smt2 NAME TOP "PARAMS" [FILE-OVERRIDE]: the block with its FORMAL_ section. TOP is
# the block (rtl/TOP.v, FORMAL_TOP), or BLOCK:MODULE for a formal wrapper MODULE that
# the block's FORMAL_BLOCK section defines (a combinational block's laws need copies
# of it side by side)
smt2() {
  local name=$1 blk=${2%%:*} top=${2##*:} params=$3 src=${4:-}
  local files=$RTL def
  def=FORMAL_$(echo "$blk" | tr a-z A-Z)
  [ -n "$src" ] && files=$(echo "$RTL" | sed "s|rtl/$blk.v|$src|")
  yosys -q -p "read_verilog -D$def -formal -sv -Irtl $files; chparam $params $top; prep -top $top; \
               async2sync; dffunmap; write_smt2 -wires $OUT/$name.smt2" 2>&1 | grep -v 'Replacing memory'
  return "${PIPESTATUS[0]}"
}
smtbmc() { # FILE K [-i]: bounded, steps 0..K-1; or induction of depth K alone
  local t=$2
  [ -n "$3" ] && t=$2:$2
  $SMTBMC $(handover $2) $3 -t "$t" --dump-vcd "${1%.smt2}${3}.vcd" "$1" | grep -a '^##' | grep -av 'Checking\|Trying'
  return "${PIPESTATUS[0]}"
}

# prove NAME TOP "PARAMS" K "WHAT": bounded from reset and induction, both of depth K
prove() {
  local name=$1 top=$2 params=$3 k=$4 what=$5
  selected "$name" || return 0
  check "formal $name: build" smt2 "$name" "$top" "$params"
  check "formal $name: bounded, $k cycles from reset: $what" smtbmc $OUT/$name.smt2 "$k" ""
  check "formal $name: induction, depth $k: $what" smtbmc $OUT/$name.smt2 "$k" -i
}
# prove_ind NAME TOP "PARAMS" "WHAT": induction of depth 1 alone, for a combinational
# block's wrapper: without state, its step ranges over every input, so it is the whole
# proof (the bounded check asks the same, in a form z3 takes far longer on)
prove_ind() {
  local name=$1 top=$2 params=$3 what=$4
  selected "$name" || return 0
  check "formal $name: build" smt2 "$name" "$top" "$params"
  check "formal $name: induction, depth 1 (no state: every input): $what" smtbmc $OUT/$name.smt2 1 -i
}
# refute NAME TOP "PARAMS" K "SED" "BUG": the proof must fail once the bug is in,
# bounded or by induction; refute_bmc: a bounded check from reset must find a trace
# that breaks it (an induction failure is not enough when the edit also removes the
# property's inductive helpers)
refute() {
  local name=$1 top=$2 params=$3 k=$4 edit=$5 bug=$6 m=$OUT/$1_bug.v how=${7:-} blk=${2%%:*}
  selected "$name" || return 0
  sed "$edit" rtl/$blk.v >$m
  if cmp -s rtl/$blk.v $m; then check "formal $name with a bug ($bug): the edit applies" false; return; fi
  smt2 "${name}_bug" "$top" "$params" "$m" >/dev/null 2>&1 || { check "formal $name with a bug: build" false; return; }
  local bmc="! $SMTBMC $(handover $k) -t $k $OUT/${name}_bug.smt2 >/dev/null"
  if [ "$how" = bmc ]; then
    check "formal $name fails with a bug, a trace from reset: $bug" bash -c "$bmc"
  else
    check "formal $name fails with a bug: $bug" bash -c \
      "$bmc || ! $SMTBMC $(handover $k) -i -t $k:$k $OUT/${name}_bug.smt2 >/dev/null"
  fi
}
refute_bmc() { refute "$@" bmc; }

prove vc_unit tc_vc_unit "-set NumPorts 2 -set Slots 2" 3 \
  "a link VC buffer never overflows or underflows; every whole head packet's header is at hand; packets leave in order, unchanged"
prove vc_unit_3slots tc_vc_unit "-set NumPorts 4 -set Slots 3" 3 \
  "the same with 3 slots (the slot pointers wrap at a non-power of two) and 4 ports"
prove vc_unit_vals tc_vc_unit "-set NumPorts 2 -set Slots 2 -set Vals 1" 3 \
  "the same for the Broadcaster, which frames a PE's packets of values by their length on the wire"
prove reducer tc_reducer "-set NumPorts 2" 3 \
  "a reduce in progress counted 1..expected-1 contributions, one per distinct source; results leave in ReduceId order; a PE's values are converted in inside their contribution, in its data flits' cycles"
prove reducer_slice tc_reducer "-set NumPorts 2 -set Slices 4 -set Slice 3" 3 \
  "the same for slice 3 of 4 (trees 3, 7, 11, 15: its entries, turns and copy arbiter over its own 4 trees)"
prove reducer_rids64 tc_reducer "-set NumPorts 2 -set RedRids 64 -set Slices 4 -set Slice 1" 3 \
  "the same for slice 1 of 4 with 64 ReduceIds a tree (its 4 trees x 64 entries, 6-bit turns)"
prove credit_block tc_credit_block "-set NU 7" 3 \
  "at most 16 results of a tree in flight to the parent (RedRids 16); credit counter exact; error queue within depth; a duty that stays due is written within 19 others' packets"
prove credit_block_rids64 tc_credit_block "-set NU 7 -set RedRids 64" 3 \
  "the same with 64 ReduceIds a tree: at most 64 results in flight, a credit worth 32"
prove rr_arb_late tc_rr_arb "-set N 20 -set IdxW 5 -set Late 6" 2 \
  "with two requests joining late, the grant is still the first requester at or after the pointer, else the first"
prove credit_block_slices tc_credit_block "-set NU 8 -set RedSlices 2" 3 \
  "the same with 2 Reducer slices (their results and errors of one cycle)"
prove phase tc_phase "-set NumPorts 2" 3 \
  "phase counters within 0..2; phase number within 0..target"
prove router tc_router "-set NumDims 1" 1 \
  "link and PE credit counters plus uncredited packets equal the buffer depth (within 0..depth)"
prove router_slices tc_router "-set NumDims 1 -set RedSlices 2" 1 \
  "the same with 2 Reducer slices"
prove fpsum_merge tc_fpsum_merge:tc_fpsum_merge_laws "-set SliceW 4 -set HeadW 3 -set IdxW 3 -set Bins 3" 1 \
  "the floating-point sum's step, on any elements (4-bit slices, 3 of headroom, indices 0..7): commutative, associative, -0 its identity"
prove fpsum_merge_causal tc_fpsum_merge:tc_fpsum_merge_causal "-set SliceW 4 -set HeadW 3 -set IdxW 3 -set Bins 3" 1 \
  "the step is causal (4-bit slices, 3 of headroom, indices 0..7): operands equal below any split s past IDX give results equal below s"
# The causality at the format's width too, where s = 128 is flit 0: by induction alone,
# which for a block without state is the whole claim (2 s; the bounded check, 45 s)
prove_ind fpsum_merge_causal_full tc_fpsum_merge:tc_fpsum_merge_causal "" \
  "the step is causal at full width: operands equal below any split s past IDX give results equal below s; s = 128: flit 0 from flits 0"
# The laws at the format's width (81-bit bins, a 6-bit index): the bounded check did not
# finish in 15 minutes; induction alone takes 2.5 to 3: only with FORMAL_FULL=1.
if [ -n "${FORMAL_FULL:-}" ]; then
  prove_ind fpsum_merge_full tc_fpsum_merge:tc_fpsum_merge_laws "" \
    "the floating-point sum's step at full width: commutative, associative, -0 its identity"
fi

refute vc_unit tc_vc_unit "-set NumPorts 2 -set Slots 2" 3 \
  's/rd_slot_d = rd_next;/rd_slot_d = {SW{1'"'"'b0}};/' \
  "the read pointer goes back to slot 0 after every packet"
refute vc_unit tc_vc_unit "-set NumPorts 2 -set Slots 2" 3 \
  's/mem_q\[waddr\] <= wr_flit_i;/mem_q[waddr] <= wr_flit_i ^ {127'"'"'d0, wr_idx_q == 3'"'"'d3};/' \
  "flit 3 stored with one bit flipped"
refute vc_unit tc_vc_unit "-set NumPorts 2 -set Slots 3" 3 \
  's/wire \[SW-1:0\] pf_slot = next_slot(rd_next);/wire [SW-1:0] pf_slot = rd_next;/' \
  "the header read ahead is the next packet's, not the one after"
refute vc_unit tc_vc_unit "-set NumPorts 2 -set Slots 2" 3 \
  's/: room_q || (free_o \&\& rd_slot_q == wr_slot_q);/: room_q;/' \
  "the write slot's room register misses the head freed there"
refute reducer tc_reducer "-set NumPorts 2" 3 \
  's/wire       skip     = hdr ? order || ready_q\[h_slot\] || (h_busy \&\& (seen_q\[h_slot\] \& src_bit) != 9'"'"'d0) : skip_q;/wire skip = hdr ? order || ready_q[h_slot] : skip_q;/' \
  "a source that contributes twice is counted twice"
refute reducer tc_reducer "-set NumPorts 2" 3 \
  's/ \&\& h_rid == h_nxt \&\& !conv$/ \&\& !conv/' \
  "a last contribution goes straight to the result buffer out of its tree's turn"
refute credit_block tc_credit_block "-set NU 7" 3 \
  's/wire \[7:0\]  got_cred = {2'"'"'d0, got} << Lg;/wire [7:0] got_cred = {2'"'"'d0, got} << (Lg + 1);/' \
  "a credit packet counted as 16 results"
# the fixed priority the block had: a trace from reset where a duty waits while
# another is written twice (the pointer's helper assertions removed, so the
# fairness property itself must fail)
refute_bmc credit_block tc_credit_block "-set NU 7" 6 \
  's/\.rst_ni \+(rst_ni),/.rst_ni (1'"'"'b0),/; /\/\/ helper$/d' \
  "its duties served by fixed priority (the round-robin pointer held at the error queue)"
refute rr_arb_late tc_rr_arb "-set N 20 -set IdxW 5 -set Late 6" 2 \
  's/nearer = (a >= p) != (b >= p) ? a >= p : a < b;/nearer = a < b;/' \
  "a late request compared with the search's winner by index, not by distance from the pointer"
refute phase tc_phase "-set NumPorts 2" 3 \
  's/if (cnt_q\[2\*p+1\]) \/\/ already 2/if (1'"'"'b0) \/\/ already 2/' \
  "a third phase packet counted"
refute router tc_router "-set NumDims 1" 1 \
  's/avail >= (cont ? 8'"'"'d1 : 8'"'"'d2)/avail >= (cont ? 8'"'"'d0 : 8'"'"'d2)/' \
  "a packet sent without a credit"
# a step that rounds what it drops (the highest dropped bin's top slice bit into the
# lowest kept bin) is no longer associative: which bits are dropped, and so rounded,
# depends on the grouping
refute fpsum_merge tc_fpsum_merge:tc_fpsum_merge_laws "-set SliceW 4 -set HeadW 3 -set IdxW 3 -set Bins 3" 1 \
  's/wire \[BinW-1:0\] s = x + z;/wire [BinW-1:0] s = x + z + (r == 0 \&\& d != 0 \&\& d <= Bins ? {{(BinW-1){1'"'"'b0}}, lo[(Bins-d)*BinW + SliceW-1]} : {BinW{1'"'"'b0}});/' \
  "the smaller-index operand's dropped bins rounded to nearest into the lowest kept bin"
refute fpsum_merge tc_fpsum_merge:tc_fpsum_merge_laws "-set SliceW 4 -set HeadW 3 -set IdxW 3 -set Bins 3" 1 \
  's/((a_fl | b_fl) \& ~Negz) | (a_fl \& b_fl \& Negz)/a_fl | b_fl/' \
  "NEGZ ORed like the other flags (x + -0 would be -0 for every x)"
# the bins in the old order, the lowest first (the whole block so, and still
# commutative and associative): B's bins then move down in the word, so y's low bits
# depend on b's higher ones
refute fpsum_merge_causal tc_fpsum_merge:tc_fpsum_merge_causal "-set SliceW 4 -set HeadW 3 -set IdxW 3 -set Bins 3" 1 \
  's/localparam integer At = (Bins-1-r)\*BinW;/localparam integer At = r*BinW;/; s/z = lo\[At - k\*BinW +: BinW\];/z = lo[At + k*BinW +: BinW];/' \
  "the bins placed lowest first, the old layout: the step reads B's bins from higher bits than it writes"
# not a bug of the block but of the claim: IDX is a maximum, so its low bits depend on
# its high ones, and the proof needs its split at or above the index's width
refute fpsum_merge_causal tc_fpsum_merge:tc_fpsum_merge_causal "-set SliceW 4 -set HeadW 3 -set IdxW 3 -set Bins 3" 1 \
  's/assume(split >= IdxW + `TC_FPS_IDX_LSB \&\& /assume(split >= 1 \&\& /' \
  "the split allowed inside IDX (s >= 1): the maximum of two indices is not causal bit by bit"

echo "formal: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
