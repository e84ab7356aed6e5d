/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: what the companion module smartwake_pull.ko (module/companion/)
 * gives the main module's sched-idle pull (pull.c). Shared by both.
 *
 * Each entry is a function of the companion that makes a direct call to a
 * scheduler function a module cannot call through a pointer on an IBT
 * kernel (its ENDBR64 is sealed, or it is not exported). pull.c calls the
 * entries through this table, so each begins with ENDBR64 (the companion
 * takes their addresses); sw_pull_register() checks that.
 */
#ifndef _SMARTWAKE_PULL_OPS_H
#define _SMARTWAKE_PULL_OPS_H

#include <linux/stop_machine.h>
#include <linux/types.h>

struct module;
struct rq;

/* bumped when struct sw_pull_ops changes: a stale companion is refused */
#define SW_PULL_OPS_VERSION	1

/**
 * struct sw_pull_ops - the companion's entry points
 * @version:     %SW_PULL_OPS_VERSION of the companion's build
 * @owner:       the companion (THIS_MODULE), held while sib_pull=1
 * @rq_lock:     raw_spin_rq_lock_nested(rq, 0); interrupts already off
 * @rq_unlock:   raw_spin_rq_unlock(rq)
 * @stop_nowait: stop_one_cpu_nowait(): @fn on @cpu's stopper
 * @migrate:     the kernel's migration_cpu_stop(), on the task's CPU's
 *               stopper, with a struct migration_arg
 */
struct sw_pull_ops {
	unsigned int version;
	struct module *owner;
	void (*rq_lock)(struct rq *rq);
	void (*rq_unlock)(struct rq *rq);
	bool (*stop_nowait)(unsigned int cpu, cpu_stop_fn_t fn, void *arg,
			    struct cpu_stop_work *work);
	int (*migrate)(void *migration_arg);
};

int sw_pull_register(const struct sw_pull_ops *ops);
void sw_pull_unregister(const struct sw_pull_ops *ops);

#endif /* _SMARTWAKE_PULL_OPS_H */
