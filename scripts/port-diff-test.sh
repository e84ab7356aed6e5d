#!/usr/bin/env bash
# make check step "port": scripts/port-diff.sh against two cached kernels.
# The default kernel against itself reports nothing changed; 6.12 against
# 7.2 reports what the 7.2 port found by hand (Documentation/studies/
# kernel-7.2.md): sched_idle_cpu() gone for choose_idle_cpu(), the idle
# scan changed, wake_wide/wake_affine/the NUMA gate/ttwu_queue_wakelist
# unchanged, cfs_rq.idle_h_nr_running renamed h_nr_idle,
# sched_domain.span gone, DOUBLE_TICK out of features.h with the bits the
# module reads unmoved. Needs both kernels' sources in the cache (make
# kernels).
#
# Usage: scripts/port-diff-test.sh
. "$(dirname "$0")/common.sh"
. "$SW_TOP/scripts/testlib.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
cd "$SW_TOP" || exit 1

K72=7.2.13+deb14-cloud-amd64
same=$(scripts/port-diff.sh --no-diff "$SW_DEFAULT_KREL" "$SW_DEFAULT_KREL" 2>&1)
check "the default kernel against itself: nothing changed" \
	grep -qx 'summary: functions [0-9]* same, 0 changed, 0 gone, 0 new; fields 0 changed, 0 gone' <<<"$same"
check "against itself: no function missing from the table's tree (absent only where a kernel lacks it)" \
	test "$(grep -c '^same ' <<<"$same")" -ge 40
out=$(scripts/port-diff.sh "$SW_DEFAULT_KREL" "$K72" 2>&1)
# has KIND NAME: the summary line of NAME says KIND
has() { grep -qE "^$1 +$2 " <<<"$out"; }
for f in record_wakee wake_wide wake_affine_idle wake_affine_weight wake_affine \
	numa_migrate_preferred task_numa_fault ttwu_queue_wakelist select_task_rq; do
	check "6.12 -> 7.2: $f unchanged" has same "$f"
done
for f in select_task_rq_fair select_idle_sibling select_idle_cpu ttwu_queue_cond; do
	check "6.12 -> 7.2: $f changed, with its diff" eval 'has CHANGED "$f" && grep -q "^+++ new/.* $f\$" <<<"$out"'
done
check "6.12 -> 7.2: sched_idle_cpu gone" has GONE sched_idle_cpu
check "6.12 -> 7.2: choose_idle_cpu new" has NEW choose_idle_cpu
check "6.12 -> 7.2: cfs_rq.idle_h_nr_running gone" has GONE 'cfs_rq\.idle_h_nr_running'
check "6.12 -> 7.2: cfs_rq.h_nr_idle new" has NEW 'cfs_rq\.h_nr_idle'
check "6.12 -> 7.2: sched_domain.span gone (commented out in 7.2)" has GONE 'sched_domain\.span'
check "6.12 -> 7.2: rq.nr_running's declaration the same" has same 'rq\.nr_running'
check "6.12 -> 7.2: WF_* flags the same" grep -q '^same: WF_EXEC 0x02' <<<"$out"
check "6.12 -> 7.2: DOUBLE_TICK removed, PARANOID_AVG and NI_RATE added" \
	eval 'grep -q "^removed: DOUBLE_TICK" <<<"$out" && grep -q "^added: *PARANOID_AVG NI_RATE" <<<"$out"'
for x in 'TTWU_QUEUE: bit 15 -> 15' 'SIS_UTIL: bit 16 -> 16' 'WA_IDLE: bit 22 -> 22'; do
	check "6.12 -> 7.2: $x" grep -qF "  $x" <<<"$out"
done
# refused: exits non-zero and names the supported kernels
refused() {
	local o
	o=$(scripts/port-diff.sh 9.9.9-cloud-amd64 "$SW_DEFAULT_KREL" 2>&1) && return 1
	grep -q "kernel 9.9.9-cloud-amd64 is not supported; supported: $SW_DEFAULT_KREL" <<<"$o"
}
check "a kernel it does not know is refused, naming the supported ones" refused
summary
