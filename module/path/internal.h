/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wakeup path's internal header, as kernel/sched/ext/internal.h is
 * sched_ext's: what the path's files (path.c builds them as one unit)
 * share, so that none relies on another being included first.
 */
#ifndef _SMARTWAKE_PATH_INTERNAL_H
#define _SMARTWAKE_PATH_INTERNAL_H

#include <linux/ftrace.h>
#include <linux/sched.h>
#include "../ksched.h"
#include "../lean.h"
#include "../path.h"
#include "../sched_access.h"
#include "../trace.h"
#include "seam.h"

/*
 * What the module's path may change before it commits to an answer
 * (has_idle_cores and the NUMA backoff aside: see struct sw_wake_ctx).
 */
struct sw_saved {
	unsigned int wakee_flips;
	unsigned long wakee_flip_decay_ts;
	struct task_struct *last_wakee;
	int recent_used_cpu;
};

/* current read once: each read of it is a per-CPU load */
static inline void sw_save(struct sw_saved *sv, struct task_struct *p)
{
	struct task_struct *waker = current;

	sv->wakee_flips = sw_task(waker, wakee_flips);
	sv->wakee_flip_decay_ts = sw_task(waker, wakee_flip_decay_ts);
	sv->last_wakee = sw_task(waker, last_wakee);
	sv->recent_used_cpu = sw_task(p, recent_used_cpu);
}

static inline void sw_restore(const struct sw_saved *sv, struct task_struct *p)
{
	sw_task(current, wakee_flips) = sv->wakee_flips;
	sw_task(current, wakee_flip_decay_ts) = sv->wakee_flip_decay_ts;
	sw_task(current, last_wakee) = sv->last_wakee;
	sw_task(p, recent_used_cpu) = sv->recent_used_cpu;
}

/* What the wakeup being decided may write to shared state (sw_wake_ctx) */
enum sw_wake_mode {
	SW_WAKE_NOW,		/* at once, as the kernel does */
	SW_WAKE_COMMIT,		/* policy=smartwake: once its answer is used */
	SW_WAKE_SHADOW,		/* policy=shadow: nothing, ever */
};

/* How sw_wake() got to its answer, for policy=shadow's classification. */
struct sw_wake_info {
	bool want_affine;	/* wake_wide() said no, cpu allowed */
	int target;		/* wake_affine()'s choice: select_idle_sibling's target */
};

/**
 * struct sw_wake_ctx - the wakeup being decided on this CPU
 * @mode:             enum sw_wake_mode, set by select.c and shadow.c around
 *                    sw_wake()
 * @clear_idle_cores: SW_WAKE_COMMIT: the LLC whose has_idle_cores hint a
 *                    failed core search cleared (sis.c), or NULL
 * @numa_backoff:     ...the 2018 NUMA backoff to store (wake.c)
 * @seen_sds:         SW_WAKE_SHADOW: the LLC whose has_idle_cores hint was
 *                    read first (sis.c), or NULL; its value then in @seen,
 *                    so that a re-evaluation of the same wakeup sees the
 *                    same input
 * @bpf:              a BPF program's callbacks take part (policy=bpf, or
 *                    policy=shadow with a program attached: bpf.c)
 * @bpf_answered:     SW_WAKE_SHADOW: the module's side is the program's
 *                    select_cpu answer (shadow.c)
 * @seen:             ...that value
 * @bpf_p:            while a select_cpu program runs: its wakee, else NULL
 *                    (smartwake_default_cpu(), bpf.c)
 * @bpf_prev_cpu:     ...its prev_cpu
 * @bpf_wake_flags:   ...its WF_* flags
 * @bpf_default:      ...the module's answer once a program asked for it
 *                    (-1: handed to the kernel), SW_BPF_NO_DEFAULT before
 * @bpf_info:         ...and how the path got to it
 * @trace:            the smartwake_wakeup record of this decision
 * @trace_tick:       decisions since the last one traced (trace_sample)
 *
 * Per CPU, defined by wake.c: a wakeup is decided with p->pi_lock held
 * and interrupts off, so one CPU decides one wakeup at a time, and the
 * domain's sched_domain_shared outlives the decision.
 */
struct sw_wake_ctx {
	enum sw_wake_mode mode;
	struct sched_domain_shared *clear_idle_cores;
	bool numa_backoff;
	const struct sched_domain_shared *seen_sds;
	bool seen;
	bool bpf;
	bool bpf_answered;
	struct task_struct *bpf_p;
	int bpf_prev_cpu;
	int bpf_wake_flags;
	int bpf_default;
	struct sw_wake_info bpf_info;
	struct sw_wake_trace trace;
	unsigned int trace_tick;
};
DECLARE_PER_CPU(struct sw_wake_ctx, sw_wake_ctx);

/*
 * Whether the decision on this CPU is traced (its smartwake_wakeup
 * record open): the event's static key first, a nop while it is off.
 */
static __always_inline bool sw_tracing(void)
{
	return trace_smartwake_wakeup_enabled() &&
	       __this_cpu_read(sw_wake_ctx.trace.on);
}

/* Field F of this CPU's open smartwake_wakeup record: one per-CPU store. */
#define sw_trace_set(f, v)	__this_cpu_write(sw_wake_ctx.trace.f, (v))

/* ---- the path (wake.c, sis.c) ------------------------------------------ */
/*
 * the module's fast path for one wakeup; -1: the kernel's slow path.
 * Inlined into its callers (select.c, shadow.c).
 */
int sw_wake(struct task_struct *p, int prev_cpu, int wake_flags, int cpu,
	    struct sw_wake_info *info);
/* sw_wake() out of line, for the rare callers (wake.c) */
int sw_wake_ool(struct task_struct *p, int prev_cpu, int wake_flags, int cpu,
		struct sw_wake_info *info);
/* select_idle_sibling() (sis.c), inlined into the path's copy @lean */
int sw_select_idle_sibling(struct task_struct *p, int prev, int target,
			   bool lean);

/* ---- the select hook and the decision envelope (select.c) -------------- */
/* the kernel's select_task_rq_fair(), called by the module */
int sw_orig_select(struct task_struct *p, int prev_cpu, int wake_flags);
int sw_select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags);
bool sw_select_wanted(struct ftrace_regs *fregs);
bool sw_select_wanted_args(struct task_struct *p, int prev_cpu, int wake_flags);
int sw_select_decide(struct task_struct *p, int prev_cpu, int wake_flags,
		     bool ask);

/* ---- policy=shadow (shadow.c) ------------------------------------------ */
/* the kernel's answer, -1 if unmodelled */
int sw_shadow(struct task_struct *p, int prev_cpu, int wake_flags, int cpu,
	      bool timed);

/* ---- the seam with bpf.c: seam.h, which bpf.c includes ----------------- */
/* the program's select_cpu, the wakeup recorded for the former (select.c) */
int sw_bpf_select_wakeup(struct sw_wake_ctx *ctx, struct task_struct *p,
			 int prev_cpu, int wake_flags);

#endif /* _SMARTWAKE_PATH_INTERNAL_H */
