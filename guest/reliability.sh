# Reliability: load/unload cycles under a wakeup storm while flipping knobs,
# knob fuzzing, concurrent knob writers, CPU hotplug under load, hook
# conflicts. Usage: reliability.sh [CYCLES] [HOTPLUG_ROUNDS] [WRITER_ROUNDS]
# (short form in make check: 30 and 10 on the default kernel, 10 and 4 on
# the others, 6, 2 and 5 on the debug kernel, where lockdep and KASAN
# report a path the first time it runs and each round costs 3 to 7 times
# more; make stress: 200 and 100). WRITER_ROUNDS: each knob's writer's
# passes over its values in the concurrent-writers storm (default 10).
. ./lib.sh
need_testing_build
cycles=${1:-30}
hp_rounds=${2:-10}
w_rounds=${3:-10}

# knob_names / knob_values NAME: from the module's own "knobs" listing;
# scope's "/PATH" is a cgroup v2 directory made for this test.
SCOPE_DIR=/sys/fs/cgroup/reliability
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
mkdir -p $SCOPE_DIR
knob_names() { awk '!/^#/ { print $1 }' $SW_DBG/knobs; }
knob_values() {
	sed -n "s/^$1 .*\[\([^]]*\)\].*/\1/p" $SW_DBG/knobs | tr '|' '\n' |
		sed 's/^\([0-9]*\)\.\.\([0-9]*\)$/\1\n\2/' | sed "s|^/PATH\$|$SCOPE_DIR|"
}
all_loads_start() {
	wakeload disp -d 1 -w 4 --switch -t 100000 >/dev/null 2>&1 &
	l1=$!
	wakeload msg -g 1 -s 2 -r 2 -t 100000 >/dev/null 2>&1 &
	l2=$!
}
all_loads_stop() { kill $l1 $l2 2>/dev/null; wait $l1 $l2 2>/dev/null; }

# ---- hook conflict: another IPMODIFY owner of select_task_rq_fair -------
# Nothing is hooked at load, so the conflict shows where the hook is
# wanted: the knob write that needs it fails with EBUSY and changes
# nothing; with test_hook_at_load (testing build) the load itself fails.
if [ -f $SW_TKO/sw_conflict.ko ]; then
	check "conflict module claims select_task_rq_fair" \
		insmod $SW_TKO/sw_conflict.ko
	check "insmod succeeds: nothing hooked at the default knobs" sw_insmod
	out=$( (echo smartwake >$SW_DBG/policy) 2>&1)
	rc=$?
	echo "  policy=smartwake: $out"
	check "policy=smartwake fails while another IPMODIFY user owns the function" \
		eval '[ $rc -ne 0 ]'
	check "the failure is EBUSY" eval 'echo "$out" | grep -qi "busy"'
	check "the log names the function" \
		eval 'dmesg | grep -q "select_task_rq_fair is already modified"'
	check "the policy stays stock, nothing of smartwake hooked" \
		eval '[ "$(knob policy)" = stock ] && nothing_hooked'
	rmmod smartwake
	out=$(sw_insmod_test test_hook_at_load=1 2>&1)
	rc=$?
	check "with the hook at load, insmod fails (EBUSY)" \
		eval '[ $rc -ne 0 ] && echo "$out" | grep -qi busy'
	check "no smartwake debugfs left" eval '[ ! -e $SW_DBG ]'
	check "nothing of smartwake is hooked" \
		eval '! grep -q smartwake /sys/kernel/tracing/enabled_functions'
	rmmod sw_conflict
	check "policy=smartwake works once the function is free" \
		eval 'sw_insmod && set_knob policy smartwake && hooked select_task_rq_fair'
	# ...and the exclusion holds the other way, for both ways in
	for via in $(knob_values select_hook); do
		set_knob select_hook "$via"
		out=$(insmod $SW_TKO/sw_conflict.ko 2>&1)
		rc=$?
		[ $rc -eq 0 ] && rmmod sw_conflict
		check "select_hook=$via hooked: the other IPMODIFY user is refused (EBUSY)" \
			eval '[ $rc -ne 0 ] && echo "$out" | grep -qi busy'
	done
	check "the module's hook is still there" \
		eval 'hooked select_task_rq_fair && grep -q "^select_task_rq_fair .* on " $SW_DBG/hooks'
	rmmod smartwake
else
	not_ok "sw_conflict.ko missing from the guest"
fi

# ---- load/unload cycles under load, flipping knobs ------------------------
# Each knob's values are listed once (vals_NAME): under TCG a fork costs
# ~50 ms, and listing them in every cycle tripled the cycle time.
sw_insmod
knobs=$(knob_names)
for k in $knobs; do
	eval "vals_$k=\"\$(knob_values $k | tr '\n' ' ')\""
done
# sib_pull=1 needs the companion smartwake_pull.ko, which holds smartwake
# while loaded: the cycles leave it at 0 (guest/pull.sh cycles the pull
# with CPU hotplug and cgroup moves)
vals_sib_pull=0
# policy=bpf needs an attached BPF program (guest/bpf.sh tests it): refused
# here, in every write
vals_policy=$(echo "$vals_policy" | sed 's/ *bpf//')
rmmod smartwake
kmemleak_mark
all_loads_start
fails=0
i=0
t0=$(uptime_s)
while [ $i -lt "$cycles" ]; do
	sw_insmod || { fails=$((fails + 1)); i=$((i + 1)); continue; }
	for k in $knobs; do
		eval "set -- \$vals_$k"
		[ $# -gt 0 ] || { echo "  no values listed for $k"; fails=$((fails + 1)); continue; }
		shift $((i % $#))
		set_knob "$k" "$1" || { echo "  cannot set $k=$1"; fails=$((fails + 1)); }
	done
	[ -e $SW_DBG/policy ] && set_knob policy smartwake
	usleep 50000
	cat $SW_DBG/stats >/dev/null
	rmmod smartwake || fails=$((fails + 1))
	i=$((i + 1))
done
all_loads_stop
echo "  $cycles cycles in $(($(uptime_s) - t0)) s"
check "$cycles insmod/rmmod cycles under load with knob flips" eq "$fails" 0
check "no hook left after the cycles" \
	eval '! grep -q smartwake /sys/kernel/tracing/enabled_functions'
if [ -w $KML ]; then
	leaks=$(kmemleak_new)
	[ "$leaks" -eq 0 ] || cat $KML
	check "kmemleak: no unreferenced object after the cycles" eq "$leaks" 0
else
	skip "kmemleak: not in this kernel"
fi

# ---- bad writes -----------------------------------------------------------------
# Which bytes each knob refuses (every value with its near misses, blanks,
# signs, NUL bytes, overflow) is the KUnit suite smartwake_knob_parse (step
# kunit). Here, per knob file: the writes debugfs refuses before the
# parser (overlong, at an offset) and one refused value, the value kept;
# scope, whose bytes scope.c judges once the parser has passed them, keeps
# the whole fuzz.
sw_insmod
big=$(head -c 65536 /dev/zero | tr '\0' 'a')
# The checker can fail: a valid value, written through bad_write, is an
# accepted write that changes the knob
set_knob sync 1
check "bad_write reports an accepted write (sync 0 through it)" eval '! bad_write sync 0 >/dev/null'
set_knob sync 1
for k in $knobs; do
	bad=0
	total=1
	min=3
	eval "vs=\$vals_$k"
	set -- $vs
	bad_write "$k" "${1}x" && bad=$((bad + 1))
	if [ "$k" = scope ]; then
		min=50
		for v in $vs; do
			for w in " $v" "$v " "$v\n\n" "\t$v" "$v\t" "$v\0" "\0$v" "$v," \
				"$v;" "$v#" "${v}x" "x${v}" "-$v" "+$v" "$v$v$v$v$v$v$v$v$v$v$v$v"; do
				total=$((total + 1))
				bad_write "$k" "$w" && bad=$((bad + 1))
			done
		done
		for w in '\n' ' ' '\t' '-1' '-0' '+0' '0x1' '0X1' '1e3' '1.0' '1.5' \
			'99999999999' '4294967296' '-2147483649' '9223372036854775808' \
			'\001' '\377\376' 'none none' 'stock\nsmartwake' '0 1' 'on' 'off?' \
			'true' 'NULL' '%%s' '\033[0m' 'ZZZ' '\\' '""' "''"; do
			total=$((total + 1))
			bad_write "$k" "$w" && bad=$((bad + 1))
		done
	fi
	total=$((total + 1))
	bad_write "$k" "$big" && bad=$((bad + 1))
	# A write at an offset: the first byte lands at position 1.
	before=$(knob "$k")
	total=$((total + 1))
	if ! printf '%s' "$1" |
		dd of=$SW_DBG/$k bs=1 seek=1 conv=notrunc 2>/dev/null &&
		[ "$(knob "$k")" = "$before" ]; then
		bad=$((bad + 1))
	fi
	echo "  $k: $bad of $total bad writes refused"
	check "knob $k refuses all $total (>= $min) bad writes" \
		eval '[ $bad -eq $total ] && [ $total -ge $min ]'
done

# ---- concurrent writers and readers while wakeups run -------------------------
all_loads_start
writers=""
for k in $knobs; do
	(
		j=0
		while [ $j -lt "$w_rounds" ]; do
			eval "vs=\$vals_$k"
			for v in $vs; do set_knob "$k" "$v"; done
			printf 'garbage' >"$SW_DBG/$k" 2>/dev/null
			j=$((j + 1))
		done
	) &
	writers="$writers $!"
done
(
	j=0
	while [ $j -lt 50 ]; do
		cat $SW_DBG/stats $SW_DBG/knobs >/dev/null
		j=$((j + 1))
	done
) &
writers="$writers $!"
wait $writers
all_loads_stop
# After the storm every knob holds one of its listed values, and the
# module's own path still places wakeups: the counters of its decisions
# rise under a load, with no bad answer.
kbad=0
for k in $knobs; do
	v=$(knob "$k")
	eval "vs=\" \$vals_$k \""
	case "$vs" in *" $v "*) ;; *) echo "  $k holds '$v', not one of:$vs"; kbad=$((kbad + 1)) ;; esac
done
check "after concurrent writers every knob holds a listed value" eq "$kbad" 0
set_knob enabled 1
set_knob scope all
set_knob policy smartwake
echo 1 >$SW_DBG/reset
wakeload pipe -p 2 -t 1 >/dev/null
echo "  after the writers: wakeups $(stat wakeups), sis_calls $(stat sis_calls), violations $(stat invariant_violations)"
check "after concurrent writers the module's path places wakeups" \
	eval '[ "$(stat wakeups)" -gt 0 ] && [ "$(stat sis_calls)" -gt 0 ] && [ "$(stat invariant_violations)" = 0 ]'

# ---- CPU hotplug under load ----------------------------------------------------
# runnable_on CPU: runnable tasks /proc says are on CPU (one awk over all
# /proc/PID/stat: after "(comm) ", field 37 is the CPU, 1 the state).
runnable_on() {
	cat /proc/[0-9]*/stat 2>/dev/null | sed 's/^.*) //' |
		awk -v c="$1" '$1 == "R" && $37 == c { n++ } END { print n + 0 }'
}
# hotplug_rounds N: offline and online CPUs 1..ncpu-1 in turn, N times;
# failures (and runnable tasks found on the offline CPU) add to hp_fail.
hotplug_rounds() {
	local r=0 c bad
	while [ $r -lt "$1" ]; do
		c=$((r % (ncpu - 1) + 1))
		echo 0 >/sys/devices/system/cpu/cpu$c/online || hp_fail=$((hp_fail + 1))
		usleep 100000
		# No runnable task may sit on the offline CPU.
		bad=$(runnable_on $c)
		[ "$bad" -eq 0 ] || { echo "  $bad runnable tasks on offline cpu $c"; hp_fail=$((hp_fail + 1)); }
		echo 1 >/sys/devices/system/cpu/cpu$c/online || hp_fail=$((hp_fail + 1))
		usleep 100000
		r=$((r + 1))
	done
}
[ -e $SW_DBG/policy ] && set_knob policy smartwake
set_knob enabled 1
echo 1 >$SW_DBG/reset
all_loads_start
ncpu=$(nproc)
hp_fail=0
t0=$(uptime_s)
hotplug_rounds "$hp_rounds"
echo "  $hp_rounds hotplug rounds in $(($(uptime_s) - t0)) s," \
	"$(stat inactive_answers) answers whose CPU was deactivated while chosen"
# Steady state: once CPU 1 is offline and the domains are rebuilt, no
# CPU becomes inactive under the module's feet, so an answer naming an
# inactive CPU would be a bug of the module, not the race counted above.
echo 0 >/sys/devices/system/cpu/cpu1/online || hp_fail=$((hp_fail + 1))
usleep 300000
a0=$(stat inactive_answers)
w0=$(stat wakeups)
sleep 2
a1=$(stat inactive_answers)
w1=$(stat wakeups)
echo 1 >/sys/devices/system/cpu/cpu1/online || hp_fail=$((hp_fail + 1))
all_loads_stop
check "$hp_rounds CPU offline/online rounds under load" eq "$hp_fail" 0
check "invariant_violations (answer outside the task's mask) stays 0" \
	eq "$(stat invariant_violations)" 0
echo "  CPU 1 offline for 2 s: $((w1 - w0)) wakeups, $((a1 - a0)) inactive answers"
check "CPU 1 offline under load: wakeups take the module's path" \
	eval '[ $((w1 - w0)) -gt 10 ]'
check "CPU 1 offline under load: no answer names an inactive CPU" \
	eq "$a1" "$a0"
rmmod smartwake

# ---- the answer check, by fault injection ------------------------------------
# test_bad_answer=1 replaces every answer by an offline CPU the task may
# use, 2 by a CPU outside the task's mask: the check must count and
# discard each one, so no task runs where it may not.
ncpu_last=$((ncpu - 1))
sw_insmod_test test_bad_answer=1
set_knob policy smartwake
echo 0 >/sys/devices/system/cpu/cpu$ncpu_last/online
all_loads_start
sleep 2
bad=$(runnable_on $ncpu_last)
all_loads_stop
# one reading, while the CPU is still offline: every answer of the
# module's path (wakeups it did not leave to the kernel) was replaced
snap=$(cat $SW_DBG/stats)
snap() { echo "$snap" | awk -v n="$1" '$1 == n { print $2 }'; }
inact=$(snap inactive_answers)
modelled=$(($(snap wakeups) - $(snap fallback_original)))
echo 1 >/sys/devices/system/cpu/cpu$ncpu_last/online
echo "  answers replaced by offline CPU $ncpu_last: $inact refused of $modelled answers, $bad runnable tasks on it"
check "injected inactive answers: the check refuses them (> 10, >= 90 % of answers)" \
	eval '[ "$inact" -gt 10 ] && [ $((inact * 10)) -ge $((modelled * 9)) ]'
check "injected inactive answers: no runnable task on the offline CPU" eq "$bad" 0
check "injected inactive answers: none counted as outside the mask" \
	eq "$(stat invariant_violations)" 0
check "injected inactive answers: no revert (not a violation)" \
	eval '[ "$(stat reverts)" = 0 ] && [ "$(knob policy)" = smartwake ]'
rmmod smartwake

# ---- the watchdog: revert_on=violation (default) ---------------------------
n0=$(dmesg | grep -c "policy set back to stock (invariant_violations")
sw_insmod_test test_bad_answer=2
check "revert_on defaults to violation" eq "$(knob revert_on)" violation
set_knob policy smartwake
wakeload msg -g 1 -s 2 -r 2 --cpus 0-1 -t 2 >/dev/null 2>&1
rc=$?
# the revert's work item removes the hook and logs the line: wait for both
# (at most 20 s; a debug guest once took 3 s for the hook changes)
w=0
while [ $w -lt 20 ] && { hooked select_task_rq_fair ||
	[ "$(dmesg | grep -c "policy set back to stock (invariant_violations")" = "$n0" ]; }; do
	sleep 1
	w=$((w + 1))
done
echo "  watchdog: policy $(knob policy), reverts $(stat reverts), violations $(stat invariant_violations); $(dmesg | grep 'set back to stock')"
check "watchdog: the load ran" eq "$rc" 0
check "watchdog: an injected violation sets policy back to stock, once" \
	eval '[ "$(knob policy)" = stock ] && [ "$(stat reverts)" = 1 ] && [ "$(stat invariant_violations)" -ge 1 ]'
check "watchdog: the select hook is removed" eval '! hooked select_task_rq_fair'
check "watchdog: one log line with the counters" \
	eval '[ "$(dmesg | grep -c "policy set back to stock (invariant_violations [0-9]*, wakeups [0-9]*)")" = $((n0 + 1)) ]'
check "watchdog: policy=smartwake can be set again (and reverts again)" \
	eval 'set_knob policy smartwake && wakeload pipe -p 2 --cpus 0-1 -t 1 >/dev/null 2>&1; sleep 1;
		[ "$(stat reverts)" = 2 ] && [ "$(knob policy)" = stock ]'
rmmod smartwake
sw_insmod_test test_bad_answer=2
check "revert_on=never accepted" set_knob revert_on never
set_knob policy smartwake
wakeload msg -g 1 -s 2 -r 2 --cpus 0-1 -t 2 >/dev/null 2>&1
rc=$?
echo "  answers replaced by a CPU outside 0-1: $(stat invariant_violations) refused of $(stat wakeups) wakeups"
check "injected answers outside the mask: the load pinned to 0-1 runs" eq "$rc" 0
check "injected answers outside the mask: the check refuses them (invariant_violations > 10)" \
	eval '[ "$(stat invariant_violations)" -gt 10 ]'
# The decision counters describe used answers only: a refused answer's
# counts (at least its sis_calls) are taken back into discarded_decisions,
# so sis_calls + refused <= modelled wakeups (one reading of stats). That
# reading sums one counter after another while the system's own wakeups
# go on: within 4 (reliability-kcsan at 145f8ec: 251 + 137 = 388 against
# 387); without the taking back the excess is the refused count (> 10).
snap=$(cat $SW_DBG/stats)
refused=$(snap invariant_violations)
modelled=$(($(snap wakeups) - $(snap fallback_original)))
echo "  modelled $modelled, refused $refused, sis_calls $(snap sis_calls), discarded_decisions $(snap discarded_decisions)"
check "refused answers: their decisions are taken back (sis_calls + refused <= modelled, within 4)" \
	eval '[ "$refused" -gt 10 ] && [ $(($(snap sis_calls) + refused)) -le $((modelled + 4)) ]'
check "refused answers: their decisions counted apart (discarded_decisions >= refused)" \
	eval '[ "$(snap discarded_decisions)" -ge "$refused" ]'
check "revert_on=never: violations counted, no revert" \
	eval '[ "$(stat reverts)" = 0 ] && [ "$(knob policy)" = smartwake ]'
check "rmmod after hotplug" rmmod smartwake
# scope was set at many an unload: no reference may be left (a held one
# keeps the removed cgroup among the root's dying ones)
rmdir $SCOPE_DIR
i=0
while ! grep -q '^nr_dying_descendants 0$' /sys/fs/cgroup/cgroup.stat && [ $i -lt 100 ]; do
	usleep 100000
	i=$((i + 1))
done
check "scope's cgroup removed, no dying cgroup left (no reference held)" \
	eval '[ ! -d $SCOPE_DIR ] && grep -q "^nr_dying_descendants 0$" /sys/fs/cgroup/cgroup.stat'
check "kernel log has no WARNING/BUG/Oops/Call Trace" dmesg_clean
summary
