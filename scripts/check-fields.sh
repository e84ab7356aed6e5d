#!/usr/bin/env bash
# Guard of the load-time layout check (module/layout.c): every field of a
# scheduler structure that the module's code reads is in the list of
# module/fields.h, every listed field is read, and the module's own
# functions read those fields only through the list's accessors.
#
# Usage: scripts/check-fields.sh [--tree DIR] [--verbose] [FILE.c...]
#   --tree DIR  a tree whose module/ kbuild has built (default: this clone,
#               after a plain make); its sources are compiled again
#   --verbose   print every field read and by which function
#   FILE.c      only these files of module/, e.g. bpf.c or path/sis.c
#               (then a listed field read nowhere is not looked for)
#
# Prints one line per problem, naming the field, and exits non-zero.

# How: each module/*.c and module/path/*.c is compiled again with the very
# command kbuild used (module/.NAME.o.cmd), plus -fdump-tree-original-raw. GCC's dump holds the
# body of every function of the translation unit, member accesses typed by
# their structure (nested and anonymous members resolved level by level),
# and the calls. The functions the object file defines (nm) are the roots;
# a read counts if a root reaches it through calls, so reads inside the
# kernel's inline helpers (cpu_of(), is_per_cpu_kthread(),
# sched_domain_span(), ...) count as the module's, which a grep of the
# sources cannot see. Checked structures: those defined in the kernel's
# kernel/sched/*.h, include/linux/sched.h and include/linux/sched/*.h.
# The list is read from the same dump (the accessors sw_field_S__M that
# module/sched_fields.h makes of it), so #ifdef'd entries count as compiled.
#
# Why the compiler: a grep of the sources sees neither the reads inside
# the kernel's helpers (how rq.cpu and task_struct.nr_cpus_allowed went
# unchecked) nor what macros and #ifdefs make of the code; and the
# accessors alone cannot hide the structures, since the module includes
# the private sched.h. The dump format is GCC's (the kernel's compiler,
# from kbuild's command): if it changed, no accessor would be found and
# the guard fails rather than passes. Not seen: a field reached by pointer
# arithmetic (offsetof) instead of a member access, and calls through
# function pointers. Only the stock kernel's configuration is compiled:
# the debug kernel has no BTF, so no layout check.
. "$(dirname "$0")/common.sh"

tree=$SW_TOP verbose=0 only=()
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=${2:-}; shift 2 || sw_die "--tree wants a directory" ;;
	--verbose) verbose=1; shift ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	-*) sw_die "unknown argument: $1 (try --help)" ;;
	*) only+=("$1"); shift ;;
	esac
done
sw_stock_env
tree=$(cd "$tree" && pwd) || sw_die "no tree $tree"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-fields.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The checked structures, by their definitions in the kernel's headers.
sed -n 's/^struct \([A-Za-z0-9_]*\) {.*/\1/p' "$SW_KSRC"/kernel/sched/*.h \
	"$SW_KSRC"/include/linux/sched.h "$SW_KSRC"/include/linux/sched/*.h |
	sort -u >"$tmp/structs"
[ -s "$tmp/structs" ] || sw_die "no struct definitions under $SW_KSRC"

# The module's own files: a function defined there must use the accessors.
(cd "$tree" && ls module/*.[ch] module/path/*.[ch] include/smartwake/*.h) | sed 's|.*/||' |
	sort -u >"$tmp/ownfiles"

# parse.awk: gcc -fdump-tree-original-raw -> lines
#   fn NAME FILE          a function body and where it is defined
#   rd NAME STRUCT MEMBER a member read (or written) in NAME's body
#   call NAME CALLEE      a direct call
cat >"$tmp/parse.awk" <<'EOF'
function attr(id, key,   s, i) {
	s = node[id]
	i = index(s, " " key ": ")
	if (!i)
		return ""
	s = substr(s, i + length(key) + 3)
	sub(/^ +/, "", s)
	sub(/ .*/, "", s)
	return s
}
function strg(id,   s) {
	if (kind[id] == "type_decl")
		return strg(attr(id, "name"))
	if (kind[id] != "identifier_node")
		return ""
	s = node[id]
	sub(/.*strg: /, "", s)
	sub(/ +lngt:.*/, "", s)
	return s
}
# The structure whose member a component_ref names; an anonymous
# struct or union is the member of the level above.
function recname(cr,   n, b) {
	n = strg(attr(attr(attr(cr, "op 1"), "scpe"), "name"))
	if (n != "")
		return n
	b = attr(cr, "op 0")
	return kind[b] == "component_ref" ? recname(b) : "?"
}
function flush(   id, src, m, x, fd) {
	if (fname == "")
		return
	src = "?"
	for (id in node)
		if (kind[id] == "function_decl" && strg(attr(id, "name")) == fname) {
			src = attr(id, "srcp")
			sub(/:.*/, "", src)
			break
		}
	print "fn", fname, src
	for (id in node) {
		if (kind[id] == "component_ref") {
			m = strg(attr(attr(id, "op 1"), "name"))
			if (m != "")
				print "rd", fname, recname(id), m
		} else if (kind[id] == "call_expr") {
			x = attr(id, "fn  ")
			fd = attr(x, "op 0")
			if (kind[x] == "addr_expr" && kind[fd] == "function_decl")
				print "call", fname, strg(attr(fd, "name"))
		}
	}
	delete node
	delete kind
}
/^;; Function / { flush(); fname = $3; next }
/^@[0-9]+ / { cur = $1; kind[cur] = $2; node[cur] = " " substr($0, length($1) + 1); next }
/^ +/ { if (cur != "") node[cur] = node[cur] " " $0; next }
END { flush() }
EOF

# check.awk: one translation unit. Inputs: structs, ownfiles, the
# object's defined functions, the parsed dump. Prints
#   listed S.M | read S.M FN FILE | direct S.M FN FILE
cat >"$tmp/check.awk" <<'EOF'
FILENAME == ARGV[1] { guarded[$1] = 1; next }
FILENAME == ARGV[2] { own[$1] = 1; next }
FILENAME == ARGV[3] { sub(/\..*/, "", $1); root[$1] = 1; next }
$1 == "fn" { src[$2] = $3; if ($2 ~ /^sw_field_.*__/) listed[$2] = 1; next }
$1 == "rd" { if ($3 in guarded) { nrd[$2]++; rds[$2, nrd[$2]] = $3 "." $4 } next }
$1 == "call" { ncall[$2]++; calls[$2, ncall[$2]] = $3; next }
END {
	for (f in listed) {
		s = substr(f, 10)
		i = index(s, "__")
		print "listed", substr(s, 1, i - 1) "." substr(s, i + 2)
	}
	n = 0
	for (f in root)
		if (f in src) {
			queue[++n] = f
			seen[f] = 1
		}
	for (q = 1; q <= n; q++) {
		f = queue[q]
		for (i = 1; i <= ncall[f]; i++) {
			g = calls[f, i]
			if ((g in src) && !(g in seen)) {
				seen[g] = 1
				queue[++n] = g
			}
		}
	}
	for (q = 1; q <= n; q++) {
		f = queue[q]
		for (i = 1; i <= nrd[f]; i++) {
			print "read", rds[f, i], f, src[f]
			# the module's .c files; its headers by the sw_ prefix
			# (stats.h and trace.h are also kernel header names)
			if ((src[f] in own) && (src[f] ~ /\.c$/ || f ~ /^sw_/) &&
			    !(f in listed))
				print "direct", rds[f, i], f, src[f]
		}
	}
}
EOF

: >"$tmp/all"
# one_file BASE: compile module/BASE.c with kbuild's command and the dump;
# BASE.out gets check.awk's lines, BASE.err a reason it could not.
one_file() {
	local base=$1 t=${1//\//_} dir name cmdf obj cmd
	dir=$(dirname "$base") name=$(basename "$base")
	cmdf=$tree/module/$dir/.$name.o.cmd
	# kbuild's command, with the tree it ran in replaced by this one
	obj=$(sed -n 's/^savedcmd_\([^ ]*\) := .*/\1/p' "$cmdf")
	cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdf")
	cmd=${cmd//"${obj%/module/"$base".o}"/$tree}
	cmd=${cmd//"-o $tree/module/$base.o"/-o $tmp/$t.o}
	cmd=${cmd//"-Wp,-MMD,$tree/module/$dir/.$name.o.d"/}
	if ! (cd "$SW_KDIR" && eval "$cmd -fdump-tree-original-raw=$tmp/$t.raw") \
		>"$tmp/$t.cc" 2>&1; then
		{
			echo "module/$base.c does not compile:"
			grep -E 'error' "$tmp/$t.cc" | head -n 5
		} >"$tmp/$t.err"
		return
	fi
	nm --defined-only "$tmp/$t.o" | awk '$2 ~ /^[tT]$/ { print $3 }' >"$tmp/$t.roots"
	awk -f "$tmp/parse.awk" "$tmp/$t.raw" >"$tmp/$t.parsed"
	rm -f "$tmp/$t.raw"
	awk -f "$tmp/check.awk" "$tmp/structs" "$tmp/ownfiles" "$tmp/$t.roots" \
		"$tmp/$t.parsed" | sed "s|\$| module/$base.c|" >"$tmp/$t.out"
	touch "$tmp/$t.done"
}

# tu FILE: the translation unit module/FILE (path/sis.c, bpf.c; a bare name
# of module/path/ too) is compiled in, as DIR/BASE: itself, or the file
# that includes it (module/path/path.c includes the wakeup path's files,
# as kernel/sched/build_policy.c does)
tu() {
	local f=${1%.c} inc d
	[ -f "$tree/module/$f.c" ] || [ ! -f "$tree/module/path/$f.c" ] || f=path/$f
	d=$(dirname "$f")
	if [ -f "$tree/module/$d/.$(basename "$f").o.cmd" ]; then
		echo "$f"
		return
	fi
	inc=$(grep -l "^#include \"$(basename "$f")\.c\"" "$tree/module/$d"/*.c | head -n 1)
	[ -n "$inc" ] && echo "${inc#"$tree"/module/}" | sed 's/\.c$//' || echo "$f"
}

rc=0 n=0 bases=()
if [ ${#only[@]} -gt 0 ]; then
	for c in "${only[@]}"; do
		[ -f "$tree/module/$c" ] || [ -f "$tree/module/path/$c" ] ||
			sw_die "no module/$c in $tree"
		bases+=("$(tu "$c")")
	done
else
	for c in "$tree"/module/*.c "$tree"/module/path/*.c; do
		bases+=("$(tu "${c#"$tree"/module/}")")
	done
fi
mapfile -t bases < <(printf '%s\n' "${bases[@]}" | sort -u)
# two compilers at a time (a dump is ~45 MB, a compile ~2 s)
running=0
for base in "${bases[@]}"; do
	if [ ! -f "$tree/module/$(dirname "$base")/.$(basename "$base").o.cmd" ]; then
		# testing.c is in the testing build only
		[ "$base" = testing ] && continue
		echo "module/$base.c: no .$(basename "$base").o.cmd: build the module first (make)"
		rc=1
		continue
	fi
	one_file "$base" &
	running=$((running + 1))
	if [ "$running" -ge 2 ]; then
		wait -n || true
		running=$((running - 1))
	fi
	n=$((n + 1))
done
wait
: >"$tmp/all"
for base in "${bases[@]}"; do
	t=${base//\//_}
	if [ -s "$tmp/$t.err" ]; then
		cat "$tmp/$t.err"
		rc=1
	fi
	if [ -f "$tmp/$t.done" ]; then
		cat "$tmp/$t.out" >>"$tmp/all"
	elif [ -f "$tree/module/$(dirname "$base")/.$(basename "$base").o.cmd" ] && [ ! -s "$tmp/$t.err" ]; then
		echo "module/$base.c: the dump of its compile could not be read"
		rc=1
	fi
done
[ "$n" -gt 0 ] || sw_die "no module/*.c compiled"

# The list as compiled (every translation unit includes the same header,
# so the union is the list), the reads, and the two differences.
awk '$1 == "listed" { print $2 }' "$tmp/all" | sort -u >"$tmp/listed"
awk '$1 == "read" { print $2 }' "$tmp/all" | sort -u >"$tmp/read"
[ -s "$tmp/listed" ] || { echo "no accessor sw_field_*: is module/sched_fields.h included?"; rc=1; }
if [ "$verbose" -eq 1 ]; then
	awk '$1 == "read" { print "read " $2 " by " $3 " (" $4 ", " $5 ")" }' "$tmp/all" | sort -u
fi
while read -r f; do
	awk -v f="$f" '$1 == "read" && $2 == f { print $3 " (" $4 ", in " $5 ")" }' "$tmp/all" |
		sort -u | head -n 3 | sed "s/^/$f is read but not in module\/fields.h: by /"
	rc=1
done < <(comm -13 "$tmp/listed" "$tmp/read")
# (only over all files: a field may be read in another one)
while [ ${#only[@]} -eq 0 ] && read -r f; do
	echo "$f is listed in module/fields.h but read nowhere"
	rc=1
done < <(comm -23 "$tmp/listed" "$tmp/read")
if awk '$1 == "direct" { found = 1 } END { exit !found }' "$tmp/all"; then
	awk '$1 == "direct" { print $2 " is read directly by " $3 " (" $4 "): use its accessor from sched_fields.h" }' \
		"$tmp/all" | sort -u
	rc=1
fi
echo "sched fields: $(wc -l <"$tmp/listed") listed, $(wc -l <"$tmp/read") read by $n translation units: $([ $rc -eq 0 ] && echo match || echo MISMATCH)"
exit "$rc"
