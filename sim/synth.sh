#!/usr/bin/env bash
# Synthesis with timing (make synth): each block and the router, Yosys mapped onto
# the OSU 0.18 um library (Debian qflow-tech-osu018), then OpenSTA with
# constraints/tc_router.sdc. Reports cells, area, flip-flops and the worst
# register-to-register path in ns and in FO4 (the library's, measured here on an
# inverter chain) into docs/synth.md. Usage: sim/synth.sh [block ...]
set -eu
cd "$(dirname "$0")/.."
LIB=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
SDC=constraints/tc_router.sdc
OUT=build/synth
mkdir -p $OUT
RTL=$(ls rtl/*.v | grep -v tc_sram.v | tr "\n" " ")
# block: top parameters (NumPorts 2 = one dimension; the router of a 1D torus)
BLOCKS=${*:-"tc_rr_arb tc_phase tc_credit_block tc_vc_unit tc_reducer tc_router"}
params() {
  case $1 in
    tc_rr_arb) echo "-set N 7 -set IdxW 5" ;;
    tc_phase | tc_vc_unit | tc_reducer) echo "-set NumPorts 2" ;;
    tc_credit_block) echo "-set NU 7" ;;
    tc_router) echo "-set NumDims 1" ;;
  esac
}

# Blocks are flattened; the router keeps its blocks as modules, each mapped by ABC on its
# own (ABC's buffering crashed on the flat router), and OpenSTA times across them.
flatten() { [ "$1" = tc_router ] || echo -flatten; }
# ABC's buffering stopped with "node has no fanout" on the credit block inside the
# router: there the credit block is mapped by ABC's own script (-D 2000, buffered too).
abc() {
  local a="abc -D 2000 -constr $OUT/abc.constr -liberty $LIB"
  if [ "$1" = tc_router ]; then echo "$a -script $ABC *credit_block* %n; $a *credit_block*"; else echo "$a -script $ABC"; fi
}

# FO4 of the library: a chain of inverters, each driving four.
fo4() {
  local v=$OUT/fo4.v n=8
  {
    echo "module fo4(input a, output y);"
    echo "  wire [$n:0] s; assign s[0] = a; assign y = s[$n];"
    for i in $(seq 0 $((n - 1))); do
      echo "  INVX1 i$i (.A(s[$i]), .Y(s[$((i + 1))]));"
      for l in 1 2 3; do echo "  wire l${i}_$l; INVX1 l${i}_${l}i (.A(s[$((i + 1))]), .Y(l${i}_$l));"; done
    done
    echo "endmodule"
  } >$v
  sta -no_splash -exit <(cat <<EOF
read_liberty $LIB
read_verilog $v
link_design fo4
set_input_transition 0.1 [get_ports a]
report_checks -from [get_ports a] -to [get_ports y] -unconstrained -format full -digits 4
EOF
) 2>&1 | awk '/ i2\/Y / { a = $2 } / i6\/Y / { b = $2 } END { printf "%.4f\n", (b - a) / 4 }' # stages 3-6, past the edge of the input
}

FO4=$(fo4)
# The Reducer's memory (tc_sram, 768 x 128 bits with RedFlits = 2: per (TreeId,
# ReduceId) a held result's header and 2 data flits)
# is a two-port SRAM macro: synthesis keeps it a black box and OpenSTA times it with
# this model. Its figures are assumptions in FO4, so that they scale with the process:
# data out 20 FO4 after the clock (about 0.5 ns at 65 nm), inputs set up 5 FO4 before.
MEM_CQ=20 MEM_SETUP=5
macro_lib() {
  local cq setup in
  cq=$(awk -v f=$FO4 -v n=$MEM_CQ 'BEGIN { printf "%.3f", f * n }')
  setup=$(awk -v f=$FO4 -v n=$MEM_SETUP 'BEGIN { printf "%.3f", f * n }')
  in="timing () { related_pin : \"clk_i\"; timing_type : setup_rising;
        rise_constraint (scalar) { values (\"$setup\"); } fall_constraint (scalar) { values (\"$setup\"); } }"
  cat <<EOF
library (tc_macros) {
  delay_model : table_lookup;
  time_unit : "1ns"; voltage_unit : "1V"; current_unit : "1mA"; leakage_power_unit : "1nW";
  capacitive_load_unit (1, pf); pulling_resistance_unit : "1kohm";
  input_threshold_pct_rise : 50; input_threshold_pct_fall : 50;
  output_threshold_pct_rise : 50; output_threshold_pct_fall : 50;
  slew_lower_threshold_pct_rise : 20; slew_lower_threshold_pct_fall : 20;
  slew_upper_threshold_pct_rise : 80; slew_upper_threshold_pct_fall : 80;
  type (addr) { base_type : array; data_type : bit; bit_width : 10; bit_from : 9; bit_to : 0; downto : true; }
  type (data) { base_type : array; data_type : bit; bit_width : 128; bit_from : 127; bit_to : 0; downto : true; }
  cell (tc_sram) {
    pin (clk_i) { direction : input; clock : true; capacitance : 0.02; }
    pin (we_i) { direction : input; capacitance : 0.01; $in }
    bus (waddr_i) { bus_type : addr; direction : input; capacitance : 0.01; $in }
    bus (raddr_i) { bus_type : addr; direction : input; capacitance : 0.01; $in }
    bus (wdata_i) { bus_type : data; direction : input; capacitance : 0.01; $in }
    bus (rdata_o) { bus_type : data; direction : output;
      timing () { related_pin : "clk_i"; timing_type : rising_edge;
        cell_rise (scalar) { values ("$cq"); } cell_fall (scalar) { values ("$cq"); }
        rise_transition (scalar) { values ("0.2"); } fall_transition (scalar) { values ("0.2"); } } }
  }
}
EOF
}
macro_lib >$OUT/tc_macros.lib
printf 'set_driving_cell INVX1\nset_load 0.02\n' >$OUT/abc.constr # ABC buffers and sizes against these
# ABC's own script for a liberty maps for area: a 64-bit adder came out rippled (6.9 ns);
# this one maps for delay against the 2 ns target, then buffers and sizes (2.1 ns).
# cleanup before buffer: ABC's buffering stopped with "node has no fanout" on the Reducer
# since its 256-input copy arbiter; cleanup drops that dangling node (the other blocks'
# netlists are the same with it).
ABC='+strash;dch;map,-D,2000;cleanup;buffer;upsize,-D,2000;dnsize,-D,2000;stime,-p'
{
  echo "# Synthesis and timing (generated by \`make synth\`)"
  echo
  echo "Yosys 0.23 (\`synth\`, \`dfflibmap\`, \`abc\` mapping for delay, then buffering and sizing)"
  echo "onto the OSU 0.18 um standard cells of"
  echo "Debian's qflow-tech-osu018, then OpenSTA with [constraints/tc_router.sdc](../constraints/tc_router.sdc):"
  echo "2 ns clock, 0.4 ns input and output delays, the reset and the simulation port"
  echo "\`obs_o\` untimed. FO4 of this library, measured in OpenSTA on an inverter chain"
  echo "each driving four: **$FO4 ns**. The goal: every register-to-register path"
  echo "within 80 FO4, i.e. 2 ns in a 65 nm-class process of about 25 ps FO4."
  echo
  echo "| block | parameters | cells | area (um^2) | flip-flops | worst reg-to-reg path with setup (ns) | FO4 | clock it allows in 0.18 um | within 80 FO4 |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >docs/synth.md
for b in $BLOCKS; do
  p=$(params $b)
  log=$OUT/$b.yosys.log
  yosys -q -l $log -p "read_verilog -sv -Irtl $RTL; read_verilog -lib rtl/tc_sram.v; chparam $p $b; \
    synth -top $b $(flatten $b); dfflibmap -liberty $LIB; $(abc $b); \
    setparam -unset Words -unset Width t:tc_sram; setundef -zero; opt_clean -purge; stat -liberty $LIB; \
    write_verilog -noattr -noexpr -simple-lhs $OUT/$b.v" >/dev/null
  # the totals: the whole hierarchy's where there is one
  cells=$(awk '/Number of cells:/ { c = $4 } END { print c }' $log)
  area=$(awk '/Chip area for (top )?module/ { a = $NF } END { print a }' $log)
  ffs=$(awk '/design hierarchy/ { s = 0 } /DFF/ && /^ +[A-Z]/ { s += $2 } END { print s + 0 }' $log)
  path=$(sta -no_splash -exit <(cat <<EOF
read_liberty $LIB
read_liberty $OUT/tc_macros.lib
read_verilog $OUT/$b.v
link_design $b
read_sdc $SDC
report_checks -path_delay max -from [all_registers -clock_pins] -to [all_registers -data_pins] -format full -digits 3
EOF
) 2>&1 | tee $OUT/$b.sta.log | awk '/library setup time/ { s = -$1 } /data arrival time/ && a == "" { a = $1 } /slack/ { print a + s; exit }')
  awk -v b=$b -v p="$p" -v c=$cells -v a=$area -v f=$ffs -v d="${path:-0}" -v fo4=$FO4 'BEGIN {
    gsub(/-set /, "", p)
    printf "| %s | %s | %d | %.0f | %d | %.2f | %.0f | %.0f MHz | %s |\n", b, p, c, a, f, d, d / fo4, (d > 0 ? 1000 / d : 0), (d / fo4 <= 80 ? "yes" : "no") }' >>docs/synth.md
  echo "synth: $b" >&2
done
{
  cat <<EOF

The column "with setup" is the path's arrival plus the capturing flip-flop's (or the
memory's) setup time: the shortest clock period that path allows. OpenSTA's slack
against the 2 ns clock is negative in 0.18 um (about 20 FO4 fit in 2 ns of this
process); the FO4 column is what carries over to a 65 nm-class process.

The Reducer's memory (16 trees x 16 ReduceIds x (1 + RedFlits) words x 128 bits = 96 kbit:
per (TreeId, ReduceId) the partial result's data flits, and a held result's header)
is \`tc_sram\`, kept a black box: a two-port SRAM macro, timed by a model
whose figures are assumptions in FO4 (data out $MEM_CQ FO4 after the clock, about 0.5 ns
at 65 nm; inputs set up $MEM_SETUP FO4 before it). Its area is not in the table.

EOF
  # From here the numbers are read back from the table and the OpenSTA logs; the text
  # names the paths that were worst when it was written, and says so if they change.
  row() { awk -F'|' -v b="$1" -v f="$2" '{ n = $2; gsub(/ /, "", n) } n == b { v = $f; gsub(/ /, "", v); print v }' docs/synth.md; }
  endp() { awk -v k="$1:" '$1 == k { print $2; exit }' $OUT/$2.sta.log; }
  over=$(awk -F'|' '$10 ~ /^ *no *$/ { n = $2; f = $8; gsub(/ /, "", n); gsub(/ /, "", f); printf "%s%s (%s FO4)", s, n, f; s = ", " }' docs/synth.md)
  if [ -n "$over" ]; then echo "Over the 80 FO4 budget: $over."; else echo "Every block is within 80 FO4."; fi
  echo "Until \`tc_rr_arb\` found the first requester with a binary tree, its N = 256 instance"
  echo "(the Reducer's copy arbiter) was a ripple of about 255 gates: 375 FO4 in the Reducer, 407 in the router."
  if [ -n "$(row tc_reducer 8)" ]; then
    echo
    if [ "$(endp Startpoint tc_reducer)/$(endp Endpoint tc_reducer)" = u_mem/u_mem ]; then
      echo "The Reducer's worst path ($(row tc_reducer 7) ns, $(row tc_reducer 8) FO4) starts and ends at its memory: the"
      echo "stored flit (\`rdata_o\`, $MEM_CQ FO4 after the clock) through the 64-bit ALU (\`combined\`) and"
      echo "\`red_flit\` back into the write data (\`wdata_i\`, set up $MEM_SETUP FO4 before the clock)."
    else
      echo "The Reducer's worst path ($(row tc_reducer 7) ns, $(row tc_reducer 8) FO4) is no longer the one this text describes"
      echo "(the memory's read data through the ALU into its write data): see \`$OUT/tc_reducer.sta.log\`."
    fi
  fi
  if [ -n "$(row tc_router 8)" ]; then
    log=$OUT/tc_router.sta.log
    echo
    echo "The router (1D: 2 links, 7 units) keeps its blocks as modules; OpenSTA times the paths"
    if [ "$(endp Startpoint tc_router)" = u_reducer/u_mem ] && endp Endpoint tc_router | grep -q '^g_unit\[6\]\.u_unit/'; then
      # the FO4 spent in each block along the path: up to the last cell in it
      split=$(awk -v f=$FO4 'BEGIN { name["u_reducer"] = "the Reducer"; name["g_unit[5].u_unit"] = "the result buffer"
          name["u_phase"] = "tc_phase"; name["u_credit_block"] = "the credit block"; name["g_unit[6].u_unit"] = "the report buffer" }
        /library setup time/ { printf "%s %.0f and its setup %.0f", name[last], (t - t0) / f, -$1 / f; exit }
        / (\^|v) [^ ]*\/Y \(/ {
          b = $4; sub(/\/.*/, "", b); if (b != last && last != "") { printf "%s %.0f, ", name[last], (t - t0) / f; t0 = t }
          last = b; t = $2 }
        / (\^|v) u_reducer\/u_mem\/rdata_o/ { t0 = $2; printf "the memory %.0f, ", $2 / f }' $log)
      cells=$(awk '/data arrival time/ { exit } /\/Y \(/ { c++ } END { print c }' $log)
      echo "across them. Its worst path ($(row tc_router 7) ns, $(row tc_router 8) FO4; $cells cells after the memory) starts at"
      echo "the Reducer's memory: the stored flit through the ALU into the result flit, whose length"
      echo "field enters the result buffer (unit 5) as a header's would: its \`tail\`, then the"
      echo "packets it holds after the cycle (\`npkt_o\`) into tc_phase's fence, whose \`clear\` gives"
      echo "\`send_o\` (a phase packet may be written); the credit block's \`gen_phase\` then writes the"
      echo "report buffer (unit 6, \`wr_valid_i\`), and the path ends in its flit storage \`mem_q\`."
      echo "In FO4: $split."
      echo "A flit out of the ALU is never a header, so the length field's part of the path is not"
      echo "a real one; from tc_phase's fence to the report buffer it is. OpenSTA with the length"
      echo "field cut (when this was written): 99 FO4, from the result buffer's"
      echo "\`wr_slot_q\` (its room, the Reducer's \`res_room_i\`) through the copy arbiter and"
      echo "\`cp_pick\`, which clears its entry of \`fenced_q\`, and the OR of the 256 (\`fenced_o\`: a fenced"
      echo "result still held) into the same fence's \`clear\` and on the same way; with tc_phase's"
      echo "\`send_o\`/\`done_o\` cut: 82 FO4, the Reducer's input register through the header's lookup"
      echo "(\`err_o\`) into the credit block's lost-error counter \`lost_q\`."
    elif [ "$(endp Startpoint tc_router)" = u_reducer/u_mem ] && [ "$(endp Endpoint tc_router | cut -d/ -f1)" = u_phase ]; then
      echo "across them. Its worst path ($(row tc_router 7) ns, $(row tc_router 8) FO4) starts at the Reducer's memory: the"
      echo "stored flit through the ALU into the result flit, whose header fields enter the result buffer;"
      echo "its packets after the cycle (\`npkt_o\`) give the place in the FIFO of a fenced result, which"
      echo "tc_phase's fence register takes. Until the fence's \`clear\` stopped waiting for that place (a"
      echo "fenced result being made keeps the fence closed anyway), the path went on through \`clear\`, the"
      echo "credit block's phase packet and the report buffer's write: 109 FO4."
    else
      echo "across them. Its worst path ($(row tc_router 7) ns, $(row tc_router 8) FO4) runs from"
      echo "\`$(endp Startpoint tc_router)\` to \`$(endp Endpoint tc_router)\` (\`$OUT/tc_router.sta.log\`)."
    fi
    echo "The result and report buffers' drop signals were taken off the credit block (they cannot"
    echo "drop; docs/microarchitecture.md): with them, a path ran from the Reducer through the result"
    echo "buffer's write back into the error queue, 81 FO4, and 104 FO4 through the report buffer's."
  fi
} >>docs/synth.md
echo "synth: docs/synth.md"
