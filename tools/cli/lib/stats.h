/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: the stats model (the module's "stats" file) and
 * the summary lines derived from it.
 */
#ifndef SMARTWAKE_STATS_H
#define SMARTWAKE_STATS_H

#include "sysfs.h"

struct stat_line {
	char name[NAME_LEN];
	char value[VALUE_LEN];
	bool counter;		/* an unsigned integer, not a gauge: rates and deltas */
	unsigned long long v;
};

struct stats {
	struct stat_line l[MAX_STATS];
	int n;
};

bool stat_gauge_name(const char *name);
bool stat_is_gauge(const struct stat_line *l);
int read_stats(struct stats *st);
const struct stat_line *find_stat(const struct stats *st, const char *name);
double stat_rate(const struct stat_line *c, const struct stat_line *p,
		 double dt);

/* reached_pct below REACH_MIN_PCT over REACH_MIN_WAKEUPS or more: bypassed */
#define REACH_MIN_PCT		90
#define REACH_MIN_WAKEUPS	1000

bool print_shadow(const struct stats *st, const char *label);
bool print_cost(const struct stats *st, const char *label);
bool print_reached(const struct stats *st, const char *label);
bool print_locality(const char *label, const char *prefix,
		    unsigned long long (*get)(const void *ctx, const char *name),
		    const void *ctx);
bool print_latency_locality(const struct stats *st);

#endif /* SMARTWAKE_STATS_H */
