/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: every field of the scheduler's structures that the module
 * reads, in one list, and the only way module code reads them.
 *
 * The module is compiled against the layouts of the kernel/sched/sched.h
 * and <linux/sched.h> it was built with (and their CONFIG_ options);
 * compat.c compares each listed field's offset with the running kernel's
 * BTF at load. The same list generates, for each (struct, member):
 *  - sw_field_STRUCT__MEMBER(), an accessor returning the member's
 *    address, typed after the member; read or write it through
 *    sw_field(STRUCT, ptr, MEMBER) or the short forms below, e.g.
 *    READ_ONCE(sw_rq(rq, nr_running)). A member that is not listed has
 *    no accessor: using one is an implicit declaration, a build error
 *    naming the field;
 *  - compat.c's table of the load-time layout check.
 * Nested members are listed and read level by level: rq.cfs, then
 * cfs_rq.avg, then sched_avg.load_avg.
 *
 * Reads inside the kernel's own inline helpers (cpu_of(),
 * is_per_cpu_kthread(), sched_domain_span(), sched_group_span(),
 * ftrace_test_recursion_unlock()) are listed too. scripts/check-fields.sh
 * (make check, step shipped) compiles every module file with kbuild's
 * command and checks from GCC's dump of the function bodies that the
 * fields the module reads, its own code and the kernel helpers it calls,
 * are exactly this list, and that the module's functions read them only
 * through the accessors.
 *
 * SW_FIELDS_PUBLIC: structures of <linux/sched.h>, usable in any file.
 * SW_FIELDS_PRIVATE: structures of the scheduler's private sched.h (and
 * of <linux/sched/topology.h>); their accessors exist only in files
 * that included that header first. compat.c checks both, private first
 * (the guest test's test_layout_skew indices: 1 rq.nr_running, 4 rq.curr).
 */
#ifndef _SMARTWAKE_SCHED_FIELDS_H
#define _SMARTWAKE_SCHED_FIELDS_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/stddef.h>

/* wake.c: sw_task_h_load() walks the task group hierarchy */
#ifdef CONFIG_FAIR_GROUP_SCHED
#define SW_FIELDS_FAIR_GROUP(X)						\
	X(sched_entity, cfs_rq)						\
	X(sched_entity, parent)
#else
#define SW_FIELDS_FAIR_GROUP(X)
#endif

#define SW_FIELDS_PRIVATE(X)						\
	/* sched_access.h: sw_idle_cpu(), sw_rq_overloaded(); wake.c */	\
	X(rq, nr_running)						\
	X(rq, ttwu_pending)						\
	X(rq, cfs)							\
	X(rq, curr)		/* in an anonymous union */		\
	X(rq, idle)							\
	X(rq, sd)							\
	X(rq, cpu_capacity)						\
	/* cpu_of(): overload.c; compat.c: the per-CPU check */	\
	X(rq, cpu)							\
	/* wake.c: is_rd_overutilized() */				\
	X(rq, rd)							\
	X(root_domain, overutilized)					\
	/* wake.c: wake_affine_weight(), task_h_load(); sis.c */	\
	X(cfs_rq, h_nr_queued)						\
	X(cfs_rq, h_nr_runnable)					\
	X(cfs_rq, idle_h_nr_running)					\
	X(cfs_rq, avg)							\
	X(cfs_rq, h_load)						\
	X(cfs_rq, last_h_load_update)					\
	/* wake.c: the domain walk; sis.c: select_idle_cpu() */	\
	X(sched_domain, parent)						\
	X(sched_domain, groups)						\
	X(sched_domain, imbalance_pct)					\
	X(sched_domain, flags)						\
	X(sched_domain, span_weight)					\
	X(sched_domain, span)	/* sched_domain_span() */		\
	X(sched_group, flags)						\
	X(sched_group, cpumask)	/* sched_group_span() */		\
	X(sched_domain_shared, has_idle_cores)				\
	X(sched_domain_shared, nr_idle_scan)

#define SW_FIELDS_PUBLIC(X)						\
	/* wake.c: task_h_load() */					\
	X(sched_avg, load_avg)						\
	X(sched_entity, avg)						\
	SW_FIELDS_FAIR_GROUP(X)						\
	/* wake.c: record_wakee(), wake_wide(); sis.c; numa.c */	\
	X(task_struct, flags)						\
	X(task_struct, pid)						\
	X(task_struct, se)						\
	X(task_struct, cpus_ptr)					\
	X(task_struct, pi_lock)						\
	X(task_struct, mm)						\
	X(task_struct, wakee_flips)					\
	X(task_struct, wakee_flip_decay_ts)				\
	X(task_struct, last_wakee)					\
	X(task_struct, recent_used_cpu)					\
	/* sis.c: is_per_cpu_kthread() */				\
	X(task_struct, nr_cpus_allowed)					\
	/* ftrace_test_recursion_unlock(): hooks.c, numa.c, overload.c */ \
	X(task_struct, trace_recursion)					\
	/* numa.c; wake.c: the saved NUMA backoff */			\
	X(task_struct, numa_scan_period)				\
	X(task_struct, numa_migrate_retry)				\
	X(task_struct, numa_preferred_nid)				\
	X(task_struct, numa_faults)

/* The accessor of one listed member (const in, like container_of()). */
#define SW_FIELD_ACCESSOR(s, m)						\
static __always_inline typeof(&((struct s *)NULL)->m)			\
sw_field_##s##__##m(const struct s *p)					\
{									\
	return (typeof(&((struct s *)NULL)->m))&p->m;			\
}

SW_FIELDS_PUBLIC(SW_FIELD_ACCESSOR)
#ifdef _KERNEL_SCHED_SCHED_H
SW_FIELDS_PRIVATE(SW_FIELD_ACCESSOR)
#endif

/* The member @m of the struct @s that @p points to, as an lvalue. */
#define sw_field(s, p, m)	(*sw_field_##s##__##m(p))

#define sw_rq(p, m)		sw_field(rq, p, m)
#define sw_cfs_rq(p, m)		sw_field(cfs_rq, p, m)
#define sw_rd(p, m)		sw_field(root_domain, p, m)
#define sw_sd(p, m)		sw_field(sched_domain, p, m)
#define sw_sds(p, m)		sw_field(sched_domain_shared, p, m)
#define sw_sg(p, m)		sw_field(sched_group, p, m)
#define sw_se(p, m)		sw_field(sched_entity, p, m)
#define sw_sa(p, m)		sw_field(sched_avg, p, m)
#define sw_task(p, m)		sw_field(task_struct, p, m)

#endif /* _SMARTWAKE_SCHED_FIELDS_H */
