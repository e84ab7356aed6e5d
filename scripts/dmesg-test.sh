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

# rcustall TICKS FRAME: an RCU stall report as 6.12 prints it (the
# lines of shadow-llc64, 2026-12-06, with the stack dumps it asks for),
# TICKS the third stalled CPU's "ticks this GP", FRAME in an NMI
# backtrace
rcustall() {
	cat <<EOF
[  120.275378] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
[  120.275387] rcu: 	4-...0: (1 ticks this GP) idle=67dc/1/0x4000000000000000 softirq=386/386 fqs=92
[  120.275404] rcu: 	5-...0: (1 GPs behind) idle=6644/1/0x4000000000000000 softirq=389/389 fqs=92
[  120.275456] rcu: 	8-....: ($1 ticks this GP) idle=62e4/1/0x4000000000000000 softirq=350/350 fqs=92
[  120.275476] rcu: 	(detected by 1, t=5254 jiffies, g=-11, q=214 ncpus=64)
[  120.275500] Sending NMI from CPU 1 to CPUs 4:
[  120.586800] NMI backtrace for cpu 4
[  120.586810] CPU: 4 UID: 0 PID: 3402 Comm: wakeload Tainted: G           OE      6.12.117+deb12-cloud-amd64 #1  Debian 6.12.117-1~deb12u1
[  120.586820] Tainted: [O]=OOT_MODULE, [E]=UNSIGNED_MODULE
[  120.586830] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[  120.586840] RIP: 0010:_raw_spin_unlock_irqrestore+0x1d/0x40
[  120.586850] Code: 90 90 90 90 90 90 90 f3 0f 1e fa 0f 1f 44 00 00 c6 07 00 0f 1f 00 f7 c6 00 02 00 00 74 01 fb
[  120.586860] RSP: 0018:ffffb2c0c0a7bd20 EFLAGS: 00000246
[  120.586870] RAX: 0000000000000001 RBX: ffff9a3b3ec35e80 RCX: 0000000000000000
[  120.586880] FS:  00007f1c2a7fc6c0(0000) GS:ffff9a3b3ec00000(0000) knlGS:0000000000000000
[  120.586890] CS:  0010 DS: 0000 ES: 0000 CR0: 0000000080050033
[  120.586872] Call Trace:
[  120.586900]  <NMI>
[  120.586910]  ? nmi_cpu_backtrace+0xd9/0x140
[  120.586920]  </NMI>
[  120.586930]  <TASK>
[  120.586940]  try_to_wake_up+0x2b5/0x6e0
[  120.586950]  $2
[  120.586960]  pipe_write+0x3b1/0x690
[  120.586970]  ksys_write+0xd2/0xf0
[  120.586980]  do_syscall_64+0x82/0x190
[  120.586990]  </TASK>
[  124.249872] rcu: rcu_preempt kthread starved for 935 jiffies! g-11 f0x0 RCU_GP_DOING_FQS(6) ->state=0x0 ->cpu=51
[  124.249985] rcu: 	Unless rcu_preempt kthread gets sufficient CPU time, OOM is now expected behavior.
[  124.249995] rcu: RCU grace-period kthread stack dump:
[  124.250000] task:rcu_preempt     state:R  running task     stack:0     pid:16    tgid:16    ppid:2      flags:0x00004000
[  124.250015] Call Trace:
[  124.250020]  <TASK>
[  124.250030]  __schedule+0x3f5/0xb40
[  124.250040]  rcu_gp_fqs_loop+0x10b/0x4c0
[  124.250050]  </TASK>
[  124.250218] rcu: Stack dump where RCU GP kthread last ran:
[  124.250220] NMI backtrace for cpu 51 skipped: idling at pv_native_safe_halt+0xf/0x20
EOF
}
# the self-detected form: the CPU's own tick found it stalled
rcuself() {
	cat <<EOF
[  150.683368] rcu: INFO: rcu_preempt self-detected stall on CPU
[  150.683377] rcu: 	8-....: (7 ticks this GP) idle=6394/1/0x4000000000000000 softirq=360/360 fqs=202
[  150.683397] rcu: 	(t=5260 jiffies g=13 q=97 ncpus=64)
[  150.683400] CPU: 8 UID: 0 PID: 0 Comm: swapper/8 Tainted: G           OE      6.12.117+deb12-cloud-amd64 #1
[  150.683410] RIP: 0010:pv_native_safe_halt+0xf/0x20
[  150.683420] Call Trace:
[  150.683430]  <IRQ>
[  150.683440]  ? rcu_dump_cpu_stacks+0xa1/0x120
[  150.683450]  </IRQ>
[  150.683460]  <TASK>
[  150.683470]  default_idle+0x9/0x20
[  150.683480]  do_idle+0x1ee/0x230
[  150.683490]  </TASK>
EOF
}
kframe='select_task_rq_fair+0x44/0x300'
{ printf '%s\n' "$boot"; rcustall 10 "$kframe"; echo '[  130.0] smartwake: policy shadow'; } >"$t/rcu-starved"
{ printf '%s\n' "$boot"; rcustall 10 'sw_select_task_rq+0x44/0x300 [smartwake]'; } >"$t/rcu-own"
{ printf '%s\n' "$boot"; rcustall 5250 "$kframe"; } >"$t/rcu-ticking"
{ printf '%s\n' "$boot"; rcustall 10 "$kframe" | grep -v 'detected by'; } >"$t/rcu-no-t"
{ printf '%s\n' "$boot"; rcustall 10 "$kframe"; echo '[  130.0] smartwake: policy shadow'; echo '[  131.0] Call Trace:'; } >"$t/rcu-then-trace"
{ printf '%s\n' "$boot"; rcustall 10 "$kframe" | sed '/ksys_write/i [  120.586965] WARNING: CPU: 4 PID: 3402 at kernel/sched/core.c:1 f+0x1/0x2'; } >"$t/rcu-warning"
{ printf '%s\n' "$boot"; rcuself; } >"$t/rcu-self"
{ printf '%s\n' "$boot"; rcuself | sed 's/default_idle+0x9\/0x20/sw_pull_run+0x10\/0x300 [smartwake_pull]/'; } >"$t/rcu-self-own"

# vacated TASK [FRAME]: the WARN of sched_cpu_dying as 6.12 printed it in
# stress-2s2l8c2t (no module loaded), TASK the second listed task (none:
# only the stopper), FRAME a frame of its stack
vacated() {
	cat <<EOF
[   46.040550] smpboot: CPU 30 is now offline
[   47.146740] ------------[ cut here ]------------
[   47.146747] Dying CPU not properly vacated!
[   47.146759] WARNING: CPU: 31 PID: 305 at kernel/sched/core.c:8365 sched_cpu_dying+0x93/0x230
[   47.146781] Modules linked in: [last unloaded: smartwake(OE)]
[   47.146795] CPU: 31 UID: 0 PID: 305 Comm: migration/31 Tainted: G           OE      6.12.117+deb12-cloud-amd64 #1  Debian 6.12.117-1~deb12u1
[   47.146833] Stopper: multi_cpu_stop+0x0/0x120 <- __stop_cpus.constprop.0+0x70/0xb0
[   47.146855] RIP: 0010:sched_cpu_dying+0x93/0x230
[   47.146995] Call Trace:
[   47.146996]  <TASK>
[   47.147003]  ? __pfx_sched_cpu_dying+0x10/0x10
[   47.147018]  cpuhp_invoke_callback+0xf3/0x470
[   47.147030]  ${2:-__cpuhp_invoke_callback_range+0x80/0xf0}
[   47.147082]  take_cpu_down+0x65/0x80
[   47.147098]  multi_cpu_stop+0x70/0x120
[   47.147143]  cpu_stopper_thread+0x97/0x140
[   47.147244]  </TASK>
[   47.147250] ---[ end trace 0000000000000000 ]---
[   47.147258] CPU31 enqueued tasks (2 total):
[   47.147272] 	pid: 305, name: migration/31
EOF
	[ -z "${1:-}" ] || printf '[   47.147273] \tpid: 812, name: %s\n' "$1"
	echo '[   47.176611] smpboot: CPU 31 is now offline'
}
{ printf '%s\n' "$boot"; vacated; } >"$t/vacated"
{ printf '%s\n' "$boot"; vacated wakeload; } >"$t/vacated-task"
{ printf '%s\n' "$boot"; vacated '' 'sw_select_task_rq+0x44/0x300 [smartwake]'; } >"$t/vacated-own"
{ printf '%s\n' "$boot"; vacated | grep -v 'enqueued tasks\|pid: 305'; } >"$t/vacated-nolist"
{ printf '%s\n' "$boot"; vacated | sed '/take_cpu_down/i [   47.147050] WARNING: CPU: 31 PID: 305 at kernel/sched/core.c:1 f+0x1/0x2'; } >"$t/vacated-warning"
{ printf '%s\n' "$boot"; vacated; echo '[   48.0] Call Trace:'; } >"$t/vacated-then-trace"
{ printf '%s\n' "$boot"; vacated | grep -v 'not properly vacated'; } >"$t/vacated-other"

# verdict AWK LOG [ARG]: guest/dmesg.sh under AWK (mawk, busybox) on LOG,
# dmesg_verdict given ARG; the output in $t/out
verdict() {
	if [ "$1" = busybox ]; then
		busybox sh -c 'awk() { busybox awk "$@"; }; . ./guest/dmesg.sh; dmesg_verdict "$1"' sh "${3:-}" <"$t/$2" >"$t/out"
	else
		sh -c '. ./guest/dmesg.sh; dmesg_verdict "$1"' sh "${3:-}" <"$t/$2" >"$t/out"
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
	check "$a: an RCU stall of starved vCPUs (no module frame, stalled CPUs took few ticks) passes, printed as one comment" \
		eval 'verdict $a rcu-starved && grep -qx "# emulation stall (RCU), no smartwake frame, at most 10 ticks in 5254 jiffies: .*detected stalls on CPUs/tasks:" "$t/out" && [ "$(wc -l <"$t/out")" -eq 1 ]'
	check "$a: an RCU stall with a [smartwake] frame fails, the whole report printed (header, CPUs, stacks, starved kthread)" \
		eval '! verdict $a rcu-own && grep -q "rcu: INFO: rcu_preempt detected stalls" "$t/out" && grep -q "detected by 1, t=5254" "$t/out" && grep -q "sw_select_task_rq.*\[smartwake\]" "$t/out" && grep -q "RIP: 0010:_raw_spin_unlock_irqrestore" "$t/out" && grep -q "kthread starved for 935" "$t/out" && grep -q "skipped: idling" "$t/out"'
	check "$a: an RCU stall whose CPU took a tick every jiffy (stuck in the kernel) fails, printed" \
		eval '! verdict $a rcu-ticking && grep -q "5250 ticks this GP" "$t/out"'
	check "$a: an RCU stall without its t=N jiffies line fails" eval '! verdict $a rcu-no-t'
	check "$a: a call trace after an RCU stall report of starved vCPUs fails" \
		eval '! verdict $a rcu-then-trace && grep -q "^# emulation stall (RCU)" "$t/out" && grep -qx "\[  131.0\] Call Trace:" "$t/out"'
	check "$a: a warning inside an RCU stall report fails" \
		eval '! verdict $a rcu-warning && grep -q "WARNING: CPU: 4 PID: 3402" "$t/out"'
	check "$a: a self-detected RCU stall of a starved vCPU (7 ticks) passes" \
		eval 'verdict $a rcu-self && grep -q "^# emulation stall (RCU).* 7 ticks in 5260 jiffies: .*self-detected stall" "$t/out"'
	check "$a: a self-detected RCU stall with a [smartwake_pull] frame fails" \
		eval '! verdict $a rcu-self-own && grep -q "sw_pull_run.*smartwake_pull" "$t/out"'
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
	check "$a: hotplug: the WARN Dying CPU not properly vacated listing only the stopper passes, printed as one comment" \
		eval 'verdict $a vacated hotplug && grep -qx "# kernel hotplug race, no task left behind: WARNING: CPU: 31 PID: 305 .*sched_cpu_dying.* (2 total, only migration/31 listed)" "$t/out" && [ "$(wc -l <"$t/out")" -eq 1 ]'
	check "$a: without hotplug that WARN fails" eval '! verdict $a vacated && grep -q "WARNING: CPU: 31" "$t/out"'
	check "$a: hotplug: that WARN listing another task (one left behind) fails, the report printed" \
		eval '! verdict $a vacated-task hotplug && grep -q "name: wakeload" "$t/out" && grep -q "not properly vacated" "$t/out"'
	check "$a: hotplug: that WARN with a [smartwake] frame fails" eval '! verdict $a vacated-own hotplug'
	check "$a: hotplug: that WARN without its task list fails" eval '! verdict $a vacated-nolist hotplug'
	check "$a: hotplug: another warning inside that report fails" \
		eval '! verdict $a vacated-warning hotplug && grep -q "core.c:1 f+0x1" "$t/out"'
	check "$a: hotplug: a call trace after that report fails" eval '! verdict $a vacated-then-trace hotplug'
	check "$a: hotplug: a warning in sched_cpu_dying with another message fails" eval '! verdict $a vacated-other hotplug'
done
summary
