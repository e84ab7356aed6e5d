# Guest side of scripts/insnprof.sh (the instruction profile).
# busybox sh. Usage:
#   insnprof.sh syms
#       print the kernel's text symbols (SWSYM lines): with nokaslr they
#       are the same in every boot of this kernel
#   insnprof.sh run SETTING LOAD SECONDS [SIZE]
#       load the module, apply SETTING (stock, smartwake, shadow,
#       latency or ttwu_count: that knob 1, or none: no module;
#       smartwake_ftrace: select_hook=ftrace; trace: smartwake with its
#       event on, every decided wakeup; trace64: the same, trace_sample=64;
#       sched_wakeup_trace: the kernel's own sched_wakeup event on, module
#       at its defaults; latency64: latency=1, latency_sample=64),
#       call
#       sync(2) (the plugin's mark: snapshot 1),
#       run wakeload LOAD (SIZE pipe pairs or message groups, default
#       1) for SECONDS, sync again (snapshot 2), then print
#       the module's symbols (SWSYM) and its counters (SWSTAT)
. ./lib.sh
case $1 in
syms)
	awk '$2 ~ /^[tT]$/ { print "SWSYM", $1, $3; n++ } END { print "SWSYM-END", n }' /proc/kallsyms
	check "kernel symbols printed" [ "$(awk '$2 ~ /^[tT]$/' /proc/kallsyms | wc -l)" -gt 1000 ]
	;;
run)
	setting=$2 load=$3 secs=$4 size=${5:-1}
	if [ "$setting" != none ]; then
		check "insmod" sw_insmod
		case $setting in
		stock) ;;
		latency|ttwu_count) check "$setting=1" set_knob "$setting" 1 ;;
		latency64) check "latency_sample=64" set_knob latency_sample 64
			check "latency=1" set_knob latency 1 ;;
		smartwake_ftrace) check "select_hook=ftrace" set_knob select_hook ftrace
			check "policy=smartwake" set_knob policy smartwake ;;
		trace|trace64) [ "$setting" = trace ] ||
				check "trace_sample=64" set_knob trace_sample 64
			check "policy=smartwake" set_knob policy smartwake
			check "smartwake_wakeup on" sh -c 'echo 1 >/sys/kernel/tracing/events/smartwake/smartwake_wakeup/enable' ;;
		sched_wakeup_trace) check "sched_wakeup on" sh -c 'echo 1 >/sys/kernel/tracing/events/sched/sched_wakeup/enable' ;;
		*) check "policy=$setting" set_knob policy "$setting" ;;
		esac
	fi
	[ "$setting" = none ] || echo 1 >$SW_DBG/reset
	sync
	case $load in
	pipe) wakeload pipe -p "$size" -t "$secs" ;;
	msg) wakeload msg --pipes -g "$size" -s 2 -r 2 -t "$secs" ;;
	*) echo "unknown load $load" ;;
	esac >/dev/null 2>&1
	sync
	if [ "$setting" != none ]; then
		awk '$4 == "[smartwake]" && $2 ~ /^[tT]$/ { print "SWSYM", $1, $3 }' /proc/kallsyms
		awk '{ print "SWSTAT", $1, $2 }' $SW_DBG/stats
		rmmod smartwake
	fi
	check "kernel log clean" dmesg_clean
	;;
*)
	not_ok "usage: insnprof.sh syms | run SETTING LOAD SECONDS"
	;;
esac
summary
