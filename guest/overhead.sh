# The cost of the module on the tightest wakeup loops, interleaved in one
# boot: no module, loaded at the default knobs, each observer on alone
# (the wakeup-latency probes, latency=1, among them), the module's path at
# mainline knobs (and shadow mode when the module has it), and the
# kernel's own sched_waking + sched_wakeup trace events with the module at
# its defaults (sched_trace: the reference for the module's trace-events
# row). trace and trace64: policy=smartwake with its smartwake_wakeup
# event on, every decided wakeup or 1 in 64 (trace_sample=64); latency64:
# latency=1 timing 1 wakeup in 64 (latency_sample=64).
# Prints one "SMARTWAKE-OVH,setting,load,round,ops_per_sec" line per
# run; the host (scripts/overhead.sh) takes medians and ratios.
# ORDER: rotate (default): each round starts one setting later; fixed:
# every round runs the settings in the listed order. SETTINGS: only these
# (and none, the reference), in the listed order.
# Usage: overhead.sh [ROUNDS] [SECONDS] [testing|""] [LOADS] [rotate|fixed]
#                    [SETTINGS]
. ./lib.sh
rounds=${1:-6}
secs=${2:-1}
TR=/sys/kernel/tracing
settings="none defaults ttwu_count sis_filter sis_filter_tick latency latency64 smartwake smartwake_ftrace trace trace64 sched_trace sched_wakeup_trace shadow"
# With the testing build as the module (overhead.sh --testing), also the
# select hook's trampoline and callback alone, never redirecting.
# And latency=1's probes returning at once (the floor of attaching them).
[ "${3:-}" = testing ] && settings="$settings no_redirect no_redirect_ftrace latency_empty"
loads=${4:-pipe msg}
rotate=${5:-rotate}
[ -z "${6:-}" ] || settings="none $6"
case $rotate in rotate|fixed) ;; *) not_ok "ORDER is rotate or fixed, not $rotate"; summary; exit 1 ;; esac

runload() {
	case $1 in
	pipe) wakeload pipe -p 1 -t "$secs" ;;
	msg) wakeload msg --pipes -g 1 -s 2 -r 2 -t "$secs" ;;
	esac 2>&1 | sed -n 's/.*ops_per_sec=\([0-9.]*\).*/\1/p' | tail -n 1
}
# apply SETTING: from "loaded at defaults"; 1 if the module lacks it
apply() {
	case $1 in
	defaults) ;;
	ttwu_count) set_knob ttwu_count 1 ;;
	sis_filter) set_knob sis_filter 1 ;;
	sis_filter_tick) set_knob sis_mask_update tick && set_knob sis_filter 1 ;;
	latency) set_knob latency 1 ;;
	latency64) set_knob latency_sample 64 && set_knob latency 1 ;;
	smartwake) set_knob policy smartwake ;;
	smartwake_ftrace) set_knob select_hook ftrace && set_knob policy smartwake ;;
	# the module's one event per decided wakeup, all of them or 1 in 64
	trace) set_knob policy smartwake &&
		echo 1 >$TR/events/smartwake/smartwake_wakeup/enable ;;
	trace64) set_knob trace_sample 64 && set_knob policy smartwake &&
		echo 1 >$TR/events/smartwake/smartwake_wakeup/enable ;;
	# the kernel's own two events per wakeup, nothing of the module hooked
	sched_trace) [ -e $TR/events/sched/sched_waking/enable ] &&
		[ -e $TR/events/sched/sched_wakeup/enable ] &&
		echo 1 >$TR/events/sched/sched_waking/enable &&
		echo 1 >$TR/events/sched/sched_wakeup/enable ;;
	# one event per wakeup: what a single ring-buffer event costs
	sched_wakeup_trace) [ -e $TR/events/sched/sched_wakeup/enable ] &&
		echo 1 >$TR/events/sched/sched_wakeup/enable ;;
	shadow) set_knob policy shadow ;;
	latency_empty) rmmod smartwake && sw_insmod test_latency_empty=1 &&
		set_knob latency 1 ;;
	no_redirect) rmmod smartwake && sw_insmod test_no_redirect=1 &&
		set_knob policy smartwake ;;
	no_redirect_ftrace) rmmod smartwake && sw_insmod test_no_redirect=1 &&
		set_knob select_hook ftrace && set_knob policy smartwake ;;
	esac
}
undo() {
	if [ "$1" = no_redirect ] || [ "$1" = no_redirect_ftrace ] ||
		[ "$1" = latency_empty ]; then
		set_knob latency 0 2>/dev/null
		rmmod smartwake
		sw_insmod
		return
	fi
	[ -e $TR/events/smartwake/enable ] && echo 0 >$TR/events/smartwake/enable
	[ -e $TR/events/sched/sched_waking/enable ] && echo 0 >$TR/events/sched/sched_waking/enable
	[ -e $TR/events/sched/sched_wakeup/enable ] && echo 0 >$TR/events/sched/sched_wakeup/enable
	set_knob policy stock
	set_knob select_hook direct 2>/dev/null
	set_knob sis_filter 0
	set_knob sis_mask_update enqueue
	set_knob ttwu_count 0
	set_knob latency 0 2>/dev/null
	set_knob trace_sample 1
	set_knob latency_sample 1
}

check "insmod" sw_insmod
check "nothing hooked at the default knobs" nothing_hooked
rmmod smartwake
r=1
bad=0
while [ $r -le "$rounds" ]; do
	# rotate the order each round: no setting always runs first or after
	# the same neighbour (a position in the round biases by ~1-2 %);
	# fixed: the listed order every round (does the result depend on the
	# rotation?)
	order=$settings
	[ "$rotate" = fixed ] ||
		order=$(echo $settings | awk -v r="$r" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }')
	for s in $order; do
		if [ $s = none ]; then
			grep -q '^smartwake ' /proc/modules && rmmod smartwake
		else
			grep -q '^smartwake ' /proc/modules || sw_insmod || bad=$((bad + 1))
			apply $s || { echo "SMARTWAKE-OVH-SKIP,$s"; undo; continue; }
		fi
		[ $s = none ] || echo 1 >$SW_DBG/reset
		for l in $loads; do
			v=$(runload $l)
			[ -n "$v" ] || bad=$((bad + 1))
			echo "SMARTWAKE-OVH,$s,$l,$r,${v:-0}"
		done
		# the module's path, timed 1 call in 64 (under icount: ns ~ instructions)
		case $s in smartwake|smartwake_ftrace|shadow)
			echo "SMARTWAKE-OVH-SELF,$s,$r,$(stat self_ns_per_call)" ;;
		esac
		# shadow: the module's evaluation and the kernel's function on
		# the same sampled wakeups: means, the ratio of the medians, and
		# the medians it is made of
		[ $s != shadow ] ||
			echo "SMARTWAKE-OVH-COST,$r,$(stat module_ns_per_call),$(stat kernel_ns_per_call),$(stat module_kernel_ratio),$(stat module_ns_p50),$(stat kernel_ns_p50)"
		[ $s = none ] || undo $s
	done
	r=$((r + 1))
done
check "every run produced a figure" eq "$bad" 0
grep -q '^smartwake ' /proc/modules && rmmod smartwake
check "kernel log clean" dmesg_clean
summary
