# smartwake status and the kernel tunables that move wakeup placement
# (issue 58): where the kernel has SCHED_CACHE's LLC balancing
# (/sys/kernel/debug/sched/llc_balancing/, 7.2+, active with several LLCs)
# or 7.3's cgroup runqueue mode (sched/cgroup_mode), status prints each
# with the value the file holds, and ab's record changes with them.
# Where the kernel has neither, the checks are skipped, never passed.
. ./lib.sh
SW=/bin/smartwake
SD=/sys/kernel/debug/sched
out=/tmp/status.out

check "insmod" sw_insmod
$SW status >$out 2>&1
rc=$?
sed 's/^/    /' $out
check "status: exit 0" eq "$rc" 0
echo "# $(grep -c '' /sys/devices/system/cpu/online 2>/dev/null) online ranges, LLCs: $(cat /sys/devices/system/cpu/cpu*/cache/index3/shared_cpu_list 2>/dev/null | sort -u | tr '\n' ' ')"

# tunable FILE KEY: status prints "KEY = VALUE", VALUE the file's first
# word, or for a list of choices the one in parentheses (cgroup_mode:
# "up smp (concur) max tasks")
tunable() {
	_v=$(head -n 1 "$1" | sed -n 's/.*(\([^)]*\)).*/\1/p')
	[ -n "$_v" ] || _v=$(head -n 1 "$1" | awk '{ print $1 }')
	grep -q "^  $2 = $_v\$" $out
}
n=0
if [ -d $SD/llc_balancing ]; then
	for f in $SD/llc_balancing/*; do
		[ -f "$f" ] || continue
		k=sched.llc_balancing/${f##*/}
		check "status shows $k ($(head -n 1 "$f"))" tunable "$f" "$k"
		n=$((n + 1))
	done
	check "llc_balancing is active here (enabled = 1: several LLCs)" \
		eq "$(head -n 1 $SD/llc_balancing/enabled 2>/dev/null)" 1
else
	skip "no $SD/llc_balancing on $(uname -r): nothing for status to show"
fi
if [ -f $SD/cgroup_mode ]; then
	check "status shows sched.cgroup_mode ($(head -n 1 $SD/cgroup_mode))" \
		tunable $SD/cgroup_mode sched.cgroup_mode
	n=$((n + 1))
else
	skip "no $SD/cgroup_mode on $(uname -r): nothing for status to show"
fi
echo "# $n kernel placement tunables shown"

# ab refuses two sides that ran under different LLC balancing
if [ -w $SD/llc_balancing/enabled ]; then
	$SW ab --runs 1 --a '' --b 'sched:llc_balancing/enabled=0' -- \
		sh -c "echo ops_per_sec=\$(cat $SD/llc_balancing/enabled)" >$out 2>&1
	rc=$?
	sed 's/^/    /' $out
	check "ab --b sched:llc_balancing/enabled=0: B ran with 0, exit 0" \
		eval '[ "$rc" -eq 0 ] && grep -q "^B  *0\\.0 " $out'
	check "... llc_balancing/enabled restored to 1" eq "$(head -n 1 $SD/llc_balancing/enabled)" 1
fi

# ab --a pins llc_balancing and module knobs for side A and puts them
# back: after the last run, and when Ctrl-C (SIGINT to ab alone: its
# command runs in its own process group) stops side A's run halfway
knobs() { awk '{ print $1, $2 }' $SW_DBG/knobs; }
if [ -w $SD/llc_balancing/enabled ]; then
	llc0=$(head -n 1 $SD/llc_balancing/enabled)
	k0=$(knobs)
	pin='sched:llc_balancing/enabled=0 policy=smartwake wake_wide=off'
	$SW ab --runs 2 --a "$pin" --b '' -- \
		sh -c "echo ops_per_sec=\$((\$(cat $SD/llc_balancing/enabled) + 1))" >$out 2>&1
	rc=$?
	sed 's/^/    /' $out
	check "ab --a '$pin': A ran with llc_balancing 0, B with $llc0, exit 0" \
		eval '[ "$rc" -eq 0 ] && grep -q "^A  *1\\.0 " $out && grep -q "^B  *$((llc0 + 1))\\.0 " $out'
	check "... llc_balancing/enabled back to $llc0" eq "$(head -n 1 $SD/llc_balancing/enabled)" "$llc0"
	check "... the module's knobs back as they were" eq "$(knobs)" "$k0"

	# the command tells when side A's first run has started (its view
	# of the settings, written whole), then sleeps until stopped
	rm -f /tmp/ab.side /tmp/ab.side.new
	$SW ab --runs 3 --a "$pin" --b '' -- \
		sh -c "{ head -n 1 $SD/llc_balancing/enabled; awk '\$1 == \"policy\" || \$1 == \"wake_wide\" { print \$1, \$2 }' $SW_DBG/knobs; } >/tmp/ab.side.new; mv /tmp/ab.side.new /tmp/ab.side; sleep 120; echo ops_per_sec=1" \
		>$out 2>&1 &
	abpid=$!
	i=0
	while [ ! -f /tmp/ab.side ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	side=$(tr '\n' ' ' </tmp/ab.side 2>/dev/null)
	kill -INT $abpid
	wait $abpid
	rc=$?
	sed 's/^/    /' $out
	check "ab --a '$pin': side A's run started under A's settings (${side:-never started})" \
		eq "$side" "0 policy smartwake wake_wide off "
	check "... SIGINT while side A runs: exit 130, 'interrupted; settings restored', no run completed" \
		eval '[ "$rc" -eq 130 ] && grep -q "interrupted; settings restored" $out && ! grep -q "^run 1/" $out'
	check "... after SIGINT, llc_balancing/enabled back to $llc0" \
		eq "$(head -n 1 $SD/llc_balancing/enabled)" "$llc0"
	check "... after SIGINT, the module's knobs back as they were" eq "$(knobs)" "$k0"
	check "... after SIGINT, its command was stopped (no sleep 120 left)" \
		eval '! ps | grep -q "[s]leep 120"'
fi

check "rmmod" rmmod smartwake
check "kernel log clean" dmesg_clean
summary
