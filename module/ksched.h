/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the target kernel's private kernel/sched/sched.h (from KSRC,
 * see module/Kbuild), with the headers it expects to find included before
 * it (kernel/sched/build_*.c include them first): 6.1's needs
 * <linux/sched/cputime.h>.
 */
#ifndef _SMARTWAKE_KSCHED_H
#define _SMARTWAKE_KSCHED_H

#include <linux/mmu_context.h>
#include <linux/sched/cputime.h>
#include "sched.h"

#endif /* _SMARTWAKE_KSCHED_H */
