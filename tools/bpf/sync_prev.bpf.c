// SPDX-License-Identifier: GPL-2.0
/*
 * An idea the module's knobs cannot express, as a smartwake BPF policy: a
 * synchronous wakeup (WF_SYNC: the waker is about to sleep, as a pipe or
 * socket reply says) goes back to the wakee's previous CPU, where its cache
 * is, instead of being pulled to the waker's (knob sync) or searched for;
 * every other wakeup is left to the module's path (return -1).
 *
 *   smartwake bpf load --obj sync_prev.bpf.o --section struct_ops/select_cpu
 *
 * The callback's context is the array of its u64 arguments:
 *   s32 select_cpu(struct task_struct *p, s32 prev_cpu, u64 wake_flags)
 */
typedef unsigned long long __u64;

#define SEC(name) __attribute__((section(name), used))
/* kernel/sched/sched.h */
#define WF_SYNC 0x10

SEC("struct_ops/select_cpu")
int sync_prev(__u64 *ctx)
{
	if (ctx[2] & WF_SYNC)
		return (int)ctx[1];
	return -1;
}

char _license[] SEC("license") = "GPL";
