// SPDX-License-Identifier: GPL-2.0
/*
 * The knob core: the strict parser's writes, one debugfs file and one
 * module parameter (/sys/module/smartwake/parameters/) per row of the
 * table knob_table.c registers, the lock and sw_knob_set(). It names no
 * concern: the table's rows carry each concern's variables and callbacks.
 *
 * More: Documentation/design.md, "The files in detail", knobs.c.
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
#include "debugfs_file.h"
#include "knob_parse.h"
#include "knobs.h"

/* Where the module parameters are, the knobs' interface under lockdown. */
#define SW_PARAMS_DIR	"/sys/module/" KBUILD_MODNAME "/parameters/"

/* the table (knob_table.c), registered first thing at load */
static const struct sw_knob_table *sw_table;

/**
 * sw_knobs_register() - the table the knobs' files and writes serve
 * @t: knob_table.c's table
 *
 * The first step of the load, before anything can write a knob.
 */
void sw_knobs_register(const struct sw_knob_table *t)
{
	sw_table = t;
}

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
		sw_table->changed();
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

/* The row of the knob called @name, or NULL. */
static const struct sw_knob *sw_knob_find(const char *name)
{
	int i;

	if (!sw_table)
		return NULL;
	for (i = 0; i < sw_table->nr; i++)
		if (!strcmp(sw_table->knobs[i].name, name))
			return &sw_table->knobs[i];
	return NULL;
}

/**
 * sw_knob_set() - set a knob from inside the module, as a write would
 * @name:  the knob's name
 * @value: the value (a name's index or a number)
 *
 * Return: 0, -ENOENT for no such knob, -EAGAIN while loading, or the
 * apply callback's error (the knob then keeps its value).
 */
int sw_knob_set(const char *name, int value)
{
	const struct sw_knob *k = sw_knob_find(name);
	int ret = 0;

	if (!k || !k->val)
		return -ENOENT;
	mutex_lock(&sw_knob_lock);
	if (sw_knobs_state != SW_KNOBS_OPEN)
		ret = -EAGAIN;
	else if (k->apply)
		ret = k->apply(k, *k->val, value);
	if (!ret) {
		WRITE_ONCE(*k->val, value);
		sw_table->changed();
	}
	mutex_unlock(&sw_knob_lock);
	return ret;
}

/**
 * sw_knob_store() - store a knob's value at once, from any context
 * @name:  the knob's name
 * @value: the value
 *
 * No lock, no apply callback: for the watchdog's first step, from the
 * wakeup path, before sw_knob_set() applies the same value.
 */
void sw_knob_store(const char *name, int value)
{
	const struct sw_knob *k = sw_knob_find(name);

	if (k && k->val)
		WRITE_ONCE(*k->val, value);
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

/* sw_knob_params[i] (knob_table.c) is the parameter of the table's row i. */
static const struct sw_knob *sw_param_knob(const struct kernel_param *kp)
{
	const struct sw_knob_table *t = kp->arg;

	return &t->knobs[kp - t->params];
}

/*
 * Keep a load-time value for sw_knobs_ready(); under the knob lock. The
 * table is the parameter's: a load's parameters come before the init.
 */
static void sw_knob_keep(const struct kernel_param *kp, const char *arg,
			 size_t len, int val, int num)
{
	const struct sw_knob_table *t = kp->arg;
	const struct sw_knob *k = sw_param_knob(kp);
	struct sw_knob_pending *p = &t->pending[k - t->knobs];

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
			sw_knob_keep(kp, arg, len, val, num);
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

const struct kernel_param_ops sw_knob_param_ops = {
	.set = sw_knob_param_set,
	.get = sw_knob_param_get,
};

/* "reset": write anything to zero the counters, as debugfs's reset. */
static int sw_reset_param_set(const char *arg, const struct kernel_param *kp)
{
	int ret = 0;

	mutex_lock(&sw_knob_lock);
	if (sw_knobs_state == SW_KNOBS_OPEN)
		sw_table->reset();
	else if (sw_knobs_state == SW_KNOBS_CLOSED)
		ret = -ENODEV;
	/* at load the counters are zero already */
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
		const struct sw_knob *k;
		struct sw_knob_pending *p;

		for (i = 0; i < sw_table->nr; i++)
			if (sw_table->pending[i].seq == seq)
				break;
		if (i == sw_table->nr)
			continue;	/* given again later */
		k = &sw_table->knobs[i];
		p = &sw_table->pending[i];
		if (k->write_str) {
			ret = k->write_str(p->str, p->len);
			scnprintf(v, sizeof(v), "%.*s", (int)p->len, p->str);
		} else {
			ret = sw_knob_commit(k, p->val, p->num);
			sw_knob_format_val(k, p->val, p->num, v, sizeof(v));
		}
		if (ret)
			pr_err("parameter %s=%s cannot be applied: %pe; not loaded\n",
			       k->name, v, ERR_PTR(ret));
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

	for (i = 0; i < sw_table->nr; i++) {
		const struct sw_knob *k = &sw_table->knobs[i];

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
 * Return: 0. A file that cannot be created fails the load
 * (sw_debugfs_file(), checked by sw_debugfs_init()).
 */
int sw_knobs_init(struct dentry *dir)
{
	int i;

	for (i = 0; i < sw_table->nr; i++)
		sw_debugfs_file(sw_table->knobs[i].name, 0644, dir,
				(void *)&sw_table->knobs[i], &sw_knob_fops);
	sw_debugfs_file("knobs", 0444, dir, NULL, &sw_knobs_list_fops);
	return 0;
}
