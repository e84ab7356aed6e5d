// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs layout, under /sys/kernel/debug/smartwake/:
 *   stats    one "name value" line per counter, summed over CPUs, then
 *            the derived SIS metrics (percentages with two decimals)
 *   reset    write anything to zero the counters
 *   knobs    every knob: value, accepted values, help
 *   hooks    every ftrace hook: target, kind, state
 *   calls    every kernel function called through a pointer: address,
 *            first four bytes, IBT verdict (0400: holds addresses)
 *   overloaded  sis_filter's masks: "LLC-id CPU-list" per non-empty one
 *   latency_hist  the wakeup-latency histogram (knob latency): "lower-bound-ns
 *            count" per log2 bucket; reset zeroes it too
 *   <knob>   one file per knob (see knobs.c)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include "debugfs.h"
#include "hooks.h"
#include "knobs.h"
#include "latency.h"
#include "overload.h"
#include "stats.h"
#include "symbols.h"

static struct dentry *sw_dir;

static int sw_stats_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < SW_NR_COUNTERS; i++)
		seq_printf(m, "%s %llu\n", sw_counter_name(i), sw_counter_sum(i));
	/* derived values after the raw counters, still "name value" */
	sw_stats_show_derived(m);
	sw_latency_show_stats(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_stats);

static ssize_t sw_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	sw_counters_reset();
	sw_latency_reset();
	*ppos += count;
	return count;
}

static const struct file_operations sw_reset_fops = {
	.owner = THIS_MODULE,
	.write = sw_reset_write,
};

static int sw_hooks_list_show(struct seq_file *m, void *unused)
{
	return sw_hooks_show(m);
}
DEFINE_SHOW_ATTRIBUTE(sw_hooks_list);

static int sw_calls_list_show(struct seq_file *m, void *unused)
{
	return sw_calls_show(m);
}
DEFINE_SHOW_ATTRIBUTE(sw_calls_list);

static int sw_overloaded_list_show(struct seq_file *m, void *unused)
{
	return sw_overload_show(m);
}
DEFINE_SHOW_ATTRIBUTE(sw_overloaded_list);

int sw_debugfs_init(void)
{
	sw_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(sw_dir)) {
		pr_err("cannot create debugfs directory: %ld\n", PTR_ERR(sw_dir));
		return PTR_ERR(sw_dir);
	}
	debugfs_create_file("stats", 0444, sw_dir, NULL, &sw_stats_fops);
	debugfs_create_file("reset", 0200, sw_dir, NULL, &sw_reset_fops);
	debugfs_create_file("hooks", 0444, sw_dir, NULL, &sw_hooks_list_fops);
	debugfs_create_file("calls", 0400, sw_dir, NULL, &sw_calls_list_fops);
	debugfs_create_file("overloaded", 0444, sw_dir, NULL,
			    &sw_overloaded_list_fops);
	sw_latency_debugfs(sw_dir);
	return sw_knobs_init(sw_dir);
}

/* Removing the files waits for readers and writers already inside them. */
void sw_debugfs_exit(void)
{
	debugfs_remove(sw_dir);
	sw_dir = NULL;
}
