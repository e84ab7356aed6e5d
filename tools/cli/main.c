// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake - command-line front end to the smartwake module's debugfs.
 *
 *   smartwake status                     policy, knobs, hooks, kernel
 *   smartwake set KNOB=VALUE ...         all or nothing
 *   smartwake stats [--json] [--watch S] counters (and per-second rates)
 *   smartwake reset                      zero the counters
 *   smartwake latency [--watch S]        wakeup-latency histogram, percentiles
 *   smartwake ab --a '...' --b '...' -- COMMAND...
 *                                        alternate A/B runs of a command
 *
 * The knob list, values and accepted values come from the module's "knobs"
 * file; nothing here knows a knob by name. Settings may also name kernel
 * scheduler features ("feature:NO_TTWU_QUEUE"), written to
 * /sys/kernel/debug/sched/features and restored afterwards.
 *
 * Knobs are written through debugfs, or through the module's parameters
 * (/sys/module/smartwake/parameters/) when debugfs is locked down
 * (lockdown=integrity: securityfs says so, or debugfs refuses a knob file
 * with EPERM); everything read-only is read from debugfs either way.
 *
 * Environment: SMARTWAKE_DEBUGFS (module directory, default
 * /sys/kernel/debug/smartwake), SMARTWAKE_SCHED_FEATURES (features file,
 * default /sys/kernel/debug/sched/features), SMARTWAKE_PARAMS (parameters
 * directory, default /sys/module/smartwake/parameters), SMARTWAKE_LOCKDOWN
 * (default /sys/kernel/security/lockdown).
 *
 * Exit status: 0 ok, 1 run-time error, 2 usage error (bad options, unknown
 * knob or feature, value not accepted).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smartwake.h"

const char *dbg_dir = DEF_DEBUGFS;
bool dbg_dir_from_env;
const char *features_path = DEF_FEATURES;
const char *params_dir = DEF_PARAMS;
const char *lockdown_path = DEF_LOCKDOWN;

/* ---- help ---------------------------------------------------------------- */

struct cmd_help {
	const char *name;
	const char *text;
};

static const struct cmd_help helps[] = {
	{ "status",
"usage: smartwake status\n"
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
"bypassed (kernel.ftrace_enabled=0?).\n" },
	{ "set",
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
"2 unknown knob or feature, value not accepted, bad syntax (nothing written).\n" },
	{ "stats",
"usage: smartwake stats [--json | --openmetrics] [--watch SECONDS [--count N]]\n"
"\n"
"Print the module's counters (\"name value\" lines; derived lines such as\n"
"percentages are shown as the module prints them). When the module printed\n"
"shadow_agree_pct (policy=shadow compared wakeups), a last line sums up the\n"
"agreement: \"shadow: P% agree (compared N, agree N, disagree N, raced N,\n"
"raced_aba N)\". With reached_pct, a line \"reached: P% of fair wakeups\n"
"reached the select hook (fair_wakeups N, reached N)\", ending in \": its hook\n"
"is bypassed (kernel.ftrace_enabled=0?)\" below 90 % of 1000 or more.\n"
"With latency percentiles (knob latency) a line \"latency:\n"
"p50 X  p90 Y  p99 Z ns (N samples)\", and with locality counts one line per\n"
"family: where the answers of the module (and, under policy=shadow, of the\n"
"kernel) lie relative to the wakee's prev CPU and to the waking CPU, in %.\n"
"  --json            one JSON object {\"name\": value, ...}\n"
"  --openmetrics     the OpenMetrics text format (node-exporter's textfile\n"
"                    collector): counters as smartwake_NAME_total, derived\n"
"                    lines as gauges, then \"# EOF\"\n"
"  --watch SECONDS   every SECONDS, print each value and, for raw counters\n"
"                    (integers), the per-second rate over the interval;\n"
"                    with --json one object per line:\n"
"                    {\"time\":..,\"interval\":..,\"values\":{..},\"rates\":{..}}\n"
"  --count N         with --watch: stop after N intervals (default: until\n"
"                    interrupted)\n" },
	{ "reset",
"usage: smartwake reset\n"
"\n"
"Zero the module's counters (and the wakeup-latency histogram).\n" },
	{ "latency",
"usage: smartwake latency [--watch SECONDS [--count N]]\n"
"\n"
"The wakeup-latency histogram (debugfs latency_hist: the delay from a\n"
"fair-class task's wakeup to its run, log2 buckets in ns), filled while the\n"
"knob latency is 1 ('smartwake set latency=1'; a note on stderr says when it\n"
"is 0). Without --watch: the non-empty buckets (lower bound, count), then\n"
"\"samples N  p50 X  p90 Y  p99 Z ns\" over the whole histogram (the\n"
"module's latency_p*_ns figures).\n"
"  --watch SECONDS   every SECONDS, one line: time, interval, and the samples\n"
"                    and percentiles of the wakeups of that interval alone\n"
"                    (\"no samples\" if there were none)\n"
"  --count N         with --watch: stop after N intervals (default: until\n"
"                    interrupted)\n" },
	{ "ab",
"usage: smartwake ab --a 'SETTINGS' --b 'SETTINGS' [options] -- COMMAND [ARG...]\n"
"\n"
"Run COMMAND alternately under setting A and setting B (A B A B ...), parse\n"
"one figure from each run's output, and print per side the median and the\n"
"min..max of the figure, the ratio of the medians B/A, and each side's\n"
"counter deltas (summed over its runs) for the counters that changed.\n"
"With the knob latency at 1 (set it on both sides or beforehand), each side\n"
"also gets the p50 and p99 wakeup latency of its runs (from latency_hist\n"
"deltas, summed over the side's runs); with locality counts, the share of\n"
"each side's answers on prev's CPU, an SMT sibling, prev's LLC, its node,\n"
"another node.\n"
"A side whose knobs make the module decide (enabled=1, policy=smartwake or\n"
"shadow) but whose select hook reached under 90 % of 1000 or more fair\n"
"wakeups (fair_wakeups_reached against fair_wakeups: the hook was bypassed,\n"
"e.g. kernel.ftrace_enabled=0) is not reported: ab says so and exits 1.\n"
"Every knob and feature touched is restored to its value from before the\n"
"comparison afterwards (also on error or Ctrl-C).\n"
"\n"
"SETTINGS is a space-separated list of KNOB=VALUE and feature:[NO_]NAME\n"
"(may be empty: ''). A knob or feature set by one side only takes its\n"
"original value on the other side.\n"
"\n"
"Options:\n"
"  --a SETTINGS, --b SETTINGS   the two sides (A is the reference)\n"
"  --side NAME:SETTINGS   a further side, compared with the first (repeatable;\n"
"                         sides run in the order given, A and B first)\n"
"  --runs N               runs per side (default 5)\n"
"  --metric KEY|REGEX     the figure: KEY (letters, digits, _) takes the number\n"
"                         after 'KEY=', 'KEY:' or 'KEY '; anything else is an\n"
"                         extended regex, the figure is the number at its first\n"
"                         parenthesised group, else the first number from the\n"
"                         match on. Default: the first key=number whose key ends\n"
"                         in _per_sec or mbps, else the last number printed.\n"
"  --unit NAME            unit to print (default: the key, else the word after\n"
"                         the number)\n"
"  --lower-is-better      note that smaller figures are better (times)\n"
"  --skip-missing         skip a side naming a knob or feature this kernel or\n"
"                         module lacks (reported), instead of failing\n"
"  --csv FILE             write one row per run: side,run,figure,unit,secs and\n"
"                         every raw counter's delta\n"
"  --timeout SECS         kill a run (its process group) after SECS\n"
"  --verbose              show each run's output\n"
"  --concurrent           run A and B at the same time, one instance of COMMAND\n"
"                         each, in two new cgroups: the side that sets\n"
"                         policy=smartwake or shadow runs under the module (knob\n"
"                         scope selects its cgroup), the other (no settings, or\n"
"                         policy=stock) under the kernel. Features, ttwu_queue\n"
"                         and numa_retry are refused (they act on both sides).\n"
"                         Latency columns: the module's side from\n"
"                         latency_hist_scope, the other from the rest\n"
"  --cgroup-root DIR      --concurrent: make the cgroups under DIR (default: the\n"
"                         cgroup2 mount point)\n"
"\n"
"Examples:\n"
"  smartwake ab --a 'wake_wide=mainline' --b 'wake_wide=off' --runs 3 \\\n"
"      -- wakeload disp -w 6 -t 2\n"
"  smartwake ab --concurrent --a '' --b 'policy=smartwake wake_wide=off' \\\n"
"      --runs 3 -- wakeload disp -w 6 -t 2\n" },
};

static void usage_main(FILE *f)
{
	fprintf(f,
"usage: smartwake COMMAND [ARGS]\n"
"\n"
"Commands:\n"
"  status                         kernel, policy, knobs, hooks\n"
"  set KNOB=VALUE ...             change knobs (all or nothing)\n"
"  stats [--json] [--watch SECS]  counters, rates\n"
"  reset                          zero the counters\n"
"  latency [--watch SECS]         wakeup-latency histogram, percentiles\n"
"  ab --a '...' --b '...' -- CMD  A/B comparison of a command (--concurrent: at once)\n"
"  help [COMMAND]                 this text, or a command's\n"
"\n"
"Settings: KNOB=VALUE (knobs of the loaded module) or feature:[NO_]NAME\n"
"(kernel scheduler features).\n"
"Environment: SMARTWAKE_DEBUGFS (default " DEF_DEBUGFS "),\n"
"SMARTWAKE_SCHED_FEATURES (default " DEF_FEATURES "),\n"
"SMARTWAKE_PARAMS (default " DEF_PARAMS ":\n"
"knobs are written there when debugfs is locked down),\n"
"SMARTWAKE_LOCKDOWN (default " DEF_LOCKDOWN ").\n"
"Exit status: 0 ok, 1 run-time error, 2 usage error.\n");
}

static const struct cmd_help *find_help(const char *cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(helps); i++)
		if (!strcmp(helps[i].name, cmd))
			return &helps[i];
	return NULL;
}

void usage_cmd(const char *cmd, FILE *f)
{
	const struct cmd_help *h = find_help(cmd);

	if (h)
		fputs(h->text, f);
	else
		usage_main(f);
}

/* Report a usage error for @cmd, point at its help, return EXIT_USAGE. */
int bad_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG " %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see '" PROG " help %s')\n", cmd);
	return EXIT_USAGE;
}

/* ---- files --------------------------------------------------------------- */


/* ---- signals ------------------------------------------------------------- */

volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* SIGINT/SIGTERM set got_signal and interrupt blocking calls. */
void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Sleep @secs unless a signal arrives; false if interrupted. */
bool nap(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts)) {
		if (errno != EINTR || got_signal)
			return false;
	}
	return !got_signal;
}

/* ---- --watch --------------------------------------------------------------- */

/*
 * Sample @w every @every seconds, @count times (0: until a signal), into
 * the two buffers @a and @b in turn, printing each interval; @banner (if
 * not NULL) goes to stderr first. Returns the exit status: 128 + signal
 * when interrupted before @count intervals.
 */
int watch(const struct watch_src *w, void *a, void *b, double every,
	  long count, const char *banner)
{
	void *prev = a, *cur = b, *tmp;
	double t0, t1, dt;
	long done = 0;
	int ret;

	catch_signals();
	ret = w->read(prev);
	if (ret) {
		sw_err("cannot read %s/%s: %s", dbg_dir, w->file, strerror(-ret));
		return EXIT_RUNTIME;
	}
	t0 = sw_now();
	if (banner)
		fprintf(stderr, PROG ": every %g s%s; %s\n", every,
			count ? "" : " until interrupted", banner);
	while (!count || done < count) {
		if (!nap(every))
			break;
		ret = w->read(cur);
		if (ret) {
			sw_err("cannot read %s/%s: %s", dbg_dir, w->file,
			       strerror(-ret));
			return EXIT_RUNTIME;
		}
		t1 = sw_now();
		dt = t1 - t0 > 0 ? t1 - t0 : every;
		w->print(cur, prev, dt, w->ctx);
		fflush(stdout);
		tmp = prev;
		prev = cur;
		cur = tmp;
		t0 = t1;
		done++;
	}
	return got_signal && count && done < count ? 128 + got_signal : EXIT_OK;
}

/*
 * Option @c of @cmd with value @arg: 'w' (--watch SECS) or 'c' (--count N).
 * Returns 0, or the usage error's exit status after its message.
 */
int watch_opt(const char *cmd, int c, const char *arg, double *every, long *count)
{
	char *end;

	errno = 0;
	if (c == 'w') {
		*every = strtod(arg, &end);
		if (errno || *end || !(*every > 0) || *every > 86400)
			return bad_usage(cmd, "--watch: expected seconds > 0, got '%s'", arg);
		return 0;
	}
	*count = strtol(arg, &end, 10);
	if (errno || *end || *count < 1)
		return bad_usage(cmd, "--count: expected a positive integer, got '%s'", arg);
	return 0;
}

/* ---- main ---------------------------------------------------------------- */

static int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		usage_main(stdout);
		return EXIT_OK;
	}
	if (!find_help(argv[1]) && strcmp(argv[1], "help")) {
		sw_err("no such command '%s'", argv[1]);
		usage_main(stderr);
		return EXIT_USAGE;
	}
	usage_cmd(argv[1], stdout);
	return EXIT_OK;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "status", cmd_status },
	{ "set", cmd_set },
	{ "stats", cmd_stats },
	{ "reset", cmd_reset },
	{ "ab", cmd_ab },
	{ "latency", cmd_latency },
	{ "help", cmd_help },
};

int main(int argc, char **argv)
{
	const char *env;
	size_t i;

	sw_prog = PROG;
	setvbuf(stdout, NULL, _IOLBF, 0);
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

	if (argc < 2) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_main(stdout);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		/* "CMD --help" for the commands without their own parser */
		if (argc > 2 && cmds[i].fn != cmd_help &&
		    (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
			usage_cmd(argv[1], stdout);
			return EXIT_OK;
		}
		return cmds[i].fn(argc - 1, argv + 1);
	}
	sw_err("unknown command '%s'", argv[1]);
	usage_main(stderr);
	return EXIT_USAGE;
}
