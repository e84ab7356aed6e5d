// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake bpf: the kernel's BTF through libbpf. The module's BTF object
 * (split over vmlinux's) has struct smartwake_ops and its map value type;
 * "vmlinux" writes a vmlinux.h for policy authors; "btf-id" prints a
 * type's id and a member's place (debugging).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf.h"
#include "sysfs.h"

/* the module's BTF object: its fd (its id in *@idp), or a negative errno */
int mod_btf_fd(uint32_t *idp)
{
	struct bpf_btf_info info;
	char name[64];
	uint32_t id = 0, len;
	int fd, err;

	for (;;) {
		err = bpf_btf_get_next_id(id, &id);
		if (err)
			return errno == ENOENT ? -ENOENT : -errno;
		fd = bpf_btf_get_fd_by_id(id);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;
			return -errno;
		}
		memset(&info, 0, sizeof(info));
		info.name = (uintptr_t)name;
		info.name_len = sizeof(name);
		len = sizeof(info);
		if (bpf_btf_get_info_by_fd(fd, &info, &len)) {
			err = -errno;
			close(fd);
			/* ENOSPC: a name longer than the buffer, not the module's */
			if (err == -ENOSPC)
				continue;
			/* anything else: skipping it could skip the module's */
			return err;
		}
		if (info.kernel_btf && !strcmp(name, MOD_BTF_NAME)) {
			*idp = id;
			return fd;
		}
		close(fd);
	}
}

/*
 * Why the module has no usable type, in its own words: the first line of
 * its debugfs bpf file ("struct_ops smartwake_ops unavailable ..."), or
 * "" when that file cannot be read.
 */
static void module_says(char *out, size_t size)
{
	char path[PATH_MAX], *text;

	*out = '\0';
	path_of(path, sizeof(path), "bpf");
	text = read_file(path);
	if (!text)
		return;
	text[strcspn(text, "\n")] = '\0';
	snprintf(out, size, " (the module's bpf file says: %s)", text);
	free(text);
}

void kbtf_close(struct kbtf *k)
{
	btf__free(k->mod);
	btf__free(k->vml);
	if (k->fd >= 0)
		close(k->fd);
	memset(k, 0, sizeof(*k));
	k->fd = -1;
}

int kbtf_member(const struct kbtf *k, const char *name, uint32_t *idx, uint32_t *off)
{
	const struct btf_type *t = btf__type_by_id(k->mod, k->ops_id);
	const struct btf_member *m = btf_members(t);
	unsigned int i;

	for (i = 0; i < btf_vlen(t); i++) {
		if (strcmp(btf__name_by_offset(k->mod, m[i].name_off), name))
			continue;
		if (!btf_is_ptr(btf__type_by_id(k->mod, btf__resolve_type(k->mod, m[i].type))))
			return -1;
		*idx = i;
		*off = btf_member_bit_offset(t, i) / 8;
		return 0;
	}
	return -1;
}

/*
 * The module's BTF, its type and the map value's layout. 0, or an exit
 * code after a message naming the fix.
 */
int kbtf_open(struct kbtf *k)
{
	const struct btf_type *t;
	const struct btf_member *m;
	uint32_t id = 0;
	unsigned int i;
	char says[256];
	int ret;

	memset(k, 0, sizeof(*k));
	k->fd = -1;
	k->vml = btf__load_vmlinux_btf();
	if (!k->vml) {
		sw_err("cannot read the kernel's BTF (%s): %s (a kernel with CONFIG_DEBUG_INFO_BTF)",
		       VMLINUX_BTF, strerror(errno));
		return EXIT_RUNTIME;
	}
	k->fd = mod_btf_fd(&id);
	if (k->fd < 0) {
		ret = k->fd;
		k->fd = -1;
		module_says(says, sizeof(says));
		if (ret == -ENOENT)
			sw_err("the smartwake module has no BTF loaded (is it loaded? modprobe smartwake; a kernel >= 6.9 with CONFIG_DEBUG_INFO_BTF_MODULES)%s",
			       says);
		else
			step_fail("BPF_BTF_GET_NEXT_ID (the module's BTF)", ret);
		kbtf_close(k);
		return EXIT_RUNTIME;
	}
	k->mod = btf__load_from_kernel_by_id_split(id, k->vml);
	if (!k->mod) {
		ret = step_fail("reading the module's BTF", -errno);
		kbtf_close(k);
		return ret;
	}
	k->ops_id = btf__find_by_name_kind(k->mod, OPS_STRUCT, BTF_KIND_STRUCT);
	ret = btf__find_by_name_kind(k->mod, OPS_VALUE, BTF_KIND_STRUCT);
	if ((int)k->ops_id <= 0 || ret <= 0) {
		module_says(says, sizeof(says));
		sw_err("the module's BTF has no struct %s: this kernel cannot register a module's struct_ops (6.9 or later), or the module predates policy=bpf%s",
		       (int)k->ops_id <= 0 ? OPS_STRUCT : OPS_VALUE, says);
		kbtf_close(k);
		return EXIT_RUNTIME;
	}
	k->value_id = ret;
	t = btf__type_by_id(k->mod, k->value_id);
	k->value_size = t->size;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(k->mod, m[i].name_off), "data"))
			k->data_off = btf_member_bit_offset(t, i) / 8;
	return 0;
}

/* ---- vmlinux: a vmlinux.h for policy authors ---- */

static void dump_printf(void *ctx, const char *fmt, va_list args)
{
	vfprintf(ctx, fmt, args);
}

int do_vmlinux(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "btf", required_argument, NULL, 'b' },
		{ "module-btf", required_argument, NULL, 'm' },
		{ "no-module", no_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *base = VMLINUX_BTF, *mod = "/sys/kernel/btf/" MOD_BTF_NAME, *out = NULL;
	bool want_mod = true, mod_given = false;
	struct btf *b, *vb = NULL;
	struct btf_dump *d;
	FILE *f = stdout;
	unsigned int i, n;
	int c, ret = EXIT_RUNTIME;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			base = optarg;
			break;
		case 'm':
			mod = optarg;
			mod_given = true;
			break;
		case 'n':
			want_mod = false;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return bad_usage("bpf", "vmlinux: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("bpf", "vmlinux: unexpected argument '%s'", argv[optind]);
	vb = btf__parse(base, NULL);
	if (!vb) {
		sw_err("cannot read BTF from %s: %s", base, strerror(errno));
		return EXIT_RUNTIME;
	}
	b = vb;
	/* the module's types where its BTF is there (not when building) */
	if (want_mod && (mod_given || access(mod, R_OK) == 0)) {
		b = btf__parse_split(mod, vb);
		if (!b) {
			sw_err("cannot read the module's BTF from %s: %s", mod, strerror(errno));
			goto out_vb;
		}
	}
	if (out) {
		f = fopen(out, "w");
		if (!f) {
			sw_err("cannot write %s: %s", out, strerror(errno));
			goto out_b;
		}
	}
	d = btf_dump__new(b, dump_printf, f, NULL);
	if (!d) {
		sw_err("btf_dump__new: %s", strerror(errno));
		goto out_f;
	}
	fprintf(f, "/* vmlinux.h of %s%s%s, by smartwake bpf vmlinux */\n", base,
		b != vb ? " and " : "", b != vb ? mod : "");
	fprintf(f, "#ifndef __VMLINUX_H__\n#define __VMLINUX_H__\n\n");
	if (b != vb)
		fprintf(f, "#define SMARTWAKE_VMLINUX_HAS_OPS 1\n\n");
	fprintf(f, "#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n"
		"#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)\n"
		"#endif\n\n");
	n = btf__type_cnt(b);
	for (i = 1; i < n; i++) {
		if (btf_dump__dump_type(d, i)) {
			sw_err("dumping BTF type %u: %s", i, strerror(errno));
			btf_dump__free(d);
			goto out_f;
		}
	}
	fprintf(f, "\n#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n#pragma clang attribute pop\n#endif\n\n"
		"#endif /* __VMLINUX_H__ */\n");
	btf_dump__free(d);
	ret = EXIT_OK;
out_f:
	if (f != stdout && fclose(f) && ret == EXIT_OK) {
		sw_err("writing %s: %s", out, strerror(errno));
		ret = EXIT_RUNTIME;
	}
out_b:
	if (b != vb)
		btf__free(b);
out_vb:
	btf__free(vb);
	return ret;
}

/* ---- btf-id: a type's id and a member's place, in a BTF file ---- */

static const char *const kind_names[] = {
	"unknown", "int", "ptr", "array", "struct", "union", "enum", "fwd",
	"typedef", "volatile", "const", "restrict", "func", "func_proto",
	"var", "datasec", "float", "decl_tag", "type_tag", "enum64",
};

/* why @path is not BTF we can read: not BTF at all, or cut short */
static void btf_refusal(const char *path, int err)
{
	unsigned char m[4] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(m, 1, sizeof(m), f) : 0;

	if (!f) {
		sw_err("cannot read %s: %s", path, strerror(errno));
		return;
	}
	fclose(f);
	if (n >= 2 && ((m[0] == 0x9f && m[1] == 0xeb) || (m[0] == 0xeb && m[1] == 0x9f)))
		sw_err("%s: truncated or malformed BTF (%s)", path, strerror(err));
	else if (n == 4 && !memcmp(m, "\177ELF", 4))
		sw_err("%s: an ELF file without a readable .BTF section (%s)", path, strerror(err));
	else
		sw_err("%s: not BTF (no BTF magic 0xeb9f)", path);
}

/* @type is a pointer to a function */
static bool is_func_ptr(const struct btf *b, uint32_t type)
{
	const struct btf_type *t = btf__type_by_id(b, btf__resolve_type(b, type));

	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(b, btf__resolve_type(b, t->type));
	return t && btf_is_func_proto(t);
}

int do_btf_id(int argc, char **argv)
{
	const char *base_path = NULL, *what;
	struct btf *base = NULL, *b;
	const struct btf_type *t;
	int id = -ENOENT, ret = EXIT_RUNTIME;
	unsigned int k, i, first;

	if (argc > 2 && !strcmp(argv[1], "--base")) {
		base_path = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 3 || argc > 4)
		return bad_usage("bpf", "btf-id [--base VMLINUX] BTF-FILE TYPE [MEMBER]");
	if (base_path) {
		base = btf__parse(base_path, NULL);
		if (!base) {
			btf_refusal(base_path, errno);
			return EXIT_RUNTIME;
		}
	}
	b = base ? btf__parse_split(argv[1], base) : btf__parse(argv[1], NULL);
	if (!b) {
		btf_refusal(argv[1], errno);
		goto out_base;
	}
	first = base ? btf__type_cnt(base) : 1;
	printf("types %u..%u\n", first, btf__type_cnt(b) - 1);
	/* a struct first, then any kind; the split BTF's own types only */
	id = btf__find_by_name_kind(b, argv[2], BTF_KIND_STRUCT);
	for (k = 1; (id <= 0 || (unsigned int)id < first) && k < ARRAY_SIZE(kind_names); k++)
		id = btf__find_by_name_kind(b, argv[2], k);
	if ((unsigned int)id < first)
		id = -ENOENT;
	if (id <= 0) {
		sw_err("%s: no type named '%s'", argv[1], argv[2]);
		goto out_b;
	}
	t = btf__type_by_id(b, id);
	what = kind_names[btf_kind(t)];
	printf("%s %s id %d", what, argv[2], id);
	if (btf_is_composite(t))
		printf(" size %u members %u", t->size, btf_vlen(t));
	printf("\n");
	if (argc == 4) {
		const struct btf_member *m = btf_is_composite(t) ? btf_members(t) : NULL;

		for (i = 0; m && i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(b, m[i].name_off), argv[3]))
				break;
		if (!m || i == btf_vlen(t)) {
			sw_err("%s %s has no member '%s'", what, argv[2], argv[3]);
			goto out_b;
		}
		printf("member %s index %u offset %u%s\n", argv[3], i,
		       btf_member_bit_offset(t, i) / 8, is_func_ptr(b, m[i].type) ? " func_ptr" : "");
	}
	ret = EXIT_OK;
out_b:
	btf__free(b);
out_base:
	btf__free(base);
	return ret;
}
