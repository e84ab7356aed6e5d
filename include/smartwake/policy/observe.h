/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake policy core, the wakeup-latency histogram, placement locality
 * and the sched-idle pull's verdicts.
 * Included by <smartwake/policy.h>; conventions there.
 */
#ifndef _SMARTWAKE_POLICY_OBSERVE_H
#define _SMARTWAKE_POLICY_OBSERVE_H

#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <smartwake/enums.h>

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

#endif /* _SMARTWAKE_POLICY_OBSERVE_H */
