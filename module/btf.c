// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake: a minimal BTF reader, enough to say where a struct member
 * lies. Pure: it reads only the blob it is given, never past its length,
 * keeps no state and allocates nothing, so that KUnit can feed it any
 * bytes (kunit/btf_kunit.c).
 *
 * The whole blob is checked before any lookup (header, section bounds,
 * every type record's length by kind, every name's string offset), so a
 * corrupt blob is refused the same way whatever is asked of it.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/types.h>
#include <uapi/linux/btf.h>
#include "btf.h"

#define SW_BTF_MAGIC	0xeB9F
#define SW_BTF_VERSION	1
/*
 * The header's first version, which every BTF blob starts with. The uapi
 * struct btf_header of 7.x adds a layout section (layout_off, layout_len)
 * that kernels emit only when hdr_len says so: its size is not the
 * minimum, and the layout section is not needed here.
 */
struct sw_btf_header {
	u16 magic;
	u8 version;
	u8 flags;
	u32 hdr_len;
	u32 type_off;
	u32 type_len;
	u32 str_off;
	u32 str_len;
};

/* anonymous struct/union nesting and typedef/const chains: deeper is a loop */
#define SW_BTF_MAX_DEPTH 16

/* Callers keep off + sizeof(*t) within the type section. */
static void sw_btf_read_type(const struct sw_btf *b, u32 off,
			     struct btf_type *t)
{
	memcpy(t, b->types + off, sizeof(*t));
}

static void sw_btf_read_member(const struct sw_btf *b, u32 off,
			       struct btf_member *m)
{
	memcpy(m, b->types + off, sizeof(*m));
}

/* Bytes that follow struct btf_type for this kind; -EINVAL: unknown kind. */
static int sw_btf_extra(const struct btf_type *t, u64 *extra)
{
	u64 vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		*extra = 0;
		return 0;
	case BTF_KIND_INT:
		*extra = sizeof(u32);
		return 0;
	case BTF_KIND_ARRAY:
		*extra = sizeof(struct btf_array);
		return 0;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		*extra = vlen * sizeof(struct btf_member);
		return 0;
	case BTF_KIND_ENUM:
		*extra = vlen * sizeof(struct btf_enum);
		return 0;
	case BTF_KIND_FUNC_PROTO:
		*extra = vlen * sizeof(struct btf_param);
		return 0;
	case BTF_KIND_VAR:
		*extra = sizeof(struct btf_var);
		return 0;
	case BTF_KIND_DATASEC:
		*extra = vlen * sizeof(struct btf_var_secinfo);
		return 0;
	case BTF_KIND_DECL_TAG:
		*extra = sizeof(struct btf_decl_tag);
		return 0;
	case BTF_KIND_ENUM64:
		*extra = vlen * sizeof(struct btf_enum64);
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * Length of the record at @off, 0 if it does not fit in the type section
 * or its kind is unknown. Checked for every record by sw_btf_open(), so
 * the walks after it never see 0.
 */
static u32 sw_btf_rec_len(const struct sw_btf *b, u32 off)
{
	struct btf_type t;
	u64 extra;

	if ((u64)off + sizeof(t) > b->types_len)
		return 0;
	sw_btf_read_type(b, off, &t);
	if (sw_btf_extra(&t, &extra))
		return 0;
	if ((u64)off + sizeof(t) + extra > b->types_len)
		return 0;
	return sizeof(t) + (u32)extra;
}

/* The string at @off, NULL when out of bounds (the section ends in NUL). */
static const char *sw_btf_str(const struct sw_btf *b, u32 off)
{
	return off < b->strs_len ? b->strs + off : NULL;
}

static bool sw_btf_section_ok(u32 off, u32 len, u64 avail)
{
	return (u64)off + len <= avail;
}

/**
 * sw_btf_open() - validate a BTF blob once, for any number of lookups
 * @blob: raw BTF, as in /sys/kernel/btf/vmlinux (native byte order)
 * @len: length of @blob in bytes
 * @b: filled on success; points into @blob, which must outlive it
 *
 * Checks magic 0xeB9F, version 1, the header length, both sections within
 * @len, the string section NUL-terminated, every type record of a known
 * kind and within the type section, every name's offset within the string
 * section.
 *
 * Return: 0, or -EINVAL if the blob is malformed.
 */
int sw_btf_open(const void *blob, size_t len, struct sw_btf *b)
{
	struct sw_btf_header h;
	const u8 *base = blob;
	u64 avail;
	u32 off, rl;

	if (!blob || len < sizeof(h))
		return -EINVAL;
	memcpy(&h, blob, sizeof(h));
	if (h.magic != SW_BTF_MAGIC || h.version != SW_BTF_VERSION ||
	    h.hdr_len < sizeof(h) || h.hdr_len > len)
		return -EINVAL;
	avail = len - h.hdr_len;
	if (!sw_btf_section_ok(h.type_off, h.type_len, avail) ||
	    !sw_btf_section_ok(h.str_off, h.str_len, avail))
		return -EINVAL;
	b->types = base + h.hdr_len + h.type_off;
	b->types_len = h.type_len;
	b->strs = (const char *)base + h.hdr_len + h.str_off;
	b->strs_len = h.str_len;
	b->nr_types = 0;
	/* every string, and so every name, is NUL-terminated in the section */
	if (!b->strs_len || b->strs[b->strs_len - 1] != '\0')
		return -EINVAL;

	for (off = 0; off < b->types_len; off += rl) {
		struct btf_type t;

		rl = sw_btf_rec_len(b, off);
		if (!rl)
			return -EINVAL;
		sw_btf_read_type(b, off, &t);
		if (!sw_btf_str(b, t.name_off))
			return -EINVAL;
		if (BTF_INFO_KIND(t.info) == BTF_KIND_STRUCT ||
		    BTF_INFO_KIND(t.info) == BTF_KIND_UNION) {
			u32 m_off = off + sizeof(t);

			for (; m_off < off + rl; m_off += sizeof(struct btf_member)) {
				struct btf_member m;

				sw_btf_read_member(b, m_off, &m);
				if (!sw_btf_str(b, m.name_off))
					return -EINVAL;
			}
		}
		if (b->nr_types == U32_MAX)
			return -EINVAL;
		b->nr_types++;
	}
	return 0;
}

/* Offset of type @id's record (ids count from 1; 0 is void). */
static int sw_btf_type_off(const struct sw_btf *b, u32 id, u32 *off)
{
	u32 o = 0, i, rl;

	if (!id || id > b->nr_types)
		return -EINVAL;
	for (i = 1; i < id; i++) {
		rl = sw_btf_rec_len(b, o);
		if (!rl)
			return -EINVAL;
		o += rl;
	}
	*off = o;
	return 0;
}

/*
 * The struct or union that type @id names, through typedef, const,
 * volatile, restrict and type tags: 0 and its record offset in @off,
 * -ENOENT when it is another kind.
 */
static int sw_btf_resolve_record(const struct sw_btf *b, u32 id, u32 *off)
{
	struct btf_type t;
	int depth, ret;

	for (depth = 0; depth < SW_BTF_MAX_DEPTH; depth++) {
		ret = sw_btf_type_off(b, id, off);
		if (ret)
			return ret;
		sw_btf_read_type(b, *off, &t);
		switch (BTF_INFO_KIND(t.info)) {
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			return 0;
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t.type;
			break;
		default:
			return -ENOENT;
		}
	}
	return -EINVAL;
}

static u32 sw_btf_member_bits(const struct btf_type *t,
			      const struct btf_member *m)
{
	return BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BIT_OFFSET(m->offset) :
					 m->offset;
}

/*
 * Find @member in the struct/union record at @off: its own named members
 * first, then inside its anonymous struct and union members, adding their
 * offsets.
 */
static int sw_btf_find_member(const struct sw_btf *b, u32 off,
			      const char *member, u32 *bit_off, int depth)
{
	struct btf_type t;
	struct btf_member m;
	u32 vlen, i, m_off, inner_rec, inner_bits;
	u64 sum;
	int ret;

	if (depth >= SW_BTF_MAX_DEPTH)
		return -EINVAL;
	sw_btf_read_type(b, off, &t);
	vlen = BTF_INFO_VLEN(t.info);
	m_off = off + sizeof(t);	/* the members fit: sw_btf_open() */

	for (i = 0; i < vlen; i++) {
		sw_btf_read_member(b, m_off + i * sizeof(m), &m);
		if (!strcmp(sw_btf_str(b, m.name_off), member)) {
			*bit_off = sw_btf_member_bits(&t, &m);
			return 0;
		}
	}
	for (i = 0; i < vlen; i++) {
		sw_btf_read_member(b, m_off + i * sizeof(m), &m);
		if (sw_btf_str(b, m.name_off)[0])
			continue;
		ret = sw_btf_resolve_record(b, m.type, &inner_rec);
		if (ret == -ENOENT)	/* e.g. an unnamed bitfield */
			continue;
		if (ret)
			return ret;
		ret = sw_btf_find_member(b, inner_rec, member, &inner_bits,
					 depth + 1);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		sum = (u64)sw_btf_member_bits(&t, &m) + inner_bits;
		if (sum > U32_MAX)
			return -EINVAL;
		*bit_off = sum;
		return 0;
	}
	return -ENOENT;
}

/**
 * sw_btf_find() - where a struct member lies, in a blob sw_btf_open() checked
 * @b: the opened blob
 * @struct_name: the struct or union's tag, e.g. "rq"
 * @member: the member's name; members of anonymous structs and unions
 *          nested in the struct are found too
 * @bit_off: on success, the member's offset from the start of the struct,
 *           in bits (for a bitfield member, its first bit)
 *
 * When several structs share the name, the first one that has the member
 * answers.
 *
 * Return: 0 on success; -ENOENT if no struct or union has that name or
 * none of them has the member; -EINVAL if a record it follows is malformed.
 */
int sw_btf_find(const struct sw_btf *b, const char *struct_name,
		const char *member, u32 *bit_off)
{
	struct btf_type t;
	u32 off, rl;
	int ret;

	if (!struct_name || !*struct_name || !member || !*member)
		return -ENOENT;
	for (off = 0; off < b->types_len; off += rl) {
		rl = sw_btf_rec_len(b, off);
		if (!rl)
			return -EINVAL;
		sw_btf_read_type(b, off, &t);
		if (BTF_INFO_KIND(t.info) != BTF_KIND_STRUCT &&
		    BTF_INFO_KIND(t.info) != BTF_KIND_UNION)
			continue;
		if (strcmp(sw_btf_str(b, t.name_off), struct_name))
			continue;
		ret = sw_btf_find_member(b, off, member, bit_off, 0);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

#ifdef SW_KUNIT
/**
 * sw_btf_member_offset() - sw_btf_open() then sw_btf_find(), for one lookup
 * @blob: raw BTF (native byte order)
 * @len: length of @blob in bytes
 * @struct_name: the struct or union's tag
 * @member: the member's name
 * @bit_off: on success, the member's offset in bits
 *
 * Return: as sw_btf_find(); -EINVAL if the blob is malformed.
 */
int sw_btf_member_offset(const void *blob, size_t len, const char *struct_name,
			 const char *member, u32 *bit_off)
{
	struct sw_btf b;
	int ret;

	ret = sw_btf_open(blob, len, &b);
	if (ret)
		return ret;
	return sw_btf_find(&b, struct_name, member, bit_off);
}
#endif
