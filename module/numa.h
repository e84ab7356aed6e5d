/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the NUMA retry after wake_affine (numa.c).
 */
#ifndef _SMARTWAKE_NUMA_H
#define _SMARTWAKE_NUMA_H

#include <linux/ftrace.h>
#include <linux/types.h>
#include "knobs.h"

/* ---- NUMA retry after wake_affine (numa.c) ------------------------------ */
extern int sw_numa_retry;
bool sw_numa_wake_affine(struct task_struct *p, int prev_cpu, int target);
void sw_numa_backoff_store(struct task_struct *p);
void sw_numa_migrate_pre(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs);
int sw_numa_migrate_skip(struct task_struct *p);
int sw_numa_apply(const struct sw_knob *k, int old, int new);

#endif /* _SMARTWAKE_NUMA_H */
