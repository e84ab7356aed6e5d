#!/usr/bin/env bash
# make check: every test. Host checks first (style, scripts), then guests:
# the end-to-end test and the wakeup-policy tests on the stock 6.12 kernel,
# the KUnit suites and the end-to-end test (under lockdep) on the debug
# kernel. Runs every step, prints a table, fails if any step failed.
#
# Usage: scripts/check.sh [STEP...]     (default: all steps; see --list)
. "$(dirname "$0")/common.sh"

steps_all=(style scripts e2e-stock wake-smp4 wake-numa2 debug-build kunit e2e-debug)

step_style() {
	sw_stock_env
	local cp=$SW_KSRC/scripts/checkpatch.pl out files
	files=$(git ls-files 'module/*.[ch]' 'include/*.h' 'kunit/*.c' 2>/dev/null ||
		ls module/*.[ch] include/smartwake/*.h kunit/*.c | grep -v '\.mod\.c$')
	# shellcheck disable=SC2086
	out=$(perl "$cp" --strict --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files 2>&1 |
		grep -E ': (ERROR|WARNING|CHECK):') || true
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
		scripts/check.sh scripts/demo.sh; do
		"$f" --help >/dev/null || { echo "$f --help failed"; rc=1; }
	done
	return $rc
}

step_e2e-stock() { scripts/guest-run.sh --topo smp4 --timeout 600 e2e.sh; }
step_wake-smp4() { scripts/guest-run.sh --topo smp4 --timeout 900 wake.sh; }
step_wake-numa2() { scripts/guest-run.sh --topo numa2 --timeout 1200 wake.sh; }
step_debug-build() { scripts/build-debug-kernel.sh && scripts/build-debug-modules.sh; }
step_kunit() { scripts/kunit.sh; }
step_e2e-debug() { scripts/guest-run.sh --kernel debug --topo smp4 --timeout 900 e2e.sh 10; }

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
	[ -f "guest/${s%%-*}.sh" ] || case $s in wake-*) 
		result[$s]=skipped; secs[$s]=0; continue ;; esac
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
