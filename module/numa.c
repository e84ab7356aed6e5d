// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA placement retry after wake_affine (2018, "Delay retrying placement
 * for automatic NUMA balance after wake_affine()", and the report that its
 * retry-threshold comparison was inverted).
 *
 * numa_retry=off        nothing changes (the kernel's own behaviour).
 * numa_retry=as-merged  the wake path sets the 2018 backoff, and each NUMA
 *                       hinting fault whose retry is due is deferred when
 *                       now + interval is later than the stored deadline,
 *                       the comparison as merged: practically always, so
 *                       active NUMA migration practically never runs.
 * numa_retry=corrected  the wake path sets the backoff; a retry is deferred
 *                       only while that backoff is still in the future.
 *
 * numa_migrate_preferred() is inlined into task_numa_fault(), so the fault
 * side is an ftrace pre-handler on task_numa_fault() that runs before the
 * kernel's retry gate (time_after(jiffies, p->numa_migrate_retry)) and, to
 * defer, moves p->numa_migrate_retry just past now. Difference from 2018:
 * 6.12 runs task_numa_placement() inside the same gate, so a deferral also
 * postpones that fault's placement update, not only the migration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/mmu_context.h>
#include <linux/sched.h>
#include <linux/topology.h>
#include <smartwake/policy.h>
#include "ksched.h"
#include "hooks.h"
#include "knobs.h"
#include "numa.h"
#include "sched_fields.h"
#include "stats.h"
#include "symbols.h"

int sw_numa_retry;	/* enum sw_numa_retry */

static bool sw_numa_balancing_on(void)
{
	return static_key_enabled((struct static_key *)sw_sym_sched_numa_balancing);
}

static unsigned int sw_numa_scan_delay_ms(void)
{
	return READ_ONCE(*(unsigned int *)sw_sym_sysctl_numa_balancing_scan_delay);
}

static void sw_numa_set_backoff(struct task_struct *t, unsigned long now)
{
	unsigned long b = sw_numa_backoff(sw_numa_scan_delay_ms(),
					  READ_ONCE(sw_task(t, numa_scan_period)), HZ);

	WRITE_ONCE(sw_task(t, numa_migrate_retry), now + b);
}

/**
 * sw_numa_wake_affine() - the 2018 backoff after an affine wakeup
 * @p:        the wakee
 * @prev_cpu: the CPU it ran on
 * @target:   the CPU wake_affine() chose
 *
 * When wake_affine() moves a task that prefers a node onto another node,
 * NUMA balancing of the wakee and of the waker (current) backs off for
 * max(scan delay, 4 x scan period), so the pair can converge.
 * Called from the wakeup path with p->pi_lock held.
 */
void sw_numa_wake_affine(struct task_struct *p, int prev_cpu, int target)
{
	unsigned long now;

	if (READ_ONCE(sw_numa_retry) == SW_NUMA_OFF || !sw_numa_balancing_on())
		return;
	if (!sw_numa_backoff_applies(READ_ONCE(sw_task(p, numa_preferred_nid)),
				     cpu_to_node(prev_cpu), cpu_to_node(target)))
		return;
	now = jiffies;
	sw_numa_set_backoff(p, now);
	sw_numa_set_backoff(current, now);
	sw_count(SW_C_numa_backoff_set);
}

/* The retry gate's decision for one fault of @p (current). */
static void notrace sw_numa_fault_gate(struct task_struct *p)
{
	unsigned long now, stored, interval;
	int mode = READ_ONCE(sw_numa_retry);

	if (mode == SW_NUMA_OFF || !sw_task(p, mm) ||
	    !READ_ONCE(sw_task(p, numa_faults)))
		return;
	sw_count(SW_C_numa_faults_seen);
	now = jiffies;
	stored = READ_ONCE(sw_task(p, numa_migrate_retry));
	interval = sw_numa_retry_interval(READ_ONCE(sw_task(p, numa_scan_period)),
					  HZ);

	if (mode == SW_NUMA_AS_MERGED) {
		/* The kernel's gate would not retry anyway: not our decision. */
		if (!time_after(now, stored))
			return;
		if (sw_numa_defer_retry(mode, now, stored, interval)) {
			/* Close the gate for this fault only, as 2018 did. */
			WRITE_ONCE(sw_task(p, numa_migrate_retry), now + 1);
			sw_count(SW_C_numa_retry_deferred);
		} else {
			sw_count(SW_C_numa_retry_allowed);
		}
		return;
	}

	/*
	 * corrected: the kernel's gate already waits while the deadline is in
	 * the future; count it as a backoff deferral only when the deadline is
	 * further away than any retry interval the kernel sets itself.
	 */
	if (sw_numa_defer_retry(mode, now, stored, interval)) {
		if (stored - now > interval)
			sw_count(SW_C_numa_retry_deferred);
	} else {
		sw_count(SW_C_numa_retry_allowed);
	}
}

/**
 * sw_numa_fault_pre() - ftrace pre-handler of task_numa_fault()
 * @ip:        traced function
 * @parent_ip: its caller
 * @op:        the hook's ftrace_ops
 * @fregs:     saved registers (unused: the faulting task is current)
 *
 * Mirrors the kernel's early returns that matter (no mm, no statistics).
 * The ops has no FTRACE_OPS_FL_RECURSION: the guard is taken here.
 */
void notrace sw_numa_fault_pre(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	sw_numa_fault_gate(current);
	ftrace_test_recursion_unlock(bit);
}

/* Knob apply: the fault pre-handler is installed only while not "off". */
int sw_numa_apply(const struct sw_knob *k, int old, int new)
{
	bool on = new != SW_NUMA_OFF, was_on = old != SW_NUMA_OFF;

	if (on == was_on)
		return 0;
	return sw_hook_set(SW_HOOK_NUMA_FAULT, on);
}
