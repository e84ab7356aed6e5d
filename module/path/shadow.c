// SPDX-License-Identifier: GPL-2.0
/*
 * The differential mode of the wakeup path (wake.c, select.c).
 *
 * More: Documentation/design.md, "The files in detail", path/shadow.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/mmu_context.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include "internal.h"
#include "bpf.h"
#include "../cost.h"
#include "../overload.h"
#include "../stats.h"
#include "../testing.h"
#include "../trace.h"
#include "../watchdog.h"

/**
 * sw_shadow_stage() - classify a shadow disagreement
 * @p:        the wakee
 * @prev_cpu: its previous CPU
 * @cpu:      the waking CPU
 * @mi:       the module's intermediate decisions
 * @theirs:   the kernel's answer
 *
 * Called after the kernel ran, with the state it left: current's
 * wakee_flips are the kernel's record_wakee() result, so the kernel's
 * wake_wide() is recomputed exactly (mainline test, factor sd_llc_size of
 * the waking CPU). The kernel's wake_affine() result is not observable,
 * but its select_idle_sibling() answers inside its target's LLC.
 *
 * Return: SW_SHADOW_WIDE when the two wake_wide() outcomes (affine wanted
 * or not) differ and could matter (cpu != prev_cpu); else SW_SHADOW_AFFINE
 * when the kernel's answer is outside the LLC of the module's
 * select_idle_sibling() target, so the kernel's wake_affine() chose the
 * other CPU; else SW_SHADOW_IDLE. A different wake_affine() choice
 * between two CPUs of one LLC cannot be told from a select_idle_sibling()
 * difference and counts as SW_SHADOW_IDLE.
 */
static enum sw_shadow_stage sw_shadow_stage(struct task_struct *p,
					    int prev_cpu, int cpu,
					    const struct sw_wake_info *mi,
					    int theirs)
{
	bool kernel_affine =
		sw_wake_wide(SW_WIDE_MAINLINE, sw_task(current, wakee_flips),
			     sw_task(p, wakee_flips), sw_llc_size(cpu)) ==
		SW_WIDE_NO && cpumask_test_cpu(cpu, sw_task(p, cpus_ptr));

	if (cpu != prev_cpu && kernel_affine != mi->want_affine)
		return SW_SHADOW_WIDE;
	if (!sw_cpus_share_cache(theirs, mi->target))
		return SW_SHADOW_AFFINE;
	return SW_SHADOW_IDLE;
}

/* Has the has_idle_cores hint the first evaluation read changed since? */
static bool sw_idle_cores_moved(const struct sw_wake_ctx *ctx)
{
	const struct sched_domain_shared *sds = ctx->seen_sds;

	return sds && READ_ONCE(sw_sds(sds, has_idle_cores)) != ctx->seen;
}

/*
 * nr_running changes so far of the CPUs of @cpu's and @prev's LLCs: two
 * per-LLC counts (overload.c), whatever the LLC's size (insnprof, pipe:
 * 383 instructions per wakeup at an LLC of 16 when it summed every
 * CPU's count). A CPU outside any LLC is its own.
 */
static unsigned long sw_rq_seq(int cpu, int prev)
{
	int a = sw_llc_id(cpu), b = sw_llc_id(prev);
	unsigned long sum = sw_llc_nr_running_seq_of(a);

	if (b != a)
		sum += sw_llc_nr_running_seq_of(b);
	return sum;
}

/* This CPU's counters, kept aside while the race re-evaluation runs. */
static DEFINE_PER_CPU(struct sw_pcpu_stats, sw_shadow_stash);

/*
 * sw_wake_shadow() with a program attached (bpf.c): its select_cpu first,
 * then the module's path with its other callbacks. Out of line: the path
 * without a program stays as it was.
 */
static noinline int sw_wake_shadow_bpf(struct sw_wake_ctx *ctx,
				       struct task_struct *p, int prev_cpu,
				       int wake_flags, int cpu,
				       struct sw_wake_info *info)
{
	int ret = sw_bpf_select_wakeup(ctx, p, prev_cpu, wake_flags);
	/* it asked for the module's answer (smartwake_default_cpu()) */
	bool asked = ctx->bpf_default != SW_BPF_NO_DEFAULT;

	if (asked && (ret < 0 || ret == ctx->bpf_default))
		*info = ctx->bpf_info;
	ctx->bpf_answered = ret >= 0;
	if (ret < 0)
		ret = asked ? ctx->bpf_default :
		      sw_wake_ool(p, prev_cpu, wake_flags, cpu, info);
	return ret;
}

/*
 * sw_wake() in SW_WAKE_SHADOW mode: the hint is read once, never written.
 * @ool: the out-of-line copy of the path (the rare callers).
 */
static __always_inline int sw_wake_shadow(struct task_struct *p, int prev_cpu,
					  int wake_flags, int cpu,
					  struct sw_wake_info *info, bool ool)
{
	struct sw_wake_ctx *ctx = this_cpu_ptr(&sw_wake_ctx);
	int ret;

	ctx->mode = SW_WAKE_SHADOW;
	if (unlikely(ctx->bpf)) {
		ret = sw_wake_shadow_bpf(ctx, p, prev_cpu, wake_flags, cpu,
					 info);
	} else {
		ctx->bpf_answered = false;
		ret = ool ? sw_wake_ool(p, prev_cpu, wake_flags, cpu, info) :
		      sw_wake(p, prev_cpu, wake_flags, cpu, info);
	}
	ctx->mode = SW_WAKE_NOW;
	return ret;
}

/* The race re-evaluations, rare: the out-of-line copy of the path. */
static noinline int sw_wake_shadow_again(struct task_struct *p, int prev_cpu,
					 int wake_flags, int cpu,
					 struct sw_wake_info *info)
{
	return sw_wake_shadow(p, prev_cpu, wake_flags, cpu, info, true);
}

/**
 * sw_shadow() - policy=shadow: decide, let the kernel decide, compare
 * @p:          the wakee
 * @prev_cpu:   its previous CPU
 * @wake_flags: WF_* flags, WF_TTWU among them
 * @cpu:        the waking CPU
 * @timed:      a sampled call: time the module's evaluation and the
 *              kernel's function apart (shadow_{module,kernel}_ns_sampled)
 *
 * See the top of this file. Runs with p->pi_lock held and IRQs off, so
 * the per-CPU stash and wakeup context are not shared.
 *
 * Return: the kernel's answer, or -1 (an unmodelled case: the kernel's
 * function is still to run).
 */
int notrace __no_stack_protector sw_shadow(struct task_struct *p, int prev_cpu,
					   int wake_flags, int cpu, bool timed)
{
	static const enum sw_counter stage_counter[] = {
		[SW_SHADOW_WIDE] = SW_C_shadow_diff_wide,
		[SW_SHADOW_AFFINE] = SW_C_shadow_diff_affine,
		[SW_SHADOW_IDLE] = SW_C_shadow_diff_idle,
	};
	struct sw_wake_ctx *ctx = this_cpu_ptr(&sw_wake_ctx);
	struct sw_pcpu_stats *mine_stats, *stash;
	struct sw_wake_info mi = { .target = prev_cpu };
	/* written before they are read: not zeroed (INIT_STACK_ALL_ZERO) */
	struct sw_wake_info ri __uninitialized;
	struct sw_saved before __uninitialized, after __uninitialized;
	enum sw_shadow_stage stage;
	int mine, theirs, again;
	unsigned long seq;
	u64 t0 = 0, t1 = 0;
	bool loc;

	seq = sw_rq_seq(cpu, prev_cpu);
	if (timed)
		t0 = local_clock();
	sw_save(&before, p);
	ctx->seen_sds = NULL;
	ctx->bpf = sw_bpf_on() && sw_bpf_attached();
	sw_testing_hint_begin();
	mine = sw_wake_shadow(p, prev_cpu, wake_flags, cpu, &mi, false);
	sw_testing_hint_end(ctx->seen_sds, ctx->seen);
	if (mine < 0) {
		sw_restore(&before, p);
		sw_count(SW_C_fallback_original);
		return -1;
	}
	/* testing builds: test_shadow_leak leaves the writes, to be seen */
	if (likely(!sw_testing_shadow_leak()))
		sw_restore(&before, p);
	/* a program's answer out of bounds: refused, nothing compared */
	if (unlikely(ctx->bpf_answered) &&
	    ((unsigned int)mine >= nr_cpu_ids ||
	     !cpumask_test_cpu(mine, sw_task(p, cpus_ptr)))) {
		sw_bpf_refuse(SW_BPF_SELECT_CPU);
		return -1;
	}
	/* still a bug of the module, even if its answer is not used */
	if ((unsigned int)mine >= nr_cpu_ids ||
	    !cpumask_test_cpu(mine, sw_task(p, cpus_ptr))) {
		sw_count(SW_C_invariant_violations);
		sw_watchdog_violation();
	}

	/*
	 * Locality (knob locality): the module's answer inside the timed
	 * part, as its path counts it under policy=smartwake; the key is
	 * read once, so a flip meanwhile counts both answers or neither.
	 */
	loc = sw_locality_on();
	if (loc)
		__sw_locality_count(prev_cpu, cpu, mine);

	if (timed)
		t1 = local_clock();
	theirs = sw_orig_select(p, prev_cpu, wake_flags);
	if (timed) {
		u64 k = local_clock() - t1;

		/* before the stash below, which keeps them */
		sw_count_add(SW_C_shadow_module_ns_sampled, t1 - t0);
		sw_count_add(SW_C_shadow_kernel_ns_sampled, k);
		sw_count(SW_C_shadow_calls_sampled);
		sw_cost_record(SW_COST_MODULE, t1 - t0);
		sw_cost_record(SW_COST_KERNEL, k);
	}
	if (loc)
		__sw_locality_kernel(prev_cpu, cpu, theirs);
	sw_count(SW_C_shadow_compared);
	if (theirs == mine) {
		sw_count(SW_C_shadow_agree);
		return theirs;
	}

	/*
	 * The shadow window race: re-evaluate with the same bookkeeping
	 * inputs as the first time, then put back what the kernel left.
	 */
	sw_save(&after, p);
	mine_stats = this_cpu_ptr(&sw_stats);
	stash = this_cpu_ptr(&sw_shadow_stash);
	*stash = *mine_stats;
	sw_restore(&before, p);
	again = sw_wake_shadow_again(p, prev_cpu, wake_flags, cpu, &ri);
	if (again == mine && sw_idle_cores_moved(ctx)) {
		/* and with the hint as it is now, whoever changed it */
		sw_restore(&before, p);
		ctx->seen_sds = NULL;
		again = sw_wake_shadow_again(p, prev_cpu, wake_flags, cpu, &ri);
	}
	*mine_stats = *stash;
	sw_restore(&after, p);
	if (again != mine) {
		sw_count(SW_C_shadow_raced);
		return theirs;
	}
	if (sw_rq_seq(cpu, prev_cpu) != seq) {
		sw_count(SW_C_shadow_raced_aba);
		return theirs;
	}

	stage = sw_shadow_stage(p, prev_cpu, cpu, &mi, theirs);
	sw_count(SW_C_shadow_disagree);
	sw_count(stage_counter[stage]);
	trace_smartwake_shadow_diff(sw_task(p, pid), prev_cpu, cpu, mine, theirs,
				    stage);
	return theirs;
}
