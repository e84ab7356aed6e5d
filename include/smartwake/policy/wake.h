/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake policy core, wakee flips (record_wakee), wake_wide and
 * wake_affine. Design sources: 2013 "smart wake-affine" (per-task wakee
 * flip counter, wiped once per second, the first wake_wide() test; Peter
 * Zijlstra suggested a real decay in the thread) and 2015 "beef up
 * wake_wide" (the symmetric master/slave test that also catches a 1:N
 * dispatcher when it is the wakee).
 * Included by <smartwake/policy.h>; conventions there.
 */
#ifndef _SMARTWAKE_POLICY_WAKE_H
#define _SMARTWAKE_POLICY_WAKE_H

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

#endif /* _SMARTWAKE_POLICY_WAKE_H */
