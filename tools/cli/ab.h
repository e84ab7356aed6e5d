/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI: the ab command's declarations, shared by its files:
 *
 *   ab.c            the command: options, sides, the sequential runs
 *   ab_run.c        the run primitives both kinds of run share
 *   ab_concurrent.c --concurrent: both sides at once, in their cgroups
 *   ab_report.c     the reports: figures, latency, locality, counter deltas,
 *                   the machine's state and steal, --json and --record
 *
 * The commands run through lib/child.c.
 */
#ifndef SMARTWAKE_AB_H
#define SMARTWAKE_AB_H

#include "child.h"
#include "figure.h"
#include "hist.h"
#include "knobs.h"
#include "machine.h"
#include "stats.h"

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
	double secs;			/* its runs' time, summed */
	unsigned long long steal;	/* /proc/stat steal ticks during its runs */
};

/* An entry of the machine-state record that differed from the start. */
struct drift {
	char *key, *val;	/* val: as the text record writes it */
	int side, run;		/* side -1: after ab (everything restored) */
	bool after;		/* seen after the run, not before it */
};

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
	/* the machine's state: at the start, now, and what differed */
	bool allow_drift;		/* --allow-state-drift */
	const char *json_path, *record_path;	/* --json, --record */
	struct machine start, snap, end;
	bool have_steal;		/* /proc/stat has steal ticks */
	unsigned long long steal0;	/* at the start of the current run */
	struct drift *drift;
	int nr_drift, cap_drift;
	bool refused_drift;		/* refused for it (not --allow-state-drift) */
	bool complete;			/* every run ran */
};

#define AB_GO	(-1)	/* no exit status yet: go on */

/* ---- ab_run.c ---- */
int apply_side(const struct side *s);
bool ab_run_ok(const struct ab *ab, const struct side *s, int r,
	       const struct sw_run_out *o);
bool ab_figure(struct ab *ab, struct side *s, int r,
	       const struct sw_run_out *o, double *v, char *u);
void ab_record(struct ab *ab, struct side *s, int r, double v,
	       const char *u, const struct sw_run_out *o, bool add);
void ab_state(struct ab *ab, int side, int r, bool after);

/* ---- ab_concurrent.c ---- */
int ab_concurrent_check(struct ab *ab);
int ab_run_concurrent(struct ab *ab);
int ab_concurrent_cleanup(struct ab *ab);

/* ---- ab_report.c ---- */
int ab_check_reached(const struct ab *ab);
int ab_check_state(struct ab *ab);
void ab_report_state(const struct ab *ab);
int ab_write_outputs(const struct ab *ab, int rc);
void ab_report(const struct ab *ab);
void ab_report_locality(const struct ab *ab);
void ab_report_deltas(const struct ab *ab);

#endif /* SMARTWAKE_AB_H */
