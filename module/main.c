// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake: run-time selectable wakeup-placement heuristics for the fair
 * scheduler of a stock kernel, with counters for every decision.
 *
 * More: Documentation/design.md, "The files in detail", main.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/security.h>
#include <linux/utsname.h>
#include "cost.h"
#include "debugfs.h"
#include "hooks.h"
#include "path/bpf.h"
#include "knobs.h"
#include "latency.h"
#include "layout.h"
#include "numa.h"
#include "overload.h"
#include "pull.h"
#include "reach.h"
#include "scope.h"
#include "sib.h"
#include "symbols.h"
#include "ttwu.h"
#include "path.h"
#include "watchdog.h"
#include "testing.h"

static int __init sw_load(void)
{
	int ret;

	/* the knobs' files and writes serve this table from now on */
	sw_knobs_register(&sw_knob_table);
	/* every hook and observer, in the order of the hooks file */
	sw_select_register();
	sw_ttwu_register();
	sw_numa_register();
	sw_overload_register();
	sw_sib_register();
	sw_pull_init();
	sw_latency_register();
	sw_reach_register();

	ret = sw_layout_check();
	if (ret)
		return ret;
	ret = sw_symbols_resolve();
	if (ret)
		return ret;
	ret = sw_layout_check_percpu();
	if (ret)
		return ret;
	ret = sw_calls_check();
	if (ret)
		return ret;
	ret = sw_cost_init();
	if (ret)
		return ret;
	ret = sw_sis_init();
	if (ret)
		goto err_cost;
	ret = sw_overload_init();
	if (ret)
		goto err_sis;
	ret = sw_debugfs_init();
	if (ret)
		goto err_overload;
	/* policy=bpf's type, before a load parameter may ask for it */
	sw_bpf_register();
	if (sw_testing_init_delay_ms())
		msleep(sw_testing_init_delay_ms());
	/* At the default knobs nothing is hooked; the tests can ask for it. */
	if (sw_testing_hook_at_load()) {
		ret = sw_select_hook_at_load();
		if (ret)
			goto err_debugfs;
	}
	/* the load's parameters are applied here, hooks included */
	ret = sw_knobs_ready();
	if (ret)
		goto err_debugfs;
	pr_info("loaded on %s\n", init_utsname()->release);
	/* debugfs refuses the knob files (0644) under lockdown=integrity */
	if (security_locked_down(LOCKDOWN_DEBUGFS))
		pr_info("debugfs is locked down: knobs are read and written in /sys/module/%s/parameters/ (debugfs keeps the read-only files)\n",
			KBUILD_MODNAME);
	return 0;

err_debugfs:
	/* no writer left inside a knob after this, debugfs or parameter */
	sw_knobs_close();
	sw_debugfs_exit();
	/* every hook and probe, also one a knob may have installed */
	sw_hooks_remove_all();
	synchronize_rcu();
	sw_watchdog_stop();
err_overload:
	/* a scope given at load */
	sw_scope_exit();
	sw_overload_free();
err_sis:
	sw_sis_exit();
err_cost:
	sw_cost_exit();
	return ret;
}

/*
 * Some failures of the load have a message of their own, an allocation
 * that fails has none: every refused load says so, with its error.
 */
static int __init sw_init(void)
{
	int ret = sw_load();

	if (ret)
		pr_err("not loaded: %pe\n", ERR_PTR(ret));
	return ret;
}

static void __exit sw_exit(void)
{
	sw_watchdog_stop();
	/* no knob write installs anything from now on */
	sw_knobs_close();
	sw_debugfs_exit();
	/* every hook and probe, waiting for running tracepoint probes... */
	sw_hooks_remove_all();
	/* ...and no replacement: they run with interrupts disabled */
	synchronize_rcu();
	/* a revert queued by the last of them (it takes the knob lock) */
	sw_watchdog_stop();
	/* the selected cgroup's reference (knob scope) */
	sw_scope_exit();
	sw_overload_free();
	sw_sis_exit();
	sw_cost_exit();
	pr_info("unloaded\n");
}

module_init(sw_init);
module_exit(sw_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(SW_RELEASE);
MODULE_AUTHOR("smartwake developers");
MODULE_DESCRIPTION("Run-time selectable fair-scheduler wakeup placement heuristics");
