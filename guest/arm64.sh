#!/bin/sh
# The module on an arm64 kernel (scripts/guest-run.sh --kernel-release
# <arm64 release>: qemu-system-aarch64 virt, -cpu max): it loads (its BTF
# layout check and kallsyms lookups pass), hooks select_task_rq_fair by
# a direct call to the module's arm64 trampoline (select_hook=direct, the
# default; e2e.sh runs the ftrace-ops redirect too), agrees with the kernel under
# policy=shadow at mainline knobs, places wakeups under policy=smartwake
# (a stack trace from its path names the trampoline and the real caller),
# and unloads leaving nothing hooked and a clean kernel log.
#
# Usage: scripts/guest-run.sh --kernel-release R --topo smp2 arm64.sh
. ./lib.sh

check "the guest is arm64 ($(uname -m))" eq "$(uname -m)" aarch64
echo Y >/sys/kernel/debug/sched/verbose 2>/dev/null
echo "# CPU 0's scheduler domains: $(cat /sys/kernel/debug/sched/domains/cpu0/domain*/name 2>/dev/null | tr '\n' ' ')"
check "insmod" sw_insmod
[ -d $SW_DBG ] || { not_ok "no $SW_DBG: the module did not load"; summary; exit 1; }
check "its BTF layout check passed" eval 'dmesg | grep -q "smartwake: layout of [0-9]* fields matches"'

# the pointer call's target: select_task_rq_fair's start (ibt.c); no
# landing pad is needed: Debian's arm64 kernels (gcc) have no
# ARM64_BTI_KERNEL
check "calls: select_task_rq_fair at its start, no-ibt-kernel" \
	eval 'grep -q "^select_task_rq_fair 0x[0-9a-f]* .* no-ibt-kernel$" $SW_DBG/calls'
check "select_hook defaults to direct" eq "$(knob select_hook)" direct
# its trampoline begins with its landing pad (ibt.c; insmod is refused
# without it): ftrace_caller enters a far one by "br x17"
check "calls: sw_select_tramp begins with bti c" \
	eval 'grep -q "^sw_select_tramp 0x[0-9a-f]* 5f 24 03 d5 bti-c$" $SW_DBG/calls'

check "policy=shadow accepted" set_knob policy shadow
check "enabled=1 accepted" set_knob enabled 1
check "select_task_rq_fair hooked (enabled_functions)" hooked select_task_rq_fair
check "... by a direct call to sw_select_tramp" \
	eval 'grep -A1 "^select_task_rq_fair " /sys/kernel/tracing/enabled_functions | grep -q "direct-->sw_select_tramp"'
# the load of shadow.sh's first mainline case, twice
wakeload pipe -p 2 -t 2 >/dev/null 2>&1
wakeload disp -d 1 -w 4 -t 2 >/dev/null 2>&1
snap
cmp=$(sv shadow_compared) dis=$(sv shadow_disagree)
echo "# shadow: $cmp compared, $(sv shadow_agree) agreed, $dis disagreed, $(sv shadow_raced) raced"
check "shadow compared enough wakeups ($cmp >= 200)" gt "$cmp" 199
check "shadow: 0 disagreements at mainline knobs" eq "$dis" 0

check "policy=smartwake accepted" set_knob policy smartwake
snap
w0=$(sv wakeups)
wakeload pipe -p 2 -t 2 >/dev/null 2>&1
snap
w1=$(sv wakeups)
echo "# policy=smartwake: $((w1 - w0)) wakeups placed by the module"
check "policy=smartwake placed wakeups (>= 200)" gt $((w1 - w0)) 199
check "no invariant violations" eq "$(sv invariant_violations)" 0

# the unwinder through the trampoline (its frame record names the real
# caller): a stack trace taken in the path, by the stacktrace trigger of
# the module's smartwake_wakeup event, goes sw_select_decide,
# sw_select_tramp, try_to_wake_up
T=/sys/kernel/tracing E=/sys/kernel/tracing/events/smartwake/smartwake_wakeup
set_knob trace_sample 1
check "stacktrace trigger on smartwake_wakeup" eval 'echo stacktrace >$E/trigger && echo 1 >$E/enable'
wakeload pipe -p 2 -t 1 >/dev/null 2>&1
echo 0 >$E/enable
echo '!stacktrace' >$E/trigger
echo "# $(grep -m1 -A2 "=> sw_select_decide" $T/trace | tr -d '\n')"
check "a stack trace from the path: sw_select_decide, sw_select_tramp, try_to_wake_up" eval \
	'grep -A2 "=> sw_select_decide" $T/trace | tr -d " \n" |
		grep -q "=>sw_select_decide=>sw_select_tramp=>try_to_wake_up"'
echo >$T/trace

check "enabled=0 accepted" set_knob enabled 0
check "rmmod" rmmod smartwake
check "nothing hooked after unload" nothing_hooked
check "kernel log clean" dmesg_clean
summary
