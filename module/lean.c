// SPDX-License-Identifier: GPL-2.0
/*
 * The lean switch: which copy of the wakeup path runs (lean.h), set after
 * every knob change from the decision knobs' values.
 */
#include <linux/jump_label.h>
#include "lean.h"

/**
 * sw_lean_update() - switch the wakeup path's copy after a knob write
 *
 * The knob table's change callback (knob_table.c), under the knob lock
 * after every change of a value: the lean copy while every knob of
 * SW_LEAN_KNOBS holds mainline's value.
 */
void sw_lean_update(void)
{
	bool lean = !SW_LEAN_ANY_DIFFERS();

	if (lean == static_key_enabled(&sw_lean_key))
		return;
	if (lean)
		static_branch_enable(&sw_lean_key);
	else
		static_branch_disable(&sw_lean_key);
}
