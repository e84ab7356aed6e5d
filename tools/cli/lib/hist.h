/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: the wakeup-latency histogram model (debugfs
 * latency_hist and latency_hist_scope, knob latency).
 */
#ifndef SMARTWAKE_HIST_H
#define SMARTWAKE_HIST_H

#include "sysfs.h"

#define HIST_MAX	64	/* buckets read from latency_hist (the module has 40) */

struct hist {
	unsigned long long low[HIST_MAX];	/* bucket lower bound, ns */
	unsigned long long count[HIST_MAX];
	int n;
	unsigned int sample;	/* knob latency_sample: 1 wakeup in this many */
};

int read_hist(struct hist *h);
int read_hist_file(struct hist *h, const char *file);
void hist_delta(const struct hist *a, const struct hist *b, struct hist *d);
void hist_add(struct hist *sum, const struct hist *d);
unsigned long long hist_total(const struct hist *h);
unsigned long long hist_pct(const struct hist *h, unsigned int pct);
void print_hist_pcts(const struct hist *h);

#endif /* SMARTWAKE_HIST_H */
