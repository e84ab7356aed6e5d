#!/usr/bin/env bash
# make check step "flavours": for every release of the kernel table in a
# flavour other than cloud-amd64 (the generic -amd64), its configuration
# against its cloud twin's (the same Debian version), on every option that
# the scheduler's code or the module names: CONFIG_* in the release's
# kernel/sched/{core,fair,sched,features,topology}.{c,h},
# include/linux/sched.h, include/linux/sched/*.h and include/linux/
# {ftrace,kprobes,livepatch,btf}.h, and in module/, include/ and kunit/.
# A difference not in the list below of known ones (each with why it does
# not matter to the module) fails the step: then the flavour needs the
# full set of steps, not just its load and its agreement with the kernel
# (testing.md, "The test-time budget").
#
# Usage: scripts/flavour-diff.sh [--release R] [--against CONFIG]
#   --release R    only this release (default: every non-cloud row)
#   --against F    compare R's configuration with the file F instead of its
#                  cloud twin's (the step's negative control)
. "$(dirname "$0")/common.sh"
. "$SW_TOP/scripts/testlib.sh"

only= against=
while [ $# -gt 0 ]; do
	case $1 in
	--release) only=${2:-}; shift 2 || sw_die "--release wants a release" ;;
	--against) against=${2:-}; shift 2 || sw_die "--against wants a file" ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done

# The known differences: OPTION and why the module does not care.
known="
NUMA_EMU numa=fake= only: the guests and a real machine without it boot with the nodes the firmware gives
AMD_NUMA node discovery from AMD northbridges: the nodes, not the code that places wakeups on them
X86_MCE the machine-check fields of task_struct (none in the cloud flavour of 6.1): the fields after them move, which the own build of the flavour compiles and compat checks against its BTF
"

# config_of RELEASE: "KDIR KSRC" of that release (fetched if needed)
config_of() {
	SW_KERNEL=$1 "$SW_TOP/scripts/fetch-kernel.sh" --kernel "$1" >/dev/null 2>&1 ||
		sw_die "could not fetch $1 (scripts/fetch-kernel.sh --kernel $1)"
	(
		SW_KERNEL=$1
		[ "$SW_KERNEL" != "$SW_DEFAULT_KREL" ] || SW_KERNEL=
		sw_stock_env
		echo "$SW_KDIR $SW_KSRC"
	)
}

# options KSRC: the options the scheduler's code and the module name
options() {
	local s=$1
	{
		cat "$s"/kernel/sched/{core.c,fair.c,sched.h,features.h,topology.c} \
			"$s"/include/linux/sched.h "$s"/include/linux/sched/*.h \
			"$s"/include/linux/{ftrace,kprobes,livepatch,btf}.h 2>/dev/null
		cat "$SW_TOP"/module/*.[ch] "$SW_TOP"/module/path/*.[ch] "$SW_TOP"/include/*.h "$SW_TOP"/kunit/*.c \
			"$SW_TOP"/module/Kbuild 2>/dev/null
	} | grep -oE '\bCONFIG_[A-Z0-9_]+' | sed 's/^CONFIG_//' | sort -u
}

# compare R CONFIG TWIN-CONFIG KSRC: prints each difference; sets N (options
# compared) and BAD (differences not known)
compare() {
	local r=$1 line o a b why
	N=0 BAD=0
	# "OPTION TWIN-VALUE VALUE" for every option of the list (unset: "unset")
	while read -r line; do
		case $line in
		N=*) N=${line#N=}; continue ;;
		esac
		read -r o a b <<<"$line"
		why=$(awk -v o="$o" '$1 == o { $1 = ""; sub(/^ /, ""); print }' <<<"$known")
		if [ -n "$why" ]; then
			echo "# $r: CONFIG_$o $a -> $b: known ($why)"
		else
			echo "# $r: CONFIG_$o $a -> $b: NOT KNOWN"
			BAD=$((BAD + 1))
		fi
	done < <(options "$4" | awk -v t="$3" -v c="$2" '
		FNR == 1 { f++ }
		f == 1 { want[$1] = 1; n++; next }
		/^CONFIG_[A-Z0-9_]+=/ {
			k = substr($0, 8, index($0, "=") - 8)
			v = substr($0, index($0, "=") + 1)
			if (f == 2) tv[k] = v; else cv[k] = v
		}
		END {
			print "N=" n
			for (o in want) {
				a = (o in tv) ? tv[o] : "unset"
				b = (o in cv) ? cv[o] : "unset"
				if (a != b) print o, a, b
			}
		}' - "$3" "$2")
}

rels=()
for r in $(sw_kernels); do
	[ "$(sw_flavour_of "$r")" != "$SW_DEFAULT_FLAVOUR" ] || continue
	[ -z "$only" ] || [ "$r" = "$only" ] || continue
	rels+=("$r")
done
[ ${#rels[@]} -gt 0 ] || sw_die "no release of another flavour in the table${only:+ named $only}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-flavours.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for r in "${rels[@]}"; do
	twin=$(sw_abi_of_rel "$r")-$SW_DEFAULT_FLAVOUR
	read -r kdir ksrc <<<"$(config_of "$r")"
	cfg=$kdir/.config
	if [ -n "$against" ]; then
		tcfg=$against
	else
		read -r tkdir _ <<<"$(config_of "$twin")"
		tcfg=$tkdir/.config
	fi
	check "$r: configuration present" test -s "$cfg"
	check "$r: its twin's configuration present ($tcfg)" test -s "$tcfg"
	compare "$r" "$cfg" "$tcfg" "$ksrc"
	echo "# $r: $(diff <(grep '^CONFIG_' "$tcfg" | sort) <(grep '^CONFIG_' "$cfg" | sort) |
		grep -c '^>') lines of its whole configuration differ from $twin's (drivers and the like)"
	check "$r: options compared ($N, named by the scheduler's code and the module)" test "$N" -ge 100
	check "$r: no difference from $twin outside the known ones ($BAD)" test "$BAD" -eq 0
done

# The control: the first release against its own configuration with one
# option the module builds on flipped must show exactly that difference.
[ -n "$against" ] || {
	r=${rels[0]}
	read -r kdir ksrc <<<"$(config_of "$r")"
	sed 's/^CONFIG_SCHED_CLUSTER=y$/# CONFIG_SCHED_CLUSTER is not set/' "$kdir/.config" >"$tmp/flipped"
	out=$(compare "$r" "$kdir/.config" "$tmp/flipped" "$ksrc"; echo "BAD=$BAD")
	check "control: $r against itself with SCHED_CLUSTER unset: one unknown difference, that one" \
		eval 'grep -qx "BAD=1" <<<"$out" && grep -q "CONFIG_SCHED_CLUSTER unset -> y: NOT KNOWN" <<<"$out"'
}
summary
