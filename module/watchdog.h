/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the watchdog, knob revert_on (watchdog.c).
 */
#ifndef _SMARTWAKE_WATCHDOG_H
#define _SMARTWAKE_WATCHDOG_H

#include <smartwake/enums.h>

enum sw_revert_on {
	SW_REVERT_MODES(SW_ENUM_ID, SW_ENUM_ID)
	SW_REVERT_NR
};

extern int sw_revert_on;
extern const char * const sw_revert_on_names[SW_REVERT_NR];

void sw_watchdog_violation(void);
void sw_watchdog_stop(void);

#endif /* _SMARTWAKE_WATCHDOG_H */
