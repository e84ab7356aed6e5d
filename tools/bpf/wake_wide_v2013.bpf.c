// SPDX-License-Identifier: GPL-2.0
/*
 * wake_wide() as Michael Wang's 2013 "smart wake-affine" proposed it, as a
 * smartwake BPF policy: the waker-only test. A wakeup is wide when the
 * wakee switches partners more often than the factor (the LLC's CPUs by
 * default) and the waker more than factor times as often as the wakee.
 * It decides as the module's knob wake_wide=v2013 does (guest/bpf.sh
 * compares them on every wakeup: bpf_wide_differ).
 *
 *   smartwake bpf load wake_wide_v2013.bpf.o
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <smartwake/smartwake.bpf.h>

s32 SMARTWAKE_OPS(wake_wide_v2013, struct task_struct *p, u32 waker,
		  u32 wakee, u32 factor)
{
	u64 f = factor ? factor : 1;

	if (wakee > f && waker > f * wakee)
		return SMARTWAKE_WIDE_WAKER;
	return SMARTWAKE_WIDE_NO;
}

SMARTWAKE_OPS_DEFINE(wake_wide_v2013_ops,
	.wake_wide = (void *)wake_wide_v2013,
);

char _license[] SEC("license") = "GPL";
