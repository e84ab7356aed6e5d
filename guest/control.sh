# Never silently lose control (issue 28): every redirect hook is
# FTRACE_OPS_FL_PERMANENT, so sysctl kernel.ftrace_enabled=0 is refused
# while one is installed and the module keeps deciding; while ftrace is
# already disabled a knob write needing a redirect is refused, naming the
# sysctl, with nothing installed. The reached share (fair_wakeups from a
# sched_waking probe, fair_wakeups_reached by the select hook) is near
# 100 % under policy=smartwake and shadow, near 0 when the hook is bypassed
# on purpose (testing build, test_no_permanent=1, then ftrace_enabled=0),
# and smartwake ab refuses to report such a side. busybox sh, smp4.
. ./lib.sh
need_testing_build
FE=/proc/sys/kernel/ftrace_enabled
# margins, from the shares measured (see testing.md): >= 1000 fair wakeups
MIN_WAKEUPS=1000
NEAR_ALL=99	# reached_pct at least this under policy=smartwake/shadow
NEAR_NONE=5	# reached_pct at most this with the hook bypassed

# ftrace_off_refused: echo 0 > ftrace_enabled fails, and it still reads 1
ftrace_off_refused() {
	! echo 0 2>/dev/null >$FE && [ "$(cat $FE)" = 1 ]
}
ops_of() { echo "$1" | sed -n 's/.* ops=\([0-9]*\) .*/\1/p'; }
# share LABEL LOAD...: reset, run the load, print the counts
share() {
	_l=$1
	shift
	echo 1 >$SW_DBG/reset
	"$@" >/dev/null
	# one read of stats: every later fork and exit wakes tasks too
	cat $SW_DBG/stats >/tmp/control.stats
	fw=$(sstat fair_wakeups) fr=$(sstat fair_wakeups_reached) pct=$(sstat reached_pct)
	echo "  $_l: fair_wakeups=$fw fair_wakeups_reached=$fr reached_pct=$pct wakeups=$(sstat wakeups) select_calls=$(sstat select_calls)"
}
# sstat NAME: from share()'s snapshot
sstat() { awk -v n="$1" '$1 == n { print $2; f = 1 } END { if (!f) print "missing" }' /tmp/control.stats; }
# spct: reached_pct's integer part in the snapshot, -1 when absent
spct() { _v=$(sstat reached_pct); [ "$_v" = missing ] && echo -1 || echo "${_v%.*}"; }

check "kernel.ftrace_enabled is 1 at boot" eq "$(cat $FE)" 1
check "insmod" sw_insmod
check "stats has fair_wakeups and fair_wakeups_reached" \
	eval '[ "$(stat fair_wakeups)" != missing ] && [ "$(stat fair_wakeups_reached)" != missing ]'
check "policy=stock: the sched_waking probe is off" grep -q '^sched_waking tracepoint off ' $SW_DBG/hooks
check "policy=stock: ftrace_enabled=0 is allowed (nothing hooked), and 1 again" \
	eval 'echo 0 >$FE && echo 1 >$FE'

# --- (c) each redirect hook keeps ftrace on, the module keeps deciding ------
modes=ftrace
grep -q ' register_ftrace_direct$' /proc/kallsyms && modes="direct ftrace"
for mode in $modes; do
	set_knob select_hook $mode
	check "$mode: policy=smartwake" set_knob policy smartwake
	check "$mode: the sched_waking probe is on" grep -q '^sched_waking tracepoint on ' $SW_DBG/hooks
	check "$mode: echo 0 > ftrace_enabled refused while hooked" ftrace_off_refused
	share "$mode after the refusal" wakeload pipe -p 2 -t 2
	check "$mode: the module still decides wakeups (wakeups, sis_calls > 0)" \
		eval 'gt "$(sstat wakeups)" 0 && gt "$(sstat sis_calls)" 0'
	check "$mode: pipe load: >= $MIN_WAKEUPS fair wakeups counted" gt "$fw" $((MIN_WAKEUPS - 1))
	check "$mode: pipe load: reached_pct >= $NEAR_ALL" eval '[ "$(spct)" -ge $NEAR_ALL ]'
	share "$mode msg" wakeload msg -g 2 -s 2 -r 2 -t 2
	check "$mode: msg load: >= $MIN_WAKEUPS fair wakeups, reached_pct >= $NEAR_ALL" \
		eval 'gt "$fw" $((MIN_WAKEUPS - 1)) && [ "$(spct)" -ge $NEAR_ALL ]'
	check "$mode: policy=stock" set_knob policy stock
done
check "policy=shadow" set_knob policy shadow
check "shadow: ftrace_enabled=0 refused" ftrace_off_refused
share "shadow pipe" wakeload pipe -p 2 -t 2
check "shadow: >= $MIN_WAKEUPS fair wakeups, reached_pct >= $NEAR_ALL" \
	eval 'gt "$fw" $((MIN_WAKEUPS - 1)) && [ "$(spct)" -ge $NEAR_ALL ]'
set_knob policy stock
check "policy=stock removes the probe" grep -q '^sched_waking tracepoint off ' $SW_DBG/hooks
check "ttwu_queue=lock (a redirect)" set_knob ttwu_queue lock
check "ttwu_queue=lock: ftrace_enabled=0 refused" ftrace_off_refused
set_knob ttwu_queue stock
# numa_retry needs task_numa_migrate's redirect; the hook needs no NUMA
# topology, only the symbol
if set_knob numa_retry corrected; then
	check "numa_retry=corrected: the task_numa_migrate redirect is live" \
		eval 'grep -q "^task_numa_migrate" /sys/kernel/tracing/enabled_functions'
	check "numa_retry=corrected: ftrace_enabled=0 refused" ftrace_off_refused
	set_knob numa_retry off
else
	skip "numa_retry=corrected refused here (no task_numa_migrate.isra.0?)"
fi
check "ttwu_count=1: its counting hooks pin ftrace (ftrace_enabled=0 refused)" \
	eval 'set_knob ttwu_count 1 && ftrace_off_refused'
check "ttwu_count=0 lets it go" eval 'set_knob ttwu_count 0 && echo 0 >$FE && echo 1 >$FE'
check "sib_count=1 (observers, not PERMANENT): ftrace_enabled=0 allowed, then sib_count=0" \
	eval 'set_knob sib_count 1 && echo 0 >$FE && set_knob sib_count 0 && echo 1 >$FE'
check "default knobs again: ftrace_enabled=0 allowed" eval 'echo 0 >$FE'

# --- ftrace disabled: a write needing a redirect is refused, nothing half-done
dmesg -c >/dev/null
for kv in "policy smartwake" "policy shadow" "ttwu_queue lock" "numa_retry corrected"; do
	# shellcheck disable=SC2086
	set -- $kv
	before=$(knob "$1")
	if set_knob "$1" "$2"; then
		not_ok "ftrace off: $1=$2 refused"
	else
		ok "ftrace off: $1=$2 refused"
	fi
	check "ftrace off: $1 still $before" eq "$(knob "$1")" "$before"
done
check "the kernel log names kernel.ftrace_enabled and the fix" \
	eval 'dmesg | grep -q "kernel.ftrace_enabled is 0.*sysctl kernel.ftrace_enabled=1"'
check "ftrace off: nothing hooked, no probe left" nothing_hooked
# ttwu_count=1 is refused: its tracepoint half would count without the
# pre-handler, and 6.1's kretprobe (kprobes' SAVE_REGS ops) added or
# removed while ftrace is off leaves a record flag that later turns it off
check "ftrace off: ttwu_count=1 refused, still 0" \
	eval '! set_knob ttwu_count 1 && [ "$(knob ttwu_count)" = 0 ]'
check "ftrace off: ... no kretprobe left" eval '! grep -q ttwu_queue_wakelist /sys/kernel/debug/kprobes/list'
# the counting pre-handlers are not PERMANENT: accepted, said to stand still
check "ftrace off: sib_count=1 (pre-handlers) accepted, the log says they stand still" \
	eval 'set_knob sib_count 1 && dmesg | grep -q "installed but not called"'
set_knob sib_count 0
check "ftrace off: latency=1 (tracepoints) still counts" \
	eval 'set_knob latency 1 && echo 1 >$SW_DBG/reset && wakeload pipe -p 2 -t 1 >/dev/null && gt "$(stat latency_samples)" 0'
set_knob latency 0
check "ftrace_enabled=1 again" eval 'echo 1 >$FE'
check "then policy=smartwake is accepted" set_knob policy smartwake
share "after re-enabling" wakeload pipe -p 2 -t 1
check "... and the module decides (reached_pct >= $NEAR_ALL)" \
	eval 'gt "$(sstat wakeups)" 0 && [ "$(spct)" -ge $NEAR_ALL ]'
set_knob policy stock
check "rmmod" rmmod smartwake

# --- (d) the hook bypassed on purpose: test_no_permanent=1 -------------------
check "insmod testing build test_no_permanent=1" sw_insmod_test test_no_permanent=1
for mode in $modes; do
	set_knob select_hook $mode
	set_knob policy smartwake
	check "no_permanent, $mode: ftrace_enabled=0 now accepted (the old behaviour)" \
		eval 'echo 0 >$FE && [ "$(cat $FE)" = 0 ]'
	check "no_permanent, $mode: policy still reads smartwake" eq "$(knob policy)" smartwake
	share "no_permanent $mode, ftrace off" wakeload pipe -p 2 -t 2
	check "no_permanent, $mode: >= $MIN_WAKEUPS fair wakeups counted (tracepoint, not ftrace)" \
		gt "$fw" $((MIN_WAKEUPS - 1))
	check "no_permanent, $mode: reached_pct <= $NEAR_NONE" \
		eval 'p=$(spct); [ "$p" -ge 0 ] && [ "$p" -le $NEAR_NONE ]'
	check "no_permanent, $mode: smartwake stats says bypassed" \
		eval 'smartwake stats | grep -q "^reached: .*its hook is bypassed"'
	# both sides under the bypassed hook (a side with policy=stock would
	# have ab install the hook again, which ftrace_enabled=0 refuses)
	out=$(smartwake ab --a 'wake_wide=mainline' --b 'wake_wide=off' --runs 1 -- wakeload pipe -p 2 -t 1 2>&1)
	rc=$?
	echo "$out" | sed -n '/reached/s/^/  /p'
	check "no_permanent, $mode: smartwake ab refuses both sides (exit 1, reason, no ratio)" \
		eval '[ $rc -eq 1 ] && echo "$out" | grep -q "side A: the module reached [0-9]* % of fair wakeups.*bypassed (kernel.ftrace_enabled=0?)" &&
			echo "$out" | grep -q "side B: the module reached [0-9]* % of fair wakeups.*bypassed" && ! echo "$out" | grep -q "^ratio "'
	[ $rc -eq 1 ] || echo "$out" | sed 's/^/    /'
	check "no_permanent, $mode: ab put the knobs back (policy smartwake, wake_wide mainline)" \
		eval '[ "$(knob policy)" = smartwake ] && [ "$(knob wake_wide)" = mainline ]'
	check "no_permanent, $mode: ftrace_enabled=1 again" eval 'echo 1 >$FE'
	share "no_permanent $mode, ftrace on" wakeload pipe -p 2 -t 1
	check "no_permanent, $mode: reached_pct >= $NEAR_ALL with ftrace on" \
		eval '[ "$(spct)" -ge $NEAR_ALL ]'
	set_knob policy stock
done
out=$(smartwake ab --a 'policy=stock' --b 'policy=smartwake' --runs 1 -- wakeload pipe -p 2 -t 1 2>&1)
rc=$?
check "ftrace on: smartwake ab reports (exit 0, ratio)" \
	eval '[ $rc -eq 0 ] && echo "$out" | grep -q "^ratio B/A"'
check "rmmod" rmmod smartwake
check "kernel.ftrace_enabled is 1 at the end" eq "$(cat $FE)" 1
check "kernel log has no WARNING/BUG/Oops/Call Trace" dmesg_clean
summary
