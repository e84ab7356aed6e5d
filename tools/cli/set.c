// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake set: knobs, scheduler features and kernel tunables, all or
 * nothing.
 */
#define _GNU_SOURCE
#include <string.h>

#include "cmd.h"
#include "knobs.h"

static const char help[] =
	"usage: smartwake set SETTING...\n"
	"\n"
	"SETTING is one of:\n"
	"  KNOB=VALUE            a knob of the loaded module (see 'smartwake status')\n"
	"  feature:[NO_]NAME     a kernel scheduler feature (the sched features file)\n"
	"  sched:PATH=VALUE      a file under /sys/kernel/debug/sched/, e.g.\n"
	"                        sched:llc_balancing/enabled=0, sched:cgroup_mode=...\n"
	"  sysctl:NAME=VALUE     /proc/sys/NAME, e.g. sysctl:kernel.numa_balancing=0\n"
	"  cpufreq:governor=G    every cpufreq policy's scaling_governor (G one of\n"
	"                        its scaling_available_governors)\n"
	"  cpufreq:epp=P         every policy's energy_performance_preference\n"
	"  cpufreq:boost=0|1     /sys/devices/system/cpu/cpufreq/boost\n"
	"\n"
	"All or nothing: every setting is checked against the module's knob list and\n"
	"accepted values (features against the features file; a tunable's file must\n"
	"exist and be writable) before anything is written; if the kernel still\n"
	"refuses a write, the settings already changed are restored. Settings are\n"
	"applied in the order given; knobs through debugfs or, when debugfs is locked\n"
	"down, through /sys/module/smartwake/parameters (see 'status'). Under lockdown\n"
	"nothing under /sys/kernel/debug/sched/ (sched:, feature:) can be written:\n"
	"set says so and changes nothing.\n"
	"\n"
	"Exit status: 0 all applied; 1 a write failed (everything restored), or a\n"
	"file cannot be read or written (nothing written); 2 unknown knob, feature\n"
	"or tunable, value not accepted, bad syntax (nothing written).\n";

static int do_set(int argc, char **argv)
{
	static struct setting sets[MAX_SETTINGS];
	char why[1024], d[NAME_LEN + VALUE_LEN + 16];
	int i, j, n, ret, bad = 0, first_bad = SET_OK;

	if (argc > 1 && is_help_opt(argv[1])) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc < 2)
		return bad_usage("set", "no settings given (KNOB=VALUE ...)");
	n = argc - 1;
	if (n > MAX_SETTINGS)
		return bad_usage("set", "more than %d settings", MAX_SETTINGS);
	/* features and kernel tunables need no module, knobs do */
	if (check_module(false)) {
		for (i = 0; i < n; i++)
			if (!strchr(argv[i + 1], ':'))
				return check_module(true);
	} else {
		ret = load_knobs();
		if (ret)
			return ret;
	}

	/* Check everything before writing anything. */
	for (i = 0; i < n; i++) {
		ret = parse_setting(argv[i + 1], &sets[i], why, sizeof(why));
		if (ret != SET_OK) {
			sw_err("set: %s", why);
			if (!bad++)
				first_bad = ret;
		}
	}
	if (bad) {
		sw_err("set: nothing changed");
		return setting_exit(first_bad);
	}

	for (i = 0; i < n; i++) {
		for (j = sets[i].target; j < sets[i].target + sets[i].nr; j++) {
			struct target *t = &targets[j];

			if (!strcmp(t->cur, sets[i].value))
				continue;
			ret = target_write(t, sets[i].value);
			if (!ret)
				continue;
			sw_err("set: writing %s: %s",
			       target_desc(t, sets[i].value, d, sizeof(d)),
			       strerror(-ret));
			if (restore_targets(true))
				sw_err("set: could not restore everything (see above)");
			else
				sw_err("set: nothing changed (earlier settings restored)");
			return EXIT_RUNTIME;
		}
	}
	for (i = 0; i < nr_targets; i++) {
		struct target *t = &targets[i];

		if (strcmp(t->orig, t->cur))
			printf("%s (was %s)\n",
			       target_desc(t, t->cur, d, sizeof(d)), t->orig);
		else
			printf("%s (unchanged)\n",
			       target_desc(t, t->cur, d, sizeof(d)));
	}
	return EXIT_OK;
}

const struct cli_cmd cmd_set = {
	.name = "set",
	.args = "KNOB=VALUE ...",
	.summary = "change knobs, features, kernel tunables (all or nothing)",
	.help = help,
	.run = do_set,
};
