/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: remote wakeup queueing (ttwu.c).
 */
#ifndef _SMARTWAKE_TTWU_H
#define _SMARTWAKE_TTWU_H

#include <linux/types.h>
#include "knob_defs.h"

/* ---- remote wakeup queueing (ttwu.c) ---------------------------------- */
enum sw_ttwu_mode {
	SW_TTWU_MODES(SW_ENUM_ID, SW_ENUM_ID)
	SW_TTWU_NR
};

extern const char * const sw_ttwu_mode_names[SW_TTWU_NR];
extern int sw_ttwu_queue;
extern int sw_ttwu_count;
int sw_ttwu_apply(const struct sw_knob *k, int old, int new);
int sw_ttwu_count_apply(const struct sw_knob *k, int old, int new);
void sw_ttwu_register(void);	/* at load: the redirect and the counting hooks */

#endif /* _SMARTWAKE_TTWU_H */
