// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake_btf: KUnit suite for the BTF reader (module/btf.c). Each case
 * builds a tiny BTF blob in memory, then corrupts it where the case says:
 *
 *   [1] INT "int" (32 bits)
 *   [2] UNION (anonymous) { int x; int y; }
 *   [3] STRUCT "s" (kflag: bitfield offsets) {
 *           int a;		bit 0
 *           union { x; y; };	bit 64	(type 2, anonymous)
 *           int bf:3;		bit 128
 *           int b;		bit 160
 *       }
 *   [4] TYPEDEF "t" -> 4	(a loop, for the malformed cases)
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <uapi/linux/btf.h>

#include "../module/btf.h"

#define INFO(kind, kflag, vlen) \
	(((u32)(kflag) << 31) | ((u32)(kind) << 24) | (u32)(vlen))

struct tb {
	u8 types[256];
	u32 tlen;
	char strs[64];
	u32 slen;
	u32 s_rec;		/* offset of struct s's record in types[] */
	u32 anon_member;	/* offset of s's anonymous member */
	u8 blob[512];		/* header + types + strings */
	size_t len;
};

static void put32(struct tb *t, u32 v)
{
	memcpy(t->types + t->tlen, &v, sizeof(v));
	t->tlen += sizeof(v);
}

static u32 str(struct tb *t, const char *s)
{
	u32 off = t->slen;

	strscpy(t->strs + off, s, sizeof(t->strs) - off);
	t->slen += strlen(s) + 1;
	return off;
}

static void type(struct tb *t, u32 name, u32 info, u32 size_type)
{
	put32(t, name);
	put32(t, info);
	put32(t, size_type);
}

static void member(struct tb *t, u32 name, u32 type_id, u32 offset)
{
	put32(t, name);
	put32(t, type_id);
	put32(t, offset);
}

/* The types and strings above, then the blob in t->blob. */
static void emit(struct tb *t)
{
	struct btf_header h = {
		.magic = 0xeB9F,
		.version = 1,
		.hdr_len = sizeof(h),
		.type_off = 0,
		.type_len = t->tlen,
		.str_off = t->tlen,
		.str_len = t->slen,
	};

	memcpy(t->blob, &h, sizeof(h));
	memcpy(t->blob + sizeof(h), t->types, t->tlen);
	memcpy(t->blob + sizeof(h) + t->tlen, t->strs, t->slen);
	t->len = sizeof(h) + t->tlen + t->slen;
}

static struct tb *build(struct kunit *test)
{
	struct tb *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	u32 n_int, n_x, n_y, n_s, n_a, n_b, n_bf, n_t;

	KUNIT_ASSERT_NOT_NULL(test, t);
	str(t, "");
	n_int = str(t, "int");
	n_x = str(t, "x");
	n_y = str(t, "y");
	n_s = str(t, "s");
	n_a = str(t, "a");
	n_b = str(t, "b");
	n_bf = str(t, "bf");
	n_t = str(t, "t");

	type(t, n_int, INFO(BTF_KIND_INT, 0, 0), 4);			/* [1] */
	put32(t, 32);
	type(t, 0, INFO(BTF_KIND_UNION, 0, 2), 4);			/* [2] */
	member(t, n_x, 1, 0);
	member(t, n_y, 1, 0);
	t->s_rec = t->tlen;
	type(t, n_s, INFO(BTF_KIND_STRUCT, 1, 4), 24);		/* [3] */
	member(t, n_a, 1, 0);
	t->anon_member = t->tlen;
	member(t, 0, 2, 64);
	member(t, n_bf, 1, (3U << 24) | 128);
	member(t, n_b, 1, 160);
	type(t, n_t, INFO(BTF_KIND_TYPEDEF, 0, 0), 4);		/* [4] */
	emit(t);
	return t;
}

static int lookup(struct tb *t, const char *s, const char *m, u32 *bits)
{
	return sw_btf_member_offset(t->blob, t->len, s, m, bits);
}

/* patch a u32 of the built blob: header field or type section word */
static void patch_hdr(struct tb *t, size_t off, u32 v)
{
	memcpy(t->blob + off, &v, sizeof(v));
}

static void patch_type(struct tb *t, u32 off, u32 v)
{
	memcpy(t->types + off, &v, sizeof(v));
	emit(t);
}

static void found_direct_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits = ~0U;

	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), 0);
	KUNIT_EXPECT_EQ(test, bits, 0U);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "b", &bits), 0);
	KUNIT_EXPECT_EQ(test, bits, 160U);
}

static void found_in_anonymous_union_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits = 0;

	KUNIT_EXPECT_EQ(test, lookup(t, "s", "y", &bits), 0);
	KUNIT_EXPECT_EQ(test, bits, 64U);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "x", &bits), 0);
	KUNIT_EXPECT_EQ(test, bits, 64U);
}

/* one sw_btf_open(), many sw_btf_find()s: the answers of single lookups */
static void open_once_find_many_test(struct kunit *test)
{
	static const char * const names[] = { "a", "x", "y", "bf", "b", "zz" };
	struct tb *t = build(test);
	struct sw_btf b;
	u32 one, many;
	size_t i;

	KUNIT_ASSERT_EQ(test, sw_btf_open(t->blob, t->len, &b), 0);
	KUNIT_EXPECT_EQ(test, b.nr_types, 4U);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		one = ~0U;
		many = ~0U;
		KUNIT_EXPECT_EQ_MSG(test, sw_btf_find(&b, "s", names[i], &many),
				    lookup(t, "s", names[i], &one), "%s", names[i]);
		KUNIT_EXPECT_EQ_MSG(test, many, one, "%s", names[i]);
	}
	KUNIT_EXPECT_EQ(test, sw_btf_find(&b, "", "a", &many), -ENOENT);
	KUNIT_EXPECT_EQ(test, sw_btf_find(&b, "s", NULL, &many), -ENOENT);
	t->blob[0] ^= 0xff;
	KUNIT_EXPECT_EQ(test, sw_btf_open(t->blob, t->len, &b), -EINVAL);
	KUNIT_EXPECT_EQ(test, sw_btf_open(NULL, 0, &b), -EINVAL);
}

/* kflag set: the offset word holds the bitfield size in its top byte */
static void kflag_bitfield_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits = 0;

	KUNIT_EXPECT_EQ(test, lookup(t, "s", "bf", &bits), 0);
	KUNIT_EXPECT_EQ(test, bits, 128U);
}

static void unaligned_blob_test(struct kunit *test)
{
	struct tb *t = build(test);
	u8 *copy = kunit_kzalloc(test, t->len + 1, GFP_KERNEL);
	u32 bits = 0;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy + 1, t->blob, t->len);
	KUNIT_EXPECT_EQ(test, sw_btf_member_offset(copy + 1, t->len, "s", "b",
						   &bits), 0);
	KUNIT_EXPECT_EQ(test, bits, 160U);
}

static void not_found_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits;

	KUNIT_EXPECT_EQ(test, lookup(t, "nope", "a", &bits), -ENOENT);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "nope", &bits), -ENOENT);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "", &bits), -ENOENT);
	/* an INT and a TYPEDEF are not structs */
	KUNIT_EXPECT_EQ(test, lookup(t, "int", "a", &bits), -ENOENT);
	KUNIT_EXPECT_EQ(test, lookup(t, "t", "a", &bits), -ENOENT);
}

static void bad_header_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits;

	t->blob[0] ^= 0xff;				/* magic */
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
	emit(t);
	t->blob[2] = 2;					/* version */
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
	emit(t);
	patch_hdr(t, offsetof(struct btf_header, hdr_len), 8);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
	patch_hdr(t, offsetof(struct btf_header, hdr_len), 4096);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
	KUNIT_EXPECT_EQ(test, sw_btf_member_offset(NULL, 0, "s", "a", &bits),
			-EINVAL);
}

/*
 * 7.x's header adds layout_off and layout_len (hdr_len 32, where the
 * kernel emits them): the first 24 bytes are read, sections follow hdr_len.
 */
static void longer_header_test(struct kunit *test)
{
	struct tb *t = build(test);
	const size_t v1 = 24;
	u32 bits = ~0U;

	memmove(t->blob + v1 + 8, t->blob + v1, t->len - v1);
	memset(t->blob + v1, 0, 8);
	t->len += 8;
	patch_hdr(t, offsetof(struct btf_header, hdr_len), v1 + 8);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "b", &bits), 0);
	KUNIT_EXPECT_EQ(test, bits, 160U);
	/* a header shorter than the first version's is refused */
	patch_hdr(t, offsetof(struct btf_header, hdr_len), v1 - 4);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "b", &bits), -EINVAL);
}

/* the string section past the blob's end, or not NUL-terminated */
static void bad_string_section_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits;

	patch_hdr(t, offsetof(struct btf_header, str_len), t->slen + 1);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
	patch_hdr(t, offsetof(struct btf_header, str_len), t->slen);
	patch_hdr(t, offsetof(struct btf_header, str_off), 0xfffffff0U);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
	emit(t);
	t->blob[t->len - 1] = 'x';
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
}

/* the type section cut in the middle of struct s's members */
static void truncated_type_section_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits;

	patch_hdr(t, offsetof(struct btf_header, type_len), t->tlen - 16);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
	patch_hdr(t, offsetof(struct btf_header, type_len), t->tlen - 2);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
}

/* every prefix of the blob is refused, none is read past */
static void every_truncation_test(struct kunit *test)
{
	struct tb *t = build(test);
	size_t len;
	u32 bits;

	for (len = 0; len < t->len; len++)
		KUNIT_EXPECT_EQ(test, sw_btf_member_offset(t->blob, len, "s", "b",
							   &bits), -EINVAL);
}

static void string_offset_out_of_bounds_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits;

	/* a member's name (b's name_off) */
	patch_type(t, t->s_rec + 12 + 3 * 12, t->slen);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
	/* a type's name: struct s's, found by no lookup but still checked */
	t = build(test);
	patch_type(t, t->s_rec, 0x7fffffff);
	KUNIT_EXPECT_EQ(test, lookup(t, "nope", "a", &bits), -EINVAL);
}

static void member_count_overflow_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits;

	patch_type(t, t->s_rec + 4, INFO(BTF_KIND_STRUCT, 1, 6));
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
	patch_type(t, t->s_rec + 4, INFO(BTF_KIND_STRUCT, 1, 0xffff));
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "a", &bits), -EINVAL);
}

static void unknown_kind_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits;

	patch_type(t, t->s_rec + 4, INFO(20, 0, 0));
	KUNIT_EXPECT_EQ(test, lookup(t, "nope", "a", &bits), -EINVAL);
	patch_type(t, t->s_rec + 4, INFO(BTF_KIND_UNKN, 0, 0));
	KUNIT_EXPECT_EQ(test, lookup(t, "nope", "a", &bits), -EINVAL);
}

/* the anonymous member's type: out of range, void, or a typedef loop */
static void bad_anonymous_type_test(struct kunit *test)
{
	struct tb *t = build(test);
	u32 bits;

	patch_type(t, t->anon_member + 4, 99);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "y", &bits), -EINVAL);
	/* named members are still found before the anonymous ones */
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "b", &bits), 0);
	patch_type(t, t->anon_member + 4, 0);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "y", &bits), -EINVAL);
	patch_type(t, t->anon_member + 4, 4);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "y", &bits), -EINVAL);
	/* an unnamed member of a non-struct type (padding bitfield): skipped */
	patch_type(t, t->anon_member + 4, 1);
	KUNIT_EXPECT_EQ(test, lookup(t, "s", "y", &bits), -ENOENT);
}

static struct kunit_case sw_btf_test_cases[] = {
	KUNIT_CASE(found_direct_test),
	KUNIT_CASE(found_in_anonymous_union_test),
	KUNIT_CASE(open_once_find_many_test),
	KUNIT_CASE(kflag_bitfield_test),
	KUNIT_CASE(unaligned_blob_test),
	KUNIT_CASE(not_found_test),
	KUNIT_CASE(bad_header_test),
	KUNIT_CASE(longer_header_test),
	KUNIT_CASE(bad_string_section_test),
	KUNIT_CASE(truncated_type_section_test),
	KUNIT_CASE(every_truncation_test),
	KUNIT_CASE(string_offset_out_of_bounds_test),
	KUNIT_CASE(member_count_overflow_test),
	KUNIT_CASE(unknown_kind_test),
	KUNIT_CASE(bad_anonymous_type_test),
	{}
};

static struct kunit_suite sw_btf_test_suite = {
	.name = "smartwake_btf",
	.test_cases = sw_btf_test_cases,
};

kunit_test_suites(&sw_btf_test_suite);
