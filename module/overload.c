// SPDX-License-Identifier: GPL-2.0
/*
 * The 2022 SIS filter's bookkeeping: per LLC, the CPUs that are overloaded
 * (more than one runnable non-SCHED_IDLE task, sw_cpu_overloaded()).
 *
 * Abel Wu's patch kept the mask in sched_domain_shared and updated it from
 * the tick; a module cannot grow kernel structures, so each LLC's mask is
 * allocated here and indexed by sd_llc_id (the first CPU of the LLC), and
 * it is kept current from the sched_update_nr_running_tp tracepoint, which
 * fires on every change of rq->nr_running under the runqueue lock.
 *
 * sd_llc_id changes when domains are rebuilt (CPU hotplug, cpusets), so a
 * mask exists for every possible CPU id, and each CPU remembers in which
 * mask it last set its bit and clears it there when its id moves. A bit
 * may be stale for a moment; the scan only uses the mask to skip CPUs of
 * the current LLC span that the wakee may use and that are active, so a
 * stale bit can cost a missed idle CPU but never yields a choice.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/mmu_context.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include "sched.h"
#include "sw.h"

/* indexed by sd_llc_id, a mask for every possible CPU id */
static cpumask_var_t *sw_llc_masks;
/* the mask index where each CPU's bit may be set, -1 for none */
static DEFINE_PER_CPU(int, sw_mask_llc) = -1;
static bool sw_probe_on;

const struct cpumask *sw_llc_overloaded_mask(int llc_id)
{
	if (!sw_llc_masks || (unsigned int)llc_id >= nr_cpu_ids)
		return NULL;
	return sw_llc_masks[llc_id];
}

/*
 * Record one CPU's state. Writers of a CPU's bit are serialised by that
 * CPU's runqueue lock (tracepoint) or run before the probe exists (seed);
 * the bit operations themselves are atomic as other CPUs share the word.
 */
static void sw_overload_update(int cpu, unsigned int nr, unsigned int idle)
{
	int id = sw_llc_id(cpu), old = per_cpu(sw_mask_llc, cpu);
	bool over = sw_cpu_overloaded(nr, idle);
	struct cpumask *m;

	/* ids are CPU numbers: every possible one has a mask */
	if ((unsigned int)id >= nr_cpu_ids)
		return;
	if (old != id && (unsigned int)old < nr_cpu_ids)
		cpumask_clear_cpu(cpu, sw_llc_masks[old]);
	per_cpu(sw_mask_llc, cpu) = id;

	m = sw_llc_masks[id];
	/* test first: most updates change nothing, keep the line shared */
	if (cpumask_test_cpu(cpu, m) == over)
		return;
	if (over)
		cpumask_set_cpu(cpu, m);
	else
		cpumask_clear_cpu(cpu, m);
}

/*
 * Changes of each runqueue's nr_running, counted under that runqueue's
 * lock: policy=shadow (wake.c) compares sums of them to tell whether any
 * runqueue it looked at changed while the module and the kernel decided.
 */
static DEFINE_PER_CPU(unsigned long, sw_nr_running_seq);

unsigned long sw_nr_running_seq_of(int cpu)
{
	return READ_ONCE(per_cpu(sw_nr_running_seq, cpu));
}

static void notrace sw_nr_running_probe(void *data, struct rq *rq, int change)
{
	unsigned long *seq = per_cpu_ptr(&sw_nr_running_seq, cpu_of(rq));

	WRITE_ONCE(*seq, *seq + 1);
	sw_overload_update(cpu_of(rq), READ_ONCE(rq->nr_running),
			   READ_ONCE(rq->cfs.idle_h_nr_running));
}

static void sw_overload_free_masks(void)
{
	int cpu;

	if (!sw_llc_masks)
		return;
	for_each_possible_cpu(cpu)
		free_cpumask_var(sw_llc_masks[cpu]);
	kfree(sw_llc_masks);
	sw_llc_masks = NULL;
}

/**
 * sw_overload_init() - allocate the masks, register the probe, seed them
 *
 * Return: 0 or a negative errno with nothing left allocated or registered.
 */
int sw_overload_init(void)
{
	int cpu, ret;

	sw_llc_masks = kcalloc(nr_cpu_ids, sizeof(*sw_llc_masks), GFP_KERNEL);
	if (!sw_llc_masks)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		if (!zalloc_cpumask_var(&sw_llc_masks[cpu], GFP_KERNEL)) {
			sw_overload_free_masks();
			return -ENOMEM;
		}
	}

	ret = register_trace_sched_update_nr_running_tp(sw_nr_running_probe,
							NULL);
	if (ret) {
		pr_err("cannot attach to sched_update_nr_running_tp: %d\n", ret);
		sw_overload_free_masks();
		return ret;
	}
	sw_probe_on = true;

	/*
	 * Seed from a racy snapshot. A CPU whose count changes meanwhile is
	 * also written by the probe; whichever runs last may be a step
	 * behind until that CPU's next change, which only affects filtering.
	 */
	for_each_online_cpu(cpu) {
		struct rq *rq = sw_cpu_rq(cpu);

		sw_overload_update(cpu, READ_ONCE(rq->nr_running),
				   READ_ONCE(rq->cfs.idle_h_nr_running));
	}
	return 0;
}

/* Stop updates; the caller then waits with tracepoint_synchronize_unregister(). */
void sw_overload_stop(void)
{
	int ret;

	if (!sw_probe_on)
		return;
	ret = unregister_trace_sched_update_nr_running_tp(sw_nr_running_probe,
							  NULL);
	WARN(ret, "unregistering the nr_running probe failed: %d\n", ret);
	sw_probe_on = false;
}

/* Free the masks: no probe and no wakeup path may be running any more. */
void sw_overload_free(void)
{
	sw_overload_free_masks();
}
