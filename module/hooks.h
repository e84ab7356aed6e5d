/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: hooks and observers, each defined by the file that uses it
 * and installed while a knob setting needs it (the mechanism: hooks.c).
 */
#ifndef _SMARTWAKE_HOOKS_H
#define _SMARTWAKE_HOOKS_H

#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/types.h>

struct seq_file;

/**
 * sw_from_module() - is @ip, a hooked function's return address, in the
 *                    module's text
 * @ip: the parent_ip of an ftrace callback or direct trampoline
 *
 * Every hook lets the module's own calls into the kernel's function
 * through (sw_orig_select() and the like). One range check: the text is
 * where a return address can be; within_module() walks all seven memory
 * types of a 6.4+ module: 115 instructions per wakeup more, measured by
 * scripts/insnprof.sh.
 *
 * Return: true for a call made by this module.
 */
static __always_inline bool sw_from_module(unsigned long ip)
{
#ifdef for_each_mod_mem_type
	return within_module_mem_type(ip, THIS_MODULE, MOD_TEXT);
#else
	return within_module_core(ip, THIS_MODULE);	/* 6.1: one range */
#endif
}

/**
 * sw_hook_guarded() - run a hook's handler under ftrace's recursion guard
 * @ip:        the traced function
 * @parent_ip: its caller
 * @op:        the hook's ftrace_ops
 * @fregs:     the traced function's saved registers
 * @handler:   the hook's plain handler
 *
 * The one skeleton of the module's ftrace callbacks, as klp_ftrace_handler()
 * is livepatch's: the ops carry no FTRACE_OPS_FL_RECURSION (ftrace calls
 * the callback from its trampoline without the assist function), so the
 * callback takes the guard, which also disables preemption. Always inlined
 * with a constant @handler, itself inlined: no call more than before.
 */
static __always_inline void
sw_hook_guarded(unsigned long ip, unsigned long parent_ip,
		struct ftrace_ops *op, struct ftrace_regs *fregs,
		void (*handler)(struct ftrace_ops *op, unsigned long parent_ip,
				struct ftrace_regs *fregs))
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	handler(op, parent_ip, fregs);
	ftrace_test_recursion_unlock(bit);
}

/**
 * SW_HOOK_CALLBACK() - define a hook's ftrace callback: its handler, guarded
 * @name:    the callback (struct sw_hook's @callback)
 * @handler: the handler, static __always_inline
 */
#define SW_HOOK_CALLBACK(name, handler)					\
static void notrace name(unsigned long ip, unsigned long parent_ip,	\
			 struct ftrace_ops *op, struct ftrace_regs *fregs) \
{									\
	sw_hook_guarded(ip, parent_ip, op, fregs, handler);		\
}

/* what a struct sw_hook is */
enum sw_hook_kind {
	SW_HOOK_FTRACE,		/* an ftrace ops on @target: hooks.c installs it */
	SW_HOOK_TRACEPOINT,	/* probes the owner attaches; removal waits for them */
	SW_HOOK_KRETPROBE,	/* a kretprobe the owner attaches */
};

/**
 * struct sw_hook - a hook or observer, owned by the file that uses it
 * @name:        the traced function or tracepoint (the hooks file)
 * @kind:        enum sw_hook_kind
 * @needs:       per user bit (1U << index), the knob setting that takes it
 *               with that bit: the hooks file prints these, so what it
 *               says cannot differ from who takes the hook
 * @nr_needs:    their number
 * @target:      SW_HOOK_FTRACE: the traced function's resolved address
 * @replacement: ...the function the caller is redirected to, or NULL for
 *               an observer (a pre-handler that changes nothing)
 * @callback:    ...the ftrace callback (SW_HOOK_CALLBACK(): a plain handler
 *               under the recursion guard); NULL: redirect to @replacement
 * @direct:      ...a direct-call trampoline, or 0
 * @want_direct: ...install through @direct (sw_hook_set_direct())
 * @attach:      the other kinds: attach the probes (all or none)
 * @detach:      ...and detach them, not waiting for running probes
 * @show:        its lines of the hooks file; NULL: one standard line
 *
 * The rest is hooks.c's, changed under the knob lock (or at load and
 * unload, when no knob write can run).
 */
struct sw_hook {
	const char *name;
	enum sw_hook_kind kind;
	const char * const *needs;
	unsigned int nr_needs;
	unsigned long *target;
	void *replacement;
	ftrace_func_t callback;
	unsigned long direct;
	bool want_direct;
	int (*attach)(void);
	void (*detach)(void);
	void (*show)(struct seq_file *m, const struct sw_hook *h);
	/* private to hooks.c */
	unsigned int users;		/* user bits holding it */
	bool registered;		/* installed (or removal failed) */
	bool filtered;			/* ftrace filter set */
	bool via_direct;		/* registered (or being) with @dops */
	bool pinned;			/* unregister failed: module held */
	struct ftrace_ops ops;
	struct ftrace_ops dops;		/* for the direct call */
	struct list_head node;		/* in the registry */
};

/* The knob settings of a struct sw_hook, one per user bit from bit 0. */
#define SW_HOOK_NEEDS(...)						\
	.needs = (const char * const []){ __VA_ARGS__ },		\
	.nr_needs = sizeof((const char * const []){ __VA_ARGS__ }) /	\
		    sizeof(const char *)

void sw_hook_register(struct sw_hook *h);
int sw_hook_get(struct sw_hook *h, unsigned int user);
int sw_hook_put(struct sw_hook *h, unsigned int user);
bool sw_hook_is_set(const struct sw_hook *h);
int sw_hook_set_direct(struct sw_hook *h, bool direct);
void sw_hook_show_needs(struct seq_file *m, const struct sw_hook *h);
void sw_hook_show_line(struct seq_file *m, const struct sw_hook *h);
int sw_ftrace_pin(bool on, const char *what);
void sw_hooks_remove_all(void);
int sw_hooks_show(struct seq_file *m);

#endif /* _SMARTWAKE_HOOKS_H */
