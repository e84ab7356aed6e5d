#!/usr/bin/env bash
# make stress: the long reliability runs (not part of make check).
#   - stock kernel, 4 CPUs: 200 insmod/rmmod cycles under a wakeup storm
#     with knob flips, knob fuzzing, concurrent writers, 100 CPU hotplug
#     rounds, hook conflicts (guest/reliability.sh 200 100)
#   - stock kernel, 2 NUMA nodes: the same with 100 cycles and 50 rounds
#   - debug kernel (lockdep, atomic-sleep checks, kmemleak): 100 cycles and
#     50 rounds, plus the end-to-end test
# Prints each run's summary line and a table; exits non-zero on a failure.
#
# Usage: scripts/stress.sh [--quick]    (--quick: a tenth of the cycles)
. "$(dirname "$0")/common.sh"
div=1
case ${1:-} in
-h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
--quick) div=10 ;;
esac
cd "$SW_TOP"
mkdir -p build/logs
scripts/build-debug-kernel.sh >/dev/null
scripts/build-debug-modules.sh
runs=(
	"stock-smp4|--topo smp4 --timeout 5400 reliability.sh $((200 / div)) $((100 / div))"
	"stock-numa2|--topo numa2 --timeout 5400 reliability.sh $((100 / div)) $((50 / div))"
	"debug-smp4|--kernel debug --topo smp4 --timeout 5400 reliability.sh $((100 / div)) $((50 / div))"
	"debug-e2e|--kernel debug --topo smp4 --timeout 1800 e2e.sh $((100 / div))"
)
failed=0
declare -A res
for r in "${runs[@]}"; do
	name=${r%%|*}
	t0=$(date +%s)
	# shellcheck disable=SC2086
	if scripts/guest-run.sh --log "build/logs/stress-$name.log" ${r#*|} >"build/logs/stress-$name.out" 2>&1; then
		st=PASS
	else
		st=FAIL
		failed=1
	fi
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "build/logs/stress-$name.out" | tail -n 1)
	res[$name]="$st  $(($(date +%s) - t0))s  ${line:-no summary}"
	grep -E '^FAIL|cycles|rounds|bad writes refused' "build/logs/stress-$name.out" || true
	echo "$name: ${res[$name]}"
done
printf '\n==== make stress ====\n'
for r in "${runs[@]}"; do printf '%-12s %s\n' "${r%%|*}" "${res[${r%%|*}]}"; done
exit $failed
