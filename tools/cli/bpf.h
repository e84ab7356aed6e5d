/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake bpf: what the command's files share. bpf.c dispatches from
 * its subcommand table; bpf_load.c attaches (objects through libbpf,
 * built-ins through its low-level API); bpf_maps.c finds, shows and
 * detaches what is attached, and reads a program's maps; bpf_btf.c reads
 * the kernel's BTF (the module's type, vmlinux.h, btf-id); bpf_builtin.c
 * holds the hand-assembled test programs.
 */
#ifndef SMARTWAKE_CLI_BPF_H
#define SMARTWAKE_CLI_BPF_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfutil.h"
#include "cli.h"

#define OPS_STRUCT	"smartwake_ops"
#define OPS_VALUE	"bpf_struct_ops_smartwake_ops"
#define OPS_MAP_NAME	"smartwake_ops"
#define MOD_BTF_NAME	"smartwake"
#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"
#define BPFFS		"/sys/fs/bpf"
#define PIN_DIR		BPFFS "/smartwake"

/* the module's BTF: its struct_ops type and the map value that wraps it */
struct kbtf {
	int fd;				/* the module's BTF object */
	struct btf *vml, *mod;		/* vmlinux's; the module's, split on it */
	uint32_t ops_id, value_id;	/* smartwake_ops, its map value type */
	uint32_t value_size, data_off;	/* the value's size, its data member */
};

int mod_btf_fd(uint32_t *idp);
int kbtf_open(struct kbtf *k);
void kbtf_close(struct kbtf *k);
/* member @name of smartwake_ops: its index and byte offset, or -1 */
int kbtf_member(const struct kbtf *k, const char *name, uint32_t *idx, uint32_t *off);

/* a hand-assembled program (bpf_builtin.c) */
struct builtin {
	const char *name;
	const char *desc;
	const struct bpf_insn *insns;
	unsigned int cnt;
	const char *const *kfuncs;	/* SW_CALL_KFUNC(i): kfuncs[i] */
	unsigned int nkfuncs;
};

extern const struct builtin builtins[];
extern const unsigned int nr_builtins;
const struct builtin *find_builtin(const char *name);

/* libbpf's messages: kept, and printed on a failure (bpf_load.c) */
void libbpf_capture(bool verbose);
void libbpf_print_captured(const char *why);

int load_builtin(const struct builtin *b, const char *callback, const char *foreign,
		 bool verbose, bool dry);
int load_object(const char *file, char **sets, unsigned int nsets, bool verbose, bool dry);

typedef int (*ops_map_fn)(int fd, const struct bpf_map_info *mi, void *ctx);
int walk_ops_maps(ops_map_fn fn, void *ctx);
/* the struct_ops link whose map is @map_id: an fd, or -ENOENT */
int ops_link_fd(uint32_t map_id, uint32_t *link_id);
/* the ids of the programs in the attached map's value (0: none) */
int ops_prog_ids(int fd, const struct bpf_map_info *mi, uint32_t *ids, unsigned int max);

int do_unload(int argc, char **argv);
int do_status(int argc, char **argv);
int do_stats(int argc, char **argv);
int do_vmlinux(int argc, char **argv);
int do_btf_id(int argc, char **argv);

#endif /* SMARTWAKE_CLI_BPF_H */
