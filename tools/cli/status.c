// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake status: the kernel, the control interface, the policy, every
 * knob of the loaded module and the state of every hook.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cmd.h"
#include "knobs.h"
#include "machine.h"
#include "stats.h"

static const char help[] =
	"usage: smartwake status [--machine [--json]]\n"
	"\n"
	"Show the kernel release, the control interface knobs are written through\n"
	"(\"control\": debugfs, or /sys/module/smartwake/parameters when debugfs is\n"
	"locked down, e.g. lockdown=integrity under Secure Boot), the policy, every\n"
	"knob of the loaded module (value, accepted values, help, as listed by its\n"
	"\"knobs\" file) and the state of every ftrace hook (from \"hooks\"). Once\n"
	"policy=shadow has compared wakeups, a \"shadow\" line gives the agreement\n"
	"of the module's answers with the kernel's (shadow_agree_pct; compared,\n"
	"agree, disagree, raced counts), and a \"reached\" line the share of fair\n"
	"wakeups the select hook saw (reached_pct), saying when the hook is\n"
	"bypassed (kernel.ftrace_enabled=0?). It ends with a line on the machine\n"
	"(kernel, CPUs, SMT, LLCs, nodes, governor, numa_balancing, THP, VM) and\n"
	"the kernel's LLC balancing and cgroup mode tunables where they exist.\n"
	"\n"
	"  --machine   only the machine-state record, the module or not: kernel\n"
	"              release and flavour, command line (isolcpus, nohz_full,\n"
	"              mitigations, preempt), topology (CPUs, SMT, LLCs and their\n"
	"              sizes, nodes), scheduler features (feature.NAME), every\n"
	"              tunable under /sys/kernel/debug/sched/ (sched.PATH),\n"
	"              kernel.numa_balancing and kernel.sched_* (sysctl.NAME),\n"
	"              per cpufreq policy the governor, EPP, min and max frequency,\n"
	"              boost, THP, the hypervisor flag and steal ticks, the\n"
	"              module's knobs (module.NAME). One \"key = value\" line each; a\n"
	"              missing file is \"(absent)\", one that cannot be read (debugfs\n"
	"              under lockdown) \"(unreadable: ERROR)\"\n"
	"  --json      the record as one JSON object (absent: null)\n";

/* status --machine [--json]: the record alone */
static int status_machine(bool json)
{
	static struct machine m;

	machine_read(&m);
	if (json) {
		machine_json(&m, stdout, "");
		fputs("\n", stdout);
	} else {
		machine_print(&m, stdout);
	}
	machine_free(&m);
	return EXIT_OK;
}

/*
 * The end of status: the machine in one line, and the kernel tunables
 * that move wakeup placement most where this kernel has them (SCHED_CACHE's
 * LLC balancing, 7.3's cgroup runqueue mode).
 */
static void status_machine_short(void)
{
	static struct machine m;
	char buf[1024];
	int i;

	machine_read(&m);
	printf("\n");
	machine_summary(&m, stdout);
	for (i = 0; i < m.n; i++)
		if (!strncmp(m.e[i].key, "sched.llc_balancing/", 20) ||
		    !strcmp(m.e[i].key, "sched.cgroup_mode"))
			printf("  %s = %s\n", m.e[i].key,
			       mentry_text(&m.e[i], buf, sizeof(buf)));
	printf("(smartwake status --machine: the whole record)\n");
	machine_free(&m);
}

/* status: the shadow agreement and the reached share, if stats has them */
static void status_shadow(void)
{
	static struct stats st;

	if (!read_stats(&st)) {
		print_shadow(&st, "shadow   ");
		print_reached(&st, "reached  ");
	}
}

static int do_status(int argc, char **argv)
{
	char path[PATH_MAX], ctl[2 * PATH_MAX + 256], *hooks, *line, *save = NULL;
	const struct knob *pol;
	struct utsname u;
	int i, ret;

	bool mach = false, json = false;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--machine"))
			mach = true;
		else if (!strcmp(argv[i], "--json"))
			json = true;
		else
			return bad_usage("status", "unexpected argument '%s'", argv[i]);
	}
	if (json && !mach)
		return bad_usage("status", "--json is for --machine");
	if (mach)
		return status_machine(json);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	printf("kernel   %s\n", u.release);
	ret = open_module();
	if (ret)
		return ret;
	printf("debugfs  %s\n", dbg_dir);
	printf("control  %s\n", ctl_desc(ctl, sizeof(ctl)));
	pol = find_knob("policy");
	if (pol)
		printf("policy   %s\n", pol->value);
	else
		printf("policy   (this module build has no policy knob)\n");
	status_shadow();
	printf("\nknobs (%d):\n", knob_count());
	for (i = 0; i < knob_count(); i++) {
		const struct knob *k = knob_at(i);
		char acc[sizeof(k->accepted) + 2];

		snprintf(acc, sizeof(acc), "[%s]", k->accepted);
		printf("  %-16s %-10s %-26s %s\n", k->name,
		       k->value, acc, k->help);
	}
	path_of(path, sizeof(path), "hooks");
	hooks = read_file(path);
	printf("\nhooks:\n");
	if (!hooks) {
		printf("  (cannot read %s: %s)\n", path, strerror(errno));
		return EXIT_RUNTIME;
	}
	for (line = strtok_r(hooks, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char fn[128], kind[32], state[32];
		int rest = 0;

		if (sscanf(line, "%127s %31s %31s %n", fn, kind, state,
			   &rest) == 3 && line[rest])
			printf("  %-28s %-10s %-4s %s\n", fn, kind, state,
			       line + rest);
		else if (sscanf(line, "%127s %31s %31s", fn, kind, state) == 3)
			printf("  %-28s %-10s %s\n", fn, kind, state);
		else
			printf("  %s\n", line);
	}
	free(hooks);
	status_machine_short();
	return EXIT_OK;
}

const struct cli_cmd cmd_status = {
	.name = "status",
	.args = "[--machine [--json]]",
	.summary = "kernel, policy, knobs, hooks; the machine's state",
	.help = help,
	.run = do_status,
};
