// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake_pull: the direct calls of smartwake's sched-idle pull (knob
 * sib_pull, module/pull.c), in a module of their own so that only those
 * who want the pull load it.
 *
 * More: Documentation/design.md, "The files in detail", companion/smartwake_pull.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/stop_machine.h>
#include "pull_ops.h"

/* scripts/klp-relocs.py converts x86-64 objects only */
#if defined(SW_HAVE_RQ_UNLOCK_CALL) && defined(SW_HAVE_STOP_NOWAIT_BOOL) && \
	defined(CONFIG_X86_64)

/*
 * Livepatch symbols: the compiler emits the relocations against these
 * names. Weak, so that modpost does not refuse undefined, unexported
 * symbols; a build that was not converted calls address 0, which the
 * init refuses.
 */
extern void sw_klp_rq_lock_nested(struct rq *rq, int subclass)
	__asm__("\".klp.sym.vmlinux.raw_spin_rq_lock_nested,0\"") __weak;
extern void sw_klp_rq_unlock(struct rq *rq)
	__asm__("\".klp.sym.vmlinux.raw_spin_rq_unlock,0\"") __weak;
extern bool sw_klp_stop_one_cpu_nowait(unsigned int cpu, cpu_stop_fn_t fn,
				       void *arg, struct cpu_stop_work *work)
	__asm__("\".klp.sym.vmlinux.stop_one_cpu_nowait,0\"") __weak;
extern int sw_klp_migration_cpu_stop(void *data)
	__asm__("\".klp.sym.vmlinux.migration_cpu_stop,0\"") __weak;

static void swp_rq_lock(struct rq *rq)
{
	sw_klp_rq_lock_nested(rq, 0);
}

static void swp_rq_unlock(struct rq *rq)
{
	sw_klp_rq_unlock(rq);
}

static bool swp_stop_nowait(unsigned int cpu, cpu_stop_fn_t fn, void *arg,
			    struct cpu_stop_work *work)
{
	return sw_klp_stop_one_cpu_nowait(cpu, fn, arg, work);
}

static int swp_migrate(void *migration_arg)
{
	return sw_klp_migration_cpu_stop(migration_arg);
}

static const struct sw_pull_ops swp_ops = {
	.version = SW_PULL_OPS_VERSION,
	.owner = THIS_MODULE,
	.rq_lock = swp_rq_lock,
	.rq_unlock = swp_rq_unlock,
	.stop_nowait = swp_stop_nowait,
	.migrate = swp_migrate,
};

static int __init swp_init(void)
{
	/* not converted by scripts/klp-relocs.py: calls to address 0 */
	if (!sw_klp_rq_lock_nested || !sw_klp_rq_unlock ||
	    !sw_klp_stop_one_cpu_nowait || !sw_klp_migration_cpu_stop) {
		pr_err("livepatch relocations missing: build with scripts/build-modules.sh (scripts/klp-relocs.py)\n");
		return -ENOEXEC;
	}
	return sw_pull_register(&swp_ops);
}

static void __exit swp_exit(void)
{
	sw_pull_unregister(&swp_ops);
}

module_init(swp_init);
module_exit(swp_exit);
MODULE_INFO(livepatch, "Y");

#else	/* 7.x, arm64: the stub a packaged build installs */

static int __init swp_init(void)
{
#ifndef CONFIG_X86_64
	pr_err("not on this kernel: its livepatch-format direct calls are made for x86-64 only, so sib_pull cannot be done here (Documentation/usage.md)\n");
#else
	pr_err("not on this kernel: raw_spin_rq_unlock() is inline here or stop_one_cpu_nowait() does not say whether it queued, so sib_pull cannot be done (Documentation/usage.md)\n");
#endif
	return -EOPNOTSUPP;
}
module_init(swp_init);

#endif

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("smartwake: the sched-idle pull's direct calls into the scheduler");
