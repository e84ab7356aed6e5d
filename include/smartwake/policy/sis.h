/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake policy core, select_idle_sibling helpers and the SIS filter.
 * Design source: 2022 "sched-idle balance" (a filter that skips overloaded
 * CPUs, Mel Gorman's select_idle_sibling efficiency metrics).
 * Included by <smartwake/policy.h>; conventions there.
 */
#ifndef _SMARTWAKE_POLICY_SIS_H
#define _SMARTWAKE_POLICY_SIS_H

#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <smartwake/enums.h>

/* ---------------------------------------------------------------------- */
/* select_idle_sibling helpers and the 2022 SIS filter                     */
/* ---------------------------------------------------------------------- */

/**
 * sw_cpu_overloaded() - 2022 SIS filter: is a CPU not worth scanning
 * @nr_running: runnable fair-class tasks on the CPU, hierarchical and
 *	without delayed-dequeue entities (cfs.h_nr_runnable on 6.12.117).
 * @idle_nr_running: how many of them are SCHED_IDLE (idle_h_nr_running).
 *
 * The seed's definition: "more than one pullable non-idle task" (Abel Wu,
 * 2022), idle tasks being those counted in cfs.idle_h_nr_running. Such a
 * CPU cannot become usable for the wakee soon. Tasks of other classes do
 * not count (they are not pullable by the fair balancer). An inconsistent
 * snapshot with @idle_nr_running > @nr_running counts as not overloaded.
 *
 * Return: true if overloaded.
 */
static inline bool sw_cpu_overloaded(unsigned int nr_running, unsigned int idle_nr_running)
{
	/* 2022 filter: two or more tasks that a wakee would have to wait for */
	return nr_running > idle_nr_running &&
	       nr_running - idle_nr_running > 1;
}

/**
 * sw_cpu_sched_idle() - the kernel's sched_idle_rq()
 * @nr_running: rq->nr_running.
 * @idle_nr_running: rq->cfs.idle_h_nr_running.
 *
 * Return: true if the CPU runs something and all of it is SCHED_IDLE.
 */
static inline bool sw_cpu_sched_idle(unsigned int nr_running, unsigned int idle_nr_running)
{
	return nr_running && nr_running == idle_nr_running;
}

/**
 * sw_cpu_usable_idle() - may select_idle_cpu() pick this CPU
 * @cpu_idle: idle_cpu() is true.
 * @vcpu_preempted: vcpu_is_preempted() is true.
 * @nr_running: rq->nr_running.
 * @idle_nr_running: rq->cfs.idle_h_nr_running.
 * @sched_idle_counts: accept a CPU running only SCHED_IDLE tasks, as
 *	__select_idle_cpu() does (select_idle_core() does not).
 *
 * Return: true for an available-idle CPU (idle and not a preempted vCPU)
 * or, with @sched_idle_counts, a sched-idle CPU.
 */
static inline bool sw_cpu_usable_idle(bool cpu_idle, bool vcpu_preempted,
				      unsigned int nr_running, unsigned int idle_nr_running,
				      bool sched_idle_counts)
{
	if (cpu_idle && !vcpu_preempted)
		return true;
	return sched_idle_counts &&
	       sw_cpu_sched_idle(nr_running, idle_nr_running);
}

/**
 * sw_sis_scan_budget() - how many CPUs select_idle_cpu() may examine
 * @llc_weight: CPUs in the LLC span the wakee may run on.
 * @nr_idle_scan_hint: sd_llc_shared->nr_idle_scan.
 * @sis_util: SIS_UTIL is on and the LLC has shared data (sd_llc_shared).
 *
 * Without SIS_UTIL the whole span is scanned. With it the kernel sets
 * nr = hint + 1 and returns at once when nr == 1, then decrements before
 * each CPU, so at most hint CPUs are examined. The idle-core search
 * (has_idle_core) ignores this budget in the kernel.
 *
 * Return: 0 (no scan) to @llc_weight.
 */
static inline unsigned int sw_sis_scan_budget(unsigned int llc_weight, int nr_idle_scan_hint,
					      bool sis_util)
{
	if (!sis_util)
		return llc_weight;
	/* nr_idle_scan == 0: the LLC is overloaded, no scan at all */
	if (nr_idle_scan_hint <= 0)
		return 0;
	return min_t(unsigned int, nr_idle_scan_hint, llc_weight);
}

/**
 * sw_ratio_x100() - a ratio as a percentage with two decimals
 * @num: numerator.
 * @den: denominator.
 *
 * Computes 10000 * num / den rounded down, so 1651 means 16.51 %. Inputs
 * too large for the product are scaled down together first; a quotient
 * that cannot be represented saturates at U64_MAX - 1.
 *
 * Return: the ratio in units of 0.01 %, or SW_PCT_UNDEFINED when @den is
 * 0 (nothing was measured: never a perfect score).
 */
u64 sw_ratio_x100(u64 num, u64 den);

/* A ratio whose denominator is 0: printed as nothing, never as 100 %. */
#define SW_PCT_UNDEFINED	U64_MAX

/**
 * struct sw_sis_counts - select_idle_sibling() counters (Mel Gorman's
 * 2021 SIS schedstats, as used for the 2022 SIS filter results)
 * @search: calls of select_idle_sibling().
 * @domain_search: calls that fell through to scanning the LLC domain.
 * @scanned: runqueues examined; the fast path (target, prev, recent)
 *	counts as one when it succeeds.
 * @failed: calls that found no idle CPU.
 * @domain_cpus: CPUs examined by the domain scans alone.
 * @idle_found: domain scans that found an idle CPU.
 * @no_budget: domain scans SIS_UTIL's budget stopped before any CPU.
 */
struct sw_sis_counts {
	u64 search;
	u64 domain_search;
	u64 scanned;
	u64 failed;
	u64 domain_cpus;
	u64 idle_found;
	u64 no_budget;
};

/**
 * struct sw_sis_metrics - derived SIS metrics, each in units of 0.01 %
 * @search_eff: "SIS Search Efficiency" = search / scanned.
 * @domain_eff: "SIS Domain Search Eff" = domain_search / domain_scanned,
 *	where domain_scanned = scanned - (search - domain_search).
 * @fast_success: "SIS Fast Success Rate" = (search - domain_search) / search.
 * @success: "SIS Success Rate" = (search - failed) / search.
 * @idle_per_examined: idle CPUs found per CPU a domain scan examined,
 *	idle_found / domain_cpus: meaningful with SIS_UTIL too.
 * @budget_stopped: share of domain scans SIS_UTIL's budget stopped before
 *	any CPU, no_budget / domain_search.
 *
 * The first four are Mel Gorman's definitions as computed by mmtests for
 * the numbers quoted in the 2022 thread; they assume every domain scan
 * examines CPUs (NO_SIS_UTIL) and exceed 100 % when SIS_UTIL stops scans
 * before the first CPU. A zero denominator gives SW_PCT_UNDEFINED.
 */
struct sw_sis_metrics {
	u64 search_eff;
	u64 domain_eff;
	u64 fast_success;
	u64 success;
	u64 idle_per_examined;
	u64 budget_stopped;
};

/**
 * sw_sis_metrics() - derive the SIS efficiency metrics from counters
 * @c: counter deltas over the measured interval.
 *
 * Differences of counters that a racy snapshot left inconsistent are
 * clamped at 0.
 *
 * Return: the metrics, see &struct sw_sis_metrics.
 */
struct sw_sis_metrics sw_sis_metrics(const struct sw_sis_counts *c);

#endif /* _SMARTWAKE_POLICY_SIS_H */
