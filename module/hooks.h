/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: ftrace hooks, each installed by the knob that needs it (hooks.c).
 */
#ifndef _SMARTWAKE_HOOKS_H
#define _SMARTWAKE_HOOKS_H

#include <linux/ftrace.h>
#include <linux/types.h>
#include <smartwake/enums.h>
#include "wake.h"

/* ---- ftrace hooks (hooks.c) -------------------------------------------- */
struct sw_hook {
	unsigned long *target;		/* resolved address */
	void *replacement;		/* redirect target, or NULL */
	ftrace_func_t callback;		/* the redirect, or a pre-handler */
	const char *needs;		/* the knob setting that installs it */
	unsigned long direct;		/* direct-call trampoline, or 0 */
	struct ftrace_ops ops;
	struct ftrace_ops dops;		/* for the direct call */
	bool via_direct;		/* registered (or being) with dops */
	bool filtered, registered;
	bool pinned;			/* unregister failed: module held */
};

/* Every hook is installed by a knob that needs it, none at load. */
enum sw_hook_id {
	SW_HOOK_IDS(SW_ENUM_ID, SW_ENUM_ID)
	SW_NR_HOOKS
};

/* select_hook knob: how select_task_rq_fair is hooked */
enum sw_select_hook {
	SW_SELECT_HOOKS(SW_ENUM_ID, SW_ENUM_ID)
	SW_SELECT_HOOK_NR
};

#ifdef SW_HAVE_DIRECT
#define SW_SELECT_HOOK_DEFAULT	SW_SELECT_HOOK_DIRECT
#else
#define SW_SELECT_HOOK_DEFAULT	SW_SELECT_HOOK_FTRACE
#endif

struct sw_knob;
extern int sw_select_hook;
extern const char * const sw_select_hook_names[SW_SELECT_HOOK_NR];
int sw_select_hook_apply(const struct sw_knob *k, int old, int new);

int sw_hook_set(enum sw_hook_id id, bool on);
bool sw_hook_is_set(enum sw_hook_id id);
int sw_ftrace_pin(bool on, const char *what);
int sw_hooks_disable(void);
void sw_hooks_remove_all(void);
int sw_hooks_show(struct seq_file *m);

#endif /* _SMARTWAKE_HOOKS_H */
