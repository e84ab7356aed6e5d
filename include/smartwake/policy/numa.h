/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake policy core, the NUMA placement retry. Design source: 2018
 * "Delay retrying placement for automatic NUMA balance after wake_affine"
 * (the backoff after an affine wakeup moved a task off its node) and the
 * inverted retry comparison Srikar reported.
 * Included by <smartwake/policy.h>; conventions there.
 */
#ifndef _SMARTWAKE_POLICY_NUMA_H
#define _SMARTWAKE_POLICY_NUMA_H

#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <smartwake/enums.h>

/* ---------------------------------------------------------------------- */
/* NUMA placement retry after an affine wakeup (2018)                      */
/* ---------------------------------------------------------------------- */

/**
 * enum sw_numa_retry - gate on NUMA migration retries
 * @SW_NUMA_OFF: no gate (current mainline: the 2018 change was reverted).
 * @SW_NUMA_AS_MERGED: the 2018 comparison as merged, which defers almost
 *	every migration retry and so disables active NUMA task migration
 *	(placement, the preferred node, keeps being updated).
 * @SW_NUMA_CORRECTED: defer only while a backoff set by an affine wakeup
 *	is still in the future.
 * @SW_NUMA_NR: number of modes.
 */
enum sw_numa_retry {
	SW_NUMA_MODES(SW_ENUM_ID, SW_ENUM_ID)
	SW_NUMA_NR
};

/* names from SW_NUMA_MODES (enums.h) */
extern const char * const sw_numa_retry_names[SW_NUMA_NR];

/**
 * sw_msecs_to_jiffies() - msecs_to_jiffies() for a given @hz
 * @ms: milliseconds.
 * @hz: jiffies per second.
 *
 * Rounds up like the kernel; values of @ms that are negative as an int
 * give MAX_JIFFY_OFFSET, like the kernel. @hz of 0 gives 0.
 *
 * Return: jiffies.
 */
unsigned long sw_msecs_to_jiffies(unsigned int ms, unsigned long hz);

/**
 * sw_numa_retry_interval() - periodic placement retry interval
 * @scan_period_ms: the task's numa_scan_period.
 * @hz: jiffies per second.
 *
 * As numa_migrate_preferred(): min(one second, scan period / 16).
 *
 * Return: interval in jiffies.
 */
unsigned long sw_numa_retry_interval(unsigned int scan_period_ms,
				     unsigned long hz);

/**
 * sw_numa_backoff() - placement backoff after an affine wakeup
 * @scan_delay_ms: sysctl numa_balancing_scan_delay_ms.
 * @scan_period_ms: the task's numa_scan_period.
 * @hz: jiffies per second.
 *
 * As the 2018 update_wa_numa_placement(): max(scan delay, 4 * scan period),
 * giving the two-pass fault filter time to move hot data. The product is
 * computed in 64 bits (the kernel shifts an unsigned int) and anything
 * beyond INT_MAX ms saturates at MAX_JIFFY_OFFSET.
 *
 * Return: backoff in jiffies, to be added to now.
 */
unsigned long sw_numa_backoff(unsigned int scan_delay_ms,
			      unsigned int scan_period_ms, unsigned long hz);

/**
 * sw_numa_backoff_applies() - does an affine wakeup set the backoff
 * @preferred_nid: the task's numa_preferred_nid (negative: none).
 * @prev_nid: node of the wakee's previous CPU.
 * @target_nid: node of the CPU chosen for the wakee.
 *
 * The 2018 patch backs off only tasks with a preferred node whose wakeup
 * changed node; other wakeups are neutral for NUMA balancing.
 *
 * Return: true if the backoff should be armed.
 */
bool sw_numa_backoff_applies(int preferred_nid, int prev_nid, int target_nid);

/**
 * sw_numa_defer_retry() - the 2018 test in numa_migrate_preferred()
 * @mode: gate, see &enum sw_numa_retry; unknown modes act as OFF.
 * @now: current jiffies.
 * @stored_retry: the task's numa_migrate_retry as 2018 kept it: the last
 *	retry time stored, or a backoff set by an affine wakeup.
 * @interval: sw_numa_retry_interval() of the task.
 *
 * AS_MERGED: new = now + interval; defer when new is after the stored
 * value. numa_migrate_preferred() ran once the stored time had passed, so
 * this is nearly always true (Srikar Dronamraju, 2018). The merged code
 * used a plain '>' on jiffies; this uses the wrap-safe time_after().
 * CORRECTED: defer strictly before the retry time, i.e. until @now is
 * after @stored_retry, as the kernel's own gate (time_after(jiffies,
 * p->numa_migrate_retry)) opens: @now == @stored_retry still defers.
 *
 * When this returns false 2018 stored now + @interval and went on to
 * task_numa_migrate() (unless the task was on its preferred node).
 *
 * Return: true to skip the migration attempt.
 */
bool sw_numa_defer_retry(enum sw_numa_retry mode, unsigned long now,
			 unsigned long stored_retry, unsigned long interval);

/**
 * sw_numa_defer_migrate() - skip this task_numa_migrate() call (6.12)?
 * @mode: gate, see &enum sw_numa_retry; unknown modes act as OFF.
 * @now: current jiffies.
 * @stored_retry: the 2018 numa_migrate_retry: a live backoff's end, or any
 *	time before @now when there is none (the kernel's own retry time is
 *	then the 2018 one, and it has passed: the kernel's gate opened).
 * @interval: sw_numa_retry_interval() of the task.
 * @nid_changed: the preferred node changed since the backoff was set.
 *
 * On 6.12 the kernel reaches task_numa_migrate() each time its own retry
 * gate opens, placement having run just before. 2018 got there in two
 * ways: its gate (@now after @stored_retry) or a new preferred node
 * (task_numa_placement() called numa_migrate_preferred()). A call 2018
 * would not have made (a live backoff, same preferred node) is skipped;
 * the others get sw_numa_defer_retry().
 *
 * Return: true to skip the migration attempt.
 */
bool sw_numa_defer_migrate(enum sw_numa_retry mode, unsigned long now,
			   unsigned long stored_retry, unsigned long interval,
			   bool nid_changed);

#endif /* _SMARTWAKE_POLICY_NUMA_H */
