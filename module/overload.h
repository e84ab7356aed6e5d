/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the 2022 SIS filter's overloaded-CPU masks (overload.c).
 */
#ifndef _SMARTWAKE_OVERLOAD_H
#define _SMARTWAKE_OVERLOAD_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/ftrace.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include "knob_defs.h"

/* ---- overloaded-CPU masks (overload.c) --------------------------------- */
int sw_overload_init(void);	/* allocate the masks; no probe yet */
int sw_overload_apply(const struct sw_knob *k, int old, int new);
int sw_mask_update_apply(const struct sw_knob *k, int old, int new);
extern const char * const sw_mask_update_names[SW_MASK_NR];
void sw_overload_register(void);	/* at load: the tick hook and the probe */
void sw_overload_free(void);	/* after tracepoint_synchronize_unregister() */
#define SW_PROBE_FILTER	1U	/* sis_filter=1, sis_mask_update=enqueue */
#define SW_PROBE_SHADOW	2U	/* policy=shadow: the race check */
#define SW_PROBE_SIB	4U	/* sib_count=1: the masks */
#define SW_PROBE_PULL	8U	/* sib_pull=1: the masks and the trigger */
#define SW_PROBE_NR	4	/* the bits above */
void sw_overload_seed(void);	/* every online CPU's bit from a snapshot */
int sw_nr_probe_get(unsigned int user);
void sw_nr_probe_put(unsigned int user);
typedef void (*sw_nr_watch_fn)(int cpu, bool became_overloaded);
void sw_overload_set_watch(sw_nr_watch_fn fn);
int sw_overload_show(struct seq_file *m);
const struct cpumask *sw_llc_overloaded_mask(int llc_id);
bool sw_llc_has_overloaded(int cpu);	/* another CPU of @cpu's LLC is */

/*
 * nr_running changes so far of the CPUs of the LLC whose id is @llc_id
 * (the nr_running probe counts them while policy=shadow holds it)
 */
DECLARE_PER_CPU(atomic_long_t, sw_llc_nr_running_seq);
static inline unsigned long sw_llc_nr_running_seq_of(int llc_id)
{
	if ((unsigned int)llc_id >= nr_cpu_ids)
		return 0;
	return atomic_long_read(per_cpu_ptr(&sw_llc_nr_running_seq, llc_id));
}

#endif /* _SMARTWAKE_OVERLOAD_H */
