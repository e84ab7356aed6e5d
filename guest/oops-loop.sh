# The transition of the one unexplained guest oops (issue 59), looped:
# load the module, ttwu_count=1 (on 6.6+ the csd_queue_cpu tracepoint
# probe, then the ftrace pre-handler on ttwu_queue_wakelist: two text
# patches), a fork-heavy load, ttwu_count=0, unload. The oops came in
# the overhead experiment's fixed-order guest just after ttwu_count=1,
# while wakeload forked: a kernel-mode #DB with TF set in
# kmem_cache_alloc_noprof, then a NULL dereference in mas_wr_store_type
# during fork, both with EFLAGS bits 22-29 set (Documentation/testing.md,
# "The oops of the overhead experiment").
# Odd iterations start the forks before the knob write, so the patching
# runs while tasks fork; even ones write the knob first, as the overhead
# experiment did. Every iteration checks the hooks came and went, and
# the kernel log: the first iteration with a warning, bug or oops is
# named. Prints "OOPS-LOOP-ITER I" as each iteration starts (a guest that
# dies names its iteration) and "OOPS-LOOP iterations=N clean=K calls=C"
# for scripts/oops-loop.sh. MODE nomodule: the same forks, no module, no
# knob (the control: does the guest die without smartwake?).
# Usage: oops-loop.sh [ITERATIONS] [module|nomodule]
. ./lib.sh
n=${1:-100}
mode=${2:-module}
CSD=/sys/kernel/tracing/events/csd/csd_queue_cpu
# the counting hooks of ttwu_count=1, as ttwu.sh checks them
counting() {
	if [ -d $CSD ]; then
		grep -q '^csd_queue_cpu tracepoint on ' $SW_DBG/hooks &&
			grep -q '^ttwu_queue_wakelist observe on ' $SW_DBG/hooks &&
			grep -q '^ttwu_queue_wakelist ' /sys/kernel/tracing/enabled_functions
	else
		grep -q ' r  ttwu_queue_wakelist+0x0' /sys/kernel/debug/kprobes/list
	fi
}
# any_counting: any one of them left (the hooks file, enabled_functions
# or the kprobes list): ttwu_count=0 must remove each, not just one
any_counting() {
	grep -q '^csd_queue_cpu tracepoint on ' $SW_DBG/hooks ||
		grep -q '^ttwu_queue_wakelist observe on ' $SW_DBG/hooks ||
		grep -q '^ttwu_queue_wakelist ' /sys/kernel/tracing/enabled_functions ||
		grep -q ' r  ttwu_queue_wakelist+0x0' /sys/kernel/debug/kprobes/list
}
# forks: a short hackbench-like wakeload (it forks its 16 tasks) and 20
# fork+exec+exit of a shell (dup_mmap, then exec's new maple tree)
forks() {
	wakeload msg -g 2 -s 4 -r 4 -t 0.3 >/dev/null 2>&1
	_f=0
	while [ $_f -lt 20 ]; do
		sh -c :
		_f=$((_f + 1))
	done
}
dmesg -c >/dev/null
i=1 bad_load=0 bad_on=0 bad_off=0 bad_unload=0 bad_log=0 first_bad= calls=0
while [ "$i" -le "$n" ] && [ "$mode" = nomodule ]; do
	echo "OOPS-LOOP-ITER $i"
	forks
	if ! dmesg -c | dmesg_verdict; then
		bad_log=$((bad_log + 1))
		[ -n "$first_bad" ] || first_bad=$i
	fi
	i=$((i + 1))
done
while [ "$i" -le "$n" ]; do
	echo "OOPS-LOOP-ITER $i"
	sw_insmod || bad_load=$((bad_load + 1))
	if [ $((i % 2)) -eq 1 ]; then
		forks &
		fpid=$!
		set_knob ttwu_count 1 || bad_on=$((bad_on + 1))
		wait $fpid
	else
		set_knob ttwu_count 1 || bad_on=$((bad_on + 1))
		forks
	fi
	counting || bad_on=$((bad_on + 1))
	c=$(stat ttwu_wakelist_calls)
	gt "$c" 0 && calls=$((calls + c))
	set_knob ttwu_count 0 || bad_off=$((bad_off + 1))
	any_counting && bad_off=$((bad_off + 1))
	rmmod smartwake || bad_unload=$((bad_unload + 1))
	nothing_hooked || bad_unload=$((bad_unload + 1))
	# this iteration's log only (dmesg -c), so a report names it
	if ! dmesg -c | dmesg_verdict; then
		bad_log=$((bad_log + 1))
		[ -n "$first_bad" ] || first_bad=$i
	fi
	i=$((i + 1))
done
done_n=$((i - 1))
echo "OOPS-LOOP iterations=$done_n clean=$((done_n - bad_log)) calls=$calls cpus=$(nproc) mode=$mode${first_bad:+ first_bad=$first_bad}"
check "$done_n of $n iterations ran" eq "$done_n" "$n"
if [ "$mode" = nomodule ]; then
	check "kernel log clean after every iteration (first unclean: ${first_bad:-none})" eq "$bad_log" 0
	summary
	exit
fi
check "every load succeeded ($bad_load failed)" eq "$bad_load" 0
check "ttwu_count=1 installed its counting hooks every time ($bad_on misses)" eq "$bad_on" 0
check "ttwu_count=0 removed them every time ($bad_off misses)" eq "$bad_off" 0
check "every unload succeeded and left nothing hooked ($bad_unload misses)" eq "$bad_unload" 0
check "the counting hooks counted wakelist calls ($calls)" gt "$calls" 0
check "kernel log clean after every iteration (first unclean: ${first_bad:-none})" eq "$bad_log" 0
summary
