// SPDX-License-Identifier: GPL-2.0
/*
 * The wakeup path's files, built as one translation unit as
 * kernel/sched/build_policy.c builds the scheduler's classes (ext/ext.c
 * and ext/idle.c among them): each file stays its own concern and
 * includes internal.h, and the compiler inlines across them as it does
 * within the kernel's fair.c: select_idle_sibling() into the path, the
 * path into the hook's envelope and the shadow evaluation.
 */
#include "wake.c"
#include "sis.c"
#include "shadow.c"
#include "select.c"
