// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: the raw bpf(2) system call and a BTF reader
 * (bpfsys.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpfsys.h"

#ifndef __NR_bpf
#error "no bpf(2) system call number for this architecture"
#endif

/* The offsets of the 6.12 uapi (include/uapi/linux/bpf.h, btf.h). */
#define SW_AT(type, field, off) \
	_Static_assert(offsetof(type, field) == (off), #type "." #field)

_Static_assert(sizeof(struct sw_bpf_insn) == 8, "struct bpf_insn");
SW_AT(struct sw_attr_btf_load, btf_size, 16);
SW_AT(struct sw_attr_map_create, map_flags, 16);
SW_AT(struct sw_attr_map_create, map_name, 28);
SW_AT(struct sw_attr_map_create, btf_vmlinux_value_type_id, 60);
SW_AT(struct sw_attr_map_create, map_extra, 64);
SW_AT(struct sw_attr_map_create, value_type_btf_obj_fd, 72);
SW_AT(struct sw_attr_elem, key, 8);
SW_AT(struct sw_attr_elem, value, 16);
SW_AT(struct sw_attr_elem, flags, 24);
SW_AT(struct sw_attr_prog_load, insns, 8);
SW_AT(struct sw_attr_prog_load, license, 16);
SW_AT(struct sw_attr_prog_load, attach_btf_obj_fd, 112);
SW_AT(struct sw_attr_prog_load, fd_array, 120);
SW_AT(struct sw_attr_prog_load, log_level, 24);
SW_AT(struct sw_attr_prog_load, log_buf, 32);
SW_AT(struct sw_attr_prog_load, prog_name, 48);
SW_AT(struct sw_attr_prog_load, expected_attach_type, 68);
SW_AT(struct sw_attr_prog_load, attach_btf_id, 108);
SW_AT(struct sw_attr_prog_load, attach_btf_obj_fd, 112);
SW_AT(struct sw_attr_id, next_id, 4);
SW_AT(struct sw_attr_id, open_flags, 8);
SW_AT(struct sw_attr_info, info_len, 4);
SW_AT(struct sw_attr_info, info, 8);
SW_AT(struct sw_btf_info, btf_size, 8);
SW_AT(struct sw_btf_info, name, 16);
SW_AT(struct sw_btf_info, kernel_btf, 28);
_Static_assert(sizeof(struct sw_btf_info) == 32, "struct bpf_btf_info");
SW_AT(struct sw_map_info, name, 24);
SW_AT(struct sw_map_info, btf_vmlinux_value_type_id, 44);
SW_AT(struct sw_map_info, map_extra, 80);
_Static_assert(sizeof(struct sw_map_info) == 88, "struct bpf_map_info");
SW_AT(struct sw_prog_info, load_time, 40);
SW_AT(struct sw_prog_info, map_ids, 56);
SW_AT(struct sw_prog_info, name, 64);
_Static_assert(sizeof(struct sw_btf_header) == 24, "struct btf_header");
_Static_assert(sizeof(struct sw_btf_type) == 12, "struct btf_type");
_Static_assert(sizeof(struct sw_btf_member) == 12, "struct btf_member");

int sw_bpf(int cmd, void *attr, unsigned int size)
{
	long ret = syscall(__NR_bpf, cmd, attr, size);

	return ret < 0 ? -errno : (int)ret;
}

long sw_bpf_next_id(int cmd, uint32_t id)
{
	struct sw_attr_id a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.id = id;
	ret = sw_bpf(cmd, &a, sizeof(a));
	if (ret == -ENOENT)
		return 0;
	return ret < 0 ? ret : (long)a.next_id;
}

int sw_bpf_fd_by_id(int cmd, uint32_t id)
{
	struct sw_attr_id a;

	memset(&a, 0, sizeof(a));
	a.id = id;
	return sw_bpf(cmd, &a, sizeof(a));
}

int sw_bpf_obj_info(int fd, void *info, uint32_t len)
{
	struct sw_attr_info a;

	memset(&a, 0, sizeof(a));
	a.bpf_fd = fd;
	a.info_len = len;
	a.info = (uintptr_t)info;
	return sw_bpf(SW_BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));
}

/* ---- BTF ---- */

static int __printf(3, 4) btf_fail(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * The bytes that follow struct btf_type for @t, by kind (libbpf's
 * btf_type_size(), the kernel's btf_kind_operations.check_meta); -1 for
 * a kind this reader does not know.
 */
static long btf_extra(const struct sw_btf_type *t)
{
	unsigned long vlen = sw_btf_vlen(t);

	switch (sw_btf_kind(t)) {
	case SW_BTF_KIND_INT:
	case SW_BTF_KIND_VAR:
	case SW_BTF_KIND_DECL_TAG:
		return 4;
	case SW_BTF_KIND_PTR:
	case SW_BTF_KIND_FWD:
	case SW_BTF_KIND_TYPEDEF:
	case SW_BTF_KIND_VOLATILE:
	case SW_BTF_KIND_CONST:
	case SW_BTF_KIND_RESTRICT:
	case SW_BTF_KIND_FUNC:
	case SW_BTF_KIND_FLOAT:
	case SW_BTF_KIND_TYPE_TAG:
		return 0;
	case SW_BTF_KIND_ARRAY:
		return 12;		/* struct btf_array */
	case SW_BTF_KIND_STRUCT:
	case SW_BTF_KIND_UNION:
		return vlen * 12;	/* struct btf_member */
	case SW_BTF_KIND_ENUM:
		return vlen * 8;	/* struct btf_enum */
	case SW_BTF_KIND_ENUM64:
		return vlen * 12;	/* struct btf_enum64 */
	case SW_BTF_KIND_FUNC_PROTO:
		return vlen * 8;	/* struct btf_param */
	case SW_BTF_KIND_DATASEC:
		return vlen * 12;	/* struct btf_var_secinfo */
	default:
		return -1;
	}
}

int sw_btf_parse(struct sw_btf *b, const void *data, size_t size,
		 const struct sw_btf *base, char *err, size_t errsz)
{
	struct sw_btf_header h;
	const char *types, *p, *end;
	uint32_t n = 0, cap = 0;
	long extra;

	memset(b, 0, sizeof(*b));
	if (size < sizeof(h))
		return btf_fail(err, errsz, "BTF of %zu bytes: shorter than its header", size);
	memcpy(&h, data, sizeof(h));
	if (h.magic != SW_BTF_MAGIC)
		return btf_fail(err, errsz, "not BTF (magic 0x%04x%s)", h.magic,
				h.magic == 0x9FeB ? ": other byte order" : "");
	if (h.version != 1)
		return btf_fail(err, errsz, "BTF version %u (this reader knows 1)", h.version);
	if (h.hdr_len < sizeof(h) || h.hdr_len > size ||
	    (uint64_t)h.type_off + h.type_len > size - h.hdr_len ||
	    (uint64_t)h.str_off + h.str_len > size - h.hdr_len)
		return btf_fail(err, errsz, "BTF header: sections past the end of its %zu bytes",
				size);
	if (h.type_off % 4)
		return btf_fail(err, errsz, "BTF type section not 4-byte aligned");
	if (!h.str_len || ((const char *)data)[h.hdr_len + h.str_off + h.str_len - 1])
		return btf_fail(err, errsz, "BTF string section not NUL-terminated");

	b->base = base;
	b->data = data;
	b->size = size;
	b->strs = (const char *)data + h.hdr_len + h.str_off;
	b->str_len = h.str_len;
	if (base) {
		b->start_id = base->start_id + base->nr_types;
		b->start_str_off = base->start_str_off + base->str_len;
	} else {
		/* types[0] is void: ids start at 1 in the section */
		cap = 1024;
		b->types = sw_xcalloc(cap, sizeof(*b->types));
		b->types[n++] = NULL;
	}

	types = (const char *)data + h.hdr_len + h.type_off;
	end = types + h.type_len;
	for (p = types; p < end; ) {
		const struct sw_btf_type *t = (const void *)p;

		if ((size_t)(end - p) < sizeof(*t))
			goto trunc;
		extra = btf_extra(t);
		if (extra < 0) {
			sw_btf_free(b);
			return btf_fail(err, errsz, "BTF type %u: unknown kind %u",
					b->start_id + n, sw_btf_kind(t));
		}
		if ((size_t)(end - p) < sizeof(*t) + extra)
			goto trunc;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			b->types = sw_xrealloc(b->types, cap * sizeof(*b->types));
		}
		b->types[n++] = t;
		p += sizeof(*t) + extra;
	}
	b->nr_types = n;
	return 0;
trunc:
	sw_btf_free(b);
	return btf_fail(err, errsz, "BTF type %u: truncated", b->start_id + n);
}

void sw_btf_free(struct sw_btf *b)
{
	free(b->types);
	b->types = NULL;
	b->nr_types = 0;
}

const struct sw_btf_type *sw_btf_type(const struct sw_btf *b, uint32_t id)
{
	while (b && id < b->start_id)
		b = b->base;
	if (!b || id - b->start_id >= b->nr_types)
		return NULL;
	return b->types[id - b->start_id];
}

const char *sw_btf_str(const struct sw_btf *b, uint32_t off)
{
	while (b && off < b->start_str_off)
		b = b->base;
	if (!b || off - b->start_str_off >= b->str_len)
		return "";
	return b->strs + off - b->start_str_off;
}

uint32_t sw_btf_find(const struct sw_btf *b, unsigned int kind, const char *name)
{
	uint32_t i;

	for (i = 0; i < b->nr_types; i++) {
		const struct sw_btf_type *t = b->types[i];

		if (t && sw_btf_kind(t) == kind &&
		    !strcmp(sw_btf_str(b, t->name_off), name))
			return b->start_id + i;
	}
	return 0;
}

static const struct sw_btf_member *btf_members(const struct sw_btf_type *t)
{
	return (const struct sw_btf_member *)(t + 1);
}

static bool btf_is_struct(const struct sw_btf_type *t)
{
	return t && (sw_btf_kind(t) == SW_BTF_KIND_STRUCT ||
		     sw_btf_kind(t) == SW_BTF_KIND_UNION);
}

int sw_btf_member(const struct sw_btf *b, uint32_t id, const char *name,
		  unsigned int *idx, uint32_t *byte_off)
{
	const struct sw_btf_type *t = sw_btf_type(b, id);
	const struct sw_btf_member *m;
	unsigned int i;

	if (!btf_is_struct(t))
		return -ENOENT;
	m = btf_members(t);
	for (i = 0; i < sw_btf_vlen(t); i++) {
		if (strcmp(sw_btf_str(b, m[i].name_off), name))
			continue;
		*idx = i;
		/* with kind_flag, the bitfield size is in the top 8 bits */
		*byte_off = (t->info >> 31 ? m[i].offset & 0xffffff : m[i].offset) / 8;
		return 0;
	}
	return -ENOENT;
}

/* @id past typedefs and modifiers */
static const struct sw_btf_type *btf_skip_mods(const struct sw_btf *b, uint32_t id)
{
	const struct sw_btf_type *t = sw_btf_type(b, id);
	int guard;

	for (guard = 0; t && guard < 32; guard++) {
		switch (sw_btf_kind(t)) {
		case SW_BTF_KIND_TYPEDEF:
		case SW_BTF_KIND_VOLATILE:
		case SW_BTF_KIND_CONST:
		case SW_BTF_KIND_RESTRICT:
		case SW_BTF_KIND_TYPE_TAG:
			t = sw_btf_type(b, t->size_type);
			break;
		default:
			return t;
		}
	}
	return NULL;
}

bool sw_btf_member_is_func_ptr(const struct sw_btf *b, uint32_t id, unsigned int idx)
{
	const struct sw_btf_type *t = sw_btf_type(b, id);

	if (!btf_is_struct(t) || idx >= sw_btf_vlen(t))
		return false;
	t = btf_skip_mods(b, btf_members(t)[idx].type);
	if (!t || sw_btf_kind(t) != SW_BTF_KIND_PTR)
		return false;
	t = btf_skip_mods(b, t->size_type);
	return t && sw_btf_kind(t) == SW_BTF_KIND_FUNC_PROTO;
}
