#!/usr/bin/env bash
# make image-bench: guest/debian-bench.sh on the Debian 12 system image
# (scripts/debian-run.sh) with the lab's build of the module for its
# kernel: the perf and bpftrace oracles against the module's counters
# (checks), then pgbench, hackbench, perf bench sched messaging and pipe
# and sysbench threads, each an A/B by smartwake ab in one boot. A passing
# run writes the oracles' figures and the A/B tables to
# Documentation/figures.md, section image-bench. Under TCG wall time is
# noise (about 20 %): the ratios are indicative only.
#
# Usage: scripts/image-bench.sh [RUNS]
#   RUNS  runs per side of each A/B (default 3)
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
runs=${1:-3}
SW_KERNEL= sw_stock_env
[ -f "$SW_TOP/module/smartwake.ko" ] || sw_die "module/smartwake.ko missing (make)"
log=$SW_TOP/build/logs/debian-bench-bookworm.log
rc=0
t0=$SECONDS
"$SW_TOP/scripts/debian-run.sh" --no-deb --ko "$SW_TOP/module/smartwake.ko" --timeout 2400 \
	--log "$log" debian-bench.sh "$runs" || rc=$?
[ $rc -eq 0 ] || exit $rc
{
	echo "## make image-bench: real benchmarks and oracles on the Debian 12 image"
	echo
	echo "scripts/image-bench.sh: guest/debian-bench.sh, $(sed -n 's/^SMARTWAKE-GUEST-START \([^ ]*\) cpus=\([0-9]*\).*/kernel \1, \2 vCPUs under TCG/p' "$log" | head -n 1),"
	echo "$((SECONDS - t0)) s. Oracles (the module's figure on the same run):"
	echo
	echo "| oracle | its figure | module counter | module |"
	echo "|---|---|---|---|"
	sed -n 's/^BENCH-FIG //p' "$log"
	echo
	echo "A/B by smartwake ab, $runs runs per side, policy=smartwake, A wake_wide=off, B"
	echo "wake_wide=mainline; wall time under TCG (about 20 % noise: indicative only)."
	echo
	echo '```'
	awk '/^SMARTWAKE-BENCH-BEGIN/ { print "== " $2; on = 1; next }
		/^SMARTWAKE-BENCH-END/ { on = 0; next }
		on && (/^side / || /^[AB] / || /^ratio /)' "$log"
	echo '```'
} | "$SW_TOP/scripts/figures.sh" image-bench -
