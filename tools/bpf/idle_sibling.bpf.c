// SPDX-License-Identifier: GPL-2.0
/*
 * An idea the module's knobs cannot express, as a smartwake BPF policy
 * that wraps the module's own decision: when the wakee's previous CPU is
 * busy but a thread of the same core is idle, wake it there (its L1 and
 * L2 are prev's), before the module looks anywhere else; otherwise the
 * module's answer (kfunc smartwake_default_cpu(), knobs as set).
 *
 *   smartwake bpf load --obj idle_sibling.bpf.o --section struct_ops/select_cpu
 *
 * The callback's context is the array of its u64 arguments:
 *   s32 select_cpu(struct task_struct *p, s32 prev_cpu, u64 wake_flags)
 * The kfuncs are the module's (Documentation/usage.md); the loader
 * resolves these extern declarations against its BTF.
 */
typedef unsigned long long __u64;
typedef int __s32;
typedef _Bool bool;
struct task_struct;

#define SEC(name) __attribute__((section(name), used))
#define __ksym __attribute__((section(".ksyms")))
#define MAX_SMT 8	/* threads per core the loop visits at most */

extern bool smartwake_cpu_idle(__s32 cpu) __ksym;
extern __s32 smartwake_cpu_smt_next(__s32 cpu) __ksym;
extern bool smartwake_task_allowed(struct task_struct *p, __s32 cpu) __ksym;
extern __s32 smartwake_default_cpu(void) __ksym;

SEC("struct_ops/select_cpu")
int idle_sibling(__u64 *ctx)
{
	struct task_struct *p = (struct task_struct *)ctx[0];
	__s32 prev = ctx[1], cpu = prev;
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

char _license[] SEC("license") = "GPL";
