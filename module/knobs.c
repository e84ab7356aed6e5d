// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time knobs: one table (knob_table.h), one debugfs file and one module
 * parameter (/sys/module/smartwake/parameters/) per row, one strict parser.
 *
 * A write is accepted only if it is exactly a name from the row's list or a
 * decimal number in the row's range without leading zeros, optionally
 * followed by one newline (as echo writes it). Anything else (empty,
 * whitespace, signs, hex, leading zeros, trailing garbage, NUL bytes,
 * writes at an offset, overlong writes) returns -EINVAL and leaves the
 * value unchanged. A string knob (scope) takes any printable non-blank
 * bytes, up to 255, and its own function judges them.
 *
 * debugfs knob files are 0644 with a write op, so under lockdown=integrity
 * (LOCKDOWN_DEBUGFS) debugfs refuses to open them, even for reading; the
 * module parameters are the same knobs through sysfs, which lockdown does
 * not restrict. The read-only files (knobs and the others of debugfs.c,
 * latency.c) are 0444 or 0400 with no write, ioctl or mmap op, and stay
 * readable.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "knob_parse.h"
#include "knobs.h"
#include "latency.h"
#include "numa.h"
#include "overload.h"
#include "pull.h"
#include "scope.h"
#include "sib.h"
#include "stats.h"
#include "ttwu.h"
#include "watchdog.h"
#include "path.h"

/* Where the module parameters are, the knobs' interface under lockdown. */
#define SW_PARAMS_DIR	"/sys/module/" KBUILD_MODNAME "/parameters/"

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

#define SW_KNOB(_name, _help, ...)	{ .name = _name, .help = _help, __VA_ARGS__ },
static const struct sw_knob sw_knobs[] = {
#include "knob_table.h"
};

#undef SW_KNOB

/* Serialises writers so an apply() callback sees a stable old value. */
static DEFINE_MUTEX(sw_knob_lock);

/*
 * Writes are applied only while the knobs are open: from the end of the
 * load (sw_knobs_ready()) to the start of the unload or of a failed
 * load's undoing (sw_knobs_close()). A knob that installs a hook must not
 * do so while a later step of the load can still fail, nor after the
 * hooks have been removed.
 */
enum sw_knobs_state {
	SW_KNOBS_LOADING,	/* debugfs: -EAGAIN; parameters: kept for later */
	SW_KNOBS_OPEN,
	SW_KNOBS_CLOSED,	/* -EAGAIN; parameters -ENODEV */
};

static enum sw_knobs_state sw_knobs_state;

/*
 * A module parameter given at load (insmod, modprobe, /etc/modprobe.d)
 * arrives before the module's init runs: it is parsed at once, by the
 * same rules as a write, and kept here until sw_knobs_ready() applies
 * it. @seq orders them as given (0: none; a repeated one counts where it
 * was given last).
 */
struct sw_knob_pending {
	unsigned int seq;
	int val, num;
	size_t len;
	char str[SW_KNOB_STR_MAX];	/* a string knob's bytes */
};

static struct sw_knob_pending sw_pending[ARRAY_SIZE(sw_knobs)];
static unsigned int sw_pending_seq;

/* Apply a parsed value: the apply callback, then the variables. */
static int sw_knob_commit(const struct sw_knob *k, int val, int num)
{
	int ret = 0;

	lockdep_assert_held(&sw_knob_lock);
	if (k->apply)
		ret = k->apply(k, *k->val, val);
	if (!ret) {
		if (k->num && val == k->fixed_idx)
			WRITE_ONCE(*k->num, num);
		WRITE_ONCE(*k->val, val);
		sw_lean_update();
	}
	return ret;
}

/**
 * sw_knob_write() - validate and apply a write to a knob
 * @k:   the knob
 * @buf: the bytes written
 * @len: their number
 *
 * Return: 0, or a negative errno with the knob unchanged (-EAGAIN while
 * the module is still loading or already unloading).
 */
int sw_knob_write(const struct sw_knob *k, const char *buf, size_t len)
{
	int val, num = 0, ret;

	if (k->write_str)
		ret = sw_knob_check_str(buf, &len);
	else
		ret = sw_knob_parse(k, buf, len, &val, &num);
	if (ret)
		return ret;

	mutex_lock(&sw_knob_lock);
	if (sw_knobs_state != SW_KNOBS_OPEN)
		ret = -EAGAIN;
	else if (k->write_str)
		ret = k->write_str(buf, len);
	else
		ret = sw_knob_commit(k, val, num);
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
	if (sw_knobs_state != SW_KNOBS_OPEN)
		ret = -EAGAIN;
	else if (k->apply)
		ret = k->apply(k, *k->val, value);
	if (!ret) {
		WRITE_ONCE(*k->val, value);
		sw_lean_update();
	}
	mutex_unlock(&sw_knob_lock);
	return ret;
}

/* The text of value @v (and number @num) of @k, as a read shows it. */
static int sw_knob_format_val(const struct sw_knob *k, int v, int num,
			      char *buf, size_t size)
{
	if (k->nr_names && k->num && v == k->fixed_idx)
		return scnprintf(buf, size, "%d", num);
	if (k->nr_names)
		return scnprintf(buf, size, "%s", k->names[v]);
	return scnprintf(buf, size, "%d", v);
}

/* The knob's current value as text, no newline; its length. */
static int sw_knob_format(const struct sw_knob *k, char *buf, size_t size)
{
	if (k->show_str)
		return k->show_str(buf, size);
	return sw_knob_format_val(k, READ_ONCE(*k->val),
				  k->num ? READ_ONCE(*k->num) : 0, buf, size);
}

/* The knob's accepted values, as the "knobs" listing gives them. */
static int sw_knob_accepted(const struct sw_knob *k, char *buf, size_t size)
{
	int j, n;

	n = scnprintf(buf, size, "%s", k->accepted ?: "");
	for (j = 0; j < k->nr_names; j++) {
		if (k->numeric && j == k->fixed_idx)
			continue;
		n += scnprintf(buf + n, size - n, "%s%s", j ? "|" : "",
			       k->names[j]);
	}
	if (k->numeric)
		n += scnprintf(buf + n, size - n, "%s%d..%d",
			       k->nr_names ? "|" : "", k->min, k->max);
	return n;
}

/* ---- module parameters: /sys/module/smartwake/parameters/<knob> ---------
 * One parameter per row of the table, in the table's order, whose set and
 * get are the knob's write and read: the same parser, the same apply
 * callbacks, the same lock. sysfs module parameters stay writable under
 * lockdown=integrity, where debugfs refuses every file with a write bit.
 */

static const struct kernel_param_ops sw_knob_param_ops;

/*
 * What module_param_cb() makes, one per row: a struct kernel_param in the
 * module's __param section (the loader parses the load's arguments with
 * them and sysfs lists them), and its modinfo description.
 */
#define SW_KNOB(_name, ...)						\
	{ .name = MODULE_PARAM_PREFIX _name, .mod = THIS_MODULE, .ops = &sw_knob_param_ops,	\
	  .perm = 0644, .level = -1 },
static const struct kernel_param sw_knob_params[] __used __section("__param")
	__aligned(__alignof__(struct kernel_param)) = {
#include "knob_table.h"
};

#undef SW_KNOB
#define SW_KNOB(_name, _help, ...)	__MODULE_INFO_PREFIX "parm=" _name ":" _help "\0"
static const char sw_knob_param_info[] __used __section(".modinfo")
	__aligned(1) =
#include "knob_table.h"
	;
#undef SW_KNOB

static_assert(ARRAY_SIZE(sw_knob_params) == ARRAY_SIZE(sw_knobs));

/* sw_knob_params[i] is the parameter of sw_knobs[i]. */
static const struct sw_knob *sw_param_knob(const struct kernel_param *kp)
{
	return &sw_knobs[kp - sw_knob_params];
}

/* Keep a load-time value for sw_knobs_ready(); under the knob lock. */
static void sw_knob_keep(const struct sw_knob *k, const char *arg, size_t len,
			 int val, int num)
{
	struct sw_knob_pending *p = &sw_pending[k - sw_knobs];

	lockdep_assert_held(&sw_knob_lock);
	p->seq = ++sw_pending_seq;
	p->val = val;
	p->num = num;
	p->len = len;
	if (k->write_str)
		memcpy(p->str, arg, len);
}

static int sw_knob_param_set(const char *arg, const struct kernel_param *kp)
{
	const struct sw_knob *k = sw_param_knob(kp);
	size_t len = arg ? strlen(arg) : 0;
	int val = 0, num = 0, ret;
	char acc[128];

	if (!arg)
		ret = -EINVAL;
	else if (k->write_str)
		ret = sw_knob_check_str(arg, &len);
	else
		ret = sw_knob_parse(k, arg, len, &val, &num);

	mutex_lock(&sw_knob_lock);
	switch (sw_knobs_state) {
	case SW_KNOBS_OPEN:
		if (!ret)
			ret = k->write_str ? k->write_str(arg, len) :
					     sw_knob_commit(k, val, num);
		break;
	case SW_KNOBS_LOADING:
		if (!ret) {
			sw_knob_keep(k, arg, len, val, num);
			break;
		}
		/* at load the kernel names the parameter; say what it takes */
		sw_knob_accepted(k, acc, sizeof(acc));
		pr_err("parameter %s: '%s' is not accepted (accepted: %s); not loaded\n",
		       k->name, arg, acc);
		break;
	default:
		ret = -ENODEV;	/* unloading */
	}
	mutex_unlock(&sw_knob_lock);
	return ret;
}

static int sw_knob_param_get(char *buf, const struct kernel_param *kp)
{
	int n = sw_knob_format(sw_param_knob(kp), buf, PAGE_SIZE - 1);

	buf[n++] = '\n';
	return n;
}

static const struct kernel_param_ops sw_knob_param_ops = {
	.set = sw_knob_param_set,
	.get = sw_knob_param_get,
};

/* "reset": write anything to zero the counters, as debugfs's reset. */
static int sw_reset_param_set(const char *arg, const struct kernel_param *kp)
{
	int ret = 0;

	mutex_lock(&sw_knob_lock);
	if (sw_knobs_state == SW_KNOBS_OPEN) {
		sw_counters_reset();
		sw_latency_reset();
	} else if (sw_knobs_state == SW_KNOBS_CLOSED) {
		ret = -ENODEV;
	}	/* at load the counters are zero already */
	mutex_unlock(&sw_knob_lock);
	return ret;
}

static const struct kernel_param_ops sw_reset_param_ops = {
	.set = sw_reset_param_set,
};

module_param_cb(reset, &sw_reset_param_ops, NULL, 0200);
MODULE_PARM_DESC(reset, "write anything: zero the counters and the latency histograms");

/**
 * sw_knobs_ready() - open the knobs: the last step of the load
 *
 * Applies the module parameters given at load, in the order given,
 * through the knobs' apply callbacks (hooks are installed here, once
 * every other step of the load has succeeded), then accepts writes. All
 * under the knob lock, so no write comes between.
 *
 * Return: 0, or the error of the first value that could not be applied
 * (logged, naming the knob); the knobs are then closed and the caller
 * undoes the load, hooks included.
 */
int sw_knobs_ready(void)
{
	char v[SW_KNOB_STR_MAX];
	unsigned int seq;
	int i, ret = 0;

	mutex_lock(&sw_knob_lock);
	for (seq = 1; seq <= sw_pending_seq && !ret; seq++) {
		for (i = 0; i < ARRAY_SIZE(sw_knobs); i++)
			if (sw_pending[i].seq == seq)
				break;
		if (i == ARRAY_SIZE(sw_knobs))
			continue;	/* given again later */
		if (sw_knobs[i].write_str) {
			ret = sw_knobs[i].write_str(sw_pending[i].str,
						    sw_pending[i].len);
			scnprintf(v, sizeof(v), "%.*s", (int)sw_pending[i].len,
				  sw_pending[i].str);
		} else {
			ret = sw_knob_commit(&sw_knobs[i], sw_pending[i].val,
					     sw_pending[i].num);
			sw_knob_format_val(&sw_knobs[i], sw_pending[i].val,
					   sw_pending[i].num, v, sizeof(v));
		}
		if (ret)
			pr_err("parameter %s=%s cannot be applied: %pe; not loaded\n",
			       sw_knobs[i].name, v, ERR_PTR(ret));
	}
	sw_knobs_state = ret ? SW_KNOBS_CLOSED : SW_KNOBS_OPEN;
	mutex_unlock(&sw_knob_lock);
	return ret;
}

/**
 * sw_knobs_close() - refuse knob writes from now on
 *
 * For the unload and a failed load, before the hooks are removed: a
 * write through /sys/module (which stays until the module is freed) or
 * debugfs no longer installs anything. Waits for a write in progress.
 */
void sw_knobs_close(void)
{
	mutex_lock(&sw_knob_lock);
	sw_knobs_state = SW_KNOBS_CLOSED;
	mutex_unlock(&sw_knob_lock);
}

static int sw_knob_show(struct seq_file *m, void *unused)
{
	char v[SW_KNOB_STR_MAX];

	sw_knob_format(m->private, v, sizeof(v));
	seq_printf(m, "%s\n", v);
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

/*
 * "knobs": every knob with its value, accepted values and help, then
 * where they are written. Read-only (0444, no write op), so it stays
 * readable under lockdown.
 */
static int sw_knobs_list_show(struct seq_file *m, void *unused)
{
	char v[SW_KNOB_STR_MAX], acc[128];
	int i;

	for (i = 0; i < ARRAY_SIZE(sw_knobs); i++) {
		const struct sw_knob *k = &sw_knobs[i];

		sw_knob_format(k, v, sizeof(v));
		sw_knob_accepted(k, acc, sizeof(acc));
		seq_printf(m, "%-16s %s  [%s]  %s\n", k->name, v, acc, k->help);
	}
	/* a comment line: the CLI and the tests skip lines starting with # */
	seq_puts(m, "# write: " SW_PARAMS_DIR "NAME (also under lockdown), or /sys/kernel/debug/"
		 KBUILD_MODNAME "/NAME; at load: NAME=VALUE\n");
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
