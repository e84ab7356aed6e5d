/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the share of fair-class wakeups the select hook reached
 * (reach.c), counted from a tracepoint that does not depend on ftrace.
 */
#ifndef _SMARTWAKE_REACH_H
#define _SMARTWAKE_REACH_H

#include <linux/percpu.h>
#include <linux/types.h>
#include "stats.h"

struct seq_file;
struct task_struct;

/* the wakee the sched_waking probe marked on this CPU, or NULL */
DECLARE_PER_CPU(struct task_struct *, sw_reach_slot);

/**
 * sw_reach_seen() - the select hook's part: count a marked wakeup it reached
 * @p: select_task_rq_fair()'s task
 *
 * Called first in the select hook (either kind), with p->pi_lock held and
 * interrupts off, on the CPU whose sched_waking probe marked @p. A match
 * clears the slot, so a wakeup is counted once.
 */
static __always_inline void sw_reach_seen(struct task_struct *p)
{
	if (unlikely(__this_cpu_read(sw_reach_slot) == p)) {
		__this_cpu_write(sw_reach_slot, NULL);
		sw_count(SW_C_fair_wakeups_reached);
	}
}

void sw_reach_register(void);	/* at load: the sched_waking probe */
int sw_reach_start(void);
void sw_reach_stop(void);

#endif /* _SMARTWAKE_REACH_H */
