/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: ftrace hooks, each installed by the knob that needs it (hooks.c).
 */
#ifndef _SMARTWAKE_HOOKS_H
#define _SMARTWAKE_HOOKS_H

#include <linux/ftrace.h>
#include <linux/types.h>
#include <smartwake/enums.h>

/* ---- ftrace hooks (hooks.c) -------------------------------------------- */
struct sw_hook {
	unsigned long *target;		/* resolved address */
	void *replacement;		/* redirect target, or NULL */
	ftrace_func_t callback;		/* the redirect, or a pre-handler */
	const char *needs;		/* the knob setting that installs it */
	struct ftrace_ops ops;
	bool filtered, registered;
	bool pinned;			/* unregister failed: module held */
};

/* Every hook is installed by a knob that needs it, none at load. */
enum sw_hook_id {
	SW_HOOK_IDS(SW_ENUM_ID, SW_ENUM_ID)
	SW_NR_HOOKS
};

int sw_hook_set(enum sw_hook_id id, bool on);
int sw_hooks_disable(void);
void sw_hooks_remove_all(void);
int sw_hooks_show(struct seq_file *m);

#endif /* _SMARTWAKE_HOOKS_H */
