// SPDX-License-Identifier: GPL-2.0
/*
 * The replacement of select_task_rq_fair(). The kernel's function inlines
 * record_wakee(), wake_wide(), wake_affine() and select_idle_sibling(), so
 * changing any of them means taking over the whole wakeup fast path.
 *
 * With policy=stock (the default) or enabled=0 every call goes to the
 * kernel's function. With policy=smartwake, wakeups (WF_TTWU) take the
 * module's path, which follows 6.12.117's fair.c step by step and asks the
 * policy core (include/smartwake/policy.h) for every decision; fork and
 * exec balancing stay with the kernel.
 *
 * policy=shadow (differential mode): shadow.c, on the same path.
 *
 * Deliberate differences from the kernel: the one list is in
 * Documentation/design.md, "The wakeup path and its differences from the
 * kernel"; change it with the code.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/mmu_context.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/tracepoint.h>
#include "ksched.h"
#include "bpf.h"
#include "hooks.h"
#include "knob_defs.h"
#include "numa.h"
#include "overload.h"
#include "reach.h"
#include "sched_access.h"
#include "scope.h"
#include "stats.h"
#include "symbols.h"
#include "wake.h"
#include "wake_path.h"
#include "testing.h"
#include "trace.h"
#include "watchdog.h"

typedef int (*sw_select_fn)(struct task_struct *p, int prev_cpu, int wake_flags);

/* the wakeup being decided on each CPU (wake_path.h) */
DEFINE_PER_CPU(struct sw_wake_ctx, sw_wake_ctx);

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
 * Return: true for the cases listed under 1. at the top of this file.
 */
static bool sw_unmodelled(struct task_struct *p, int prev_cpu, int wake_flags,
			  int cpu)
{
	if (wake_flags & SW_WF_CURRENT_CPU)
		return true;
	if (sw_key_on(sw_sym_sched_asym_cpucapacity))
		return true;
	/* is_rd_overutilized() false: find_energy_efficient_cpu() runs */
	if (sw_key_on(sw_sym_sched_energy_present) &&
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

/* record_wakee() on current, with the decay knob */
static __always_inline void sw_record(struct task_struct *p, bool lean)
{
	struct sw_flips s = {
		.flips = sw_task(current, wakee_flips),
		.decay_ts = sw_task(current, wakee_flip_decay_ts),
	};
	bool new_wakee = sw_task(current, last_wakee) != p;

	s = sw_record_wakee(sw_knob(lean, sw_decay), s, new_wakee, jiffies, HZ);
	sw_task(current, wakee_flips) = s.flips;
	sw_task(current, wakee_flip_decay_ts) = s.decay_ts;
	if (new_wakee)
		sw_task(current, last_wakee) = p;
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

	sw_count(SW_C_affine_attempts);

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
	sw_count(SW_C_affine_pulls);
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

/* sw_wake(), one copy: @lean takes the decision knobs as constants */
static __always_inline int __sw_wake(struct task_struct *p, int prev_cpu,
				     int wake_flags, int cpu,
				     struct sw_wake_info *info, bool lean)
{
	bool sync = sw_knob(lean, sw_sync) && (wake_flags & WF_SYNC) &&
		    !(sw_task(current, flags) & PF_EXITING);
	/* SD_flags and WF_flags share the first nibble */
	int sd_flag = wake_flags & 0xF, new_cpu = prev_cpu;
	struct sched_domain *tmp, *affine = NULL, *slow = NULL;
	int mode = sw_knob(lean, sw_wide_mode);
	unsigned int factor;
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

	rcu_read_lock();
	for (tmp = rcu_dereference(sw_rq(sw_cpu_rq(cpu), sd)); tmp;
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
	if (slow) {
		rcu_read_unlock();
		return -1;
	}

	if (wide == SW_WIDE_WAKER_MASTER)
		sw_count(SW_C_wide_waker_master);
	else if (wide == SW_WIDE_WAKEE_MASTER)
		sw_count(SW_C_wide_wakee_master);
	trace_smartwake_wake_wide(sw_task(current, pid), sw_task(p, pid),
				  sw_task(current, wakee_flips),
				  sw_task(p, wakee_flips), factor, mode, wide);

	if (affine && cpu != prev_cpu) {
		new_cpu = -1;
		if (sw_bpf_cbs_on())
			new_cpu = sw_wake_bpf_target(p, prev_cpu, cpu, sync);
		if (new_cpu < 0)
			new_cpu = sw_do_wake_affine(affine, p, cpu, prev_cpu,
						    sync, lean);
	}
	info->target = new_cpu;
	if (sw_bpf_cbs_on()) {
		int idle = sw_wake_bpf_idle(p, prev_cpu, new_cpu);

		if (idle >= 0) {
			rcu_read_unlock();
			return idle;
		}
	}
	new_cpu = sw_select_idle_sibling(p, prev_cpu, new_cpu);
	rcu_read_unlock();
	return new_cpu;
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

DEFINE_STATIC_KEY_TRUE(sw_lean_key);

/**
 * sw_lean_update() - switch the wakeup path's copy after a knob write
 *
 * Called by knobs.c under the knob lock after every change of a value:
 * the lean copy while every knob of SW_LEAN_KNOBS holds mainline's value.
 */
void sw_lean_update(void)
{
	bool lean = !SW_LEAN_ANY_DIFFERS();

	if (lean == static_key_enabled(&sw_lean_key))
		return;
	if (lean)
		static_branch_enable(&sw_lean_key);
	else
		static_branch_disable(&sw_lean_key);
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
 * Asked by the select hook (either kind, wake.c and direct.c) with
 * preemption disabled, before anything else. Whatever the module would
 * hand back untouched (a knob says the kernel decides, fork/exec
 * balancing, a task outside knob scope, the unmodelled cases) goes
 * straight into the kernel's function.
 *
 * Return: true to let sw_select_decide() place @p.
 */
bool notrace sw_select_wanted_args(struct task_struct *p, int prev_cpu,
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
static void notrace sw_select_redirect(unsigned long ip, unsigned long parent_ip,
				       struct ftrace_ops *op,
				       struct ftrace_regs *fregs)
{
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (!sw_from_module(parent_ip) && sw_select_wanted(fregs))
		sw_fregs_set_ip(fregs, (unsigned long)sw_select_task_rq_fair);
	ftrace_test_recursion_unlock(bit);
}

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

void sw_select_register(void)
{
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
		pr_err("select_hook=direct: this kernel has no direct ftrace calls\n");
	return ret;
}

/*
 * The decision counters (wide_* to numa_backoff_set in counters.h): an
 * answer the module refuses takes its counts back, so they describe
 * answers that were used (discarded_decisions keeps the sum).
 */
#define SW_DECIDED_FIRST	SW_C_wide_waker_master
#define SW_NR_DECIDED		(SW_C_numa_backoff_set - SW_DECIDED_FIRST + 1)
static_assert(SW_C_affine_pulls > SW_DECIDED_FIRST &&
	      SW_C_sis_calls > SW_DECIDED_FIRST &&
	      SW_C_sis_overloaded_skipped < SW_C_numa_backoff_set);

static void sw_decided_take_back(const u64 *snap)
{
	u64 *c = this_cpu_ptr(&sw_stats)->c + SW_DECIDED_FIRST, n = 0;
	int i;

	for (i = 0; i < SW_NR_DECIDED; i++) {
		n += c[i] - snap[i];
		c[i] = snap[i];
	}
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
static __always_inline int sw_bpf_select_wakeup(struct sw_wake_ctx *ctx,
						struct task_struct *p,
						int prev_cpu, int wake_flags)
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

/*
 * The out-of-line copy of sw_wake() for the rare callers (a program's
 * smartwake_default_cpu(), shadow's race re-evaluation): one copy, and
 * not the lean one, so the unit's growth does not cost the hot copies
 * the inlining of their helpers (a fourth copy un-inlined
 * sw_available_idle_cpu() and others: +14 instructions per call under
 * policy=shadow, scripts/check.sh cost-stock; scripts/insnprof.sh shows
 * vcpu_is_preempted as a module function when it happens).
 */
static noinline int sw_wake_ool(struct task_struct *p, int prev_cpu,
				int wake_flags, int cpu,
				struct sw_wake_info *info)
{
	/* the copy that reads every knob: the lean one decides the same */
	return __sw_wake(p, prev_cpu, wake_flags, cpu, info, false);
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

/*
 * The module's answer for a wakeup sw_select_wanted_args() let through,
 * or -1 when it hands the wakeup back to the kernel (an unmodelled case
 * found only in the domain walk, a refused answer), state restored.
 */
static __always_inline int sw_select_body(struct task_struct *p, int prev_cpu,
					  int wake_flags, bool timed)
{
	struct sw_wake_ctx *ctx = this_cpu_ptr(&sw_wake_ctx);
	int policy = READ_ONCE(sw_policy);
	u64 decided[SW_NR_DECIDED] __uninitialized;
	struct sw_wake_info info;
	struct sw_saved sv __uninitialized;
	bool bpf = policy == SW_POLICY_BPF;
	int cpu, new_cpu;

	lockdep_assert_held(&sw_task(p, pi_lock));
	cpu = smp_processor_id();
	if (policy == SW_POLICY_SHADOW)
		return sw_shadow(p, prev_cpu, wake_flags, cpu, timed);

	sw_save(&sv, p);
	memcpy(decided, this_cpu_ptr(&sw_stats)->c + SW_DECIDED_FIRST,
	       sizeof(decided));
	/*
	 * A failed idle-core search clears the LLC's has_idle_cores hint
	 * only once the answer is used: a wakeup handed back to the kernel
	 * must find the hint as it was (sw_restore() covers the rest).
	 * Interrupts are off, so the domain's sched_domain_shared outlives
	 * the RCU section of sw_wake().
	 */
	ctx->clear_idle_cores = NULL;
	ctx->numa_backoff = false;
	ctx->bpf = bpf;
	ctx->mode = SW_WAKE_COMMIT;
	new_cpu = SW_BPF_DECLINED;
	if (policy == SW_POLICY_BPF) {
		new_cpu = sw_bpf_select_wakeup(ctx, p, prev_cpu, wake_flags);
		if (unlikely(new_cpu == SW_BPF_NONE)) {
			ctx->mode = SW_WAKE_NOW;
			ctx->bpf = false;
			return -1;
		}
	}
	if (new_cpu == SW_BPF_DECLINED) {
		bpf = false;
		/* a program that asked for the module's answer declined */
		if (policy == SW_POLICY_BPF &&
		    ctx->bpf_default != SW_BPF_NO_DEFAULT)
			new_cpu = ctx->bpf_default;
		else
			new_cpu = sw_wake(p, prev_cpu, wake_flags, cpu, &info);
	} else if (bpf && ctx->bpf_default != SW_BPF_NO_DEFAULT &&
		   new_cpu != ctx->bpf_default) {
		/* the default's hint and backoff go with its answer only */
		ctx->clear_idle_cores = NULL;
		ctx->numa_backoff = false;
	}
	ctx->mode = SW_WAKE_NOW;
	ctx->bpf = false;
	if (new_cpu < 0) {
		sw_restore(&sv, p);
		sw_decided_take_back(decided);
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
		sw_decided_take_back(decided);
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
	if (ctx->clear_idle_cores)
		WRITE_ONCE(sw_sds(ctx->clear_idle_cores, has_idle_cores), 0);
	if (ctx->numa_backoff)
		sw_numa_backoff_store(p);
	sw_locality_count(prev_cpu, cpu, new_cpu);
	return new_cpu;
}

/**
 * sw_select_decide() - the module's select_task_rq_fair(), or a hand-back
 * @p:          the task being placed
 * @prev_cpu:   the CPU it last ran on
 * @wake_flags: WF_* flags of the caller
 *
 * For wakeups sw_select_wanted_args() accepted, with p->pi_lock held and
 * interrupts disabled. Every answer of the module's path is checked
 * against p->cpus_ptr and cpu_active_mask; a failing one is discarded and
 * counted (invariant_violations, inactive_answers). One call in 64 per
 * CPU is timed with local_clock() (self_ns_sampled, self_calls_sampled);
 * under policy=shadow also its two halves (sw_shadow()).
 *
 * Return: the CPU to place @p on, or -1: the kernel's function decides.
 */
int notrace sw_select_decide(struct task_struct *p, int prev_cpu,
			     int wake_flags)
{
	bool timed = !(__this_cpu_inc_return(sw_sample_tick) &
		       ((1U << SW_SAMPLE_SHIFT) - 1));
	u64 t0 = 0;
	int cpu;

	/* one copy of the body: the timed call differs only here */
	if (unlikely(timed))
		t0 = local_clock();
	cpu = sw_select_body(p, prev_cpu, wake_flags, timed);
	if (unlikely(timed)) {
		sw_count_add(SW_C_self_ns_sampled, local_clock() - t0);
		sw_count(SW_C_self_calls_sampled);
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
	int cpu = sw_select_decide(p, prev_cpu, wake_flags);

	return cpu >= 0 ? cpu : sw_orig_select(p, prev_cpu, wake_flags);
}
