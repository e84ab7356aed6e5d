/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the sched-idle pull, knob sib_pull (pull.c).
 */
#ifndef _SMARTWAKE_PULL_H
#define _SMARTWAKE_PULL_H

#include "knob_defs.h"

extern int sw_sib_pull;
int sw_pull_apply(const struct sw_knob *k, int old, int new);
void sw_pull_init(void);	/* at load: the per-CPU kicks */

#endif /* _SMARTWAKE_PULL_H */
