/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: per-CPU decision counters (stats.c); counters.h lists them.
 */
#ifndef _SMARTWAKE_STATS_H
#define _SMARTWAKE_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>

/* ---- counters (stats.c) ------------------------------------------------
 * counters.h lists them once; the enum and the names come from it.
 */
#define SW_COUNTER(name) SW_C_##name,
enum sw_counter {
#include "counters.h"
	SW_NR_COUNTERS
};

#undef SW_COUNTER

struct sw_pcpu_stats {
	u64 c[SW_NR_COUNTERS];
};
DECLARE_PER_CPU(struct sw_pcpu_stats, sw_stats);

/* Callers run with preemption or interrupts disabled (the wakeup path). */
static inline void sw_count(enum sw_counter c)
{
	__this_cpu_inc(sw_stats.c[c]);
}

static inline void sw_count_add(enum sw_counter c, u64 n)
{
	__this_cpu_add(sw_stats.c[c], n);
}

u64 sw_counter_sum(enum sw_counter c);
const char *sw_counter_name(enum sw_counter c);
void sw_counters_reset(void);
void sw_stats_show_derived(struct seq_file *m);

#endif /* _SMARTWAKE_STATS_H */
