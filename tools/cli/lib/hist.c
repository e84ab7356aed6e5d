// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: the latency-histogram model: the module's
 * histogram files (latency_hist, latency_hist_scope: log2 buckets in ns),
 * their differences and sums, and percentiles.
 *
 * Percentiles are computed as the module computes latency_p*_ns
 * (sw_lat_percentile() in module/policy.c): the rank is
 * ceil(total * pct / 100), interpolated linearly inside its log2 bucket
 * in 1/1024 steps, so the CLI's figure for a whole histogram is the
 * module's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

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
	h->sample = 1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* "# sample 1 in N" (knob latency_sample): not a bucket */
		if (line[0] == '#') {
			if (sscanf(line, "# sample 1 in %u", &h->sample) != 1 ||
			    !h->sample)
				h->sample = 1;
			continue;
		}
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
