// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake bpf: attach a BPF program to the module's struct_ops
 * (struct smartwake_ops, registered by the module on kernels >= 6.9),
 * detach it, show what is attached. A static loader over the raw bpf(2)
 * system call (lib/bpfsys.h), no libbpf:
 *
 *   1. the module's BTF object ("smartwake", split BTF over vmlinux's):
 *      BPF_BTF_GET_NEXT_ID, BPF_BTF_GET_FD_BY_ID, BPF_OBJ_GET_INFO_BY_FD;
 *      the ids of struct smartwake_ops and of the map value type
 *      bpf_struct_ops_smartwake_ops, the callback's member index and
 *      offset, from it (the type ids start after vmlinux's, whose count
 *      comes from /sys/kernel/btf/vmlinux);
 *   2. BPF_PROG_LOAD: BPF_PROG_TYPE_STRUCT_OPS, expected_attach_type = the
 *      member index, attach_btf_id = smartwake_ops, attach_btf_obj_fd =
 *      the module's BTF (kernel/bpf/verifier.c, check_struct_ops_btf_id());
 *   3. BPF_MAP_CREATE: a struct_ops map of the value type, its BTF given
 *      by the module's BTF fd (BPF_F_VTYPE_BTF_OBJ_FD);
 *   4. BPF_MAP_UPDATE_ELEM key 0, the program's fd in the callback's
 *      slot: the kernel registers the ops and takes a reference on the
 *      map (kernel/bpf/bpf_struct_ops.c, bpf_struct_ops_map_update_elem():
 *      bpf_map_inc() after ->reg()), which outlives this process, until
 *      BPF_MAP_DELETE_ELEM ("unload").
 *
 * The programs are built in (hand-assembled) or taken from a section of
 * an ELF object without relocations.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpfsys.h"
#include "cmd.h"
#include "sysfs.h"

#define OPS_STRUCT	"smartwake_ops"
#define OPS_VALUE	"bpf_struct_ops_smartwake_ops"
#define OPS_MAP_NAME	"smartwake_ops"
#define MOD_BTF_NAME	"smartwake"
#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"
#define DEF_CALLBACK	"select_cpu"
#define LOG_SIZE	(8U << 20)
#define LOG_TAIL	60		/* lines of a failed load's log shown */
#define SW_ENOTSUPP	524		/* the kernel's ENOTSUPP */
#define STATE_INUSE	1		/* enum bpf_struct_ops_state */
#define MAX_KFUNCS	16		/* the kfuncs one program calls */

#if __BYTE_ORDER == __LITTLE_ENDIAN
#define ELF_DATA_HOST	ELFDATA2LSB
#else
#define ELF_DATA_HOST	ELFDATA2MSB
#endif
#ifndef EM_BPF
#define EM_BPF		247
#endif

static const char help[] =
	"usage: smartwake bpf load [--callback NAME] [--verbose] [--dry-run] PROGRAM\n"
	"       smartwake bpf load --struct-ops TYPE --callback NAME PROGRAM\n"
	"       smartwake bpf load [--callback NAME] [--verbose] [--dry-run]\n"
	"                          --obj FILE.o --section NAME [--section NAME]...\n"
	"       smartwake bpf unload\n"
	"       smartwake bpf status\n"
	"       smartwake bpf list\n"
	"       smartwake bpf btf-id [--base VMLINUX] BTF-FILE TYPE [MEMBER]\n"
	"\n"
	"Attach a BPF program to the module's struct_ops (struct smartwake_ops,\n"
	"kernels >= 6.9 with the module loaded), detach it, or show it. The\n"
	"program implements one callback, select_cpu by default:\n"
	"  s32 select_cpu(struct task_struct *p, s32 prev_cpu, u64 wake_flags)\n"
	"  s32 wake_wide(struct task_struct *p, u32 waker_flips, u32 wakee_flips,\n"
	"                u32 factor)\n"
	"  s32 wake_affine(struct task_struct *p, s32 prev_cpu, s32 this_cpu, u32 sync)\n"
	"  s32 select_idle(struct task_struct *p, s32 prev_cpu, s32 target)\n"
	"(its context is the array of the u64 arguments). An attached policy stays\n"
	"after this command exits, until \"smartwake bpf unload\"; one at a time.\n"
	"While one is attached the module cannot be removed (its map holds it).\n"
	"\n"
	"  load PROGRAM       load a built-in program (\"smartwake bpf list\") and\n"
	"                     attach it; the last line is \"attached map_id=N prog=NAME\"\n"
	"  load --obj FILE.o --section NAME\n"
	"                     the program is the section NAME of an ELF object\n"
	"                     (clang -target bpf -c); its only relocations are\n"
	"                     calls of the module's kfuncs (extern ... __ksym):\n"
	"                     no maps, no global data, no calls to other functions.\n"
	"                     Repeated: one program per section, in one map, each\n"
	"                     implementing the callback its section names after\n"
	"                     the last '/' (struct_ops/wake_wide: wake_wide)\n"
	"  --callback NAME    the smartwake_ops member the program implements\n"
	"                     (a built-in or one section; default select_cpu, or\n"
	"                     the section's name)\n"
	"  --verbose          on a verifier refusal, its whole log (default: the\n"
	"                     last 60 lines)\n"
	"  --dry-run          print the program's name and instructions (hex) and\n"
	"                     stop: no bpf(2) call\n"
	"  --struct-ops TYPE  testing: load the program for member --callback of\n"
	"                     vmlinux's struct_ops TYPE (tcp_congestion_ops), never\n"
	"                     attached; the module's kfuncs are refused there\n"
	"  unload             detach the attached policy (exit 1 if none)\n"
	"  status             the attached policy: its map id, program ids and\n"
	"                     names, and \"set aside by revert_on=violation ...\" when\n"
	"                     an invalid answer made the module stop calling it\n"
	"                     (\"module state unknown: ...\" when the module's\n"
	"                     debugfs bpf file cannot be read);\n"
	"                     the last line is \"attached map_id=N prog=NAME\" or\n"
	"                     \"detached\"\n"
	"  list               the built-in programs\n"
	"  btf-id             debugging: the id, kind and size of TYPE in a BTF file\n"
	"                     (e.g. /sys/kernel/btf/vmlinux; a module's BTF with\n"
	"                     --base /sys/kernel/btf/vmlinux), the index and byte\n"
	"                     offset of its MEMBER; loads nothing\n"
	"\n"
	"load, unload and status need root (CAP_BPF and CAP_PERFMON to load,\n"
	"CAP_SYS_ADMIN to find the module's BTF and the attached map).\n";

/* ---- the built-in programs ---- */

/* return prev_cpu: ctx is the u64 array of the arguments */
static const struct sw_bpf_insn prog_prev[] = {
	SW_LDX_DW(0, 1, 8),
	SW_EXIT(),
};

/* the third argument: wake_affine's this_cpu (a pull), select_idle's target */
static const struct sw_bpf_insn prog_third[] = {
	SW_LDX_DW(0, 1, 16),
	SW_EXIT(),
};

/* return -1: the module's own path decides */
static const struct sw_bpf_insn prog_decline[] = {
	SW_MOV64_IMM(0, -1),
	SW_EXIT(),
};

/* an invalid CPU: the module must refuse it */
static const struct sw_bpf_insn prog_bad[] = {
	SW_MOV64_IMM(0, 1048576),
	SW_EXIT(),
};

/* the module's own answer (kfunc smartwake_default_cpu()) */
static const char *const kf_default[] = { "smartwake_default_cpu" };
static const struct sw_bpf_insn prog_default[] = {
	SW_CALL_KFUNC(0),
	SW_EXIT(),
};

/* ask for the module's answer, then decline: it must not run twice */
static const char *const kf_peek[] = { "smartwake_default_cpu" };
static const struct sw_bpf_insn prog_peek[] = {
	SW_CALL_KFUNC(0),
	SW_MOV64_IMM(0, -1),
	SW_EXIT(),
};

/* the module's answer with its lowest bit flipped: another CPU */
static const char *const kf_other[] = { "smartwake_default_cpu" };
static const struct sw_bpf_insn prog_other[] = {
	SW_CALL_KFUNC(0),
	SW_JSLT_IMM(0, 0, 1),		/* no answer: leave it */
	SW_XOR64_IMM(0, 1),
	SW_EXIT(),
};

/* the next SMT sibling of prev_cpu (prev itself without SMT) */
static const char *const kf_sibling[] = { "smartwake_cpu_smt_next" };
static const struct sw_bpf_insn prog_sibling[] = {
	SW_LDX_DW(1, 1, 8),
	SW_CALL_KFUNC(0),
	SW_EXIT(),
};

/*
 * prev_cpu when the answer is used, -1 under policy=shadow (kfunc
 * smartwake_shadowing()): tells the two apart in bpf_declined. The kfunc
 * call clobbers r1-r5, so ctx is kept in r6; the kfunc returns a bool,
 * whose low byte alone is defined.
 */
static const char *const kf_shadowed[] = { "smartwake_shadowing" };
static const struct sw_bpf_insn prog_shadowed[] = {
	SW_MOV64_REG(6, 1),
	SW_CALL_KFUNC(0),
	SW_INSN(SW_BPF_ALU64 | 0x50 /* BPF_AND */ | SW_BPF_K, 0, 0, 0, 0xff),
	SW_INSN(SW_BPF_JMP | SW_BPF_JEQ | SW_BPF_K, 0, 0, 2, 0), /* r0 == 0: +2 */
	SW_MOV64_IMM(0, -1),
	SW_EXIT(),
	SW_LDX_DW(0, 6, 8),
	SW_EXIT(),
};

/* 20000 rounds of a bounded loop, then -1 */
static const struct sw_bpf_insn prog_slow[] = {
	SW_MOV64_IMM(0, 0),
	SW_ADD64_IMM(0, 1),		/* 1: */
	SW_JLT_IMM(0, 20000, -2),	/* if r0 < 20000 goto 1 */
	SW_MOV64_IMM(0, -1),
	SW_EXIT(),
};

struct builtin {
	const char *name;
	const char *desc;
	const struct sw_bpf_insn *insns;
	unsigned int cnt;
	const char *const *kfuncs;	/* SW_CALL_KFUNC(i): kfuncs[i] */
	unsigned int nkfuncs;
};

#define BUILTIN(n, d) { #n, d, prog_##n, ARRAY_SIZE(prog_##n), NULL, 0 }
#define BUILTIN_KF(n, d) \
	{ #n, d, prog_##n, ARRAY_SIZE(prog_##n), kf_##n, ARRAY_SIZE(kf_##n) }

static const struct builtin builtins[] = {
	BUILTIN(prev, "return prev_cpu: wake on the previous CPU"),
	BUILTIN(decline, "return -1: the module's own path decides"),
	BUILTIN(third, "return the third argument (wake_affine: this_cpu; select_idle: target)"),
	BUILTIN(bad, "return 1048576, an invalid CPU: the module must refuse it"),
	BUILTIN(slow, "a bounded loop of 20000 rounds, then -1 (its cost per call)"),
	BUILTIN_KF(default, "return smartwake_default_cpu(): the module's own answer"),
	BUILTIN_KF(other, "smartwake_default_cpu() ^ 1: never the module's CPU (a control)"),
	BUILTIN_KF(peek, "smartwake_default_cpu(), then -1: the module's answer, computed once"),
	BUILTIN_KF(sibling, "return smartwake_cpu_smt_next(prev_cpu): prev's SMT sibling"),
	BUILTIN_KF(shadowed, "smartwake_shadowing() ? -1 : prev_cpu: declines under policy=shadow"),
};

static const struct builtin *find_builtin(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

/* ---- errors ---- */

static const char *err_text(int e)
{
	return e == SW_ENOTSUPP ? "operation not supported (ENOTSUPP)" : strerror(e);
}

/* A failed bpf(2) step (@err < 0): its message, EXIT_RUNTIME. */
static int step_fail(const char *step, int err)
{
	if (err == -EPERM)
		sw_err("%s: %s: needs root (CAP_BPF, CAP_PERFMON; CAP_SYS_ADMIN to find objects by id)",
		       step, err_text(-err));
	else
		sw_err("%s: %s", step, err_text(-err));
	return EXIT_RUNTIME;
}

/* ---- the kernel's BTF ---- */

struct kbtf {
	int fd;				/* the module's BTF object */
	char *vml_data, *mod_data;
	struct sw_btf vml, mod;
	uint32_t ops_id, value_id;	/* smartwake_ops, its map value type */
	uint32_t value_size, data_off;	/* the value's size, its data member */
};

static void kbtf_close(struct kbtf *k)
{
	sw_btf_free(&k->mod);
	sw_btf_free(&k->vml);
	free(k->mod_data);
	free(k->vml_data);
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

/*
 * The kernel BTF object named @name: its fd, and its raw data if @data.
 * 0, -ENOENT if there is none, or a failed step's EXIT_RUNTIME (> 0).
 */
static int kernel_btf(const char *name, int *fdp, char **data, uint32_t *size)
{
	struct sw_btf_info info;
	char oname[64];
	uint32_t id = 0;
	long next;
	int fd, ret;

	for (;;) {
		next = sw_bpf_next_id(SW_BPF_BTF_GET_NEXT_ID, id);
		if (next < 0)
			return step_fail("BPF_BTF_GET_NEXT_ID", next);
		if (!next)
			return -ENOENT;
		id = next;
		fd = sw_bpf_fd_by_id(SW_BPF_BTF_GET_FD_BY_ID, id);
		if (fd == -ENOENT)
			continue;	/* gone meanwhile */
		if (fd < 0)
			return step_fail("BPF_BTF_GET_FD_BY_ID", fd);
		memset(&info, 0, sizeof(info));
		memset(oname, 0, sizeof(oname));
		info.name = (uintptr_t)oname;
		info.name_len = sizeof(oname);
		ret = sw_bpf_obj_info(fd, &info, sizeof(info));
		if (ret && ret != -ENOSPC) {
			close(fd);
			return step_fail("BPF_OBJ_GET_INFO_BY_FD (BTF)", ret);
		}
		if (!ret && info.kernel_btf && !strcmp(oname, name))
			break;
		close(fd);
	}
	if (data) {
		*size = info.btf_size;
		*data = sw_xmalloc(*size ? *size : 1);
		memset(&info, 0, sizeof(info));
		info.btf = (uintptr_t)*data;
		info.btf_size = *size;
		ret = sw_bpf_obj_info(fd, &info, sizeof(info));
		if (ret) {
			free(*data);
			*data = NULL;
			close(fd);
			return step_fail("BPF_OBJ_GET_INFO_BY_FD (BTF data)", ret);
		}
	}
	*fdp = fd;
	return 0;
}

/* vmlinux's BTF: /sys/kernel/btf/vmlinux, or the kernel's BTF object */
static int vmlinux_btf(struct kbtf *k)
{
	char err[160];
	size_t len;
	uint32_t size;
	int fd, ret;

	k->vml_data = read_file_size(VMLINUX_BTF, &len);
	if (!k->vml_data) {
		ret = kernel_btf("vmlinux", &fd, &k->vml_data, &size);
		if (ret == -ENOENT) {
			sw_err("no vmlinux BTF (%s, or a kernel BTF object): a kernel without CONFIG_DEBUG_INFO_BTF?",
			       VMLINUX_BTF);
			return EXIT_RUNTIME;
		}
		if (ret)
			return ret;
		close(fd);
		len = size;
	}
	if (sw_btf_parse(&k->vml, k->vml_data, len, NULL, err, sizeof(err))) {
		sw_err("vmlinux BTF: %s", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

/* The module's BTF and the types of its struct_ops; 0 or an exit code. */
static int kbtf_open(struct kbtf *k)
{
	const struct sw_btf_type *t;
	unsigned int idx;
	char err[160];
	uint32_t size;
	int ret;

	memset(k, 0, sizeof(*k));
	k->fd = -1;
	ret = kernel_btf(MOD_BTF_NAME, &k->fd, &k->mod_data, &size);
	if (ret == -ENOENT) {
		sw_err("no BTF object named \"%s\": %s", MOD_BTF_NAME,
		       "the smartwake module is not loaded, or its kernel has no struct_ops for modules (6.9+)");
		return EXIT_RUNTIME;
	}
	if (ret)
		return ret;
	ret = vmlinux_btf(k);
	if (ret)
		goto fail;
	if (sw_btf_parse(&k->mod, k->mod_data, size, &k->vml, err, sizeof(err))) {
		sw_err("the module's BTF: %s", err);
		ret = EXIT_RUNTIME;
		goto fail;
	}
	k->ops_id = sw_btf_find(&k->mod, SW_BTF_KIND_STRUCT, OPS_STRUCT);
	k->value_id = sw_btf_find(&k->mod, SW_BTF_KIND_STRUCT, OPS_VALUE);
	if (!k->ops_id || !k->value_id) {
		sw_err("the module's BTF has no struct %s: a module built without struct_ops (a kernel before 6.9?)",
		       k->ops_id ? OPS_VALUE : OPS_STRUCT);
		ret = EXIT_RUNTIME;
		goto fail;
	}
	t = sw_btf_type(&k->mod, k->value_id);
	k->value_size = t->size_type;
	if (sw_btf_member(&k->mod, k->value_id, "data", &idx, &k->data_off)) {
		sw_err("struct " OPS_VALUE " has no member \"data\"");
		ret = EXIT_RUNTIME;
		goto fail;
	}
	return 0;
fail:
	kbtf_close(k);
	return ret;
}

/* ---- programs from an ELF object ---- */

static bool elf_in(size_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

/*
 * The calls of section @sh's instructions @insns (@cnt) to extern
 * functions (clang: "call -1", an R_BPF_64_32 relocation against an
 * undefined symbol) become kfunc calls by the index of their name in
 * @kf (duplicated strings), resolved at load. Any other relocation (maps,
 * global data, calls to other functions) is refused. 0 or EXIT_RUNTIME.
 */
static int elf_kfunc_calls(const char *file, const char *sec, const char *buf,
			   size_t size, const Elf64_Ehdr *eh, unsigned int found,
			   struct sw_bpf_insn *insns, unsigned int cnt,
			   const char **kf, unsigned int *nkf)
{
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
	unsigned int i, j, r;

	for (i = 1; i < eh->e_shnum; i++) {
		const Elf64_Shdr *rs = &sh[i], *sy, *st;
		const Elf64_Rel *rel;

		if ((rs->sh_type != SHT_REL && rs->sh_type != SHT_RELA) ||
		    rs->sh_info != found || !rs->sh_size)
			continue;
		if (rs->sh_type == SHT_RELA || rs->sh_entsize != sizeof(*rel) ||
		    rs->sh_link >= eh->e_shnum || !elf_in(size, rs->sh_offset, rs->sh_size))
			goto refuse;
		sy = &sh[rs->sh_link];
		if (sy->sh_entsize != sizeof(Elf64_Sym) || sy->sh_link >= eh->e_shnum ||
		    !elf_in(size, sy->sh_offset, sy->sh_size))
			goto refuse;
		st = &sh[sy->sh_link];
		if (!elf_in(size, st->sh_offset, st->sh_size) || !st->sh_size ||
		    buf[st->sh_offset + st->sh_size - 1])
			goto refuse;
		rel = (const Elf64_Rel *)(buf + rs->sh_offset);
		for (r = 0; r < rs->sh_size / sizeof(*rel); r++) {
			uint64_t n = ELF64_R_SYM(rel[r].r_info), at = rel[r].r_offset / sizeof(*insns);
			const Elf64_Sym *sym = (const Elf64_Sym *)(buf + sy->sh_offset) + n;
			const char *name;

			if (ELF64_R_TYPE(rel[r].r_info) != 10 /* R_BPF_64_32 */ ||
			    rel[r].r_offset % sizeof(*insns) || at >= cnt ||
			    (n + 1) * sizeof(*sym) > sy->sh_size ||
			    sym->st_shndx != SHN_UNDEF || sym->st_name >= st->sh_size ||
			    insns[at].code != (SW_BPF_JMP | SW_BPF_CALL) ||
			    insns[at].src_reg != SW_BPF_PSEUDO_CALL)
				goto refuse;
			name = buf + st->sh_offset + sym->st_name;
			for (j = 0; j < *nkf && strcmp(kf[j], name); j++)
				;
			if (j == *nkf) {
				if (j == MAX_KFUNCS) {
					sw_err("%s: section \"%s\" calls over %d kfuncs",
					       file, sec, MAX_KFUNCS);
					return EXIT_RUNTIME;
				}
				kf[(*nkf)++] = sw_xstrdup(name);
			}
			insns[at].src_reg = SW_BPF_PSEUDO_KFUNC_CALL;
			insns[at].imm = j;
		}
	}
	return 0;
refuse:
	sw_err("%s: section \"%s\" has relocations other than kfunc calls (%s): this loader does none (no maps, global data or calls to other functions)",
	       file, sec, "relocations against undefined functions, R_BPF_64_32, only");
	return EXIT_RUNTIME;
}

/*
 * The instructions of section @sec of the ELF relocatable @file, into
 * *@insns (allocated), *@cnt, its kfunc calls' names into @kf, *@nkf
 * (elf_kfunc_calls()). 0 or EXIT_RUNTIME.
 */
static int elf_section(const char *file, const char *sec,
		       struct sw_bpf_insn **insns, unsigned int *cnt,
		       const char **kf, unsigned int *nkf)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const char *shstr;
	char *buf;
	size_t size;
	unsigned int i, found = 0;
	int ret = EXIT_RUNTIME;

	buf = read_file_size(file, &size);
	if (!buf) {
		sw_err("cannot read %s: %s", file, strerror(errno));
		return EXIT_RUNTIME;
	}
	eh = (const Elf64_Ehdr *)buf;
	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG)) {
		sw_err("%s: not an ELF file", file);
		goto out;
	}
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELF_DATA_HOST ||
	    eh->e_type != ET_REL || eh->e_machine != EM_BPF) {
		sw_err("%s: not a 64-bit BPF relocatable object of this byte order (clang -target bpf -c)",
		       file);
		goto out;
	}
	if (eh->e_shentsize != sizeof(*sh) ||
	    !elf_in(size, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(*sh)) ||
	    eh->e_shstrndx >= eh->e_shnum) {
		sw_err("%s: bad section header table", file);
		goto out;
	}
	sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
	if (!elf_in(size, sh[eh->e_shstrndx].sh_offset, sh[eh->e_shstrndx].sh_size) ||
	    !sh[eh->e_shstrndx].sh_size ||
	    buf[sh[eh->e_shstrndx].sh_offset + sh[eh->e_shstrndx].sh_size - 1]) {
		sw_err("%s: bad section name table", file);
		goto out;
	}
	shstr = buf + sh[eh->e_shstrndx].sh_offset;
	for (i = 1; i < eh->e_shnum; i++) {
		if (sh[i].sh_name < sh[eh->e_shstrndx].sh_size &&
		    !strcmp(shstr + sh[i].sh_name, sec)) {
			found = i;
			break;
		}
	}
	if (!found) {
		sw_err("%s: no section \"%s\"; its code sections:", file, sec);
		for (i = 1; i < eh->e_shnum; i++)
			if ((sh[i].sh_flags & SHF_EXECINSTR) && sh[i].sh_size &&
			    sh[i].sh_name < sh[eh->e_shstrndx].sh_size)
				fprintf(stderr, "  %s\n", shstr + sh[i].sh_name);
		goto out;
	}
	sh += found;
	if (sh->sh_type != SHT_PROGBITS || !sh->sh_size ||
	    sh->sh_size % sizeof(**insns) || sh->sh_size / sizeof(**insns) > 1000000 ||
	    !elf_in(size, sh->sh_offset, sh->sh_size)) {
		sw_err("%s: section \"%s\" holds no BPF instructions (type %u, %llu bytes)",
		       file, sec, sh->sh_type, (unsigned long long)sh->sh_size);
		goto out;
	}
	*cnt = sh->sh_size / sizeof(**insns);
	*insns = sw_xmalloc(sh->sh_size);
	memcpy(*insns, buf + sh->sh_offset, sh->sh_size);
	ret = elf_kfunc_calls(file, sec, buf, size, eh, found, *insns, *cnt, kf, nkf);
out:
	free(buf);
	return ret;
}

/* a program name from @s: [A-Za-z0-9_.], at most 15 characters */
static void prog_name_of(char *out, const char *s)
{
	const char *slash = strrchr(s, '/');
	size_t n = 0;

	if (slash && slash[1])
		s = slash + 1;
	for (; *s && n < SW_BPF_OBJ_NAME_LEN - 1; s++)
		out[n++] = isalnum((unsigned char)*s) || *s == '.' ? *s : '_';
	out[n] = '\0';
}

/* ---- load ---- */

/* Print @log, whole or its last LOG_TAIL lines. */
static void print_log(const char *log, bool whole)
{
	const char *p = log + strlen(log);
	int lines = 0;

	if (!*log) {
		fprintf(stderr, "(the verifier left no log)\n");
		return;
	}
	while (!whole && p > log) {
		p--;
		if (*p == '\n' && p[1] && ++lines > LOG_TAIL) {
			p++;
			fprintf(stderr, "(the verifier log's last %d lines; --verbose for all)\n",
				LOG_TAIL);
			break;
		}
	}
	if (whole)
		p = log;
	fprintf(stderr, "%s%s", p, p[strlen(p) - 1] == '\n' ? "" : "\n");
}

/*
 * The map's own BTF: map_create() wants a user BTF object (btf_fd) for
 * every map with a kernel value type, as libbpf passes the object file's.
 * The value's layout comes from the module's BTF; this one is a single int.
 */
static int user_btf_load(void)
{
	static const struct {
		struct sw_btf_header h;
		uint32_t type[4];	/* [1] INT "int", 4 bytes, signed, 32 bits */
		char str[5];
	} __attribute__((packed)) blob = {
		.h = {
			.magic = 0xeb9f, .version = 1,
			.hdr_len = sizeof(struct sw_btf_header),
			.type_off = 0, .type_len = sizeof(blob.type),
			.str_off = sizeof(blob.type), .str_len = sizeof(blob.str),
		},
		.type = { 1, 1U << 24, 4, (1U << 24) | 32 },
		.str = "\0int",
	};
	struct sw_attr_btf_load a;

	memset(&a, 0, sizeof(a));
	a.btf = (uintptr_t)&blob;
	a.btf_size = sizeof(blob);
	return sw_bpf(SW_BPF_BTF_LOAD, &a, sizeof(a));
}

/*
 * BPF_PROG_LOAD of a struct_ops program for member @idx of type @type_id
 * of the BTF object @type_fd (the module's; 0: vmlinux's); its kfunc
 * calls name the module's BTF, fd_array slot 1. The fd, or -errno.
 */
static int prog_load(const struct kbtf *k, uint32_t type_id, int type_fd,
		     unsigned int idx, const char *name,
		     const struct sw_bpf_insn *insns, unsigned int cnt, bool verbose)
{
	static const char license[] = "GPL";
	/* a kfunc call's off 1: the module's BTF (0 would be vmlinux's) */
	int fd_array[2] = { -1, k->fd };
	struct sw_attr_prog_load a;
	char *log;
	int fd, ret;

	memset(&a, 0, sizeof(a));
	a.prog_type = SW_BPF_PROG_TYPE_STRUCT_OPS;
	a.insn_cnt = cnt;
	a.insns = (uintptr_t)insns;
	a.license = (uintptr_t)license;
	a.expected_attach_type = idx;
	a.attach_btf_id = type_id;
	a.attach_btf_obj_fd = type_fd;
	a.fd_array = (uintptr_t)fd_array;
	snprintf(a.prog_name, sizeof(a.prog_name), "%s", name);
	fd = sw_bpf(SW_BPF_PROG_LOAD, &a, sizeof(a));
	if (fd >= 0 || fd == -EPERM)
		return fd;

	/* again with the verifier's log (a rotating log keeps its end) */
	log = sw_xcalloc(1, LOG_SIZE);
	a.log_level = 1;
	a.log_size = LOG_SIZE;
	a.log_buf = (uintptr_t)log;
	ret = sw_bpf(SW_BPF_PROG_LOAD, &a, sizeof(a));
	if (ret >= 0) {
		/* accepted this time (the refusal was not the verifier's) */
		free(log);
		return ret;
	}
	/* the first refusal's error (the second may add ENOSPC: a full log) */
	sw_err("BPF_PROG_LOAD of %s (%u instructions): %s; the verifier's log:",
	       name, cnt, err_text(-fd));
	log[LOG_SIZE - 1] = '\0';
	print_log(log, verbose);
	free(log);
	return fd;
}

/* --dry-run: "NAME: N instructions", then one line of 8 hex bytes each */
static void print_insns(const char *name, const struct sw_bpf_insn *insns, unsigned int cnt)
{
	unsigned int i, j;

	printf("%s: %u instructions\n", name, cnt);
	for (i = 0; i < cnt; i++) {
		const unsigned char *b = (const unsigned char *)&insns[i];

		printf("%4u:", i);
		for (j = 0; j < sizeof(insns[i]); j++)
			printf(" %02x", b[j]);
		printf("\n");
	}
}

static uint32_t obj_id(int fd, bool map)
{
	struct sw_map_info mi;
	struct sw_prog_info pi;

	memset(&mi, 0, sizeof(mi));
	memset(&pi, 0, sizeof(pi));
	if (map)
		return sw_bpf_obj_info(fd, &mi, sizeof(mi)) ? 0 : mi.id;
	return sw_bpf_obj_info(fd, &pi, sizeof(pi)) ? 0 : pi.id;
}

/* one program of a load: the callback it implements, its instructions */
struct load_prog {
	const char *callback;
	const char *sec;		/* --obj: its section */
	struct sw_bpf_insn *owned;	/* the copy the kfunc calls are resolved in */
	const struct sw_bpf_insn *insns;
	unsigned int cnt, idx;
	const char *kf[MAX_KFUNCS];	/* SW_CALL_KFUNC(i): kf[i] */
	unsigned int nkf;
	uint32_t moff;
	char name[SW_BPF_OBJ_NAME_LEN];
	int fd;
};

#define MAX_PROGS	8

/* the callback a section implements: its name after the last '/' */
static const char *callback_of(const char *sec)
{
	const char *slash = strrchr(sec, '/');

	return slash ? slash + 1 : sec;
}

/*
 * The kfunc calls of @pr (SW_CALL_KFUNC(i), the name pr->kf[i]) get the
 * BTF id of that function in the module's BTF and fd_array slot 1. Only
 * the module's own kfuncs: 0 or EXIT_RUNTIME.
 */
static int resolve_kfuncs(const struct kbtf *k, struct load_prog *pr)
{
	struct sw_bpf_insn *in = pr->owned;
	unsigned int i;

	for (i = 0; i < pr->cnt; i++) {
		const char *name;
		uint32_t id;

		if (in[i].code != (SW_BPF_JMP | SW_BPF_CALL) ||
		    in[i].src_reg != SW_BPF_PSEUDO_KFUNC_CALL)
			continue;
		if (in[i].imm < 0 || (unsigned int)in[i].imm >= pr->nkf) {
			sw_err("%s: instruction %u calls a kfunc the loader has no name for",
			       pr->name, i);
			return EXIT_RUNTIME;
		}
		name = pr->kf[in[i].imm];
		id = sw_btf_find(&k->mod, SW_BTF_KIND_FUNC, name);
		if (!id) {
			sw_err("%s calls %s, which is not a kfunc of the module (its kfuncs: Documentation/usage.md, \"Write your own placement policy\")",
			       pr->name, name);
			return EXIT_RUNTIME;
		}
		in[i].imm = id;
		in[i].off = 1;
	}
	return 0;
}

/*
 * --struct-ops TYPE: load @pr for member pr->callback of vmlinux's
 * struct_ops TYPE, never attached, and close it: the module's kfuncs must
 * be refused there (their filter). EXIT_OK when the kernel loaded it.
 */
static int load_foreign(const struct kbtf *k, const char *type, struct load_prog *pr,
			bool verbose)
{
	uint32_t id = sw_btf_find(&k->vml, SW_BTF_KIND_STRUCT, type);
	int fd;

	if (!id) {
		sw_err("vmlinux's BTF has no struct %s", type);
		return EXIT_USAGE;
	}
	if (sw_btf_member(&k->vml, id, pr->callback, &pr->idx, &pr->moff) ||
	    !sw_btf_member_is_func_ptr(&k->vml, id, pr->idx)) {
		sw_err("struct %s has no function pointer '%s' (--callback)", type, pr->callback);
		return EXIT_USAGE;
	}
	fd = prog_load(k, id, 0, pr->idx, pr->name, pr->insns, pr->cnt, verbose);
	if (fd < 0)
		return fd == -EPERM ? step_fail("BPF_PROG_LOAD", fd) : EXIT_RUNTIME;
	printf("%s loaded for %s.%s (prog id %u), not attached\n", pr->name, type,
	       pr->callback, obj_id(fd, false));
	close(fd);
	return EXIT_OK;
}

static int do_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "callback", required_argument, NULL, 'c' },
		{ "obj", required_argument, NULL, 'o' },
		{ "section", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "struct-ops", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *callback = NULL, *obj = NULL, *foreign = NULL;
	struct load_prog pr[MAX_PROGS];
	const struct builtin *b = NULL;
	struct sw_attr_map_create mc;
	struct sw_attr_elem el;
	unsigned int i, n = 0;
	uint32_t map_id, key = 0;
	bool verbose = false, dry = false;
	int c, ret, map_fd = -1, btf_fd = -1;
	unsigned char *value = NULL;
	char names[MAX_PROGS * (SW_BPF_OBJ_NAME_LEN + 1)] = "";
	struct kbtf k;

	memset(pr, 0, sizeof(pr));
	for (i = 0; i < MAX_PROGS; i++)
		pr[i].fd = -1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			callback = optarg;
			break;
		case 'o':
			obj = optarg;
			break;
		case 's':
			if (n == MAX_PROGS)
				return bad_usage("bpf", "load: at most %d --section", MAX_PROGS);
			pr[n++].sec = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'n':
			dry = true;
			break;
		case 't':
			foreign = optarg;
			break;
		case 'h':
			fputs(help, stdout);
			return EXIT_OK;
		default:
			return bad_usage("bpf", "load: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!!obj != !!n)
		return bad_usage("bpf", "load: --obj and --section go together");
	if (obj && optind < argc)
		return bad_usage("bpf", "load: a PROGRAM or --obj, not both");
	if (foreign && (!callback || n > 1))
		return bad_usage("bpf", "load: --struct-ops with --callback, one program");
	if (callback && n > 1)
		return bad_usage("bpf", "load: --callback with one --section only (each section's callback is its name after the last '/')");
	if (!obj) {
		if (optind >= argc)
			return bad_usage("bpf", "load: which program? (smartwake bpf list)");
		if (optind + 1 < argc)
			return bad_usage("bpf", "load: unexpected argument '%s'", argv[optind + 1]);
		b = find_builtin(argv[optind]);
		if (!b)
			return bad_usage("bpf", "load: no built-in program '%s' (%s)",
					 argv[optind], "smartwake bpf list");
		n = 1;
		pr[0].callback = callback ? callback : DEF_CALLBACK;
		pr[0].owned = sw_xmalloc(b->cnt * sizeof(*b->insns));
		memcpy(pr[0].owned, b->insns, b->cnt * sizeof(*b->insns));
		pr[0].insns = pr[0].owned;
		pr[0].cnt = b->cnt;
		for (i = 0; i < b->nkfuncs; i++)
			pr[0].kf[pr[0].nkf++] = sw_xstrdup(b->kfuncs[i]);
		snprintf(pr[0].name, sizeof(pr[0].name), "sw_%s", b->name);
	} else {
		for (i = 0; i < n; i++) {
			ret = elf_section(obj, pr[i].sec, &pr[i].owned, &pr[i].cnt,
					  pr[i].kf, &pr[i].nkf);
			if (ret)
				goto out_free;
			pr[i].insns = pr[i].owned;
			pr[i].callback = callback ? callback : callback_of(pr[i].sec);
			prog_name_of(pr[i].name, pr[i].sec);
		}
	}
	if (dry) {
		for (i = 0; i < n; i++)
			print_insns(pr[i].name, pr[i].insns, pr[i].cnt);
		ret = EXIT_OK;
		goto out_free;
	}

	ret = kbtf_open(&k);
	if (ret)
		goto out_free;
	if (foreign) {
		ret = resolve_kfuncs(&k, &pr[0]);
		if (!ret)
			ret = load_foreign(&k, foreign, &pr[0], verbose);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (sw_btf_member(&k.mod, k.ops_id, pr[i].callback, &pr[i].idx, &pr[i].moff)) {
			sw_err("struct " OPS_STRUCT " has no member '%s'", pr[i].callback);
			ret = EXIT_USAGE;
			goto out;
		}
		if (!sw_btf_member_is_func_ptr(&k.mod, k.ops_id, pr[i].idx)) {
			sw_err("member '%s' of struct " OPS_STRUCT " is not a function pointer",
			       pr[i].callback);
			ret = EXIT_USAGE;
			goto out;
		}
		if (k.data_off + pr[i].moff + 8 > k.value_size) {
			sw_err("BTF: member '%s' at %u past the value's %u bytes", pr[i].callback,
			       k.data_off + pr[i].moff, k.value_size);
			ret = EXIT_RUNTIME;
			goto out;
		}
	}

	for (i = 0; i < n; i++) {
		ret = resolve_kfuncs(&k, &pr[i]);
		if (ret)
			goto out;
		pr[i].fd = prog_load(&k, k.ops_id, k.fd, pr[i].idx, pr[i].name,
				     pr[i].insns, pr[i].cnt, verbose);
		if (pr[i].fd < 0) {
			ret = pr[i].fd == -EPERM ? step_fail("BPF_PROG_LOAD", pr[i].fd) :
						   EXIT_RUNTIME;
			goto out;
		}
	}

	btf_fd = user_btf_load();
	if (btf_fd < 0) {
		ret = step_fail("BPF_BTF_LOAD (the map's BTF)", btf_fd);
		goto out;
	}
	memset(&mc, 0, sizeof(mc));
	mc.map_type = SW_BPF_MAP_TYPE_STRUCT_OPS;
	mc.btf_fd = btf_fd;
	mc.key_size = sizeof(key);
	mc.value_size = k.value_size;
	mc.max_entries = 1;
	mc.map_flags = SW_BPF_F_VTYPE_BTF_OBJ_FD;
	snprintf(mc.map_name, sizeof(mc.map_name), "%s", OPS_MAP_NAME);
	mc.btf_vmlinux_value_type_id = k.value_id;
	mc.value_type_btf_obj_fd = k.fd;
	map_fd = sw_bpf(SW_BPF_MAP_CREATE, &mc, sizeof(mc));
	if (map_fd < 0) {
		ret = step_fail("BPF_MAP_CREATE (struct_ops " OPS_MAP_NAME ")", map_fd);
		goto out;
	}

	value = sw_xcalloc(1, k.value_size);
	for (i = 0; i < n; i++)
		*(uint64_t *)(value + k.data_off + pr[i].moff) = (uint64_t)pr[i].fd;
	memset(&el, 0, sizeof(el));
	el.map_fd = map_fd;
	el.key = (uintptr_t)&key;
	el.value = (uintptr_t)value;
	ret = sw_bpf(SW_BPF_MAP_UPDATE_ELEM, &el, sizeof(el));
	if (ret == -EEXIST || ret == -EBUSY) {
		sw_err("BPF_MAP_UPDATE_ELEM (attach): %s: a smartwake BPF policy is attached already (smartwake bpf status; smartwake bpf unload)",
		       err_text(-ret));
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (ret) {
		ret = step_fail("BPF_MAP_UPDATE_ELEM (attach; the module's refusals: dmesg)", ret);
		goto out;
	}
	map_id = obj_id(map_fd, true);
	for (i = 0; i < n; i++) {
		printf("%s attached as %s: map id %u, prog id %u\n", pr[i].name,
		       pr[i].callback, map_id, obj_id(pr[i].fd, false));
		if (i)
			strcat(names, ",");
		strcat(names, pr[i].name);
	}
	printf("attached map_id=%u prog=%s\n", map_id, names);
	ret = EXIT_OK;
out:
	free(value);
	if (map_fd >= 0)
		close(map_fd);
	for (i = 0; i < n; i++)
		if (pr[i].fd >= 0)
			close(pr[i].fd);
	if (btf_fd >= 0)
		close(btf_fd);
	kbtf_close(&k);
out_free:
	for (i = 0; i < MAX_PROGS; i++) {
		unsigned int j;

		free(pr[i].owned);
		for (j = 0; j < pr[i].nkf; j++)
			free((char *)pr[i].kf[j]);
	}
	return ret;
}

/* ---- the attached maps ---- */

typedef int (*ops_map_fn)(int fd, const struct sw_map_info *mi, void *ctx);

/*
 * Call @fn for each struct_ops map named OPS_MAP_NAME (fd, info), until
 * it returns non-zero. 0, @fn's value, or a failed step's exit code.
 */
static int walk_ops_maps(ops_map_fn fn, void *ctx)
{
	struct sw_map_info mi;
	uint32_t id = 0;
	long next;
	int fd, ret;

	for (;;) {
		next = sw_bpf_next_id(SW_BPF_MAP_GET_NEXT_ID, id);
		if (next < 0)
			return step_fail("BPF_MAP_GET_NEXT_ID", next);
		if (!next)
			return 0;
		id = next;
		fd = sw_bpf_fd_by_id(SW_BPF_MAP_GET_FD_BY_ID, id);
		if (fd == -ENOENT)
			continue;
		if (fd < 0)
			return step_fail("BPF_MAP_GET_FD_BY_ID", fd);
		memset(&mi, 0, sizeof(mi));
		ret = sw_bpf_obj_info(fd, &mi, sizeof(mi));
		if (ret) {
			close(fd);
			return step_fail("BPF_OBJ_GET_INFO_BY_FD (map)", ret);
		}
		ret = 0;
		if (mi.type == SW_BPF_MAP_TYPE_STRUCT_OPS && !strcmp(mi.name, OPS_MAP_NAME))
			ret = fn(fd, &mi, ctx);
		close(fd);
		if (ret)
			return ret;
	}
}

struct unload_ctx {
	unsigned int n;		/* maps detached */
	uint32_t ids[16];	/* their ids, to wait for */
};

static int unload_one(int fd, const struct sw_map_info *mi, void *ctx)
{
	struct unload_ctx *u;
	struct sw_attr_elem el;
	uint32_t key = 0;
	int ret;

	memset(&el, 0, sizeof(el));
	el.map_fd = fd;
	el.key = (uintptr_t)&key;
	ret = sw_bpf(SW_BPF_MAP_DELETE_ELEM, &el, sizeof(el));
	if (ret == -ENOENT || ret == -EINPROGRESS)
		return 0;	/* not registered (yet), or on its way out */
	if (ret)
		return step_fail("BPF_MAP_DELETE_ELEM (detach)", ret);
	printf("detached map_id=%u\n", mi->id);
	u = ctx;
	if (u->n < ARRAY_SIZE(u->ids))
		u->ids[u->n] = mi->id;
	u->n++;
	return 0;
}

#define MOD_REFCNT	"/sys/module/smartwake/refcnt"

/* the module's reference count, or -1 */
static long mod_refcnt(void)
{
	long v = -1;
	FILE *f = fopen(MOD_REFCNT, "r");

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * The BPF core frees a detached map in a work item: its id goes when the
 * last reference does, its reference on the module a little later (and
 * its programs' after an RCU grace period). Wait for both, so that an
 * rmmod right after the unload finds the module free: the ids gone, the
 * count at most @before minus one per map, then steady for 200 ms.
 */
static void wait_maps_freed(const struct unload_ctx *u, long before)
{
	unsigned int i, left, tries, steady = 0;
	long now, last = -1;
	int fd;

	for (tries = 0; tries < 500; tries++) {
		left = 0;
		for (i = 0; i < u->n && i < ARRAY_SIZE(u->ids); i++) {
			fd = sw_bpf_fd_by_id(SW_BPF_MAP_GET_FD_BY_ID, u->ids[i]);
			if (fd >= 0) {
				close(fd);
				left++;
			}
		}
		now = before < 0 ? -1 : mod_refcnt();
		if (!left && (now < 0 || now <= before - (long)u->n)) {
			steady = now == last ? steady + 1 : 0;
			if (now < 0 || steady >= 10)
				return;
		}
		last = now;
		usleep(20000);
	}
	sw_err("warning: a detached map or its reference on the module is still there after 10 s (a process holds its fd?): rmmod smartwake is refused until it goes");
}

static int do_unload(int argc, char **argv)
{
	struct unload_ctx u = { 0 };
	long before = mod_refcnt();
	int ret;

	if (argc > 1)
		return bad_usage("bpf", "unload: unexpected argument '%s'", argv[1]);
	ret = walk_ops_maps(unload_one, &u);
	if (ret)
		return ret;
	if (!u.n) {
		sw_err("no smartwake BPF policy attached");
		return EXIT_RUNTIME;
	}
	wait_maps_freed(&u, before);
	return EXIT_OK;
}

struct status_ctx {
	struct kbtf k;
	bool have_btf;
	int attached;
	char line[512];		/* the machine-readable line */
};

/* the name of program @id, or "" */
static void prog_name_by_id(uint32_t id, char *name, size_t size)
{
	struct sw_prog_info pi;
	int fd;

	*name = '\0';
	fd = sw_bpf_fd_by_id(SW_BPF_PROG_GET_FD_BY_ID, id);
	if (fd < 0)
		return;
	memset(&pi, 0, sizeof(pi));
	if (!sw_bpf_obj_info(fd, &pi, sizeof(pi)))
		snprintf(name, size, "%.*s", SW_BPF_OBJ_NAME_LEN, pi.name);
	close(fd);
}

static int status_one(int fd, const struct sw_map_info *mi, void *vctx)
{
	struct status_ctx *s = vctx;
	const struct sw_btf_type *t;
	struct sw_attr_elem el;
	unsigned char *value;
	uint32_t key = 0, state, moff;
	unsigned int i, idx;
	size_t len;
	int ret;

	if (!s->have_btf) {
		ret = kbtf_open(&s->k);
		if (ret)
			return ret;
		s->have_btf = true;
	}
	value = sw_xcalloc(1, mi->value_size + 8);
	memset(&el, 0, sizeof(el));
	el.map_fd = fd;
	el.key = (uintptr_t)&key;
	el.value = (uintptr_t)value;
	ret = sw_bpf(SW_BPF_MAP_LOOKUP_ELEM, &el, sizeof(el));
	if (ret) {
		free(value);
		return step_fail("BPF_MAP_LOOKUP_ELEM (struct_ops value)", ret);
	}
	/* struct bpf_struct_ops_common_value: refcnt, state */
	memcpy(&state, value + 4, sizeof(state));
	if (state != STATE_INUSE) {
		printf("map %u (" OPS_MAP_NAME "): not registered (state %u)\n", mi->id, state);
		free(value);
		return 0;
	}
	printf("map %u (" OPS_MAP_NAME "): attached\n", mi->id);
	len = snprintf(s->line, sizeof(s->line), "attached map_id=%u prog=", mi->id);
	t = sw_btf_type(&s->k.mod, s->k.ops_id);
	for (i = 0; i < sw_btf_vlen(t); i++) {
		const struct sw_btf_member *m = (const void *)(t + 1);
		const char *mname = sw_btf_str(&s->k.mod, m[i].name_off);
		char pname[SW_BPF_OBJ_NAME_LEN + 1];
		uint64_t prog_id;

		if (!sw_btf_member_is_func_ptr(&s->k.mod, s->k.ops_id, i) ||
		    sw_btf_member(&s->k.mod, s->k.ops_id, mname, &idx, &moff) ||
		    s->k.data_off + moff + 8 > mi->value_size)
			continue;
		memcpy(&prog_id, value + s->k.data_off + moff, sizeof(prog_id));
		if (!prog_id)
			continue;
		prog_name_by_id(prog_id, pname, sizeof(pname));
		printf("  %-16s prog id %llu  %s\n", mname, (unsigned long long)prog_id,
		       *pname ? pname : "(name unknown)");
		if (len < sizeof(s->line))
			len += snprintf(s->line + len, sizeof(s->line) - len, "%s%s",
					s->line[len - 1] == '=' ? "" : ",",
					*pname ? pname : "?");
	}
	s->attached++;
	free(value);
	return 0;
}

/*
 * The module's side of an attached program: set aside by
 * revert_on=violation (attached but never called again: status must not
 * claim a policy the module set aside), or unknown when its bpf file
 * cannot be read (the map alone would still say "attached").
 */
static void print_set_aside(void)
{
	char path[PATH_MAX], *text, *line;

	path_of(path, sizeof(path), "bpf");
	text = read_file(path);
	if (!text) {
		printf("module state unknown: cannot read %s (%s): whether revert_on=violation set the program aside is not known (mount debugfs: mount -t debugfs none /sys/kernel/debug)\n",
		       path, strerror(errno));
		return;
	}
	line = strstr(text, "set aside by revert_on=violation");
	if (line) {
		line[strcspn(line, "\n")] = '\0';
		printf("%s (policy=bpf is refused until then)\n", line);
	}
	free(text);
}

static int do_status(int argc, char **argv)
{
	struct status_ctx s;
	int ret;

	if (argc > 1)
		return bad_usage("bpf", "status: unexpected argument '%s'", argv[1]);
	memset(&s, 0, sizeof(s));
	ret = walk_ops_maps(status_one, &s);
	if (s.have_btf)
		kbtf_close(&s.k);
	if (ret)
		return ret;
	if (!s.attached) {
		printf("no smartwake BPF policy attached\n");
		printf("detached\n");
	} else {
		print_set_aside();
		printf("%s\n", s.line);
	}
	return EXIT_OK;
}

static int do_list(int argc, char **argv)
{
	size_t i;

	if (argc > 1)
		return bad_usage("bpf", "list: unexpected argument '%s'", argv[1]);
	for (i = 0; i < ARRAY_SIZE(builtins); i++)
		printf("%-10s %s\n", builtins[i].name, builtins[i].desc);
	return EXIT_OK;
}

/* ---- btf-id: the BTF reader on a file ---- */

static const char *const kind_names[] = {
	"unknown", "int", "ptr", "array", "struct", "union", "enum", "fwd",
	"typedef", "volatile", "const", "restrict", "func", "func_proto",
	"var", "datasec", "float", "decl_tag", "type_tag", "enum64",
};

static int do_btf_id(int argc, char **argv)
{
	const char *base_path = NULL, *what;
	struct sw_btf base, b;
	char *base_data = NULL, *data;
	const struct sw_btf_type *t;
	uint32_t id = 0, moff, k;
	unsigned int idx;
	char err[160];
	size_t len;
	int ret = EXIT_RUNTIME;

	if (argc > 2 && !strcmp(argv[1], "--base")) {
		base_path = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 3 || argc > 4)
		return bad_usage("bpf", "btf-id [--base VMLINUX] BTF-FILE TYPE [MEMBER]");
	memset(&base, 0, sizeof(base));
	if (base_path) {
		base_data = read_file_size(base_path, &len);
		if (!base_data) {
			sw_err("cannot read %s: %s", base_path, strerror(errno));
			return EXIT_RUNTIME;
		}
		if (sw_btf_parse(&base, base_data, len, NULL, err, sizeof(err))) {
			sw_err("%s: %s", base_path, err);
			free(base_data);
			return EXIT_RUNTIME;
		}
	}
	data = read_file_size(argv[1], &len);
	if (!data) {
		sw_err("cannot read %s: %s", argv[1], strerror(errno));
		goto out_base;
	}
	if (sw_btf_parse(&b, data, len, base_path ? &base : NULL, err, sizeof(err))) {
		sw_err("%s: %s", argv[1], err);
		goto out;
	}
	printf("types %u..%u\n", b.start_id + (base_path ? 0 : 1),
	       b.start_id + b.nr_types - 1);
	/* a struct first, then any kind */
	id = sw_btf_find(&b, SW_BTF_KIND_STRUCT, argv[2]);
	for (k = 1; !id && k < ARRAY_SIZE(kind_names); k++)
		id = sw_btf_find(&b, k, argv[2]);
	if (!id) {
		sw_err("%s: no type named '%s'", argv[1], argv[2]);
		goto out_b;
	}
	t = sw_btf_type(&b, id);
	what = kind_names[sw_btf_kind(t)];
	printf("%s %s id %u", what, argv[2], id);
	if (sw_btf_kind(t) == SW_BTF_KIND_STRUCT || sw_btf_kind(t) == SW_BTF_KIND_UNION)
		printf(" size %u members %u", t->size_type, sw_btf_vlen(t));
	printf("\n");
	if (argc == 4) {
		if (sw_btf_member(&b, id, argv[3], &idx, &moff)) {
			sw_err("%s %s has no member '%s'", what, argv[2], argv[3]);
			goto out_b;
		}
		printf("member %s index %u offset %u%s\n", argv[3], idx, moff,
		       sw_btf_member_is_func_ptr(&b, id, idx) ? " func_ptr" : "");
	}
	ret = EXIT_OK;
out_b:
	sw_btf_free(&b);
out:
	free(data);
out_base:
	sw_btf_free(&base);
	free(base_data);
	return ret;
}

/* ---- dispatch ---- */

static int do_bpf(int argc, char **argv)
{
	const char *sub;

	if (argc < 2)
		return bad_usage("bpf", "which subcommand? (load, unload, status, list)");
	sub = argv[1];
	if (is_help_opt(sub)) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc > 2 && is_help_opt(argv[2])) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (!strcmp(sub, "load"))
		return do_load(argc - 1, argv + 1);
	if (!strcmp(sub, "unload"))
		return do_unload(argc - 1, argv + 1);
	if (!strcmp(sub, "status"))
		return do_status(argc - 1, argv + 1);
	if (!strcmp(sub, "list"))
		return do_list(argc - 1, argv + 1);
	if (!strcmp(sub, "btf-id"))
		return do_btf_id(argc - 1, argv + 1);
	return bad_usage("bpf", "unknown subcommand '%s'", sub);
}

const struct cli_cmd cmd_bpf = {
	.name = "bpf",
	.args = "load|unload|status|list",
	.summary = "a BPF program on the module's struct_ops (6.9+)",
	.help = help,
	.run = do_bpf,
};
