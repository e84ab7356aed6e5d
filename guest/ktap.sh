# shellcheck shell=sh
# The one test reporter of the guest and host tests: KTAP
# (the kernel's Documentation/dev-tools/ktap.rst), after the kernel's
# tools/testing/selftests/kselftest/ktap_helpers.sh. Plain sh: the
# guest's busybox sh sources it through guest/lib.sh, the host's bash
# through scripts/testlib.sh and scripts/check.sh.
#
#   KTAP version 1
#   ok 1 DESCRIPTION
#   not ok 2 DESCRIPTION
#   ok 3 DESCRIPTION # SKIP REASON
#   # Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0
#   1 passed, 1 failed, 1 skipped
#
# A script that knows its number of results declares the plan "1..N"
# after the version line (ktap_begin N). Most do not (loops, checks that
# depend on the kernel): they omit it, as ktap.rst allows, and the end of
# the run is marked by ktap_end's totals line, kselftest's "# Totals:"
# diagnostic, which a script that dies halfway never prints. The reader
# (scripts/check.sh) counts a missing totals line, totals that differ
# from the results, or a plan the results do not meet as a failure. Not a
# plan after the results: ktap.rst puts the plan after the version line,
# and kunit.py parse (6.12) loops forever on a trailing one. The last
# line keeps the totals line the scripts always printed (make stress,
# make replay and matrix.sh read it).
KTAP_N=0 KTAP_PASS=0 KTAP_FAIL=0 KTAP_SKIP=0 KTAP_PLAN= KTAP_BEGUN=

# ktap_begin [N]: the header, and with N the plan; the first result
# prints the header itself when nobody did.
# shellcheck disable=SC2120 # N is optional: the guest scripts know none
ktap_begin() {
	KTAP_N=0 KTAP_PASS=0 KTAP_FAIL=0 KTAP_SKIP=0 KTAP_PLAN=${1:-} KTAP_BEGUN=1
	echo "KTAP version 1"
	[ -z "$KTAP_PLAN" ] || echo "1..$KTAP_PLAN"
}
ktap_result() {
	[ -n "$KTAP_BEGUN" ] || ktap_begin
	KTAP_N=$((KTAP_N + 1))
	echo "$1 $KTAP_N $2"
}
ktap_ok() { ktap_result ok "$*"; KTAP_PASS=$((KTAP_PASS + 1)); }
ktap_not_ok() { ktap_result "not ok" "$*"; KTAP_FAIL=$((KTAP_FAIL + 1)); }
# ktap_skip DESCRIPTION [REASON]: a check that could not run here, counted,
# never a pass. Without REASON, the text after DESCRIPTION's first ": " is
# the reason ("kmemleak: not in this kernel").
ktap_skip() {
	_kd=$1 _kr=${2-}
	if [ $# -lt 2 ] && [ "${_kd#*: }" != "$_kd" ]; then
		_kr=${_kd#*: } _kd=${_kd%%: *}
	fi
	ktap_result ok "$_kd # SKIP${_kr:+ $_kr}"
	KTAP_SKIP=$((KTAP_SKIP + 1))
}
# ktap_check DESCRIPTION COMMAND...: passes when COMMAND succeeds
ktap_check() {
	_kd=$1
	shift
	if "$@"; then ktap_ok "$_kd"; else ktap_not_ok "$_kd"; fi
}
# ktap_end: the totals; fails unless every result passed or skipped, at
# least one passed, and a declared plan was met.
ktap_end() {
	[ -n "$KTAP_BEGUN" ] || ktap_begin
	if [ -n "$KTAP_PLAN" ] && [ "$KTAP_PLAN" -ne "$KTAP_N" ]; then
		echo "# plan 1..$KTAP_PLAN but $KTAP_N results"
		KTAP_FAIL=$((KTAP_FAIL + 1))
	fi
	echo "# Totals: pass:$KTAP_PASS fail:$KTAP_FAIL xfail:0 xpass:0 skip:$KTAP_SKIP error:0"
	if [ "$KTAP_SKIP" -gt 0 ]; then
		echo "$KTAP_PASS passed, $KTAP_FAIL failed, $KTAP_SKIP skipped"
	else
		echo "$KTAP_PASS passed, $KTAP_FAIL failed"
	fi
	[ "$KTAP_FAIL" -eq 0 ] && [ "$KTAP_PASS" -gt 0 ]
}
