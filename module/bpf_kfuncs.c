// SPDX-License-Identifier: GPL-2.0
/*
 * policy=bpf's kfuncs: the module's view of the machine, and its own
 * default decision, for the programs of struct smartwake_ops (bpf.c) and
 * no others (sw_bpf_prog_is_ours(): a filter on the set).
 *
 * Every kfunc takes CPU numbers as a program computed them: an id outside
 * the possible CPUs gets false or -EINVAL, never a read. They read what
 * the module's path reads (sched_access.h), racily as the kernel's own
 * select_idle_sibling() does; a program runs with p->pi_lock held and
 * interrupts off, so the runqueues and domains it asks about stay.
 *
 * The kfuncs, version 1 (kfuncs are only ever added):
 *  smartwake_cpu_idle(cpu)          available_idle_cpu(): idle, not preempted
 *  smartwake_cpu_sched_idle(cpu)    runs only SCHED_IDLE tasks
 *  smartwake_cpu_overloaded(cpu)    the 2022 filter's overloaded test
 *  smartwake_cpu_llc(cpu)           the LLC id (sd_llc_id), -EINVAL
 *  smartwake_cpu_node(cpu)          the NUMA node, -EINVAL
 *  smartwake_cpu_smt_next(cpu)      the next SMT sibling (cyclic), cpu
 *                                   itself without SMT, -EINVAL
 *  smartwake_task_allowed(p, cpu)   cpu is in p->cpus_ptr
 *  smartwake_task_wakee_flips(p)    p->wakee_flips (the waker: the
 *                                   wake_wide callback's waker_flips)
 *  smartwake_default_cpu()          select_cpu only: the module's own
 *                                   answer for this wakeup (wake.c)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/cpumask.h>
#include <linux/mmu_context.h>
#include <linux/topology.h>
#include "ksched.h"
#include "bpf.h"
#include "sched_access.h"
#include "stats.h"

#ifdef SW_HAVE_BPF_STRUCT_OPS

/* later kernels take trusted pointers by default, and dropped the flag */
#ifndef KF_TRUSTED_ARGS
#define KF_TRUSTED_ARGS 0
#endif

/* a CPU id a program handed in: one the kernel has per-CPU data for */
static bool sw_kf_cpu_ok(s32 cpu)
{
	return (u32)cpu < nr_cpu_ids && cpu_possible(cpu);
}

__bpf_kfunc_start_defs();

/**
 * smartwake_cpu_idle() - available_idle_cpu() as the module's path tests it
 * @cpu: a CPU id
 *
 * Return: @cpu runs its idle task with nothing queued and is not a
 * preempted vCPU; false for an invalid id.
 */
__bpf_kfunc bool smartwake_cpu_idle(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) && sw_available_idle_cpu(cpu);
}

/**
 * smartwake_cpu_sched_idle() - sched_idle_cpu(): runs only SCHED_IDLE tasks
 * @cpu: a CPU id
 *
 * Return: true when everything runnable on @cpu is SCHED_IDLE; false for
 * an invalid id.
 */
__bpf_kfunc bool smartwake_cpu_sched_idle(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) && sw_sched_idle_cpu(cpu);
}

/**
 * smartwake_cpu_overloaded() - the 2022 idle-scan filter's test
 * @cpu: a CPU id
 *
 * Return: more than one pullable non-idle fair task on @cpu (the test
 * knob sis_filter's mask is kept by); false for an invalid id.
 */
__bpf_kfunc bool smartwake_cpu_overloaded(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) && sw_rq_overloaded(sw_cpu_rq(cpu));
}

/**
 * smartwake_cpu_llc() - the id of @cpu's last-level cache
 * @cpu: a CPU id
 *
 * Return: sd_llc_id (the lowest CPU of the LLC), or -EINVAL.
 */
__bpf_kfunc s32 smartwake_cpu_llc(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) ? sw_llc_id(cpu) : -EINVAL;
}

/**
 * smartwake_cpu_node() - the NUMA node of @cpu
 * @cpu: a CPU id
 *
 * Return: cpu_to_node(), or -EINVAL.
 */
__bpf_kfunc s32 smartwake_cpu_node(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) ? cpu_to_node(cpu) : -EINVAL;
}

/**
 * smartwake_cpu_smt_next() - the SMT sibling after @cpu
 * @cpu: a CPU id
 *
 * A loop from @cpu until it comes back visits every thread of its core.
 *
 * Return: the next CPU of @cpu's core (after the last, the first), @cpu
 * itself on a core of one thread, or -EINVAL.
 */
__bpf_kfunc s32 smartwake_cpu_smt_next(s32 cpu)
{
	const struct cpumask *smt;
	unsigned int next;

	if (!sw_kf_cpu_ok(cpu))
		return -EINVAL;
	smt = topology_sibling_cpumask(cpu);
	next = cpumask_next(cpu, smt);
	if (next >= nr_cpu_ids)
		next = cpumask_first(smt);
	return next < nr_cpu_ids ? next : cpu;
}

/**
 * smartwake_task_allowed() - may @p run on @cpu
 * @p:   a task (the callback's own argument)
 * @cpu: a CPU id
 *
 * Return: @cpu is in @p->cpus_ptr; false for an invalid id. An answer
 * outside it is refused anyway (bpf_refused).
 */
__bpf_kfunc bool smartwake_task_allowed(struct task_struct *p, s32 cpu)
{
	return sw_kf_cpu_ok(cpu) && cpumask_test_cpu(cpu, sw_task(p, cpus_ptr));
}

/**
 * smartwake_task_wakee_flips() - how often @p switched wakees, decayed
 * @p: a task (the callback's own argument)
 *
 * Return: @p->wakee_flips, the input of wake_wide().
 */
__bpf_kfunc u32 smartwake_task_wakee_flips(struct task_struct *p)
{
	return READ_ONCE(sw_task(p, wakee_flips));
}

/**
 * smartwake_default_cpu() - the module's own answer for this wakeup
 *
 * For a select_cpu program that wraps the module's decision: the CPU the
 * module's path picks for the wakeup being decided, with the knobs as set
 * (and the program's own wake_wide, if the map has one). Computed once
 * per wakeup; a program that then declines gets that answer.
 *
 * Return: a CPU; -ENOENT when the path hands the wakeup to the kernel (an
 * unmodelled case); -EBUSY outside select_cpu.
 */
__bpf_kfunc s32 smartwake_default_cpu(void)
{
	return sw_bpf_default_cpu();
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(sw_kfunc_ids)
BTF_ID_FLAGS(func, smartwake_cpu_idle)
BTF_ID_FLAGS(func, smartwake_cpu_sched_idle)
BTF_ID_FLAGS(func, smartwake_cpu_overloaded)
BTF_ID_FLAGS(func, smartwake_cpu_llc)
BTF_ID_FLAGS(func, smartwake_cpu_node)
BTF_ID_FLAGS(func, smartwake_cpu_smt_next)
BTF_ID_FLAGS(func, smartwake_task_allowed, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, smartwake_task_wakee_flips, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, smartwake_default_cpu)
BTF_KFUNCS_END(sw_kfunc_ids)

/* only smartwake_ops's programs: not sched_ext's, not tcp_congestion_ops' */
static int sw_kfunc_filter(const struct bpf_prog *prog, u32 kfunc_id)
{
	return sw_bpf_prog_is_ours(prog) ? 0 : -EACCES;
}

static const struct btf_kfunc_id_set sw_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &sw_kfunc_ids,
	.filter = sw_kfunc_filter,
};

int sw_bpf_kfuncs_register(void)
{
	return register_btf_kfunc_id_set(BPF_PROG_TYPE_STRUCT_OPS,
					 &sw_kfunc_set);
}

#endif /* SW_HAVE_BPF_STRUCT_OPS */
