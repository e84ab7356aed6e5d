// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake reset: zero the module's counters.
 */
#define _GNU_SOURCE
#include <string.h>

#include "cmd.h"
#include "sysfs.h"

static const char help[] =
	"usage: smartwake reset\n"
	"\n"
	"Zero the module's counters (and the wakeup-latency histogram).\n";

static int do_reset(int argc, char **argv)
{
	int ret;

	if (argc > 1 && is_help_opt(argv[1])) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		return bad_usage("reset", "unexpected argument '%s'", argv[1]);
	ret = check_module(true);
	if (ret)
		return ret;
	ret = ctl_write("reset", "1");
	if (ret) {
		sw_err("cannot reset the counters: %s", strerror(-ret));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

const struct cli_cmd cmd_reset = {
	.name = "reset",
	.args = "",
	.summary = "zero the counters",
	.help = help,
	.run = do_reset,
};
