// SPDX-License-Identifier: GPL-2.0
/*
 * btfgen: write the scheduler layouts smartwake reads, from a kernel's BTF,
 * for a build from the kernel headers alone (no kernel/sched/sched.h).
 *
 *   btfgen [-p STRUCT]... [-e PREFIX]... [-v VAR]... [-f FUNC]... BTF FIELDS.H
 *          > sched_btf_gen.h
 *   btfgen -l [-e PREFIX]... BTF FIELDS.H > listing
 *
 * What each option writes: Documentation/design.md, "Source files
 * (tools/)". libbpf parses the BTF (ELF or
 * raw) and prints the member declarations, so types come out as the
 * kernel spells them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#define MAX_FIELDS 256
#define MAX_STRUCTS 32
#define MAX_LIST 16
#define USAGE "usage: btfgen [-l] [-p STRUCT]... [-e PREFIX]... [-v VAR]... [-f FUNC]... " \
	"[-m S.M]... BTF FIELDS.H"

struct field {
	char s[64], m[64];
	int found;
	__u32 off;	/* bytes */
	__u32 type;	/* BTF id */
	__u32 size;
};

static struct field fields[MAX_FIELDS];
static int nfields;
static const char *publics[MAX_LIST], *prefixes[MAX_LIST], *vars[MAX_LIST];
static const char *extras[MAX_LIST], *funcs[MAX_LIST];
static int npublic, nprefix, nvar, nextra, nfunc;
static const char *structs[MAX_STRUCTS];
static int nstructs;
static struct btf *btf;
static struct btf_dump *dump;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("btfgen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void print_cb(void *ctx, const char *fmt, va_list args)
{
	(void)ctx;
	vprintf(fmt, args);
}

static int is_public(const char *s)
{
	for (int i = 0; i < npublic; i++)
		if (!strcmp(publics[i], s))
			return 1;
	return 0;
}

static void add_field(const char *s, const char *m)
{
	int i;

	if (nfields == MAX_FIELDS)
		die("more than %d fields", MAX_FIELDS);
	snprintf(fields[nfields].s, sizeof(fields[nfields].s), "%s", s);
	snprintf(fields[nfields].m, sizeof(fields[nfields].m), "%s", m);
	nfields++;
	for (i = 0; i < nstructs; i++)
		if (!strcmp(structs[i], s))
			break;
	if (i == nstructs) {
		if (nstructs == MAX_STRUCTS)
			die("more than %d structs", MAX_STRUCTS);
		structs[nstructs++] = fields[nfields - 1].s;
	}
}

static void read_fields(const char *path)
{
	char line[512], s[64], m[64];
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SW_SCHED_FIELD(%63[A-Za-z0-9_], %63[A-Za-z0-9_])",
			   s, m) == 2)
			add_field(s, m);
	fclose(f);
	if (!nfields)
		die("%s: no SW_SCHED_FIELD() lines", path);
}

static __s32 struct_id(const char *name)
{
	__s32 id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);

	if (id < 0)
		die("struct %s is not in the BTF", name);
	return id;
}

/*
 * Find member @name in struct/union @id, looking into anonymous struct and
 * union members (rq.curr is in one); @base: the offset of @id in bits.
 */
static int find_member(__u32 id, const char *name, __u32 base, struct field *f)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m = btf_members(t);

	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);
		__u32 bit = base + btf_member_bit_offset(t, i);
		const struct btf_type *mt;

		if (n && *n) {
			if (strcmp(n, name))
				continue;
			if (btf_member_bitfield_size(t, i) || bit % 8)
				die("%s.%s is a bitfield", f->s, name);
			f->off = bit / 8;
			f->type = m->type;
			f->size = btf__resolve_size(btf, m->type);
			return 1;
		}
		mt = btf__type_by_id(btf, btf__resolve_type(btf, m->type));
		if ((btf_is_struct(mt) || btf_is_union(mt)) &&
		    find_member(btf__resolve_type(btf, m->type), name, bit, f))
			return 1;
	}
	return 0;
}

/* The struct a member of type @id embeds by value (through typedefs,
 * modifiers and arrays), or NULL.
 */
static const char *embedded_struct(__u32 id)
{
	const struct btf_type *t;

	for (;;) {
		id = btf__resolve_type(btf, id);
		t = btf__type_by_id(btf, id);
		if (!btf_is_array(t))
			break;
		id = btf_array(t)->type;
	}
	return btf_is_struct(t) ? btf__name_by_offset(btf, t->name_off) : NULL;
}

static int cmp_off(const void *a, const void *b)
{
	const struct field *x = *(const struct field * const *)a;
	const struct field *y = *(const struct field * const *)b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static void emit_struct(const char *name)
{
	struct field *list[MAX_FIELDS];
	const struct btf_type *t = btf__type_by_id(btf, struct_id(name));
	__u32 at = 0;
	int n = 0;

	for (int i = 0; i < nfields; i++)
		if (!strcmp(fields[i].s, name) && fields[i].found)
			list[n++] = &fields[i];
	qsort(list, n, sizeof(list[0]), cmp_off);
	printf("\nstruct %s {\t/* %u bytes */\n", name, t->size);
	for (int i = 0; i < n; i++) {
		struct field *f = list[i];
		const struct btf_type *mt = btf__type_by_id(btf, f->type);
		struct btf_dump_emit_type_decl_opts o = {
			.sz = sizeof(o), .field_name = f->m, .indent_level = 1,
		};

		if (f->off < at)
			die("%s.%s at %u overlaps the member before it", name, f->m, f->off);
		if (f->off > at)
			printf("\tchar __pad_%u[%u];\n", at, f->off - at);
		putchar('\t');
		if (!f->size && btf_is_array(mt)) {
			/* a flexible array, spelt as the kernel does: m[] */
			btf_dump__emit_type_decl(dump, btf_array(mt)->type, &o);
			printf("[]");
		} else {
			btf_dump__emit_type_decl(dump, f->type, &o);
		}
		printf(";\t/* %u */\n", f->off);
		at = f->off + f->size;
	}
	if (t->size > at)
		printf("\tchar __pad_%u[%u];\n", at, t->size - at);
	printf("};\n");
}

/* Projections in an order where a struct embedded by value comes first. */
static void emit_projections(void)
{
	int done[MAX_STRUCTS] = { 0 }, left = 0, progress;

	for (int i = 0; i < nstructs; i++) {
		done[i] = is_public(structs[i]);
		left += !done[i];
	}
	while (left) {
		progress = 0;
		for (int i = 0; i < nstructs; i++) {
			int ready = 1;

			if (done[i])
				continue;
			for (int j = 0; j < nfields && ready; j++) {
				const char *e;

				if (strcmp(fields[j].s, structs[i]) || !fields[j].found)
					continue;
				e = embedded_struct(fields[j].type);
				for (int k = 0; e && k < nstructs; k++)
					if (!done[k] && k != i && !strcmp(structs[k], e))
						ready = 0;
			}
			if (!ready)
				continue;
			emit_struct(structs[i]);
			done[i] = 1;
			left--;
			progress = 1;
		}
		if (!progress)
			die("the projected structs embed each other");
	}
}

static const char size_fmt[] =
	"static_assert(sizeof(((struct %s *)0)->%s) == %u, \"%s.%s: size\");\n";

static void emit_asserts(void)
{
	printf("\n/* Every listed member's offset and size, every struct's size. */\n");
	for (int i = 0; i < nstructs; i++) {
		const struct btf_type *t = btf__type_by_id(btf, struct_id(structs[i]));

		printf("static_assert(sizeof(struct %s) == %u, \"struct %s: size\");\n",
		       structs[i], t->size, structs[i]);
	}
	for (int i = 0; i < nfields; i++) {
		struct field *f = &fields[i];

		if (!f->found)
			continue;
		printf("static_assert(offsetof(struct %s, %s) == %u, \"%s.%s: offset\");\n",
		       f->s, f->m, f->off, f->s, f->m);
		/* (not of a flexible array: sched_domain.span) */
		if (f->size)
			printf(size_fmt, f->s, f->m, f->size, f->s, f->m);
	}
}

static void emit_vars(void)
{
	for (int i = 0; i < nvar; i++) {
		if (btf__find_by_name_kind(btf, vars[i], BTF_KIND_VAR) > 0)
			printf("#define SW_BTF_VAR_%s 1\n", vars[i]);
		else
			printf("/* no variable %s in the BTF */\n", vars[i]);
	}
	for (int i = 0; i < nfunc; i++) {
		if (btf__find_by_name_kind(btf, funcs[i], BTF_KIND_FUNC) > 0)
			printf("#define SW_BTF_FUNC_%s 1\n", funcs[i]);
		else
			printf("/* no function %s in the BTF */\n", funcs[i]);
	}
}

static void list_layout(void)
{
	for (int i = 0; i < nstructs; i++)
		printf("struct %s size %u\n", structs[i],
		       btf__type_by_id(btf, struct_id(structs[i]))->size);
	for (int i = 0; i < nfields; i++) {
		struct field *f = &fields[i];

		if (!f->found)
			printf("%s.%s missing\n", f->s, f->m);
		else if (!f->size)
			printf("%s.%s offset %u size flex\n", f->s, f->m, f->off);
		else
			printf("%s.%s offset %u size %u\n", f->s, f->m, f->off, f->size);
	}
}

static void emit_enums(int list)
{
	__u32 n = btf__type_cnt(btf);

	for (int p = 0; p < nprefix; p++) {
		size_t len = strlen(prefixes[p]);
		int found = 0;

		for (__u32 id = 1; id < n && !found; id++) {
			const struct btf_type *t = btf__type_by_id(btf, id);
			const struct btf_enum *e;

			if (!btf_is_enum(t) || !btf_vlen(t))
				continue;
			e = btf_enum(t);
			if (strncmp(btf__name_by_offset(btf, e->name_off), prefixes[p], len))
				continue;
			found = 1;
			printf(list ? "" : "\nenum {\n");
			for (int i = 0; i < btf_vlen(t); i++, e++)
				printf(list ? "enum %s %d\n" : "\t%s = %d,\n",
				       btf__name_by_offset(btf, e->name_off), e->val);
			printf(list ? "" : "};\n");
		}
		if (!found)
			die("no enum of %s... in the BTF", prefixes[p]);
	}
}

int main(int argc, char **argv)
{
	int c, list = 0;

	while ((c = getopt(argc, argv, "lp:e:v:f:m:")) != -1) {
		if (c == 'l')
			list = 1;
		else if (c == 'p' && npublic < MAX_LIST)
			publics[npublic++] = optarg;
		else if (c == 'e' && nprefix < MAX_LIST)
			prefixes[nprefix++] = optarg;
		else if (c == 'v' && nvar < MAX_LIST)
			vars[nvar++] = optarg;
		else if (c == 'f' && nfunc < MAX_LIST)
			funcs[nfunc++] = optarg;
		else if (c == 'm' && nextra < MAX_LIST && strchr(optarg, '.'))
			extras[nextra++] = optarg;
		else
			die(USAGE);
	}
	if (argc - optind != 2)
		die(USAGE);
	read_fields(argv[optind + 1]);
	if (!list) {
		for (int i = 0; i < nextra; i++) {
			char s[64];
			size_t n = strchr(extras[i], '.') - extras[i];

			snprintf(s, sizeof(s), "%.*s", (int)n, extras[i]);
			add_field(s, extras[i] + n + 1);
		}
	}
	btf = btf__parse(argv[optind], NULL);
	if (!btf)
		die("%s: no BTF (%s)", argv[optind], strerror(errno));
	dump = btf_dump__new(btf, print_cb, NULL, NULL);
	if (!dump)
		die("btf_dump__new: %s", strerror(errno));

	for (int i = 0; i < nfields; i++) {
		struct field *f = &fields[i];

		f->found = find_member(struct_id(f->s), f->m, 0, f);
	}
	if (list) {
		list_layout();
		emit_enums(1);
		return 0;
	}
	printf("/* %s: GPL-2.0 */\n", "SPDX-License-Identifier");
	printf("/* Generated by tools/btfgen from the kernel's BTF: do not edit. */\n"
	       "#ifndef _SMARTWAKE_SCHED_BTF_GEN_H\n#define _SMARTWAKE_SCHED_BTF_GEN_H\n");
	for (int i = 0; i < nfields; i++)
		if (!fields[i].found)
			printf("/* %s.%s: not in this kernel's BTF */\n", fields[i].s, fields[i].m);
	emit_vars();
	emit_projections();
	emit_enums(0);
	emit_asserts();
	printf("\n#endif\n");
	btf_dump__free(dump);
	btf__free(btf);
	return 0;
}
