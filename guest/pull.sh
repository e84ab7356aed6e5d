# The sched-idle pull (knob sib_pull, issue 36; the 2022 series' patch
# 2/2) on a kernel with CONFIG_LIVEPATCH, smp4: the companion
# smartwake_pull.ko and its taint, the knob's refusals, pulls under load
# with the counters' sums, the trace event, CPU hotplug and cgroup moves
# while pulling, and an unload that leaves nothing.
# busybox sh; run with:
#   scripts/guest-run.sh --topo smp4 pull.sh [CYCLES] [WAIT]
#   scripts/guest-run.sh --kernel 7.2 --topo smp2 pull.sh refused
#   refused the kernels where the companion cannot make its calls (7.x):
#           its stub refuses to load, the knob is refused with the
#           reason, nothing is hooked
#   CYCLES  pin-and-release cycles (default 12)
#   WAIT    seconds after a release before the loops' CPUs are read
#           (default 0.2); 0: no check of the loops' CPUs (the debug
#           kernel, 3 to 7 times slower: 3 of 6 cycles spread at 0.6 s,
#           with 63 pulls; there it watches for lockdep and KASAN)
. ./lib.sh
if [ "${1:-}" = refused ]; then
	check "insmod" sw_insmod
	check "smartwake_pull.ko (its stub here) refuses to load" \
		eval '! insmod /lib/smartwake/smartwake_pull.ko 2>/dev/null'
	check "...saying why" eval 'dmesg | grep -q "smartwake_pull: not on this kernel: raw_spin_rq_unlock() is inline"'
	check "...and taints nothing (not a livepatch-format module)" \
		eval '[ $(($(cat /proc/sys/kernel/tainted) & 32768)) -eq 0 ]'
	check "sib_pull=1 refused" eval '! set_knob sib_pull 1'
	check "...the log says why" eval 'dmesg | grep -q "sib_pull: not on this kernel: raw_spin_rq_unlock() is inline"'
	check "...sib_pull still 0, nothing hooked" eval '[ "$(knob sib_pull)" = 0 ] && nothing_hooked'
	check "rmmod" rmmod smartwake
	check "kernel log clean" dmesg_clean
	summary
	exit
fi
N=${1:-12}
W=${2:-0.2}
PULL=/lib/smartwake/smartwake_pull.ko
NCPU=$(nproc)
LAST=$((NCPU - 1))
TR=/sys/kernel/tracing

check "smartwake_pull.ko in the guest (built where CONFIG_LIVEPATCH=y)" [ -f $PULL ]

t0=$(cat /proc/sys/kernel/tainted)
check "no taint K before a companion is loaded ($t0)" eval '[ $((t0 & 32768)) -eq 0 ]'

# A companion that fails its checks is refused and leaves nothing: the
# testing build makes its struct migration_arg layout (where the kernel
# has BTF) or its rq_lock entry's ENDBR64 (where it has IBT) fail. (The
# loader taints K as it loads a livepatch-format module, before its init
# runs: a refused companion taints too.)
need_testing_build
for f in 1 2; do
	what=$([ $f = 1 ] && echo "struct migration_arg layout" || echo "ENDBR64 of an entry")
	msg=$([ $f = 1 ] && echo "layout: migration_arg.dest_cpu at byte" ||
		echo "refusing to call smartwake_pull rq_lock through a pointer")
	check "testing build with test_pull_fault=$f: insmod" sw_insmod_test test_pull_fault=$f
	if [ $f = 1 ] && [ ! -r /sys/kernel/btf/vmlinux ]; then
		skip "test_pull_fault=1: no BTF on this kernel, no layout check"
		rmmod smartwake
		continue
	fi
	if [ $f = 2 ] && grep -q no-ibt-kernel $SW_DBG/calls; then
		skip "test_pull_fault=2: no IBT on this kernel, no ENDBR64 check"
		rmmod smartwake
		continue
	fi
	check "...the companion is refused ($what)" eval '! insmod $PULL 2>/dev/null'
	check "...the log says why" eval 'dmesg | grep -q "$msg"'
	check "...sib_pull=1 still refused, nothing hooked" \
		eval '! set_knob sib_pull 1 && nothing_hooked'
	check "...rmmod" rmmod smartwake
done

check "insmod" sw_insmod
check "sib_pull=1 refused without smartwake_pull.ko" eval '! set_knob sib_pull 1'
check "...the log names the companion and the fix" \
	eval 'dmesg | grep -q "smartwake_pull.ko is not loaded: modprobe smartwake_pull first"'
check "...sib_pull still 0" eq "$(knob sib_pull)" 0
check "...nothing hooked" nothing_hooked

check "insmod smartwake_pull.ko" insmod $PULL
t1=$(cat /proc/sys/kernel/tainted)
check "taint K (livepatch, bit 15) with the companion ($t0 -> $t1)" eval '[ $((t1 & 32768)) -ne 0 ]'
check "the companion registered (ENDBR64 and migration_arg layout checked)" \
	eval 'dmesg | grep -q "smartwake_pull registered"'
check "rmmod smartwake refused while the companion holds it" eval '! rmmod smartwake 2>/dev/null'
check "sib_pull=1 accepted" set_knob sib_pull 1
grep 'sib_pull=1' $SW_DBG/hooks | sed 's/^/  hooks: /'
check "hooks: sched_tick and the nr_running probe on for sib_pull=1" \
	eval '[ "$(grep -c " on .*sib_pull=1" $SW_DBG/hooks)" -ge 2 ]'
check "rmmod smartwake_pull refused while sib_pull=1" eval '! rmmod smartwake_pull 2>/dev/null'
# the counters and the trace from here on: off while they are reset
set_knob sib_pull 0

# ---- pulls under load ------------------------------------------------------
# SCHED_IDLE hogs on every CPU make each CPU sched-idle when it has no
# other work; three busy loops pinned to CPU 0 make it overloaded; when
# they are released, the pull should spread them at once.
wakeload pipe -p 1 --hog-idle "$NCPU" -t 600 >/dev/null 2>&1 &
WL=$!
loops=
for i in 1 2 3; do
	sh -c 'while :; do :; done' &
	loops="$loops $!"
done
sleep 1
cpu_of() { cut -d' ' -f39 /proc/$1/stat; }
# how many CPUs the three loops are on
loop_cpus() { for p in $loops; do cpu_of "$p"; done | sort -u | wc -l; }
echo 1 >$SW_DBG/reset
echo 1 >$TR/events/smartwake/smartwake_sib_pull/enable
echo >$TR/trace
set_knob sib_pull 1
spread=0 spread2=0
for c in $(seq 1 "$N"); do
	for p in $loops; do taskset -p -c 0 "$p" >/dev/null; done
	sleep 0.2
	for p in $loops; do taskset -p -c "0-$LAST" "$p" >/dev/null; done
	# (WAIT 0: the cycle still waits 0.2 s)
	if [ "$W" = 0 ]; then sleep 0.2; else sleep "$W"; fi
	cpus=$(loop_cpus)
	[ "$cpus" -eq 3 ] && spread=$((spread + 1))
	# the check: spread at all, read every 0.2 s for 2 s (a guest second
	# is a host second under TCG, and the other make check lane takes a
	# share: 10 of 12 cycles spread at 0.2 s in one full run, 12 alone)
	t=0
	while [ "$W" != 0 ] && [ "$cpus" -ne 3 ] && [ $t -lt 10 ]; do
		sleep 0.2
		t=$((t + 1))
		cpus=$(loop_cpus)
	done
	[ "$cpus" -eq 3 ] && spread2=$((spread2 + 1))
done
snap
P=$(sv sib_pulls)
echo "  $N cycles: sib_pulls $P, lost $(sv sib_pull_lost), kicks $(sv sib_pull_kicks), ticks $(sv sib_pull_ticks), attempts $(sv sib_pull_attempts), spread after $W s in $spread, within 2 s in $spread2"
# two pulls per cycle are needed to spread three loops from CPU 0
check "pulls: at least one per cycle ($P >= $N)" eval '[ "$P" -ge "$N" ]'
if [ "$W" = 0 ]; then
	skip "the loops' CPUs after their release: not checked here (WAIT 0)"
else
	# $spread (after $W s) is a figure, not a check
	check "the loops are on 3 CPUs within 2 s of their release in every cycle but one ($spread2 of $N; $spread after $W s)" \
		eval '[ "$spread2" -ge $((N - 1)) ]'
fi
check "vetoes: affinity while pinned ($(sv sib_pull_veto_affinity))" gt "$(sv sib_pull_veto_affinity)" 0
check "vetoes: SCHED_IDLE hogs passed over ($(sv sib_pull_veto_idle))" gt "$(sv sib_pull_veto_idle)" 0

# cgroup moves and CPU hotplug while pulling
CG=/sys/fs/cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
mkdir -p $CG/pa $CG/pb
hp_fail=0
for c in $(seq 1 "$N"); do
	for p in $loops; do taskset -p -c 0 "$p" >/dev/null; done
	for p in $loops; do echo "$p" >$CG/pa/cgroup.procs; done
	echo 0 >/sys/devices/system/cpu/cpu$LAST/online || hp_fail=$((hp_fail + 1))
	for p in $loops; do taskset -p -c "0-$LAST" "$p" >/dev/null 2>&1; done
	sleep 0.1
	for p in $loops; do echo "$p" >$CG/pb/cgroup.procs; done
	echo 1 >/sys/devices/system/cpu/cpu$LAST/online || hp_fail=$((hp_fail + 1))
	sleep 0.1
done
check "$N rounds of CPU $LAST offline/online and cgroup moves while pulling ($hp_fail failed writes)" eq "$hp_fail" 0
P2=$(stat sib_pulls)
check "pulls went on meanwhile ($P -> $P2)" gt "$P2" "$P"

# ---- off, then the sums and the trace --------------------------------------
check "sib_pull=0 under load" set_knob sib_pull 0
echo 0 >$TR/events/smartwake/smartwake_sib_pull/enable
snap
echo "$SW_SNAP" | grep '^sib_pull' | tr '\n' ' ' | sed 's/^/  /'; echo
A=$(sv sib_pull_attempts) Q=$(sv sib_pull_queued)
check "attempts = not_sched_idle + no_overloaded + none + queued ($A)" \
	eq "$A" $(($(sv sib_pull_not_sched_idle) + $(sv sib_pull_no_overloaded) + $(sv sib_pull_none) + Q))
check "queued = pulls + lost + queue_failed ($Q)" \
	eq "$Q" $(($(sv sib_pulls) + $(sv sib_pull_lost) + $(sv sib_pull_queue_failed)))
check "attempts <= kicks + ticks" \
	eval '[ "$A" -le $(($(sv sib_pull_kicks) + $(sv sib_pull_ticks))) ]'
# each such tick is an attempt unless a pull of that CPU is in flight
# (measured: 132 of 144 ticks, 797 attempts for 665 kicks)
TK=$(sv sib_pull_ticks)
check "ticks are attempts: attempts - kicks >= ticks / 2 ($A - $(sv sib_pull_kicks), $TK ticks >= 20)" \
	eval '[ "$TK" -ge 20 ] && [ $((A - $(sv sib_pull_kicks))) -ge $((TK / 2)) ]'
moved=$(grep -c 'smartwake_sib_pull:.* moved=1' $TR/trace)
evs=$(grep -c 'smartwake_sib_pull:' $TR/trace)
check "trace: one smartwake_sib_pull event per stopper run ($evs = pulls + lost)" \
	eq "$evs" $(($(sv sib_pulls) + $(sv sib_pull_lost)))
check "trace: moved=1 events = sib_pulls ($moved)" eq "$moved" "$(sv sib_pulls)"
# the pulled tasks still alive: none SCHED_IDLE (policy, field 41 of stat: 5)
grep 'smartwake_sib_pull:.* moved=1' $TR/trace | sed 's/.* pid=\([0-9]*\) src=\([0-9]*\) dst=\([0-9]*\).*/\1 \2 \3/' |
	sort -u >/tmp/pulled
idle=0 same=0 alive=0
while read -r pid src dst; do
	[ "$src" = "$dst" ] && same=$((same + 1))
	[ -r /proc/$pid/stat ] || continue
	alive=$((alive + 1))
	[ "$(cut -d' ' -f41 /proc/$pid/stat)" = 5 ] && idle=$((idle + 1))
done </tmp/pulled
echo "  pulled: $(cut -d' ' -f1 /tmp/pulled | sort -u | wc -l) tasks; $alive of the (task, src, dst) are of live tasks"
check "trace: src != dst in every pull ($same)" eq "$same" 0
check "trace: no SCHED_IDLE task among the pulled ($idle of $alive alive)" \
	eval '[ "$alive" -gt 0 ] && [ "$idle" -eq 0 ]'
check "no sib_pull hook on" eval '! grep -q " on .*sib_pull=1" $SW_DBG/hooks'
check "rmmod smartwake_pull" rmmod smartwake_pull
check "sib_pull=1 refused again once the companion is gone" eval '! set_knob sib_pull 1'
kill $loops $WL 2>/dev/null
wait
check "rmmod smartwake" rmmod smartwake
check "kernel log clean" dmesg_clean
summary
