// SPDX-License-Identifier: GPL-2.0
/*
 * The select hook and the decision envelope: select_task_rq_fair() hooked
 * by an ftrace-ops redirect (select_hook=ftrace) or a direct ftrace call
 * (select_hook=direct, where the kernel has direct calls), which wakeups
 * the module takes, and the checks, take-back and timing around the
 * path's answer (wake.c) or a BPF program's (bpf.c). How the direct
 * trampoline works: Documentation/design.md, "The select hook".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ftrace.h>
#include <linux/linkage.h>
#include <linux/module.h>
#include <linux/objtool.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include "internal.h"
#include "bpf.h"
#include "../cost.h"
#include "../hooks.h"
#include "../knob_defs.h"
#include "../numa.h"
#include "../overload.h"
#include "../reach.h"
#include "../scope.h"
#include "../stats.h"
#include "../symbols.h"
#include "../testing.h"
#include "../watchdog.h"

typedef int (*sw_select_fn)(struct task_struct *p, int prev_cpu, int wake_flags);

/* knobs enabled and policy (knob_table.h): while 1 and not stock, hooked */
int sw_enabled = 1;
int sw_policy = SW_POLICY_STOCK;

const char * const sw_policy_names[SW_POLICY_NR] = {
	SW_POLICIES(SW_ENUM_NAME, SW_ENUM_NAME)
};

/*
 * select_task_rq_fair's address is taken by fair_sched_class: IBT-safe,
 * and ibt.c checks its ENDBR64 at load before this can run.
 * The call must not become a tail call (the Kbuild file also disables
 * sibling calls): the hook tells our calls from the kernel's by the return
 * address, and a jump would leave the kernel's caller there and loop.
 */
noinline int sw_orig_select(struct task_struct *p, int prev_cpu,
			    int wake_flags)
{
	int cpu = ((sw_select_fn)sw_sym_select_task_rq_fair)(p, prev_cpu,
							      wake_flags);

	barrier();
	return cpu;
}

/**
 * sw_unmodelled() - must this wakeup go to the kernel untouched
 * @p:          the wakee
 * @prev_cpu:   its previous CPU
 * @wake_flags: WF_* flags
 * @cpu:        the waking CPU
 *
 * Return: true for the unmodelled cases of Documentation/design.md, "The
 * wakeup path and its differences from the kernel".
 */
static __always_inline bool sw_unmodelled(struct task_struct *p, int prev_cpu,
					  int wake_flags, int cpu)
{
	if (wake_flags & SW_WF_CURRENT_CPU)
		return true;
	if (sw_key_set_on(sw_sym_sched_asym_cpucapacity))
		return true;
	/* is_rd_overutilized() false: find_energy_efficient_cpu() runs */
	if (sw_key_set_on(sw_sym_sched_energy_present) &&
	    !READ_ONCE(sw_rd(sw_rq(sw_cpu_rq(cpu), rd), overutilized)))
		return true;
	if (IS_ENABLED(CONFIG_SCHED_CORE) &&
	    (!sw_sym_sched_core_enabled || sw_key_on(sw_sym_sched_core_enabled)))
		return true;
	if ((unsigned int)prev_cpu >= nr_cpu_ids ||
	    !cpumask_test_cpu(prev_cpu, sw_task(p, cpus_ptr)) ||
	    !cpu_active(prev_cpu) || !cpu_active(cpu))
		return true;
	if (sw_sis_prop_on()) {
		sw_count(SW_C_fallback_sis_prop);
		return true;
	}
	return false;
}

/*
 * Fault injection (testing builds: test_bad_answer): replace an answer by
 * one the check in sw_select_task_rq_fair() must refuse, to show that it
 * counts and discards them (CPU hotplug makes the real inactive case too
 * rare to test). 1: an inactive CPU the task may use; 2: one it may not.
 */
static int sw_inject_bad_answer(const struct task_struct *p, int cpu)
{
	unsigned int mode = sw_testing_bad_answer();
	int bad;

	if (mode != 1 && mode != 2)
		return cpu;
	for_each_possible_cpu(bad) {
		bool allowed = cpumask_test_cpu(bad, sw_task(p, cpus_ptr));

		if (mode == 1 ? allowed && !cpu_active(bad) : !allowed)
			return bad;
	}
	return cpu;
}

/**
 * sw_select_wanted_args() - should this wakeup go to the module's path
 * @p:          the wakee
 * @prev_cpu:   its previous CPU
 * @wake_flags: WF_* flags
 *
 * Asked by the select hook (either way) with
 * preemption disabled, before anything else. Whatever the module would
 * hand back untouched (a knob says the kernel decides, fork/exec
 * balancing, a task outside knob scope, the unmodelled cases) goes
 * straight into the kernel's function.
 *
 * Return: true to let sw_select_decide() place @p.
 */
static __always_inline bool __sw_select_wanted_args(struct task_struct *p,
						    int prev_cpu,
						    int wake_flags)
{
	sw_reach_seen(p);
	sw_count(SW_C_select_calls);
	if (!READ_ONCE(sw_enabled) ||
	    READ_ONCE(sw_policy) == SW_POLICY_STOCK ||
	    !(wake_flags & WF_TTWU)) {
		sw_count(SW_C_passthrough);
		return false;
	}
	if (unlikely(!sw_scope_has(p))) {
		sw_count(SW_C_out_of_scope);
		return false;
	}
	sw_count(SW_C_wakeups);
	if (sw_unmodelled(p, prev_cpu, wake_flags, smp_processor_id())) {
		sw_count(SW_C_fallback_original);
		return false;
	}
	return !sw_testing_no_redirect();
}

/* __sw_select_wanted_args() out of line, for the ftrace-ops callback */
bool notrace sw_select_wanted_args(struct task_struct *p, int prev_cpu,
				   int wake_flags)
{
	return __sw_select_wanted_args(p, prev_cpu, wake_flags);
}

/**
 * sw_select_wanted() - sw_select_wanted_args() for the ftrace-ops hook
 * @fregs: the arguments of select_task_rq_fair() at its ftrace site
 *
 * Return: true to redirect to sw_select_task_rq_fair().
 */
bool notrace sw_select_wanted(struct ftrace_regs *fregs)
{
	return sw_select_wanted_args((void *)sw_fregs_arg(fregs, 0),
				     (int)sw_fregs_arg(fregs, 1),
				     (int)sw_fregs_arg(fregs, 2));
}

/* As hooks.c's redirect, for select_task_rq_fair: only wakeups the module takes. */
static __always_inline void __sw_select_redirect(struct ftrace_ops *op,
						 unsigned long parent_ip,
						 struct ftrace_regs *fregs)
{
	if (!sw_from_module(parent_ip) && sw_select_wanted(fregs))
		sw_fregs_set_ip(fregs, (unsigned long)sw_select_task_rq_fair);
}

SW_HOOK_CALLBACK(sw_select_redirect, __sw_select_redirect)

/*
 * The select hook: while enabled=1 and policy is not stock, the module's
 * path. It asks sw_select_wanted() first and lets a wakeup the module
 * would hand back go straight on into the kernel's function, so such a
 * call crosses the trampoline once.
 */
#define SW_SELECT_USER	1U	/* enabled=1,policy!=stock */
static struct sw_hook sw_select_hook_ops = {
	.name = "select_task_rq_fair",
	SW_HOOK_NEEDS("enabled=1,policy!=stock"),
	.target = &sw_sym_select_task_rq_fair,
#ifdef SW_HAVE_DIRECT
	.direct = (unsigned long)sw_select_tramp,
#endif
	.want_direct = SW_SELECT_HOOK_DEFAULT == SW_SELECT_HOOK_DIRECT,
	.replacement = sw_select_task_rq_fair,
	.callback = sw_select_redirect,
};

#ifdef SW_HAVE_DIRECT
/*
 * sw_from_module() for the trampoline: the module's text, as base and
 * size, so that the module's own calls of select_task_rq_fair() (shadow's
 * second one, every hand-back) leave by four instructions without a call.
 */
unsigned long sw_select_text_base, sw_select_text_size;

static void sw_select_text_range(void)
{
#ifdef for_each_mod_mem_type
	sw_select_text_base = (unsigned long)THIS_MODULE->mem[MOD_TEXT].base;
	sw_select_text_size = THIS_MODULE->mem[MOD_TEXT].size;
#else
	sw_select_text_base = (unsigned long)THIS_MODULE->core_layout.base;
	sw_select_text_size = THIS_MODULE->core_layout.size;
#endif
}
#endif

void sw_select_register(void)
{
#ifdef SW_HAVE_DIRECT
	sw_select_text_range();
#endif
	sw_hook_register(&sw_select_hook_ops);
}

/* test_hook_at_load=1: hooked at load, as before on-demand hooks */
int sw_select_hook_at_load(void)
{
	return sw_hook_get(&sw_select_hook_ops, SW_SELECT_USER);
}

/*
 * Knob apply (enabled, policy): the hook exists only while it is used,
 * and with it the sched_waking probe that counts the wakeups it should
 * see (reach.c); policy=shadow also needs the nr_running probe (its race
 * check). A failure leaves the hook and the probes as they were.
 */
int sw_select_apply(const struct sw_knob *k, int old, int new)
{
	int enabled = k->val == &sw_enabled ? new : READ_ONCE(sw_enabled);
	int policy = k->val == &sw_policy ? new : READ_ONCE(sw_policy);
	bool shadow = enabled && policy == SW_POLICY_SHADOW;
	bool hook = enabled && policy != SW_POLICY_STOCK;
	int ret;

	/*
	 * policy=bpf needs a program: refused when written, also while
	 * enabled=0 (else enabled=1 would fail later), and when it would
	 * hook; enabled=0 is never refused.
	 */
	if (policy == SW_POLICY_BPF && (hook || k->val == &sw_policy)) {
		ret = sw_bpf_policy_check();
		if (ret)
			return ret;
	}
	if (shadow) {
		ret = sw_nr_probe_get(SW_PROBE_SHADOW);
		if (ret)
			return ret;
	}
	ret = hook ? sw_reach_start() : 0;
	if (!ret)
		ret = hook ? sw_hook_get(&sw_select_hook_ops, SW_SELECT_USER) :
			     sw_hook_put(&sw_select_hook_ops, SW_SELECT_USER);
	/* no hook (any more, or its install failed): no probe */
	if ((ret || !hook) && !sw_hook_is_set(&sw_select_hook_ops))
		sw_reach_stop();
	if (ret || !shadow)
		sw_nr_probe_put(SW_PROBE_SHADOW);
	return ret;
}

int sw_select_hook = SW_SELECT_HOOK_DEFAULT;

const char * const sw_select_hook_names[SW_SELECT_HOOK_NR] = {
	SW_SELECT_HOOKS(SW_ENUM_NAME, SW_ENUM_NAME)
};

/**
 * sw_select_hook_apply() - knob select_hook: how select_task_rq_fair is hooked
 * @k:   the knob
 * @old: the way in use
 * @new: the way asked for
 *
 * A hook in place is removed and installed again the new way; if that
 * fails, the old way is put back (and the error returned).
 *
 * Return: 0, -EOPNOTSUPP for direct on a kernel without direct calls, or
 * the error from installing.
 */
int sw_select_hook_apply(const struct sw_knob *k, int old, int new)
{
	int ret = sw_hook_set_direct(&sw_select_hook_ops,
				     new == SW_SELECT_HOOK_DIRECT);

	if (ret == -EOPNOTSUPP)
		pr_err("select_hook=direct: %s\n", SW_NO_DIRECT_WHY);
	return ret;
}

/* sw_count_decided()'s counters, in one range (stats.h) */
static_assert(SW_C_affine_pulls > SW_DECIDED_FIRST &&
	      SW_C_sis_calls > SW_DECIDED_FIRST &&
	      SW_C_sis_overloaded_skipped < SW_C_numa_backoff_set &&
	      SW_NR_DECIDED <= 32);

/* Take back the decision counts of a refused answer (sw_decided_log). */
static noinline void sw_decided_take_back(void)
{
	struct sw_decided_log *log = this_cpu_ptr(&sw_decided_log);
	u64 *c = this_cpu_ptr(&sw_stats)->c + SW_DECIDED_FIRST, n = 0;
	unsigned long mask = log->mask;
	int i;

	for_each_set_bit(i, &mask, SW_NR_DECIDED) {
		u64 by = BIT(i) & SW_DECIDED_ADDS ? log->n[i] : 1;

		c[i] -= by;
		n += by;
	}
	log->mask = 0;
	sw_count_add(SW_C_discarded_decisions, n);
}

/* One call in 2^SW_SAMPLE_SHIFT per CPU is timed for self_ns_per_call. */
#define SW_SAMPLE_SHIFT	6
static DEFINE_PER_CPU(unsigned int, sw_sample_tick);

/*
 * The attached program's select_cpu for this wakeup (bpf.c), the wakeup
 * recorded for smartwake_default_cpu(). A program that asked for the
 * module's answer and then declined gets that answer from the caller:
 * the path must not run twice (record_wakee() would count twice).
 */
__always_inline int sw_bpf_select_wakeup(struct sw_wake_ctx *ctx,
					 struct task_struct *p, int prev_cpu,
					 int wake_flags)
{
	int ret;

	ctx->bpf_p = p;
	ctx->bpf_prev_cpu = prev_cpu;
	ctx->bpf_wake_flags = wake_flags;
	ctx->bpf_default = SW_BPF_NO_DEFAULT;
	ret = sw_bpf_select(p, prev_cpu, wake_flags);
	ctx->bpf_p = NULL;
	return ret;
}

/**
 * sw_bpf_default_cpu() - the module's answer for the wakeup a program decides
 *
 * smartwake_default_cpu() (bpf.c): sw_wake() on the wakeup
 * sw_bpf_select_wakeup() recorded, in the caller's mode (policy=bpf:
 * committed with the program's answer if equal; policy=shadow: nothing
 * written), once per wakeup. Counted in bpf_default_calls.
 *
 * Return: a CPU, -ENOENT when the path hands the wakeup to the kernel,
 * -EBUSY outside a select_cpu program (or from its wake_wide callback).
 */
noinline int sw_bpf_default_cpu(void)
{
	struct sw_wake_ctx *ctx = this_cpu_ptr(&sw_wake_ctx);
	struct task_struct *p = ctx->bpf_p;

	if (!p)
		return -EBUSY;
	if (ctx->bpf_default == SW_BPF_NO_DEFAULT) {
		sw_count(SW_C_bpf_default_calls);
		/* the path may call the program's wake_wide: no recursion */
		ctx->bpf_p = NULL;
		ctx->bpf_default = sw_wake_ool(p, ctx->bpf_prev_cpu,
					       ctx->bpf_wake_flags,
					       smp_processor_id(),
					       &ctx->bpf_info);
		ctx->bpf_p = p;
	}
	return ctx->bpf_default < 0 ? -ENOENT : ctx->bpf_default;
}

/**
 * sw_bpf_shadowing() - the program runs for policy=shadow
 *
 * smartwake_shadowing() (bpf.c). A program runs only inside the decision
 * of a wakeup on this CPU, with interrupts off, and that decision's mode
 * is set around it: SW_WAKE_SHADOW by sw_wake_shadow() (shadow.c) around
 * each evaluation of the module's side, SW_WAKE_COMMIT by
 * sw_select_body() under policy=bpf. So the answer is the wakeup's own,
 * whatever the policy knob says meanwhile, and it costs the path nothing.
 *
 * Return: true while the module's side is evaluated for policy=shadow
 * (its answer only compared with the kernel's).
 */
bool sw_bpf_shadowing(void)
{
	return this_cpu_read(sw_wake_ctx.mode) == SW_WAKE_SHADOW;
}

/* knob trace_sample (knob_table.h): 1 decided wakeup in N per CPU traced */
int sw_trace_sample = 1;

/*
 * Start this decision's smartwake_wakeup record if it is the sampled one
 * of its CPU (the event is enabled). Return: true if it is.
 */
static __always_inline bool sw_trace_begin(struct sw_wake_ctx *ctx,
					   struct task_struct *p, int prev_cpu)
{
	unsigned int n = READ_ONCE(sw_trace_sample);
	struct sw_wake_trace *t = &ctx->trace;

	/* trace_sample=1, the default, needs no tick */
	if (n > 1) {
		if (++ctx->trace_tick < n)
			return false;
		ctx->trace_tick = 0;
	}
	/* field by field, neighbours together: merged stores, no memset */
	t->pid = sw_task(p, pid);
	t->waker = sw_task(current, pid);
	t->prev = prev_cpu;
	t->waker_flips = 0;
	t->wakee_flips = 0;
	t->factor = 0;
	t->scanned = 0;
	t->target = -1;
	t->idle = -1;
	t->recent = -1;
	t->mode = -1;
	t->wide = -1;
	t->how = -1;
	t->on = true;
	t->sample = n;
	return true;
}

/*
 * The record gathered by the path (wake.c, sis.c), one event per
 * decision; inline: the tracepoint's call is the only one.
 */
static __always_inline void sw_trace_end(struct sw_wake_ctx *ctx, int cpu)
{
	ctx->trace.on = false;
	ctx->trace.result = cpu;
	trace_smartwake_wakeup(&ctx->trace);
}

/*
 * policy=bpf: the program's select_cpu answer (@bpf stays true), or, when
 * it declines, the module's answer it asked for (@bpf false), or
 * SW_BPF_DECLINED (@bpf false): the path is still to run.
 */
static __always_inline int sw_select_bpf(struct task_struct *p, int prev_cpu,
					 int wake_flags, bool *bpf)
{
	struct sw_wake_ctx *ctx = this_cpu_ptr(&sw_wake_ctx);
	int new_cpu = sw_bpf_select_wakeup(ctx, p, prev_cpu, wake_flags);

	if (new_cpu == SW_BPF_DECLINED) {
		*bpf = false;
		/* a program that asked for the module's answer declined */
		if (ctx->bpf_default != SW_BPF_NO_DEFAULT)
			new_cpu = ctx->bpf_default;
	} else if (new_cpu != SW_BPF_NONE &&
		   ctx->bpf_default != SW_BPF_NO_DEFAULT &&
		   new_cpu != ctx->bpf_default) {
		/* the default's hint and backoff go with its answer only */
		ctx->clear_idle_cores = NULL;
		ctx->numa_backoff = false;
	}
	return new_cpu;
}

/*
 * The module's answer for a wakeup sw_select_wanted_args() let through,
 * or -1 when it hands the wakeup back to the kernel (an unmodelled case
 * found only in the domain walk, a refused answer), state restored.
 * The wakeup context is written field by field (one per-CPU store each,
 * no pointer kept across the path).
 */
static __always_inline int __sw_select_body(struct task_struct *p,
					    int prev_cpu, int wake_flags,
					    bool timed)
{
	int policy = READ_ONCE(sw_policy);
	struct sw_wake_info info;
	struct sw_saved sv __uninitialized;
	bool bpf = policy == SW_POLICY_BPF;
	struct sched_domain_shared *clear;
	int cpu, new_cpu;

	lockdep_assert_held(&sw_task(p, pi_lock));
	cpu = smp_processor_id();
	if (policy == SW_POLICY_SHADOW)
		return sw_shadow(p, prev_cpu, wake_flags, cpu, timed);

	sw_save(&sv, p);
	__this_cpu_write(sw_decided_log.mask, 0);
	/*
	 * A failed idle-core search clears the LLC's has_idle_cores hint
	 * only once the answer is used: a wakeup handed back to the kernel
	 * must find the hint as it was (sw_restore() covers the rest).
	 * Interrupts are off, so the domain's sched_domain_shared outlives
	 * the RCU section of sw_wake().
	 */
	__this_cpu_write(sw_wake_ctx.clear_idle_cores, NULL);
	__this_cpu_write(sw_wake_ctx.numa_backoff, false);
	__this_cpu_write(sw_wake_ctx.bpf, bpf);
	__this_cpu_write(sw_wake_ctx.mode, SW_WAKE_COMMIT);
	new_cpu = SW_BPF_DECLINED;
	if (unlikely(bpf)) {
		new_cpu = sw_select_bpf(p, prev_cpu, wake_flags, &bpf);
		if (unlikely(new_cpu == SW_BPF_NONE)) {
			__this_cpu_write(sw_wake_ctx.mode, SW_WAKE_NOW);
			__this_cpu_write(sw_wake_ctx.bpf, false);
			return -1;
		}
	}
	if (new_cpu == SW_BPF_DECLINED)
		new_cpu = sw_wake(p, prev_cpu, wake_flags, cpu, &info);
	__this_cpu_write(sw_wake_ctx.mode, SW_WAKE_NOW);
	__this_cpu_write(sw_wake_ctx.bpf, false);
	if (new_cpu < 0) {
		sw_restore(&sv, p);
		sw_decided_take_back();
		sw_count(SW_C_fallback_original);
		return -1;
	}
	if (unlikely(sw_testing_bad_answer()))
		new_cpu = sw_inject_bad_answer(p, new_cpu);
	/*
	 * p->cpus_ptr cannot change under p->pi_lock, so an answer outside
	 * it is a bug of the module. Every CPU the path names was active
	 * when it was looked at, but sched_cpu_deactivate() may clear the
	 * bit at any moment: that race is counted apart (the kernel's own
	 * answer has the same race, repaired by select_task_rq()).
	 */
	if ((unsigned int)new_cpu >= nr_cpu_ids ||
	    !cpumask_test_cpu(new_cpu, sw_task(p, cpus_ptr)) ||
	    !cpu_active(new_cpu)) {
		sw_restore(&sv, p);
		sw_decided_take_back();
		if (bpf) {
			/* the program's answer: refused, whatever was wrong */
			sw_bpf_refuse(SW_BPF_SELECT_CPU);
		} else if ((unsigned int)new_cpu < nr_cpu_ids &&
			   cpumask_test_cpu(new_cpu, sw_task(p, cpus_ptr))) {
			sw_count(SW_C_inactive_answers);
		} else {
			sw_count(SW_C_invariant_violations);
			sw_watchdog_violation();
		}
		return -1;
	}
	clear = __this_cpu_read(sw_wake_ctx.clear_idle_cores);
	if (clear)
		WRITE_ONCE(sw_sds(clear, has_idle_cores), 0);
	if (__this_cpu_read(sw_wake_ctx.numa_backoff))
		sw_numa_backoff_store(p);
	sw_locality_count(prev_cpu, cpu, new_cpu);
	return new_cpu;
}

/* __sw_select_body(), and its smartwake_wakeup event when traced */
static __always_inline int sw_select_body(struct task_struct *p, int prev_cpu,
					  int wake_flags, bool timed)
{
	struct sw_wake_ctx *ctx = this_cpu_ptr(&sw_wake_ctx);
	bool traced = trace_smartwake_wakeup_enabled() &&
		      sw_trace_begin(ctx, p, prev_cpu);
	int cpu = __sw_select_body(p, prev_cpu, wake_flags, timed);

	if (unlikely(traced))
		sw_trace_end(ctx, cpu);
	return cpu;
}

/**
 * sw_select_decide() - the module's select_task_rq_fair(), or a hand-back
 * @p:          the task being placed
 * @prev_cpu:   the CPU it last ran on
 * @wake_flags: WF_* flags of the caller
 * @ask:        select_hook=direct: ask sw_select_wanted_args()'s questions
 *              first (the trampoline let the module's own calls through);
 *              false: the ftrace-ops hook, whose callback asked them
 *
 * With p->pi_lock held and interrupts disabled. One function for both
 * hooks: the direct trampoline's call is the only call before the path
 * (a second call, prologue and argument moves less, scripts/insnprof.sh).
 * Every answer of the module's path is checked against p->cpus_ptr and
 * cpu_active_mask; a failing one is discarded and counted
 * (invariant_violations, inactive_answers). One call in 64 per CPU is
 * timed with local_clock() (self_ns_sampled, self_calls_sampled); under
 * policy=shadow also its two halves (sw_shadow()).
 *
 * Return: the CPU to place @p on, or -1: the kernel's function decides.
 */
noinline int notrace __no_stack_protector
sw_select_decide(struct task_struct *p, int prev_cpu, int wake_flags, bool ask)
{
	unsigned int tick;
	bool timed;
	u64 t0 = 0;
	int cpu;

	if (ask && !__sw_select_wanted_args(p, prev_cpu, wake_flags))
		return -1;
	/* a read and a write: no locked add (interrupts are off) */
	tick = __this_cpu_read(sw_sample_tick) + 1;
	__this_cpu_write(sw_sample_tick, tick);
	timed = !(tick & ((1U << SW_SAMPLE_SHIFT) - 1));

	/* one copy of the body: the timed call differs only here */
	if (unlikely(timed))
		t0 = local_clock();
	cpu = sw_select_body(p, prev_cpu, wake_flags, timed);
	if (unlikely(timed)) {
		t0 = local_clock() - t0;
		sw_count_add(SW_C_self_ns_sampled, t0);
		sw_count(SW_C_self_calls_sampled);
		sw_cost_record(SW_COST_SELF, t0);
	}
	return cpu;
}

/**
 * sw_select_task_rq_fair() - the ftrace-ops hook's replacement
 * @p:          the task being placed
 * @prev_cpu:   the CPU it last ran on
 * @wake_flags: WF_* flags of the caller
 *
 * Reached through the redirect (select_hook=ftrace) for wakeups
 * sw_select_wanted() accepted; a hand-back calls the kernel's function
 * (the hook lets the module's own call through).
 *
 * Return: the CPU to place @p on.
 */
int notrace sw_select_task_rq_fair(struct task_struct *p, int prev_cpu,
				   int wake_flags)
{
	int cpu = sw_select_decide(p, prev_cpu, wake_flags, false);

	return cpu >= 0 ? cpu : sw_orig_select(p, prev_cpu, wake_flags);
}

#if defined(SW_HAVE_DIRECT) && defined(CONFIG_X86_64)
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/orc_types.h>

/* Trees without call-depth tracking (6.1) have no accounting to do. */
#ifndef CALL_DEPTH_ACCOUNT
#define CALL_DEPTH_ACCOUNT ""
#endif
/* "a function's frame, CFA at %rsp + 8", in the tree's argument order */
#ifdef SW_HAVE_UNWIND_HINT_SIGNAL
#define SW_UNWIND_HINT_FUNC	UNWIND_HINT(UNWIND_HINT_TYPE_FUNC, ORC_REG_SP, 8, 0)
#else
#define SW_UNWIND_HINT_FUNC	UNWIND_HINT(ORC_REG_SP, 8, UNWIND_HINT_TYPE_FUNC, 0)
#endif

/*
 * On entry: 0(%rsp) returns into select_task_rq_fair() after its fentry
 * call, 8(%rsp) into its caller: a caller in the module's text goes on
 * into the kernel's function at once (shadow's second call, every
 * hand-back: no register saved); any other asks sw_select_decide() (with
 * preemption and interrupts disabled: every caller of
 * select_task_rq_fair() holds p->pi_lock). Only its three argument
 * registers are saved: at a function's entry no other caller-saved
 * register holds a value (%r11 is scratch), and three pushes keep the
 * stack 16-byte aligned at the call.
 */
asm("	.pushsection	.text, \"ax\", @progbits\n"
"	.type		sw_select_tramp, @function\n"
"	.globl		sw_select_tramp\n"
"sw_select_tramp:\n"
	ASM_ENDBR
"	pushq	%rbp\n"
"	movq	%rsp, %rbp\n"
	CALL_DEPTH_ACCOUNT
"	movq	16(%rbp), %r11\n"
"	subq	sw_select_text_base(%rip), %r11\n"
"	cmpq	sw_select_text_size(%rip), %r11\n"
"	jb	2f\n"
"	pushq	%rdi\n"
"	pushq	%rsi\n"
"	pushq	%rdx\n"
"	movl	$1, %ecx\n"
"	call	sw_select_decide\n"
"	testl	%eax, %eax\n"
"	js	1f\n"
"	leave\n"
"	addq	$8, %rsp\n"
	SW_UNWIND_HINT_FUNC
	ASM_RET
"1:	popq	%rdx\n"
"	popq	%rsi\n"
"	popq	%rdi\n"
"2:	leave\n"
	ASM_RET
"	.size		sw_select_tramp, .-sw_select_tramp\n"
"	.popsection\n"
);
#elif defined(SW_HAVE_DIRECT) && defined(CONFIG_ARM64)
/*
 * On entry (arch/arm64/kernel/entry-ftrace.S): x9 returns into
 * select_task_rq_fair()'s caller, x30 into the function after its patched
 * BL, x0-x2 are its arguments. As on x86: a caller in the module's text
 * goes on into the kernel's function; any other asks sw_select_decide().
 * The frame record names the real caller (x9) for the unwinder. The
 * function signs its return address (paciasp) only after the patch site,
 * so returning the module's answer straight to the caller through the
 * unsigned x9 skips nothing. "bti c" (hint 34): ftrace_caller reaches a
 * far trampoline with "br x17".
 */
asm("	.pushsection	.text, \"ax\", @progbits\n"
"	.type		sw_select_tramp, @function\n"
"	.globl		sw_select_tramp\n"
"	.balign		4\n"
"sw_select_tramp:\n"
"	hint	34\n"
"	stp	x29, x9, [sp, #-48]!\n"
"	mov	x29, sp\n"
"	stp	x30, x0, [sp, #16]\n"
"	stp	x1, x2, [sp, #32]\n"
"	adrp	x10, sw_select_text_base\n"
"	ldr	x10, [x10, :lo12:sw_select_text_base]\n"
"	adrp	x11, sw_select_text_size\n"
"	ldr	x11, [x11, :lo12:sw_select_text_size]\n"
"	sub	x10, x9, x10\n"
"	cmp	x10, x11\n"
"	b.lo	1f\n"
"	mov	w3, #1\n"
"	bl	sw_select_decide\n"
"	tbnz	w0, #31, 1f\n"
"	ldp	x29, x30, [sp], #48\n"
"	ret\n"
"1:	ldp	x1, x2, [sp, #32]\n"
"	ldp	x9, x0, [sp, #16]\n"
"	ldp	x29, x30, [sp], #48\n"
"	ret	x9\n"
"	.size		sw_select_tramp, .-sw_select_tramp\n"
"	.popsection\n"
);
#endif /* SW_HAVE_DIRECT */
