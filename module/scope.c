// SPDX-License-Identifier: GPL-2.0
/*
 * Knob scope: "all" (the default) or a cgroup v2 directory, named by its
 * path in the writer's file system (e.g. /sys/fs/cgroup/a/b). With a
 * cgroup selected, policy=smartwake and policy=shadow take only the
 * wakeups of tasks in it or below it; the select hook hands every other
 * wakeup to the kernel, counted as out_of_scope (path/select.c).
 *
 * More: Documentation/design.md, "The files in detail", scope.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/dcache.h>
#include <linux/magic.h>
#include <linux/namei.h>
#include <linux/overflow.h>
#include <linux/path.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "scope.h"

struct sw_scope __rcu *sw_scope;

/*
 * cgroup_put() is inline: its last put calls the css's percpu_ref
 * release function (css_release(), whose address the kernel takes)
 * through a pointer. That call is here alone (scripts/check.sh, step
 * shipped).
 */
static noinline void sw_scope_free(struct sw_scope *s)
{
	if (!s)
		return;
#ifdef CONFIG_CGROUPS
	cgroup_put(s->cgrp);
#endif
	kfree(s);
}

#ifdef CONFIG_CGROUPS
/* The cgroup v2 cgroup of directory @name, with a reference; or ERR_PTR. */
static struct cgroup *sw_scope_resolve(const char *name)
{
	struct cgroup *cgrp;
	struct path path;
	int ret;

	ret = kern_path(name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &path);
	if (ret)
		return ERR_PTR(ret == -ENOTDIR ? -EINVAL : ret);
	if (path.dentry->d_sb->s_magic != CGROUP2_SUPER_MAGIC)
		cgrp = ERR_PTR(-EINVAL);
	else
		cgrp = cgroup_get_from_id(d_inode(path.dentry)->i_ino);
	path_put(&path);
	return cgrp;
}
#endif

/**
 * sw_scope_write() - select a cgroup, or all tasks
 * @buf: "all" or an absolute path (not NUL-terminated; no newline)
 * @len: its length, > 0
 *
 * Called under the knob lock, which serialises writers.
 *
 * Return: 0; -EINVAL for a relative path or one that is not a cgroup v2
 * directory, -ENOENT for one that does not exist (or is outside the
 * writer's cgroup namespace), another error of the path lookup. On error
 * the knob keeps its value.
 */
int sw_scope_write(const char *buf, size_t len)
{
	struct sw_scope *new = NULL, *old;

	if (len != 3 || memcmp(buf, "all", 3)) {
		if (buf[0] != '/')
			return -EINVAL;
		if (!IS_ENABLED(CONFIG_CGROUPS))
			return -EOPNOTSUPP;
		new = kzalloc(struct_size(new, path, len + 1), GFP_KERNEL);
		if (!new)
			return -ENOMEM;
		memcpy(new->path, buf, len);
#ifdef CONFIG_CGROUPS
		new->cgrp = sw_scope_resolve(new->path);
		if (IS_ERR(new->cgrp)) {
			int ret = PTR_ERR(new->cgrp);

			kfree(new);
			return ret;
		}
#endif
	}
	/* writers hold the knob lock */
	old = rcu_replace_pointer(sw_scope, new, true);
	if (old) {
		/* no wakeup or probe still looks at it */
		synchronize_rcu();
		sw_scope_free(old);
	}
	return 0;
}

/* The knob's value: the path as written, or "all"; its length. */
int sw_scope_show(char *buf, size_t size)
{
	struct sw_scope *s;
	int n;

	rcu_read_lock();
	s = rcu_dereference(sw_scope);
	n = scnprintf(buf, size, "%s", s ? s->path : "all");
	rcu_read_unlock();
	return n;
}

/* Unload, after the hooks and probes are gone: drop the reference. */
void sw_scope_exit(void)
{
	struct sw_scope *s = rcu_replace_pointer(sw_scope, NULL, true);

	if (s) {
		synchronize_rcu();
		sw_scope_free(s);
	}
}
