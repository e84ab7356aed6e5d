#!/usr/bin/env bash
# Feature tests of a target kernel tree, in the style of OpenZFS's kernel
# configure checks: each test is a few lines of C compiled by kbuild
# against the target's headers and source; what compiles is what the tree
# has. The result is a header of SW_HAVE_* macros that module/Kbuild puts
# in front of every module file (module/compat.h uses them;
# Documentation/design.md, "The files in detail", documents each macro).
# Decisions are taken by what the tree has, never by its version number.
#
# Usage: scripts/conftest.sh KDIR KSRC OUT [MAKE-ARGS...]
#   KDIR       the kernel build (headers) directory
#   KSRC       its source (for kernel/sched/sched.h)
#   OUT        the header to write (e.g. module/sw_config.h)
#   MAKE-ARGS  extra make arguments of the module build (CC=..., the same
#              compiler the module is built with)
# The header is kept when its key (trees, arguments, this script) has not
# changed; all tests run in one kbuild invocation (make -k).
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
[ $# -ge 3 ] || sw_die "usage: scripts/conftest.sh KDIR KSRC OUT [MAKE-ARGS...]"
kdir=$(realpath "$1") ksrc=$(realpath "$2") out=$3
shift 3
[ -f "$kdir/Makefile" ] || sw_die "conftest: no kernel build tree at $kdir"
[ -f "$ksrc/kernel/sched/sched.h" ] || sw_die "conftest: no kernel/sched/sched.h under $ksrc"

key=$(printf '%s\n' "$kdir" "$ksrc" "$*" | cat - "$0" | sha256sum | cut -c1-16)
if [ -f "$out" ] && grep -q "conftest key $key" "$out"; then
	exit 0
fi

# The tests: NAME, then the includes and the body of a function, one
# heredoc each. The prelude is what the module's files include before the
# scheduler's private sched.h (module/ksched.h), and stop_machine.h, which
# the private sched.h includes but not the headers-only one (pull.c).
prelude='#include <linux/bpf.h>
#include <linux/mmu_context.h>
#include <linux/sched/cputime.h>
#include <linux/ftrace.h>
#include <linux/objtool.h>
#include <linux/stop_machine.h>
#include "sched.h"'
declare -A tests
tests[BASE]='(void)0;'
# cfs_rq counts delayed-dequeue entities apart (6.12.37+: h_nr_queued,
# h_nr_runnable); older trees have h_nr_running, some h_nr_delayed.
tests[CFS_H_NR_QUEUED]='struct cfs_rq *c = NULL; (void)c->h_nr_queued; (void)c->h_nr_runnable;'
tests[CFS_H_NR_DELAYED]='struct cfs_rq *c = NULL; (void)c->h_nr_delayed;'
tests[CFS_IDLE_H_NR_RUNNING]='struct cfs_rq *c = NULL; (void)c->idle_h_nr_running;'
# ... renamed h_nr_idle (6.14+)
tests[CFS_H_NR_IDLE]='struct cfs_rq *c = NULL; (void)c->h_nr_idle;'
# struct sched_domain's trailing span[] (gone in 7.x: the mask follows the
# struct, sched_domain_span() does the arithmetic)
tests[SD_SPAN]='struct sched_domain *sd = NULL; (void)sd->span;'
tests[WF_CURRENT_CPU]='int f = WF_CURRENT_CPU; (void)f;'
# Cluster scheduling in select_idle_sibling(): SD_CLUSTER, the
# sched_cluster_active key, the per-CPU sd_share_id.
tests[SD_CLUSTER]='int f = SD_CLUSTER; (void)f;'
tests[SCHED_CLUSTER_ACTIVE]='(void)&sched_cluster_active;'
tests[SD_SHARE_ID]='(void)&sd_share_id;'
# SIS_PROP (the scan-cost limit before SIS_UTIL, default off).
tests[SCHED_FEAT_SIS_PROP]='int f = __SCHED_FEAT_SIS_PROP; (void)f;'
# ftrace_regs accessors and the direct-call API.
tests[FTRACE_REGS_SET_IP]='ftrace_regs_set_instruction_pointer((struct ftrace_regs *)NULL, 0);'
tests[FTRACE_REGS_GET_ARGUMENT]='(void)ftrace_regs_get_argument((struct ftrace_regs *)NULL, 0);'
tests[FTRACE_DIRECT_OPS]='int (*r)(struct ftrace_ops *, unsigned long) = register_ftrace_direct;
int (*u)(struct ftrace_ops *, unsigned long, bool) = unregister_ftrace_direct;
(void)r; (void)u;'
tests[FTRACE_DIRECT_MULTI]='int (*r)(struct ftrace_ops *, unsigned long) = register_ftrace_direct_multi;
int (*u)(struct ftrace_ops *, unsigned long) = unregister_ftrace_direct_multi;
(void)r; (void)u;'
# objtool's unwind hints: UNWIND_HINT(type, sp_reg, sp_offset, signal)
# where struct unwind_hint has "signal", (sp_reg, sp_offset, type, end)
# before.
tests[UNWIND_HINT_SIGNAL]='struct unwind_hint h = { .signal = 0 }; (void)h;'
# policy=bpf: the BPF core registers struct_ops types of modules (6.9+,
# with CONFIG_BPF_JIT and CONFIG_BPF_SYSCALL; else a stub that "succeeds").
tests[BPF_STRUCT_OPS]='int (*r)(struct bpf_struct_ops *) = __register_bpf_struct_ops;
struct bpf_struct_ops s = { .cfi_stubs = NULL, .owner = NULL };
(void)r; (void)s;'
# The sched-idle pull's companion (module/companion/): stop_one_cpu_nowait()
# says whether it queued the work (void and a warning in 7.3).
tests[STOP_NOWAIT_BOOL]='bool (*f)(unsigned int, cpu_stop_fn_t, void *, struct cpu_stop_work *) = stop_one_cpu_nowait;
(void)f;'

# Source tests: what fair.c's static code does, which no header shows. NAME
# is defined when FILE (under KSRC) has a line matching the extended
# regular expression. Built from the headers alone (KSRC is the stand-in
# tree of scripts/build-modules.sh --headers-only: no FILE, a
# sched_btf_gen.h), NAME is defined when the target's BTF has one of the
# functions of btftests[NAME] (tools/btfgen -f: static functions that came
# with the change, in the BTF where the kernel built one out of line;
# build-modules.sh asks btfgen for each). The headers-only make check
# steps diff both builds' SW_HAVE_* for every supported kernel.
declare -A srctests btftests
# A SCHED_IDLE wakee does not take a CPU that runs only SCHED_IDLE tasks
# for idle (7.x: choose_sched_idle_rq(), called by choose_idle_cpu(),
# which Debian's 7.2 keeps out of line).
srctests[SCHED_IDLE_WAKEE_EXCLUDED]='kernel/sched/fair.c|^static int choose_sched_idle_rq\('
btftests[SCHED_IDLE_WAKEE_EXCLUDED]='choose_sched_idle_rq choose_idle_cpu'
# raw_spin_rq_unlock() is a function a module can call (7.x: an inline
# that reads the unexported core-scheduling key): the sched-idle pull's
# companion needs it.
srctests[RQ_UNLOCK_CALL]='kernel/sched/core.c|^void raw_spin_rq_unlock\(struct rq \*rq\)'
btftests[RQ_UNLOCK_CALL]='raw_spin_rq_unlock'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objs=
for t in "${!tests[@]}"; do
	n=$(tr 'A-Z' 'a-z' <<<"$t")
	printf '%s\n\nvoid sw_conftest_%s(void);\nvoid sw_conftest_%s(void)\n{\n%s\n}\n' \
		"$prelude" "$n" "$n" "${tests[$t]}" >"$tmp/$n.c"
	objs+=" $n.o"
done
printf 'ccflags-y += -I%s/kernel/sched -Werror\nobj-m += %s\n' "$ksrc" "$objs" >"$tmp/Kbuild"
make -k -C "$kdir" M="$tmp" "$@" $objs >"$tmp/make.log" 2>&1 || true
[ -f "$tmp/base.o" ] || {
	cat "$tmp/make.log" >&2
	sw_die "conftest: the empty test did not compile against $kdir (log above)"
}

{
	printf '/* SPDX-License-Identifier: GPL-2.0 */\n'
	printf '/* Generated by scripts/conftest.sh: do not edit (conftest key %s) */\n' "$key"
	printf '/* kernel build %s, source %s */\n' "$kdir" "$ksrc"
	printf '#ifndef _SMARTWAKE_SW_CONFIG_H\n#define _SMARTWAKE_SW_CONFIG_H\n'
	for t in $(printf '%s\n' "${!tests[@]}" "${!srctests[@]}" | sort); do
		[ "$t" = BASE ] && continue
		n=$(tr 'A-Z' 'a-z' <<<"$t")
		if [ -n "${srctests[$t]:-}" ]; then
			f=$ksrc/${srctests[$t]%%|*} have=0
			if [ -f "$f" ]; then
				! grep -Eq "${srctests[$t]#*|}" "$f" || have=1
			elif [ -f "$ksrc/sched_btf_gen.h" ]; then
				for b in ${btftests[$t]:-}; do
					! grep -qx "#define SW_BTF_FUNC_$b 1" "$ksrc/sched_btf_gen.h" || have=1
				done
			else
				sw_die "conftest: neither $f nor $ksrc/sched_btf_gen.h"
			fi
			if [ "$have" -eq 1 ]; then
				printf '#define SW_HAVE_%s 1\n' "$t"
			else
				printf '/* #undef SW_HAVE_%s */\n' "$t"
			fi
		elif [ -f "$tmp/$n.o" ]; then
			printf '#define SW_HAVE_%s 1\n' "$t"
		else
			printf '/* #undef SW_HAVE_%s */\n' "$t"
		fi
	done
	printf '#endif\n'
} >"$out.tmp"
mv "$out.tmp" "$out"
sw_log "conftest: $(grep -c '^#define SW_HAVE' "$out") of $((${#tests[@]} + ${#srctests[@]} - 1)) features in $kdir -> $out"
