// SPDX-License-Identifier: GPL-2.0
/*
 * A policy the verifier refuses, for guest/bpf.sh: it uses a map lookup's
 * result without testing it against NULL. "smartwake bpf load" must print
 * the verifier's lines and the fix, and attach nothing. A hash map: the
 * verifiers of 6.17 and later know an array lookup with a constant key in
 * bounds is never NULL, and take that (7.3 did).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <smartwake/smartwake.bpf.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} counts SEC(".maps");

s32 SMARTWAKE_OPS(unchecked_lookup, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	u32 zero = 0;
	u64 *n = bpf_map_lookup_elem(&counts, &zero);

	(*n)++;		/* the bug: n may be NULL */
	return SMARTWAKE_DECLINE;
}

SMARTWAKE_OPS_DEFINE(unchecked_lookup_ops,
	.select_cpu = (void *)unchecked_lookup,
);

char _license[] SEC("license") = "GPL";
