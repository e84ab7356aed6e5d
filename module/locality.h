/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: placement locality counters (locality.c).
 */
#ifndef _SMARTWAKE_LOCALITY_H
#define _SMARTWAKE_LOCALITY_H

/* wake.c: an answer of the module's path, used (policy=smartwake) */
void sw_locality_count(int prev_cpu, int waker_cpu, int cpu);
/* shadow.c, policy=shadow: the module's answer and the kernel's */
void sw_locality_shadow(int prev_cpu, int waker_cpu, int mine, int theirs);

#endif /* _SMARTWAKE_LOCALITY_H */
