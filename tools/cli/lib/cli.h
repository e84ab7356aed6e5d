/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: the base of the layer under the commands: names,
 * exit codes, limits, usage errors, signals. Each header of lib/ includes
 * only headers below it in the layer (Documentation/design.md, "Source
 * files (tools/)", lists them); nothing in lib/ includes a command's
 * header. The commands (../, one file each, cmd.h) use the layer.
 */
#ifndef SMARTWAKE_CLI_H
#define SMARTWAKE_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "swtool.h"

#define PROG		"smartwake"
#define EXIT_OK		0
#define EXIT_RUNTIME	SW_EXIT_RUNTIME
#define EXIT_USAGE	SW_EXIT_USAGE

#define NAME_LEN	64
#define VALUE_LEN	256	/* knob scope holds a path */
#define MAX_KNOBS	128
#define MAX_TARGETS	256
#define MAX_SIDES	16
#define MAX_SETTINGS	64
#define MAX_STATS	256
#define MAX_RUNS	1000

int __printf(2, 3) bad_usage(const char *cmd, const char *fmt, ...);
bool is_help_opt(const char *arg);
bool all_digits(const char *s);

extern volatile sig_atomic_t got_signal;
void catch_signals(void);
bool nap(double secs);

#endif /* SMARTWAKE_CLI_H */
