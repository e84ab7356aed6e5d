# The A/B lab's guest half (scripts/bench.sh boots it once per topology).
# For each workload, one "smartwake ab" over every setting: runs alternate
# between the settings (stock, smartwake, ... , stock, smartwake, ...), each
# run's figure and counter deltas go to a CSV that is printed between
# markers for the host to collect.
#
# udp-llc and udp-xsock are the 2012 TTWU_QUEUE UDP_STREAM experiment:
# udpstream with sender and receiver pinned in one LLC (cpus 0,1) or on two
# sockets (cpu 0 and node1's first CPU; skipped without a node1), 1 s runs
# whatever SECS is, figure recv_mbps (receiver side), and their own three
# settings: stock and lock (ttwu_queue=stock|lock) and no-ttwu-queue
# (feature:NO_TTWU_QUEUE, ttwu_queue=stock).
#
# Usage (guest): bench.sh RUNS SECS [--setting NAME:KNOBS]... WORKLOAD...
#   workloads: hackbench perf-msg perf-pipe iperf3-udp wl-msg wl-disp
#              udp-llc udp-xsock
#   --setting adds a setting after the standard ones (of every workload)
. ./lib.sh
runs=${1:-3}
secs=${2:-2}
shift 2 2>/dev/null
extra=
while [ "${1:-}" = --setting ]; do
	extra="$extra
${2%%:*}|${2#*:}"
	shift 2
done
[ $# -gt 0 ] || set -- hackbench perf-msg perf-pipe iperf3-udp wl-msg wl-disp udp-llc udp-xsock

sw_insmod || { not_ok "insmod"; dmesg | tail; summary; exit 1; }
smartwake status

# The settings: name|knobs. A setting naming a knob this module lacks is
# reported as skipped by "ab --skip-missing". Without a policy knob the
# module's kernel pass-through (enabled=0) is the stock placement.
stock="enabled=1 policy=stock"
[ -e $SW_DBG/policy ] || stock="enabled=0"
settings="stock|$stock
smartwake|enabled=1 policy=smartwake wake_wide=mainline sis_filter=0
wide-off|enabled=1 policy=smartwake wake_wide=off
wide-v2013|enabled=1 policy=smartwake wake_wide=v2013
sis-filter|enabled=1 policy=smartwake wake_wide=mainline sis_filter=1$extra"
# The UDP_STREAM experiment's settings (udp-* workloads)
udp_settings="stock|$stock ttwu_queue=stock
lock|$stock ttwu_queue=lock
no-ttwu-queue|$stock ttwu_queue=stock feature:NO_TTWU_QUEUE$extra"

perf=$(command -v perf || ls /bin/perf_* 2>/dev/null | tail -n 1)

# node1's first CPU, empty without a second node
far=$(sed 's/-.*//; s/,.*//' /sys/devices/system/node/node1/cpulist 2>/dev/null)

# workload NAME: sets cmd, metric, unit, lower (1 = lower is better), need,
# sets (the settings compared) and nogo (why it cannot run here)
workload() {
	lower=0 metric= unit= need= nogo= sets=$settings
	case $1 in
	hackbench)
		need=hackbench
		cmd="hackbench -g 2 -f 5 -l 200"
		metric=Time unit=s lower=1 ;;
	perf-msg)
		need=$perf
		cmd="$perf bench sched messaging -g 1 -l 10"
		metric='Total time: *([0-9.]+)' unit=s lower=1 ;;
	perf-pipe)
		need=$perf
		cmd="$perf bench sched pipe -l 3000"
		metric='([0-9]+) ops/sec' unit=ops/s ;;
	iperf3-udp)
		need=iperf3
		cmd="iperf3 -c 127.0.0.1 -u -b 0 -t $secs -f m"
		metric='([0-9.]+) Mbits/sec.*receiver' unit=Mbit/s ;;
	wl-msg)
		need=wakeload
		cmd="wakeload msg -g 1 -s 4 -r 4 -t $secs"
		metric=ops_per_sec unit=ops/s ;;
	wl-disp)
		need=wakeload
		cmd="wakeload disp -d 1 -w 6 -t $secs"
		metric=ops_per_sec unit=ops/s ;;
	udp-llc|udp-xsock)
		need=udpstream sets=$udp_settings
		recv=1
		if [ "$1" = udp-xsock ]; then
			recv=$far
			[ -n "$far" ] && [ "$far" != 0 ] || nogo="no second socket (node1) here"
		fi
		cmd="udpstream -t 1 -s 64 --send-cpu 0 --recv-cpu $recv"
		metric=recv_mbps unit=Mbit/s ;;
	*) return 1 ;;
	esac
}

iperf_pid=
for w in "$@"; do
	if ! workload "$w"; then
		not_ok "unknown workload $w"
		continue
	fi
	if [ -z "$need" ] || ! command -v "$need" >/dev/null; then
		echo "SMARTWAKE-BENCH-SKIP $w: ${need:-perf} not in the guest"
		ok "$w skipped (no ${need:-perf})"
		continue
	fi
	if [ -n "$nogo" ]; then
		echo "SMARTWAKE-BENCH-SKIP $w: $nogo"
		ok "$w skipped ($nogo)"
		continue
	fi
	if [ "$w" = iperf3-udp ] && [ -z "$iperf_pid" ]; then
		iperf3 -s -D -I /tmp/iperf3.pid >/dev/null
		sleep 1
		iperf_pid=$(cat /tmp/iperf3.pid 2>/dev/null)
	fi
	set --
	# shellcheck disable=SC2034
	while IFS='|' read -r name kv; do
		[ -n "$name" ] && set -- "$@" --side "$name:$kv"
	done <<EOF
$sets
EOF
	[ "$lower" = 1 ] && set -- "$@" --lower-is-better
	echo
	echo "SMARTWAKE-BENCH-WORKLOAD $w|$unit|$lower|$cmd"
	rm -f /tmp/bench.csv
	# shellcheck disable=SC2086
	smartwake ab "$@" --skip-missing --runs "$runs" --metric "$metric" --unit "$unit" \
		--timeout 300 --csv /tmp/bench.csv -- $cmd
	rc=$?
	check "ab $w (exit $rc)" eq "$rc" 0
	echo "SMARTWAKE-BENCH-CSV-BEGIN $w"
	cat /tmp/bench.csv 2>/dev/null
	echo "SMARTWAKE-BENCH-CSV-END $w"
done
[ -n "$iperf_pid" ] && kill "$iperf_pid" 2>/dev/null

rmmod smartwake
check "rmmod" eval '[ ! -e $SW_DBG ]'
check "kernel log clean" dmesg_clean
summary
