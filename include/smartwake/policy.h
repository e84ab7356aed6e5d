/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake policy core: pure decision functions over plain inputs.
 *
 * Nothing here reads kernel state. Time comes in as @now/@hz (jiffies and
 * ticks per second), CPU and task facts come in as numbers and flags, so
 * the same code runs in the wake path and in the KUnit suites.
 *
 * Design sources (see shared/seeds):
 *  - 2013 "smart wake-affine": per-task wakee flip counter, wiped once per
 *    second, and the first wake_wide() test; in the thread Peter Zijlstra
 *    suggested a real decay (halving, or a capped per-second shift).
 *  - 2015 "beef up wake_wide": symmetric master/slave test so that a 1:N
 *    dispatcher is also caught when it is the wakee.
 *  - 2018 "Delay retrying placement for automatic NUMA balance after
 *    wake_affine": backoff of NUMA placement after an affine wakeup moved
 *    a task off node, and the inverted retry comparison Srikar reported.
 *  - 2022 "sched-idle balance": SIS filter that skips overloaded CPUs, and
 *    Mel Gorman's select_idle_sibling efficiency metrics.
 *
 * Conventions: every enum has an _NR terminator and, where the value is a
 * user-visible knob, a name table indexed by it (usable with
 * sysfs_match_string()). Out-of-range enum values behave like the "off"
 * or neutral value documented on each function.
 */
#ifndef _SMARTWAKE_POLICY_H
#define _SMARTWAKE_POLICY_H

#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <smartwake/enums.h>

/* ---------------------------------------------------------------------- */
/* Wakee flip counting (record_wakee)                                      */
/* ---------------------------------------------------------------------- */

/**
 * enum sw_decay - how the wakee flip counter forgets old wakeups
 * @SW_DECAY_NONE: never decay (counter only saturates).
 * @SW_DECAY_WIPE: 2013 v1: once more than @hz has passed since the last
 *	decay, reset the counter to 0.
 * @SW_DECAY_HALVE: mainline record_wakee(): once more than @hz has passed,
 *	halve the counter a single time, however long the gap was.
 * @SW_DECAY_EXACT: Peter Zijlstra's 2013 suggestion: halve once per whole
 *	elapsed @hz period, computed in constant time.
 * @SW_DECAY_NR: number of modes.
 */
enum sw_decay {
	SW_DECAY_MODES(SW_ENUM_ID, SW_ENUM_ID)
	SW_DECAY_NR
};

/* names from SW_DECAY_MODES (enums.h) */
extern const char * const sw_decay_names[SW_DECAY_NR];

/**
 * struct sw_flips - per-task wakee flip state
 * @flips: number of times the task woke a different task than last time
 *	(task_struct::wakee_flips in the kernel).
 * @decay_ts: jiffies of the last decay (task_struct::wakee_flip_decay_ts).
 */
struct sw_flips {
	unsigned int flips;
	unsigned long decay_ts;
};

/*
 * Peter Zijlstra's 2013 suggestion, in constant time:
 *
 *	if (now - ts > 8 * sizeof(flips) * HZ) { flips = 0; ts = now; }
 *	else while (now > ts + HZ) { flips >>= 1; ts += HZ; }
 *
 * The loop runs while the gap exceeds one period (a strict '>'), so it
 * shifts (gap - 1) / HZ times, and advances ts by as many periods. Three
 * deliberate differences from the text, all for robustness: the loop test
 * is time_after() (a plain '>' misfires where ts + HZ wraps around
 * ULONG_MAX); a now before ts leaves the state alone (the unsigned
 * now - ts would wipe it); the width is that of wakee_flips, 32 bits
 * (the 2013 counter was an unsigned long), so the wipe comes after 32 s.
 */
static inline struct sw_flips sw_decay_exact(struct sw_flips s, unsigned long now,
					     unsigned long hz)
{
	unsigned long gap, periods;

	if (!time_after(now, s.decay_ts))
		return s;

	gap = now - s.decay_ts;
	/* the loop's iterations; >= 32 exactly when gap > 32 * hz */
	periods = (gap - 1) / hz;
	if (periods >= BITS_PER_TYPE(s.flips)) {
		s.flips = 0;
		s.decay_ts = now;
		return s;
	}
	s.flips >>= periods;
	s.decay_ts += periods * hz;
	return s;
}

/**
 * sw_flips_decay() - age a flip counter
 * @mode: decay mode, see &enum sw_decay.
 * @s: current state.
 * @now: current time in jiffies.
 * @hz: jiffies per second (the decay period); 0 is treated as 1.
 *
 * All comparisons are wrap-safe (time_after() style): a @now that lies
 * before @s.decay_ts never decays. NONE and unknown modes return @s as is.
 *
 * WIPE and HALVE decay when @now is strictly after decay_ts + hz and then
 * set decay_ts = now. EXACT is Peter Zijlstra's 2013 loop in constant
 * time: past 32 periods (the bit width of flips) it wipes and sets
 * decay_ts = now; otherwise it shifts right once for every period by
 * which the gap exceeds one, p = (now - decay_ts - 1) / hz (the loop's
 * strict '>'), and advances decay_ts by p * hz, keeping the fraction.
 *
 * Return: the new state.
 */
static inline struct sw_flips sw_flips_decay(enum sw_decay mode, struct sw_flips s,
					     unsigned long now, unsigned long hz)
{
	if (!hz)
		hz = 1;

	switch (mode) {
	case SW_DECAY_WIPE:
		/* 2013 v1 used a plain '>' on jiffies; time_after() survives wrap */
		if (time_after(now, s.decay_ts + hz)) {
			s.flips = 0;
			s.decay_ts = now;
		}
		break;
	case SW_DECAY_HALVE:
		/* mainline: a single halving, whatever the gap */
		if (time_after(now, s.decay_ts + hz)) {
			s.flips >>= 1;
			s.decay_ts = now;
		}
		break;
	case SW_DECAY_EXACT:
		s = sw_decay_exact(s, now, hz);
		break;
	default:
		break;
	}
	return s;
}

/**
 * sw_record_wakee() - account one wakeup by the owner of @s
 * @mode: decay mode applied first.
 * @s: waker's current state.
 * @new_wakee: true when the wakee differs from the waker's last wakee.
 * @now: current time in jiffies.
 * @hz: jiffies per second; 0 is treated as 1.
 *
 * Decays as sw_flips_decay(), then counts a flip if @new_wakee. Unlike
 * the kernel's unsigned int increment, the counter saturates at UINT_MAX
 * instead of wrapping to 0.
 *
 * Return: the new state.
 */
static inline struct sw_flips sw_record_wakee(enum sw_decay mode, struct sw_flips s,
					      bool new_wakee, unsigned long now,
					      unsigned long hz)
{
	s = sw_flips_decay(mode, s, now, hz);
	/* saturate: a wrapped counter would make a 1:N waker look idle */
	if (new_wakee && s.flips != UINT_MAX)
		s.flips++;
	return s;
}

/* ---------------------------------------------------------------------- */
/* wake_wide                                                               */
/* ---------------------------------------------------------------------- */

/**
 * enum sw_wide_mode - which wake_wide() test to apply
 * @SW_WIDE_OFF: never wide (always consider an affine wakeup).
 * @SW_WIDE_V2013: 2013 test, only a hot waker of a warm wakee is wide.
 * @SW_WIDE_MAINLINE: 2015 symmetric master/slave test (mainline).
 * @SW_WIDE_NR: number of modes.
 */
enum sw_wide_mode {
	SW_WIDE_MODES(SW_ENUM_ID, SW_ENUM_ID)
	SW_WIDE_NR
};

/* names from SW_WIDE_MODES (enums.h) */
extern const char * const sw_wide_mode_names[SW_WIDE_NR];

/**
 * enum sw_wide - wake_wide() verdict
 * @SW_WIDE_NO: not wide: the caller may try an affine wakeup.
 * @SW_WIDE_WAKER_MASTER: wide, the waker is the many-partner side.
 * @SW_WIDE_WAKEE_MASTER: wide, the wakee is the many-partner side.
 *
 * Any non-zero value means "wide" (the kernel's wake_wide() returning 1).
 */
enum sw_wide {
	SW_WIDE_RESULTS(SW_ENUM_ID, SW_ENUM_ID)
};

/**
 * sw_wake_wide() - decide whether a waker/wakee pair should spread out
 * @mode: test to apply, see &enum sw_wide_mode; unknown modes act as OFF.
 * @waker_flips: the waker's flip count (current->wakee_flips).
 * @wakee_flips: the wakee's flip count (p->wakee_flips).
 * @factor: partner-count threshold, normally sw_factor(); 0 is treated
 *	as 1 (the kernel's sd_llc_size is never below 1).
 *
 * V2013: wide when wakee_flips > factor and waker_flips > factor *
 * wakee_flips; the verdict is always WAKER_MASTER.
 *
 * MAINLINE: master = max(waker, wakee), slave = min (a tie keeps the waker
 * as master); wide when slave >= factor and master >= slave * factor; the
 * verdict names the master side. This also catches a 1:N dispatcher that
 * is being woken by one of its workers, which V2013 misses.
 *
 * Products are computed in 64 bits. The kernel multiplies in unsigned int,
 * so for slave * factor > UINT_MAX it wraps and can report wide where this
 * function does not.
 *
 * Return: &enum sw_wide verdict.
 */
static inline enum sw_wide sw_wake_wide(enum sw_wide_mode mode, unsigned int waker_flips,
					unsigned int wakee_flips, unsigned int factor)
{
	u64 f = factor ? factor : 1;
	unsigned int master, slave;

	switch (mode) {
	case SW_WIDE_V2013:
		/* 2013: only a waker far hotter than a warm wakee is wide */
		if (wakee_flips > f && waker_flips > f * wakee_flips)
			return SW_WIDE_WAKER_MASTER;
		return SW_WIDE_NO;
	case SW_WIDE_MAINLINE:
		/* 2015: either side may be the 1:N partner */
		master = max(waker_flips, wakee_flips);
		slave = min(waker_flips, wakee_flips);
		if (slave < f || master < slave * f)
			return SW_WIDE_NO;
		return waker_flips >= wakee_flips ? SW_WIDE_WAKER_MASTER :
						    SW_WIDE_WAKEE_MASTER;
	default:
		return SW_WIDE_NO;
	}
}

/**
 * enum sw_factor_src - where the wake_wide() factor comes from
 * @SW_FACTOR_LLC: CPUs sharing the waker's LLC (mainline, sd_llc_size).
 * @SW_FACTOR_NODE: CPUs of the waker's NUMA node (2013 review suggestion).
 * @SW_FACTOR_ONLINE: online CPUs (2013 v1).
 * @SW_FACTOR_FIXED: a fixed number set by the user.
 * @SW_FACTOR_NR: number of sources.
 */
enum sw_factor_src {
	SW_FACTOR_SRCS(SW_ENUM_ID, SW_ENUM_ID)
	SW_FACTOR_NR
};

/*
 * "llc", "node", "online", "fixed". A knob normally accepts the first
 * three names or a number N, which selects SW_FACTOR_FIXED with N.
 */
extern const char * const sw_factor_src_names[SW_FACTOR_NR];

/**
 * sw_factor() - pick the wake_wide() factor
 * @src: source, see &enum sw_factor_src; unknown sources act as LLC.
 * @fixed: value used for SW_FACTOR_FIXED.
 * @llc_size: CPUs in the waker's LLC domain (1 when there is none).
 * @node_cpus: CPUs in the waker's node.
 * @online_cpus: online CPUs.
 *
 * Return: the selected value, clamped to at least 1.
 */
static inline unsigned int sw_factor(enum sw_factor_src src, unsigned int fixed,
				     unsigned int llc_size, unsigned int node_cpus,
				     unsigned int online_cpus)
{
	unsigned int v;

	switch (src) {
	case SW_FACTOR_NODE:
		v = node_cpus;
		break;
	case SW_FACTOR_ONLINE:
		v = online_cpus;
		break;
	case SW_FACTOR_FIXED:
		v = fixed;
		break;
	default:
		v = llc_size;
		break;
	}
	return max(v, 1U);
}

/* ---------------------------------------------------------------------- */
/* wake_affine                                                             */
/* ---------------------------------------------------------------------- */

/**
 * enum sw_affine - wake_affine() partial or final answer
 * @SW_AFFINE_NONE: no opinion (the kernel's nr_cpumask_bits).
 * @SW_AFFINE_THIS: pull the wakee to the waking CPU.
 * @SW_AFFINE_PREV: keep the wakee near its previous CPU.
 */
enum sw_affine {
	SW_AFFINE_NONE,
	SW_AFFINE_THIS,
	SW_AFFINE_PREV,
};

/**
 * sw_affine_idle() - wake_affine_idle() decision
 * @this_idle: the waking CPU is available-idle (idle, vCPU not preempted).
 * @prev_idle: the wakee's previous CPU is available-idle.
 * @share_cache: the two CPUs share a last-level cache.
 * @sync: WF_SYNC wakeup (the waker is about to sleep).
 * @this_nr_running: tasks on the waking CPU; on 6.12 the kernel uses
 *	rq->nr_running minus delayed-dequeue entities (cfs_h_nr_delayed()).
 *
 * An idle waking CPU (an interrupt wakeup) is used only if cache-affine,
 * and an idle cache-affine prev CPU wins over it. A sync wakeup from a CPU
 * running only the waker pulls. Otherwise an idle prev CPU is kept.
 *
 * Return: THIS, PREV, or NONE when the idle test has no opinion.
 */
static inline enum sw_affine sw_affine_idle(bool this_idle, bool prev_idle,
					    bool share_cache, bool sync,
					    unsigned int this_nr_running)
{
	/*
	 * An idle waking CPU means an interrupt wakeup: follow it only
	 * within the cache, and prefer an idle cache-affine prev CPU.
	 */
	if (this_idle && share_cache)
		return prev_idle ? SW_AFFINE_PREV : SW_AFFINE_THIS;

	/* the sync waker is about to sleep and is alone on its CPU */
	if (sync && this_nr_running == 1)
		return SW_AFFINE_THIS;

	if (prev_idle)
		return SW_AFFINE_PREV;

	return SW_AFFINE_NONE;
}

/**
 * struct sw_weight_in - inputs of wake_affine_weight()
 * @this_load: cpu_load() of the waking CPU.
 * @prev_load: cpu_load() of the previous CPU.
 * @current_load: task_h_load(current), used only for @sync.
 * @task_load: task_h_load() of the wakee.
 * @this_capacity: capacity_of() the waking CPU.
 * @prev_capacity: capacity_of() the previous CPU.
 * @imbalance_pct: sd->imbalance_pct of the affine domain (e.g. 117).
 * @sync: WF_SYNC wakeup.
 * @bias: the WA_BIAS scheduler feature is on.
 */
struct sw_weight_in {
	unsigned long this_load;
	unsigned long prev_load;
	unsigned long current_load;
	unsigned long task_load;
	unsigned long this_capacity;
	unsigned long prev_capacity;
	unsigned int imbalance_pct;
	bool sync;
	bool bias;
};

/**
 * sw_affine_weight() - wake_affine_weight() decision
 * @in: inputs, see &struct sw_weight_in.
 *
 * Compares the waking CPU's load with the wakee added (and, for sync, the
 * waker removed) against the previous CPU's load with the wakee removed,
 * each scaled by the other CPU's capacity and, with @bias, the previous
 * side by half the domain's imbalance margin. Bit-exact with the kernel's
 * s64 arithmetic: prev_load < task_load makes the previous side negative
 * (so no pull), and a sync waker heavier than this_load pulls at once.
 *
 * Return: THIS or NONE.
 */
static inline enum sw_affine sw_affine_weight(const struct sw_weight_in *in)
{
	/*
	 * The kernel does this in s64 mixed with unsigned long, built with
	 * -fno-strict-overflow: every step is arithmetic modulo 2^64 and
	 * only the final comparison is signed. Doing the steps in u64 and
	 * comparing as s64 gives the same bits without signed overflow.
	 */
	u64 this_eff = in->this_load;
	u64 prev_eff = in->prev_load;
	/* unsigned int like sd->imbalance_pct, wraps the same way below 100 */
	unsigned int prev_pct = 100 + (in->imbalance_pct - 100) / 2;

	if (in->sync) {
		/* the leaving waker accounts for more than this CPU's load */
		if (in->current_load > in->this_load)
			return SW_AFFINE_THIS;
		this_eff -= in->current_load;
	}

	this_eff += in->task_load;
	if (in->bias)
		this_eff *= 100;
	this_eff *= in->prev_capacity;

	/* may go "negative": then prev always looks lighter */
	prev_eff -= in->task_load;
	if (in->bias)
		prev_eff *= prev_pct;
	prev_eff *= in->this_capacity;

	/* sync: on a tie, let select_idle_sibling() consider stacking */
	if (in->sync)
		prev_eff += 1;

	return (s64)this_eff < (s64)prev_eff ? SW_AFFINE_THIS : SW_AFFINE_NONE;
}

/**
 * sw_wake_affine_needs_weight() - whether sw_affine_weight() is consulted
 * @use_idle: WA_IDLE is on.
 * @idle_res: result of sw_affine_idle() (ignored when !@use_idle).
 * @use_weight: WA_WEIGHT is on.
 *
 * Lets a caller skip gathering loads when the idle test already decided.
 *
 * Return: true if sw_wake_affine() would look at its weight result.
 */
static inline bool sw_wake_affine_needs_weight(bool use_idle, enum sw_affine idle_res,
					       bool use_weight)
{
	return use_weight && (!use_idle || idle_res == SW_AFFINE_NONE);
}

/**
 * sw_wake_affine() - combine the idle and weight tests like wake_affine()
 * @use_idle: WA_IDLE is on.
 * @use_weight: WA_WEIGHT is on.
 * @idle_res: result of sw_affine_idle() (ignored when !@use_idle).
 * @weight_res: result of sw_affine_weight() (ignored unless needed).
 *
 * The idle test goes first; the weight test runs only when it is enabled
 * and the idle test had no opinion.
 *
 * Return: THIS to pull the wakee to the waking CPU, otherwise PREV.
 */
static inline enum sw_affine sw_wake_affine(bool use_idle, bool use_weight,
					    enum sw_affine idle_res,
					    enum sw_affine weight_res)
{
	enum sw_affine target = use_idle ? idle_res : SW_AFFINE_NONE;

	if (sw_wake_affine_needs_weight(use_idle, idle_res, use_weight))
		target = weight_res;

	return target == SW_AFFINE_THIS ? SW_AFFINE_THIS : SW_AFFINE_PREV;
}

/* ---------------------------------------------------------------------- */
/* select_idle_sibling helpers and the 2022 SIS filter                     */
/* ---------------------------------------------------------------------- */

/**
 * sw_cpu_overloaded() - 2022 SIS filter: is a CPU not worth scanning
 * @nr_running: runnable fair-class tasks on the CPU, hierarchical and
 *	without delayed-dequeue entities (cfs.h_nr_runnable on 6.12.117).
 * @idle_nr_running: how many of them are SCHED_IDLE (idle_h_nr_running).
 *
 * The seed's definition: "more than one pullable non-idle task" (Abel Wu,
 * 2022), idle tasks being those counted in cfs.idle_h_nr_running. Such a
 * CPU cannot become usable for the wakee soon. Tasks of other classes do
 * not count (they are not pullable by the fair balancer). An inconsistent
 * snapshot with @idle_nr_running > @nr_running counts as not overloaded.
 *
 * Return: true if overloaded.
 */
static inline bool sw_cpu_overloaded(unsigned int nr_running, unsigned int idle_nr_running)
{
	/* 2022 filter: two or more tasks that a wakee would have to wait for */
	return nr_running > idle_nr_running &&
	       nr_running - idle_nr_running > 1;
}

/**
 * sw_cpu_sched_idle() - the kernel's sched_idle_rq()
 * @nr_running: rq->nr_running.
 * @idle_nr_running: rq->cfs.idle_h_nr_running.
 *
 * Return: true if the CPU runs something and all of it is SCHED_IDLE.
 */
static inline bool sw_cpu_sched_idle(unsigned int nr_running, unsigned int idle_nr_running)
{
	return nr_running && nr_running == idle_nr_running;
}

/**
 * sw_cpu_usable_idle() - may select_idle_cpu() pick this CPU
 * @cpu_idle: idle_cpu() is true.
 * @vcpu_preempted: vcpu_is_preempted() is true.
 * @nr_running: rq->nr_running.
 * @idle_nr_running: rq->cfs.idle_h_nr_running.
 * @sched_idle_counts: accept a CPU running only SCHED_IDLE tasks, as
 *	__select_idle_cpu() does (select_idle_core() does not).
 *
 * Return: true for an available-idle CPU (idle and not a preempted vCPU)
 * or, with @sched_idle_counts, a sched-idle CPU.
 */
static inline bool sw_cpu_usable_idle(bool cpu_idle, bool vcpu_preempted,
				      unsigned int nr_running, unsigned int idle_nr_running,
				      bool sched_idle_counts)
{
	if (cpu_idle && !vcpu_preempted)
		return true;
	return sched_idle_counts &&
	       sw_cpu_sched_idle(nr_running, idle_nr_running);
}

/**
 * sw_sis_scan_budget() - how many CPUs select_idle_cpu() may examine
 * @llc_weight: CPUs in the LLC span the wakee may run on.
 * @nr_idle_scan_hint: sd_llc_shared->nr_idle_scan.
 * @sis_util: SIS_UTIL is on and the LLC has shared data (sd_llc_shared).
 *
 * Without SIS_UTIL the whole span is scanned. With it the kernel sets
 * nr = hint + 1 and returns at once when nr == 1, then decrements before
 * each CPU, so at most hint CPUs are examined. The idle-core search
 * (has_idle_core) ignores this budget in the kernel.
 *
 * Return: 0 (no scan) to @llc_weight.
 */
static inline unsigned int sw_sis_scan_budget(unsigned int llc_weight, int nr_idle_scan_hint,
					      bool sis_util)
{
	if (!sis_util)
		return llc_weight;
	/* nr_idle_scan == 0: the LLC is overloaded, no scan at all */
	if (nr_idle_scan_hint <= 0)
		return 0;
	return min_t(unsigned int, nr_idle_scan_hint, llc_weight);
}

/**
 * sw_ratio_x100() - a ratio as a percentage with two decimals
 * @num: numerator.
 * @den: denominator.
 *
 * Computes 10000 * num / den rounded down, so 1651 means 16.51 %. Inputs
 * too large for the product are scaled down together first; a quotient
 * that cannot be represented saturates at U64_MAX - 1.
 *
 * Return: the ratio in units of 0.01 %, or SW_PCT_UNDEFINED when @den is
 * 0 (nothing was measured: never a perfect score).
 */
u64 sw_ratio_x100(u64 num, u64 den);

/* A ratio whose denominator is 0: printed as nothing, never as 100 %. */
#define SW_PCT_UNDEFINED	U64_MAX

/**
 * struct sw_sis_counts - select_idle_sibling() counters (Mel Gorman's
 * 2021 SIS schedstats, as used for the 2022 SIS filter results)
 * @search: calls of select_idle_sibling().
 * @domain_search: calls that fell through to scanning the LLC domain.
 * @scanned: runqueues examined; the fast path (target, prev, recent)
 *	counts as one when it succeeds.
 * @failed: calls that found no idle CPU.
 * @domain_cpus: CPUs examined by the domain scans alone.
 * @idle_found: domain scans that found an idle CPU.
 * @no_budget: domain scans SIS_UTIL's budget stopped before any CPU.
 */
struct sw_sis_counts {
	u64 search;
	u64 domain_search;
	u64 scanned;
	u64 failed;
	u64 domain_cpus;
	u64 idle_found;
	u64 no_budget;
};

/**
 * struct sw_sis_metrics - derived SIS metrics, each in units of 0.01 %
 * @search_eff: "SIS Search Efficiency" = search / scanned.
 * @domain_eff: "SIS Domain Search Eff" = domain_search / domain_scanned,
 *	where domain_scanned = scanned - (search - domain_search).
 * @fast_success: "SIS Fast Success Rate" = (search - domain_search) / search.
 * @success: "SIS Success Rate" = (search - failed) / search.
 * @idle_per_examined: idle CPUs found per CPU a domain scan examined,
 *	idle_found / domain_cpus: meaningful with SIS_UTIL too.
 * @budget_stopped: share of domain scans SIS_UTIL's budget stopped before
 *	any CPU, no_budget / domain_search.
 *
 * The first four are Mel Gorman's definitions as computed by mmtests for
 * the numbers quoted in the 2022 thread; they assume every domain scan
 * examines CPUs (NO_SIS_UTIL) and exceed 100 % when SIS_UTIL stops scans
 * before the first CPU. A zero denominator gives SW_PCT_UNDEFINED.
 */
struct sw_sis_metrics {
	u64 search_eff;
	u64 domain_eff;
	u64 fast_success;
	u64 success;
	u64 idle_per_examined;
	u64 budget_stopped;
};

/**
 * sw_sis_metrics() - derive the SIS efficiency metrics from counters
 * @c: counter deltas over the measured interval.
 *
 * Differences of counters that a racy snapshot left inconsistent are
 * clamped at 0.
 *
 * Return: the metrics, see &struct sw_sis_metrics.
 */
struct sw_sis_metrics sw_sis_metrics(const struct sw_sis_counts *c);

/* ---------------------------------------------------------------------- */
/* NUMA placement retry after an affine wakeup (2018)                      */
/* ---------------------------------------------------------------------- */

/**
 * enum sw_numa_retry - gate on NUMA migration retries
 * @SW_NUMA_OFF: no gate (current mainline: the 2018 change was reverted).
 * @SW_NUMA_AS_MERGED: the 2018 comparison as merged, which defers almost
 *	every migration retry and so disables active NUMA task migration
 *	(placement, the preferred node, keeps being updated).
 * @SW_NUMA_CORRECTED: defer only while a backoff set by an affine wakeup
 *	is still in the future.
 * @SW_NUMA_NR: number of modes.
 */
enum sw_numa_retry {
	SW_NUMA_MODES(SW_ENUM_ID, SW_ENUM_ID)
	SW_NUMA_NR
};

/* names from SW_NUMA_MODES (enums.h) */
extern const char * const sw_numa_retry_names[SW_NUMA_NR];

/**
 * sw_msecs_to_jiffies() - msecs_to_jiffies() for a given @hz
 * @ms: milliseconds.
 * @hz: jiffies per second.
 *
 * Rounds up like the kernel; values of @ms that are negative as an int
 * give MAX_JIFFY_OFFSET, like the kernel. @hz of 0 gives 0.
 *
 * Return: jiffies.
 */
unsigned long sw_msecs_to_jiffies(unsigned int ms, unsigned long hz);

/**
 * sw_numa_retry_interval() - periodic placement retry interval
 * @scan_period_ms: the task's numa_scan_period.
 * @hz: jiffies per second.
 *
 * As numa_migrate_preferred(): min(one second, scan period / 16).
 *
 * Return: interval in jiffies.
 */
unsigned long sw_numa_retry_interval(unsigned int scan_period_ms,
				     unsigned long hz);

/**
 * sw_numa_backoff() - placement backoff after an affine wakeup
 * @scan_delay_ms: sysctl numa_balancing_scan_delay_ms.
 * @scan_period_ms: the task's numa_scan_period.
 * @hz: jiffies per second.
 *
 * As the 2018 update_wa_numa_placement(): max(scan delay, 4 * scan period),
 * giving the two-pass fault filter time to move hot data. The product is
 * computed in 64 bits (the kernel shifts an unsigned int) and anything
 * beyond INT_MAX ms saturates at MAX_JIFFY_OFFSET.
 *
 * Return: backoff in jiffies, to be added to now.
 */
unsigned long sw_numa_backoff(unsigned int scan_delay_ms,
			      unsigned int scan_period_ms, unsigned long hz);

/**
 * sw_numa_backoff_applies() - does an affine wakeup set the backoff
 * @preferred_nid: the task's numa_preferred_nid (negative: none).
 * @prev_nid: node of the wakee's previous CPU.
 * @target_nid: node of the CPU chosen for the wakee.
 *
 * The 2018 patch backs off only tasks with a preferred node whose wakeup
 * changed node; other wakeups are neutral for NUMA balancing.
 *
 * Return: true if the backoff should be armed.
 */
bool sw_numa_backoff_applies(int preferred_nid, int prev_nid, int target_nid);

/**
 * sw_numa_defer_retry() - the 2018 test in numa_migrate_preferred()
 * @mode: gate, see &enum sw_numa_retry; unknown modes act as OFF.
 * @now: current jiffies.
 * @stored_retry: the task's numa_migrate_retry as 2018 kept it: the last
 *	retry time stored, or a backoff set by an affine wakeup.
 * @interval: sw_numa_retry_interval() of the task.
 *
 * AS_MERGED: new = now + interval; defer when new is after the stored
 * value. numa_migrate_preferred() ran once the stored time had passed, so
 * this is nearly always true (Srikar Dronamraju, 2018). The merged code
 * used a plain '>' on jiffies; this uses the wrap-safe time_after().
 * CORRECTED: defer strictly before the retry time, i.e. until @now is
 * after @stored_retry, as the kernel's own gate (time_after(jiffies,
 * p->numa_migrate_retry)) opens: @now == @stored_retry still defers.
 *
 * When this returns false 2018 stored now + @interval and went on to
 * task_numa_migrate() (unless the task was on its preferred node).
 *
 * Return: true to skip the migration attempt.
 */
bool sw_numa_defer_retry(enum sw_numa_retry mode, unsigned long now,
			 unsigned long stored_retry, unsigned long interval);

/**
 * sw_numa_defer_migrate() - skip this task_numa_migrate() call (6.12)?
 * @mode: gate, see &enum sw_numa_retry; unknown modes act as OFF.
 * @now: current jiffies.
 * @stored_retry: the 2018 numa_migrate_retry: a live backoff's end, or any
 *	time before @now when there is none (the kernel's own retry time is
 *	then the 2018 one, and it has passed: the kernel's gate opened).
 * @interval: sw_numa_retry_interval() of the task.
 * @nid_changed: the preferred node changed since the backoff was set.
 *
 * On 6.12 the kernel reaches task_numa_migrate() each time its own retry
 * gate opens, placement having run just before. 2018 got there in two
 * ways: its gate (@now after @stored_retry) or a new preferred node
 * (task_numa_placement() called numa_migrate_preferred()). A call 2018
 * would not have made (a live backoff, same preferred node) is skipped;
 * the others get sw_numa_defer_retry().
 *
 * Return: true to skip the migration attempt.
 */
bool sw_numa_defer_migrate(enum sw_numa_retry mode, unsigned long now,
			   unsigned long stored_retry, unsigned long interval,
			   bool nid_changed);

/* ---------------------------------------------------------------------- */
/* Wakeup latency (issue 17, item 1) and placement locality (item 2)       */
/* ---------------------------------------------------------------------- */

/*
 * The wakeup-latency histogram: log2 buckets in ns. Bucket 0 holds 0 and
 * 1 ns, bucket b (1 <= b < SW_LAT_BUCKETS - 1) holds [2^b, 2^(b+1)), the
 * last one everything from 2^(SW_LAT_BUCKETS - 1) ns (about 9 minutes).
 */
#define SW_LAT_BUCKETS		40

/* A percentile of an empty histogram: printed as nothing. */
#define SW_LAT_UNDEFINED	U64_MAX

/**
 * sw_lat_bucket() - the histogram bucket of a delay
 * @ns: the delay in ns.
 *
 * Inline, as the hot ones are: latency.c's probes run on every wakeup and
 * context switch.
 *
 * Return: the bucket index, 0 .. SW_LAT_BUCKETS - 1.
 */
static inline unsigned int sw_lat_bucket(u64 ns)
{
	unsigned int b;

	if (ns < 2)
		return 0;
	b = fls64(ns) - 1;
	return min(b, SW_LAT_BUCKETS - 1);
}

/**
 * sw_lat_bucket_low() - the lower bound of a bucket
 * @b: the bucket index; indices past the last give the last's bound.
 *
 * Return: 0 for bucket 0, else 2^@b ns.
 */
u64 sw_lat_bucket_low(unsigned int b);

/**
 * sw_lat_percentile() - a percentile of a log2 histogram
 * @counts: SW_LAT_BUCKETS bucket counts.
 * @pct: the percentile, 1 .. 100 (clamped to that range).
 *
 * The rank is ceil(total * @pct / 100); the value is interpolated
 * linearly inside the bucket that holds it, from its lower bound towards
 * the next bucket's (the last bucket and bucket 0 are taken as twice as
 * wide as their lower bound, and [0, 2) respectively), in steps of 1/1024
 * of the bucket. The result is within the bucket of the true value.
 *
 * Return: the value in ns, or SW_LAT_UNDEFINED when every count is 0.
 */
u64 sw_lat_percentile(const u64 *counts, unsigned int pct);

/*
 * A pending wakeup in the module's hashed table is one 64-bit word, so
 * one store writes it and one compare-and-exchange takes it: the wakeup
 * time modulo 2^48 ns (78 hours) in the upper 48 bits, a 16-bit tag of
 * the task (never 0) in the lower 16; 0 is an empty slot.
 */
#define SW_LAT_TAG_BITS		16
#define SW_LAT_TAG_MASK		((1ULL << SW_LAT_TAG_BITS) - 1)

/**
 * sw_lat_pack() - the table word of a wakeup
 * @now: the wakeup time in ns.
 * @tag: the task's tag; 0 is made 1.
 *
 * Return: the word to store.
 */
static inline u64 sw_lat_pack(u64 now, u16 tag)
{
	return (now << SW_LAT_TAG_BITS) | (tag ? tag : 1);
}

/**
 * sw_lat_elapsed() - the delay since a stored wakeup
 * @word: a word sw_lat_pack() made.
 * @now: the time the task starts to run, in ns.
 *
 * The difference is taken modulo 2^48. A difference in the upper half of
 * that range means @now is slightly before the wakeup (the two times come
 * from different CPUs' clocks): 0.
 *
 * Return: the delay in ns.
 */
static inline u64 sw_lat_elapsed(u64 word, u64 now)
{
	u64 d = ((now << SW_LAT_TAG_BITS) - (word & ~SW_LAT_TAG_MASK)) >>
		SW_LAT_TAG_BITS;

	return d >= 1ULL << (63 - SW_LAT_TAG_BITS) ? 0 : d;
}

/**
 * sw_lat_word_matches() - is a table word a given task's wakeup?
 * @word: the slot's content.
 * @tag: the task's tag; 0 is taken as 1, as sw_lat_pack() does.
 *
 * Return: true if @word is not empty and carries @tag.
 */
static inline bool sw_lat_word_matches(u64 word, u16 tag)
{
	return word && (word & SW_LAT_TAG_MASK) == (tag ? tag : 1);
}

/**
 * enum sw_loc - where a placement answer lies relative to a reference CPU
 * @SW_LOC_SAME_CPU: the reference CPU itself.
 * @SW_LOC_SMT: an SMT sibling of it (same core, other CPU).
 * @SW_LOC_LLC: another core sharing its last-level cache.
 * @SW_LOC_NODE: another LLC of its NUMA node.
 * @SW_LOC_REMOTE: another node.
 * @SW_LOC_NR: number of classes.
 *
 * The order is that of the counters (loc_prev_*, loc_waker_*,
 * kernel_loc_*): each answer is counted once per reference, in the first
 * class that applies.
 */
enum sw_loc {
	SW_LOC_SAME_CPU,
	SW_LOC_SMT,
	SW_LOC_LLC,
	SW_LOC_NODE,
	SW_LOC_REMOTE,
	SW_LOC_NR
};

/**
 * sw_locality() - classify an answer relative to a reference CPU
 * @same_cpu: the answer is the reference CPU.
 * @smt_sibling: the answer is in the reference's SMT sibling mask.
 * @same_llc: the two share the last-level cache.
 * @same_node: the two are on one NUMA node.
 *
 * The facts need not be consistent (a topology that changes under the
 * caller): the first true one, in the order above, decides.
 *
 * Return: the class, see &enum sw_loc.
 */
enum sw_loc sw_locality(bool same_cpu, bool smt_sibling, bool same_llc,
			bool same_node);

/**
 * enum sw_pull_veto - the sched-idle pull's verdict on one task
 * @SW_PULL_OK: pull it.
 * @SW_PULL_IDLE: SCHED_IDLE or in an idle group: nothing gained by moving
 *	it to a CPU that runs only such tasks.
 * @SW_PULL_DELAYED: delayed dequeue: asleep, queued until its lag is spent.
 * @SW_PULL_MIGRATION_DISABLED: migrate_disable() holds it on its CPU.
 * @SW_PULL_AFFINITY: the sched-idle CPU is not in its allowed CPUs.
 * @SW_PULL_RUNNING: on its CPU now (the pull takes only waiting tasks).
 * @SW_PULL_VETO_NR: number of verdicts.
 */
enum sw_pull_veto {
	SW_PULL_VETOES(SW_ENUM_ID, SW_ENUM_ID)
	SW_PULL_VETO_NR
};

enum sw_pull_veto sw_pull_veto(bool idle, bool delayed, bool migration_disabled,
			       bool allowed, bool running);

#endif /* _SMARTWAKE_POLICY_H */
