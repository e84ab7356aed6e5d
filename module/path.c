// SPDX-License-Identifier: GPL-2.0
/*
 * The wakeup path's files, built as one translation unit as
 * kernel/sched/build_policy.c builds the scheduler's classes (ext.c and
 * ext_idle.c among them): each file stays its own concern, and the
 * compiler inlines across them as it does within the kernel's fair.c:
 * select_idle_sibling() into the path, the path into the shadow
 * evaluation. scripts/insnprof.sh, 1:2 messaging, per wakeup: 471 to 418
 * instructions under policy=smartwake, 640 to 612 under policy=shadow.
 */
#include "wake.c"
#include "sis.c"
#include "shadow.c"
