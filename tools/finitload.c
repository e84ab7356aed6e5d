// SPDX-License-Identifier: GPL-2.0
/*
 * finitload - load a module with finit_module(2) once, and say how it went.
 *
 * busybox insmod retries a failed finit_module() with init_module(), so a
 * load failure forced by fault injection is hidden by the retry (which
 * the task's fail-nth no longer reaches). This loader makes one call and
 * reports its errno. With -n N it arms its own /proc/thread-self/fail-nth
 * just before the call (the open of the module and of fail-nth are not
 * counted) and reads back what is left: 0 when the Nth fault check of the
 * call failed, more when the call made fewer than N. Prints one line:
 *   finitload: loaded|errno=E NAME (message) [fail-nth-left=L]
 * Exit status: 0 loaded, 1 refused (or a setup error), 2 usage.
 *
 * Usage: finitload [-n N] MODULE.ko [PARAM=VALUE...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "swtool.h"

#define PROG		"finitload"
#define FAIL_NTH	"/proc/thread-self/fail-nth"

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [-n N] MODULE.ko [PARAM=VALUE...]\n"
		"  -n N  fail the Nth fault check of the finit_module() call\n"
		"        (failslab, fail_page_alloc: this task's fail-nth)\n", PROG);
}

int main(int argc, char **argv)
{
	char params[4096] = "", buf[32];
	long nth = 0;
	size_t len = 0;
	int c, fd, nfd = -1, ret, err;
	ssize_t r;

	sw_prog = PROG;
	sw_usage = usage;
	while ((c = getopt(argc, argv, "+n:h")) != -1) {
		switch (c) {
		case 'n':
			nth = sw_parse_long("-n", optarg, 1, 1L << 30);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			sw_bad_option(c, argv);
		}
	}
	if (optind >= argc)
		sw_bad_usage("no module given");
	for (int i = optind + 1; i < argc; i++) {
		int n = snprintf(params + len, sizeof(params) - len, "%s%s",
				 len ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= sizeof(params) - len)
			sw_bad_usage("parameters longer than %zu bytes", sizeof(params) - 1);
		len += n;
	}
	fd = open(argv[optind], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		sw_die(argv[optind]);
	if (nth) {
		/* opened before arming: only the load's own checks count */
		nfd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
		if (nfd < 0)
			sw_die(FAIL_NTH);
		snprintf(buf, sizeof(buf), "%ld", nth);
		if (write(nfd, buf, strlen(buf)) < 0)
			sw_die(FAIL_NTH);
	}
	ret = syscall(SYS_finit_module, fd, params, 0);
	err = errno;
	if (ret)
		printf("%s: errno=%d %s (%s)", PROG, err, strerrorname_np(err) ?: "?",
		       strerror(err));
	else
		printf("%s: loaded", PROG);
	if (nth) {
		r = pread(nfd, buf, sizeof(buf) - 1, 0);
		if (r <= 0)
			sw_die(FAIL_NTH);
		buf[r] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		printf(" fail-nth-left=%s", buf);
		/* disarmed: nothing after the call may fail */
		if (pwrite(nfd, "0", 1, 0) < 0)
			sw_die(FAIL_NTH);
	}
	printf("\n");
	return ret ? SW_EXIT_RUNTIME : 0;
}
