// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake bpf: the built-in test programs, hand-assembled (no compiler
 * on the guests): each returns a fixed kind of answer that guest/bpf.sh
 * compares with the module's counters. A kfunc call names its kfunc by
 * index (SW_CALL_KFUNC(i): kfuncs[i]); bpf_load.c resolves it in the
 * module's BTF.
 */
#include <string.h>

#include "bpf.h"

#define SW_INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define SW_MOV64_IMM(d, i)	SW_INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define SW_ADD64_IMM(d, i)	SW_INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define SW_XOR64_IMM(d, i)	SW_INSN(BPF_ALU64 | BPF_XOR | BPF_K, d, 0, 0, i)
/* dst = *(u64 *)(src + off) */
#define SW_LDX_DW(d, s, o)	SW_INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
/* if dst < imm (unsigned; signed: JSLT) goto pc + 1 + off */
#define SW_JLT_IMM(d, i, o)	SW_INSN(BPF_JMP | BPF_JLT | BPF_K, d, 0, o, i)
#define SW_JSLT_IMM(d, i, o)	SW_INSN(BPF_JMP | BPF_JSLT | BPF_K, d, 0, o, i)
#define SW_JEQ_IMM(d, i, o)	SW_INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define SW_EXIT()		SW_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define SW_CALL_KFUNC(i)	SW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, i)

/* return prev_cpu: ctx is the u64 array of the arguments */
static const struct bpf_insn prog_prev[] = {
	SW_LDX_DW(0, 1, 8),
	SW_EXIT(),
};

/* the third argument: wake_affine's this_cpu (a pull), select_idle's target */
static const struct bpf_insn prog_third[] = {
	SW_LDX_DW(0, 1, 16),
	SW_EXIT(),
};

/* return -1: the module's own path decides */
static const struct bpf_insn prog_decline[] = {
	SW_MOV64_IMM(0, -1),
	SW_EXIT(),
};

/* an invalid CPU: the module must refuse it */
static const struct bpf_insn prog_bad[] = {
	SW_MOV64_IMM(0, 1048576),
	SW_EXIT(),
};

/* the module's own answer (kfunc smartwake_default_cpu()) */
static const char *const kf_default[] = { "smartwake_default_cpu" };
static const struct bpf_insn prog_default[] = {
	SW_CALL_KFUNC(0),
	SW_EXIT(),
};

/* ask for the module's answer, then decline: it must not run twice */
static const char *const kf_peek[] = { "smartwake_default_cpu" };
static const struct bpf_insn prog_peek[] = {
	SW_CALL_KFUNC(0),
	SW_MOV64_IMM(0, -1),
	SW_EXIT(),
};

/* the module's answer with its lowest bit flipped: another CPU */
static const char *const kf_other[] = { "smartwake_default_cpu" };
static const struct bpf_insn prog_other[] = {
	SW_CALL_KFUNC(0),
	SW_JSLT_IMM(0, 0, 1),		/* no answer: leave it */
	SW_XOR64_IMM(0, 1),
	SW_EXIT(),
};

/* the next SMT sibling of prev_cpu (prev itself without SMT) */
static const char *const kf_sibling[] = { "smartwake_cpu_smt_next" };
static const struct bpf_insn prog_sibling[] = {
	SW_LDX_DW(1, 1, 8),
	SW_CALL_KFUNC(0),
	SW_EXIT(),
};

/* prev_cpu when the answer is used, -1 under policy=shadow */
static const char *const kf_shadowed[] = { "smartwake_shadowing" };
static const struct bpf_insn prog_shadowed[] = {
	SW_LDX_DW(6, 1, 8),		/* r6 = prev_cpu (kept across the call) */
	SW_CALL_KFUNC(0),
	SW_INSN(BPF_ALU64 | BPF_AND | BPF_K, 0, 0, 0, 0xff),	/* a bool: its low byte */
	SW_MOV64_IMM(7, -1),
	SW_JEQ_IMM(0, 0, 1),		/* not shadowing: prev_cpu */
	SW_INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 7, 0, 0),
	SW_INSN(BPF_ALU64 | BPF_MOV | BPF_X, 0, 6, 0, 0),
	SW_EXIT(),
};

/* 20000 rounds of a bounded loop, then -1 */
static const struct bpf_insn prog_slow[] = {
	SW_MOV64_IMM(0, 0),
	SW_ADD64_IMM(0, 1),		/* 1: */
	SW_JLT_IMM(0, 20000, -2),	/* if r0 < 20000 goto 1 */
	SW_MOV64_IMM(0, -1),
	SW_EXIT(),
};

#define BUILTIN(n, d) { #n, d, prog_##n, ARRAY_SIZE(prog_##n), NULL, 0 }
#define BUILTIN_KF(n, d) \
	{ #n, d, prog_##n, ARRAY_SIZE(prog_##n), kf_##n, ARRAY_SIZE(kf_##n) }

const struct builtin builtins[] = {
	BUILTIN(prev, "return prev_cpu: wake on the previous CPU"),
	BUILTIN(decline, "return -1: the module's own path decides"),
	BUILTIN(third, "return the third argument (wake_affine: this_cpu; select_idle: target)"),
	BUILTIN(bad, "return 1048576, an invalid CPU: the module must refuse it"),
	BUILTIN(slow, "a bounded loop of 20000 rounds, then -1 (its cost per call)"),
	BUILTIN_KF(default, "return smartwake_default_cpu(): the module's own answer"),
	BUILTIN_KF(other, "smartwake_default_cpu() ^ 1: never the module's CPU (a control)"),
	BUILTIN_KF(peek, "smartwake_default_cpu(), then -1: the module's answer, computed once"),
	BUILTIN_KF(sibling, "return smartwake_cpu_smt_next(prev_cpu): prev's SMT sibling"),
	BUILTIN_KF(shadowed, "prev_cpu, or -1 while smartwake_shadowing() (policy=shadow)"),
};

const unsigned int nr_builtins = ARRAY_SIZE(builtins);

const struct builtin *find_builtin(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_builtins; i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}
