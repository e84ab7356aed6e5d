#!/usr/bin/env bash
# make check: every test. Host checks first (style, scripts), then guests:
# the end-to-end test and the wakeup-policy tests on the stock 6.12 kernel,
# the KUnit suites and the end-to-end test (under lockdep) on the debug
# kernel. Runs every step, prints a table, fails if any step failed.
#
# Usage: scripts/check.sh [STEP...]     (default: all steps; see --list)
. "$(dirname "$0")/common.sh"

steps_all=(style scripts cli-host e2e-stock compat-stock wake-smp4 wake-numa2 ttwu-smp4
	ttwu-numa2 numa-numa2 reliability cli-guest debug-build kunit compat-debug
	e2e-debug wake-debug reliability-debug)

step_style() {
	sw_stock_env
	local cp=$SW_KSRC/scripts/checkpatch.pl out files
	files=$(git ls-files 'module/*.[ch]' 'include/*.h' 'kunit/*.c' | grep -v 'trace\.h$')
	# shellcheck disable=SC2086
	out=$(perl "$cp" --strict --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files 2>&1 |
		grep -E ': (ERROR|WARNING|CHECK):') || true
	# TRACE_EVENT() blocks use the layout of include/trace/events/*.h,
	# which checkpatch's open-line and alignment checks do not model.
	out+=$(perl "$cp" --strict --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT \
		-f module/trace.h 2>&1 | grep -E ': (ERROR|WARNING|CHECK):') || true
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
		return 1
	fi
	echo "checkpatch --strict: clean"
}

step_scripts() {
	local f rc=0
	for f in scripts/*.sh .ci/run; do
		bash -n "$f" || rc=1
	done
	for f in guest/*.sh; do
		busybox sh -n "$f" || rc=1
	done
	# Every user-facing script answers --help.
	for f in scripts/fetch-kernel.sh scripts/guest-run.sh scripts/build-debug-kernel.sh \
		scripts/check.sh scripts/demo.sh scripts/stress.sh scripts/cli-test.sh \
		scripts/bench.sh scripts/bench-plot.sh scripts/kunit.sh \
		scripts/build-debug-modules.sh; do
		"$f" --help >/dev/null || { echo "$f --help failed"; rc=1; }
	done
	return $rc
}

g() { scripts/guest-run.sh "$@"; }
step_cli-host() { scripts/cli-test.sh; }
step_e2e-stock() { g --topo smp4 --timeout 600 e2e.sh; }
# Refusal of a kernel the module was not built for (release, BTF layout).
step_compat-stock() { g --topo smp2 --timeout 600 compat.sh; }
step_compat-debug() { g --kernel debug --topo smp2 --timeout 600 compat.sh; }
step_wake-smp4() { g --topo smp4 --timeout 900 wake.sh; }
step_wake-numa2() { g --topo numa2 --timeout 1200 wake.sh; }
step_ttwu-smp4() { g --topo smp4 --timeout 600 ttwu.sh; }
step_ttwu-numa2() { g --topo numa2 --timeout 600 ttwu.sh; }
step_numa-numa2() { g --topo numa2 --timeout 600 numa.sh; }
# Short form of the reliability runs (make stress runs the long form).
step_reliability() { g --topo smp4 --timeout 900 reliability.sh 30 10; }
step_cli-guest() { scripts/cli-test.sh --guest; }
step_debug-build() { scripts/build-debug-kernel.sh && scripts/build-debug-modules.sh; }
step_kunit() { scripts/kunit.sh; }
# The debug kernel: lockdep, atomic-sleep checks and kmemleak watch the hooks.
step_e2e-debug() { g --kernel debug --topo smp4 --timeout 900 e2e.sh 10; }
step_wake-debug() { g --kernel debug --topo smp4 --timeout 1200 wake.sh; }
step_reliability-debug() { g --kernel debug --topo smp4 --timeout 1200 reliability.sh 10 4; }

case ${1:-} in
-h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
--list) printf '%s\n' "${steps_all[@]}"; exit 0 ;;
esac
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=("${steps_all[@]}")

cd "$SW_TOP"
declare -A result secs
failed=0
for s in "${steps[@]}"; do
	declare -F "step_$s" >/dev/null || sw_die "unknown step $s (see --list)"
	printf '\n==== %s ====\n' "$s"
	t0=$(date +%s)
	if "step_$s"; then result[$s]=PASS; else result[$s]=FAIL; failed=1; fi
	secs[$s]=$(($(date +%s) - t0))
done

printf '\n==== make check summary ====\n'
for s in "${steps[@]}"; do
	printf '%-12s %-7s %4ss\n' "$s" "${result[$s]}" "${secs[$s]}"
done
[ $failed -eq 0 ] && echo "make check: all steps passed" || echo "make check: FAILED"
exit $failed
