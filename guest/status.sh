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

check "rmmod" rmmod smartwake
check "kernel log clean" dmesg_clean
summary
