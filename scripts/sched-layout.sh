#!/usr/bin/env bash
# The scheduler layouts a smartwake build compiled with: for every field
# of module/fields.h its offset and size, the size of every structure, the
# sched feature indices (__SCHED_FEAT_*), and (not from the BTF, which has
# no macros) the wake flags WF_* the private header defines, one per line.
# make check's headers-only steps diff the listing of the full-source
# build (module/ or build/<release>/, the kernel's private sched.h) with
# that of the headers-only build (build/[<release>-]headers-only/, the
# layouts tools/btfgen made from the BTF), and both, but for the macro
# lines, with the BTF's own (--from-btf).
#
# Usage: scripts/sched-layout.sh [--kernel-release R] [--btf FILE] [--from-btf] [TREE]
#   TREE        a tree whose module/ kbuild has built (default: this
#               clone after a plain make; build/headers-only for the
#               headers-only build)
#   --kernel-release R  the kernel the tree was built for (default: the
#               default kernel, or SMARTWAKE_KERNEL)
#   --btf FILE  the kernel's BTF (default: that kernel's, as the
#               headers-only build takes it: its headers' vmlinux, or the
#               .BTF section of its cached image); it names the fields and
#               enumerators to list
#   --from-btf  print the BTF's listing, not a build's

# How: a small C file asks the compiler for each value (offsetof, sizeof,
# the enumerators) as asm-offsets.c does, compiled with the very command
# kbuild used for module/layout.o, so with the same "sched.h" the build
# used; the values are read from the assembly.
. "$(dirname "$0")/common.sh"

tree=$SW_TOP btf= frombtf=0
while [ $# -gt 0 ]; do
	case $1 in
	--btf) btf=${2:-}; shift 2 || sw_die "--btf wants a file" ;;
	--from-btf) frombtf=1; shift ;;
	--kernel-release) SW_KERNEL=${2:-}; shift 2 || sw_die "--kernel-release wants a release"
		[ "$SW_KERNEL" != "$SW_DEFAULT_KREL" ] || SW_KERNEL= ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	-*) sw_die "unknown argument: $1 (try --help)" ;;
	*) tree=$1; shift ;;
	esac
done
sw_stock_env
[ -n "$btf" ] || btf=$(sw_kernel_btf)
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
	for m in WF_EXEC WF_FORK WF_TTWU WF_SYNC WF_MIGRATED WF_CURRENT_CPU; do
		printf '#ifdef %s\n\tL("macro %s %%c0", %s);\n#else\n\tL("macro %s undefined", 0);\n#endif\n' \
			"$m" "$m" "$m" "$m"
	done
	echo '}'
} >"$tmp/listing.c"

cmdf=$tree/module/.layout.o.cmd
[ -f "$cmdf" ] || sw_die "$tree/module has not been built (no .layout.o.cmd)"
# (6.1's kbuild names it cmd_, later ones savedcmd_; up to 6.12 kbuild
# runs in the kernel tree with absolute module paths, from 6.13 in the
# module's tree with relative ones)
cmd=$(sed -n '1s/^\(saved\)\{0,1\}cmd_[^ ]* := //p' "$cmdf")
cmd=${cmd%%; *} # 6.1's also runs objtool, after a ";"
cwd=$SW_KDIR
if [[ $cmd == *" -o module/layout.o module/layout.c"* ]]; then
	cwd=$tree
	cmd=${cmd//"-o module/layout.o module/layout.c"/-o $tmp/listing.s $tmp/listing.c}
	cmd=${cmd//"-Wp,-MMD,module/.layout.o.d"/}
fi
cmd=${cmd//"-o $tree/module/layout.o $tree/module/layout.c"/-o $tmp/listing.s $tmp/listing.c}
cmd=${cmd//"-Wp,-MMD,$tree/module/.layout.o.d"/}
[[ $cmd == *"$tmp/listing.c"* ]] || sw_die "cannot read kbuild's command in $cmdf"
(cd "$cwd" && eval "$cmd -S -I$tree/module") >"$tmp/cc" 2>&1 ||
	{ cat "$tmp/cc" >&2; sw_die "the listing does not compile against $tree"; }
sed -n 's/^[[:space:]]*\.ascii[[:space:]]*"@SWL \(.*\)"$/\1/p' "$tmp/listing.s"
