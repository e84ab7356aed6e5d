#!/bin/sh
# What the running kernel offers the module, measured in the guest: for
# each function smartwake hooks or re-implements, whether kallsyms has it
# (out of line) and whether ftrace can attach (available_filter_functions);
# the ENDBR64 at the one pointer-call target (debugfs "calls"); every hook
# installed with the knobs that need it; sched_ext's state. Prints
# KFACT lines between KFACTS-BEGIN and KFACTS-END for make check's
# kfacts-* steps (Documentation/figures.md). Checks: the hook points the
# module uses are traceable, the functions it re-implements are inlined
# (else its premise is gone), every hook goes on and off.
. ./lib.sh
AFF=/sys/kernel/tracing/available_filter_functions
# sym NAME...: the first of the names in kallsyms, with its type
sym() {
	for _n in "$@"; do
		_t=$(awk -v n="$_n" '$3 == n && !$4 { print $2; exit }' /proc/kallsyms)
		[ -n "$_t" ] && { echo "$_n $_t"; return 0; }
	done
	echo "$1 -"
}
traceable() { grep -q "^$1\$" $AFF || grep -q "^$1 " $AFF; }
# fact ROLE NAME...: one KFACT line: role, name found, kallsyms type,
# traceable; returns 0 when found and traceable
fact() {
	_role=$1
	shift
	# shellcheck disable=SC2046 # sym prints three words
	set -- $(sym "$@")
	_tr=no
	[ "$2" != - ] && traceable "$1" && _tr=yes
	echo "KFACT $_role|$1|$2|$_tr"
	[ $_tr = yes ]
}

echo KFACTS-BEGIN
echo "KFACT release|$(uname -r)||"
for f in select_task_rq_fair ttwu_queue_wakelist task_numa_fault; do
	check "$f: out of line and traceable" fact hook $f
done
check "task_numa_migrate: out of line and traceable" fact hook task_numa_migrate.isra.0 task_numa_migrate
check "sched_tick: out of line and traceable" fact hook sched_tick scheduler_tick
check "sched_balance_domains: out of line and traceable" fact hook sched_balance_domains rebalance_domains
# 7.x inlines it into pick_task_fair: sib_count counts without it
fact hook sched_balance_newidle newidle_balance || echo "  (sched_balance_newidle inlined: sib_newidle_* stay 0)"
for f in record_wakee wake_wide wake_affine wake_affine_idle wake_affine_weight \
	select_idle_sibling select_idle_cpu numa_migrate_preferred task_numa_placement \
	ttwu_queue_cond; do
	check "$f: inlined (the module carries its own copy)" eval "! fact copy $f >/tmp/f; cat /tmp/f; grep -q '|-|' /tmp/f"
done
# not re-implemented, but traceable or not: what a port would hook next
for f in select_idle_core select_idle_smt pick_task_fair try_to_wake_up; do
	fact other $f || true
done

check "insmod" sw_insmod
set_knob policy smartwake
set_knob enabled 1
set_knob ttwu_queue lock
set_knob sis_filter 1
set_knob sis_mask_update tick
set_knob ttwu_count 1
set_knob numa_retry as-merged
set_knob sib_count 1
set_knob latency 1
awk '$1 == "select_task_rq_fair" { print "KFACT endbr|" $1 "|" $3 " " $4 " " $5 " " $6 "|" $NF }' \
	$SW_DBG/calls 2>/dev/null
cat $SW_DBG/calls | sed 's/^/  calls: /'
# (a kernel built without IBT seals nothing: the module says no-ibt-kernel)
check "select_task_rq_fair begins with ENDBR64 (f3 0f 1e fa), or the kernel has no IBT" \
	grep -Eq '^select_task_rq_fair .*(f3 0f 1e fa endbr64|no-ibt-kernel)$' $SW_DBG/calls
while read -r name how state _; do
	echo "KFACT hooked|$name|$how|$state"
done <$SW_DBG/hooks
# (sib_pull's hooks need its companion, not loaded here: off)
check "every ftrace hook on whose function exists" eval \
	"! awk '\$3 != \"on\" && !/needs:sib_pull=1/ { print \$1 }' $SW_DBG/hooks | grep -vx sched_balance_newidle | grep -q ."
check "rmmod" rmmod smartwake
check "nothing hooked after rmmod" nothing_hooked
if [ -r /sys/kernel/sched_ext/state ]; then
	echo "KFACT sched_ext|state $(cat /sys/kernel/sched_ext/state)||"
else
	echo "KFACT sched_ext|not built in||"
fi
echo KFACTS-END
check "kernel log has no WARNING/BUG/Oops/Call Trace" dmesg_clean
summary
