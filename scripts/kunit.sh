#!/usr/bin/env bash
# Run the KUnit suites in a guest on the debug kernel and parse their KTAP
# with kunit.py parse from the matching kernel source. Fails when the guest
# fails, when kunit.py reports a failure, or when fewer than 60 cases ran.
#
# Usage: scripts/kunit.sh
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
sw_stock_env
log=$SW_TOP/build/logs/kunit-debug-smp2.log
ktap=$SW_TOP/build/logs/kunit.ktap
rc=0
"$SW_TOP/scripts/guest-run.sh" --kernel debug --topo smp2 --timeout 600 --log "$log" \
	kunit.sh >/dev/null || rc=$?
sed -n '/SMARTWAKE-KTAP-BEGIN/,/SMARTWAKE-KTAP-END/p' "$log" | sed '1d;$d' >"$ktap"
grep -E '^(ok   -|FAIL -)|passed, .* failed' "$log" || true
prc=0
python3 "$SW_KSRC/tools/testing/kunit/kunit.py" parse "$ktap" >"$ktap.parsed" 2>&1 || prc=$?
# The per-suite lines and the final summary of kunit.py.
grep -E '=+ .* =+|Testing complete|FAILED|passed' "$ktap.parsed" | tail -n 20
ran=$(sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p' "$ktap.parsed" | tail -n 1)
if [ $rc -ne 0 ] || [ $prc -ne 0 ] || [ "${ran:-0}" -lt 60 ]; then
	sw_log "KUnit: FAILED (guest exit $rc, kunit.py exit $prc, ${ran:-0} tests)"
	exit 1
fi
sw_log "KUnit: $ran tests passed"
