/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: the figure of a run's output (ab's --metric KEY
 * or REGEX, or the default), its unit, and the summary numbers.
 */
#ifndef SMARTWAKE_FIGURE_H
#define SMARTWAKE_FIGURE_H

#include <regex.h>

#include "cli.h"

struct metric {
	const char *text;	/* --metric, NULL: the default figure */
	bool key;		/* a KEY, else the regex @re */
	regex_t re;
};

int metric_init(struct metric *m, const char *text, char *why, size_t size);
void metric_free(struct metric *m);
bool figure_find(const struct metric *m, const char *out, double *v,
		 char *unit, size_t usize);
double median(const double *v, int n, double *lo, double *hi);
const char *fmt_num(double x, char *buf, size_t size);

#endif /* SMARTWAKE_FIGURE_H */
