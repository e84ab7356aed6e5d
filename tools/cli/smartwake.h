/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI - declarations shared by its source files:
 *
 *   main.c           dispatch, help, environment, signals
 *   knobs.c          debugfs files, the control interface (debugfs or
 *                    module parameters), knob discovery, settings, status,
 *                    set
 *   stats.c          stats (--watch), reset
 *   json.c           JSON output
 *   figure.c         the figure of a run's output, medians, number format
 *   ab.c             the A/B runner: options, sides, the sequential runs
 *   ab_concurrent.c  ab --concurrent and its cgroups
 *   ab_report.c      ab's reports (ab.h: what ab's files share)
 *   latency.c        the latency command, latency and locality summaries
 *
 * The commands ab runs are started and waited for by lib/child.c.
 */
#ifndef SMARTWAKE_H
#define SMARTWAKE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <regex.h>

#include "swtool.h"

#define PROG		"smartwake"
#define EXIT_OK		0
#define EXIT_RUNTIME	SW_EXIT_RUNTIME
#define EXIT_USAGE	SW_EXIT_USAGE

#define DEF_DEBUGFS	"/sys/kernel/debug/smartwake"
#define DEF_PARAMS	"/sys/module/smartwake/parameters"
#define DEF_LOCKDOWN	"/sys/kernel/security/lockdown"
#define DEF_FEATURES	"/sys/kernel/debug/sched/features"
#define DEBUGFS_MNT	"/sys/kernel/debug"

#define NAME_LEN	64
#define VALUE_LEN	256	/* knob scope holds a path */
#define MAX_KNOBS	128
#define MAX_TARGETS	256
#define MAX_SIDES	16
#define MAX_SETTINGS	64
#define MAX_STATS	256
#define MAX_RUNS	1000

/* ---- main.c ---- */
extern const char *dbg_dir;
extern bool dbg_dir_from_env;
extern const char *features_path;
extern const char *params_dir;
extern const char *lockdown_path;
extern volatile sig_atomic_t got_signal;

void usage_cmd(const char *cmd, FILE *f);
int __printf(2, 3) bad_usage(const char *cmd, const char *fmt, ...);
void catch_signals(void);
bool nap(double secs);

/*
 * What --watch samples: @read fills one sample (0 or -errno), @print
 * shows the interval from @prev to @cur of @dt seconds.
 */
struct watch_src {
	const char *file;	/* under dbg_dir, for the error message */
	int (*read)(void *sample);
	void (*print)(const void *cur, const void *prev, double dt, void *ctx);
	void *ctx;
};
int watch(const struct watch_src *w, void *a, void *b, double every,
	  long count, const char *banner);
int watch_opt(const char *cmd, int c, const char *arg, double *every, long *count);

/* ---- knobs.c ---- */
struct knob {
	char name[NAME_LEN];
	char value[VALUE_LEN];
	char accepted[256];	/* "0..1", "stock|smartwake", "" = unknown */
	char help[256];
};

enum tkind { T_KNOB, T_FEATURE };

/* One knob or feature that some setting touches. */
struct target {
	enum tkind kind;
	char name[NAME_LEN];	/* knob name, or feature name without NO_ */
	char orig[VALUE_LEN];	/* value (knob) or token (feature) before */
	char cur[VALUE_LEN];	/* what it holds now, as far as we know */
};

struct setting {
	int target;		/* index into targets[] */
	char value[VALUE_LEN];	/* knob value, or "NAME"/"NO_NAME" */
	char text[NAME_LEN + VALUE_LEN + 8];	/* as written by the user */
};

/* Reasons a setting is not usable. */
enum { SET_OK, SET_SYNTAX, SET_MISSING, SET_BADVAL, SET_IOERR };

extern struct target targets[MAX_TARGETS];
extern int nr_targets;

char *read_file(const char *path);
int write_value(const char *path, const char *val);
void path_of(char *out, size_t size, const char *name);
int ctl_write(const char *name, const char *val);
char *ctl_read(const char *name);
const char *ctl_desc(char *buf, size_t size);
int check_module(bool report);
int load_knobs(void);
const char *knob_value(const char *name);
bool all_digits(const char *s);
int parse_setting(const char *text, struct setting *s, char *why,
		  size_t why_size);
int setting_exit(int why);
const char *target_desc(const struct target *t, const char *val,
			char *buf, size_t size);
int target_write(struct target *t, const char *val);
int restore_targets(bool verbose);
int cmd_status(int argc, char **argv);
int cmd_set(int argc, char **argv);

/* ---- stats.c ---- */
struct stat_line {
	char name[NAME_LEN];
	char value[VALUE_LEN];
	bool counter;		/* an unsigned integer, not a gauge: rates and deltas */
	unsigned long long v;
};

struct stats {
	struct stat_line l[MAX_STATS];
	int n;
};

bool stat_gauge_name(const char *name);
int read_stats(struct stats *st);
const struct stat_line *find_stat(const struct stats *st, const char *name);
double stat_rate(const struct stat_line *c, const struct stat_line *p,
		 double dt);
int cmd_stats(int argc, char **argv);
bool print_shadow(const struct stats *st, const char *label);
void status_shadow(void);
bool print_reached(const struct stats *st, const char *label);
/* reached_pct below REACH_MIN_PCT over REACH_MIN_WAKEUPS or more: bypassed */
#define REACH_MIN_PCT		90
#define REACH_MIN_WAKEUPS	1000
int cmd_reset(int argc, char **argv);

/* ---- json.c ---- */
void json_string(FILE *f, const char *s);
void print_stats_json(const struct stats *st);
void print_stats_openmetrics(const struct stats *st);
void print_watch_json(const struct stats *cur, const struct stats *prev,
		      double dt);

/* ---- figure.c ---- */
struct metric {
	const char *text;	/* --metric, NULL: the default figure */
	bool key;		/* a KEY, else the regex @re */
	regex_t re;
};

int metric_init(struct metric *m, const char *text, char *why, size_t size);
void metric_free(struct metric *m);
bool figure_find(const struct metric *m, const char *out, double *v,
		 char *unit, size_t usize);
double median(const double *v, int n, double *lo, double *hi);
const char *fmt_num(double x, char *buf, size_t size);

/* ---- ab.c (ab.h: ab_concurrent.c, ab_report.c) ---- */
int cmd_ab(int argc, char **argv);

/* ---- latency.c ---- */
#define HIST_MAX	64	/* buckets read from latency_hist (the module has 40) */

struct hist {
	unsigned long long low[HIST_MAX];	/* bucket lower bound, ns */
	unsigned long long count[HIST_MAX];
	int n;
};

int read_hist(struct hist *h);
int read_hist_file(struct hist *h, const char *file);
void hist_delta(const struct hist *a, const struct hist *b, struct hist *d);
void hist_add(struct hist *sum, const struct hist *d);
unsigned long long hist_total(const struct hist *h);
unsigned long long hist_pct(const struct hist *h, unsigned int pct);
void print_hist_pcts(const struct hist *h);
bool print_locality(const char *label, const char *prefix,
		    unsigned long long (*get)(const void *ctx, const char *name),
		    const void *ctx);
bool print_latency_locality(const struct stats *st);
int cmd_latency(int argc, char **argv);

#endif /* SMARTWAKE_H */
