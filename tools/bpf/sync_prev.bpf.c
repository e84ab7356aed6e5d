// SPDX-License-Identifier: GPL-2.0
/*
 * An idea the module's knobs cannot express, as a smartwake BPF policy: a
 * synchronous wakeup (WF_SYNC: the waker is about to sleep, as a pipe or
 * socket reply says) goes back to the wakee's previous CPU, where its cache
 * is, instead of being pulled to the waker's (knob sync) or searched for;
 * every other wakeup is left to the module's path.
 *
 *   smartwake bpf load sync_prev.bpf.o
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <smartwake/smartwake.bpf.h>

s32 SMARTWAKE_OPS(sync_prev, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	if (wake_flags & SMARTWAKE_WF_SYNC)
		return prev_cpu;
	return SMARTWAKE_DECLINE;
}

SMARTWAKE_OPS_DEFINE(sync_prev_ops,
	.select_cpu = (void *)sync_prev,
);

char _license[] SEC("license") = "GPL";
