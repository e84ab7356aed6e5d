// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: the stats command (once, or every --watch seconds with
 * per-second rates) and reset.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smartwake.h"

/* ---- stats --------------------------------------------------------------- */


/*
 * A derived line (a ratio, a mean, a percentile) is a gauge: no rate, no
 * delta, no _total, even when its value is an integer.
 */
bool stat_gauge_name(const char *name)
{
	size_t n = strlen(name);

	return (n > 4 && !strcmp(name + n - 4, "_pct")) ||
	       (n > 9 && !strcmp(name + n - 9, "_per_call")) ||
	       (!strncmp(name, "latency_p", 9) && n > 3 &&
		!strcmp(name + n - 3, "_ns"));
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

/* One --watch interval as a table. */
static void print_watch_text(const struct stats *cur, const struct stats *prev,
			     double dt)
{
	char stamp[32];
	time_t now = time(NULL);
	int i;

	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S",
		 localtime(&now));
	printf("--- %s  interval %.2f s\n", stamp, dt);
	printf("%-34s %16s %14s\n", "name", "value", "per_sec");
	for (i = 0; i < cur->n; i++) {
		const struct stat_line *c = &cur->l[i];
		const struct stat_line *p = find_stat(prev, c->name);

		if (c->counter && p && p->counter)
			printf("%-34s %16s %14.1f\n", c->name,
			       c->value, stat_rate(c, p, dt));
		else
			printf("%-34s %16s %14s\n", c->name,
			       c->value, "");
	}
}

static int read_stats_v(void *st)
{
	return read_stats(st);
}

static void print_watch(const void *cur, const void *prev, double dt, void *json)
{
	if (*(bool *)json)
		print_watch_json(cur, prev, dt);
	else
		print_watch_text(cur, prev, dt);
}

static int watch_stats(double every, long count, bool json)
{
	static struct stats a, b;
	const struct watch_src w = {
		.file = "stats", .read = read_stats_v, .print = print_watch, .ctx = &json,
	};

	return watch(&w, &a, &b, every, count, json ? NULL : "rates are per second");
}

int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "openmetrics", no_argument, NULL, 'o' },
		{ "watch", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	static struct stats st;
	double every = 0;
	long count = 0;
	bool json = false, om = false;
	int c, ret, i;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+jw:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'o':
			om = true;
			break;
		case 'w':
		case 'c':
			ret = watch_opt("stats", c, optarg, &every, &count);
			if (ret)
				return ret;
			break;
		case 'h':
			usage_cmd("stats", stdout);
			return EXIT_OK;
		default:
			return bad_usage("stats", "unknown option '%s'",
					 argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("stats", "unexpected argument '%s'", argv[optind]);
	if (count && !every)
		return bad_usage("stats", "--count needs --watch");
	if (om && (json || every))
		return bad_usage("stats", "--openmetrics goes with neither --json nor --watch");
	ret = check_module(true);
	if (ret)
		return ret;
	if (every)
		return watch_stats(every, count, json);
	ret = read_stats(&st);
	if (ret) {
		sw_err("cannot read %s/stats: %s", dbg_dir, strerror(-ret));
		return EXIT_RUNTIME;
	}
	if (om) {
		print_stats_openmetrics(&st);
	} else if (json) {
		print_stats_json(&st);
	} else {
		for (i = 0; i < st.n; i++)
			printf("%-34s %s\n", st.l[i].name, st.l[i].value);
		if (find_stat(&st, "shadow_agree_pct")) {
			printf("\n");
			print_shadow(&st, "shadow: ");
		}
		if (find_stat(&st, "reached_pct")) {
			printf("\n");
			print_reached(&st, "reached: ");
		}
		if (find_stat(&st, "latency_p50_ns") ||
		    find_stat(&st, "loc_prev_same_cpu") ||
		    find_stat(&st, "kernel_loc_prev_same_cpu")) {
			printf("\n");
			if (!print_latency_locality(&st))
				printf("latency: no samples; locality: no answers\n");
		}
	}
	return EXIT_OK;
}

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
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const struct stat_line *l = find_stat(st, parts[i]);

		if (l)
			printf("%s%s %s", i ? ", " : "", parts[i] + 7, l->value);
	}
	printf(")\n");
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

/* status: the shadow agreement and the reached share, if stats has them */
void status_shadow(void)
{
	static struct stats st;

	if (!read_stats(&st)) {
		print_shadow(&st, "shadow   ");
		print_reached(&st, "reached  ");
	}
}

/* ---- reset --------------------------------------------------------------- */

int cmd_reset(int argc, char **argv)
{
	int ret;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage_cmd("reset", stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		return bad_usage("reset", "unexpected argument '%s'", argv[1]);
	ret = check_module(true);
	if (ret)
		return ret;
	ret = ctl_write("reset", "1");
	if (ret) {
		sw_err("cannot reset the counters: %s", strerror(-ret));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

