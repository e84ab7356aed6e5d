# Safety on real machines: IBT-safe calls into the kernel, proven with the
# bytes at each call target (the stock kernel seals the ENDBR64 of every
# function whose address it never takes, also under TCG, so the bytes say
# what an IBT CPU would do); a failed load leaves nothing behind; a hook
# whose removal fails keeps its filter and the module.
# Parts B-D use the testing build's fault injection.
. ./lib.sh
need_testing_build
TR=/sys/kernel/tracing
ENDBR=0xfa1e0ff3
n_peek=0

# peek ADDR: the four bytes at kernel address ADDR as 0x%08x, read by a
# kprobe event on kernel_clone (a fork triggers it), not by the module.
peek() {
	n_peek=$((n_peek + 1))
	_ev=b$n_peek
	echo "p:swpeek/$_ev kernel_clone v=@$1:x32" >>$TR/kprobe_events || return 1
	echo 1 >$TR/events/swpeek/$_ev/enable
	/bin/true
	echo 0 >$TR/events/swpeek/$_ev/enable
	sed -n "s/.* $_ev: .* v=\(0x[0-9a-f]*\).*/\1/p" $TR/trace | head -n 1
	echo "-:swpeek/$_ev" >>$TR/kprobe_events
}
# ksym NAME: NAME's address from /proc/kallsyms (text symbols)
ksym() { awk -v n="$1" '$3 == n && ($2 == "T" || $2 == "t") { print "0x" $1; exit }' /proc/kallsyms; }
nothing_of_smartwake() {
	! grep -q '^smartwake ' /proc/modules &&
		! grep -qE 'smartwake|ttwu_queue_wakelist|task_numa_migrate|select_task_rq_fair' $TR/enabled_functions &&
		! grep -qE 'kallsyms_lookup_name|ttwu_queue_wakelist' /sys/kernel/debug/kprobes/list &&
		[ ! -e $SW_DBG ]
}
echo >$TR/trace

# ---- A: every call through a pointer lands on ENDBR64 (shipped build) ----
check "insmod (shipped build)" sw_insmod
# the guard ran at load; the call itself needs the hook
set_knob policy smartwake
cat $SW_DBG/calls | sed 's/^/  calls: /'
ncalls=0
while read -r name addr b0 b1 b2 b3 verdict; do
	ncalls=$((ncalls + 1))
	ka=$(ksym "$name")
	bytes=$(peek "$addr")
	echo "  $name at $addr (kallsyms $ka): $bytes by kprobe, $b0 $b1 $b2 $b3 by the module: $verdict"
	check "$name: the module calls the symbol's start" eq "$addr" "$ka"
	check "$name: ENDBR64 at the call target (kprobe oracle)" eq "$bytes" $ENDBR
	check "$name: the module read the same bytes" eq "$b0 $b1 $b2 $b3 $verdict" "f3 0f 1e fa endbr64"
done <$SW_DBG/calls
check "at least one indirect call target listed" gt "$ncalls" 0
check "select_task_rq_fair is a listed target" grep -q '^select_task_rq_fair ' $SW_DBG/calls
check "kallsyms_lookup_name is not called through a pointer" eval '! grep -q kallsyms_lookup_name $SW_DBG/calls'
# The oracle tells the two apart: kallsyms_lookup_name's ENDBR is sealed.
kl=$(peek "$(ksym kallsyms_lookup_name)")
echo "  kallsyms_lookup_name begins $kl"
# Debian's stock kernels (each flavour: *-amd64) seal it (nothing takes
# its address); a kernel whose configuration takes its address (the debug
# kernel) does not.
case $(uname -r) in
*-amd64)
	check "oracle: kallsyms_lookup_name is sealed on the stock kernel (not ENDBR64)" \
		eval '[ -n "$kl" ] && [ "$kl" != $ENDBR ]' ;;
*)
	if [ "$kl" = $ENDBR ]; then
		skip "oracle control: kallsyms_lookup_name is not sealed on this kernel"
	else
		check "oracle: kallsyms_lookup_name is sealed (not ENDBR64)" eval '[ -n "$kl" ]'
	fi ;;
esac
check "no probe on kallsyms_lookup_name left after the load" \
	eval '! grep -q kallsyms_lookup_name /sys/kernel/debug/kprobes/list'
check "rmmod" rmmod smartwake

# ---- B: negative control: the pre-IBT lookup is refused by the guard ----
out=$(sw_insmod_test test_old_lookup=1 2>&1)
rc=$?
echo "  insmod test_old_lookup=1: rc=$rc $out"
dmesg | grep 'refusing to call' | sed 's/^/  log: /'
check "old lookup (kprobe address of kallsyms_lookup_name) fails the load" eval '[ $rc -ne 0 ]'
check "the guard names kallsyms_lookup_name" \
	eval 'dmesg | grep -q "refusing to call kallsyms_lookup_name through a pointer"'
check "refused: nothing of smartwake left" nothing_of_smartwake
# test_old_lookup=2 offers the function's start: the byte check decides
dmesg -c >/dev/null
out=$(sw_insmod_test test_old_lookup=2 2>&1)
rc=$?
echo "  insmod test_old_lookup=2: rc=$rc $out"
dmesg | grep 'refusing to call' | sed 's/^/  log: /'
if [ "$kl" != $ENDBR ]; then
	check "its sealed start (begins $kl) fails the load" eval '[ $rc -ne 0 ]'
	check "the guard says it is not ENDBR64" \
		eval 'dmesg | grep -q "refusing to call kallsyms_lookup_name through a pointer: it begins .*, not ENDBR64"'
	check "refused: nothing of smartwake left (2)" nothing_of_smartwake
else
	check "its start begins with ENDBR64 (not sealed here): the load succeeds" eval '[ $rc -eq 0 ]'
	check "rmmod (test_old_lookup=2)" rmmod smartwake
fi

# ---- C: a knob write during the load, then a failed load -----------------
check "conflict module claims select_task_rq_fair" insmod $SW_TKO/sw_conflict.ko
sw_insmod_test test_init_delay_ms=4000 test_hook_at_load=1 >/tmp/insmod.out 2>&1 &
ld=$!
i=0
while [ ! -e $SW_DBG/ttwu_queue ] && [ $i -lt 100 ]; do usleep 50000; i=$((i + 1)); done
check "debugfs appears while the load sleeps" eval '[ -e $SW_DBG/ttwu_queue ]'
e1=$( (echo lock >$SW_DBG/ttwu_queue) 2>&1) && r1=0 || r1=1
e2=$( (echo corrected >$SW_DBG/numa_retry) 2>&1) && r2=0 || r2=1
echo "  racing writes: ttwu_queue=lock -> $e1; numa_retry=corrected -> $e2"
check "ttwu_queue=lock refused while loading" eq "$r1" 1
check "numa_retry=corrected refused while loading" eq "$r2" 1
check "the refusal says try again (EAGAIN)" eval 'echo "$e1" | grep -qi "temporarily unavailable"'
wait $ld && rl=0 || rl=1
echo "  insmod: $(cat /tmp/insmod.out)"
check "the load then fails (hook conflict)" eq "$rl" 1
check "the log names the conflict" eval 'dmesg | grep -q "select_task_rq_fair is already modified"'
rmmod sw_conflict
check "failed load: nothing of smartwake left (ftrace, kprobes, debugfs)" nothing_of_smartwake
check "kernel log clean after A-C" dmesg_clean

# ---- D: a hook whose removal fails stays whole, and so does the module ---
dmesg -c >/dev/null
check "insmod test_unregister_fail=1" sw_insmod_test test_unregister_fail=1
# ttwu_count's hooks also show ttwu_queue_wakelist in enabled_functions
check "ttwu_count=0 removes the counting probe" set_knob ttwu_count 0
check "ttwu_queue_wakelist not traced" eval '! grep -q "^ttwu_queue_wakelist" $TR/enabled_functions'
check "ttwu_queue=lock installs its redirect" set_knob ttwu_queue lock
check "redirect live" grep -q '^ttwu_queue_wakelist' $TR/enabled_functions
check "ttwu_queue=stock fails when the removal fails" eval '! set_knob ttwu_queue stock'
check "the knob still reads lock" eq "$(knob ttwu_queue)" lock
check "hooks says unregister-failed" grep -q '^ttwu_queue_wakelist redirect on needs:ttwu_queue=lock unregister-failed' $SW_DBG/hooks
nf=$(wc -l <$TR/enabled_functions)
sed 's/^/  enabled_functions: /' $TR/enabled_functions
check "its filter is kept (not every function traced)" eval '[ $nf -lt 10 ] && grep -q "^ttwu_queue_wakelist" $TR/enabled_functions'
check "rmmod refused while the hook is live" eval '! rmmod smartwake 2>/dev/null'
check "the module holds a reference on itself" grep -q '^smartwake [0-9]* 1 ' /proc/modules
check "one WARNING naming the hook" eval '[ "$(dmesg | grep -c "WARNING:")" = 1 ] && dmesg | grep -q "unregistering hook on ttwu_queue_wakelist failed"'
check "a second removal succeeds" set_knob ttwu_queue stock
check "redirect gone" eval '! grep -q "^ttwu_queue_wakelist" $TR/enabled_functions'
check "rmmod" rmmod smartwake
check "nothing of smartwake left" nothing_of_smartwake
dmesg -c >/dev/null

# ---- E: a direct call through a livepatch relocation (issue 36, (a)) -----
# module/testmods/sw_klp_probe.ko calls kallsyms_lookup_name, unexported
# and sealed (part A's oracle), with no pointer: scripts/klp-relocs.py made
# the call a .klp.rela.vmlinux relocation that the loader resolves. Last,
# because its load taints the kernel K (livepatch) for the rest of the boot.
if [ -f $SW_TKO/sw_klp_probe.ko ]; then
	kl=$(peek "$(ksym kallsyms_lookup_name)")
	t0=$(cat /proc/sys/kernel/tainted)
	if grep -q '^CONFIG_LIVEPATCH=y' /boot/config-"$(uname -r)" 2>/dev/null ||
		[ -d /sys/kernel/livepatch ]; then
		out=$(insmod $SW_TKO/sw_klp_probe.ko 2>&1)
		rc=$?
		dmesg | grep 'sw_klp_probe' | sed 's/^/  /'
		check "livepatch relocation: insmod sw_klp_probe.ko ($out)" eq "$rc" 0
		check "livepatch relocation: kallsyms_lookup_name(\"jiffies\") == &jiffies by a direct call" \
			eval 'dmesg | grep -q "sw_klp_probe: kallsyms_lookup_name(\"jiffies\") = &jiffies by a direct call"'
		case $(uname -r) in
		*-amd64) check "livepatch relocation: the call target is sealed ($kl, not ENDBR64)" \
			eval '[ -n "$kl" ] && [ "$kl" != $ENDBR ]' ;;
		*) echo "  the call target begins $kl (sealed only on Debian's stock kernels)" ;;
		esac
		check "livepatch relocation: the kernel is tainted K (was $t0, now $(cat /proc/sys/kernel/tainted))" \
			eval '[ $(($(cat /proc/sys/kernel/tainted) & 32768)) -ne 0 ]'
		check "livepatch relocation: rmmod sw_klp_probe" rmmod sw_klp_probe
	else
		out=$(insmod $SW_TKO/sw_klp_probe.ko 2>&1)
		rc=$?
		check "no CONFIG_LIVEPATCH: sw_klp_probe.ko refused ($out)" eval '[ $rc -ne 0 ]'
	fi
fi
summary
