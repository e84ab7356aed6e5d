// SPDX-License-Identifier: GPL-2.0
/*
 * The hook mechanism and its registry, with livepatch's discipline: filter
 * on the exact address, register, and on any failure undo every step
 * already taken, in reverse. As livepatch's struct klp_func belongs to the
 * patch that uses it, each struct sw_hook belongs to the file that uses
 * it (path/select.c, ttwu.c, numa.c, overload.c, sib.c, latency.c, reach.c),
 * which registers it at load and takes it with a user bit from a knob's.
 *
 * More: Documentation/design.md, "The files in detail", hooks.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/delay.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/tracepoint.h>
#include "hooks.h"
#include "sched_access.h"
#include "symbols.h"
#include "testing.h"

/* every struct sw_hook, in registration order (the hooks file's) */
static LIST_HEAD(sw_hook_list);

/* The redirect of a hook without its own callback: to its replacement. */
static __always_inline void __sw_redirect(struct ftrace_ops *op,
					  unsigned long parent_ip,
					  struct ftrace_regs *fregs)
{
	struct sw_hook *h = container_of(op, struct sw_hook, ops);

	if (!sw_from_module(parent_ip))
		sw_fregs_set_ip(fregs, (unsigned long)h->replacement);
}

SW_HOOK_CALLBACK(sw_redirect, __sw_redirect)

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
				  h->name, ret);
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
	/*
	 * The removal allocates a new hash and can fail with -ENOMEM (fault
	 * injection): the entry then stays in this unregistered ops, where
	 * it calls nothing and names the target the next install adds
	 * again; sw_hooks_remove_all() frees it. Not ftrace_free_filter()
	 * here: 6.12's leaves the freed hashes in the ops (a double free at
	 * the next install).
	 */
	if (h->filtered) {
		ret = ftrace_set_filter_ip(ops, *h->target, 1, 0);
		if (ret)
			pr_warn("%s: its ftrace filter stays until unload (removal: %d)\n",
				h->name, ret);
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
		return sw_ftrace_off_err(h->name);
	if (!h->replacement && sw_ftrace_off())
		pr_warn("%s: sysctl kernel.ftrace_enabled is 0: the hook is installed but not called, its counters stand still until it is 1\n",
			h->name);
	h->via_direct = h->direct && h->want_direct;
	ops = sw_hook_ops(h);
	if (!h->via_direct) {
		ops->func = h->callback ?: sw_redirect;
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
		pr_err("cannot trace %s (filter: %d)\n", h->name, ret);
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
			sw_ftrace_off_err(h->name);
		else if (ret == -EBUSY)
			pr_err("%s is already modified by another ftrace user (livepatch?)\n",
			       h->name);
		else
			pr_err("cannot hook %s: %d\n", h->name, ret);
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
			return sw_ftrace_off_err(h->name);
		}
	}
	return 0;
}

/*
 * The ftrace pin, for ttwu_count=1 (ttwu.c). Its csd_queue_cpu probe
 * would go on counting while ftrace is off and its pre-handler not. On
 * 6.1, kprobes put its kretprobe on
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
		/* as sw_hook_undo(): a filter left is freed at unload */
		if (!ret)
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
 * sw_hook_register() - add a hook to the registry, not installing it
 * @h: the hook, static in the file that owns it
 *
 * At load, before the knobs are open: the hooks file lists the hooks in
 * this order, and the unload removes them in the reverse one.
 */
void sw_hook_register(struct sw_hook *h)
{
	if (WARN_ON(!h->nr_needs || h->nr_needs > 32))
		return;
	list_add_tail(&h->node, &sw_hook_list);
}

/**
 * sw_hook_is_set() - is a hook installed
 * @h: the hook
 *
 * Return: true while it is installed (also one whose removal failed).
 */
bool sw_hook_is_set(const struct sw_hook *h)
{
	return READ_ONCE(h->registered);
}

/* Install @h, whatever its kind. */
static int sw_hook_install(struct sw_hook *h)
{
	int ret;

	if (h->kind == SW_HOOK_FTRACE) {
		if (!*h->target) {
			pr_err("%s is not in this kernel\n", h->name);
			return -EOPNOTSUPP;
		}
		return sw_hook_do(h);
	}
	ret = h->attach();
	if (!ret)
		WRITE_ONCE(h->registered, true);
	return ret;
}

/*
 * Remove @h, whatever its kind, and wait for CPUs still inside its
 * callbacks: a replacement or pre-handler runs with preemption disabled,
 * a tracepoint probe under RCU, and unregister_kretprobe() waits itself.
 */
static int sw_hook_uninstall(struct sw_hook *h)
{
	int ret;

	if (h->kind == SW_HOOK_FTRACE) {
		ret = sw_hook_undo(h);
		if (ret)
			return ret;
		synchronize_rcu();
		return 0;
	}
	h->detach();
	WRITE_ONCE(h->registered, false);
	if (h->kind == SW_HOOK_TRACEPOINT)
		tracepoint_synchronize_unregister();
	return 0;
}

/* @user: one bit that has a needs entry, said once if not */
static bool sw_hook_user_ok(const struct sw_hook *h, unsigned int user)
{
	return !WARN_ONCE(hweight32(user) != 1 || user >= 1ULL << h->nr_needs,
			  "smartwake: %s taken with user %#x, which has no needs entry\n",
			  h->name, user);
}

/**
 * sw_hook_get() - take a hook for one user, installing it for the first
 * @h:    the hook
 * @user: one bit, 1U << the index of the knob setting in @h->needs
 *
 * Under the knob lock (or at load, before knob writes are accepted).
 *
 * Return: 0 (also when @user holds it already), -EINVAL for a bit
 * without a needs entry, or the error from installing (e.g. -EBUSY when
 * another ftrace user already redirects the function); then nothing
 * changed.
 */
int sw_hook_get(struct sw_hook *h, unsigned int user)
{
	int ret;

	if (!sw_hook_user_ok(h, user))
		return -EINVAL;
	if (h->users & user)
		return 0;
	if (!h->users) {
		ret = sw_hook_install(h);
		if (ret)
			return ret;
	}
	WRITE_ONCE(h->users, h->users | user);
	return 0;
}

/**
 * sw_hook_put() - drop one user of a hook, removing it after the last
 * @h:    the hook
 * @user: the bit given to sw_hook_get()
 *
 * Under the knob lock. The removal waits for CPUs still inside the hook's
 * callbacks.
 *
 * Return: 0 (also when @user does not hold it), or the error of a failed
 * removal: the hook then stays installed and held by @user, and a later
 * put tries again.
 */
int sw_hook_put(struct sw_hook *h, unsigned int user)
{
	int ret;

	if (!sw_hook_user_ok(h, user) || !(h->users & user))
		return 0;
	if (h->users == user && h->registered) {
		ret = sw_hook_uninstall(h);
		if (ret)
			return ret;
	}
	WRITE_ONCE(h->users, h->users & ~user);
	return 0;
}

/**
 * sw_hook_set_direct() - install an ftrace hook through its direct call or not
 * @h:      a hook with a direct-call trampoline
 * @direct: through it (true) or through the ftrace ops
 *
 * Under the knob lock. A hook in place is removed and installed again the
 * new way; if that fails, the old way is put back (and the error
 * returned); if that fails too, the hook is left out and its users let go.
 *
 * Return: 0, -EOPNOTSUPP for @direct without a trampoline, or the error
 * from removing or installing.
 */
int sw_hook_set_direct(struct sw_hook *h, bool direct)
{
	int ret;

	if (direct && !h->direct)
		return -EOPNOTSUPP;
	if (!h->registered) {
		h->want_direct = direct;	/* read at the next install */
		return 0;
	}
	ret = sw_hook_uninstall(h);
	if (ret)
		return ret;
	h->want_direct = direct;
	ret = sw_hook_install(h);
	if (ret) {
		h->want_direct = !direct;
		if (sw_hook_install(h)) {
			pr_err("%s is now unhooked: the kernel decides\n", h->name);
			WRITE_ONCE(h->users, 0);
		}
	}
	return ret;
}

/*
 * Remove every ftrace hook, newest first.
 *
 * Return: 0, or the first error; a hook that failed stays registered.
 */
static int sw_hooks_disable(void)
{
	struct sw_hook *h;
	int ret = 0, r;

	list_for_each_entry_reverse(h, &sw_hook_list, node) {
		if (h->kind != SW_HOOK_FTRACE)
			continue;
		r = sw_hook_undo(h);
		if (!r)
			WRITE_ONCE(h->users, 0);
		ret = ret ?: r;
	}
	return ret;
}

/**
 * sw_hooks_remove_all() - remove every hook and observer before the module's code goes
 *
 * For unload and for a failed load, once no knob write can run: after
 * this returns the module's text is freed, so an ftrace hook that cannot
 * be removed is retried, once a second, rather than left calling freed
 * code (rmmod then hangs, the machine stays up). The observers are then
 * detached, newest first, and their running tracepoint probes waited for;
 * the caller still waits for CPUs inside a replacement (synchronize_rcu()).
 */
void sw_hooks_remove_all(void)
{
	unsigned int tries = 0;
	struct sw_hook *h;

	while (sw_hooks_disable()) {
		if (!tries++)
			pr_crit("a hook cannot be removed; retrying every second, the module stays in memory until it is\n");
		msleep(1000);
	}
	list_for_each_entry_reverse(h, &sw_hook_list, node) {
		if (h->kind == SW_HOOK_FTRACE || !h->registered)
			continue;
		h->detach();
		WRITE_ONCE(h->registered, false);
		WRITE_ONCE(h->users, 0);
	}
	tracepoint_synchronize_unregister();
	/* filters whose removal failed (sw_hook_undo()): no ops is registered now */
	list_for_each_entry(h, &sw_hook_list, node) {
		if (h->kind != SW_HOOK_FTRACE)
			continue;
		ftrace_free_filter(&h->ops);
		ftrace_free_filter(&h->dops);
	}
	if (!sw_pinned)
		ftrace_free_filter(&sw_pin_ops);
}

/**
 * sw_hook_show_needs() - "needs:" and the knob settings of @h, for a show
 * @m: the hooks file
 * @h: the hook
 *
 * Every setting that takes @h, "|" between them, from @h->needs; a hook
 * with more than one also gets " held:" and those that hold it now (or
 * "none"). Without a newline.
 */
void sw_hook_show_needs(struct seq_file *m, const struct sw_hook *h)
{
	unsigned int i, users = READ_ONCE(h->users);
	const char *sep = "";

	seq_puts(m, "needs:");
	for (i = 0; i < h->nr_needs; i++)
		seq_printf(m, "%s%s", i ? "|" : "", h->needs[i]);
	if (h->nr_needs < 2)
		return;
	seq_puts(m, " held:");
	for (i = 0; i < h->nr_needs; i++) {
		if (!(users & (1U << i)))
			continue;
		seq_printf(m, "%s%s", sep, h->needs[i]);
		sep = "|";
	}
	if (!*sep)
		seq_puts(m, "none");
}

static const char * const sw_hook_kind_names[] = {
	[SW_HOOK_TRACEPOINT] = "tracepoint",
	[SW_HOOK_KRETPROBE] = "kretprobe",
};

/**
 * sw_hook_show_line() - a hook's standard line of the hooks file
 * @m: the seq_file
 * @h: the hook
 *
 * Name, kind, on/off, needs, and a failed removal.
 */
void sw_hook_show_line(struct seq_file *m, const struct sw_hook *h)
{
	const char *kind;

	if (h->kind != SW_HOOK_FTRACE)
		kind = sw_hook_kind_names[h->kind];
	else if (READ_ONCE(h->via_direct))
		kind = "direct";
	else
		kind = h->replacement ? "redirect" : "observe";
	seq_printf(m, "%s %s %s ", h->name, kind,
		   READ_ONCE(h->registered) ? "on" : "off");
	sw_hook_show_needs(m, h);
	seq_puts(m, READ_ONCE(h->pinned) ? " unregister-failed\n" : "\n");
}

/**
 * sw_hooks_show() - debugfs "hooks": the ftrace hooks, then the observers
 * @m: the seq_file
 *
 * Read under no lock: a snapshot.
 *
 * Return: 0.
 */
int sw_hooks_show(struct seq_file *m)
{
	struct sw_hook *h;
	bool ftrace;
	int pass;

	for (pass = 0; pass < 2; pass++)
		list_for_each_entry(h, &sw_hook_list, node) {
			ftrace = h->kind == SW_HOOK_FTRACE;
			if (ftrace != !pass)
				continue;
			if (h->show)
				h->show(m, h);
			else
				sw_hook_show_line(m, h);
		}
	return 0;
}
