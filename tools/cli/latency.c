// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake latency: the wakeup-latency histogram (debugfs latency_hist,
 * knob latency), once, or every --watch seconds over the interval's
 * samples.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "hist.h"
#include "watch.h"

static const char help[] =
	"usage: smartwake latency [--watch SECONDS [--count N]]\n"
	"\n"
	"The wakeup-latency histogram (debugfs latency_hist: the delay from a\n"
	"fair-class task's wakeup to its run, log2 buckets in ns), filled while the\n"
	"knob latency is 1 ('smartwake set latency=1'; a note on stderr says when it\n"
	"is 0). Without --watch: the non-empty buckets (lower bound, count), then\n"
	"\"samples N  p50 X  p90 Y  p99 Z ns\" over the whole histogram (the\n"
	"module's latency_p*_ns figures).\n"
	"  --watch SECONDS   every SECONDS, one line: time, interval, and the samples\n"
	"                    and percentiles of the wakeups of that interval alone\n"
	"                    (\"no samples\" if there were none)\n"
	"  --count N         with --watch: stop after N intervals (default: until\n"
	"                    interrupted)\n";

static void print_hist(const struct hist *h)
{
	int i;

	printf("%14s %14s\n", "from_ns", "count");
	for (i = 0; i < h->n; i++)
		if (h->count[i])
			printf("%14llu %14llu\n", h->low[i], h->count[i]);
}

/* Warn (stderr) when the knob is 0: the histogram cannot move. */
static void latency_knob_note(void)
{
	char *v;

	v = ctl_read("latency");
	if (v && v[0] == '0')
		fprintf(stderr, PROG ": latency is 0: no new samples (smartwake set latency=1)\n");
	free(v);
}

static int read_hist_v(void *h)
{
	return read_hist(h);
}

/* one interval: its time stamp, length and percentiles */
static void print_interval(const void *cur, const void *prev, double dt, void *ctx)
{
	static struct hist d;
	char stamp[32];
	time_t now;

	(void)ctx;
	hist_delta(prev, cur, &d);
	now = time(NULL);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", localtime(&now));
	printf("%s  %6.2f s  ", stamp, dt);
	print_hist_pcts(&d);
	printf("\n");
}

static int watch_latency(double every, long count)
{
	static struct hist a, b;
	const struct watch_src w = {
		.file = "latency_hist", .read = read_hist_v, .print = print_interval,
	};

	return watch(&w, &a, &b, every, count, "percentiles of each interval's wakeups");
}

static int do_latency(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "watch", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	static struct hist h;
	double every = 0;
	long count = 0;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+w:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
		case 'c':
			ret = watch_opt("latency", c, optarg, &every, &count);
			if (ret)
				return ret;
			break;
		case 'h':
			fputs(help, stdout);
			return EXIT_OK;
		default:
			if (optopt && strchr("wc", optopt))
				return bad_usage("latency", "option '%s' needs a value",
						 argv[optind - 1]);
			return bad_usage("latency", "unknown option '%s'",
					 argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("latency", "unexpected argument '%s'", argv[optind]);
	if (count && !every)
		return bad_usage("latency", "--count needs --watch");
	ret = check_module(true);
	if (ret)
		return ret;
	latency_knob_note();
	if (every)
		return watch_latency(every, count);
	ret = read_hist(&h);
	if (ret) {
		sw_err("cannot read %s/latency_hist: %s", dbg_dir, strerror(-ret));
		return EXIT_RUNTIME;
	}
	print_hist(&h);
	print_hist_pcts(&h);
	/* knob latency_sample=N: the counts are 1 wakeup in N */
	if (h.sample > 1)
		printf("  (1 wakeup in %u)", h.sample);
	printf("\n");
	return EXIT_OK;
}

const struct cli_cmd cmd_latency = {
	.name = "latency",
	.args = "[--watch SECS]",
	.summary = "wakeup-latency histogram, percentiles",
	.help = help,
	.run = do_latency,
};
