// SPDX-License-Identifier: GPL-2.0
/*
 * Decision counters: per-CPU, bumped without atomics on the wakeup path,
 * summed over possible CPUs when read.
 */
#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <smartwake/policy.h>
#include "stats.h"

DEFINE_PER_CPU(struct sw_pcpu_stats, sw_stats);
DEFINE_PER_CPU(struct sw_decided_log, sw_decided_log);

#define SW_COUNTER(name) __stringify(name),
static const char * const sw_counter_names[SW_NR_COUNTERS] = {
#include "counters.h"
};

#undef SW_COUNTER

const char *sw_counter_name(enum sw_counter c)
{
	return sw_counter_names[c];
}

u64 sw_counter_sum(enum sw_counter c)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&sw_stats, cpu)->c[c]);
	return sum;
}

/*
 * Zeroing races with increments on other CPUs: an event landing during the
 * reset may survive it. Readers take before/after differences anyway.
 */
void sw_counters_reset(void)
{
	int cpu, i;

	for_each_possible_cpu(cpu)
		for (i = 0; i < SW_NR_COUNTERS; i++)
			WRITE_ONCE(per_cpu_ptr(&sw_stats, cpu)->c[i], 0);
}

/* An undefined ratio (nothing measured) has no line at all. */
static void sw_print_pct(struct seq_file *m, const char *name, u64 x100)
{
	if (x100 == SW_PCT_UNDEFINED)
		return;
	seq_printf(m, "%s %llu.%02llu\n", name, x100 / 100, x100 % 100);
}

/*
 * policy=shadow's two halves of the sampled calls: the module's evaluation
 * and the kernel's function, their means per call and the ratio of the
 * means (a preempted sample moves these: cost.c prints the medians and
 * module_kernel_ratio, the ratio of the medians).
 */
static void sw_print_cost(struct seq_file *m)
{
	u64 n = sw_counter_sum(SW_C_shadow_calls_sampled);
	u64 mod = sw_counter_sum(SW_C_shadow_module_ns_sampled);
	u64 ker = sw_counter_sum(SW_C_shadow_kernel_ns_sampled);
	u64 r;

	if (!n || !ker)
		return;
	seq_printf(m, "module_ns_per_call %llu\n", div64_u64(mod, n));
	seq_printf(m, "kernel_ns_per_call %llu\n", div64_u64(ker, n));
	r = div64_u64(mod * 1000 + ker / 2, ker);
	seq_printf(m, "module_kernel_mean_ratio %llu.%03llu\n", r / 1000,
		   r % 1000);
}

/**
 * sw_stats_show_derived() - print the 2022 thread's SIS metrics, the
 * shadow agreement once policy=shadow has compared a wakeup, and the
 * select hook's reached share once a fair wakeup was counted
 * @m: the stats file
 *
 * Mel Gorman's definitions (see sw_sis_metrics()): a fast-path success
 * counts as one runqueue examined, so "scanned" there is the domain scans'
 * CPUs plus the target/prev/recent hits; they are for NO_SIS_UTIL
 * comparisons. Under SIS_UTIL read sis_idle_per_examined_pct and
 * sis_budget_stopped_pct. A metric with nothing measured has no line.
 * Counters are read one by one, so the metrics of a running system are
 * only approximately consistent.
 */
void sw_stats_show_derived(struct seq_file *m)
{
	struct sw_sis_counts c;
	struct sw_sis_metrics r;
	u64 compared, fair;
	u64 fast = sw_counter_sum(SW_C_sis_fast_target) +
		   sw_counter_sum(SW_C_sis_fast_prev) +
		   sw_counter_sum(SW_C_sis_fast_recent);

	c.search = sw_counter_sum(SW_C_sis_calls);
	c.domain_search = sw_counter_sum(SW_C_sis_domain_scans);
	c.scanned = sw_counter_sum(SW_C_sis_cpus_scanned) + fast;
	c.failed = sw_counter_sum(SW_C_sis_scan_failed);
	c.domain_cpus = sw_counter_sum(SW_C_sis_cpus_scanned);
	c.idle_found = sw_counter_sum(SW_C_sis_idle_found);
	c.no_budget = sw_counter_sum(SW_C_sis_scan_no_budget);
	r = sw_sis_metrics(&c);

	/* indicative: local_clock() under emulation is not cycles */
	if (sw_counter_sum(SW_C_self_calls_sampled))
		seq_printf(m, "self_ns_per_call %llu\n",
			   div64_u64(sw_counter_sum(SW_C_self_ns_sampled),
				     sw_counter_sum(SW_C_self_calls_sampled)));
	sw_print_cost(m);
	sw_print_pct(m, "sis_search_efficiency_pct", r.search_eff);
	sw_print_pct(m, "sis_domain_search_efficiency_pct", r.domain_eff);
	sw_print_pct(m, "sis_fast_success_pct", r.fast_success);
	sw_print_pct(m, "sis_success_pct", r.success);
	/* what to read under SIS_UTIL (the default) */
	sw_print_pct(m, "sis_idle_per_examined_pct", r.idle_per_examined);
	sw_print_pct(m, "sis_budget_stopped_pct", r.budget_stopped);

	/* policy=shadow: no comparison yet means no ratio, not 100% */
	compared = sw_counter_sum(SW_C_shadow_compared);
	if (compared)
		sw_print_pct(m, "shadow_agree_pct",
			     sw_ratio_x100(sw_counter_sum(SW_C_shadow_agree),
					   compared));

	/*
	 * The select hook's share of the fair wakeups that must reach it
	 * (reach.c); a reset racing a wakeup may leave reached one ahead.
	 */
	fair = sw_counter_sum(SW_C_fair_wakeups);
	sw_print_pct(m, "reached_pct",
		     sw_ratio_x100(min(sw_counter_sum(SW_C_fair_wakeups_reached),
				       fair), fair));
}
