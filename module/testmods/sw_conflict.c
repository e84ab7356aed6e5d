// SPDX-License-Identifier: GPL-2.0
/*
 * sw_conflict: a test-only module that claims a function with an
 * IPMODIFY ftrace ops, as a livepatch would, without changing anything.
 * The reliability tests load it first to check that smartwake then
 * refuses to load with -EBUSY and leaves nothing hooked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>

static char *func = "select_task_rq_fair";
module_param(func, charp, 0400);
MODULE_PARM_DESC(func, "function to claim with an IPMODIFY ftrace ops");

static unsigned long sw_conflict_addr;

static void notrace sw_conflict_nop(unsigned long ip, unsigned long parent_ip,
				    struct ftrace_ops *op,
				    struct ftrace_regs *fregs)
{
}

static struct ftrace_ops sw_conflict_ops = {
	.func = sw_conflict_nop,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
		 FTRACE_OPS_FL_RECURSION,
};

static unsigned long sw_conflict_lookup(const char *name)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *name);

	if (register_kprobe(&kp) < 0)
		return 0;
	lookup = (void *)kp.addr;
	unregister_kprobe(&kp);
	return lookup(name);
}

static int __init sw_conflict_init(void)
{
	int ret;

	sw_conflict_addr = sw_conflict_lookup(func);
	if (!sw_conflict_addr) {
		pr_err("%s not found\n", func);
		return -ENOENT;
	}
	ret = ftrace_set_filter_ip(&sw_conflict_ops, sw_conflict_addr, 0, 0);
	if (ret)
		return ret;
	ret = register_ftrace_function(&sw_conflict_ops);
	if (ret) {
		ftrace_set_filter_ip(&sw_conflict_ops, sw_conflict_addr, 1, 0);
		return ret;
	}
	pr_info("claimed %s\n", func);
	return 0;
}

static void __exit sw_conflict_exit(void)
{
	unregister_ftrace_function(&sw_conflict_ops);
	ftrace_set_filter_ip(&sw_conflict_ops, sw_conflict_addr, 1, 0);
}

module_init(sw_conflict_init);
module_exit(sw_conflict_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("smartwake test helper: claim a function with IPMODIFY");
