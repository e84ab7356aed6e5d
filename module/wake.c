// SPDX-License-Identifier: GPL-2.0
/*
 * The replacement of select_task_rq_fair(). The kernel's function inlines
 * record_wakee(), wake_wide(), wake_affine() and select_idle_sibling(), so
 * changing any of them means taking over the whole wakeup fast path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched.h>
#include "sw.h"

typedef int (*sw_select_fn)(struct task_struct *p, int prev_cpu, int wake_flags);

/*
 * select_task_rq_fair's address is taken by fair_sched_class: IBT-safe.
 * The call must not become a tail call (the Kbuild file also disables
 * sibling calls): the hook tells our calls from the kernel's by the return
 * address, and a jump would leave the kernel's caller there and loop.
 */
static noinline int sw_orig_select(struct task_struct *p, int prev_cpu,
				   int wake_flags)
{
	int cpu = ((sw_select_fn)sw_sym_select_task_rq_fair)(p, prev_cpu,
							      wake_flags);

	barrier();
	return cpu;
}

/**
 * sw_select_task_rq_fair() - the module's select_task_rq_fair()
 * @p:          the task being placed
 * @prev_cpu:   the CPU it last ran on
 * @wake_flags: WF_* flags of the caller
 *
 * Called by the redirect with p->pi_lock held and interrupts disabled.
 *
 * Return: the CPU to place @p on.
 */
int notrace sw_select_task_rq_fair(struct task_struct *p, int prev_cpu,
				   int wake_flags)
{
	sw_count(SW_C_select_calls);
	if (!READ_ONCE(sw_enabled)) {
		sw_count(SW_C_passthrough);
		return sw_orig_select(p, prev_cpu, wake_flags);
	}
	sw_count(SW_C_passthrough);
	return sw_orig_select(p, prev_cpu, wake_flags);
}
