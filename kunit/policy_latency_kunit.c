// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the wakeup-latency histogram (log2 buckets, percentiles, the
 * pending-wakeup word) and the placement locality classes.
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include <smartwake/policy.h>

struct bucket_case {
	const char *name;
	u64 ns;
	unsigned int want;
};

static const struct bucket_case bucket_cases[] = {
	{ "0 ns", 0, 0 },
	{ "1 ns", 1, 0 },
	{ "2 ns", 2, 1 },
	{ "3 ns", 3, 1 },
	{ "4 ns", 4, 2 },
	{ "1023 ns", 1023, 9 },
	{ "1024 ns", 1024, 10 },
	{ "1 ms", 1000000, 19 },
	{ "2^39 - 1", (1ULL << 39) - 1, 38 },
	{ "2^39: the last bucket", 1ULL << 39, 39 },
	{ "2^40: still the last", 1ULL << 40, 39 },
	{ "U64_MAX", U64_MAX, 39 },
};

KUNIT_ARRAY_PARAM_DESC(bucket, bucket_cases, name);

static void bucket_test(struct kunit *test)
{
	const struct bucket_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_lat_bucket(c->ns), c->want);
}

/* Every bucket holds exactly [low(b), low(b + 1)). */
static void bucket_bounds_test(struct kunit *test)
{
	unsigned int b;

	KUNIT_EXPECT_EQ(test, sw_lat_bucket_low(0), 0ULL);
	KUNIT_EXPECT_EQ(test, sw_lat_bucket_low(1), 2ULL);
	KUNIT_EXPECT_EQ(test, sw_lat_bucket_low(SW_LAT_BUCKETS), 1ULL << 39);
	KUNIT_EXPECT_EQ(test, sw_lat_bucket_low(UINT_MAX), 1ULL << 39);
	for (b = 0; b + 1 < SW_LAT_BUCKETS; b++) {
		KUNIT_EXPECT_EQ(test, sw_lat_bucket(sw_lat_bucket_low(b)), b);
		KUNIT_EXPECT_EQ(test, sw_lat_bucket(sw_lat_bucket_low(b + 1) - 1), b);
		KUNIT_EXPECT_LT(test, sw_lat_bucket_low(b), sw_lat_bucket_low(b + 1));
	}
}

#define NPCT	7
static const unsigned int pcts[NPCT] = { 0, 1, 50, 90, 99, 100, 200 };

struct pct_case {
	const char *name;
	unsigned int b[3];	/* up to three non-empty buckets... */
	u64 n[3];		/* ...and their counts (0: unused) */
	u64 want[NPCT];		/* at pcts[] */
};

static const struct pct_case pct_cases[] = {
	{ "one sample in [1024, 2048): its upper bound", { 10 }, { 1 },
	  { 2048, 2048, 2048, 2048, 2048, 2048, 2048 } },
	{ "100 samples in [1024, 2048): interpolated", { 10 }, { 100 },
	  { 1034, 1034, 1536, 1945, 2037, 2048, 2048 } },
	{ "90 fast, 10 slow: p99 in the slow bucket", { 1, 20 }, { 90, 10 },
	  { 2, 2, 3, 4, 1991680, 2097152, 2097152 } },
	{ "bucket 0 is [0, 2)", { 0 }, { 10 },
	  { 0, 0, 1, 1, 2, 2, 2 } },
	{ "the last bucket is taken as twice its bound", { 39 }, { 1 },
	  { 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40,
	    1ULL << 40, 1ULL << 40 } },
	{ "rank rounds up: 3 samples, p50 is the 2nd", { 5, 6, 7 }, { 1, 1, 1 },
	  { 64, 64, 128, 256, 256, 256, 256 } },
	{ "2^62 samples in two buckets: no overflow", { 3, 4 },
	  { 1ULL << 62, 1ULL << 62 },
	  { 8, 8, 16, 28, 31, 32, 32 } },
	{ "1 fast, 10^6 slow", { 2, 30 }, { 1, 1000000 },
	  { 1084227584, 1084227584, 1610612736, 2039480320, 2135949312,
	    2147483648, 2147483648 } },
};

KUNIT_ARRAY_PARAM_DESC(pct, pct_cases, name);

static void percentile_test(struct kunit *test)
{
	const struct pct_case *c = test->param_value;
	u64 counts[SW_LAT_BUCKETS] = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c->b); i++)
		counts[c->b[i]] += c->n[i];
	for (i = 0; i < NPCT; i++)
		KUNIT_EXPECT_EQ_MSG(test, sw_lat_percentile(counts, pcts[i]),
				    c->want[i], "p%u", pcts[i]);
}

static void percentile_empty_test(struct kunit *test)
{
	u64 counts[SW_LAT_BUCKETS] = {};

	KUNIT_EXPECT_EQ(test, sw_lat_percentile(counts, 50), SW_LAT_UNDEFINED);
	KUNIT_EXPECT_EQ(test, sw_lat_percentile(counts, 99), SW_LAT_UNDEFINED);
}

/* Percentiles never decrease with the percentage, and stay in range. */
static void percentile_monotonic_test(struct kunit *test)
{
	u64 counts[SW_LAT_BUCKETS] = {};
	u64 last = 0, v;
	unsigned int b, p;

	for (b = 0; b < SW_LAT_BUCKETS; b += 3)
		counts[b] = 1 + b * 7;
	for (p = 1; p <= 100; p++) {
		v = sw_lat_percentile(counts, p);
		KUNIT_EXPECT_GE(test, v, last);
		KUNIT_EXPECT_LE(test, v, 1ULL << 40);
		last = v;
	}
}

/* The pending-wakeup word: time and tag in one u64. */
static void word_test(struct kunit *test)
{
	u64 w = sw_lat_pack(1000, 5);

	KUNIT_EXPECT_TRUE(test, sw_lat_word_matches(w, 5));
	KUNIT_EXPECT_FALSE(test, sw_lat_word_matches(w, 6));
	KUNIT_EXPECT_FALSE(test, sw_lat_word_matches(0, 5));
	KUNIT_EXPECT_FALSE(test, sw_lat_word_matches(0, 0));
	KUNIT_EXPECT_EQ(test, sw_lat_elapsed(w, 1500), 500ULL);
	KUNIT_EXPECT_EQ(test, sw_lat_elapsed(w, 1000), 0ULL);
	/* another CPU's clock slightly behind: 0, not 78 hours */
	KUNIT_EXPECT_EQ(test, sw_lat_elapsed(w, 900), 0ULL);
	/* tag 0 is stored as 1: never an empty word */
	w = sw_lat_pack(0, 0);
	KUNIT_EXPECT_NE(test, w, 0ULL);
	KUNIT_EXPECT_TRUE(test, sw_lat_word_matches(w, 0));
	KUNIT_EXPECT_TRUE(test, sw_lat_word_matches(w, 1));
	KUNIT_EXPECT_EQ(test, sw_lat_elapsed(w, 1ULL << 46), 1ULL << 46);
	KUNIT_EXPECT_EQ(test, sw_lat_elapsed(w, 1ULL << 47), 0ULL);
	/* time is kept modulo 2^48: a wrap in between costs nothing */
	w = sw_lat_pack((1ULL << 48) - 10, 3);
	KUNIT_EXPECT_EQ(test, sw_lat_elapsed(w, (1ULL << 48) + 5), 15ULL);
	w = sw_lat_pack(U64_MAX - 10, 0xffff);
	KUNIT_EXPECT_TRUE(test, sw_lat_word_matches(w, 0xffff));
	KUNIT_EXPECT_EQ(test, sw_lat_elapsed(w, 20), 31ULL);
}

struct loc_case {
	const char *name;
	bool cpu, smt, llc, node;
	enum sw_loc want;
};

static const struct loc_case loc_cases[] = {
	{ "same CPU", true, false, true, true, SW_LOC_SAME_CPU },
	{ "same CPU wins over everything", true, true, true, true, SW_LOC_SAME_CPU },
	{ "same CPU, inconsistent rest", true, false, false, false, SW_LOC_SAME_CPU },
	{ "SMT sibling", false, true, true, true, SW_LOC_SMT },
	{ "SMT sibling, inconsistent rest", false, true, false, false, SW_LOC_SMT },
	{ "same LLC", false, false, true, true, SW_LOC_LLC },
	{ "same LLC, no node fact", false, false, true, false, SW_LOC_LLC },
	{ "same node", false, false, false, true, SW_LOC_NODE },
	{ "other node", false, false, false, false, SW_LOC_REMOTE },
};

KUNIT_ARRAY_PARAM_DESC(loc, loc_cases, name);

static void locality_test(struct kunit *test)
{
	const struct loc_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_locality(c->cpu, c->smt, c->llc, c->node),
			c->want);
}

static struct kunit_case sw_latency_test_cases[] = {
	KUNIT_CASE_PARAM(bucket_test, bucket_gen_params),
	KUNIT_CASE(bucket_bounds_test),
	KUNIT_CASE_PARAM(percentile_test, pct_gen_params),
	KUNIT_CASE(percentile_empty_test),
	KUNIT_CASE(percentile_monotonic_test),
	KUNIT_CASE(word_test),
	KUNIT_CASE_PARAM(locality_test, loc_gen_params),
	{}
};

static struct kunit_suite sw_latency_test_suite = {
	.name = "smartwake_policy_latency",
	.test_cases = sw_latency_test_cases,
};

kunit_test_suites(&sw_latency_test_suite);
