# SPDX-License-Identifier: GPL-2.0
#
# smartwake top-level Makefile.
#
#   make            build module/smartwake.ko (stock Debian 6.12 cloud kernel,
#                   fetched into the cache on first use) and the guest tools
#   make testing    the testing build (fault injection) in build/testing/
#   make deps       install the host packages the lab needs (demo, check,
#                   bench and stress run it; plain make installs nothing)
#   make demo       build, boot a guest, load the module, run a load with the
#                   hook off and on, print the stats table
#   make check      every test (host checks, KUnit in a guest, guest e2e)
#   make check-extra the steps kept out of make check's 45 minutes: the
#                   other kernels' facts and headers-only builds
#   make bench      A/B benchmark lab (not part of check)
#   make replay     each seed's claim beside the lab's measurements (scripts/replay.sh;
#                   not part of check)
#   make stress     long reliability runs (not part of check)
#   make soak       the long soak: 30 min (SOAK_MINUTES=N) at 16 vCPUs, mixed
#                   policy flips, knobs, cgroups, hotplug, reloads, BPF attach
#                   (scripts/soak.sh; not part of check)
#   make scale      the cost curve: instructions per wakeup of the kernel,
#                   policy=smartwake and policy=shadow from 4 to 128 CPUs,
#                   one-LLC and multi-LLC shapes (scripts/scale.sh; not part
#                   of check; SCALE_ARGS="--topos llc16,llc128" for others)
#   make mutants    mutation suite: one-line bugs (scripts/mutants.tsv) each
#                   built and run through the make check steps that must
#                   fail; fails if one survives (not part of check; 1.5 h;
#                   MUTANTS_ARGS=--only ID,... for some, --list the table)
#   make install    build for the running kernel from its headers alone and
#                   install the module (updates/, depmod), the CLI and its
#                   man page (KVER=, KDIR=, DESTDIR=, PREFIX=); signed with
#                   SIGN_KEY= SIGN_CERT=, else DKMS's /var/lib/dkms/mok.key if
#                   present, else unsigned (install.md, Secure Boot); make uninstall
#   make deb        the Debian packages smartwake-dkms and smartwake (build/deb/)
#   make matrix     every Debian kernel of the supported series and flavours
#                   (cloud, generic; amd64, then arm64) in the archive: fetch,
#                   build, boot, short e2e, shadow at mainline knobs (not part
#                   of check; MATRIX_ARGS=--newest: the newest of each,
#                   --table: the kernel tables' releases)
#   make image      the Debian 12 system image of make check's debian-bookworm
#                   step (mmdebstrap, systemd, the stock kernel; cached)
#   make image-test that step's test (apt, DKMS in the guest, modprobe.d,
#                   shadow under systemd, a reboot, apt remove) on Debian 12
#                   and 13 (IMAGE_SUITES=bookworm: one; not part of check)
#   make image-bench pgbench, hackbench, perf bench, sysbench by smartwake ab
#                   and the perf oracle in the Debian 12 image (not part of check)
#
#   make KDIR=<kernel build dir> KSRC=<kernel source>   other kernel trees
#   make KERNEL=<release>   another supported Debian kernel (the table in
#                   scripts/common.sh, e.g. 6.12.117+deb13-cloud-amd64 or
#                   the generic 6.12.117+deb13-amd64; rt-amd64: refused):
#                   fetched, built in build/<release>/ (testing: build/
#                   <release>-testing/); unset: the default 6.12.117+deb12
#   make kernels    fetch and build every other supported kernel (make check)
#
# The kernel cache lives outside the clone: $${SMARTWAKE_CACHE:-~/.cache/smartwake}.

SHELL := /bin/bash
TOP := $(CURDIR)

.PHONY: all module testing tools deps check-start host-tools fetch kernels debug-kernel debug-modules replay \
	demo check check-extra bench stress soak scale mutants matrix install uninstall clean help

# KERNEL=<release> reaches the scripts (scripts/common.sh) as SMARTWAKE_KERNEL.
ifdef KERNEL
export SMARTWAKE_KERNEL := $(KERNEL)
endif

all: module tools

help:
	@sed -n '3,/^$$/p' Makefile | sed '/^$$/d; s/^# \{0,1\}//'

# The host packages (QEMU, busybox-static, kernel build tools, shellcheck):
# installs only what is missing. Plain make installs nothing.
deps:
	@scripts/install-host-tools.sh

host-tools: deps

# Kernel packages into the cache (apt-get download + dpkg -x; nothing
# is installed on the host).
fetch:
	@scripts/fetch-kernel.sh

# KDIR/KSRC given: build against that tree; otherwise the cached stock one
# (KERNEL=<release> other than the default: in build/<release>/).
module: $(if $(KDIR),,fetch)
	@set -e; \
	if [ -n "$(KDIR)" ]; then kdir="$(KDIR)"; ksrc="$(or $(KSRC),$(KDIR))"; \
	else . scripts/common.sh; \
		if [ -n "$$SW_KERNEL" ]; then scripts/build-modules.sh; exit 0; fi; \
		sw_stock_env; kdir=$$SW_KDIR; ksrc=$$SW_KSRC; fi; \
	scripts/conftest.sh "$$kdir" "$$ksrc" module/sw_config.h; \
	$(MAKE) $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc)) -C "$$kdir" M="$(TOP)" KSRC="$$ksrc" modules; \
	if [ "$$(modinfo -F livepatch module/companion/smartwake_pull.ko 2>/dev/null)" = Y ] && \
	   ! python3 scripts/klp-relocs.py --check module/companion/smartwake_pull.ko >/dev/null 2>&1; then \
		python3 scripts/klp-relocs.py module/companion/smartwake_pull.ko >/dev/null; fi

# Test-only parameters and helper modules, never in module/ (see Kbuild).
testing: fetch
	@scripts/build-modules.sh --testing

tools:
	@$(MAKE) -C tools

# Every supported kernel other than the default (scripts/common.sh's table)
# and the first arm64 one (make check's e2e-arm64, shadow-arm64): fetched,
# shipped and testing builds in build/<release>{,-testing}/.
kernels:
	@set -e; . scripts/common.sh; for k in $$(sw_kernels | tail -n +2) $$(sw_kernels_arm64 | head -n1); do \
		scripts/fetch-kernel.sh --kernel "$$k"; \
		scripts/build-modules.sh --kernel-release "$$k"; \
		scripts/build-modules.sh --kernel-release "$$k" --testing; \
	done

debug-kernel: deps fetch
	@scripts/build-debug-kernel.sh

# The debug kernel's modules are built in a copy so they never mix with the
# stock build's objects in module/.
debug-modules: debug-kernel
	@scripts/build-debug-modules.sh

demo: deps all
	@scripts/demo.sh

# check-start (first, make runs prerequisites in order): the time and what
# the cache held, for the duration check.sh writes to figures.md.
check: check-start deps all testing kernels image
	@SMARTWAKE_MAKE_CHECK_START=build/make-check.start scripts/check.sh

# The extra steps (check.sh --extra): not in make check's time budget.
check-extra: deps all testing kernels
	@scripts/check.sh --extra

check-start:
	@mkdir -p build; . scripts/common.sh; \
	d=$$(ls -d "$$SW_CACHE"/debug-*/.complete 2>/dev/null | wc -l || true); \
	k=$$(ls -d "$$SW_CACHE"/*/.complete 2>/dev/null | wc -l || true); \
	echo "$$(date +%s) $$((k - d)) $$d" >build/make-check.start; \
	rm -f build/build-cache.log

# The Debian system image of the debian-bookworm step (scripts/debian-image.sh,
# cached); image-test runs that step's guest test on Debian 12 and 13.
image: deps
	@scripts/debian-image.sh

IMAGE_SUITES = bookworm trixie
image-test: deps tools
	@set -e; for s in $(IMAGE_SUITES); do \
		scripts/debian-run.sh --suite $$s --log build/logs/debian-install-$$s.log debian-install.sh; \
	done

# Real benchmarks (pgbench, hackbench, perf bench, sysbench) by smartwake ab
# and the perf oracle, on the Debian 12 image (not part of check).
image-bench: deps all
	@scripts/image-bench.sh

bench: deps all
	@scripts/bench.sh

stress: deps
	@scripts/stress.sh

SOAK_MINUTES ?= 30
soak: deps all
	@scripts/soak.sh --minutes $(SOAK_MINUTES)

scale: deps all
	@scripts/scale.sh $(SCALE_ARGS)

# Each mutant in its own copy of the committed tree (build/mutants/), two
# at once (MUTANTS_ARGS="--jobs 1 ..." for one).
MUTANTS_ARGS ?= --jobs 2
mutants: deps
	@scripts/mutants.sh $(MUTANTS_ARGS)

matrix: deps tools
	@scripts/matrix.sh $(MATRIX_ARGS)
	@scripts/matrix.sh --arch arm64 $(MATRIX_ARGS)

replay: deps all
	@scripts/replay.sh

# Install on a test machine (scripts/install.sh --help).
INSTALL_ARGS = $(if $(KVER),--kver $(KVER)) $(if $(KDIR),--kdir $(KDIR)) \
	$(if $(DESTDIR),--destdir $(DESTDIR)) $(if $(PREFIX),--prefix $(PREFIX)) \
	$(if $(SIGN_KEY),--sign-key $(SIGN_KEY)) $(if $(SIGN_CERT),--sign-cert $(SIGN_CERT))
install:
	@scripts/install.sh install $(INSTALL_ARGS)

uninstall:
	@scripts/install.sh uninstall $(INSTALL_ARGS)

# The Debian packages smartwake-dkms and smartwake into build/deb/
# (dpkg-buildpackage, dh-dkms; from the committed tree).
.PHONY: deb image image-test image-bench
deb:
	@scripts/build-deb.sh

clean:
	@if [ -s "$${SMARTWAKE_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/smartwake}/current-version" ]; then \
		. scripts/common.sh; SW_KERNEL=; sw_stock_env; \
		$(MAKE) -C "$$SW_KDIR" M="$(TOP)" KSRC="$$SW_KSRC" SW_CLEAN=1 clean; fi
	@rm -f module/sw_config.h
	@$(MAKE) -C tools clean 2>/dev/null || true
	@rm -rf build
