/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wakeup path's seam with bpf.c, a header of its own (internal.h
 * includes it) because bpf.c must not see the kernel's private sched.h:
 * its kfuncs and struct smartwake_ops need the one task_struct type of
 * the kernel's BTF (bpf.c, Documentation/design.md).
 */
#ifndef _SMARTWAKE_PATH_SEAM_H
#define _SMARTWAKE_PATH_SEAM_H

#include <linux/types.h>

/*
 * As a sched_ext scheduler's select_cpu may ask the built-in idle policy
 * (scx_bpf_select_cpu_dfl(), kernel/sched/ext/idle.c), a program's may ask
 * the path for its answer (smartwake_default_cpu(), bpf.c): computed once
 * per wakeup, on the wakeup sw_bpf_select_wakeup() recorded for it.
 */
int sw_bpf_default_cpu(void);
/* smartwake_shadowing() (bpf.c): the program runs for policy=shadow */
bool sw_bpf_shadowing(void);

#endif /* _SMARTWAKE_PATH_SEAM_H */
