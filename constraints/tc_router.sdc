# Timing constraints of the router and of each of its blocks (read by OpenSTA in
# `make synth`, sim/synth.sh). Units: ns, pF (the OSU 0.18 um library).

# The router clock: 500 MHz (Mukosey, Semenov, Simonov, 2015: the "Angara" router chip), 2 ns.
create_clock -name clk -period 2.0 [get_ports clk_i]
set_clock_uncertainty 0.05 [get_clocks clk]

# Link, PE and configuration ports are registered at the far end (the link and PCIe
# delay lines of tc_torus, a neighbour's buffer): each side gets 20% of the cycle.
set data_in [lsearch -inline -all -not -exact [all_inputs] [get_ports clk_i]]
set_input_delay 0.4 -clock clk $data_in
set_output_delay 0.4 -clock clk [all_outputs]
set_driving_cell -lib_cell INVX1 $data_in
set_load 0.02 [all_outputs]

# The reset is asynchronous, released synchronously outside the router.
if {![catch {get_ports rst_ni}]} {
  set_false_path -from [get_ports rst_ni]
}
# obs_o is the simulation observation port: no logic reads it in a chip.
if {![catch {get_ports obs_o*} obs] && [llength $obs] > 0} {
  set_false_path -to $obs
}

# A false path, in the router only: nothing but data flits comes out of a Reducer
# slice's ALU (tc_reducer.v: red_flit takes the ALU's result only when the flit is not a
# header, and the slice's result buffer's write takes the slice's flits packet for
# packet, header first, so such a flit never arrives as a header). What leaves the ALU
# is only written: into the slice's memory (the partial result) and, through its result
# buffer's write port, into that buffer's memory. The slices are g_slice[k].u_reducer
# (k < RedSlices): the pattern takes the ALU of every one. The static paths from the ALU into the logic
# that reads a header as it is written (the result buffer's length, tail and packet
# count, its header registers, the phase counters' fence, the credit block's drop
# record, which the result buffer never raises) are never exercised: they are cut.
# What stays timed from the ALU: the write data of every memory.
if {![catch {get_pins *u_reducer/u_alu/y_o*} alu_y] && [llength $alu_y] > 0} {
  set alu_ends {}
  foreach p [all_registers -data_pins] {
    if {![regexp {/u_mem/wdata_i\[} [get_full_name $p]]} { lappend alu_ends $p }
  }
  set_false_path -through $alu_y -to $alu_ends
}
