// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake policy core. Pure functions only: no globals, no per-CPU data,
 * no scheduler structures. Documentation is in <smartwake/policy.h>.
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

/* ---- wakee flips ---------------------------------------------------- */

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
static struct sw_flips sw_decay_exact(struct sw_flips s, unsigned long now,
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

struct sw_flips sw_flips_decay(enum sw_decay mode, struct sw_flips s,
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

struct sw_flips sw_record_wakee(enum sw_decay mode, struct sw_flips s,
				bool new_wakee, unsigned long now,
				unsigned long hz)
{
	s = sw_flips_decay(mode, s, now, hz);
	/* saturate: a wrapped counter would make a 1:N waker look idle */
	if (new_wakee && s.flips != UINT_MAX)
		s.flips++;
	return s;
}

/* ---- wake_wide ------------------------------------------------------ */

enum sw_wide sw_wake_wide(enum sw_wide_mode mode, unsigned int waker_flips,
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

unsigned int sw_factor(enum sw_factor_src src, unsigned int fixed,
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

/* ---- wake_affine ---------------------------------------------------- */

enum sw_affine sw_affine_idle(bool this_idle, bool prev_idle,
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

enum sw_affine sw_affine_weight(const struct sw_weight_in *in)
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

bool sw_wake_affine_needs_weight(bool use_idle, enum sw_affine idle_res,
				 bool use_weight)
{
	return use_weight && (!use_idle || idle_res == SW_AFFINE_NONE);
}

enum sw_affine sw_wake_affine(bool use_idle, bool use_weight,
			      enum sw_affine idle_res,
			      enum sw_affine weight_res)
{
	enum sw_affine target = use_idle ? idle_res : SW_AFFINE_NONE;

	if (sw_wake_affine_needs_weight(use_idle, idle_res, use_weight))
		target = weight_res;

	return target == SW_AFFINE_THIS ? SW_AFFINE_THIS : SW_AFFINE_PREV;
}

/* ---- select_idle_sibling -------------------------------------------- */

bool sw_cpu_overloaded(unsigned int nr_running, unsigned int idle_nr_running)
{
	/* 2022 filter: two or more tasks that a wakee would have to wait for */
	return nr_running > idle_nr_running &&
	       nr_running - idle_nr_running > 1;
}

bool sw_cpu_sched_idle(unsigned int nr_running, unsigned int idle_nr_running)
{
	return nr_running && nr_running == idle_nr_running;
}

bool sw_cpu_usable_idle(bool cpu_idle, bool vcpu_preempted,
			unsigned int nr_running, unsigned int idle_nr_running,
			bool sched_idle_counts)
{
	if (cpu_idle && !vcpu_preempted)
		return true;
	return sched_idle_counts &&
	       sw_cpu_sched_idle(nr_running, idle_nr_running);
}

unsigned int sw_sis_scan_budget(unsigned int llc_weight, int nr_idle_scan_hint,
				bool sis_util)
{
	if (!sis_util)
		return llc_weight;
	/* nr_idle_scan == 0: the LLC is overloaded, no scan at all */
	if (nr_idle_scan_hint <= 0)
		return 0;
	return min_t(unsigned int, nr_idle_scan_hint, llc_weight);
}

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

unsigned int sw_lat_bucket(u64 ns)
{
	unsigned int b;

	if (ns < 2)
		return 0;
	b = fls64(ns) - 1;
	return min(b, SW_LAT_BUCKETS - 1);
}

u64 sw_lat_bucket_low(unsigned int b)
{
	if (!b)
		return 0;
	return 1ULL << min(b, SW_LAT_BUCKETS - 1);
}

u64 sw_lat_percentile(const u64 *counts, unsigned int pct)
{
	u64 total = 0, rank, before = 0, lo, hi, frac, n, in, r;
	unsigned int b;

	for (b = 0; b < SW_LAT_BUCKETS; b++)
		if (check_add_overflow(total, counts[b], &total))
			total = U64_MAX;
	if (!total)
		return SW_LAT_UNDEFINED;
	pct = clamp(pct, 1U, 100U);
	/* ceil(total * pct / 100) without the product */
	rank = div64_u64_rem(total, 100, &r) * pct + DIV_ROUND_UP_ULL(r * pct, 100);
	rank = clamp(rank, 1ULL, total);
	for (b = 0; b < SW_LAT_BUCKETS; b++) {
		n = counts[b];
		if (n && n >= rank - before)
			break;
		before += n;
	}
	if (b == SW_LAT_BUCKETS)	/* unreachable: the counts sum to total */
		b = SW_LAT_BUCKETS - 1;
	lo = sw_lat_bucket_low(b);
	hi = b ? lo * 2 : 2;
	n = max(counts[b], 1ULL);
	in = min(rank - before, n);
	/* the position inside the bucket in 1/1024 steps, no 128-bit product */
	if (n <= U64_MAX >> 10)
		frac = div64_u64(in << 10, n);
	else
		frac = div64_u64(in, n >> 10);
	return lo + (((hi - lo) * min(frac, 1024ULL)) >> 10);
}

u64 sw_lat_pack(u64 now, u16 tag)
{
	return (now << SW_LAT_TAG_BITS) | (tag ? tag : 1);
}

u64 sw_lat_elapsed(u64 word, u64 now)
{
	u64 d = ((now << SW_LAT_TAG_BITS) - (word & ~SW_LAT_TAG_MASK)) >>
		SW_LAT_TAG_BITS;

	return d >= 1ULL << (63 - SW_LAT_TAG_BITS) ? 0 : d;
}

bool sw_lat_word_matches(u64 word, u16 tag)
{
	return word && (word & SW_LAT_TAG_MASK) == (tag ? tag : 1);
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
