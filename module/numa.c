// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA migration retry after wake_affine (2018, "Delay retrying placement
 * for automatic NUMA balance after wake_affine()", and the report that its
 * retry-threshold comparison was inverted).
 *
 * More: Documentation/design.md, "The files in detail", numa.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/mmu_context.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <smartwake/policy.h>
#include "hooks.h"
#include "knob_defs.h"
#include "numa.h"
#include "sched_access.h"
#include "stats.h"
#include "symbols.h"

int sw_numa_retry;	/* enum sw_numa_retry */

#define SW_NUMA_BUCKET_BITS	6
#define SW_NUMA_WAYS		4

/* one live backoff: the 2018 numa_migrate_retry of a task */
struct sw_numa_backoff {
	unsigned long task;	/* the task_struct's address, a key only */
	u64 start_time;		/* its start_time, against address reuse */
	unsigned long until;	/* jiffies: the backoff's end */
	int nid;		/* numa_preferred_nid when set or last seen */
};

static struct sw_numa_backoff sw_numa_tab[SW_NUMA_WAYS << SW_NUMA_BUCKET_BITS];
/* taken from the wakeup path (irqs off) and the fault path */
static DEFINE_RAW_SPINLOCK(sw_numa_lock);

static bool sw_numa_balancing_on(void)
{
	return static_key_enabled((struct static_key *)sw_sym_sched_numa_balancing);
}

static unsigned int sw_numa_scan_delay_ms(void)
{
	return READ_ONCE(*(unsigned int *)sw_sym_sysctl_numa_balancing_scan_delay);
}

static struct sw_numa_backoff *sw_numa_bucket(struct task_struct *t)
{
	return &sw_numa_tab[hash_ptr(t, SW_NUMA_BUCKET_BITS) * SW_NUMA_WAYS];
}

static bool sw_numa_live(const struct sw_numa_backoff *b, unsigned long now)
{
	return b->task && time_before_eq(now, b->until);
}

/* @t's live backoff, or NULL. Under sw_numa_lock. */
static struct sw_numa_backoff *sw_numa_find(struct task_struct *t,
					    unsigned long now)
{
	struct sw_numa_backoff *b = sw_numa_bucket(t);
	int i;

	for (i = 0; i < SW_NUMA_WAYS; i++)
		if (b[i].task == (unsigned long)t &&
		    b[i].start_time == sw_task(t, start_time) &&
		    sw_numa_live(&b[i], now))
			return &b[i];
	return NULL;
}

/* 2018 update_wa_numa_placement() for one task. Under sw_numa_lock. */
static void sw_numa_set_backoff(struct task_struct *t, unsigned long now)
{
	struct sw_numa_backoff *b = sw_numa_find(t, now), *slot;
	int i;

	if (!b) {
		/* a free or expired slot, else the soonest-ending backoff */
		slot = sw_numa_bucket(t);
		b = &slot[0];
		for (i = 0; i < SW_NUMA_WAYS; i++) {
			if (!sw_numa_live(&slot[i], now)) {
				b = &slot[i];
				break;
			}
			if (time_before(slot[i].until, b->until))
				b = &slot[i];
		}
		if (i == SW_NUMA_WAYS)
			sw_count(SW_C_numa_backoff_evicted);
	}
	b->task = (unsigned long)t;
	b->start_time = sw_task(t, start_time);
	b->nid = READ_ONCE(sw_task(t, numa_preferred_nid));
	b->until = now + sw_numa_backoff(sw_numa_scan_delay_ms(),
					 READ_ONCE(sw_task(t, numa_scan_period)), HZ);
}

/**
 * sw_numa_wake_affine() - the 2018 backoff after an affine wakeup
 * @p:        the wakee
 * @prev_cpu: the CPU it ran on
 * @target:   the CPU wake_affine() chose
 *
 * When wake_affine() moves a task that prefers a node onto another node,
 * NUMA migration of the wakee and of the waker (current) backs off for
 * max(scan delay, 4 x scan period), so the pair can converge.
 * Called from the wakeup path with p->pi_lock held. Counts, stores
 * nothing: the wakeup path stores the backoff with
 * sw_numa_backoff_store() once its answer is used (not in policy=shadow,
 * not for an answer handed back to the kernel).
 *
 * Return: true when the backoff applies.
 */
bool sw_numa_wake_affine(struct task_struct *p, int prev_cpu, int target)
{
	if (READ_ONCE(sw_numa_retry) == SW_NUMA_OFF || !sw_numa_balancing_on())
		return false;
	if (!sw_numa_backoff_applies(READ_ONCE(sw_task(p, numa_preferred_nid)),
				     cpu_to_node(prev_cpu), cpu_to_node(target)))
		return false;
	sw_count_decided(SW_C_numa_backoff_set, 1);
	return true;
}

/* The backoff sw_numa_wake_affine() found, for @p and the waker */
void sw_numa_backoff_store(struct task_struct *p)
{
	unsigned long now = jiffies, flags;

	raw_spin_lock_irqsave(&sw_numa_lock, flags);
	sw_numa_set_backoff(p, now);
	sw_numa_set_backoff(current, now);
	raw_spin_unlock_irqrestore(&sw_numa_lock, flags);
}

/* Does 2018 defer this task_numa_migrate() of @p (current)? */
static bool notrace sw_numa_migrate_gate(struct task_struct *p)
{
	unsigned long now, stored, interval, flags;
	int mode = READ_ONCE(sw_numa_retry);
	struct sw_numa_backoff *b;
	bool changed = false, defer;
	int nid;

	if (mode == SW_NUMA_OFF)
		return false;
	sw_count(SW_C_numa_migrate_seen);
	now = jiffies;
	interval = sw_numa_retry_interval(READ_ONCE(sw_task(p, numa_scan_period)),
					  HZ);
	nid = READ_ONCE(sw_task(p, numa_preferred_nid));
	/* no live backoff: the kernel's own retry time, just passed */
	stored = now - 1;

	raw_spin_lock_irqsave(&sw_numa_lock, flags);
	b = sw_numa_find(p, now);
	if (b) {
		stored = b->until;
		changed = b->nid != nid;
		b->nid = nid;
	}
	defer = sw_numa_defer_migrate(mode, now, stored, interval, changed);
	/* let through: 2018 stored now + interval, as the kernel just did */
	if (b && !defer)
		b->task = 0;
	raw_spin_unlock_irqrestore(&sw_numa_lock, flags);

	sw_count(defer ? SW_C_numa_retry_deferred : SW_C_numa_retry_allowed);
	/* the seed's case: the kernel's gate opened, no backoff pending */
	if (!b) {
		sw_count(SW_C_numa_retry_due);
		if (defer)
			sw_count(SW_C_numa_retry_due_deferred);
	}
	return defer;
}

/* What a deferred task_numa_migrate() runs instead: nothing. */
static int notrace sw_numa_migrate_skip(struct task_struct *p)
{
	return 0;
}

/**
 * __sw_numa_migrate_pre() - ftrace handler of task_numa_migrate.isra.0
 * @parent_ip: its caller
 * @op:        the hook's ftrace_ops
 * @fregs:     saved registers: the instruction pointer is rewritten to
 *             skip a deferred call
 *
 * The only caller is task_numa_fault() (numa_migrate_preferred(current)),
 * which ignores the result. Run under the recursion guard
 * (SW_HOOK_CALLBACK()).
 */
static __always_inline void __sw_numa_migrate_pre(struct ftrace_ops *op,
						  unsigned long parent_ip,
						  struct ftrace_regs *fregs)
{
	if (sw_numa_migrate_gate(current))
		sw_fregs_set_ip(fregs, (unsigned long)sw_numa_migrate_skip);
}

SW_HOOK_CALLBACK(sw_numa_migrate_pre, __sw_numa_migrate_pre)

/* numa_retry != off: skips deferred task_numa_migrate.isra.0 calls */
static struct sw_hook sw_numa_hook = {
	.name = "task_numa_migrate",
	SW_HOOK_NEEDS("numa_retry!=off"),
	.target = &sw_sym_task_numa_migrate,
	.replacement = sw_numa_migrate_skip,
	.callback = sw_numa_migrate_pre,
};

void sw_numa_register(void)
{
	sw_hook_register(&sw_numa_hook);
}

/* Knob apply: the migrate hook is installed only while not "off". */
int sw_numa_apply(const struct sw_knob *k, int old, int new)
{
	bool on = new != SW_NUMA_OFF, was_on = old != SW_NUMA_OFF;
	unsigned long flags;
	int ret;

	if (on == was_on)
		return 0;
	ret = on ? sw_hook_get(&sw_numa_hook, 1) : sw_hook_put(&sw_numa_hook, 1);
	if (!ret && !on) {
		/* backoffs do not outlive the mode that set them */
		raw_spin_lock_irqsave(&sw_numa_lock, flags);
		memset(sw_numa_tab, 0, sizeof(sw_numa_tab));
		raw_spin_unlock_irqrestore(&sw_numa_lock, flags);
	}
	return ret;
}
