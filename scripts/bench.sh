#!/usr/bin/env bash
# make bench: the A/B lab. Boots one guest per topology (smp4: 4 CPUs in one
# LLC; numa2: 2 sockets x 4 CPUs, 2 NUMA nodes) and, in each, compares the
# settings stock, smartwake (mainline knobs), wake_wide=off, wake_wide=v2013
# and sis_filter=1 on hackbench, perf bench sched messaging and pipe, iperf3
# UDP on loopback, and wakeload msg and disp, with "smartwake ab" (runs of
# the settings alternate; figures and counter deltas per run). Then the 2012
# TTWU_QUEUE UDP_STREAM experiment: udpstream (64-byte datagrams, 1 s runs)
# with sender and receiver pinned in one LLC (udp-llc) and, on numa2, on two
# sockets (udp-xsock), receiver throughput under ttwu_queue=stock, =lock and
# the kernel's NO_TTWU_QUEUE, with the queued same-LLC/cross-LLC and
# not-queued counter deltas. Last, the overhead experiment
# (scripts/overhead.sh): the module's cost on the tightest wakeup loops,
# in instruction time.
#
# Usage: scripts/bench.sh [options]
#   --overhead         only the overhead experiment (scripts/overhead.sh)
#   --no-overhead      skip it
#   --icount           guests count instructions (-icount shift=0,sleep=off)
#                      so ratios can be read in instruction time
#   --runs N           runs per setting and workload (default 3)
#   --secs S           length of the timed loads (default 2)
#   --quick            --runs 2 --secs 1
#   --topo LIST        topologies, comma-separated (default smp4,numa2)
#   --workloads LIST   comma-separated subset of: hackbench,perf-msg,
#                      perf-pipe,iperf3-udp,wl-msg,wl-disp,udp-llc,
#                      udp-xsock (default all)
#   --out DIR          results directory (default results/<timestamp>)
#   --setting NAME:KNOBS  a further setting, e.g. 'ttwu-lock:policy=smartwake
#                      ttwu_queue=lock' (repeatable; knobs this module lacks
#                      make it reported as skipped)
#   --ko FILE          module to load (default: the stock build)
#   --no-install       do not install missing host packages
#   -h, --help         this text
# Writes DIR/results.csv (topology, workload, setting, run, figure, unit,
# better, secs, then every raw counter's delta over the run), DIR/skipped.csv
# (settings or workloads that could not run, and why), DIR/summary.txt
# (the table printed at the end), DIR/ratios.svg and .png (each setting's
# ratio to stock per workload, min..max as error bars) and the guest logs.
# Guests run under TCG emulation without a cache model: the ratios are
# indicative only, the counters are the reliable signal.
. "$(dirname "$0")/common.sh"

runs=3 secs=2 topos=smp4,numa2 out= install=1 overhead=1 icount=()
workloads=hackbench,perf-msg,perf-pipe,iperf3-udp,wl-msg,wl-disp,udp-llc,udp-xsock
ko=()
extra=()
usage() { sw_help "$0"; }
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--secs) secs=$2; shift 2 ;;
	--quick) runs=2 secs=1; shift ;;
	--topo) topos=$2; shift 2 ;;
	--workloads) workloads=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--ko) ko=(--ko "$2"); shift 2 ;;
	--setting)
		[[ $2 =~ ^[A-Za-z0-9_.-]+:. ]] || sw_die "--setting: expected NAME:KNOBS"
		extra+=(--setting "$2"); shift 2 ;;
	--no-install) install=0; shift ;;
	--overhead) exec "$SW_TOP/scripts/overhead.sh" ;;
	--no-overhead) overhead=0; shift ;;
	--icount) icount=(--icount); shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || sw_die "--runs: expected a positive integer"
[[ $secs =~ ^[1-9][0-9]*$ ]] || sw_die "--secs: expected whole seconds"
for w in ${workloads//,/ }; do
	case $w in hackbench|perf-msg|perf-pipe|iperf3-udp|wl-msg|wl-disp|udp-llc|udp-xsock) ;;
	*) sw_die "unknown workload $w" ;; esac
done
for t in ${topos//,/ }; do
	case $t in smp2|smp4|numa2|flat4) ;; *) sw_die "unknown topology $t" ;; esac
done

cd "$SW_TOP"
t_start=$(date +%s)

# ---- host packages: the workloads are copied into the guests ----------------
# command -> Debian package
need=("hackbench:rt-tests" "perf:linux-perf" "iperf3:iperf3" "gnuplot:gnuplot-nox")
missing=()
for e in "${need[@]}"; do
	command -v "${e%%:*}" >/dev/null 2>&1 || missing+=("${e#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ $install -eq 1 ]; then
		sw_log "installing host packages: ${missing[*]}"
		SUDO=
		[ "$(id -u)" -eq 0 ] || SUDO=sudo
		export DEBIAN_FRONTEND=noninteractive
		$SUDO apt-get update -qq || sw_log "apt-get update failed; trying with existing lists"
		$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
			sw_log "could not install ${missing[*]}: those workloads will be skipped"
	else
		sw_log "missing ${missing[*]}: those workloads will be skipped"
	fi
fi

# Debian's /usr/bin/perf may be a wrapper script that execs perf_<version>;
# the guest needs the real binary.
find_perf() {
	local p c
	p=$(command -v perf 2>/dev/null) || return 1
	if file -L "$p" | grep -q ELF; then
		echo "$p"
		return
	fi
	# newest version first
	for c in $(ls -v "$(dirname "$p")"/perf_* /usr/bin/perf_* /usr/lib/linux-tools*/perf \
		2>/dev/null | tac); do
		file -L "$c" | grep -q ELF && { echo "$c"; return; }
	done
	return 1
}
bins=()
perf=$(find_perf) && bins+=(--bin "$perf")
for b in hackbench iperf3; do
	p=$(command -v $b 2>/dev/null) && bins+=(--bin "$p")
done
[ -x tools/smartwake ] || make -s -C tools >/dev/null || sw_die "cannot build the tools"

# ---- guests -----------------------------------------------------------------
[ -n "$out" ] || out=results/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
csv=$out/results.csv
{
	echo "date $(date -Is)"
	echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "runs $runs secs $secs topologies $topos workloads $workloads"
	echo "host $(uname -r), $(nproc) CPUs; guests: QEMU TCG (thread=single)${icount:+, -icount shift=0,sleep=off (instruction time)}"
	echo "perf ${perf:-none}"
} >"$out/meta.txt"
nw=$(echo "${workloads//,/ }" | wc -w)
# generous: 40 s per run of a setting (iperf3 start-up), 5 settings
timeout=$((300 + runs * 5 * nw * 40))
rc_all=0
header_done=0
for topo in ${topos//,/ }; do
	log=$out/guest-$topo.log
	sw_log "== $topo: $runs runs per setting x $nw workloads (guest timeout ${timeout}s)"
	set +e
	scripts/guest-run.sh --topo "$topo" --timeout "$timeout" --log "$log" "${ko[@]}" "${icount[@]}" \
		"${bins[@]}" bench.sh "$runs" "$secs" "${extra[@]}" ${workloads//,/ } |
		grep -vE '^(SMARTWAKE-BENCH-CSV|[A-Za-z0-9_.-]+,[0-9]+,|side,run,)'
	rc=${PIPESTATUS[0]}
	set -e
	[ "$rc" -eq 0 ] || { sw_log "guest on $topo: exit $rc"; rc_all=1; }
	# Collect the CSV blocks: guest columns side,run,figure,unit,secs,counters...
	awk -v topo="$topo" -v hdr="$header_done" '
		/^SMARTWAKE-BENCH-WORKLOAD / {
			sub(/^SMARTWAKE-BENCH-WORKLOAD /, "")
			split($0, m, "|")
			better[m[1]] = m[3] == 1 ? "lower" : "higher"
		}
		/^SMARTWAKE-BENCH-CSV-BEGIN / { w = $2; inb = 1; next }
		/^SMARTWAKE-BENCH-CSV-END / { inb = 0; next }
		inb && /^side,run,/ {
			if (!hdr) {
				n = split($0, h, ",")
				printf "topology,workload,setting,run,figure,unit,better,secs"
				for (i = 6; i <= n; i++) printf ",%s", h[i]
				printf "\n"
				hdr = 1
			}
			next
		}
		inb && NF {
			n = split($0, f, ",")
			printf "%s,%s,%s,%s,%s,%s,%s,%s", topo, w, f[1], f[2], f[3], f[4], better[w], f[5]
			for (i = 6; i <= n; i++) printf ",%s", f[i]
			printf "\n"
		}' "$log" >>"$csv"
	[ -s "$csv" ] && header_done=1
	# What did not run: settings ab skipped, workloads without their program
	awk -v topo="$topo" '
		/^SMARTWAKE-BENCH-WORKLOAD / { sub(/^SMARTWAKE-BENCH-WORKLOAD /, ""); split($0, m, "|"); w = m[1] }
		/^side [^ ]+ skipped: / { r = $0; sub(/^side [^ ]+ skipped: /, "", r); gsub(/,/, ";", r)
			print topo "," w "," $2 "," r }
		/^SMARTWAKE-BENCH-SKIP / { r = $0; sub(/^SMARTWAKE-BENCH-SKIP [^ ]+ /, "", r)
			w = $2; sub(/:$/, "", w); print topo "," w ",*," r }' "$log" >>"$out/skipped.csv"
done

# ---- report -----------------------------------------------------------------
if [ ! -s "$csv" ]; then
	sw_log "no results (see $out/guest-*.log)"
	exit 1
fi
scripts/bench-plot.sh "$out" || rc_all=1
if [ $overhead -eq 1 ]; then
	scripts/overhead.sh --out "$out/overhead" || rc_all=1
fi
sw_log "results in $out ($(($(date +%s) - t_start)) s)"
exit $rc_all
