# torcoll: `make sim` runs the RTL regression on the default 4x4 torus,
# `make test` runs every test. See README.md.
.DEFAULT_GOAL := sim
SHELL := /bin/bash

B       := build
CC      ?= gcc
CFLAGS  ?= -O2 -g
WFLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

CMODEL_SRC := $(wildcard cmodel/*.c cmodel/netsim/*.c)
TB_SRC     := tb/pe.c tb/events.c tb/scenario.c tb/cosim.c tb/scoreboard.c tb/waveview.c tb/dut_cmodel.c tb/alu_vec.c
UNIT_SRC   := $(wildcard tb/unit/test_*.c)
ALU_SRC    := rtl/tc_alu.v rtl/tc_alu_lane.v rtl/tc_fpsum_merge.v
FPSUM_SRC  := rtl/tc_fpsum_in.v rtl/tc_fpsum_merge.v rtl/tc_fpsum_out.v
RTL_SRC    := $(wildcard rtl/*.v)
HDRS       := $(wildcard cmodel/*.h cmodel/netsim/*.h tb/*.h tb/unit/*.h) cmodel/format.def cmodel/params.def

# Verilated networks: name = NumDims SizeX SizeY SizeZ SizeW. The first is the default.
NETS       := 4x4 5 2x3 3x3x2 2x2x2x2 4x4x4 4x4x2x2
# make wave's torus (any, as make sim NETS=...)
NET        ?= $(firstword $(NETS))
# A network with its own parameters is named NET@SPEC: SPEC is letters each followed by
# a value, any of them left out for the default below: s Slots, i InjSlots,
# p PeCredits, r RedFlits, n RedRids, k RedSlices, l LinkLat, j InjLat, e EjLat. build/cosim_5@s2i2p1r1l40j3000e3000
# is the 5-node ring with 2 slots, ... (make build/cosim_NET@SPEC, or make cosim-params).
net_topo    = $(firstword $(subst @, ,$(1)))
net_spec    = $(subst n, n,$(subst s, s,$(subst i, i,$(subst p, p,$(subst r, r,$(subst k, k,$(subst l, l,$(subst j, j,$(subst e, e,$(word 2,$(subst @, ,$(1))))))))))))
net_par     = $(or $(patsubst $(2)%,%,$(filter $(2)%,$(call net_spec,$(1)))),$(3))
net_dims    = $(words $(subst x, ,$(call net_topo,$(1))))
net_size    = $(or $(word $(2),$(subst x, ,$(call net_topo,$(1)))),1)
# The network parameters' defaults, LINK_LAT INJ_LAT EJ_LAT SLOTS INJ_SLOTS PE_CREDITS
# RED_FLITS RED_RIDS RED_SLICES (each ?=: the command line or the environment may set it), read from their
# one source, cmodel/params.def (docs/params.md).
PARAM_DEFAULTS := $(shell sed -n 's/^TC_PARAM.\([a-z_]*\), *[A-Za-z]*, *\([0-9]*\),.*/\U\1\E?=\2/p' cmodel/params.def)
$(foreach d,$(PARAM_DEFAULTS),$(eval $(d)))
$(if $(filter 9,$(words $(PARAM_DEFAULTS))),,$(error cmodel/params.def: expected 9 parameters, read '$(PARAM_DEFAULTS)'))

include sim/deps.mk

# ---------------------------------------------------------------- C model, tb
$(B)/%.o: %.c $(HDRS) | $(B)
	@mkdir -p $(dir $@)
	$(CC) $(WFLAGS) $(CFLAGS) -c $< -o $@
$(B)/san/%.o: %.c $(HDRS) | $(B)
	@mkdir -p $(dir $@)
	$(CC) $(WFLAGS) -O1 -g $(SAN) -c $< -o $@

$(B)/libtc.a: $(CMODEL_SRC:%.c=$(B)/%.o)
	ar rcs $@ $^
$(B)/libtb.a: $(TB_SRC:%.c=$(B)/%.o)
	ar rcs $@ $^
# tcnet, the network simulator, is built as one program for this machine's processor:
# -O3 -march=native -flto made it 1.5x faster than -O2 from libtc.a, and clang's code
# (where clang is installed) is faster than gcc's on its router cycle; its results are
# the same (sim/tcnet_same.sh). TCNET_OPT="-O2" builds it portably, TCNET_CC=gcc with gcc.
TCNET_CC ?= $(if $(shell command -v clang 2>/dev/null),clang,$(CC))
TCNET_OPT ?= -O3 -march=native $(if $(filter clang,$(TCNET_CC)),-flto,-flto=auto)
$(B)/tcnet: tools/tcnet.c $(CMODEL_SRC) $(HDRS) | $(B)
	$(TCNET_CC) $(WFLAGS) $(TCNET_OPT) -o $@ $< $(CMODEL_SRC)
$(B)/tckern: tools/tckern.c cmodel/netsim/apps.h | $(B)
	$(CC) $(WFLAGS) -O2 -fopenmp -o $@ $<
$(B)/tccheck: tools/tccheck.c $(B)/libtc.a $(HDRS)
	$(CC) $(WFLAGS) -O2 -o $@ $< $(B)/libtc.a

# The floating-point sum's independent check: exact sums in GNU MPFR, no cmodel/ code.
$(B)/fpsum_verify: tb/fpsum_verify.c | $(B) deps
	$(CC) $(WFLAGS) -O2 -o $@ $< -lmpfr -lgmp -lm
$(B)/tcsim: $(B)/libtb.a $(B)/tb/dut_none.o $(B)/libtc.a
	$(CC) -o $@ $(B)/tb/dut_none.o $(B)/libtb.a $(B)/libtc.a
$(B)/tcsim-san: $(TB_SRC:%.c=$(B)/san/%.o) $(B)/san/tb/dut_none.o $(CMODEL_SRC:%.c=$(B)/san/%.o)
	$(CC) $(SAN) -o $@ $^

# A unit test's own libraries: test_fpsum checks against GNU MPFR and GMP.
UNIT_LIBS :=
$(B)/unit/test_fpsum $(B)/unit-san/test_fpsum $(B)/gcov/unit/test_fpsum: UNIT_LIBS := -lmpfr -lgmp
$(B)/unit/%: tb/unit/%.c $(B)/libtb.a $(B)/libtc.a $(HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(WFLAGS) $(CFLAGS) -o $@ $< $(B)/libtb.a $(B)/libtc.a -lcmocka $(UNIT_LIBS)
# The sanitized unit tests link the C model's sanitized objects (build/san/, the same
# flags as build/tcsim-san's, which shares them), compiled once, not once a test.
$(B)/unit-san/%: $(B)/san/tb/unit/%.o $(CMODEL_SRC:%.c=$(B)/san/%.o) $(B)/san/tb/alu_vec.o | deps
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lcmocka $(UNIT_LIBS)
.SECONDARY: $(UNIT_SRC:%.c=$(B)/san/%.o)

$(B)/gen_format: tools/gen_format.c cmodel/format.def | $(B)
	$(CC) $(WFLAGS) -o $@ $<
rtl/tc_format.vh: $(B)/gen_format
	$< > $@
# The network parameters' defaults for the RTL and their table (cmodel/params.def);
# make test checks both equal the generator's output.
$(B)/gen_params: tools/gen_params.c $(HDRS) | $(B)
	$(CC) $(WFLAGS) -o $@ $<
rtl/tc_params.vh: $(B)/gen_params
	$< > $@
docs/params.md: $(B)/gen_params
	$< md > $@
lint formal synth: rtl/tc_params.vh
docs: rtl/tc_params.vh docs/params.md

$(B):
	@mkdir -p $(B)

# ---------------------------------------------------------------- Verilated networks
# Parameters of net $(1), for Verilator (-G) and again for the shims (-D), which give
# them to the C model (tb/dut_built.h): the two sides cannot differ. A NET@SPEC name's
# own values come first, then the defaults above.
net_ll = $(call net_par,$(1),l,$(LINK_LAT))
net_jl = $(call net_par,$(1),j,$(INJ_LAT))
net_el = $(call net_par,$(1),e,$(EJ_LAT))
net_sl = $(call net_par,$(1),s,$(SLOTS))
net_is = $(call net_par,$(1),i,$(INJ_SLOTS))
net_pc = $(call net_par,$(1),p,$(PE_CREDITS))
net_rf = $(call net_par,$(1),r,$(RED_FLITS))
net_rd = $(call net_par,$(1),n,$(RED_RIDS))
net_ks = $(call net_par,$(1),k,$(RED_SLICES))
net_gsize = -GSizeX=$(call net_size,$(1),1) -GSizeY=$(call net_size,$(1),2) -GSizeZ=$(call net_size,$(1),3) \
  -GSizeW=$(call net_size,$(1),4)
net_g = -GNumDims=$(call net_dims,$(1)) $(if $(2),,$(call net_gsize,$(1))) -GLinkLat=$(call net_ll,$(1)) \
  -GInjLat=$(call net_jl,$(1)) -GEjLat=$(call net_el,$(1)) -GSlots=$(call net_sl,$(1)) -GInjSlots=$(call net_is,$(1)) \
  -GPeCredits=$(call net_pc,$(1)) -GRedFlits=$(call net_rf,$(1)) -GRedRids=$(call net_rd,$(1)) -GRedSlices=$(call net_ks,$(1))
net_d = -I$(CURDIR)/tb -DTC_NDIMS=$(call net_dims,$(1)) -DTC_SX=$(call net_size,$(1),1) \
  -DTC_SY=$(call net_size,$(1),2) -DTC_SZ=$(call net_size,$(1),3) -DTC_SW=$(call net_size,$(1),4) \
  -DTC_LINK_LAT=$(call net_ll,$(1)) -DTC_INJ_LAT=$(call net_jl,$(1)) -DTC_EJ_LAT=$(call net_el,$(1)) \
  -DTC_SLOTS=$(call net_sl,$(1)) -DTC_INJ_SLOTS=$(call net_is,$(1)) -DTC_PE_CREDITS=$(call net_pc,$(1)) \
  -DTC_RED_FLITS=$(call net_rf,$(1)) -DTC_RED_RIDS=$(call net_rd,$(1)) -DTC_RED_SLICES=$(call net_ks,$(1))
# The same as tccheck's (and tcsim's) options: a NET@SPEC build is verilated only once
# tccheck has taken every value (its ranges: tc_params_check) and found that
# configuration free of deadlock.
net_opts = --topo $(call net_topo,$(1)) --slots $(call net_sl,$(1)) --inj-slots $(call net_is,$(1)) \
  --pe-credits $(call net_pc,$(1)) --red-flits $(call net_rf,$(1)) --red-rids $(call net_rd,$(1)) --red-slices $(call net_ks,$(1)) --link-lat $(call net_ll,$(1)) \
  --inj-lat $(call net_jl,$(1)) --ej-lat $(call net_el,$(1))
# Every Verilated build: the router inside its observation monitor, lint waivers in
# tb/sim.vlt. Each flag's reason and figures: docs/bench.md.
SIM_SRC  := $(RTL_SRC) tb/tc_router_mon.sv
# ccache (sim/deps.mk installs it): Verilator's runtime (verilated.cpp and the rest, the
# same code and flags in every model) is compiled once, not once per Verilated build
CCACHE   := $(shell command -v ccache)
VL_MAKE  := OPT_FAST=-O2 OPT_GLOBAL=-O2 $(if $(CCACHE),OBJCACHE=$(CCACHE))
VERILATE = verilator --exe --build -j 2 -Wall --assert +define+TC_ASSERT +define+TC_ROUTER=tc_router_mon -Irtl \
  rtl/lint.vlt tb/sim.vlt $(SIM_SRC) -MAKEFLAGS "$(VL_MAKE)"

# A Verilated build with the C testbench: $(1) net, $(2) binary, $(3) object folder
# under $(B), $(4) top module and more Verilator flags, $(5) the C++ shim, $(6) more
# prerequisites, $(7) a command to pass first.
define VL_RULES
$(2): $(SIM_SRC) rtl/tc_format.vh rtl/lint.vlt tb/sim.vlt $(5) tb/dut.h tb/dut_built.h tb/dut_obs.h $(B)/libtb.a $(B)/libtc.a $(6) | deps
	@mkdir -p $$(dir $$@) && rm -f $$@.new $(if $(7),&& $(7)) # Verilator's make does not track the C libraries: force the link
	@echo "verilating $(1) into $$@ (log: $(B)/$(3).log)"; t0=$$$$(date +%s); \
	$(VERILATE) --cc $(4) --Mdir $(B)/$(3) -o $(CURDIR)/$$@.new $(call net_g,$(1),$(findstring tc_node,$(4))) \
	  -CFLAGS "$(call net_d,$(1))" \
	  $(CURDIR)/$(5) $(CURDIR)/$(B)/libtb.a $(CURDIR)/$(B)/libtc.a > $(B)/$(3).log 2>&1 \
	  || { tail -30 $(B)/$(3).log; exit 1; }; \
	mv -f $$@.new $$@ && echo "built $$@ in $$$$(( $$$$(date +%s) - t0 )) s"
endef
# The co-simulation builds (build/cosim_NET): one node (tc_node) Verilated as the top
# level, no tracing; tb/dut_nodes.cpp makes a model of it per node and joins them as
# tc_torus does. A node's model depends on the dimension count and the parameters,
# not on the sizes (the diameter is an input), so it is Verilated once per net_key
# (build/node_KEY, its own executable a torus of size 2 in every dimension) and every
# torus of that key is its shim compiled for the sizes and linked with it. NETS are
# co-simulated by make test and make regress; 8x8 (make sim NETS=8x8, make bench) and
# 8x8x8 (docs/bench.md, by hand) are built on demand.
VL_NODE  := --top-module tc_node
BIG_NETS := 8x8 8x8x8
net_key  = $(call net_dims,$(1))d@s$(call net_sl,$(1))i$(call net_is,$(1))p$(call net_pc,$(1))r$(call net_rf,$(1))n$(call net_rd,$(1))k$(call net_ks,$(1))l$(call net_ll,$(1))j$(call net_jl,$(1))e$(call net_el,$(1))
key_net  = $(subst $(subst ,, ),x,$(wordlist 1,$(firstword $(subst d, ,$(call net_topo,$(1)))),2 2 2 2))@$(word 2,$(subst @, ,$(1)))
# (VERILATOR_ROOT asked once: a recursive variable ran verilator --getenv twice a net
# in every make invocation, some 3 s of CPU each)
VL_ROOT    := $(shell verilator --getenv VERILATOR_ROOT 2>/dev/null)
VL_SHIM_CXX = $(CXX) -O2 -std=gnu++17 -faligned-new -I$(VL_ROOT)/include \
  -I$(VL_ROOT)/include/vltstd -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE_VCD=0
# $(1) net, $(2) binary: its shim against build/node_KEY's objects; $(3) wave: the
# traced model (build/node_wave_KEY).
define VL_NET
$(2): $(B)/node_$(3)$(call net_key,$(1)) tb/dut_nodes.cpp tb/dut.h tb/dut_built.h tb/dut_obs.h $(B)/libtb.a $(B)/libtc.a
	@mkdir -p $$(dir $$@) $(B)/shim
	@$(VL_SHIM_CXX) $(if $(3),-DVM_TRACE=1 -DVM_TRACE_FST=1,-DVM_TRACE=0 -DVM_TRACE_FST=0) \
	  -I$(B)/obj_node_$(3)$(call net_key,$(1)) $(call net_d,$(1)) -c tb/dut_nodes.cpp -o $(B)/shim/$(3)$(1).o
	@$(CXX) $(B)/shim/$(3)$(1).o $(addprefix $(B)/obj_node_$(3)$(call net_key,$(1))/,verilated.o verilated_dpi.o \
	  verilated_threads.o $(if $(3),verilated_fst_c.o) Vtc_node__ALL.a) $(B)/libtb.a $(B)/libtc.a -pthread -lpthread -latomic \
	  $(if $(3),-lz) -o $$@.new && mv -f $$@.new $$@
	@echo "linked $$@ with build/node_$(3)$(call net_key,$(1))"
endef
# Every torus named (NETS, NET's torus) is checked first: 1 to 4 sizes of at least 1.
NODE_NETS := $(sort $(NETS) $(BIG_NETS) $(call net_topo,$(NET)))
$(foreach n,$(NODE_NETS),$(if $(shell echo '$(n)' | grep -Ex '[1-9][0-9]{0,4}(x[1-9][0-9]{0,4}){0,3}'),,\
  $(error '$(n)' is not a torus: 1 to 4 sizes of at least 1, joined by x (4x4, 5, 3x3x2, 2x2x2x2))))
$(foreach k,$(sort $(foreach n,$(NODE_NETS),$(call net_key,$(n)))),$(eval $(call VL_RULES,$(call key_net,$(k)),$(B)/node_$(k),obj_node_$(k),$(VL_NODE),tb/dut_nodes.cpp)))
$(foreach n,$(NODE_NETS),$(eval $(call VL_NET,$(n),$(B)/cosim_$(n))))
# RTL = C model at drawn parameters (docs/soak.md): make test co-simulates RTL_DRAWS
# (sim/rtl_draws.sh), make regress them and RTL_DRAWS_MORE too. Every build/cosim_NET@SPEC
# named on the command line, and make cosim-params's, has its rule as well.
RTL_DRAWS      := 5@s2i2p1r1k2l40j3000e3000 2x3@s64i64p255r7n64k4l1j1e1 3x3x2@s3i5p2r3n32k4l300j20e900 2x2x2x2@s2i3p4r5k2l1j1e2000
RTL_DRAWS_MORE := 4x4@s2i2p1r7k4l2000j1e1 5@s64i2p255r1l1j3000e1
# The draws make test runs on every scenario too; the others' --scen all takes 4-8
# minutes each on this machine (millions of cycles at long latencies): make regress.
RTL_DRAWS_ALL  := 2x3@s64i64p255r7n64k4l1j1e1
PARAM_NET       = $(or $(NET),$(firstword $(NETS)))@s$(SLOTS)i$(INJ_SLOTS)p$(PE_CREDITS)r$(RED_FLITS)n$(RED_RIDS)k$(RED_SLICES)l$(LINK_LAT)j$(INJ_LAT)e$(EJ_LAT)
DRAWN_NETS     := $(sort $(RTL_DRAWS) $(RTL_DRAWS_MORE) $(if $(findstring @,$(NET)),$(NET)) $(patsubst $(B)/cosim_%,%,$(filter $(B)/cosim_%,$(foreach g,$(MAKECMDGOALS),$(if $(findstring @,$(g)),$(g))))) \
                    $(if $(filter cosim-params,$(MAKECMDGOALS)),$(PARAM_NET)))
net_val         = $(patsubst e%,%,$(patsubst j%,%,$(patsubst l%,%,$(patsubst k%,%,$(patsubst n%,%,$(patsubst r%,%,$(patsubst p%,%,$(patsubst i%,%,$(patsubst s%,%,$(1))))))))))
no_digits       = $(subst 0,,$(subst 1,,$(subst 2,,$(subst 3,,$(subst 4,,$(subst 5,,$(subst 6,,$(subst 7,,$(subst 8,,$(subst 9,,$(1)))))))))))
net_bad         = $(filter-out s% i% p% r% n% k% l% j% e%,$(call net_spec,$(1))) \
                  $(foreach t,$(call net_spec,$(1)),$(if $(and $(call net_val,$(t)),$(if $(call no_digits,$(call net_val,$(t))),,1)),,$(t)))
$(foreach n,$(DRAWN_NETS),$(if $(strip $(call net_bad,$(n))),$(error $(n): '$(sort $(call net_bad,$(n)))' is none of s i p r n k l j e followed by a number)))
# A drawn key is Verilated only once tccheck has taken the drawn net's every value. Its
# model, and the flat torus's, is compiled at -O1: half the CPU of -O2 (a 1D node: 24
# against 45 s) for runs 0-50% longer, which make test's short runs of them repay.
# (A 3D node at -O1 with the floating-point blocks: 56 s of user CPU, 13 of system.)
VL_O1 := -MAKEFLAGS "OPT_FAST=-O1"
$(foreach n,$(DRAWN_NETS),$(if $(filter $(call net_key,$(n)),$(foreach m,$(NODE_NETS),$(call net_key,$(m)))),,\
  $(eval $(call VL_RULES,$(call key_net,$(call net_key,$(n))),$(B)/node_$(call net_key,$(n)),obj_node_$(call net_key,$(n)),$(VL_NODE) $(VL_O1),tb/dut_nodes.cpp,$(B)/tccheck,$(B)/tccheck $(call net_opts,$(n)) > $(B)/obj_$(n).tccheck.log 2>&1 || { cat $(B)/obj_$(n).tccheck.log; exit 1; }))))
$(foreach n,$(DRAWN_NETS),$(eval $(call VL_NET,$(n),$(B)/cosim_$(n))))
# Verilator's own threads inside each node (--threads 2) against one (make bench,
# sim/rtl_bench.sh threads): 8x8. Verilator warns that a node offers it too little to
# split (UNOPTTHREADS); the bench measures what it gets.
$(eval $(call VL_RULES,8x8,$(B)/cosim_8x8_vt2,obj_8x8_vt2,$(VL_NODE) --threads 2 -Wno-UNOPTTHREADS,tb/dut_nodes.cpp))
# The wave builds (make wave, build/wave/cosim_NET, NET a torus or NET@SPEC): the
# node's model Verilated with tracing once per key, every node writing into one FST
# (tb/dut_nodes.cpp); a key's model is built once tccheck has taken its values. The
# whole torus (tc_torus), flat and untraced (build/flat/cosim_NET): make test runs the
# 5-node ring's on every scenario, which checks tc_torus's wiring against the C model.
# The traced model is compiled at -O1: the trace code is most of it, and the waveform's
# first run matters more than the speed of the runs after it.
VL_WAVE_OPT ?= -MAKEFLAGS "OPT_FAST=-O1 OPT_GLOBAL=-O1"
WAVE_NETS := $(sort $(NODE_NETS) $(if $(findstring @,$(NET)),$(NET)))
$(foreach k,$(sort $(foreach n,$(WAVE_NETS),$(call net_key,$(n)))),$(eval $(call VL_RULES,$(call key_net,$(k)),$(B)/node_wave_$(k),obj_node_wave_$(k),$(VL_NODE) --trace-fst $(VL_WAVE_OPT),tb/dut_nodes.cpp,$(B)/tccheck,$(B)/tccheck $(call net_opts,$(call key_net,$(k))) > $(B)/obj_node_wave_$(k).tccheck.log 2>&1 || { cat $(B)/obj_node_wave_$(k).tccheck.log; exit 1; })))
$(foreach n,$(WAVE_NETS),$(eval $(call VL_NET,$(n),$(B)/wave/cosim_$(n),wave_)))
$(foreach n,$(NODE_NETS),$(eval $(call VL_RULES,$(n),$(B)/flat/cosim_$(n),obj_flat_$(n),--top-module tc_torus $(VL_O1),tb/dut_rtl.cpp)))

# Coverage builds (make coverage): the whole torus (tc_torus) with line and toggle
# points, the C model and testbench with gcov.
COV_NETS := 5 2x3 2x2x2x2
$(foreach n,$(COV_NETS),$(eval $(call VL_RULES,$(n),$(B)/cov/cosim_$(n),obj_cov_$(n),--top-module tc_torus --coverage-line --coverage-toggle,tb/dut_rtl.cpp)))
GCOV := -O0 -g --coverage
$(B)/gcov/%.o: %.c $(HDRS) | $(B)
	@mkdir -p $(dir $@)
	$(CC) $(WFLAGS) $(GCOV) -c $< -o $@
$(B)/gcov/tcsim: $(TB_SRC:%.c=$(B)/gcov/%.o) $(B)/gcov/tb/dut_none.o $(CMODEL_SRC:%.c=$(B)/gcov/%.o)
	$(CC) $(GCOV) -o $@ $^
$(B)/gcov/tcnet: $(B)/gcov/tools/tcnet.o $(CMODEL_SRC:%.c=$(B)/gcov/%.o)
	$(CC) $(GCOV) -o $@ $^
$(B)/gcov/unit/%: $(B)/gcov/tb/unit/%.o $(B)/gcov/tb/alu_vec.o $(CMODEL_SRC:%.c=$(B)/gcov/%.o) | deps
	@mkdir -p $(dir $@)
	$(CC) $(GCOV) -o $@ $^ -lcmocka $(UNIT_LIBS)

# The torus in SystemC (verilator --sc) beside the C model wrapped with the same
# ports, driven by the C testbench from sc_main (make sim-sc).
# A 2x2 torus: two dimensions, and 54 MB of traced C++ against 82 MB for 2x3 (make
# test's longest build: 150 s of CPU against 2x3's 250-330); the RTL's wiring of other
# tori is checked by the flat 5-node ring's run and make coverage's 2x3 and 2x2x2x2.
SC_NET := 2x2
# Its generated code compiled at -O1 in files of up to 10^6 statements (functions
# split as by default): on 2x3, 250 s of CPU where -O2 in files of 20000 took 440 s,
# for runs of its scenarios 1.5 times as long (a few seconds).
VL_SC_OPT ?= -MAKEFLAGS "OPT_FAST=-O1" --output-split 1000000 --output-split-cfuncs 20000 --output-split-ctrace 20000
$(B)/sc/cosim.o: tb/cosim.c $(HDRS) | $(B)
	@mkdir -p $(dir $@)
	$(CC) $(WFLAGS) $(CFLAGS) -Dmain=tc_cosim_main -c $< -o $@
$(B)/sc_$(SC_NET): $(SIM_SRC) rtl/tc_format.vh rtl/lint.vlt tb/sim.vlt tb/dut_sc.cpp tb/sc_torus_cm.h tb/dut.h tb/dut_built.h $(B)/sc/cosim.o \
                   $(B)/libtb.a $(B)/libtc.a | deps deps-sc
	@rm -f $@.new
	@echo "verilating the $(SC_NET) torus in SystemC into $@ (log: $(B)/obj_sc_$(SC_NET).log)"; t0=$$(date +%s); \
	$(VERILATE) --top-module tc_torus --sc --trace-fst $(VL_SC_OPT) --Mdir $(B)/obj_sc_$(SC_NET) -o $(CURDIR)/$@.new $(call net_g,$(SC_NET)) \
	  -CFLAGS "$(call net_d,$(SC_NET))" -LDFLAGS "-lsystemc" \
	  $(CURDIR)/tb/dut_sc.cpp $(CURDIR)/$(B)/sc/cosim.o $(CURDIR)/$(B)/libtb.a $(CURDIR)/$(B)/libtc.a \
	  > $(B)/obj_sc_$(SC_NET).log 2>&1 || { tail -30 $(B)/obj_sc_$(SC_NET).log; exit 1; }; \
	mv -f $@.new $@ && echo "built $@ in $$(( $$(date +%s) - t0 )) s"

# The ALU alone, Verilated, against the C ALU (make alu-check N=1000000).
$(B)/alu_check: $(ALU_SRC) rtl/tc_format.vh tb/alu_rtl.cpp tb/alu_rtl.h $(B)/tb/alu_check.o $(B)/libtb.a $(B)/libtc.a | deps
	@rm -f $@
	verilator --cc --exe --build -j 2 -Wall -Irtl $(ALU_SRC) --top-module tc_alu --Mdir $(B)/obj_alu \
	  -o $(CURDIR)/$@ -MAKEFLAGS "$(VL_MAKE)" -CFLAGS "-I$(CURDIR)/tb" \
	  $(CURDIR)/tb/alu_rtl.cpp $(CURDIR)/$(B)/tb/alu_check.o $(CURDIR)/$(B)/libtb.a $(CURDIR)/$(B)/libtc.a \
	  > $(B)/obj_alu.log 2>&1 || { tail -30 $(B)/obj_alu.log; exit 1; }
N ?= 1000000
## alu-check: N=1000000: the Verilated ALU against the C ALU
alu-check: $(B)/alu_check
	$(B)/alu_check $(N)

# The floating-point sum's blocks, Verilated side by side (tb/tc_fpsum_blocks.sv),
# against their C twins in cmodel/fpsum.c (make fpsum-check N=20000).
$(B)/fpsum_check: $(FPSUM_SRC) tb/tc_fpsum_blocks.sv rtl/tc_format.vh tb/fpsum_rtl.cpp tb/fpsum_rtl.h $(B)/tb/fpsum_check.o $(B)/libtc.a | deps
	@rm -f $@
	verilator --cc --exe --build -j 2 -Wall -Irtl $(FPSUM_SRC) tb/tc_fpsum_blocks.sv --top-module tc_fpsum_blocks --Mdir $(B)/obj_fpsum \
	  -o $(CURDIR)/$@ -MAKEFLAGS "$(VL_MAKE)" -CFLAGS "-I$(CURDIR)/tb" \
	  $(CURDIR)/tb/fpsum_rtl.cpp $(CURDIR)/$(B)/tb/fpsum_check.o $(CURDIR)/$(B)/libtc.a \
	  > $(B)/obj_fpsum.log 2>&1 || { tail -30 $(B)/obj_fpsum.log; exit 1; }
## fpsum-check: N=1000000: the Verilated floating-point sum blocks (in, merge, out) against their C twins
fpsum-check: $(B)/fpsum_check
	$(B)/fpsum_check $(N)

# Random differential regression: seeded mixes of broadcasts and reduces on every
# Verilated network, RTL against C model (make regress SEEDS=50).
SEEDS ?= 20
## regress: SEEDS=20: random mixes, RTL against C model, on every Verilated network
# Then every drawn network (RTL_DRAWS, RTL_DRAWS_MORE) on every scenario and on its
# seeds of random and soak mixes (sim/rtl_draws.sh).
regress: $(foreach n,$(NETS) $(RTL_DRAWS) $(RTL_DRAWS_MORE),$(B)/cosim_$(n))
	@fail=0; for n in $(NETS); do for s in $$(seq 1 $(SEEDS)); do \
	  $(B)/cosim_$$n --scen random --seed $$s | grep -E '^(PASS|FAIL)' | sed "s/$$/  seed $$s/"; \
	  [ $${PIPESTATUS[0]} -eq 0 ] || fail=$$((fail + 1)); done; done; \
	RTL_DRAWS="$(RTL_DRAWS) $(RTL_DRAWS_MORE)" RTL_DRAWS_ALL="$(RTL_DRAWS) $(RTL_DRAWS_MORE)" RTL_DRAW_SEEDS="2 3 4 5 6 7" bash sim/rtl_draws.sh || fail=$$((fail + 1)); \
	echo "regress: $$fail failed"; [ $$fail -eq 0 ]

# make cosim-params NET=5 SLOTS=2 INJ_SLOTS=2 PE_CREDITS=1 RED_FLITS=1 INJ_LAT=3000 ...:
# build/cosim_NET@SPEC with those parameters (the others their defaults), run with
# COSIM_ARGS (make build/cosim_5@s2p1 builds one by name).
COSIM_ARGS ?= --scen all
## cosim-params: NET=5 SLOTS=2 PE_CREDITS=1 ... COSIM_ARGS="--scen all": a Verilated network with those parameters, RTL against C model
cosim-params: $(B)/cosim_$(PARAM_NET)
	$(B)/cosim_$(PARAM_NET) $(COSIM_ARGS)

# libFuzzer harnesses (clang) of the routing-table loader and the configuration
# parser, with the C model's sources built in (make fuzz FUZZ_SECONDS=60).
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -O1 -g -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_SRC     := cmodel/config.c cmodel/table.c cmodel/topo.c
FUZZ_SECONDS ?= 60
$(B)/fuzz/%: tb/fuzz/%.c $(FUZZ_SRC) $(HDRS) | deps-fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WFLAGS) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_SRC)

# ---------------------------------------------------------------- user targets
.PHONY: help bench-8x8x8 sim test lint wave clean deps deps-bench deps-synth deps-sc deps-cov deps-fuzz docs print-nets alu-check fpsum-check regress bench apps trace-demo deps-mpi synth formal sim-sc print-sc-net coverage soak fuzz cosim-params print-draws print-draws-all

## help: this list
HELP_GROUPS        := start check prove measure other
HELP_TITLE_start   := Start here
HELP_start         := sim wave test help
HELP_TITLE_check   := RTL against the C model
HELP_check         := regress cosim-params alu-check fpsum-check sim-sc
HELP_TITLE_prove   := Prove, cover, stress
HELP_prove         := lint formal coverage soak fuzz
HELP_TITLE_measure := Measure (writes docs/; minutes to hours)
HELP_measure       := bench bench-8x8x8 apps trace-demo synth
HELP_TITLE_other   := Docs and the build tree
HELP_other         := docs clean
help:
	@echo "make TARGET (README.md; docs/getting-started.md; docs/README.md maps the docs)"
	@$(foreach g,$(HELP_GROUPS),echo "$(HELP_TITLE_$(g)):"; \
	  for t in $(HELP_$(g)); do sed -n "s/^## $$t: /  $$t\t/p" $(firstword $(MAKEFILE_LIST)); done | expand -t 16;)

## sim: Verilate the default 4x4 torus and co-simulate every scenario, RTL against C model
sim: $(B)/cosim_$(firstword $(NETS))
	$(B)/cosim_$(firstword $(NETS)) --scen all

# make wave SCEN=bcast_leaf [NET=4x4]: FST + GTKWave save file in build/wave/, opened at
# the first delivery (or a mismatch, with both sides' records): docs/waves.md. The
# scenario is checked before anything is built (tcsim knows the scenarios); any torus
# NET has its wave build, as for make sim, and so has any NET@SPEC (5@s2p1: the
# parameters of build/cosim_NET@SPEC). The files are named by the torus alone.
SCEN ?= bcast_leaf
## wave: SCEN=bcast_leaf [NET=4x4]: an FST waveform and a GTKWave view in build/wave/ (docs/waves.md)
wave: $(B)/tcsim | deps-sc
	@$(B)/tcsim --list | cut -d' ' -f1 | grep -qx '$(SCEN)' || { echo "make wave: SCEN = '$(SCEN)' is not a scenario: one of:" \
	  $$($(B)/tcsim --list | cut -d' ' -f1) >&2; exit 2; }
	@$(MAKE) -s $(B)/wave/cosim_$(NET)
	@mkdir -p $(B)/wave
	$(B)/wave/cosim_$(NET) --scen $(SCEN) --wave $(B)/wave
	@if [ -n "$$DISPLAY" ] && command -v gtkwave >/dev/null; then gtkwave $(B)/wave/$(call net_topo,$(NET))_$(SCEN).gtkw; \
	 else echo "headless: open $(B)/wave/$(call net_topo,$(NET))_$(SCEN).gtkw in GTKWave"; fi

## lint: Verilator -Wall, Icarus Verilog and Yosys on the RTL
lint: rtl/tc_format.vh | deps
	@bash sim/lint.sh

## test: every test (unit, lint, formal, co-simulation, SystemC, C model, docs, soak slice); ends with "N passed, M failed"
test: | deps deps-sc deps-fuzz deps-mpi
	@bash sim/test.sh

## bench: simulation speed, bandwidth, multicast, large tori, barriers, p2p, pipelined broadcast, allreduce streams, long allreduces, applications (docs/)
# make bench: simulation speed of the C model and of the Verilated tori with their
# builds (docs/bench.md; about 10 minutes of CPU for the builds), every
# scenario on the large tori (docs/large.md), the streaming broadcast's bandwidth
# (docs/bandwidth.md), the multicast choice (docs/multicast.md), the barriers, the
# point-to-point baseline and the pipelined-broadcast sweep with their plots, the
# allreduce streams and long allreduces against point-to-point (docs/long-reduce.md).
bench: $(B)/tcsim $(B)/tcnet $(B)/tckern $(B)/libtb.a $(B)/libtc.a rtl/tc_format.vh | deps-bench deps-mpi
	@bash sim/bench.sh
	@bash sim/bandwidth.sh
	@bash sim/mcast.sh
	@bash sim/large.sh
	@bash sim/barrier.sh
	@bash sim/p2p.sh
	@bash sim/pipelined_broadcast.sh
	@bash sim/allreduce_stream.sh
	@bash sim/long_reduce.sh
	@nice bash sim/apps.sh

## apps: SpMV and the heat equation on 4D tori of 8 to 32768 nodes (docs/applications.md)
# make apps: SpMV and the heat equation of Mukosey, Semenov and Simonov (2015) on 4D
# tori of 8 to 32768 nodes against the fastest MPI algorithms, the all-gather models'
# calibration and validation, the kernels' rates (docs/applications.md). Over an hour: the
# subnet's all-gather runs exactly at application size up to APPS_EXACT_NODES (4096)
# nodes, each run kept in build/apps-exact/; APPS_CACHED_ONLY=1 uses only the runs kept.
apps: $(B)/tcnet $(B)/tckern | deps-bench deps-mpi
	@nice bash sim/apps.sh

# The PMPI recorder (a shared library to preload), the demo MPI program, the OTF2
# converter, and make trace-demo: the demo under mpirun (TRACE_RANKS ranks) recorded
# and replayed on an 8x8x8 torus (docs/applications.md).
MPICC       ?= mpicc
MPIRUN_ROOT := $(if $(filter 0,$(shell id -u)),--allow-run-as-root,)
TRACE_RANKS ?= 8
$(B)/libtcpmpi.so: tools/pmpi/tcpmpi.c | $(B) deps-mpi
	$(MPICC) $(WFLAGS) -O2 -fPIC -shared -o $@ $<
$(B)/heat_mpi: tb/mpi/heat_mpi.c | $(B) deps-mpi
	$(MPICC) $(WFLAGS) -O2 -o $@ $<
$(B)/ovh_mpi: tb/mpi/ovh_mpi.c | $(B) deps-mpi
	$(MPICC) $(WFLAGS) -O2 -o $@ $<
$(B)/other_mpi: tb/mpi/other_mpi.c | $(B) deps-mpi
	$(MPICC) $(WFLAGS) -O2 -o $@ $<
# The recorder's Fortran test, once a binding: mpif.h (which needs
# -fallow-argument-mismatch: its routines have no interfaces, so gfortran warns at
# every buffer of another type), `use mpi`, `use mpi_f08`.
MPIFORT ?= mpifort
$(B)/fcoll_f77 $(B)/fcoll_mpi $(B)/fcoll_f08: tb/mpi/fcoll.F90 | $(B) deps-mpi
	$(MPIFORT) -cpp -DBIND=$(if $(findstring f77,$@),1 -fallow-argument-mismatch,$(if $(findstring f08,$@),3 -Werror,2 -Werror)) \
	  -Wall -O1 -J $(B) -o $@ $<
$(B)/tcotf2: tools/tcotf2.c $(B)/libtc.a $(HDRS) | deps-mpi
	$(CC) $(WFLAGS) -O2 -o $@ $< $(B)/libtc.a -lotf2
## trace-demo: an MPI heat program under mpirun, its collectives recorded and replayed on an 8x8x8 torus
trace-demo: $(B)/libtcpmpi.so $(B)/heat_mpi $(B)/tcnet
	TC_TRACE=$(B)/heat_mpi.trace mpirun $(MPIRUN_ROOT) --oversubscribe -np $(TRACE_RANKS) \
	  -x LD_PRELOAD=$(CURDIR)/$(B)/libtcpmpi.so -x TC_TRACE $(B)/heat_mpi
	$(B)/tcnet topo=8x8x8 workload=trace trace=$(B)/heat_mpi.trace progress=off

## bench-8x8x8: the 512-node torus Verilated and co-simulated on every scenario (docs/bench-8x8x8.md)
# make bench-8x8x8: the 512-node torus Verilated, its build time and memory, every
# scenario co-simulated against the C model, its speed (docs/bench-8x8x8.md, which
# make bench copies into docs/bench.md).
bench-8x8x8: $(B)/tcsim $(B)/libtb.a $(B)/libtc.a rtl/tc_format.vh | deps-bench
	bash sim/rtl_bench.sh 8x8x8 > $(B)/bench-8x8x8.md && mv $(B)/bench-8x8x8.md docs/bench-8x8x8.md

## synth: Yosys and OpenSTA: cells, flops, SRAM bits and FO4 per block and router (docs/synth.md)
# make synth: Yosys onto OSU 0.18 um and OpenSTA with constraints/tc_router.sdc,
# per block and for the 1D to 4D routers with the Reducer in 1, 2 and 4 slices
# (RedSlices), into docs/synth.md and docs/synth.csv. Each router takes minutes:
# `bash sim/synth.sh ROW ...` runs some rows (sim/synth.sh lists them).
synth: rtl/tc_format.vh | deps-synth
	@bash sim/synth.sh

## sim-sc: the torus in SystemC: Verilated RTL and C model module against the C model
# make sim-sc: the torus in SystemC, RTL and C model module, against the C model.
sim-sc: | deps-sc
	@bash sim/sc.sh
print-sc-net:
	@echo $(SC_NET)

## coverage: RTL line and toggle coverage, C model line coverage (docs/coverage.md)
# make coverage: RTL line and toggle coverage of the co-simulations, gcov line
# coverage of the C model, into docs/coverage.md.
coverage: $(foreach n,$(COV_NETS),$(B)/cov/cosim_$(n)) $(B)/gcov/tcsim $(B)/gcov/tcnet \
          $(patsubst tb/unit/%.c,$(B)/gcov/unit/%,$(UNIT_SRC)) | deps-cov
	@bash sim/coverage.sh $(COV_NETS)

## fuzz: FUZZ_SECONDS=60: libFuzzer on the table loader and the configuration parser
# make fuzz: each fuzzer FUZZ_SECONDS seconds, both at once; no crash, leak or hang
# (docs/robustness.md).
fuzz: $(B)/fuzz/fuzz_table $(B)/fuzz/fuzz_config
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash sim/fuzz.sh

## soak: SOAK_RUNS=1-100000: the C model over drawn tori, tables and parameters (docs/soak.md)
# make soak: the C model over runs that each draw a torus, a table, a scenario and
# every network parameter (SOAK_RUNS=1-100000; SOAK_MODE=grid: seeds over a list of
# tori, SOAK_SEEDS=1000-1999 SOAK_TORI="4x4 3x3x3" ...), on all cores; one line per
# failing run that reproduces it (docs/soak.md).
soak: $(B)/tcsim
	@bash sim/soak.sh

## formal: the blocks' invariants proved with yosys-smtbmc and z3 (docs/formal.md)
# make formal: the blocks' invariants proved with yosys-smtbmc and z3 (also in make test).
formal: rtl/tc_format.vh | deps
	@bash sim/formal.sh

## docs: regenerate timing diagrams, format tables and the numbers docs quote
docs: $(B)/cosim_$(firstword $(NETS)) $(B)/gen_format $(B)/unit/test_fpsum
	@bash sim/docs.sh

## clean: remove build/
clean:
	rm -rf $(B)

print-nets:
	@echo $(NETS)
print-draws:
	@echo $(RTL_DRAWS)
print-draws-all:
	@echo $(RTL_DRAWS_ALL)
