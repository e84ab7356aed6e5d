/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: a knob's row type and the knob values read on the hot path,
 * defined in knobs.c. Includes no file of the module: knobs.c, which
 * names every apply callback, includes the headers of the files that
 * read these, so they include this and not knobs.h.
 */
#ifndef _SMARTWAKE_KNOB_DEFS_H
#define _SMARTWAKE_KNOB_DEFS_H

#include <linux/types.h>
#include <smartwake/policy.h>

/* ---- knobs (knobs.c) ----------------------------------------------------
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
 * Set a knob by its value variable, as a write would (knobs.c): here, not
 * in knobs.h, so a concern that sets a knob (the watchdog's revert) does
 * not include the knob table's header, which names that concern.
 */
int sw_knob_set(int *val, int value);

/* Longest write to a string knob, newline included, plus one. */
#define SW_KNOB_STR_MAX	256

/* "policy" knob values */
enum sw_policy {
	SW_POLICIES(SW_ENUM_ID, SW_ENUM_ID)
	SW_POLICY_NR
};

extern int sw_enabled;
extern int sw_policy;
extern int sw_decay;		/* enum sw_decay */
extern int sw_wide_mode;	/* enum sw_wide_mode */
extern int sw_factor_src;	/* enum sw_factor_src */
extern int sw_factor_fixed;	/* N when sw_factor_src is SW_FACTOR_FIXED */
extern int sw_wa_idle;
extern int sw_wa_weight;
extern int sw_wa_bias;
extern int sw_sync;
extern int sw_sis_filter;
extern int sw_sis_sched_idle;
extern int sw_sis_mask_update;	/* enum sw_mask_update */

/* sis_mask_update: where the overloaded masks are kept current */
enum sw_mask_update {
	SW_MASK_UPDATES(SW_ENUM_ID, SW_ENUM_ID)
	SW_MASK_NR
};

#endif /* _SMARTWAKE_KNOB_DEFS_H */
