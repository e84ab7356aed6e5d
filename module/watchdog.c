// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog (knob revert_on): an answer of the module outside the
 * task's allowed CPUs is a bug of the module (invariant_violations). The
 * kernel's answer replaces it in any case; with revert_on=violation (the
 * default) the module also gives the whole decision back to the kernel:
 *
 * More: Documentation/design.md, "The files in detail", watchdog.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include "knob_defs.h"
#include "stats.h"
#include "watchdog.h"

int sw_revert_on = SW_REVERT_VIOLATION;

const char * const sw_revert_on_names[SW_REVERT_NR] = {
	SW_REVERT_MODES(SW_ENUM_NAME, SW_ENUM_NAME)
};

static atomic_t sw_wd_pending = ATOMIC_INIT(0);
static bool sw_wd_stopped;

static void sw_wd_work_fn(struct work_struct *work)
{
	int ret = 0;

	/* on unload the hooks go anyway; the knobs are no longer applied */
	if (!READ_ONCE(sw_wd_stopped))
		ret = sw_knob_set("policy", SW_POLICY_STOCK);

	pr_warn("answer outside a task's allowed CPUs: policy set back to stock%s (invariant_violations %llu, wakeups %llu)\n",
		ret ? ", but the hook could not be removed" : "",
		sw_counter_sum(SW_C_invariant_violations),
		sw_counter_sum(SW_C_wakeups));
	atomic_set(&sw_wd_pending, 0);
}

static DECLARE_WORK(sw_wd_work, sw_wd_work_fn);

static void sw_wd_irq_fn(struct irq_work *iw)
{
	schedule_work(&sw_wd_work);
}

static DEFINE_IRQ_WORK(sw_wd_irq, sw_wd_irq_fn);

/**
 * sw_watchdog_violation() - an invariant violation was just counted
 *
 * Called from the wakeup path (interrupts disabled, p->pi_lock held).
 */
void sw_watchdog_violation(void)
{
	if (READ_ONCE(sw_revert_on) != SW_REVERT_VIOLATION ||
	    READ_ONCE(sw_wd_stopped) || atomic_xchg(&sw_wd_pending, 1))
		return;
	sw_knob_store("policy", SW_POLICY_STOCK);
	sw_count(SW_C_reverts);
	irq_work_queue(&sw_wd_irq);
}

/**
 * sw_watchdog_stop() - no revert from now on; wait for one in flight
 *
 * For unload and a failed load: first, before anything is torn down (a
 * revert in flight finishes; later ones only log), and again once the
 * hooks are gone and synchronize_rcu() has returned, for one queued by a
 * wakeup that raced with the first call.
 */
void sw_watchdog_stop(void)
{
	WRITE_ONCE(sw_wd_stopped, true);
	irq_work_sync(&sw_wd_irq);
	cancel_work_sync(&sw_wd_work);
}
