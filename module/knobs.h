/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the knob machinery (knobs.c): its files, parameters and
 * writes. The row type and the values read on the hot path are in
 * knob_defs.h, which the files that own an apply callback include.
 */
#ifndef _SMARTWAKE_KNOBS_H
#define _SMARTWAKE_KNOBS_H

#include <linux/types.h>
#include "knob_defs.h"

struct dentry;

int sw_knobs_init(struct dentry *dir);
int sw_knobs_ready(void);
void sw_knobs_close(void);
int sw_knob_write(const struct sw_knob *k, const char *buf, size_t len);

#endif /* _SMARTWAKE_KNOBS_H */
