/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: kernel symbols resolved at load (symbols.c) and the guarded
 * calls through a pointer (ibt.c).
 */
#ifndef _SMARTWAKE_SYMBOLS_H
#define _SMARTWAKE_SYMBOLS_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/types.h>

/* ---- symbols (symbols.c) -----------------------------------------------
 * Addresses from kallsyms. Per-CPU variables are per-CPU offsets ('A' in
 * kallsyms) used with per_cpu_ptr(). An optional symbol resolves to 0 when
 * the kernel lacks it; the user of each documents what 0 means.
 */
struct sw_symbol {
	const char *name;
	const char *alt;	/* the same function's older name, or NULL */
	unsigned long *addr;
	bool optional;
	bool percpu;		/* a per-CPU offset, not an address */
	bool key;		/* optional static key: absent, a disabled one */
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
extern unsigned long sw_sym_sched_ttwu_pending;
extern unsigned long sw_sym_task_numa_migrate;
extern unsigned long sw_sym_sched_numa_balancing;	/* static key */
extern unsigned long sw_sym_sysctl_numa_balancing_scan_delay; /* unsigned int */
/* optional, by the 6.10 name or the older one (see symbols.c) */
extern unsigned long sw_sym_sched_balance_newidle;	/* sib_count */
extern unsigned long sw_sym_sched_balance_domains;	/* sib_count */
extern unsigned long sw_sym_sched_tick;		/* sis_mask_update=tick */
extern unsigned long sw_sym_fair_sched_class;	/* optional: reach.c */
extern unsigned long sw_sym_ftrace_enabled;	/* optional int: hooks.c */
/* testing builds: test_old_lookup=2 offers it to the call guard (ibt.c) */
extern unsigned long sw_sym_kallsyms_lookup_name;

int sw_symbols_resolve(void);
bool sw_symbol_is_start(const char *name, unsigned long addr);
unsigned long sw_symbols_old_lookup(void);	/* testing builds */

/* ---- calls into the kernel through a pointer (ibt.c) ------------------- */
int sw_calls_check(void);
int sw_endbr_check(const char *what, const void *fn);
int sw_calls_show(struct seq_file *m);

/* ---- reads at resolved symbols ------------------------------------------ */

static inline int sw_pcpu_int(unsigned long sym, int cpu)
{
	return *per_cpu_ptr((int __percpu __force *)sym, cpu);
}

static inline int sw_llc_id(int cpu)
{
	return sw_pcpu_int(sw_sym_sd_llc_id, cpu);
}

/*
 * A static key resolved by name; 0 (absent) reads as disabled. As
 * static_key_enabled() without its out-of-line call (static_key_count()
 * under CONFIG_JUMP_LABEL): enabled -1, a first enable in progress, reads
 * as on there too.
 */
static inline bool sw_key_on(unsigned long key)
{
	return key && atomic_read(&((struct static_key *)key)->enabled);
}

/*
 * sw_key_on() of a key that is never 0 once loaded: a required one, or
 * an optional one of the table's keys (absent: the module's own,
 * disabled). The wakeup path's test, without the test for 0.
 */
static __always_inline bool sw_key_set_on(unsigned long key)
{
	return atomic_read(&((struct static_key *)key)->enabled);
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

static inline bool sw_cpus_share_cache(int a, int b)
{
	return a == b || sw_llc_id(a) == sw_llc_id(b);
}

#endif /* _SMARTWAKE_SYMBOLS_H */
