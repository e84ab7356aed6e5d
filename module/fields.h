/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: every field of a scheduler structure that the module reads,
 * one line each (no include guard: it is included with different
 * definitions of SW_SCHED_FIELD()). sched_fields.h makes the accessors
 * module code reads them with, layout.c the table of its load-time
 * layout check; scripts/check-fields.sh (make check) fails when the
 * module reads a field missing here or a field here is read nowhere.
 * Nested members are listed level by level (rq.cfs, cfs_rq.avg,
 * sched_avg.load_avg), anonymous unions by the member's name.
 *
 * The structures are those of the scheduler's private sched.h,
 * <linux/sched/topology.h> and <linux/sched.h>. layout.c's
 * test_layout_skew indices (guest/compat.sh) count from the top: 1 is
 * rq.nr_running, 4 rq.curr.
 */
/* sched_access.h: sw_idle_cpu(), sw_rq_overloaded(); path/wake.c */
SW_SCHED_FIELD(rq, nr_running)
SW_SCHED_FIELD(rq, ttwu_pending)
SW_SCHED_FIELD(rq, cfs)
SW_SCHED_FIELD(rq, curr)			/* in an anonymous union */
SW_SCHED_FIELD(rq, idle)
SW_SCHED_FIELD(rq, sd)
SW_SCHED_FIELD(rq, cpu_capacity)
/* cpu_of(): overload.c; layout.c: the per-CPU symbol check */
SW_SCHED_FIELD(rq, cpu)
/* path/select.c: is_rd_overutilized() */
SW_SCHED_FIELD(rq, rd)
SW_SCHED_FIELD(root_domain, overutilized)
/*
 * path/wake.c: wake_affine_idle(), wake_affine_weight(), task_h_load();
 * path/sis.c
 */
#ifdef SW_HAVE_CFS_H_NR_QUEUED	/* compat.h */
SW_SCHED_FIELD(cfs_rq, h_nr_queued)
SW_SCHED_FIELD(cfs_rq, h_nr_runnable)
#else
SW_SCHED_FIELD(cfs_rq, h_nr_running)
#endif
#ifdef SW_HAVE_CFS_H_NR_IDLE
SW_SCHED_FIELD(cfs_rq, h_nr_idle)
#else
SW_SCHED_FIELD(cfs_rq, idle_h_nr_running)
#endif
SW_SCHED_FIELD(cfs_rq, avg)
SW_SCHED_FIELD(cfs_rq, h_load)
SW_SCHED_FIELD(cfs_rq, last_h_load_update)
/* path/wake.c: the domain walk; path/sis.c: select_idle_cpu() */
SW_SCHED_FIELD(sched_domain, parent)
SW_SCHED_FIELD(sched_domain, groups)
SW_SCHED_FIELD(sched_domain, imbalance_pct)
SW_SCHED_FIELD(sched_domain, flags)
SW_SCHED_FIELD(sched_domain, span_weight)
#ifdef SW_HAVE_SD_SPAN
SW_SCHED_FIELD(sched_domain, span)		/* sched_domain_span() */
#endif
SW_SCHED_FIELD(sched_group, flags)
SW_SCHED_FIELD(sched_group, cpumask)		/* sched_group_span() */
SW_SCHED_FIELD(sched_domain_shared, has_idle_cores)
SW_SCHED_FIELD(sched_domain_shared, nr_idle_scan)
/* path/wake.c: task_h_load() */
SW_SCHED_FIELD(sched_avg, load_avg)
SW_SCHED_FIELD(sched_entity, avg)
#ifdef CONFIG_FAIR_GROUP_SCHED
SW_SCHED_FIELD(sched_entity, cfs_rq)
SW_SCHED_FIELD(sched_entity, parent)
#endif
/*
 * path/wake.c: record_wakee(), wake_wide(); path/select.c: the checks of
 * an answer; path/sis.c
 */
SW_SCHED_FIELD(task_struct, flags)
SW_SCHED_FIELD(task_struct, pid)
SW_SCHED_FIELD(task_struct, se)
SW_SCHED_FIELD(task_struct, cpus_ptr)
SW_SCHED_FIELD(task_struct, pi_lock)		/* lockdep_assert_held() */
SW_SCHED_FIELD(task_struct, wakee_flips)
SW_SCHED_FIELD(task_struct, wakee_flip_decay_ts)
SW_SCHED_FIELD(task_struct, last_wakee)
SW_SCHED_FIELD(task_struct, recent_used_cpu)
/* path/sis.c: is_per_cpu_kthread() */
SW_SCHED_FIELD(task_struct, nr_cpus_allowed)
/* ftrace_test_recursion_unlock(): hooks.c, numa.c, overload.c */
SW_SCHED_FIELD(task_struct, trace_recursion)
/* numa.c */
SW_SCHED_FIELD(task_struct, numa_scan_period)
SW_SCHED_FIELD(task_struct, numa_preferred_nid)
/* numa.c: the backoff table's key, with the task's address */
SW_SCHED_FIELD(task_struct, start_time)
/*
 * latency.c: fair-class wakees by policy (SCHED_NORMAL/BATCH/IDLE), and
 * no pending wakeup recorded for a task woken while still on a CPU
 */
SW_SCHED_FIELD(task_struct, policy)
SW_SCHED_FIELD(task_struct, on_cpu)
/*
 * reach.c: the sched_waking probe's test for a wakeup that must reach
 * select_task_rq_fair() (also on_cpu, nr_cpus_allowed above)
 */
SW_SCHED_FIELD(task_struct, sched_class)
SW_SCHED_FIELD(task_struct, on_rq)
SW_SCHED_FIELD(task_struct, migration_disabled)
/* scope.h: task_dfl_cgroup() of a wakee or of the task switched in */
SW_SCHED_FIELD(task_struct, cgroups)
/*
 * pull.c: the overloaded CPU's fair tasks (also policy, on_cpu,
 * migration_disabled, cpus_ptr, se above)
 */
SW_SCHED_FIELD(rq, cfs_tasks)
SW_SCHED_FIELD(sched_entity, group_node)
/* pull.c: its reference on the task (get/put_task_struct()), task_cpu() */
SW_SCHED_FIELD(task_struct, usage)
SW_SCHED_FIELD(task_struct, rcu)
SW_SCHED_FIELD(task_struct, thread_info)
#ifdef SW_HAVE_CFS_H_NR_QUEUED
SW_SCHED_FIELD(sched_entity, sched_delayed)
#endif
#ifdef CONFIG_FAIR_GROUP_SCHED
SW_SCHED_FIELD(cfs_rq, idle)
#endif
/*
 * latency.c: the wakee's runqueue clock, which the kernel has just
 * updated where sched_wakeup(_new) fires (under that rq's lock)
 */
SW_SCHED_FIELD(rq, clock)
