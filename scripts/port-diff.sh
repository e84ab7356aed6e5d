#!/usr/bin/env bash
# What changed, between two kernels, in the code smartwake models: the
# functions its wakeup path copies or hooks (select_task_rq_fair and what
# it inlines, the idle scan, ttwu_queue_wakelist and its condition, the
# NUMA retry), every struct field module/fields.h lists, the WF_* flags
# and the order of features.h. The starting point of a port: read what it
# prints, then the diffs, then change the module (Documentation/studies/
# has the 7.2 port made from such a list).
#
# Each KERNEL is one of:
#   a release of scripts/common.sh's table (its cached linux-source;
#   fetched with scripts/fetch-kernel.sh if missing), e.g. 7.2.13+deb14-cloud-amd64
#   a kernel source directory (holding kernel/sched/fair.c)
#   PACKAGE=VERSION@SUITE: that linux-source package alone, fetched from
#   Debian's archive into the cache (only the scheduler's files are kept),
#   e.g. linux-source-7.3=7.3.4-1~bpo13+1@trixie-backports
#
# Usage: scripts/port-diff.sh [--no-diff] OLD NEW
#   --no-diff  the summary only, without the unified diffs of what changed
# Prints a summary (one line per function, field, flag) and then a diff
# (whitespace ignored) of every changed function and field declaration.
. "$(dirname "$0")/common.sh"

# The modelled functions: FILE NAME, FILE relative to kernel/sched/. A
# port reads each one; the module's copy follows these (path/wake.c,
# path/sis.c, numa.c, ttwu.c, path/shadow.c, sched_access.h).
PORT_FUNCS='
fair.c select_task_rq_fair
fair.c record_wakee
fair.c wake_wide
fair.c wake_affine_idle
fair.c wake_affine_weight
fair.c wake_affine
fair.c select_idle_sibling
fair.c select_idle_cpu
fair.c select_idle_core
fair.c select_idle_smt
fair.c select_idle_capacity
fair.c __select_idle_cpu
fair.c select_idle_rq
fair.c sched_idle_cpu
fair.c sched_idle_rq
fair.c choose_idle_cpu
fair.c choose_sched_idle_rq
fair.c set_idle_cores
fair.c test_idle_cores
fair.c __update_idle_core
fair.c is_core_idle
fair.c cpu_load
fair.c task_h_load
fair.c update_cfs_rq_h_load
fair.c task_numa_fault
fair.c numa_migrate_preferred
fair.c task_numa_migrate
fair.c is_rd_overutilized
core.c ttwu_queue_wakelist
core.c ttwu_queue_cond
core.c select_task_rq
core.c cpus_share_cache
syscalls.c idle_cpu
syscalls.c available_idle_cpu
'
# The structures fields.h names, and where each is defined.
PORT_STRUCTS='
rq kernel/sched/sched.h
cfs_rq kernel/sched/sched.h
root_domain kernel/sched/sched.h
sched_group kernel/sched/sched.h
sched_domain include/linux/sched/topology.h
sched_domain_shared include/linux/sched/topology.h
task_struct include/linux/sched.h
sched_entity include/linux/sched.h
sched_avg include/linux/sched.h
'

nodiff=0
case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
--no-diff) nodiff=1; shift ;;
esac
[ $# -eq 2 ] || sw_die "two kernels wanted, OLD and NEW (try --help)"

# fetch_srcpkg PACKAGE VERSION SUITE: the scheduler's files of that
# linux-source package under $SW_CACHE/src/PACKAGE_VERSION; prints the tree.
fetch_srcpkg() {
	local p=$1 v=$2 s=$3 d=$SW_CACHE/src/${1}_$2 a=$SW_CACHE/apt/$3 t top
	if [ -f "$d/.complete" ]; then
		cat "$d/.complete"
		return
	fi
	local o=(-o "Dir::Etc::sourcelist=$a/sources.list" -o Dir::Etc::sourceparts=/nonexistent
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache"
		-o Dir::State::status=/var/lib/dpkg/status)
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	[ -s "$a/sources.list" ] ||
		printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian %s main\n' \
			"$s" >"$a/sources.list"
	if ! apt-cache "${o[@]}" madison "$p" 2>/dev/null | grep -q .; then
		sw_log "apt lists of $s into $a (private; the host's apt is untouched)"
		apt-get "${o[@]}" update -qq || sw_die "apt-get update of $s failed"
	fi
	rm -rf "$d.tmp"
	mkdir -p "$d.tmp"
	sw_log "downloading $p=$v from $s (the scheduler's files are kept)"
	(cd "$d.tmp" && apt-get "${o[@]}" download -qq "$p=$v") ||
		sw_die "$p=$v is not in $s (apt-cache madison $p, with that suite)"
	dpkg -x "$d.tmp"/*.deb "$d.tmp/pkg"
	t=$(find "$d.tmp/pkg/usr/src" -name 'linux-source-*.tar.xz' | head -n 1)
	[ -n "$t" ] || sw_die "no usr/src/linux-source-*.tar.xz in $p"
	top=$(basename "$t" .tar.xz)
	tar -C "$d.tmp" -xf "$t" --wildcards "$top/kernel/sched/*" \
		"$top/include/linux/sched.h" "$top/include/linux/sched/*" ||
		sw_die "extracting $t failed"
	rm -rf "$d.tmp/pkg" "$d.tmp"/*.deb "$d"
	mv "$d.tmp" "$d"
	echo "$d/$top" >"$d/.complete"
	echo "$d/$top"
}

# tree KERNEL: the source tree of KERNEL (see --help)
tree() {
	local k=$1 ver suite pkg
	if [ -f "$k/kernel/sched/fair.c" ]; then
		echo "$k"
	elif [[ $k =~ ^([a-z0-9.-]+)=([^@]+)@([a-z-]+)$ ]]; then
		pkg=${BASH_REMATCH[1]} ver=${BASH_REMATCH[2]} suite=${BASH_REMATCH[3]}
		fetch_srcpkg "$pkg" "$ver" "$suite"
	else
		sw_kernel_row "$k"
		local d
		[ "$k" = "$SW_DEFAULT_KREL" ] && k=
		d=$(sw_kcache_dir "$SW_ROW_VERSION" "${k:-$SW_DEFAULT_KREL}")/source/$SW_ROW_SRCPKG
		if [ ! -f "$d/kernel/sched/fair.c" ]; then
			scripts/fetch-kernel.sh ${k:+--kernel "$k"} >&2 || sw_die "fetching $1 failed"
		fi
		[ -f "$d/kernel/sched/fair.c" ] || sw_die "no source tree for $1 at $d"
		echo "$d"
	fi
}

# func FILE NAME: NAME's definition in FILE (from its first line to the
# closing brace at column 0), "@LINE" first; nothing when absent.
func() {
	awk -v n="$2" '
		function start(l) { return l ~ "^([A-Za-z_].*[^A-Za-z0-9_])?" n "\\(" }
		# a candidate: the name at the head of a line, then either a
		# body ("{" comes first: a definition) or ";" (a prototype)
		!inb && !cand && start($0) { cand = 1; head = ""; at = NR }
		cand {
			head = head $0 "\n"
			if ($0 ~ /{/) { cand = 0; inb = 1; printf "@%d\n%s", at, head; if ($0 ~ /^}/ || $0 ~ /}[ \t]*$/) exit; next }
			if ($0 ~ /;[ \t]*$/) { cand = 0; next }
			next
		}
		inb { print; if ($0 ~ /^}/) exit }
	' "$1"
}

# locate TREE FILE NAME: "FILE" and NAME's definition (func), from FILE
# of kernel/sched/ or, when it moved, the first other file there that
# defines it; nothing when none does.
locate() {
	local f out
	for f in "$2" $(cd "$1/kernel/sched" && ls ./*.c ./*.h | sed 's|^\./||'); do
		out=$(func "$1/kernel/sched/$f" "$3")
		[ -n "$out" ] || continue
		echo "$f"
		printf '%s\n' "$out"
		return 0
	done
}

# struct_body FILE NAME: the lines of "struct NAME {" to its "};"
struct_body() {
	[ -f "$1" ] || return 0
	awk -v n="$2" '$0 ~ "^struct " n " \\{" { inb = 1 } inb { print } inb && /^};/ { exit }' "$1" |
		perl -0pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g'
}

# member DECLS FIELD: FIELD's declaration line in a struct body,
# whitespace squeezed (the first match: a nested struct's member of the
# same name would be a false match; fields.h's names are unique enough)
member() {
	grep -E "[^A-Za-z0-9_]\*?$2(\[[^]]*\])?( *:[ 0-9]+)?;" <<<"$1" | head -n 1 |
		sed 's/[[:space:]]\+/ /g; s/^ //; s/ *\/\*.*//; s/ *$//' || true
}

# newconf OLD NEW: config options and static keys NEW's body reads and
# OLD's does not (a feature such as CONFIG_SCHED_CACHE entering the path)
newconf() {
	local x
	x=$(comm -13 <(ids "$1") <(ids "$2") | tr '\n' ' ')
	[ -z "$x" ] || printf ' new: %s' "${x% }"
}
ids() { { grep -oE 'CONFIG_[A-Z0-9_]+|sched_[a-z_]*(enabled|active|present)\b|static_branch_[a-z]+\([a-z_&]+' "$1" || true; } | sort -u; }

old=$(tree "$1") || exit 1
new=$(tree "$2") || exit 1
ver_of() { make -s -C "$1" kernelversion 2>/dev/null || basename "$1"; }
echo "port-diff: $1 -> $2"
echo "  old tree: $old ($(ver_of "$old"))"
echo "  new tree: $new ($(ver_of "$new"))"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-port.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
nchg=0 ngone=0 nsame=0 nnew=0
echo
echo "== functions (kernel/sched/FILE:LINE, old -> new) =="
while read -r f n; do
	[ -n "$f" ] || continue
	locate "$old" "$f" "$n" >"$tmp/o"
	locate "$new" "$f" "$n" >"$tmp/n"
	fo=$(head -n 1 "$tmp/o") fn=$(head -n 1 "$tmp/n")
	sed -i 1d "$tmp/o" "$tmp/n"
	lo=$(head -n 1 "$tmp/o" | tr -d @) ln=$(head -n 1 "$tmp/n" | tr -d @)
	if [ -z "$lo" ] && [ -z "$ln" ]; then
		printf '%-10s %-24s %s\n' absent "$n" "in neither tree"
		continue
	elif [ -z "$ln" ]; then
		printf '%-10s %-24s %s\n' GONE "$n" "$fo:$lo -> -"
		ngone=$((ngone + 1))
		continue
	elif [ -z "$lo" ]; then
		printf '%-10s %-24s %s\n' NEW "$n" "- -> $fn:$ln"
		nnew=$((nnew + 1))
		sed 1d "$tmp/n" >"$tmp/$n.new"
		continue
	fi
	sed -i 1d "$tmp/o" "$tmp/n"
	if diff -q -w -B "$tmp/o" "$tmp/n" >/dev/null; then
		printf '%-10s %-24s %s\n' same "$n" "$fo:$lo -> $fn:$ln"
		nsame=$((nsame + 1))
	else
		diff -u -w -B --label "old/$fo:$lo $n" --label "new/$fn:$ln $n" "$tmp/o" "$tmp/n" >"$tmp/$n.diff" || true
		printf '%-10s %-24s %s (+%d -%d lines)%s\n' CHANGED "$n" "$fo:$lo -> $fn:$ln" \
			"$(grep -c '^+[^+]' "$tmp/$n.diff")" "$(grep -c '^-[^-]' "$tmp/$n.diff")" \
			"$(newconf "$tmp/o" "$tmp/n")"
		nchg=$((nchg + 1))
	fi
done <<<"$PORT_FUNCS"

echo
echo "== fields of module/fields.h (declaration, old -> new) =="
fchg=0 fgone=0
while read -r s file; do
	[ -n "$s" ] || continue
	bo=$(struct_body "$old/$file" "$s") bn=$(struct_body "$new/$file" "$s")
	for m in $(sed -n "s/^SW_SCHED_FIELD($s, \([a-z_]*\)).*/\1/p" "$SW_TOP/module/fields.h" | sort -u); do
		do_=$(member "$bo" "$m") dn=$(member "$bn" "$m")
		if [ -z "$do_" ] && [ -z "$dn" ]; then
			printf '%-10s %-36s %s\n' absent "$s.$m" "in neither (fields.h has it under a compat.h #ifdef)"
		elif [ -z "$dn" ]; then
			printf '%-10s %-36s %s\n' GONE "$s.$m" "$do_ -> -"
			fgone=$((fgone + 1))
		elif [ -z "$do_" ]; then
			printf '%-10s %-36s %s\n' NEW "$s.$m" "- -> $dn"
		elif [ "$do_" = "$dn" ]; then
			printf '%-10s %-36s %s\n' same "$s.$m" "$dn"
		else
			printf '%-10s %-36s %s\n' CHANGED "$s.$m" "$do_ -> $dn"
			fchg=$((fchg + 1))
		fi
	done
done <<<"$PORT_STRUCTS"

echo
echo "== WF_* flags (kernel/sched/sched.h) =="
wf() { grep -E '^#define WF_[A-Z_]+[[:space:]]' "$1/kernel/sched/sched.h" | awk '{ print $2, $3 }'; }
if diff <(wf "$old") <(wf "$new") >"$tmp/wf"; then
	echo "same: $(wf "$new" | tr '\n' ' ')"
else
	sed 's/^</old:/; s/^>/new:/' "$tmp/wf" | grep -E '^(old|new):'
fi

echo
echo "== features.h (bit order, non-rt x86-64; the module takes the bits from the header at build time) =="
# The features in bit order as Debian's x86-64 non-rt configs build them
# (HAVE_RT_PUSH_IPI set, CONFIG_PREEMPT_RT not): the header preprocessed.
feat() {
	printf '#define SCHED_FEAT(x, e) FEAT x\n#define HAVE_RT_PUSH_IPI\n#include "features.h"\n' |
		gcc -E -P -I "$1/kernel/sched" -x c - | sed -n 's/^FEAT \([A-Z_0-9]*\).*/\1/p'
}
bit() { feat "$1" | grep -nx "$2" | cut -d: -f1 | awk '{ print $1 - 1 }'; }
if diff <(feat "$old") <(feat "$new") >"$tmp/feat"; then
	echo "same order ($(feat "$new" | wc -l) features)"
else
	echo "removed: $(grep '^<' "$tmp/feat" | cut -c3- | tr '\n' ' ')"
	echo "added:   $(grep '^>' "$tmp/feat" | cut -c3- | tr '\n' ' ')"
	for x in TTWU_QUEUE SIS_UTIL WA_IDLE WA_WEIGHT WA_BIAS; do
		echo "  $x: bit $(bit "$old" "$x") -> $(bit "$new" "$x")"
	done
fi
echo
echo "summary: functions $nsame same, $nchg changed, $ngone gone, $nnew new; fields $fchg changed, $fgone gone"
if [ "$nodiff" -eq 0 ]; then
	for d in "$tmp"/*.diff; do
		[ -f "$d" ] || continue
		echo
		cat "$d"
	done
fi
