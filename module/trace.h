/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake trace events, under /sys/kernel/tracing/events/smartwake/.
 * trace.c defines CREATE_TRACE_POINTS; everyone else just includes this.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM smartwake

/* The values of the events' enum fields, once (outside the multi-read). */
#ifndef _SMARTWAKE_TRACE_ENUMS_H
#define _SMARTWAKE_TRACE_ENUMS_H
#include <smartwake/enums.h>

/* how select_idle_sibling() found its answer (path/sis.c, event "how") */
enum sw_sis_how {
	SW_SIS_HOWS(SW_ENUM_ID, SW_ENUM_ID)
};

/* the stage a policy=shadow disagreement is put down to (path/shadow.c) */
enum sw_shadow_stage {
	SW_SHADOW_STAGES(SW_ENUM_ID, SW_ENUM_ID)
};
#endif /* _SMARTWAKE_TRACE_ENUMS_H */

#if !defined(_SMARTWAKE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SMARTWAKE_TRACE_H

#include <linux/tracepoint.h>
#include <smartwake/policy.h>

/* Export the enum values to user space, then print them by name. */
#undef SW_TP_ENUM
#undef SW_TP_SYM
#undef SW_TP_SYM_END
#define SW_TP_ENUM(a, b)	TRACE_DEFINE_ENUM(a);
#define SW_TP_SYM(a, b)		{ a, b },
#define SW_TP_SYM_END(a, b)	{ a, b }

SW_WIDE_MODES(SW_TP_ENUM, SW_TP_ENUM)
SW_WIDE_RESULTS(SW_TP_ENUM, SW_TP_ENUM)
SW_SIS_HOWS(SW_TP_ENUM, SW_TP_ENUM)
SW_SHADOW_STAGES(SW_TP_ENUM, SW_TP_ENUM)

/*
 * One wake_wide() decision. mode and result are the numeric values of
 * enum sw_wide_mode and enum sw_wide (printed by name).
 */
TRACE_EVENT(smartwake_wake_wide,

	TP_PROTO(pid_t waker, pid_t wakee, unsigned int waker_flips,
		 unsigned int wakee_flips, unsigned int factor, int mode,
		 int result),

	TP_ARGS(waker, wakee, waker_flips, wakee_flips, factor, mode, result),

	TP_STRUCT__entry(
		__field(pid_t, waker)
		__field(pid_t, wakee)
		__field(unsigned int, waker_flips)
		__field(unsigned int, wakee_flips)
		__field(unsigned int, factor)
		__field(int, mode)
		__field(int, result)
	),

	TP_fast_assign(
		__entry->waker = waker;
		__entry->wakee = wakee;
		__entry->waker_flips = waker_flips;
		__entry->wakee_flips = wakee_flips;
		__entry->factor = factor;
		__entry->mode = mode;
		__entry->result = result;
	),

	TP_printk("waker=%d wakee=%d waker_flips=%u wakee_flips=%u factor=%u mode=%s result=%s",
		  __entry->waker, __entry->wakee, __entry->waker_flips,
		  __entry->wakee_flips, __entry->factor,
		  __print_symbolic(__entry->mode,
				   SW_WIDE_MODES(SW_TP_SYM, SW_TP_SYM_END)),
		  __print_symbolic(__entry->result,
				   SW_WIDE_RESULTS(SW_TP_SYM, SW_TP_SYM_END)))
);

/*
 * One select_idle_sibling() answer. how is enum sw_sis_how; scanned
 * counts the CPUs a domain scan examined (0 for the fast paths); recent
 * is the task's recent_used_cpu as the answer leaves it (prev once past
 * the idle target and prev checks).
 */
TRACE_EVENT(smartwake_select_idle,

	TP_PROTO(pid_t pid, int prev, int target, int result, int how,
		 unsigned int scanned, int recent),

	TP_ARGS(pid, prev, target, result, how, scanned, recent),

	TP_STRUCT__entry(
		__field(pid_t, pid)
		__field(int, prev)
		__field(int, target)
		__field(int, result)
		__field(int, how)
		__field(unsigned int, scanned)
		__field(int, recent)
	),

	TP_fast_assign(
		__entry->pid = pid;
		__entry->prev = prev;
		__entry->target = target;
		__entry->result = result;
		__entry->how = how;
		__entry->scanned = scanned;
		__entry->recent = recent;
	),

	TP_printk("pid=%d prev=%d target=%d result=%d how=%s scanned=%u recent=%d",
		  __entry->pid, __entry->prev, __entry->target,
		  __entry->result,
		  __print_symbolic(__entry->how,
				   SW_SIS_HOWS(SW_TP_SYM, SW_TP_SYM_END)),
		  __entry->scanned, __entry->recent)
);

/*
 * policy=shadow: one wakeup where the module's answer (module) and the
 * kernel's (kernel) differ and the module's re-evaluation confirmed its
 * own. stage is enum sw_shadow_stage (path/shadow.c): the module's stage that
 * decided the difference.
 */
TRACE_EVENT(smartwake_shadow_diff,

	TP_PROTO(pid_t pid, int prev, int waker_cpu, int module, int kernel,
		 int stage),

	TP_ARGS(pid, prev, waker_cpu, module, kernel, stage),

	TP_STRUCT__entry(
		__field(pid_t, pid)
		__field(int, prev)
		__field(int, waker_cpu)
		__field(int, module)
		__field(int, kernel)
		__field(int, stage)
	),

	TP_fast_assign(
		__entry->pid = pid;
		__entry->prev = prev;
		__entry->waker_cpu = waker_cpu;
		__entry->module = module;
		__entry->kernel = kernel;
		__entry->stage = stage;
	),

	TP_printk("pid=%d prev=%d waker_cpu=%d module=%d kernel=%d stage=%s",
		  __entry->pid, __entry->prev, __entry->waker_cpu,
		  __entry->module, __entry->kernel,
		  __print_symbolic(__entry->stage,
				   SW_SHADOW_STAGES(SW_TP_SYM, SW_TP_SYM_END)))
);

/*
 * knob sib_pull (pull.c): one task the sched-idle pull handed to the
 * kernel's migration stopper, after the stopper ran. moved: the task was
 * on dst afterwards (0: it ran, slept or moved before the stopper got it).
 */
TRACE_EVENT(smartwake_sib_pull,

	TP_PROTO(pid_t pid, int src, int dst, int moved),

	TP_ARGS(pid, src, dst, moved),

	TP_STRUCT__entry(
		__field(pid_t, pid)
		__field(int, src)
		__field(int, dst)
		__field(int, moved)
	),

	TP_fast_assign(
		__entry->pid = pid;
		__entry->src = src;
		__entry->dst = dst;
		__entry->moved = moved;
	),

	TP_printk("pid=%d src=%d dst=%d moved=%d",
		  __entry->pid, __entry->src, __entry->dst, __entry->moved)
);

#endif /* _SMARTWAKE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
