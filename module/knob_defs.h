/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: a knob's row type, the core's calls a concern may make, and
 * the knob values read on the hot path, each defined by its owner.
 * Includes no file of the module: knob_table.c, which names every
 * concern's knobs, includes their headers, so they include this.
 */
#ifndef _SMARTWAKE_KNOB_DEFS_H
#define _SMARTWAKE_KNOB_DEFS_H

#include <linux/types.h>
#include <smartwake/policy.h>

/* ---- knobs (knobs.c, knob_table.c) --------------------------------------
 * Every run-time setting is one row of a table (knob_table.h): debugfs
 * files, module parameters, strict parsing and the "knobs" listing are
 * generated from it.
 */
struct sw_knob {
	const char *name;
	const char *help;	/* one line, shown in debugfs "knobs" */
	int *val;		/* read on the hot path with READ_ONCE() */
	/* Either a list of names (value = index)... */
	const char * const *names;
	int nr_names;
	/* ...and/or a numeric range; with names, a number selects fixed_idx. */
	bool numeric;
	int min, max;
	int fixed_idx;		/* names + numeric: index meaning "number" */
	int *num;		/* where that number is stored */
	/* Optional: validate/apply a change under the knob lock; 0 = ok. */
	int (*apply)(const struct sw_knob *k, int old, int new);
	/*
	 * A string knob (scope) has no @val: a write of printable
	 * non-blank bytes, shorter than SW_KNOB_STR_MAX, goes to
	 * @write_str under the knob lock; @show_str writes the value into
	 * a buffer (scnprintf(): its length) and @accepted is its "knobs"
	 * listing.
	 */
	int (*write_str)(const char *buf, size_t len);
	int (*show_str)(char *buf, size_t size);
	const char *accepted;
};

/*
 * Set a knob by its name, as a write would (knobs.c), or store it at once
 * from any context (the watchdog's first step): a concern that sets a
 * knob (the watchdog's revert, bpf.c's detach) calls down into the core.
 */
int sw_knob_set(const char *name, int value);
void sw_knob_store(const char *name, int value);

/* Longest write to a string knob, newline included, plus one. */
#define SW_KNOB_STR_MAX	256

/* "policy" knob values */
enum sw_policy {
	SW_POLICIES(SW_ENUM_ID, SW_ENUM_ID)
	SW_POLICY_NR
};

/* path/select.c */
extern int sw_enabled;
extern int sw_policy;
/* path/wake.c */
extern int sw_decay;		/* enum sw_decay */
extern int sw_wide_mode;	/* enum sw_wide_mode */
extern int sw_factor_src;	/* enum sw_factor_src */
extern int sw_factor_fixed;	/* N when sw_factor_src is SW_FACTOR_FIXED */
extern int sw_wa_idle;
extern int sw_wa_weight;
extern int sw_wa_bias;
extern int sw_sync;
/* path/sis.c */
extern int sw_sis_sched_idle;
/* overload.c */
extern int sw_sis_filter;
extern int sw_sis_mask_update;	/* enum sw_mask_update */

/* sis_mask_update: where the overloaded masks are kept current */
enum sw_mask_update {
	SW_MASK_UPDATES(SW_ENUM_ID, SW_ENUM_ID)
	SW_MASK_NR
};

#endif /* _SMARTWAKE_KNOB_DEFS_H */
