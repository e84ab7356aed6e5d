#!/usr/bin/env bash
# Tests of the smartwake CLI (tools/smartwake).
#
# Usage: scripts/cli-test.sh              host tests on a fake debugfs tree
#        scripts/cli-test.sh --guest [GUEST-RUN OPTIONS]
#                                         guest/cli.sh against the real module
#                                         (smp2 guest), then its "stats --json"
#                                         output parsed by python3 on the host
#
# The host tests point SMARTWAKE_DEBUGFS and SMARTWAKE_SCHED_FEATURES at a
# temporary directory that imitates the module's files (knobs listing, one
# file per knob, stats, hooks, reset) and the sched features file. They
# cover argument handling, help, exit codes, error messages, stats --json,
# set's all-or-nothing behaviour and ab; and, with SMARTWAKE_PARAMS and
# SMARTWAKE_LOCKDOWN, the lockdown fallback: knobs written to a fake
# parameters directory when the lockdown file says integrity or
# confidentiality, or when a debugfs knob file refuses a write with EPERM
# (an immutable file, chattr +i). Prints "N passed, N failed"; exits
# non-zero on any failure.
. "$(dirname "$0")/common.sh"
set +e

case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
esac

make -s -C "$SW_TOP/tools" smartwake >/dev/null || sw_die "cannot build tools/smartwake"
SW=$SW_TOP/tools/smartwake
# shellcheck source=scripts/testlib.sh
. "$SW_TOP/scripts/testlib.sh"

# ---- guest mode -----------------------------------------------------------
if [ "${1:-}" = --guest ]; then
	shift
	log=$(mktemp "${TMPDIR:-/tmp}/smartwake-cli.XXXXXX")
	trap 'rm -f "$log" "$log.json"' EXIT
	"$SW_TOP/scripts/guest-run.sh" --topo smp2 --timeout 600 "$@" cli.sh | tee "$log"
	rc=${PIPESTATUS[0]}
	check "guest/cli.sh passed (exit $rc)" [ "$rc" -eq 0 ]
	sed -n '/^SMARTWAKE-JSON-BEGIN$/,/^SMARTWAKE-JSON-END$/p' "$log" | sed '1d;$d' >"$log.json"
	check "guest stats --json output captured" [ -s "$log.json" ]
	check "guest stats --json parses with python3 -m json.tool" \
		eval 'python3 -m json.tool "$log.json" >/dev/null'
	check "guest stats --json: select_calls is an integer, derived values numbers" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["select_calls"], int)
assert all(isinstance(v, (int, float)) for v in d.values())
' "$log.json"
	summary
	exit
fi

# ---- the fake tree ----------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-cli.XXXXXX")
# (an immutable file of the lockdown tests would stop rm)
trap 'chattr -R -i "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
D=$tmp/sw
F=$tmp/features
mkdir -p "$D"
# name|value|accepted|help
knobs_def='enabled|1|0..1|0: the hook calls straight through to the kernel; 1: normal
policy|stock|stock|smartwake|stock: kernel placement; smartwake: the module path
wake_wide|mainline|off|v2013|mainline|wake_wide test
ttwu_queue|stock|stock|lock|remote wakeups: stock or lock
factor|llc|llc|node|online|1..1024|wake_wide factor: LLC, node, online or N
sis_filter|0|0..1|2022 SIS filter
scope|all|all|/PATH|policy only for tasks in this cgroup v2 directory and below'
fresh_tree() {
	rm -rf "$D"
	mkdir -p "$D"
	echo "$knobs_def" | while IFS= read -r l; do
		n=${l%%|*} r=${l#*|}
		v=${r%%|*}
		echo "$v" >"$D/$n"
	done
	relist
	printf 'select_calls 100\npassthrough 5\nsis_calls 0\nsis_search_efficiency_pct 27.35\n' >"$D/stats"
	echo "select_task_rq_fair redirect on" >"$D/hooks"
	: >"$D/reset"
	echo "PLACE_LAG RUN_TO_PARITY TTWU_QUEUE NO_HRTICK WA_IDLE WA_BIAS" >"$F"
}
# relist: rewrite "knobs" from the knob files, as the module would show it
relist() {
	echo "$knobs_def" | while IFS= read -r l; do
		n=${l%%|*} r=${l#*|}
		r=${r#*|} help=${r##*|}
		acc=${r%|*}
		v=$(if [ -L "$D/$n" ]; then echo 1; else cat "$D/$n"; fi)
		printf '%-16s %s  [%s]  %s\n' "$n" "$v" "$acc" "$help"
	done >"$D/knobs"
}
snap() { (cd "$D" && for f in enabled policy wake_wide factor sis_filter; do
	printf '%s=%s ' "$f" "$(if [ -L $f ]; then echo link; else cat $f; fi)"; done
	# a plain file keeps only the last word written to it: the state of
	# TTWU_QUEUE is its last mention
	grep -oE '(NO_)?TTWU_QUEUE' "$F" | tail -n 1); }
# no parameters directory and no lockdown file until the lockdown tests
P=$tmp/params
export SMARTWAKE_DEBUGFS=$D SMARTWAKE_SCHED_FEATURES=$F SMARTWAKE_PARAMS=$P \
	SMARTWAKE_LOCKDOWN=$tmp/lockdown
# The machine the state record reads (status --machine, ab) and the
# kernel tunables sched:, sysctl: and cpufreq: settings write: a 4-CPU
# VM with SMT, two LLCs, two nodes, two cpufreq policies (the second
# without EPP), /sys/kernel/debug/sched/ with SCHED_CACHE's
# llc_balancing/ and cgroup_mode, and what the record leaves out (the
# debug dump, domains/, per-CPU fair_server/ directories).
M=$tmp/machine
fresh_machine() {
	local c p
	rm -rf "$M"
	mkdir -p "$M/sched/llc_balancing" "$M/sched/domains/cpu0" "$M/sched/fair_server/cpu0" \
		"$M/sys/kernel/sched_domain" "$M/cpu/smt" "$M/cpu/cpufreq" "$M/node"
	echo 1 >"$M/sched/llc_balancing/enabled"
	echo 20 >"$M/sched/llc_balancing/aggr_tolerance"
	echo concur >"$M/sched/cgroup_mode"
	echo 'none voluntary (full) lazy' >"$M/sched/preempt"
	echo 500000 >"$M/sched/migration_cost_ns"
	head -c 5000 /dev/zero | tr '\0' x >"$M/sched/debug"
	echo 1 >"$M/sched/domains/cpu0/flags"
	echo 50000000 >"$M/sched/fair_server/cpu0/runtime"
	echo 1 >"$M/sys/kernel/numa_balancing"
	echo 0 >"$M/sys/kernel/sched_schedstats"
	echo 1 >"$M/sys/kernel/sched_autogroup_enabled"
	echo 7 >"$M/sys/kernel/not_sched"
	echo 0-3 >"$M/cpu/online"
	echo 1 >"$M/cpu/smt/active"
	for c in 0 1 2 3; do
		mkdir -p "$M/cpu/cpu$c/cache/index3"
		echo $((c / 2 * 2))-$((c / 2 * 2 + 1)) >"$M/cpu/cpu$c/cache/index3/shared_cpu_list"
		echo 16384K >"$M/cpu/cpu$c/cache/index3/size"
	done
	for p in 0 1; do
		mkdir -p "$M/cpu/cpufreq/policy$p"
		echo schedutil >"$M/cpu/cpufreq/policy$p/scaling_governor"
		echo 'performance schedutil powersave' >"$M/cpu/cpufreq/policy$p/scaling_available_governors"
		echo 800000 >"$M/cpu/cpufreq/policy$p/scaling_min_freq"
		echo 3000000 >"$M/cpu/cpufreq/policy$p/scaling_max_freq"
	done
	echo balance_performance >"$M/cpu/cpufreq/policy0/energy_performance_preference"
	echo 'default performance balance_performance power' \
		>"$M/cpu/cpufreq/policy0/energy_performance_available_preferences"
	echo 1 >"$M/cpu/cpufreq/boost"
	echo 0-1 >"$M/node/online"
	echo 'BOOT_IMAGE=/vmlinuz root=/dev/vda isolcpus=2,3 mitigations=off' >"$M/cmdline"
	printf 'processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n' >"$M/cpuinfo"
	echo 'cpu  10 0 20 300 0 0 0 100 0 0' >"$M/stat"
	echo 'always [madvise] never' >"$M/thp"
}
export SMARTWAKE_SCHED_DEBUG=$M/sched SMARTWAKE_SYSCTL=$M/sys SMARTWAKE_CPU_SYSFS=$M/cpu \
	SMARTWAKE_NODE_SYSFS=$M/node SMARTWAKE_CMDLINE=$M/cmdline SMARTWAKE_CPUINFO=$M/cpuinfo \
	SMARTWAKE_PROC_STAT=$M/stat SMARTWAKE_THP=$M/thp SMARTWAKE_RELEASE=6.12.38+deb13-cloud-amd64
fresh_machine
out=$tmp/out
# run CMD...: stdout+stderr to $out, status in $rc
run() { "$@" >"$out" 2>&1; rc=$?; }
has() { grep -qE -- "$1" "$out"; }
fresh_tree

# ---- arguments, help, exit codes -------------------------------------------
for c in "--help" "help" "help status" "help set" "help stats" "help reset" "help ab" \
	"status --help" "set --help" "stats --help" "reset --help" "ab --help" "ab -h" \
	"help bpf" "bpf --help" "bpf load --help" "bpf -h"; do
	# shellcheck disable=SC2086
	run $SW $c
	check "smartwake $c: exit 0 with usage text" eval '[ $rc -eq 0 ] && has "^usage: smartwake"'
done
# every command of the main help's list (its command table) has its own
# help, the same from "help CMD" and "CMD --help"
cmds=$($SW --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
check "--help lists the 8 commands" [ "$cmds" = "$(printf '%s\n' status set stats reset latency bpf ab help)" ]
for c in $cmds; do
	[ "$c" = help ] && continue
	run $SW help "$c"
	cp "$out" "$out.help"
	check "help $c: its own usage" has "^usage: smartwake $c( |$)"
	run $SW "$c" --help
	check "$c --help: the same text as help $c" cmp -s "$out" "$out.help"
done
run $SW
check "no command: exit 2" [ $rc -eq 2 ]
run $SW frobnicate
check "unknown command: exit 2, named" eval '[ $rc -eq 2 ] && has "unknown command .frobnicate."'
run $SW help frobnicate
check "help for an unknown command: exit 2" [ $rc -eq 2 ]
for c in "stats --bogus" "stats extra" "stats --watch" "stats --watch 0" "stats --watch x" \
	"stats --count 2" "stats --watch 1 --count 0" "status extra" "reset extra" \
	"set" "set enabled" "set =1" "ab" "ab --a x=1" "ab --a enabled=1 --b enabled=0" \
	"ab --a= --b= --runs 0 -- true" "ab --a= --b= --runs x -- true" "ab --a= --a= -- true" \
	"ab --a= --b= --bogus -- true" "ab --a= --b= --metric ( -- true" \
	"ab --a= --b= --side nocolon -- true" "ab --a= --b= --side A:x=1 -- true" \
	"ab --a= --b= --timeout -1 -- true" \
	"bpf" "bpf frob" "bpf load" "bpf load nosuch" "bpf load prev extra" "bpf load --bogus prev" \
	"bpf load --obj x.o" "bpf load --section s" "bpf load --set a=1 prev" \
	"bpf load --callback select_cpu x.bpf.o" "bpf load --struct-ops t prev" \
	"bpf unload extra" "bpf status extra" "bpf stats extra" "bpf list extra" "bpf btf-id" \
	"bpf btf-id f" "bpf log extra" "bpf log --count 0" "bpf log --timeout x" \
	"bpf vmlinux extra" "bpf vmlinux --bogus"; do
	# shellcheck disable=SC2086
	run $SW $c
	check "smartwake $c: exit 2" [ $rc -eq 2 ]
done

# ---- bpf: built-ins, the BTF reader, ELF objects (nothing is loaded) ---------
run $SW bpf list
check "bpf list: the 10 built-ins" eval '[ $rc -eq 0 ] && [ "$(cut -d" " -f1 "$out" | tr "\n" " ")" = "prev decline third bad slow default other peek sibling shadowed " ]'
# the built-ins' encodings (as llvm-mc -triple bpfel -show-encoding has them)
run $SW bpf load --dry-run prev
check "bpf load --dry-run prev: r0 = *(u64 *)(r1 + 8); exit" \
	eval '[ $rc -eq 0 ] && [ "$(sed 1d "$out" | tr -d "\n")" = "   0: 79 10 08 00 00 00 00 00   1: 95 00 00 00 00 00 00 00" ]'
run $SW bpf load --dry-run slow
check "bpf load --dry-run slow: the loop's back jump, if r0 < 20000 goto -2" \
	eval '[ $rc -eq 0 ] && has "^   2: a5 00 fe ff 20 4e 00 00$"'
# A base BTF with one type of every kind (each kind's trailing data), then
# a split BTF over it: its ids start after the base's, its string offsets
# after the base's strings (a member name taken from the base's).
python3 - "$tmp/base.btf" "$tmp/split.btf" <<'PY'
import struct, sys
def blob(types, strs):
    h = struct.pack("<HBBIIIII", 0xeB9F, 1, 0, 24, 0, len(types), len(types), len(strs))
    return h + types + strs
class S:
    def __init__(s, start=0, text="\0"):
        s.start, s.b = start, text.encode() if start == 0 else b""
    def __call__(s, name):
        off = s.b.find(name.encode() + b"\0")
        if off < 0:
            off = len(s.b); s.b += name.encode() + b"\0"
        return s.start + off
def t(name, kind, vlen, st, kflag=0):
    return struct.pack("<III", name, kflag << 31 | kind << 24 | vlen, st)
bs = S()
bs("")
B = b""
B += t(bs("int"), 1, 0, 4) + struct.pack("<I", 32)                    # 1 int
B += t(0, 2, 0, 0)                                                    # 2 ptr void
B += t(0, 3, 0, 0) + struct.pack("<III", 1, 1, 4)                     # 3 array
B += t(bs("u"), 5, 2, 4) + struct.pack("<III", bs("a"), 1, 0) * 2     # 4 union
B += t(bs("e"), 6, 2, 4) + struct.pack("<Ii", bs("A"), 0) * 2         # 5 enum
B += t(bs("fw"), 7, 0, 0)                                             # 6 fwd
B += t(bs("td"), 8, 0, 1)                                             # 7 typedef
B += t(0, 9, 0, 1) + t(0, 10, 0, 1) + t(0, 11, 0, 2)                  # 8-10 volatile const restrict
B += t(0, 13, 2, 1) + struct.pack("<II", bs("p"), 2) + struct.pack("<II", bs("prev_cpu"), 1)  # 11 proto
B += t(bs("f"), 12, 0, 11)                                            # 12 func
B += t(bs("v"), 14, 0, 1) + struct.pack("<I", 1)                      # 13 var
B += t(bs(".data"), 15, 1, 4) + struct.pack("<III", 13, 0, 4)         # 14 datasec
B += t(bs("float"), 16, 0, 4)                                         # 15 float
B += t(bs("tag"), 17, 0, 13) + struct.pack("<i", -1)                  # 16 decl_tag
B += t(bs("tt"), 18, 0, 1)                                            # 17 type_tag
B += t(bs("e64"), 19, 1, 8) + struct.pack("<III", bs("B"), 1, 0)      # 18 enum64
B += t(0, 2, 0, 11)                                                   # 19 func ptr
B += t(bs("task_struct"), 4, 2, 8, 1) + struct.pack("<III", bs("x"), 1, 0) \
    + struct.pack("<III", bs("y"), 1, 8 << 24 | 32)                   # 20 struct, kind_flag
bs("select_cpu")
open(sys.argv[1], "wb").write(blob(B, bs.b))
ss = S(len(bs.b))
ss.b = b"\0"
T = b""
T += t(ss("smartwake_ops"), 4, 2, 16) + struct.pack("<III", bs("select_cpu"), 19, 0) \
    + struct.pack("<III", ss("other"), 22, 64)                        # 21
T += t(0, 2, 0, 11)                                                   # 22 ptr proto
T += t(ss("bpf_struct_ops_smartwake_ops"), 4, 2, 80) \
    + struct.pack("<III", ss("common"), 1, 0) + struct.pack("<III", ss("data"), 21, 512)  # 23
open(sys.argv[2], "wb").write(blob(T, ss.b))
PY
run $SW bpf btf-id "$tmp/base.btf" task_struct y
check "bpf btf-id: a type after one of every kind, a kind_flag member" \
	eval '[ $rc -eq 0 ] && has "^types 1..20$" && has "^struct task_struct id 20 size 8 members 2$" && has "^member y index 1 offset 4$"'
run $SW bpf btf-id "$tmp/base.btf" td
check "bpf btf-id: a typedef by name" eval '[ $rc -eq 0 ] && has "^typedef td id 7$"'
run $SW bpf btf-id --base "$tmp/base.btf" "$tmp/split.btf" smartwake_ops select_cpu
check "bpf btf-id, split BTF: ids after the base's, a member named from the base's strings" \
	eval '[ $rc -eq 0 ] && has "^types 21..23$" && has "^struct smartwake_ops id 21 size 16 members 2$" && has "^member select_cpu index 0 offset 0 func_ptr$"'
run $SW bpf btf-id --base "$tmp/base.btf" "$tmp/split.btf" smartwake_ops other
check "bpf btf-id, split BTF: second member, a function pointer" eval '[ $rc -eq 0 ] && has "^member other index 1 offset 8 func_ptr$"'
run $SW bpf btf-id --base "$tmp/base.btf" "$tmp/split.btf" bpf_struct_ops_smartwake_ops data
check "bpf btf-id, split BTF: the value type's data member" \
	eval '[ $rc -eq 0 ] && has "^struct bpf_struct_ops_smartwake_ops id 23 size 80 members 2$" && has "^member data index 1 offset 64$"'
run $SW bpf btf-id --base "$tmp/base.btf" "$tmp/split.btf" task_struct
check "bpf btf-id, split BTF: a base type is not the module's" eval '[ $rc -eq 1 ] && has "no type named .task_struct."'
head -c 100 "$tmp/base.btf" >"$tmp/short.btf"
run $SW bpf btf-id "$tmp/short.btf" int
check "bpf btf-id, truncated BTF: exit 1, explained" eval '[ $rc -eq 1 ] && has "past the end|truncated"'
printf '%064d' 0 >"$tmp/text.btf"
run $SW bpf btf-id "$tmp/text.btf" int
check "bpf btf-id, not BTF: exit 1, explained" eval '[ $rc -eq 1 ] && has "not BTF"'
if [ -r /sys/kernel/btf/vmlinux ]; then
	run $SW bpf btf-id /sys/kernel/btf/vmlinux tcp_congestion_ops cong_avoid
	check "bpf btf-id /sys/kernel/btf/vmlinux: tcp_congestion_ops.cong_avoid, a function pointer" \
		eval '[ $rc -eq 0 ] && has "^member cong_avoid index [0-9]+ offset [0-9]+ func_ptr$"'
else
	skip "no /sys/kernel/btf/vmlinux on this host"
fi
# the example policies (libbpf objects): opened, their variables set, no
# bpf(2) call with --dry-run
BPFO=$SW_TOP/tools/bpf
if make -s -C "$SW_TOP/tools" bpf/sticky.bpf.o >/dev/null 2>&1; then
	run $SW bpf load --dry-run "$BPFO/sticky.bpf.o"
	check "bpf load --dry-run FILE.bpf.o: its program, maps and link-type struct_ops map" \
		eval '[ $rc -eq 0 ] && has "^program sticky_select section struct_ops/sticky_select" && has "^map stats type percpu_array$" && has "^map sticky_ops type struct_ops \(link\)$"'
	run $SW bpf load --dry-run --set min_streak=7 --set verbose=true "$BPFO/sticky.bpf.o"
	check "bpf load --set: .rodata variables set by name (an int, a bool)" \
		eval '[ $rc -eq 0 ] && has "^set min_streak = 7$" && has "^set verbose = true$"'
	run $SW bpf load --dry-run --set nosuch=1 "$BPFO/sticky.bpf.o"
	check "bpf load --set, no such variable: exit 2, named" eval '[ $rc -eq 2 ] && has "no global variable .nosuch."'
	run $SW bpf load --dry-run --set min_streak=-1 "$BPFO/sticky.bpf.o"
	check "bpf load --set, a value outside the type: exit 2" eval '[ $rc -eq 2 ] && has "not a value of its 4-byte type"'
	run $SW bpf load --dry-run --set min_streak=4294967296 "$BPFO/sticky.bpf.o"
	check "bpf load --set, 2^32 into a u32: exit 2" eval '[ $rc -eq 2 ] && has "not a value of its 4-byte type"'
	run $SW bpf load --dry-run --set min_streak "$BPFO/sticky.bpf.o"
	check "bpf load --set without =: exit 2" eval '[ $rc -eq 2 ] && has "NAME=VALUE"'
	# every example is a libbpf object with a struct_ops map
	for o in "$BPFO"/*.bpf.o; do
		run $SW bpf load --dry-run "$o"
		check "bpf load --dry-run $(basename "$o"): a struct_ops map" \
			eval '[ $rc -eq 0 ] && has "type struct_ops"'
	done
	run $SW bpf load --dry-run "$tmp/text.btf.o"
	check "bpf load, no such object: exit 1, libbpf's reason" eval '[ $rc -eq 1 ] && has "cannot open .*text.btf.o"'
	cp "$tmp/text.btf" "$tmp/text.o"
	run $SW bpf load --dry-run "$tmp/text.o"
	check "bpf load, not an ELF object: exit 1" eval '[ $rc -eq 1 ] && has "cannot open .*text.o"'
	# vmlinux.h: the BTF of a file as C, struct_ops types included
	run $SW bpf vmlinux --no-module --btf "$tmp/base.btf" -o "$tmp/vmlinux.h"
	check "bpf vmlinux --btf FILE -o OUT: C types, no module types" \
		eval '[ $rc -eq 0 ] && grep -q "^struct task_struct {" "$tmp/vmlinux.h" && ! grep -q SMARTWAKE_VMLINUX_HAS_OPS "$tmp/vmlinux.h"'
	run $SW bpf vmlinux --btf "$tmp/base.btf" --module-btf "$tmp/split.btf" -o "$tmp/vmlinux2.h"
	check "bpf vmlinux --module-btf: the module's types too, SMARTWAKE_VMLINUX_HAS_OPS defined" \
		eval '[ $rc -eq 0 ] && grep -q "^struct smartwake_ops {" "$tmp/vmlinux2.h" && grep -q "define SMARTWAKE_VMLINUX_HAS_OPS" "$tmp/vmlinux2.h"'
	run $SW bpf vmlinux --btf "$tmp/text.btf"
	check "bpf vmlinux, not BTF: exit 1" eval '[ $rc -eq 1 ] && has "cannot read BTF"'
	# smartwake.bpf.h beside a vmlinux.h that has the module's own types
	# (its ops struct stands aside: SMARTWAKE_VMLINUX_HAS_OPS)
	kb=$(bash -c '. "$1/scripts/common.sh" && sw_stock_env && sw_kernel_btf' _ "$SW_TOP" 2>/dev/null)
	if [ -f "$SW_TOP/module/smartwake.ko" ] && [ -n "$kb" ]; then
		mkdir -p "$tmp/vmh"
		run $SW bpf vmlinux --btf "$kb" --module-btf "$SW_TOP/module/smartwake.ko" -o "$tmp/vmh/vmlinux.h"
		check "bpf vmlinux over the kernel's and the built module's BTF: struct smartwake_ops in it" \
			eval '[ $rc -eq 0 ] && grep -q "^struct smartwake_ops {" "$tmp/vmh/vmlinux.h"'
		# a copy beside it: #include "vmlinux.h" looks in the source's folder first
		cp "$BPFO/sticky.bpf.c" "$tmp/vmh/"
		run clang -target bpf -O2 -g -D__TARGET_ARCH_x86 -I"$SW_TOP/include" \
			-I"$("$SW_TOP/scripts/fetch-libbpf.sh")/usr/include" -c "$tmp/vmh/sticky.bpf.c" -o "$tmp/vmh/s.o"
		check "sticky.bpf.c builds against that vmlinux.h (smartwake.bpf.h's ops struct stands aside)" [ $rc -eq 0 ]
	else
		skip "no built module/smartwake.ko (make module) for bpf vmlinux --module-btf"
	fi
else
	skip "no clang to build tools/bpf/sticky.bpf.o"
fi

# ---- missing module / debugfs ------------------------------------------------
run env SMARTWAKE_DEBUGFS=$tmp/nonexistent $SW status
check "status, no module dir: exit 1" [ $rc -eq 1 ]
check "... message names the directory and the module" \
	has "no smartwake directory at $tmp/nonexistent .*module loaded"
run env SMARTWAKE_DEBUGFS=$tmp/nonexistent $SW stats --json
check "stats --json, no module dir: exit 1, nothing on stdout" \
	eval '[ $rc -eq 1 ] && [ -z "$(env SMARTWAKE_DEBUGFS=$tmp/nonexistent $SW stats --json 2>/dev/null)" ]'
run env -u SMARTWAKE_DEBUGFS $SW status
if awk '$2 == "/sys/kernel/debug" && $3 == "debugfs" { f = 1 } END { exit !f }' /proc/self/mounts; then
	check "default dir, debugfs mounted, no module: 'not loaded' message" \
		eval '[ $rc -eq 1 ] && has "module is not loaded .*insmod"'
else
	check "default dir, debugfs not mounted: 'not mounted' message" \
		eval '[ $rc -eq 1 ] && has "debugfs is not mounted on /sys/kernel/debug"'
fi

# ---- status ------------------------------------------------------------------
run $SW status
check "status: exit 0" [ $rc -eq 0 ]
check "status: kernel release" has "^kernel +$(uname -r)$"
check "status: policy" has "^policy +stock$"
check "status: every knob (7) with value and accepted values" \
	eval 'has "^knobs \(7\):" && has "^  factor +llc +\[llc\|node\|online\|1\.\.1024\] +wake_wide factor"'
check "status: hooks" has "^  select_task_rq_fair +redirect +on$"
grep -v '^policy' "$D/knobs" >"$tmp/k" && mv "$tmp/k" "$D/knobs"
run $SW status
check "status without a policy knob: says so, exit 0" \
	eval '[ $rc -eq 0 ] && has "no policy knob"'
relist

# ---- the machine-state record ------------------------------------------------
run $SW status
check "status: the machine line at the end" \
	has "^machine: kernel 6\.12\.38\+deb13-cloud-amd64, 4 CPUs, SMT on, 2 LLCs, 2 nodes, governor schedutil, numa_balancing 1, THP madvise, VM yes$"
check "status: SCHED_CACHE's llc_balancing and cgroup_mode" \
	eval 'has "^  sched\.llc_balancing/enabled = 1$" && has "^  sched\.cgroup_mode = concur$"'
run $SW status --machine
cp "$out" "$tmp/record"
check "status --machine: exit 0" [ $rc -eq 0 ]
for kv in "kernel.release = 6.12.38+deb13-cloud-amd64" "kernel.flavour = cloud-amd64" \
	"cmdline.isolcpus = 2,3" "cmdline.nohz_full = (absent)" "cmdline.mitigations = off" \
	"cmdline.preempt = (absent)" "cpu.online = 0-3" "cpu.count = 4" "cpu.smt = on" "cpu.llcs = 2" \
	"cpu.llc0.cpus = 0-1" "cpu.llc1.cpus = 2-3" "cpu.llc1.size = 16384K" "node.count = 2" \
	"feature.TTWU_QUEUE = 1" "feature.HRTICK = 0" "sched.llc_balancing/enabled = 1" \
	"sched.llc_balancing/aggr_tolerance = 20" "sched.cgroup_mode = concur" "sched.preempt = full" \
	"sched.migration_cost_ns = 500000" "sysctl.kernel.numa_balancing = 1" \
	"sysctl.kernel.sched_schedstats = 0" "sysctl.kernel.sched_autogroup_enabled = 1" \
	"cpufreq.boost = 1" "cpufreq.policies = 2" "cpufreq.policy0.governor = schedutil" \
	"cpufreq.policy0.epp = balance_performance" "cpufreq.policy1.epp = (absent)" \
	"cpufreq.policy1.max_freq = 3000000" "mm.thp = madvise" "vm.hypervisor = yes" \
	"vm.steal_ticks = 100" "module.enabled = 1" "module.scope = all"; do
	check "status --machine: $kv" grep -qxF -- "$kv" "$tmp/record"
done
check "status --machine: no debug dump, domains/, per-CPU fair_server/, non-sched sysctl" \
	eval '! grep -qE "^(sched\.debug|sched\.domains|sched\.fair_server|sysctl\.kernel\.(not_sched|sched_domain)) " "$tmp/record"'
$SW status --machine --json >"$tmp/record.json" 2>&1
check "status --machine --json parses with python3 -m json.tool" \
	eval 'python3 -m json.tool "$tmp/record.json" >/dev/null'
check "status --machine --json: numbers, strings, absent as null, same keys as the text" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cpu.count"] == 4 and d["sched.cgroup_mode"] == "concur", d
assert d["cmdline.nohz_full"] is None and d["cpufreq.policy1.epp"] is None, d
keys = [l.split(" = ")[0] for l in open(sys.argv[2]).read().splitlines()]
assert list(d) == keys, (list(d), keys)
' "$tmp/record.json" "$tmp/record"
run $SW status --json
check "status --json without --machine: exit 2" [ $rc -eq 2 ]
# what is missing is absent, what cannot be read says why, never an error
mv "$M/sched" "$M/sched.away"
rm "$M/sys/kernel/numa_balancing" "$M/cpu/smt/active"
rm -r "$M/cpu/cpufreq"
rm "$M/cmdline" && mkdir "$M/cmdline"
run env SMARTWAKE_DEBUGFS=$tmp/nonexistent $SW status --machine
check "status --machine without the module, sched/, numa_balancing, SMT file, cpufreq: exit 0, absent" \
	eval '[ $rc -eq 0 ] && has "^module = \(absent\)$" && has "^sched = \(absent\)$" &&
		has "^sysctl\.kernel\.numa_balancing = \(absent\)$" && has "^cpu\.smt = \(absent\)$" &&
		has "^cpufreq\.boost = \(absent\)$" && has "^cpufreq\.policies = \(absent\)$"'
check "status --machine: an unreadable file says why" has "^cmdline = \(unreadable: Is a directory\)$"
env SMARTWAKE_DEBUGFS=$tmp/nonexistent $SW status --machine --json >"$tmp/record.json" 2>&1
check "status --machine --json, absent and unreadable entries: valid JSON" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["module"] is None and d["sched"] is None and d["cmdline"] == "(unreadable: Is a directory)", d
' "$tmp/record.json"
rm -rf "$M/sched.away"
fresh_machine

# ---- stats -------------------------------------------------------------------
run $SW stats
check "stats: exit 0, name value lines" eval '[ $rc -eq 0 ] && has "^select_calls +100$" && has "^sis_search_efficiency_pct +27.35$"'
$SW stats --json >"$tmp/j" 2>&1
check "stats --json parses with python3 -m json.tool" eval 'python3 -m json.tool "$tmp/j" >/dev/null'
check "stats --json: integers and decimals as numbers" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d == {"select_calls": 100, "passthrough": 5, "sis_calls": 0, "sis_search_efficiency_pct": 27.35}, d
' "$tmp/j"
run $SW stats --openmetrics
check "stats --openmetrics: counters as _total, derived lines as gauges, # EOF last" python3 -c '
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[-1] == "# EOF", lines
want = ["# TYPE smartwake_select_calls counter", "smartwake_select_calls_total 100",
        "# TYPE smartwake_sis_search_efficiency_pct gauge", "smartwake_sis_search_efficiency_pct 27.35"]
for w in want:
    assert w in lines, (w, lines)
fams = [l for l in lines if l.startswith("# TYPE ")]
assert len(fams) == 4, fams
' "$out"
run $SW stats --openmetrics --json
check "stats --openmetrics --json: usage error, exit 2" [ $rc -eq 2 ]
echo "odd_line n/a" >>"$D/stats"
$SW stats --json >"$tmp/j" 2>&1
check "stats --json: a non-numeric value becomes a string" python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["odd_line"] == "n/a"' "$tmp/j"
sed -i '/^odd_line/d' "$D/stats"
check "stats without shadow_agree_pct: no shadow line" eval '! grep -q "^shadow:" <<<"$($SW stats)"'
run $SW status
check "status without shadow_agree_pct: no shadow line" eval '[ $rc -eq 0 ] && ! has "^shadow "'
# policy=shadow has compared wakeups: the module prints shadow_agree_pct
cp "$D/stats" "$tmp/stats.plain"
printf 'shadow_compared 2000\nshadow_agree 1990\nshadow_disagree 4\nshadow_raced 5\nshadow_raced_aba 1\nshadow_agree_pct 99.50\n' >>"$D/stats"
run $SW stats
check "stats: shadow summary line" \
	has "^shadow: 99\.50% agree \(compared 2000, agree 1990, disagree 4, raced 5, raced_aba 1\)$"
run $SW status
check "status: shadow agreement line" \
	has "^shadow +99\.50% agree \(compared 2000, agree 1990, disagree 4, raced 5, raced_aba 1\)$"
$SW stats --json >"$tmp/j" 2>&1
check "stats --json with shadow counters: no summary, pct a number" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["shadow_agree_pct"] == 99.5 and d["shadow_compared"] == 2000, d' "$tmp/j"
printf 'module_ns_per_call 614\nkernel_ns_per_call 401\nmodule_kernel_ratio 1.531\n' >>"$D/stats"
run $SW stats
check "stats: the cost line (module and kernel ns per call, their ratio)" \
	has "^cost: module 614 ns per call, kernel 401 ns: 1\.531 of the kernel's \(policy=shadow, 1 wakeup in 64 timed both ways\)$"
$SW stats --openmetrics >"$tmp/om" 2>&1
check "stats --openmetrics: the cost figures are gauges" eval \
	'grep -q "^# TYPE smartwake_module_ns_per_call gauge" "$tmp/om" && grep -q "^smartwake_module_kernel_ratio 1.531" "$tmp/om"'
# the medians (issue 61): the line leads with them, the ratio is theirs
printf 'module_ns_p50 380\nmodule_ns_p99 9000\nkernel_ns_p50 372\nkernel_ns_p99 20100\n' >>"$D/stats"
sed -i 's/^module_kernel_ratio .*/module_kernel_ratio 1.022/' "$D/stats"
run $SW stats
check "stats: the cost line with medians leads with them (means beside)" \
	has "^cost: module 380 ns per call \(median; mean 614\), kernel 372 ns \(mean 401\): 1\.022 of the kernel's \(medians; policy=shadow, 1 wakeup in 64 timed both ways\)$"
$SW stats --openmetrics >"$tmp/om" 2>&1
check "stats --openmetrics: the medians and p99s are gauges" eval \
	'grep -q "^# TYPE smartwake_module_ns_p50 gauge" "$tmp/om" && grep -q "^# TYPE smartwake_kernel_ns_p99 gauge" "$tmp/om"'
mv "$tmp/stats.plain" "$D/stats"
check "stats without module_kernel_ratio: no cost line" eval '! grep -q "^cost:" <<<"$($SW stats)"'
# the counters rise while --watch runs
( for i in 1 2 3 4 5 6; do sleep 0.1; sed -i "s/^select_calls .*/select_calls $((100 + i * 50))/" "$D/stats"; done ) &
run $SW stats --watch 0.3 --count 2
wait
check "stats --watch 0.3 --count 2: exit 0, two intervals" eval '[ $rc -eq 0 ] && [ $(grep -c "^--- " "$out") -eq 2 ]'
check "... select_calls with a positive rate, derived line without" \
	eval 'awk '\''$1 == "select_calls" && $3 > 0 { a = 1 } $1 == "sis_search_efficiency_pct" && NF == 2 { b = 1 } END { exit !(a && b) }'\'' "$out"'
$SW stats --json --watch 0.1 --count 3 >"$tmp/j" 2>&1
check "stats --json --watch: 3 JSON lines with values and rates" python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 3, lines
for l in lines:
    d = json.loads(l)
    assert d["values"]["select_calls"] >= 100 and "select_calls" in d["rates"]
    assert "sis_search_efficiency_pct" not in d["rates"]
' "$tmp/j"
# An unreadable stats file, also for root (CI runs as root, where mode
# 000 would still be readable): a directory in its place fails the read.
mv "$D/stats" "$D/stats.saved"
mkdir "$D/stats"
run $SW stats
check "unreadable stats: exit 1" [ $rc -eq 1 ]
rmdir "$D/stats"
mv "$D/stats.saved" "$D/stats"

# ---- reset -------------------------------------------------------------------
run $SW reset
check "reset: exit 0, writes the reset file" eval '[ $rc -eq 0 ] && [ "$(cat "$D/reset")" = 1 ]'

# ---- set ---------------------------------------------------------------------
run $SW set enabled=0
check "set enabled=0: exit 0, written" eval '[ $rc -eq 0 ] && [ "$(cat "$D/enabled")" = 0 ]'
relist
run $SW set enabled=1 policy=smartwake factor=node factor=12 wake_wide=off
check "set five settings: exit 0, all written" \
	eval '[ $rc -eq 0 ] && [ "$(cat $D/enabled $D/policy $D/factor $D/wake_wide | tr "\n" " ")" = "1 smartwake 12 off " ]'
fresh_tree
before=$(snap)
# shellcheck disable=SC2089,SC2090 # the backslash is part of a bad value
for bad in "enabled=0 no_such_knob=1" "enabled=0 enabled=7" "policy=smartwake policy=fast" \
	"enabled=0 factor=0" "factor=1025" "factor=-1" "factor=+1" "factor=0x10" "enabled=" \
	"enabled=0 factor=LLC" "enabled=0 sis_filter=1 feature:NO_SUCH_FEATURE" \
	"enabled=0 feature:" "enabled=0 wake_wide=mainline\ "; do
	# shellcheck disable=SC2086,SC2090
	run $SW set $bad
	check "set $bad: exit 2, nothing changed" eval '[ $rc -eq 2 ] && [ "$(snap)" = "$before" ]'
done
run $SW set enabled=0 no_such_knob=1
check "... the unknown knob is named, with the known ones" \
	has "no knob 'no_such_knob' \(knobs: enabled policy wake_wide ttwu_queue factor sis_filter scope\)"
run $SW set enabled=0 enabled=7
check "... the refused value is named, with the accepted ones" \
	has "enabled does not accept '7' \(accepted: 0\.\.1\)"
# A write the "kernel" refuses after two changes: both are undone.
ln -sf /dev/full "$D/sis_filter"
before=$(snap)
run $SW set enabled=0 policy=smartwake sis_filter=1
check "set with a failing third write: exit 1" [ $rc -eq 1 ]
check "... the failed write is reported" has "writing sis_filter=1: No space left on device"
check "... the two earlier writes are undone" [ "$(snap)" = "$before" ]
fresh_tree
run $SW set feature:NO_TTWU_QUEUE
check "set feature:NO_TTWU_QUEUE: exit 0, written" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$F")" = NO_TTWU_QUEUE ]'
fresh_tree
run env SMARTWAKE_SCHED_FEATURES=$tmp/nofeatures $SW set feature:NO_TTWU_QUEUE
check "set feature: without a features file: exit 1, explained" \
	eval '[ $rc -eq 1 ] && has "cannot read $tmp/nofeatures"'

# ---- ab ----------------------------------------------------------------------
fresh_tree
# A write to the fake features file leaves only the word written, where the
# kernel's keeps the other features: ab's state record would rightly see
# them vanish (checked below), so the features file holds only the one
# that is set here.
echo TTWU_QUEUE >"$F"
before=$(snap)
# shellcheck disable=SC2016
bump='n=$(awk "\$1 == \"select_calls\" { print \$2 }" "$SMARTWAKE_DEBUGFS/stats"); sed -i "s/^select_calls .*/select_calls $((n + 7))/" "$SMARTWAKE_DEBUGFS/stats"'
run $SW ab --a 'enabled=1' --b 'enabled=0 policy=smartwake feature:NO_TTWU_QUEUE' --runs 3 \
	--csv "$tmp/ab.csv" -- bash -c 'echo "rate_per_sec=$RANDOM"; '"$bump"
cat "$out" | sed 's/^/    /'
check "ab on bash -c 'echo rate_per_sec=\$RANDOM': exit 0" [ $rc -eq 0 ]
check "ab: alternates A B A B A B" \
	eval '[ "$(sed -n "s/^run [0-9]\/3 \([AB]\) .*/\1/p" "$out" | tr -d "\n")" = ABABAB ]'
check "ab: median and min..max per side" \
	eval 'has "^A +[0-9.]+ +[0-9.]+\.\.[0-9.]+ +3 +1\.000$" && has "^B +[0-9.]+ +[0-9.]+\.\.[0-9.]+ +3 +[0-9.]+$"'
check "ab: ratio of medians" has "^ratio B/A \(medians\): [0-9]+\.[0-9]{3}$"
check "ab: the ratio is median(B)/median(A)" python3 -c '
import re, statistics, sys
t = open(sys.argv[1]).read()
a = [float(x) for x in re.findall(r"^run \d/3 A +([0-9.]+)", t, re.M)]
b = [float(x) for x in re.findall(r"^run \d/3 B +([0-9.]+)", t, re.M)]
r = float(re.search(r"^ratio B/A \(medians\): ([0-9.]+)", t, re.M).group(1))
assert abs(r - statistics.median(b) / statistics.median(a)) < 0.001, (a, b, r)
' "$out"
check "ab: unit from the key" has "^unit: rate_per_sec$"
check "ab: counter deltas summed per side (3 x 7)" has "^select_calls +21 +21$"
check "ab: unchanged counters left out" eval '! has "^passthrough"'
check "ab: knobs and features restored" [ "$(snap)" = "$before" ]
check "ab --csv: header and 6 rows" \
	eval '[ "$(head -n 1 "$tmp/ab.csv")" = "side,run,figure,unit,secs,select_calls,passthrough,sis_calls" ] && [ $(wc -l <"$tmp/ab.csv") -eq 7 ]'
run $SW ab --a '' --b 'enabled=0' --runs 2 -- sh -c 'echo "# Running sched/messaging"; echo "Total time: 0.250 [sec]"'
check "ab, no key=number: the last number, its unit" \
	eval '[ $rc -eq 0 ] && has "^A +0\.2500 " && has "^unit: sec$"'
run $SW ab --a '' --b '' --runs 1 -- sh -c 'echo "count=1 ops_per_sec=5 recv_mbps=7"'
check "ab: the first *_per_sec key wins" has "^A +5\.0 "
run $SW ab --a '' --b '' --runs 1 --metric recv_mbps -- sh -c 'echo "ops_per_sec=5 recv_mbps=7.5"'
check "ab --metric KEY" eval '[ $rc -eq 0 ] && has "^A +7\.5000 " && has "^unit: recv_mbps$"'
run $SW ab --a '' --b '' --runs 1 --metric 'Time' --unit s --lower-is-better -- echo 'Time: 1.5'
check "ab --metric Time (KEY: n), --unit, --lower-is-better" \
	eval '[ $rc -eq 0 ] && has "^A +1\.5000 " && has "^unit: s \(lower is better\)$"'
run $SW ab --a '' --b '' --runs 1 --metric '([0-9.]+) Mbits/sec.*receiver' -- \
	printf '[ 5] 0-2 sec 226 MBytes 947 Mbits/sec sender\n[ 5] 0-2 sec 226 MBytes 931 Mbits/sec 0.01 ms receiver\n'
check "ab --metric REGEX with a group" eval '[ $rc -eq 0 ] && has "^A +931\.0 " && has "^unit: Mbits/sec$"'
run $SW ab --a 'policy=stock' --b 'policy=smartwake' --side 'filter:policy=smartwake sis_filter=1' \
	--side 'nope:policy=smartwake numa_retry=corrected' --skip-missing --runs 1 -- echo ops_per_sec=3
check "ab --side, --skip-missing: absent knob reported as skipped, others run" \
	eval '[ $rc -eq 0 ] && has "^side nope skipped: .*no knob .numa_retry." && has "^ratio filter/A \(medians\): 1\.000$" && has "^nope +skipped"'
run $SW ab --a '' --b 'numa_retry=corrected' --runs 1 -- echo ops_per_sec=3
check "ab, absent knob without --skip-missing: exit 2, named" \
	eval '[ $rc -eq 2 ] && has "no knob .numa_retry."'
before=$(snap)
run $SW ab --a '' --b 'enabled=0 feature:NO_TTWU_QUEUE' --runs 2 -- sh -c 'exit 3'
check "ab, failing command: exit 1, status named, settings restored" \
	eval '[ $rc -eq 1 ] && has "exited with status 3" && [ "$(snap)" = "$before" ]'
run $SW ab --a '' --b 'enabled=0' --runs 1 -- echo nothing here
check "ab, no figure in the output: exit 1, explained" eval '[ $rc -eq 1 ] && has "no figure"'
run $SW ab --a '' --b 'enabled=0' --runs 1 --timeout 0.5 -- sleep 5
check "ab --timeout: the run is killed, exit 1" eval '[ $rc -eq 1 ] && has "timed out"'
run $SW ab --a '' --b 'enabled=0' --runs 1 -- /nonexistent/cmd
check "ab, command not found: exit 1, named" eval '[ $rc -eq 1 ] && has "cannot run /nonexistent/cmd"'
# Ctrl-C in the middle: settings restored, 130
$SW ab --a 'enabled=1' --b 'enabled=0' --runs 50 -- sh -c 'sleep 0.2; echo ops_per_sec=1' >"$out" 2>&1 &
abpid=$!
sleep 1
kill -INT $abpid
wait $abpid
rc=$?
check "ab interrupted: exit 130, settings restored" \
	eval '[ $rc -eq 130 ] && [ "$(cat "$D/enabled")" = 1 ] && has "interrupted; settings restored"'
# --concurrent: one side under the module (its settings, scope=its
# cgroup), the other under the kernel; what cannot be split is refused
for a in "--a '' --b ''|one side must set policy=smartwake" \
	"--a policy=smartwake --b policy=smartwake|both sides set the module's policy" \
	"--a wake_wide=off --b policy=smartwake|side A runs under the kernel .* but has settings" \
	"--a '' --b 'policy=smartwake feature:NO_TTWU_QUEUE'|feature:NO_TTWU_QUEUE is machine-wide" \
	"--a policy=stock --b 'policy=smartwake scope=/x'|scope=/x: ab sets scope itself" \
	"--a '' --b 'policy=smartwake ttwu_queue=lock'|ttwu_queue=lock acts on every task" \
	"--a '' --b policy=smartwake --side c:policy=stock|compares two sides: no --side"; do
	eval "run \$SW ab --concurrent ${a%%|*} --runs 1 -- echo ops_per_sec=1"
	check "ab --concurrent ${a%%|*}: exit 2, explained" eval '[ $rc -eq 2 ] && has "${a#*|}"'
done
run $SW ab --a '' --b '' --cgroup-root /tmp --runs 1 -- echo ops_per_sec=1
check "ab --cgroup-root without --concurrent: exit 2" eval '[ $rc -eq 2 ] && has "is for --concurrent"'
before=$(snap)
run $SW ab --concurrent --cgroup-root "$tmp" --a '' --b 'policy=smartwake' --runs 1 -- echo ops_per_sec=1
check "ab --concurrent, --cgroup-root not on cgroup2: exit 1, said, nothing changed" \
	eval '[ $rc -eq 1 ] && has "$tmp is not a cgroup2 directory" && [ "$(snap)" = "$before" ] && [ "$(cat "$D/scope")" = all ]'
run $SW set scope=relative
check "set scope=relative: not accepted (accepted: all|/PATH)" eval '[ $rc -eq 2 ] && has "accepted: all\|/PATH"'
run $SW set scope=/sys/fs/cgroup/x
check "set scope=/sys/fs/cgroup/x: a path is accepted by the CLI" eval '[ $rc -eq 0 ] && [ "$(cat "$D/scope")" = /sys/fs/cgroup/x ]'
echo all >"$D/scope"
run env SMARTWAKE_DEBUGFS=$tmp/nonexistent $SW ab --a '' --b 'feature:NO_TTWU_QUEUE' --runs 1 -- echo ops_per_sec=2
check "ab with features only works without the module" eval '[ $rc -eq 0 ] && has "no module counters"'
run env SMARTWAKE_DEBUGFS=$tmp/nonexistent $SW ab --a '' --b 'enabled=0' --runs 1 -- echo ops_per_sec=2
check "ab with knobs without the module: exit 1, says so" \
	eval '[ $rc -eq 1 ] && has "no smartwake directory"'


# ---- kernel tunables: sched:, sysctl:, cpufreq: in set and ab ---------------
fresh_tree
fresh_machine
# msnap: the tunables the settings below touch, and the module's knobs
msnap() { (cd "$M" && cat sched/llc_balancing/enabled sys/kernel/numa_balancing \
	cpu/cpufreq/policy0/scaling_governor cpu/cpufreq/policy1/scaling_governor \
	cpu/cpufreq/policy0/energy_performance_preference cpu/cpufreq/boost | tr '\n' ' '); snap; }
before=$(msnap)
run $SW set sched:llc_balancing/enabled=0 sysctl:kernel.numa_balancing=0 cpufreq:governor=performance cpufreq:boost=0
check "set sched: sysctl: cpufreq:governor cpufreq:boost: exit 0, every file written" \
	eval '[ $rc -eq 0 ] && [ "$(msnap)" = "0 0 performance performance balance_performance 0 ${before#* * * * * * }" ]'
check "... each target said, with its value before" \
	eval 'has "^sched:llc_balancing/enabled=0 \(was 1\)$" && has "^sysctl:kernel\.numa_balancing=0 \(was 1\)$" &&
		has "^cpufreq:policy1/governor=performance \(was schedutil\)$" && has "^cpufreq:boost=0 \(was 1\)$"'
fresh_machine
run $SW set cpufreq:epp=power sched:preempt=none
check "set cpufreq:epp where one policy has no EPP: exit 2, named, nothing changed" \
	eval '[ $rc -eq 2 ] && has "policy1/energy_performance_preference" && [ "$(msnap)" = "$before" ] && [ "$(cat "$M/sched/preempt")" = "none voluntary (full) lazy" ]'
# one bad key among good ones: nothing written
# shellcheck disable=SC2089,SC2090
for bad in "sched:llc_balancing/enabled=0 sysctl:kernel.no_such=1|the kernel has no .*kernel/no_such" \
	"sched:llc_balancing/enabled=0 cpufreq:governor=turbo|policy0 does not accept .turbo. \(scaling_available_governors: performance schedutil powersave\)" \
	"sysctl:kernel.numa_balancing=0 cpufreq:frob=1|no cpufreq key .frob." \
	"sysctl:kernel.numa_balancing=0 cpufreq:boost=2|boost is 0 or 1" \
	"sysctl:kernel.numa_balancing=0 sched:../../etc/passwd=1|is no path under" \
	"enabled=0 sched:no_such=1|the kernel has no .*sched/no_such" \
	"enabled=0 sched:llc_balancing/enabled=|expected sched:NAME=VALUE" \
	"sysctl:kernel.numa_balancing=0 sched:llc_balancing=1|is not a tunable's file"; do
	# shellcheck disable=SC2086,SC2090
	run $SW set ${bad%%|*}
	check "set ${bad%%|*}: exit 2, explained, nothing changed" \
		eval '[ $rc -eq 2 ] && has "${bad#*|}" && has "nothing changed" && [ "$(msnap)" = "$before" ]'
done
# a value the kernel refuses (an immutable file: EPERM also for root)
if chattr +i "$M/sys/kernel/numa_balancing" 2>/dev/null; then
	run $SW set sched:llc_balancing/enabled=0 enabled=0 sysctl:kernel.numa_balancing=0
	check "set, the kernel refuses the third write: exit 1, said, the two before undone" \
		eval '[ $rc -eq 1 ] && has "writing sysctl:kernel\.numa_balancing=0: Operation not permitted" && [ "$(msnap)" = "$before" ]'
	chattr -i "$M/sys/kernel/numa_balancing"
else
	skip "chattr +i does not work in $tmp: a tunable's write refused by the kernel is not imitated"
fi
echo 'none [integrity] confidentiality' >"$tmp/lockdown"
run $SW set sysctl:kernel.numa_balancing=0 sched:llc_balancing/enabled=0
check "set sched: under lockdown: exit 1, what cannot be written and what can said, nothing changed" \
	eval '[ $rc -eq 1 ] && has "debugfs is locked down \(lockdown=integrity\): nothing under /sys/kernel/debug/sched/ \(sched:, feature:\) can be written; sysctl:, cpufreq: and the module.s knobs can" &&
		[ "$(msnap)" = "$before" ]'
run $SW set sysctl:kernel.numa_balancing=0
check "set sysctl: under lockdown: exit 0, written" eval '[ $rc -eq 0 ] && [ "$(cat "$M/sys/kernel/numa_balancing")" = 0 ]'
rm -f "$tmp/lockdown"
fresh_machine
run env SMARTWAKE_DEBUGFS=$tmp/nonexistent $SW set cpufreq:governor=powersave
check "set cpufreq: without the module: exit 0, written" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$M/cpu/cpufreq/policy1/scaling_governor")" = powersave ]'
fresh_machine

# ab: a tunable is applied for its side's runs and restored afterwards
before=$(msnap)
run $SW ab --a '' --b 'sched:llc_balancing/enabled=0 cpufreq:governor=performance' --runs 2 -- \
	sh -c 'cat "$SMARTWAKE_SCHED_DEBUG/llc_balancing/enabled" >>"$SMARTWAKE_SCHED_DEBUG/../seen"; echo ops_per_sec=1'
check "ab --b sched:llc_balancing/enabled=0: A runs with 1, B with 0 (A B A B)" \
	eval '[ "$(tr "\n" " " <"$M/seen")" = "1 0 1 0 " ]'
check "ab with sched: and cpufreq: settings, B (the last side) sets them: exit 0, restored afterwards, no drift" \
	eval '[ $rc -eq 0 ] && [ "$(msnap)" = "$before" ] && has "^machine state: the same before and after every run"'
run $SW ab --a '' --b 'sched:llc_balancing/enabled=0 sysctl:kernel.numa_balancing=0' --runs 2 -- \
	sh -c '[ "$(cat "$SMARTWAKE_SCHED_DEBUG/llc_balancing/enabled")" = 1 ] && echo ops_per_sec=1'
check "ab, the command fails under B's sched: setting: exit 1, restored" \
	eval '[ $rc -eq 1 ] && has "run 1 of side B: command exited with status 1" && [ "$(msnap)" = "$before" ]'
$SW ab --a 'sched:llc_balancing/enabled=0' --b 'sysctl:kernel.numa_balancing=0 cpufreq:boost=0' --runs 50 -- \
	sh -c 'sleep 0.2; echo ops_per_sec=1' >"$out" 2>&1 &
abpid=$!
sleep 1
kill -INT $abpid
wait $abpid
rc=$?
check "ab with sched:, sysctl:, cpufreq: settings interrupted: exit 130, restored" \
	eval '[ $rc -eq 130 ] && [ "$(msnap)" = "$before" ] && has "interrupted; settings restored"'
run $SW ab --a '' --b 'sysctl:kernel.no_such=1' --runs 1 -- echo ops_per_sec=1
check "ab, an unknown sysctl: exit 2, named, nothing run" \
	eval '[ $rc -eq 2 ] && has "the kernel has no .*kernel/no_such" && ! has "^run 1" && [ "$(msnap)" = "$before" ]'
run $SW ab --concurrent --a '' --b 'policy=smartwake sysctl:kernel.numa_balancing=0' --runs 1 -- echo ops_per_sec=1
check "ab --concurrent with a kernel tunable: exit 2, machine-wide" \
	eval '[ $rc -eq 2 ] && has "sysctl:kernel.numa_balancing=0 is machine-wide"'

# ab: the machine's state must be the same on both sides. Side B's
# command (enabled=0) turns NUMA balancing off, side A's on again.
cat >"$tmp/numa.sh" <<'EOS'
if [ "$(cat "$SMARTWAKE_DEBUGFS/enabled")" = 0 ]; then v=0; else v=1; fi
echo $v >"$SMARTWAKE_SYSCTL/kernel/numa_balancing"
echo ops_per_sec=10
EOS
run $SW ab --a 'enabled=1' --b 'enabled=0' --runs 2 --json "$tmp/ab.json" --record "$tmp/ab.rec" -- sh "$tmp/numa.sh"
sed 's/^/    /' "$out"
check "ab, kernel.numa_balancing differs between the sides: refused, exit 1, no ratio" \
	eval '[ $rc -eq 1 ] && has "the sides did not run under the same machine state" && ! has "^ratio B/A"'
check "... the key named, with its values and when" \
	has "^  sysctl\.kernel\.numa_balancing: 1 at the start; 0 after run 1 of B; 0 before run 2 of A; 0 after ab$"
check "... and the option that accepts it" has "or accept it with --allow-state-drift$"
check "... only that key (enabled is under test, steal a counter)" \
	eval '[ $(grep -c "^  [a-z]*\..*: .* at the start" "$out") -eq 1 ]'
check "ab --json, refused: valid JSON, the drift and the record at the start" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["reported"] is False and d["refused_for_state_drift"] is True, d
assert [x["key"] for x in d["state_drift"]] == ["sysctl.kernel.numa_balancing"] * 3, d["state_drift"]
assert d["state_drift"][0] == {"key": "sysctl.kernel.numa_balancing", "value": "0", "when": "after run 1 of B"}
assert d["machine_start"]["sysctl.kernel.numa_balancing"] == 1 and d["machine_start"]["cpu.llcs"] == 2
assert d["machine_end"]["sysctl.kernel.numa_balancing"] == 0
' "$tmp/ab.json"
check "ab --record, refused: says so, the drift, the record" \
	eval 'grep -qx "# not reported: the machine.s state differed" "$tmp/ab.rec" &&
		grep -qx "drift\.sysctl\.kernel\.numa_balancing = 0 (after run 1 of B)" "$tmp/ab.rec" &&
		grep -qx "sysctl\.kernel\.numa_balancing = 1" "$tmp/ab.rec"'
echo 1 >"$M/sys/kernel/numa_balancing"
run $SW ab --a 'enabled=1' --b 'enabled=0' --runs 2 --allow-state-drift -- sh "$tmp/numa.sh"
check "ab --allow-state-drift: reported (exit 0), the drift listed" \
	eval '[ $rc -eq 0 ] && has "^machine state: not the same on every run \(accepted: --allow-state-drift\):$" &&
		has "^  sysctl\.kernel\.numa_balancing: 1 at the start; 0 after run 1 of B" && has "^ratio B/A"'
echo 1 >"$M/sys/kernel/numa_balancing"
run $SW ab --a 'sysctl:kernel.numa_balancing=0' --b 'sysctl:kernel.numa_balancing=1' --runs 2 -- \
	sh -c 'echo ops_per_sec=$(cat "$SMARTWAKE_SYSCTL/kernel/numa_balancing")1'
check "ab, numa_balancing the setting under test: it may differ (exit 0, A ran with 0, B with 1)" \
	eval '[ $rc -eq 0 ] && has "^A +1\.0 " && has "^B +11\.0 " && has "^machine state: the same before and after every run"'
# steal: side B's runs lose 0.5 s each to the hypervisor (50 USER_HZ ticks)
cat >"$tmp/steal.sh" <<'EOS'
if [ "$(cat "$SMARTWAKE_DEBUGFS/enabled")" = 0 ]; then
	awk '$1 == "cpu" { $9 += 50 } { print }' "$SMARTWAKE_PROC_STAT" >"$SMARTWAKE_PROC_STAT.new" &&
		mv "$SMARTWAKE_PROC_STAT.new" "$SMARTWAKE_PROC_STAT"
fi
echo ops_per_sec=10
EOS
run $SW ab --a 'enabled=1' --b 'enabled=0' --runs 2 --json "$tmp/ab.json" --record "$tmp/ab.rec" -- sh "$tmp/steal.sh"
check "ab: steal per side, over its runs (B 2 x 0.5 s; a counter, no drift)" \
	eval '[ $rc -eq 0 ] && has "^steal \(CPU-seconds .*\): A 0\.00 s, B 1\.00 s$" && has "^machine state: the same"'
check "ab: the machine line" has "^machine: kernel 6\.12\.38\+deb13-cloud-amd64, 4 CPUs, SMT on, 2 LLCs"
check "ab --json: valid JSON, the sides' figures and steal, the records, no drift" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["reported"] is True and d["state_drift"] == [], d
a, b = d["sides"]
assert a["label"] == "A" and a["median"] == 10 and a["runs"] == 2 and a["figures"] == [10, 10], a
assert a["steal_secs"] == 0 and b["steal_secs"] == 1 and b["ratio"] == 1, b
assert d["machine_start"]["vm.steal_ticks"] == 100 and d["machine_end"]["vm.steal_ticks"] == 200
assert d["machine_start"]["cmdline.nohz_full"] is None
' "$tmp/ab.json"
check "ab --record: results, steal, the record" \
	eval 'grep -qx "# reported" "$tmp/ab.rec" && grep -qx "side\.B\.steal_secs = 1\.00" "$tmp/ab.rec" &&
		grep -qx "side\.A\.median = 10\.0" "$tmp/ab.rec" && grep -qx "sched\.cgroup_mode = concur" "$tmp/ab.rec"'
fresh_machine

# ---- the kernel's schedstats beside the module's counters --------------------
fresh_tree
printf 'wakeups 40\naffine_attempts 30\naffine_pulls 12\n' >>"$D/stats"
echo smartwake >"$D/policy"
echo 1 >"$tmp/schedstats"
run env SMARTWAKE_SCHEDSTATS="$tmp/schedstats" $SW stats
check "stats, policy=smartwake, schedstats on: what the kernel's wake_affine schedstats miss" \
	has "^/proc/schedstat, nr_wakeups_affine\*\) miss the 40 wakeups the module decided;$"
check "... and the counters that count them" has "^affine_pulls \(12\) and affine_attempts \(30\) count them$"
echo 0 >"$tmp/schedstats"
run env SMARTWAKE_SCHEDSTATS="$tmp/schedstats" $SW stats
check "... not with schedstats off" eval '[ $rc -eq 0 ] && ! has "^schedstats:"'
echo 1 >"$tmp/schedstats"
echo shadow >"$D/policy"
run env SMARTWAKE_SCHEDSTATS="$tmp/schedstats" $SW stats
check "... not under policy=shadow (the kernel decides and counts)" eval '[ $rc -eq 0 ] && ! has "^schedstats:"'
# nothing to summarise: which knob is off, if one is
printf 'loc_prev_same_cpu 0\nloc_prev_smt 0\nloc_prev_llc 0\nloc_prev_node 0\nloc_prev_remote 0\n' >>"$D/stats"
echo 0 >"$D/latency"
echo 0 >"$D/locality"
run $SW stats
check "stats, no samples and no answers: the knobs that are off" \
	has "^latency: off \(knob latency=0\); locality: off \(knob locality=0\)$"
echo 1 >"$D/latency"
echo 1 >"$D/locality"
run $SW stats
check "... with both knobs on: none yet" has "^latency: no samples; locality: no answers$"

# ---- latency and locality ----------------------------------------------------
fresh_tree
# mkhist "B:N ...": latency_hist as the module prints it, 40 log2 buckets
mkhist() {
	awk -v spec="$1" 'BEGIN {
		n = split(spec, kv, " ")
		for (i = 1; i <= n; i++) { split(kv[i], p, ":"); c[p[1]] = p[2] }
		for (b = 0; b < 40; b++) printf "%d %d\n", b ? 2 ^ b : 0, c[b] + 0
	}' >"$D/latency_hist.new" && mv "$D/latency_hist.new" "$D/latency_hist"
}
mkhist "10:100"
echo 1 >"$D/latency"
run $SW latency
check "latency: exit 0, the non-empty bucket and the module's percentiles" \
	eval '[ $rc -eq 0 ] && has "^ +1024 +100$" && has "^samples 100  p50 1536  p90 1945  p99 2037 ns$"'
check "latency: empty buckets not listed" eval '! has "^ +2048 "'
# the KUnit table's "90 fast, 10 slow" case: the same figures as the module
mkhist "1:90 20:10"
run $SW latency
check "latency: percentiles across buckets as sw_lat_percentile() (p99 1991680)" \
	has "^samples 100  p50 3  p90 4  p99 1991680 ns$"
echo 0 >"$D/latency"
run $SW latency
check "latency with the knob at 0: a note on stderr" has "latency is 0: no new samples"
echo 1 >"$D/latency"
mkhist ""
run $SW latency
check "latency, empty histogram: no samples" eval '[ $rc -eq 0 ] && has "^no samples$"'
# --watch: the interval's samples only. Each write lands half an interval
# from the intervals' ends (the CLI may start up to 0.5 s late on a loaded
# host), and replaces the file whole (a reader never sees half of one).
( sleep 0.5; mkhist "5:10"; sleep 1; mkhist "5:10 12:30" ) &
run $SW latency --watch 1 --count 3
wait
check "latency --watch 1 --count 3: exit 0, three lines" \
	eval '[ $rc -eq 0 ] && [ $(grep -cE "^[0-9:]+ +[0-9.]+ s  " "$out") -eq 3 ]'
check "... the first interval: its 10 samples in [32, 64)" has "s  samples 10  p50 48  p90 60  p99 64 ns$"
check "... the second: the 30 new ones in [4096, 8192) alone" has "s  samples 30  p50 6144  p90 7780  p99 8192 ns$"
check "... the third: no samples" has " s  no samples$"
for bad in "--watch 0" "--watch x" "--count 2" "--count 0 --watch 1" "extra" "--bogus"; do
	# shellcheck disable=SC2086
	run $SW latency $bad
	check "latency $bad: usage error, exit 2" [ $rc -eq 2 ]
done
run $SW help latency
check "help latency: usage" has "^usage: smartwake latency \[--watch SECONDS \[--count N\]\]"
rm "$D/latency_hist"
run $SW latency
check "latency without latency_hist: exit 1, named" eval '[ $rc -eq 1 ] && has "latency_hist"'
# stats: the summary lines
printf 'latency_samples 100\nlatency_p50_ns 1536\nlatency_p90_ns 1945\nlatency_p99_ns 2037\n' >>"$D/stats"
printf 'loc_prev_same_cpu 3\nloc_prev_smt 0\nloc_prev_llc 1\nloc_prev_node 0\nloc_prev_remote 0\n' >>"$D/stats"
printf 'loc_waker_same_cpu 0\nloc_waker_smt 0\nloc_waker_llc 2\nloc_waker_node 1\nloc_waker_remote 1\n' >>"$D/stats"
run $SW stats
check "stats: latency summary line" has "^latency: p50 1536  p90 1945  p99 2037 ns \(100 samples\)$"
check "stats: locality of the module's answers vs prev" \
	has "^locality vs prev  \(module\): same_cpu 75\.0%, smt 0\.0%, llc 25\.0%, node 0\.0%, remote 0\.0% \(4 answers\)$"
check "stats: ... vs the waker" \
	has "^locality vs waker \(module\): same_cpu 0\.0%, smt 0\.0%, llc 50\.0%, node 25\.0%, remote 25\.0% \(4 answers\)$"
check "stats: no kernel line without kernel_loc_ counts" eval '! has "\(kernel\)"'
run $SW stats --openmetrics
check "stats --openmetrics: percentiles are gauges, latency_samples a counter" \
	eval 'has "^# TYPE smartwake_latency_p99_ns gauge$" && has "^smartwake_latency_p99_ns 2037$" &&
		has "^smartwake_latency_samples_total 100$"'
# ab: side A (enabled=1) adds 100 samples in [1024, 2048) and 4 answers on
# prev's CPU per run, side B 100 in [2^20, 2^21) and 4 on prev's LLC; the
# answers are 4 wakeups either way, classified only while the knob
# locality is 1 (as the module: a static key)
mkhist ""
printf 'wakeups 0\n' >>"$D/stats"
echo 1 >"$D/locality"
cat >"$tmp/bump.sh" <<'EOS'
d=$SMARTWAKE_DEBUGFS
if [ "$(cat "$d/enabled")" = 1 ]; then b=10 c=loc_prev_same_cpu; else b=20 c=loc_prev_llc; fi
[ "$(cat "$d/locality")" = 1 ] || c=none
awk -v b="$b" 'NR == b + 1 { $2 += 100 } { print }' "$d/latency_hist" >"$d/h.new" && mv "$d/h.new" "$d/latency_hist"
awk -v c="$c" '$1 == c || $1 == "wakeups" { $2 += 4 } $1 == "latency_p50_ns" { $2 += 5 } { print }' "$d/stats" >"$d/s.new" &&
	mv "$d/s.new" "$d/stats"
echo ops_per_sec=10
EOS
run $SW ab --a 'enabled=1' --b 'enabled=0' --runs 3 -- bash "$tmp/bump.sh"
sed 's/^/    /' "$out"
check "ab: p50_ns and p99_ns columns beside the figure" has "^side +median +min\.\.max +runs +ratio +p50_ns +p99_ns$"
check "ab: side A's percentiles from its own samples (1536, 2037)" has "^A +10\.0 +10\.0\.\.10\.0 +3 +1\.000 +1536 +2037$"
check "ab: side B's (1572864, 2085888)" has "^B +10\.0 +10\.0\.\.10\.0 +3 +1\.000 +1572864 +2085888$"
check "ab: a percentile that moved is no counter delta" eval '! has "^latency_p50_ns "'
check "ab: locality per side" \
	eval 'has "^  A +vs prev  \(module\): same_cpu 100\.0%, smt 0\.0%, llc 0\.0%, node 0\.0%, remote 0\.0% \(12 answers\)$" &&
		has "^  B +vs prev  \(module\): same_cpu 0\.0%, smt 0\.0%, llc 100\.0%, node 0\.0%, remote 0\.0% \(12 answers\)$"'
check "ab: no locality-off note with locality=1" eval '! has "locality=0"'
echo 0 >"$D/locality"
run $SW ab --a 'enabled=1' --b 'enabled=0' --runs 1 -- bash "$tmp/bump.sh"
check "ab, locality=0: answers but no locality counts: says the knob is off" \
	eval '[ $rc -eq 0 ] && has "^placement locality: off \(knob locality=0; set locality=1$" && ! has "vs prev"'
echo 1 >"$D/locality"
rm "$D/latency_hist"
run $SW ab --a 'enabled=1' --b 'enabled=0' --runs 1 -- echo ops_per_sec=1
check "ab without latency_hist: no latency columns" eval '[ $rc -eq 0 ] && ! has "p50_ns"'

# ---- the reached share (fair_wakeups, fair_wakeups_reached, reached_pct) ----
# bump2.sh: each run adds $1 fair wakeups, and under policy=smartwake $2 of
# them reached (under stock none: the module decides nothing there)
fresh_tree
printf 'fair_wakeups 0\nfair_wakeups_reached 0\n' >>"$D/stats"
cat >"$tmp/bump2.sh" <<'EOS'
d=$SMARTWAKE_DEBUGFS
r=0
[ "$(cat "$d/policy")" = smartwake ] && r=$2
awk -v n="$1" -v r="$r" '$1 == "fair_wakeups" { $2 += n } $1 == "fair_wakeups_reached" { $2 += r } { print }' \
	"$d/stats" >"$d/s.new" && mv "$d/s.new" "$d/stats"
echo ops_per_sec=10
EOS
run $SW ab --a 'policy=stock' --b 'policy=smartwake' --runs 2 -- bash "$tmp/bump2.sh" 1000 30
sed 's/^/    /' "$out"
check "ab: a side whose hook reached 3 % of 2000 fair wakeups is refused: exit 1, reason named, no report" \
	eval '[ $rc -eq 1 ] && has "side B: the module reached 3 % of fair wakeups \(60 of 2000\) with policy=smartwake: its hook is bypassed \(kernel\.ftrace_enabled=0\?\)" &&
		! has "^ratio B/A" && [ "$(cat "$D/policy")" = stock ]'
run $SW ab --a 'policy=stock' --b 'policy=smartwake' --runs 2 -- bash "$tmp/bump2.sh" 1000 995
check "ab: 99.5 % reached: reported (exit 0)" eval '[ $rc -eq 0 ] && has "^ratio B/A"'
run $SW ab --a 'policy=stock' --b 'policy=smartwake' --runs 2 -- bash "$tmp/bump2.sh" 400 0
check "ab: 0 % of 800 fair wakeups (too few to judge): reported" eval '[ $rc -eq 0 ] && has "^ratio B/A"'
run $SW ab --a 'policy=stock' --b 'enabled=0 policy=smartwake' --runs 2 -- bash "$tmp/bump2.sh" 1000 0
check "ab: enabled=0 asks for no module decision: not judged" eval '[ $rc -eq 0 ] && has "^ratio B/A"'
printf 'select_calls 100\nfair_wakeups 2000\nfair_wakeups_reached 60\nreached_pct 3.00\n' >"$D/stats"
run $SW stats
check "stats: the reached line, with the bypass said" \
	has "^reached: 3\.00% of fair wakeups reached the select hook \(fair_wakeups 2000, reached 60\): its hook is bypassed \(kernel\.ftrace_enabled=0\?\)$"
run $SW status
check "status: the reached line" has "^reached  3\.00% of fair wakeups reached the select hook"
printf 'select_calls 100\nfair_wakeups 2000\nfair_wakeups_reached 1999\nreached_pct 99.95\n' >"$D/stats"
run $SW stats
check "stats: 99.95 % reached, no bypass said" eval 'has "^reached: 99\.95% of fair wakeups" && ! has "bypassed"'
# ---- lockdown: knobs through the module parameters --------------------------
# fresh_params: the parameters directory as the module makes it: one file
# per knob holding its value, and reset
fresh_params() {
	rm -rf "$P"
	mkdir -p "$P"
	echo "$knobs_def" | while IFS= read -r l; do cat "$D/${l%%|*}" >"$P/${l%%|*}"; done
	: >"$P/reset"
}
fresh_tree
fresh_params
run $SW status
check "status, no lockdown: control is debugfs" has "^control +$D \(debugfs\)$"
echo 'none [integrity] confidentiality' >"$tmp/lockdown"
run $SW status
check "status under lockdown=integrity: control names the parameters" \
	has "^control +$P \(debugfs locked down: lockdown=integrity\)$"
before=$(snap)
run $SW set policy=smartwake wake_wide=off
check "set under lockdown: exit 0, written to the parameters" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$P/policy" "$P/wake_wide" | tr "\n" " ")" = "smartwake off " ]'
check "... debugfs's knob files untouched" eval '[ "$(snap)" = "$before" ]'
run $SW reset
check "reset under lockdown: the reset parameter, not debugfs's" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$P/reset")" = 1 ] && [ ! -s "$D/reset" ]'
run $SW ab --a 'enabled=1' --b 'enabled=0' --runs 1 -- echo ops_per_sec=1
check "ab under lockdown: exit 0, enabled restored in the parameters" \
	eval '[ $rc -eq 0 ] && [ "$(cat "$P/enabled")" = 1 ] && [ "$(snap)" = "$before" ]'
ln -sf /dev/full "$P/sis_filter"
run $SW set enabled=0 factor=node sis_filter=1
check "set under lockdown, the third write refused: exit 1, the two undone in the parameters" \
	eval '[ $rc -eq 1 ] && [ "$(cat "$P/enabled" "$P/factor" | tr "\n" " ")" = "1 llc " ]'
rm "$P/sis_filter"
echo 'none integrity [confidentiality]' >"$tmp/lockdown"
run $SW status
check "status under lockdown=confidentiality: the parameters" \
	has "^control +$P \(debugfs locked down: lockdown=confidentiality\)$"
echo '[none] integrity confidentiality' >"$tmp/lockdown"
run $SW status
check "lockdown=none: debugfs" has "^control +$D \(debugfs\)$"
rm -f "$tmp/lockdown"
# A debugfs knob file that refuses writes with EPERM, as under lockdown
# (an immutable file: EPERM also for root), no lockdown file to say so.
fresh_tree
fresh_params
if chattr +i "$D/policy" 2>/dev/null; then
	run $SW set enabled=0 policy=smartwake
	check "set, debugfs refuses policy with EPERM: exit 0, policy written to its parameter" \
		eval '[ $rc -eq 0 ] && [ "$(cat "$P/policy")" = smartwake ] && [ "$(cat "$D/policy")" = stock ]'
	check "... enabled, before, through debugfs" eval '[ "$(cat "$D/enabled")" = 0 ]'
	echo 1 >"$D/enabled"
	relist
	mv "$P" "$P.away"
	run $SW set policy=smartwake
	check "EPERM and no parameters: exit 1, nothing changed" \
		eval '[ $rc -eq 1 ] && [ "$(cat "$D/policy")" = stock ]'
	check "... the error names the refusal and where knobs go under lockdown" \
		eval 'has "debugfs locked down: writing $D/policy: Operation not permitted" &&
			has "under lockdown knobs are written in $P/NAME"'
	mv "$P.away" "$P"
	chattr -i "$D/policy"
else
	skip "chattr +i does not work in $tmp: a debugfs write refused with EPERM is not imitated"
fi

summary
