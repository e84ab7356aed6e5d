/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the headers-only build's stand-in for the kernel's private
 * kernel/sched/sched.h (scripts/build-modules.sh --headers-only; a
 * Debian linux-headers package has no kernel/sched/). The build puts a
 * sched.h that includes this file first on the include path, so the
 * module's files are the same in both builds.
 *
 * More: Documentation/design.md, "The files in detail", sched_btf.h.
 */
#ifndef _KERNEL_SCHED_SCHED_H
#define _KERNEL_SCHED_SCHED_H

/* The public headers the private sched.h brings in that the module uses. */
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/smt.h>
#include <linux/sched/task.h>
#include <linux/sched/topology.h>
#include <linux/static_key.h>
#include <linux/stddef.h>
#include <linux/topology.h>

#include "btfgen/sched_btf_gen.h"

/*
 * Cluster scheduling (6.8): the per-CPU sd_share_id is in the BTF; the
 * static key sched_cluster_active (not per-CPU, so not in the BTF) came
 * with it.
 */
#ifdef SW_BTF_VAR_sd_share_id
DECLARE_PER_CPU(int, sd_share_id);
extern struct static_key_false sched_cluster_active;
#endif

/*
 * Wake flags: macros, which the BTF does not keep. The first three are the
 * SD flags they map to (the private sched.h asserts the same). WF_SYNC and
 * WF_MIGRATED have these values in every supported kernel (6.1 to 7.2, the
 * table of scripts/common.sh). WF_CURRENT_CPU (6.4) is defined only where
 * the target has it: its BTF has __wake_up_on_current_cpu(), the exported
 * function that came with the flag and passes it. The flags the module
 * does not read (WF_RQ_SELECTED, 6.12) are left out. scripts/sched-layout.sh
 * lists the values each build compiled: the headers-only make check steps
 * compare them with the full-source build's, kernel by kernel.
 */
#define WF_EXEC			SD_BALANCE_EXEC
#define WF_FORK			SD_BALANCE_FORK
#define WF_TTWU			SD_BALANCE_WAKE
#define WF_SYNC			0x10
#define WF_MIGRATED		0x20
#ifdef SW_BTF_FUNC___wake_up_on_current_cpu
#define WF_CURRENT_CPU		0x40
#endif

static inline int cpu_of(struct rq *rq)
{
	return rq->cpu;
}

static inline bool is_per_cpu_kthread(struct task_struct *p)
{
	return (p->flags & PF_KTHREAD) && p->nr_cpus_allowed == 1;
}

static inline struct cpumask *sched_group_span(struct sched_group *sg)
{
	return to_cpumask(sg->cpumask);
}

#endif /* _KERNEL_SCHED_SCHED_H */
