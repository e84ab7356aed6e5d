/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: sampling a module file every --watch seconds.
 */
#ifndef SMARTWAKE_WATCH_H
#define SMARTWAKE_WATCH_H

#include "sysfs.h"

/*
 * What --watch samples: @read fills one sample (0 or -errno), @print
 * shows the interval from @prev to @cur of @dt seconds.
 */
struct watch_src {
	const char *file;	/* under dbg_dir, for the error message */
	int (*read)(void *sample);
	void (*print)(const void *cur, const void *prev, double dt, void *ctx);
	void *ctx;
};

int watch(const struct watch_src *w, void *a, void *b, double every,
	  long count, const char *banner);
int watch_opt(const char *cmd, int c, const char *arg, double *every, long *count);

#endif /* SMARTWAKE_WATCH_H */
