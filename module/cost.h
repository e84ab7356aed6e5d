/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the histograms of the sampled per-call times (cost.c).
 */
#ifndef _SMARTWAKE_MOD_COST_H
#define _SMARTWAKE_MOD_COST_H

#include <linux/percpu.h>
#include <linux/types.h>
#include <smartwake/cost.h>

struct dentry;
struct seq_file;

/* what a sampled call timed; cost.c's table names each */
enum sw_cost_series {
	SW_COST_SELF,		/* the module's replacement, whole */
	SW_COST_MODULE,		/* policy=shadow: the module's evaluation */
	SW_COST_KERNEL,		/* ...and the kernel's function, same wakeup */
	SW_COST_BPF_SELECT,	/* the attached program's callbacks */
	SW_COST_BPF_WIDE,
	SW_COST_BPF_AFFINE,
	SW_COST_BPF_IDLE,
	SW_NR_COST
};

struct sw_cost_hist {
	u32 b[SW_NR_COST][SW_COST_BUCKETS];
};

/* allocated before any hook exists, freed after the last is gone */
extern struct sw_cost_hist __percpu *sw_cost_hist;

/* Callers run with preemption or interrupts disabled (the wakeup path). */
static __always_inline void sw_cost_record(enum sw_cost_series s, u64 ns)
{
	__this_cpu_inc(sw_cost_hist->b[s][sw_cost_bucket(ns)]);
}

int sw_cost_init(void);
void sw_cost_exit(void);
void sw_cost_reset(void);			/* "reset" */
void sw_cost_debugfs(struct dentry *dir);	/* the cost_hist file */
void sw_cost_show_stats(struct seq_file *m);	/* derived stats lines */

#endif /* _SMARTWAKE_MOD_COST_H */
