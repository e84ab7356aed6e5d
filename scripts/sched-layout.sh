#!/usr/bin/env bash
# The scheduler layouts a smartwake build compiled with: for every field
# of module/fields.h its offset and size, the size of every structure, and
# the sched feature indices (__SCHED_FEAT_*), one per line. make check's
# headers-only step diffs the listing of the full-source build (module/,
# the kernel's private sched.h) with that of the headers-only build
# (build/headers-only/, the layouts tools/btfgen made from the BTF), and
# both with the BTF's own (--from-btf).
#
# Usage: scripts/sched-layout.sh [--btf FILE] [--from-btf] [TREE]
#   TREE        a tree whose module/ kbuild has built (default: this
#               clone after a plain make; build/headers-only for the
#               headers-only build)
#   --btf FILE  the kernel's BTF (default: the default kernel's headers'
#               vmlinux); it names the fields and enumerators to list
#   --from-btf  print the BTF's listing, not a build's
#
# How: a small C file asks the compiler for each value (offsetof, sizeof,
# the enumerators) as asm-offsets.c does, compiled with the very command
# kbuild used for module/compat.o, so with the same "sched.h" the build
# used; the values are read from the assembly.
. "$(dirname "$0")/common.sh"

tree=$SW_TOP btf= frombtf=0
while [ $# -gt 0 ]; do
	case $1 in
	--btf) btf=${2:-}; shift 2 || sw_die "--btf wants a file" ;;
	--from-btf) frombtf=1; shift ;;
	-h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) sw_die "unknown argument: $1 (try --help)" ;;
	*) tree=$1; shift ;;
	esac
done
sw_stock_env
[ -n "$btf" ] || btf=$SW_KDIR/vmlinux
[ -f "$btf" ] || sw_die "no BTF $btf (give --btf FILE)"
tree=$(cd "$tree" && pwd) || sw_die "no tree $tree"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-layout.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

make -s -C "$SW_TOP/tools/btfgen"
"$SW_TOP/tools/btfgen/btfgen" -l -e __SCHED_FEAT_ "$btf" "$tree/module/fields.h" >"$tmp/btf" ||
	sw_die "tools/btfgen failed on $btf"
if [ "$frombtf" -eq 1 ]; then
	cat "$tmp/btf"
	exit 0
fi

# One asm statement per line of the BTF's listing.
{
	echo '#include "ksched.h"'
	echo '#define L(s, v) asm volatile("\n.ascii \"@SWL " s "\"" : : "i" ((long)(v)))'
	echo '#define M(s, st, m) asm volatile("\n.ascii \"@SWL " s " offset %c0 size %c1\"" : : \'
	echo '	"i" (offsetof(struct st, m)), "i" (sizeof(((struct st *)0)->m)))'
	echo '#define F(s, st, m) asm volatile("\n.ascii \"@SWL " s " offset %c0 size flex\"" : : \'
	echo '	"i" (offsetof(struct st, m)))'
	echo 'void sw_layout_listing(void);'
	echo 'void sw_layout_listing(void)'
	echo '{'
	awk '
	$1 == "struct" { printf "\tL(\"struct %s size %%c0\", sizeof(struct %s));\n", $2, $2; next }
	$1 == "enum" { printf "\tL(\"enum %s %%c0\", %s);\n", $2, $2; next }
	$2 == "missing" { printf "\tL(\"%s missing\", 0);\n", $1; next }
	{
		split($1, p, ".")
		printf "\t%s(\"%s\", %s, %s);\n", $NF == "flex" ? "F" : "M", $1, p[1], p[2]
	}' "$tmp/btf"
	echo '}'
} >"$tmp/listing.c"

cmdf=$tree/module/.compat.o.cmd
[ -f "$cmdf" ] || sw_die "$tree/module has not been built (no .compat.o.cmd)"
cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdf")
cmd=${cmd//"-o $tree/module/compat.o $tree/module/compat.c"/-o $tmp/listing.s $tmp/listing.c}
cmd=${cmd//"-Wp,-MMD,$tree/module/.compat.o.d"/}
[[ $cmd == *"$tmp/listing.c"* ]] || sw_die "cannot read kbuild's command in $cmdf"
(cd "$SW_KDIR" && eval "$cmd -S -I$tree/module") >"$tmp/cc" 2>&1 ||
	{ cat "$tmp/cc" >&2; sw_die "the listing does not compile against $tree"; }
sed -n 's/^[[:space:]]*\.ascii[[:space:]]*"@SWL \(.*\)"$/\1/p' "$tmp/listing.s"
