#!/usr/bin/env bash
# make check step "dmesg": guest/dmesg.sh's verdict on the kernel log (the
# "dmesg clean" check of every guest script) on synthetic logs, with the
# host's awk (mawk, as on the Debian image) and busybox awk (the busybox
# guests). A soft lockup with no smartwake frame is an emulation stall
# (printed, not failed); everything else that was unclean still fails.
#
# Usage: scripts/dmesg-test.sh
. "$(dirname "$0")/common.sh"
. "$SW_TOP/scripts/testlib.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
cd "$SW_TOP" || exit 1

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# lockup FRAME: a soft lockup report as 6.12 prints it, FRAME among the
# task's frames
lockup() {
	cat <<EOF
[   36.799590] watchdog: BUG: soft lockup - CPU#0 stuck for 23s! [(udev-worker):172]
[   36.800100] Modules linked in: smartwake(OE) virtio_net(+) net_failover failover
[   36.800500] CPU: 0 UID: 0 PID: 172 Comm: (udev-worker) Not tainted 6.12.117+deb12-cloud-amd64 #1  Debian 6.12.117-1~deb12u1
[   36.800900] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[   36.801000] RIP: 0010:smp_call_function_many_cond+0x12e/0x4f0
[   36.801304] Call Trace:
[   36.801400]  <IRQ>
[   36.801500]  ? watchdog_timer_fn+0x1e0/0x260
[   36.801600]  </IRQ>
[   36.801700]  <TASK>
[   36.801750]  $1
[   36.801800]  on_each_cpu_cond_mask+0x24/0x40
[   36.801900]  </TASK>
EOF
}
boot='[    0.000000] Linux version 6.12.117+deb12-cloud-amd64
[    1.200000] smartwake: loaded'
printf '%s\n' "$boot" >"$t/clean"
{ printf '%s\n' "$boot"; lockup 'load_module+0x1a/0x40'; echo '[   40.0] after'; } >"$t/stall"
{ printf '%s\n' "$boot"; lockup 'sw_select_task_rq+0x44/0x300 [smartwake]'; } >"$t/own"
lockup 'load_module+0x1a/0x40' | head -n 12 >"$t/cut"
{ lockup 'load_module+0x1a/0x40'; lockup 'sw_wake_affine+0x10/0x80 [smartwake]'; } >"$t/second"
lockup 'load_module+0x1a/0x40' |
	sed '8i [   36.801550] WARNING: CPU: 0 PID: 9 at kernel/sched/fair.c:600 place_entity+0x1/0x2' >"$t/inside"
{ printf '%s\n' "$boot"; echo '[    2.0] WARNING: CPU: 1 PID: 1 at kernel/x.c:1 f+0x1/0x2'; } >"$t/warning"
{ printf '%s\n' "$boot"; echo '[    2.0] Call Trace:'; echo '[    2.0]  <TASK>'; } >"$t/trace"
{ printf '%s\n' "$boot"; echo '[    2.0] BUG: kernel NULL pointer dereference, address: 0000000000000008'; } >"$t/bug"
echo 'kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)' >"$t/leak"
# kcsan TITLE FRAME [FRAME2 [SECOND]]: a KCSAN report as 6.12 prints it,
# FRAME and FRAME2 the first access's first frames, SECOND the second
# access's first (an interrupt's)
kcsan() {
	cat <<EOF
[   20.100000] ==================================================================
[   20.100100] BUG: KCSAN: data-race in $1
[   20.100200] 
[   20.100300] write (marked) to 0xffff888003a4c0e8 of 8 bytes by task 0 on cpu 1:
[   20.100400]  $2
[   20.100450]  ${3:-try_to_wake_up+0x3a1/0x6e0}
[   20.100500]  sw_hook_undo+0x31/0x120 [smartwake]
[   20.100600] 
[   20.100700] read to 0xffff888003a4c0e8 of 8 bytes by interrupt on cpu 0:
[   20.100800]  ${4:-update_load_avg+0x120/0x9a0}
[   20.100850]  __sysvec_apic_timer_interrupt+0x5e/0x1a0
[   20.100860]  asm_sysvec_apic_timer_interrupt+0x1a/0x20
[   20.100870]  sw_hook_undo+0x55/0x120 [smartwake]
[   20.100880]  sw_hook_put+0x80/0xc0 [smartwake]
[   20.100900] 
[   20.101000] value changed: 0x0000000000000001 -> 0x0000000000000002
[   20.101100]
[   20.101200] Reported by Kernel Concurrency Sanitizer on:
[   20.101300] CPU: 0 UID: 0 PID: 57 Comm: wakeload Not tainted 6.12.117 #1
[   20.101400] ==================================================================
EOF
}
{ printf '%s\n' "$boot"; kcsan 'update_load_avg / enqueue_task_fair' 'enqueue_task_fair+0x55/0x300'; echo '[   21.0] after'; } >"$t/kcsan-kernel"
{ printf '%s\n' "$boot"; kcsan 'sw_count_wakeup [smartwake] / update_load_avg' 'sw_count_wakeup+0x12/0x40 [smartwake]'; } >"$t/kcsan-own"
{ printf '%s\n' "$boot"; kcsan 'select_task_rq_fair / update_load_avg' 'sw_select_task_rq+0x44/0x300 [smartwake]'; } >"$t/kcsan-frame"
{ kcsan 'update_load_avg / enqueue_task_fair' 'enqueue_task_fair+0x55/0x300'; echo '[   22.0] BUG: kernel NULL pointer dereference, address: 0000000000000008'; } >"$t/kcsan-then-bug"
kcsan 'update_load_avg / enqueue_task_fair' 'enqueue_task_fair+0x55/0x300' | head -n 8 >"$t/kcsan-cut"
{ printf '%s\n' "$boot"; kcsan 'update_load_avg / sw_pull_run [smartwake]' 'enqueue_task_fair+0x55/0x300' '' 'sw_pull_run+0x10/0x300 [smartwake]'; } >"$t/kcsan-second"
{ printf '%s\n' "$boot"; kcsan '_find_next_bit / sw_overload_update' '_find_next_bit+0x20/0x90' 'sw_pull_source+0x30/0x60 [smartwake]'; } >"$t/kcsan-helper"
{ printf '%s\n' "$boot"; kcsan '__bitmap_weight_and / enqueue_task_fair' '__bitmap_weight_and+0x20/0x90' 'select_idle_sibling+0x30/0x60'; } >"$t/kcsan-helper-kernel"
{ printf '%s\n' "$boot"; kcsan 'update_load_avg / enqueue_task_fair' 'enqueue_task_fair+0x55/0x300' | sed 's/ bytes by .*/ bytes, format unknown/'; } >"$t/kcsan-unparsed"

# verdict AWK LOG: guest/dmesg.sh under AWK (mawk, busybox) on LOG; the
# output in $t/out
verdict() {
	if [ "$1" = busybox ]; then
		busybox sh -c 'awk() { busybox awk "$@"; }; . ./guest/dmesg.sh; dmesg_verdict' <"$t/$2" >"$t/out"
	else
		sh -c '. ./guest/dmesg.sh; dmesg_verdict' <"$t/$2" >"$t/out"
	fi
}
for a in mawk busybox; do
	if [ $a = mawk ] && [ "$(readlink -f "$(command -v awk)")" != /usr/bin/mawk ]; then
		skip "$a: the host's awk is not mawk"
		continue
	fi
	check "$a: a clean log is clean, nothing printed" eval 'verdict $a clean && [ ! -s "$t/out" ]'
	check "$a: a soft lockup with no smartwake frame passes, printed as a comment" \
		eval 'verdict $a stall && grep -qx "# emulation stall, no smartwake frame: .*stuck for 23s.*" "$t/out" && [ "$(wc -l <"$t/out")" -eq 1 ]'
	check "$a: a soft lockup with a [smartwake] frame fails, the report printed" \
		eval '! verdict $a own && grep -q "sw_select_task_rq.*\[smartwake\]" "$t/out" && grep -q "stuck for 23s" "$t/out"'
	check "$a: a lockup report cut before its </TASK> fails" eval '! verdict $a cut'
	check "$a: a second lockup with a smartwake frame fails after a first without" \
		eval '! verdict $a second && grep -q "sw_wake_affine" "$t/out"'
	check "$a: a warning inside a lockup report fails" \
		eval '! verdict $a inside && grep -q "WARNING: CPU: 0 PID: 9" "$t/out"'
	check "$a: a warning fails" eval '! verdict $a warning && grep -q WARNING "$t/out"'
	check "$a: a call trace outside a lockup fails" eval '! verdict $a trace'
	check "$a: a BUG fails" eval '! verdict $a bug'
	check "$a: a kmemleak report fails" eval '! verdict $a leak'
	check "$a: a KCSAN report whose accesses are in kernel code passes, printed as a comment (smartwake frames below an access's first: the interrupted task)" \
		eval 'verdict $a kcsan-kernel && grep -qx "# KCSAN report of kernel code only: data-race in update_load_avg / enqueue_task_fair" "$t/out" && [ "$(wc -l <"$t/out")" -eq 1 ]'
	check "$a: a KCSAN report whose first access is in smartwake fails, the report printed" \
		eval '! verdict $a kcsan-own && grep -q "value changed" "$t/out"'
	check "$a: a KCSAN report with a [smartwake] first frame fails" eval '! verdict $a kcsan-frame'
	check "$a: a KCSAN report whose second access (an interrupt's) is in smartwake fails" eval '! verdict $a kcsan-second'
	check "$a: a KCSAN report in a bitmap helper the module called fails" eval '! verdict $a kcsan-helper'
	check "$a: a KCSAN report in a bitmap helper the kernel called passes" \
		eval 'verdict $a kcsan-helper-kernel && grep -q "^# KCSAN report of kernel code only: " "$t/out"'
	check "$a: a KCSAN report whose access lines are not found fails if it names smartwake" eval '! verdict $a kcsan-unparsed'
	check "$a: a BUG after a KCSAN report of the kernel's own fails" eval '! verdict $a kcsan-then-bug'
	check "$a: a KCSAN report cut before its end fails" eval '! verdict $a kcsan-cut'
done
summary
