// SPDX-License-Identifier: GPL-2.0
/*
 * The 2022 sched-idle pull (knob sib_pull; the series' patch 2/2,
 * "introduce sched-idle balance"): when a CPU runs only SCHED_IDLE work
 * while another CPU of its LLC is overloaded (more than one waiting
 * non-idle fair task), move one waiting non-idle task to it at once,
 * instead of at the next periodic balance that does not refuse.
 *
 * More: Documentation/design.md, "The files in detail", pull.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/irq_work.h>
#include <linux/mmu_context.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/task.h>
#include <linux/smp.h>
#include <linux/stop_machine.h>
#include "ksched.h"
#include "hooks.h"
#include "layout.h"
#include "overload.h"
#include "pull.h"
#include "pull_ops.h"
#include "sched_access.h"
#include "stats.h"
#include "symbols.h"
#include "testing.h"
#include "trace.h"

int sw_sib_pull;

/* tasks of the overloaded CPU looked at per attempt (sysctl_sched_nr_migrate) */
#define SW_PULL_SCAN	32

/* the kernel's struct migration_arg (core.c), checked against its BTF */
struct sw_migration_arg {
	struct task_struct *task;
	int dest_cpu;
	void *pending;		/* struct set_affinity_pending *: always NULL */
};

static const struct sw_layout_field sw_pull_layout[] = {
	{ "migration_arg", "task", offsetof(struct sw_migration_arg, task) },
	{ "migration_arg", "dest_cpu", offsetof(struct sw_migration_arg, dest_cpu) },
	{ "migration_arg", "pending", offsetof(struct sw_migration_arg, pending) },
};

/**
 * struct sw_pull_slot - one sched-idle CPU's pull
 * @local:  its kick from that CPU itself (an irq_work: not from inside the
 *          runqueue lock the trigger holds)
 * @remote: its kick from another CPU (irq_work_queue_on() is not exported)
 * @remote_claimed: 1 from a kicker's claim of @remote until its function
 *          runs: smp_call_function_single_async() wants its callers
 *          serialised (two CPUs may kick one)
 * @stop: the stopper work queued on the overloaded CPU
 * @arg:  migration_cpu_stop()'s argument: the task, this CPU
 * @ops:  the companion's entries, for the stopper work
 * @src:  the overloaded CPU
 * @busy: from the pick to the end of the stopper work (then 0, released)
 */
struct sw_pull_slot {
	struct irq_work local;
	call_single_data_t remote;
	atomic_t remote_claimed;
	struct cpu_stop_work stop;
	struct sw_migration_arg arg;
	const struct sw_pull_ops *ops;
	int src;
	atomic_t busy;
};

static DEFINE_PER_CPU(struct sw_pull_slot, sw_pull_slots);
/* each CPU's sched-idle state at its last nr_running change */
static DEFINE_PER_CPU(bool, sw_pull_was_sched_idle);

/* serialises the companion's (un)registration with the knob */
static DEFINE_MUTEX(sw_pull_mutex);
/* the registered companion (sw_pull_mutex) */
static const struct sw_pull_ops *sw_pull_ops;
/* the same while sib_pull=1, else NULL: read by the probe and the kicks */
static const struct sw_pull_ops *sw_pull_live;

/* SCHED_IDLE, or queued in an idle group (the seed's "idle tasks") */
static bool sw_pull_task_idle(struct task_struct *p)
{
#ifdef CONFIG_FAIR_GROUP_SCHED
	struct sched_entity *se;
#endif

	if (sw_task(p, policy) == SCHED_IDLE)
		return true;
#ifdef CONFIG_FAIR_GROUP_SCHED
	for (se = &sw_task(p, se); se; se = sw_se(se, parent))
		if (READ_ONCE(sw_cfs_rq(sw_se(se, cfs_rq), idle)) > 0)
			return true;
#endif
	return false;
}

static bool sw_pull_task_delayed(struct task_struct *p)
{
#ifdef SW_HAVE_CFS_H_NR_QUEUED
	return sw_se(&sw_task(p, se), sched_delayed);
#else
	return false;
#endif
}

static const enum sw_counter sw_pull_veto_counter[SW_PULL_VETO_NR] = {
	[SW_PULL_IDLE] = SW_C_sib_pull_veto_idle,
	[SW_PULL_DELAYED] = SW_C_sib_pull_veto_delayed,
	[SW_PULL_MIGRATION_DISABLED] = SW_C_sib_pull_veto_migration_disabled,
	[SW_PULL_AFFINITY] = SW_C_sib_pull_veto_affinity,
	[SW_PULL_RUNNING] = SW_C_sib_pull_veto_running,
};

/*
 * Under @rq's lock: the least recently run task of @rq's that may move to
 * @dst, with a reference, or NULL. Walks rq->cfs_tasks from its tail, as
 * detach_tasks() does.
 */
static struct task_struct *sw_pull_pick(struct rq *rq, int dst)
{
	struct list_head *head = &sw_rq(rq, cfs_tasks);
	struct sched_entity *se;
	struct task_struct *p;
	unsigned int n = 0;

	if (!sw_rq_overloaded(rq)) {
		sw_count(SW_C_sib_pull_no_overloaded);
		return NULL;
	}
	for (se = container_of(head->prev, struct sched_entity, group_node);
	     &sw_se(se, group_node) != head && n < SW_PULL_SCAN;
	     se = container_of(sw_se(se, group_node).prev, struct sched_entity,
			       group_node), n++) {
		enum sw_pull_veto v;

		p = container_of(se, struct task_struct, se);
		v = sw_pull_veto(sw_pull_task_idle(p), sw_pull_task_delayed(p),
				 sw_task(p, migration_disabled),
				 cpumask_test_cpu(dst, sw_task(p, cpus_ptr)),
				 READ_ONCE(sw_task(p, on_cpu)));
		if (v == SW_PULL_OK) {
			get_task_struct(p);
			return p;
		}
		sw_count(sw_pull_veto_counter[v]);
	}
	sw_count(SW_C_sib_pull_none);
	return NULL;
}

/* An active CPU of @m after @dst, wrapping; or nr_cpu_ids. */
static int sw_pull_scan(const struct cpumask *m, int dst)
{
	int cpu;

	for_each_cpu_wrap(cpu, m, dst + 1)
		if (cpu != dst && cpu_active(cpu))
			return cpu;
	return nr_cpu_ids;
}

/* An active CPU of @dst's LLC in its overloaded mask, from @dst on; or nr_cpu_ids. */
static int sw_pull_source(int dst)
{
	const struct cpumask *m = sw_llc_overloaded_mask(sw_llc_id(dst));

	if (!m)
		return nr_cpu_ids;
	/* data_race(): a hint, the LLC's CPUs flip their bits meanwhile (atomic bitops) */
	return data_race(sw_pull_scan(m, dst));
}

/*
 * The stopper work, on the overloaded CPU, preemption disabled: the
 * kernel's migration, then the count. The companion cannot go before
 * @busy is 0 (sw_pull_end()).
 */
static int notrace sw_pull_stop(void *data)
{
	struct sw_pull_slot *s = data;
	struct task_struct *p = s->arg.task;
	int dst = s->arg.dest_cpu;
	bool moved;

	s->ops->migrate(&s->arg);
	moved = task_cpu(p) == dst;
	sw_count(moved ? SW_C_sib_pulls : SW_C_sib_pull_lost);
	trace_smartwake_sib_pull(sw_task(p, pid), s->src, dst, moved);
	put_task_struct(p);
	atomic_set_release(&s->busy, 0);
	return 0;
}

/* An attempt, on the sched-idle CPU, in hard irq with no lock held. */
static void notrace sw_pull_run(struct sw_pull_slot *s)
{
	const struct sw_pull_ops *ops = READ_ONCE(sw_pull_live);
	int dst = smp_processor_id(), src;
	struct task_struct *p;
	struct rq *rq;

	if (!ops || atomic_cmpxchg(&s->busy, 0, 1))
		return;
	sw_count(SW_C_sib_pull_attempts);
	if (!sw_sched_idle_cpu(dst)) {
		sw_count(SW_C_sib_pull_not_sched_idle);
		goto out;
	}
	src = sw_pull_source(dst);
	if (src >= nr_cpu_ids) {
		sw_count(SW_C_sib_pull_no_overloaded);
		goto out;
	}
	rq = sw_cpu_rq(src);
	ops->rq_lock(rq);
	p = sw_pull_pick(rq, dst);
	ops->rq_unlock(rq);
	if (!p)
		goto out;
	s->arg = (struct sw_migration_arg){ .task = p, .dest_cpu = dst };
	s->ops = ops;
	s->src = src;
	sw_count(SW_C_sib_pull_queued);
	/* hard irq: @src cannot go down before its stopper has the work */
	if (ops->stop_nowait(src, sw_pull_stop, s, &s->stop))
		return;
	sw_count(SW_C_sib_pull_queue_failed);
	put_task_struct(p);
out:
	atomic_set_release(&s->busy, 0);
}

static void notrace sw_pull_local(struct irq_work *w)
{
	sw_pull_run(container_of(w, struct sw_pull_slot, local));
}

static void notrace sw_pull_remote(void *info)
{
	struct sw_pull_slot *s = info;

	/* the IPI released @remote before calling here: it may be sent again */
	atomic_set_release(&s->remote_claimed, 0);
	sw_pull_run(s);
}

/*
 * Kick @cpu: from the probe, a runqueue lock held, interrupts off, so an
 * online @cpu cannot finish going down before the kick is queued (its
 * dying step runs what is queued). False when one is pending already.
 */
static bool sw_pull_kick(int cpu)
{
	struct sw_pull_slot *s = per_cpu_ptr(&sw_pull_slots, cpu);

	if (atomic_read(&s->busy) || !cpu_online(cpu))
		return false;
	if (cpu == smp_processor_id()) {
		if (!irq_work_queue(&s->local))
			return false;	/* one pending already */
	} else {
		if (atomic_cmpxchg(&s->remote_claimed, 0, 1))
			return false;	/* ...or being sent */
		if (smp_call_function_single_async(cpu, &s->remote)) {
			atomic_set_release(&s->remote_claimed, 0);
			return false;
		}
	}
	sw_count(SW_C_sib_pull_kicks);
	return true;
}

/* @cpu became overloaded: kick a sched-idle CPU of its LLC, after it */
static void sw_pull_kick_llc(int cpu)
{
	struct sched_domain *sd;
	int i;

	rcu_read_lock();
	sd = sw_sd_llc(cpu);
	if (sd) {
		for_each_cpu_wrap(i, sched_domain_span(sd), cpu + 1)
			if (i != cpu && sw_sched_idle_cpu(i) && sw_pull_kick(i))
				break;
	}
	rcu_read_unlock();
}

/**
 * __sw_pull_tick_pre() - ftrace pre-handler of sched_tick()
 * @parent_ip: its caller
 * @op:        the hook's ftrace_ops
 * @fregs:     unused
 *
 * The tick of a sched-idle CPU with an overloaded CPU in its LLC is an
 * attempt; in hard irq, before sched_tick() takes the runqueue lock.
 */
static __always_inline void __sw_pull_tick_pre(struct ftrace_ops *op,
					       unsigned long parent_ip,
					       struct ftrace_regs *fregs)
{
	int cpu;

	cpu = smp_processor_id();
	if (READ_ONCE(sw_pull_live) && sw_sched_idle_cpu(cpu) &&
	    sw_llc_has_overloaded(cpu)) {
		sw_count(SW_C_sib_pull_ticks);
		sw_pull_run(this_cpu_ptr(&sw_pull_slots));
	}
}

SW_HOOK_CALLBACK(sw_pull_tick_pre, __sw_pull_tick_pre)

static struct sw_hook sw_pull_tick_hook = {
	.name = "sched_tick",
	SW_HOOK_NEEDS("sib_pull=1"),
	.target = &sw_sym_sched_tick,
	.callback = sw_pull_tick_pre,
};

/**
 * sw_pull_nr_changed() - the trigger, from the nr_running probe (watcher)
 * @cpu:    the CPU whose nr_running changed, its runqueue lock held
 * @became: it has just become overloaded (overload.c's mask bit set)
 */
static void notrace sw_pull_nr_changed(int cpu, bool became)
{
	bool *was = per_cpu_ptr(&sw_pull_was_sched_idle, cpu);
	bool si;

	if (!READ_ONCE(sw_pull_live))
		return;
	si = sw_sched_idle_cpu(cpu);
	if (si && !*was && sw_llc_has_overloaded(cpu))
		sw_pull_kick(cpu);
	*was = si;
	if (became)
		sw_pull_kick_llc(cpu);
}

/* where the companion is only a stub (module/companion/smartwake_pull.c) */
#if defined(SW_HAVE_RQ_UNLOCK_CALL) && defined(SW_HAVE_STOP_NOWAIT_BOOL)
#define SW_PULL_BUILT	1
#else
#define SW_PULL_BUILT	0
#endif

static int sw_pull_start(void)
{
	const struct sw_pull_ops *ops = sw_pull_ops;
	int cpu, ret;

	if (!SW_PULL_BUILT) {
		pr_err("sib_pull: not on this kernel: raw_spin_rq_unlock() is inline here or stop_one_cpu_nowait() does not say whether it queued, so smartwake_pull.ko cannot make its calls (see Documentation/usage.md)\n");
		return -EOPNOTSUPP;
	}
	if (!ops) {
		pr_err("sib_pull: smartwake_pull.ko is not loaded: modprobe smartwake_pull first (a livepatch-format module: the kernel taints K; see Documentation/usage.md)\n");
		return -ENODEV;
	}
	if (!try_module_get(ops->owner))
		return -ENODEV;
	ret = sw_nr_probe_get(SW_PROBE_PULL);
	if (!ret) {
		ret = sw_hook_get(&sw_pull_tick_hook, 1);
		if (ret)
			sw_nr_probe_put(SW_PROBE_PULL);
	}
	if (ret) {
		module_put(ops->owner);
		return ret;
	}
	sw_overload_seed();
	for_each_online_cpu(cpu)
		per_cpu(sw_pull_was_sched_idle, cpu) = sw_sched_idle_cpu(cpu);
	sw_overload_set_watch(sw_pull_nr_changed);
	WRITE_ONCE(sw_pull_live, ops);
	return 0;
}

static void sw_pull_end(void)
{
	const struct sw_pull_ops *ops = sw_pull_live;
	int cpu;

	WRITE_ONCE(sw_pull_live, NULL);
	sw_overload_set_watch(NULL);
	/* probes and kicks run with interrupts off: none sees @ops after this */
	synchronize_rcu();
	sw_hook_put(&sw_pull_tick_hook, 1);
	sw_nr_probe_put(SW_PROBE_PULL);
	for_each_possible_cpu(cpu) {
		struct sw_pull_slot *s = per_cpu_ptr(&sw_pull_slots, cpu);

		irq_work_sync(&s->local);
		/* a kick or a stopper work in flight: they end in microseconds */
		while (atomic_read_acquire(&s->remote_claimed) ||
		       atomic_read_acquire(&s->busy))
			usleep_range(100, 200);
	}
	/*
	 * ...and has returned: stoppers run non-preemptible, kicks in hard
	 * irq (an IPI's lock is released before its function runs)
	 */
	synchronize_rcu();
	module_put(ops->owner);
}

/* Knob apply (sib_pull), under the knob lock. */
int sw_pull_apply(const struct sw_knob *k, int old, int new)
{
	int ret = 0;

	if (old == new)
		return 0;
	mutex_lock(&sw_pull_mutex);
	if (new)
		ret = sw_pull_start();
	else
		sw_pull_end();
	mutex_unlock(&sw_pull_mutex);
	return ret;
}

/**
 * sw_pull_register() - the companion offers its entry points
 * @ops: smartwake_pull.ko's table
 *
 * Checked before use: the version of the table, that every entry begins
 * with ENDBR64 where the kernel has IBT (pull.c calls them through the
 * table), and the layout of struct migration_arg against the running
 * kernel's BTF.
 *
 * Return: 0, -EBUSY if a companion is registered already, -EINVAL or
 * -ENOEXEC on a failed check.
 */
int sw_pull_register(const struct sw_pull_ops *ops)
{
	struct sw_layout_field layout[ARRAY_SIZE(sw_pull_layout)];
	const u8 *lock = (const u8 *)ops->rq_lock;
	int ret;

	/* testing builds: test_pull_fault=1 or 2 must fail the load */
	memcpy(layout, sw_pull_layout, sizeof(layout));
	if (sw_testing_pull_fault() == 1)
		layout[1].off += 8;
	if (sw_testing_pull_fault() == 2)
		lock++;
	if (ops->version != SW_PULL_OPS_VERSION) {
		pr_err("smartwake_pull: table version %u, this smartwake wants %u: build both from one tree\n",
		       ops->version, SW_PULL_OPS_VERSION);
		return -EINVAL;
	}
	ret = sw_endbr_check("smartwake_pull rq_lock", lock) ?:
	      sw_endbr_check("smartwake_pull rq_unlock", ops->rq_unlock) ?:
	      sw_endbr_check("smartwake_pull stop_nowait", ops->stop_nowait) ?:
	      sw_endbr_check("smartwake_pull migrate", ops->migrate) ?:
	      sw_layout_check_fields(layout, ARRAY_SIZE(layout));
	if (ret)
		return ret;
	mutex_lock(&sw_pull_mutex);
	if (sw_pull_ops) {
		ret = -EBUSY;
	} else {
		sw_pull_ops = ops;
		pr_info("smartwake_pull registered: sib_pull may be set\n");
	}
	mutex_unlock(&sw_pull_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(sw_pull_register);

/**
 * sw_pull_unregister() - the companion goes
 * @ops: the table it registered
 *
 * sib_pull=1 holds the companion, so the knob is off here.
 */
void sw_pull_unregister(const struct sw_pull_ops *ops)
{
	mutex_lock(&sw_pull_mutex);
	WARN_ON_ONCE(READ_ONCE(sw_pull_live));
	if (sw_pull_ops == ops)
		sw_pull_ops = NULL;
	mutex_unlock(&sw_pull_mutex);
}
EXPORT_SYMBOL_GPL(sw_pull_unregister);

/* At load: the tick hook, in "hooks", and each CPU's kicks. */
void sw_pull_init(void)
{
	int cpu;

	sw_hook_register(&sw_pull_tick_hook);
	for_each_possible_cpu(cpu) {
		struct sw_pull_slot *s = per_cpu_ptr(&sw_pull_slots, cpu);

		s->local = IRQ_WORK_INIT_HARD(sw_pull_local);
		INIT_CSD(&s->remote, sw_pull_remote, s);
		atomic_set(&s->remote_claimed, 0);
		atomic_set(&s->busy, 0);
	}
}
