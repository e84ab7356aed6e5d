/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the access header: accessors of the scheduler's private
 * structures (the kernel's private sched.h, ksched.h) and, through
 * compat.h, what differs between the supported kernels.
 */
#ifndef _SMARTWAKE_SCHED_ACCESS_H
#define _SMARTWAKE_SCHED_ACCESS_H

#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <smartwake/policy.h>
#include "ksched.h"
#include "symbols.h"
#include "sched_fields.h"
/* the feature shims: included from here only */
#include "compat.h"

/* ---- scheduler accessors ------------------------------------------------
 * Replacements for cpu_rq(), per_cpu(sd_llc, ...) and the static helpers of fair.c and
 * core.c, reading the same fields (the kernel's versions are static or
 * name unexported symbols).
 */

static inline struct rq *sw_cpu_rq(int cpu)
{
	return per_cpu_ptr((struct rq __percpu __force *)sw_sym_runqueues, cpu);
}

/* Caller holds rcu_read_lock() (or runs with preemption disabled). */
static inline struct sched_domain *sw_sd_llc(int cpu)
{
	return rcu_dereference(*per_cpu_ptr((struct sched_domain __rcu *
					     __percpu __force *)sw_sym_sd_llc,
					    cpu));
}

/* sw_sd_llc() for a caller with interrupts off, outside rcu_read_lock() */
static inline struct sched_domain *sw_sd_llc_irqoff(int cpu)
{
	return rcu_dereference_sched(*per_cpu_ptr((struct sched_domain __rcu *
						   __percpu __force *)sw_sym_sd_llc,
						  cpu));
}

/* The wakeup path's (path/sis.c): interrupts off, no rcu_read_lock() */
static inline struct sched_domain_shared *sw_sd_llc_shared(int cpu)
{
	return rcu_dereference_sched(*per_cpu_ptr((struct sched_domain_shared __rcu *
					     __percpu __force *)
					    sw_sym_sd_llc_shared, cpu));
}

static inline int sw_llc_size(int cpu)
{
	return sw_pcpu_int(sw_sym_sd_llc_size, cpu);
}

/* core.c idle_cpu() of 6.12: current is the idle task, nothing queued. */
static __always_inline bool sw_idle_cpu(int cpu)
{
	struct rq *rq = sw_cpu_rq(cpu);

	return READ_ONCE(sw_rq(rq, curr)) == sw_rq(rq, idle) &&
	       !READ_ONCE(sw_rq(rq, nr_running)) &&
	       !READ_ONCE(sw_rq(rq, ttwu_pending));
}

/*
 * The kernel's vcpu_is_preempted() is a plain inline that GCC outlines in
 * the hot copies once the path's unit grows (5 calls per wakeup under
 * policy=smartwake, scripts/insnprof.sh); its x86 body,
 * pv_vcpu_is_preempted(), is __always_inline.
 */
#if defined(CONFIG_X86) && defined(CONFIG_PARAVIRT_SPINLOCKS)
#define sw_vcpu_is_preempted(cpu)	pv_vcpu_is_preempted(cpu)
#else
#define sw_vcpu_is_preempted(cpu)	vcpu_is_preempted(cpu)
#endif

/* available_idle_cpu() */
static __always_inline bool sw_available_idle_cpu(int cpu)
{
	return sw_idle_cpu(cpu) && !sw_vcpu_is_preempted(cpu);
}

/*
 * The 2022 filter's "overloaded": more than one pullable non-idle fair
 * task (runnable, not delayed-dequeue, not SCHED_IDLE).
 */
static inline bool sw_rq_overloaded(struct rq *rq)
{
	struct cfs_rq *cfs = &sw_rq(rq, cfs);

	return sw_cpu_overloaded(sw_cfs_h_nr_runnable(cfs), sw_cfs_h_nr_idle(cfs));
}

/* fair.c sched_idle_cpu(): runs something, and all of it SCHED_IDLE */
static inline bool sw_sched_idle_cpu(int cpu)
{
	struct rq *rq = sw_cpu_rq(cpu);

	return sw_cpu_sched_idle(READ_ONCE(sw_rq(rq, nr_running)),
				 sw_cfs_h_nr_idle(&sw_rq(rq, cfs)));
}

#endif /* _SMARTWAKE_SCHED_ACCESS_H */
