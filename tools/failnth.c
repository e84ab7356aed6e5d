// SPDX-License-Identifier: GPL-2.0
/*
 * failnth - run a command with its Nth fault check failed (failslab,
 * fail_page_alloc), and say whether the command reached it.
 *
 * fail-nth is not inherited by children, a command cannot read its own
 * back after it ends, and a failed __GFP_NOWARN allocation logs nothing:
 * so the command runs in a child armed through /proc/PID/fail-nth before
 * its exec, and the value left is read after it exits, before it is
 * reaped (waitid WNOWAIT). Then, on standard error:
 *   failnth: fail-nth-left=L status=S   (L = 0: the Nth check failed)
 * Exit status: the command's (128 + signal if killed); 125 when this
 * program failed, 2 on a usage error.
 *
 * Usage: failnth N COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "swtool.h"

#define PROG		"failnth"

static void usage(FILE *f)
{
	fprintf(f, "usage: %s N COMMAND [ARG...]\n"
		"  fail the Nth fault check (failslab, fail_page_alloc) of COMMAND;\n"
		"  then print \"%s: fail-nth-left=L status=S\" on standard error\n"
		"  (L = 0: the Nth check was reached and failed)\n", PROG, PROG);
}

int main(int argc, char **argv)
{
	char path[64], buf[32];
	int go[2], fd, status;
	siginfo_t si;
	long nth;
	ssize_t r;
	pid_t pid;

	sw_prog = PROG;
	sw_usage = usage;
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 3)
		sw_bad_usage("need N and a command");
	nth = sw_parse_long("N", argv[1], 1, 1L << 30);
	if (pipe2(go, O_CLOEXEC))
		sw_die("pipe");
	pid = fork();
	if (pid < 0)
		sw_die("fork");
	if (!pid) {
		close(go[1]);
		/* armed by the parent while this waits: EOF is the go */
		while (read(go[0], buf, 1) < 0 && errno == EINTR)
			;
		execvp(argv[2], argv + 2);
		fprintf(stderr, "%s: %s: %s\n", PROG, argv[2], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	snprintf(path, sizeof(path), "/proc/%d/fail-nth", pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	snprintf(buf, sizeof(buf), "%ld", nth);
	if (write(fd, buf, strlen(buf)) < 0)
		goto fail;
	close(go[1]);
	while (waitid(P_PID, pid, &si, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			goto fail;
	r = pread(fd, buf, sizeof(buf) - 1, 0);
	if (r <= 0)
		goto fail;
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (waitpid(pid, &status, 0) < 0)
		goto fail;
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	fprintf(stderr, "%s: fail-nth-left=%s status=%d\n", PROG, buf, status);
	return status;
fail:
	fprintf(stderr, "%s: %s: %s\n", PROG, path, strerror(errno));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 125;
}
