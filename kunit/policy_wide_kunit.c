// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: wake_wide() variants (2013 and the 2015 mainline rewrite) and the
 * choice of their factor.
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include <smartwake/policy.h>

#define NO	SW_WIDE_NO
#define WAKER	SW_WIDE_WAKER_MASTER
#define WAKEE	SW_WIDE_WAKEE_MASTER

/* the smallest slave for which slave * 4 no longer fits in 32 bits */
#define EDGE4	(UINT_MAX / 4 + 1)

struct wide_case {
	const char *name;
	enum sw_wide_mode mode;
	unsigned int waker;
	unsigned int wakee;
	unsigned int factor;
	enum sw_wide want;
};

static const struct wide_case wide_cases[] = {
	/* 2013: wakee > factor && waker > factor * wakee */
	{ "v2013 all zero", SW_WIDE_V2013, 0, 0, 4, NO },
	{ "v2013 wakee equal to factor", SW_WIDE_V2013, 100, 4, 4, NO },
	{ "v2013 dispatcher wakes worker", SW_WIDE_V2013, 100, 5, 4, WAKER },
	{ "v2013 waker exactly factor*wakee", SW_WIDE_V2013, 20, 5, 4, NO },
	{ "v2013 waker factor*wakee+1", SW_WIDE_V2013, 21, 5, 4, WAKER },
	{ "v2013 worker wakes dispatcher", SW_WIDE_V2013, 5, 100, 4, NO },
	{ "v2013 factor 0 acts as 1", SW_WIDE_V2013, 3, 2, 0, WAKER },
	{ "v2013 factor 0 tie", SW_WIDE_V2013, 2, 2, 0, NO },
	{ "v2013 product past 32 bits", SW_WIDE_V2013, UINT_MAX, EDGE4, 4, NO },
	{ "v2013 product just fits", SW_WIDE_V2013, UINT_MAX, EDGE4 - 1, 4,
	  WAKER },
	{ "v2013 UINT_MAX both", SW_WIDE_V2013, UINT_MAX, UINT_MAX, 4, NO },
	{ "v2013 UINT_MAX waker", SW_WIDE_V2013, UINT_MAX, 5, 4, WAKER },
	/* 2015: slave >= factor && master >= slave * factor */
	{ "mainline all zero", SW_WIDE_MAINLINE, 0, 0, 4, NO },
	{ "mainline slave equal to factor", SW_WIDE_MAINLINE, 100, 4, 4,
	  WAKER },
	{ "mainline slave below factor", SW_WIDE_MAINLINE, 100, 3, 4, NO },
	{ "mainline master exactly slave*factor", SW_WIDE_MAINLINE, 16, 4, 4,
	  WAKER },
	{ "mainline master below slave*factor", SW_WIDE_MAINLINE, 15, 4, 4,
	  NO },
	{ "mainline dispatcher wakes worker", SW_WIDE_MAINLINE, 100, 5, 4,
	  WAKER },
	{ "mainline worker wakes dispatcher", SW_WIDE_MAINLINE, 5, 100, 4,
	  WAKEE },
	{ "mainline tie keeps waker master", SW_WIDE_MAINLINE, 16, 16, 1,
	  WAKER },
	{ "mainline tie factor 4", SW_WIDE_MAINLINE, 16, 16, 4, NO },
	/* the kernel's unsigned int product wraps to 0 here and says wide */
	{ "mainline product past 32 bits", SW_WIDE_MAINLINE, UINT_MAX, EDGE4,
	  4, NO },
	{ "mainline product past 32 bits wakee", SW_WIDE_MAINLINE, EDGE4,
	  UINT_MAX, 4, NO },
	{ "mainline product just fits", SW_WIDE_MAINLINE, UINT_MAX,
	  EDGE4 - 1, 4, WAKER },
	{ "mainline product just fits wakee", SW_WIDE_MAINLINE, EDGE4 - 1,
	  UINT_MAX, 4, WAKEE },
	{ "mainline factor 0 slave 0", SW_WIDE_MAINLINE, 1, 0, 0, NO },
	{ "mainline factor 0 acts as 1", SW_WIDE_MAINLINE, 1, 1, 0, WAKER },
	{ "mainline factor UINT_MAX", SW_WIDE_MAINLINE, UINT_MAX, UINT_MAX,
	  UINT_MAX, NO },
	{ "mainline factor UINT_MAX slave 1", SW_WIDE_MAINLINE, 1, UINT_MAX,
	  UINT_MAX, NO },
	{ "mainline factor 1 any pair", SW_WIDE_MAINLINE, 1, 7, 1, WAKEE },
	{ "off never wide", SW_WIDE_OFF, 100, 5, 4, NO },
	{ "off dispatcher as wakee", SW_WIDE_OFF, 5, 100, 4, NO },
	{ "unknown mode never wide", SW_WIDE_NR, 100, 5, 4, NO },
};

KUNIT_ARRAY_PARAM_DESC(wide, wide_cases, name);

static void wake_wide_test(struct kunit *test)
{
	const struct wide_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_wake_wide(c->mode, c->waker, c->wakee,
					   c->factor), c->want);
}

/*
 * The 2015 fix: "it doesn't pay attention to wakeup of the 1:N waker,
 * returning 1 only when the 1:N waker is waking one of its minions".
 * A dispatcher with 8 workers on a 4-CPU LLC, seen from both sides.
 */
static void one_to_n_test(struct kunit *test)
{
	const unsigned int llc = 4, dispatcher = 64, worker = 8;

	/* dispatcher wakes a worker: both variants spread */
	KUNIT_EXPECT_EQ(test, sw_wake_wide(SW_WIDE_V2013, dispatcher, worker,
					   llc), WAKER);
	KUNIT_EXPECT_EQ(test, sw_wake_wide(SW_WIDE_MAINLINE, dispatcher,
					   worker, llc), WAKER);
	/* a worker wakes the dispatcher: only mainline spreads */
	KUNIT_EXPECT_EQ(test, sw_wake_wide(SW_WIDE_V2013, worker, dispatcher,
					   llc), NO);
	KUNIT_EXPECT_EQ(test, sw_wake_wide(SW_WIDE_MAINLINE, worker,
					   dispatcher, llc), WAKEE);
	/* 1:1 ping-pong stays affine everywhere */
	KUNIT_EXPECT_EQ(test, sw_wake_wide(SW_WIDE_V2013, 1, 1, llc), NO);
	KUNIT_EXPECT_EQ(test, sw_wake_wide(SW_WIDE_MAINLINE, 1, 1, llc), NO);
}

/* swapping the pair only swaps the direction under mainline */
static void mainline_symmetric_test(struct kunit *test)
{
	unsigned int a, b;

	for (a = 0; a < 80; a += 3) {
		for (b = 0; b < 80; b += 5) {
			enum sw_wide ab = sw_wake_wide(SW_WIDE_MAINLINE, a, b, 4);
			enum sw_wide ba = sw_wake_wide(SW_WIDE_MAINLINE, b, a, 4);

			KUNIT_ASSERT_EQ(test, ab == NO, ba == NO);
			if (ab != NO && a != b)
				KUNIT_ASSERT_NE(test, ab, ba);
		}
	}
}

struct factor_case {
	const char *name;
	enum sw_factor_src src;
	unsigned int fixed, llc, node, online;
	unsigned int want;
};

static const struct factor_case factor_cases[] = {
	{ "llc", SW_FACTOR_LLC, 99, 4, 8, 16, 4 },
	{ "node", SW_FACTOR_NODE, 99, 4, 8, 16, 8 },
	{ "online", SW_FACTOR_ONLINE, 99, 4, 8, 16, 16 },
	{ "fixed", SW_FACTOR_FIXED, 99, 4, 8, 16, 99 },
	{ "llc 0 clamps to 1", SW_FACTOR_LLC, 99, 0, 8, 16, 1 },
	{ "node 0 clamps to 1", SW_FACTOR_NODE, 99, 4, 0, 16, 1 },
	{ "online 0 clamps to 1", SW_FACTOR_ONLINE, 99, 4, 8, 0, 1 },
	{ "fixed 0 clamps to 1", SW_FACTOR_FIXED, 0, 4, 8, 16, 1 },
	{ "fixed UINT_MAX", SW_FACTOR_FIXED, UINT_MAX, 4, 8, 16, UINT_MAX },
	{ "unknown source uses llc", SW_FACTOR_NR, 99, 4, 8, 16, 4 },
};

KUNIT_ARRAY_PARAM_DESC(factor, factor_cases, name);

static void factor_test(struct kunit *test)
{
	const struct factor_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_factor(c->src, c->fixed, c->llc, c->node,
					c->online), c->want);
}

static struct kunit_case sw_wide_test_cases[] = {
	KUNIT_CASE_PARAM(wake_wide_test, wide_gen_params),
	KUNIT_CASE(one_to_n_test),
	KUNIT_CASE(mainline_symmetric_test),
	{}
};

static struct kunit_suite sw_wide_test_suite = {
	.name = "smartwake_policy_wide",
	.test_cases = sw_wide_test_cases,
};

static struct kunit_case sw_factor_test_cases[] = {
	KUNIT_CASE_PARAM(factor_test, factor_gen_params),
	{}
};

static struct kunit_suite sw_factor_test_suite = {
	.name = "smartwake_policy_factor",
	.test_cases = sw_factor_test_cases,
};

kunit_test_suites(&sw_wide_test_suite, &sw_factor_test_suite);
