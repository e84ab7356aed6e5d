# Remote wakeup queueing (2012 TTWU_QUEUE thread): counters and the
# ttwu_queue knob, on a UDP stream over loopback with pinned ends.
# Usage: ttwu.sh [SECONDS_PER_RUN]
. ./lib.sh
secs=${1:-2}
FEAT=/sys/kernel/debug/sched/features
# ipmod FUNC: an IPMODIFY (redirecting) ftrace user is on FUNC
ipmod() { grep "^$1 " /sys/kernel/tracing/enabled_functions | grep -q " I "; }
# The counting hooks of ttwu_count=1: where the kernel has the csd_queue_cpu
# tracepoint (6.6+), its probe and a pre-handler on ttwu_queue_wakelist,
# else a kretprobe on it.
CSD=/sys/kernel/tracing/events/csd/csd_queue_cpu
krp() { grep -q ' r  ttwu_queue_wakelist+0x0' /sys/kernel/debug/kprobes/list; }
csd() {
	grep -q '^csd_queue_cpu tracepoint on ' $SW_DBG/hooks &&
		grep -q '^ttwu_queue_wakelist observe on ' $SW_DBG/hooks
}
counting() { krp || csd; }
check "insmod" sw_insmod
check "ttwu_queue defaults to stock" eq "$(knob ttwu_queue)" stock
check "ttwu_count defaults to 0, no counting hook" eval '[ "$(knob ttwu_count)" = 0 ] && ! counting'
set_knob ttwu_count 1
if [ -d $CSD ]; then
	check "ttwu_count=1 counts with csd_queue_cpu, no kretprobe" eval 'csd && ! krp'
else
	check "ttwu_count=1 counts with the kretprobe (no csd_queue_cpu)" eval 'krp && ! csd'
fi

# run NAME SEND_CPU RECV_CPU: one UDP stream, prints receiver throughput
run() {
	echo 1 >$SW_DBG/reset
	r=$(udpstream -t "$secs" -s 64 --send-cpu "$2" --recv-cpu "$3" 2>/dev/null |
		sed -n 's/.*recv_msgs_per_sec=\([0-9.]*\).*/\1/p')
	eval "rate_$1=\${r:-0}"
	# One snapshot, so the figures printed add up.
	cat $SW_DBG/stats >/tmp/snap
	for c in ttwu_wakelist_calls ttwu_queued_same_llc ttwu_queued_cross_llc \
		ttwu_not_queued ttwu_forced_lock; do
		eval "${c}_$1=$(awk -v n=$c '$1 == n { print $2 }' /tmp/snap)"
	done
	eval "printf '  %-16s recv %10s msg/s  calls %s same-llc %s cross-llc %s not-queued %s forced %s\\n' \
		$1 ${r:-0} \$ttwu_wakelist_calls_$1 \$ttwu_queued_same_llc_$1 \
		\$ttwu_queued_cross_llc_$1 \$ttwu_not_queued_$1 \$ttwu_forced_lock_$1"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "n/a" }'; }

# adds_up RUN: every counted call has one outcome; the snapshot is taken
# while other wakeups may run, so within 1 % and one call per CPU
adds_up() {
	eval "c=\$ttwu_wakelist_calls_$1 o=\$((ttwu_queued_same_llc_$1 + ttwu_queued_cross_llc_$1 + ttwu_not_queued_$1))"
	# shellcheck disable=SC2154
	awk -v c="$c" -v o="$o" -v n="$(nproc)" 'BEGIN { d = c - o; if (d < 0) d = -d; exit !(c > 0 && d <= c / 100 + n) }'
}
echo "== sender cpu0, receiver cpu1 (same LLC) =="
run llc_stock 0 1
check "ttwu_count=1 counts wakelist calls" gt "$ttwu_wakelist_calls_llc_stock" 0
check "ttwu_count=1: wakeups queued by IPI in the same LLC counted" gt "$ttwu_queued_same_llc_llc_stock" 0
check "ttwu_count=1: calls = queued + not queued" adds_up llc_stock
check "ttwu_count=1: the counting hooks are listed" counting
set_knob ttwu_count 0
check "ttwu_count=0: the counting hooks are gone" eval '! counting'
run llc_nocount 0 1
check "ttwu_count=0: the stream ran" gt "${rate_llc_nocount%.*}" 0
check "ttwu_count=0: no call counted" eq "$ttwu_wakelist_calls_llc_nocount" 0
set_knob ttwu_count 1
check "ttwu_count=1: the counting hooks are back" counting
run llc_recount 0 1
check "ttwu_count=1: calls counted again" gt "$ttwu_wakelist_calls_llc_recount" 0
check "ttwu_count=1 again: calls = queued + not queued" adds_up llc_recount
set_knob ttwu_queue lock
check "ttwu_queue=lock reads back" eq "$(knob ttwu_queue)" lock
check "the lock redirect is in enabled_functions" ipmod ttwu_queue_wakelist
run llc_lock 0 1
check "lock: nothing queued (same LLC)" eq "$ttwu_queued_same_llc_llc_lock" 0
check "lock: nothing queued (cross LLC)" eq "$ttwu_queued_cross_llc_llc_lock" 0
check "lock: the replacement answered" gt "$ttwu_forced_lock_llc_lock" 0
check "lock: every counted call not queued" adds_up llc_lock
set_knob ttwu_queue stock
check "stock again: the redirect is gone" eval "! ipmod ttwu_queue_wakelist"
if [ -w $FEAT ]; then
	echo NO_TTWU_QUEUE >$FEAT
	run llc_nofeat 0 1
	echo TTWU_QUEUE >$FEAT
	check "NO_TTWU_QUEUE: nothing queued" eq "$ttwu_queued_same_llc_llc_nofeat" 0
fi
echo "  ratio lock/stock $(ratio "$rate_llc_stock" "$rate_llc_lock")" \
	" NO_TTWU_QUEUE/stock $(ratio "$rate_llc_stock" "${rate_llc_nofeat:-0}")"

if [ "$(nproc)" -ge 8 ] && [ -e /sys/devices/system/node/node1 ]; then
	far=$(sed 's/-.*//; s/,.*//' /sys/devices/system/node/node1/cpulist)
	echo "== sender cpu0, receiver cpu$far (other socket, other LLC) =="
	run x_stock 0 "$far"
	check "stock across sockets: wakeups queued by IPI (cross LLC)" \
		gt "$ttwu_queued_cross_llc_x_stock" 0
	set_knob ttwu_queue lock
	run x_lock 0 "$far"
	set_knob ttwu_queue stock
	check "lock across sockets: nothing queued" \
		eq "$((ttwu_queued_cross_llc_x_lock + ttwu_queued_same_llc_x_lock))" 0
	echo "  ratio lock/stock across sockets $(ratio "$rate_x_stock" "$rate_x_lock")"
fi
check "rmmod" rmmod smartwake
check "no hook left" eval '! grep -q smartwake /sys/kernel/tracing/enabled_functions'
check "kernel log clean" dmesg_clean
summary
