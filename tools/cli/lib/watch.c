// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: --watch: sample a module file every SECONDS and
 * print each interval, until a count or a signal; and the parsing of
 * --watch and --count.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "watch.h"

/*
 * Sample @w every @every seconds, @count times (0: until a signal), into
 * the two buffers @a and @b in turn, printing each interval; @banner (if
 * not NULL) goes to stderr first. Returns the exit status: 128 + signal
 * when interrupted before @count intervals.
 */
int watch(const struct watch_src *w, void *a, void *b, double every,
	  long count, const char *banner)
{
	void *prev = a, *cur = b, *tmp;
	double t0, t1, dt;
	long done = 0;
	int ret;

	catch_signals();
	ret = w->read(prev);
	if (ret) {
		sw_err("cannot read %s/%s: %s", dbg_dir, w->file, strerror(-ret));
		return EXIT_RUNTIME;
	}
	t0 = sw_now();
	if (banner)
		fprintf(stderr, PROG ": every %g s%s; %s\n", every,
			count ? "" : " until interrupted", banner);
	while (!count || done < count) {
		if (!nap(every))
			break;
		ret = w->read(cur);
		if (ret) {
			sw_err("cannot read %s/%s: %s", dbg_dir, w->file,
			       strerror(-ret));
			return EXIT_RUNTIME;
		}
		t1 = sw_now();
		dt = t1 - t0 > 0 ? t1 - t0 : every;
		w->print(cur, prev, dt, w->ctx);
		fflush(stdout);
		tmp = prev;
		prev = cur;
		cur = tmp;
		t0 = t1;
		done++;
	}
	return got_signal && count && done < count ? 128 + got_signal : EXIT_OK;
}

/*
 * Option @c of @cmd with value @arg: 'w' (--watch SECS) or 'c' (--count N).
 * Returns 0, or the usage error's exit status after its message.
 */
int watch_opt(const char *cmd, int c, const char *arg, double *every, long *count)
{
	char *end;

	errno = 0;
	if (c == 'w') {
		*every = strtod(arg, &end);
		if (errno || *end || !(*every > 0) || *every > 86400)
			return bad_usage(cmd, "--watch: expected seconds > 0, got '%s'", arg);
		return 0;
	}
	*count = strtol(arg, &end, 10);
	if (errno || *end || *count < 1)
		return bad_usage(cmd, "--count: expected a positive integer, got '%s'", arg);
	return 0;
}

