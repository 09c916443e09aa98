#!/usr/bin/env bash
# Regenerates what docs/ takes from the design: the field tables of the packet
# format, the reference timing diagrams (WaveDrom JSON recorded from the RTL run
# that the C model matched) and their SVG pictures (wavedrom-cli from npm), and the
# numbers docs/*.md and README.md quote (sim/docnums.py). Everything is made in
# build/docs-timing/ or beside its file (.tmp) first and moved into docs/ only when
# complete, so an interrupted run leaves every doc whole.
set -eu
cd "$(dirname "$0")/.."
source sim/lib.sh
net=$(make -s print-nets | cut -d' ' -f1)
T=build/docs-timing # this script's own
progress "the packet format's tables: docs/format-tables.md"
stage docs/format-tables.md
build/gen_format md > docs/format-tables.md.tmp
publish docs/format-tables.md.tmp docs/format-tables.md
rm -rf $T && mkdir -p $T
scens="bcast_leaf all_trees allreduce fsum credits barrier"
i=0
for s in $scens; do
  progress "build/cosim_$net --scen $s --wavedrom ($((i += 1)) of $(wc -w <<<"$scens"))"
  build/cosim_$net --scen $s --wavedrom $T
done
rm -f $T/*.rtl.json # the RTL's drawings, equal to the C model's (make test checks them)
wd=build/npm/node_modules/.bin/wavedrom-cli
if [ ! -x $wd ]; then
  progress "installing wavedrom-cli into build/npm"
  mkdir -p build/npm
  (cd build/npm && npm install --no-audit --no-fund --silent wavedrom-cli@3.2.0 >/dev/null)
fi
progress "drawing $(ls $T/*.json | wc -l) timing diagrams (wavedrom-cli)"
for j in $T/*.json; do
  $wd -i "$j" -s "${j%.json}.svg"
done
for f in $T/*.json $T/*.svg; do # each beside itself, then renamed onto it
  d=docs/timing/${f##*/}
  stage "$d"
  cp "$f" "$d.tmp"
  publish "$d.tmp" "$d"
done
progress "the numbers the prose quotes (sim/docnums.py write)"
python3 sim/docnums.py write
echo "docs: $(ls docs/timing/*.svg | wc -l) timing diagrams, format tables and the numbers the prose quotes regenerated"
