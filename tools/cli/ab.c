// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: the ab command. Runs a command alternately under two or
 * more sides (sets of settings), takes one figure from each run's output
 * (figure.c) and the module's counter deltas, and reports medians, ranges
 * and ratios. Every knob and feature touched is restored afterwards.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/magic.h>

#include "smartwake.h"
#include "child.h"

/* ---- ab ------------------------------------------------------------------ */

struct side {
	char label[NAME_LEN];
	char text[1024];		/* the settings as given */
	struct setting sets[MAX_SETTINGS];
	int nr_sets;
	bool skipped;
	double fig[MAX_RUNS];
	int runs;
	unsigned long long *delta;	/* per counter, summed over runs */
	struct hist hist;		/* latency_hist deltas, summed over runs */
};

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

/* Bring every target to side @s's value (or its original); 0 or -errno. */
static int apply_side(const struct side *s)
{
	char d[NAME_LEN + VALUE_LEN + 16];
	int i, j, ret;

	for (i = 0; i < nr_targets; i++) {
		struct target *t = &targets[i];
		const char *want = t->orig;

		for (j = 0; j < s->nr_sets; j++)
			if (s->sets[j].target == i)
				want = s->sets[j].value;
		if (!strcmp(t->cur, want))
			continue;
		ret = target_write(t, want);
		if (ret) {
			sw_err("ab: side %s: writing %s: %s", s->label,
			       target_desc(t, want, d, sizeof(d)), strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static void show_tail(const struct sw_run_out *o)
{
	const char *p = o->buf + o->len;
	int lines = 0;

	while (p > o->buf && lines <= 10)
		if (*--p == '\n')
			lines++;
	fprintf(stderr, "---- last output ----\n%s%s----\n", p,
		o->len && o->buf[o->len - 1] != '\n' ? "\n" : "");
}

/* ---- ab: the comparison -------------------------------------------------- */

/* Everything one comparison works with. */
struct ab {
	struct side sides[MAX_SIDES];
	int nr_sides;
	bool used[MAX_SIDES];		/* while parsing: slot given */
	int nr_extra;			/* while parsing: --side count */
	int runs;
	double timeout;
	const char *metric_text, *unit_opt, *csv_path;
	bool lower, skip_missing, verbose;
	bool concurrent;		/* --concurrent: both sides at once */
	const char *cg_root;		/* --cgroup-root, else the cgroup2 mount */
	int mod;			/* concurrent: the module's side, 0 or 1 */
	char cg_base[VALUE_LEN + 32];	/* concurrent: the sides' cgroups */
	char cg[2][VALUE_LEN + 32 + NAME_LEN];
	bool cg_made[3];		/* cg[0], cg[1], cg_base created */
	bool cpu_ctl;			/* the cpu controller is on in them */
	bool have_shist;		/* latency_hist_scope readable */
	struct hist sbefore, safter;	/* its snapshots */
	double overlap;			/* worst shorter/longer run time */
	struct sw_run_out outs[2];
	struct metric metric;
	char **cmd;			/* COMMAND [ARG...] */
	bool have_module, have_stats, have_hist;
	struct stats before, after, first;
	struct hist hbefore, hafter;
	struct sw_run_out out;
	FILE *csv;
	char unit[NAME_LEN];		/* unit of the first figure */
};

#define AB_GO	(-1)	/* no exit status yet: go on */

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
		case 'h':
			usage_cmd("ab", stdout);
			return EXIT_OK;
		default:
			if (optopt && strchr("absnmuctR", optopt))
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

static int ab_concurrent_check(struct ab *ab);

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

/* Did run @r of side @s finish in time and with status 0? Else say why. */
static bool ab_run_ok(const struct ab *ab, const struct side *s, int r,
		      const struct sw_run_out *o)
{
	if (o->timed_out) {
		sw_err("ab: run %d of side %s: timed out after %g s",
		       r + 1, s->label, ab->timeout);
	} else if (!WIFEXITED(o->status) || WEXITSTATUS(o->status)) {
		if (WIFEXITED(o->status))
			sw_err("ab: run %d of side %s: command exited with status %d",
			       r + 1, s->label, WEXITSTATUS(o->status));
		else
			sw_err("ab: run %d of side %s: command killed by signal %d",
			       r + 1, s->label, WTERMSIG(o->status));
	} else {
		return true;
	}
	show_tail(o);
	return false;
}

/*
 * The CSV row of run @r (output @o) and the counter deltas it adds to
 * side @s (with @add; under --concurrent the counters are the machine's,
 * added to the module's side only).
 */
static void ab_record(struct ab *ab, struct side *s, int r, double v,
		      const char *u, const struct sw_run_out *o, bool add)
{
	int j;

	if (ab->csv)
		fprintf(ab->csv, "%s,%d,%.10g,%s,%.3f", s->label, r + 1, v, u,
			o->secs);
	for (j = 0; ab->have_stats && j < ab->first.n; j++) {
		const struct stat_line *x, *y;
		unsigned long long d = 0;

		if (!ab->first.l[j].counter)
			continue;
		x = find_stat(&ab->before, ab->first.l[j].name);
		y = find_stat(&ab->after, ab->first.l[j].name);
		if (x && y && x->counter && y->counter)
			d = y->v >= x->v ? y->v - x->v : y->v;
		if (add)
			s->delta[j] += d;
		if (ab->csv)
			fprintf(ab->csv, ",%llu", d);
	}
	if (ab->csv)
		fprintf(ab->csv, "\n");
}

/*
 * The figure of run @r of side @s (output @o) into @v and its unit into
 * @u (NAME_LEN bytes); false, said, if there is none.
 */
static bool ab_figure(struct ab *ab, struct side *s, int r,
		      const struct sw_run_out *o, double *v, char *u)
{
	int j;

	if (!figure_find(&ab->metric, o->buf, v, u, NAME_LEN)) {
		sw_err("ab: run %d of side %s: no figure (%s) in the output",
		       r + 1, s->label,
		       ab->metric_text ? ab->metric_text : "default");
		show_tail(o);
		return false;
	}
	if (ab->unit_opt)
		snprintf(u, NAME_LEN, "%s", ab->unit_opt);
	for (j = 0; u[j]; j++)	/* keep the CSV a CSV */
		if (u[j] == ',' || u[j] == '"')
			u[j] = ';';
	if (!*ab->unit)
		snprintf(ab->unit, sizeof(ab->unit), "%s", u);
	s->fig[s->runs++] = *v;
	return true;
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
	if (ab->have_stats && read_stats(&ab->before))
		ab->have_stats = false;
	if (ab->have_hist && read_hist(&ab->hbefore))
		ab->have_hist = false;
	if (sw_run_command(ab->cmd, ab->timeout, ab->verbose, &got_signal,
			   &ab->out))
		return EXIT_RUNTIME;
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

/* ---- ab --concurrent ---------------------------------------------------- */

/* Knobs that act on every task, not only on the scope's. */
static const char * const machine_wide[] = { "ttwu_queue", "numa_retry" };

/*
 * --concurrent: one side sets policy=smartwake or policy=shadow (it runs
 * under the module, in the cgroup knob scope selects), the other nothing
 * or policy=stock (it runs under the kernel: out of scope). Settings are
 * machine-wide, so only the module's side may have them, and none that
 * acts outside the scope (features, ttwu_queue, numa_retry).
 */
static int ab_concurrent_check(struct ab *ab)
{
	int i, j, mod = -1;
	size_t k;

	for (i = 0; i < 2; i++) {
		const struct side *s = &ab->sides[i];
		bool module = false, other = false;

		for (j = 0; j < s->nr_sets; j++) {
			const struct setting *x = &s->sets[j];
			const struct target *t = &targets[x->target];

			if (t->kind == T_FEATURE)
				return bad_usage("ab", "--concurrent: side %s: %s is machine-wide (both sides would run under it)",
						 s->label, x->text);
			if (!strcmp(t->name, "scope"))
				return bad_usage("ab", "--concurrent: side %s: %s: ab sets scope itself (to the module side's cgroup)",
						 s->label, x->text);
			for (k = 0; k < sizeof(machine_wide) / sizeof(machine_wide[0]); k++)
				if (!strcmp(t->name, machine_wide[k]))
					return bad_usage("ab", "--concurrent: side %s: %s acts on every task, not only its side's",
							 s->label, x->text);
			if (!strcmp(t->name, "policy") && strcmp(x->value, "stock"))
				module = true;
			else if (strcmp(t->name, "policy"))
				other = true;
		}
		if (module && mod >= 0)
			return bad_usage("ab", "--concurrent: both sides set the module's policy; one runs under the kernel (no settings, or policy=stock)");
		if (module)
			mod = i;
		else if (other)
			return bad_usage("ab", "--concurrent: side %s runs under the kernel (it sets no policy=smartwake|shadow) but has settings: knobs are machine-wide, put them on the module's side",
					 s->label);
	}
	if (mod < 0)
		return bad_usage("ab", "--concurrent: one side must set policy=smartwake or policy=shadow (the module's side)");
	ab->mod = mod;
	return AB_GO;
}

/* Is @dir on a cgroup2 file system? */
static bool is_cgroup2(const char *dir)
{
	struct statfs f;

	return !statfs(dir, &f) && f.f_type == CGROUP2_SUPER_MAGIC;
}

/* The first cgroup2 mount of /proc/self/mounts into @out; false if none. */
static bool cgroup2_mount(char *out, size_t size)
{
	char dev[256], mnt[PATH_MAX], type[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/mounts", "re");
	if (!f)
		return false;
	while (!found &&
	       fscanf(f, "%255s %4095s %63s%*[^\n]", dev, mnt, type) == 3)
		if (!strcmp(type, "cgroup2") && strlen(mnt) < size) {
			memcpy(out, mnt, strlen(mnt) + 1);
			found = true;
		}
	fclose(f);
	return found;
}

/*
 * Make ROOT/smartwake-ab.PID/LABEL for both sides, and add scope=<the
 * module side's cgroup> to its settings (restored afterwards like any
 * other). EXIT_OK or an exit status.
 */
static int ab_concurrent_setup(struct ab *ab)
{
	char root[VALUE_LEN], why[1024], text[sizeof(ab->cg[0]) + 32];
	struct side *m = &ab->sides[ab->mod];
	char *ctl;
	int i, ret;

	if (ab->cg_root) {
		if (strlen(ab->cg_root) >= sizeof(root) - 64) {
			sw_err("ab --concurrent: --cgroup-root is too long for knob scope");
			return EXIT_RUNTIME;
		}
		snprintf(root, sizeof(root), "%s", ab->cg_root);
	} else if (!cgroup2_mount(root, sizeof(root))) {
		sw_err("ab --concurrent: no cgroup2 file system mounted (mount -t cgroup2 none /sys/fs/cgroup)");
		return EXIT_RUNTIME;
	}
	if (strlen(root) >= sizeof(root) - 64 || !is_cgroup2(root)) {
		sw_err("ab --concurrent: %s is not a cgroup2 directory", root);
		return EXIT_RUNTIME;
	}
	snprintf(ab->cg_base, sizeof(ab->cg_base), "%s/smartwake-ab.%d", root,
		 (int)getpid());
	if (mkdir(ab->cg_base, 0755)) {
		sw_err("ab --concurrent: mkdir %s: %s", ab->cg_base, strerror(errno));
		return EXIT_RUNTIME;
	}
	ab->cg_made[2] = true;
	for (i = 0; i < 2; i++) {
		snprintf(ab->cg[i], sizeof(ab->cg[i]), "%s/%s", ab->cg_base,
			 ab->sides[i].label);
		if (mkdir(ab->cg[i], 0755)) {
			sw_err("ab --concurrent: mkdir %s: %s", ab->cg[i],
			       strerror(errno));
			return EXIT_RUNTIME;
		}
		ab->cg_made[i] = true;
	}
	/* the cpu controller makes each side one group entity */
	snprintf(text, sizeof(text), "%s/cgroup.controllers", ab->cg[0]);
	ctl = read_file(text);
	if (ctl) {
		char *tok, *save = NULL;

		for (tok = strtok_r(ctl, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save))
			if (!strcmp(tok, "cpu"))
				ab->cpu_ctl = true;
		free(ctl);
	}
	if (m->nr_sets == MAX_SETTINGS) {
		sw_err("ab: side %s: more than %d settings", m->label,
		       MAX_SETTINGS - 1);
		return EXIT_RUNTIME;
	}
	snprintf(text, sizeof(text), "scope=%s", ab->cg[ab->mod]);
	ret = parse_setting(text, &m->sets[m->nr_sets], why, sizeof(why));
	if (ret != SET_OK) {
		sw_err("ab --concurrent: %s (a module without knob scope?)", why);
		return EXIT_RUNTIME;
	}
	m->nr_sets++;
	ab->overlap = 1;
	ab->have_shist = ab->have_hist && !read_hist_file(&ab->sbefore,
							  "latency_hist_scope");
	return EXIT_OK;
}

/* Kill what is left in the sides' cgroups and remove them. */
static int ab_concurrent_cleanup(struct ab *ab)
{
	char path[PATH_MAX + 16];
	int i, tries, rc = EXIT_OK;

	for (i = 0; i < 2; i++) {
		if (!ab->cg_made[i])
			continue;
		snprintf(path, sizeof(path), "%s/cgroup.kill", ab->cg[i]);
		write_value(path, "1");
		/* busy until the killed tasks have exited */
		for (tries = 0; rmdir(ab->cg[i]) && errno == EBUSY && tries < 200; tries++)
			usleep(10000);
		if (access(ab->cg[i], F_OK) == 0) {
			sw_err("ab --concurrent: cannot remove %s: %s", ab->cg[i],
			       strerror(errno));
			rc = EXIT_RUNTIME;
		}
		ab->cg_made[i] = false;
	}
	if (ab->cg_made[2] && rmdir(ab->cg_base)) {
		sw_err("ab --concurrent: cannot remove %s: %s", ab->cg_base,
		       strerror(errno));
		rc = EXIT_RUNTIME;
	}
	ab->cg_made[2] = false;
	return rc;
}

static void ab_snap(struct ab *ab, struct stats *st, struct hist *sh,
		    struct hist *h)
{
	if (ab->have_stats && read_stats(st))
		ab->have_stats = false;
	/* the scope's part first: the total then holds at least it */
	if (ab->have_shist && read_hist_file(sh, "latency_hist_scope"))
		ab->have_shist = false;
	if (ab->have_hist && read_hist(h))
		ab->have_hist = false;
}

/* In the child (sw_child_start()'s setup): join cgroup @arg. */
static int join_cgroup(void *arg)
{
	const char *cg = arg;
	char path[PATH_MAX], pid[32];
	int ret;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ret = write_value(path, pid);
	if (ret)
		fprintf(stderr, PROG ": cannot join cgroup %s: %s\n",
			cg, strerror(-ret));
	return ret;
}

/*
 * Round @r of --concurrent: one instance of the command per side, each in
 * its cgroup, started together (the one forked first alternates).
 */
static int ab_run_pair(struct ab *ab, int r)
{
	struct sw_child c[2] = { { .o = &ab->outs[0] }, { .o = &ab->outs[1] } };
	char u[2][NAME_LEN] = { "", "" }, buf[64], path[PATH_MAX + 16];
	int go[2], i, k, kern = !ab->mod;
	double v[2] = { 0, 0 }, t0, lo, hi;

	if (got_signal)
		return 128 + got_signal;
	if (apply_side(&ab->sides[ab->mod]))
		return EXIT_RUNTIME;
	ab_snap(ab, &ab->before, &ab->sbefore, &ab->hbefore);
	if (pipe2(go, O_CLOEXEC)) {
		sw_err("pipe: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	for (k = 0; k < 2; k++) {
		i = (r + k) % 2;
		if (sw_child_start(ab->cmd, join_cgroup, ab->cg[i], go, &c[i])) {
			close(go[0]);
			close(go[1]);
			if (k) {
				kill(-c[!i].pid, SIGKILL);
				sw_child_wait(&c[!i], 1, sw_now(), 0, false,
					      &got_signal);
			}
			return EXIT_RUNTIME;
		}
	}
	close(go[0]);
	t0 = sw_now();
	close(go[1]);
	sw_child_wait(c, 2, t0, ab->timeout, ab->verbose, &got_signal);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/cgroup.kill", ab->cg[i]);
		write_value(path, "1");
	}
	ab_snap(ab, &ab->after, &ab->safter, &ab->hafter);
	if (got_signal)
		return 128 + got_signal;
	for (i = 0; i < 2; i++)
		if (!ab_run_ok(ab, &ab->sides[i], r, &ab->outs[i]) ||
		    !ab_figure(ab, &ab->sides[i], r, &ab->outs[i], &v[i], u[i]))
			return EXIT_RUNTIME;
	lo = ab->outs[0].secs < ab->outs[1].secs ? ab->outs[0].secs : ab->outs[1].secs;
	hi = ab->outs[0].secs + ab->outs[1].secs - lo;
	if (hi > 0 && lo / hi < ab->overlap)
		ab->overlap = lo / hi;
	for (i = 0; i < 2; i++) {
		printf("run %d/%d %-12s %14s %s  (%.1f s)\n", r + 1, ab->runs,
		       ab->sides[i].label, fmt_num(v[i], buf, sizeof(buf)), u[i],
		       ab->outs[i].secs);
		ab_record(ab, &ab->sides[i], r, v[i], u[i], &ab->outs[i],
			  i == ab->mod);
	}
	if (ab->have_shist && ab->have_hist) {
		struct hist sd, td, rest;

		/* the module's side: its cgroup's tasks; the other: the rest */
		hist_delta(&ab->sbefore, &ab->safter, &sd);
		hist_delta(&ab->hbefore, &ab->hafter, &td);
		hist_delta(&sd, &td, &rest);
		hist_add(&ab->sides[ab->mod].hist, &sd);
		hist_add(&ab->sides[kern].hist, &rest);
	}
	fflush(stdout);
	return EXIT_OK;
}

/* A B A B ...: every run of every side that is not skipped. */
static int ab_run_all(struct ab *ab)
{
	int r, i, rc;

	if (ab->concurrent) {
		rc = ab_concurrent_setup(ab);
		for (r = 0; rc == EXIT_OK && r < ab->runs; r++)
			rc = ab_run_pair(ab, r);
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

/* Does any side have wakeup-latency samples (knob latency=1)? */
static bool ab_have_latency(const struct ab *ab)
{
	int i;

	for (i = 0; ab->have_hist && i < ab->nr_sides; i++)
		if (!ab->sides[i].skipped && hist_total(&ab->sides[i].hist))
			return true;
	return false;
}

/* --concurrent: how the sides ran, and what their latency columns are. */
static void ab_report_concurrent(const struct ab *ab, bool lat)
{
	const char *m = ab->sides[ab->mod].label, *k = ab->sides[!ab->mod].label;

	printf("concurrent: each run started %s and %s together, one instance each, in\n"
	       "  %s and %s;\n", ab->sides[0].label, ab->sides[1].label,
	       ab->cg[0], ab->cg[1]);
	printf("  %s under the module (scope), %s under the kernel (out_of_scope)\n", m, k);
	printf("  the shorter run of a pair lasted %.1f %% of the longer one at worst\n",
	       100 * ab->overlap);
	printf("  %s\n", ab->cpu_ctl ?
	       "the cpu controller is on in both cgroups: CPU time is shared by group weight" :
	       "no cpu controller in the cgroups: CPU time is shared task by task");
	if (lat && ab->have_shist)
		printf("p50_ns, p99_ns: %s from latency_hist_scope (its cgroup's tasks), %s from the\n"
		       "  rest of latency_hist (its tasks and anything else that ran)\n", m, k);
	else if (lat)
		printf("p50_ns, p99_ns: latency_hist is the machine's: both sides' columns are the same\n");
}

/*
 * Median, range and ratio to the reference per side, and beside them the
 * side's p50 and p99 wakeup latency when there are samples; the ratio
 * lines.
 */
static void ab_report(const struct ab *ab)
{
	char buf[64], buf2[64], buf3[64];
	bool lat = ab_have_latency(ab);
	double ref_med = 0;
	int i;

	printf("\n%-12s %14s %27s %6s %9s", "side", "median",
	       "min..max", "runs", "ratio");
	if (lat)
		printf(" %12s %12s", "p50_ns", "p99_ns");
	printf("\n");
	for (i = 0; i < ab->nr_sides; i++) {
		const struct side *s = &ab->sides[i];
		double lo, hi, med;
		char range[64];

		if (s->skipped) {
			printf("%-12s %14s %27s %6s %9s\n", s->label, "skipped",
			       "", "", "");
			continue;
		}
		med = median(s->fig, s->runs, &lo, &hi);
		if (i == 0)
			ref_med = med;
		snprintf(range, sizeof(range), "%s..%s",
			 fmt_num(lo, buf2, sizeof(buf2)),
			 fmt_num(hi, buf3, sizeof(buf3)));
		if (ref_med != 0)
			snprintf(buf3, sizeof(buf3), "%.3f", med / ref_med);
		else
			snprintf(buf3, sizeof(buf3), "-");
		printf("%-12s %14s %27s %6d %9s", s->label,
		       fmt_num(med, buf, sizeof(buf)), range, s->runs, buf3);
		if (lat && hist_total(&s->hist))
			printf(" %12llu %12llu", hist_pct(&s->hist, 50),
			       hist_pct(&s->hist, 99));
		else if (lat)
			printf(" %12s %12s", "-", "-");
		printf("\n");
	}
	printf("unit: %s%s\n", ab->unit, ab->lower ? " (lower is better)" : "");
	if (lat && !ab->concurrent)
		printf("p50_ns, p99_ns: wakeup latency (latency_hist), all runs of the side\n");
	if (ab->concurrent)
		ab_report_concurrent(ab, lat);
	for (i = 1; i < ab->nr_sides; i++) {
		const struct side *s = &ab->sides[i];
		double lo, hi;

		if (s->skipped)
			continue;
		printf("ratio %s/%s (medians): ", s->label, ab->sides[0].label);
		if (ref_med != 0)
			printf("%.3f\n", median(s->fig, s->runs, &lo, &hi) /
			       ref_med);
		else
			printf("undefined (%s median is 0)\n",
			       ab->sides[0].label);
	}
}

struct side_ctx {
	const struct ab *ab;
	const struct side *s;
};

/* A counter's delta on one side (print_locality()'s getter) */
static unsigned long long side_delta(const void *ctx, const char *name)
{
	const struct side_ctx *c = ctx;
	int j;

	for (j = 0; j < c->ab->first.n; j++)
		if (!strcmp(c->ab->first.l[j].name, name))
			return c->s->delta[j];
	return 0;
}

/* The module's answers relative to prev, class by class */
static const char * const loc_fam_tail[] = {
	"loc_prev_same_cpu", "loc_prev_smt", "loc_prev_llc", "loc_prev_node",
	"loc_prev_remote", "kernel_loc_prev_same_cpu", "kernel_loc_prev_smt",
	"kernel_loc_prev_llc", "kernel_loc_prev_node", "kernel_loc_prev_remote",
};

/* Each side's placement locality, from its counter deltas. */
static void ab_report_locality(const struct ab *ab)
{
	static const struct {
		const char *prefix, *what;
	} fams[] = {
		{ "loc_prev_", "vs prev  (module)" },
		{ "loc_waker_", "vs waker (module)" },
		{ "kernel_loc_prev_", "vs prev  (kernel)" },
		{ "kernel_loc_waker_", "vs waker (kernel)" },
	};
	char label[NAME_LEN + 32];
	bool head = false;
	unsigned int f;
	int i;

	if (!ab->have_stats || !find_stat(&ab->first, "loc_prev_same_cpu"))
		return;
	/* the first family counts every answer: none on any side, no section */
	for (i = 0; i < ab->nr_sides && !head; i++) {
		struct side_ctx c = { ab, &ab->sides[i] };
		unsigned int k;

		for (k = 0; k < sizeof(loc_fam_tail) / sizeof(loc_fam_tail[0]); k++)
			if (!ab->sides[i].skipped && side_delta(&c, loc_fam_tail[k]))
				head = true;
	}
	if (!head)
		return;
	printf("\nplacement locality (share of each side's answers; a side without\n"
	       "answers, e.g. policy=stock, has no line):\n");
	for (f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		for (i = 0; i < ab->nr_sides; i++) {
			struct side_ctx c = { ab, &ab->sides[i] };

			if (ab->sides[i].skipped)
				continue;
			snprintf(label, sizeof(label), "  %-8s %s:",
				 ab->sides[i].label, fams[f].what);
			print_locality(label, fams[f].prefix, side_delta, &c);
		}
	}
}

/* The counters that changed on any side, summed over each side's runs. */
static void ab_report_deltas(const struct ab *ab)
{
	const struct side *s, *first = ab->sides, *end = ab->sides + ab->nr_sides;
	bool any = false;
	int j;

	if (!ab->have_stats)
		return;
	if (ab->concurrent) {
		/* the machine's counters: one column, kept on the module's side */
		first = &ab->sides[ab->mod];
		end = first + 1;
	}
	for (j = 0; j < ab->first.n; j++) {
		bool changed = false;

		for (s = first; s < end; s++)
			if (!s->skipped && s->delta[j])
				changed = true;
		if (!changed)
			continue;
		if (!any) {
			if (ab->concurrent)
				printf("\ncounter deltas, the machine's (summed over the runs; the module's\n"
				       "decisions are side %s's wakeups, out_of_scope side %s's and the rest's):\n",
				       first->label, ab->sides[!ab->mod].label);
			else
				printf("\ncounter deltas (summed over each side's runs):\n");
			printf("%-30s", "counter");
			for (s = first; s < end; s++)
				if (!s->skipped)
					printf(" %14s", ab->concurrent ? "A+B" : s->label);
			printf("\n");
			any = true;
		}
		printf("%-30s", ab->first.l[j].name);
		for (s = first; s < end; s++)
			if (!s->skipped)
				printf(" %14llu", s->delta[j]);
		printf("\n");
	}
	if (!any)
		printf("\ncounter deltas: no counter changed\n");
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
}

/* What side @s sets knob @name to, else its value before ab; NULL: no knob. */
static const char *side_knob(const struct side *s, const char *name)
{
	int j;

	for (j = 0; j < s->nr_sets; j++) {
		const struct target *t = &targets[s->sets[j].target];

		if (t->kind == T_KNOB && !strcmp(t->name, name))
			return s->sets[j].value;
	}
	return knob_value(name);
}

/*
 * A side whose knobs make the module decide (enabled=1, policy smartwake
 * or shadow) must have had its wakeups reach the select hook: the module
 * counts the fair wakeups that must reach it from a tracepoint, which
 * ftrace cannot turn off (fair_wakeups, fair_wakeups_reached). With
 * REACH_MIN_WAKEUPS or more of them and less than REACH_MIN_PCT reached,
 * the side ran (mostly) under the kernel and is not reported. Under
 * --concurrent the deltas are the machine's, on the module's side.
 * Returns EXIT_OK or EXIT_RUNTIME (said).
 */
static int ab_check_reached(const struct ab *ab)
{
	int i, rc = EXIT_OK;

	for (i = 0; ab->have_stats && i < ab->nr_sides; i++) {
		const struct side *s = &ab->sides[i];
		struct side_ctx c = { ab, s };
		const char *pol = side_knob(s, "policy");
		const char *en = side_knob(s, "enabled");
		unsigned long long all, seen;

		if (s->skipped || !pol || (strcmp(pol, "smartwake") &&
					   strcmp(pol, "shadow")) ||
		    (en && strcmp(en, "1")))
			continue;
		if (ab->concurrent && i != ab->mod)
			continue;
		all = side_delta(&c, "fair_wakeups");
		seen = side_delta(&c, "fair_wakeups_reached");
		if (all < REACH_MIN_WAKEUPS)
			continue;	/* too few to tell, or an older module */
		if (seen > all)
			seen = all;
		if (seen * 100 >= all * REACH_MIN_PCT)
			continue;
		sw_err("ab: side %s: the module reached %llu %% of fair wakeups (%llu of %llu) with policy=%s: its hook is bypassed (kernel.ftrace_enabled=0?); not reported",
		       s->label, seen * 100 / all, seen, all, pol);
		rc = EXIT_RUNTIME;
	}
	return rc;
}

int cmd_ab(int argc, char **argv)
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
	rc = ab_finish(&ab, ab_run_all(&ab));
	if (rc == EXIT_OK)
		rc = ab_check_reached(&ab);
	if (rc == EXIT_OK) {
		ab_report(&ab);
		ab_report_locality(&ab);
		ab_report_deltas(&ab);
	}
	ab_free(&ab);
	return rc;
}
