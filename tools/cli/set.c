// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake set: knobs and scheduler features, all or nothing.
 */
#define _GNU_SOURCE
#include <string.h>

#include "cmd.h"
#include "knobs.h"

static const char help[] =
	"usage: smartwake set SETTING...\n"
	"\n"
	"SETTING is KNOB=VALUE (a knob of the loaded module, see 'smartwake status')\n"
	"or feature:NAME / feature:NO_NAME (a kernel scheduler feature, written to\n"
	"the sched features file).\n"
	"\n"
	"All or nothing: every setting is checked against the module's knob list and\n"
	"accepted values (and the features file) before anything is written; if the\n"
	"kernel still refuses a write, the settings already changed are restored.\n"
	"Settings are applied in the order given, through debugfs or, when debugfs is\n"
	"locked down, through /sys/module/smartwake/parameters (see 'status').\n"
	"\n"
	"Exit status: 0 all applied; 1 a write failed (everything restored);\n"
	"2 unknown knob or feature, value not accepted, bad syntax (nothing written).\n";

static int do_set(int argc, char **argv)
{
	static struct setting sets[MAX_SETTINGS];
	char why[1024], d[NAME_LEN + VALUE_LEN + 16];
	int i, n, ret, bad = 0, first_bad = SET_OK;

	if (argc > 1 && is_help_opt(argv[1])) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc < 2)
		return bad_usage("set", "no settings given (KNOB=VALUE ...)");
	n = argc - 1;
	if (n > MAX_SETTINGS)
		return bad_usage("set", "more than %d settings", MAX_SETTINGS);
	ret = open_module();
	if (ret)
		return ret;

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
		struct target *t = &targets[sets[i].target];

		if (!strcmp(t->cur, sets[i].value))
			continue;
		ret = target_write(t, sets[i].value);
		if (ret) {
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
	.summary = "change knobs (all or nothing)",
	.help = help,
	.run = do_set,
};
