/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the wakeup-latency histogram (latency.c).
 */
#ifndef _SMARTWAKE_LATENCY_H
#define _SMARTWAKE_LATENCY_H

#include <linux/types.h>
#include "knob_defs.h"

struct dentry;
struct seq_file;

extern int sw_latency;		/* knob "latency": the probes exist while 1 */
extern int sw_latency_sample;	/* knob "latency_sample": 1 wakeup in N timed */
int sw_latency_apply(const struct sw_knob *k, int old, int new);
void sw_latency_register(void);	/* at load: the probes, in "hooks" */
void sw_latency_reset(void);	/* "reset": zero the histogram */
void sw_latency_debugfs(struct dentry *dir);	/* the latency_hist file */
void sw_latency_show_stats(struct seq_file *m);	/* derived stats lines */

#endif /* _SMARTWAKE_LATENCY_H */
