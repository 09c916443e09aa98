# Tools the build needs, from Debian 12's packages. As root they are installed;
# otherwise the build stops with the apt-get line to run. One dpkg-query for them all:
# every make of a Verilated build checks them (a dpkg -s each took 0.4 s).
# libmpfr-dev, libgmp-dev: tb/unit/test_fpsum.c's exact reference; ccache: the Verilated
# builds share Verilator's runtime objects
APT_PKGS   := gcc g++ make python3 zlib1g-dev ccache verilator iverilog yosys z3 libcmocka-dev libmpfr-dev libgmp-dev
APT_BENCH  := time python3-matplotlib
APT_SYNTH  := qflow-tech-osu018 opensta
# gtkwave, xvfb: make wave's views, checked headless in make test (sim/waves.sh);
# x11-apps, netpbm: their screenshots in docs (sim/wave_shots.sh)
APT_SC     := libsystemc-dev gtkwave xvfb x11-apps netpbm
APT_COV    := python3
APT_FUZZ   := clang libclang-rt-14-dev llvm-14
APT_MPI    := openmpi-bin libopenmpi-dev libotf2-trace-dev otf2-tools
define install_missing
	@missing=""; ok=" $$(dpkg-query -W -f '$${db:Status-Abbrev}=$${Package}\n' $(1) 2>/dev/null | sed -n 's/^ii *=//p' | tr '\n' ' ')"; \
	for p in $(1); do case "$$ok" in *" $$p "*) ;; *) missing="$$missing $$p" ;; esac; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing tools; run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
endef
deps:
	$(call install_missing,$(APT_PKGS))
deps-bench: deps
	$(call install_missing,$(APT_BENCH))
deps-synth: deps
	$(call install_missing,$(APT_SYNTH))
deps-sc: deps
	$(call install_missing,$(APT_SC))
deps-cov: deps
	$(call install_missing,$(APT_COV))
deps-fuzz: deps
	$(call install_missing,$(APT_FUZZ))
deps-mpi: deps
	$(call install_missing,$(APT_MPI))
