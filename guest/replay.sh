#!/bin/sh
# make replay's guest part: the seeds' experiments as "smartwake ab"
# comparisons, each printed whole between REPLAY-BEGIN ID and REPLAY-END
# (the ab table, per-side p50/p99 wakeup latency and locality) and its
# per-run CSV between REPLAY-CSV ID and REPLAY-CSV-END; scripts/replay.sh
# turns them into the report. Sides alternate inside one boot, so
# time-varying noise falls on both.
# Usage: replay.sh wake|ttwu [RUNS] [SECS]
#   wake  2013/2015 wake_wide on 1:N and M:N loads, 2022 SIS filter with
#         and without SIS_UTIL (a topology with SMT and 2 nodes: numa-smt)
#   ttwu  2012 remote-wakeup queueing on a pinned UDP stream (smp4)
. ./lib.sh
what=${1:-wake}
RUNS=${2:-3}
SECS=${3:-2}
SW=/bin/smartwake
NCPU=$(nproc)

# ab ID METRIC AB-ARGS... -- COMMAND...: one comparison
ab() {
	_id=$1 _m=$2
	shift 2
	echo "REPLAY-BEGIN $_id"
	$SW ab --runs "$RUNS" --metric "$_m" --csv /tmp/$_id.csv --timeout 120 "$@" 2>&1
	_rc=$?
	echo "REPLAY-END $_id rc=$_rc"
	echo "REPLAY-CSV $_id"
	cat /tmp/$_id.csv 2>/dev/null
	echo "REPLAY-CSV-END $_id"
	check "$_id: smartwake ab exit 0" eq "$_rc" 0
}

check "insmod" sw_insmod
check "latency=1 (p50/p99 per side)" set_knob latency 1
echo "REPLAY-TOPO cpus=$NCPU nodes=$(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l)" \
	"smt=$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)"

case $what in
wake)
	# 2013 and 2015: wake_wide off (every wakeup may pull affine), the
	# 2013 waker-only test, the 2015 symmetric one, on the 1:N load and
	# on hackbench-like M:N messaging
	W=$NCPU
	ab s2013-disp ops_per_sec --a 'policy=smartwake wake_wide=off' \
		--b 'policy=smartwake wake_wide=v2013' --side 'mainline:policy=smartwake wake_wide=mainline' \
		-- wakeload disp -d 1 -w "$W" -t "$SECS"
	ab s2013-msg ops_per_sec --a 'policy=smartwake wake_wide=off' \
		--b 'policy=smartwake wake_wide=v2013' --side 'mainline:policy=smartwake wake_wide=mainline' \
		-- wakeload msg -g 2 -s 4 -r 4 -t "$SECS"
	# 2022: the SIS filter on a loaded machine (busy hogs on half the
	# CPUs make overloaded CPUs), without SIS_UTIL as in the series and
	# with it as today
	ab s2022-noutil ops_per_sec --a 'policy=smartwake sis_filter=0 feature:NO_SIS_UTIL' \
		--b 'policy=smartwake sis_filter=1 feature:NO_SIS_UTIL' \
		-- wakeload msg -g 2 -s 2 -r 2 --hog $((NCPU / 2)) -t "$SECS"
	ab s2022-util ops_per_sec --a 'policy=smartwake sis_filter=0 feature:SIS_UTIL' \
		--b 'policy=smartwake sis_filter=1 feature:SIS_UTIL' \
		-- wakeload msg -g 2 -s 2 -r 2 --hog $((NCPU / 2)) -t "$SECS"
	;;
ttwu)
	# 2012: 64-byte UDP over loopback, ends pinned to CPUs 0 and 1 (one
	# LLC, not SMT siblings, as in the report): the kernel's queueing
	# (stock), the lock path always (lock), and NO_TTWU_QUEUE
	check "ttwu_count=1" set_knob ttwu_count 1
	ab s2012-udp recv_msgs_per_sec --a 'ttwu_queue=stock' --b 'ttwu_queue=lock' \
		--side 'noqueue:feature:NO_TTWU_QUEUE' \
		-- udpstream -t "$SECS" -s 64 --send-cpu 1 --recv-cpu 0
	;;
*)
	not_ok "unknown experiment set $what"
	;;
esac

check "rmmod" rmmod smartwake
check "kernel log has no WARNING/BUG/Oops/Call Trace" dmesg_clean
summary
