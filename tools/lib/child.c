// SPDX-License-Identifier: GPL-2.0
/*
 * child - running a command and collecting its output (see child.h).
 */
#include "swtool.h"
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Fork @argv with stdout and stderr into a pipe, in its own process group
 * so a timeout or Ctrl-C can stop all of it. With @setup, the child first
 * calls it with @arg (a nonzero return: exit 126); with the pipe @go it
 * then waits until the parent closes the write end, so that several
 * children start together. Returns 0, or -1 if it could not be started.
 */
int sw_child_start(char **argv, sw_child_setup_fn setup, void *arg,
		   const int *go, struct sw_child *c)
{
	int pfd[2];
	char b;

	c->o->len = 0;
	c->o->timed_out = false;
	c->exited = false;
	if (!c->o->buf) {
		c->o->cap = 65536;
		c->o->buf = sw_xmalloc(c->o->cap);
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		sw_err("pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		sw_err("fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (!c->pid) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		if (setup && setup(arg))
			_exit(126);
		if (go) {
			close(go[1]);
			while (read(go[0], &b, 1) < 0 && errno == EINTR)
				;
		}
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", sw_prog, argv[0],
			strerror(errno));
		_exit(127);
	}
	setpgid(c->pid, c->pid);
	close(pfd[1]);
	c->fd = pfd[0];
	return 0;
}

/*
 * Collect the output of @n (at most SW_CHILD_MAX) children started at @t0
 * (echoed to our stdout with @echo) until every one has exited and closed
 * its output; after @timeout seconds (0: none) kill them all, and while
 * *@stop is set (a signal) ask them to stop.
 */
void sw_child_wait(struct sw_child *c, int n, double t0, double timeout,
		   bool echo, const volatile sig_atomic_t *stop)
{
	double deadline = timeout > 0 ? t0 + timeout : 0;
	bool timed_out = false;
	int i, left, status;

	for (;;) {
		struct pollfd p[SW_CHILD_MAX];
		int np = 0, ms = 100;

		for (left = 0, i = 0; i < n; i++) {
			left += c[i].fd >= 0 || !c[i].exited;
			if (c[i].fd >= 0) {
				p[np].fd = c[i].fd;
				p[np].revents = 0;
				p[np++].events = POLLIN;
				if (c[i].exited)
					ms = 0;	/* only what is there already */
			}
		}
		if (!left)
			break;
		if (np)
			poll(p, np, ms);
		else
			usleep(10000);
		for (i = 0; i < n; i++) {
			struct sw_run_out *o = c[i].o;
			ssize_t r;
			int j;

			for (j = 0; j < np && p[j].fd != c[i].fd; j++)
				;
			if (c[i].fd < 0 || j == np)
				continue;
			if (!p[j].revents) {
				if (c[i].exited) {
					/* gone, and nothing more to read */
					close(c[i].fd);
					c[i].fd = -1;
				}
				continue;
			}
			if (o->cap - o->len < 4096)
				o->buf = sw_xrealloc(o->buf, o->cap *= 2);
			r = read(c[i].fd, o->buf + o->len, o->cap - o->len - 1);
			if (r > 0) {
				if (echo)
					fwrite(o->buf + o->len, 1, r, stdout);
				o->len += r;
			} else if (r == 0 || errno != EINTR) {
				close(c[i].fd);	/* EOF: every writer is gone */
				c[i].fd = -1;
			}
		}
		if (deadline && sw_now() > deadline && !timed_out)
			timed_out = true;
		for (i = 0; i < n; i++) {
			if (c[i].exited)
				continue;
			if (*stop) {
				kill(-c[i].pid, SIGTERM);
				kill(c[i].pid, SIGTERM);
			}
			if (timed_out && !c[i].o->timed_out) {
				c[i].o->timed_out = true;
				kill(-c[i].pid, SIGKILL);
				kill(c[i].pid, SIGKILL);
			}
			if (waitpid(c[i].pid, &status, WNOHANG) == c[i].pid) {
				c[i].exited = true;
				c[i].o->status = status;
				c[i].o->secs = sw_now() - t0;
				/* sweep up helpers it left behind in its group */
				kill(-c[i].pid, SIGKILL);
			}
		}
	}
	for (i = 0; i < n; i++)
		c[i].o->buf[c[i].o->len] = '\0';
}

/* Run @argv (sw_child_start(), sw_child_wait()); 0, or -1 if not started. */
int sw_run_command(char **argv, double timeout, bool echo,
		   const volatile sig_atomic_t *stop, struct sw_run_out *o)
{
	struct sw_child c = { .o = o };
	double t0 = sw_now();

	if (sw_child_start(argv, NULL, NULL, NULL, &c))
		return -1;
	sw_child_wait(&c, 1, t0, timeout, echo, stop);
	return 0;
}
