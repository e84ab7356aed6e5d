/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: policy=bpf, a placement policy in BPF (bpf.c).
 */
#ifndef _SMARTWAKE_BPF_H
#define _SMARTWAKE_BPF_H

#include <linux/jump_label.h>
#include <linux/limits.h>
#include <linux/types.h>

struct seq_file;
struct task_struct;

/* sw_bpf_select(): no answer, the module's own path decides */
#define SW_BPF_DECLINED		(-1)
/* sw_bpf_select(): no program (detached meanwhile), the kernel decides */
#define SW_BPF_NONE		(-2)
/* struct sw_wake_ctx's bpf_default: no program asked for it yet */
#define SW_BPF_NO_DEFAULT	INT_MIN

/*
 * On while a program is attached (bpf.c): without one the path never
 * reads the per-wakeup program flag (struct sw_wake_ctx's bpf).
 */
DECLARE_STATIC_KEY_FALSE(sw_bpf_key);

static inline bool sw_bpf_on(void)
{
	return static_branch_unlikely(&sw_bpf_key);
}

/* the callbacks of struct smartwake_ops, in its order */
enum sw_bpf_cb_id {
	SW_BPF_SELECT_CPU,
	SW_BPF_WAKE_WIDE,
	SW_BPF_WAKE_AFFINE,
	SW_BPF_SELECT_IDLE,
	SW_BPF_NR_CBS
};

void sw_bpf_refuse(enum sw_bpf_cb_id cb);	/* an invalid answer of @cb */
void sw_bpf_register(void);		/* at load: the struct_ops type */
int sw_bpf_policy_check(void);		/* may policy=bpf be set now */
int sw_bpf_select(struct task_struct *p, int prev_cpu, int wake_flags);
int sw_bpf_wake_wide(struct task_struct *p, unsigned int waker_flips,
		     unsigned int wakee_flips, unsigned int factor, int wide);
int sw_bpf_wake_affine(struct task_struct *p, int prev_cpu, int this_cpu,
		       bool sync);
int sw_bpf_select_idle(struct task_struct *p, int prev_cpu, int target);
bool sw_bpf_attached(void);		/* a program is attached */
void sw_bpf_show_status(struct seq_file *m);	/* the "bpf" file */
void sw_bpf_show_stats(struct seq_file *m);	/* derived stats lines */
/* bpf_view.c: the scheduler reads behind bpf.c's kfuncs, valid CPU ids */
bool sw_bpf_view_idle(int cpu);
bool sw_bpf_view_sched_idle(int cpu);
bool sw_bpf_view_overloaded(int cpu);
int sw_bpf_view_llc(int cpu);
bool sw_bpf_view_allowed(struct task_struct *p, int cpu);
u32 sw_bpf_view_flips(struct task_struct *p);

#endif /* _SMARTWAKE_BPF_H */
