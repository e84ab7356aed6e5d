/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the lean copy of the wakeup path (path/wake.c, path/sis.c).
 * While every decision knob below holds mainline's value (their
 * defaults), sw_wake() and sw_select_idle_sibling() run a copy of
 * themselves compiled with those values as constants, chosen by a static
 * key: the knob reads and the branches on them leave the wakeup path. Any
 * other value takes the copy that reads the knobs.
 *
 * One list, shaped as the EM()/EMe() lists of enums.h (and exempt from
 * the same checkpatch macro checks, scripts/check.sh), makes the
 * constants and the test that sets the key (sw_lean_update()).
 */
#ifndef _SMARTWAKE_LEAN_H
#define _SMARTWAKE_LEAN_H

#include <linux/jump_label.h>
#include "knob_defs.h"
#include "numa.h"

#define SW_LEAN_KNOBS(EM, EMe)				\
	EM(sw_decay, SW_DECAY_HALVE)			\
	EM(sw_wide_mode, SW_WIDE_MAINLINE)		\
	EM(sw_factor_src, SW_FACTOR_LLC)		\
	EM(sw_wa_idle, 1)				\
	EM(sw_wa_weight, 1)				\
	EM(sw_wa_bias, 1)				\
	EM(sw_sync, 1)					\
	EM(sw_numa_retry, SW_NUMA_OFF)			\
	EM(sw_sis_filter, 0)				\
	EMe(sw_sis_sched_idle, 1)

/* the constants: sw_lean_<knob variable> */
#define SW_LEAN_CONST(var, val)		sw_lean_##var = (val),
enum { SW_LEAN_KNOBS(SW_LEAN_CONST, SW_LEAN_CONST) };

/* the test: does any knob of the list differ from mainline's value */
#define SW_LEAN_DIFFERS(var, val)	(READ_ONCE(var) != (val)) ||
#define SW_LEAN_DIFFERS_LAST(var, val)	(READ_ONCE(var) != (val))
#define SW_LEAN_ANY_DIFFERS()		\
	(SW_LEAN_KNOBS(SW_LEAN_DIFFERS, SW_LEAN_DIFFERS_LAST))

/* A decision knob's value in a copy of the path: constant in the lean one. */
#define sw_knob(lean, var)	((lean) ? (int)sw_lean_##var : READ_ONCE(var))

DECLARE_STATIC_KEY_TRUE(sw_lean_key);	/* every SW_LEAN_KNOBS at mainline */
void sw_lean_update(void);	/* lean.c: after a knob's value changed */

/* Is the lean copy to run? One patched jump. */
static __always_inline bool sw_lean(void)
{
	return static_branch_likely(&sw_lean_key);
}

#endif /* _SMARTWAKE_LEAN_H */
