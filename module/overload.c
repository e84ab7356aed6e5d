// SPDX-License-Identifier: GPL-2.0
/*
 * The 2022 SIS filter's bookkeeping: per LLC, the CPUs that are overloaded
 * (more than one pullable non-idle fair task, sw_rq_overloaded()).
 *
 * More: Documentation/design.md, "The files in detail", overload.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/log2.h>
#include <linux/mmu_context.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include "ksched.h"
#include "hooks.h"
#include "knob_defs.h"
#include "overload.h"
#include "sched_access.h"
#include "symbols.h"

/* indexed by sd_llc_id, a mask for every possible CPU id */
static cpumask_var_t *sw_llc_masks;
/* the mask index where each CPU's bit may be set, -1 for none */
static DEFINE_PER_CPU(int, sw_mask_llc) = -1;

const struct cpumask *sw_llc_overloaded_mask(int llc_id)
{
	if (!sw_llc_masks || (unsigned int)llc_id >= nr_cpu_ids)
		return NULL;
	return sw_llc_masks[llc_id];
}

/* Is another CPU of @cpu's LLC overloaded? (sib.c, pull.c) */
bool notrace sw_llc_has_overloaded(int cpu)
{
	const struct cpumask *m = sw_llc_overloaded_mask(sw_llc_id(cpu));

	/* data_race(): a hint, the other CPUs' bits change meanwhile (atomic bitops) */
	return m && data_race(cpumask_any_but(m, cpu)) < nr_cpu_ids;
}

/*
 * Record one CPU's state. Writers of a CPU's bit are serialised by that
 * CPU's runqueue lock (tracepoint) or run before the probe exists (seed),
 * but the tick's pre-handler (sis_mask_update=tick) runs before sched_tick()
 * takes the lock, beside a probe another setting holds: KCSAN saw the two
 * race on sw_mask_llc. Marked accesses; a stale index costs one redundant
 * clear, and the bit operations are atomic as other CPUs share the word.
 * Return: the CPU has just become overloaded (its bit set now).
 */
static bool sw_overload_update(int cpu)
{
	int id = sw_llc_id(cpu), old = READ_ONCE(per_cpu(sw_mask_llc, cpu));
	bool over = sw_rq_overloaded(sw_cpu_rq(cpu));
	struct cpumask *m;

	/* ids are CPU numbers: every possible one has a mask */
	if ((unsigned int)id >= nr_cpu_ids)
		return false;
	if (old != id && (unsigned int)old < nr_cpu_ids)
		cpumask_clear_cpu(cpu, sw_llc_masks[old]);
	WRITE_ONCE(per_cpu(sw_mask_llc, cpu), id);

	m = sw_llc_masks[id];
	/* test first: most updates change nothing, keep the line shared */
	if (cpumask_test_cpu(cpu, m) == over)
		return false;
	if (over)
		cpumask_set_cpu(cpu, m);
	else
		cpumask_clear_cpu(cpu, m);
	return over;
}

/*
 * Changes of nr_running of the runqueues of each LLC, in the slot of the
 * LLC's id (its lowest CPU; a CPU outside any LLC is its own):
 * policy=shadow (path/shadow.c) reads two slots, not every CPU of two
 * LLCs, to tell whether a runqueue of the LLCs it looked at changed
 * while the module and the kernel decided. The writers of one slot hold
 * different runqueue locks: atomic.
 */
DEFINE_PER_CPU(atomic_long_t, sw_llc_nr_running_seq);

/* the watcher of nr_running changes (sib_pull's trigger), or NULL */
static sw_nr_watch_fn sw_nr_watch;

/**
 * sw_overload_set_watch() - call @fn from the nr_running probe
 * @fn: called with the runqueue's CPU, its lock held, after the masks
 *      were updated, and whether that CPU has just become overloaded;
 *      NULL stops the calls
 *
 * For one user, pull.c (knob sib_pull), which holds SW_PROBE_PULL while
 * it watches. A probe that read @fn before it was cleared may still call
 * it: the caller waits with synchronize_rcu() (probes run with interrupts
 * off) before it depends on the calls having stopped.
 */
void sw_overload_set_watch(sw_nr_watch_fn fn)
{
	WRITE_ONCE(sw_nr_watch, fn);
}

static struct sw_hook sw_nr_hook;

/* The probe's part for its users other than policy=shadow. */
static noinline void notrace sw_nr_running_others(int cpu)
{
	bool became = sw_overload_update(cpu);
	sw_nr_watch_fn watch = READ_ONCE(sw_nr_watch);

	if (watch)
		watch(cpu, became);
}

/*
 * policy=shadow's part inline, the rest out of line: a probe for shadow
 * alone keeps nothing live across a call (no register saved).
 */
static void notrace sw_nr_running_probe(void *data, struct rq *rq, int change)
{
	unsigned int users = READ_ONCE(sw_nr_hook.users);

	/* policy=shadow takes its bit before it hooks, drops it after */
	if (users & SW_PROBE_SHADOW) {
		int id = sw_llc_id(cpu_of(rq));

		if ((unsigned int)id < nr_cpu_ids)
			atomic_long_inc(per_cpu_ptr(&sw_llc_nr_running_seq, id));
	}
	/*
	 * policy=shadow alone wants the count, not the masks: every other
	 * user seeds them (sw_overload_seed()) after its bit is set.
	 */
	if (users & ~SW_PROBE_SHADOW)
		sw_nr_running_others(cpu_of(rq));
}

/**
 * __sw_overload_tick_pre() - ftrace pre-handler of sched_tick()
 * @parent_ip: its caller
 * @op:        the hook's ftrace_ops
 * @fregs:     unused
 *
 * sis_mask_update=tick: this CPU records its own state once per tick, as
 * the 2022 patch did. Runs with interrupts disabled (the tick).
 */
static __always_inline void __sw_overload_tick_pre(struct ftrace_ops *op,
						   unsigned long parent_ip,
						   struct ftrace_regs *fregs)
{
	if (READ_ONCE(sw_llc_masks))
		sw_overload_update(smp_processor_id());
}

SW_HOOK_CALLBACK(sw_overload_tick_pre, __sw_overload_tick_pre)

/* knobs sis_filter (the 2022 SIS filter, off) and sis_mask_update */
int sw_sis_filter;
int sw_sis_mask_update = SW_MASK_ENQUEUE;

const char * const sw_mask_update_names[SW_MASK_NR] = {
	SW_MASK_UPDATES(SW_ENUM_NAME, SW_ENUM_NAME)
};

static void sw_overload_free_masks(void)
{
	int cpu;

	if (!sw_llc_masks)
		return;
	for_each_possible_cpu(cpu)
		free_cpumask_var(sw_llc_masks[cpu]);
	kfree(sw_llc_masks);
	sw_llc_masks = NULL;
}

/**
 * sw_overload_init() - allocate the masks
 *
 * Return: 0 or -ENOMEM with nothing left allocated.
 */
int sw_overload_init(void)
{
	int cpu;

	sw_llc_masks = kcalloc(nr_cpu_ids, sizeof(*sw_llc_masks), GFP_KERNEL);
	if (!sw_llc_masks)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		if (!zalloc_cpumask_var(&sw_llc_masks[cpu], GFP_KERNEL)) {
			sw_overload_free_masks();
			return -ENOMEM;
		}
	}

	return 0;
}

/* Register the nr_running probe (the first of its users). */
static int sw_nr_probe_attach(void)
{
	int ret;

	ret = register_trace_sched_update_nr_running_tp(sw_nr_running_probe,
							NULL);
	if (ret) {
		pr_err("cannot attach to sched_update_nr_running_tp: %d\n", ret);
		return ret;
	}
	return 0;
}

/* Unregister it (the last user gone); hooks.c waits for running probes. */
static void sw_nr_probe_detach(void)
{
	int ret;

	ret = unregister_trace_sched_update_nr_running_tp(sw_nr_running_probe,
							  NULL);
	WARN(ret, "unregistering the nr_running probe failed: %d\n", ret);
}

/*
 * The nr_running probe is taken with a SW_PROBE_* bit by each user:
 * sis_filter with enqueue updates, policy=shadow, whose race check counts
 * the changes (path/select.c), sib_count (sib.c) and sib_pull (pull.c). The
 * setting of each bit:
 */
static const char * const sw_nr_needs[] = {
	[ilog2(SW_PROBE_FILTER)] = "sis_filter=1,sis_mask_update=enqueue",
	[ilog2(SW_PROBE_SHADOW)] = "policy=shadow",
	[ilog2(SW_PROBE_SIB)] = "sib_count=1",
	[ilog2(SW_PROBE_PULL)] = "sib_pull=1",
};

static_assert(ARRAY_SIZE(sw_nr_needs) == SW_PROBE_NR &&
	      SW_PROBE_PULL == 1U << (SW_PROBE_NR - 1));

static struct sw_hook sw_nr_hook = {
	.name = "sched_update_nr_running_tp",
	.kind = SW_HOOK_TRACEPOINT,
	.needs = sw_nr_needs,
	.nr_needs = ARRAY_SIZE(sw_nr_needs),
	.attach = sw_nr_probe_attach,
	.detach = sw_nr_probe_detach,
};

/* sis_mask_update=tick: each CPU writes its own bit from the tick */
static struct sw_hook sw_tick_hook = {
	.name = "sched_tick",
	SW_HOOK_NEEDS("sis_filter=1,sis_mask_update=tick"),
	.target = &sw_sym_sched_tick,
	.callback = sw_overload_tick_pre,
};

/* At load: the tick hook and the nr_running probe, in "hooks". */
void sw_overload_register(void)
{
	sw_hook_register(&sw_tick_hook);
	sw_hook_register(&sw_nr_hook);
}

/**
 * sw_nr_probe_get() - register the nr_running probe for @user
 * @user: one SW_PROBE_* bit
 *
 * Return: 0, or the error of the registration.
 */
int sw_nr_probe_get(unsigned int user)
{
	return sw_hook_get(&sw_nr_hook, user);
}

/* Drop @user; the last one unregisters the probe and waits for it. */
void sw_nr_probe_put(unsigned int user)
{
	sw_hook_put(&sw_nr_hook, user);
}

/* Seed the masks from a racy snapshot (see sw_overload_start()). */
void sw_overload_seed(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		sw_overload_update(cpu);
}

/* Start the update point @mode and seed the masks. */
static int sw_overload_start(int mode)
{
	int cpu, ret;

	if (mode == SW_MASK_TICK)
		ret = sw_hook_get(&sw_tick_hook, 1);
	else
		ret = sw_nr_probe_get(SW_PROBE_FILTER);
	if (ret)
		return ret;

	/*
	 * Seed from a racy snapshot. A CPU whose count changes meanwhile is
	 * also written by the update point; whichever runs last may be a
	 * step behind until that CPU's next update, which only affects
	 * filtering.
	 */
	for_each_online_cpu(cpu)
		sw_overload_update(cpu);
	return 0;
}

/* End the update point @mode (under the knob lock). */
static void sw_overload_end(int mode)
{
	if (mode == SW_MASK_TICK)
		sw_hook_put(&sw_tick_hook, 1);
	else
		sw_nr_probe_put(SW_PROBE_FILTER);
}

/*
 * Knob apply (sis_filter): the probe exists only while the filter is on.
 * Turning it off leaves the masks as they are: nothing reads them then.
 */
int sw_overload_apply(const struct sw_knob *k, int old, int new)
{
	if (old == new)
		return 0;
	if (new)
		return sw_overload_start(READ_ONCE(sw_sis_mask_update));
	sw_overload_end(READ_ONCE(sw_sis_mask_update));
	return 0;
}

/* Knob apply (sis_mask_update): with the filter on, start new, end old. */
int sw_mask_update_apply(const struct sw_knob *k, int old, int new)
{
	int ret;

	if (old == new || !READ_ONCE(sw_sis_filter))
		return 0;
	ret = sw_overload_start(new);
	if (ret)
		return ret;
	sw_overload_end(old);
	return 0;
}

/* debugfs "overloaded": each LLC id with CPUs in its mask, as a list */
int sw_overload_show(struct seq_file *m)
{
	int id;

	if (!sw_llc_masks)
		return 0;
	for_each_possible_cpu(id)
		if (!cpumask_empty(sw_llc_masks[id]))
			seq_printf(m, "%d %*pbl\n", id,
				   cpumask_pr_args(sw_llc_masks[id]));
	return 0;
}

/* Free the masks: no probe and no wakeup path may be running any more. */
void sw_overload_free(void)
{
	sw_overload_free_masks();
}
