/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the knob core (knobs.c): its files, parameters and writes,
 * and the table it serves (knob_table.c). The row type is in knob_defs.h,
 * which the files that own a knob include.
 */
#ifndef _SMARTWAKE_KNOBS_H
#define _SMARTWAKE_KNOBS_H

#include <linux/moduleparam.h>
#include <linux/types.h>
#include "knob_defs.h"

struct dentry;

/*
 * A module parameter given at load (insmod, modprobe, /etc/modprobe.d)
 * arrives before the module's init runs: it is parsed at once, by the
 * same rules as a write, and kept here until sw_knobs_ready() applies
 * it. @seq orders them as given (0: none; a repeated one counts where it
 * was given last).
 */
struct sw_knob_pending {
	unsigned int seq;
	int val, num;
	size_t len;
	char str[SW_KNOB_STR_MAX];	/* a string knob's bytes */
};

/**
 * struct sw_knob_table - the knobs, as knob_table.c registers them
 * @knobs:   the rows
 * @params:  their module parameters, row by row (each one's arg: the table)
 * @pending: per row, a value given at load, until sw_knobs_ready()
 * @nr:      the number of rows
 * @changed: called under the knob lock after any knob's value changed
 * @reset:   the "reset" parameter's work (the counters, the histograms)
 */
struct sw_knob_table {
	const struct sw_knob *knobs;
	const struct kernel_param *params;
	struct sw_knob_pending *pending;
	unsigned int nr;
	void (*changed)(void);
	void (*reset)(void);
};

extern const struct sw_knob_table sw_knob_table;	/* knob_table.c */
extern const struct kernel_param_ops sw_knob_param_ops;

void sw_knobs_register(const struct sw_knob_table *t);

int sw_knobs_init(struct dentry *dir);
int sw_knobs_ready(void);
void sw_knobs_close(void);
int sw_knob_write(const struct sw_knob *k, const char *buf, size_t len);

#endif /* _SMARTWAKE_KNOBS_H */
