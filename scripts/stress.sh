#!/usr/bin/env bash
# make stress: the long reliability runs (not part of make check).
#   stock-smp4   stock kernel, 4 CPUs: 200 insmod/rmmod cycles under a
#                wakeup storm with knob flips, knob fuzzing, concurrent
#                writers, 100 CPU hotplug rounds, hook conflicts
#                (guest/reliability.sh 200 100)
#   stock-numa2  stock kernel, 2 NUMA nodes: the same, 100 cycles, 50 rounds
#   debug-smp4   debug kernel (lockdep, atomic-sleep checks, kmemleak,
#                KASAN): the same, 100 cycles, 50 rounds (KASAN doubles a
#                cycle's time), kmemleak scan after the cycles
#   debug-e2e    debug kernel: the end-to-end test with 100 load cycles
# The guests are single-threaded TCG, so up to --jobs of them run at once
# (default: 2, or 1 on a one-CPU machine), longest first. Prints each run's
# summary line and a table; exits non-zero if any run fails.
#
# Usage: scripts/stress.sh [--quick] [--jobs N] [--only NAME]
#   --quick      a tenth of the cycles and rounds
#   --jobs N     guests at once
#   --only NAME  one run (e.g. debug-e2e)
. "$(dirname "$0")/common.sh"
div=1
jobs=$(($(nproc) > 1 ? 2 : 1))
only=
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sw_help "$0"; exit 0 ;;
	--quick) div=10; shift ;;
	--jobs) jobs=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	*) sw_die "unknown option $1 (see --help)" ;;
	esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || sw_die "--jobs wants a positive number, not '$jobs'"
cd "$SW_TOP" || exit
logs=build/logs
mkdir -p "$logs"
# the stock kernel's guests load the testing build as well: make stress
# builds it, a direct run of this script must too (it ran without once)
make -C "$SW_TOP" all testing >"$logs/stress-build.log" 2>&1 ||
	sw_die "make all testing failed (see $logs/stress-build.log)"
scripts/build-debug-kernel.sh >/dev/null
scripts/build-debug-modules.sh
runs=(
	"stock-smp4|--topo smp4 --timeout 5400 reliability.sh $((200 / div)) $((100 / div))"
	"debug-smp4|--kernel debug --topo smp4 --timeout 5400 reliability.sh $((100 / div)) $((50 / div))"
	"stock-numa2|--topo numa2 --timeout 5400 reliability.sh $((100 / div)) $((50 / div))"
	"debug-e2e|--kernel debug --topo smp4 --timeout 3600 e2e.sh $((100 / div))"
)
if [ -n "$only" ]; then
	sel=()
	for r in "${runs[@]}"; do [ "${r%%|*}" = "$only" ] && sel+=("$r"); done
	[ ${#sel[@]} -eq 1 ] || sw_die "no run named '$only'"
	runs=("${sel[@]}")
fi

# run_one NAME ARGS...: one guest; its verdict and duration in NAME.res
run_one() {
	local name=$1 f=$logs/stress-$1 st sec line
	shift
	sw_timed "$f.out" "$f.res" 0 scripts/guest-run.sh --log "$f.log" "$@" || true
	read -r st sec <"$f.res"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$f.out" | tail -n 1)
	echo "$st  ${sec}s  ${line:-no summary}" >"$f.res"
	echo "$name: $(cat "$f.res")"
	grep -E '^not ok |cycles|rounds|bad writes refused|inactive|injected' "$f.out" || true
}

t0=$SECONDS
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- module include guest scripts tools 2>/dev/null || echo "+changes")
started=$(date -u '+%Y-%m-%d %H:%M UTC')
for r in "${runs[@]}"; do
	rm -f "$logs/stress-${r%%|*}.res"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	sw_log "stress: starting ${r%%|*} (log: $logs/stress-${r%%|*}.out)"
	# shellcheck disable=SC2086
	run_one "${r%%|*}" ${r#*|} &
done
wait
failed=0
table=
printf '\n==== make stress (%d guests at once, %ds) ====\n' "$jobs" $((SECONDS - t0))
for r in "${runs[@]}"; do
	name=${r%%|*}
	res=$(cat "$logs/stress-$name.res" 2>/dev/null || echo "FAIL  no result")
	case $res in PASS*) ;; *) failed=1 ;; esac
	printf '%-12s %s\n' "$name" "$res"
	read -r st sec rest <<<"$res"
	table+="| $name | ${r#*|} | $st | $sec | $rest |"$'\n'
done
# The full run's table goes to figures.md (a --quick or --only run does not).
if [ $div -eq 1 ] && [ -z "$only" ]; then
	{
		echo "## make stress"
		echo
		echo "scripts/stress.sh at commit $commit, started $started, $jobs guests at once, $((SECONDS - t0)) s in all."
		echo
		echo "| run | guest-run arguments | verdict | time | tests |"
		echo "|---|---|---|---|---|"
		printf '%s' "$table"
	} | scripts/figures.sh stress -
fi
exit $failed
