#!/usr/bin/env bash
# make fuzz: the libFuzzer harnesses of tb/fuzz/ (routing-table loader, key = value
# configuration parser) from a small seed corpus written here, FUZZ_SECONDS each, both
# at once. A crash, a sanitizer report, a leak or an input slower than 10 s (a hang)
# fails; the input is kept in build/fuzz/artifacts_NAME/. See docs/robustness.md.
set -u
cd "$(dirname "$0")/.."
source sim/lib.sh
SECONDS_EACH=${FUZZ_SECONDS:-60}
F=build/fuzz
make -s $F/fuzz_table $F/fuzz_config >"$LOGDIR/fuzz-build.log" 2>&1 ||
  { cat "$LOGDIR/fuzz-build.log"; echo "FAIL  build the fuzzers"; exit 1; }

# Seeds: a few valid and invalid inputs. A table input's first byte picks the torus
# (tb/fuzz/fuzz_table.c): \x00 4x4, \x01 a ring of 5, \x02 3x2x2.
seed() { mkdir -p "$F/seed_$1"; printf "$3" >"$F/seed_$1/$2"; }
seed table ring '\x01# tree node root toroot pe dirs\n0 0 1 - 1 X+,X-\n0 1 0 X- 1 X+\n0 2 0 X- 1 -\n0 4 0 X+ 1 X-\n0 3 0 X+ 1 -\n'
seed table 4x4 '\x003 5 1 - 1 X+,Y+  # root\n3 6 0 X- 1 -\n3 9 0 Y- 0 Y+\n3 13 0 Y- 1 -\n'
seed table 3x2x2 '\x021 0 1 - 0 Z+\n1 6 0 Z- 1 -\n\n# two trees\n2 11 1 - 1 X-\n2 10 0 X+ 1 -\n'
seed table bad '\x00# bad\n0 0 1 - 1 X+\n0 0 1 - 1 -\n4294967299 1 0 X- 1 -\n'
mkdir -p "$F/seed_config" && cp tools/tcnet.cfg "$F/seed_config/tcnet.cfg"
seed config keys 'topo = 4x4x2\ndst = -1 # the root\nbarrier=full\nbytes = 1073741824\nmax_cycles = 4000000000\ncsv =\n'
seed config bad 'link_lat = 0\ntopo = 4x4\ntopo = 2\nnothing\n'
seed config arg 'topo=16x16x16x8'

run() { # NAME: one fuzzer, its corpus kept in build/fuzz/corpus_NAME between runs
  local n=$1 log="$LOGDIR/fuzz_$1.log"
  mkdir -p "$F/corpus_$n" "$F/artifacts_$n"
  $F/fuzz_$n -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$F/artifacts_$n/" "$F/corpus_$n" "$F/seed_$n" >"$log" 2>&1
  echo $? >"$log.rc"
}
run table & run config & wait

# Line coverage of the parsers by the corpus: each input run once by a build with
# clang's source-based coverage; "covered/executable lines" of the functions fuzzed.
declare -A FUNCS=([table]='tc_table_load|parse_num|parse_dir|tc_tree_validate|tc_read_line'
                  [config]='tc_config_read|tc_config_arg|set|trim|tc_read_line|tc_topo_parse|topo_bad_char|tc_topo_init')
linecov() { # NAME
  local n=$1 c=$F/cov
  mkdir -p $c
  clang -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
    -o $c/fuzz_$n tb/fuzz/fuzz_$n.c cmodel/config.c cmodel/table.c cmodel/topo.c 2>/dev/null &&
  LLVM_PROFILE_FILE=$c/$n.profraw $c/fuzz_$n -runs=0 "$F/corpus_$n" "$F/seed_$n" >/dev/null 2>&1 &&
  llvm-profdata-14 merge -sparse $c/$n.profraw -o $c/$n.profdata 2>/dev/null &&
  llvm-cov-14 show $c/fuzz_$n -instr-profile=$c/$n.profdata -name-regex="^([a-z]+\\.c:)?(${FUNCS[$n]})\$" \
    cmodel/table.c cmodel/config.c cmodel/topo.c 2>/dev/null |
    awk -F'|' '$2 ~ /[0-9]/ { gsub(/ /, "", $2); all++; if ($2 != "0") hit++ }
               END { if (all) printf "%d/%d (%.1f%%)", hit, all, 100 * hit / all }'
}

for n in table config; do
  log="$LOGDIR/fuzz_$n.log"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  corpus=$(ls "$F/corpus_$n" | wc -l)
  found=$(ls "$F/artifacts_$n" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-' || true)
  lines=$(command -v llvm-cov-14 >/dev/null && linecov $n)
  desc="fuzz_$n: ${SECONDS_EACH} s, ${execs:-?} executions, ${cov:-?} coverage points, ${lines:+parser lines }${lines:-}${lines:+, }corpus $corpus; crashes and hangs: $found"
  check "$desc" test "$(cat "$log.rc")" = 0 -a "$found" = 0 -a -n "$execs"
  [ "$found" = 0 ] || ls "$F/artifacts_$n" | sed 's/^/      /'
  grep -E '^(==[0-9]+==ERROR|SUMMARY)' "$log" | head -5 | sed 's/^/      /'
done
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
