#!/usr/bin/env bash
# make replay: each seed's claim beside what this lab measures. Boots
#   guest/replay.sh wake  on numa-smt (2 nodes x 2 cores x 2 threads)
#   guest/replay.sh ttwu  on smp4
# twice each, wall-clock and -icount shift=0,sleep=off (instruction time),
# and guest/numa.sh on numa2, then writes results/replay-TIMESTAMP/:
# report.md (a section per seed: the claim as written in the thread, the
# closest experiment, throughput and p50/p99 wakeup latency in both clocks,
# the counters that carry the argument, a verdict per claim), seed-*.svg
# plots, the guest logs, and summary.md, which also goes to
# Documentation/figures.md (section "replay").
#
# Usage: scripts/replay.sh [--runs N] [--secs S] [--out DIR] [--no-figures]
#   --runs N      runs per side of each comparison (default 3)
#   --secs S      length of one run (default 2)
#   --out DIR     results directory (default results/replay-<timestamp>)
#   --no-figures  do not write the summary into Documentation/figures.md
#   --report DIR  only (re)write the report of an earlier run's DIR (and,
#                 unless --no-figures, its summary into figures.md: the
#                 verdict rules applied again to the same logs)
# About 15 minutes on 2 host CPUs with the caches warm (make done).
. "$(dirname "$0")/common.sh"

runs=3 secs=2 out= figures=1 report=
usage() { sw_help "$0"; }
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=${2:-}; shift 2 ;;
	--secs) secs=${2:-}; shift 2 ;;
	--out) out=${2:-}; shift 2 ;;
	--no-figures) figures=0; shift ;;
	--report) report=${2:?--report wants a DIR}; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; sw_die "unknown argument $1" ;;
	esac
done
# figures DIR: its summary into Documentation/figures.md, section replay
figures() {
	local m
	m=$(cat "$1/meta.txt" 2>/dev/null)
	{
		echo "## make replay: the seeds' claims beside the lab"
		echo
		echo "scripts/replay.sh ($(sed -n 's/^runs \([0-9]*\) per side, \([0-9]*\) s each.*/\1 runs per side, \2 s each/p' <<<"$m");"
		echo "guests $(sed -n 's/^guests: //p' <<<"$m"); $(head -n 1 <<<"$m"))."
		echo "The full report with the figures in both clocks and the plots is written"
		echo "to results/replay-TIMESTAMP/report.md (not committed)."
		echo
		cat "$1/summary.md"
	} | scripts/figures.sh replay -
}
cd "$SW_TOP"
if [ -n "$report" ]; then
	python3 scripts/replay-report.py "$report" || sw_die "report failed"
	[ $figures -eq 0 ] || figures "$report"
	exit 0
fi
[[ $runs =~ ^[1-9][0-9]*$ ]] || sw_die "--runs: a positive integer"
[[ $secs =~ ^[1-9][0-9]*$ ]] || sw_die "--secs: whole seconds"
cd "$SW_TOP"
[ -n "$out" ] || out=results/replay-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
{
	echo "make replay, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "runs $runs per side, $secs s each; host $(nproc) CPUs; guests: QEMU TCG, the default kernel ($(. scripts/common.sh; sw_stock_env; echo "$SW_KREL"))"
} >"$out/meta.txt"

t0=$SECONDS
rc=0
# run NAME TOPO [--icount] SCRIPT ARGS...
run() {
	local name=$1 topo=$2
	shift 2
	sw_log "replay: $name"
	scripts/guest-run.sh --topo "$topo" --timeout 1200 --log "$out/$name.log" "$@" \
		>"$out/$name.out" 2>&1 || { rc=1; sw_log "replay: $name failed (log: $out/$name.log)"; }
	grep -aE '^[0-9]+ passed, [0-9]+ failed' "$out/$name.log" | tail -n 1 | sed "s/^/  $name: /" >&2 || true
}
run wake-wall numa-smt replay.sh wake "$runs" "$secs"
run wake-icount numa-smt --icount replay.sh wake "$runs" "$secs"
run ttwu-wall smp4 replay.sh ttwu "$runs" "$secs"
run ttwu-icount smp4 --icount replay.sh ttwu "$runs" "$secs"
run numa numa2 numa.sh
echo "guests: $((SECONDS - t0)) s" >>"$out/meta.txt"

python3 scripts/replay-report.py "$out" >/dev/null || sw_die "report failed"
sw_log "replay: report in $out/report.md ($((SECONDS - t0)) s)"
[ $figures -eq 1 ] && [ $rc -eq 0 ] && figures "$out"
cat "$out/summary.md"
exit $rc
