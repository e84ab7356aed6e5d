// SPDX-License-Identifier: GPL-2.0
/*
 * The module's debugfs directory, /sys/kernel/debug/smartwake/: its
 * files, described in the DOC: comment below (usage.md's table is
 * generated from it by scripts/gen-docs.sh).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include "path/bpf.h"
#include "cost.h"
#include "debugfs.h"
#include "debugfs_file.h"
#include "hooks.h"
#include "knobs.h"
#include "latency.h"
#include "overload.h"
#include "stats.h"
#include "symbols.h"

/**
 * DOC: debugfs files
 *
 *   stats    counters, `name value` per line, summed over CPUs, then the
 *            derived lines (two decimals; see counters.h)
 *   reset    write anything: zero all counters, the wakeup-latency and
 *            the per-call histograms
 *   knobs    every knob with value, accepted values and help (knobs.c)
 *   hooks    every hook and observer: function, kind (redirect, observe,
 *            kretprobe, tracepoint), on/off, `needs:` the knob setting that
 *            installs it (`unregister-failed` if its removal failed; more
 *            below)
 *   calls    every kernel function the module calls through a pointer:
 *            address, first four bytes, `endbr64` (0400, root only: it
 *            holds addresses)
 *   overloaded
 *            `sis_filter`'s masks: one line per LLC with overloaded CPUs,
 *            `LLC-id CPU-list`
 *   latency_hist
 *            the wakeup-latency histogram (knob `latency`, latency.c): 40
 *            lines `lower-bound-ns count`, log2 buckets 0, 2, 4, ... 2^39
 *            ns, summed over CPUs, then `# sample 1 in N` while knob
 *            `latency_sample` is N > 1 (see "Wakeup latency and placement
 *            locality" in usage.md)
 *   latency_hist_scope
 *            the part of `latency_hist` from tasks inside knob `scope`'s
 *            cgroup (when switched in), same format; stands still while
 *            `scope=all` (see "Scope" in usage.md)
 *   cost_hist
 *            the sampled per-call times (cost.c): `series lower-bound-ns
 *            count` per non-empty bucket (log2 split in 32, summed over
 *            CPUs); series self, module, kernel, bpf_*; stats has their
 *            medians and p99s (`*_ns_p50`, `*_ns_p99`)
 *   bpf      policy=bpf (bpf.c): `struct_ops smartwake_ops registered
 *            attached|detached` or `unavailable` and why, `kfuncs
 *            registered` or `unavailable`; with a program attached, the
 *            first four bytes of each callback's BPF trampoline (`f3 0f
 *            1e fa`: ENDBR64, as an IBT CPU needs)
 *   <knob>   read: current value; write: new value (under lockdown neither:
 *            the same knob in `/sys/module/smartwake/parameters/`; knobs.c)
 *
 * In `hooks`, the `sched_update_nr_running_tp` line lists every setting
 * that takes that probe, then `held:` those that hold it now (`none` when
 * off); `sched_waking tracepoint` is the probe of `fair_wakeups`.
 */

static struct dentry *sw_dir;

static int sw_stats_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < SW_NR_COUNTERS; i++)
		seq_printf(m, "%s %llu\n", sw_counter_name(i), sw_counter_sum(i));
	/* derived values after the raw counters, still "name value" */
	sw_stats_show_derived(m);
	sw_latency_show_stats(m);
	sw_bpf_show_stats(m);
	sw_cost_show_stats(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_stats);

static ssize_t sw_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	sw_counters_reset();
	sw_latency_reset();
	sw_cost_reset();
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

static int sw_bpf_status_show(struct seq_file *m, void *unused)
{
	sw_bpf_show_status(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_bpf_status);

/**
 * sw_debugfs_init() - the directory and every file in it
 *
 * Return: 0, or the error of the directory or of the first file that
 * could not be created (then nothing of the directory is left).
 */
int sw_debugfs_init(void)
{
	int ret;

	sw_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(sw_dir)) {
		pr_err("cannot create debugfs directory: %ld\n", PTR_ERR(sw_dir));
		return PTR_ERR(sw_dir);
	}
	sw_debugfs_file_err(true);
	sw_debugfs_file("stats", 0444, sw_dir, NULL, &sw_stats_fops);
	sw_debugfs_file("reset", 0200, sw_dir, NULL, &sw_reset_fops);
	sw_debugfs_file("hooks", 0444, sw_dir, NULL, &sw_hooks_list_fops);
	sw_debugfs_file("calls", 0400, sw_dir, NULL, &sw_calls_list_fops);
	sw_debugfs_file("overloaded", 0444, sw_dir, NULL,
			&sw_overloaded_list_fops);
	sw_debugfs_file("bpf", 0444, sw_dir, NULL, &sw_bpf_status_fops);
	sw_latency_debugfs(sw_dir);
	sw_cost_debugfs(sw_dir);
	ret = sw_knobs_init(sw_dir);
	if (!ret)
		ret = sw_debugfs_file_err(false);
	if (ret)
		sw_debugfs_exit();
	return ret;
}

/* Removing the files waits for readers and writers already inside them. */
void sw_debugfs_exit(void)
{
	debugfs_remove(sw_dir);
	sw_dir = NULL;
}
