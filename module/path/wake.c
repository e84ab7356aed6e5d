// SPDX-License-Identifier: GPL-2.0
/*
 * The module's copy of select_task_rq_fair()'s fast path: record_wakee(),
 * wake_wide() and wake_affine(), which the kernel inlines, so changing any
 * of them means taking over the whole path. It follows 6.12.117's fair.c
 * step by step and asks the policy core (include/smartwake/policy.h) for
 * every decision; select_idle_sibling() is sis.c, the hook and the checks
 * around an answer select.c. The deliberate differences from the kernel:
 * Documentation/design.md, "The wakeup path and its differences from the
 * kernel"; change that list with the code.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/topology.h>
#include "internal.h"
#include "bpf.h"
#include "../knob_defs.h"
#include "../numa.h"
#include "../stats.h"

/* the wakeup being decided on each CPU (internal.h) */
DEFINE_PER_CPU(struct sw_wake_ctx, sw_wake_ctx);

/* the path's decision knobs (knob_table.h), mainline's values */
int sw_decay = SW_DECAY_HALVE;
int sw_wide_mode = SW_WIDE_MAINLINE;
int sw_factor_src = SW_FACTOR_LLC;
int sw_factor_fixed = 1;
int sw_wa_idle = 1;
int sw_wa_weight = 1;
int sw_wa_bias = 1;
int sw_sync = 1;

/* record_wakee() on current, with the decay knob; current read once */
static __always_inline void sw_record(struct task_struct *p, bool lean)
{
	struct task_struct *waker = current;
	struct sw_flips s = {
		.flips = sw_task(waker, wakee_flips),
		.decay_ts = sw_task(waker, wakee_flip_decay_ts),
	};
	bool new_wakee = sw_task(waker, last_wakee) != p;

	s = sw_record_wakee(sw_knob(lean, sw_decay), s, new_wakee, jiffies, HZ);
	sw_task(waker, wakee_flips) = s.flips;
	sw_task(waker, wakee_flip_decay_ts) = s.decay_ts;
	if (new_wakee)
		sw_task(waker, last_wakee) = p;
}

/* The wake_wide() factor seen from the waking CPU. */
static __always_inline unsigned int sw_wide_factor(int cpu, bool lean)
{
	int src = sw_knob(lean, sw_factor_src);
	unsigned int llc = 0, node = 0, online = 0;

	switch (src) {
	case SW_FACTOR_NODE:
		node = nr_cpus_node(cpu_to_node(cpu));
		break;
	case SW_FACTOR_ONLINE:
		online = num_online_cpus();
		break;
	case SW_FACTOR_FIXED:
		break;
	default:
		/* mainline: __this_cpu_read(sd_llc_size) */
		llc = sw_llc_size(cpu);
		break;
	}
	return sw_factor(src, src == SW_FACTOR_FIXED ? READ_ONCE(sw_factor_fixed) : 0,
			 llc, node, online);
}

#define SW_H_LOAD_DEPTH 16

/* READ_ONCE(cfs_rq->avg.load_avg), level by level */
static unsigned long sw_cfs_load(struct cfs_rq *cfs_rq)
{
	return READ_ONCE(sw_sa(&sw_cfs_rq(cfs_rq, avg), load_avg));
}

/* READ_ONCE(se->avg.load_avg) */
static unsigned long sw_se_load(struct sched_entity *se)
{
	return READ_ONCE(sw_sa(&sw_se(se, avg), load_avg));
}

/**
 * sw_task_h_load() - task_h_load() without writing the h_load cache
 * @p: a task
 *
 * Walks up from @p's cfs_rq to the first cfs_rq whose h_load is from this
 * jiffy (or to the root, whose h_load is its load), then back down
 * scaling by each group entity's share, as update_cfs_rq_h_load() does.
 *
 * Return: @p's load contribution at the root, in load_avg units.
 */
static unsigned long sw_task_h_load(struct task_struct *p)
{
#ifdef CONFIG_FAIR_GROUP_SCHED
	struct sched_entity *path[SW_H_LOAD_DEPTH], *se;
	struct sched_entity *pse = &sw_task(p, se);
	struct cfs_rq *cfs_rq = sw_se(pse, cfs_rq), *top = cfs_rq;
	unsigned long now = jiffies, h;
	int n = 0;

	if (READ_ONCE(sw_cfs_rq(cfs_rq, last_h_load_update)) == now) {
		h = READ_ONCE(sw_cfs_rq(cfs_rq, h_load));
		goto out;
	}
	for (se = sw_se(pse, parent); se; se = sw_se(se, parent)) {
		if (n == SW_H_LOAD_DEPTH) {
			h = READ_ONCE(sw_cfs_rq(cfs_rq, h_load));
			goto out;
		}
		path[n++] = se;
		top = sw_se(se, cfs_rq);
		if (READ_ONCE(sw_cfs_rq(top, last_h_load_update)) == now)
			break;
	}
	h = se ? READ_ONCE(sw_cfs_rq(top, h_load)) : sw_cfs_load(top);
	while (n--)
		h = div64_ul(h * sw_se_load(path[n]),
			     sw_cfs_load(sw_se(path[n], cfs_rq)) + 1);
out:
	return div64_ul(sw_se_load(pse) * h, sw_cfs_load(cfs_rq) + 1);
#else
	return sw_se_load(&sw_task(p, se));
#endif
}

/**
 * sw_do_wake_affine() - wake_affine(): pull to the waking CPU or stay near prev
 * @sd:       the lowest SD_WAKE_AFFINE domain spanning both CPUs
 * @p:        the wakee
 * @this_cpu: the waking CPU
 * @prev_cpu: the wakee's previous CPU
 * @sync:     the waker is about to sleep
 * @lean:     the lean copy (lean.h)
 *
 * Return: @this_cpu or @prev_cpu.
 */
static __always_inline int sw_do_wake_affine(struct sched_domain *sd,
					     struct task_struct *p, int this_cpu,
					     int prev_cpu, bool sync, bool lean)
{
	bool use_idle = sw_knob(lean, sw_wa_idle);
	bool use_weight = sw_knob(lean, sw_wa_weight);
	enum sw_affine idle_res = SW_AFFINE_NONE, weight_res = SW_AFFINE_NONE;
	struct rq *this_rq = sw_cpu_rq(this_cpu), *prev_rq = sw_cpu_rq(prev_cpu);

	sw_count_decided(SW_C_affine_attempts, 1);

	if (use_idle) {
		/* nr_running without delayed-dequeue entities */
		unsigned int nr = READ_ONCE(sw_rq(this_rq, nr_running)) -
				  sw_cfs_h_nr_delayed(&sw_rq(this_rq, cfs));

		idle_res = sw_affine_idle(sw_available_idle_cpu(this_cpu),
					  sw_available_idle_cpu(prev_cpu),
					  sw_cpus_share_cache(this_cpu, prev_cpu),
					  sync, nr);
	}

	if (sw_wake_affine_needs_weight(use_idle, idle_res, use_weight)) {
		struct sw_weight_in in = {
			.this_load = sw_cfs_load(&sw_rq(this_rq, cfs)),
			.prev_load = sw_cfs_load(&sw_rq(prev_rq, cfs)),
			.current_load = sync ? sw_task_h_load(current) : 0,
			.task_load = sw_task_h_load(p),
			.this_capacity = READ_ONCE(sw_rq(this_rq, cpu_capacity)),
			.prev_capacity = READ_ONCE(sw_rq(prev_rq, cpu_capacity)),
			.imbalance_pct = sw_sd(sd, imbalance_pct),
			.sync = sync,
			.bias = sw_knob(lean, sw_wa_bias),
		};

		weight_res = sw_affine_weight(&in);
	}

	if (sw_wake_affine(use_idle, use_weight, idle_res, weight_res) !=
	    SW_AFFINE_THIS)
		return prev_cpu;
	sw_count_decided(SW_C_affine_pulls, 1);
	/* numa_retry=off (the default): no call into numa.c */
	if (sw_knob(lean, sw_numa_retry) != SW_NUMA_OFF &&
	    sw_numa_wake_affine(p, prev_cpu, this_cpu))
		this_cpu_ptr(&sw_wake_ctx)->numa_backoff = true;
	return this_cpu;
}

/*
 * A program's callbacks take part in this wakeup (policy=bpf, or shadow
 * with a program attached: struct sw_wake_ctx's bpf). Asked at each of
 * the path's seams: without a program each is a static branch's nop, and
 * no flag stays live across the path.
 */
static __always_inline bool sw_bpf_cbs_on(void)
{
	return sw_bpf_on() && this_cpu_read(sw_wake_ctx.bpf);
}

/*
 * A CPU a program's wake_affine or select_idle handed the path: checked
 * as sw_select_body() checks every answer, so that a bad one is the
 * program's (bpf_refused, revert_on), and the knobs decide that step
 * instead (-1). A target outside the task's CPUs would otherwise come
 * back from the idle scan as the module's invariant violation.
 */
static int sw_wake_bpf_checked(struct task_struct *p, int cpu,
			       enum sw_bpf_cb_id cb)
{
	if (cpu < 0)
		return -1;
	if ((unsigned int)cpu >= nr_cpu_ids ||
	    !cpumask_test_cpu(cpu, sw_task(p, cpus_ptr)) || !cpu_active(cpu)) {
		sw_bpf_refuse(cb);
		return -1;
	}
	return cpu;
}

/* A program's wake_affine target, or -1. Out of line, as the next. */
static noinline int sw_wake_bpf_target(struct task_struct *p, int prev_cpu,
				       int this_cpu, bool sync)
{
	return sw_wake_bpf_checked(p, sw_bpf_wake_affine(p, prev_cpu,
							 this_cpu, sync),
				   SW_BPF_WAKE_AFFINE);
}

/*
 * A program's select_idle answer, or -1: the module's scan. Out of line:
 * the path without a program stays as it was.
 */
static noinline int sw_wake_bpf_idle(struct task_struct *p, int prev_cpu,
				     int target)
{
	return sw_wake_bpf_checked(p, sw_bpf_select_idle(p, prev_cpu,
							 target),
				   SW_BPF_SELECT_IDLE);
}

/*
 * The wakeup is sync (the waker is about to sleep), asked only where
 * wake_affine() runs: a flag kept live across the path costs spills.
 */
static __always_inline bool sw_wake_sync(int wake_flags, bool lean)
{
	return sw_knob(lean, sw_sync) && (wake_flags & WF_SYNC) &&
	       !(sw_task(current, flags) & PF_EXITING);
}

/* sw_wake(), one copy: @lean takes the decision knobs as constants */
static __always_inline int __sw_wake(struct task_struct *p, int prev_cpu,
				     int wake_flags, int cpu,
				     struct sw_wake_info *info, bool lean)
{
	/* SD_flags and WF_flags share the first nibble */
	int sd_flag = wake_flags & 0xF, new_cpu = prev_cpu;
	struct sched_domain *tmp, *affine = NULL, *slow = NULL;
	int mode = sw_knob(lean, sw_wide_mode);
	unsigned int factor;
	bool traced;
	enum sw_wide wide;
	bool want_affine;

	sw_record(p, lean);
	factor = sw_wide_factor(cpu, lean);
	wide = sw_wake_wide(mode, sw_task(current, wakee_flips),
			    sw_task(p, wakee_flips), factor);
	if (sw_bpf_cbs_on())
		wide = sw_bpf_wake_wide(p, sw_task(current, wakee_flips),
					sw_task(p, wakee_flips), factor, wide);
	want_affine = wide == SW_WIDE_NO &&
		      cpumask_test_cpu(cpu, sw_task(p, cpus_ptr));
	info->want_affine = want_affine;

	/*
	 * Interrupts are off (every caller of select_task_rq_fair() holds
	 * p->pi_lock): an RCU read-side section for the domains already,
	 * so no rcu_read_lock() call (and no spill around it).
	 */
	for (tmp = rcu_dereference_sched(sw_rq(sw_cpu_rq(cpu), sd)); tmp;
	     tmp = sw_sd(tmp, parent)) {
		if (want_affine && (sw_sd(tmp, flags) & SD_WAKE_AFFINE) &&
		    cpumask_test_cpu(prev_cpu, sched_domain_span(tmp))) {
			affine = tmp;
			slow = NULL;	/* wake_affine beats balance flags */
			break;
		}
		if (sw_sd(tmp, flags) & sd_flag)
			slow = tmp;
		else if (!want_affine)
			break;
	}
	if (slow)
		return -1;

	if (wide == SW_WIDE_WAKER_MASTER)
		sw_count_decided(SW_C_wide_waker_master, 1);
	else if (wide == SW_WIDE_WAKEE_MASTER)
		sw_count_decided(SW_C_wide_wakee_master, 1);
	traced = sw_tracing();
	if (unlikely(traced)) {
		sw_trace_set(waker_flips, sw_task(current, wakee_flips));
		sw_trace_set(wakee_flips, sw_task(p, wakee_flips));
		sw_trace_set(factor, factor);
		sw_trace_set(mode, mode);
		sw_trace_set(wide, wide);
	}

	if (affine && cpu != prev_cpu) {
		bool sync = sw_wake_sync(wake_flags, lean);

		new_cpu = -1;
		if (sw_bpf_cbs_on())
			new_cpu = sw_wake_bpf_target(p, prev_cpu, cpu, sync);
		if (new_cpu < 0)
			new_cpu = sw_do_wake_affine(affine, p, cpu, prev_cpu,
						    sync, lean);
	}
	info->target = new_cpu;
	if (unlikely(traced))
		sw_trace_set(target, new_cpu);
	if (sw_bpf_cbs_on()) {
		int idle = sw_wake_bpf_idle(p, prev_cpu, new_cpu);

		if (idle >= 0)
			return idle;
	}
	return sw_select_idle_sibling(p, prev_cpu, new_cpu, lean);
}

/**
 * sw_wake() - the fast path of select_task_rq_fair() for one wakeup
 * @p:          the wakee
 * @prev_cpu:   its previous CPU
 * @wake_flags: WF_* flags, WF_TTWU among them
 * @cpu:        the waking CPU
 * @info:       out: the intermediate decisions
 *
 * Return: the CPU for @p, or -1 if the kernel's slow path would run.
 */
__always_inline int sw_wake(struct task_struct *p, int prev_cpu,
			    int wake_flags, int cpu, struct sw_wake_info *info)
{
	if (sw_lean())
		return __sw_wake(p, prev_cpu, wake_flags, cpu, info, true);
	return __sw_wake(p, prev_cpu, wake_flags, cpu, info, false);
}

/* which copy of the path runs (lean.h): switched by lean.c */
DEFINE_STATIC_KEY_TRUE(sw_lean_key);

/*
 * The out-of-line copy of sw_wake() for the rare callers (a program's
 * smartwake_default_cpu(), shadow's race re-evaluation): one copy, and
 * not the lean one, so the unit's growth does not cost the hot copies
 * the inlining of their helpers (a fourth copy un-inlined
 * sw_available_idle_cpu() and others: +14 instructions per call under
 * policy=shadow, scripts/check.sh cost-stock; scripts/insnprof.sh shows
 * vcpu_is_preempted as a module function when it happens).
 */
noinline int sw_wake_ool(struct task_struct *p, int prev_cpu, int wake_flags,
			 int cpu, struct sw_wake_info *info)
{
	/* the copy that reads every knob: the lean one decides the same */
	return __sw_wake(p, prev_cpu, wake_flags, cpu, info, false);
}
