// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake: run-time selectable wakeup-placement heuristics for the fair
 * scheduler of a stock kernel, with counters for every decision.
 *
 * Load order: check the kernel is the one built for (compat.c), resolve
 * symbols, allocate the scan masks, start tracking
 * overloaded CPUs, create debugfs, install hooks (last, so that nothing
 * runs before the module is ready). Unload: the reverse, waiting for
 * tracepoint probes and replacements still running before freeing what
 * they use.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/tracepoint.h>
#include <linux/utsname.h>
#include "btf.h"
#include "sw.h"

static int __init sw_init(void)
{
	int ret;

	ret = sw_compat_check();
	if (ret)
		return ret;
	ret = sw_symbols_resolve();
	if (ret)
		return ret;
	ret = sw_sis_init();
	if (ret)
		return ret;
	ret = sw_overload_init();
	if (ret)
		goto err_sis;
	ret = sw_ttwu_init();
	if (ret)
		goto err_overload;
	ret = sw_debugfs_init();
	if (ret)
		goto err_ttwu;
	ret = sw_hooks_enable();
	if (ret)
		goto err_debugfs;
	pr_info("loaded on %s\n", init_utsname()->release);
	return 0;

err_debugfs:
	sw_debugfs_exit();
err_ttwu:
	sw_ttwu_exit();
err_overload:
	sw_overload_stop();
	tracepoint_synchronize_unregister();
	sw_overload_free();
err_sis:
	sw_sis_exit();
	return ret;
}

static void __exit sw_exit(void)
{
	sw_debugfs_exit();
	sw_hooks_disable();
	sw_ttwu_exit();
	sw_overload_stop();
	/* no probe call still running... */
	tracepoint_synchronize_unregister();
	/* ...and no replacement: they run with interrupts disabled */
	synchronize_rcu();
	sw_overload_free();
	sw_sis_exit();
	pr_info("unloaded\n");
}

module_init(sw_init);
module_exit(sw_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("smartwake developers");
MODULE_DESCRIPTION("Run-time selectable fair-scheduler wakeup placement heuristics");
