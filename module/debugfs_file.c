// SPDX-License-Identifier: GPL-2.0
/*
 * The files of the module's debugfs directory: debugfs_create_file()
 * with its failure remembered, so that the load fails instead of
 * leaving the module without one of its files (debugfs.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/printk.h>
#include "debugfs_file.h"

/* the error of the first file that could not be created */
static int sw_debugfs_first_err;

/**
 * sw_debugfs_file() - debugfs_create_file(), its failure remembered
 * @name: file name
 * @mode: its mode
 * @dir: the module's directory
 * @data: the file's private data
 * @fops: its operations
 *
 * debugfs' convention leaves single files unchecked; a module loaded
 * without one of its files would be half there (the CLI, the knobs and
 * the tests read them all), so sw_debugfs_init() fails the load instead.
 */
void sw_debugfs_file(const char *name, umode_t mode, struct dentry *dir,
		     void *data, const struct file_operations *fops)
{
	struct dentry *d = debugfs_create_file(name, mode, dir, data, fops);

	if (IS_ERR(d) && !sw_debugfs_first_err) {
		pr_err("cannot create debugfs file %s: %pe\n", name, d);
		sw_debugfs_first_err = PTR_ERR(d);
	}
}

/**
 * sw_debugfs_file_err() - the first failure of sw_debugfs_file()
 * @reset: forget it (before the files are created)
 *
 * Return: its error, or 0.
 */
int sw_debugfs_file_err(bool reset)
{
	int err = sw_debugfs_first_err;

	if (reset)
		sw_debugfs_first_err = 0;
	return err;
}
