/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: the base of the layer under the commands. The
 * layer's files and what each knows (each header includes only headers
 * listed above it here; nothing in lib/ includes a command's header):
 *
 *   cli.h     this: names, exit codes, limits, usage errors, signals
 *   sysfs.h   the module's debugfs files, the control interface (debugfs,
 *             or the module parameters under lockdown)
 *   knobs.h   the knob list (the "knobs" file), scheduler features,
 *             settings and their undoing (kernel tunables too: sched:,
 *             sysctl:, cpufreq:)
 *   machine.h the machine-state record (kernel, topology, tunables,
 *             cpufreq, steal, the module's knobs)
 *   stats.h   the stats model: counters, gauges, rates, summary lines
 *   hist.h    the latency-histogram model: deltas, sums, percentiles
 *   watch.h   sampling a file every --watch seconds
 *   json.h    a JSON writer (strings, numbers); knows nothing of stats
 *   figure.h  the figure of a run's output (ab), medians, number format
 *   bpfutil.h bpf(2) errors and object ids through libbpf (bpf)
 *
 * The commands (../, one file each, cmd.h) use the layer; main.c
 * dispatches from the command table.
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
