// SPDX-License-Identifier: GPL-2.0
/*
 * An idea the module's knobs cannot express, as a smartwake BPF policy
 * that wraps the module's own decision: when the wakee's previous CPU is
 * busy but a thread of the same core is idle, wake it there (its L1 and
 * L2 are prev's), before the module looks anywhere else; otherwise the
 * module's answer (kfunc smartwake_default_cpu(), knobs as set).
 *
 *   smartwake bpf load idle_sibling.bpf.o
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <smartwake/smartwake.bpf.h>

#define MAX_SMT 8	/* threads per core the loop visits at most */

s32 SMARTWAKE_OPS(idle_sibling, struct task_struct *p, s32 prev, u64 wake_flags)
{
	s32 cpu = prev;
	int i;

	if (smartwake_cpu_idle(prev))
		return smartwake_default_cpu();
	for (i = 0; i < MAX_SMT; i++) {
		cpu = smartwake_cpu_smt_next(cpu);
		if (cpu < 0 || cpu == prev)
			break;
		if (smartwake_cpu_idle(cpu) && smartwake_task_allowed(p, cpu))
			return cpu;
	}
	return smartwake_default_cpu();
}

SMARTWAKE_OPS_DEFINE(idle_sibling_ops,
	.select_cpu = (void *)idle_sibling,
);

char _license[] SEC("license") = "GPL";
