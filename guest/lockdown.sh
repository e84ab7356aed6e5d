# The control plane under lockdown=integrity (Secure Boot's level): knobs
# through /sys/module/smartwake/parameters, the read-only debugfs files
# still readable, the debugfs knob files refused. First the load-time
# parameters (an unsigned module no longer loads once lockdown is up),
# then lockdown is raised and every knob of the "knobs" listing is set
# through its parameter and read back; the CLI (set, status, stats,
# reset, ab) finds the parameters by itself; a wakeup load takes the
# module's path with policy=smartwake set as a parameter; a BPF program
# attached by smartwake bpf load decides with policy=bpf set so.
. ./lib.sh
P=/sys/module/smartwake/parameters
SEC=/sys/kernel/security
CG=/sys/fs/cgroup
# pk NAME: a knob's value through its parameter
pk() { cat "$P/$1" 2>/dev/null; }
# listed NAME: the knob's value in the (read-only) knobs listing
listed() { awk -v n="$1" '$1 == n { print $2 }' $SW_DBG/knobs; }
# refused_eperm COMMAND...: the command fails with "Operation not permitted"
refused_eperm() { ! _e=$( ("$@") 2>&1) && echo "$_e" | grep -q 'Operation not permitted'; }
no_module() { [ ! -e /sys/module/smartwake ] && [ ! -e $SW_DBG ]; }
ops_of() { echo "$1" | sed -n 's/.* ops=\([0-9]*\) .*/\1/p'; }

# --- parameters at load -------------------------------------------------------
check "insmod policy=smartwake wake_wide=off" sw_insmod policy=smartwake wake_wide=off
check "... policy reads smartwake (parameter, knobs listing)" \
	eval '[ "$(pk policy)" = smartwake ] && [ "$(listed policy)" = smartwake ]'
check "... wake_wide reads off (parameter, debugfs)" \
	eval '[ "$(pk wake_wide)" = off ] && [ "$(knob wake_wide)" = off ]'
check "... the other knobs keep their defaults (enabled 1, decay halve)" \
	eval '[ "$(pk enabled)" = 1 ] && [ "$(pk decay)" = halve ]'
check "... select_task_rq_fair hooked by the load's policy" hooked select_task_rq_fair
echo 1 >$P/reset
out=$(wakeload pipe -p 1 -t 1)
check "... wakeups take the module's path (wakeups > 0, no wide decision)" \
	eval 'gt "$(stat wakeups)" 0 && [ "$(stat wide_waker_master)" = 0 ] && [ "$(stat wide_wakee_master)" = 0 ]'
check "rmmod" rmmod smartwake
check "nothing hooked after rmmod" nothing_hooked
# in the order given, the last of a repeated one wins
check "insmod policy=shadow latency=1 policy=smartwake" sw_insmod policy=shadow latency=1 policy=smartwake
check "... policy smartwake (the last given), latency 1, its probes on" \
	eval '[ "$(pk policy)" = smartwake ] && [ "$(pk latency)" = 1 ] && grep -q "^sched_switch .* on " $SW_DBG/hooks'
check "rmmod" rmmod smartwake

dmesg -c >/dev/null
check "insmod policy=bogus is refused" eval '! sw_insmod policy=bogus 2>/dev/null'
check "... the kernel log names the knob and its accepted values" \
	eval "dmesg | grep -q \"smartwake: parameter policy: 'bogus' is not accepted (accepted: stock|smartwake|shadow|bpf)\""
check "... nothing loaded, nothing hooked" eval 'no_module && nothing_hooked'
check "insmod factor=01 (not canonical) is refused" eval '! sw_insmod factor=01 2>/dev/null && no_module'
dmesg -c >/dev/null
check "insmod policy=smartwake scope=/nonexistent is refused (scope fails when applied)" \
	eval '! sw_insmod policy=smartwake scope=/nonexistent 2>/dev/null'
dmesg | grep smartwake | sed 's/^/  /'
check "... the kernel log names the knob, the value and the error" \
	eval 'dmesg | grep -qE "smartwake: parameter scope=/nonexistent cannot be applied: (-ENOENT|-2); not loaded"'
check "... policy=smartwake, applied before it, undone: nothing loaded, nothing hooked" \
	eval 'no_module && nothing_hooked'

# --- lockdown=integrity -----------------------------------------------------
check "insmod (no parameters)" sw_insmod
mount -t securityfs none $SEC 2>/dev/null
mkdir -p $CG
mount -t cgroup2 none $CG 2>/dev/null
mkdir -p $CG/lockdown-test
check "lockdown is none before" grep -q '\[none\]' $SEC/lockdown
check "lockdown raised to integrity" \
	eval 'echo integrity >$SEC/lockdown && grep -q "\[integrity\]" $SEC/lockdown'
check "a debugfs knob write is refused: EPERM" refused_eperm sh -c "echo smartwake >$SW_DBG/policy"
check "... and a debugfs knob read too (a file with a write bit)" refused_eperm cat $SW_DBG/policy
check "... and debugfs reset" refused_eperm sh -c "echo 1 >$SW_DBG/reset"
check "... the value did not change" eq "$(pk policy)" stock

# Every file of the directory: without a write bit (0444, 0400) it reads
# under lockdown; with one it is a knob of the listing or reset.
names=$(grep -v '^#' $SW_DBG/knobs | awk '{ print $1 }')
echo "  knobs: $(echo $names)"
check "the knobs listing says where knobs are written" \
	grep -q "^# write: /sys/module/smartwake/parameters/NAME (also under lockdown)" $SW_DBG/knobs
ro_bad= rw_bad= nro=0
for f in $SW_DBG/*; do
	n=${f##*/}
	m=$(busybox stat -c %a "$f")
	case $m in
	444|400)
		nro=$((nro + 1))
		cat "$f" >/dev/null 2>&1 || ro_bad="$ro_bad $n($m)" ;;
	*)
		case " $(echo $names) reset " in
		*" $n "*) ;;
		*) rw_bad="$rw_bad $n($m)" ;;
		esac ;;
	esac
done
echo "  read-only files: $nro"
check "every read-only debugfs file (0444/0400) reads under lockdown${ro_bad:+ (not:$ro_bad)}" \
	eval '[ -z "$ro_bad" ] && [ "$nro" -ge 7 ]'
for n in stats knobs hooks calls overloaded latency_hist latency_hist_scope; do
	check "$n: read-only and readable" eval '[ -f $SW_DBG/$n ] && cat $SW_DBG/$n >/dev/null'
done
check "the only writable files are the knobs and reset${rw_bad:+ (not:$rw_bad)}" eq "$rw_bad" ""

# --- every knob through its parameter ------------------------------------
# value_for NAME: an accepted value other than the current one (the first
# alternative of the listing's [..] that differs; a range's low or high
# end; /PATH: the test's cgroup)
value_for() {
	_cur=$(pk "$1")
	sed -n "s/^$1 .*  \[\([^]]*\)\].*/\1/p" $SW_DBG/knobs | tr '|' '\n' | while read -r a; do
		case $a in
		/PATH) a=$CG/lockdown-test ;;
		*..*) lo=${a%..*} hi=${a#*..}; a=$lo; [ "$lo" = "$_cur" ] && a=$hi ;;
		esac
		[ "$a" != "$_cur" ] && { echo "$a"; break; }
	done
}
np=0
for n in $names; do
	np=$((np + 1))
	old=$(pk "$n")
	v=$(value_for "$n")
	if [ -z "$old" ] || [ -z "$v" ]; then
		not_ok "$n: a parameter with a value ('$old') and another accepted value ('$v')"
		continue
	fi
	# sib_pull=1 needs the companion smartwake_pull.ko, not loaded here:
	# refused (ENODEV), the value kept (pull.sh loads it)
	if [ "$n" = sib_pull ] && ! grep -q '^smartwake_pull ' /proc/modules; then
		check "$n: $old -> $v through $P/$n refused without smartwake_pull.ko, $old kept" \
			eval '! echo "$v" >$P/$n 2>/dev/null && [ "$(pk $n)" = "$old" ]'
		continue
	fi
	check "$n: $old -> $v through $P/$n, reads back (parameter, listing)" \
		eval 'echo "$v" >$P/$n && [ "$(pk $n)" = "$v" ] && [ "$(listed $n)" = "$v" ]'
	check "$n: back to $old" eval 'echo "$old" >$P/$n && [ "$(pk $n)" = "$old" ]'
done
check "every knob of the listing has a parameter ($np)" eval '[ "$np" -ge 20 ] && [ -w $P/reset ]'
# One bad value through a parameter: the parser's cases are the KUnit
# suite smartwake_knob_parse (step kunit).
check "a bad value through a parameter is refused (policy=bogus), value kept" \
	eval '! echo bogus >$P/policy 2>/dev/null && [ "$(pk policy)" = stock ]'
check "a scope that does not exist is refused (ENOENT), value kept" \
	eval '! echo /nonexistent >$P/scope 2>/dev/null && [ "$(pk scope)" = all ]'
check "nothing hooked at the defaults again" nothing_hooked

# --- a wakeup load with policy=smartwake set through the parameter -------
check "policy=smartwake through the parameter hooks select_task_rq_fair" \
	eval 'echo smartwake >$P/policy && hooked select_task_rq_fair'
check "reset through the parameter zeroes the counters" \
	eval 'echo 1 >$P/reset && [ "$(stat wakeups)" -lt 100 ]'
out=$(wakeload pipe -p 2 -t 1)
ops=$(ops_of "$out")
echo "  $out; wakeups $(stat wakeups), sis_calls $(stat sis_calls)"
check "the load takes the module's path (>= one wakeup per two round trips)" \
	eval 'gt "${ops:-0}" 0 && [ "$(stat wakeups)" -ge $((ops / 2)) ] && gt "$(stat sis_calls)" 0'
check "policy=stock through the parameter unhooks" \
	eval 'echo stock >$P/policy && ! hooked select_task_rq_fair'

# --- the CLI finds the parameters -----------------------------------------
out=$(smartwake status 2>&1)
rc=$?
echo "$out" | grep -E '^(kernel|debugfs|control|policy) ' | sed 's/^/  /'
check "smartwake status: exit 0, control is the parameters (lockdown=integrity)" \
	eval '[ $rc -eq 0 ] && echo "$out" | grep -q "^control  /sys/module/smartwake/parameters (debugfs locked down: lockdown=integrity)$"'
check "... every knob listed ($np)" eval 'echo "$out" | grep -q "^knobs ($np):"'
out=$(smartwake set policy=smartwake wake_wide=off factor=8 2>&1)
rc=$?
echo "$out" | sed 's/^/  /'
check "smartwake set policy=smartwake wake_wide=off factor=8: exit 0, applied" \
	eval '[ $rc -eq 0 ] && [ "$(pk policy) $(pk wake_wide) $(pk factor)" = "smartwake off 8" ] && hooked select_task_rq_fair'
check "smartwake set with a refused value: exit 2, nothing changed" \
	eval '! smartwake set wake_wide=mainline policy=fast 2>/dev/null && [ "$(pk wake_wide)" = off ]'
check "smartwake set scope=$CG/nonexistent: refused (exit 1), policy restored" \
	eval '! smartwake set policy=shadow scope=$CG/nonexistent 2>/dev/null && [ "$(pk policy)" = smartwake ] && [ "$(pk scope)" = all ]'
wakeload pipe -p 1 -t 1 >/dev/null
out=$(smartwake stats 2>&1)
rc=$?
check "smartwake stats: exit 0, counters" \
	eval '[ $rc -eq 0 ] && echo "$out" | grep -qE "^wakeups +[1-9]"'
check "smartwake reset: exit 0, counters zeroed" \
	eval 'smartwake reset && [ "$(stat wakeups)" -lt 100 ]'
out=$(smartwake ab --a 'wake_wide=mainline' --b 'wake_wide=off' --runs 1 -- wakeload pipe -p 1 -t 1 2>&1)
rc=$?
echo "$out" | sed 's/^/  | /'
check "smartwake ab (1 run per side): exit 0, both sides and the ratio" \
	eval '[ $rc -eq 0 ] && echo "$out" | grep -qE "^A +[0-9]" && echo "$out" | grep -qE "^B +[0-9.]+ .* [0-9]+\.[0-9]+"'
check "... wake_wide back to off afterwards" eq "$(pk wake_wide)" off
check "smartwake set policy=stock wake_wide=mainline factor=llc: nothing hooked" \
	eval 'smartwake set policy=stock wake_wide=mainline factor=llc >/dev/null && nothing_hooked'

# --- policy=bpf under lockdown: bpf(2) and the module's BTF stay open ------
# (the example programs: built for the guest's architecture, guest-run.sh)
tramp_pad
if grep -q '^struct_ops smartwake_ops registered' $SW_DBG/bpf; then
	out=$(smartwake bpf load prev 2>&1)
	rc=$?
	echo "$out" | sed 's/^/  /'
	check "smartwake bpf load prev under lockdown: exit 0, attached" \
		eval '[ $rc -eq 0 ] && grep -q "^struct_ops smartwake_ops registered attached" $SW_DBG/bpf'
	check "... its trampoline begins with $TRAMP_WHAT (the bpf file reads)" \
		grep -q "^select_cpu trampoline begins $TRAMP_BYTES" $SW_DBG/bpf
	check "policy=bpf through the parameter" eval 'echo bpf >$P/policy && [ "$(pk policy)" = bpf ]'
	echo 1 >$P/reset
	wakeload pipe -p 2 -t 1 >/dev/null
	# enabled=0 stops the decisions (policy stays bpf): one set of counters
	echo 0 >$P/enabled
	snap
	echo 1 >$P/enabled
	echo "  bpf_calls $(sv bpf_calls) bpf_answers $(sv bpf_answers) bpf_refused $(sv bpf_refused)"
	check "... the program decided (bpf_calls > 1000, all answered)" \
		eval 'gt "$(sv bpf_calls)" 1000 && [ "$(sv bpf_answers)" = "$(sv bpf_calls)" ]'
	check "... policy still bpf" eq "$(pk policy)" bpf
	check "smartwake bpf status under lockdown: attached" eval 'smartwake bpf status | grep -q "^attached"'
	check "smartwake bpf unload: detached, policy back to stock (parameter)" \
		eval 'smartwake bpf unload >/dev/null 2>&1 && [ "$(pk policy)" = stock ] && ! hooked select_task_rq_fair'
	# a libbpf object with maps, .rodata tunables, CO-RE reads (probe
	# reads: integrity closes only bpf_probe_write_user) and bpf_printk
	# (tracefs stays open under integrity)
	out=$(smartwake bpf load --set need_idle=false --set verbose=1 /lib/smartwake/bpf/sticky.bpf.o 2>&1)
	rc=$?
	echo "$out" | sed 's/^/  /'
	check "smartwake bpf load sticky.bpf.o under lockdown: exit 0, attached by its link" \
		eval '[ $rc -eq 0 ] && [ -e /sys/fs/bpf/smartwake/link ] && grep -q "^struct_ops smartwake_ops registered attached" $SW_DBG/bpf'
	pstat() { smartwake bpf stats 2>/dev/null | awk -v n="$1" '$1 == n { print $2; exit }'; }
	echo 1 >$P/reset
	c0=$(pstat calls)
	echo bpf >$P/policy
	wakeload pipe -p 2 -t 1 >/dev/null
	echo 0 >$P/enabled
	snap
	c1=$(pstat calls)	# before enabled=1: policy is still bpf
	echo 1 >$P/enabled
	echo "  sticky: bpf_calls $(sv bpf_calls) its calls $((c1 - c0)) core_mismatch $(pstat core_mismatch)"
	check "... it decided (bpf_calls > 1000), its statistics map agrees (calls = bpf_calls)" \
		eval 'gt "$(sv bpf_calls)" 1000 && [ "$((c1 - c0))" = "$(sv bpf_calls)" ]'
	check "... its CO-RE reads work under lockdown (core_checked > 0, core_mismatch 0)" \
		eval 'gt "$(pstat core_checked)" 0 && [ "$(pstat core_mismatch)" = 0 ]'
	check "... smartwake bpf log reads its bpf_printk() line under lockdown" \
		eval 'smartwake bpf log --count 1 --timeout 10 2>&1 | grep -q "bpf_trace_printk: sticky: pid"'
	check "smartwake bpf unload of the object: detached, pins removed, policy stock" \
		eval 'smartwake bpf unload >/dev/null 2>&1 && [ ! -e /sys/fs/bpf/smartwake ] && [ "$(pk policy)" = stock ]'
else
	skip "policy=bpf: no struct_ops from modules on this kernel"
fi

# --- unload and reload under lockdown --------------------------------------
check "rmmod under lockdown" rmmod smartwake
check "nothing hooked after rmmod" nothing_hooked
if sw_insmod 2>/dev/null; then
	ok "insmod under lockdown: the module loads (signed?)"
	check "... the kernel log names the parameters" \
		eval 'dmesg | grep -q "debugfs is locked down: knobs are read and written in /sys/module/smartwake/parameters/"'
	rmmod smartwake
else
	# an unsigned module is refused (LOCKDOWN_MODULE_SIGNATURE)
	check "insmod under lockdown: the unsigned module is refused, nothing loaded" no_module
fi
rmdir $CG/lockdown-test
check "kernel log clean" dmesg_clean
summary
