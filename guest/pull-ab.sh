# The sched-idle pull's A/B (issue 36): what the 2022 patch 2/2 claims,
# that non-idle tasks wait less when CPUs running only SCHED_IDLE work
# take them at once. SCHED_IDLE hogs on half the CPUs, a bursty non-idle
# load (wakeload msg) on all; sib_pull=0 and sib_pull=1 alternate in one
# boot, ROUNDS rounds of SECS each. Per run: the load's ops/s, the wakeup
# latency of its tasks (latency=1: wakeup to running, p50/p90/p99 in ns)
# and the pulls. Prints one PULL-AB line per run and PULL-AB-MEDIAN lines
# per side; checks only that each side ran and that the pull pulled.
# Under -icount shift=0,sleep=off a ns is about one instruction and ops/s
# counts work per operation with one counter for all vCPUs: the gain of
# more CPUs running at once does not show in it, the wait does.
# busybox sh; run with:
#   scripts/guest-run.sh --icount --topo smp4 pull-ab.sh [ROUNDS] [SECS]
. ./lib.sh
R=${1:-3}
T=${2:-3}
NCPU=$(nproc)
HALF=$((NCPU / 2))
HOGS="$HALF-$((NCPU - 1))"

check "insmod" sw_insmod
check "insmod smartwake_pull.ko" insmod /lib/smartwake/smartwake_pull.ko
check "latency=1" set_knob latency 1
# the nr_running probe on both sides (sis_filter's enqueue updates; policy
# stock, so no placement changes): the A/B compares the pull, not the
# probe's own cost, which instruction time would count against it
check "sis_filter=1 (the nr_running probe on both sides)" set_knob sis_filter 1
wakeload pipe -p 1 --hog-idle "$HALF" --hog-cpus "$HOGS" -t 3600 >/dev/null 2>&1 &
WL=$!
sleep 1

# run SIDE: one run of the load; prints PULL-AB | side | ops/s | p50 | p90 | p99 | pulls | lost
run() {
	set_knob sib_pull "$1"
	echo 1 >$SW_DBG/reset
	ops=$(wakeload msg --pipes -g 2 -s 2 -r 2 -t "$T" 2>/dev/null |
		sed -n 's/.*ops_per_sec=\([0-9]*\).*/\1/p')
	snap
	echo "PULL-AB | sib_pull=$1 | ${ops:-0} | $(sv latency_p50_ns) | $(sv latency_p90_ns) | $(sv latency_p99_ns) | $(sv sib_pulls) | $(sv sib_pull_lost) |"
}
for r in $(seq 1 "$R"); do
	# the order alternates, so neither side always runs first
	if [ $((r % 2)) -eq 1 ]; then run 0; run 1; else run 1; run 0; fi
done | tee /tmp/ab
set_knob sib_pull 0
set_knob sis_filter 0
kill $WL 2>/dev/null
wait

med() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }
for side in 0 1; do
	f=$(grep "sib_pull=$side " /tmp/ab)
	echo "PULL-AB-MEDIAN | sib_pull=$side | $(echo "$f" | cut -d'|' -f3 | med) | $(echo "$f" | cut -d'|' -f4 | med) | $(echo "$f" | cut -d'|' -f5 | med) | $(echo "$f" | cut -d'|' -f6 | med) | $(echo "$f" | cut -d'|' -f7 | med) | $(echo "$f" | cut -d'|' -f8 | med) |"
done
check "both sides ran $R times" eq "$(grep -c 'sib_pull=[01] | [1-9]' /tmp/ab)" $((2 * R))
check "sib_pull=1 pulled in every run" eval '! grep "sib_pull=1 " /tmp/ab | cut -d"|" -f7 | grep -qx " 0 "'
check "sib_pull=0 never pulled" eval '! grep "sib_pull=0 " /tmp/ab | cut -d"|" -f7 | grep -qvx " 0 "'
check "rmmod smartwake_pull" rmmod smartwake_pull
check "rmmod" rmmod smartwake
check "kernel log clean" dmesg_clean
summary
