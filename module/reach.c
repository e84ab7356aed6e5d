// SPDX-License-Identifier: GPL-2.0
/*
 * Did the select hook see the wakeups it should decide? A check that does
 * not trust the hooks: ftrace hooks can be bypassed without the module
 * noticing (sysctl kernel.ftrace_enabled=0 turns off every ftrace ops not
 * marked FTRACE_OPS_FL_PERMANENT; hooks.c marks the redirects so, but a
 * kernel or a module may still find a way around them).
 *
 * More: Documentation/design.md, "The files in detail", reach.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mmu_context.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "ksched.h"
#include "hooks.h"
#include "reach.h"
#include "sched_access.h"
#include "stats.h"
#include "symbols.h"

DEFINE_PER_CPU(struct task_struct *, sw_reach_slot);

static struct tracepoint *sw_reach_tp;
static bool sw_reach_on;

/* sched_waking: under p->pi_lock, interrupts off, on the waking CPU */
static void notrace sw_reach_waking(void *data, struct task_struct *p)
{
	if (READ_ONCE(sw_task(p, sched_class)) !=
	    (const struct sched_class *)sw_sym_fair_sched_class ||
	    READ_ONCE(sw_task(p, on_rq)) || READ_ONCE(sw_task(p, on_cpu)) ||
	    sw_task(p, nr_cpus_allowed) <= 1 ||
	    sw_task(p, migration_disabled)) {
		__this_cpu_write(sw_reach_slot, NULL);
		return;
	}
	__this_cpu_write(sw_reach_slot, p);
	sw_count(SW_C_fair_wakeups);
}

/* for_each_kernel_tracepoint() callback */
static void sw_reach_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_waking"))
		sw_reach_tp = tp;
}

/*
 * Register the sched_waking probe: 0 also where the kernel lacks the
 * tracepoint or fair_sched_class (the counters then stand still, said
 * once in the kernel log), or the error of the registration.
 */
static int sw_reach_attach(void)
{
	int cpu, ret;

	if (sw_reach_on)
		return 0;
	if (!sw_reach_tp)
		for_each_kernel_tracepoint(sw_reach_find, NULL);
	if (!sw_reach_tp || !sw_sym_fair_sched_class) {
		pr_info_once("no sched_waking tracepoint or fair_sched_class: fair_wakeups not counted\n");
		return 0;
	}
	for_each_possible_cpu(cpu)
		per_cpu(sw_reach_slot, cpu) = NULL;
	ret = tracepoint_probe_register(sw_reach_tp, sw_reach_waking, NULL);
	if (ret) {
		pr_err("cannot attach to sched_waking: %d\n", ret);
		return ret;
	}
	WRITE_ONCE(sw_reach_on, true);
	return 0;
}

/* Unregister the probe; hooks.c waits for running ones. */
static void sw_reach_detach(void)
{
	int ret;

	if (!sw_reach_on)
		return;
	ret = tracepoint_probe_unregister(sw_reach_tp, sw_reach_waking, NULL);
	WARN(ret, "unregistering the sched_waking probe failed: %d\n", ret);
	WRITE_ONCE(sw_reach_on, false);
}

/* debugfs "hooks": the probe's line, on only while attached */
static void sw_reach_show(struct seq_file *m, const struct sw_hook *h)
{
	seq_printf(m, "%s tracepoint %s ", h->name,
		   READ_ONCE(sw_reach_on) ? "on" : "off");
	sw_hook_show_needs(m, h);
	seq_putc(m, '\n');
}

/* the probe counts the wakeups the select hook should see: with it */
static struct sw_hook sw_reach_hook = {
	.name = "sched_waking",
	.kind = SW_HOOK_TRACEPOINT,
	SW_HOOK_NEEDS("enabled=1,policy!=stock"),
	.attach = sw_reach_attach,
	.detach = sw_reach_detach,
	.show = sw_reach_show,
};

void sw_reach_register(void)
{
	sw_hook_register(&sw_reach_hook);
}

/**
 * sw_reach_start() - register the sched_waking probe
 *
 * Under the knob lock, before the select hook is installed.
 *
 * Return: 0, or the error of the registration.
 */
int sw_reach_start(void)
{
	return sw_hook_get(&sw_reach_hook, 1);
}

/**
 * sw_reach_stop() - unregister the sched_waking probe and wait for it
 *
 * Under the knob lock.
 */
void sw_reach_stop(void)
{
	sw_hook_put(&sw_reach_hook, 1);
}
