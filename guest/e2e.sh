# End-to-end test of the module skeleton: load, hook, count, knobs,
# unload, load/unload cycles under load, error path, clean kernel log.
. ./lib.sh
need_testing_build
cycles=${1:-20}

# --- error path first: a missing symbol fails insmod, nothing hooked -----
if sw_insmod_test test_missing_symbol=select_task_rq_fair 2>/dev/null; then
	not_ok "insmod with a missing symbol fails"
	rmmod smartwake
else
	ok "insmod with a missing symbol fails"
fi
check "message names the missing symbol" \
	eval 'dmesg | grep -q "symbol select_task_rq_fair not found"'
check "nothing hooked after the failed load" eval '! hooked select_task_rq_fair'
check "no debugfs dir after the failed load" eval '[ ! -e $SW_DBG ]'

# --- load, hook, count ---------------------------------------------------
check "insmod" sw_insmod
check "default knobs: nothing hooked (ftrace, kprobes, hooks file)" nothing_hooked
check "enabled defaults to 1" eq "$(knob enabled)" 1
check "policy defaults to stock" eq "$(knob policy)" stock
check "policy=smartwake hooks select_task_rq_fair" \
	eval 'set_knob policy smartwake && hooked select_task_rq_fair'
echo 1 >$SW_DBG/reset
before=$(stat select_calls)
out=$(wakeload pipe -p 2 -t 2)
after=$(stat select_calls)
echo "  $out"
echo "  select_calls: $before -> $after"
# A pipe round trip nearly always wakes a sleeping reader (a reply that
# lands before the read does not): at least one call per two round trips.
# Relative to the work done, not to the time: a debug guest sharing a
# host CPU may manage only a few hundred round trips.
ops=$(echo "$out" | sed -n 's/.* ops=\([0-9]*\) .*/\1/p')
check "the workload ran" gt "${ops:-0}" 0
check "counters rise under the workload (>= one per two round trips)" \
	eval '[ $((after - before)) -ge $(( ${ops:-2} / 2 )) ]'

# --- knobs ---------------------------------------------------------------
check "enabled=0 accepted" set_knob enabled 0
check "enabled reads 0" eq "$(knob enabled)" 0
check "enabled=0 removes the hook" eval '! hooked select_task_rq_fair'
p0=$(stat select_calls)
wakeload pipe -p 1 -t 1 >/dev/null
check "enabled=0: the kernel decides, no call reaches the module" eq "$(stat select_calls)" "$p0"
check "enabled=1 accepted" set_knob enabled 1
check "enabled reads 1" eq "$(knob enabled)" 1
check "enabled=1 (policy smartwake) hooks again" hooked select_task_rq_fair
# one refused value end to end; the parser's cases are the KUnit suite
# smartwake_knob_parse (step kunit)
check "enabled refuses '2'" bad_write enabled 2
big=$(head -c 70000 /dev/zero | tr '\0' '1')
check "enabled refuses a 70000-byte write" bad_write enabled "$big"
check "reset zeroes the counters" eval 'echo 1 > $SW_DBG/reset && [ "$(stat passthrough)" -lt 100 ]'

# --- select_hook: a direct ftrace call, or the ftrace-ops redirect --------
# enabled_functions flags: D = direct call (its target on the next line),
# I = IPMODIFY (the ops redirect). Either way the module's path decides:
# affine/idle decisions are counted, wakeups handed back are not lost.
efl() { grep -A1 "^select_task_rq_fair " /sys/kernel/tracing/enabled_functions; }
# the oracle for "this kernel has direct calls": the function that adds one
# (x86-64 and arm64: the module has a trampoline for each)
if grep -q ' register_ftrace_direct$' /proc/kallsyms; then
	check "select_hook defaults to direct" eq "$(knob select_hook)" direct
	echo "  $(efl | tr '\n\t' '  ')"
	check "direct: a direct call to sw_select_tramp, no IPMODIFY" \
		eval 'efl | grep -q "direct-->sw_select_tramp" && ! efl | grep -q "^select_task_rq_fair .* I "'
	check "direct: hooks file says so" grep -q '^select_task_rq_fair direct on ' $SW_DBG/hooks
	for mode in direct ftrace direct; do
		check "select_hook=$mode accepted while hooked" set_knob select_hook $mode
		echo 1 >$SW_DBG/reset
		out=$(wakeload pipe -p 2 -t 2)
		ops=$(echo "$out" | sed -n 's/.* ops=\([0-9]*\) .*/\1/p')
		w=$(stat wakeups) d=$(stat sis_calls)
		echo "  $mode: ops=$ops wakeups=$w sis_calls=$d fallback_original=$(stat fallback_original)"
		check "$mode: the module's path decides wakeups" eval 'gt "$w" 0 && [ "$d" != missing ] && gt "$d" 0'
		# fork and exec placements (no WF_TTWU) are handed back: the
		# kernel's function placed them, or the workload would not run
		check "$mode: hand-backs go on into the kernel's function" \
			eval 'gt "$(stat passthrough)" 0 && gt "${ops:-0}" 0'
	done
	check "ftrace: the redirect carries IPMODIFY" eval \
		'set_knob select_hook ftrace && efl | grep -q "^select_task_rq_fair .* I " && ! efl | grep -q "direct-->"'
	check "direct again: no IPMODIFY" eval \
		'set_knob select_hook direct && efl | grep -q "direct-->sw_select_tramp"'
	check "select_hook refuses 'both'" bad_write select_hook both
	check "enabled=0 removes the direct call" eval 'set_knob enabled 0 && ! hooked select_task_rq_fair'
	check "select_hook=ftrace while unhooked: nothing installed" eval \
		'set_knob select_hook ftrace && ! hooked select_task_rq_fair'
	check "enabled=1 installs the ftrace redirect" eval \
		'set_knob enabled 1 && efl | grep -q "^select_task_rq_fair .* I "'
	set_knob select_hook direct
else
	skip "select_hook=direct: this kernel has no direct ftrace calls"
	check "select_hook=direct refused where unsupported" bad_write select_hook direct
fi

# --- unload ----------------------------------------------------------------
check "rmmod" rmmod smartwake
check "hook gone from enabled_functions" eval '! hooked select_task_rq_fair'
check "debugfs dir gone" eval '[ ! -e $SW_DBG ]'

# --- load/unload cycles while the workload runs --------------------------
wakeload msg -g 2 -s 2 -r 2 -t 600 >/dev/null 2>&1 &
load=$!
fails=0
i=0
while [ $i -lt "$cycles" ]; do
	sw_insmod || fails=$((fails + 1))
	set_knob policy smartwake || fails=$((fails + 1))
	set_knob enabled $((i % 2)) || fails=$((fails + 1))
	[ $((i % 4)) -ge 2 ] && { set_knob select_hook ftrace || fails=$((fails + 1)); }
	cat $SW_DBG/stats >/dev/null
	rmmod smartwake || fails=$((fails + 1))
	i=$((i + 1))
done
kill $load
wait $load 2>/dev/null
check "$cycles insmod/rmmod cycles under load" eq "$fails" 0
check "no hook left after the cycles" eval '! hooked select_task_rq_fair'
check "kernel log has no WARNING/BUG/Oops/Call Trace" dmesg_clean
summary
