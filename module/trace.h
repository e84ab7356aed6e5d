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
#include <linux/types.h>
#include <smartwake/enums.h>

/* how select_idle_sibling() found its answer (path/sis.c, event "how") */
enum sw_sis_how {
	SW_SIS_HOWS(SW_ENUM_ID, SW_ENUM_ID)
};

/* the stage a policy=shadow disagreement is put down to (path/shadow.c) */
enum sw_shadow_stage {
	SW_SHADOW_STAGES(SW_ENUM_ID, SW_ENUM_ID)
};

/**
 * struct sw_wake_trace - a smartwake_wakeup record while it is gathered
 * @pid:         the wakee
 * @waker:       the waking task
 * @prev:        the wakee's prev CPU
 * @result:      the CPU the decision placed the wakee on, -1: the kernel's
 *               function decided (select.c)
 * @waker_flips: the waker's wakee_flips as wake_wide() read them (wake.c)
 * @wakee_flips: ...the wakee's
 * @factor:      ...and its factor
 * @scanned:     CPUs the idle scan's domain scan examined (sis.c)
 * @target:      wake_affine()'s choice, -1 before it ran
 * @idle:        the idle scan's answer, -1 before it ran
 * @recent:      the task's recent_used_cpu as the scan left it
 * @mode:        wake_wide()'s enum sw_wide_mode, -1 before it ran
 * @wide:        ...its enum sw_wide verdict
 * @how:         enum sw_sis_how of the idle scan, -1 before it ran
 * @on:          this decision is sampled and the event enabled (select.c);
 *               in the event's padding, never printed
 * @sample:      knob trace_sample when this record was started: 1 in it
 *
 * Per CPU in struct sw_wake_ctx (path/internal.h), written only while
 * @on, so that a wakeup not sampled pays one test per stage. Laid out as
 * the event's entry from its pid on (trace.c checks), so that the event
 * copies it whole; the -1 fields together, so that starting a record is
 * a few wide stores.
 */
struct sw_wake_trace {
	pid_t pid, waker;
	int prev, result;
	unsigned int waker_flips, wakee_flips, factor, scanned;
	int target, idle, recent;
	s8 mode, wide, how;
	bool on;
	unsigned int sample;
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
 * One decided wakeup of the module's path (select.c), gathered while it
 * decides (struct sw_wake_trace): wake_wide(), wake_affine() and the idle
 * scan in one record, emitted once at the end, for 1 decided wakeup in
 * sample per CPU (knob trace_sample). mode and wide are enum
 * sw_wide_mode and enum sw_wide, how enum sw_sis_how; -1 (printed "-")
 * where the path did not get that far. target is wake_affine()'s choice,
 * idle the idle scan's answer, scanned the CPUs its domain scan examined,
 * recent the task's recent_used_cpu as the scan left it; result is the
 * CPU the decision placed the task on (under policy=shadow the kernel's
 * answer), -1 when the kernel's function decided.
 */
TRACE_EVENT(smartwake_wakeup,

	TP_PROTO(const struct sw_wake_trace *t),

	TP_ARGS(t),

	/* the order of struct sw_wake_trace: one copy (trace.c checks) */
	TP_STRUCT__entry(
		__field(pid_t, pid)
		__field(pid_t, waker)
		__field(int, prev)
		__field(int, result)
		__field(unsigned int, waker_flips)
		__field(unsigned int, wakee_flips)
		__field(unsigned int, factor)
		__field(unsigned int, scanned)
		__field(int, target)
		__field(int, idle)
		__field(int, recent)
		__field(s8, mode)
		__field(s8, wide)
		__field(s8, how)
		__field(unsigned int, sample)
	),

	/* through a char pointer: the copy spans the fields from pid on */
	TP_fast_assign(
		memcpy((char *)__entry + offsetof(typeof(*__entry), pid), t,
		       sizeof(*t));
	),

	TP_printk("pid=%d waker=%d prev=%d waker_flips=%u wakee_flips=%u factor=%u mode=%s wide=%s target=%d idle=%d how=%s scanned=%u recent=%d result=%d sample=%u",
		  __entry->pid, __entry->waker, __entry->prev,
		  __entry->waker_flips, __entry->wakee_flips, __entry->factor,
		  __print_symbolic(__entry->mode, { -1, "-" },
				   SW_WIDE_MODES(SW_TP_SYM, SW_TP_SYM_END)),
		  __print_symbolic(__entry->wide, { -1, "-" },
				   SW_WIDE_RESULTS(SW_TP_SYM, SW_TP_SYM_END)),
		  __entry->target, __entry->idle,
		  __print_symbolic(__entry->how, { -1, "-" },
				   SW_SIS_HOWS(SW_TP_SYM, SW_TP_SYM_END)),
		  __entry->scanned, __entry->recent, __entry->result,
		  __entry->sample)
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
