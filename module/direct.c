// SPDX-License-Identifier: GPL-2.0
/*
 * select_task_rq_fair() by a direct ftrace call (knob select_hook=direct).
 *
 * The ftrace-ops redirect (hooks.c) goes through ftrace's generic
 * trampoline: every register saved into a struct ftrace_regs, the ops
 * callback called through a pointer, the instruction pointer rewritten.
 * A direct call makes the traced function's fentry site call this file's
 * trampoline instead, as samples/ftrace/ftrace-direct.c and the BPF
 * trampoline do. The trampoline saves the argument registers, asks
 * sw_select_direct() and then either
 *  - returns into select_task_rq_fair() with the arguments restored (the
 *    kernel decides: knobs say so, fork/exec balancing, an unmodelled case,
 *    an answer the module discarded, or a call made by this module), or
 *  - drops the return address into select_task_rq_fair() and returns the
 *    module's CPU to its caller, skipping the kernel's function, as the
 *    BPF trampoline does for fmod_ret programs.
 * So a wakeup handed back to the kernel crosses one trampoline, and never
 * re-enters it from the module.
 *
 * Only where the kernel has DYNAMIC_FTRACE_WITH_DIRECT_CALLS, on x86-64.
 * register_ftrace_direct() refuses a function another ops modifies
 * (livepatch: -EBUSY), as register_ftrace_function() does for IPMODIFY.
 *
 * The trampoline is called by a direct call (or by ftrace's return-based
 * jump when other ftrace users trace the same function): its ENDBR64 is
 * for objtool and costs nothing. The answer path unbalances the return
 * stack predictor by one entry (and call-depth accounting under
 * retbleed=stuff), as the BPF trampoline's skip does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/linkage.h>
#include <linux/module.h>
#include <linux/objtool.h>
#include "hooks.h"
#include "wake.h"

#ifdef SW_HAVE_DIRECT
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/orc_types.h>

/* Trees without call-depth tracking (6.1) have no accounting to do. */
#ifndef CALL_DEPTH_ACCOUNT
#define CALL_DEPTH_ACCOUNT ""
#endif
/* "a function's frame, CFA at %rsp + 8", in the tree's argument order */
#ifdef SW_HAVE_UNWIND_HINT_SIGNAL
#define SW_UNWIND_HINT_FUNC	UNWIND_HINT(UNWIND_HINT_TYPE_FUNC, ORC_REG_SP, 8, 0)
#else
#define SW_UNWIND_HINT_FUNC	UNWIND_HINT(ORC_REG_SP, 8, UNWIND_HINT_TYPE_FUNC, 0)
#endif

/**
 * sw_select_direct() - the direct trampoline's question
 * @p:          select_task_rq_fair()'s first argument
 * @prev_cpu:   its second
 * @wake_flags: its third
 * @parent_ip:  where select_task_rq_fair() returns to
 *
 * Called from sw_select_tramp with preemption and interrupts disabled
 * (every caller of select_task_rq_fair() holds p->pi_lock).
 *
 * Return: the CPU the module places @p on, or a negative value to let
 * select_task_rq_fair() run.
 */
int notrace sw_select_direct(struct task_struct *p, int prev_cpu,
			     int wake_flags, unsigned long parent_ip)
{
	if (sw_from_module(parent_ip))
		return -1;		/* the module asking the kernel */
	if (!sw_select_wanted_args(p, prev_cpu, wake_flags))
		return -1;
	return sw_select_decide(p, prev_cpu, wake_flags);
}

/*
 * On entry: 0(%rsp) returns into select_task_rq_fair() after its fentry
 * call, 8(%rsp) into its caller. Seven argument and scratch registers are
 * saved (the rest are callee-saved in the C ABI), which also keeps the
 * stack 16-byte aligned at the call.
 */
asm("	.pushsection	.text, \"ax\", @progbits\n"
"	.type		sw_select_tramp, @function\n"
"	.globl		sw_select_tramp\n"
"sw_select_tramp:\n"
	ASM_ENDBR
"	pushq	%rbp\n"
"	movq	%rsp, %rbp\n"
	CALL_DEPTH_ACCOUNT
"	pushq	%rdi\n"
"	pushq	%rsi\n"
"	pushq	%rdx\n"
"	pushq	%rcx\n"
"	pushq	%r8\n"
"	pushq	%r9\n"
"	pushq	%rax\n"
"	movq	16(%rbp), %rcx\n"
"	call	sw_select_direct\n"
"	testl	%eax, %eax\n"
"	js	1f\n"
"	leave\n"
"	addq	$8, %rsp\n"
	SW_UNWIND_HINT_FUNC
	ASM_RET
"1:	popq	%rax\n"
"	popq	%r9\n"
"	popq	%r8\n"
"	popq	%rcx\n"
"	popq	%rdx\n"
"	popq	%rsi\n"
"	popq	%rdi\n"
"	leave\n"
	ASM_RET
"	.size		sw_select_tramp, .-sw_select_tramp\n"
"	.popsection\n"
);
#endif /* SW_HAVE_DIRECT */
