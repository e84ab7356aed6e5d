/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: sched-idle balance opportunity counters, knob sib_count (sib.c).
 */
#ifndef _SMARTWAKE_SIB_H
#define _SMARTWAKE_SIB_H

#include "knob_defs.h"

extern int sw_sib_count;
int sw_sib_apply(const struct sw_knob *k, int old, int new);
void sw_sib_register(void);	/* at load: the two pre-handlers */

#endif /* _SMARTWAKE_SIB_H */
