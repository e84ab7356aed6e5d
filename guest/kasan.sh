# KASAN on the debug kernel: it is active, smartwake runs its wakeup path
# under a load without a report, and a deliberate out-of-bounds read (the
# test-only sw_kasan_oob.ko) is reported and makes the tests' kernel-log
# check fail, so a report from smartwake could not pass unseen. The debug
# guests boot with kasan_multi_shot: a second read is reported too.
. ./lib.sh
need_testing_build
OOB=$SW_TKO/sw_kasan_oob.ko

check "KASAN is active" eval 'dmesg | grep -q "KernelAddressSanitizer initialized"'
check "insmod" sw_insmod
set_knob policy smartwake
set_knob sis_filter 1
set_knob ttwu_queue lock
set_knob numa_retry corrected
wakeload disp -d 1 -w 4 --switch -t 3 >/dev/null 2>&1
wakeload msg -g 1 -s 2 -r 2 -t 2 >/dev/null 2>&1
check "the module's wakeup path ran" gt "$(stat wakeups)" 0
check "rmmod" rmmod smartwake
check "no KASAN report while smartwake ran" \
	eval '! dmesg | grep -q "BUG: KASAN"'
check "kernel log clean before the deliberate read" dmesg_clean
if [ -f $OOB ]; then
	insmod $OOB 2>/dev/null
	check "the deliberate out-of-bounds read is reported" \
		eval 'dmesg | grep -q "BUG: KASAN: slab-out-of-bounds"'
	check "the report names the test module" \
		eval 'dmesg | grep -A30 "BUG: KASAN" | grep -q sw_kasan_oob'
	check "the kernel-log check fails on it" eval '! dmesg_clean >/dev/null'
	# busybox insmod retries a failed finit_module() with init_module(),
	# so a load may read twice: count reports before and after another
	n1=$(dmesg | grep -c 'BUG: KASAN: slab-out-of-bounds')
	insmod $OOB 2>/dev/null
	n2=$(dmesg | grep -c 'BUG: KASAN: slab-out-of-bounds')
	echo "  KASAN reports: $n1 after the first load, $n2 after the second"
	check "kasan_multi_shot: the next load's read is reported too" \
		eval '[ "$n2" -gt "$n1" ]'
else
	not_ok "sw_kasan_oob.ko missing from the guest"
fi
summary
