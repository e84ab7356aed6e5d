/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: creating the files of the debugfs directory (debugfs_file.c),
 * for debugfs.c and the files that add their own (knobs, cost, latency).
 */
#ifndef _SMARTWAKE_DEBUGFS_FILE_H
#define _SMARTWAKE_DEBUGFS_FILE_H

#include <linux/fs.h>

void sw_debugfs_file(const char *name, umode_t mode, struct dentry *dir,
		     void *data, const struct file_operations *fops);
int sw_debugfs_file_err(bool reset);

#endif /* _SMARTWAKE_DEBUGFS_FILE_H */
