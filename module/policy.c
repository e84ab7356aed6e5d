// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake policy core. Pure functions only: no globals, no per-CPU data,
 * no scheduler structures. Documentation is in <smartwake/policy.h>,
 * which also holds the hot ones, static inline.
 *
 * This file is built into smartwake.ko and, through kunit/policy.c, into
 * the KUnit module, so it has no module_init() or MODULE_*() of its own.
 */
#include <linux/bits.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/types.h>

#include <smartwake/cost.h>
#include <smartwake/policy.h>

const char * const sw_decay_names[SW_DECAY_NR] = {
	SW_DECAY_MODES(SW_ENUM_NAME, SW_ENUM_NAME)
};

const char * const sw_wide_mode_names[SW_WIDE_NR] = {
	SW_WIDE_MODES(SW_ENUM_NAME, SW_ENUM_NAME)
};

const char * const sw_factor_src_names[SW_FACTOR_NR] = {
	SW_FACTOR_SRCS(SW_ENUM_NAME, SW_ENUM_NAME)
};

const char * const sw_numa_retry_names[SW_NUMA_NR] = {
	SW_NUMA_MODES(SW_ENUM_NAME, SW_ENUM_NAME)
};

/*
 * The decisions of the wakeup path (record_wakee, wake_wide, wake_affine,
 * the select_idle_sibling helpers) are static inline in
 * <smartwake/policy.h>, so the path makes no out-of-line call into the
 * policy core (issue 32); the rest is here.
 */

/* ---- select_idle_sibling metrics ------------------------------------- */

u64 sw_ratio_x100(u64 num, u64 den)
{
	if (!den)
		return SW_PCT_UNDEFINED;
	/* at most 14 shifts keep 10000 * num in range */
	while (num > U64_MAX / 10000) {
		num >>= 1;
		den >>= 1;
	}
	if (!den)
		return SW_PCT_UNDEFINED - 1;
	return div64_u64(num * 10000, den);
}

static u64 sw_sub0(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

struct sw_sis_metrics sw_sis_metrics(const struct sw_sis_counts *c)
{
	u64 fast = sw_sub0(c->search, c->domain_search);
	u64 domain_scanned = sw_sub0(c->scanned, fast);
	struct sw_sis_metrics m;

	m.search_eff = sw_ratio_x100(c->search, c->scanned);
	m.domain_eff = sw_ratio_x100(c->domain_search, domain_scanned);
	m.fast_success = sw_ratio_x100(fast, c->search);
	m.success = sw_ratio_x100(sw_sub0(c->search, c->failed), c->search);
	m.idle_per_examined = sw_ratio_x100(c->idle_found, c->domain_cpus);
	m.budget_stopped = sw_ratio_x100(c->no_budget, c->domain_search);
	return m;
}

/* ---- NUMA retry ----------------------------------------------------- */

static unsigned long sw_ms64_to_jiffies(u64 ms, unsigned long hz)
{
	u64 prod, j;

	/* the kernel treats an int-negative ms as "forever" */
	if (ms > INT_MAX || check_mul_overflow(ms, (u64)hz, &prod))
		return MAX_JIFFY_OFFSET;
	/* round up, as msecs_to_jiffies() does */
	j = div64_u64(prod, MSEC_PER_SEC);
	if (j * MSEC_PER_SEC != prod)
		j++;
	return min_t(u64, j, MAX_JIFFY_OFFSET);
}

unsigned long sw_msecs_to_jiffies(unsigned int ms, unsigned long hz)
{
	return sw_ms64_to_jiffies(ms, hz);
}

unsigned long sw_numa_retry_interval(unsigned int scan_period_ms,
				     unsigned long hz)
{
	return min(hz, sw_msecs_to_jiffies(scan_period_ms, hz) / 16);
}

unsigned long sw_numa_backoff(unsigned int scan_delay_ms,
			      unsigned int scan_period_ms, unsigned long hz)
{
	/* 2018: 4 scan periods let the two-pass filter migrate hot data */
	u64 ms = max_t(u64, scan_delay_ms, (u64)scan_period_ms * 4);

	return sw_ms64_to_jiffies(ms, hz);
}

bool sw_numa_backoff_applies(int preferred_nid, int prev_nid, int target_nid)
{
	return preferred_nid >= 0 && prev_nid != target_nid;
}

bool sw_numa_defer_retry(enum sw_numa_retry mode, unsigned long now,
			 unsigned long stored_retry, unsigned long interval)
{
	switch (mode) {
	case SW_NUMA_AS_MERGED:
		/*
		 * As merged in 2018 ("if (numa_migrate_retry > p->...)
		 * return"): callers reach this after the stored time has
		 * passed, so the new time is almost always later.
		 */
		return time_after(now + interval, stored_retry);
	case SW_NUMA_CORRECTED:
		/*
		 * the comment's intent: a wake_affine backoff is pending;
		 * retry only once past it, as the kernel's gate does
		 */
		return !time_after(now, stored_retry);
	default:
		return false;
	}
}

bool sw_numa_defer_migrate(enum sw_numa_retry mode, unsigned long now,
			   unsigned long stored_retry, unsigned long interval,
			   bool nid_changed)
{
	if (mode != SW_NUMA_AS_MERGED && mode != SW_NUMA_CORRECTED)
		return false;
	/* 2018's gate was shut and its placement kept the node: no call */
	if (!time_after(now, stored_retry) && !nid_changed)
		return true;
	return sw_numa_defer_retry(mode, now, stored_retry, interval);
}

u64 sw_lat_bucket_low(unsigned int b)
{
	if (!b)
		return 0;
	return 1ULL << min(b, SW_LAT_BUCKETS - 1);
}

/*
 * A percentile of a histogram of @n buckets whose lower bounds @low gives:
 * the rank is ceil(total * @pct / 100), the value interpolated linearly
 * inside its bucket, up to the next bucket's bound (the last bucket is
 * taken as twice as wide as its lower bound). Always inlined: @low is then
 * a direct call, never a pointer call (the shipped step's IBT audit).
 */
static __always_inline u64
sw_hist_percentile(const u64 *counts, unsigned int nb, unsigned int pct,
		   u64 (*low)(unsigned int))
{
	u64 total = 0, rank, before = 0, lo, hi, frac, n, in, r;
	unsigned int b;

	for (b = 0; b < nb; b++)
		if (check_add_overflow(total, counts[b], &total))
			total = U64_MAX;
	if (!total)
		return U64_MAX;
	pct = clamp(pct, 1U, 100U);
	/* ceil(total * pct / 100) without the product */
	rank = div64_u64_rem(total, 100, &r) * pct + DIV_ROUND_UP_ULL(r * pct, 100);
	rank = clamp(rank, 1ULL, total);
	for (b = 0; b < nb; b++) {
		n = counts[b];
		if (n && n >= rank - before)
			break;
		before += n;
	}
	if (b == nb)	/* unreachable: the counts sum to total */
		b = nb - 1;
	lo = low(b);
	hi = b + 1 < nb ? low(b + 1) : lo * 2;
	n = max(counts[b], 1ULL);
	in = min(rank - before, n);
	/* the position inside the bucket in 1/1024 steps, no 128-bit product */
	if (n <= U64_MAX >> 10)
		frac = div64_u64(in << 10, n);
	else
		frac = div64_u64(in, n >> 10);
	return lo + (((hi - lo) * min(frac, 1024ULL)) >> 10);
}

u64 sw_lat_percentile(const u64 *counts, unsigned int pct)
{
	return sw_hist_percentile(counts, SW_LAT_BUCKETS, pct,
				  sw_lat_bucket_low);
}

u64 sw_cost_bucket_low(unsigned int b)
{
	if (b < 2 * SW_COST_SUB)
		return b;
	if (b >= SW_COST_BUCKETS - 1)
		return 1ULL << SW_COST_MAX_LOG;
	/* b = (m - SW_COST_SUB_BITS + 1) * SW_COST_SUB + sub, msb m */
	return (u64)(SW_COST_SUB + b % SW_COST_SUB) <<
	       (b / SW_COST_SUB - 1);
}

u64 sw_cost_percentile(const u64 *counts, unsigned int pct)
{
	return sw_hist_percentile(counts, SW_COST_BUCKETS, pct,
				  sw_cost_bucket_low);
}

enum sw_loc sw_locality(bool same_cpu, bool smt_sibling, bool same_llc,
			bool same_node)
{
	if (same_cpu)
		return SW_LOC_SAME_CPU;
	if (smt_sibling)
		return SW_LOC_SMT;
	if (same_llc)
		return SW_LOC_LLC;
	if (same_node)
		return SW_LOC_NODE;
	return SW_LOC_REMOTE;
}

/**
 * sw_pull_veto() - may the sched-idle pull take this task
 * @idle: SCHED_IDLE, or queued in an idle group.
 * @delayed: a delayed-dequeue entity (asleep, its lag not yet spent).
 * @migration_disabled: inside migrate_disable().
 * @allowed: the sched-idle CPU is in the task's allowed CPUs.
 * @running: on its CPU now.
 *
 * The 2022 patch's vetoes for the pull (affinity, running, migration
 * disabled) and the two that the module adds: an idle task gains nothing
 * on a CPU that runs only idle tasks, and a delayed entity is not
 * runnable. The first that applies, in the order of the parameters,
 * names the verdict (and its counter).
 *
 * Return: %SW_PULL_OK, or the veto.
 */
enum sw_pull_veto sw_pull_veto(bool idle, bool delayed, bool migration_disabled,
			       bool allowed, bool running)
{
	if (idle)
		return SW_PULL_IDLE;
	if (delayed)
		return SW_PULL_DELAYED;
	if (migration_disabled)
		return SW_PULL_MIGRATION_DISABLED;
	if (!allowed)
		return SW_PULL_AFFINITY;
	if (running)
		return SW_PULL_RUNNING;
	return SW_PULL_OK;
}
