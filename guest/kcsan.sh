# KCSAN on the debug kernel's kcsan variant (issue 59, item 3): the module
# shares state between CPUs without locks by design (per-CPU counters
# read by others, knob values read on the wakeup path while a writer
# changes them, the 2022 filter's LLC masks, the pull's queue). Under a
# wakeup load, every knob is flipped through its values while readers
# read the stats and hooks files, with policy smartwake and shadow; no
# KCSAN report may name a frame of the module (guest/dmesg.sh: the
# kernel's own races are printed, not failed). Then the proof that the
# detector sees races here, where TCG runs one vCPU at a time: the test
# module sw_datarace.ko races two CPUs on a plain int, and that report
# must come and fail the log check.
# Prints "KCSAN-FIG key=value ..." lines for the figures (scripts/check.sh).
# Usage: kcsan.sh [SECONDS]
. ./lib.sh
need_testing_build
secs=${1:-60}
KC=/sys/kernel/debug/kcsan
RACE=$SW_TKO/sw_datarace.ko
check "KCSAN is active" eval 'grep -q "^enabled: 1" $KC'

SCOPE_DIR=/sys/fs/cgroup/kcsan
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
mkdir -p $SCOPE_DIR
knob_values() {
	sed -n "s/^$1 .*\[\([^]]*\)\].*/\1/p" $SW_DBG/knobs | tr '|' '\n' |
		sed 's/^\([0-9]*\)\.\.\([0-9]*\)$/\1\n\2/' | sed "s|^/PATH\$|$SCOPE_DIR|"
}
check "insmod" sw_insmod
knobs=$(awk '!/^#/ { print $1 }' $SW_DBG/knobs)
for k in $knobs; do
	eval "vals_$k=\"\$(knob_values $k | tr '\n' ' ')\""
done
# as in reliability.sh: the companion and an attached BPF program are
# other tests' (pull.sh, bpf.sh)
vals_sib_pull=0
vals_policy="smartwake shadow"

wakeload disp -d 1 -w 4 --switch -t 100000 >/dev/null 2>&1 &
l1=$!
wakeload msg -g 1 -s 2 -r 2 -t 100000 >/dev/null 2>&1 &
l2=$!
# readers: the per-CPU counters summed and the hooks listed by another CPU
(
	while :; do
		cat $SW_DBG/stats $SW_DBG/hooks >/dev/null 2>&1
	done
) &
rd=$!
t0=$(uptime_s)
rounds=0 fails=0
while [ $(($(uptime_s) - t0)) -lt "$secs" ]; do
	for k in $knobs; do
		eval "set -- \$vals_$k"
		[ $# -gt 0 ] || continue
		shift $((rounds % $#))
		set_knob "$k" "$1" || fails=$((fails + 1))
	done
	rounds=$((rounds + 1))
done
kill $rd
wait $rd 2>/dev/null
wakeups=$(stat wakeups)
calls=$(stat sis_calls)
kill $l1 $l2 2>/dev/null
wait $l1 $l2 2>/dev/null
echo "  $rounds rounds of knob flips in $(($(uptime_s) - t0)) s, $fails refused writes"
check "knob flips ran ($rounds rounds)" gt "$rounds" 0
check "the module's path ran under the flips ($wakeups wakeups)" gt "$wakeups" 0
check "rmmod" rmmod smartwake
check "nothing hooked after the unload" nothing_hooked

# the reports so far: all, and those dmesg_verdict fails on (the module's)
total=$(dmesg | grep -c 'BUG: KCSAN: ')
kernel_own=$(dmesg | dmesg_verdict | grep -c '^# KCSAN report of kernel code only')
echo "KCSAN-FIG secs=$secs rounds=$rounds wakeups=$wakeups sis_calls=$calls cpus=$(nproc)"
echo "KCSAN-FIG reports=$total kernel_own=$kernel_own smartwake=$((total - kernel_own))"
grep ': ' $KC | sed 's/^/KCSAN-FIG stat /'
dmesg | sed -n 's/^.*BUG: KCSAN: /KCSAN-FIG title /p' | sort | uniq -c | sed 's/^ *\([0-9]*\) KCSAN-FIG title /KCSAN-FIG title \1 /'
check "no KCSAN report names smartwake ($total reports, $kernel_own the kernel's own)" eq "$((total - kernel_own))" 0
check "kernel log clean (the kernel's own races printed above)" dmesg_clean

if [ -f $RACE ]; then
	insmod $RACE 2>/dev/null
	check "the deliberate race of sw_datarace is reported" \
		eval 'dmesg | grep -q "BUG: KCSAN: data-race in sw_race_writer"'
	check "the kernel-log check fails on it" eval '! dmesg_clean >/dev/null'
else
	not_ok "sw_datarace.ko missing from the guest"
fi
summary
