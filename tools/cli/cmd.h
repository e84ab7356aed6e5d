/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI: the commands. Each file defines one command's descriptor
 * (its help and its entry point); main.c's table lists them in the order
 * of "smartwake --help", and scripts/gen-docs.sh reads the same table for
 * the command lists of Documentation/usage.md and smartwake.8: status.c,
 * set.c, stats.c, reset.c, latency.c, bpf.c (bpf.h: bpf_*.c), ab.c (ab.h:
 * ab_run.c, ab_concurrent.c, ab_report.c). What they share is the
 * library layer in lib/ (lib/cli.h).
 */
#ifndef SMARTWAKE_CMD_H
#define SMARTWAKE_CMD_H

#include "cli.h"

struct cli_cmd {
	const char *name;
	const char *args;	/* after the name in the command list */
	const char *summary;	/* one line for the command list */
	const char *help;	/* "smartwake help NAME"; NULL: the main help */
	int (*run)(int argc, char **argv);
};

extern const struct cli_cmd cmd_status;
extern const struct cli_cmd cmd_set;
extern const struct cli_cmd cmd_stats;
extern const struct cli_cmd cmd_reset;
extern const struct cli_cmd cmd_latency;
extern const struct cli_cmd cmd_bpf;
extern const struct cli_cmd cmd_ab;

#endif /* SMARTWAKE_CMD_H */
