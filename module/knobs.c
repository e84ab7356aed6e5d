// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time knobs: one table, one debugfs file per row, one strict parser.
 *
 * A write is accepted only if it is exactly a name from the row's list or a
 * decimal number in the row's range without leading zeros, optionally
 * followed by one newline (as echo writes it). Anything else (empty,
 * whitespace, signs, hex, leading zeros, trailing garbage, NUL bytes,
 * writes at an offset, overlong writes) returns -EINVAL and leaves the
 * value unchanged. A string knob (scope) takes any printable non-blank
 * bytes, up to 255, and its own function judges them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "hooks.h"
#include "knobs.h"
#include "latency.h"
#include "numa.h"
#include "overload.h"
#include "scope.h"
#include "sib.h"
#include "ttwu.h"
#include "watchdog.h"
#include "wake.h"

/* Longest accepted write, newline included. */
#define SW_KNOB_MAX_LEN 32

int sw_enabled = 1;
int sw_policy = SW_POLICY_STOCK;
int sw_decay = SW_DECAY_HALVE;
int sw_wide_mode = SW_WIDE_MAINLINE;
int sw_factor_src = SW_FACTOR_LLC;
int sw_factor_fixed = 1;
int sw_wa_idle = 1;
int sw_wa_weight = 1;
int sw_wa_bias = 1;
int sw_sync = 1;
int sw_sis_filter;
int sw_sis_sched_idle = 1;
int sw_sis_mask_update = SW_MASK_ENQUEUE;

static const char * const sw_policy_names[SW_POLICY_NR] = {
	SW_POLICIES(SW_ENUM_NAME, SW_ENUM_NAME)
};

/* A 0/1 knob; mainline's behaviour is the default of every one of them. */
#define SW_BOOL_KNOB(_name, _var, _help)				\
	{ .name = _name, .val = &(_var), .numeric = true,		\
	  .min = 0, .max = 1, .help = _help }

static const struct sw_knob sw_knobs[] = {
	{
		.name = "enabled", .val = &sw_enabled, .numeric = true,
		.min = 0, .max = 1, .apply = sw_select_apply,
		.help = "0: the kernel decides, select_task_rq_fair unhooked; 1: as policy says",
	},
	{
		.name = "policy", .val = &sw_policy,
		.names = sw_policy_names, .nr_names = SW_POLICY_NR,
		.apply = sw_select_apply,
		.help = "stock: kernel, unhooked; smartwake: module; shadow: both, kernel's answer",
	},
	{
		.name = "select_hook", .val = &sw_select_hook,
		.names = sw_select_hook_names, .nr_names = SW_SELECT_HOOK_NR,
		.apply = sw_select_hook_apply,
		.help = "how select_task_rq_fair is hooked: direct call (x86-64) or ftrace ops",
	},
	{
		.name = "decay", .val = &sw_decay,
		.names = sw_decay_names, .nr_names = SW_DECAY_NR,
		.help = "wakee flip decay (halve = mainline record_wakee)",
	},
	{
		.name = "wake_wide", .val = &sw_wide_mode,
		.names = sw_wide_mode_names, .nr_names = SW_WIDE_NR,
		.help = "wake_wide test: off, 2013 waker-only, mainline symmetric",
	},
	{
		.name = "factor", .val = &sw_factor_src,
		.names = sw_factor_src_names, .nr_names = SW_FACTOR_NR,
		.numeric = true, .min = 1, .max = 1024,
		.fixed_idx = SW_FACTOR_FIXED, .num = &sw_factor_fixed,
		.help = "wake_wide factor: CPUs of the LLC (mainline), node, online, or N",
	},
	SW_BOOL_KNOB("wa_idle", sw_wa_idle,
		     "wake_affine idle test (sched_feat WA_IDLE)"),
	SW_BOOL_KNOB("wa_weight", sw_wa_weight,
		     "wake_affine load test (sched_feat WA_WEIGHT)"),
	SW_BOOL_KNOB("wa_bias", sw_wa_bias,
		     "imbalance_pct bias towards prev (sched_feat WA_BIAS)"),
	SW_BOOL_KNOB("sync", sw_sync,
		     "honour WF_SYNC (the waker is about to sleep)"),
	{
		.name = "sis_filter", .val = &sw_sis_filter, .numeric = true,
		.min = 0, .max = 1, .apply = sw_overload_apply,
		.help = "2022 SIS filter: skip overloaded CPUs in the LLC scan (tracepoint probe)",
	},
	{
		.name = "sis_mask_update", .val = &sw_sis_mask_update,
		.names = sw_mask_update_names, .nr_names = SW_MASK_NR,
		.apply = sw_mask_update_apply,
		.help = "sis_filter masks: updated on nr_running changes, or per tick (2022)",
	},
	{
		.name = "sib_count", .val = &sw_sib_count, .numeric = true,
		.min = 0, .max = 1, .apply = sw_sib_apply,
		.help = "count sched-idle balance opportunities (2022 patch 2/2; two probes)",
	},
	SW_BOOL_KNOB("sis_sched_idle", sw_sis_sched_idle,
		     "CPUs running only SCHED_IDLE tasks count as idle (mainline)"),
	{
		.name = "ttwu_queue", .val = &sw_ttwu_queue,
		.names = sw_ttwu_mode_names, .nr_names = SW_TTWU_NR,
		.apply = sw_ttwu_apply,
		.help = "remote wakeups: stock (kernel decides) or lock (never queue by IPI)",
	},
	{
		.name = "ttwu_count", .val = &sw_ttwu_count, .numeric = true,
		.min = 0, .max = 1, .apply = sw_ttwu_count_apply,
		.help = "count remote wakeups by outcome (1 installs a kretprobe)",
	},
	{
		.name = "revert_on", .val = &sw_revert_on,
		.names = sw_revert_on_names, .nr_names = SW_REVERT_NR,
		.help = "violation: an answer outside a task's CPUs sets policy back to stock",
	},
	{
		.name = "numa_retry", .val = &sw_numa_retry,
		.names = sw_numa_retry_names, .nr_names = SW_NUMA_NR,
		.apply = sw_numa_apply,
		.help = "2018 NUMA retry backoff after wake_affine: off, as-merged, corrected",
	},
	{
		.name = "latency", .val = &sw_latency, .numeric = true,
		.min = 0, .max = 1, .apply = sw_latency_apply,
		.help = "wakeup latency histogram (3 tracepoint probes), debugfs latency_hist",
	},
	{
		.name = "scope", .write_str = sw_scope_write,
		.show_str = sw_scope_show, .accepted = "all|/PATH",
		.help = "policy only for tasks in this cgroup v2 directory and below",
	},
};

/* Serialises writers so an apply() callback sees a stable old value. */
static DEFINE_MUTEX(sw_knob_lock);
/*
 * Writes are refused until the load has finished: a knob that installs a
 * hook must not do so while a later step of the load can still fail.
 */
static bool sw_knobs_open;

/* Called last at load: from now on writes are applied. */
void sw_knobs_ready(void)
{
	mutex_lock(&sw_knob_lock);
	sw_knobs_open = true;
	mutex_unlock(&sw_knob_lock);
}

static int sw_parse_number(const char *s, size_t len, int *out)
{
	char tmp[SW_KNOB_MAX_LEN];
	size_t i;

	for (i = 0; i < len; i++)
		if (!isdigit(s[i]))
			return -EINVAL;
	/* canonical form only: "0" but not "00" or "01" */
	if (len > 1 && s[0] == '0')
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	/* kstrtoint reports overflow as -ERANGE; all bad input is -EINVAL. */
	return kstrtoint(tmp, 10, out) ? -EINVAL : 0;
}

/**
 * sw_knob_parse() - parse one write to a knob
 * @k:   the knob
 * @buf: the bytes written (not NUL-terminated)
 * @len: their number
 * @val: the new value on success
 * @num: the new number for a names+number knob that selected a number
 *
 * Return: 0 or -EINVAL; @val and @num are untouched on error.
 */
static int sw_knob_parse(const struct sw_knob *k, const char *buf, size_t len,
			 int *val, int *num)
{
	int i, n;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len >= SW_KNOB_MAX_LEN)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isgraph(buf[i]))
			return -EINVAL;

	for (i = 0; i < k->nr_names; i++) {
		if (strlen(k->names[i]) == len && !memcmp(k->names[i], buf, len)) {
			if (k->numeric && i == k->fixed_idx)
				continue;	/* that slot is spelled as a number */
			*val = i;
			return 0;
		}
	}
	if (!k->numeric || sw_parse_number(buf, len, &n))
		return -EINVAL;
	if (n < k->min || n > k->max)
		return -EINVAL;
	if (k->nr_names) {
		*val = k->fixed_idx;
		*num = n;
	} else {
		*val = n;
	}
	return 0;
}

/* A string knob: the byte rules of sw_knob_parse(), a longer limit. */
static int sw_knob_write_str(const struct sw_knob *k, const char *buf,
			     size_t len)
{
	size_t i;
	int ret;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len >= SW_KNOB_STR_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isgraph(buf[i]))
			return -EINVAL;
	mutex_lock(&sw_knob_lock);
	ret = sw_knobs_open ? k->write_str(buf, len) : -EAGAIN;
	mutex_unlock(&sw_knob_lock);
	return ret;
}

/**
 * sw_knob_write() - validate and apply a write to a knob
 * @k:   the knob
 * @buf: the bytes written
 * @len: their number
 *
 * Return: 0, or a negative errno with the knob unchanged (-EAGAIN while
 * the module is still loading).
 */
int sw_knob_write(const struct sw_knob *k, const char *buf, size_t len)
{
	int val, num = 0, ret;

	if (k->write_str)
		return sw_knob_write_str(k, buf, len);
	ret = sw_knob_parse(k, buf, len, &val, &num);
	if (ret)
		return ret;

	mutex_lock(&sw_knob_lock);
	if (!sw_knobs_open)
		ret = -EAGAIN;	/* the module is still loading */
	else if (k->apply)
		ret = k->apply(k, *k->val, val);
	if (!ret) {
		if (k->num && val == k->fixed_idx)
			WRITE_ONCE(*k->num, num);
		WRITE_ONCE(*k->val, val);
	}
	mutex_unlock(&sw_knob_lock);
	return ret;
}

/**
 * sw_knob_set() - set a knob from inside the module, as a write would
 * @val:   the knob's variable
 * @value: the value (a name's index or a number)
 *
 * Return: 0, -ENOENT for no such knob, -EAGAIN while loading, or the
 * apply callback's error (the knob then keeps its value).
 */
int sw_knob_set(int *val, int value)
{
	const struct sw_knob *k = NULL;
	int i, ret = 0;

	for (i = 0; i < ARRAY_SIZE(sw_knobs); i++)
		if (sw_knobs[i].val && sw_knobs[i].val == val)
			k = &sw_knobs[i];
	if (!k)
		return -ENOENT;
	mutex_lock(&sw_knob_lock);
	if (!sw_knobs_open)
		ret = -EAGAIN;
	else if (k->apply)
		ret = k->apply(k, *k->val, value);
	if (!ret)
		WRITE_ONCE(*k->val, value);
	mutex_unlock(&sw_knob_lock);
	return ret;
}

static void sw_knob_print(struct seq_file *m, const struct sw_knob *k)
{
	int v;

	if (k->show_str) {
		k->show_str(m);
		return;
	}
	v = READ_ONCE(*k->val);
	if (k->nr_names && k->num && v == k->fixed_idx)
		seq_printf(m, "%d", READ_ONCE(*k->num));
	else if (k->nr_names)
		seq_puts(m, k->names[v]);
	else
		seq_printf(m, "%d", v);
}

static int sw_knob_show(struct seq_file *m, void *unused)
{
	sw_knob_print(m, m->private);
	seq_putc(m, '\n');
	return 0;
}

static int sw_knob_open(struct inode *inode, struct file *file)
{
	return single_open(file, sw_knob_show, inode->i_private);
}

static ssize_t sw_knob_fwrite(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct sw_knob *k = file_inode(file)->i_private;
	size_t max = k->write_str ? SW_KNOB_STR_MAX : SW_KNOB_MAX_LEN;
	char buf[SW_KNOB_STR_MAX];
	int ret;

	/* Partial writes at an offset or overlong writes are never valid. */
	if (*ppos || !count || count >= max)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	ret = sw_knob_write(k, buf, count);
	if (ret)
		return ret;
	*ppos += count;
	return count;
}

static const struct file_operations sw_knob_fops = {
	.owner = THIS_MODULE,
	.open = sw_knob_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = sw_knob_fwrite,
};

/* "knobs": every knob with its value, accepted values and help. */
static int sw_knobs_list_show(struct seq_file *m, void *unused)
{
	int i, j;

	for (i = 0; i < ARRAY_SIZE(sw_knobs); i++) {
		const struct sw_knob *k = &sw_knobs[i];

		seq_printf(m, "%-16s ", k->name);
		sw_knob_print(m, k);
		seq_printf(m, "  [%s", k->accepted ?: "");
		for (j = 0; j < k->nr_names; j++) {
			if (k->numeric && j == k->fixed_idx)
				continue;
			seq_printf(m, "%s%s", j ? "|" : "", k->names[j]);
		}
		if (k->numeric)
			seq_printf(m, "%s%d..%d", k->nr_names ? "|" : "",
				   k->min, k->max);
		seq_printf(m, "]  %s\n", k->help);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_knobs_list);

/**
 * sw_knobs_init() - create one debugfs file per knob, plus "knobs"
 * @dir: the module's debugfs directory
 *
 * Return: 0. Failures to create single files are not checked (debugfs
 * convention); the directory itself is checked by debugfs.c.
 */
int sw_knobs_init(struct dentry *dir)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(sw_knobs); i++)
		debugfs_create_file(sw_knobs[i].name, 0644, dir,
				    (void *)&sw_knobs[i], &sw_knob_fops);
	debugfs_create_file("knobs", 0444, dir, NULL, &sw_knobs_list_fops);
	return 0;
}
