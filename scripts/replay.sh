#!/usr/bin/env bash
# make replay: each seed's claim beside what this lab measures. Runs the
# command a user runs on a Debian test box, smartwake-replay
# (tools/replay: wakeload's 1:N and M:N loads, the SIS filter, udpstream,
# and the seeds' own benchmarks: pgbench, hackbench, perf bench), inside
# the Debian 12 image (scripts/debian-run.sh) on numa-smt (2 nodes x 2
# cores x 2 threads), twice:
#   wall    the user's path: apt install of both packages (DKMS), modprobe
#   icount  -icount shift=0,sleep=off (instruction time): the CLI package
#           and the lab's build of the same tree, insmod
# then guest/numa.sh on numa2 in the busybox guest (the kernel's NUMA task
# moves, 2018's mechanism) and guest/pull-ab.sh on smp4 under instruction
# time (2022 patch 2/2, knob sib_pull: wakeup latency with the pull on
# and off), and writes results/replay-TIMESTAMP/: the
# guests' files (machine.txt, wake|ttwu|bench-CLOCK.log), report.md (a
# section per seed: the claim as written in the thread, the experiments,
# throughput and p50/p99 wakeup latency in both clocks, the counters that
# carry the argument, a verdict per claim), seed-*.svg plots, the console
# logs, and summary.md, which also goes to Documentation/figures.md
# (section "replay").
#
# Usage: scripts/replay.sh [--runs N] [--secs S] [--out DIR] [--no-figures]
#   --runs N      runs per side of each comparison (default 3)
#   --secs S      length of one run (default 2)
#   --out DIR     results directory (default results/replay-<timestamp>)
#   --no-figures  do not write the summary into Documentation/figures.md
#   --report DIR  only (re)write the report of an earlier run's DIR (and,
#                 unless --no-figures, its summary into figures.md: the
#                 verdict rules applied again to the same logs)
# About 60 minutes on 2 host CPUs with the caches warm (make done; the
# Debian image is built on first use).
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
	echo "runs $runs per side, $secs s each; host $(nproc) CPUs; guests: QEMU TCG, the Debian 12 image's kernel ($(scripts/debian-image.sh --print-dir 2>/dev/null | xargs -r -I{} cat {}/krel)) and, for numa.sh, the default kernel ($(. scripts/common.sh; sw_stock_env; echo "$SW_KREL"))"
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
# debian CLOCK MODE [debian-run.sh options]: smartwake-replay in the image;
# its files, printed between REPLAY-FILE NAME and REPLAY-FILE-END, into $out
debian() {
	local clock=$1 mode=$2
	shift 2
	sw_log "replay: smartwake-replay in the Debian image, $clock"
	scripts/debian-run.sh --topo numa-smt --mem 3072 --timeout 5400 --log "$out/debian-$clock.log" \
		"$@" debian-replay.sh "$mode" "$clock" "$runs" "$secs" >"$out/debian-$clock.out" 2>&1 ||
		{ rc=1; sw_log "replay: the $clock boot failed (log: $out/debian-$clock.log)"; }
	grep -aE '^[0-9]+ passed, [0-9]+ failed' "$out/debian-$clock.log" | tail -n 1 | sed "s/^/  $clock: /" >&2 || true
	awk -v d="$out" -v c="$clock" '
		/^REPLAY-FILE-END/ { if (f) close(f); f = ""; next }
		/^REPLAY-FILE / { n = $2; if (n == "machine.txt" && c != "wall") n = "machine-" c ".txt"
			if (n == "summary.md") n = "summary-" c ".md"; f = d "/" n; printf "" > f; next }
		f { print > f }' "$out/debian-$clock.log"
}
[ -f module/smartwake.ko ] || sw_die "module/smartwake.ko missing (make)"
debian wall deb
debian icount ko --icount --ko module/smartwake.ko
run numa numa2 numa.sh
# 2022 patch 2/2, the pull: its companion is the lab's build (not packaged)
run pull smp4 --icount pull-ab.sh "$runs" "$secs"
echo "guests: $((SECONDS - t0)) s" >>"$out/meta.txt"

python3 scripts/replay-report.py "$out" >/dev/null || sw_die "report failed"
sw_log "replay: report in $out/report.md ($((SECONDS - t0)) s)"
[ $figures -eq 1 ] && [ $rc -eq 0 ] && figures "$out"
cat "$out/summary.md"
exit $rc
