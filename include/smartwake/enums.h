/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: one list per enumeration. Each list takes two macros, EM for
 * every entry and EMe for the last, as include/trace/events/migrate.h
 * does; the C enum, the name table (knob values, debugfs) and the trace
 * output (TRACE_DEFINE_ENUM, __print_symbolic) are all generated from it,
 * so a value and its name cannot get out of step.
 */
#ifndef _SMARTWAKE_ENUMS_H
#define _SMARTWAKE_ENUMS_H

/* Generators: an enum's members, and a name table indexed by them. */
#define SW_ENUM_ID(id, name)		id,
#define SW_ENUM_NAME(id, name)		[id] = name,

/* decay knob: wakee-flip decay (policy core) */
#define SW_DECAY_MODES(EM, EMe)				\
	EM(SW_DECAY_NONE, "none")			\
	EM(SW_DECAY_WIPE, "wipe")			\
	EM(SW_DECAY_HALVE, "halve")			\
	EMe(SW_DECAY_EXACT, "exact")

/* wake_wide knob: which wake_wide() test (policy core) */
#define SW_WIDE_MODES(EM, EMe)				\
	EM(SW_WIDE_OFF, "off")				\
	EM(SW_WIDE_V2013, "v2013")			\
	EMe(SW_WIDE_MAINLINE, "mainline")

/* a wake_wide() verdict (policy core, trace event) */
#define SW_WIDE_RESULTS(EM, EMe)			\
	EM(SW_WIDE_NO, "no")				\
	EM(SW_WIDE_WAKER_MASTER, "waker-master")	\
	EMe(SW_WIDE_WAKEE_MASTER, "wakee-master")

/* factor knob: the wake_wide() factor's source (policy core) */
#define SW_FACTOR_SRCS(EM, EMe)				\
	EM(SW_FACTOR_LLC, "llc")			\
	EM(SW_FACTOR_NODE, "node")			\
	EM(SW_FACTOR_ONLINE, "online")			\
	EMe(SW_FACTOR_FIXED, "fixed")

/* numa_retry knob (policy core) */
#define SW_NUMA_MODES(EM, EMe)				\
	EM(SW_NUMA_OFF, "off")				\
	EM(SW_NUMA_AS_MERGED, "as-merged")		\
	EMe(SW_NUMA_CORRECTED, "corrected")

/* policy knob (path/select.c) */
#define SW_POLICIES(EM, EMe)				\
	EM(SW_POLICY_STOCK, "stock")			\
	EM(SW_POLICY_SMARTWAKE, "smartwake")		\
	EM(SW_POLICY_SHADOW, "shadow")			\
	EMe(SW_POLICY_BPF, "bpf")

/* sis_mask_update knob (overload.c) */
#define SW_MASK_UPDATES(EM, EMe)			\
	EM(SW_MASK_ENQUEUE, "enqueue")			\
	EMe(SW_MASK_TICK, "tick")

/* revert_on knob (watchdog.c) */
#define SW_REVERT_MODES(EM, EMe)			\
	EM(SW_REVERT_NEVER, "never")			\
	EMe(SW_REVERT_VIOLATION, "violation")

/* select_hook knob (path/select.c): how select_task_rq_fair is hooked */
#define SW_SELECT_HOOKS(EM, EMe)			\
	EM(SW_SELECT_HOOK_DIRECT, "direct")		\
	EMe(SW_SELECT_HOOK_FTRACE, "ftrace")

/* ttwu_queue knob (ttwu.c) */
#define SW_TTWU_MODES(EM, EMe)				\
	EM(SW_TTWU_STOCK, "stock")			\
	EMe(SW_TTWU_LOCK, "lock")

/* how select_idle_sibling() found its answer (path/sis.c, trace event) */
#define SW_SIS_HOWS(EM, EMe)				\
	EM(SW_SIS_NONE, "none")				\
	EM(SW_SIS_TARGET, "fast-target")		\
	EM(SW_SIS_PREV, "fast-prev")			\
	EM(SW_SIS_RECENT, "fast-recent")		\
	EMe(SW_SIS_SCAN, "scan")

/* the stage a policy=shadow disagreement is put down to (path/shadow.c) */
#define SW_SHADOW_STAGES(EM, EMe)			\
	EM(SW_SHADOW_NONE, "none")			\
	EM(SW_SHADOW_WIDE, "wide")			\
	EM(SW_SHADOW_AFFINE, "affine")			\
	EMe(SW_SHADOW_IDLE, "idle")

/*
 * why the sched-idle pull passes over a task (policy core, sw_pull_veto();
 * counters sib_pull_veto_*, in this order)
 */
#define SW_PULL_VETOES(EM, EMe)				\
	EM(SW_PULL_OK, "ok")				\
	EM(SW_PULL_IDLE, "idle")			\
	EM(SW_PULL_DELAYED, "delayed")			\
	EM(SW_PULL_MIGRATION_DISABLED, "migration_disabled") \
	EM(SW_PULL_AFFINITY, "affinity")		\
	EMe(SW_PULL_RUNNING, "running")

#endif /* _SMARTWAKE_ENUMS_H */
