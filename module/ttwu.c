// SPDX-License-Identifier: GPL-2.0
/*
 * Remote wakeup queueing (the 2012 TTWU_QUEUE / IPI thread).
 *
 * ttwu_queue_wakelist() decides whether a remote wakeup is queued on the
 * target CPU's wake list and finished there after an IPI (returns true), or
 * done by the waker under the remote runqueue lock (returns false).
 *
 * Counting: a kretprobe sees every call's target CPU and its result. The
 * function is static and its address is never taken, so with IBT the
 * module must not call it: the kretprobe needs no call. It costs every
 * remote wakeup a probe, so it exists only while ttwu_count=1 (default 0:
 * counters stand still).
 *
 * Switching: ttwu_queue=lock redirects the function, while the knob says
 * so, to sw_ttwu_never_queue(), which returns false: the kernel then takes
 * the remote-lock path exactly as with its own NO_TTWU_QUEUE feature.
 * Forcing the queue path where the kernel would not is not offered: it
 * would need __ttwu_queue_wakelist(), which cannot be called (IBT) and is
 * too involved to carry a copy of.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include "hooks.h"
#include "knob_defs.h"
#include "stats.h"
#include "symbols.h"
#include "ttwu.h"

int sw_ttwu_queue;	/* enum sw_ttwu_mode */
int sw_ttwu_count;	/* the kretprobe costs every remote wakeup: off by default */

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

/* ttwu_count=1: the counting kretprobe */
static struct sw_hook sw_ttwu_krp_hook = {
	.name = "ttwu_queue_wakelist",
	.kind = SW_HOOK_KRETPROBE,
	SW_HOOK_NEEDS("ttwu_count=1"),
	.attach = sw_ttwu_probe_on,
	.detach = sw_ttwu_probe_off,
};

void sw_ttwu_register(void)
{
	sw_hook_register(&sw_ttwu_hook);
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

/* Knob apply: the kretprobe exists only while ttwu_count=1. */
int sw_ttwu_count_apply(const struct sw_knob *k, int old, int new)
{
	if (old == new)
		return 0;
	if (new)
		return sw_hook_get(&sw_ttwu_krp_hook, 1);
	return sw_hook_put(&sw_ttwu_krp_hook, 1);
}
