/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wakeup path's parts that wake.c and shadow.c share. Only for files
 * that included the kernel's private sched.h and sched_access.h.
 */
#ifndef _SMARTWAKE_WAKE_PATH_H
#define _SMARTWAKE_WAKE_PATH_H

#include <linux/sched.h>
#include "sched_access.h"

/*
 * What the module's path may change before it commits to an answer
 * (has_idle_cores aside: see struct sw_idle_cores_copy).
 */
struct sw_saved {
	unsigned int wakee_flips;
	unsigned long wakee_flip_decay_ts;
	struct task_struct *last_wakee;
	int recent_used_cpu;
};

static inline void sw_save(struct sw_saved *sv, struct task_struct *p)
{
	sv->wakee_flips = sw_task(current, wakee_flips);
	sv->wakee_flip_decay_ts = sw_task(current, wakee_flip_decay_ts);
	sv->last_wakee = sw_task(current, last_wakee);
	sv->recent_used_cpu = sw_task(p, recent_used_cpu);
}

static inline void sw_restore(const struct sw_saved *sv, struct task_struct *p)
{
	sw_task(current, wakee_flips) = sv->wakee_flips;
	sw_task(current, wakee_flip_decay_ts) = sv->wakee_flip_decay_ts;
	sw_task(current, last_wakee) = sv->last_wakee;
	sw_task(p, recent_used_cpu) = sv->recent_used_cpu;
}

/* How sw_wake() got to its answer, for policy=shadow's classification. */
struct sw_wake_info {
	bool want_affine;	/* wake_wide() said no, cpu allowed */
	int target;		/* wake_affine()'s choice: select_idle_sibling's target */
};

/* the kernel's select_task_rq_fair(), called by the module (wake.c) */
int sw_orig_select(struct task_struct *p, int prev_cpu, int wake_flags);
/* the module's fast path for one wakeup; -1: the kernel's slow path */
int sw_wake(struct task_struct *p, int prev_cpu, int wake_flags, int cpu,
	    struct sw_wake_info *info);
/* policy=shadow (shadow.c): the kernel's answer, -1 if unmodelled */
int sw_shadow(struct task_struct *p, int prev_cpu, int wake_flags, int cpu);

#endif /* _SMARTWAKE_WAKE_PATH_H */
