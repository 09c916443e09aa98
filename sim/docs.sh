#!/usr/bin/env bash
# Regenerates what docs/ takes from the design: the field tables of the packet
# format, the reference timing diagrams (WaveDrom JSON recorded from the RTL run
# that the C model matched) and their SVG pictures (wavedrom-cli from npm), and the
# numbers docs/*.md and README.md quote (sim/docnums.py).
set -eu
cd "$(dirname "$0")/.."
net=$(make -s print-nets | cut -d' ' -f1)
build/gen_format md > docs/format-tables.md
for s in bcast_leaf all_trees allreduce credits barrier; do
  build/cosim_$net --scen $s --wavedrom docs/timing
done
rm -f docs/timing/*.rtl.json # the RTL's drawings, equal to the C model's (make test checks them)
wd=build/npm/node_modules/.bin/wavedrom-cli
if [ ! -x $wd ]; then
  mkdir -p build/npm
  (cd build/npm && npm install --no-audit --no-fund --silent wavedrom-cli@3.2.0 >/dev/null)
fi
for j in docs/timing/*.json; do
  $wd -i "$j" -s "${j%.json}.svg"
done
python3 sim/docnums.py write
echo "docs: $(ls docs/timing/*.svg | wc -l) timing diagrams, format tables and the numbers the prose quotes regenerated"
