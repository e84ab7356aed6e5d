// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the per-call cost histogram (log2 buckets split in 32) and its
 * percentiles, the robust per-call figure of issue 61.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <smartwake/cost.h>

struct bucket_case {
	const char *name;
	u64 ns;
	unsigned int want;
};

static const struct bucket_case bucket_cases[] = {
	{ "0 ns", 0, 0 },
	{ "1 ns", 1, 1 },
	{ "31 ns", 31, 31 },
	{ "63 ns: still 1 ns wide", 63, 63 },
	{ "64 ns: 2 ns wide from here", 64, 64 },
	{ "65 ns", 65, 64 },
	{ "66 ns", 66, 65 },
	{ "127 ns", 127, 95 },
	{ "128 ns", 128, 96 },
	{ "1000 ns", 1000, 5 * 32 + 30 },
	{ "1024 ns", 1024, 6 * 32 },
	{ "2^24 - 1", (1ULL << 24) - 1, SW_COST_BUCKETS - 2 },
	{ "2^24: the last bucket", 1ULL << 24, SW_COST_BUCKETS - 1 },
	{ "U64_MAX", U64_MAX, SW_COST_BUCKETS - 1 },
};

KUNIT_ARRAY_PARAM_DESC(bucket, bucket_cases, name);

static void bucket_test(struct kunit *test)
{
	const struct bucket_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_cost_bucket(c->ns), c->want);
}

/* Every bucket holds exactly [low(b), low(b + 1)), at most 1/32 wide. */
static void bucket_bounds_test(struct kunit *test)
{
	u64 lo, hi;
	unsigned int b;

	KUNIT_EXPECT_EQ(test, SW_COST_BUCKETS, 641U);
	KUNIT_EXPECT_EQ(test, sw_cost_bucket_low(0), 0ULL);
	KUNIT_EXPECT_EQ(test, sw_cost_bucket_low(SW_COST_BUCKETS - 1),
			1ULL << SW_COST_MAX_LOG);
	KUNIT_EXPECT_EQ(test, sw_cost_bucket_low(UINT_MAX),
			1ULL << SW_COST_MAX_LOG);
	for (b = 0; b + 1 < SW_COST_BUCKETS; b++) {
		lo = sw_cost_bucket_low(b);
		hi = sw_cost_bucket_low(b + 1);
		KUNIT_EXPECT_EQ(test, sw_cost_bucket(lo), b);
		KUNIT_EXPECT_EQ(test, sw_cost_bucket(hi - 1), b);
		KUNIT_EXPECT_LT(test, lo, hi);
		if (lo >= 2 * SW_COST_SUB)
			KUNIT_EXPECT_LE(test, (hi - lo) * SW_COST_SUB, lo);
	}
}

/* @v lies in bucket @b, its upper bound included (full interpolation) */
static void expect_in_bucket(struct kunit *test, u64 v, unsigned int b)
{
	KUNIT_EXPECT_GE(test, v, sw_cost_bucket_low(b));
	if (b + 1 < SW_COST_BUCKETS)
		KUNIT_EXPECT_LE(test, v, sw_cost_bucket_low(b + 1));
	else
		KUNIT_EXPECT_LE(test, v, 2 * sw_cost_bucket_low(b));
}

/* SW_COST_BUCKETS zeroed counts (5 KiB: not on the stack) */
static u64 *counts(struct kunit *test)
{
	u64 *c = kunit_kcalloc(test, SW_COST_BUCKETS, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	return c;
}

static void percentile_empty_test(struct kunit *test)
{
	u64 *c = counts(test);

	KUNIT_EXPECT_EQ(test, sw_cost_percentile(c, 50), SW_COST_UNDEFINED);
}

/* One value many times: every percentile lies in its bucket. */
static void percentile_one_value_test(struct kunit *test)
{
	static const u64 vals[] = { 0, 7, 100, 377, 12882, 20038, 1ULL << 30 };
	static const unsigned int pcts[] = { 0, 1, 50, 99, 100, 200 };
	u64 *c = counts(test);
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		memset(c, 0, SW_COST_BUCKETS * sizeof(*c));
		c[sw_cost_bucket(vals[i])] = 1000;
		for (j = 0; j < ARRAY_SIZE(pcts); j++)
			expect_in_bucket(test, sw_cost_percentile(c, pcts[j]),
					 sw_cost_bucket(vals[i]));
	}
}

/*
 * The case of issue 61: 2 % of the samples took a switched-out vCPU's
 * 20,000 ns instead of 400. The mean moves by half; the median stays
 * within its bucket (1/32 of 400), p99 shows the tail.
 */
static void percentile_preempted_test(struct kunit *test)
{
	u64 *c = counts(test);
	u64 p50, p99;

	c[sw_cost_bucket(400)] = 980;
	c[sw_cost_bucket(20000)] = 20;
	p50 = sw_cost_percentile(c, 50);
	p99 = sw_cost_percentile(c, 99);
	KUNIT_EXPECT_GE(test, p50, 400ULL - 400 / SW_COST_SUB);
	KUNIT_EXPECT_LE(test, p50, 400ULL + 400 / SW_COST_SUB);
	KUNIT_EXPECT_GE(test, p99, 20000ULL - 20000 / SW_COST_SUB);
	KUNIT_EXPECT_LE(test, p99, 20000ULL + 20000 / SW_COST_SUB);
}

/* Rank: ceil(total * pct / 100), counted over buckets in order. */
static void percentile_rank_test(struct kunit *test)
{
	u64 *c = counts(test);

	c[10] = 50;
	c[20] = 50;
	/* the 50th of 100 is the last of bucket 10 */
	expect_in_bucket(test, sw_cost_percentile(c, 50), 10);
	expect_in_bucket(test, sw_cost_percentile(c, 51), 20);
	expect_in_bucket(test, sw_cost_percentile(c, 1), 10);
	expect_in_bucket(test, sw_cost_percentile(c, 100), 20);
}

static void percentile_monotonic_test(struct kunit *test)
{
	u64 *c = counts(test), prev = 0, v;
	unsigned int b, p;

	for (b = 0; b < SW_COST_BUCKETS; b++)
		c[b] = (b * 7919) % 13;
	for (p = 1; p <= 100; p++) {
		v = sw_cost_percentile(c, p);
		KUNIT_EXPECT_GE(test, v, prev);
		prev = v;
	}
	/* counts that overflow a u64 sum still give an answer */
	memset(c, 0, SW_COST_BUCKETS * sizeof(*c));
	c[40] = U64_MAX;
	c[41] = U64_MAX;
	KUNIT_EXPECT_NE(test, sw_cost_percentile(c, 50), SW_COST_UNDEFINED);
}

static struct kunit_case sw_cost_test_cases[] = {
	KUNIT_CASE_PARAM(bucket_test, bucket_gen_params),
	KUNIT_CASE(bucket_bounds_test),
	KUNIT_CASE(percentile_empty_test),
	KUNIT_CASE(percentile_one_value_test),
	KUNIT_CASE(percentile_preempted_test),
	KUNIT_CASE(percentile_rank_test),
	KUNIT_CASE(percentile_monotonic_test),
	{}
};

static struct kunit_suite sw_cost_test_suite = {
	.name = "smartwake_policy_cost",
	.test_cases = sw_cost_test_cases,
};

kunit_test_suites(&sw_cost_test_suite);
