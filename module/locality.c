// SPDX-License-Identifier: GPL-2.0
/*
 * Placement locality: where each answer lies relative to the wakee's
 * previous CPU (loc_prev_*) and to the waking CPU (loc_waker_*), as same
 * CPU, SMT sibling, same LLC, another LLC of the same node, another node
 * (sw_locality()). Counted for every answer of the module's path, the
 * used ones under policy=smartwake and the compared ones under
 * policy=shadow, and, under policy=shadow, for the kernel's answer
 * (kernel_loc_*). So each family of five adds up to the answers counted:
 * policy=smartwake, wakeups - fallback_original - invariant_violations -
 * inactive_answers; policy=shadow, shadow_compared (for both the module's
 * and the kernel's). An answer that is not a valid CPU number (an
 * invariant violation of the shadow path) is not classified.
 *
 * Runs on the wakeup path with interrupts off: per-CPU counters, and the
 * topology read as the kernel keeps it (sd_llc_id, the SMT sibling mask,
 * the CPU's node), without locks; a topology change meanwhile can only
 * move one answer between classes.
 */
#include <linux/cpumask.h>
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

/**
 * sw_locality_count() - classify an answer of the module's path
 * @prev_cpu:  the wakee's previous CPU
 * @waker_cpu: the waking CPU (this one)
 * @cpu:       the answer
 */
void sw_locality_count(int prev_cpu, int waker_cpu, int cpu)
{
	sw_loc_count(SW_C_loc_prev_same_cpu, prev_cpu, waker_cpu, cpu);
}

/**
 * sw_locality_shadow() - classify both answers of a policy=shadow wakeup
 * @prev_cpu:  the wakee's previous CPU
 * @waker_cpu: the waking CPU (this one)
 * @mine:      the module's answer
 * @theirs:    the kernel's answer, the one used
 */
void sw_locality_shadow(int prev_cpu, int waker_cpu, int mine, int theirs)
{
	sw_loc_count(SW_C_loc_prev_same_cpu, prev_cpu, waker_cpu, mine);
	sw_loc_count(SW_C_kernel_loc_prev_same_cpu, prev_cpu, waker_cpu,
		     theirs);
}
