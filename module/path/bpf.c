// SPDX-License-Identifier: GPL-2.0
/*
 * policy=bpf: the wakeup placement decided by a BPF program through the
 * module's own struct_ops type, struct smartwake_ops (where the BPF core
 * registers a module's: SW_HAVE_BPF_STRUCT_OPS), the kfuncs its programs
 * may call, and the checks of their answers. The callbacks, the
 * lifetime of an attached map, and why the kfuncs live here:
 * Documentation/design.md, "policy=bpf".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <smartwake/policy.h>
#include <smartwake/ops.h>
#include "bpf.h"
#include "../cost.h"
#include "seam.h"
#include "../knob_defs.h"
#include "../stats.h"
#include "../symbols.h"
#include "../watchdog.h"

DEFINE_STATIC_KEY_FALSE(sw_bpf_key);

/* per callback: its calls, declines, refusals, timing, stats line */
static const struct {
	const char *name;
	const char *ns_line;
	enum sw_counter calls, declined;
	enum sw_counter refused;	/* SW_NR_COUNTERS: never invalid */
	enum sw_counter ns, timed;
	enum sw_cost_series series;	/* its histogram */
} sw_bpf_cb_info[SW_BPF_NR_CBS] = {
	[SW_BPF_SELECT_CPU] = { "select_cpu", "bpf_ns_per_call",
		SW_C_bpf_calls, SW_C_bpf_declined,
		SW_C_bpf_select_refused,
		SW_C_bpf_ns_sampled, SW_C_bpf_calls_sampled,
		SW_COST_BPF_SELECT },
	[SW_BPF_WAKE_WIDE] = { "wake_wide", "bpf_wide_ns_per_call",
		SW_C_bpf_wide_calls, SW_C_bpf_wide_declined,
		SW_NR_COUNTERS,
		SW_C_bpf_wide_ns_sampled, SW_C_bpf_wide_calls_sampled,
		SW_COST_BPF_WIDE },
	[SW_BPF_WAKE_AFFINE] = { "wake_affine", "bpf_affine_ns_per_call",
		SW_C_bpf_affine_calls, SW_C_bpf_affine_declined,
		SW_C_bpf_affine_refused,
		SW_C_bpf_affine_ns_sampled, SW_C_bpf_affine_calls_sampled,
		SW_COST_BPF_AFFINE },
	[SW_BPF_SELECT_IDLE] = { "select_idle", "bpf_idle_ns_per_call",
		SW_C_bpf_idle_calls, SW_C_bpf_idle_declined,
		SW_C_bpf_idle_refused,
		SW_C_bpf_idle_ns_sampled, SW_C_bpf_idle_calls_sampled,
		SW_COST_BPF_IDLE },
};

/*
 * The attached program gave an invalid answer under revert_on=violation:
 * set aside until its map is unregistered. policy=bpf is refused and
 * policy=shadow no longer evaluates it, so a revert cannot be undone by
 * setting the policy back with the same program.
 */
static bool sw_bpf_revoked;

/**
 * sw_bpf_refuse() - count a program's invalid answer
 * @cb: the callback that gave it
 *
 * The path discards the answer (outside p->cpus_ptr, not active, no CPU)
 * and lets the knobs decide; revert_on=violation reverts and sets the
 * program aside. Out of line: rare, and the path stays short.
 */
void sw_bpf_refuse(enum sw_bpf_cb_id cb)
{
	sw_count(SW_C_bpf_refused);
	if (sw_bpf_cb_info[cb].refused != SW_NR_COUNTERS)
		sw_count(sw_bpf_cb_info[cb].refused);
	if (READ_ONCE(sw_revert_on) == SW_REVERT_VIOLATION)
		WRITE_ONCE(sw_bpf_revoked, true);
	sw_watchdog_violation();
}

#ifdef SW_HAVE_BPF_STRUCT_OPS

/* struct smartwake_ops: include/smartwake/ops.h, shared with the programs */

/* where each callback is, for the checks and the "bpf" file */
static const size_t sw_bpf_cb_off[SW_BPF_NR_CBS] = {
	[SW_BPF_SELECT_CPU] = offsetof(struct smartwake_ops, select_cpu),
	[SW_BPF_WAKE_WIDE] = offsetof(struct smartwake_ops, wake_wide),
	[SW_BPF_WAKE_AFFINE] = offsetof(struct smartwake_ops, wake_affine),
	[SW_BPF_SELECT_IDLE] = offsetof(struct smartwake_ops, select_idle),
};

static void *sw_bpf_cb(const struct smartwake_ops *ops, unsigned int i)
{
	return *(void *const *)((const char *)ops + sw_bpf_cb_off[i]);
}

/* one call in 64 per CPU of each callback is timed */
#define SW_BPF_SAMPLE_MASK	63U
static DEFINE_PER_CPU(unsigned int, sw_bpf_tick);

/**
 * sw_bpf_enter() - count a callback's call, start timing it if sampled
 * @cb: the callback about to be called
 *
 * Return: the start of a sampled call, or 0; for sw_bpf_leave().
 */
static __always_inline u64 sw_bpf_enter(enum sw_bpf_cb_id cb)
{
	sw_count(sw_bpf_cb_info[cb].calls);
	if (this_cpu_inc_return(sw_bpf_tick) & SW_BPF_SAMPLE_MASK)
		return 0;
	return local_clock();
}

/**
 * sw_bpf_leave() - time a callback's call, count it if it declined
 * @cb: the callback that returned
 * @t0: sw_bpf_enter()'s answer
 * @r:  what the callback returned (negative: it declined)
 *
 * Return: true when the callback declined.
 */
static __always_inline bool sw_bpf_leave(enum sw_bpf_cb_id cb, u64 t0, s32 r)
{
	if (unlikely(t0)) {
		t0 = local_clock() - t0;
		sw_count_add(sw_bpf_cb_info[cb].ns, t0);
		sw_count(sw_bpf_cb_info[cb].timed);
		sw_cost_record(sw_bpf_cb_info[cb].series, t0);
	}
	if (r >= 0)
		return false;
	sw_count(sw_bpf_cb_info[cb].declined);
	return true;
}

static struct smartwake_ops __rcu *sw_bpf_ops;
static int sw_bpf_reg_err = -ENODEV;	/* 0 once the type is registered */
static int sw_bpf_kfunc_err = -ENODEV;	/* 0 once the kfuncs are */
static const struct btf *sw_bpf_btf;	/* the module's, which has the type */

/*
 * sw_bpf_reg_err when the module has no BTF: the BPF core's own answer
 * then is 0 (see sw_bpf_register()), so this one is the module's.
 */
#define SW_BPF_NO_BTF		(-ENODATA)
/* why the type is not registered, in words, for the log and the bpf file */
static const char *sw_bpf_reg_why = "not registered yet";

static bool sw_bpf_is_valid_access(int off, int size,
				   enum bpf_access_type type,
				   const struct bpf_prog *prog,
				   struct bpf_insn_access_aux *info)
{
	return bpf_tracing_btf_ctx_access(off, size, type, prog, info);
}

static const struct bpf_verifier_ops sw_bpf_verifier_ops = {
	.get_func_proto = bpf_base_func_proto,
	.is_valid_access = sw_bpf_is_valid_access,
};

/* at registration: the BTF object the type (and its programs) refer to */
static int sw_bpf_init(struct btf *btf)
{
	sw_bpf_btf = btf;
	return 0;
}

/*
 * A struct_ops program attaches to a type of one BTF object (verifier.c,
 * check_struct_ops_btf_id()), and smartwake_ops is the module's only one.
 */
static bool sw_bpf_prog_is_ours(const struct bpf_prog *prog)
{
	return prog->type == BPF_PROG_TYPE_STRUCT_OPS && sw_bpf_btf &&
	       prog->aux->attach_btf == sw_bpf_btf;
}

/* interrupts are off where the callbacks run */
static int sw_bpf_check_member(const struct btf_type *t,
			       const struct btf_member *member,
			       const struct bpf_prog *prog)
{
	return prog->sleepable ? -EINVAL : 0;
}

static int sw_bpf_init_member(const struct btf_type *t,
			      const struct btf_member *member,
			      void *kdata, const void *udata)
{
	return 0;
}

static int sw_bpf_reg(void *kdata, struct bpf_link *link)
{
	struct smartwake_ops *ops = kdata;
	unsigned int i, n = 0;
	int ret;

	/* the path calls them through pointers: the BPF trampolines */
	for (i = 0; i < SW_BPF_NR_CBS; i++) {
		if (!sw_bpf_cb(ops, i))
			continue;
		n++;
		ret = sw_endbr_check(sw_bpf_cb_info[i].name, sw_bpf_cb(ops, i));
		if (ret) {
			pr_err("policy=bpf: callback %s: its BPF trampoline is no call target\n",
			       sw_bpf_cb_info[i].name);
			return ret;
		}
	}
	if (!n) {
		pr_err("policy=bpf: the smartwake_ops map has no program\n");
		return -EINVAL;
	}
	if (cmpxchg((struct smartwake_ops __force **)&sw_bpf_ops, NULL,
		    kdata))
		return -EEXIST;
	/* reg and unreg run in process context, one map at a time */
	WRITE_ONCE(sw_bpf_revoked, false);
	static_branch_enable(&sw_bpf_key);
	pr_info("policy=bpf: a program is attached\n");
	return 0;
}

static void sw_bpf_unreg(void *kdata, struct bpf_link *link)
{
	if (cmpxchg((struct smartwake_ops __force **)&sw_bpf_ops, kdata,
		    NULL) != kdata)
		return;
	/* a wakeup that saw the key on finds no ops: the kernel decides */
	static_branch_disable(&sw_bpf_key);
	WRITE_ONCE(sw_bpf_revoked, false);
	pr_info("policy=bpf: the program is detached\n");
	/* policy=bpf has nothing to run: the kernel decides again */
	if (READ_ONCE(sw_policy) == SW_POLICY_BPF &&
	    sw_knob_set("policy", SW_POLICY_STOCK))
		pr_warn("policy=bpf without a program: set policy=stock\n");
}

/*
 * The kfuncs (listed in Documentation/design.md, "policy=bpf"), for the
 * programs of struct smartwake_ops only (sw_bpf_prog_is_ours(): a filter
 * on the set). A CPU id outside the possible CPUs gets false or -EINVAL,
 * never a read; the reads are bpf_view.c's, since this file must not
 * include the private sched.h: the verifier matches a kfunc's task_struct
 * with the callback's by BTF id, one type only within one unit.
 */

/* later kernels take trusted pointers by default, and dropped the flag */
#ifndef KF_TRUSTED_ARGS
#define KF_TRUSTED_ARGS 0
#endif

/* a CPU id a program handed in: one the kernel has per-CPU data for */
static bool sw_kf_cpu_ok(s32 cpu)
{
	return (u32)cpu < nr_cpu_ids && cpu_possible(cpu);
}

__bpf_kfunc_start_defs();

/**
 * smartwake_cpu_idle() - available_idle_cpu() as the module's path tests it
 * @cpu: a CPU id
 *
 * Return: @cpu runs its idle task with nothing queued and is not a
 * preempted vCPU; false for an invalid id.
 */
__bpf_kfunc bool smartwake_cpu_idle(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) && sw_bpf_view_idle(cpu);
}

/**
 * smartwake_cpu_sched_idle() - sched_idle_cpu(): runs only SCHED_IDLE tasks
 * @cpu: a CPU id
 *
 * Return: true when everything runnable on @cpu is SCHED_IDLE; false for
 * an invalid id.
 */
__bpf_kfunc bool smartwake_cpu_sched_idle(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) && sw_bpf_view_sched_idle(cpu);
}

/**
 * smartwake_cpu_overloaded() - the 2022 idle-scan filter's test
 * @cpu: a CPU id
 *
 * Return: more than one pullable non-idle fair task on @cpu (the test
 * knob sis_filter's mask is kept by); false for an invalid id.
 */
__bpf_kfunc bool smartwake_cpu_overloaded(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) && sw_bpf_view_overloaded(cpu);
}

/**
 * smartwake_cpu_llc() - the id of @cpu's last-level cache
 * @cpu: a CPU id
 *
 * Return: sd_llc_id (the lowest CPU of the LLC), or -EINVAL.
 */
__bpf_kfunc s32 smartwake_cpu_llc(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) ? sw_bpf_view_llc(cpu) : -EINVAL;
}

/**
 * smartwake_cpu_node() - the NUMA node of @cpu
 * @cpu: a CPU id
 *
 * Return: cpu_to_node(), or -EINVAL.
 */
__bpf_kfunc s32 smartwake_cpu_node(s32 cpu)
{
	return sw_kf_cpu_ok(cpu) ? cpu_to_node(cpu) : -EINVAL;
}

/**
 * smartwake_cpu_smt_next() - the SMT sibling after @cpu
 * @cpu: a CPU id
 *
 * A loop from @cpu until it comes back visits every thread of its core.
 *
 * Return: the next CPU of @cpu's core (after the last, the first), @cpu
 * itself on a core of one thread, or -EINVAL.
 */
__bpf_kfunc s32 smartwake_cpu_smt_next(s32 cpu)
{
	const struct cpumask *smt;
	unsigned int next;

	if (!sw_kf_cpu_ok(cpu))
		return -EINVAL;
	smt = topology_sibling_cpumask(cpu);
	next = cpumask_next(cpu, smt);
	if (next >= nr_cpu_ids)
		next = cpumask_first(smt);
	return next < nr_cpu_ids ? next : cpu;
}

/**
 * smartwake_task_allowed() - may @p run on @cpu
 * @p:   a task (the callback's own argument)
 * @cpu: a CPU id
 *
 * Return: @cpu is in @p->cpus_ptr; false for an invalid id. An answer
 * outside it is refused anyway (bpf_refused).
 */
__bpf_kfunc bool smartwake_task_allowed(struct task_struct *p, s32 cpu)
{
	return sw_kf_cpu_ok(cpu) && sw_bpf_view_allowed(p, cpu);
}

/**
 * smartwake_task_wakee_flips() - how often @p switched wakees, decayed
 * @p: a task (the callback's own argument)
 *
 * Return: @p->wakee_flips, the input of wake_wide().
 */
__bpf_kfunc u32 smartwake_task_wakee_flips(struct task_struct *p)
{
	return sw_bpf_view_flips(p);
}

/**
 * smartwake_default_cpu() - the module's own answer for this wakeup
 *
 * For a select_cpu program that wraps the module's decision: the CPU the
 * module's path picks for the wakeup being decided, with the knobs as set
 * (and the program's own wake_wide, if the map has one). Computed once
 * per wakeup; a program that then declines gets that answer.
 *
 * Return: a CPU; -ENOENT when the path hands the wakeup to the kernel (an
 * unmodelled case); -EBUSY outside select_cpu.
 */
__bpf_kfunc s32 smartwake_default_cpu(void)
{
	return sw_bpf_default_cpu();
}

/**
 * smartwake_shadowing() - this wakeup's answer will not be used
 *
 * Under policy=shadow the module evaluates the program on live wakeups
 * and compares its answers with the kernel's, which places the task. A
 * program that keeps state per task (a map keyed by pid, say) must update
 * it only when this is false, or it learns from placements that never
 * happened. Exact per wakeup: the mode of the evaluation running on this
 * CPU (path/select.c, sw_bpf_shadowing()), not the policy knob, which a write
 * may change meanwhile.
 *
 * Return: true while the module evaluates the program for policy=shadow;
 * false when its answer is used (policy=bpf).
 */
__bpf_kfunc bool smartwake_shadowing(void)
{
	return sw_bpf_shadowing();
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(sw_kfunc_ids)
BTF_ID_FLAGS(func, smartwake_cpu_idle)
BTF_ID_FLAGS(func, smartwake_cpu_sched_idle)
BTF_ID_FLAGS(func, smartwake_cpu_overloaded)
BTF_ID_FLAGS(func, smartwake_cpu_llc)
BTF_ID_FLAGS(func, smartwake_cpu_node)
BTF_ID_FLAGS(func, smartwake_cpu_smt_next)
BTF_ID_FLAGS(func, smartwake_task_allowed, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, smartwake_task_wakee_flips, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, smartwake_default_cpu)
BTF_ID_FLAGS(func, smartwake_shadowing)
BTF_KFUNCS_END(sw_kfunc_ids)

/* only smartwake_ops's programs: not sched_ext's, not tcp_congestion_ops' */
static int sw_kfunc_filter(const struct bpf_prog *prog, u32 kfunc_id)
{
	return sw_bpf_prog_is_ours(prog) ? 0 : -EACCES;
}

static const struct btf_kfunc_id_set sw_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &sw_kfunc_ids,
	.filter = sw_kfunc_filter,
};

static int sw_bpf_kfuncs_register(void)
{
	return register_btf_kfunc_id_set(BPF_PROG_TYPE_STRUCT_OPS,
					 &sw_kfunc_set);
}

/* what the BPF core calls in place of a missing program (and for CFI) */
static s32 sw_bpf_select_cpu_stub(struct task_struct *p, s32 prev_cpu,
				  u64 wake_flags)
{
	return -1;
}

static s32 sw_bpf_wake_wide_stub(struct task_struct *p, u32 waker_flips,
				 u32 wakee_flips, u32 factor)
{
	return -1;
}

static s32 sw_bpf_wake_affine_stub(struct task_struct *p, s32 prev_cpu,
				   s32 this_cpu, u32 sync)
{
	return -1;
}

static s32 sw_bpf_select_idle_stub(struct task_struct *p, s32 prev_cpu,
				   s32 target)
{
	return -1;
}

static struct smartwake_ops sw_bpf_stubs = {
	.select_cpu = sw_bpf_select_cpu_stub,
	.wake_wide = sw_bpf_wake_wide_stub,
	.wake_affine = sw_bpf_wake_affine_stub,
	.select_idle = sw_bpf_select_idle_stub,
};

static struct bpf_struct_ops sw_bpf_struct_ops = {
	.verifier_ops = &sw_bpf_verifier_ops,
	.init = sw_bpf_init,
	.check_member = sw_bpf_check_member,
	.init_member = sw_bpf_init_member,
	.reg = sw_bpf_reg,
	.unreg = sw_bpf_unreg,
	.cfi_stubs = &sw_bpf_stubs,
	.name = "smartwake_ops",
	.owner = THIS_MODULE,
};

/**
 * sw_bpf_module_has_btf() - the module carries its own BTF
 *
 * The .BTF section pahole writes at build (kernels with
 * CONFIG_DEBUG_INFO_BTF_MODULES, headers whose vmlinux has the kernel's
 * BTF), which the module loader points btf_data at. Without it the BPF
 * core finds no BTF object of the module, and __register_bpf_struct_ops()
 * and register_btf_kfunc_id_set() return 0 having registered nothing
 * (kernel/bpf/btf.c, check_btf_kconfigs()).
 *
 * Return: true when THIS_MODULE has BTF data.
 */
static bool sw_bpf_module_has_btf(void)
{
#ifdef CONFIG_DEBUG_INFO_BTF_MODULES
	return THIS_MODULE->btf_data && THIS_MODULE->btf_data_size;
#else
	return false;
#endif
}

/*
 * At load, before the knobs: a failure leaves policy=bpf refused (with
 * this error) and the rest of the module working.
 */
void sw_bpf_register(void)
{
	if (!sw_bpf_module_has_btf()) {
		sw_bpf_reg_err = SW_BPF_NO_BTF;
		sw_bpf_kfunc_err = SW_BPF_NO_BTF;
		sw_bpf_reg_why = "the module has no BTF (no .BTF section)";
		pr_warn("policy=bpf unavailable: the module has no BTF (no .BTF section), so struct_ops smartwake_ops and the kfuncs are not registered; build the module with CONFIG_DEBUG_INFO_BTF_MODULES and pahole, against headers whose vmlinux has the kernel's BTF\n");
		return;
	}
	/* without them, programs that call none still work */
	sw_bpf_kfunc_err = sw_bpf_kfuncs_register();
	if (sw_bpf_kfunc_err)
		pr_warn("policy=bpf: cannot register the kfuncs: %pe (programs calling them are refused)\n",
			ERR_PTR(sw_bpf_kfunc_err));
	sw_bpf_reg_err = register_bpf_struct_ops(&sw_bpf_struct_ops,
						 smartwake_ops);
	/* 0 without init having run: the BPF core has no BTF object of ours */
	if (!sw_bpf_reg_err && !sw_bpf_btf) {
		sw_bpf_reg_err = SW_BPF_NO_BTF;
		sw_bpf_kfunc_err = SW_BPF_NO_BTF;
		sw_bpf_reg_why = "the BPF core has no BTF of the module (refused at load)";
		pr_warn("policy=bpf unavailable: %s; build the module with CONFIG_DEBUG_INFO_BTF_MODULES and pahole, against headers whose vmlinux has the kernel's BTF\n",
			sw_bpf_reg_why);
	} else if (sw_bpf_reg_err) {
		sw_bpf_reg_why = "the BPF core refused to register it";
		pr_warn("policy=bpf unavailable: cannot register struct_ops smartwake_ops: %pe (the module needs its BTF: CONFIG_DEBUG_INFO_BTF_MODULES and pahole at build)\n",
			ERR_PTR(sw_bpf_reg_err));
	}
}

int sw_bpf_policy_check(void)
{
	if (sw_bpf_reg_err) {
		pr_err("policy=bpf: unavailable, struct_ops smartwake_ops is not registered: %s (%pe)\n",
		       sw_bpf_reg_why, ERR_PTR(sw_bpf_reg_err));
		return -EOPNOTSUPP;
	}
	if (!rcu_access_pointer(sw_bpf_ops)) {
		pr_err("policy=bpf: no program attached (smartwake bpf load)\n");
		return -ENOENT;
	}
	if (READ_ONCE(sw_bpf_revoked)) {
		pr_err("policy=bpf: the attached program gave an invalid answer and revert_on=violation set it aside (smartwake bpf unload, then load a fixed one)\n");
		return -ENOENT;
	}
	return 0;
}

/**
 * sw_bpf_select() - the attached program's answer for a wakeup
 * @p:          the wakee
 * @prev_cpu:   its last CPU
 * @wake_flags: WF_* flags
 *
 * From the wakeup path under policy=bpf, interrupts off (an RCU reader).
 *
 * Return: the program's CPU, SW_BPF_DECLINED when it leaves the decision
 * to the module, SW_BPF_NONE when no program is attached.
 */
int sw_bpf_select(struct task_struct *p, int prev_cpu, int wake_flags)
{
	struct smartwake_ops *ops = rcu_dereference_sched(sw_bpf_ops);
	u64 t0;
	s32 cpu;

	if (unlikely(!ops)) {
		sw_count(SW_C_bpf_none);
		return SW_BPF_NONE;
	}
	if (!ops->select_cpu)
		return SW_BPF_DECLINED;
	t0 = sw_bpf_enter(SW_BPF_SELECT_CPU);
	cpu = ops->select_cpu(p, prev_cpu, wake_flags);
	if (sw_bpf_leave(SW_BPF_SELECT_CPU, t0, cpu))
		return SW_BPF_DECLINED;
	sw_count(SW_C_bpf_answers);
	return cpu;
}

/**
 * sw_bpf_wake_wide() - the program's wake_wide(), in the module's path
 * @p:           the wakee
 * @waker_flips: current->wakee_flips
 * @wakee_flips: p->wakee_flips
 * @factor:      the factor of knob factor
 * @wide:        the knob's verdict (enum sw_wide)
 *
 * Return: the program's verdict, or @wide when it has no wake_wide or
 * leaves the decision to the knob.
 */
int sw_bpf_wake_wide(struct task_struct *p, unsigned int waker_flips,
		     unsigned int wakee_flips, unsigned int factor, int wide)
{
	struct smartwake_ops *ops = rcu_dereference_sched(sw_bpf_ops);
	bool knob_wide;
	u64 t0;
	s32 r;

	if (!ops || !ops->wake_wide)
		return wide;
	t0 = sw_bpf_enter(SW_BPF_WAKE_WIDE);
	r = ops->wake_wide(p, waker_flips, wakee_flips, factor);
	if (sw_bpf_leave(SW_BPF_WAKE_WIDE, t0, r))
		return wide;
	if (r)
		sw_count(SW_C_bpf_wide_yes);
	/* wide or not: which side is the master does not differ */
	knob_wide = wide != SW_WIDE_NO;
	if (!!r != knob_wide)
		sw_count(SW_C_bpf_wide_differ);
	if (!r)
		return SW_WIDE_NO;
	return r == 2 ? SW_WIDE_WAKEE_MASTER : SW_WIDE_WAKER_MASTER;
}

/**
 * sw_bpf_wake_affine() - the program's wake_affine(), in the module's path
 * @p:        the wakee
 * @prev_cpu: its previous CPU
 * @this_cpu: the waking CPU
 * @sync:     a synchronous wakeup, as knob sync takes it
 *
 * Return: the target the program chose (usually @prev_cpu or @this_cpu),
 * unchecked (the path checks it: path/wake.c, sw_wake_bpf_target()), or -1:
 * the knobs decide (no program, or it declined).
 */
int sw_bpf_wake_affine(struct task_struct *p, int prev_cpu, int this_cpu,
		       bool sync)
{
	struct smartwake_ops *ops = rcu_dereference_sched(sw_bpf_ops);
	u64 t0;
	s32 r;

	if (!ops || !ops->wake_affine)
		return -1;
	t0 = sw_bpf_enter(SW_BPF_WAKE_AFFINE);
	r = ops->wake_affine(p, prev_cpu, this_cpu, sync);
	if (sw_bpf_leave(SW_BPF_WAKE_AFFINE, t0, r))
		return -1;
	if (r == this_cpu && this_cpu != prev_cpu)
		sw_count(SW_C_bpf_affine_pulls);
	return r;
}

/**
 * sw_bpf_select_idle() - the program's select_idle_sibling()
 * @p:        the wakee
 * @prev_cpu: its previous CPU
 * @target:   wake_affine()'s choice
 *
 * Return: the program's CPU, unchecked (the path checks it as an answer:
 * path/wake.c, sw_wake_bpf_idle()), or -1: the module's scan decides.
 */
int sw_bpf_select_idle(struct task_struct *p, int prev_cpu, int target)
{
	struct smartwake_ops *ops = rcu_dereference_sched(sw_bpf_ops);
	u64 t0;
	s32 r;

	if (!ops || !ops->select_idle)
		return -1;
	t0 = sw_bpf_enter(SW_BPF_SELECT_IDLE);
	r = ops->select_idle(p, prev_cpu, target);
	if (sw_bpf_leave(SW_BPF_SELECT_IDLE, t0, r))
		return -1;
	return r;
}

/* a program is attached and not set aside */
bool sw_bpf_attached(void)
{
	return rcu_access_pointer(sw_bpf_ops) && !READ_ONCE(sw_bpf_revoked);
}

void sw_bpf_show_status(struct seq_file *m)
{
	struct smartwake_ops *ops;
	unsigned int i;
	u32 insn;

	if (sw_bpf_reg_err)
		seq_printf(m, "struct_ops smartwake_ops unavailable %d: %s\n",
			   sw_bpf_reg_err, sw_bpf_reg_why);
	else
		seq_printf(m, "struct_ops smartwake_ops registered %s\n",
			   rcu_access_pointer(sw_bpf_ops) ? "attached" :
			   "detached");
	if (rcu_access_pointer(sw_bpf_ops) && READ_ONCE(sw_bpf_revoked))
		seq_puts(m, "set aside by revert_on=violation after an invalid answer: unload it\n");
	if (sw_bpf_kfunc_err == SW_BPF_NO_BTF)
		seq_printf(m, "kfuncs unavailable %d: %s\n", sw_bpf_kfunc_err,
			   sw_bpf_reg_why);
	else if (sw_bpf_kfunc_err)
		seq_printf(m, "kfuncs unavailable %d\n", sw_bpf_kfunc_err);
	else
		seq_puts(m, "kfuncs registered\n");
	/* what an IBT CPU finds where the path calls (sw_endbr_check()) */
	rcu_read_lock_sched();
	ops = rcu_dereference_sched(sw_bpf_ops);
	for (i = 0; ops && i < SW_BPF_NR_CBS; i++)
		if (sw_bpf_cb(ops, i) &&
		    !get_kernel_nofault(insn, (const u32 *)sw_bpf_cb(ops, i)))
			seq_printf(m, "%s trampoline begins %*ph\n",
				   sw_bpf_cb_info[i].name, 4, &insn);
	rcu_read_unlock_sched();
}

#else /* !SW_HAVE_BPF_STRUCT_OPS */

void sw_bpf_register(void)
{
}

int sw_bpf_policy_check(void)
{
	pr_err("policy=bpf: this kernel cannot register a struct_ops type from a module (needs 6.9+ with CONFIG_BPF_JIT and CONFIG_BPF_SYSCALL)\n");
	return -EOPNOTSUPP;
}

int sw_bpf_select(struct task_struct *p, int prev_cpu, int wake_flags)
{
	sw_count(SW_C_bpf_none);
	return SW_BPF_NONE;
}

int sw_bpf_wake_wide(struct task_struct *p, unsigned int waker_flips,
		     unsigned int wakee_flips, unsigned int factor, int wide)
{
	return wide;
}

int sw_bpf_wake_affine(struct task_struct *p, int prev_cpu, int this_cpu,
		       bool sync)
{
	return -1;
}

int sw_bpf_select_idle(struct task_struct *p, int prev_cpu, int target)
{
	return -1;
}

bool sw_bpf_attached(void)
{
	return false;
}

void sw_bpf_show_status(struct seq_file *m)
{
	seq_puts(m, "struct_ops smartwake_ops unavailable (needs 6.9+)\n");
}

#endif /* SW_HAVE_BPF_STRUCT_OPS */

/* each callback's "..._ns_per_call" once one of its calls was timed */
void sw_bpf_show_stats(struct seq_file *m)
{
	unsigned int i;
	u64 n;

	for (i = 0; i < SW_BPF_NR_CBS; i++) {
		n = sw_counter_sum(sw_bpf_cb_info[i].timed);
		if (n)
			seq_printf(m, "%s %llu\n", sw_bpf_cb_info[i].ns_line,
				   div64_u64(sw_counter_sum(sw_bpf_cb_info[i].ns),
					     n));
	}
}
