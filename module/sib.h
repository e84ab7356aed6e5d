/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: sched-idle balance opportunity counters, knob sib_count (sib.c).
 */
#ifndef _SMARTWAKE_SIB_H
#define _SMARTWAKE_SIB_H

#include <linux/ftrace.h>
#include "knobs.h"

extern int sw_sib_count;
int sw_sib_apply(const struct sw_knob *k, int old, int new);
void sw_sib_newidle_pre(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs);
void sw_sib_domains_pre(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs);

#endif /* _SMARTWAKE_SIB_H */
