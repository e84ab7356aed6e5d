// SPDX-License-Identifier: GPL-2.0
/*
 * policy=bpf: the scheduler reads behind the kfuncs (bpf.c), here
 * because they need the kernel's private sched.h, which bpf.c must not
 * include (see its kfuncs). The same reads as the module's path
 * (sched_access.h); the CPU ids are checked by the kfuncs.
 */
#include <linux/cpumask.h>
#include <linux/mmu_context.h>
#include "../ksched.h"
#include "bpf.h"
#include "../sched_access.h"

/* available_idle_cpu(): the idle task, nothing queued, not preempted */
bool sw_bpf_view_idle(int cpu)
{
	return sw_available_idle_cpu(cpu);
}

/* sched_idle_cpu(): everything runnable is SCHED_IDLE */
bool sw_bpf_view_sched_idle(int cpu)
{
	return sw_sched_idle_cpu(cpu);
}

/* the 2022 idle-scan filter's overloaded test */
bool sw_bpf_view_overloaded(int cpu)
{
	return sw_rq_overloaded(sw_cpu_rq(cpu));
}

/* sd_llc_id */
int sw_bpf_view_llc(int cpu)
{
	return sw_llc_id(cpu);
}

/* @cpu is in @p->cpus_ptr */
bool sw_bpf_view_allowed(struct task_struct *p, int cpu)
{
	return cpumask_test_cpu(cpu, sw_task(p, cpus_ptr));
}

/* @p->wakee_flips, wake_wide()'s input */
u32 sw_bpf_view_flips(struct task_struct *p)
{
	return READ_ONCE(sw_task(p, wakee_flips));
}
