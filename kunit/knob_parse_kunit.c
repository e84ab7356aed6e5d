// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake_knob_parse: KUnit suite for the knobs' parser
 * (module/knob_parse.c) over the module's own knob table
 * (module/knob_table.h): which bytes each knob accepts, and that every
 * other write is -EINVAL with the value untouched. The guest scripts keep
 * only end-to-end rejections through debugfs and the module parameters.
 *
 * Two parameterised cases: a table of (knob, bytes, expected result), the
 * cases the guest scripts used to check one write at a time and the
 * parser's edges; and every row of the knob table, each accepted name and
 * bound with its near misses, so a new knob is covered when it is added.
 */
#include <kunit/test.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>

#include <smartwake/enums.h>
#include <smartwake/policy.h>
#include "../module/knob_parse.h"

/*
 * What the knob table refers to, which the parser never touches: its
 * variables, apply callbacks (NULL here) and the name tables of the files
 * not in this module (made from the same enums.h lists). A knob that adds
 * a new one adds it here, and its cases below.
 */
int sw_enabled, sw_policy, sw_decay, sw_wide_mode, sw_factor_src;
int sw_factor_fixed, sw_wa_idle, sw_wa_weight, sw_wa_bias, sw_sync;
int sw_sis_filter, sw_sis_sched_idle, sw_sis_mask_update;
static int sw_select_hook, sw_sib_count, sw_sib_pull, sw_ttwu_queue, sw_ttwu_count;
static int sw_revert_on, sw_numa_retry, sw_latency, sw_locality_knob;
static int sw_latency_sample, sw_trace_sample;

enum { SW_SELECT_HOOKS(SW_ENUM_ID, SW_ENUM_ID) SW_SELECT_HOOK_NR };
enum { SW_TTWU_MODES(SW_ENUM_ID, SW_ENUM_ID) SW_TTWU_NR };
enum { SW_REVERT_MODES(SW_ENUM_ID, SW_ENUM_ID) SW_REVERT_NR };

static const char * const sw_policy_names[SW_POLICY_NR] = {
	SW_POLICIES(SW_ENUM_NAME, SW_ENUM_NAME)
};

static const char * const sw_select_hook_names[SW_SELECT_HOOK_NR] = {
	SW_SELECT_HOOKS(SW_ENUM_NAME, SW_ENUM_NAME)
};

static const char * const sw_mask_update_names[SW_MASK_NR] = {
	SW_MASK_UPDATES(SW_ENUM_NAME, SW_ENUM_NAME)
};

static const char * const sw_ttwu_mode_names[SW_TTWU_NR] = {
	SW_TTWU_MODES(SW_ENUM_NAME, SW_ENUM_NAME)
};

static const char * const sw_revert_on_names[SW_REVERT_NR] = {
	SW_REVERT_MODES(SW_ENUM_NAME, SW_ENUM_NAME)
};

#define sw_select_apply		NULL
#define sw_select_hook_apply	NULL
#define sw_overload_apply	NULL
#define sw_mask_update_apply	NULL
#define sw_sib_apply		NULL
#define sw_pull_apply		NULL
#define sw_ttwu_apply		NULL
#define sw_ttwu_count_apply	NULL
#define sw_numa_apply		NULL
#define sw_latency_apply	NULL
#define sw_locality_apply	NULL

/* a string knob is told apart by its write_str */
static int sw_scope_write(const char *buf, size_t len)
{
	return 0;
}

static int sw_scope_show(char *buf, size_t size)
{
	return 0;
}

#define SW_KNOB(_name, _help, ...)	{ .name = _name, .help = _help, __VA_ARGS__ },
static const struct sw_knob sw_knobs[] = {
#include "../module/knob_table.h"
};

#undef SW_KNOB

/* what a refused write must leave in @val and @num */
#define UNTOUCHED	INT_MIN

static const struct sw_knob *find_knob(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(sw_knobs); i++)
		if (!strcmp(sw_knobs[i].name, name))
			return &sw_knobs[i];
	return NULL;
}

/* @len bytes of @in, printable: C escapes for the rest, '#' (KTAP) too */
static void escape(char *out, size_t size, const char *in, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 5 < size; i++) {
		unsigned char c = in[i];

		if (c == '\n')
			n += scnprintf(out + n, size - n, "\\n");
		else if (c == '\t')
			n += scnprintf(out + n, size - n, "\\t");
		else if (!c)
			n += scnprintf(out + n, size - n, "\\0");
		else if (c < ' ' || c > '~' || c == '#' || c == '\\' || c == '\'')
			n += scnprintf(out + n, size - n, "\\x%02x", c);
		else
			out[n++] = c;
	}
	out[n] = '\0';
}

/* 300 '1's: the overlong writes */
static const char ones[300] = { [0 ... 299] = '1' };

struct parse_case {
	const char *knob;
	const char *in;
	size_t len;
	int ret;
	int val;	/* a string knob: the length kept */
	int num;
};

/* (a string literal may hold NUL bytes: its length is its size - 1) */
#define BYTES(s)		.in = s, .len = sizeof(s) - 1
#define REJECT(k, s)		{ k, BYTES(s), -EINVAL, UNTOUCHED, UNTOUCHED }
#define ACCEPT(k, s, v)		{ k, BYTES(s), 0, v, UNTOUCHED }
#define ACCEPT_NUM(k, s, n)	{ k, BYTES(s), 0, SW_FACTOR_FIXED, n }
#define REJECT_ONES(k, n)	{ k, ones, n, -EINVAL, UNTOUCHED, UNTOUCHED }
#define ACCEPT_STR(s, n)	{ "scope", BYTES(s), 0, n, UNTOUCHED }

static const struct parse_case parse_cases[] = {
	/* empty, blanks, newlines */
	REJECT("enabled", ""),
	REJECT("enabled", "\n"),
	REJECT("enabled", "\n\n"),
	REJECT("enabled", " "),
	REJECT("enabled", "\t"),
	ACCEPT("enabled", "1", 1),
	ACCEPT("enabled", "0\n", 0),
	REJECT("enabled", "1\n\n"),
	REJECT("enabled", "01\n\n"),
	REJECT("enabled", "\n1"),
	REJECT("enabled", "1\r\n"),
	REJECT("enabled", "1\n "),
	REJECT("enabled", " 1"),
	REJECT("enabled", " 1\n"),
	REJECT("enabled", "1 "),
	REJECT("enabled", "1\t"),
	REJECT("enabled", "1\v"),
	REJECT("enabled", "0 1"),
	/* NUL and other bytes */
	REJECT("enabled", "\0"),
	REJECT("enabled", "1\0"),
	REJECT("enabled", "1\0\n"),
	REJECT("enabled", "\0001"),
	REJECT("enabled", "1\0000"),
	REJECT("enabled", "\001"),
	REJECT("enabled", "\377\376"),
	REJECT("enabled", "1\x80"),
	REJECT("enabled", "\033[0m"),
	/* trailing garbage */
	REJECT("enabled", "1x"),
	REJECT("enabled", "1x\n"),
	REJECT("enabled", "1,"),
	REJECT("policy", "smartwakex\n"),
	REJECT("policy", "smartwake,stock"),
	REJECT("policy", "stock\nsmartwake"),
	REJECT("decay", "halve halve"),
	/* signs, bases, leading zeros, other spellings of a number */
	REJECT("enabled", "+1"),
	REJECT("enabled", "+1\n"),
	REJECT("enabled", "-1"),
	REJECT("enabled", "-0"),
	REJECT("enabled", "+0"),
	REJECT("enabled", "01"),
	REJECT("enabled", "01\n"),
	REJECT("enabled", "00"),
	REJECT("enabled", "0x1"),
	REJECT("enabled", "0X1"),
	REJECT("enabled", "1e0"),
	REJECT("enabled", "1.0"),
	REJECT("enabled", "yes"),
	REJECT("enabled", "on"),
	REJECT("enabled", "true"),
	REJECT("enabled", "2"),
	REJECT("enabled", "2\n"),
	/* overflow: past int, past u32, past s64 */
	REJECT("factor", "2147483647"),
	REJECT("factor", "2147483648"),
	REJECT("factor", "4294967296"),
	REJECT("factor", "-2147483649"),
	REJECT("factor", "9223372036854775808"),
	REJECT("enabled", "99999999999999999999"),
	/* overlong: 31 bytes is the longest looked at, 32 never */
	REJECT_ONES("enabled", 31),
	REJECT_ONES("enabled", 32),
	REJECT_ONES("enabled", 33),
	REJECT_ONES("factor", 31),
	REJECT_ONES("factor", 300),
	REJECT("policy", "smartwakesmartwakesmartwakesmartwake"),
	/* factor: names, or a number 1..1024 (no spelling of its own) */
	ACCEPT("factor", "llc", SW_FACTOR_LLC),
	ACCEPT("factor", "node\n", SW_FACTOR_NODE),
	ACCEPT("factor", "online", SW_FACTOR_ONLINE),
	ACCEPT_NUM("factor", "1", 1),
	ACCEPT_NUM("factor", "7\n", 7),
	ACCEPT_NUM("factor", "12\n", 12),
	ACCEPT_NUM("factor", "1024", 1024),
	REJECT("factor", "0"),
	REJECT("factor", "0\n"),
	REJECT("factor", "1025\n"),
	REJECT("factor", "fixed"),
	REJECT("factor", "fixed\n"),
	REJECT("factor", "0x10\n"),
	REJECT("factor", "012\n"),
	REJECT("factor", "01"),
	REJECT("factor", "+12"),
	REJECT("factor", "-1"),
	REJECT("factor", "12 "),
	REJECT("factor", "LLC"),
	/* the sampling rates: a number 1..1000000, no name */
	ACCEPT("trace_sample", "1", 1),
	ACCEPT("trace_sample", "64\n", 64),
	ACCEPT("trace_sample", "1000000", 1000000),
	REJECT("trace_sample", "0"),
	REJECT("trace_sample", "1000001"),
	REJECT("trace_sample", "-64"),
	ACCEPT("latency_sample", "1\n", 1),
	ACCEPT("latency_sample", "64", 64),
	REJECT("latency_sample", "0\n"),
	REJECT("latency_sample", "all"),
	/* names: exact bytes only, and no number */
	ACCEPT("policy", "stock", SW_POLICY_STOCK),
	ACCEPT("policy", "smartwake\n", SW_POLICY_SMARTWAKE),
	ACCEPT("policy", "shadow", SW_POLICY_SHADOW),
	REJECT("policy", "1\n"),
	REJECT("policy", "0"),
	REJECT("policy", "bogus"),
	REJECT("policy", "Smartwake"),
	REJECT("policy", "smartwak"),
	REJECT("policy", "smart wake"),
	REJECT("decay", "2\n"),
	REJECT("decay", "halved"),
	REJECT("wake_wide", "2\n"),
	REJECT("wake_wide", "v2013 "),
	REJECT("select_hook", "both"),
	REJECT("select_hook", "Direct"),
	ACCEPT("select_hook", "direct", SW_SELECT_HOOK_DIRECT),
	ACCEPT("select_hook", "ftrace\n", SW_SELECT_HOOK_FTRACE),
	REJECT("numa_retry", "as_merged"),
	REJECT("numa_retry", "Off"),
	REJECT("numa_retry", "corrected "),
	REJECT("numa_retry", "1"),
	ACCEPT("numa_retry", "as-merged", SW_NUMA_AS_MERGED),
	REJECT("sis_mask_update", "ticks"),
	ACCEPT("sis_mask_update", "tick", SW_MASK_TICK),
	REJECT("revert_on", "violations"),
	ACCEPT("revert_on", "never\n", SW_REVERT_NEVER),
	REJECT("ttwu_queue", "locked"),
	ACCEPT("ttwu_queue", "lock", SW_TTWU_LOCK),
	REJECT("latency", "2"),
	REJECT("latency", "-1"),
	REJECT("latency", "on"),
	REJECT("latency", "01"),
	ACCEPT("locality", "1\n", 1),
	ACCEPT("locality", "0", 0),
	REJECT("locality", "2"),
	REJECT("locality", "on"),
	/* scope: printable non-blank bytes, fewer than SW_KNOB_STR_MAX */
	ACCEPT_STR("all", 3),
	ACCEPT_STR("/sys/fs/cgroup/test\n", 19),
	ACCEPT_STR("x\n", 1),
	{ "scope", ones, SW_KNOB_STR_MAX, -EINVAL, UNTOUCHED, UNTOUCHED },
	{ "scope", ones, SW_KNOB_STR_MAX - 1, 0, SW_KNOB_STR_MAX - 1, UNTOUCHED },
	REJECT("scope", ""),
	REJECT("scope", "\n"),
	REJECT("scope", " "),
	REJECT("scope", "/a b"),
	REJECT("scope", " /a"),
	REJECT("scope", "/a\n\n"),
	REJECT("scope", "/a\t"),
	REJECT("scope", "/a\0"),
	REJECT("scope", "/a\x80"),
	REJECT("scope", "/a\xa0"),
	/* the kernel's ctype is Latin-1: 0xa1..0xff are graphic; scope.c judges */
	ACCEPT_STR("/a\xff", 3),
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	char e[48];

	escape(e, sizeof(e), c->in, c->len);
	if (c->len > 32)
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s %zu bytes", c->knob,
			 c->ret ? "rejects" : "accepts", c->len);
	else
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s '%s'", c->knob,
			 c->ret ? "rejects" : "accepts", e);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

static void knob_parse_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	const struct sw_knob *k = find_knob(c->knob);
	int val = UNTOUCHED, num = UNTOUCHED, ret;
	size_t len = c->len;

	KUNIT_ASSERT_NOT_NULL_MSG(test, k, "no knob %s in knob_table.h", c->knob);
	if (k->write_str) {
		ret = sw_knob_check_str(c->in, &len);
		KUNIT_EXPECT_EQ(test, ret, c->ret);
		if (!ret)
			KUNIT_EXPECT_EQ(test, len, (size_t)c->val);
		return;
	}
	ret = sw_knob_parse(k, c->in, c->len, &val, &num);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_EQ(test, val, c->val);
	KUNIT_EXPECT_EQ(test, num, c->num);
}

/* ---- every row of the knob table ------------------------------------ */

/* (@prefix)@v(@suffix), or @v @rep times */
struct mutation {
	const char *prefix, *suffix;
	size_t plen, slen;
	int rep;
};

#define AROUND(p, s)	{ p, s, sizeof(p) - 1, sizeof(s) - 1, 1 }

static const struct mutation mutations[] = {
	AROUND(" ", ""), AROUND("", " "), AROUND("\t", ""), AROUND("", "\t"),
	AROUND("\n", ""), AROUND("", "\n\n"), AROUND("", "\r\n"),
	AROUND("", "\0"), AROUND("\0", ""), AROUND("", "\0\n"),
	AROUND("", ","), AROUND("", ";"), AROUND("", "#"), AROUND("", "x"),
	AROUND("x", ""), AROUND("-", ""), AROUND("+", ""), AROUND("0", ""),
	AROUND("", "\x80"), AROUND("\"", "\""),
	{ "", "", 0, 0, 32 },	/* @v repeated past the longest write */
};

/* the bytes every knob refuses, whatever its names and range */
static const char * const refused[] = {
	"", "\n", " ", "\t", "-1", "-0", "+0", "0x1", "0X1", "1e3", "1.0",
	"1.5", "99999999999", "4294967296", "-2147483649",
	"9223372036854775808", "\001", "\377\376", "none none",
	"stock\nsmartwake", "0 1", "on", "off?", "true", "NULL", "%s",
	"\033[0m", "ZZZ", "\\", "\"\"", "''", "bogus", "fixed",
};

/* @s is a name @k accepts (the test's own check, not the parser's) */
static bool is_name(const struct sw_knob *k, const char *s, size_t len)
{
	int i;

	for (i = 0; i < k->nr_names; i++)
		if (!(k->numeric && i == k->fixed_idx) &&
		    strlen(k->names[i]) == len && !memcmp(k->names[i], s, len))
			return true;
	return false;
}

/*
 * One write against its expected result. A broken parser gets many of a
 * row's writes wrong: the first few are reported, then only counted in
 * test->priv (the kernel log has to hold every suite's KTAP).
 */
#define ROW_REPORTS	3

static void expect_parse(struct kunit *test, const struct sw_knob *k,
			 const char *in, size_t len, int want_ret,
			 int want_val, int want_num)
{
	int val = UNTOUCHED, num = UNTOUCHED, ret, *wrong = test->priv;
	char e[96];

	ret = sw_knob_parse(k, in, len, &val, &num);
	if (ret == want_ret && val == want_val && num == want_num)
		return;
	if ((*wrong)++ >= ROW_REPORTS)
		return;
	escape(e, sizeof(e), in, len);
	KUNIT_FAIL(test, "%s '%s' (%zu bytes): %d, val %d, num %d; want %d, val %d, num %d",
		   k->name, e, len, ret, val, num, want_ret, want_val, want_num);
}

static void expect_refused(struct kunit *test, const struct sw_knob *k,
			   const char *in, size_t len)
{
	expect_parse(test, k, in, len, -EINVAL, UNTOUCHED, UNTOUCHED);
}

static void expect_accepted(struct kunit *test, const struct sw_knob *k,
			    const char *in, size_t len, int want_val,
			    int want_num)
{
	expect_parse(test, k, in, len, 0, want_val, want_num);
}

/*
 * @v (an accepted spelling) is accepted, with and without a newline, and
 * each mutation of it refused unless it is a name of @k itself.
 */
static void check_value(struct kunit *test, const struct sw_knob *k,
			const char *v, int want_val, int want_num, bool name)
{
	size_t vlen = strlen(v), len, i;
	char buf[SW_KNOB_MAX_LEN * 4];
	int r;

	expect_accepted(test, k, v, vlen, want_val, want_num);
	len = scnprintf(buf, sizeof(buf), "%s\n", v);
	expect_accepted(test, k, buf, len, want_val, want_num);

	for (i = 0; i < ARRAY_SIZE(mutations); i++) {
		const struct mutation *m = &mutations[i];

		len = 0;
		memcpy(buf, m->prefix, m->plen);
		len += m->plen;
		for (r = 0; r < m->rep && len + vlen + m->slen <= sizeof(buf); r++) {
			memcpy(buf + len, v, vlen);
			len += vlen;
		}
		memcpy(buf + len, m->suffix, m->slen);
		len += m->slen;
		if (!is_name(k, buf, len))
			expect_refused(test, k, buf, len);
	}
	if (!name)
		return;
	/* near misses of a name: another case, one byte short */
	memcpy(buf, v, vlen);
	buf[0] = toupper(buf[0]);
	if (!is_name(k, buf, vlen))
		expect_refused(test, k, buf, vlen);
	if (vlen > 1 && !is_name(k, v, vlen - 1))
		expect_refused(test, k, v, vlen - 1);
}

/* @n accepted: the value itself, or with names the fixed slot and @n */
static void check_number(struct kunit *test, const struct sw_knob *k, int n)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", n);
	if (k->nr_names)
		check_value(test, k, v, k->fixed_idx, n, false);
	else
		check_value(test, k, v, n, UNTOUCHED, false);
}

static void knob_desc(const struct sw_knob *k, char *desc)
{
	strscpy(desc, k->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(knob, sw_knobs, knob_desc);

static void check_row(struct kunit *test, const struct sw_knob *k)
{
	char v[16];
	int i;

	if (k->write_str) {
		size_t len = 3;

		KUNIT_EXPECT_EQ(test, sw_knob_check_str("all", &len), 0);
		return;	/* its bytes: scope's rows in parse_cases */
	}
	KUNIT_EXPECT_TRUE_MSG(test, k->nr_names || k->numeric,
			      "%s accepts nothing", k->name);
	for (i = 0; i < k->nr_names; i++)
		if (!(k->numeric && i == k->fixed_idx))
			check_value(test, k, k->names[i], i, UNTOUCHED, true);
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		if (!is_name(k, refused[i], strlen(refused[i])))
			expect_refused(test, k, refused[i], strlen(refused[i]));
	if (!k->numeric) {
		/* a number is never a name's index */
		for (i = 0; i <= k->nr_names; i++) {
			snprintf(v, sizeof(v), "%d", i);
			expect_refused(test, k, v, strlen(v));
		}
		return;
	}
	/* the bounds, in and out */
	check_number(test, k, k->min);
	check_number(test, k, k->max);
	snprintf(v, sizeof(v), "%d", k->min - 1);
	expect_refused(test, k, v, strlen(v));
	snprintf(v, sizeof(v), "%d", k->max + 1);
	expect_refused(test, k, v, strlen(v));
	/* the slot the number fills has no name of its own */
	if (k->nr_names)
		expect_refused(test, k, k->names[k->fixed_idx],
			       strlen(k->names[k->fixed_idx]));
}

static void knob_table_row_test(struct kunit *test)
{
	const struct sw_knob *k = test->param_value;
	int wrong = 0;

	test->priv = &wrong;
	check_row(test, k);
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0, "%s: %d writes parsed wrongly, the first %d shown",
			    k->name, wrong, ROW_REPORTS);
}

static struct kunit_case sw_knob_parse_test_cases[] = {
	KUNIT_CASE_PARAM(knob_parse_test, parse_gen_params),
	KUNIT_CASE_PARAM(knob_table_row_test, knob_gen_params),
	{}
};

static struct kunit_suite sw_knob_parse_test_suite = {
	.name = "smartwake_knob_parse",
	.test_cases = sw_knob_parse_test_cases,
};

kunit_test_suites(&sw_knob_parse_test_suite);
