// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: the stats model. The module's "stats" file as
 * "name value" lines: counters (unsigned integers: rates and deltas) and
 * gauges (derived lines: ratios, means, percentiles), and the summary
 * lines printed under them by stats, status and ab (shadow agreement,
 * the select hook's reach, latency percentiles, placement locality).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/*
 * A derived line (a ratio, a mean, a percentile) is a gauge: no rate, no
 * delta, no _total, even when its value is an integer.
 */
bool stat_gauge_name(const char *name)
{
	static const char * const suffix[] = {
		"_pct", "_per_call", "_ratio", "_ns_p50", "_ns_p99",
	};
	size_t n = strlen(name), i, l;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		l = strlen(suffix[i]);
		if (n > l && !strcmp(name + n - l, suffix[i]))
			return true;
	}
	return !strncmp(name, "latency_p", 9) && n > 3 &&
	       !strcmp(name + n - 3, "_ns");
}

/* Read the stats file; 0, or -errno. */
int read_stats(struct stats *st)
{
	char path[PATH_MAX], *buf, *line, *save = NULL;

	path_of(path, sizeof(path), "stats");
	buf = read_file(path);
	if (!buf)
		return -errno;
	st->n = 0;
	for (line = strtok_r(buf, "\n", &save); line && st->n < MAX_STATS;
	     line = strtok_r(NULL, "\n", &save)) {
		struct stat_line *s = &st->l[st->n];

		if (sscanf(line, "%63s %63s", s->name, s->value) != 2)
			continue;
		s->counter = all_digits(s->value) && !stat_gauge_name(s->name);
		s->v = s->counter ? strtoull(s->value, NULL, 10) : 0;
		st->n++;
	}
	free(buf);
	return 0;
}

const struct stat_line *find_stat(const struct stats *st, const char *name)
{
	int i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->l[i].name, name))
			return &st->l[i];
	return NULL;
}

/* Per-second rate of counter @c since @p, @dt ago (after a reset: since 0). */
double stat_rate(const struct stat_line *c, const struct stat_line *p,
		 double dt)
{
	return c->v >= p->v ? (c->v - p->v) / dt : c->v / dt;
}

/* A derived line (a ratio or a mean) is a gauge, an event count a counter. */
bool stat_is_gauge(const struct stat_line *l)
{
	return !l->counter || stat_gauge_name(l->name);
}

/* ---- summary lines ----------------------------------------------------------- */

/*
 * policy=shadow's agreement, one line, when the module printed
 * shadow_agree_pct (it does so only once a wakeup was compared).
 * Returns whether it printed.
 */
bool print_shadow(const struct stats *st, const char *label)
{
	static const char * const parts[] = {
		"shadow_compared", "shadow_agree", "shadow_disagree",
		"shadow_raced", "shadow_raced_aba",
	};
	const struct stat_line *pct = find_stat(st, "shadow_agree_pct");
	unsigned int i;

	if (!pct)
		return false;
	printf("%s%s%% agree (", label, pct->value);
	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		const struct stat_line *l = find_stat(st, parts[i]);

		if (l)
			printf("%s%s %s", i ? ", " : "", parts[i] + 7, l->value);
	}
	printf(")\n");
	return true;
}

/*
 * policy=shadow's cost figure, one line, when the module printed
 * module_kernel_ratio (once a sampled wakeup was timed both ways): the
 * module's evaluation and the kernel's select_task_rq_fair() per call,
 * their medians (module_ns_p50, kernel_ns_p50: a preempted sample does
 * not move them) and means, and the ratio the module took from the
 * medians. A module without the medians gives the means alone.
 * Returns whether it printed.
 */
bool print_cost(const struct stats *st, const char *label)
{
	const struct stat_line *r = find_stat(st, "module_kernel_ratio");
	const struct stat_line *m = find_stat(st, "module_ns_per_call");
	const struct stat_line *k = find_stat(st, "kernel_ns_per_call");
	const struct stat_line *m50 = find_stat(st, "module_ns_p50");
	const struct stat_line *k50 = find_stat(st, "kernel_ns_p50");

	if (!r || !m || !k)
		return false;
	if (m50 && k50)
		printf("%smodule %s ns per call (median; mean %s), kernel %s ns (mean %s): %s of the kernel's (medians; policy=shadow, 1 wakeup in 64 timed both ways)\n",
		       label, m50->value, m->value, k50->value, k->value,
		       r->value);
	else
		printf("%smodule %s ns per call, kernel %s ns: %s of the kernel's (policy=shadow, 1 wakeup in 64 timed both ways)\n",
		       label, m->value, k->value, r->value);
	return true;
}

/*
 * The select hook's reached share, one line, when the module printed
 * reached_pct (once its sched_waking probe counted a fair wakeup); a share
 * below REACH_MIN_PCT over REACH_MIN_WAKEUPS or more says the hook is
 * bypassed. Returns whether it printed.
 */
bool print_reached(const struct stats *st, const char *label)
{
	const struct stat_line *pct = find_stat(st, "reached_pct");
	const struct stat_line *all = find_stat(st, "fair_wakeups");
	const struct stat_line *seen = find_stat(st, "fair_wakeups_reached");

	if (!pct || !all || !seen)
		return false;
	printf("%s%s%% of fair wakeups reached the select hook (fair_wakeups %s, reached %s)",
	       label, pct->value, all->value, seen->value);
	if (all->v >= REACH_MIN_WAKEUPS && strtod(pct->value, NULL) < REACH_MIN_PCT)
		printf(": its hook is bypassed (kernel.ftrace_enabled=0?)");
	printf("\n");
	return true;
}

static const char * const loc_names[] = {
	"same_cpu", "smt", "llc", "node", "remote",
};

#define NR_LOC	ARRAY_SIZE(loc_names)

/*
 * One locality family, "PREFIX{same_cpu,...}", as percentages of its sum,
 * from @get (a counter's value or delta). Returns whether it printed.
 */
bool print_locality(const char *label, const char *prefix,
		    unsigned long long (*get)(const void *ctx, const char *name),
		    const void *ctx)
{
	unsigned long long v[NR_LOC], sum = 0;
	char name[NAME_LEN];
	unsigned int i;

	for (i = 0; i < NR_LOC; i++) {
		snprintf(name, sizeof(name), "%s%s", prefix, loc_names[i]);
		v[i] = get(ctx, name);
		sum += v[i];
	}
	if (!sum)
		return false;
	printf("%s", label);
	for (i = 0; i < NR_LOC; i++)
		printf("%s %s %.1f%%", i ? "," : "", loc_names[i],
		       100.0 * v[i] / sum);
	printf(" (%llu answers)\n", sum);
	return true;
}

static unsigned long long stat_get(const void *ctx, const char *name)
{
	const struct stat_line *l = find_stat(ctx, name);

	return l && l->counter ? l->v : 0;
}

/*
 * stats: the latency percentiles (when the module printed them) and the
 * locality of the module's answers and, under policy=shadow, the
 * kernel's. Returns whether it printed anything.
 */
bool print_latency_locality(const struct stats *st)
{
	const struct stat_line *p50 = find_stat(st, "latency_p50_ns");
	const struct stat_line *p90 = find_stat(st, "latency_p90_ns");
	const struct stat_line *p99 = find_stat(st, "latency_p99_ns");
	const struct stat_line *n = find_stat(st, "latency_samples");
	bool any = false;

	if (p50 && p90 && p99) {
		printf("latency: p50 %s  p90 %s  p99 %s ns (%s samples)\n",
		       p50->value, p90->value, p99->value, n ? n->value : "?");
		any = true;
	}
	any |= print_locality("locality vs prev  (module):", "loc_prev_",
			      stat_get, st);
	any |= print_locality("locality vs waker (module):", "loc_waker_",
			      stat_get, st);
	any |= print_locality("locality vs prev  (kernel):", "kernel_loc_prev_",
			      stat_get, st);
	any |= print_locality("locality vs waker (kernel):", "kernel_loc_waker_",
			      stat_get, st);
	return any;
}
