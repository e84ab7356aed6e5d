// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace hooks, with livepatch's discipline: filter on the exact address,
 * register, and on any failure undo every step already taken, in reverse.
 *
 * Every hook exists only while a knob needs it (nothing at the default
 * knobs): the select_task_rq_fair redirect while enabled=1 and policy is
 * not stock, the ttwu_queue_wakelist redirect while ttwu_queue=lock, the
 * task_numa_migrate.isra.0 redirect while numa_retry is not off.
 *
 * Every redirect (an ops that changes what the kernel does: the select
 * hook both ways, the ttwu_queue_wakelist and task_numa_migrate
 * redirects) is FTRACE_OPS_FL_PERMANENT, as livepatch's ops are: while
 * one is installed, sysctl kernel.ftrace_enabled=0 fails with -EBUSY
 * instead of silently turning the module off. While ftrace_enabled is
 * already 0 the write that needs a redirect fails (-EBUSY, and the kernel
 * log names the sysctl and the fix), nothing installed. The counting
 * pre-handlers (sched_tick, the sib_count pair) are observers, not
 * PERMANENT: they do not stop an administrator from disabling ftrace;
 * while it is off they are installed but not called, so their counters
 * (and sis_filter's tick-kept masks, read only by the select hook, which
 * itself keeps ftrace on) stand still, and the knob write says so. The
 * kretprobe of ttwu_count=1 is the exception: see sw_ftrace_pin(). The
 * tracepoint probes (latency, the nr_running probe, reach.c's) are static
 * keys, not ftrace, and keep working.
 *
 * A redirecting hook rewrites the saved instruction pointer so the traced
 * function's caller lands in the module's replacement. The ops carry
 * livepatch's flags: IPMODIFY, and SAVE_REGS only where the architecture
 * lacks DYNAMIC_FTRACE_WITH_ARGS; no FTRACE_OPS_FL_RECURSION, so ftrace
 * calls the callback from the trampoline without its assist function, and
 * the callback guards itself with ftrace_test_recursion_trylock() (which
 * also disables preemption). The select redirect asks wake.c first and
 * lets a wakeup the module would hand back go straight on into the kernel's
 * function, so such a call crosses the trampoline once. A call of the
 * original from inside this module is always let through.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include "compat.h"
#include "hooks.h"
#include "latency.h"
#include "numa.h"
#include "overload.h"
#include "reach.h"
#include "sib.h"
#include "symbols.h"
#include "ttwu.h"
#include "wake.h"
#include "testing.h"

static void notrace sw_redirect(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct sw_hook *h = container_of(op, struct sw_hook, ops);
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (!within_module(parent_ip, THIS_MODULE))
		sw_fregs_set_ip(fregs, (unsigned long)h->replacement);
	ftrace_test_recursion_unlock(bit);
}

/* As sw_redirect(), for select_task_rq_fair: only wakeups the module takes. */
static void notrace sw_select_redirect(unsigned long ip, unsigned long parent_ip,
				       struct ftrace_ops *op,
				       struct ftrace_regs *fregs)
{
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (!within_module(parent_ip, THIS_MODULE) && sw_select_wanted(fregs))
		sw_fregs_set_ip(fregs, (unsigned long)sw_select_task_rq_fair);
	ftrace_test_recursion_unlock(bit);
}

static const char * const sw_hook_names[SW_NR_HOOKS] = {
	SW_HOOK_IDS(SW_ENUM_NAME, SW_ENUM_NAME)
};

static struct sw_hook sw_hooks[SW_NR_HOOKS] = {
	/* enabled=1 and policy != stock: the module's wakeup path (wake.c) */
	[SW_HOOK_SELECT] = {
		.target = &sw_sym_select_task_rq_fair,
#ifdef SW_HAVE_DIRECT
		.direct = (unsigned long)sw_select_tramp,
#endif
		.replacement = sw_select_task_rq_fair,
		.callback = sw_select_redirect,
		.needs = "enabled=1,policy!=stock",
	},
	/* ttwu_queue=lock: answer "do not queue" (ttwu.c) */
	[SW_HOOK_TTWU] = {
		.target = &sw_sym_ttwu_queue_wakelist,
		.replacement = sw_ttwu_never_queue,
		.callback = sw_redirect,
		.needs = "ttwu_queue=lock",
	},
	/* numa_retry != off: skips deferred migration retries (numa.c) */
	[SW_HOOK_NUMA_MIGRATE] = {
		.target = &sw_sym_task_numa_migrate,
		.replacement = sw_numa_migrate_skip,
		.callback = sw_numa_migrate_pre,
		.needs = "numa_retry!=off",
	},
	/* sis_filter=1 and sis_mask_update=tick: the masks from the tick */
	[SW_HOOK_TICK] = {
		.target = &sw_sym_sched_tick,
		.callback = sw_overload_tick_pre,
		.needs = "sis_filter=1,sis_mask_update=tick",
	},
	/* sib_count=1: sched-idle balance opportunities (sib.c) */
	[SW_HOOK_SIB_NEWIDLE] = {
		.target = &sw_sym_sched_balance_newidle,
		.callback = sw_sib_newidle_pre,
		.needs = "sib_count=1",
	},
	[SW_HOOK_SIB_DOMAINS] = {
		.target = &sw_sym_sched_balance_domains,
		.callback = sw_sib_domains_pre,
		.needs = "sib_count=1",
	},
};

/**
 * sw_ftrace_off() - is sysctl kernel.ftrace_enabled 0 now
 *
 * Read through its kallsyms address (not exported); a kernel without the
 * symbol reads as enabled.
 *
 * Return: true when ftrace callbacks are not being called.
 */
static bool sw_ftrace_off(void)
{
	return sw_sym_ftrace_enabled && !READ_ONCE(*(int *)sw_sym_ftrace_enabled);
}

/* the write that needs @h's redirect is refused: say why and the fix */
static int sw_ftrace_off_err(const char *name)
{
	pr_err("%s not hooked: sysctl kernel.ftrace_enabled is 0, so ftrace would not call the module; run sysctl kernel.ftrace_enabled=1 and write the knob again\n",
	       name);
	return -EBUSY;
}

/* the ops @h is (to be) registered with: its direct one or the redirect */
static struct ftrace_ops *sw_hook_ops(struct sw_hook *h)
{
	return h->via_direct ? &h->dops : &h->ops;
}

/* the traced function of @h, from SW_HOOK_IDS */
static const char *sw_hook_name(const struct sw_hook *h)
{
	return sw_hook_names[h - sw_hooks];
}

/*
 * Undo one hook. An ops whose unregister failed is still live: its filter
 * stays (an ops with an empty filter traces every function) and the module
 * takes a reference on itself so its code is not freed under it; a later
 * successful removal gives the reference back.
 *
 * Return: 0, or the error of unregister_ftrace_function().
 */
static int sw_hook_undo(struct sw_hook *h)
{
	struct ftrace_ops *ops = sw_hook_ops(h);
	int ret;

	if (h->registered) {
		if (sw_testing_unregister_fails())
			ret = -EBUSY;	/* injected: the ops stays as it is */
		else if (h->via_direct)
			ret = sw_ftrace_direct_unregister(ops, h->direct);
		else
			ret = unregister_ftrace_function(ops);
		if (ret) {
			WARN_ONCE(1, "smartwake: unregistering hook on %s failed: %d; keeping it and the module\n",
				  sw_hook_name(h), ret);
			if (!h->pinned) {
				__module_get(THIS_MODULE);
				h->pinned = true;
			}
			return ret;
		}
		h->registered = false;
		if (h->pinned) {
			module_put(THIS_MODULE);
			h->pinned = false;
		}
	}
	if (h->filtered) {
		ret = ftrace_set_filter_ip(ops, *h->target, 1, 0);
		WARN(ret, "removing filter on %s failed: %d\n", sw_hook_name(h), ret);
		h->filtered = false;
	}
	/* 7.2 keeps a direct ops' flags across registrations */
	ops->flags &= ~FTRACE_OPS_FL_PERMANENT;
	h->via_direct = false;
	return 0;
}

/*
 * Install @h. A redirect is PERMANENT (see the top of this file; the
 * testing build's test_no_permanent=1 leaves the flag off, so that
 * guest/control.sh can bypass a hook on purpose). register_ftrace_function()
 * refuses a PERMANENT ops while ftrace is disabled, under ftrace's lock.
 * register_ftrace_direct() of 6.1 and 6.12 overwrites the ops' flags, so
 * a direct call gets the flag once registered (is_permanent_ops_registered()
 * reads it live), and ftrace_enabled is then read again: a sysctl that
 * ran in between leaves the call dead, so it is removed and the write
 * fails. 7.2 keeps the flag given before registering.
 */
static int sw_hook_do(struct sw_hook *h)
{
	bool permanent = h->replacement && !sw_testing_no_permanent();
	struct ftrace_ops *ops;
	int ret;

	if (h->replacement && sw_ftrace_off())
		return sw_ftrace_off_err(sw_hook_name(h));
	if (!h->replacement && sw_ftrace_off())
		pr_warn("%s: sysctl kernel.ftrace_enabled is 0: the hook is installed but not called, its counters stand still until it is 1\n",
			sw_hook_name(h));
	h->via_direct = h->direct &&
			READ_ONCE(sw_select_hook) == SW_SELECT_HOOK_DIRECT;
	ops = sw_hook_ops(h);
	if (!h->via_direct) {
		ops->func = h->callback;
		ops->flags = 0;
		if (h->replacement) {
			ops->flags |= FTRACE_OPS_FL_IPMODIFY;
			if (!IS_ENABLED(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS))
				ops->flags |= FTRACE_OPS_FL_SAVE_REGS;
		}
	}
	if (permanent)
		ops->flags |= FTRACE_OPS_FL_PERMANENT;

	ret = ftrace_set_filter_ip(ops, *h->target, 0, 0);
	if (ret) {
		pr_err("cannot trace %s (filter: %d)\n", sw_hook_name(h), ret);
		h->via_direct = false;
		return ret;
	}
	h->filtered = true;

	if (h->via_direct)
		ret = sw_ftrace_direct_register(ops, h->direct);
	else
		ret = register_ftrace_function(ops);
	if (ret) {
		if (ret == -EBUSY && permanent && sw_ftrace_off())
			sw_ftrace_off_err(sw_hook_name(h));
		else if (ret == -EBUSY)
			pr_err("%s is already modified by another ftrace user (livepatch?)\n",
			       sw_hook_name(h));
		else
			pr_err("cannot hook %s: %d\n", sw_hook_name(h), ret);
		sw_hook_undo(h);
		return ret;
	}
	h->registered = true;
	if (permanent && h->via_direct) {
		ops->flags |= FTRACE_OPS_FL_PERMANENT;
		/* the flag before the look, as the sysctl stores then looks */
		smp_mb();
		if (sw_ftrace_off()) {
			sw_hook_undo(h);
			return sw_ftrace_off_err(sw_hook_name(h));
		}
	}
	return 0;
}

/*
 * The ftrace pin. kprobes put the kretprobe of ttwu_count=1 on
 * ttwu_queue_wakelist's ftrace site with kprobes' own ftrace ops
 * (SAVE_REGS, not PERMANENT). Registered or removed while
 * kernel.ftrace_enabled is 0, it leaves the site's record with its REGS
 * flag set, and the next removal of the last ftrace ops of the machine
 * trips ftrace's sanity check, which turns ftrace off until reboot
 * (measured on 6.12: WARNING at ftrace.c:3180, "ttwu_queue_wakelist+0x0/0x100
 * flags:40000000"; the module's own ops, without SAVE_REGS, do not).
 * So the kretprobe is refused while ftrace is off, and while it exists a
 * PERMANENT ops on a function of this module that nothing calls keeps
 * ftrace_enabled at 1, at no cost to any path.
 */
static noinline void sw_pin_site(void)
{
	barrier();
}

static void notrace sw_pin_func(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static struct ftrace_ops sw_pin_ops = {
	.func = sw_pin_func,
	.flags = FTRACE_OPS_FL_PERMANENT,
};

static bool sw_pinned;

/**
 * sw_ftrace_pin() - keep sysctl kernel.ftrace_enabled at 1, or let it go
 * @on: pin (true) or unpin
 * @what: the observer that needs it, for the error message
 *
 * Under the knob lock, or at load/unload.
 *
 * Return: 0; -EBUSY (said) when ftrace is off; or the error of the
 * filter or the registration.
 */
int sw_ftrace_pin(bool on, const char *what)
{
	int ret;

	if (on == sw_pinned)
		return 0;
	if (!on) {
		ret = unregister_ftrace_function(&sw_pin_ops);
		WARN(ret, "unregistering the ftrace pin failed: %d\n", ret);
		ftrace_set_filter_ip(&sw_pin_ops, (unsigned long)sw_pin_site, 1, 0);
		sw_pinned = false;
		return 0;
	}
	if (sw_ftrace_off())
		return sw_ftrace_off_err(what);
	ret = ftrace_set_filter_ip(&sw_pin_ops, (unsigned long)sw_pin_site, 0, 0);
	if (ret) {
		pr_err("%s: cannot pin ftrace (filter: %d)\n", what, ret);
		return ret;
	}
	ret = register_ftrace_function(&sw_pin_ops);
	if (ret) {
		if (sw_ftrace_off())
			sw_ftrace_off_err(what);
		else
			pr_err("%s: cannot pin ftrace: %d\n", what, ret);
		ftrace_set_filter_ip(&sw_pin_ops, (unsigned long)sw_pin_site, 1, 0);
		return ret;
	}
	sw_pinned = true;
	return 0;
}

/**
 * sw_hook_is_set() - is a hook installed
 * @id: which hook
 *
 * Return: true while it is registered (also one whose removal failed).
 */
bool sw_hook_is_set(enum sw_hook_id id)
{
	return sw_hooks[id].registered;
}

/**
 * sw_hooks_disable() - remove every hook, on-demand ones included, newest first
 *
 * The caller must still wait for CPUs executing a replacement: all of them
 * run with preemption disabled, so synchronize_rcu() is enough.
 *
 * Return: 0, or the first error; a hook that failed stays registered.
 */
int sw_hooks_disable(void)
{
	int i, ret = 0, r;

	for (i = ARRAY_SIZE(sw_hooks) - 1; i >= 0; i--) {
		r = sw_hook_undo(&sw_hooks[i]);
		ret = ret ?: r;
	}
	return ret;
}

/**
 * sw_hook_set() - install or remove an on-demand hook
 * @id: which hook
 * @on: install (true) or remove (false)
 *
 * Called from knob writes, under the knob lock (or at load, before knob
 * writes are accepted). Removing waits for CPUs still inside a
 * replacement, as on unload.
 *
 * Return: 0, or the error from installing (e.g. -EBUSY when another
 * ftrace user already redirects the function).
 */
int sw_hook_set(enum sw_hook_id id, bool on)
{
	struct sw_hook *h = &sw_hooks[id];
	int ret;

	if (on == h->registered)
		return 0;
	if (on && !*h->target) {
		pr_err("%s is not in this kernel\n", sw_hook_name(h));
		return -EOPNOTSUPP;
	}
	if (on)
		return sw_hook_do(h);
	ret = sw_hook_undo(h);
	if (ret)
		return ret;
	synchronize_rcu();
	return 0;
}

/**
 * sw_hooks_remove_all() - remove every hook before the module's code goes
 *
 * For unload and for a failed load: after this returns the module's text
 * is freed, so a hook that cannot be removed is retried, once a second,
 * rather than left calling freed code (rmmod then hangs, the machine
 * stays up).
 */
void sw_hooks_remove_all(void)
{
	unsigned int tries = 0;

	while (sw_hooks_disable()) {
		if (!tries++)
			pr_crit("a hook cannot be removed; retrying every second, the module stays in memory until it is\n");
		msleep(1000);
	}
}

int sw_select_hook = SW_SELECT_HOOK_DEFAULT;

const char * const sw_select_hook_names[SW_SELECT_HOOK_NR] = {
	SW_SELECT_HOOKS(SW_ENUM_NAME, SW_ENUM_NAME)
};

/**
 * sw_select_hook_apply() - knob select_hook: how select_task_rq_fair is hooked
 * @k:   the knob
 * @old: the way in use
 * @new: the way asked for
 *
 * A hook in place is removed and installed again the new way; if that
 * fails, the old way is put back (and the error returned).
 *
 * Return: 0, -EOPNOTSUPP for direct on a kernel without direct calls, or
 * the error from installing.
 */
int sw_select_hook_apply(const struct sw_knob *k, int old, int new)
{
	struct sw_hook *h = &sw_hooks[SW_HOOK_SELECT];
	int ret;

	if (new == SW_SELECT_HOOK_DIRECT && !h->direct) {
		pr_err("select_hook=direct: this kernel has no direct ftrace calls\n");
		return -EOPNOTSUPP;
	}
	if (!h->registered)
		return 0;	/* knob value read at the next install */
	ret = sw_hook_set(SW_HOOK_SELECT, false);
	if (ret)
		return ret;
	WRITE_ONCE(sw_select_hook, new);
	ret = sw_hook_set(SW_HOOK_SELECT, true);
	if (ret) {
		WRITE_ONCE(sw_select_hook, old);
		if (sw_hook_set(SW_HOOK_SELECT, true))
			pr_err("select_task_rq_fair is now unhooked: the kernel decides\n");
	}
	return ret;
}

int sw_hooks_show(struct seq_file *m)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(sw_hooks); i++)
		seq_printf(m, "%s %s %s needs:%s%s\n", sw_hook_name(&sw_hooks[i]),
			   sw_hooks[i].via_direct ? "direct" :
			   sw_hooks[i].replacement ? "redirect" : "observe",
			   sw_hooks[i].registered ? "on" : "off",
			   sw_hooks[i].needs,
			   sw_hooks[i].pinned ? " unregister-failed" : "");
	/* the observers that are not ftrace hooks */
	seq_printf(m, "ttwu_queue_wakelist kretprobe %s needs:ttwu_count=1\n",
		   sw_ttwu_probe_active() ? "on" : "off");
	sw_nr_probe_show(m);
	sw_latency_hooks_show(m);
	sw_reach_hooks_show(m);
	return 0;
}
