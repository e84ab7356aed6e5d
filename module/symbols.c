// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol resolution. kallsyms_lookup_name() is not exported, so a kprobe on
 * it yields its address once; every symbol the module needs is then looked
 * up at load time, and a missing one fails insmod before anything is hooked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>
#include "sw.h"

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
unsigned long sw_sym_task_numa_fault;
unsigned long sw_sym_sched_numa_balancing;
unsigned long sw_sym_sysctl_numa_balancing_scan_delay;

/*
 * Optional symbols are absent when their kernel feature is compiled out:
 * sched_cluster_active without CONFIG_SCHED_CLUSTER, sched_energy_present
 * without energy-aware scheduling, sysctl_sched_features without
 * CONFIG_SCHED_DEBUG (the features are then the compile-time defaults).
 * sched_asym_cpucapacity is required: without it the module could not
 * tell whether the asymmetric-capacity path is live.
 */
static const struct sw_symbol sw_symbols[] = {
	{ "select_task_rq_fair", &sw_sym_select_task_rq_fair },
	{ "runqueues", &sw_sym_runqueues },
	{ "sd_llc", &sw_sym_sd_llc },
	{ "sd_llc_size", &sw_sym_sd_llc_size },
	{ "sd_llc_id", &sw_sym_sd_llc_id },
	{ "sd_share_id", &sw_sym_sd_share_id },
	{ "sd_llc_shared", &sw_sym_sd_llc_shared },
	{ "sched_asym_cpucapacity", &sw_sym_sched_asym_cpucapacity },
	{ "ttwu_queue_wakelist", &sw_sym_ttwu_queue_wakelist },
	{ "task_numa_fault", &sw_sym_task_numa_fault },
	{ "sched_numa_balancing", &sw_sym_sched_numa_balancing },
	{ "sysctl_numa_balancing_scan_delay", &sw_sym_sysctl_numa_balancing_scan_delay },
	{ "sched_cluster_active", &sw_sym_sched_cluster_active, true },
	{ "sched_energy_present", &sw_sym_sched_energy_present, true },
	{ "sysctl_sched_features", &sw_sym_sysctl_sched_features, true },
#ifdef CONFIG_SCHED_CORE
	{ "__sched_core_enabled", &sw_sym_sched_core_enabled, true },
#endif
};

/*
 * Test hook: pretend this symbol does not exist, to exercise the error path
 * (the reliability tests load the module with it set).
 */
static char *test_missing_symbol;
module_param(test_missing_symbol, charp, 0400);
MODULE_PARM_DESC(test_missing_symbol,
		 "test only: treat this symbol as unresolvable");

typedef unsigned long (*sw_lookup_fn)(const char *name);

static sw_lookup_fn sw_find_lookup(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	sw_lookup_fn fn;
	int ret;

	ret = register_kprobe(&kp);
	if (ret < 0) {
		pr_err("cannot resolve kallsyms_lookup_name (kprobe: %d)\n", ret);
		return NULL;
	}
	fn = (sw_lookup_fn)kp.addr;
	unregister_kprobe(&kp);
	return fn;
}

/**
 * sw_symbols_resolve() - resolve every symbol in the table
 *
 * Return: 0, or -ENOENT naming the first symbol that is missing.
 */
int sw_symbols_resolve(void)
{
	sw_lookup_fn lookup = sw_find_lookup();
	size_t i;

	if (!lookup)
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(sw_symbols); i++) {
		const struct sw_symbol *s = &sw_symbols[i];
		unsigned long a = 0;

		if (!test_missing_symbol || strcmp(test_missing_symbol, s->name))
			a = lookup(s->name);
		if (!a && s->optional) {
			pr_info("optional kernel symbol %s not found\n", s->name);
		} else if (!a) {
			pr_err("required kernel symbol %s not found; nothing hooked\n",
			       s->name);
			return -ENOENT;
		}
		*s->addr = a;
	}
	return 0;
}
