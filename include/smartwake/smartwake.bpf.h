/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake.bpf.h: for BPF placement policies (policy=bpf), in the style of
 * sched_ext's common.bpf.h. Include it after vmlinux.h ("smartwake bpf
 * vmlinux" writes one) and libbpf's bpf_helpers.h:
 *
 *	#include "vmlinux.h"
 *	#include <bpf/bpf_helpers.h>
 *	#include <bpf/bpf_tracing.h>
 *	#include <bpf/bpf_core_read.h>
 *	#include <smartwake/smartwake.bpf.h>
 *
 * Documentation/usage.md, "Write your own placement policy", has the
 * workflow; module/path/bpf.c is the kernel side.
 */
#ifndef __SMARTWAKE_BPF_H
#define __SMARTWAKE_BPF_H

/* The version of the ops and kfuncs below: members are only appended. */
#define SMARTWAKE_OPS_VERSION	2

/* What a callback returns to leave the decision to the module's knobs. */
#define SMARTWAKE_DECLINE	(-1)

/* wake_wide(): its verdicts */
enum smartwake_wide {
	SMARTWAKE_WIDE_NO = 0,		/* affine: consider the waker's CPU */
	SMARTWAKE_WIDE_WAKER = 1,	/* wide, the waker is the 1:N master */
	SMARTWAKE_WIDE_WAKEE = 2,	/* wide, the wakee is */
};

/* The kernel's wake flags (kernel/sched/sched.h) a select_cpu sees. */
#define SMARTWAKE_WF_EXEC	0x02
#define SMARTWAKE_WF_FORK	0x04
#define SMARTWAKE_WF_TTWU	0x08
#define SMARTWAKE_WF_SYNC	0x10
#define SMARTWAKE_WF_MIGRATED	0x20

/*
 * The module's struct_ops type. A vmlinux.h written with the module's
 * types ("smartwake bpf vmlinux" while it is loaded) has it already and
 * defines SMARTWAKE_VMLINUX_HAS_OPS; the layouts are the same.
 */
#ifndef SMARTWAKE_VMLINUX_HAS_OPS
#include "ops.h"
#endif

/*
 * The kfuncs (module/path/bpf.c). Version 1 is in every module that registers
 * the type; later ones are __weak: test them with bpf_ksym_exists().
 */
bool smartwake_cpu_idle(s32 cpu) __ksym;
bool smartwake_cpu_sched_idle(s32 cpu) __ksym;
bool smartwake_cpu_overloaded(s32 cpu) __ksym;
s32 smartwake_cpu_llc(s32 cpu) __ksym;
s32 smartwake_cpu_node(s32 cpu) __ksym;
s32 smartwake_cpu_smt_next(s32 cpu) __ksym;
bool smartwake_task_allowed(struct task_struct *p, s32 cpu) __ksym;
u32 smartwake_task_wakee_flips(struct task_struct *p) __ksym;
s32 smartwake_default_cpu(void) __ksym;
/* version 2: true while policy=shadow evaluates the program (answer unused) */
bool smartwake_shadowing(void) __ksym __weak;

/*
 * smartwake_shadowing() where the module has it, else false (a module
 * without it never evaluates a program for shadow on its own).
 */
static __always_inline bool smartwake_answer_unused(void)
{
	return bpf_ksym_exists(smartwake_shadowing) && smartwake_shadowing();
}

/*
 * SMARTWAKE_OPS(name, args...): a callback, its arguments typed as the ops
 * declare them (libbpf's BPF_PROG over the u64 context array).
 */
#define SMARTWAKE_OPS(name, args...)					\
	SEC("struct_ops/" #name) BPF_PROG(name, ##args)

/*
 * SMARTWAKE_OPS_DEFINE(var, ...): the map that attaches them, one per
 * object; .struct_ops.link makes "smartwake bpf load" pin a link.
 */
#define SMARTWAKE_OPS_DEFINE(var, ...)					\
	SEC(".struct_ops.link") struct smartwake_ops var = { __VA_ARGS__ }

#endif /* __SMARTWAKE_BPF_H */
