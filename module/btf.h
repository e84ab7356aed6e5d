/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: load-time compatibility checks.
 *
 * btf.c is a pure BTF reader (no kernel state, no allocation), tested by
 * KUnit on blobs built in memory; layout.c (layout.h) is the shell that
 * compares the running kernel with the one the module was built against.
 */
#ifndef _SMARTWAKE_BTF_H
#define _SMARTWAKE_BTF_H

#include <linux/types.h>

/**
 * struct sw_btf - a BTF blob that sw_btf_open() validated
 * @types: the type section
 * @strs: the string section
 * @types_len: bytes in @types
 * @strs_len: bytes in @strs
 * @nr_types: type records (ids 1..@nr_types)
 */
struct sw_btf {
	const u8 *types;
	const char *strs;
	u32 types_len;
	u32 strs_len;
	u32 nr_types;
};

int sw_btf_open(const void *blob, size_t len, struct sw_btf *b);
int sw_btf_find(const struct sw_btf *b, const char *struct_name,
		const char *member, u32 *bit_off);
#ifdef SW_KUNIT
/* one-shot lookup, for the KUnit suite only */
int sw_btf_member_offset(const void *blob, size_t len, const char *struct_name,
			 const char *member, u32 *bit_off);
#endif

#endif /* _SMARTWAKE_BTF_H */
