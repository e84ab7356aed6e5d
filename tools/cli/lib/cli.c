// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: usage errors, SIGINT/SIGTERM/SIGHUP and naps
 * they interrupt.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* Report a usage error for @cmd, point at its help, return EXIT_USAGE. */
int bad_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG " %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see '" PROG " help %s')\n", cmd);
	return EXIT_USAGE;
}

/* -h or --help */
bool is_help_opt(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* SIGINT/SIGTERM set got_signal and interrupt blocking calls. */
void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Sleep @secs unless a signal arrives; false if interrupted. */
bool nap(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts)) {
		if (errno != EINTR || got_signal)
			return false;
	}
	return !got_signal;
}
