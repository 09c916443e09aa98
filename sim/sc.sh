#!/usr/bin/env bash
# SystemC (make sim-sc, also in make test): the torus from verilator --sc and the C
# golden model wrapped with the same ports (tb/sc_torus_cm.h), each run from sc_main
# by the C testbench and compared cycle by cycle with the plain C model on every
# scenario; the two SystemC models must then draw the same timing diagrams; and the
# RTL's allreduce and broadcast are traced into FST files for GTKWave.
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh
NET=$(make -s -f Makefile print-sc-net)
BIN=build/sc_$NET
OUT=build/wave_sc

progress "building $BIN (its log: build/obj_sc_$NET.log), then every scenario on it twice"
check "SystemC: verilate and build $BIN" make -s $BIN
check "SystemC RTL (Vtc_torus) = C model, every scenario, cycle by cycle" $BIN --scen all
check "SystemC C model module = C model, every scenario, cycle by cycle" env TC_SC_MODEL=cmodel $BIN --scen all
rm -rf $OUT && mkdir -p $OUT/rtl $OUT/cmodel
for scen in bcast_leaf allreduce barrier; do
  $BIN --scen $scen --wavedrom $OUT/rtl >/dev/null 2>&1
  TC_SC_MODEL=cmodel $BIN --scen $scen --wavedrom $OUT/cmodel >/dev/null 2>&1
done
check "SystemC RTL and C model module draw the same timing diagrams ($(ls $OUT/rtl | wc -l) files)" \
  bash -c "[ -n \"\$(ls $OUT/rtl)\" ] && diff -r $OUT/rtl $OUT/cmodel"
for scen in allreduce bcast_leaf; do
  check "SystemC RTL $scen traced: $OUT/${NET}_$scen.fst" \
    bash -c "$BIN --scen $scen --wave $OUT && [ -s $OUT/${NET}_$scen.fst ] && fst2vcd $OUT/${NET}_$scen.fst | grep -q '^#'"
done
echo "sim-sc: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
