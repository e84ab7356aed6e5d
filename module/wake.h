/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the module's wakeup path: select_task_rq_fair (wake.c), select_idle_sibling (sis.c).
 */
#ifndef _SMARTWAKE_WAKE_H
#define _SMARTWAKE_WAKE_H

#include <linux/ftrace.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include "compat.h"
#include "knob_defs.h"
#include "locality.h"

/* ---- the wakeup path (wake.c, sis.c) ----------------------------------- */
int sw_select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags);
bool sw_select_wanted(struct ftrace_regs *fregs);
bool sw_select_wanted_args(struct task_struct *p, int prev_cpu, int wake_flags);
int sw_select_decide(struct task_struct *p, int prev_cpu, int wake_flags);

/* select_hook=direct (direct.c): SW_HAVE_DIRECT, see compat.h */
#ifdef SW_HAVE_DIRECT
void sw_select_tramp(void);
int sw_select_direct(struct task_struct *p, int prev_cpu, int wake_flags,
		     unsigned long parent_ip);
#endif
int sw_select_apply(const struct sw_knob *k, int old, int new);
void sw_lean_update(void);	/* knobs.c, after a value changed */

/* select_hook knob: how select_task_rq_fair is hooked (wake.c) */
enum sw_select_hook {
	SW_SELECT_HOOKS(SW_ENUM_ID, SW_ENUM_ID)
	SW_SELECT_HOOK_NR
};

#ifdef SW_HAVE_DIRECT
#define SW_SELECT_HOOK_DEFAULT	SW_SELECT_HOOK_DIRECT
#else
#define SW_SELECT_HOOK_DEFAULT	SW_SELECT_HOOK_FTRACE
#endif

extern int sw_select_hook;
extern const char * const sw_select_hook_names[SW_SELECT_HOOK_NR];
int sw_select_hook_apply(const struct sw_knob *k, int old, int new);
void sw_select_register(void);	/* at load: the select hook */
int sw_select_hook_at_load(void);	/* testing: test_hook_at_load=1 */

/* inlined into the path: path.c builds sis.c with wake.c */
int sw_select_idle_sibling(struct task_struct *p, int prev, int target);

int sw_sis_init(void);
void sw_sis_exit(void);

#endif /* _SMARTWAKE_WAKE_H */
