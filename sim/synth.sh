#!/usr/bin/env bash
# Synthesis with timing (make synth): each block and the routers of 1 to 4 dimensions,
# Yosys mapped onto the OSU 0.18 um library (Debian qflow-tech-osu018), then OpenSTA
# with constraints/tc_router.sdc. Reports cells, area, flip-flops, SRAM bits and the
# worst register-to-register path in ns and in FO4 (the library's, measured here on an
# inverter chain) into docs/synth.md, and the routers' rows into docs/synth.csv.
# Usage: sim/synth.sh [row ...] (the rows are listed in ROWS below; without arguments
# every row). Each row's results are kept in build/synth/<row>.res, and the documents
# are written from every row that has them, so a partial run mixes in older results:
# `make synth` runs them all; SYNTH_DOCS_ONLY=1 only writes the documents from the saved results.
# SYNTH_STA_ONLY=1 reuses the rows' netlists in build/synth
# and only times them again (after a change of the SDC or of the reports).
set -eu
cd "$(dirname "$0")/.."
source sim/lib.sh
LIB=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
SDC=constraints/tc_router.sdc
OUT=build/synth
mkdir -p $OUT
RTL=$(ls rtl/*.v | grep -v tc_sram.v | tr "\n" " ")
GOAL=80 ASPIRATION=50 # FO4

# The rows: a block with the parameters it has in the 1D or the 4D router (where they
# differ: the number of ports and units), and the routers. CW 6 is the router's packet
# count width with the default Slots 16 and InjSlots 40. The router has NU = 2 NP + 2 +
# RedSlices units and NP + 1 + RedSlices outputs (NP = 2 NumDims links); the rows without
# a suffix have the default RedSlices 1 (1D: 7 units, 4D: 19), the rows _s2 and _s4
# RedSlices 2 and 4 (the Reducer in slices, each with its input, ALU and result buffer).
ROWS="arb_1d arb_4d arb_4d_s4 phase_1d phase_4d phase_4d_s4 credit_1d credit_4d credit_4d_s4
      vc_1d vc_4d vc_4d_s4 fifo_4d reducer_4d reducer_4d_s4
      fpsum_in fpsum_merge fpsum_out fpsum_out_comb router_1d router_2d router_3d router_4d
      router_1d_s2 router_2d_s2 router_3d_s2 router_4d_s2 router_1d_s4 router_2d_s4 router_3d_s4 router_4d_s4
      reducer_4d_s4_n64"
# row: module | chparam arguments | what it is
row_def() {
  case $1 in
    arb_1d) echo "tc_rr_arb|-set N 7 -set IdxW 5|an output's switch allocator of the 1D router, 7 units" ;;
    arb_4d) echo "tc_rr_arb|-set N 19 -set IdxW 5|an output's switch allocator of the 4D router, 19 units" ;;
    phase_1d) echo "tc_phase|-set NumPorts 2 -set CW 6|the barrier's phase counters, 1D" ;;
    phase_4d) echo "tc_phase|-set NumPorts 8 -set CW 6|the barrier's phase counters, 4D" ;;
    credit_1d) echo "tc_credit_block|-set NU 7|the credit block, 1D" ;;
    credit_4d) echo "tc_credit_block|-set NU 19|the credit block, 4D" ;;
    vc_1d) echo "tc_vc_unit|-set NumPorts 2 -set Slots 16 -set CW 6|a VC buffer, also the result and the report buffer, 1D" ;;
    vc_4d) echo "tc_vc_unit|-set NumPorts 8 -set Slots 16 -set CW 6|a VC buffer, also the result and the report buffer, 4D" ;;
    fifo_4d) echo "tc_vc_unit|-set NumPorts 8 -set Slots 40 -set CW 6 -set Vals 1|the PEGroup FIFO with the Broadcaster (it frames an FSUM contribution of values by its wire length), 4D" ;;
    reducer_4d) echo "tc_reducer|-set NumPorts 8|the Reducer with its copy arbiter over the 16 trees, 4D" ;;
    # the blocks that change with the Reducer's slices, in the 4D router with RedSlices 4
    # (2 x 8 + 2 + 4 = 22 units, 8 + 1 + 4 = 13 outputs)
    arb_4d_s4) echo "tc_rr_arb|-set N 22 -set IdxW 5|an output's switch allocator of the 4D router with 4 Reducer slices, 22 units" ;;
    phase_4d_s4) echo "tc_phase|-set NumPorts 8 -set RedSlices 4 -set CW 6|the barrier's phase counters, 4D, 4 Reducer slices" ;;
    credit_4d_s4) echo "tc_credit_block|-set NU 22 -set RedSlices 4|the credit block, 4D, 4 Reducer slices" ;;
    vc_4d_s4) echo "tc_vc_unit|-set NumPorts 8 -set Slots 16 -set RedSlices 4 -set CW 6|a VC buffer, also a result and the report buffer, 4D, 4 Reducer slices (13 outputs)" ;;
    reducer_4d_s4) echo "tc_reducer|-set NumPorts 8 -set Slices 4 -set Slice 0|a Reducer slice of 4 (its 4 trees), 4D" ;;
    fpsum_in) echo "tc_fpsum_in||the floating-point sum's conversion in, an IEEE value to a binned element (combinational)" ;;
    fpsum_merge) echo "tc_fpsum_merge||the floating-point sum's step, y = a + b on binned elements (combinational)" ;;
    fpsum_out) echo "tc_fpsum_out||the floating-point sum's conversion out, a binned element to an IEEE value (pipelined: input register, two stages, output register; in each Reducer slice)" ;;
    fpsum_out_comb) echo "tc_fpsum_out|-set Pipe 0|the same conversion as one combinational path (Pipe 0, the waveform view's decoding)" ;;
    router_[1-4]d) echo "tc_router|-set NumDims ${1:7:1}|the router, ${1:7:1}D" ;;
    router_[1-4]d_s[24]) echo "tc_router|-set NumDims ${1:7:1} -set RedSlices ${1: -1}|the router, ${1:7:1}D, ${1: -1} Reducer slices" ;;
    # 64 ReduceIds a tree (RedRids 64): four times the Reducer's entries (section "64 ReduceIds a tree")
    reducer_4d_s4_n64) echo "tc_reducer|-set NumPorts 8 -set Slices 4 -set Slice 0 -set RedRids 64|a Reducer slice of 4 with 64 ReduceIds a tree, 4D" ;;
    *) echo "sim/synth.sh: no row $1 (rows: $ROWS)" >&2; return 1 ;;
  esac
}
field() { row_def "$1" | cut -d'|' -f"$2"; }

# Blocks are flattened; a router keeps its blocks as modules, each mapped by ABC on its
# own (ABC's buffering crashed on the flat router), and OpenSTA times across them.
# Identical instances (every VC buffer with the result and the report buffer, the
# outputs' arbiters) share one module per parameter set, mapped once: the 4D router's 18
# buffers cost one mapping, not 18.
flatten() { [ "$1" = tc_router ] || echo -flatten; }
# Every module is mapped by ABC with the delay script ABC below. Once ABC's buffering
# stopped with "node has no fanout" on the credit block inside the router, which was then
# mapped by ABC's own script (for area) there; it no longer does, but if it does again the
# router is synthesized once more that way (abc fallback) and docs/synth.md says so.
abc() {
  local a="abc -D 2000 -constr $OUT/abc.constr -liberty $LIB"
  if [ "${1:-}" = fallback ]; then echo "$a -script $ABC *credit_block* %n; $a *credit_block*"; else echo "$a -script $ABC"; fi
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
# Every memory is tc_sram (two-port: one write port, one synchronous read port): the
# Reducer's partial results (16 trees x 16 ReduceIds x (1 + RedFlits) words), each VC
# buffer, the result and the report buffer (Slots x 8 flits) and the PEGroup FIFO
# (InjSlots x 8 flits), 128 bits a word. Synthesis keeps it a black box: an SRAM macro.
# Each shape that occurs becomes a cell tc_sram_<Words>x<Width> of its own, with
# address and data buses of its widths, so that OpenSTA links every pin and times every
# path into and out of every memory. The figures are assumptions in FO4, so that they
# scale with the process: data out 20 FO4 after the clock (about 0.5 ns at 65 nm),
# inputs (write enable, addresses, write data) set up 5 FO4 before it. One figure for
# every shape: a 128-word buffer would be somewhat faster than the 768-word memory.
MEM_CQ=20 MEM_SETUP=5
# the shapes of the tc_sram instances in a row's design: "Words Width" lines
shapes() {
  yosys -q -p "read_verilog -sv -Irtl $RTL; read_verilog -lib rtl/tc_sram.v; chparam $2 $1; \
    hierarchy -top $1; tee -q -o $OUT/$3.shapes dump t:tc_sram" >/dev/null 2>&1
  awk '/^ *cell / { w = d = "" } /parameter .*\\Words / { w = $NF } /parameter .*\\Width / { d = $NF }
       w != "" && d != "" { print w, d; w = d = "" }' $OUT/$3.shapes | sort -un
}
macro_lib() { # stdin: the shapes
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
EOF
  while read -r words width; do
    local aw=0
    while [ $((1 << aw)) -lt "$words" ]; do aw=$((aw + 1)); done
    cat <<EOF
  type (addr_${words}x$width) { base_type : array; data_type : bit; bit_width : $aw; bit_from : $((aw - 1)); bit_to : 0; downto : true; }
  type (data_${words}x$width) { base_type : array; data_type : bit; bit_width : $width; bit_from : $((width - 1)); bit_to : 0; downto : true; }
  cell (tc_sram_${words}x$width) {
    pin (clk_i) { direction : input; clock : true; capacitance : 0.02; }
    pin (we_i) { direction : input; capacitance : 0.01; $in }
    bus (waddr_i) { bus_type : addr_${words}x$width; direction : input; capacitance : 0.01; $in }
    bus (raddr_i) { bus_type : addr_${words}x$width; direction : input; capacitance : 0.01; $in }
    bus (wdata_i) { bus_type : data_${words}x$width; direction : input; capacitance : 0.01; $in }
    bus (rdata_o) { bus_type : data_${words}x$width; direction : output;
      timing () { related_pin : "clk_i"; timing_type : rising_edge;
        cell_rise (scalar) { values ("$cq"); } cell_fall (scalar) { values ("$cq"); }
        rise_transition (scalar) { values ("0.2"); } fall_transition (scalar) { values ("0.2"); } } }
  }
EOF
  done
  echo "}"
}
printf 'set_driving_cell INVX1\nset_load 0.02\n' >$OUT/abc.constr # ABC buffers and sizes against these
# ABC's own script for a liberty maps for area: a 64-bit adder came out rippled (6.9 ns);
# this one maps for delay against the 2 ns target, then buffers and sizes (2.1 ns).
# cleanup before buffer: ABC's buffering stopped with "node has no fanout" on the Reducer
# since its 256-input copy arbiter; cleanup drops that dangling node (the other blocks'
# netlists are the same with it).
ABC='+strash;dch;map,-D,2000;cleanup;buffer;upsize,-D,2000;dnsize,-D,2000;stime,-p'

# The blocks along a path of an OpenSTA report (the first in the log after the line $2,
# if given): "block FO4" per line, in the order the path crosses them, each up
# to its last pin, then the setup. A pin a/_12_/Y belongs to block a, a pin of the top
# module's own cells to "top", a memory's to its instance (g_slice[0].u_reducer/u_mem), a
# Reducer slice's ALU and copy arbiter to their own (g_slice[0].u_reducer/u_alu), an input
# port to "input".
path_split() {
  awk -v f=$FO4 -v from="${2:-}" '
    from == "" || $0 == from { look = 1 }
    look && /^Startpoint:/ { on = 1 }
    on && /library setup time/ { if (last != "") printf "%s %.1f\n", last, (t - t0) / f; printf "setup %.1f\n", -$1 / f; exit }
    on && /data arrival time/ { arrived = 1 }
    on && !arrived && NF >= 5 && ($3 == "^" || $3 == "v") && $5 ~ /^\(/ {
      pin = $4; inst = pin; sub(/\/[^\/]*$/, "", inst)
      if ($5 == "(in)") b = "input"
      else if ($5 ~ /^\(tc_sram_/) b = inst
      else if (inst !~ /\//) b = "top"
      else if (inst ~ /^(g_slice\[[0-9]+\]\.)?u_reducer\/[^\/]*\//) { split(inst, c, "/"); b = c[1] "/" c[2] }
      else { b = inst; sub(/\/.*/, "", b) }
      if (b != last && last != "") { printf "%s %.1f\n", last, (t - t0) / f; t0 = t }
      last = b; t = $2 }' "$1"
}

# The OpenSTA reports of a design: its worst register-to-register path (with the
# registers it starts and ends at named by their nets), every endpoint's worst path
# (-format end), the worst path into and the worst out of each memory, and the
# endpoints no clock constrains.
cat >$OUT/report.tcl <<'EOF'
# the register a pin belongs to, by the net its flip-flop drives (the cells' own
# names are Yosys's numbers), or the memory
proc reg_name {pin} {
  set c [get_cells -of_objects $pin]
  set n [get_full_name $c]
  if {[string match tc_sram_* [get_property $c ref_name]]} { return "$n ([get_property $c ref_name])" }
  foreach p [get_pins -of_objects $c] {
    if {[get_property $p direction] == "output"} { return [get_full_name [get_nets -of_objects $p]] }
  }
  return $n
}
# the block of a pin: the instance of the top module it is in ("top": the top
# module's own cells), a memory by its instance
proc block_of {pin} {
  set c [get_cells -of_objects $pin]
  set n [get_full_name $c]
  if {[string match tc_sram_* [get_property $c ref_name]]} { return $n }
  set i [string first / $n]
  if {$i < 0} { return top }
  return [string range $n 0 [expr {$i - 1}]]
}
# a path's start (a register's clock pin, or an input port) and end pins: the path's
# pins run from its end back to the clock's source port for a register
set clk_srcs {}
foreach c [all_clocks] { foreach p [get_property $c sources] { lappend clk_srcs [get_full_name $p] } }
proc ends {pe} {
  global clk_srcs
  set pins [[$pe path] pins]
  set s [lindex $pins end]
  if {[$s is_top_level_port] && [lsearch -exact $clk_srcs [get_full_name $s]] >= 0} {
    foreach p $pins { if {![$p is_top_level_port]} { set s $p } }
  }
  return [list $s [lindex $pins 0]]
}
proc describe {path_ends} {
  foreach pe $path_ends {
    lassign [ends $pe] s e
    if {[$s is_top_level_port]} { puts "Start port: [get_full_name $s]" } else { puts "Start register: [reg_name $s]" }
    puts "End register: [reg_name $e]"
  }
}
set regs_from [all_registers -clock_pins]
set regs_to [all_registers -data_pins]
set worst [lindex [find_timing_paths -path_delay max -from $regs_from -to $regs_to -group_count 1] 0]
describe [list $worst]
# a path's arrival plus setup is k - slack (a path end found is deleted by the next search)
set k [expr {[$worst data_arrival_time] + [$worst margin] + [$worst slack]}]
report_checks -path_delay max -from $regs_from -to $regs_to -format full -digits 3
# Every endpoint whose worst path (arrival plus setup) exceeds the limit (the
# aspiration), grouped by the blocks it starts and ends in: how many, the worst of
# them, and that path in full.
set over [find_timing_paths -path_delay max -from $regs_from -to $regs_to -group_count 1000000 \
  -endpoint_count 1 -slack_max [expr {$k - $limit * $fo4 * 1e-9}]]
set groups [dict create]
foreach pe $over {
  lassign [ends $pe] s e
  set key "[block_of $s] -> [block_of $e]"
  set d [expr {([$pe data_arrival_time] + [$pe margin]) * 1e9 / $fo4}]
  if {$d <= $limit} { continue }
  if {![dict exists $groups $key]} { dict set groups $key [list 0 0 "" ""] }
  lassign [dict get $groups $key] n m ps pe2
  incr n
  if {$d > $m} { set m $d; set ps $s; set pe2 $e }
  dict set groups $key [list $n $m $ps $pe2]
}
puts "=== over $limit FO4"
dict for {key v} $groups {
  lassign $v n m s e
  puts [format "Over: %s | %d | %.1f | %s | %s" $key $n $m [reg_name $s] [reg_name $e]]
}
dict for {key v} $groups {
  lassign $v n m s e
  puts "=== over $key"
  report_checks -path_delay max -from [get_pins -of_objects [get_cells -of_objects $s] -filter "direction == input"] -to $e -format full -digits 3
}
foreach c [get_cells -hierarchical *] {
  if {[string match tc_sram_* [get_property $c ref_name]]} {
    set n [get_full_name $c]
    set wd {}
    set rd {}
    foreach p [get_pins -of_objects $c] {
      if {[string match wdata_i* [get_property $p lib_pin_name]]} { lappend wd $p }
      if {[string match rdata_o* [get_property $p lib_pin_name]]} { lappend rd $p }
    }
    puts "=== into $n ([llength $wd] data pins)"
    describe [find_timing_paths -path_delay max -to $wd -group_count 1]
    report_checks -path_delay max -to $wd -format full -digits 3
    puts "=== out of $n ([llength $rd] data pins)"
    describe [find_timing_paths -path_delay max -through $rd -to $regs_to -group_count 1]
    report_checks -path_delay max -through $rd -to $regs_to -format full -digits 3
  }
}
puts "=== unconstrained"
check_setup -verbose -unconstrained_endpoints
# the paths the SDC's false path cuts (set there in the router only), timed without it
if {[info exists alu_y]} {
  unset_path_exceptions -through $alu_y -to $alu_ends
  puts "=== cut"
  describe [find_timing_paths -path_delay max -through $alu_y -to $alu_ends -group_count 1]
  report_checks -path_delay max -through $alu_y -to $alu_ends -format full -digits 3
}
EOF

# A router's standard cells by block, from the last statistics of its Yosys log $1
# (each module's own area and cells, and the modules it instantiates): lines
# "blk_<block>=<area> <cells> <instances>" for the router's own logic (top), the Reducer
# slices without their ALUs (red), their ALUs (alu), the units' buffers (unit: the link
# VC buffers, the PEGroup FIFO, the result and the report buffers), the outputs'
# arbiters (arb), the credit block and tc_phase; their sum is the router's.
blocks() {
  python3 - "$1" tc_router <<'PY'
import re, sys
text = open(sys.argv[1]).read()
last = text.rfind("Printing statistics.")
text = text[last:]
mods = {}  # name -> [own area, own std cells, {child: count}]
for sec in re.split(r"\n=== ", text)[1:]:
    name, body = sec.split(" ===", 1)
    if name == "design hierarchy":
        break
    m = re.search(r"Chip area for module '\\?(.*?)': ([0-9.]+)", body)
    area = float(m.group(2)) if m else 0.0
    ch, cells = {}, 0
    for l in body.splitlines():
        mm = re.match(r"^     (\S+)\s+(\d+)$", l)
        if mm:
            n, c = mm.group(1), int(mm.group(2))
            if n.startswith("tc_sram_"):
                continue
            if re.match(r"^[A-Z][A-Z0-9]*$", n):
                cells += c
            else:
                ch[n] = c
    mods[name] = [area, cells, ch]
def base(n):
    n = re.sub(r"^\$paramod(\$[0-9a-f]+)?", "", n)
    return [p for p in n.split("\\") if p][0]
def total(n):
    a, c, ch = mods[n]
    for k, v in ch.items():
        ka, kc = total(k)
        a += v * ka; c += v * kc
    return a, c
top = [n for n in mods if base(n) == sys.argv[2]][0]
cat = {"top": [mods[top][0], mods[top][1], 1]}
def add(k, a, c, n):
    x = cat.setdefault(k, [0.0, 0, 0]); x[0] += a; x[1] += c; x[2] += n
for ch, cnt in mods[top][2].items():
    b = base(ch)
    if b == "tc_reducer":
        ra, rc = total(ch)
        for g, gc in mods[ch][2].items():
            if base(g) == "tc_alu":
                aa, ac = total(g); add("alu", cnt * gc * aa, cnt * gc * ac, cnt * gc); ra -= gc * aa; rc -= gc * ac
        add("red", cnt * ra, cnt * rc, cnt)
    else:
        k = {"tc_vc_unit": "unit", "tc_rr_arb": "arb", "tc_credit_block": "credit", "tc_phase": "phase"}.get(b, b)
        a, c = total(ch); add(k, cnt * a, cnt * c, cnt)
for k, (a, c, n) in sorted(cat.items()):
    print("blk_%s=%.0f %d %d" % (k, a, c, n))
PY
}

# a row's synthesis: the shapes of its memories, Yosys, OpenSTA, and its results in
# $OUT/<row>.res (key=value)
run_row() {
  local r=$1 m p log t0 t1 t2 chtype="" shp fallback=0 comb
  m=$(field $r 1)
  p=$(field $r 2)
  log=$OUT/$r.yosys.log
  t0=$(date +%s)
  shp=$(shapes $m "$p" $r)
  echo "$shp" | awk 'NF == 2' | macro_lib >$OUT/$r.macros.lib
  while read -r words width; do
    [ -n "$words" ] || continue
    chtype="$chtype chtype -set tc_sram_${words}x$width t:tc_sram r:Words=$words %i r:Width=$width %i;"
  done <<<"$shp"
  ys() {
    yosys -q -l $log -p "read_verilog -sv -Irtl $RTL; read_verilog -lib rtl/tc_sram.v; chparam $p $m; \
      synth -top $m $(flatten $m); dfflibmap -liberty $LIB; $1; \
      $chtype select -assert-none t:tc_sram; setparam -unset Words -unset Width t:tc_sram_*; \
      setundef -zero; opt_clean -purge; stat -liberty $LIB; \
      write_verilog -noattr -noexpr -simple-lhs $OUT/$r.v" >/dev/null 2>$OUT/$r.yosys.err
  }
  local ty_old=""
  [ -n "${SYNTH_STA_ONLY:-}" ] && [ -s $OUT/$r.v ] && ty_old=$(sed -n 's/^t_yosys=//p' $OUT/$r.res 2>/dev/null)
  if [ -z "${SYNTH_STA_ONLY:-}" ] || [ ! -s $OUT/$r.v ]; then
    if ! ys "$(abc)"; then
      [ $m = tc_router ] || { cat $OUT/$r.yosys.err >&2; return 1; }
      echo "synth: $r: ABC failed ($(grep -m1 -i error $OUT/$r.yosys.err)); the credit block again with ABC's own script" >&2
      fallback=1
      ys "$(abc fallback)" || { cat $OUT/$r.yosys.err >&2; return 1; }
    fi
  fi
  t1=$(date +%s)
  if grep -qE '^ *DFF[A-Z0-9]* ' $OUT/$r.v; then # registers: timed between them
    comb=0
    sta -no_splash -exit <(cat <<EOF
read_liberty $LIB
read_liberty $OUT/$r.macros.lib
read_verilog $OUT/$r.v
link_design $m
read_sdc $SDC
set limit $ASPIRATION
set fo4 $FO4
source $OUT/report.tcl
EOF
) >$OUT/$r.sta.log 2>&1
  else
    # A combinational block (not yet placed between registers): its worst path from an
    # input port to an output port, the ports driven and loaded as the SDC's, with no
    # input or output delay: the logic's own depth, which the pipeline stages it will
    # be cut into share.
    comb=1
    sta -no_splash -exit <(cat <<EOF
read_liberty $LIB
read_verilog $OUT/$r.v
link_design $m
create_clock -name vclk -period 2.0
set_input_delay 0 -clock vclk [all_inputs]
set_output_delay 0 -clock vclk [all_outputs]
set_driving_cell -lib_cell INVX1 [all_inputs]
set_load 0.02 [all_outputs]
set pe [lindex [find_timing_paths -path_delay max -from [all_inputs] -to [all_outputs] -group_count 1] 0]
set pins [[\$pe path] pins]
puts "Start port: [get_full_name [lindex \$pins end]]"
puts "End port: [get_full_name [lindex \$pins 0]]"
report_checks -path_delay max -from [all_inputs] -to [all_outputs] -format full -digits 3
EOF
) >$OUT/$r.sta.log 2>&1
  fi
  t2=$(date +%s)
  # the totals: the whole hierarchy's where there is one (its last section); the
  # memories are cells there, not in the cells or area
  {
    awk '/^=== / { cells = ffs = sram = mac = 0; delete mem }
      /Number of cells:/ { cells = $4 }
      /Chip area for (top )?module/ { area = $NF }
      /^ +[A-Z][A-Z0-9]* +[0-9]+$/ && /DFF/ { ffs += $2 }
      /^ +tc_sram_[0-9]+x[0-9]+ +[0-9]+$/ { split(substr($1, 9), s, "x"); sram += $2 * s[1] * s[2]; mac += $2; mem[substr($1, 9)] = $2 }
      END { printf "cells=%d\narea=%.0f\nffs=%d\nsram=%d\nmacros=%d\n", cells - mac, area, ffs, sram, mac
            for (k in mem) printf "mem_%s=%d\n", k, mem[k] }' $log
    echo "t_yosys=${ty_old:-$((t1 - t0))}"
    echo "t_sta=$((t2 - t1))"
    echo "abc_fallback=$fallback"
    echo "comb=$comb"
    awk '/^Start (register|port):/ && s == "" { s = $3 } /^End (register|port):/ && e == "" { e = $3 }
      /library setup time/ { t = -$1 } /data arrival time/ && a == "" { a = $1 }
      /slack/ { printf "ns=%.3f\nstart=%s\nend=%s\n", a + t, s, e; exit }' $OUT/$r.sta.log
    echo "split=$([ $comb = 1 ] || path_split $OUT/$r.sta.log | paste -sd,)" # blocks along the path (none in a combinational row)
    if grep -q '^=== cut' $OUT/$r.sta.log; then
      awk '/^=== cut/ { on = 1 } on && /^Start register:/ { s = $3 } on && /^End register:/ { e = $3 }
        on && /library setup time/ { t = -$1 } on && /data arrival time/ && a == "" { a = $1 }
        on && /slack/ { printf "cut_ns=%.3f\ncut_start=%s\ncut_end=%s\n", a + t, s, e; exit }' $OUT/$r.sta.log
      echo "cut_split=$(path_split $OUT/$r.sta.log '=== cut' | paste -sd,)"
    fi
    [ $m != tc_router ] || blocks $log
    echo "unconstrained=$(awk '/^=== / { on = /^=== unconstrained/; next } on && /^  / && $1 !~ /^obs_o/ { printf "%s%s", s, $1; s = " " }' $OUT/$r.sta.log)"
  } >$OUT/$r.res
  echo "synth: $r ($((t1 - t0)) s Yosys, $((t2 - t1)) s OpenSTA)" >&2
}

# ---- the documents, from every row's results ----
val() { sed -n "s/^$2=//p" $OUT/$1.res 2>/dev/null | head -1; }
fo4of() { awk -v d="$1" -v f=$FO4 'BEGIN { printf "%.1f", d / f }'; }
# a readable name for a block of a row's design (np: the router's link ports, 0 for a
# block; ks: its Reducer slices, 1 if empty). With one slice the names are the
# Reducer's, the result buffer, the Reducer input; with more, slice k's.
BNAME='function bname(b, np, ks,   n, u, o, mem, D, k, red) {
    split("X+ X- Y+ Y- Z+ Z- W+ W-", D, " ")
    ks = ks + 0 > 1 ? ks + 0 : 1
    mem = sub(/\/u_mem$/, "", b)
    if (b == "top") n = np ? "the router'"'"'s own logic (allocation, output registers)" : "logic"
    else if (b == "u_mem") n = "the SRAM"
    else if (b ~ /^g_unit\[/) {
      u = b; sub(/^g_unit\[/, "", u); u += 0
      n = u < 2 * np ? "the " D[int(u / 2) + 1] " " (u % 2 ? "VCDown" : "VCUp") " buffer" : \
          u == 2 * np ? "the PEGroup FIFO" : u > 2 * np + ks ? "the report buffer" : \
          ks == 1 ? "the result buffer" : "slice " (u - 2 * np - 1) "'"'"'s result buffer"
    } else if (b ~ /^g_out\[/) {
      o = b; sub(/^g_out\[/, "", o); o += 0
      n = (o < np ? "the " D[o + 1] " output" : o == np ? "the PE output" : \
           ks == 1 ? "the Reducer input" : "slice " (o - np - 1) "'"'"'s Reducer input") "'"'"'s arbiter"
    } else if (b ~ /^(g_slice\[[0-9]+\]\.)?u_reducer(\/|$)/) {
      k = b; sub(/\.?u_reducer.*$/, "", k); sub(/^g_slice\[/, "", k); k += 0
      red = ks == 1 ? "the Reducer" : "Reducer slice " k
      n = b ~ /\/u_alu$/ ? red "'"'"'s ALU" : b ~ /\/u_cp_arb$/ ? red "'"'"'s copy arbiter" : red
    } else if (b == "u_phase") n = "tc_phase"
    else if (b == "u_credit_block") n = "the credit block"
    else n = b
    if (mem) n = (b == "u_mem" ? "the SRAM" : n (n ~ /s$/ ? "'"'"'" : "'"'"'s") " SRAM")
    return n
  }'
# "block FO4,block FO4,...,setup FO4" -> "name FO4, name FO4, ... and setup FO4"
# ($2: the router's link ports, 0 for a block; $3: its Reducer slices)
split_text() {
  echo "$1" | awk -v np="$2" -v ks="${3:-1}" "$BNAME"'
    { n = split($0, p, ","); s = ""
      for (i = 1; i <= n; i++) {
        k = split(p[i], w, " "); f = w[k]; b = p[i]; sub(/ [^ ]*$/, "", b)
        if (f + 0 == 0 && b != "setup") continue # the end pin alone in a block
        s = s (s != "" ? (i == n ? " and " : ", ") : "") (b == "setup" ? "its setup" : bname(b, np, ks)) " " f
      }
      print s }'
}
np_of() { case $1 in router_[1-4]d*) echo $((2 * ${1:7:1})) ;; *) echo 0 ;; esac; }
# a row's Reducer slices (RedSlices of a router, Slices of a Reducer, the units' and
# outputs' RedSlices of a block): the suffix _s2 or _s4 (before _n64), else 1
ks_of() { case $1 in *_s[24]) echo ${1: -1} ;; *_s[24]_n*) local t=${1%_n*}; echo ${t: -1} ;; *) echo 1 ;; esac; }
# a router row's name as the documents give it: 4D, or 4D with 4 slices
rname() { local k; k=$(ks_of $1); echo "${1:7:1}D$([ $k = 1 ] || echo ", $k slices")"; }
ROUTERS=$(for r in $ROWS; do case $r in router_*) echo $r ;; esac; done | sort -t_ -k2,2 -k3,3 | tr '\n' ' ')

# A register of a router, named for explain(): a result buffer's (g_unit[2 np + 1 + k].x)
# as res/x, the report buffer's as rep/x, a Reducer slice's (g_slice[k].u_reducer/x) as
# red/x, the rest as it is.
reg_kind() {
  local x=$1 np=$2 ks=$3 u
  if [[ $x =~ ^g_unit\[([0-9]+)\]\.(.*)$ ]]; then
    u=${BASH_REMATCH[1]}
    if [ $u -eq $((2 * np + 1 + ks)) ]; then echo "rep/${BASH_REMATCH[2]}"; return; fi
    if [ $u -gt $((2 * np)) ]; then echo "res/${BASH_REMATCH[2]}"; return; fi
  elif [[ $x =~ ^(g_slice\[[0-9]+\]\.)?u_reducer/(.*)$ ]]; then
    echo "red/${BASH_REMATCH[2]}"; return
  fi
  echo "$x"
}
# What a path does, for the kinds of path that have been among the worst (read from its
# start and end registers; nothing if it is of none of these kinds). $3: the router's
# link ports, $4: its Reducer slices.
explain() {
  local np=$3 ks=${4:-1} s e
  s=$(reg_kind "$1" $np $ks)
  e=$(reg_kind "$2" $np $ks)
  local red="the Reducer" ne=256
  [ $ks = 1 ] || { red="the Reducer slice"; ne=$((256 / ks)); }
  case $e in
    u_credit_block/q_q* | u_credit_block/n_q* | u_credit_block/lost_q*)
      if [ "$s" != "${s#g_out}" ]; then # from a Reducer input's register, through the fence
        echo "It ends in the credit block's error queue (\`q_q\`, \`n_q\`, \`lost_q\`), whose pop (an error report"
        echo "written into the report buffer) waits for its arbiter's late step: a phase packet or the"
        echo "barrier's completion goes first when tc_phase's fence is clear, which waits for every fenced"
        echo "result $([ $ks = 1 ] && echo "the Reducer holds or makes" || echo "the slices hold or make") this cycle (\`fenced_o\`, decided from the contribution's header)."
        return 0
      fi
      echo "It ends in the credit block's error queue (\`q_q\`, \`n_q\`, \`lost_q\`): a unit's drop (\`drop_o\`, a header"
      echo "that finds its slot full) or route error (\`err_o\`, RC's verdict on its head header) joins"
      echo "the cycle's count of errors (\`nev\`, an adder tree over the units' error bits) and the record"
      echo "of the first of them (\`rec\`, one-hot AND-OR over the units); the RC before it picks the head"
      echo "header, reads its tree's row of the table and decides." ;;
    u_credit_block/up_cred_q*)
      echo "It ends in the credits a tree may still send up (\`up_cred_q\`): per tree, the link units"
      echo "whose RC this cycle takes a CREDIT packet of it without error (\`route_o\`, \`err_o\`, the head"
      echo "header's type and tree) are counted (\`got\`, an adder tree), after each unit's RC (its head"
      echo "header, the tree's row of the table, the verdict)." ;;
    u_phase/fence_q*)
      echo "It ends in tc_phase's fence (\`fence_q\`), which takes the packets each fenced unit holds"
      echo "after the cycle (\`npkt_o\`); a result buffer's count includes a packet $red begins"
      echo "to write this cycle (\`res_valid_o\`), which $red decides from the contribution's"
      echo "header and its look-ups: the entry (busy, count, sources seen) among $ne, and the tree's row"
      echo "of its copy of the table (\`red_table_q\`: the root bit, the contributions expected)." ;;
    rep/*)
      echo "It ends in the report buffer, written by the credit block: a phase packet or the barrier's"
      echo "completion is written when tc_phase's fence is clear (\`send_o\`, \`done_o\`), which waits for"
      echo "every fenced result $([ $ks = 1 ] && echo "the Reducer holds or makes" || echo "the slices hold or make") this cycle (\`fenced_o\`, decided from the"
      echo "contribution's header and its entry$([ $ks = 1 ] || echo "; the slices' \`fenced_o\` ORed in the router"))." ;;
    res/u_unit/u_mem* | red/u_mem*)
      case $s in
        red/u_mem*)
          echo "$([ $ks = 1 ] && echo "The Reducer's ALU: the partial result read from the Reducer's SRAM" || echo "A Reducer slice's ALU: the partial result read from the slice's SRAM") combined with the"
          echo "contribution's data flit, written back, or into the result buffer for the last one." ;;
        u_credit_block/up_cred_q*)
          echo "It starts at the credits of a tree (\`up_cred_q\`): whether a held result may leave"
          echo "(\`up_ok_o\`) makes it one of the copy arbiter's 256 requests, whose grant (\`cp_pick\`)"
          echo "is the address the copy reads." ;;
      esac ;;
    res/u_unit/nfull_q*)
      echo "It ends in the result buffer's count of full slots (\`nfull_q\`), one more when $red"
      echo "writes a result's last flit this cycle (\`res_valid_o\`, decided from the contribution's"
      echo "header and its look-ups: the entry among $ne, the tree's row of the table)." ;;
    u_credit_block/seq_q* | u_credit_block/gen_* | u_credit_block/report_due_q*)
      echo "It ends in the credit block's choice of the packet it writes into the report buffer: a"
      echo "phase packet or the barrier's completion goes first when tc_phase's fence is clear, which"
      echo "waits for every fenced result $([ $ks = 1 ] && echo "the Reducer holds or makes" || echo "the slices hold or make") this cycle (\`fenced_o\`)." ;;
    red/fenced_q* | red/ready_q* | u_credit_block/due_q* | u_credit_block/since_q*)
      case $s in
        u_credit_block/up_cred_q*)
          echo "It starts at the credits of a tree (\`up_cred_q\`): whether a held result may leave"
          echo "(\`up_ok_o\`) makes it one of the copy arbiter's 256 requests; the grant (\`cp_start\`,"
          echo "\`cp_pick\`) clears that entry's held and fenced bits and counts the result made, per"
          echo "tree, in the credit block." ;;
      esac ;;
    g_out*)
      if [ "$s" != "${s#res/}" ]; then
        echo "It starts at the result buffer: its room (\`can_write_o\`) lets $red start to copy a"
        echo "held result (the copy arbiter's grant, \`cp_start\`); a copy bars the Reducer input's output"
        echo "from granting (\`block_o\`, the router's \`red_block\`, which gates that arbiter's grant), and"
        echo "the grant decides what the output register loads (\`flit_q\`, \`len_q\`)."
      else
        echo "It ends in an output register (\`flit_q\`, \`len_q\`, \`owner_q\`): the units' requests (\`req_o\`)"
        echo "pass the output's checks (credits, one pass per read port) into its round-robin arbiter,"
        echo "whose winner selects the header the register loads."
      fi ;;
  esac
}
# A stage of a path (the first after the line $2 of the log $1) that takes more than 5 FO4
# in a standard cell: a net that fans out across module ports, which ABC does not buffer
# (it maps one module at a time).
slow_stage() {
  awk -v f=$FO4 -v from="$2" '
    $0 == from { look = 1 }
    look && /^Startpoint:/ { on = 1 }
    on && /data arrival time/ { exit }
    on && NF >= 5 && ($3 == "^" || $3 == "v") && $5 ~ /^\(/ {
      if ($1 / f > 5 && $5 !~ /^\((tc_sram_|in\))/) {
        printf "%s %.1f\n", (prev ~ /\/CLK$/ ? "start" : $4), $1 / f; exit }
      prev = $4 }' "$1"
}
slow_text() { # $1: slow_stage's output, $2: the start register
  [ -n "$1" ] || return 0
  local where=${1% *} fo=${1##* }
  if [ "$where" = start ]; then where="the start register \`$2\`'s own output"; else where="\`$where\`"; fi
  echo "Of it, $where takes $fo FO4: a net that fans out through module ports, which ABC leaves"
  echo "unbuffered as it maps one module at a time; a buffer tree would take a few FO4."
}

# The section on the Reducer's slices: for each router that was synthesized with more
# than one slice, its totals and its area by block beside the same router with one.
blk() { val $1 blk_$2 | cut -d' ' -f${3:-1}; } # a router's block: area (1), cells (2), instances (3)
slices_section() {
  local r d k base any=0
  for r in $ROUTERS; do [ "$(ks_of $r)" != 1 ] && [ -s $OUT/$r.res ] && any=1; done
  [ $any = 1 ] || return 0
  cat <<EOF
## The Reducer's slices

With RedSlices k (1, 2 or 4) the Reducer is k slices (\`g_slice[j].u_reducer\`, each a
\`tc_reducer\` with Slices k), slice j reducing the trees t with t mod k = j. Each slice has
what the one Reducer had: an input of its own (a switch output, \`g_out[NP + 1 + j]\`, with
its arbiter over every unit and its output register), an ALU, a copy arbiter over its
trees, and a result buffer (a unit, \`g_unit[2 NP + 1 + j]\`, a VC buffer's logic with a
128 x 128 SRAM); every unit requests and is granted by k - 1 more outputs, every output
arbitrates over k - 1 more units. The Reducer's state is split, not multiplied: a slice
holds 16/k trees' entries (busy, count, sources, the first header's fields, the
held-result bits, the turns) and 768/k words of partial results, so the Reducer's SRAM
bits stay 98,304 and only the result buffers add SRAM (16,384 bits each). The credit block
and tc_phase take every slice's events (its errors, completions, results made, fences).

The routers, each beside itself with one slice:

| router | slices | cells | area (um^2) | area vs 1 slice | flip-flops | SRAM bits | worst path (FO4) | within $GOAL FO4 | worst path from, to |
|---|---|---|---|---|---|---|---|---|---|
EOF
  for r in $ROUTERS; do
    [ -s $OUT/$r.res ] || continue
    d=${r:7:1} k=$(ks_of $r) base=router_${r:7:1}d
    awk -v d=$d -v k=$k -v c=$(val $r cells) -v a=$(val $r area) -v a1="$(val $base area)" -v f=$(val $r ffs) \
        -v s=$(val $r sram) -v x=$(fo4of $(val $r ns)) -v g=$GOAL -v st="$(val $r start)" -v en="$(val $r end)" 'BEGIN {
      printf "| %dD | %d | %d | %.0f | %s | %d | %d | %.1f | %s | `%s` to `%s` |\n", d, k, c, a,
        (k == 1 || a1 == "" ? "" : sprintf("%+.1f%%", 100 * a / a1 - 100)), f, s, x, (x <= g ? "yes" : "no"), st, en }'
  done
  local over=""
  for r in $ROUTERS; do
    [ -s $OUT/$r.res ] && [ "$(ks_of $r)" != 1 ] || continue
    awk -v x=$(fo4of $(val $r ns)) -v g=$GOAL 'BEGIN { exit !(x > g) }' && over="$over; $(rname $r) ($(fo4of $(val $r ns)) FO4)"
  done
  echo
  if [ -z "$over" ]; then
    echo "Every router synthesized with 2 or 4 slices stays within the goal of $GOAL FO4 (its worst path"
    echo "in its section below)."
  else
    echo "Over the goal of $GOAL FO4 with slices: ${over#; } (the worst paths in the sections below)."
  fi
  cat <<EOF

The area by block (um^2 of standard cells; in brackets the instances): the Reducer slices
without their ALUs, the ALUs (\`tc_alu\` with the floating-point sum's step), the units
(the link VC buffers, the PEGroup FIFO, the result buffers and the report buffer), the
outputs' arbiters, the router's own logic (the switch's allocation and output registers,
the routing table's copies), the credit block and tc_phase.

| router | slices | Reducer slices | ALUs | units | output arbiters | router's own logic | credit block | tc_phase |
|---|---|---|---|---|---|---|---|---|
EOF
  for r in $ROUTERS; do
    [ -s $OUT/$r.res ] || continue
    [ -n "$(val $r blk_top)" ] || continue
    printf "| %sD | %s |" ${r:7:1} $(ks_of $r)
    for b in red alu unit arb top credit phase; do printf " %s (%s) |" "$(blk $r $b)" "$(blk $r $b 3)"; done
    echo
  done
  echo
  local adds
  adds=$(for r in $ROUTERS; do
    k=$(ks_of $r) base=router_${r:7:1}d
    [ $k != 1 ] && [ -s $OUT/$r.res ] && [ -s $OUT/$base.res ] && [ -n "$(val $r blk_top)" ] && [ -n "$(val $base blk_top)" ] || continue
    local args="" b
    for b in red alu unit arb top credit phase; do args="$args -v $b=$(( $(blk $r $b) - $(blk $base $b) ))"; done
    awk -v name="$(rname $r)" -v tot=$(( $(val $r area) - $(val $base area) )) -v pct="$(awk -v a=$(val $r area) -v b=$(val $base area) 'BEGIN { printf "%.1f", 100 * a / b - 100 }')" \
        -v nalu=$(( $(blk $r alu 3) - $(blk $base alu 3) )) -v nunit=$(( $(blk $r unit 3) - $(blk $base unit 3) )) $args 'BEGIN {
      printf "- %s: %+d (+%s%%): %d more ALU%s %+d (%.0f%%), the units with %d more result buffer%s %+d (%.0f%%), the switch (arbiters and the router'"'"'s own logic) %+d (%.0f%%), the Reducer slices'"'"' own logic %+d (%.0f%%), the credit block and tc_phase %+d (%.0f%%).\n",
        name, tot, pct, nalu, (nalu > 1 ? "s" : ""), alu, 100 * alu / tot, nunit, (nunit > 1 ? "s" : ""), unit, 100 * unit / tot, arb + top, 100 * (arb + top) / tot, red, 100 * red / tot,
        credit + phase, 100 * (credit + phase) / tot }'
  done)
  if [ -n "$adds" ]; then
    echo "What the slices add, against the same router with one slice (um^2, and the share of the"
    echo "added area):"
    echo
    echo "$adds"
    echo
  fi
  local b any4=0
  for b in arb phase credit vc reducer; do [ -s $OUT/${b}_4d.res ] && [ -s $OUT/${b}_4d_s4.res ] && any4=1; done
  [ $any4 = 1 ] || return 0
  echo "The blocks that change with the slices, alone, as in the 4D router with one slice and"
  echo "with four (the rows X_4d and X_4d_s4 of the table above; the Reducer's: one slice of four):"
  echo
  echo "| block | 1 slice: cells | area (um^2) | FO4 | 4 slices: cells | area (um^2) | FO4 |"
  echo "|---|---|---|---|---|---|---|"
  for b in arb phase credit vc reducer; do
    [ -s $OUT/${b}_4d.res ] && [ -s $OUT/${b}_4d_s4.res ] || continue
    echo "| $(field ${b}_4d_s4 1) | $(val ${b}_4d cells) | $(val ${b}_4d area) | $(fo4of $(val ${b}_4d ns)) | $(val ${b}_4d_s4 cells) | $(val ${b}_4d_s4 area) | $(fo4of $(val ${b}_4d_s4 ns)) |"
  done
  echo
}

# The section on 64 ReduceIds a tree: the Reducer slice with RedRids 64 beside the same
# slice with the default 16.
rids_section() {
  local r=reducer_4d_s4_n64 base=reducer_4d_s4 x
  [ -s $OUT/$r.res ] && [ -s $OUT/$base.res ] || return 0
  cat <<EOF
## 64 ReduceIds a tree

With RedRids 64 (\`red_rids\` in the tools) a tree has 64 ReduceIds instead of 16: a
Reducer slice's entries (busy, count, sources, the first header's fields, the
held-result bits) and its words of partial results are four times as many, its turns 6
bits a tree, and the credit block lets a child have 64 results of a tree in flight, a
credit worth 32. A slice of the 4D router with 4 slices, beside the same slice with 16:

| row | ReduceIds a tree | cells | area (um^2) | flip-flops | SRAM bits | worst path (FO4) | within $GOAL FO4 | worst path from, to |
|---|---|---|---|---|---|---|---|---|
EOF
  for x in $base $r; do
    awk -v r=$x -v n=$([ $x = $r ] && echo 64 || echo 16) -v c=$(val $x cells) -v a=$(val $x area) -v f=$(val $x ffs) \
        -v s=$(val $x sram) -v d=$(val $x ns) -v fo4=$FO4 -v g=$GOAL -v st="$(val $x start)" -v en="$(val $x end)" 'BEGIN {
      x = d / fo4
      printf "| %s | %d | %d | %.0f | %d | %d | %.1f | %s | `%s` to `%s` |\n", r, n, c, a, f, s, x, (x <= g ? "yes" : "no"), st, en }'
  done
  echo
  echo "The entries' state is flip-flops, so the four slices' grow the 4D router by about four"
  echo "times the difference of the rows above. The whole router with RedRids 64 is not a row:"
  echo "OpenSTA needed more than 20 GB for its netlist of some 700,000 cells, more than this"
  echo "machine class has; the slice's own paths are in the row above."
  echo
}

write_docs() { # docs/synth.md and .csv beside themselves (.tmp), moved into place when both are complete
  local r m p cells area ffs sram ns fo yn
  stage docs/synth.md docs/synth.csv
  {
    echo "# Synthesis and timing (generated by \`make synth\`)"
    echo
    echo "Yosys 0.23 (\`synth\`, \`dfflibmap\`, \`abc\` mapping for delay, then buffering and sizing)"
    echo "onto the OSU 0.18 um standard cells of"
    echo "Debian's qflow-tech-osu018, then OpenSTA with [constraints/tc_router.sdc](../constraints/tc_router.sdc):"
    echo "2 ns clock, 0.4 ns input and output delays, the reset and the simulation port"
    echo "\`obs_o\` untimed, one false path in the router (below). FO4 of this library, measured in"
    echo "OpenSTA on an inverter chain each driving four: **$FO4 ns**. The goal: every"
    echo "register-to-register path within $GOAL FO4, i.e. 2 ns in a 65 nm-class process of"
    echo "about 25 ps FO4; the aspiration $ASPIRATION FO4."
    echo
    echo "The blocks are synthesized with the parameters they have in the 1D router and in the"
    echo "4D router where these differ (ports and units); the Reducer only with the 4D router's"
    echo "(its ports change one comparison). Every router has the default parameters: Slots 16,"
    echo "InjSlots 40, PeCredits 48, RedFlits 2, and RedSlices 1, except the rows ending in _s2 and"
    echo "_s4: the routers with the Reducer in 2 and 4 slices (RedSlices 2, 4), and the blocks that"
    echo "change with the slices as they are in the 4D router with 4 (section \"The Reducer's slices\")."
    echo
    echo "| row | module | parameters | cells | area (um^2) | flip-flops | SRAM bits | worst reg-to-reg path with setup (ns) | FO4 | clock it allows in 0.18 um | within $GOAL FO4 | within $ASPIRATION FO4 | Yosys (s) | OpenSTA (s) |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for r in $ROWS; do
      [ -s $OUT/$r.res ] || continue
      m=$(field $r 1)
      p=$(field $r 2 | sed 's/-set //g')
      awk -v r=$r -v m=$m -v p="$p" -v c=$(val $r cells) -v a=$(val $r area) -v f=$(val $r ffs) -v s=$(val $r sram) \
          -v d=$(val $r ns) -v fo4=$FO4 -v g=$GOAL -v asp=$ASPIRATION -v ty=$(val $r t_yosys) -v ts=$(val $r t_sta) 'BEGIN {
        x = d / fo4
        printf "| %s | %s | %s | %d | %.0f | %d | %d | %.2f | %.1f | %.0f MHz | %s | %s | %d | %d |\n", r, m, p, c, a, f, s, d, x, 1000 / d,
          (x <= g ? "yes" : "no"), (x <= asp ? "yes" : "no"), ty, ts }'
    done
    echo
    cat <<EOF
"cells" and "area" are the standard cells only; the memories are black boxes, counted in
"SRAM bits" (Words x Width summed over every \`tc_sram\` instance in the hierarchy).
The column "with setup" is the path's arrival plus the capturing flip-flop's (or the
memory's) setup time: the shortest clock period that path allows. OpenSTA's slack
against the 2 ns clock is negative in 0.18 um (about 20 FO4 fit in 2 ns of this
process); the FO4 column is what carries over to a 65 nm-class process. The times are
wall-clock seconds on a 2-core machine shared with other jobs.
EOF
    if [ -s $OUT/total.time ]; then
      echo "The last full run of \`make synth\` took $(cat $OUT/total.time) s in all."
    else # the rows were run in parts
      echo "The rows' Yosys and OpenSTA times add up to $(for r in $ROWS; do [ -s $OUT/$r.res ] && echo $(($(val $r t_yosys) + $(val $r t_sta))); done | awk '{ s += $1 } END { print s + 0 }') s (the rows were run in parts)."
    fi
    echo
    # the verdict
    local meet="" miss="" asp=""
    for r in $ROUTERS; do
      [ -s $OUT/$r.res ] || continue
      fo=$(fo4of $(val $r ns))
      if awk -v x=$fo -v g=$GOAL 'BEGIN { exit !(x <= g) }'; then meet="$meet; $(rname $r) ($fo FO4)"; else miss="$miss; $(rname $r) ($fo FO4)"; fi
      if awk -v x=$fo -v g=$ASPIRATION 'BEGIN { exit !(x <= g) }'; then asp="$asp; $(rname $r)"; fi
    done
    echo "## Routers against the goal"
    echo
    meet=${meet#; } miss=${miss#; } asp=${asp#; }
    echo "Within $GOAL FO4: ${meet:-none}. Over it: ${miss:-none}. Within the aspiration of $ASPIRATION FO4: ${asp:-none}."
    echo
    slices_section
    rids_section
    echo "The routers keep their blocks as modules: Yosys maps each module once per parameter"
    echo "set (every VC buffer, the result and the report buffer share one module, the outputs'"
    echo "arbiters another) and OpenSTA times across the hierarchy. ABC maps every module for"
    echo "delay with the script in sim/synth.sh (once the credit block had to be mapped for area"
    echo "inside the router, as ABC's buffering failed on it; it no longer does). A register is"
    echo "named by a net its flip-flop drives, which may be another name for the same bits: a unit's"
    echo "\`waddr\` is \`{wr_slot_q, wr_idx_q}\` (3 bits of index), its \`hdr_o\` is \`hdr0_q\`, an output's"
    echo "\`link_flit_o\` or \`ej_flit_o\` its \`flit_q\`. \`g_unit[u]\` is unit u (u = 2 x port + VC for"
    echo "the links, then the PEGroup FIFO, the result buffer of each Reducer slice and the report buffer),"
    echo "\`g_out[o]\` output o (the links, the PE, the input of each Reducer slice), \`g_slice[k].u_reducer\`"
    echo "Reducer slice k (with RedSlices 1 the one Reducer)."
    echo
    cat <<EOF
What keeps the paths short, with every cycle as before (the C model is unchanged): the credit
block counts the cycle's errors and the credit packets per tree with adder trees and picks
the first error one-hot, where it used chains over the units; the Reducer's copy arbiter
and the Reducer input's arbiter take their late condition (the result buffer's room, a
copy under way) as an enable of the grant, not of every request; every buffer keeps
registers equal to its write slot's room, its head slot's and the next slot's full bits
and its number of full slots, each computed a cycle ahead from the next state, so no path
looks a slot up; the write, which comes late into the report buffer (from the credit
block, after tc_phase's fence), only selects between two counts of full slots made from
the registers, rather than entering an adder; and four equal registers hold the routing table (for the Reducer, the
VCUp buffers, the VCDown buffers, and the rest), so that no flip-flop drives every block.
The formal proofs (docs/formal.md) show each such register equal to what it stands for.
EOF
    for r in $ROWS; do
      [ "$(val $r abc_fallback)" = 1 ] && echo "In $r ABC failed on the credit block with that script, which was mapped by ABC's own (area) script there instead: its paths are longer than they need be."
    done
    echo
    for r in $ROUTERS; do
      [ -s $OUT/$r.res ] || continue
      local np=$(np_of $r) d=${r:7:1} ks=$(ks_of $r)
      echo "### ${d}D router$([ $ks = 1 ] || echo ", $ks Reducer slices") ($np links, $((2 * np + 2 + ks)) units, $((np + 1 + ks)) outputs)"
      echo
      echo "Worst path: $(val $r ns) ns, $(fo4of $(val $r ns)) FO4, from \`$(val $r start)\` to \`$(val $r end)\`."
      echo "FO4 spent along it, block by block (each up to its last cell on the path; the first"
      echo "includes the clock-to-output): $(split_text "$(val $r split)" $np $ks)."
      local over=0
      awk -v g=$ASPIRATION '/^Over: / { split(substr($0, 7), f, " \\| "); if (f[3] + 0 > g) n++ } END { exit !n }' $OUT/$r.sta.log && over=1
      if [ $over = 0 ]; then # else it is the first of the list below
        explain "$(val $r start)" "$(val $r end)" $np $ks
        slow_text "$(slow_stage $OUT/$r.sta.log "")" "$(val $r start)"
      fi
      echo
      [ $over = 0 ] || {
        echo "Endpoints over the aspiration of $ASPIRATION FO4, by the blocks their worst paths start and"
        echo "end in (each group's worst path with its FO4 per block):"
        echo
        awk '/^Over: / { print }' $OUT/$r.sta.log | awk -F' [|] ' -v g=$ASPIRATION '{ sub(/^Over: /, "", $1); if ($3 + 0 > g) print $3 "|" $1 "|" $2 "|" $4 "|" $5 }' |
          sort -t'|' -k1,1 -rn | while IFS='|' read -r fo key n s e; do
            local sp
            sp=$(path_split $OUT/$r.sta.log "=== over $key" | paste -sd,)
            echo "- $fo FO4, $n endpoints: \`$s\` to \`$e\`: $(split_text "$sp" $np $ks)."
            explain "$s" "$e" $np $ks | sed 's/^/  /'
            slow_text "$(slow_stage $OUT/$r.sta.log "=== over $key")" "$s" | sed 's/^/  /'
          done
        echo
      }
      if [ -n "$(val $r cut_ns)" ]; then
        echo "The false path (below) cut, in this router, a path of $(val $r cut_ns) ns, $(fo4of $(val $r cut_ns)) FO4, from"
        echo "\`$(val $r cut_start)\` to \`$(val $r cut_end)\`: $(split_text "$(val $r cut_split)" $np $ks)."
        echo "It is $([ $ks = 1 ] && echo "the Reducer's ALU's" || echo "a Reducer slice's ALU's") result taken as a header's length by $([ $ks = 1 ] && echo "the" || echo "its") result buffer."
        echo
      fi
    done
    cat <<EOF
## The memories

Every memory is \`tc_sram\` (rtl/tc_sram.v: one write port, one synchronous read port), kept
a black box: an SRAM macro. Each shape that occurs becomes a cell \`tc_sram_<Words>x<Width>\`
of a liberty model written by sim/synth.sh, with address and data buses of its own
widths, so that OpenSTA links every pin of every instance. Its figures are assumptions in
FO4, so that they scale with the process: read data $MEM_CQ FO4 after the clock (about 0.5 ns at
65 nm), write enable, addresses and write data set up $MEM_SETUP FO4 before it; the same for every
shape (a 128-word buffer would be somewhat faster than the 768-word memory). Their area is not
in the table. The instances of each shape per router:

EOF
    local shapes_all routers_done=""
    for r in $ROUTERS; do [ -s $OUT/$r.res ] && routers_done="$routers_done $r"; done
    printf "| shape | what |"; for r in $routers_done; do printf " %s |" "$(rname $r)"; done; echo
    printf "|---|---|"; for r in $routers_done; do printf -- "---|"; done; echo
    shapes_all=$(cat $OUT/router_*d*.res 2>/dev/null | sed -n 's/^mem_\([0-9]*x[0-9]*\)=.*/\1/p' | sort -t x -k1,1n -u)
    for s in $shapes_all; do
      local what="" w=${s%x*} k
      [ $w -eq $((16 * 8)) ] && what="a VC buffer, a result and the report buffer: Slots 16 x 8 flits"
      [ $w -eq $((40 * 8)) ] && what="the PEGroup FIFO: InjSlots 40 x 8 flits"
      [ $w -eq $((16 * 16 * 3)) ] && what="the Reducer's partial results: 16 trees x 16 ReduceIds x (1 + RedFlits 2) words"
      for k in 2 4; do
        [ $w -eq $((16 / k * 16 * 3)) ] && what="a Reducer slice's partial results, of $k: $((16 / k)) trees x 16 ReduceIds x 3 words"
      done
      printf "| %s | %s |" "$s" "$what"
      for r in $routers_done; do printf " %s |" "$(val $r mem_$s)"; done
      echo
    done
    echo
    echo "Every memory's paths are timed: OpenSTA links every pin and reports none of them"
    echo "unconstrained. The worst path into a memory's write data and the worst out of its read"
    echo "data, per router and kind of memory, over the instances of that kind (FO4 with the setup;"
    echo "a link's or the PE's buffer is written straight from the router's input port, and that"
    echo "path includes the port's 0.4 ns input delay):"
    echo
    echo "| router | memory | instances | into: FO4, from | out of: FO4, to |"
    echo "|---|---|---|---|---|"
    for r in $ROUTERS; do
      [ -s $OUT/$r.sta.log ] || continue
      awk -v f=$FO4 -v np=$(np_of $r) -v ks=$(ks_of $r) -v r="$(rname $r)" "$BNAME"'
        function kind(b) { b = bname(b, np, ks)
          if (b ~ /V[CU][a-zA-Z]* buffer/) return "the link VC buffers'"'"' SRAMs"
          if (b ~ /^slice .*result buffer/) return "the result buffers'"'"' SRAMs"
          if (b ~ /^Reducer slice /) return "the Reducer slices'"'"' SRAMs"
          return b }
        function flush(   k) { if (inst == "") return
          k = kind(inst)
          if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
          if (dir == "into") { n[k]++; if (fo + 0 > ifo[k] + 0) { ifo[k] = fo; is[k] = s } }
          else if (fo + 0 > ofo[k] + 0) { ofo[k] = fo; oe[k] = e }
          fo = "none"; s = e = "" }
        /^=== into / { flush(); inst = $3; dir = "into"; inside = 1; a = t = ""; next }
        /^=== out of / { flush(); dir = "out"; a = t = ""; next }
        /^=== / { flush(); inst = ""; inside = 0; next }
        !inside { next }
        /^Start (register|port): / { s = ($2 == "port:" ? "input port " : "") "`" $3 "`" }
        /^End register: / { e = "`" $3 "`" }
        /data arrival time/ && a == "" { a = $1 }
        /library setup time/ && t == "" { t = -$1; fo = sprintf("%.1f", (a + t) / f) }
        END { flush()
          for (i = 1; i <= nk; i++) { k = order[i]; printf "| %s | %s | %d | %s, %s | %s, %s |\n", r, k, n[k], ifo[k], is[k], ofo[k], oe[k] } }' $OUT/$r.sta.log
    done
    echo
    local unc=""
    for r in $ROUTERS; do [ -n "$(val $r unconstrained)" ] && unc="$unc $(rname $r): \`$(val $r unconstrained)\`;"; done
    if [ -n "$unc" ]; then
      echo "Endpoints of the routers without a timed path, other than \`obs_o\`'s bits:${unc%;}."
    else
      echo "In the routers no endpoint but \`obs_o\`'s bits is left without a timed path (OpenSTA's"
      echo "\`check_setup -unconstrained_endpoints\`)."
    fi
    echo
    cat <<EOF
## The false path

Nothing but data flits comes out of the Reducer's ALU: \`red_flit\` takes the ALU's result
only when the flit is not a header, and the result buffer takes the Reducer's flits packet
for packet, header first. The static paths from the ALU into the logic that reads a header
as it is written (the result buffer's length, tail and packet count, its header registers,
tc_phase's fence, the credit block's drop record, which the result buffer never raises) are
never exercised, and constraints/tc_router.sdc cuts them; what stays timed from the ALU is
the write data of the memories (the Reducer's own and, through the result buffer's write
port, the result buffer's). The paths from the Reducer's memory to the same header logic
without the ALU (a held result's header, copied) are real and stay timed. With the Reducer
in slices the same holds for each slice, its ALU and its result buffer: the SDC cuts the
paths from every slice's ALU (\`g_slice[k].u_reducer/u_alu\`). The routers' sections above
give the path the exception cut.
EOF
    if [ -s $OUT/reducer_4d.res ]; then
      echo
      echo "## The blocks"
      echo
      for r in $ROWS; do
        case $r in router_*) continue ;; esac
        [ -s $OUT/$r.res ] || continue
        if [ "$(val $r comb)" = 1 ]; then
          echo "- $r, $(field $r 3): $(fo4of $(val $r ns)) FO4 from input \`$(val $r start)\` to output \`$(val $r end)\`."
        else
          echo "- $r, $(field $r 3): $(fo4of $(val $r ns)) FO4 from \`$(val $r start)\` to \`$(val $r end)\`: $(split_text "$(val $r split)" 0)."
        fi
      done
      echo
      echo "A block alone is timed from its registers only: a path that enters from an input port"
      echo "is counted in the routers, where the port is driven by another block's register."
      echo "The floating-point sum's blocks fpsum_in, fpsum_merge and fpsum_out_comb are combinational:"
      echo "the step (fpsum_merge) is in the Reducer's ALU, the conversion in in each Reducer slice's"
      echo "input, between a value's register and the element's, and fpsum_out_comb is the conversion out"
      echo "without its registers. Their rows give the"
      echo "worst path from an input port to an output port, with no input or output delay and no"
      echo "setup, the logic's own depth. fpsum_out is the conversion out as each Reducer slice has it,"
      echo "between registers, timed from its registers like every other block."
    fi
  } >docs/synth.md.tmp
  # beside each router of one Reducer slice, docs/synth-int-alu.csv's row: the same router
  # before the Reducer's ALU took the floating-point sum (integer lanes only; make synth at
  # that design); the routers with 2 and 4 slices (column red_slices) have none
  {
    echo "router,dims,cells,area_um2,flops,sram_bits,fo4,cells_int_alu,area_um2_int_alu,fo4_int_alu,red_slices"
    for k in 1 2 4; do # one slice first: the rows the file had before the column red_slices
      for r in $ROUTERS; do
        [ -s $OUT/$r.res ] && [ "$(ks_of $r)" = $k ] || continue
        local before=",,"
        [ $k = 1 ] && before=$(awk -F, -v d=${r:7:1} '$2 == d { print $3 "," $4 "," $7 }' docs/synth-int-alu.csv)
        echo "tc_router,${r:7:1},$(val $r cells),$(val $r area),$(val $r ffs),$(val $r sram),$(fo4of $(val $r ns)),${before:-,,},$k"
      done
    done
  } >docs/synth.csv.tmp
  publish docs/synth.md.tmp docs/synth.md
  publish docs/synth.csv.tmp docs/synth.csv
  echo "synth: docs/synth.md, docs/synth.csv" >&2
}

if [ -n "${SYNTH_DOCS_ONLY:-}" ]; then # the documents from the rows' saved results alone
  write_docs
  exit 0
fi
T0=$(date +%s)
rows=${*:-$ROWS}
for r in $rows; do row_def $r >/dev/null; done
i=0
for r in $rows; do progress "Yosys and OpenSTA: $r ($((i += 1)) of $(wc -w <<<"$rows"))"; run_row $r; done
if [ "$rows" = "$ROWS" ] && [ -z "${SYNTH_STA_ONLY:-}" ]; then echo $(($(date +%s) - T0)) >$OUT/total.time; fi
write_docs
