/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: what differs between the supported kernels, in one place.
 *
 * More: Documentation/design.md, "The files in detail", compat.h.
 */
#ifndef _SMARTWAKE_COMPAT_H
#define _SMARTWAKE_COMPAT_H

#include <linux/ftrace.h>
#include <linux/ptrace.h>
#include "ksched.h"
#include "sched_fields.h"
#include "symbols.h"

#if defined(SW_HAVE_CFS_H_NR_DELAYED) && !defined(SW_HAVE_CFS_H_NR_QUEUED)
#error "cfs_rq has h_nr_delayed but no h_nr_queued: a delayed-dequeue tree smartwake does not model"
#endif

/* ---- wakeup flags and sched_domain flags ------------------------------- */

/*
 * Stack buffers the wakeup path fills before it reads them: not zeroed
 * first under CONFIG_INIT_STACK_ALL_ZERO (Debian's kernels). Trees
 * without the macro have no such option either.
 */
#ifndef __uninitialized
#define __uninitialized
#endif

/* WF_CURRENT_CPU (6.4+): the waker asks for its own CPU */
#ifdef SW_HAVE_WF_CURRENT_CPU
#define SW_WF_CURRENT_CPU	WF_CURRENT_CPU
#else
#define SW_WF_CURRENT_CPU	0
#endif

/* a cluster domain's group flag; 0 where the tree has no clusters */
#ifdef SW_HAVE_SD_CLUSTER
#define SW_SD_CLUSTER		SD_CLUSTER
#else
#define SW_SD_CLUSTER		0
#endif

/* ---- ftrace ------------------------------------------------------------- */

/* Argument @n of the traced function, at its ftrace site */
static __always_inline unsigned long sw_fregs_arg(struct ftrace_regs *fregs,
						  unsigned int n)
{
#ifdef SW_HAVE_FTRACE_REGS_GET_ARGUMENT
	return ftrace_regs_get_argument(fregs, n);
#else
	return regs_get_kernel_argument(&fregs->regs, n);
#endif
}

/* Resume at @ip instead of the traced function (an IPMODIFY ops) */
static __always_inline void sw_fregs_set_ip(struct ftrace_regs *fregs,
					    unsigned long ip)
{
#ifdef SW_HAVE_FTRACE_REGS_SET_IP
	ftrace_regs_set_instruction_pointer(fregs, ip);
#else
	ftrace_instruction_pointer_set(fregs, ip);
#endif
}

/* why select_hook=direct is refused where SW_HAVE_DIRECT is not set */
#define SW_NO_DIRECT_WHY	"this kernel has no direct ftrace calls"

/*
 * select_hook=direct: x86-64 and arm64 kernels with direct ftrace calls
 * (path/select.c has a trampoline for each)
 */
#if (defined(CONFIG_X86_64) || defined(CONFIG_ARM64)) && \
	defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) && \
	(defined(SW_HAVE_FTRACE_DIRECT_OPS) || defined(SW_HAVE_FTRACE_DIRECT_MULTI))
#define SW_HAVE_DIRECT

/* Make the filtered function of @ops call @addr (and only that) */
static inline int sw_ftrace_direct_register(struct ftrace_ops *ops,
					    unsigned long addr)
{
#ifdef SW_HAVE_FTRACE_DIRECT_OPS
	return register_ftrace_direct(ops, addr);
#else
	return register_ftrace_direct_multi(ops, addr);
#endif
}

/* Undo sw_ftrace_direct_register(), keeping @ops's filter */
static inline int sw_ftrace_direct_unregister(struct ftrace_ops *ops,
					      unsigned long addr)
{
#ifdef SW_HAVE_FTRACE_DIRECT_OPS
	return unregister_ftrace_direct(ops, addr, false);
#else
	return unregister_ftrace_direct_multi(ops, addr);
#endif
}
#else
/*
 * No direct trampoline in this build (arm64: not written yet; kernels
 * without direct calls): hooks.c's direct branch is never taken (no
 * struct sw_hook has a ->direct), these only keep it compiling.
 */
static inline int sw_ftrace_direct_register(struct ftrace_ops *ops,
					    unsigned long addr)
{
	return -EOPNOTSUPP;
}

static inline int sw_ftrace_direct_unregister(struct ftrace_ops *ops,
					      unsigned long addr)
{
	return -EOPNOTSUPP;
}
#endif

/* ---- struct cfs_rq and the scheduler helpers that differ -------------- */

/* Runnable fair tasks at and below @cfs, delayed-dequeue entities not counted */
static __always_inline unsigned int sw_cfs_h_nr_runnable(const struct cfs_rq *cfs)
{
#ifdef SW_HAVE_CFS_H_NR_QUEUED
	return READ_ONCE(sw_cfs_rq(cfs, h_nr_runnable));
#else
	return READ_ONCE(sw_cfs_rq(cfs, h_nr_running));
#endif
}

/* cfs_h_nr_delayed(): entities queued only until their lag is spent */
static __always_inline unsigned int sw_cfs_h_nr_delayed(const struct cfs_rq *cfs)
{
#ifdef SW_HAVE_CFS_H_NR_QUEUED
	return READ_ONCE(sw_cfs_rq(cfs, h_nr_queued)) -
	       READ_ONCE(sw_cfs_rq(cfs, h_nr_runnable));
#else
	return 0;
#endif
}

/* SCHED_IDLE fair tasks at and below @cfs */
static __always_inline unsigned int sw_cfs_h_nr_idle(const struct cfs_rq *cfs)
{
#ifdef SW_HAVE_CFS_H_NR_IDLE
	return READ_ONCE(sw_cfs_rq(cfs, h_nr_idle));
#else
	return READ_ONCE(sw_cfs_rq(cfs, idle_h_nr_running));
#endif
}

/*
 * Whether select_idle_sibling() may take a CPU running only SCHED_IDLE
 * tasks for idle when waking @p: always up to 6.x; 7.x's
 * choose_sched_idle_rq() not for a SCHED_IDLE wakee.
 */
static __always_inline bool sw_wakee_takes_sched_idle(const struct task_struct *p)
{
#ifdef SW_HAVE_SCHED_IDLE_WAKEE_EXCLUDED
	return READ_ONCE(sw_task(p, policy)) != SCHED_IDLE;
#else
	return true;
#endif
}

/* cpus_share_resources(): same cluster, or same LLC without clusters */
static inline bool sw_cpus_share_resources(int a, int b)
{
#ifdef SW_HAVE_SD_SHARE_ID
	return a == b ||
	       sw_pcpu_int(sw_sym_sd_share_id, a) ==
	       sw_pcpu_int(sw_sym_sd_share_id, b);
#else
	return sw_cpus_share_cache(a, b);
#endif
}

/*
 * sched_feat(SIS_PROP), where the tree has it (6.1: default off): a scan
 * limit from the waking CPU's idle time that select_idle_cpu() applies and
 * updates; not modelled, so path/select.c hands such wakeups to the kernel.
 */
static inline bool sw_sis_prop_on(void)
{
#ifdef SW_HAVE_SCHED_FEAT_SIS_PROP
	return sw_sched_feat(__SCHED_FEAT_SIS_PROP, false);
#else
	return false;
#endif
}

/* static_branch_unlikely(&sched_cluster_active), where the tree has it */
static inline bool sw_cluster_active(void)
{
#ifdef SW_HAVE_SCHED_CLUSTER_ACTIVE
	return sw_key_set_on(sw_sym_sched_cluster_active);
#else
	return false;
#endif
}
#endif /* _SMARTWAKE_COMPAT_H */
