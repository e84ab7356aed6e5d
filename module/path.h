/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the wakeup path (path/) as the rest of the module sees it:
 * the select hook, its knobs, the lean switch; path/internal.h is the rest.
 */
#ifndef _SMARTWAKE_PATH_H
#define _SMARTWAKE_PATH_H

#include <linux/ftrace.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include "knob_defs.h"
#include "locality.h"
#include "sched_access.h"

/* knobs enabled, policy (path/select.c) */
int sw_select_apply(const struct sw_knob *k, int old, int new);

/* select_hook knob: how select_task_rq_fair is hooked (path/select.c) */
enum sw_select_hook {
	SW_SELECT_HOOKS(SW_ENUM_ID, SW_ENUM_ID)
	SW_SELECT_HOOK_NR
};

#ifdef SW_HAVE_DIRECT
#define SW_SELECT_HOOK_DEFAULT	SW_SELECT_HOOK_DIRECT
/* its trampoline (path/select.c), checked by ibt.c on arm64 */
void sw_select_tramp(void);
#else
#define SW_SELECT_HOOK_DEFAULT	SW_SELECT_HOOK_FTRACE
#endif

extern const char * const sw_policy_names[SW_POLICY_NR];
extern int sw_select_hook;
extern int sw_trace_sample;	/* knob "trace_sample" (path/select.c) */
extern const char * const sw_select_hook_names[SW_SELECT_HOOK_NR];
int sw_select_hook_apply(const struct sw_knob *k, int old, int new);
void sw_select_register(void);	/* at load: the select hook */
int sw_select_hook_at_load(void);	/* testing: test_hook_at_load=1 */

/* at load and unload: path/sis.c's scratch masks */
int sw_sis_init(void);
void sw_sis_exit(void);

#endif /* _SMARTWAKE_PATH_H */
