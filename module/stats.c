// SPDX-License-Identifier: GPL-2.0
/*
 * Decision counters: per-CPU, bumped without atomics on the wakeup path,
 * summed over possible CPUs when read.
 */
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include "sw.h"

DEFINE_PER_CPU(struct sw_pcpu_stats, sw_stats);

#define SW_COUNTER_NAME(n) #n,
static const char * const sw_counter_names[SW_NR_COUNTERS] = {
	SW_COUNTERS(SW_COUNTER_NAME)
};
#undef SW_COUNTER_NAME

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
