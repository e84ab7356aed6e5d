// SPDX-License-Identifier: GPL-2.0
/*
 * wake_wide() as Michael Wang's 2013 "smart wake-affine" proposed it, as a
 * smartwake BPF policy: the waker-only test. A wakeup is wide when the
 * wakee switches partners more often than the factor (the LLC's CPUs by
 * default) and the waker more than factor times as often as the wakee.
 * It decides as the module's knob wake_wide=v2013 does (guest/bpf.sh
 * compares them on every wakeup: bpf_wide_differ).
 *
 *   smartwake bpf load --obj wake_wide_v2013.bpf.o --section struct_ops/wake_wide
 *
 * The callback's context is the array of its u64 arguments:
 *   s32 wake_wide(struct task_struct *p, u32 waker_flips, u32 wakee_flips,
 *                 u32 factor)
 * Return: 0 affine, 1 wide (the waker is the 1:N master), 2 wide (the
 * wakee), negative: knob wake_wide decides.
 */
typedef unsigned int __u32;
typedef unsigned long long __u64;

#define SEC(name) __attribute__((section(name), used))

SEC("struct_ops/wake_wide")
int wake_wide_v2013(__u64 *ctx)
{
	__u32 waker = ctx[1], wakee = ctx[2], factor = ctx[3];
	__u64 f = factor ? factor : 1;

	if (wakee > f && waker > f * wakee)
		return 1;
	return 0;
}

char _license[] SEC("license") = "GPL";
