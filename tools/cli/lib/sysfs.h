/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: the module's debugfs and sysfs files, and the
 * control interface (debugfs, or the module parameters when debugfs is
 * locked down). The paths are set by main.c from the environment.
 */
#ifndef SMARTWAKE_SYSFS_H
#define SMARTWAKE_SYSFS_H

#include "cli.h"

#define DEF_DEBUGFS	"/sys/kernel/debug/smartwake"
#define DEF_PARAMS	"/sys/module/smartwake/parameters"
#define DEF_LOCKDOWN	"/sys/kernel/security/lockdown"
#define DEF_FEATURES	"/sys/kernel/debug/sched/features"
#define DEF_SCHEDSTATS	"/proc/sys/kernel/sched_schedstats"
#define DEBUGFS_MNT	"/sys/kernel/debug"

extern const char *dbg_dir;
extern bool dbg_dir_from_env;
extern const char *features_path;
extern const char *params_dir;
extern const char *lockdown_path;
extern const char *schedstats_path;

char *read_file(const char *path);
/* the whole file, NUL-terminated, its length in *@size (binary files too) */
char *read_file_size(const char *path, size_t *size);
int write_value(const char *path, const char *val);
void path_of(char *out, size_t size, const char *name);
int check_module(bool report);
void lockdown_level(char *lvl, size_t size);

void ctl_set_probe(const char *knob);
int ctl_write(const char *name, const char *val);
char *ctl_read(const char *name);
const char *ctl_desc(char *buf, size_t size);

#endif /* SMARTWAKE_SYSFS_H */
