#!/usr/bin/env bash
# The screenshots of docs/waves.md: make wave's views on the 5-node ring, drawn by
# GTKWave under Xvfb (xwd, netpbm): docs/wave-bcast.png (a broadcast's first
# delivery) and docs/wave-mismatch.png (a mismatch planted in the C model's record
# of node 0 at cycle 244, both sides side by side).
set -eu
cd "$(dirname "$0")/.."
source sim/lib.sh
BIN=build/wave/cosim_5
D=build/wave-shots # this script's own
progress "building $BIN (if stale)"
make -s -j2 $BIN
rm -rf $D && mkdir -p $D
progress "$BIN --scen bcast_leaf: a passing run and a planted mismatch"
$BIN --scen bcast_leaf --wave $D/pass >/dev/null 2>&1
TC_PLANT_OBS=244,0,3 $BIN --scen bcast_leaf --wave $D/mis >/dev/null 2>&1 || true
shot() { # GTKW PNG: written beside PNG, moved onto it when complete
  progress "GTKWave under Xvfb: $2"
  stage "$2"
  xvfb-run -a -s "-screen 0 1400x860x24" sh -c "gtkwave '$1' >/dev/null 2>&1 & p=\$!; sleep 5; \
    xwd -root -silent | xwdtopnm 2>/dev/null | pnmquant 64 2>/dev/null | pnmtopng -compression 9 > '$2.tmp'; kill \$p"
  [ -s "$2.tmp" ] && publish "$2.tmp" "$2"
}
shot $D/pass/5_bcast_leaf.gtkw docs/wave-bcast.png
shot $D/mis/5_bcast_leaf_mismatch.gtkw docs/wave-mismatch.png
ls -l docs/wave-bcast.png docs/wave-mismatch.png
