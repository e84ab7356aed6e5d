// SPDX-License-Identifier: GPL-2.0
/*
 * Placement locality (knob locality): where each answer lies relative to
 * the wakee's previous CPU (loc_prev_*) and to the waking CPU
 * (loc_waker_*), as same CPU, SMT sibling, same LLC, another LLC of the
 * same node, another node (sw_locality()). Counted only while
 * locality=1.
 *
 * More: Documentation/design.md, "The files in detail", locality.c.
 */
#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/mmu_context.h>
#include <linux/topology.h>
#include "ksched.h"
#include "locality.h"
#include "sched_access.h"
#include "stats.h"

/* the counter families follow enum sw_loc, one after the other */
static_assert(SW_C_loc_prev_remote - SW_C_loc_prev_same_cpu == SW_LOC_REMOTE);
static_assert(SW_C_loc_waker_same_cpu - SW_C_loc_prev_same_cpu == SW_LOC_NR);
static_assert(SW_C_kernel_loc_prev_same_cpu - SW_C_loc_prev_same_cpu ==
	      2 * SW_LOC_NR);
static_assert(SW_C_kernel_loc_waker_remote - SW_C_loc_prev_same_cpu ==
	      4 * SW_LOC_NR - 1);

static __always_inline enum sw_loc sw_loc_of(int ref, int cpu)
{
	return sw_locality(cpu == ref,
			   cpumask_test_cpu(cpu, topology_sibling_cpumask(ref)),
			   sw_cpus_share_cache(cpu, ref),
			   cpu_to_node(cpu) == cpu_to_node(ref));
}

/* Count @cpu in the family pair that starts at counter @first. */
static __always_inline void sw_loc_count(enum sw_counter first, int prev_cpu,
					 int waker_cpu, int cpu)
{
	enum sw_loc lp;

	if ((unsigned int)cpu >= nr_cpu_ids)
		return;
	lp = sw_loc_of(prev_cpu, cpu);
	sw_count(first + lp);
	/* a sync wakeup from prev's CPU: one classification */
	sw_count(first + SW_LOC_NR +
		 (waker_cpu == prev_cpu ? lp : sw_loc_of(waker_cpu, cpu)));
}

int sw_locality_knob;
DEFINE_STATIC_KEY_FALSE(sw_locality_key);

/* Knob apply (locality): the key follows the knob; never fails. */
int sw_locality_apply(const struct sw_knob *k, int old, int new)
{
	if (new)
		static_branch_enable(&sw_locality_key);
	else
		static_branch_disable(&sw_locality_key);
	return 0;
}

/**
 * __sw_locality_count() - classify an answer of the module's path
 * @prev_cpu:  the wakee's previous CPU
 * @waker_cpu: the waking CPU (this one)
 * @cpu:       the answer
 *
 * Called through sw_locality_count() (locality.h), only while the key is on.
 */
void __sw_locality_count(int prev_cpu, int waker_cpu, int cpu)
{
	sw_loc_count(SW_C_loc_prev_same_cpu, prev_cpu, waker_cpu, cpu);
}

/**
 * __sw_locality_kernel() - classify the kernel's answer (policy=shadow)
 * @prev_cpu:  the wakee's previous CPU
 * @waker_cpu: the waking CPU (this one)
 * @cpu:       the kernel's answer, the one used
 *
 * path/shadow.c calls it for the wakeups whose module answer it counted.
 */
void __sw_locality_kernel(int prev_cpu, int waker_cpu, int cpu)
{
	sw_loc_count(SW_C_kernel_loc_prev_same_cpu, prev_cpu, waker_cpu, cpu);
}
