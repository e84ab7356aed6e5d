/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the module shell's internal interfaces.
 *
 * The policy math is in include/smartwake/policy.h (pure functions); this
 * header ties together the imperative shell: symbols, hooks, knobs,
 * counters, the wakeup path and debugfs.
 *
 * Files that read scheduler structures include <linux/mmu_context.h> and
 * the kernel's private "sched.h" before this header; they then also get
 * the runqueue accessors at the end.
 */
#ifndef _SMARTWAKE_SW_H
#define _SMARTWAKE_SW_H

#include <linux/types.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <smartwake/policy.h>

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

/* "policy" knob values */
enum sw_policy {
	SW_POLICY_STOCK,	/* every call goes to the kernel's function */
	SW_POLICY_SMARTWAKE,	/* wakeups take the module's path */
	SW_POLICY_SHADOW,	/* both decide, the kernel's answer is used */
	SW_POLICY_NR
};

extern int sw_enabled;
extern int sw_policy;
extern int sw_decay;		/* enum sw_decay */
extern int sw_wide_mode;	/* enum sw_wide_mode */
extern int sw_factor_src;	/* enum sw_factor_src */
extern int sw_factor_fixed;	/* N when sw_factor_src is SW_FACTOR_FIXED */
extern int sw_wa_idle;
extern int sw_wa_weight;
extern int sw_wa_bias;
extern int sw_sync;
extern int sw_sis_filter;
extern int sw_sis_sched_idle;
extern int sw_sis_mask_update;	/* enum sw_mask_update */

/* sis_mask_update: where the overloaded masks are kept current */
enum sw_mask_update {
	SW_MASK_ENQUEUE,	/* every nr_running change (a tracepoint) */
	SW_MASK_TICK,		/* the scheduler tick, as the 2022 patch */
	SW_MASK_NR
};

int sw_knobs_init(struct dentry *dir);
void sw_knobs_ready(void);
int sw_knob_write(const struct sw_knob *k, const char *buf, size_t len);

/* ---- symbols (symbols.c) -----------------------------------------------
 * Addresses from kallsyms. Per-CPU variables are per-CPU offsets ('A' in
 * kallsyms) used with per_cpu_ptr(). An optional symbol resolves to 0 when
 * the kernel lacks it; the user of each documents what 0 means.
 */
struct sw_symbol {
	const char *name;
	unsigned long *addr;
	bool optional;
	bool percpu;		/* a per-CPU offset, not an address */
};

extern unsigned long sw_sym_select_task_rq_fair;
extern unsigned long sw_sym_runqueues;		/* per-CPU struct rq */
extern unsigned long sw_sym_sd_llc;		/* per-CPU sched_domain * */
extern unsigned long sw_sym_sd_llc_size;	/* per-CPU int */
extern unsigned long sw_sym_sd_llc_id;		/* per-CPU int */
extern unsigned long sw_sym_sd_share_id;	/* per-CPU int */
extern unsigned long sw_sym_sd_llc_shared;	/* per-CPU sched_domain_shared * */
extern unsigned long sw_sym_sched_asym_cpucapacity;	/* static key */
extern unsigned long sw_sym_sched_cluster_active;	/* optional key */
extern unsigned long sw_sym_sched_energy_present;	/* optional key */
extern unsigned long sw_sym_sysctl_sched_features;	/* optional */
extern unsigned long sw_sym_sched_core_enabled;	/* CONFIG_SCHED_CORE only */
extern unsigned long sw_sym_ttwu_queue_wakelist;
extern unsigned long sw_sym_task_numa_fault;
extern unsigned long sw_sym_sched_numa_balancing;	/* static key */
extern unsigned long sw_sym_sysctl_numa_balancing_scan_delay; /* unsigned int */
extern unsigned long sw_sym_sched_tick;		/* optional (6.10+ name) */

int sw_symbols_resolve(void);
bool sw_symbol_is_start(const char *name, unsigned long addr);
unsigned long sw_symbols_old_lookup(void);	/* testing builds */

/* ---- calls into the kernel through a pointer (ibt.c) ------------------- */
int sw_calls_check(void);
int sw_calls_show(struct seq_file *m);

/* ---- ftrace hooks (hooks.c) -------------------------------------------- */
struct sw_hook {
	const char *name;		/* for messages */
	unsigned long *target;		/* resolved address */
	void *replacement;		/* redirect target, or NULL */
	ftrace_func_t callback;		/* the redirect, or a pre-handler */
	const char *needs;		/* the knob setting that installs it */
	struct ftrace_ops ops;
	bool filtered, registered;
	bool pinned;			/* unregister failed: module held */
};

/* Every hook is installed by a knob that needs it, none at load. */
enum sw_hook_id { SW_HOOK_SELECT, SW_HOOK_TTWU, SW_HOOK_NUMA_FAULT,
		  SW_HOOK_TICK, SW_NR_HOOKS };

int sw_hook_set(enum sw_hook_id id, bool on);
int sw_hooks_disable(void);
void sw_hooks_remove_all(void);
int sw_hooks_show(struct seq_file *m);

/* ---- the wakeup path (wake.c, sis.c) ----------------------------------- */
int sw_select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags);
bool sw_select_wanted(struct ftrace_regs *fregs);
int sw_select_apply(const struct sw_knob *k, int old, int new);

/* how select_idle_sibling() found its answer (trace event "how") */
enum sw_sis_how {
	SW_SIS_NONE,		/* nothing idle: the target as is */
	SW_SIS_TARGET,
	SW_SIS_PREV,
	SW_SIS_RECENT,
	SW_SIS_SCAN,
};

int sw_select_idle_sibling(struct task_struct *p, int prev, int target);

/*
 * policy=shadow: while active, sis.c reads the LLC's has_idle_cores hint
 * but never clears it; the first value it read (of LLC @sds) is kept, so
 * that a re-evaluation of the same wakeup sees the same input.
 */
struct sw_idle_cores_copy {
	bool defer;		/* policy=smartwake: clear only once used */
	void *clear;		/* ...the sched_domain_shared to clear */
	bool active;
	bool have;		/* @seen is valid */
	const void *sds;	/* the sched_domain_shared read first */
	bool seen;		/* its has_idle_cores then */
};
DECLARE_PER_CPU(struct sw_idle_cores_copy, sw_idle_cores_copy);
int sw_sis_init(void);
void sw_sis_exit(void);

/* ---- overloaded-CPU masks (overload.c) --------------------------------- */
int sw_overload_init(void);	/* allocate the masks; no probe yet */
int sw_overload_apply(const struct sw_knob *k, int old, int new);
int sw_mask_update_apply(const struct sw_knob *k, int old, int new);
extern const char * const sw_mask_update_names[SW_MASK_NR];
void sw_overload_tick_pre(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs);
void sw_overload_stop(void);	/* unregister the tracepoint probe */
void sw_overload_free(void);	/* after tracepoint_synchronize_unregister() */
bool sw_overload_active(void);	/* the probe is registered */
#define SW_PROBE_FILTER	1U	/* sis_filter=1, sis_mask_update=enqueue */
#define SW_PROBE_SHADOW	2U	/* policy=shadow: the race check */
int sw_nr_probe_get(unsigned int user);
void sw_nr_probe_put(unsigned int user);
int sw_overload_show(struct seq_file *m);
const struct cpumask *sw_llc_overloaded_mask(int llc_id);
unsigned long sw_nr_running_seq_of(int cpu);	/* nr_running changes of a CPU */

/* ---- debugfs (debugfs.c) ----------------------------------------------- */
int sw_debugfs_init(void);
void sw_debugfs_exit(void);

/* ---- scheduler accessors ------------------------------------------------
 * Only for files that included the kernel's private sched.h: replacements
 * for cpu_rq(), per_cpu(sd_llc, ...) and the static helpers of fair.c and
 * core.c, reading the same fields (the kernel's versions are static or
 * name unexported symbols).
 */
#ifdef _KERNEL_SCHED_SCHED_H

static inline struct rq *sw_cpu_rq(int cpu)
{
	return per_cpu_ptr((struct rq __percpu __force *)sw_sym_runqueues, cpu);
}

static inline int sw_pcpu_int(unsigned long sym, int cpu)
{
	return *per_cpu_ptr((int __percpu __force *)sym, cpu);
}

/* Caller holds rcu_read_lock() (or runs with preemption disabled). */
static inline struct sched_domain *sw_sd_llc(int cpu)
{
	return rcu_dereference(*per_cpu_ptr((struct sched_domain __rcu *
					     __percpu __force *)sw_sym_sd_llc,
					    cpu));
}

static inline struct sched_domain_shared *sw_sd_llc_shared(int cpu)
{
	return rcu_dereference(*per_cpu_ptr((struct sched_domain_shared __rcu *
					     __percpu __force *)
					    sw_sym_sd_llc_shared, cpu));
}

static inline int sw_llc_id(int cpu)
{
	return sw_pcpu_int(sw_sym_sd_llc_id, cpu);
}

static inline int sw_llc_size(int cpu)
{
	return sw_pcpu_int(sw_sym_sd_llc_size, cpu);
}

/* A static key resolved by name; 0 (absent) reads as disabled. */
static inline bool sw_key_on(unsigned long key)
{
	return key && static_key_enabled((struct static_key *)key);
}

/*
 * sched_feat() by the index from features.h. Without the symbol the
 * features are compile-time constants: use the defaults from features.h.
 */
static inline bool sw_sched_feat(unsigned int idx, bool dflt)
{
	if (!sw_sym_sysctl_sched_features)
		return dflt;
	return READ_ONCE(*(unsigned int *)sw_sym_sysctl_sched_features) &
	       (1U << idx);
}

/* core.c idle_cpu() of 6.12: current is the idle task, nothing queued. */
static inline bool sw_idle_cpu(int cpu)
{
	struct rq *rq = sw_cpu_rq(cpu);

	return READ_ONCE(rq->curr) == rq->idle && !READ_ONCE(rq->nr_running) &&
	       !READ_ONCE(rq->ttwu_pending);
}

/* fair.c sched_idle_cpu(): runs something, and all of it SCHED_IDLE */
static inline bool sw_sched_idle_cpu(int cpu)
{
	struct rq *rq = sw_cpu_rq(cpu);

	return sw_cpu_sched_idle(READ_ONCE(rq->nr_running),
				 READ_ONCE(rq->cfs.idle_h_nr_running));
}

/*
 * The 2022 filter's "overloaded": more than one pullable non-idle fair
 * task (runnable, not delayed-dequeue, not SCHED_IDLE).
 */
static inline bool sw_rq_overloaded(struct rq *rq)
{
	return sw_cpu_overloaded(READ_ONCE(rq->cfs.h_nr_runnable),
				 READ_ONCE(rq->cfs.idle_h_nr_running));
}

/* available_idle_cpu(): vcpu_is_preempted() is the kernel's inline */
static inline bool sw_available_idle_cpu(int cpu)
{
	return sw_idle_cpu(cpu) && !vcpu_is_preempted(cpu);
}

static inline bool sw_cpus_share_cache(int a, int b)
{
	return a == b || sw_llc_id(a) == sw_llc_id(b);
}

/* cpus_share_resources(): same cluster, or same LLC without clusters */
static inline bool sw_cpus_share_resources(int a, int b)
{
	return a == b ||
	       sw_pcpu_int(sw_sym_sd_share_id, a) ==
	       sw_pcpu_int(sw_sym_sd_share_id, b);
}

#endif /* _KERNEL_SCHED_SCHED_H */

/* ---- remote wakeup queueing (ttwu.c) ---------------------------------- */
enum sw_ttwu_mode { SW_TTWU_STOCK, SW_TTWU_LOCK, SW_TTWU_NR };
extern const char * const sw_ttwu_mode_names[SW_TTWU_NR];
extern int sw_ttwu_queue;
extern int sw_ttwu_count;
bool sw_ttwu_never_queue(struct task_struct *p, int cpu, int wake_flags);
int sw_ttwu_apply(const struct sw_knob *k, int old, int new);
int sw_ttwu_count_apply(const struct sw_knob *k, int old, int new);
int sw_ttwu_init(void);
bool sw_ttwu_probe_active(void);
void sw_ttwu_exit(void);

/* ---- NUMA retry after wake_affine (numa.c) ------------------------------ */
extern int sw_numa_retry;
void sw_numa_wake_affine(struct task_struct *p, int prev_cpu, int target);
void sw_numa_fault_pre(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
int sw_numa_apply(const struct sw_knob *k, int old, int new);

#endif /* _SMARTWAKE_SW_H */
