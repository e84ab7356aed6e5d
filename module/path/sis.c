// SPDX-License-Identifier: GPL-2.0
/*
 * select_idle_sibling() of 6.12 fair.c, re-implemented over struct rq and
 * sched_domain fields, with the 2022 SIS filter (Abel Wu): CPUs that are
 * overloaded (overload.c) are removed from the LLC scan when the
 * sis_filter knob is set, so they neither cost a runqueue visit nor use
 * up the SIS_UTIL scan budget.
 *
 * The hook (select.c) has already excluded what this file does not model
 * (asymmetric CPU capacity, core scheduling) and checked that target and
 * prev are active CPUs the task may use. Differences from the kernel:
 * Documentation/design.md, "The wakeup path and its differences from the
 * kernel".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/mmu_context.h>
#include <linux/sched/smt.h>
#include <linux/topology.h>
#include "internal.h"
#include "../knob_defs.h"
#include "../overload.h"
#include "../stats.h"
#include "../symbols.h"
#include "../testing.h"

/* knob sis_sched_idle: SCHED_IDLE-only CPUs count as idle (mainline) */
int sw_sis_sched_idle = 1;

/* Scratch mask per CPU, like the kernel's select_rq_mask (IRQs are off). */
static DEFINE_PER_CPU(cpumask_var_t, sw_sis_mask);

struct sw_sis {
	struct task_struct *p;
	bool sched_idle;	/* sis_sched_idle: SCHED_IDLE-only CPUs count */
	bool domain;		/* the LLC domain scan was entered */
	unsigned int scanned;	/* CPUs examined by the domain scan */
};

/*
 * available_idle_cpu() || sched_idle_cpu(), the latter only with the
 * sis_sched_idle knob. vcpu_is_preempted() is asked only of an idle CPU,
 * as the kernel's short-circuit does.
 */
static __always_inline bool sw_usable(const struct sw_sis *s, int cpu)
{
	struct rq *rq = sw_cpu_rq(cpu);
	bool idle = sw_idle_cpu(cpu);

	return sw_cpu_usable_idle(idle, idle && vcpu_is_preempted(cpu),
				  READ_ONCE(sw_rq(rq, nr_running)),
				  sw_cfs_h_nr_idle(&sw_rq(rq, cfs)),
				  s->sched_idle);
}

/*
 * __select_idle_cpu(). The core-scheduling cookie test is left out: select.c
 * hands every wakeup to the kernel while core scheduling is enabled.
 */
static __always_inline int sw_select_idle_one(struct sw_sis *s, int cpu)
{
	s->scanned++;
	return sw_usable(s, cpu) ? cpu : -1;
}

/* test_idle_cores(); policy=shadow keeps the first value it read */
static bool sw_test_idle_cores(int cpu)
{
	struct sw_wake_ctx *ctx = this_cpu_ptr(&sw_wake_ctx);
	struct sched_domain_shared *sds = sw_sd_llc_shared(cpu);
	bool v;

	if (!sds)
		return false;
	if (ctx->mode != SW_WAKE_SHADOW)
		return READ_ONCE(sw_sds(sds, has_idle_cores));
	if (ctx->seen_sds == sds)
		return ctx->seen;
	v = READ_ONCE(sw_sds(sds, has_idle_cores));
	if (!ctx->seen_sds) {
		ctx->seen_sds = sds;
		ctx->seen = v;
	}
	return v;
}

/*
 * The kernel clears the hint after a failed core search; so do we, except
 * in a shadow evaluation, which must leave the hint to the kernel.
 */
static void sw_clear_idle_cores(int cpu)
{
	struct sw_wake_ctx *ctx = this_cpu_ptr(&sw_wake_ctx);
	struct sched_domain_shared *sds = sw_sd_llc_shared(cpu);

	if (!sds || ctx->mode == SW_WAKE_SHADOW)
		return;
	if (ctx->mode == SW_WAKE_COMMIT) {
		/* select.c clears it if the answer is used */
		ctx->clear_idle_cores = sds;
		return;
	}
	WRITE_ONCE(sw_sds(sds, has_idle_cores), 0);
}

/**
 * sw_select_idle_core() - select_idle_core(): is @core's whole SMT group idle
 * @s:        the search
 * @core:     a CPU of the candidate core
 * @cpus:     candidates; @core's siblings are removed when it is busy
 * @idle_cpu: in/out: the first usable CPU seen, as a fallback answer
 *
 * Return: @core if all its siblings are available-idle, otherwise -1.
 */
static __always_inline int sw_select_idle_core(struct sw_sis *s, int core,
					       struct cpumask *cpus,
					       int *idle_cpu)
{
	bool idle = true;
	int cpu;

	for_each_cpu(cpu, cpu_smt_mask(core)) {
		s->scanned++;
		if (!sw_available_idle_cpu(cpu)) {
			idle = false;
			if (*idle_cpu == -1) {
				if (s->sched_idle && sw_sched_idle_cpu(cpu) &&
				    cpumask_test_cpu(cpu, cpus)) {
					*idle_cpu = cpu;
					break;
				}
				continue;
			}
			break;
		}
		if (*idle_cpu == -1 && cpumask_test_cpu(cpu, cpus))
			*idle_cpu = cpu;
	}

	if (idle)
		return core;

	cpumask_andnot(cpus, cpus, cpu_smt_mask(core));
	return -1;
}

/* select_idle_smt(): a usable SMT sibling of @target inside the LLC */
static int sw_select_idle_smt(struct sw_sis *s, struct sched_domain *sd,
			      int target)
{
	int cpu;

	for_each_cpu_and(cpu, cpu_smt_mask(target), sw_task(s->p, cpus_ptr)) {
		if (cpu == target)
			continue;
		if (!cpumask_test_cpu(cpu, sched_domain_span(sd)) ||
		    !cpu_active(cpu))
			continue;
		if (sw_select_idle_one(s, cpu) >= 0)
			return cpu;
	}
	return -1;
}

/*
 * One candidate of the scan loop; -2 means the budget ran out. This and
 * the two above are inline: out of line, each scanned CPU paid a call and
 * a return thunk (copy/kernel 1.085 on the same wakeups at 128 CPUs,
 * scripts/scale.sh 2s2l16c2t).
 */
static __always_inline int sw_scan_one(struct sw_sis *s, int cpu,
				       struct cpumask *cpus, bool has_idle_core,
				       unsigned int *budget, int *idle_cpu)
{
	if (has_idle_core)
		return sw_select_idle_core(s, cpu, cpus, idle_cpu);
	if (!*budget)
		return -2;
	(*budget)--;
	*idle_cpu = sw_select_idle_one(s, cpu);
	return *idle_cpu;
}

/* The CPUs of @cpus in @over that are not overloaded: @over's staleness. */
static __always_inline unsigned int sw_overloaded_stale(const struct cpumask *cpus,
							const struct cpumask *over)
{
	unsigned int stale = 0;
	int c;

	for_each_cpu_and(c, cpus, over)
		if (!sw_rq_overloaded(sw_cpu_rq(c)))
			stale++;
	return stale;
}

/**
 * sw_select_idle_cpu() - select_idle_cpu(): scan the LLC for an idle CPU
 * @s:             the search
 * @sd:            target's LLC domain
 * @has_idle_core: look for a whole idle core (SMT)
 * @target:        where the wrap-around scan starts (after it)
 * @lean:          the lean copy (lean.h)
 *
 * The candidates are the LLC span and the task's allowed CPUs, as in the
 * kernel: a CPU deactivated before the domains are rebuilt is refused by
 * the answer check (inactive_answers). With sis_filter the LLC's
 * overloaded CPUs are removed before the scan. The SIS_UTIL budget
 * (sd_llc_shared->nr_idle_scan) limits the single-CPU search, not the
 * idle-core search, as in the kernel.
 *
 * Return: a CPU, or -1.
 */
static __always_inline int sw_select_idle_cpu(struct sw_sis *s,
					      struct sched_domain *sd,
					      bool has_idle_core, int target,
					      bool lean)
{
	struct cpumask *cpus = this_cpu_cpumask_var_ptr(sw_sis_mask);
	struct sched_domain_shared *sds = NULL;
	int i, cpu, idle_cpu = -1;
	unsigned int budget;

	cpumask_and(cpus, sched_domain_span(sd), sw_task(s->p, cpus_ptr));

	if (sw_knob(lean, sw_sis_filter)) {
		const struct cpumask *over =
			sw_llc_overloaded_mask(sw_llc_id(target));
		/*
		 * data_race(): the LLC's CPUs set and clear their bits of
		 * @over meanwhile (atomic bit operations, no lock): a hint,
		 * whose staleness is counted (KCSAN reported these reads).
		 */
		unsigned int n = over ? data_race(cpumask_weight_and(cpus, over)) : 0;

		if (n) {
			unsigned int stale;

			sw_count_decided(SW_C_sis_overloaded_skipped, n);
			/* data_race(): the same hint, its staleness counted */
			stale = data_race(sw_overloaded_stale(cpus, over));
			sw_count_decided(SW_C_sis_overloaded_stale, stale);
			/* data_race(): the same hint, removed from the scan */
			data_race(cpumask_andnot(cpus, cpus, over));
		}
	}

	if (sw_sched_feat(__SCHED_FEAT_SIS_UTIL, true))
		sds = sw_sd_llc_shared(target);
	budget = sw_sis_scan_budget(sw_sd(sd, span_weight),
				    sds ? READ_ONCE(sw_sds(sds, nr_idle_scan)) : 0,
				    sds);
	/* overloaded LLC: the kernel does not scan at all */
	if (!budget) {
		sw_count_decided(SW_C_sis_scan_no_budget, 1);
		return -1;
	}

	if (sw_cluster_active()) {
		struct sched_group *sg = sw_sd(sd, groups);

		if (sw_sg(sg, flags) & SW_SD_CLUSTER) {
			for_each_cpu_wrap(cpu, sched_group_span(sg), target + 1) {
				if (!cpumask_test_cpu(cpu, cpus))
					continue;
				i = sw_scan_one(s, cpu, cpus, has_idle_core,
						&budget, &idle_cpu);
				if (i == -2)
					return -1;
				if (i >= 0)
					return i;
			}
			cpumask_andnot(cpus, cpus, sched_group_span(sg));
		}
	}

	for_each_cpu_wrap(cpu, cpus, target + 1) {
		i = sw_scan_one(s, cpu, cpus, has_idle_core, &budget, &idle_cpu);
		if (i == -2)
			return -1;
		if (i >= 0)
			return i;
	}

	if (has_idle_core) {
		sw_testing_core_miss();
		sw_clear_idle_cores(target);
	}

	return idle_cpu;
}

static __always_inline int sw_sis_done(struct sw_sis *s, int prev, int target,
				       int cpu, enum sw_sis_how how)
{
	static const enum sw_counter fast[] = {
		[SW_SIS_TARGET] = SW_C_sis_fast_target,
		[SW_SIS_PREV] = SW_C_sis_fast_prev,
		[SW_SIS_RECENT] = SW_C_sis_fast_recent,
	};

	if (how >= SW_SIS_TARGET && how <= SW_SIS_RECENT && !s->domain) {
		/* no scan ran: s->scanned is 0, nothing to add */
		sw_count_decided(fast[how], 1);
	} else {
		if (how == SW_SIS_NONE)
			sw_count_decided(SW_C_sis_scan_failed, 1);
		else
			sw_count_decided(SW_C_sis_idle_found, 1);
		sw_count_decided(SW_C_sis_cpus_scanned, s->scanned);
	}
	if (unlikely(sw_tracing())) {
		sw_trace_set(how, how);
		sw_trace_set(idle, cpu);
		sw_trace_set(scanned, s->scanned);
		sw_trace_set(recent, sw_task(s->p, recent_used_cpu));
	}
	return cpu;
}

/* sw_select_idle_sibling(), one copy: @lean as in sw_wake() */
static __always_inline int __sw_select_idle_sibling(struct task_struct *p,
						    int prev, int target,
						    bool lean)
{
	bool cluster = sw_cluster_active();
	struct sw_sis s = {
		.p = p,
		.sched_idle = sw_knob(lean, sw_sis_sched_idle) &&
			      sw_wakee_takes_sched_idle(p),
	};
	int i, recent, this_cpu = smp_processor_id(), prev_aff = -1;
	bool has_idle_core = false;
	struct sched_domain *sd;

	lockdep_assert_irqs_disabled();
	sw_count_decided(SW_C_sis_calls, 1);

	if (sw_usable(&s, target))
		return sw_sis_done(&s, prev, target, target, SW_SIS_TARGET);

	/* a cache-affine idle prev CPU */
	if (prev != target && sw_cpus_share_cache(prev, target) &&
	    sw_usable(&s, prev)) {
		if (!cluster || sw_cpus_share_resources(prev, target))
			return sw_sis_done(&s, prev, target, prev, SW_SIS_PREV);
		prev_aff = prev;
	}

	/*
	 * A per-CPU kthread waking a task on its own CPU, with nothing else
	 * there: the wakee queued work for it (I/O completion), stack them.
	 */
	if (is_per_cpu_kthread(current) && in_task() && prev == this_cpu &&
	    READ_ONCE(sw_rq(sw_cpu_rq(this_cpu), nr_running)) <= 1)
		return sw_sis_done(&s, prev, target, prev, SW_SIS_PREV);

	/* a recently used CPU; cpu_active() is the module's addition */
	recent = sw_task(p, recent_used_cpu);
	sw_task(p, recent_used_cpu) = prev;
	if ((unsigned int)recent < nr_cpu_ids && recent != prev &&
	    recent != target && sw_cpus_share_cache(recent, target) &&
	    sw_usable(&s, recent) && cpumask_test_cpu(recent, sw_task(p, cpus_ptr)) &&
	    cpu_active(recent)) {
		if (!cluster || sw_cpus_share_resources(recent, target))
			return sw_sis_done(&s, prev, target, recent,
					   SW_SIS_RECENT);
	} else {
		recent = -1;
	}

	sd = sw_sd_llc_irqoff(target);
	if (!sd)
		return sw_sis_done(&s, prev, target, target, SW_SIS_NONE);

	sw_count_decided(SW_C_sis_domain_scans, 1);
	s.domain = true;
	if (sched_smt_active()) {
		has_idle_core = sw_test_idle_cores(target);
		if (!has_idle_core && sw_cpus_share_cache(prev, target)) {
			i = sw_select_idle_smt(&s, sd, prev);
			if (i >= 0)
				return sw_sis_done(&s, prev, target, i,
						   SW_SIS_SCAN);
		}
	}

	i = sw_select_idle_cpu(&s, sd, has_idle_core, target, lean);
	if (i >= 0)
		return sw_sis_done(&s, prev, target, i, SW_SIS_SCAN);

	/* cluster machines: an idle prev/recent outside target's cluster */
	if (prev_aff >= 0)
		return sw_sis_done(&s, prev, target, prev_aff, SW_SIS_PREV);
	if (recent >= 0)
		return sw_sis_done(&s, prev, target, recent, SW_SIS_RECENT);

	return sw_sis_done(&s, prev, target, target, SW_SIS_NONE);
}

/**
 * sw_select_idle_sibling() - the module's select_idle_sibling()
 * @p:      the wakee
 * @prev:   its previous CPU
 * @target: the CPU wake_affine() settled on (prev or the waking CPU)
 * @lean:   the copy of sw_wake() that calls it (lean.h): the same one
 *          here, without asking the static key again
 *
 * Called from the wakeup path with IRQs disabled (an RCU read-side
 * section for the domains).
 * Updates p->recent_used_cpu like the kernel; the caller restores it when
 * it discards this answer.
 *
 * Return: the CPU for @p.
 */
__always_inline int sw_select_idle_sibling(struct task_struct *p, int prev,
					  int target, bool lean)
{
	if (lean)
		return __sw_select_idle_sibling(p, prev, target, true);
	return __sw_select_idle_sibling(p, prev, target, false);
}

int sw_sis_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (!zalloc_cpumask_var_node(per_cpu_ptr(&sw_sis_mask, cpu),
					     GFP_KERNEL, cpu_to_node(cpu))) {
			sw_sis_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/* Only once no wakeup can be inside the module any more. */
void sw_sis_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		free_cpumask_var(*per_cpu_ptr(&sw_sis_mask, cpu));
}
