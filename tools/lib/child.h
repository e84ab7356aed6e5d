/* SPDX-License-Identifier: GPL-2.0 */
/*
 * child - running a command as a child process and collecting its output:
 * fork and exec with stdout and stderr into a pipe, in its own process
 * group; a start gate so that several children start together; waiting for
 * them with a timeout, stopping them on a signal (the smartwake CLI's ab).
 *
 * Messages are prefixed with sw_prog (swtool.h).
 */
#ifndef SW_CHILD_H
#define SW_CHILD_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SW_CHILD_MAX	16	/* children one sw_child_wait() watches */

/* What one run of a command left: its output and how it ended. */
struct sw_run_out {
	char *buf;		/* its stdout and stderr, NUL-terminated */
	size_t len, cap;
	int status;		/* wait status */
	bool timed_out;
	double secs;		/* from the start to its exit */
};

/* One running command. */
struct sw_child {
	pid_t pid;
	int fd;			/* read end of its output pipe, -1 at EOF */
	bool exited;
	struct sw_run_out *o;
};

/*
 * Run in the child before the start gate and exec, with stdout and stderr
 * already on the pipe; nonzero: the child exits with 126 instead.
 */
typedef int (*sw_child_setup_fn)(void *arg);

int sw_child_start(char **argv, sw_child_setup_fn setup, void *arg,
		   const int *go, struct sw_child *c);
void sw_child_wait(struct sw_child *c, int n, double t0, double timeout,
		   bool echo, const volatile sig_atomic_t *stop);
int sw_run_command(char **argv, double timeout, bool echo,
		   const volatile sig_atomic_t *stop, struct sw_run_out *o);

#endif /* SW_CHILD_H */
