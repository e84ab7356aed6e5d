// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: wake_affine_idle(), wake_affine_weight() and their combination,
 * checked against the kernel's semantics (including its s64 arithmetic).
 */
#include <kunit/test.h>

#include <smartwake/policy.h>

#define NONE	SW_AFFINE_NONE
#define THIS	SW_AFFINE_THIS
#define PREV	SW_AFFINE_PREV

struct idle_case {
	const char *name;
	bool this_idle, prev_idle, share_cache, sync;
	unsigned int this_nr;
	enum sw_affine want;
};

static const struct idle_case idle_cases[] = {
	{ "irq both idle shared cache", true, true, true, false, 0, PREV },
	{ "irq both idle shared cache sync", true, true, true, true, 1, PREV },
	{ "irq this idle shared cache", true, false, true, false, 0, THIS },
	{ "irq this idle shared cache sync", true, false, true, true, 1, THIS },
	{ "irq this idle no shared cache", true, false, false, false, 0, NONE },
	{ "irq both idle no shared cache", true, true, false, false, 0, PREV },
	{ "this idle no shared cache sync", true, false, false, true, 1, THIS },
	{ "busy sync waker alone", false, false, true, true, 1, THIS },
	{ "busy sync waker alone prev idle", false, true, true, true, 1, THIS },
	{ "busy sync waker alone remote", false, false, false, true, 1, THIS },
	{ "busy sync two running", false, false, true, true, 2, NONE },
	{ "busy sync two running prev idle", false, true, true, true, 2, PREV },
	{ "busy sync zero running", false, false, true, true, 0, NONE },
	{ "busy no sync one running", false, false, true, false, 1, NONE },
	{ "busy prev idle", false, true, true, false, 3, PREV },
	{ "busy prev idle remote", false, true, false, false, 3, PREV },
	{ "busy nothing idle", false, false, false, false, 3, NONE },
};

KUNIT_ARRAY_PARAM_DESC(idle, idle_cases, name);

static void affine_idle_test(struct kunit *test)
{
	const struct idle_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_affine_idle(c->this_idle, c->prev_idle,
					     c->share_cache, c->sync,
					     c->this_nr), c->want);
}

struct weight_case {
	const char *name;
	struct sw_weight_in in;
	enum sw_affine want;
};

/* equal capacities, imbalance_pct 117 (prev side x108 with WA_BIAS) */
#define W(t, p, cur, task, sync, bias) \
	{ t, p, cur, task, 1024, 1024, 117, sync, bias }

static const struct weight_case weight_cases[] = {
	{ "equal loads stay", W(1000, 1000, 0, 100, false, true), NONE },
	{ "idle waker cpu pulls", W(0, 1000, 0, 100, false, true), THIS },
	{ "bias margin just pulls", W(979, 1100, 0, 100, false, true), THIS },
	{ "bias margin just stays", W(980, 1100, 0, 100, false, true), NONE },
	{ "no bias tie stays", W(800, 1000, 0, 100, false, false), NONE },
	{ "no bias one lighter pulls", W(799, 1000, 0, 100, false, false),
	  THIS },
	{ "no bias lighter than bias margin", W(979, 1100, 0, 100, false,
						false), NONE },
	{ "sync heavy waker pulls at once", W(100, 0, 200, 100, true, true),
	  THIS },
	{ "sync waker equal to load", W(500, 100, 500, 100, true, true),
	  NONE },
	{ "sync tie pulls", W(800, 1000, 0, 100, true, false), THIS },
	{ "sync removes waker load", W(1000, 1000, 200, 100, true, false),
	  THIS },
	{ "prev below task load stays", W(0, 50, 0, 100, false, true), NONE },
	{ "prev below task load sync stays", W(0, 50, 0, 100, true, true),
	  NONE },
	{ "prev below task heavy sync waker", W(0, 50, 10, 100, true, true),
	  THIS },
	{ "all zero stays", W(0, 0, 0, 0, false, true), NONE },
	{ "all zero sync pulls", W(0, 0, 0, 0, true, true), THIS },
	{ "small waking cpu stays",
	  { 400, 1000, 0, 100, 512, 1024, 117, false, false }, NONE },
	{ "small prev cpu pulls",
	  { 400, 1000, 0, 100, 1024, 512, 117, false, false }, THIS },
	{ "imbalance 125 pulls",
	  { 1010, 1100, 0, 100, 1024, 1024, 125, false, true }, THIS },
	{ "imbalance 117 stays",
	  { 1010, 1100, 0, 100, 1024, 1024, 117, false, true }, NONE },
	{ "imbalance 100 tie stays",
	  { 800, 1000, 0, 100, 1024, 1024, 100, false, true }, NONE },
	/* (90 - 100) wraps in unsigned int, as in the kernel */
	{ "imbalance below 100 wraps",
	  { 10000, 1000, 0, 100, 1024, 1024, 90, false, true }, THIS },
	/* this_eff wraps negative in 64 bits, as in the kernel */
	{ "huge waking load wraps",
	  { 90071992547410UL, 1000, 0, 0, 1024, 1024, 117, false, true },
	  THIS },
};

KUNIT_ARRAY_PARAM_DESC(weight, weight_cases, name);

static void affine_weight_test(struct kunit *test)
{
	const struct weight_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_affine_weight(&c->in), c->want);
}

struct combine_case {
	const char *name;
	bool use_idle, use_weight;
	enum sw_affine idle_res, weight_res;
	bool needs_weight;
	enum sw_affine want;
};

static const struct combine_case combine_cases[] = {
	{ "idle says this", true, true, THIS, NONE, false, THIS },
	{ "idle says prev over weight", true, true, PREV, THIS, false, PREV },
	{ "idle none weight this", true, true, NONE, THIS, true, THIS },
	{ "idle none weight none", true, true, NONE, NONE, true, PREV },
	{ "idle off weight this", false, true, PREV, THIS, true, THIS },
	{ "idle off weight none", false, true, THIS, NONE, true, PREV },
	{ "weight off idle none", true, false, NONE, THIS, false, PREV },
	{ "weight off idle this", true, false, THIS, NONE, false, THIS },
	{ "both off", false, false, THIS, THIS, false, PREV },
};

KUNIT_ARRAY_PARAM_DESC(combine, combine_cases, name);

static void wake_affine_test(struct kunit *test)
{
	const struct combine_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sw_wake_affine_needs_weight(c->use_idle,
							  c->idle_res,
							  c->use_weight),
			c->needs_weight);
	KUNIT_EXPECT_EQ(test, sw_wake_affine(c->use_idle, c->use_weight,
					     c->idle_res, c->weight_res),
			c->want);
}

static struct kunit_case sw_affine_test_cases[] = {
	KUNIT_CASE_PARAM(affine_idle_test, idle_gen_params),
	KUNIT_CASE_PARAM(affine_weight_test, weight_gen_params),
	KUNIT_CASE_PARAM(wake_affine_test, combine_gen_params),
	{}
};

static struct kunit_suite sw_affine_test_suite = {
	.name = "smartwake_policy_affine",
	.test_cases = sw_affine_test_cases,
};

kunit_test_suites(&sw_affine_test_suite);
