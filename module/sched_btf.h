/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the headers-only build's stand-in for the kernel's private
 * kernel/sched/sched.h (scripts/build-modules.sh --headers-only; a
 * Debian linux-headers package has no kernel/sched/). The build puts a
 * sched.h that includes this file first on the include path, so the
 * module's files are the same in both builds.
 *
 * Of the private header it provides only what the module uses: the
 * private structures of module/fields.h as projections made by
 * tools/btfgen from the target kernel's BTF (the listed members at the
 * BTF's offsets, padding between; static asserts on every offset and
 * size), the sched feature indices (__SCHED_FEAT_*) from the same BTF,
 * and module-side versions of the inline helpers the module calls
 * (cpu_of(), is_per_cpu_kthread(), sched_group_span()), reading only
 * listed fields through their accessors. The load-time layout check
 * (compat.c against the running kernel's BTF) guards both builds alike.
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
#include "sched_fields.h"

/*
 * Wake flags: macros, so not in the BTF. The first three are the SD flags
 * they map to (the private sched.h asserts the same); the others are
 * 6.12's values.
 */
#define WF_EXEC			SD_BALANCE_EXEC
#define WF_FORK			SD_BALANCE_FORK
#define WF_TTWU			SD_BALANCE_WAKE
#define WF_SYNC			0x10
#define WF_MIGRATED		0x20
#define WF_CURRENT_CPU		0x40
#define WF_RQ_SELECTED		0x80

static inline int cpu_of(struct rq *rq)
{
	return sw_rq(rq, cpu);
}

static inline bool is_per_cpu_kthread(struct task_struct *p)
{
	return (sw_task(p, flags) & PF_KTHREAD) && sw_task(p, nr_cpus_allowed) == 1;
}

static inline struct cpumask *sched_group_span(struct sched_group *sg)
{
	return to_cpumask(sw_sg(sg, cpumask));
}

#endif /* _KERNEL_SCHED_SCHED_H */
