#!/usr/bin/env bash
# The sched-idle pull's A/B (issue 36, knob sib_pull): a benchmark, not a
# test of make check. Boots the stock kernel on smp4 under -icount
# shift=0,sleep=off and runs guest/pull-ab.sh: SCHED_IDLE hogs on half
# the CPUs, a bursty non-idle load (wakeload msg, 2 groups of 2 senders
# and 2 receivers, over pipes) on all; sib_pull=0 and 1 alternate in one
# boot. Writes the table (per run and the medians: ops/s, the load's
# wakeup latency p50/p90/p99, pulls) to Documentation/figures.md, section
# pull-ab, with the commit and the date.
# Instruction time: a ns is about one instruction, and ops/s counts the
# work per operation with one counter for all vCPUs; the gain of more CPUs
# running at once does not show in it, the time a task waits does.
#
# Usage: scripts/pull-ab.sh [--rounds N] [--secs S] [--no-figures]
#   --rounds N    rounds, each one run per side (default 5)
#   --secs S      seconds per run (default 3)
#   --no-figures  print the table only
. "$(dirname "$0")/common.sh"
rounds=5 secs=3 figures=1
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=${2:-}; shift 2 ;;
	--secs) secs=${2:-}; shift 2 ;;
	--no-figures) figures=0; shift ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_die "unknown argument $1 (see --help)" ;;
	esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || sw_die "--rounds: a positive integer"
[[ $secs =~ ^[1-9][0-9]*$ ]] || sw_die "--secs: whole seconds"
cd "$SW_TOP" || exit
[ -f module/companion/smartwake_pull.ko ] || sw_die "module/companion/smartwake_pull.ko missing (make)"
log=build/logs/pull-ab.log
scripts/guest-run.sh --icount --topo smp4 --timeout 1800 --log "$log" pull-ab.sh "$rounds" "$secs" ||
	sw_die "the guest failed (log: $log)"
table() {
	echo "## The sched-idle pull: A/B (scripts/pull-ab.sh)"
	echo
	echo "scripts/pull-ab.sh --rounds $rounds --secs $secs, commit $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'):"
	echo "stock kernel, smp4 guest under -icount shift=0,sleep=off (a ns is about one instruction;"
	echo "ops/s is work per operation with one counter for all vCPUs, not the gain of more CPUs at"
	echo "once). SCHED_IDLE hogs on CPUs 2-3, \`wakeload msg --pipes -g 2 -s 2 -r 2\` on all;"
	echo "sib_pull=0 and 1 alternate in one boot, the first side alternating by round. Latency:"
	echo "the load's wakeups, wakeup to running (knob latency). Both sides have the nr_running"
	echo "probe (sis_filter=1 under policy stock: no placement change), so the pull is compared,"
	echo "not the probe's own instructions."
	echo
	echo "| run | ops/s | p50 ns | p90 ns | p99 ns | sib_pulls | sib_pull_lost |"
	echo "|---|---|---|---|---|---|---|"
	sed -n 's/^PULL-AB | /| /p' "$log" | tr -d '\r'
	sed -n 's/^PULL-AB-MEDIAN | \(.*\)/| median \1/p' "$log" | tr -d '\r'
}
if [ $figures -eq 1 ]; then
	table | scripts/figures.sh pull-ab -
fi
table
