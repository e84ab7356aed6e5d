#!/usr/bin/env bash
# Run the KUnit suites in a guest on the debug kernel and parse their KTAP
# with kunit.py parse from the matching kernel source; prints the guest
# script's KTAP and the suites' KTAP. Fails when the guest
# fails, when kunit.py reports a failure or a skip, or when the suites and
# cases that ran are not exactly those the sources declare.
#
# Usage: scripts/kunit.sh
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
# The debug kernel is built from the default kernel's source, whatever
# KERNEL says.
SW_KERNEL=
sw_stock_env
log=$SW_TOP/build/logs/kunit-debug-smp2.log
ktap=$SW_TOP/build/logs/kunit.ktap
rc=0
"$SW_TOP/scripts/guest-run.sh" --kernel debug --topo smp2 --timeout 600 --log "$log" \
	kunit.sh >/dev/null || rc=$?
sed -n '/SMARTWAKE-KTAP-BEGIN/,/SMARTWAKE-KTAP-END/p' "$log" | sed '1d;$d' >"$ktap"
# The guest script's KTAP, then the suites' own (without the kernel log's
# timestamps), for make check's one KTAP reader (scripts/check.sh).
sed -n '/SMARTWAKE-GUEST-START/,$p' "$log" | sed '/SMARTWAKE-KTAP-BEGIN/,/SMARTWAKE-KTAP-END/d'
sed 's/^\[[ 0-9.]*\] //' "$ktap"
prc=0
python3 "$SW_KSRC/tools/testing/kunit/kunit.py" parse "$ktap" >"$ktap.parsed" 2>&1 || prc=$?
# The per-suite lines and the final summary of kunit.py.
grep -E '=+ .* =+|Testing complete|FAILED|passed' "$ktap.parsed" | tail -n 20
ran=$(sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p' "$ktap.parsed" | tail -n 1)
# What the sources declare, against what ran: every suite, every case
# (a parameterised case counts once here; its parameters are its
# subtests), no skip, and kunit.py's total all passed.
want_suites=$(cat "$SW_TOP"/kunit/*.c | grep -c 'static struct kunit_suite ')
want_cases=$(cat "$SW_TOP"/kunit/*.c | grep -oE 'KUNIT_CASE(_PARAM)?\(' | wc -l)
plan=$(sed -n 's/^\[[ 0-9.]*\] 1\.\.\([0-9]*\)$/\1/p' "$ktap" | head -n 1)
suites_ok=$(grep -cE '^\[[ 0-9.]+\] ok [0-9]+ ' "$ktap")
cases_ok=$(grep -cE '^\[[ 0-9.]+\]     ok [0-9]+ ' "$ktap")
not_ok=$(grep -cE '^\[[ 0-9.]+\] +not ok ' "$ktap" || true)
skips=$(grep -ciE '# SKIP' "$ktap" || true)
echo "KUnit: declared $want_suites suites, $want_cases cases; KTAP plan ${plan:-none}, $suites_ok suites ok, $cases_ok cases ok, $not_ok not ok, $skips skipped; kunit.py ran ${ran:-0}"
bad=
[ "${plan:-x}" = "$want_suites" ] || bad+=" plan"
[ "$suites_ok" = "$want_suites" ] || bad+=" suites"
[ "$cases_ok" = "$want_cases" ] || bad+=" cases"
[ "$not_ok" = 0 ] || bad+=" not-ok"
[ "$skips" = 0 ] || bad+=" skips"
grep -qE "Ran ${ran:-x} tests: passed: ${ran:-x}\$" "$ktap.parsed" || bad+=" kunit.py"
if [ $rc -ne 0 ] || [ $prc -ne 0 ] || [ -n "$bad" ]; then
	sw_log "KUnit: FAILED (guest exit $rc, kunit.py exit $prc, ${ran:-0} tests; wrong:$bad)"
	exit 1
fi
sw_log "KUnit: $ran tests passed"
