# shellcheck shell=bash
# Host test helpers, sourced by the host test scripts (cli-test.sh,
# check-fields-test.sh) after common.sh: every check counts, summary
# prints the one "N passed, N failed" line and fails unless all passed.
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); echo "ok   - $*"; }
# skip DESCRIPTION: a check that cannot run here, counted, never a pass
skip() { skipped=$((skipped + 1)); echo "skip - $*"; }
not_ok() { fail=$((fail + 1)); echo "FAIL - $*"; }
# check DESCRIPTION COMMAND...: passes when COMMAND succeeds
check() {
	local d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
summary() {
	if [ "$skipped" -gt 0 ]; then
		echo "$pass passed, $fail failed, $skipped skipped"
	else
		echo "$pass passed, $fail failed"
	fi
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
}
