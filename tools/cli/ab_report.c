// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: the ab command's reports. Per side the median, range and
 * ratio of the figure, the wakeup latency, the placement locality and the
 * counter deltas; the check that a side's wakeups reached the module; the
 * machine's state (its drift between runs, steal), --json and --record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ab.h"
#include "json.h"

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
void ab_report(const struct ab *ab)
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

/* Has this side counted locality (any loc_prev_ or kernel_loc_prev_ delta)? */
static bool side_has_loc(const struct side_ctx *c)
{
	unsigned int k;

	for (k = 0; k < sizeof(loc_fam_tail) / sizeof(loc_fam_tail[0]); k++)
		if (side_delta(c, loc_fam_tail[k]))
			return true;
	return false;
}

/*
 * Each side's placement locality, from its counter deltas. The counters
 * move only while the knob locality is 1: a side whose module answered
 * wakeups (a wakeups delta) without a locality count says so, rather
 * than printing nothing.
 */
void ab_report_locality(const struct ab *ab)
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
	bool head = false, off = false;
	unsigned int f;
	int i;

	if (!ab->have_stats || !find_stat(&ab->first, "loc_prev_same_cpu"))
		return;
	/* the first family counts every answer: none on any side, no section */
	for (i = 0; i < ab->nr_sides; i++) {
		struct side_ctx c = { ab, &ab->sides[i] };

		if (ab->sides[i].skipped)
			continue;
		if (side_has_loc(&c))
			head = true;
		else if (side_delta(&c, "wakeups"))
			off = true;
	}
	if (!head) {
		if (off)
			printf("\nplacement locality: off (knob locality=0; set locality=1\n"
			       "beforehand or on each side to count it)\n");
		return;
	}
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
	for (i = 0; i < ab->nr_sides; i++) {
		struct side_ctx c = { ab, &ab->sides[i] };

		if (!ab->sides[i].skipped && !side_has_loc(&c) &&
		    side_delta(&c, "wakeups"))
			printf("  %-8s off (knob locality=0 on this side)\n",
			       ab->sides[i].label);
	}
}

/* The counters that changed on any side, summed over each side's runs. */
void ab_report_deltas(const struct ab *ab)
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
int ab_check_reached(const struct ab *ab)
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

/* ---- the machine's state ------------------------------------------------ */

/* "before run 2 of B", "after run 1 of A", "after ab" */
static const char *drift_when(const struct ab *ab, const struct drift *d,
			      char *buf, size_t size)
{
	if (d->side < 0)
		snprintf(buf, size, "after ab");
	else
		snprintf(buf, size, "%s run %d of %s", d->after ? "after" : "before",
			 d->run + 1, ab->sides[d->side].label);
	return buf;
}

/* Each key that differed: its value at the start, then every other value and when. */
static void ab_print_drift(const struct ab *ab, FILE *f)
{
	char sv[4096], w[NAME_LEN + 32];
	int i, j;

	for (i = 0; i < ab->nr_drift; i++) {
		const struct drift *d = &ab->drift[i];

		for (j = 0; j < i && strcmp(ab->drift[j].key, d->key); j++)
			;
		if (j < i)
			continue;	/* printed with its first */
		fprintf(f, "  %s: %s at the start", d->key,
			mentry_text(machine_find(&ab->start, d->key), sv, sizeof(sv)));
		for (j = i; j < ab->nr_drift; j++)
			if (!strcmp(ab->drift[j].key, d->key))
				fprintf(f, "; %s %s", ab->drift[j].val,
					drift_when(ab, &ab->drift[j], w, sizeof(w)));
		fprintf(f, "\n");
	}
}

/*
 * Did every run see the machine's state of the start, settings under
 * test and counters aside? If not the differences are listed and, unless
 * --allow-state-drift, the comparison is refused. EXIT_OK or EXIT_RUNTIME.
 */
int ab_check_state(struct ab *ab)
{
	if (!ab->nr_drift)
		return EXIT_OK;
	if (ab->allow_drift) {
		printf("machine state: not the same on every run (accepted: --allow-state-drift):\n");
		ab_print_drift(ab, stdout);
		return EXIT_OK;
	}
	sw_err("ab: the sides did not run under the same machine state (settings under test aside):");
	ab_print_drift(ab, stderr);
	sw_err("ab: not reported: pin what differs on every side (e.g. 'sysctl:NAME=VALUE', 'sched:PATH=VALUE', 'cpufreq:governor=G') or beforehand, or accept it with --allow-state-drift");
	ab->refused_drift = true;
	return EXIT_RUNTIME;
}

/* CPU-seconds of @ticks (USER_HZ) */
static double steal_secs(unsigned long long ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return (double)ticks / (hz > 0 ? hz : 100);
}

/* The machine in one line, and each side's steal time. */
void ab_report_state(const struct ab *ab)
{
	int i;

	printf("\n");
	machine_summary(&ab->start, stdout);
	if (!ab->nr_drift)
		printf("machine state: the same before and after every run (settings under test aside)\n");
	if (!ab->have_steal) {
		printf("steal: unknown (no steal time in /proc/stat)\n");
		return;
	}
	printf("steal (CPU-seconds the hypervisor gave to others during each side's runs):");
	for (i = 0; i < ab->nr_sides; i++)
		if (!ab->sides[i].skipped)
			printf(" %s %.2f s%s", ab->sides[i].label,
			       steal_secs(ab->sides[i].steal),
			       i + 1 < ab->nr_sides ? "," : "");
	printf("\n");
}

static void json_key(FILE *f, const char *key)
{
	json_string(f, key);
	fputs(": ", f);
}

static void json_num(FILE *f, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.10g", v);
	json_value(f, buf);	/* inf, nan: a string */
}

/* --json FILE: results, both records, what differed, steal */
static int ab_write_json(const struct ab *ab, int rc)
{
	double lo, hi, med, ref = 0;
	char w[NAME_LEN + 32];
	FILE *f;
	int i, j;

	f = fopen(ab->json_path, "w");
	if (!f) {
		sw_err("ab: cannot write %s: %s", ab->json_path, strerror(errno));
		return EXIT_RUNTIME;
	}
	fputs("{\n  ", f);
	json_key(f, "command");
	fputs("[", f);
	for (i = 0; ab->cmd[i]; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, ab->cmd[i]);
	}
	fprintf(f, "],\n  ");
	json_key(f, "reported");
	fprintf(f, "%s,\n  ", rc == EXIT_OK ? "true" : "false");
	json_key(f, "refused_for_state_drift");
	fprintf(f, "%s,\n  ", ab->refused_drift ? "true" : "false");
	json_key(f, "unit");
	json_string(f, ab->unit);
	fputs(",\n  ", f);
	json_key(f, "sides");
	fputs("[", f);
	for (i = 0; i < ab->nr_sides; i++) {
		const struct side *s = &ab->sides[i];

		fprintf(f, "%s\n    {", i ? "," : "");
		json_key(f, "label");
		json_string(f, s->label);
		fputs(", ", f);
		json_key(f, "settings");
		json_string(f, s->text);
		fprintf(f, ", ");
		json_key(f, "skipped");
		fprintf(f, "%s", s->skipped ? "true" : "false");
		if (s->skipped || !s->runs) {
			fputs("}", f);
			continue;
		}
		med = median(s->fig, s->runs, &lo, &hi);
		if (i == 0)
			ref = med;
		fprintf(f, ", ");
		json_key(f, "runs");
		fprintf(f, "%d, ", s->runs);
		json_key(f, "median");
		json_num(f, med);
		fputs(", ", f);
		json_key(f, "min");
		json_num(f, lo);
		fputs(", ", f);
		json_key(f, "max");
		json_num(f, hi);
		fputs(", ", f);
		json_key(f, "ratio");
		if (ref != 0)
			json_num(f, med / ref);
		else
			fputs("null", f);
		fputs(", ", f);
		json_key(f, "figures");
		fputs("[", f);
		for (j = 0; j < s->runs; j++) {
			fputs(j ? ", " : "", f);
			json_num(f, s->fig[j]);
		}
		fputs("], ", f);
		json_key(f, "secs");
		json_num(f, s->secs);
		fputs(", ", f);
		json_key(f, "steal_secs");
		if (ab->have_steal)
			json_num(f, steal_secs(s->steal));
		else
			fputs("null", f);
		fputs("}", f);
	}
	fputs("\n  ],\n  ", f);
	json_key(f, "state_drift");
	fputs("[", f);
	for (i = 0; i < ab->nr_drift; i++) {
		const struct drift *d = &ab->drift[i];

		fprintf(f, "%s\n    {", i ? "," : "");
		json_key(f, "key");
		json_string(f, d->key);
		fputs(", ", f);
		json_key(f, "value");
		json_string(f, d->val);
		fputs(", ", f);
		json_key(f, "when");
		json_string(f, drift_when(ab, d, w, sizeof(w)));
		fputs("}", f);
	}
	fprintf(f, "%s],\n  ", ab->nr_drift ? "\n  " : "");
	json_key(f, "machine_start");
	machine_json(&ab->start, f, "  ");
	fputs(",\n  ", f);
	json_key(f, "machine_end");
	machine_json(&ab->end, f, "  ");
	fputs("\n}\n", f);
	if (fclose(f)) {
		sw_err("ab: writing %s: %s", ab->json_path, strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* --record FILE: the same as text */
static int ab_write_record(const struct ab *ab, int rc)
{
	char buf[64], w[NAME_LEN + 32];
	double lo, hi;
	FILE *f;
	int i;

	f = fopen(ab->record_path, "w");
	if (!f) {
		sw_err("ab: cannot write %s: %s", ab->record_path, strerror(errno));
		return EXIT_RUNTIME;
	}
	fprintf(f, "# smartwake ab:");
	for (i = 0; ab->cmd[i]; i++)
		fprintf(f, " %s", ab->cmd[i]);
	fprintf(f, "\n# %s\n", rc == EXIT_OK ? "reported" :
		ab->refused_drift ? "not reported: the machine's state differed" :
		"not reported");
	for (i = 0; i < ab->nr_sides; i++) {
		const struct side *s = &ab->sides[i];

		fprintf(f, "side.%s.settings = %s\n", s->label, s->text);
		if (s->skipped || !s->runs)
			continue;
		fprintf(f, "side.%s.median = %s\n", s->label,
			fmt_num(median(s->fig, s->runs, &lo, &hi), buf, sizeof(buf)));
		fprintf(f, "side.%s.runs = %d\n", s->label, s->runs);
		if (ab->have_steal)
			fprintf(f, "side.%s.steal_secs = %.2f\n", s->label,
				steal_secs(s->steal));
	}
	fprintf(f, "unit = %s\n", ab->unit);
	for (i = 0; i < ab->nr_drift; i++)
		fprintf(f, "drift.%s = %s (%s)\n", ab->drift[i].key, ab->drift[i].val,
			drift_when(ab, &ab->drift[i], w, sizeof(w)));
	fprintf(f, "# the machine at the start (after ab: the same unless a drift.* line says otherwise)\n");
	machine_print(&ab->start, f);
	if (fclose(f)) {
		sw_err("ab: writing %s: %s", ab->record_path, strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* --json and --record, once every run ran; the exit status after them. */
int ab_write_outputs(const struct ab *ab, int rc)
{
	if (!ab->complete)
		return rc;
	if (ab->json_path && ab_write_json(ab, rc) != EXIT_OK && rc == EXIT_OK)
		rc = EXIT_RUNTIME;
	if (ab->record_path && ab_write_record(ab, rc) != EXIT_OK && rc == EXIT_OK)
		rc = EXIT_RUNTIME;
	return rc;
}
