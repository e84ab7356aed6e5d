/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: load-time checks that the running kernel is the one the
 * module was built for (compat.c).
 */
#ifndef _SMARTWAKE_COMPAT_H
#define _SMARTWAKE_COMPAT_H

int sw_compat_check(void);
int sw_compat_check_percpu(void);

#endif /* _SMARTWAKE_COMPAT_H */
