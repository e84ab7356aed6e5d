#!/usr/bin/env bash
# make check: every test. Host checks first (style, scripts, shipped build,
# field list, CLI); if one fails no guest is booted. Then the guests:
# safety (IBT), end-to-end, compatibility, wakeup-policy, ttwu, NUMA,
# reliability, CLI and policy=shadow tests on the stock 6.12 kernel; the
# compatibility, end-to-end, wakeup-policy, short reliability and shadow
# tests on Debian 13's 6.12 and Debian 12's 6.1 kernels (the module built
# for each); the debug kernel's build, KUnit and the same
# module tests under lockdep/kmemleak/KASAN. Prints a table and one line
# adding up every step's checks; fails if any step failed.
#
# Usage: scripts/check.sh [--jobs N] [--only STEP,...] [STEP...]
#              (default: all steps; --list prints them)
#        scripts/check.sh --repeat N STEP...
#   --repeat N each named step N times in a row, one at a time (a check
#              that can fail by chance shows here); prints each run's
#              verdict and checks, then "STEP: K of N runs passed"; fails
#              unless every run passed. Outputs: build/logs/check/STEP.rI.out
#   --figures REGEX  with --repeat: the runs' output lines matching REGEX
#              (the figures the repeated checks print) and the verdicts go
#              to figures.md, section repeat-STEP
#   --jobs N   1: one step at a time; 2 (default on 2+ CPUs): the stock
#              kernel's guests and the debug kernel's steps run side by
#              side (each TCG guest uses one host CPU); a step's output is
#              printed whole when it ends
. "$(dirname "$0")/common.sh"

steps_all=(style scripts docs shipped fields cli-host replay-host safety-stock e2e-stock lockdown-stock compat-stock headers-only install wake-smp4 wake-numa2
	ttwu-smp4 ttwu-numa2 numa-numa2 latency-smp4 scope-smp4 control-stock reliability cli-guest shadow-smp4 shadow-numa2 shadow-flat4
	shadow-smt8 shadow-numa-smt compat-6.1 e2e-6.1 wake-6.1 reliability-6.1 shadow-6.1 ttwu-6.1 numa-6.1
	compat-generic e2e-generic shadow-generic
	debug-build kunit compat-debug safety-debug kasan-debug e2e-debug sig-debug wake-debug reliability-debug
	shadow-debug scope-debug compat-deb13 e2e-deb13 wake-deb13 reliability-deb13 shadow-deb13 ttwu-deb13
	numa-deb13 compat-7.2 e2e-7.2 wake-7.2 reliability-7.2 shadow-7.2 ttwu-7.2 numa-7.2
	kfacts-stock kfacts-6.1 kfacts-deb13 kfacts-7.2 headers-only-6.1 headers-only-deb13 headers-only-7.2)

step_style() {
	sw_stock_env
	local cp=$SW_KSRC/scripts/checkpatch.pl out files
	files=$(git ls-files 'module/*.[ch]' 'include/*.h' 'kunit/*.c' | grep -vE 'trace\.h$|enums\.h$|sched_fields\.h$')
	# shellcheck disable=SC2086
	out=$(perl "$cp" --strict --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files 2>&1 |
		grep -E ': (ERROR|WARNING|CHECK):') || true
	# TRACE_EVENT() blocks use the layout of include/trace/events/*.h,
	# which checkpatch's open-line and alignment checks do not model.
	out+=$(perl "$cp" --strict --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,MACRO_ARG_UNUSED,TRAILING_SEMICOLON \
		-f module/trace.h 2>&1 | grep -E ': (ERROR|WARNING|CHECK):') || true
	# The EM()/EMe() lists of include/trace/events/*.h, whose shape
	# checkpatch's macro checks do not model.
	out+=$(perl "$cp" --strict --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,COMPLEX_MACRO,MACRO_ARG_REUSE,MACRO_ARG_UNUSED,CAMELCASE,BRACKET_SPACE \
		-f include/smartwake/enums.h 2>&1 | grep -E ': (ERROR|WARNING|CHECK):') || true
	# The macro that defines one accessor function per entry of
	# module/fields.h: a function definition, with the struct and member
	# names pasted and repeated, which the macro checks do not model.
	out+=$(perl "$cp" --strict --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,COMPLEX_MACRO,MACRO_ARG_REUSE,MACRO_ARG_PRECEDENCE \
		-f module/sched_fields.h 2>&1 | grep -E ': (ERROR|WARNING|CHECK):') || true
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
		return 1
	fi
	echo "checkpatch --strict: clean"
	# shell: bash scripts and the guest's busybox sh scripts (.shellcheckrc)
	out=$(shellcheck -S warning -f gcc scripts/*.sh .ci/run 2>&1) || true
	out+=$(shellcheck -S warning -s sh -f gcc guest/*.sh 2>&1) || true
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
		return 1
	fi
	echo "shellcheck: clean"
}

step_scripts() {
	local f rc=0
	for f in scripts/*.sh .ci/run; do
		bash -n "$f" || rc=1
	done
	for f in guest/*.sh; do
		busybox sh -n "$f" || rc=1
	done
	# Every user-facing script answers --help with prose and a Usage
	# line, not with its own code (a help range that runs past the
	# comment block prints source lines).
	local h
	for f in scripts/fetch-kernel.sh scripts/guest-run.sh scripts/build-debug-kernel.sh \
		scripts/check.sh scripts/demo.sh scripts/stress.sh scripts/cli-test.sh \
		scripts/bench.sh scripts/bench-plot.sh scripts/kunit.sh \
		scripts/build-debug-modules.sh scripts/build-modules.sh \
		scripts/check-fields.sh scripts/check-fields-test.sh scripts/sched-layout.sh \
		scripts/replay.sh scripts/sign-module.sh scripts/sb-hint.sh; do
		h=$("$f" --help 2>&1) || { echo "$f --help failed"; rc=1; continue; }
		if ! grep -q 'Usage' <<<"$h"; then
			echo "$f --help has no Usage line"; rc=1
		fi
		if grep -qE '^\. |\$\(|sw_(die|log|stock_env)' <<<"$h"; then
			echo "$f --help prints code:"; grep -E '^\. |\$\(|sw_(die|log|stock_env)' <<<"$h"; rc=1
		fi
	done
	echo "--help of every script: $([ $rc -eq 0 ] && echo ok || echo FAILED)"
	return "$rc"
}

# Documentation/usage.md's knob, counter and debugfs tables are generated
# from the code (scripts/gen-docs.sh); a stale one prints its diff.
step_docs() {
	local c="usage.md's generated tables (gen-knobs, gen-counters, gen-debugfs) match the code"
	if scripts/gen-docs.sh --check; then
		echo "ok   - $c"
		echo "1 passed, 0 failed, 0 skipped"
	else
		echo "FAIL - $c: run scripts/gen-docs.sh"
		echo "0 passed, 1 failed, 0 skipped"
		return 1
	fi
}

# The module users load has no test-only code: no test_ parameter, no
# helper module (a module that can claim any function would block
# livepatches); the testing build has both. And every indirect call site
# in the shipped .ko is in a function known to make one: a call into the
# kernel through a pointer must be in ibt.c's guarded table.
step_shipped() {
	local rc=0 p sites
	p=$(modinfo -p module/smartwake.ko | grep -c '^test_' || true)
	echo "module/smartwake.ko: $p test_ parameters"
	[ "$p" -eq 0 ] || rc=1
	if ls module/testing/*.ko 2>/dev/null; then
		echo "plain make built test-only modules"; rc=1
	fi
	p=$(modinfo -p build/testing/module/smartwake.ko | grep -c '^test_' || true)
	echo "build/testing/module/smartwake.ko (make testing): $p test_ parameters"
	[ "$p" -ge 7 ] || rc=1
	[ -f build/testing/module/testing/sw_conflict.ko ] || { echo "testing build lacks sw_conflict.ko"; rc=1; }
	# Functions holding an indirect call (a retpoline thunk, or call *
	# other than a paravirt op: pv_ops entries are address-taken kernel
	# functions, patched to direct calls at load).
	sites=$(objdump -dr --no-show-raw-insn module/smartwake.ko | awk '
		/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
		pend { if ($0 !~ /pv_ops/) print pend; pend = "" }
		/__x86_indirect_thunk/ { print fn }
		/call +\*/ { pend = fn }' | sort -u | tr '\n' ' ')
	echo "functions with indirect calls: $sites"
	# The kernel calls latency.c's and reach.c's tracepoint probes (and the
	# callbacks of for_each_kernel_tracepoint()) and the module parameters'
	# set/get through pointers: each must begin with ENDBR64, which the
	# compiler gives a function whose address is taken and objtool must
	# not have sealed (an IBT CPU would fault).
	local fn first addr sealed
	sealed=$(objdump -r -j .ibt_endbr_seal module/smartwake.ko |
		awk '$3 ~ /^\.text\+0x/ { sub(/^\.text\+0x/, "", $3); print $3 }')
	for fn in sw_lat_wakeup sw_lat_switch sw_lat_find sw_reach_waking sw_reach_find \
		sw_knob_param_set sw_knob_param_get sw_reset_param_set; do
		first=$(objdump -d --no-show-raw-insn module/smartwake.ko |
			awk -v f="<$fn>:" '$2 == f { getline; print $2; exit }')
		addr=$(nm module/smartwake.ko | awk -v f="$fn" '$3 == f { print $1 }')
		echo "$fn starts with: ${first:-nothing}"
		[ "$first" = endbr64 ] || rc=1
		if [ -z "$addr" ] || grep -qx "$addr" <<<"$sealed"; then
			echo "$fn is missing or in .ibt_endbr_seal (its ENDBR would be sealed at load)"
			rc=1
		fi
	done
	for f in $sites; do
		case $f in
		sw_orig_select) ;;	# select_task_rq_fair: ibt.c's table
		# the knob table's apply and write_str callbacks (module):
		# debugfs writes, module parameters, the load's parameters
		sw_knob_write|sw_knob_set|sw_knob_commit|sw_knob_param_set|sw_knobs_ready) ;;
		# the knob table's show_str (module)
		sw_knob_format|sw_knob_param_get|sw_knob_show|sw_knobs_list_show) ;;
		# cgroup_put()'s last put: the css's percpu_ref release,
		# css_release(), whose address the kernel takes (ENDBR64)
		sw_scope_free) ;;
		__traceiter_*) ;;	# trace events: the registered probes
		*) echo "unexpected indirect call in $f: add it to ibt.c's table or here"; rc=1 ;;
		esac
	done
	return "$rc"
}

# The fields the module reads are exactly module/fields.h, the list
# compat.c checks against the running kernel's BTF at load; the guard
# (scripts/check-fields.sh) works from GCC's dump of every function body
# compiled with kbuild's own command, and its tests show it failing,
# naming the field, on a tree with a field missing from the list.
step_fields() { scripts/check-fields-test.sh; }

g() { scripts/guest-run.sh "$@"; }
# IBT: the bytes at every pointer-call target; failed loads leave nothing.
step_safety-stock() { g --topo smp2 --timeout 600 safety.sh; }
step_safety-debug() { g --kernel debug --topo smp2 --timeout 900 safety.sh; }
step_cli-host() { scripts/cli-test.sh; }
# make replay's verdict rules on synthetic logs (the replay itself is not
# part of make check: scripts/replay.sh)
step_replay-host() { scripts/replay-test.sh; }
step_e2e-stock() { g --topo smp4 --timeout 600 e2e.sh; }
# lockdown=integrity: knobs through /sys/module/smartwake/parameters
step_lockdown-stock() { g --topo smp2 --timeout 600 lockdown.sh; }
# Refusal of a kernel the module was not built for (release, BTF layout).
step_compat-stock() { g --topo smp2 --timeout 600 compat.sh; }
step_compat-debug() { g --kernel debug --topo smp2 --timeout 600 compat.sh; }
# Issue 18: the module built from the kernel headers alone (no kernel
# source: the private scheduler layouts generated by tools/btfgen from the
# headers' BTF-only vmlinux) compiles with the same layouts as the
# full-source build of plain make (scripts/sched-layout.sh's listings,
# which also equal the BTF's), its static asserts catch a skewed
# projection, its module-side helpers read listed fields only, and it
# passes compat (its load-time layout check), e2e and wake in a guest
# (with its testing build).
# make install into a staging directory from the headers alone, make
# uninstall, a refusal, and a DKMS build in private trees (host only).
step_install() { scripts/install-test.sh; }
step_headers-only() {
	local d=build/logs/headers-only gen=build/headers-only/module/btfgen/sched_btf_gen.h
	local p=0 x=0 s=0 c f n r
	mkdir -p "$d"
	make -s module >"$d/make.log" 2>&1 || { tail -n 20 "$d/make.log"; return 1; }
	scripts/build-modules.sh --headers-only && scripts/build-modules.sh --headers-only --testing ||
		return 1
	tchk() { if "$@"; then echo "ok   - $c"; p=$((p + 1)); else echo "FAIL - $c"; x=$((x + 1)); fi; }
	# kbuild's dependency lists name every header each object read
	sw_stock_env
	c="headers-only build: no file of the kernel source read (kbuild's .cmd dependency lists)"
	tchk eval '[ -s build/headers-only/module/.wake.o.cmd ] &&
		! grep -lF "$SW_KSRC" build/headers-only{,-testing}/module/.*.cmd'
	c="full-source build: kernel/sched/sched.h read (the listing compares two different builds)"
	tchk grep -qF "$SW_KSRC/kernel/sched/sched.h" module/.wake.o.cmd
	scripts/sched-layout.sh >"$d/full.list" && scripts/sched-layout.sh build/headers-only \
		>"$d/headers-only.list" && scripts/sched-layout.sh --from-btf >"$d/btf.list" || return 1
	n=$(wc -l <"$d/full.list")
	c="full-source and headers-only builds: the same $n layout lines"
	tchk diff -u "$d/full.list" "$d/headers-only.list"
	c="both are the BTF's layouts (but for the WF_* macros, which BTF has not)"
	tchk diff -u "$d/btf.list" <(grep -v '^macro ' "$d/full.list")
	c="the listing has every field of module/fields.h"
	tchk [ "$(grep -cE ' (offset|missing)' "$d/full.list")" -eq "$(grep -c '^SW_SCHED_FIELD(' module/fields.h)" ]
	c="both builds: the same feature tests (scripts/conftest.sh's SW_HAVE_*)"
	tchk diff -u <(grep SW_HAVE_ module/sw_config.h) <(grep SW_HAVE_ build/headers-only/module/sw_config.h)
	# module/sched_btf.h's helpers (cpu_of(), ...) read listed fields only
	c="headers-only build: the fields read are module/fields.h's (check-fields.sh)"
	# shellcheck disable=SC2046 # the files that include (k)sched.h
	tchk scripts/check-fields.sh --tree build/headers-only \
		$(grep -lE '^#include "k?sched.h"' module/*.c | sed 's|module/||')
	# rq's first padding 8 bytes longer: the next member's assert fails
	cp "$gen" "$d/gen.h"
	awk '/^struct rq \{/ { r = 1 } r && /__pad_/ { sub(/\[[0-9]+\]/, "[" substr($2, index($2, "[") + 1) + 8 "]"); r = 0 } 1' \
		"$d/gen.h" >"$gen"
	f=$(scripts/sched-layout.sh build/headers-only 2>&1) && r=0 || r=1
	cp "$d/gen.h" "$gen"
	c="a skewed projection fails to compile, naming the field"
	tchk grep -q 'rq\.[a-z_]*: offset' <<<"$f$([ "$r" -eq 1 ] || echo ' compiled')"
	# compat: its load-time layout check (and refusals)
	for f in compat.sh:smp2:600 e2e.sh:smp4:600 shadow.sh:smp4:600; do hguest "$d" "$f"; done
	echo "$p passed, $x failed, $s skipped"
	[ "$x" -eq 0 ]
}
# hguest DIR SCRIPT:TOPO:TIMEOUT [GUEST-RUN OPTION...]: the guest script on
# a headers-only build, its output and log in DIR; its checks are added to
# the caller's p, x and s (a run that failed without a count: 1 failed).
hguest() {
	local d=$1 n t r rc=0
	IFS=: read -r n t r <<<"$2"
	shift 2
	g "$@" --headers-only --topo "$t" --timeout "$r" --log "$d/$n.log" "$n" | tee "$d/$n.out" ||
		rc=${PIPESTATUS[0]}
	r=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$d/$n.out" | tail -n 1) || true
	[ -n "$r" ] || r="0 passed, 1 failed"
	[ "$rc" -eq 0 ] || [[ ! $r =~ \ 0\ failed ]] || r="0 passed, 1 failed"
	p=$((p + ${r%% *}))
	x=$((x + $(sed 's/.* passed, \([0-9]*\) failed.*/\1/' <<<"$r")))
	[[ ! $r =~ skipped ]] || s=$((s + $(sed 's/.* failed, \([0-9]*\) skipped.*/\1/' <<<"$r")))
}
step_wake-smp4() { g --topo smp4 --timeout 900 wake.sh; }
step_wake-numa2() { g --topo numa2 --timeout 1200 wake.sh; }
step_ttwu-smp4() { g --topo smp4 --timeout 600 ttwu.sh; }
step_ttwu-numa2() { g --topo numa2 --timeout 600 ttwu.sh; }
# numa.sh's NUMA-FIG lines (a passing run's) go to figures.md, numa-retry.
step_numa-numa2() {
	local log=build/logs/numa-stock-numa2.log
	g --topo numa2 --timeout 600 --log "$log" numa.sh || return
	{
		echo "## numa_retry: NUMA task and page migrations per mode (guest/numa.sh, numa2)"
		echo
		echo "Per mode, 8 s (numatouch 10 s): 2 numatouch tasks with memory first-touched on node 1, run on node 0 for a"
		echo "pass then free, 2 tasks with memory bound to node 1 starting on node 0, and a 1:6 wakeload."
		echo "move/swap/stick: sched_move_numa/sched_swap_numa/sched_stick_numa events; calls: a kprobe"
		echo "event on task_numa_migrate.isra.0 (reached, skipped or not); deferred/allowed: the module's"
		echo "counters; pages: /proc/vmstat numa_pages_migrated; tasks: the numatouch tasks with NUMA"
		echo "faults, from /proc/PID/sched (6.12 has no numa_task_migrated/numa_task_swapped)."
		echo
		echo "| mode | move | swap | stick | calls | deferred | allowed | pages migrated | tasks with a preferred node | on it | tasks' numa_pages_migrated |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|"
		sed -n 's/^NUMA-FIG //p' "$log" | tr -d '\r'
	} | scripts/figures.sh numa-retry - || true
}
# The lines of guest log $1 between the markers $2-BEGIN and $2-END, as a
# Markdown code block (the real output a figures section quotes).
log_block() {
	echo '```'
	sed -n "/^$2-BEGIN/,/^$2-END/p" "$1" | sed '1d;$d' | tr -d '\r'
	echo '```'
}
# Wakeup-latency histogram (knob latency) and placement locality counters
# (issue 17, items 1 and 2): about 1 minute.
# A pass writes the guest's real "smartwake ab" output (latency columns,
# locality lines) to Documentation/figures.md, section latency-ab.
step_latency-smp4() {
	local log=build/logs/latency-stock-smp4.log rc=0
	g --topo smp4 --timeout 600 --log "$log" latency.sh || rc=$?
	[ $rc -eq 0 ] || return $rc
	{
		echo "## smartwake ab with wakeup latency and placement locality"
		echo
		echo "guest/latency.sh (make check step latency-smp4), stock kernel, smp4 guest under TCG:"
		echo "the kernel's placement (policy=shadow) against the module's without wake_wide."
		echo
		log_block "$log" SMARTWAKE-AB
	} | scripts/figures.sh latency-ab - || true
}
# Knob scope and smartwake ab --concurrent (issue 17, items 3 and 6):
# about a minute and a half. A pass writes the guest's two real
# concurrent comparisons to Documentation/figures.md, section
# concurrent-ab.
step_scope-smp4() {
	local log=build/logs/scope-stock-smp4.log rc=0
	g --topo smp4 --timeout 900 --log "$log" scope.sh || rc=$?
	[ $rc -eq 0 ] || return $rc
	{
		echo "## smartwake ab --concurrent"
		echo
		echo "guest/scope.sh (make check step scope-smp4), stock kernel, smp4 guest under TCG: both"
		echo "sides at once, one wakeload each in its own cgroup; A under the kernel, B under the"
		echo "module without wake_wide (knob scope: B's cgroup)."
		echo
		log_block "$log" SMARTWAKE-AB-CONCURRENT
		echo
		echo "The same with B in policy=shadow (it places as the kernel does: an A/A run, so the"
		echo "difference between the sides is what sharing the machine does to two equal loads):"
		echo
		log_block "$log" SMARTWAKE-AB-CONCURRENT-AA
	} | scripts/figures.sh concurrent-ab - || true
}
# Issue 28: ftrace_enabled=0 refused while a redirect is installed (both
# select_hook ways, ttwu_queue=lock, numa_retry), refused writes while it
# is 0, the reached share near 100 % and near 0 with the hook bypassed
# (testing build's test_no_permanent=1), ab refusing that side.
step_control-stock() { g --topo smp4 --timeout 600 control.sh; }
# Short form of the reliability runs (make stress runs the long form).
step_reliability() { g --topo smp4 --timeout 900 reliability.sh 30 10; }
step_cli-guest() { scripts/cli-test.sh --guest; }
# policy=shadow: the module's answers against the kernel's (issue 13);
# "smt" also asserts that the topology has SMT siblings.
step_shadow-smp4() { g --topo smp4 --timeout 600 shadow.sh; }
step_shadow-numa2() { g --topo numa2 --timeout 600 shadow.sh; }
step_shadow-flat4() { g --topo flat4 --timeout 600 shadow.sh; }
step_shadow-smt8() { g --topo smt8 --timeout 900 shadow.sh smt; }
step_shadow-numa-smt() { g --topo numa-smt --timeout 900 shadow.sh smt; }
# The other supported kernels (scripts/common.sh's table): Debian 13's
# 6.12.117+deb13 (steps -deb13) and Debian 12's 6.1.0-57 (steps -6.1),
# each with the module built for it. Fetched and built for by make
# check's dependencies (make kernels); kernel_ready redoes that, cheaply
# once done, so a step also runs alone. compat: the build for it loads
# there, and the default (Debian 12, 6.12) build is refused with a
# message in the kernel log. reliability: the short form of the debug
# kernel's (10 cycles, 4 hotplug rounds).
kernel_ready() {
	scripts/fetch-kernel.sh --kernel "$1" &&
		scripts/build-modules.sh --kernel-release "$1" &&
		scripts/build-modules.sh --kernel-release "$1" --testing
}
# kstep RELEASE TOPO TIMEOUT SCRIPT [ARG...]: a guest test on that kernel
kstep() {
	local k=$1 topo=$2 t=$3
	shift 3
	kernel_ready "$k" && g --kernel-release "$k" --topo "$topo" --timeout "$t" "$@"
}
DEB13=6.12.117+deb13-cloud-amd64
K61=6.1.0-57-cloud-amd64
step_compat-deb13() { kstep $DEB13 smp2 600 --foreign-ko module/smartwake.ko compat.sh; }
step_e2e-deb13() { kstep $DEB13 smp4 600 e2e.sh; }
step_wake-deb13() { kstep $DEB13 smp4 900 wake.sh; }
step_reliability-deb13() { kstep $DEB13 smp4 900 reliability.sh 10 4; }
step_shadow-deb13() { kstep $DEB13 smp4 600 shadow.sh; }
step_ttwu-deb13() { kstep $DEB13 numa2 600 ttwu.sh; }
step_numa-deb13() { kstep $DEB13 numa2 600 numa.sh; }
step_compat-6.1() { kstep $K61 smp2 600 --foreign-ko module/smartwake.ko compat.sh; }
step_e2e-6.1() { kstep $K61 smp4 600 e2e.sh; }
step_wake-6.1() { kstep $K61 smp4 900 wake.sh; }
step_reliability-6.1() { kstep $K61 smp4 900 reliability.sh 10 4; }
step_shadow-6.1() { kstep $K61 smp4 600 shadow.sh; }
step_ttwu-6.1() { kstep $K61 numa2 600 ttwu.sh; }
step_numa-6.1() { kstep $K61 numa2 600 numa.sh; }
# Debian 12's generic (bare-metal) flavour of the default kernel's version,
# 6.12.117+deb12-amd64 (steps -generic): the module built for it loads
# there, the default (cloud) build is refused; e2e and shadow (0
# disagreements at mainline knobs). The guest needs no driver module of
# the flavour: console on the 8250 UART, initramfs without disk or
# network, as on the cloud kernel (Documentation/install.md, "Kernels").
KGEN=6.12.117+deb12-amd64
step_compat-generic() { kstep $KGEN smp2 600 --foreign-ko module/smartwake.ko compat.sh; }
step_e2e-generic() { kstep $KGEN smp4 600 e2e.sh; }
step_shadow-generic() { kstep $KGEN smp4 600 shadow.sh; }
# Debian unstable's 7.2 (Documentation/studies/kernel-7.2.md): built with the
# host's gcc (the kernel's gcc-16 is not in Debian 12)
K72=7.2.13+deb14-cloud-amd64
step_compat-7.2() { kstep $K72 smp2 600 --foreign-ko module/smartwake.ko compat.sh; }
step_e2e-7.2() { kstep $K72 smp4 600 e2e.sh; }
step_wake-7.2() { kstep $K72 smp4 900 wake.sh; }
step_reliability-7.2() { kstep $K72 smp4 900 reliability.sh 10 4; }
step_shadow-7.2() { kstep $K72 smp4 600 shadow.sh; }
step_ttwu-7.2() { kstep $K72 numa2 600 ttwu.sh; }
step_numa-7.2() { kstep $K72 numa2 600 numa.sh; }
# Issue 18 on the other supported kernels: scripts/headers-only-test.sh
# (that kernel's full-source and headers-only builds compile the same
# layouts, WF_* values and feature tests; the headers-only one reads no
# file of the kernel source; 6.1's BTF comes from its image), then guest
# tests of its headers-only build (compat: its load-time layout check).
# hstep RELEASE SCRIPT:TOPO:TIMEOUT...
hstep() {
	local k=$1 d=build/logs/headers-only-$1 p=0 x=0 s=0 f r
	shift
	mkdir -p "$d"
	scripts/fetch-kernel.sh --kernel "$k" >"$d/fetch.log" 2>&1 || { tail -n 20 "$d/fetch.log"; return 1; }
	scripts/headers-only-test.sh "$k" | tee "$d/host.out"
	r=$(tail -n 1 "$d/host.out")
	[[ $r =~ ^[0-9]+\ passed,\ [0-9]+\ failed$ ]] || r="0 passed, 1 failed"
	p=${r%% *} x=$(sed 's/.* passed, \([0-9]*\) failed.*/\1/' <<<"$r")
	for f; do
		[ "$x" -eq 0 ] || break
		hguest "$d" "$f" --kernel-release "$k"
	done
	echo "$p passed, $x failed, $s skipped"
	[ "$x" -eq 0 ]
}
step_headers-only-deb13() { hstep $DEB13 compat.sh:smp2:600 e2e.sh:smp4:600; }
step_headers-only-6.1() { hstep $K61 compat.sh:smp2:600 e2e.sh:smp4:600; }
step_headers-only-7.2() { hstep $K72 compat.sh:smp2:600 e2e.sh:smp4:600 shadow.sh:smp4:600; }

# kfacts LABEL [RELEASE]: guest/kfacts.sh on that kernel (default: the
# default one), its KFACT lines as figures.md section kfacts-LABEL: what
# the kernel offers the module, measured in the guest.
kfacts() {
	local label=$1 k=${2:-} log=build/logs/kfacts-$1.log rc=0
	if [ -n "$k" ]; then
		kstep "$k" smp2 300 --log "$log" kfacts.sh || rc=$?
	else
		g --topo smp2 --timeout 300 --log "$log" kfacts.sh || rc=$?
	fi
	[ $rc -eq 0 ] || return $rc
	tr -d '\r' <"$log" | awk -F'|' '
		/^KFACT release\|/ { sub(/^KFACT release\|/, ""); sub(/\|.*/, ""); rel = $0 }
		/^KFACT (hook|copy|other)\|/ { sub(/^KFACT /, ""); fn[++n] = "| " $1 " | `" $2 "` | " $3 " | " $4 " |" }
		/^KFACT endbr\|/ { endbr = "`" $2 "` begins `" $3 "` (" $4 ")" }
		/^KFACT hooked\|/ { h = h (h ? ", " : "") "`" $2 "` " $3 " " $4 }
		/^KFACT sched_ext\|/ { sx = $2 }
		END {
			print "## What " rel " offers the module (guest/kfacts.sh)"
			print ""
			print "| role | function | kallsyms | traceable |"
			print "|---|---|---|---|"
			for (i = 1; i <= n; i++) print fn[i]
			print ""
			print "hook: the module attaches there; copy: inlined, the module carries its own copy;"
			print "other: neither, listed for a port. kallsyms: t/T out of line, - inlined."
			print ""
			print "- Pointer-call target: " endbr "."
			print "- With every knob that installs one: " h "."
			print "- sched_ext: " sx "."
		}' | scripts/figures.sh "kfacts-$label" - || true
}
step_kfacts-stock() { kfacts stock; }
step_kfacts-6.1() { kfacts 6.1 $K61; }
step_kfacts-deb13() { kfacts deb13 $DEB13; }
step_kfacts-7.2() { kfacts 7.2 $K72; }
step_debug-build() { scripts/build-debug-kernel.sh && scripts/build-debug-modules.sh; }
step_kunit() { scripts/kunit.sh; }
# The debug kernel: lockdep, atomic-sleep checks and kmemleak watch the hooks.
# KASAN is live, and a deliberate out-of-bounds read fails the log check.
step_kasan-debug() { g --kernel debug --topo smp2 --timeout 600 kasan.sh; }
step_e2e-debug() { g --kernel debug --topo smp4 --timeout 900 e2e.sh 10; }
# Issue 28: signatures enforced as under Secure Boot (lockdown=integrity,
# module.sig_enforce=1): the copy signed with the test key the debug kernel
# trusts loads, the unsigned build and a copy signed with an unknown key
# are refused (build-debug-modules.sh makes the copies).
step_sig-debug() {
	g --kernel debug --topo smp2 --timeout 300 --append "lockdown=integrity module.sig_enforce=1" \
		--ko build/debug-signed/smartwake.ko --test-ko build/debug/module/smartwake.ko \
		--foreign-ko build/debug-signed/wrongkey/smartwake.ko sigenforce.sh
}
step_wake-debug() { g --kernel debug --topo smp4 --timeout 1200 wake.sh; }
step_reliability-debug() { g --kernel debug --topo smp4 --timeout 1200 reliability.sh 10 4; }
step_shadow-debug() { g --kernel debug --topo smp4 --timeout 900 shadow.sh; }
# knob scope under lockdep (RCU-sched readers, the cgroup reference) and KASAN
step_scope-debug() { g --kernel debug --topo smp4 --timeout 1200 scope.sh; }

jobs=$(($(nproc) > 1 ? 2 : 1))
repeat=0 rfig=
steps=()
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sw_help "$0"; exit 0 ;;
	--list) printf '%s\n' "${steps_all[@]}"; exit 0 ;;
	--jobs) jobs=${2:-}; shift 2 || sw_die "--jobs wants a number" ;;
	--repeat) repeat=${2:-}; shift 2 || sw_die "--repeat wants a number" ;;
	--figures) rfig=${2:-}; shift 2 || sw_die "--figures wants a regular expression" ;;
	--only) IFS=, read -r -a only <<<"${2:-}"; steps+=("${only[@]}"); shift 2 ||
		sw_die "--only wants STEP,STEP..." ;;
	*) steps+=("$1"); shift ;;
	esac
done
[[ $jobs =~ ^[12]$ ]] || sw_die "--jobs is 1 or 2, not '$jobs'"
[[ $repeat =~ ^[0-9]+$ ]] || sw_die "--repeat wants a number of runs, not '$repeat'"
[ "$repeat" -eq 0 ] || [ ${#steps[@]} -gt 0 ] || sw_die "--repeat N wants the steps to repeat"
[ ${#steps[@]} -gt 0 ] || steps=("${steps_all[@]}")
for s in "${steps[@]}"; do
	declare -F "step_$s" >/dev/null || sw_die "unknown step $s (see --list)"
done

cd "$SW_TOP" || exit
out=build/logs/check
mkdir -p build/logs
# One make check per tree: a second one would clear the first one's logs.
exec 8>build/logs/.check.lock
flock -n 8 || sw_die "another make check is running in $SW_TOP"
rm -rf "$out"
mkdir -p "$out"

# run_step NAME: output in $out/NAME.out, verdict and seconds in NAME.res.
# With one lane the output streams; with two, each step's output is
# printed whole when it ends, under a lock, so the lanes do not interleave.
run_step() {
	local rc=0 jump
	if [ "$jobs" -eq 1 ]; then
		printf '\n==== %s ====\n' "$1"
	else
		say "starting $1"
	fi
	sw_timed "$out/$1.out" "$out/$1.res" $((jobs == 1)) "step_$1" || rc=1
	if [ $rc -ne 0 ] && jump=$(clock_jump "$1"); then
		mv "$out/$1.out" "$out/$1.jump.out"
		rc=0
		sw_timed "$out/$1.out" "$out/$1.res" $((jobs == 1)) "step_$1" || rc=1
		jump="retried once: the first run failed with a soft lockup of $jump s, longer than the step ran: the host clock jumped (a paused or forked host), not the guest (first run: $out/$1.jump.out)"
		echo "$jump" >>"$out/$1.out"
		[ "$jobs" -ne 1 ] || echo "$jump"
	fi
	[ "$jobs" -eq 1 ] || {
		flock 9
		printf '\n==== %s ====\n' "$1"
		cat "$out/$1.out"
		printf '==== %s: %s ====\n' "$1" "$(cut -d' ' -f1 "$out/$1.res")"
	} 9>"$out/.print.lock"
	return "$rc"
}
say() { { flock 9; sw_log "$*"; } 9>"$out/.print.lock"; }
# clock_jump STEP: prints the longest soft lockup its guests reported when
# that is longer than the whole step took: no CPU of a guest can stall
# longer than the guest ran, only the host's clock can jump that far (a
# host paused, snapshotted or forked: seen once, 7440 s in one step, with
# the __enqueue_entity overflow warning it causes). Fails otherwise.
clock_jump() {
	local sec m
	read -r _ sec <"$out/$1.res" || return 1
	m=$(sed -n 's/.*soft lockup - CPU#[0-9]* stuck for \([0-9]*\)s!.*/\1/p' "$out/$1.out" |
		sort -n | tail -n 1)
	[ -n "$m" ] && [[ $sec =~ ^[0-9]+$ ]] && [ "$m" -gt "$sec" ] && echo "$m"
}
# run_lane STEP...: one after the other
run_lane() {
	local s
	for s in "$@"; do run_step "$s" || true; done
}

# step_counts STEP RES: "passed failed skipped" of one step: its last
# "N passed, N failed[, N skipped]" line (the guest scripts, cli-test),
# plus the KUnit cases kunit.sh reports; a step without such a line
# counts as one check; a failed step counts at least one failure.
step_counts() {
	local f=$out/$1.out p=0 x=0 k=0 line ku
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$f" 2>/dev/null | tail -n 1)
	if [ -n "$line" ]; then
		p=$(sed 's/ passed.*//' <<<"$line")
		x=$(sed 's/.* passed, \([0-9]*\) failed.*/\1/' <<<"$line")
		grep -q skipped <<<"$line" && k=$(sed 's/.* failed, \([0-9]*\) skipped/\1/' <<<"$line")
	elif [ "$2" = PASS ]; then
		p=1
	fi
	ku=$(sed -n 's/.*KUnit: \([0-9]*\) tests passed.*/\1/p' "$f" 2>/dev/null | tail -n 1)
	p=$((p + ${ku:-0}))
	[ "$2" = PASS ] || [ "$x" -gt 0 ] || x=1
	echo "$p $x $k"
}

# --repeat N: each step N times, one run at a time, each run's output
# kept; a step passes only if all N runs did.
if [ "$repeat" -gt 0 ]; then
	t0=$SECONDS rfail=0 rtab=
	for s in "${steps[@]}"; do
		np=0 secs=
		for i in $(seq "$repeat"); do
			run_step "$s" || true
			read -r res sec <"$out/$s.res" || res=FAIL sec='?'
			read -r p x k <<<"$(step_counts "$s" "$res")"
			mv "$out/$s.out" "$out/$s.r$i.out"
			printf 'repeat %s run %d of %d: %s in %ss, %s passed, %s failed, %s skipped\n' \
				"$s" "$i" "$repeat" "$res" "$sec" "$p" "$x" "$k"
			[ "$res" = PASS ] && np=$((np + 1))
			secs+="${secs:+ }$sec"
		done
		[ "$np" -eq "$repeat" ] || rfail=1
		rtab+="$s: $np of $repeat runs passed (seconds: $secs)"$'\n'
		[ -z "$rfig" ] || {
			echo "## scripts/check.sh --repeat $repeat $s"
			echo
			echo "$np of $repeat runs in a row passed (seconds per run: $secs)."
			echo "Lines matching \`$rfig\`, run by run:"
			echo
			echo '```'
			for i in $(seq "$repeat"); do
				grep -E -- "$rfig" "$out/$s.r$i.out" | sed "s/^/run $i: /"
			done
			echo '```'
		} | scripts/figures.sh "repeat-$s" - || true
	done
	printf '\n==== check --repeat %d (%ds) ====\n%s' "$repeat" $((SECONDS - t0)) "$rtab"
	exit $rfail
fi

# Host steps first; with two jobs, the debug kernel's steps (its build,
# KUnit, the module under lockdep), Debian 13's and 7.2's kernels and
# headers-only-6.1 form a second lane; 6.1's other steps and the generic
# flavour's run in the first (the lanes then take about as long:
# figures.md, "make check"). Steps of one kernel in both lanes are safe:
# make check's "make kernels" has built every module first, and
# build-modules.sh leaves an up-to-date build untouched.
host=() stock=() debug=()
for s in "${steps[@]}"; do
	case $s in
	style|scripts|docs|shipped|fields|cli-host|replay-host) host+=("$s") ;;
	debug-build|kunit|*-debug|*-deb13|*-7.2|headers-only-6.1) debug+=("$s") ;;
	*) stock+=("$s") ;;
	esac
done
t0=$SECONDS
run_lane "${host[@]}"
# The host stage gates the guests: no guest boots after a host failure.
hostfail=
for s in "${host[@]}"; do
	grep -q '^PASS' "$out/$s.res" 2>/dev/null || hostfail+=" $s"
done
if [ -n "$hostfail" ]; then
	sw_log "host stage failed:$hostfail; no guest is booted"
	for s in "${stock[@]}" "${debug[@]}"; do echo "FAIL 0" >"$out/$s.res"; echo "not run: host stage failed" >"$out/$s.out"; done
	stock=() debug=()
fi
if [ "$jobs" -eq 2 ] && [ ${#debug[@]} -gt 0 ] && [ ${#stock[@]} -gt 0 ]; then
	run_lane "${debug[@]}" &
	run_lane "${stock[@]}"
	wait
else
	run_lane "${stock[@]}" "${debug[@]}"
fi

failed=0 tp=0 tf=0 tk=0
total=$((SECONDS - t0))
printf '\n==== make check summary (%d lane(s), %ds) ====\n' "$jobs" "$total"
printf '%-18s %-7s %5s %7s %6s %7s\n' step result time passed failed skipped
table="| step | result | seconds | passed | failed | skipped |
|---|---|---|---|---|---|"
for s in "${steps[@]}"; do
	read -r res sec <"$out/$s.res" || { res=FAIL sec='?'; }
	[ "$res" = PASS ] || failed=1
	read -r p x k <<<"$(step_counts "$s" "$res")"
	tp=$((tp + p)) tf=$((tf + x)) tk=$((tk + k))
	printf '%-18s %-7s %4ss %7s %6s %7s\n' "$s" "$res" "$sec" "$p" "$x" "$k"
	table+=$'\n'"| $s | $res | $sec | $p | $x | $k |"
done
# The full run's figures go to the generated figures file.
if [ ${#steps[@]} -eq ${#steps_all[@]} ]; then
	{
		echo "## make check"
		echo
		echo "scripts/check.sh, all steps, $jobs lane(s), $(nproc) host CPUs: ${total} s in all;"
		echo "$tp passed, $tf failed, $tk skipped."
		# make check's own start (Makefile, check-start): with the
		# fetches and builds before check.sh, and what the cache held
		if [ -n "${SMARTWAKE_MAKE_CHECK_START:-}" ] &&
			read -r ms mk md 2>/dev/null <"$SW_TOP/$SMARTWAKE_MAKE_CHECK_START"; then
			echo
			echo "make check in all (fetches and builds included): $(($(date +%s) - ms)) s; at its start the cache held $mk fetched kernels and $md debug-kernel builds$([ "$mk$md" = 00 ] && echo ': an empty cache')."
		fi
		echo
		echo "$table"
	} | scripts/figures.sh make-check - || true
	# policy=shadow at mainline knobs, per topology (guest/shadow.sh)
	{
		echo "## policy=shadow at mainline knobs (make check)"
		echo
		echo "All loads of guest/shadow.sh per step: wakeups the module and the kernel both decided."
		echo
		echo "| step | compared | agree | disagree | raced | raced_aba |"
		echo "|---|---|---|---|---|---|"
		for s in "${steps[@]}"; do
			case $s in shadow-*) ;; *) continue ;; esac
			sed -n 's/^SHADOW-FIGURES compared=\([0-9]*\) agree=\([0-9]*\) disagree=\([0-9]*\) raced=\([0-9]*\) raced_aba=\([0-9]*\).*/| '"$s"' | \1 | \2 | \3 | \4 | \5 |/p' \
				"$out/$s.out" | head -n 1
		done
	} | scripts/figures.sh shadow - || true
fi
[ $failed -eq 0 ] && echo "every step passed" || echo "some step FAILED"
if [ "$tk" -gt 0 ]; then
	echo "make check: $tp passed, $tf failed, $tk skipped"
else
	echo "make check: $tp passed, $tf failed"
fi
exit $failed
