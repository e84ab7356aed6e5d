// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup latency (knob latency): the delay from a fair-class task's wakeup
 * to its first run after it, as a per-CPU log2 histogram in ns.
 *
 * More: Documentation/design.md, "The files in detail", latency.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/mmu_context.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <uapi/linux/sched.h>
#include "ksched.h"
#include "debugfs_file.h"
#include "hooks.h"
#include "latency.h"
#include "sched_access.h"
#include "scope.h"
#include "stats.h"
#include "testing.h"

int sw_latency;
/* knob latency_sample: 1 wakeup in N per CPU is timed (1: every one) */
int sw_latency_sample = 1;
static DEFINE_PER_CPU(unsigned int, sw_lat_tick);

/* 4096 pending wakeups (32 KiB); more runnable tasks only lose samples */
#define SW_LAT_SLOT_BITS	12
#define SW_LAT_SLOTS		BIT(SW_LAT_SLOT_BITS)

static u64 sw_lat_slot[SW_LAT_SLOTS];

struct sw_lat_hist {
	u64 b[SW_LAT_BUCKETS];
};

static DEFINE_PER_CPU(struct sw_lat_hist, sw_lat_hist);
/* the part of it from tasks inside knob scope's cgroup */
static DEFINE_PER_CPU(struct sw_lat_hist, sw_lat_hist_scope);

/* Hash of the task: the low bits pick the slot, the next 16 are its tag. */
static __always_inline u32 sw_lat_hash(struct task_struct *p)
{
	return hash_64((unsigned long)p ^ READ_ONCE(sw_task(p, pid)),
		       SW_LAT_SLOT_BITS + SW_LAT_TAG_BITS);
}

static __always_inline bool sw_lat_fair(struct task_struct *p)
{
	unsigned int policy = READ_ONCE(sw_task(p, policy));

	return policy == SCHED_NORMAL || policy == SCHED_BATCH ||
	       policy == SCHED_IDLE;
}

/* sched_wakeup and sched_wakeup_new: under the wakee's runqueue lock */
static void notrace sw_lat_wakeup(void *data, struct task_struct *p)
{
	u64 *slot, old, now;
	u32 h;

	if (unlikely(sw_testing_latency_empty()))
		return;
	if (!sw_lat_fair(p) || READ_ONCE(sw_task(p, on_cpu)))
		return;
	/* latency_sample=N: 1 in N per CPU (IRQs off, under a rq lock) */
	if (__this_cpu_inc_return(sw_lat_tick) < READ_ONCE(sw_latency_sample))
		return;
	__this_cpu_write(sw_lat_tick, 0);
	h = sw_lat_hash(p);
	slot = &sw_lat_slot[h & (SW_LAT_SLOTS - 1)];
	old = READ_ONCE(*slot);
	if (old && !sw_lat_word_matches(old, h >> SW_LAT_SLOT_BITS))
		sw_count(SW_C_latency_slot_taken);
	now = READ_ONCE(sw_rq(sw_cpu_rq(task_cpu(p)), clock));
	WRITE_ONCE(*slot, sw_lat_pack(now, h >> SW_LAT_SLOT_BITS));
}

/* sched_switch: under this CPU's runqueue lock, interrupts off */
static void notrace sw_lat_switch(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next,
				  unsigned int prev_state)
{
	unsigned int b;
	u64 *slot, word;
	u32 h;

	if (unlikely(sw_testing_latency_empty()))
		return;
	/* half the switches are to the idle task, never recorded */
	if (READ_ONCE(sw_task(next, flags)) & PF_IDLE)
		return;
	h = sw_lat_hash(next);
	slot = &sw_lat_slot[h & (SW_LAT_SLOTS - 1)];
	word = READ_ONCE(*slot);
	if (!sw_lat_word_matches(word, h >> SW_LAT_SLOT_BITS))
		return;
	/* a wakeup of another task may have replaced it meanwhile */
	if (!try_cmpxchg(slot, &word, 0))
		return;
	b = sw_lat_bucket(sw_lat_elapsed(word, local_clock()));
	__this_cpu_inc(sw_lat_hist.b[b]);
	if (unlikely(sw_scope_set()) && sw_scope_has(next))
		__this_cpu_inc(sw_lat_hist_scope.b[b]);
}

static struct sw_lat_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool on;
} sw_lat_tps[] = {
	{ .name = "sched_wakeup", .probe = sw_lat_wakeup },
	{ .name = "sched_wakeup_new", .probe = sw_lat_wakeup },
	{ .name = "sched_switch", .probe = sw_lat_switch },
};

/* for_each_kernel_tracepoint() callback */
static void sw_lat_find(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(sw_lat_tps); i++)
		if (!strcmp(tp->name, sw_lat_tps[i].name))
			sw_lat_tps[i].tp = tp;
}

/* Unregister what is registered; the caller waits for running probes. */
static void sw_latency_stop(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(sw_lat_tps); i++) {
		struct sw_lat_tp *t = &sw_lat_tps[i];

		if (!t->on)
			continue;
		ret = tracepoint_probe_unregister(t->tp, t->probe, NULL);
		WARN(ret, "unregistering the %s probe failed: %d\n", t->name,
		     ret);
		WRITE_ONCE(t->on, false);
	}
}

/* Register the three probes, or none. Under the knob lock. */
static int sw_latency_start(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(sw_lat_tps); i++)
		if (!sw_lat_tps[i].tp)
			for_each_kernel_tracepoint(sw_lat_find, NULL);
	/* stale words of an earlier period would give false delays */
	memset(sw_lat_slot, 0, sizeof(sw_lat_slot));
	for (i = 0; i < ARRAY_SIZE(sw_lat_tps); i++) {
		struct sw_lat_tp *t = &sw_lat_tps[i];

		if (!t->tp) {
			pr_err("latency: no tracepoint %s in this kernel\n",
			       t->name);
			ret = -ENOENT;
			goto undo;
		}
		/* testing builds: test_latency_fail=N fails the Nth one */
		if (unlikely(sw_testing_latency_fail() == i + 1))
			ret = -ENOMEM;
		else
			ret = tracepoint_probe_register(t->tp, t->probe, NULL);
		if (ret) {
			pr_err("latency: cannot attach to %s: %d\n", t->name,
			       ret);
			goto undo;
		}
		WRITE_ONCE(t->on, true);
	}
	return 0;
undo:
	sw_latency_stop();
	tracepoint_synchronize_unregister();
	return ret;
}

/* debugfs "hooks": one line per probe, read under no lock (a snapshot) */
static void sw_latency_hooks_show(struct seq_file *m, const struct sw_hook *h)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(sw_lat_tps); i++) {
		seq_printf(m, "%s tracepoint %s ", sw_lat_tps[i].name,
			   READ_ONCE(sw_lat_tps[i].on) ? "on" : "off");
		sw_hook_show_needs(m, h);
		seq_putc(m, '\n');
	}
}

/* the three probes, attached together */
static struct sw_hook sw_latency_hook = {
	.name = "sched_wakeup,sched_wakeup_new,sched_switch",
	.kind = SW_HOOK_TRACEPOINT,
	SW_HOOK_NEEDS("latency=1"),
	.attach = sw_latency_start,
	.detach = sw_latency_stop,
	.show = sw_latency_hooks_show,
};

void sw_latency_register(void)
{
	sw_hook_register(&sw_latency_hook);
}

/* Knob apply (latency): the probes exist only while it is 1. */
int sw_latency_apply(const struct sw_knob *k, int old, int new)
{
	if (old == new)
		return 0;
	if (new)
		return sw_hook_get(&sw_latency_hook, 1);
	return sw_hook_put(&sw_latency_hook, 1);
}

/* Racy against running probes, like the counters' reset. */
void sw_latency_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		memset(per_cpu_ptr(&sw_lat_hist, cpu), 0,
		       sizeof(struct sw_lat_hist));
		memset(per_cpu_ptr(&sw_lat_hist_scope, cpu), 0,
		       sizeof(struct sw_lat_hist));
	}
}

/* One of the two histograms summed over CPUs into @sum. */
static void sw_latency_sum(struct sw_lat_hist __percpu *hist, u64 *sum)
{
	int cpu, b;

	memset(sum, 0, SW_LAT_BUCKETS * sizeof(*sum));
	for_each_possible_cpu(cpu)
		for (b = 0; b < SW_LAT_BUCKETS; b++)
			sum[b] += READ_ONCE(per_cpu_ptr(hist, cpu)->b[b]);
}

/*
 * latency_hist, latency_hist_scope: "lower-bound-ns count" per bucket,
 * every bucket; then, while latency_sample is N > 1, "# sample 1 in N"
 * (the counts are of 1 wakeup in N)
 */
static int sw_latency_hist_show(struct seq_file *m, void *unused)
{
	int b, n = READ_ONCE(sw_latency_sample);
	u64 sum[SW_LAT_BUCKETS];

	sw_latency_sum((struct sw_lat_hist __percpu __force *)m->private, sum);
	for (b = 0; b < SW_LAT_BUCKETS; b++)
		seq_printf(m, "%llu %llu\n", sw_lat_bucket_low(b), sum[b]);
	if (n > 1)
		seq_printf(m, "# sample 1 in %d\n", n);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_latency_hist);

void sw_latency_debugfs(struct dentry *dir)
{
	sw_debugfs_file("latency_hist", 0444, dir,
			(void __force *)&sw_lat_hist, &sw_latency_hist_fops);
	sw_debugfs_file("latency_hist_scope", 0444, dir,
			(void __force *)&sw_lat_hist_scope,
			&sw_latency_hist_fops);
}

/*
 * stats: the number of samples and three percentiles, once there is a
 * sample (an empty histogram has no percentile, not 0).
 */
void sw_latency_show_stats(struct seq_file *m)
{
	static const unsigned int pcts[] = { 50, 90, 99 };
	u64 sum[SW_LAT_BUCKETS], n = 0;
	int b, i;

	sw_latency_sum(&sw_lat_hist, sum);
	for (b = 0; b < SW_LAT_BUCKETS; b++)
		n += sum[b];
	if (!n)
		return;
	seq_printf(m, "latency_samples %llu\n", n);
	/* the samples are 1 wakeup in N: said beside them */
	if (READ_ONCE(sw_latency_sample) > 1)
		seq_printf(m, "latency_sample %d\n",
			   READ_ONCE(sw_latency_sample));
	for (i = 0; i < ARRAY_SIZE(pcts); i++)
		seq_printf(m, "latency_p%u_ns %llu\n", pcts[i],
			   sw_lat_percentile(sum, pcts[i]));
}
