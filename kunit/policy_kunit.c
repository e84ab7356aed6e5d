// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake_policy_kunit.ko: KUnit suites for the smartwake policy core
 * (include/smartwake/policy.h). This file holds the module information and
 * the knob name tables' suite; the other suites live in policy_*_kunit.c.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include <smartwake/policy.h>

/* every table entry is set, and names parse back to their index */
static void check_names(struct kunit *test, const char * const *names,
			unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		KUNIT_ASSERT_NOT_NULL(test, names[i]);
		KUNIT_EXPECT_GT(test, strlen(names[i]), 0UL);
		KUNIT_EXPECT_EQ(test, __sysfs_match_string(names, nr, names[i]),
				(int)i);
	}
}

static void names_tables_test(struct kunit *test)
{
	check_names(test, sw_decay_names, SW_DECAY_NR);
	check_names(test, sw_wide_mode_names, SW_WIDE_NR);
	check_names(test, sw_factor_src_names, SW_FACTOR_NR);
	check_names(test, sw_numa_retry_names, SW_NUMA_NR);
}

static void names_values_test(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, sw_decay_names[SW_DECAY_NONE], "none");
	KUNIT_EXPECT_STREQ(test, sw_decay_names[SW_DECAY_WIPE], "wipe");
	KUNIT_EXPECT_STREQ(test, sw_decay_names[SW_DECAY_HALVE], "halve");
	KUNIT_EXPECT_STREQ(test, sw_decay_names[SW_DECAY_EXACT], "exact");
	KUNIT_EXPECT_STREQ(test, sw_wide_mode_names[SW_WIDE_OFF], "off");
	KUNIT_EXPECT_STREQ(test, sw_wide_mode_names[SW_WIDE_V2013], "v2013");
	KUNIT_EXPECT_STREQ(test, sw_wide_mode_names[SW_WIDE_MAINLINE],
			   "mainline");
	KUNIT_EXPECT_STREQ(test, sw_factor_src_names[SW_FACTOR_LLC], "llc");
	KUNIT_EXPECT_STREQ(test, sw_factor_src_names[SW_FACTOR_NODE], "node");
	KUNIT_EXPECT_STREQ(test, sw_factor_src_names[SW_FACTOR_ONLINE],
			   "online");
	KUNIT_EXPECT_STREQ(test, sw_numa_retry_names[SW_NUMA_OFF], "off");
	KUNIT_EXPECT_STREQ(test, sw_numa_retry_names[SW_NUMA_AS_MERGED],
			   "as-merged");
	KUNIT_EXPECT_STREQ(test, sw_numa_retry_names[SW_NUMA_CORRECTED],
			   "corrected");
}

static void names_parse_test(struct kunit *test)
{
	/* sysfs_match_string() tolerates the newline that echo appends */
	KUNIT_EXPECT_EQ(test, sysfs_match_string(sw_decay_names, "halve\n"),
			(int)SW_DECAY_HALVE);
	KUNIT_EXPECT_EQ(test, sysfs_match_string(sw_numa_retry_names,
						 "as-merged"),
			(int)SW_NUMA_AS_MERGED);
	KUNIT_EXPECT_LT(test, sysfs_match_string(sw_wide_mode_names, "wide"),
			0);
	KUNIT_EXPECT_LT(test, sysfs_match_string(sw_factor_src_names, "4"),
			0);
}

static struct kunit_case sw_names_test_cases[] = {
	KUNIT_CASE(names_tables_test),
	KUNIT_CASE(names_values_test),
	KUNIT_CASE(names_parse_test),
	{}
};

static struct kunit_suite sw_names_test_suite = {
	.name = "smartwake_policy_names",
	.test_cases = sw_names_test_cases,
};

kunit_test_suites(&sw_names_test_suite);

MODULE_DESCRIPTION("KUnit tests for the smartwake wakeup placement policy core");
MODULE_LICENSE("GPL");
