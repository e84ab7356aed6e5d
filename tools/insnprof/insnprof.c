// SPDX-License-Identifier: GPL-2.0
/*
 * insnprof: a QEMU TCG plugin that counts the guest kernel's executed
 * instructions per translation block, for scripts/insnprof.sh.
 *
 * Every block that starts at a kernel address gets two inline counters
 * (executions; instructions). Each time the guest enters the block at
 * mark=ADDR (a syscall around the measured window), the table so far goes
 * to OUT.N: "vaddr insns_per_exec execs insns" per line, cumulative; the
 * host subtracts snapshots. The guest runs -accel tcg,thread=single, so
 * the additions do not race. Below: the part of QEMU's plugin API v1
 * (QEMU 7.2) it uses; Debian ships no header for it.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};
enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* one block: its address and length are the key (a block may be
 * translated again with another length) */
struct blk {
	uint64_t vaddr;
	uint64_t n;
	uint64_t execs;
	uint64_t insns;
};

#define TABLE_BITS 20
#define TABLE_SIZE (1UL << TABLE_BITS)
#define KERNEL_START 0xffff800000000000ULL

static struct blk *table;
static uint64_t mark;
static unsigned int snaps;
static char out[4096] = "insnprof";
static bool full;

static struct blk *lookup(uint64_t vaddr, uint64_t n)
{
	uint64_t h = (vaddr ^ (n << 40)) * 0x9e3779b97f4a7c15ULL;
	size_t i = h >> (64 - TABLE_BITS), probes;

	for (probes = 0; probes < TABLE_SIZE; probes++) {
		struct blk *b = &table[i];

		if (b->vaddr == vaddr && b->n == n)
			return b;
		if (!b->vaddr) {
			b->vaddr = vaddr;
			b->n = n;
			return b;
		}
		i = (i + 1) & (TABLE_SIZE - 1);
	}
	return NULL;
}

static void snapshot(unsigned int vcpu, void *udata)
{
	char path[4200];
	size_t i;
	FILE *f;

	(void)vcpu;
	(void)udata;
	snprintf(path, sizeof(path), "%s.%u", out, ++snaps);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	fprintf(f, "# insnprof snapshot %u%s\n", snaps,
		full ? " (table full: blocks were dropped)" : "");
	for (i = 0; i < TABLE_SIZE; i++)
		if (table[i].insns)
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
				table[i].vaddr, table[i].n, table[i].execs,
				table[i].insns);
	fclose(f);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	uint64_t n = qemu_plugin_tb_n_insns(tb);
	struct blk *b;

	(void)id;
	if (vaddr < KERNEL_START)
		return;
	b = lookup(vaddr, n);
	if (!b) {
		full = true;
		return;
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->insns, n);
	if (vaddr == mark)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, snapshot,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "mark=", 5)) {
			mark = strtoull(argv[i] + 5, NULL, 16);
		} else if (!strncmp(argv[i], "out=", 4)) {
			snprintf(out, sizeof(out), "%s", argv[i] + 4);
		} else {
			fprintf(stderr, "insnprof: unknown argument %s (mark=HEX, out=PREFIX)\n",
				argv[i]);
			return -1;
		}
	}
	if (!mark) {
		fprintf(stderr, "insnprof: mark=HEXADDR is required\n");
		return -1;
	}
	table = calloc(TABLE_SIZE, sizeof(*table));
	if (!table)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	return 0;
}
