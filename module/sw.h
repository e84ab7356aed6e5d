/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the module shell's internal interfaces.
 *
 * The policy math is in include/smartwake/policy.h (pure functions); this
 * header ties together the imperative shell: symbols, hooks, knobs,
 * counters and debugfs.
 */
#ifndef _SMARTWAKE_SW_H
#define _SMARTWAKE_SW_H

#include <linux/types.h>
#include <linux/ftrace.h>
#include <linux/percpu.h>

/* ---- counters (stats.c) ------------------------------------------------
 * One X-macro list: the enum, the names printed in "stats" and the reset
 * all come from it. Names carry no units: they are event counts.
 */
#define SW_COUNTERS(C)							\
	C(select_calls)		/* select_task_rq_fair entries seen */	\
	C(passthrough)		/* handed to the original unchanged */

#define SW_COUNTER_ENUM(n) SW_C_##n,
enum sw_counter { SW_COUNTERS(SW_COUNTER_ENUM) SW_NR_COUNTERS };
#undef SW_COUNTER_ENUM

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

/* ---- knobs (knobs.c) ----------------------------------------------------
 * Every run-time setting is one row of a table: debugfs files, strict
 * parsing and the "knobs" listing are generated from it.
 */
struct sw_knob {
	const char *name;
	const char *help;	/* one line, shown in debugfs "knobs" */
	int *val;		/* read on the hot path with READ_ONCE() */
	/* Either a list of names (value = index)... */
	const char * const *names;
	int nr_names;
	/* ...and/or a numeric range; with names, a number selects fixed_idx. */
	bool numeric;
	int min, max;
	int fixed_idx;		/* names + numeric: index meaning "number" */
	int *num;		/* where that number is stored */
	/* Optional: validate/apply a change under the knob lock; 0 = ok. */
	int (*apply)(const struct sw_knob *k, int old, int new);
};

extern int sw_enabled;

int sw_knobs_init(struct dentry *dir);
int sw_knob_write(const struct sw_knob *k, const char *buf, size_t len);

/* ---- symbols (symbols.c) ----------------------------------------------- */
struct sw_symbol {
	const char *name;
	unsigned long *addr;
};

extern unsigned long sw_sym_select_task_rq_fair;

int sw_symbols_resolve(void);

/* ---- ftrace hooks (hooks.c) -------------------------------------------- */
struct sw_hook {
	const char *name;		/* for messages */
	unsigned long *target;		/* resolved address */
	void *replacement;		/* redirect target, or NULL */
	ftrace_func_t observe;		/* pre-handler when not redirecting */
	struct ftrace_ops ops;
	bool filtered, registered;
};

int sw_hooks_enable(void);
void sw_hooks_disable(void);
int sw_hooks_show(struct seq_file *m);

/* ---- the wakeup path (wake.c) ------------------------------------------ */
int sw_select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags);

/* ---- debugfs (debugfs.c) ----------------------------------------------- */
int sw_debugfs_init(void);
void sw_debugfs_exit(void);

#endif /* _SMARTWAKE_SW_H */
