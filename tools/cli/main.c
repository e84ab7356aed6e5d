// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake - command-line front end to the smartwake module's debugfs.
 *
 * This file: the global options (the environment, --help) and the
 * dispatch from the command table; each command is a file of its own
 * (cmd.h) owning its help, on the library layer in lib/. The commands,
 * the environment, lockdown and the exit status: smartwake --help and
 * Documentation/design.md, "Source files (tools/)".
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "machine.h"
#include "sysfs.h"

static int do_help(int argc, char **argv);

static const struct cli_cmd cmd_help = {
	.name = "help",
	.args = "[COMMAND]",
	.summary = "this text, or a command's",
	.help = NULL,
	.run = do_help,
};

/* The commands in the order of the help; scripts/gen-docs.sh reads it. */
static const struct cli_cmd *const cmds[] = {
	&cmd_status,
	&cmd_set,
	&cmd_stats,
	&cmd_reset,
	&cmd_latency,
	&cmd_bpf,
	&cmd_ab,
	&cmd_help,
};

static void usage_main(FILE *f)
{
	char head[64];
	size_t i;

	fprintf(f, "usage: smartwake COMMAND [ARGS]\n\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		snprintf(head, sizeof(head), "%s%s%s", cmds[i]->name,
			 *cmds[i]->args ? " " : "", cmds[i]->args);
		fprintf(f, "  %-30s %s\n", head, cmds[i]->summary);
	}
	fputs("\n"
"Settings: KNOB=VALUE (knobs of the loaded module) or feature:[NO_]NAME\n"
"(kernel scheduler features).\n"
"Environment: SMARTWAKE_DEBUGFS (default " DEF_DEBUGFS "),\n"
"SMARTWAKE_SCHED_FEATURES (default " DEF_FEATURES "),\n"
"SMARTWAKE_PARAMS (default " DEF_PARAMS ":\n"
"knobs are written there when debugfs is locked down),\n"
"SMARTWAKE_LOCKDOWN (default " DEF_LOCKDOWN "),\n"
"SMARTWAKE_SCHEDSTATS (default " DEF_SCHEDSTATS "); the machine-state\n"
"record's and the kernel tunables' files: ", f);
	fputs(machine_env_help(), f);
	fputs("Exit status: 0 ok, 1 run-time error, 2 usage error.\n", f);
}

static const struct cli_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

/* @c's help (the main help for "help" itself) on @f */
static void usage_cmd(const struct cli_cmd *c, FILE *f)
{
	if (c->help)
		fputs(c->help, f);
	else
		usage_main(f);
}

static int do_help(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc < 2) {
		usage_main(stdout);
		return EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		sw_err("no such command '%s'", argv[1]);
		usage_main(stderr);
		return EXIT_USAGE;
	}
	usage_cmd(c, stdout);
	return EXIT_OK;
}

/* The global options: the environment's paths. */
static void read_env(void)
{
	const char *env;

	env = getenv("SMARTWAKE_DEBUGFS");
	if (env && *env) {
		dbg_dir = env;
		dbg_dir_from_env = true;
	}
	env = getenv("SMARTWAKE_SCHED_FEATURES");
	if (env && *env)
		features_path = env;
	env = getenv("SMARTWAKE_PARAMS");
	if (env && *env)
		params_dir = env;
	env = getenv("SMARTWAKE_LOCKDOWN");
	if (env && *env)
		lockdown_path = env;
	env = getenv("SMARTWAKE_SCHEDSTATS");
	if (env && *env)
		schedstats_path = env;
	machine_env();
}

int main(int argc, char **argv)
{
	const struct cli_cmd *c;

	sw_prog = PROG;
	setvbuf(stdout, NULL, _IOLBF, 0);
	read_env();

	if (argc < 2) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	if (is_help_opt(argv[1])) {
		usage_main(stdout);
		return EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		sw_err("unknown command '%s'", argv[1]);
		usage_main(stderr);
		return EXIT_USAGE;
	}
	/* "CMD --help" for the commands without their own parser */
	if (argc > 2 && c != &cmd_help && is_help_opt(argv[2])) {
		usage_cmd(c, stdout);
		return EXIT_OK;
	}
	return c->run(argc - 1, argv + 1);
}
