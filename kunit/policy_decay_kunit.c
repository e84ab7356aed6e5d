// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: wakee flip decay and record_wakee (2013 wipe, mainline halve,
 * 2013 "exact" suggestion), including jiffies wrap near ULONG_MAX.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/limits.h>

#include <smartwake/policy.h>

#define T_HZ	250UL
#define T_BASE	1000000UL
/* half a second before the jiffies counter wraps to 0 */
#define T_WRAP	(ULONG_MAX - T_HZ / 2)

/* ---- one decay step ------------------------------------------------- */

struct decay_case {
	const char *name;
	enum sw_decay mode;
	unsigned long hz;
	unsigned int flips;
	unsigned long ts;
	unsigned long now;
	unsigned int want_flips;
	unsigned long want_ts;
};

static const struct decay_case decay_cases[] = {
	{ "none huge gap", SW_DECAY_NONE, T_HZ, 100, T_BASE,
	  T_BASE + 1000 * T_HZ, 100, T_BASE },
	{ "none now before ts", SW_DECAY_NONE, T_HZ, 100, T_BASE,
	  T_BASE - 10, 100, T_BASE },
	{ "wipe exactly hz keeps", SW_DECAY_WIPE, T_HZ, 100, T_BASE,
	  T_BASE + T_HZ, 100, T_BASE },
	{ "wipe hz+1 wipes", SW_DECAY_WIPE, T_HZ, 100, T_BASE,
	  T_BASE + T_HZ + 1, 0, T_BASE + T_HZ + 1 },
	{ "wipe long gap", SW_DECAY_WIPE, T_HZ, 100, T_BASE,
	  T_BASE + 50 * T_HZ, 0, T_BASE + 50 * T_HZ },
	{ "halve exactly hz keeps", SW_DECAY_HALVE, T_HZ, 100, T_BASE,
	  T_BASE + T_HZ, 100, T_BASE },
	{ "halve hz+1 halves", SW_DECAY_HALVE, T_HZ, 100, T_BASE,
	  T_BASE + T_HZ + 1, 50, T_BASE + T_HZ + 1 },
	{ "halve long gap halves once", SW_DECAY_HALVE, T_HZ, 100, T_BASE,
	  T_BASE + 100 * T_HZ, 50, T_BASE + 100 * T_HZ },
	{ "halve odd count", SW_DECAY_HALVE, T_HZ, 7, T_BASE,
	  T_BASE + 2 * T_HZ, 3, T_BASE + 2 * T_HZ },
	{ "halve hz 100", SW_DECAY_HALVE, 100, 100, T_BASE,
	  T_BASE + 101, 50, T_BASE + 101 },
	{ "exact below one period", SW_DECAY_EXACT, T_HZ, 100, T_BASE,
	  T_BASE + T_HZ - 1, 100, T_BASE },
	/* the seed's loop tests now > ts + HZ: one whole period keeps */
	{ "exact one period keeps", SW_DECAY_EXACT, T_HZ, 100, T_BASE,
	  T_BASE + T_HZ, 100, T_BASE },
	{ "exact one period + 1 shifts", SW_DECAY_EXACT, T_HZ, 100, T_BASE,
	  T_BASE + T_HZ + 1, 50, T_BASE + T_HZ },
	{ "exact keeps fraction", SW_DECAY_EXACT, T_HZ, 100, T_BASE,
	  T_BASE + 3 * T_HZ + 7, 12, T_BASE + 3 * T_HZ },
	{ "exact 31 periods shift 30", SW_DECAY_EXACT, T_HZ, UINT_MAX, T_BASE,
	  T_BASE + 31 * T_HZ, 3, T_BASE + 30 * T_HZ },
	{ "exact 32 periods shift 31", SW_DECAY_EXACT, T_HZ, UINT_MAX, T_BASE,
	  T_BASE + 32 * T_HZ, 1, T_BASE + 31 * T_HZ },
	/* now - ts > 8 * sizeof(flips) * HZ: the seed's wipe, ts = now */
	{ "exact past 32 periods wipes", SW_DECAY_EXACT, T_HZ, UINT_MAX, T_BASE,
	  T_BASE + 32 * T_HZ + 1, 0, T_BASE + 32 * T_HZ + 1 },
	{ "exact huge gap constant time", SW_DECAY_EXACT, T_HZ, UINT_MAX,
	  T_BASE, T_BASE + LONG_MAX - 1, 0, T_BASE + LONG_MAX - 1 },
	{ "exact zero flips advances ts", SW_DECAY_EXACT, 1000, 0, T_BASE,
	  T_BASE + 2500, 0, T_BASE + 2000 },
	{ "exact now before ts", SW_DECAY_EXACT, T_HZ, 100, T_BASE,
	  T_BASE - 1, 100, T_BASE },
	{ "halve now before ts", SW_DECAY_HALVE, T_HZ, 100, T_BASE,
	  T_BASE - 1000, 100, T_BASE },
	{ "wipe now before ts", SW_DECAY_WIPE, T_HZ, 100, T_BASE,
	  T_BASE - 1000, 100, T_BASE },
	{ "halve wrap crosses 0", SW_DECAY_HALVE, T_HZ, 100, T_WRAP,
	  T_WRAP + T_HZ + 1, 50, T_WRAP + T_HZ + 1 },
	{ "wipe wrap crosses 0", SW_DECAY_WIPE, T_HZ, 100, T_WRAP,
	  T_WRAP + T_HZ + 1, 0, T_WRAP + T_HZ + 1 },
	{ "exact wrap crosses 0", SW_DECAY_EXACT, T_HZ, 100, T_WRAP,
	  T_WRAP + 2 * T_HZ + 3, 25, T_WRAP + 2 * T_HZ },
	/* ts + hz overflows: a plain '>' would decay here */
	{ "halve wrap ts+hz overflows", SW_DECAY_HALVE, T_HZ, 100, T_WRAP,
	  T_WRAP + T_HZ / 4, 100, T_WRAP },
	{ "wipe wrap ts+hz overflows", SW_DECAY_WIPE, T_HZ, 100, T_WRAP,
	  T_WRAP + T_HZ / 4, 100, T_WRAP },
	{ "exact wrap under one period", SW_DECAY_EXACT, T_HZ, 100, T_WRAP,
	  T_WRAP + T_HZ - 1, 100, T_WRAP },
	{ "halve hz 0 acts as 1", SW_DECAY_HALVE, 0, 100, T_BASE,
	  T_BASE + 2, 50, T_BASE + 2 },
	{ "exact hz 0 acts as 1", SW_DECAY_EXACT, 0, 100, T_BASE,
	  T_BASE + 5, 6, T_BASE + 4 },
	{ "unknown mode keeps", SW_DECAY_NR, T_HZ, 100, T_BASE,
	  T_BASE + 10 * T_HZ, 100, T_BASE },
};

KUNIT_ARRAY_PARAM_DESC(decay, decay_cases, name);

static void decay_step_test(struct kunit *test)
{
	const struct decay_case *c = test->param_value;
	struct sw_flips s = { .flips = c->flips, .decay_ts = c->ts };

	s = sw_flips_decay(c->mode, s, c->now, c->hz);
	KUNIT_EXPECT_EQ(test, s.flips, c->want_flips);
	KUNIT_EXPECT_EQ(test, s.decay_ts, c->want_ts);
}

/* ---- record_wakee sequences ----------------------------------------- */

struct wakee_step {
	unsigned long dt;	/* now = base + dt */
	bool new_wakee;
	unsigned int flips;	/* expected after the step */
	unsigned long ts_dt;	/* expected decay_ts = base + ts_dt */
};

#define SEQ_MAX 8

struct seq_case {
	const char *name;
	enum sw_decay mode;
	unsigned long hz;
	unsigned long base;	/* also the initial decay_ts */
	unsigned int init_flips;
	unsigned int nr;
	struct wakee_step steps[SEQ_MAX];
};

static const struct seq_case seq_cases[] = {
	{ "halve burst then idle", SW_DECAY_HALVE, T_HZ, T_BASE, 0, 8, {
		{ 0, true, 1, 0 }, { 10, true, 2, 0 }, { 20, true, 3, 0 },
		{ 30, false, 3, 0 }, { 250, true, 4, 0 },
		{ 251, true, 3, 251 }, { 600, true, 2, 600 },
		{ 5000, false, 1, 5000 } } },
	{ "wipe burst then idle", SW_DECAY_WIPE, T_HZ, T_BASE, 0, 8, {
		{ 0, true, 1, 0 }, { 10, true, 2, 0 }, { 20, true, 3, 0 },
		{ 30, false, 3, 0 }, { 250, true, 4, 0 },
		{ 251, true, 1, 251 }, { 600, true, 1, 600 },
		{ 5000, false, 0, 5000 } } },
	{ "exact burst then idle", SW_DECAY_EXACT, T_HZ, T_BASE, 0, 8, {
		{ 0, true, 1, 0 }, { 10, true, 2, 0 }, { 20, true, 3, 0 },
		{ 30, false, 3, 0 }, { 250, true, 4, 0 },
		{ 251, true, 3, 250 }, { 600, true, 2, 500 },
		{ 5000, false, 0, 4750 } } },
	{ "none burst then idle", SW_DECAY_NONE, T_HZ, T_BASE, 0, 8, {
		{ 0, true, 1, 0 }, { 10, true, 2, 0 }, { 20, true, 3, 0 },
		{ 30, false, 3, 0 }, { 250, true, 4, 0 },
		{ 251, true, 5, 0 }, { 600, true, 6, 0 },
		{ 5000, false, 6, 0 } } },
	{ "halve across jiffies wrap", SW_DECAY_HALVE, T_HZ, T_WRAP, 8, 5, {
		{ 100, true, 9, 0 }, { 200, true, 10, 0 },
		{ 251, true, 6, 251 }, { 400, false, 6, 251 },
		{ 502, true, 4, 502 } } },
	{ "wipe across jiffies wrap", SW_DECAY_WIPE, T_HZ, T_WRAP, 8, 5, {
		{ 100, true, 9, 0 }, { 200, true, 10, 0 },
		{ 251, true, 1, 251 }, { 400, false, 1, 251 },
		{ 502, true, 1, 502 } } },
	{ "exact across jiffies wrap", SW_DECAY_EXACT, T_HZ, T_WRAP, 8, 5, {
		{ 100, true, 9, 0 }, { 200, true, 10, 0 },
		{ 251, true, 6, 250 }, { 400, false, 6, 250 },
		{ 502, true, 4, 500 } } },
	{ "none across jiffies wrap", SW_DECAY_NONE, T_HZ, T_WRAP, 8, 5, {
		{ 100, true, 9, 0 }, { 200, true, 10, 0 },
		{ 251, true, 11, 0 }, { 400, false, 11, 0 },
		{ 502, true, 12, 0 } } },
	{ "none saturates at UINT_MAX", SW_DECAY_NONE, T_HZ, T_BASE,
	  UINT_MAX, 2, {
		{ 0, true, UINT_MAX, 0 }, { 1, true, UINT_MAX, 0 } } },
	{ "halve from saturation", SW_DECAY_HALVE, T_HZ, T_BASE,
	  UINT_MAX, 2, {
		{ 0, true, UINT_MAX, 0 },
		{ 251, true, (UINT_MAX >> 1) + 1, 251 } } },
	{ "exact long sleep then burst", SW_DECAY_EXACT, 100, T_BASE,
	  1000, 3, {
		{ 3200, true, 1, 3100 }, { 3250, true, 1, 3200 },
		{ 3300, true, 2, 3200 } } },
	{ "halve long sleep halves once", SW_DECAY_HALVE, 100, T_BASE,
	  1000, 2, {
		{ 3200, true, 501, 3200 }, { 3250, true, 502, 3200 } } },
	{ "halve steady slow waker", SW_DECAY_HALVE, 100, T_BASE, 64, 4, {
		{ 101, false, 32, 101 }, { 202, false, 16, 202 },
		{ 303, false, 8, 303 }, { 404, false, 4, 404 } } },
	{ "exact steady slow waker", SW_DECAY_EXACT, 100, T_BASE, 64, 4, {
		{ 100, false, 64, 0 }, { 200, false, 32, 100 },
		{ 300, false, 16, 200 }, { 400, false, 8, 300 } } },
};

KUNIT_ARRAY_PARAM_DESC(seq, seq_cases, name);

static void record_wakee_seq_test(struct kunit *test)
{
	const struct seq_case *c = test->param_value;
	struct sw_flips s = { .flips = c->init_flips, .decay_ts = c->base };
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		const struct wakee_step *st = &c->steps[i];

		s = sw_record_wakee(c->mode, s, st->new_wakee,
				    c->base + st->dt, c->hz);
		KUNIT_EXPECT_EQ_MSG(test, s.flips, st->flips, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, s.decay_ts, c->base + st->ts_dt,
				    "step %u", i);
	}
}

/* ---- properties ------------------------------------------------------ */

/*
 * The oracle, written from the seed (Peter Zijlstra, 2013 review):
 *
 *	now = jiffies;
 *	if (now - p->last_switch_decay > 8*sizeof(p->nr_wakee_switch)*HZ) {
 *		p->nr_wakee_switch = 0;
 *		p->last_switch_decay = now;
 *	} else while (now > p->last_switch_decay + HZ) {
 *		p->nr_wakee_switch >>= 1;
 *		p->last_switch_decay += HZ;
 *	}
 *
 * with the three documented adaptations of sw_decay_exact(): the counter
 * is 32 bits wide (sizeof(s.flips)), the loop test is time_after() (the
 * seed's '>' misfires where ts + HZ wraps), and a now before ts keeps.
 */
static struct sw_flips exact_oracle(struct sw_flips s, unsigned long now,
				    unsigned long hz)
{
	if (!time_after(now, s.decay_ts))
		return s;
	if (now - s.decay_ts > 8 * sizeof(s.flips) * hz) {
		s.flips = 0;
		s.decay_ts = now;
	} else {
		while (time_after(now, s.decay_ts + hz)) {
			s.flips >>= 1;
			s.decay_ts += hz;
		}
	}
	return s;
}

/* The seed's plain '>' and the wrap-safe test agree away from the wrap. */
static void exact_seed_compare_test(struct kunit *test)
{
	unsigned long ts = T_BASE, d;

	for (d = 0; d <= 3 * T_HZ; d++)
		KUNIT_EXPECT_EQ_MSG(test, T_BASE + d > ts + T_HZ,
				    time_after(T_BASE + d, ts + T_HZ),
				    "gap %lu", d);
	/* ...and differ where ts + HZ wraps: the seed would decay at once */
	ts = T_WRAP;
	KUNIT_EXPECT_TRUE(test, T_WRAP + 1 > ts + T_HZ);
	KUNIT_EXPECT_FALSE(test, time_after(T_WRAP + 1, ts + T_HZ));
}

static void exact_matches_loop_test(struct kunit *test)
{
	static const unsigned long hzs[] = { 1, 100, 250, 1000 };
	static const unsigned int flips[] = { UINT_MAX, 12345, 1 };
	unsigned int h, f, b;

	for (h = 0; h < ARRAY_SIZE(hzs); h++) {
		unsigned long hz = hzs[h];
		unsigned long bases[] = { T_BASE, ULONG_MAX - 20 * hz };

		for (b = 0; b < ARRAY_SIZE(bases); b++) {
			for (f = 0; f < ARRAY_SIZE(flips); f++) {
				struct sw_flips s = { flips[f], bases[b] };
				unsigned long d;

				for (d = 0; d <= 40 * hz; d += hz / 7 + 1) {
					unsigned long now = bases[b] + d;
					struct sw_flips got, want;

					got = sw_flips_decay(SW_DECAY_EXACT, s,
							     now, hz);
					want = exact_oracle(s, now, hz);
					KUNIT_ASSERT_EQ_MSG(test, got.flips,
							    want.flips,
							    "hz %lu gap %lu",
							    hz, d);
					KUNIT_ASSERT_EQ_MSG(test, got.decay_ts,
							    want.decay_ts,
							    "hz %lu gap %lu",
							    hz, d);
				}
			}
		}
	}
}

/* no mode ever grows the counter, moves ts backwards or past now */
static void decay_monotonic_test(struct kunit *test)
{
	static const unsigned long bases[] = { T_BASE, T_WRAP, 0 };
	unsigned int m, b;
	unsigned long d;

	for (m = 0; m < SW_DECAY_NR; m++) {
		for (b = 0; b < ARRAY_SIZE(bases); b++) {
			struct sw_flips s = { 0xdeadbeef, bases[b] };

			for (d = 0; d < 70 * T_HZ; d += 37) {
				unsigned long now = bases[b] + d;
				struct sw_flips r;

				r = sw_flips_decay(m, s, now, T_HZ);
				KUNIT_ASSERT_LE(test, r.flips, s.flips);
				KUNIT_ASSERT_TRUE(test,
						  time_after_eq(r.decay_ts,
								s.decay_ts));
				KUNIT_ASSERT_TRUE(test,
						  time_before_eq(r.decay_ts,
								 now) ||
						  r.decay_ts == s.decay_ts);
			}
		}
	}
}

static struct kunit_case sw_decay_test_cases[] = {
	KUNIT_CASE_PARAM(decay_step_test, decay_gen_params),
	KUNIT_CASE_PARAM(record_wakee_seq_test, seq_gen_params),
	KUNIT_CASE(exact_matches_loop_test),
	KUNIT_CASE(exact_seed_compare_test),
	KUNIT_CASE(decay_monotonic_test),
	{}
};

static struct kunit_suite sw_decay_test_suite = {
	.name = "smartwake_policy_decay",
	.test_cases = sw_decay_test_cases,
};

kunit_test_suites(&sw_decay_test_suite);
