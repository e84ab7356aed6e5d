// SPDX-License-Identifier: GPL-2.0
/*
 * A stateful smartwake BPF policy in sched_ext's style: per-task state in a
 * hash map, statistics in a per-CPU array, tunables set at load, CO-RE
 * reads of the task, bpf_printk() behind a verbose flag. A task that woke
 * on the same CPU the last min_streak times goes back to it (when idle,
 * unless need_idle=0); any other wakeup is left to the module's path.
 *
 *   smartwake bpf load --set min_streak=4 --set verbose=1 sticky.bpf.o
 *   smartwake bpf stats; smartwake bpf log
 *
 * Under policy=shadow the answer is compared, never used: the state is
 * then left alone (smartwake_answer_unused()).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <smartwake/smartwake.bpf.h>

const volatile u32 min_streak = 2;	/* wakeups on one CPU before it sticks */
const volatile bool need_idle = true;	/* ... and only when that CPU is idle */
const volatile bool verbose;		/* bpf_printk() the first sticky answers */
const volatile u32 verbose_max = 8;	/* at most this many lines per CPU */

struct task_state {
	s32 last_cpu;
	u32 streak;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, s32);			/* pid */
	__type(value, struct task_state);
} tasks SEC(".maps");

/* "smartwake bpf stats" prints these by name, summed over CPUs */
struct sticky_stats {
	u64 calls;		/* select_cpu calls */
	u64 sticky;		/* answered prev_cpu */
	u64 declined;		/* left to the module */
	u64 shadow_calls;	/* evaluated for policy=shadow */
	u64 state_updates;	/* writes of the task map */
	u64 core_checked;	/* CO-RE read of wakee_flips compared */
	u64 core_mismatch;	/* ... and it differed from the module's */
	u64 printed;		/* bpf_printk() lines */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct sticky_stats);
} stats SEC(".maps");

s32 SMARTWAKE_OPS(sticky_select, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	struct sticky_stats *st;
	struct task_state *ts, fresh = {};
	bool unused = smartwake_answer_unused();
	u32 zero = 0;
	s32 pid;

	st = bpf_map_lookup_elem(&stats, &zero);
	if (!st)
		return SMARTWAKE_DECLINE;
	st->calls++;
	if (unused)
		st->shadow_calls++;

	/* CO-RE: the field's offset is this kernel's, whatever vmlinux.h said */
	st->core_checked++;
	if (BPF_CORE_READ(p, wakee_flips) != smartwake_task_wakee_flips(p))
		st->core_mismatch++;

	pid = BPF_CORE_READ(p, pid);
	ts = bpf_map_lookup_elem(&tasks, &pid);
	if (ts && ts->last_cpu == prev_cpu && ts->streak >= min_streak &&
	    (!need_idle || smartwake_cpu_idle(prev_cpu))) {
		st->sticky++;
		if (verbose && !unused && st->printed < verbose_max) {
			st->printed++;
			bpf_printk("sticky: pid %d back to cpu %d after %u wakeups",
				   pid, prev_cpu, ts->streak);
		}
		return prev_cpu;
	}
	st->declined++;
	if (unused)
		return SMARTWAKE_DECLINE;
	/* the state follows the answers that are used */
	st->state_updates++;
	if (!ts) {
		fresh.last_cpu = prev_cpu;
		bpf_map_update_elem(&tasks, &pid, &fresh, BPF_ANY);
	} else if (ts->last_cpu == prev_cpu) {
		ts->streak++;
	} else {
		ts->last_cpu = prev_cpu;
		ts->streak = 0;
	}
	return SMARTWAKE_DECLINE;
}

SMARTWAKE_OPS_DEFINE(sticky_ops,
	.select_cpu = (void *)sticky_select,
);

char _license[] SEC("license") = "GPL";
