// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: the wakeup-latency histogram (debugfs latency_hist, knob
 * latency) and the placement locality counters: the latency command
 * (once, or every --watch seconds over the interval's samples), and the
 * summary lines of stats and ab.
 *
 * Percentiles are computed as the module computes latency_p*_ns
 * (sw_lat_percentile() in module/policy.c): the rank is
 * ceil(total * pct / 100), interpolated linearly inside its log2 bucket
 * in 1/1024 steps, so the CLI's figure for a whole histogram is the
 * module's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smartwake.h"

/* Read latency_hist; 0, or -errno (-EINVAL for a malformed file). */
int read_hist(struct hist *h)
{
	return read_hist_file(h, "latency_hist");
}

/* A histogram file of the module (latency_hist, latency_hist_scope). */
int read_hist_file(struct hist *h, const char *file)
{
	char path[PATH_MAX], *buf, *line, *save = NULL;
	unsigned long long low, n;
	int ret = 0;

	path_of(path, sizeof(path), file);
	buf = read_file(path);
	if (!buf)
		return -errno;
	h->n = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (h->n == HIST_MAX || sscanf(line, "%llu %llu", &low, &n) != 2) {
			ret = -EINVAL;
			break;
		}
		h->low[h->n] = low;
		h->count[h->n++] = n;
	}
	free(buf);
	return ret;
}

/* @d = @b - @a bucket by bucket (a reset in between: @b's count) */
void hist_delta(const struct hist *a, const struct hist *b, struct hist *d)
{
	int i;

	*d = *b;
	for (i = 0; i < b->n && i < a->n; i++)
		d->count[i] = b->count[i] >= a->count[i] ?
			      b->count[i] - a->count[i] : b->count[i];
}

void hist_add(struct hist *sum, const struct hist *d)
{
	int i;

	if (!sum->n) {
		*sum = *d;
		return;
	}
	for (i = 0; i < d->n && i < sum->n; i++)
		sum->count[i] += d->count[i];
}

unsigned long long hist_total(const struct hist *h)
{
	unsigned long long t = 0;
	int i;

	for (i = 0; i < h->n; i++)
		t += h->count[i];
	return t;
}

/* Percentile @pct (1..100) in ns, as the module computes it; 0 if empty. */
unsigned long long hist_pct(const struct hist *h, unsigned int pct)
{
	unsigned long long total = hist_total(h), rank, before = 0, lo, hi, n, in;
	unsigned long long frac;
	int b;

	if (!total)
		return 0;
	if (pct < 1)
		pct = 1;
	if (pct > 100)
		pct = 100;
	rank = total / 100 * pct + (total % 100 * pct + 99) / 100;
	if (rank < 1)
		rank = 1;
	if (rank > total)
		rank = total;
	for (b = 0; b < h->n; b++) {
		n = h->count[b];
		if (n && n >= rank - before)
			break;
		before += n;
	}
	if (b == h->n)
		b = h->n - 1;
	lo = h->low[b];
	hi = b ? lo * 2 : 2;
	n = h->count[b] ? h->count[b] : 1;
	in = rank - before < n ? rank - before : n;
	frac = n <= ULLONG_MAX >> 10 ? (in << 10) / n : in / (n >> 10);
	if (frac > 1024)
		frac = 1024;
	return lo + (((hi - lo) * frac) >> 10);
}

/* "samples N  p50 X  p90 Y  p99 Z ns" of @h, or "no samples" */
void print_hist_pcts(const struct hist *h)
{
	unsigned long long t = hist_total(h);

	if (!t) {
		printf("no samples");
		return;
	}
	printf("samples %llu  p50 %llu  p90 %llu  p99 %llu ns", t,
	       hist_pct(h, 50), hist_pct(h, 90), hist_pct(h, 99));
}

/* ---- stats: summary lines ------------------------------------------------- */

static const char * const loc_names[] = {
	"same_cpu", "smt", "llc", "node", "remote",
};

#define NR_LOC	(sizeof(loc_names) / sizeof(loc_names[0]))

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

/* ---- latency command ------------------------------------------------------- */

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

int cmd_latency(int argc, char **argv)
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
			usage_cmd("latency", stdout);
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
	printf("\n");
	return EXIT_OK;
}
