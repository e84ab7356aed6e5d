/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-call cost histogram (issue 61): log2 buckets split in 32, so a
 * median read from it is within 1/32 of the true one, and a sample that
 * a switched-out vCPU made thousands of times too long moves the tail,
 * not the median. Pure functions over plain inputs: module/policy.c.
 */
#ifndef _SMARTWAKE_COST_H
#define _SMARTWAKE_COST_H

#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/minmax.h>
#include <linux/types.h>

#define SW_COST_SUB_BITS	5
#define SW_COST_SUB		BIT(SW_COST_SUB_BITS)
/* values from 2^SW_COST_MAX_LOG ns (16.8 ms) share the last bucket */
#define SW_COST_MAX_LOG		24
#define SW_COST_BUCKETS \
	((SW_COST_MAX_LOG - SW_COST_SUB_BITS + 1) * SW_COST_SUB + 1)

/* A percentile of an empty histogram: printed as nothing. */
#define SW_COST_UNDEFINED	U64_MAX

/**
 * sw_cost_bucket() - the bucket of a per-call time
 * @ns: the time in ns.
 *
 * Buckets 0 .. 2 * SW_COST_SUB - 1 are 1 ns wide; above, each power of two
 * is split into SW_COST_SUB buckets of equal width; everything from
 * 2^SW_COST_MAX_LOG ns is the last bucket.
 *
 * Return: the bucket index, 0 .. SW_COST_BUCKETS - 1.
 */
static inline unsigned int sw_cost_bucket(u64 ns)
{
	unsigned int m;

	if (ns < 2 * SW_COST_SUB)
		return ns;
	if (ns >= 1ULL << SW_COST_MAX_LOG)
		return SW_COST_BUCKETS - 1;
	m = fls64(ns) - 1;	/* SW_COST_SUB_BITS + 1 .. SW_COST_MAX_LOG - 1 */
	return (m - SW_COST_SUB_BITS + 1) * SW_COST_SUB +
	       ((ns >> (m - SW_COST_SUB_BITS)) & (SW_COST_SUB - 1));
}

/**
 * sw_cost_bucket_low() - the lower bound of a bucket
 * @b: the bucket index; indices past the last give the last's bound.
 *
 * Return: the smallest time in ns that falls in bucket @b.
 */
u64 sw_cost_bucket_low(unsigned int b);

/**
 * sw_cost_percentile() - a percentile of a cost histogram
 * @counts: SW_COST_BUCKETS bucket counts.
 * @pct: the percentile, 1 .. 100 (clamped to that range).
 *
 * The rank is ceil(total * @pct / 100); the value is interpolated
 * linearly inside the bucket that holds it, in steps of 1/1024 of the
 * bucket (the last bucket is taken as twice as wide as its lower bound).
 *
 * Return: the value in ns, or SW_COST_UNDEFINED when every count is 0.
 */
u64 sw_cost_percentile(const u64 *counts, unsigned int pct);

#endif /* _SMARTWAKE_COST_H */
