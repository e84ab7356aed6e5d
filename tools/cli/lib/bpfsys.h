/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: the raw bpf(2) system call (no libbpf) and a BTF
 * reader, for "smartwake bpf".
 *
 * The attribute and info layouts are local copies of the parts of the
 * 6.12 uapi (include/uapi/linux/bpf.h) the loader uses, one struct per
 * command: the kernel copies min(size, sizeof(union bpf_attr)) bytes and
 * zeroes the rest, so a prefix of the union is a valid argument. The
 * host's <linux/bpf.h> is not used (it may be older than the kernel the
 * loader runs on); the offsets the loader relies on are asserted in
 * bpfsys.c.
 *
 * BTF (include/uapi/linux/btf.h): a blob is parsed into an index of its
 * types; a split blob (a module's) has a base (vmlinux): its type ids
 * start at the base's type count (void included), its string offsets at
 * the base's string section length (kernel/bpf/btf.c, btf_parse_module()).
 */
#ifndef SMARTWAKE_BPFSYS_H
#define SMARTWAKE_BPFSYS_H

#include <stdint.h>

#include "cli.h"

/* enum bpf_cmd */
#define SW_BPF_MAP_CREATE		0
#define SW_BPF_MAP_LOOKUP_ELEM		1
#define SW_BPF_MAP_UPDATE_ELEM		2
#define SW_BPF_MAP_DELETE_ELEM		3
#define SW_BPF_PROG_LOAD		5
#define SW_BPF_PROG_GET_NEXT_ID		11
#define SW_BPF_MAP_GET_NEXT_ID		12
#define SW_BPF_PROG_GET_FD_BY_ID	13
#define SW_BPF_MAP_GET_FD_BY_ID		14
#define SW_BPF_OBJ_GET_INFO_BY_FD	15
#define SW_BPF_BTF_LOAD			18
#define SW_BPF_BTF_GET_FD_BY_ID		19
#define SW_BPF_BTF_GET_NEXT_ID		23

#define SW_BPF_MAP_TYPE_STRUCT_OPS	26
#define SW_BPF_PROG_TYPE_STRUCT_OPS	27
#define SW_BPF_F_VTYPE_BTF_OBJ_FD	(1U << 15)
#define SW_BPF_OBJ_NAME_LEN		16

/* struct bpf_insn */
struct sw_bpf_insn {
	uint8_t code;
	uint8_t dst_reg:4;
	uint8_t src_reg:4;
	int16_t off;
	int32_t imm;
};

/* opcodes (include/uapi/linux/bpf_common.h, bpf.h) */
#define SW_BPF_LDX	0x01
#define SW_BPF_JMP	0x05
#define SW_BPF_ALU64	0x07
#define SW_BPF_DW	0x18
#define SW_BPF_MEM	0x60
#define SW_BPF_K	0x00
#define SW_BPF_X	0x08
#define SW_BPF_ADD	0x00
#define SW_BPF_MOV	0xb0
#define SW_BPF_JLT	0xa0
#define SW_BPF_EXIT	0x90
#define SW_BPF_CALL	0x80
#define SW_BPF_JEQ	0x10
#define SW_BPF_JSLT	0xc0
#define SW_BPF_XOR	0xa0
/* a call's src_reg: a kfunc, imm its BTF id, off its fd_array slot */
#define SW_BPF_PSEUDO_CALL	1
#define SW_BPF_PSEUDO_KFUNC_CALL	2

/* initializers of struct sw_bpf_insn */
#define SW_INSN(c, d, s, o, i) \
	{ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }
/* dst = imm (sign-extended to 64 bits) */
#define SW_MOV64_IMM(d, i)	SW_INSN(SW_BPF_ALU64 | SW_BPF_MOV | SW_BPF_K, d, 0, 0, i)
/* dst += imm */
#define SW_ADD64_IMM(d, i)	SW_INSN(SW_BPF_ALU64 | SW_BPF_ADD | SW_BPF_K, d, 0, 0, i)
/* dst = *(u64 *)(src + off) */
#define SW_LDX_DW(d, s, o)	SW_INSN(SW_BPF_LDX | SW_BPF_MEM | SW_BPF_DW, d, s, o, 0)
/* if dst < imm (unsigned) goto pc + 1 + off */
#define SW_JLT_IMM(d, i, o)	SW_INSN(SW_BPF_JMP | SW_BPF_JLT | SW_BPF_K, d, 0, o, i)
#define SW_EXIT()		SW_INSN(SW_BPF_JMP | SW_BPF_EXIT, 0, 0, 0, 0)
#define SW_MOV64_REG(d, s)	SW_INSN(SW_BPF_ALU64 | SW_BPF_MOV | SW_BPF_X, d, s, 0, 0)
#define SW_JSLT_IMM(d, i, o)	SW_INSN(SW_BPF_JMP | SW_BPF_JSLT | SW_BPF_K, d, 0, o, i)
#define SW_XOR64_IMM(d, i)	SW_INSN(SW_BPF_ALU64 | SW_BPF_XOR | SW_BPF_K, d, 0, 0, i)
/* a kfunc call by the index of its name, resolved by the loader */
#define SW_CALL_KFUNC(i)	SW_INSN(SW_BPF_JMP | SW_BPF_CALL, 0, \
					SW_BPF_PSEUDO_KFUNC_CALL, 0, i)

/* union bpf_attr, BPF_MAP_CREATE */
struct sw_attr_map_create {
	uint32_t map_type;
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t map_flags;
	uint32_t inner_map_fd;
	uint32_t numa_node;
	char map_name[SW_BPF_OBJ_NAME_LEN];
	uint32_t map_ifindex;
	uint32_t btf_fd;
	uint32_t btf_key_type_id;
	uint32_t btf_value_type_id;
	uint32_t btf_vmlinux_value_type_id;
	uint64_t map_extra;
	int32_t value_type_btf_obj_fd;
	int32_t map_token_fd;
};

/* union bpf_attr, BPF_BTF_LOAD (the fields before btf_log_true_size) */
struct sw_attr_btf_load {
	uint64_t btf;
	uint64_t btf_log_buf;
	uint32_t btf_size;
	uint32_t btf_log_size;
	uint32_t btf_log_level;
};

/* union bpf_attr, BPF_MAP_*_ELEM */
struct sw_attr_elem {
	uint32_t map_fd;
	uint32_t pad;
	uint64_t key;
	uint64_t value;
	uint64_t flags;
};

/* union bpf_attr, BPF_PROG_LOAD (up to fd_array) */
struct sw_attr_prog_load {
	uint32_t prog_type;
	uint32_t insn_cnt;
	uint64_t insns;
	uint64_t license;
	uint32_t log_level;
	uint32_t log_size;
	uint64_t log_buf;
	uint32_t kern_version;
	uint32_t prog_flags;
	char prog_name[SW_BPF_OBJ_NAME_LEN];
	uint32_t prog_ifindex;
	uint32_t expected_attach_type;
	uint32_t prog_btf_fd;
	uint32_t func_info_rec_size;
	uint64_t func_info;
	uint32_t func_info_cnt;
	uint32_t line_info_rec_size;
	uint64_t line_info;
	uint32_t line_info_cnt;
	uint32_t attach_btf_id;
	uint32_t attach_btf_obj_fd;
	uint32_t core_relo_cnt;
	uint64_t fd_array;	/* kfunc calls: fd_array[insn.off], a BTF fd */
};

/* union bpf_attr, BPF_*_GET_NEXT_ID and BPF_*_GET_FD_BY_ID */
struct sw_attr_id {
	uint32_t id;		/* start_id, prog_id, map_id, btf_id */
	uint32_t next_id;
	uint32_t open_flags;
};

/* union bpf_attr, BPF_OBJ_GET_INFO_BY_FD */
struct sw_attr_info {
	uint32_t bpf_fd;
	uint32_t info_len;
	uint64_t info;
};

/* struct bpf_btf_info */
struct sw_btf_info {
	uint64_t btf;
	uint32_t btf_size;
	uint32_t id;
	uint64_t name;
	uint32_t name_len;
	uint32_t kernel_btf;
};

/* struct bpf_map_info */
struct sw_map_info {
	uint32_t type;
	uint32_t id;
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t map_flags;
	char name[SW_BPF_OBJ_NAME_LEN];
	uint32_t ifindex;
	uint32_t btf_vmlinux_value_type_id;
	uint64_t netns_dev;
	uint64_t netns_ino;
	uint32_t btf_id;
	uint32_t btf_key_type_id;
	uint32_t btf_value_type_id;
	uint32_t btf_vmlinux_id;
	uint64_t map_extra;
};

/* struct bpf_prog_info, up to its name (the kernel copies info_len bytes) */
struct sw_prog_info {
	uint32_t type;
	uint32_t id;
	uint8_t tag[8];
	uint32_t jited_prog_len;
	uint32_t xlated_prog_len;
	uint64_t jited_prog_insns;
	uint64_t xlated_prog_insns;
	uint64_t load_time;
	uint32_t created_by_uid;
	uint32_t nr_map_ids;
	uint64_t map_ids;
	char name[SW_BPF_OBJ_NAME_LEN];
};

/* bpf(2): the descriptor or 0, or -errno */
int sw_bpf(int cmd, void *attr, unsigned int size);
/* the next id after @id (BPF_*_GET_NEXT_ID), 0 at the end, or -errno */
long sw_bpf_next_id(int cmd, uint32_t id);
/* a descriptor of object @id (BPF_*_GET_FD_BY_ID), or -errno */
int sw_bpf_fd_by_id(int cmd, uint32_t id);
/* BPF_OBJ_GET_INFO_BY_FD into @info of @len bytes: 0 or -errno */
int sw_bpf_obj_info(int fd, void *info, uint32_t len);

/* ---- BTF ---- */

#define SW_BTF_MAGIC		0xeB9F
#define SW_BTF_KIND_INT		1
#define SW_BTF_KIND_PTR		2
#define SW_BTF_KIND_ARRAY	3
#define SW_BTF_KIND_STRUCT	4
#define SW_BTF_KIND_UNION	5
#define SW_BTF_KIND_ENUM	6
#define SW_BTF_KIND_FWD		7
#define SW_BTF_KIND_TYPEDEF	8
#define SW_BTF_KIND_VOLATILE	9
#define SW_BTF_KIND_CONST	10
#define SW_BTF_KIND_RESTRICT	11
#define SW_BTF_KIND_FUNC	12
#define SW_BTF_KIND_FUNC_PROTO	13
#define SW_BTF_KIND_VAR		14
#define SW_BTF_KIND_DATASEC	15
#define SW_BTF_KIND_FLOAT	16
#define SW_BTF_KIND_DECL_TAG	17
#define SW_BTF_KIND_TYPE_TAG	18
#define SW_BTF_KIND_ENUM64	19

/* struct btf_header */
struct sw_btf_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off;
	uint32_t type_len;
	uint32_t str_off;
	uint32_t str_len;
};

/* struct btf_type */
struct sw_btf_type {
	uint32_t name_off;
	uint32_t info;		/* vlen 0-15, kind 24-28, kind_flag 31 */
	uint32_t size_type;	/* size, or a type id */
};

/* struct btf_member */
struct sw_btf_member {
	uint32_t name_off;
	uint32_t type;
	uint32_t offset;	/* bit offset; with kind_flag: size << 24 */
};

static inline unsigned int sw_btf_kind(const struct sw_btf_type *t)
{
	return (t->info >> 24) & 0x1f;
}

static inline unsigned int sw_btf_vlen(const struct sw_btf_type *t)
{
	return t->info & 0xffff;
}

struct sw_btf {
	const struct sw_btf *base;	/* NULL, or vmlinux for a split blob */
	const char *data;		/* the blob (not owned) */
	size_t size;
	const char *strs;
	uint32_t str_len;
	uint32_t start_id;		/* the id of types[0] */
	uint32_t start_str_off;
	uint32_t nr_types;		/* in this blob (a base's: void too) */
	const struct sw_btf_type **types;
};

/* Parse @size bytes at @data (kept); 0, or -EINVAL with a message in @err. */
int sw_btf_parse(struct sw_btf *b, const void *data, size_t size,
		 const struct sw_btf *base, char *err, size_t errsz);
void sw_btf_free(struct sw_btf *b);
/* The type of id @id (NULL for void or out of range). */
const struct sw_btf_type *sw_btf_type(const struct sw_btf *b, uint32_t id);
/* The string at offset @off ("" if out of range). */
const char *sw_btf_str(const struct sw_btf *b, uint32_t off);
/* The id of the first type of kind @kind named @name in @b (not its base), or 0. */
uint32_t sw_btf_find(const struct sw_btf *b, unsigned int kind, const char *name);
/* Member @name of struct @id: its index and byte offset; 0 or -ENOENT. */
int sw_btf_member(const struct sw_btf *b, uint32_t id, const char *name,
		  unsigned int *idx, uint32_t *byte_off);
/* Whether member @idx of struct @id is a function pointer. */
bool sw_btf_member_is_func_ptr(const struct sw_btf *b, uint32_t id, unsigned int idx);

#endif /* SMARTWAKE_BPFSYS_H */
