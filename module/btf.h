/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: load-time compatibility checks.
 *
 * btf.c is a pure BTF reader (no kernel state, no allocation), tested by
 * KUnit on blobs built in memory; compat.c is the shell that compares the
 * running kernel with the one the module was built against.
 */
#ifndef _SMARTWAKE_BTF_H
#define _SMARTWAKE_BTF_H

#include <linux/types.h>

int sw_btf_member_offset(const void *blob, size_t len, const char *struct_name,
			 const char *member, u32 *bit_off);

int sw_compat_check(void);

#endif /* _SMARTWAKE_BTF_H */
