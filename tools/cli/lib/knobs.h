/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: the loaded module's knobs (name, value, accepted
 * values, help: its "knobs" file; nothing here knows a knob by name),
 * kernel scheduler features and tunables (sched:, sysctl:, cpufreq:), the
 * settings that change them, and the targets they touch, to be restored
 * afterwards.
 */
#ifndef SMARTWAKE_KNOBS_H
#define SMARTWAKE_KNOBS_H

#include "sysfs.h"

struct knob {
	char name[NAME_LEN];
	char value[VALUE_LEN];
	char accepted[256];	/* "0..1", "stock|smartwake", "" = unknown */
	char help[256];
};

/* T_FILE: a kernel tunable's file (sched:, sysctl:, cpufreq:) */
enum tkind { T_KNOB, T_FEATURE, T_FILE };

/* One knob, feature or kernel tunable that some setting touches. */
struct target {
	enum tkind kind;
	char name[NAME_LEN];	/* knob name, feature name without NO_, or
				 * "sched:PATH", "sysctl:NAME", "cpufreq:policyN/KEY" */
	char key[NAME_LEN + 16];	/* its entry in the machine-state record */
	char path[1024];	/* T_FILE: the file */
	char orig[VALUE_LEN];	/* value (knob, file) or token (feature) before */
	char cur[VALUE_LEN];	/* what it holds now, as far as we know */
};

struct setting {
	int target;		/* index into targets[] */
	int nr;			/* targets[target .. target + nr - 1]: a
				 * cpufreq: setting has one per policy */
	char value[VALUE_LEN];	/* knob value, or "NAME"/"NO_NAME" */
	char text[NAME_LEN + VALUE_LEN + 8];	/* as written by the user */
};

/* Reasons a setting is not usable. */
enum { SET_OK, SET_SYNTAX, SET_MISSING, SET_BADVAL, SET_IOERR };

extern struct target targets[MAX_TARGETS];
extern int nr_targets;

int load_knobs(void);
int open_module(void);
int knob_count(void);
const struct knob *knob_at(int i);
const struct knob *find_knob(const char *name);
const char *knob_value(const char *name);

int parse_setting(const char *text, struct setting *s, char *why,
		  size_t why_size);
int setting_exit(int why);
const char *target_desc(const struct target *t, const char *val,
			char *buf, size_t size);
int target_write(struct target *t, const char *val);
int restore_targets(bool verbose);

#endif /* SMARTWAKE_KNOBS_H */
