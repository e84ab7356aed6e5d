// SPDX-License-Identifier: GPL-2.0
/*
 * Remote wakeup queueing (the 2012 TTWU_QUEUE / IPI thread).
 *
 * More: Documentation/design.md, "The files in detail", ttwu.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "hooks.h"
#include "knob_defs.h"
#include "stats.h"
#include "symbols.h"
#include "ttwu.h"

int sw_ttwu_queue;	/* enum sw_ttwu_mode */
int sw_ttwu_count;	/* its probes cost every remote wakeup: off by default */

const char * const sw_ttwu_mode_names[SW_TTWU_NR] = {
	SW_TTWU_MODES(SW_ENUM_NAME, SW_ENUM_NAME)
};

/* cpus_share_cache() is static inline in the kernel: same LLC id. */
static bool sw_share_llc(int a, int b)
{
	return a == b ||
	       *per_cpu_ptr((int __percpu *)sw_sym_sd_llc_id, a) ==
	       *per_cpu_ptr((int __percpu *)sw_sym_sd_llc_id, b);
}

/* the waker's CPU: a call counted, its outcome not yet seen */
static DEFINE_PER_CPU(bool, sw_ttwu_open);

/**
 * sw_ttwu_call_pre() - ftrace pre-handler of ttwu_queue_wakelist()
 * @ip:        traced function
 * @parent_ip: its caller
 * @op:        the hook's ftrace_ops
 * @fregs:     its arguments
 *
 * Counts the call as not queued and opens the window that
 * sw_ttwu_csd_probe() closes. Both callers hold p->pi_lock with
 * interrupts off, and nothing here is traced: no recursion guard.
 */
static void notrace sw_ttwu_call_pre(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *op,
				     struct ftrace_regs *fregs)
{
	sw_count(SW_C_ttwu_wakelist_calls);
	sw_count(SW_C_ttwu_not_queued);
	__this_cpu_write(sw_ttwu_open, true);
}

/*
 * csd_queue_cpu: a call-function entry queued for @cpu. A wakeup's is
 * named sched_ttwu_pending (kernel/smp.c); others pass.
 */
static void notrace sw_ttwu_csd_probe(void *data, unsigned int cpu,
				      unsigned long callsite,
				      smp_call_func_t func,
				      call_single_data_t *csd)
{
	if ((unsigned long)func != sw_sym_sched_ttwu_pending ||
	    !__this_cpu_read(sw_ttwu_open))
		return;
	__this_cpu_write(sw_ttwu_open, false);
	/* 0: the counters were reset since the call was counted */
	if (__this_cpu_read(sw_stats.c[SW_C_ttwu_not_queued]))
		__this_cpu_dec(sw_stats.c[SW_C_ttwu_not_queued]);
	if (sw_share_llc(smp_processor_id(), cpu))
		sw_count(SW_C_ttwu_queued_same_llc);
	else
		sw_count(SW_C_ttwu_queued_cross_llc);
}

static struct tracepoint *sw_ttwu_csd_tp;
static bool sw_ttwu_csd_looked;	/* under the knob lock, or at debugfs reads */

/* for_each_kernel_tracepoint() callback */
static void sw_ttwu_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "csd_queue_cpu"))
		sw_ttwu_csd_tp = tp;
}

/* Count with the tracepoint (true) or the kretprobe. */
static bool sw_ttwu_by_csd(void)
{
	if (!READ_ONCE(sw_ttwu_csd_looked)) {
		for_each_kernel_tracepoint(sw_ttwu_find, NULL);
		WRITE_ONCE(sw_ttwu_csd_looked, true);
	}
	return sw_ttwu_csd_tp && sw_sym_sched_ttwu_pending;
}

/* Attach the probe; the pre-handler is not installed yet. */
static int sw_ttwu_csd_on(void)
{
	int cpu, ret;

	/* a window left open by the last counting period is stale */
	for_each_possible_cpu(cpu)
		per_cpu(sw_ttwu_open, cpu) = false;
	ret = sw_ftrace_pin(true, "ttwu_count=1 (csd_queue_cpu probe)");
	if (ret)
		return ret;
	ret = tracepoint_probe_register(sw_ttwu_csd_tp, sw_ttwu_csd_probe, NULL);
	if (ret) {
		pr_err("cannot attach to csd_queue_cpu: %d\n", ret);
		sw_ftrace_pin(false, NULL);
	}
	return ret;
}

static void sw_ttwu_csd_off(void)
{
	int ret = tracepoint_probe_unregister(sw_ttwu_csd_tp, sw_ttwu_csd_probe,
					      NULL);

	WARN(ret, "unregistering the csd_queue_cpu probe failed: %d\n", ret);
	sw_ftrace_pin(false, NULL);
}

/* the hooks file: only the way this kernel counts with */
static void sw_ttwu_show_csd(struct seq_file *m, const struct sw_hook *h)
{
	if (sw_ttwu_by_csd())
		sw_hook_show_line(m, h);
}

static void sw_ttwu_show_krp(struct seq_file *m, const struct sw_hook *h)
{
	if (!sw_ttwu_by_csd())
		sw_hook_show_line(m, h);
}

static int sw_ttwu_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	/* ttwu_queue_wakelist(p, cpu, wake_flags): cpu is the 2nd argument. */
	*(int *)ri->data = (int)regs_get_kernel_argument(regs, 1);
	return 0;
}

static int sw_ttwu_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	int cpu = *(int *)ri->data;

	sw_count(SW_C_ttwu_wakelist_calls);
	if (!(regs_return_value(regs) & 0xff))
		sw_count(SW_C_ttwu_not_queued);
	else if (sw_share_llc(smp_processor_id(), cpu))
		sw_count(SW_C_ttwu_queued_same_llc);
	else
		sw_count(SW_C_ttwu_queued_cross_llc);
	return 0;
}

static struct kretprobe sw_ttwu_krp;
static bool sw_ttwu_probed;	/* under the knob lock, or at init/exit */

/* A kretprobe cannot be registered twice as it is: start from scratch. */
static int sw_ttwu_probe_on(void)
{
	int ret;

	sw_ttwu_krp = (struct kretprobe) {
		.kp.symbol_name = "ttwu_queue_wakelist",
		.entry_handler = sw_ttwu_entry,
		.handler = sw_ttwu_ret,
		.data_size = sizeof(int),
	};
	/* ftrace_enabled stays 1 while the kretprobe exists (hooks.c) */
	ret = sw_ftrace_pin(true, "ttwu_count=1 (kretprobe on ttwu_queue_wakelist)");
	if (ret)
		return ret;
	ret = register_kretprobe(&sw_ttwu_krp);
	if (ret) {
		pr_err("cannot probe ttwu_queue_wakelist: %d\n", ret);
		sw_ftrace_pin(false, NULL);
	} else {
		sw_ttwu_probed = true;
	}
	return ret;
}

static void sw_ttwu_probe_off(void)
{
	if (!sw_ttwu_probed)
		return;
	unregister_kretprobe(&sw_ttwu_krp);
	sw_ftrace_pin(false, NULL);
	sw_ttwu_probed = false;
	if (sw_ttwu_krp.nmissed)
		pr_info("ttwu kretprobe missed %d calls\n", sw_ttwu_krp.nmissed);
}

/**
 * sw_ttwu_never_queue() - replacement of ttwu_queue_wakelist() for "lock"
 * @p:          the task being woken
 * @cpu:        its target CPU
 * @wake_flags: WF_* flags
 *
 * Return: false, so the caller activates @p under the remote rq lock.
 */
static bool notrace sw_ttwu_never_queue(struct task_struct *p, int cpu,
					int wake_flags)
{
	sw_count(SW_C_ttwu_forced_lock);
	return false;
}

/* ttwu_queue=lock: answer "do not queue" */
static struct sw_hook sw_ttwu_hook = {
	.name = "ttwu_queue_wakelist",
	SW_HOOK_NEEDS("ttwu_queue=lock"),
	.target = &sw_sym_ttwu_queue_wakelist,
	.replacement = sw_ttwu_never_queue,
};

/* ttwu_count=1 with csd_queue_cpu: the probe, then the pre-handler */
static struct sw_hook sw_ttwu_csd_hook = {
	.name = "csd_queue_cpu",
	.kind = SW_HOOK_TRACEPOINT,
	SW_HOOK_NEEDS("ttwu_count=1"),
	.attach = sw_ttwu_csd_on,
	.detach = sw_ttwu_csd_off,
	.show = sw_ttwu_show_csd,
};

static struct sw_hook sw_ttwu_call_hook = {
	.name = "ttwu_queue_wakelist",
	SW_HOOK_NEEDS("ttwu_count=1"),
	.target = &sw_sym_ttwu_queue_wakelist,
	.callback = sw_ttwu_call_pre,
	.show = sw_ttwu_show_csd,
};

/* ttwu_count=1 without it: the counting kretprobe */
static struct sw_hook sw_ttwu_krp_hook = {
	.name = "ttwu_queue_wakelist",
	.kind = SW_HOOK_KRETPROBE,
	SW_HOOK_NEEDS("ttwu_count=1"),
	.attach = sw_ttwu_probe_on,
	.detach = sw_ttwu_probe_off,
	.show = sw_ttwu_show_krp,
};

void sw_ttwu_register(void)
{
	sw_hook_register(&sw_ttwu_hook);
	sw_hook_register(&sw_ttwu_call_hook);
	sw_hook_register(&sw_ttwu_csd_hook);
	sw_hook_register(&sw_ttwu_krp_hook);
}

/* Knob apply: the redirect is installed only while ttwu_queue=lock. */
int sw_ttwu_apply(const struct sw_knob *k, int old, int new)
{
	if (old == new)
		return 0;
	if (new == SW_TTWU_LOCK)
		return sw_hook_get(&sw_ttwu_hook, 1);
	return sw_hook_put(&sw_ttwu_hook, 1);
}

/*
 * Knob apply: the counting hooks exist only while ttwu_count=1. The probe
 * goes first and leaves last, so that every pre-handler call has it.
 */
int sw_ttwu_count_apply(const struct sw_knob *k, int old, int new)
{
	int ret;

	if (old == new)
		return 0;
	if (!sw_ttwu_by_csd())
		return new ? sw_hook_get(&sw_ttwu_krp_hook, 1) :
			     sw_hook_put(&sw_ttwu_krp_hook, 1);
	if (!new) {
		ret = sw_hook_put(&sw_ttwu_call_hook, 1);
		return ret ?: sw_hook_put(&sw_ttwu_csd_hook, 1);
	}
	ret = sw_hook_get(&sw_ttwu_csd_hook, 1);
	if (ret)
		return ret;
	ret = sw_hook_get(&sw_ttwu_call_hook, 1);
	if (ret)
		sw_hook_put(&sw_ttwu_csd_hook, 1);
	return ret;
}
