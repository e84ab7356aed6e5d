/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: the machine-state record. What a wakeup
 * benchmark depends on besides the module: kernel, command line,
 * topology, scheduler features and tunables, sched sysctls, cpufreq, THP,
 * hypervisor and steal time, the module's knobs. One "key = value" entry
 * each; a missing file is an absent entry, never an error. Every path can
 * be moved by an environment variable (machine_env()), for the tests.
 */
#ifndef SMARTWAKE_MACHINE_H
#define SMARTWAKE_MACHINE_H

#include "sysfs.h"

#define DEF_SCHED_DEBUG	"/sys/kernel/debug/sched"
#define DEF_SYSCTL	"/proc/sys"
#define DEF_CPU_SYSFS	"/sys/devices/system/cpu"
#define DEF_NODE_SYSFS	"/sys/devices/system/node"
#define DEF_CMDLINE	"/proc/cmdline"
#define DEF_CPUINFO	"/proc/cpuinfo"
#define DEF_PROC_STAT	"/proc/stat"
#define DEF_THP		"/sys/kernel/mm/transparent_hugepage/enabled"

extern const char *sched_dir;
extern const char *sysctl_dir;
extern const char *cpu_dir;

enum { MS_VALUE, MS_ABSENT, MS_UNREADABLE };

struct mentry {
	char *key;
	char *val;		/* MS_UNREADABLE: the error */
	int kind;		/* MS_* */
	bool counter;		/* moves by itself (steal): not a setting */
};

struct machine {
	struct mentry *e;
	int n, cap;
};

void machine_env(void);
const char *machine_env_help(void);
void machine_read(struct machine *m);
void machine_free(struct machine *m);
const struct mentry *machine_find(const struct machine *m, const char *key);
bool mentry_same(const struct mentry *a, const struct mentry *b);
const char *mentry_text(const struct mentry *x, char *buf, size_t size);
void machine_print(const struct machine *m, FILE *f);
void machine_json(const struct machine *m, FILE *f, const char *indent);
void machine_summary(const struct machine *m, FILE *f);
bool machine_steal(const struct machine *m, unsigned long long *ticks);
void file_choice(char *s);

#endif /* SMARTWAKE_MACHINE_H */
