/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the NUMA retry after wake_affine (numa.c).
 */
#ifndef _SMARTWAKE_NUMA_H
#define _SMARTWAKE_NUMA_H

#include <linux/types.h>
#include "knob_defs.h"

/* ---- NUMA retry after wake_affine (numa.c) ------------------------------ */
extern int sw_numa_retry;
bool sw_numa_wake_affine(struct task_struct *p, int prev_cpu, int target);
void sw_numa_backoff_store(struct task_struct *p);
int sw_numa_apply(const struct sw_knob *k, int old, int new);
void sw_numa_register(void);	/* at load: the task_numa_migrate hook */

#endif /* _SMARTWAKE_NUMA_H */
