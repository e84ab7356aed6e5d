/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: knob scope, the cgroup v2 subtree the policy applies to (scope.c).
 */
#ifndef _SMARTWAKE_SCOPE_H
#define _SMARTWAKE_SCOPE_H

#include <linux/cgroup.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

/* The selected cgroup: referenced, freed after a grace period. */
struct sw_scope {
	struct cgroup *cgrp;
	char path[];		/* as written */
};

/* NULL: scope=all */
extern struct sw_scope __rcu *sw_scope;

/**
 * sw_scope_has() - is @p inside the selected cgroup (or is scope all)
 * @p: a task
 *
 * For the wakeup path and the sched_switch probe, which run with
 * preemption (there: interrupts) disabled: an RCU-sched read section,
 * no lock, no call. With scope=all it is one load.
 *
 * Return: true when @p's cgroup v2 cgroup is the selected one or below
 * it, or when no cgroup is selected.
 */
static __always_inline bool sw_scope_has(struct task_struct *p)
{
#ifdef CONFIG_CGROUPS
	struct sw_scope *s;

	if (likely(!rcu_access_pointer(sw_scope)))
		return true;
	s = rcu_dereference_sched(sw_scope);
	/* task_dfl_cgroup(): RCU-sched protects the css_set too */
	return !s || cgroup_is_descendant(task_dfl_cgroup(p), s->cgrp);
#else
	return true;
#endif
}

/* Is a cgroup selected (scope != all)? A hint: no lock. */
static inline bool sw_scope_set(void)
{
	return rcu_access_pointer(sw_scope);
}

int sw_scope_write(const char *buf, size_t len);
int sw_scope_show(char *buf, size_t size);
void sw_scope_exit(void);

#endif /* _SMARTWAKE_SCOPE_H */
