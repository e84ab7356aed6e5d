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
for bad in '\n' ' 1' '1 ' '2' '-1' '0x1' '+1' '1x' 'yes' '01\n\n' \
	'99999999999999999999' '\001' '1\0000'; do
	check "enabled refuses '$bad'" bad_write enabled "$bad"
done
big=$(head -c 70000 /dev/zero | tr '\0' '1')
check "enabled refuses a 70000-byte write" bad_write enabled "$big"
check "reset zeroes the counters" eval 'echo 1 > $SW_DBG/reset && [ "$(stat passthrough)" -lt 100 ]'

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
