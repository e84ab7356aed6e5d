// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: the ab command. Runs a command alternately under two or
 * more sides (sets of settings), takes one figure from each run's output
 * (lib/figure.c) and the module's counter deltas, and reports medians, ranges
 * and ratios. Every knob and feature touched is restored afterwards.
 *
 * This file: options, sides and the sequential runs; the run primitives
 * are in ab_run.c, --concurrent in ab_concurrent.c, the reports in
 * ab_report.c (ab.h).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ab.h"
#include "cmd.h"

static const char help[] =
	"usage: smartwake ab --a 'SETTINGS' --b 'SETTINGS' [options] -- COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND alternately under setting A and setting B (A B A B ...), parse\n"
	"one figure from each run's output, and print per side the median and the\n"
	"min..max of the figure, the ratio of the medians B/A, and each side's\n"
	"counter deltas (summed over its runs) for the counters that changed.\n"
	"With the knob latency at 1 (set it on both sides or beforehand), each side\n"
	"also gets the p50 and p99 wakeup latency of its runs (from latency_hist\n"
	"deltas, summed over the side's runs); with the knob locality at 1, the\n"
	"share of each side's answers on prev's CPU, an SMT sibling, prev's LLC,\n"
	"its node, another node (at 0: \"placement locality: off\").\n"
	"A side whose knobs make the module decide (enabled=1, policy=smartwake or\n"
	"shadow) but whose select hook reached under 90 % of 1000 or more fair\n"
	"wakeups (fair_wakeups_reached against fair_wakeups: the hook was bypassed,\n"
	"e.g. kernel.ftrace_enabled=0) is not reported: ab says so and exits 1.\n"
	"Every knob, feature and kernel tunable touched is restored to its value\n"
	"from before the comparison afterwards (also on error or Ctrl-C).\n"
	"\n"
	"The machine's state (smartwake status --machine: kernel, topology, scheduler\n"
	"features and tunables, sched sysctls, cpufreq, THP, the module's knobs) is\n"
	"recorded before the comparison and before and after every run. When it\n"
	"differs in anything but the settings under test (and counters such as\n"
	"steal), the sides did not run under the same state: ab names the keys and\n"
	"their values, reports nothing and exits 1, unless --allow-state-drift. Each\n"
	"side's steal time (/proc/stat, CPU-seconds during its runs) is reported.\n"
	"\n"
	"SETTINGS is a space-separated list of KNOB=VALUE, feature:[NO_]NAME and the\n"
	"kernel tunables sched:PATH=VALUE (/sys/kernel/debug/sched/PATH),\n"
	"sysctl:NAME=VALUE (/proc/sys), cpufreq:governor=G, cpufreq:epp=P and\n"
	"cpufreq:boost=0|1 (see 'smartwake help set'); it may be empty: ''. A\n"
	"setting made by one side only takes its original value on the other side;\n"
	"to pin a tunable for the whole comparison, give it to every side.\n"
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
	"  --allow-state-drift    report even when the machine's state differed\n"
	"                         between runs (the differences are listed)\n"
	"  --json FILE            write the results, the machine's state at the start\n"
	"                         and at the end, what differed, and each side's steal\n"
	"                         as one JSON object\n"
	"  --record FILE          write the same as text: \"key = value\" lines\n"
	"  --concurrent           run A and B at the same time, one instance of COMMAND\n"
	"                         each, in two new cgroups: the side that sets\n"
	"                         policy=smartwake or shadow runs under the module (knob\n"
	"                         scope selects its cgroup), the other (no settings, or\n"
	"                         policy=stock) under the kernel. Features, ttwu_queue\n"
	"                         kernel tunables and numa_retry are refused (they act\n"
	"                         on both sides).\n"
	"                         Latency columns: the module's side from\n"
	"                         latency_hist_scope, the other from the rest\n"
	"  --cgroup-root DIR      --concurrent: make the cgroups under DIR (default: the\n"
	"                         cgroup2 mount point)\n"
	"\n"
	"Examples:\n"
	"  smartwake ab --a 'wake_wide=mainline' --b 'wake_wide=off' --runs 3 \\\n"
	"      -- wakeload disp -w 6 -t 2\n"
	"  smartwake ab --a 'sysctl:kernel.numa_balancing=0 sched:llc_balancing/enabled=0' \\\n"
	"      --b 'sysctl:kernel.numa_balancing=0 sched:llc_balancing/enabled=0 policy=smartwake' \\\n"
	"      --runs 3 -- wakeload disp -w 6 -t 2\n"
	"  smartwake ab --concurrent --a '' --b 'policy=smartwake wake_wide=off' \\\n"
	"      --runs 3 -- wakeload disp -w 6 -t 2\n";

/* ---- ab ------------------------------------------------------------------ */

static int parse_side(struct side *s, char *why, size_t why_size)
{
	char copy[sizeof(s->text)], *tok, *save = NULL;
	int ret;

	snprintf(copy, sizeof(copy), "%s", s->text);
	s->nr_sets = 0;
	for (tok = strtok_r(copy, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (s->nr_sets == MAX_SETTINGS) {
			snprintf(why, why_size, "more than %d settings",
				 MAX_SETTINGS);
			return SET_SYNTAX;
		}
		ret = parse_setting(tok, &s->sets[s->nr_sets], why, why_size);
		if (ret != SET_OK)
			return ret;
		s->nr_sets++;
	}
	return SET_OK;
}

/* ---- ab: the comparison -------------------------------------------------- */

/* --a, --b (@c 'a', 'b') or --side (@c 's') with its argument @arg. */
static int ab_add_side(struct ab *ab, int c, const char *arg)
{
	const char *colon;
	struct side *s;

	/* A in slot 0, B in slot 1, the others after them */
	if (c == 's') {
		colon = strchr(arg, ':');
		if (!colon || colon == arg ||
		    (size_t)(colon - arg) >= NAME_LEN ||
		    !strncmp(arg, "feature:", 8))
			return bad_usage("ab",
					 "--side: expected NAME:SETTINGS, got '%s'",
					 arg);
		if (2 + ab->nr_extra == MAX_SIDES)
			return bad_usage("ab", "more than %d sides", MAX_SIDES);
		s = &ab->sides[2 + ab->nr_extra++];
		sw_copy_str(s->label, sizeof(s->label), arg, colon - arg);
		arg = colon + 1;
	} else {
		s = &ab->sides[c == 'a' ? 0 : 1];
		if (ab->used[s - ab->sides])
			return bad_usage("ab", "--%c given twice", c);
		snprintf(s->label, sizeof(s->label), "%c", toupper(c));
	}
	ab->used[s - ab->sides] = true;
	snprintf(s->text, sizeof(s->text), "%s", arg);
	return AB_GO;
}

static int ab_parse_opts(struct ab *ab, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "a", required_argument, NULL, 'a' },
		{ "b", required_argument, NULL, 'b' },
		{ "side", required_argument, NULL, 's' },
		{ "runs", required_argument, NULL, 'n' },
		{ "metric", required_argument, NULL, 'm' },
		{ "unit", required_argument, NULL, 'u' },
		{ "lower-is-better", no_argument, NULL, 'L' },
		{ "skip-missing", no_argument, NULL, 'S' },
		{ "csv", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "concurrent", no_argument, NULL, 'C' },
		{ "cgroup-root", required_argument, NULL, 'R' },
		{ "allow-state-drift", no_argument, NULL, 'D' },
		{ "json", required_argument, NULL, 'J' },
		{ "record", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int c, ret;
	char *end;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+a:b:s:n:m:u:c:t:vh", opts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
		case 'b':
		case 's':
			ret = ab_add_side(ab, c, optarg);
			if (ret != AB_GO)
				return ret;
			break;
		case 'n':
			errno = 0;
			ab->runs = strtol(optarg, &end, 10);
			if (errno || *end || ab->runs < 1 || ab->runs > MAX_RUNS)
				return bad_usage("ab",
						 "--runs: expected 1..%d, got '%s'",
						 MAX_RUNS, optarg);
			break;
		case 'm':
			ab->metric_text = optarg;
			break;
		case 'u':
			ab->unit_opt = optarg;
			break;
		case 'L':
			ab->lower = true;
			break;
		case 'S':
			ab->skip_missing = true;
			break;
		case 'c':
			ab->csv_path = optarg;
			break;
		case 't':
			errno = 0;
			ab->timeout = strtod(optarg, &end);
			if (errno || *end || !(ab->timeout > 0))
				return bad_usage("ab",
						 "--timeout: expected seconds > 0, got '%s'",
						 optarg);
			break;
		case 'v':
			ab->verbose = true;
			break;
		case 'C':
			ab->concurrent = true;
			break;
		case 'R':
			ab->cg_root = optarg;
			break;
		case 'D':
			ab->allow_drift = true;
			break;
		case 'J':
			ab->json_path = optarg;
			break;
		case 'r':
			ab->record_path = optarg;
			break;
		case 'h':
			fputs(help, stdout);
			return EXIT_OK;
		default:
			if (optopt && strchr("absnmuctRJr", optopt))
				return bad_usage("ab", "option '%s' needs a value",
						 argv[optind - 1]);
			return bad_usage("ab", "unknown option '%s'",
					 argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return bad_usage("ab", "no command given (... -- COMMAND [ARG...])");
	ab->cmd = argv + optind;
	return AB_GO;
}

/* Close the gaps left by a missing --a or --b; check names and --metric. */
static int ab_check_sides(struct ab *ab)
{
	char why[1024];
	int i, j;

	for (i = 0; i < 2 + ab->nr_extra; i++) {
		if (i >= 2 || ab->used[i]) {
			if (i != ab->nr_sides)
				ab->sides[ab->nr_sides] = ab->sides[i];
			ab->nr_sides++;
		}
	}
	if (ab->nr_sides < 2)
		return bad_usage("ab", "need two sides: --a SETTINGS --b SETTINGS");
	if (ab->concurrent && ab->nr_sides != 2)
		return bad_usage("ab", "--concurrent compares two sides: no --side");
	if (ab->cg_root && !ab->concurrent)
		return bad_usage("ab", "--cgroup-root is for --concurrent");
	for (i = 0; i < ab->nr_sides; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(ab->sides[i].label, ab->sides[j].label))
				return bad_usage("ab", "two sides named '%s'",
						 ab->sides[i].label);
	if (metric_init(&ab->metric, ab->metric_text, why, sizeof(why)))
		return bad_usage("ab", "--metric: bad regex '%s': %s",
				 ab->metric_text, why);
	return AB_GO;
}

/* Check every side's settings against the module and the features file. */
static int ab_prepare(struct ab *ab)
{
	char why[1024];
	int i, ret, live;

	/* The module is needed for knobs and counters; features alone work without. */
	ab->have_module = !check_module(false);
	if (ab->have_module && load_knobs())
		return EXIT_RUNTIME;
	for (i = 0; i < ab->nr_sides; i++) {
		struct side *s = &ab->sides[i];

		ret = parse_side(s, why, sizeof(why));
		if (ret == SET_OK)
			continue;
		if (ret == SET_MISSING && !ab->have_module && !ab->skip_missing) {
			check_module(true);
			sw_err("ab: side %s sets module knobs", s->label);
			return EXIT_RUNTIME;
		}
		if (ret == SET_MISSING && ab->skip_missing) {
			printf("side %s skipped: %s\n", s->label, why);
			s->skipped = true;
			continue;
		}
		sw_err("ab: side %s: %s", s->label, why);
		return setting_exit(ret);
	}
	if (ab->sides[0].skipped) {
		sw_err("ab: the reference side %s was skipped: nothing to compare with",
		       ab->sides[0].label);
		return EXIT_RUNTIME;
	}
	for (live = 0, i = 0; i < ab->nr_sides; i++)
		live += !ab->sides[i].skipped;
	if (live < 2) {
		sw_err("ab: fewer than two sides left to compare");
		return EXIT_RUNTIME;
	}
	if (ab->concurrent) {
		if (!ab->have_module) {
			check_module(true);
			return EXIT_RUNTIME;
		}
		ret = ab_concurrent_check(ab);
		if (ret != AB_GO)
			return ret;
	}
	if (ab->have_module) {
		ab->have_stats = !read_stats(&ab->first);
		/* a module without latency_hist (older) simply has no column */
		ab->have_hist = !read_hist(&ab->hbefore);
	}
	if (!ab->have_stats)
		printf("(no module counters: %s not usable)\n", dbg_dir);
	for (i = 0; i < ab->nr_sides; i++)
		ab->sides[i].delta = sw_xcalloc(MAX_STATS,
						sizeof(*ab->sides[i].delta));
	return AB_GO;
}

/* The --csv file and its header row. */
static int ab_open_csv(struct ab *ab)
{
	int i;

	if (!ab->csv_path)
		return AB_GO;
	ab->csv = fopen(ab->csv_path, "w");
	if (!ab->csv) {
		sw_err("ab: cannot write %s: %s", ab->csv_path, strerror(errno));
		return EXIT_RUNTIME;
	}
	fprintf(ab->csv, "side,run,figure,unit,secs");
	for (i = 0; ab->have_stats && i < ab->first.n; i++)
		if (ab->first.l[i].counter)
			fprintf(ab->csv, ",%s", ab->first.l[i].name);
	fprintf(ab->csv, "\n");
	return AB_GO;
}

static void ab_print_plan(const struct ab *ab)
{
	const struct side *s;
	char **a;

	printf("ab: %d run%s per side%s, command:", ab->runs,
	       ab->runs > 1 ? "s" : "",
	       ab->concurrent ? ", both sides at once (--concurrent)" : "");
	for (a = ab->cmd; *a; a++)
		printf(" %s", *a);
	printf("\n");
	for (s = ab->sides; s < ab->sides + ab->nr_sides; s++) {
		if (s->skipped)
			continue;
		if (ab->concurrent && s - ab->sides != ab->mod)
			printf("  side %-12s the kernel's placement (its cgroup is outside knob scope)\n",
			       s->label);
		else
			printf("  side %-12s %s%s\n", s->label,
			       *s->text ? s->text : "(no changes)",
			       ab->concurrent ? " (knob scope: its cgroup)" : "");
	}
	printf("figure: %s\n", !ab->metric_text ?
	       "first *_per_sec/*mbps key=number, else last number" :
	       ab->metric_text);
}

/* Run @r (0-based) of side @s; EXIT_OK or the exit status to stop with. */
static int ab_run_one(struct ab *ab, struct side *s, int r)
{
	char u[NAME_LEN] = "", buf[64];
	double v = 0;

	if (got_signal)
		return 128 + got_signal;
	if (apply_side(s))
		return EXIT_RUNTIME;
	ab_state(ab, s - ab->sides, r, false);
	if (ab->have_stats && read_stats(&ab->before))
		ab->have_stats = false;
	if (ab->have_hist && read_hist(&ab->hbefore))
		ab->have_hist = false;
	if (sw_run_command(ab->cmd, ab->timeout, ab->verbose, &got_signal,
			   &ab->out))
		return EXIT_RUNTIME;
	ab_state(ab, s - ab->sides, r, true);
	if (ab->have_stats && read_stats(&ab->after))
		ab->have_stats = false;
	if (ab->have_hist && read_hist(&ab->hafter))
		ab->have_hist = false;
	if (got_signal)
		return 128 + got_signal;
	if (!ab_run_ok(ab, s, r, &ab->out) || !ab_figure(ab, s, r, &ab->out, &v, u))
		return EXIT_RUNTIME;
	printf("run %d/%d %-12s %14s %s  (%.1f s)\n", r + 1, ab->runs,
	       s->label, fmt_num(v, buf, sizeof(buf)), u, ab->out.secs);
	if (ab->have_hist) {
		struct hist d;

		hist_delta(&ab->hbefore, &ab->hafter, &d);
		hist_add(&s->hist, &d);
	}
	ab_record(ab, s, r, v, u, &ab->out, true);
	fflush(stdout);
	return EXIT_OK;
}

/* A B A B ...: every run of every side that is not skipped. */
static int ab_run_all(struct ab *ab)
{
	int r, i, rc;

	if (ab->concurrent) {
		rc = ab_run_concurrent(ab);
		ab->complete = rc == EXIT_OK;
		return rc;
	}
	for (r = 0; r < ab->runs; r++) {
		for (i = 0; i < ab->nr_sides; i++) {
			if (ab->sides[i].skipped)
				continue;
			rc = ab_run_one(ab, &ab->sides[i], r);
			if (rc != EXIT_OK)
				return rc;
		}
	}
	ab->complete = true;
	return EXIT_OK;
}

/* Put everything back and close the CSV; the exit status after that. */
static int ab_finish(struct ab *ab, int rc)
{
	if (restore_targets(ab->verbose)) {
		sw_err("ab: could not restore every setting (see above)");
		if (rc == EXIT_OK)
			rc = EXIT_RUNTIME;
	}
	/* after scope is back: nothing selected is removed */
	if (ab_concurrent_cleanup(ab) != EXIT_OK && rc == EXIT_OK)
		rc = EXIT_RUNTIME;
	if (ab->csv && fclose(ab->csv)) {
		sw_err("ab: writing %s: %s", ab->csv_path, strerror(errno));
		rc = EXIT_RUNTIME;
	}
	ab->csv = NULL;
	if (rc > 128)
		sw_err("ab: interrupted; settings restored");
	return rc;
}

static void ab_free(struct ab *ab)
{
	int i;

	for (i = 0; i < ab->nr_sides; i++) {
		free(ab->sides[i].delta);
		ab->sides[i].delta = NULL;
	}
	free(ab->out.buf);
	ab->out.buf = NULL;
	for (i = 0; i < 2; i++) {
		free(ab->outs[i].buf);
		ab->outs[i].buf = NULL;
	}
	metric_free(&ab->metric);
	for (i = 0; i < ab->nr_drift; i++) {
		free(ab->drift[i].key);
		free(ab->drift[i].val);
	}
	free(ab->drift);
	ab->drift = NULL;
	machine_free(&ab->start);
	machine_free(&ab->snap);
	machine_free(&ab->end);
}

static int do_ab(int argc, char **argv)
{
	static struct ab ab = { .runs = 5 };
	int rc;

	rc = ab_parse_opts(&ab, argc, argv);
	if (rc == AB_GO)
		rc = ab_check_sides(&ab);
	if (rc == AB_GO)
		rc = ab_prepare(&ab);
	if (rc == AB_GO)
		rc = ab_open_csv(&ab);
	if (rc != AB_GO) {
		ab_free(&ab);
		return rc;
	}

	catch_signals();
	ab_print_plan(&ab);
	/* the machine as found, before any setting is applied */
	machine_read(&ab.start);
	ab.have_steal = machine_steal(&ab.start, &ab.steal0);
	rc = ab_finish(&ab, ab_run_all(&ab));
	if (ab.complete) {
		/* after ab: everything is back as it was */
		ab_state(&ab, -1, 0, true);
		machine_free(&ab.end);
		ab.end = ab.snap;
		memset(&ab.snap, 0, sizeof(ab.snap));
	}
	if (rc == EXIT_OK)
		rc = ab_check_state(&ab);
	if (rc == EXIT_OK)
		rc = ab_check_reached(&ab);
	if (rc == EXIT_OK) {
		ab_report(&ab);
		ab_report_locality(&ab);
		ab_report_deltas(&ab);
		ab_report_state(&ab);
	}
	rc = ab_write_outputs(&ab, rc);
	ab_free(&ab);
	return rc;
}

const struct cli_cmd cmd_ab = {
	.name = "ab",
	.args = "--a '...' --b '...' -- CMD",
	.summary = "A/B comparison of a command (--concurrent: at once)",
	.help = help,
	.run = do_ab,
};
