// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol resolution without calling into the kernel through a pointer.
 *
 * More: Documentation/design.md, "The files in detail", symbols.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "symbols.h"
#include "testing.h"

unsigned long sw_sym_select_task_rq_fair;
unsigned long sw_sym_runqueues;
unsigned long sw_sym_sd_llc;
unsigned long sw_sym_sd_llc_size;
unsigned long sw_sym_sd_llc_id;
unsigned long sw_sym_sd_share_id;
unsigned long sw_sym_sd_llc_shared;
unsigned long sw_sym_sched_asym_cpucapacity;
unsigned long sw_sym_sched_cluster_active;
unsigned long sw_sym_sched_energy_present;
unsigned long sw_sym_sysctl_sched_features;
unsigned long sw_sym_sched_core_enabled;
unsigned long sw_sym_ttwu_queue_wakelist;
unsigned long sw_sym_sched_ttwu_pending;
unsigned long sw_sym_task_numa_migrate;
unsigned long sw_sym_sched_numa_balancing;
unsigned long sw_sym_sysctl_numa_balancing_scan_delay;
unsigned long sw_sym_sched_tick;
unsigned long sw_sym_sched_balance_newidle;
unsigned long sw_sym_sched_balance_domains;
unsigned long sw_sym_fair_sched_class;
unsigned long sw_sym_ftrace_enabled;
unsigned long sw_sym_kallsyms_lookup_name;

/*
 * Optional symbols are absent when their kernel feature is compiled out:
 * sched_cluster_active without CONFIG_SCHED_CLUSTER, sched_energy_present
 * without energy-aware scheduling, sysctl_sched_features without
 * CONFIG_SCHED_DEBUG (the features are then the compile-time defaults),
 * sched_tick on kernels that still call it scheduler_tick (then
 * sis_mask_update=tick is refused).
 * sched_asym_cpucapacity is required: without it the module could not
 * tell whether the asymmetric-capacity path is live. Per-CPU symbols are
 * offsets, not addresses: sprint_symbol() cannot name them.
 */
#define SW_SYM(n)		{ #n, NULL, &sw_sym_##n }
#define SW_SYM_OPT(n)		{ #n, NULL, &sw_sym_##n, .optional = true }
#define SW_SYM_PCPU(n)		{ #n, NULL, &sw_sym_##n, .percpu = true }
#define SW_SYM_OPT_OR(n, old)	{ #n, old, &sw_sym_##n, .optional = true }
#define SW_SYM_OPT_KEY(n)	{ #n, NULL, &sw_sym_##n, .optional = true, .key = true }

/* an optional static key that is absent: one that is never enabled */
static struct static_key sw_key_absent;

static const struct sw_symbol sw_symbols[] = {
	SW_SYM(select_task_rq_fair),
	SW_SYM_PCPU(runqueues),
	SW_SYM_PCPU(sd_llc),
	SW_SYM_PCPU(sd_llc_size),
	SW_SYM_PCPU(sd_llc_id),
#ifdef SW_HAVE_SD_SHARE_ID
	SW_SYM_PCPU(sd_share_id),
#endif
	SW_SYM_PCPU(sd_llc_shared),
	SW_SYM(sched_asym_cpucapacity),
	SW_SYM(ttwu_queue_wakelist),
	SW_SYM(sched_numa_balancing),
	SW_SYM(sysctl_numa_balancing_scan_delay),
#ifdef SW_HAVE_SCHED_CLUSTER_ACTIVE
	SW_SYM_OPT_KEY(sched_cluster_active),
#endif
	SW_SYM_OPT_KEY(sched_energy_present),
	SW_SYM_OPT(sysctl_sched_features),
	/*
	 * reach.c's class test (without it fair_wakeups stand still) and
	 * hooks.c's look at sysctl kernel.ftrace_enabled (an int)
	 */
	SW_SYM_OPT(fair_sched_class),
	SW_SYM_OPT(ftrace_enabled),
	/* ttwu.c: the csd_queue_cpu events of queued wakeups name it */
	SW_SYM_OPT(sched_ttwu_pending),
	/*
	 * Renamed in 6.10; Debian's 6.1 has taken one rename of the three
	 * (sched_balance_newidle), so each is looked up by either name.
	 */
	SW_SYM_OPT_OR(sched_tick, "scheduler_tick"),
	SW_SYM_OPT_OR(sched_balance_newidle, "newidle_balance"),
	SW_SYM_OPT_OR(sched_balance_domains, "rebalance_domains"),
	/*
	 * numa_retry: GCC's clone on 6.12 and 6.1 (one caller, result
	 * unused); the plain name where the compiler did not clone it.
	 */
	{ "task_numa_migrate.isra.0", "task_numa_migrate", &sw_sym_task_numa_migrate,
	  .optional = true },
#ifdef CONFIG_SCHED_CORE
	{ "__sched_core_enabled", NULL, &sw_sym_sched_core_enabled, .optional = true },
#endif
#ifdef SW_TESTING
	/* test_old_lookup=2: its start, sealed on stock kernels (ibt.c) */
	{ "kallsyms_lookup_name", NULL, &sw_sym_kallsyms_lookup_name, .optional = true },
#endif
};

/* The lookup in flight: only this task's call of this name is taken. */
static struct {
	struct task_struct *task;
	const char *name;
	unsigned long addr;
	bool seen;
} sw_lookup;

static int sw_lookup_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	/* kallsyms_lookup_name(name): ours only, by task and string */
	if (current != READ_ONCE(sw_lookup.task) ||
	    regs_get_kernel_argument(regs, 0) != (unsigned long)sw_lookup.name)
		return 1;	/* not ours: no return handler */
	return 0;
}

static int sw_lookup_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	sw_lookup.addr = regs_return_value(regs);
	sw_lookup.seen = true;
	/* kprobes is told "not found": it probes nothing */
	regs_set_return_value(regs, 0);
	return 0;
}

/*
 * The kernel's kallsyms_lookup_name(@name), run by register_kprobe().
 * Return: the address, 0 if the kernel has no such symbol, or -errno
 * (as an error pointer value) if the lookup was not seen.
 */
static long sw_lookup_one(const char *name, unsigned long *addr)
{
	struct kprobe kp = { .symbol_name = name };
	int ret;

	sw_lookup.name = name;
	sw_lookup.addr = 0;
	sw_lookup.seen = false;
	WRITE_ONCE(sw_lookup.task, current);
	ret = register_kprobe(&kp);
	WRITE_ONCE(sw_lookup.task, NULL);
	if (!ret) {
		/* cannot happen: the lookup answered 0 */
		unregister_kprobe(&kp);
		return -EIO;
	}
	if (!sw_lookup.seen)
		return -EIO;
	*addr = sw_lookup.addr;
	return 0;
}

/**
 * sw_symbol_is_start() - does @addr begin the kernel symbol @name
 * @name: symbol name
 * @addr: address to check
 *
 * Uses the exported sprint_symbol(), which needs no pointer call.
 *
 * Return: true when sprint_symbol() prints exactly "@name+0x0/...".
 */
bool sw_symbol_is_start(const char *name, unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];
	size_t n = strlen(name);

	sprint_symbol(buf, addr);
	return !strncmp(buf, name, n) && !strncmp(buf + n, "+0x0/", 5);
}

static int sw_resolve_table(void)
{
	size_t i;
	long ret;

	for (i = 0; i < ARRAY_SIZE(sw_symbols); i++) {
		const struct sw_symbol *s = &sw_symbols[i];
		const char *missing = sw_testing_missing_symbol();
		const char *name = s->name;
		unsigned long a = 0;

		if (!missing || strcmp(missing, s->name)) {
			ret = sw_lookup_one(name, &a);
			if (!ret && !a && s->alt) {
				name = s->alt;
				ret = sw_lookup_one(name, &a);
			}
			if (ret) {
				pr_err("lookup of %s was not observed (%ld); nothing hooked\n",
				       name, ret);
				return -EIO;
			}
		}
		if (!a && s->optional) {
			pr_info("optional kernel symbol %s not found\n", s->name);
			/* sw_key_set_on() reads it without a test for 0 */
			if (s->key)
				a = (unsigned long)&sw_key_absent;
		} else if (!a) {
			pr_err("required kernel symbol %s not found; nothing hooked\n",
			       s->name);
			return -ENOENT;
		} else if (!s->percpu && !sw_symbol_is_start(name, a)) {
			pr_err("kernel symbol %s resolved to %pS, not its start; nothing hooked\n",
			       name, (void *)a);
			return -ENOENT;
		}
		*s->addr = a;
	}
	return 0;
}

/**
 * sw_symbols_resolve() - resolve every symbol in the table
 *
 * Return: 0, or -ENOENT naming the first symbol that is missing, or the
 * error of the kretprobe that observes the lookups.
 */
int sw_symbols_resolve(void)
{
	struct kretprobe *krp;
	int ret;

	/*
	 * Not in the module's data: the kernel keeps a kretprobe whose
	 * unregistration failed in its table (see below), and a copy in
	 * freed module memory would be read by the next walk of it.
	 */
	krp = kzalloc(sizeof(*krp), GFP_KERNEL);
	if (!krp)
		return -ENOMEM;
	krp->kp.symbol_name = "kallsyms_lookup_name";
	krp->entry_handler = sw_lookup_entry;
	krp->handler = sw_lookup_ret;
	krp->maxactive = 4;
	ret = register_kretprobe(krp);
	if (ret) {
		pr_err("cannot observe kallsyms_lookup_name (kretprobe: %d); nothing hooked\n",
		       ret);
		kfree(krp);
		return ret;
	}
	ret = sw_resolve_table();
	unregister_kretprobe(krp);
	/*
	 * A failed disarm (its ftrace filter removal allocates) makes
	 * unregister_kretprobe() clear kp.addr and leave the kretprobe in
	 * the kernel's table, disarmed and never found again: its memory
	 * stays the kernel's. The names it points to are in this module's
	 * rodata: dropped, as nothing reads them after registration.
	 */
	if (!krp->kp.addr) {
		krp->kp.symbol_name = NULL;
		pr_warn("the kretprobe on kallsyms_lookup_name could not be removed; left disarmed in the kernel's kprobe table (%zu bytes)\n",
			sizeof(*krp));
		return ret;
	}
	kfree(krp);
	return ret;
}

/**
 * sw_symbols_old_lookup() - kallsyms_lookup_name's address, the old way
 *
 * Testing builds only: what the module used before it was IBT-safe, a
 * kprobe's address. kprobes step over ENDBR, so this is the function's
 * start + 4 on an IBT kernel; the call guard must refuse it.
 *
 * Return: the kprobe's address, or 0.
 */
unsigned long sw_symbols_old_lookup(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long a;

	if (register_kprobe(&kp) < 0)
		return 0;
	a = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return a;
}
