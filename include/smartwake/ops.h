/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The struct_ops type of policy=bpf, one definition for both sides: the
 * module (module/path/bpf.c, with <linux/types.h>) and the programs
 * (smartwake.bpf.h, after vmlinux.h), so the two cannot drift.
 */
#ifndef _SMARTWAKE_OPS_H
#define _SMARTWAKE_OPS_H

struct task_struct;

/**
 * struct smartwake_ops - a BPF placement policy (policy=bpf)
 * @select_cpu: the CPU for a wakeup of @p, whose last CPU is @prev_cpu,
 *              with the kernel's WF_* @wake_flags; negative: the module's
 *              path decides
 * @wake_wide:  wake_wide() for @p from @waker_flips, @wakee_flips and
 *              @factor: 0 no, 1 wide (waker master), 2 wide (wakee
 *              master); negative: knob wake_wide decides
 * @wake_affine: wake_affine()'s choice for @p between @prev_cpu and the
 *              waking @this_cpu (@sync: WF_SYNC as knob sync takes it):
 *              the target CPU the idle scan starts from; negative: the
 *              knobs decide
 * @select_idle: select_idle_sibling() for @p around @target: the CPU;
 *              negative: the module's scan (knobs sis_*)
 *
 * The ABI of the programs: members are appended, never reordered.
 */
struct smartwake_ops {
	s32 (*select_cpu)(struct task_struct *p, s32 prev_cpu, u64 wake_flags);
	s32 (*wake_wide)(struct task_struct *p, u32 waker_flips,
			 u32 wakee_flips, u32 factor);
	s32 (*wake_affine)(struct task_struct *p, s32 prev_cpu, s32 this_cpu,
			   u32 sync);
	s32 (*select_idle)(struct task_struct *p, s32 prev_cpu, s32 target);
};

#endif /* _SMARTWAKE_OPS_H */
