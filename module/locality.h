/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: placement locality counters (locality.c), knob "locality".
 * The counting sits behind a static key: at locality=0 (the default) the
 * wakeup path holds one jump-over NOP where the counting would be.
 */
#ifndef _SMARTWAKE_LOCALITY_H
#define _SMARTWAKE_LOCALITY_H

#include <linux/jump_label.h>
#include "knob_defs.h"

extern int sw_locality_knob;		/* knob "locality": counted while 1 */
DECLARE_STATIC_KEY_FALSE(sw_locality_key);	/* on while locality=1 */
int sw_locality_apply(const struct sw_knob *k, int old, int new);

void __sw_locality_count(int prev_cpu, int waker_cpu, int cpu);
void __sw_locality_kernel(int prev_cpu, int waker_cpu, int cpu);

/* Is the locality counting on (knob locality=1)? A patched jump. */
static __always_inline bool sw_locality_on(void)
{
	return static_branch_unlikely(&sw_locality_key);
}

/*
 * path/select.c: an answer of the module's path, used (policy=smartwake);
 * path/shadow.c: compared (policy=shadow). Only while locality=1.
 */
static __always_inline void sw_locality_count(int prev_cpu, int waker_cpu,
					      int cpu)
{
	if (sw_locality_on())
		__sw_locality_count(prev_cpu, waker_cpu, cpu);
}

#endif /* _SMARTWAKE_LOCALITY_H */
