// SPDX-License-Identifier: GPL-2.0
/*
 * Sched-idle balance opportunities (knob sib_count; the 2022 series,
 * patch 2/2, "introduce sched-idle balance").
 *
 * More: Documentation/design.md, "The files in detail", sib.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ftrace.h>
#include <linux/mmu_context.h>
#include "ksched.h"
#include "hooks.h"
#include "knob_defs.h"
#include "overload.h"
#include "sched_access.h"
#include "sib.h"
#include "stats.h"
#include "symbols.h"

int sw_sib_count;

/**
 * __sw_sib_newidle_pre() - ftrace pre-handler of sched_balance_newidle()
 * @parent_ip: its caller
 * @op:        the hook's ftrace_ops
 * @fregs:     unused: the runqueue is this CPU's
 *
 * Runs with the runqueue lock held and interrupts disabled.
 */
static __always_inline void __sw_sib_newidle_pre(struct ftrace_ops *op,
						 unsigned long parent_ip,
						 struct ftrace_regs *fregs)
{
	sw_count(SW_C_sib_newidle_checks);
	if (sw_llc_has_overloaded(smp_processor_id()))
		sw_count(SW_C_sib_newidle_overloaded);
}

SW_HOOK_CALLBACK(sw_sib_newidle_pre, __sw_sib_newidle_pre)

/**
 * __sw_sib_domains_pre() - ftrace pre-handler of sched_balance_domains()
 * @parent_ip: its caller
 * @op:        the hook's ftrace_ops
 * @fregs:     its arguments: the runqueue to balance, the idle type
 *
 * From the balance softirq. A runqueue other than this CPU's is an idle
 * CPU balanced on its behalf by the nohz idle balance: not counted.
 */
static __always_inline void __sw_sib_domains_pre(struct ftrace_ops *op,
						 unsigned long parent_ip,
						 struct ftrace_regs *fregs)
{
	int cpu;

	cpu = smp_processor_id();
	if ((void *)sw_fregs_arg(fregs, 0) == sw_cpu_rq(cpu) &&
	    sw_sched_idle_cpu(cpu)) {
		sw_count(SW_C_sib_checks);
		if (sw_llc_has_overloaded(cpu))
			sw_count(SW_C_sib_opportunities);
	}
}

SW_HOOK_CALLBACK(sw_sib_domains_pre, __sw_sib_domains_pre)

/* the two pre-handlers, while sib_count=1 */
static struct sw_hook sw_sib_newidle_hook = {
	.name = "sched_balance_newidle",
	SW_HOOK_NEEDS("sib_count=1"),
	.target = &sw_sym_sched_balance_newidle,
	.callback = sw_sib_newidle_pre,
};

static struct sw_hook sw_sib_domains_hook = {
	.name = "sched_balance_domains",
	SW_HOOK_NEEDS("sib_count=1"),
	.target = &sw_sym_sched_balance_domains,
	.callback = sw_sib_domains_pre,
};

void sw_sib_register(void)
{
	sw_hook_register(&sw_sib_newidle_hook);
	sw_hook_register(&sw_sib_domains_hook);
}

/*
 * Knob apply: the two pre-handlers and the nr_running probe (for the
 * overloaded masks) exist only while sib_count=1.
 */
int sw_sib_apply(const struct sw_knob *k, int old, int new)
{
	int ret;

	if (!new) {
		sw_hook_put(&sw_sib_domains_hook, 1);
		sw_hook_put(&sw_sib_newidle_hook, 1);
		sw_nr_probe_put(SW_PROBE_SIB);
		return 0;
	}
	if (!sw_sym_sched_balance_domains) {
		pr_err("sib_count: sched_balance_domains is not traceable in this kernel\n");
		return -EOPNOTSUPP;
	}
	/* 7.x inlines sched_balance_newidle() into pick_task_fair() */
	if (!sw_sym_sched_balance_newidle)
		pr_info("sib_count: sched_balance_newidle is not traceable in this kernel: sib_checks and sib_opportunities only, sib_newidle_* stay 0\n");
	ret = sw_nr_probe_get(SW_PROBE_SIB);
	if (ret)
		return ret;
	sw_overload_seed();
	ret = sw_sym_sched_balance_newidle ?
	      sw_hook_get(&sw_sib_newidle_hook, 1) : 0;
	if (!ret)
		ret = sw_hook_get(&sw_sib_domains_hook, 1);
	if (ret) {
		sw_hook_put(&sw_sib_newidle_hook, 1);
		sw_nr_probe_put(SW_PROBE_SIB);
	}
	return ret;
}
