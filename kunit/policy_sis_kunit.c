// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: select_idle_sibling() helpers, the 2022 SIS filter's overloaded
 * test, the SIS_UTIL scan budget, the SIS efficiency metrics and the
 * sched-idle pull's vetoes.
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include <smartwake/policy.h>

struct nr_case {
	const char *name;
	unsigned int nr, idle_nr;
	bool overloaded, sched_idle;
};

static const struct nr_case nr_cases[] = {
	{ "empty", 0, 0, false, false },
	{ "one normal task", 1, 0, false, false },
	{ "two normal tasks", 2, 0, true, false },
	{ "one normal one idle-policy", 2, 1, false, false },
	{ "two normal one idle-policy", 3, 1, true, false },
	{ "one idle-policy task", 1, 1, false, true },
	{ "three idle-policy tasks", 3, 3, false, true },
	{ "idle count above nr", 1, 5, false, false },
	{ "UINT_MAX normal tasks", UINT_MAX, 0, true, false },
	{ "UINT_MAX with one normal", UINT_MAX, UINT_MAX - 1, false, false },
	{ "UINT_MAX with two normal", UINT_MAX, UINT_MAX - 2, true, false },
	{ "UINT_MAX all idle-policy", UINT_MAX, UINT_MAX, false, true },
};

KUNIT_ARRAY_PARAM_DESC(nr, nr_cases, name);

static void classify_test(struct kunit *test)
{
	const struct nr_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_cpu_overloaded(c->nr, c->idle_nr),
			c->overloaded);
	KUNIT_EXPECT_EQ(test, sw_cpu_sched_idle(c->nr, c->idle_nr),
			c->sched_idle);
}

struct usable_case {
	const char *name;
	bool cpu_idle, preempted;
	unsigned int nr, idle_nr;
	bool sched_idle_counts, want;
};

static const struct usable_case usable_cases[] = {
	{ "idle cpu", true, false, 0, 0, true, true },
	{ "idle cpu core scan", true, false, 0, 0, false, true },
	{ "idle but vcpu preempted", true, true, 0, 0, true, false },
	{ "sched-idle cpu", false, false, 2, 2, true, true },
	{ "sched-idle cpu core scan", false, false, 2, 2, false, false },
	{ "sched-idle preempted vcpu", false, true, 1, 1, true, true },
	{ "mixed cpu", false, false, 2, 1, true, false },
	{ "busy cpu", false, false, 1, 0, true, false },
};

KUNIT_ARRAY_PARAM_DESC(usable, usable_cases, name);

static void usable_idle_test(struct kunit *test)
{
	const struct usable_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_cpu_usable_idle(c->cpu_idle, c->preempted,
						 c->nr, c->idle_nr,
						 c->sched_idle_counts),
			c->want);
}

struct budget_case {
	const char *name;
	unsigned int llc;
	int hint;
	bool sis_util;
	unsigned int want;
};

static const struct budget_case budget_cases[] = {
	{ "no SIS_UTIL scans whole llc", 8, 3, false, 8 },
	{ "no SIS_UTIL ignores zero hint", 8, 0, false, 8 },
	{ "overloaded llc no scan", 8, 0, true, 0 },
	{ "hint below llc", 8, 3, true, 3 },
	{ "hint equal llc", 8, 8, true, 8 },
	{ "hint above llc", 8, 20, true, 8 },
	{ "negative hint no scan", 8, -1, true, 0 },
	{ "INT_MAX hint", 8, INT_MAX, true, 8 },
	{ "empty span", 0, 5, true, 0 },
};

KUNIT_ARRAY_PARAM_DESC(budget, budget_cases, name);

static void scan_budget_test(struct kunit *test)
{
	const struct budget_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_sis_scan_budget(c->llc, c->hint, c->sis_util),
			c->want);
}

struct ratio_case {
	const char *name;
	u64 num, den, want;
};

static const struct ratio_case ratio_cases[] = {
	{ "zero denominator is undefined", 5, 0, SW_PCT_UNDEFINED },
	{ "zero over zero is undefined", 0, 0, SW_PCT_UNDEFINED },
	{ "zero numerator", 0, 7, 0 },
	{ "whole", 1, 1, 10000 },
	{ "third rounds down", 1, 3, 3333 },
	{ "two thirds rounds down", 2, 3, 6666 },
	{ "above 100 percent", 3, 2, 15000 },
	/* "SIS Search Efficiency 5.04" from a 2021 mmtests report */
	{ "mmtests search efficiency", 5653107942ULL, 112173512543ULL, 503 },
	{ "huge equal", U64_MAX, U64_MAX, 10000 },
	{ "huge over one saturates below undefined", U64_MAX, 1, U64_MAX - 1 },
};

KUNIT_ARRAY_PARAM_DESC(ratio, ratio_cases, name);

static void ratio_test(struct kunit *test)
{
	const struct ratio_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_ratio_x100(c->num, c->den), c->want);
}

/* inputs that need scaling stay within a rounding step of the truth */
static void ratio_scaled_test(struct kunit *test)
{
	u64 r = sw_ratio_x100(U64_MAX / 2, U64_MAX);

	KUNIT_EXPECT_GE(test, r, 4999ULL);
	KUNIT_EXPECT_LE(test, r, 5000ULL);
	r = sw_ratio_x100(U64_MAX / 3, U64_MAX / 4);
	KUNIT_EXPECT_GE(test, r, 13332ULL);
	KUNIT_EXPECT_LE(test, r, 13334ULL);
}

struct metrics_case {
	const char *name;
	struct sw_sis_counts c;
	struct sw_sis_metrics want;
};

#define UNDEF SW_PCT_UNDEFINED

static const struct metrics_case metrics_cases[] = {
	/*
	 * Counters from a 2021 mmtests report on select_idle_sibling();
	 * mmtests printed 5.04/3.06/40.47/48.29 and 5.77/3.43/42.03/48.48
	 * (rounded, where these are rounded down). The report has no
	 * domain CPU or idle-found counts (undefined) and no budget stops.
	 */
	{ "mmtests report baseline",
	  { 5653107942ULL, 3365067916ULL, 112173512543ULL, 2923185114ULL },
	  { 503, 306, 4047, 4829, UNDEF, 0 } },
	{ "mmtests report patched",
	  { 5726545742ULL, 3319768543ULL, 99194352541ULL, 2950166441ULL },
	  { 577, 342, 4202, 4848, UNDEF, 0 } },
	/* nothing measured: every metric undefined, none reads 100 % */
	{ "no activity", { 0, 0, 0, 0, 0, 0, 0 },
	  { UNDEF, UNDEF, UNDEF, UNDEF, UNDEF, UNDEF } },
	{ "all fast path hits", { 100, 0, 100, 0, 0, 0, 0 },
	  { 10000, UNDEF, 10000, 10000, UNDEF, UNDEF } },
	{ "every search scans 4", { 10, 10, 40, 5, 40, 5, 0 },
	  { 2500, 2500, 0, 5000, 1250, 0 } },
	/* SIS_UTIL: 8 of 10 domain scans stopped before any CPU */
	{ "budget stops most scans", { 10, 10, 4, 8, 4, 2, 8 },
	  { 25000, 25000, 0, 2000, 5000, 8000 } },
	{ "inconsistent snapshot", { 10, 12, 5, 20, 0, 0, 0 },
	  { 20000, 24000, 0, 0, UNDEF, 0 } },
};

KUNIT_ARRAY_PARAM_DESC(metrics, metrics_cases, name);

static void sis_metrics_test(struct kunit *test)
{
	const struct metrics_case *c = test->param_value;
	struct sw_sis_metrics m = sw_sis_metrics(&c->c);

	KUNIT_EXPECT_EQ(test, m.search_eff, c->want.search_eff);
	KUNIT_EXPECT_EQ(test, m.domain_eff, c->want.domain_eff);
	KUNIT_EXPECT_EQ(test, m.fast_success, c->want.fast_success);
	KUNIT_EXPECT_EQ(test, m.success, c->want.success);
	KUNIT_EXPECT_EQ(test, m.idle_per_examined, c->want.idle_per_examined);
	KUNIT_EXPECT_EQ(test, m.budget_stopped, c->want.budget_stopped);
}

/*
 * The sched-idle pull's vetoes, all 32 inputs: OK exactly when no veto
 * applies, and a veto only when its own condition holds and no earlier
 * one does (the order of the counters).
 */
static void pull_veto_test(struct kunit *test)
{
	unsigned int in;

	for (in = 0; in < 32; in++) {
		bool cond[SW_PULL_VETO_NR] = {
			[SW_PULL_IDLE] = in & 1,
			[SW_PULL_DELAYED] = in & 2,
			[SW_PULL_MIGRATION_DISABLED] = in & 4,
			[SW_PULL_AFFINITY] = !(in & 8),
			[SW_PULL_RUNNING] = in & 16,
		};
		enum sw_pull_veto v = sw_pull_veto(in & 1, in & 2, in & 4,
						   in & 8, in & 16);
		unsigned int i, first = SW_PULL_OK;

		for (i = SW_PULL_OK + 1; i < SW_PULL_VETO_NR; i++) {
			if (cond[i]) {
				first = i;
				break;
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, (unsigned int)v, first, "inputs %#x", in);
	}
	/* the seed's three, alone */
	KUNIT_EXPECT_EQ(test, sw_pull_veto(false, false, false, false, false),
			SW_PULL_AFFINITY);
	KUNIT_EXPECT_EQ(test, sw_pull_veto(false, false, false, true, true),
			SW_PULL_RUNNING);
	KUNIT_EXPECT_EQ(test, sw_pull_veto(false, false, true, true, false),
			SW_PULL_MIGRATION_DISABLED);
	KUNIT_EXPECT_EQ(test, sw_pull_veto(false, false, false, true, false),
			SW_PULL_OK);
}

static struct kunit_case sw_sis_test_cases[] = {
	KUNIT_CASE_PARAM(classify_test, nr_gen_params),
	KUNIT_CASE_PARAM(usable_idle_test, usable_gen_params),
	KUNIT_CASE_PARAM(scan_budget_test, budget_gen_params),
	KUNIT_CASE_PARAM(ratio_test, ratio_gen_params),
	KUNIT_CASE(ratio_scaled_test),
	KUNIT_CASE_PARAM(sis_metrics_test, metrics_gen_params),
	KUNIT_CASE(pull_veto_test),
	{}
};

static struct kunit_suite sw_sis_test_suite = {
	.name = "smartwake_policy_sis",
	.test_cases = sw_sis_test_cases,
};

kunit_test_suites(&sw_sis_test_suite);
