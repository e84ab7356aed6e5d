// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake: run-time selectable wakeup-placement heuristics for the fair
 * scheduler of a stock kernel, with counters for every decision.
 *
 * Load order: resolve symbols, create debugfs, install hooks (last, so that
 * nothing runs before the module is ready). Unload: the reverse, then wait
 * for CPUs still executing a replacement.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/utsname.h>
#include "sw.h"

static int __init sw_init(void)
{
	int ret;

	ret = sw_symbols_resolve();
	if (ret)
		return ret;
	ret = sw_debugfs_init();
	if (ret)
		return ret;
	ret = sw_hooks_enable();
	if (ret) {
		sw_debugfs_exit();
		return ret;
	}
	pr_info("loaded on %s\n", init_utsname()->release);
	return 0;
}

static void __exit sw_exit(void)
{
	sw_debugfs_exit();
	sw_hooks_disable();
	/* Replacements run with preemption off: this waits them out. */
	synchronize_rcu();
	pr_info("unloaded\n");
}

module_init(sw_init);
module_exit(sw_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("smartwake developers");
MODULE_DESCRIPTION("Run-time selectable fair-scheduler wakeup placement heuristics");
