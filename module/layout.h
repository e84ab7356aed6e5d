/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the load-time layout check (layout.c): the running kernel is
 * the one the module was built for, its release and the layouts of the
 * fields the module reads.
 */
#ifndef _SMARTWAKE_LAYOUT_H
#define _SMARTWAKE_LAYOUT_H

#include <linux/types.h>

/* a field of a kernel structure, where this build puts it */
struct sw_layout_field {
	const char *sname;
	const char *member;
	size_t off;		/* offsetof() in this build, bytes */
};

int sw_layout_check(void);
int sw_layout_check_percpu(void);
int sw_layout_check_fields(const struct sw_layout_field *fields,
			   unsigned int n);

#endif /* _SMARTWAKE_LAYOUT_H */
