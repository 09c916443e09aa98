#!/usr/bin/env bash
# RTL checks in three tools: Verilator lint (-Wall, waivers only in rtl/lint.vlt),
# Icarus Verilog compile, Yosys synthesis. Several parameter sets each.
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh

RTL=$(echo rtl/*.v)
# Verilator's lint time grows with the nodes (4x4: 33 s of CPU, 3x2: 14 s; 4D at
# 2x2x2x2: 31 s and 1.4 GB, at 2x1x1x2: 7 s): each dimension count once, at small tori
# with an odd and a mixed radix, a dimension of radix 1 in 3D and two in 4D
NETS=("-GNumDims=1 -GSizeX=5 -GSizeY=1"
      "-GNumDims=2 -GSizeX=3 -GSizeY=2"
      "-GNumDims=3 -GSizeX=3 -GSizeY=1 -GSizeZ=2 -GSlots=3 -GRedFlits=3 -GRedRids=32"
      "-GNumDims=4 -GSizeX=2 -GSizeY=1 -GSizeZ=1 -GSizeW=2 -GLinkLat=1 -GInjLat=1 -GEjLat=1 -GRedFlits=7 -GRedRids=64")

check "format: rtl/tc_format.vh matches cmodel/format.def" \
  bash -c 'build/gen_format | diff -u rtl/tc_format.vh -'
for g in "${NETS[@]}"; do
  name=$(echo "$g" | tr -d ' ' | sed 's/-G//g')
  check "verilator lint -Wall tc_torus $name" \
    verilator --lint-only -Wall +define+TC_ASSERT -Irtl rtl/lint.vlt $RTL --top-module tc_torus $g
  iv=$(echo "$g" | sed 's/-G/-Ptc_torus./g')
  # The larger tori elaborated only (-t null: the same errors, without writing up to
  # 47 MB of vvp code); the 1D one, which has every module, through the code generator.
  out="-t null"
  [ "$g" = "${NETS[0]}" ] && out="-o build/logs/iverilog.vvp"
  check "iverilog compile tc_torus $name" \
    iverilog -g2012 -Wall -DTC_ASSERT -Irtl $out -s tc_torus $iv $RTL
done
ALU="rtl/tc_alu.v rtl/tc_alu_lane.v rtl/tc_fpsum_merge.v"
check "verilator lint -Wall tc_alu" verilator --lint-only -Wall -Irtl rtl/lint.vlt $ALU --top-module tc_alu
check "iverilog compile tc_alu" iverilog -g2012 -Wall -Irtl -o build/logs/iverilog_alu.vvp -s tc_alu $ALU
check "yosys synth tc_alu (no latches)" \
  yosys -q -p "read_verilog -sv -Irtl $ALU; hierarchy -check -top tc_alu; synth -top tc_alu; check -assert; \
               select -assert-none t:\$dlatch* t:\$_DLATCH_*"
# The floating-point sum's blocks (the step is the ALU's FSUM; in and out are the PEs'); the step also at the reduced
# widths sim/formal.sh proves it at.
for top in tc_fpsum_in tc_fpsum_merge tc_fpsum_out; do
  check "verilator lint -Wall $top" verilator --lint-only -Wall -Irtl rtl/lint.vlt rtl/$top.v --top-module $top
  check "iverilog compile $top" iverilog -g2012 -Wall -Irtl -o build/logs/iverilog_$top.vvp -s $top rtl/$top.v
  check "yosys synth $top (no latches)" \
    yosys -q -p "read_verilog -sv -Irtl rtl/$top.v; hierarchy -check -top $top; synth -top $top; check -assert; \
                 select -assert-none t:\$dlatch* t:\$_DLATCH_*"
done
check "verilator lint -Wall tc_fpsum_merge SliceW=4 HeadW=3 IdxW=3" \
  verilator --lint-only -Wall -Irtl rtl/lint.vlt rtl/tc_fpsum_merge.v --top-module tc_fpsum_merge -GSliceW=4 -GHeadW=3 -GIdxW=3
# The router alone: a 1D router has every kind of block; the torus only adds wires.
# Yosys's coarse synthesis (synth up to its fine stage: proc, opt, wreduce, alumacc,
# share, memory, fsm), where latches and undriven nets show, 15 s of CPU; the mapping
# to gates (137 s more) and its timing are make synth's, for every router 1D-4D.
check "yosys synth tc_router NumDims=1, coarse (no latches, no undriven nets)" \
  yosys -q -p "read_verilog -sv -Irtl $RTL; hierarchy -check -top tc_router -chparam NumDims 1; \
               synth -top tc_router -run :fine; hierarchy -check; check -assert; \
               select -assert-none t:\$dlatch* t:\$_DLATCH_*; stat"
echo "lint: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
