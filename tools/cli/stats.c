// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake stats: the module's counters, once (text, --json,
 * --openmetrics) or every --watch seconds with per-second rates.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "json.h"
#include "stats.h"
#include "watch.h"

static const char help[] =
	"usage: smartwake stats [--json | --openmetrics] [--watch SECONDS [--count N]]\n"
	"\n"
	"Print the module's counters (\"name value\" lines; derived lines such as\n"
	"percentages are shown as the module prints them). When the module printed\n"
	"shadow_agree_pct (policy=shadow compared wakeups), a last line sums up the\n"
	"agreement: \"shadow: P% agree (compared N, agree N, disagree N, raced N,\n"
	"raced_aba N)\", and once a sampled wakeup was timed both ways \"cost: module\n"
	"X ns per call, kernel Y ns: R of the kernel's\". With reached_pct, a line \"reached: P% of fair wakeups\n"
	"reached the select hook (fair_wakeups N, reached N)\", ending in \": its hook\n"
	"is bypassed (kernel.ftrace_enabled=0?)\" below 90 % of 1000 or more.\n"
	"With latency percentiles (knob latency) a line \"latency:\n"
	"p50 X  p90 Y  p99 Z ns (N samples)\", and with locality counts one line per\n"
	"family: where the answers of the module (and, under policy=shadow, of the\n"
	"kernel) lie relative to the wakee's prev CPU and to the waking CPU, in %.\n"
	"Under policy=smartwake with the kernel's schedstats on (sysctl\n"
	"kernel.sched_schedstats=1), a line \"schedstats: ...\" says what they miss: the\n"
	"module decides those wakeups, so the kernel's wake_affine() schedstats\n"
	"(ttwu_move_affine in /proc/schedstat, nr_wakeups_affine* in /proc/PID/sched)\n"
	"do not count them; affine_pulls and affine_attempts do.\n"
	"  --json            one JSON object {\"name\": value, ...}\n"
	"  --openmetrics     the OpenMetrics text format (node-exporter's textfile\n"
	"                    collector): counters as smartwake_NAME_total, derived\n"
	"                    lines as gauges, then \"# EOF\"\n"
	"  --watch SECONDS   every SECONDS, print each value and, for raw counters\n"
	"                    (integers), the per-second rate over the interval;\n"
	"                    with --json one object per line:\n"
	"                    {\"time\":..,\"interval\":..,\"values\":{..},\"rates\":{..}}\n"
	"  --count N         with --watch: stop after N intervals (default: until\n"
	"                    interrupted)\n";

/* No latency sample, no locality answer: say which knob is off, if one is. */
static void print_nothing_yet(void)
{
	char *lat = ctl_read("latency"), *loc = ctl_read("locality");

	printf("latency: %s; locality: %s\n",
	       lat && atoi(lat) == 0 ? "off (knob latency=0)" : "no samples",
	       loc && atoi(loc) == 0 ? "off (knob locality=0)" : "no answers");
	free(lat);
	free(loc);
}

/*
 * The kernel's wakeup schedstats skip the wakeups the module decides
 * (design.md, difference 9): say so where a user compares them.
 */
static void print_schedstats_gap(const struct stats *st)
{
	const struct stat_line *w = find_stat(st, "wakeups");
	const struct stat_line *pl = find_stat(st, "affine_pulls");
	const struct stat_line *at = find_stat(st, "affine_attempts");
	char *on = read_file(schedstats_path), *pol;

	if (!on || atoi(on) != 1 || !w || !pl || !at) {
		free(on);
		return;
	}
	free(on);
	pol = ctl_read("policy");
	if (pol && !strncmp(pol, "smartwake", 9))
		printf("\nschedstats: on, but the kernel's wake_affine() schedstats (ttwu_move_affine in\n"
		       "/proc/schedstat, nr_wakeups_affine*) miss the %s wakeups the module decided;\n"
		       "affine_pulls (%s) and affine_attempts (%s) count them\n",
		       w->value, pl->value, at->value);
	free(pol);
}

/* The "name": value members of one stats snapshot, @sep between them. */
static void print_json_members(const struct stats *st, const char *sep)
{
	int i;

	for (i = 0; i < st->n; i++) {
		printf("%s", i ? sep : "");
		json_string(stdout, st->l[i].name);
		printf(": ");
		json_value(stdout, st->l[i].value);
	}
}

static void print_stats_json(const struct stats *st)
{
	printf("{\n  ");
	print_json_members(st, ",\n  ");
	printf("\n}\n");
}

/*
 * The stats in the OpenMetrics text format (Prometheus node-exporter's
 * textfile collector reads it): one family per line of the stats file,
 * counters as NAME_total, derived lines as gauges, then "# EOF".
 */
static void print_stats_openmetrics(const struct stats *st)
{
	int i;

	for (i = 0; i < st->n; i++) {
		const struct stat_line *l = &st->l[i];
		bool gauge = stat_is_gauge(l);

		printf("# TYPE smartwake_%s %s\n", l->name,
		       gauge ? "gauge" : "counter");
		printf("smartwake_%s%s %s\n", l->name, gauge ? "" : "_total",
		       l->value);
	}
	printf("# EOF\n");
}

/*
 * One --watch interval as one line:
 * {"time":..,"interval":..,"values":{..},"rates":{..}}
 */
static void print_watch_json(const struct stats *cur, const struct stats *prev,
			     double dt)
{
	struct timespec rt;
	bool first = true;
	int i;

	clock_gettime(CLOCK_REALTIME, &rt);
	printf("{\"time\": %.3f, \"interval\": %.3f, \"values\": {",
	       rt.tv_sec + rt.tv_nsec / 1e9, dt);
	print_json_members(cur, ", ");
	printf("}, \"rates\": {");
	for (i = 0; i < cur->n; i++) {
		const struct stat_line *p;
		const struct stat_line *c = &cur->l[i];

		p = find_stat(prev, c->name);
		if (!c->counter || !p || !p->counter)
			continue;
		printf("%s", first ? "" : ", ");
		first = false;
		json_string(stdout, c->name);
		printf(": %.2f", stat_rate(c, p, dt));
	}
	printf("}}\n");
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

static int do_stats(int argc, char **argv)
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
			fputs(help, stdout);
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
			print_cost(&st, "cost: ");
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
				print_nothing_yet();
		}
		print_schedstats_gap(&st);
	}
	return EXIT_OK;
}

const struct cli_cmd cmd_stats = {
	.name = "stats",
	.args = "[--json] [--watch SECS]",
	.summary = "counters, rates",
	.help = help,
	.run = do_stats,
};
