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
	/* the kernel's gate is still shut at that jiffy: so is corrected */
	{ "corrected stored equals now", SW_NUMA_CORRECTED, T_BASE, T_BASE, 15,
	  true },
	{ "corrected one past stored", SW_NUMA_CORRECTED, T_BASE + 1, T_BASE,
	  15, false },
	{ "corrected interval 0 past stored", SW_NUMA_CORRECTED, T_BASE + 1,
	  T_BASE, 0, false },
	{ "as-merged interval 0 past stored", SW_NUMA_AS_MERGED, T_BASE + 1,
	  T_BASE, 0, true },
	{ "corrected stored equals now at wrap", SW_NUMA_CORRECTED, ULONG_MAX,
	  ULONG_MAX, 15, true },
	{ "corrected past stored across 0", SW_NUMA_CORRECTED, 0, ULONG_MAX,
	  15, false },
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

struct migrate_case {
	const char *name;
	enum sw_numa_retry mode;
	unsigned long now, stored, interval;
	bool nid_changed, want;
};

static const struct migrate_case migrate_cases[] = {
	/* no backoff: the kernel's retry time has just passed */
	{ "off", SW_NUMA_OFF, T_BASE, T_BASE - 1, 15, false, false },
	{ "as-merged, no backoff", SW_NUMA_AS_MERGED, T_BASE, T_BASE - 1, 15,
	  false, true },
	{ "corrected, no backoff", SW_NUMA_CORRECTED, T_BASE, T_BASE - 1, 15,
	  false, false },
	/* a live backoff, same preferred node: 2018 made no call at all */
	{ "off, backoff", SW_NUMA_OFF, T_BASE, T_BASE + 100, 15, false,
	  false },
	{ "as-merged, backoff, same node", SW_NUMA_AS_MERGED, T_BASE,
	  T_BASE + 100, 15, false, true },
	{ "corrected, backoff, same node", SW_NUMA_CORRECTED, T_BASE,
	  T_BASE + 100, 15, false, true },
	/* ...a new preferred node: 2018's placement called the test */
	{ "as-merged, backoff far, new node", SW_NUMA_AS_MERGED, T_BASE,
	  T_BASE + 100, 15, true, false },
	{ "as-merged, backoff ends within interval, new node",
	  SW_NUMA_AS_MERGED, T_BASE, T_BASE + 14, 15, true, true },
	{ "as-merged, backoff ends at new time, new node", SW_NUMA_AS_MERGED,
	  T_BASE, T_BASE + 15, 15, true, false },
	{ "corrected, backoff, new node", SW_NUMA_CORRECTED, T_BASE,
	  T_BASE + 100, 15, true, true },
	/* the backoff's last jiffy, then the first after it */
	{ "corrected, now == backoff end", SW_NUMA_CORRECTED, T_BASE, T_BASE,
	  15, false, true },
	{ "corrected, one past backoff end", SW_NUMA_CORRECTED, T_BASE + 1,
	  T_BASE, 15, false, false },
	{ "as-merged, now == backoff end", SW_NUMA_AS_MERGED, T_BASE, T_BASE,
	  15, false, true },
	{ "as-merged, one past backoff end", SW_NUMA_AS_MERGED, T_BASE + 1,
	  T_BASE, 15, false, true },
	/* jiffies wrap */
	{ "corrected, backoff across wrap", SW_NUMA_CORRECTED, ULONG_MAX - 5,
	  10, 15, false, true },
	{ "corrected, past backoff across wrap", SW_NUMA_CORRECTED, 11, 10,
	  15, false, false },
	{ "as-merged, backoff across wrap, new node", SW_NUMA_AS_MERGED,
	  ULONG_MAX - 5, 10, 15, true, false },
	{ "as-merged, new time wraps, new node", SW_NUMA_AS_MERGED,
	  ULONG_MAX - 5, ULONG_MAX - 2, 15, true, true },
	{ "unknown mode", SW_NUMA_NR, T_BASE, T_BASE + 100, 15, false, false },
};

KUNIT_ARRAY_PARAM_DESC(migrate, migrate_cases, name);

static void defer_migrate_test(struct kunit *test)
{
	const struct migrate_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_numa_defer_migrate(c->mode, c->now, c->stored,
						    c->interval, c->nid_changed),
			c->want);
}

/*
 * 6.12's fault path with the module: the kernel reaches task_numa_migrate()
 * each time its own gate opens (it stores now + interval first, placement
 * having run), the module keeps a backoff set at @backoff_at for
 * @backoff jiffies. Ten seconds at HZ 250, one fault per jiffy; returns the
 * migrations let through.
 */
static unsigned int migrate_path(enum sw_numa_retry mode, unsigned long start,
				 unsigned long backoff_at, unsigned long backoff)
{
	const unsigned long hz = 250, iv = sw_numa_retry_interval(1000, hz);
	unsigned long now, kernel = start - 1, until = 0;
	unsigned int let = 0;
	bool live = false;

	for (now = start; now != start + 10 * hz; now++) {
		if (now == backoff_at) {
			until = now + backoff;
			live = true;
		}
		if (live && time_after(now, until))
			live = false;
		if (!time_after(now, kernel))
			continue;
		kernel = now + iv;	/* placement ran; the kernel's next retry */
		if (sw_numa_defer_migrate(mode, now, live ? until : now - 1, iv,
					  false))
			continue;
		let++;
		live = false;
	}
	return let;
}

static void migrate_path_test(struct kunit *test)
{
	static const unsigned long starts[] = { T_BASE, ULONG_MAX - 1000 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(starts); i++) {
		unsigned long s = starts[i];
		unsigned int off = migrate_path(SW_NUMA_OFF, s, s + 900, 250);

		/* one attempt every interval + 1 jiffies: 2500 / 16 */
		KUNIT_EXPECT_EQ(test, off, 157U);
		/* no backoff: corrected is off */
		KUNIT_EXPECT_EQ(test, migrate_path(SW_NUMA_CORRECTED, s, s - 1, 0),
				off);
		/*
		 * a backoff through now + 250 (across 0 from the second start)
		 * defers the 15 retries due in it: jiffies 912 to 1136
		 */
		KUNIT_EXPECT_EQ(test, migrate_path(SW_NUMA_CORRECTED, s, s + 900,
						   250), off - 15);
		/* as merged: none, backoff or not */
		KUNIT_EXPECT_EQ(test, migrate_path(SW_NUMA_AS_MERGED, s, s + 900,
						   250), 0U);
		KUNIT_EXPECT_EQ(test, migrate_path(SW_NUMA_AS_MERGED, s, s - 1, 0),
				0U);
	}
}

/*
 * 2018's fault path: numa_migrate_preferred() only once numa_migrate_retry
 * has passed. Drive that path for ten seconds: as merged, the gate defers
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
	KUNIT_CASE_PARAM(defer_migrate_test, migrate_gen_params),
	KUNIT_CASE(migrate_path_test),
	{}
};

static struct kunit_suite sw_numa_test_suite = {
	.name = "smartwake_policy_numa",
	.test_cases = sw_numa_test_cases,
};

kunit_test_suites(&sw_numa_test_suite);
