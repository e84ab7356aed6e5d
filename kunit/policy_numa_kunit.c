// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: NUMA placement retry interval, the 2018 backoff after an affine
 * wakeup, and the retry gate as merged and as corrected.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/limits.h>

#include <smartwake/policy.h>

#define T_BASE	1000000UL

struct ms_case {
	const char *name;
	unsigned int ms;
	unsigned long hz;
	unsigned long want;
};

static const struct ms_case ms_cases[] = {
	{ "0 ms", 0, 250, 0 },
	{ "1 ms at 250 rounds up", 1, 250, 1 },
	{ "4 ms at 250", 4, 250, 1 },
	{ "5 ms at 250 rounds up", 5, 250, 2 },
	{ "1 s at 250", 1000, 250, 250 },
	{ "1001 ms at 250", 1001, 250, 251 },
	{ "1 ms at 1000", 1, 1000, 1 },
	{ "1 s at 1000", 1000, 1000, 1000 },
	{ "10 ms at 100", 10, 100, 1 },
	{ "11 ms at 100 rounds up", 11, 100, 2 },
	{ "1 s at 100", 1000, 100, 100 },
	{ "7 ms at 300", 7, 300, 3 },
	{ "INT_MAX ms at 250", INT_MAX, 250, 536870912 },
	{ "INT_MAX ms at 1000", INT_MAX, 1000, INT_MAX },
	{ "int-negative ms saturates", 0x80000000U, 250, MAX_JIFFY_OFFSET },
	{ "UINT_MAX ms saturates", UINT_MAX, 250, MAX_JIFFY_OFFSET },
	{ "hz 0", 1000, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(ms, ms_cases, name);

static void msecs_to_jiffies_test(struct kunit *test)
{
	const struct ms_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_msecs_to_jiffies(c->ms, c->hz), c->want);
}

struct interval_case {
	const char *name;
	unsigned int period;
	unsigned long hz;
	unsigned long want;
};

static const struct interval_case interval_cases[] = {
	{ "1 s period at 250", 1000, 250, 15 },
	{ "1 s period at 1000", 1000, 1000, 62 },
	{ "1 s period at 100", 1000, 100, 6 },
	{ "100 ms period at 250", 100, 250, 1 },
	{ "10 ms period at 100", 10, 100, 0 },
	{ "0 period", 0, 250, 0 },
	{ "16 s period hits 1 s cap", 16000, 250, 250 },
	{ "just under cap", 15996, 250, 249 },
	{ "60 s period capped at 250", 60000, 250, 250 },
	{ "60 s period capped at 1000", 60000, 1000, 1000 },
	{ "int-negative period capped", 0x80000000U, 250, 250 },
};

KUNIT_ARRAY_PARAM_DESC(interval, interval_cases, name);

static void retry_interval_test(struct kunit *test)
{
	const struct interval_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_numa_retry_interval(c->period, c->hz),
			c->want);
}

struct backoff_case {
	const char *name;
	unsigned int delay, period;
	unsigned long hz;
	unsigned long want;
};

static const struct backoff_case backoff_cases[] = {
	{ "4 periods win", 1000, 1000, 250, 1000 },
	{ "delay wins", 1000, 100, 250, 250 },
	{ "delay equals 4 periods", 1000, 250, 250, 250 },
	{ "all zero", 0, 0, 250, 0 },
	{ "4 periods at 1000", 0, 1000, 1000, 4000 },
	{ "4 periods at 100", 0, 1000, 100, 400 },
	/* the kernel's unsigned int shift would wrap to 0 here */
	{ "4 periods past 32 bits", 1000, 0x40000000U, 250, MAX_JIFFY_OFFSET },
	{ "4 periods past INT_MAX", 1000, 0x20000000U, 250, MAX_JIFFY_OFFSET },
	{ "4 periods just fit at 250", 0, 0x1fffffffU, 250, 536870911 },
	{ "4 periods just fit at 1000", 0, 0x1fffffffU, 1000, 0x7ffffffcUL },
	{ "4 periods just fit at 100", 0, 0x1fffffffU, 100, 214748365 },
	{ "UINT_MAX delay", UINT_MAX, 0, 250, MAX_JIFFY_OFFSET },
};

KUNIT_ARRAY_PARAM_DESC(backoff, backoff_cases, name);

static void backoff_test(struct kunit *test)
{
	const struct backoff_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_numa_backoff(c->delay, c->period, c->hz),
			c->want);
}

static void backoff_applies_test(struct kunit *test)
{
	/* no preferred node: keep gathering statistics */
	KUNIT_EXPECT_FALSE(test, sw_numa_backoff_applies(-1, 0, 1));
	/* same node: neutral for NUMA balancing */
	KUNIT_EXPECT_FALSE(test, sw_numa_backoff_applies(0, 1, 1));
	KUNIT_EXPECT_TRUE(test, sw_numa_backoff_applies(0, 0, 1));
	KUNIT_EXPECT_TRUE(test, sw_numa_backoff_applies(1, 1, 0));
}

struct defer_case {
	const char *name;
	enum sw_numa_retry mode;
	unsigned long now, stored, interval;
	bool want;
};

static const struct defer_case defer_cases[] = {
	{ "off after retry time", SW_NUMA_OFF, T_BASE, T_BASE - 1, 15, false },
	{ "off during backoff", SW_NUMA_OFF, T_BASE, T_BASE + 1000, 15,
	  false },
	/* Srikar's 2018 report: the fault path is always deferred */
	{ "as-merged after retry time", SW_NUMA_AS_MERGED, T_BASE, T_BASE - 1,
	  15, true },
	{ "corrected after retry time", SW_NUMA_CORRECTED, T_BASE, T_BASE - 1,
	  15, false },
	{ "as-merged retry long ago", SW_NUMA_AS_MERGED, T_BASE, 0, 15, true },
	/* ... while a pending wake_affine backoff is ignored */
	{ "as-merged during backoff", SW_NUMA_AS_MERGED, T_BASE,
	  T_BASE + 1000, 15, false },
	{ "corrected during backoff", SW_NUMA_CORRECTED, T_BASE,
	  T_BASE + 1000, 15, true },
	{ "as-merged stored equals new", SW_NUMA_AS_MERGED, T_BASE,
	  T_BASE + 15, 15, false },
	{ "as-merged stored next jiffy", SW_NUMA_AS_MERGED, T_BASE,
	  T_BASE + 1, 15, true },
	{ "corrected stored equals now", SW_NUMA_CORRECTED, T_BASE, T_BASE, 15,
	  false },
	{ "corrected stored next jiffy", SW_NUMA_CORRECTED, T_BASE,
	  T_BASE + 1, 15, true },
	{ "corrected backoff across wrap", SW_NUMA_CORRECTED, ULONG_MAX - 5,
	  10, 15, true },
	{ "as-merged backoff across wrap", SW_NUMA_AS_MERGED, ULONG_MAX - 5,
	  10, 15, false },
	{ "as-merged new time wraps", SW_NUMA_AS_MERGED, ULONG_MAX - 5,
	  ULONG_MAX - 10, 15, true },
	{ "corrected new time wraps", SW_NUMA_CORRECTED, ULONG_MAX - 5,
	  ULONG_MAX - 10, 15, false },
	{ "as-merged now crossed 0", SW_NUMA_AS_MERGED, 3, ULONG_MAX - 2, 15,
	  true },
	{ "corrected now crossed 0", SW_NUMA_CORRECTED, 3, ULONG_MAX - 2, 15,
	  false },
	{ "unknown mode", SW_NUMA_NR, T_BASE, T_BASE + 1000, 15, false },
};

KUNIT_ARRAY_PARAM_DESC(defer, defer_cases, name);

static void defer_retry_test(struct kunit *test)
{
	const struct defer_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_numa_defer_retry(c->mode, c->now, c->stored,
						  c->interval), c->want);
}

/*
 * task_numa_fault() only tries placement once numa_migrate_retry has
 * passed. Drive that path for ten seconds: as merged, the gate defers
 * every attempt, corrected it lets all of them through, like no gate.
 */
static unsigned int fault_path_attempts(enum sw_numa_retry mode,
					unsigned long start)
{
	const unsigned long hz = 250, iv = sw_numa_retry_interval(1000, hz);
	unsigned long now, stored = start - 1;
	unsigned int attempts = 0;

	for (now = start; now != start + 10 * hz; now++) {
		if (!time_after(now, stored))
			continue;
		if (sw_numa_defer_retry(mode, now, stored, iv))
			continue;
		attempts++;
		stored = now + iv;
	}
	return attempts;
}

static void fault_path_test(struct kunit *test)
{
	static const unsigned long starts[] = { T_BASE, ULONG_MAX - 1000 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(starts); i++) {
		unsigned int off = fault_path_attempts(SW_NUMA_OFF, starts[i]);

		/* one attempt every interval + 1 jiffies: 2500 / 16 */
		KUNIT_EXPECT_EQ(test, off, 157U);
		KUNIT_EXPECT_EQ(test, fault_path_attempts(SW_NUMA_CORRECTED,
							  starts[i]), off);
		KUNIT_EXPECT_EQ(test, fault_path_attempts(SW_NUMA_AS_MERGED,
							  starts[i]), 0U);
	}
}

static struct kunit_case sw_numa_test_cases[] = {
	KUNIT_CASE_PARAM(msecs_to_jiffies_test, ms_gen_params),
	KUNIT_CASE_PARAM(retry_interval_test, interval_gen_params),
	KUNIT_CASE_PARAM(backoff_test, backoff_gen_params),
	KUNIT_CASE(backoff_applies_test),
	KUNIT_CASE_PARAM(defer_retry_test, defer_gen_params),
	KUNIT_CASE(fault_path_test),
	{}
};

static struct kunit_suite sw_numa_test_suite = {
	.name = "smartwake_policy_numa",
	.test_cases = sw_numa_test_cases,
};

kunit_test_suites(&sw_numa_test_suite);
