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

/*
 * The decision counters (wide_waker_master to numa_backoff_set in
 * counters.h): an answer the module refuses takes its counts back
 * (path/select.c), so they describe answers that were used. Each is
 * counted at most once per decision, through sw_count_decided(), which
 * notes which and by how much: the take-back, rare, reads the note, and
 * the decision copies no snapshot of them (32 instructions a wakeup,
 * scripts/insnprof.sh).
 */
#define SW_DECIDED_FIRST	SW_C_wide_waker_master
#define SW_NR_DECIDED		(SW_C_numa_backoff_set - SW_DECIDED_FIRST + 1)

struct sw_decided_log {
	u32 mask;		/* bit i: counter SW_DECIDED_FIRST + i counted */
	u64 n[SW_NR_DECIDED];	/* ...by this much (SW_DECIDED_ADDS), else 1 */
};
DECLARE_PER_CPU(struct sw_decided_log, sw_decided_log);

#define SW_DECIDED_BIT(c)	(1U << ((c) - SW_DECIDED_FIRST))
/* the counters counted by an amount; the others by one */
#define SW_DECIDED_ADDS		(SW_DECIDED_BIT(SW_C_sis_cpus_scanned) | \
				 SW_DECIDED_BIT(SW_C_sis_overloaded_skipped) | \
				 SW_DECIDED_BIT(SW_C_sis_overloaded_stale))

/* A decision counter, in the wakeup path (preemption disabled). */
static __always_inline void sw_count_decided(enum sw_counter c, u64 n)
{
	__this_cpu_add(sw_stats.c[c], n);
	__this_cpu_or(sw_decided_log.mask, SW_DECIDED_BIT(c));
	if (SW_DECIDED_BIT(c) & SW_DECIDED_ADDS)
		__this_cpu_write(sw_decided_log.n[c - SW_DECIDED_FIRST], n);
}

u64 sw_counter_sum(enum sw_counter c);
const char *sw_counter_name(enum sw_counter c);
void sw_counters_reset(void);
void sw_stats_show_derived(struct seq_file *m);

#endif /* _SMARTWAKE_STATS_H */
