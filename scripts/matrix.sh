#!/usr/bin/env bash
# make matrix: every Debian kernel that the archive has in the series,
# suite and flavour of a row of the kernel table (scripts/common.sh: the
# cloud and generic flavours of 6.1.0-N, 6.12.x+deb12, 6.12.x+deb13,
# 7.2.x+deb14 and 7.3.x+deb13), each fetched into the cache, the module
# built against its headers and source, the guest booted (smp4) and run
# through a short e2e (guest/e2e.sh with 2 load/unload cycles) and
# policy=shadow at mainline knobs (guest/shadow.sh mainline). Prints a
# table release x (build, load, e2e, shadow) with, for each kernel that
# fails, the line that says why (build error, or the kernel log's
# refusal), and writes it to Documentation/figures.md (section "matrix";
# "matrix-arm64" with --arch arm64). Not part of make check: about 300 MB
# of downloads and 5 minutes per kernel.
#
# Usage: scripts/matrix.sh [--arch A] [--list] [--newest|--table] [--only RELEASE,...]
#   --arch A   amd64 (default: the rows of SW_KERNEL_TABLE) or arm64 (the
#              series of SW_KERNEL_TABLE_ARM64: 6.12 deb12 and deb13,
#              arm64 and cloud-arm64, 7.3 arm64; cross-built, booted in
#              qemu-system-aarch64 as guest-run.sh does)
#   --list     print the releases found in the archive, and stop
#   --newest   only the newest release of each series and flavour
#   --table    only the releases of the kernel table itself (their pinned
#              versions, no other release of the series)
#   --only R   only these releases (comma-separated)
. "$(dirname "$0")/common.sh"

list=0 only= newest=0 table_only=0 arch=amd64
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=${2:-}; shift 2 || sw_die "--arch wants amd64 or arm64" ;;
	--list) list=1; shift ;;
	--newest) newest=1; shift ;;
	--table) table_only=1; shift ;;
	--only) only=${2:-}; shift 2 || sw_die "--only wants RELEASE,..." ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done
case $arch in
amd64) ktable=$SW_KERNEL_TABLE section=matrix ;;
arm64) ktable=$SW_KERNEL_TABLE_ARM64 section=matrix-arm64 ;;
*) sw_die "--arch $arch: amd64 or arm64" ;;
esac

# apt-cache over a suite: the host's lists for the host's suite, the
# private ones (fetch-kernel.sh makes them) for another; for arm64 the
# private lists of both architectures (fetch-kernel.sh's, <suite>-arm64)
host_suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
suite_cache() {
	local s=$1 a o=()
	shift
	if [ "$s" = "$host_suite" ] && [ "$arch" = amd64 ]; then
		apt-cache "$@"
		return
	fi
	a=$SW_CACHE/apt/$s
	[ "$arch" = amd64 ] || {
		a+=-$arch
		o=(-o Dir::State::status=/var/lib/dpkg/status
			-o APT::Architectures::=amd64 -o "APT::Architectures::=$arch")
	}
	if [ ! -d "$a/lists" ]; then
		# fetch-kernel.sh makes a suite's lists for a table row of it
		local r
		r=$(awk -v s="$s" '$3 == s { print $1; exit }' <<<"$ktable")
		[ -n "$r" ] || sw_die "no row of the kernel table in suite $s"
		SW_KERNEL=$r "$SW_TOP/scripts/fetch-kernel.sh" --kernel "$r" --print >/dev/null
	fi
	apt-cache -o "Dir::Etc::sourcelist=$a/sources.list" -o Dir::Etc::sourceparts=/nonexistent \
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache" "${o[@]}" "$@"
}

# series_re RELEASE: an ERE for every release of that row's series and
# flavour: 6.1.0-57-cloud-amd64 -> 6\.1\.0-[0-9]+-cloud-amd64,
# 6.12.117+deb13-amd64 -> 6\.12\.[0-9]+\+deb13(\.[0-9]+)?-amd64
series_re() {
	local f abi
	f=$(sw_flavour_of "$1")
	abi=$(sw_abi_of_rel "$1")
	if [[ $abi =~ ^([0-9]+)\.([0-9]+)\.0-[0-9]+$ ]]; then
		printf '%s\\.%s\\.0-[0-9]+-%s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "$f"
	elif [[ $abi =~ ^([0-9]+)\.([0-9]+)\.[0-9]+\+(deb[0-9]+)$ ]]; then
		printf '%s\\.%s\\.[0-9]+\\+%s(\\.[0-9]+)?-%s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" \
			"${BASH_REMATCH[3]}" "$f"
	else
		sw_die "no series pattern for $1"
	fi
}

# Rows "release version suite source-package kbuild-package" for every
# release of the archive in the series, suite and flavour of a row of the
# kernel table (both flavours of bookworm's 6.1.0-N and 6.12.x+deb12,
# trixie's 6.12.x+deb13, sid's 7.2 and trixie-backports' 7.3); with
# --newest only the newest of each; with --table the table's rows.
rows() {
	local rel ver suite src kb re p r v
	while read -r rel ver suite src kb; do
		[ -n "$rel" ] || continue
		if [ "$table_only" -eq 1 ]; then
			echo "$rel $ver $suite $src $kb"
			continue
		fi
		re=$(series_re "$rel")
		for p in $(suite_cache "$suite" search --names-only \
			"^linux-(image-$re-unsigned|binary-unsigned-$re)\$" | awk '{print $1}' |
			sed -E 's/^linux-(image|binary-unsigned)-//; s/-unsigned$//' | sort -uV |
			if [ "$newest" -eq 1 ]; then tail -n1; else cat; fi); do
			r=$p
			v=$(suite_cache "$suite" madison "linux-headers-$r$([ "$arch" = amd64 ] || echo ":$arch")" |
				awk -F'|' 'NR == 1 {gsub(/ /, "", $2); print $2}')
			[ -n "$v" ] || continue
			echo "$r $v $suite $src $kb"
		done
	done <<<"$ktable"
}

mapfile -t all < <(rows)
[ ${#all[@]} -gt 0 ] || sw_die "no kernel of the table's series found in the archive lists"
if [ "$list" -eq 1 ]; then
	printf '%s\n' "${all[@]}"
	exit 0
fi

# Every row joins the kernel table (the arm64 one for arm64), so
# fetch-kernel.sh, build-modules.sh and guest-run.sh take each release by
# name.
extra=$(printf '%s\n' "${all[@]}" | while read -r r _; do
	{ sw_kernels; sw_kernels_arm64; } | grep -qxF "$r" || grep -F "$r " <<<"$(printf '%s\n' "${all[@]}")"
done)
if [ "$arch" = amd64 ]; then
	export SMARTWAKE_MATRIX_KERNELS=$'\n'$extra$'\n'
else
	export SMARTWAKE_MATRIX_KERNELS_ARM64=$'\n'$extra$'\n'
fi

# build_for RELEASE: its shipped and testing builds (the default kernel's
# shipped build is plain make's module/)
build_for() {
	if [ "$1" = "$SW_DEFAULT_KREL" ]; then
		make -s -C "$SW_TOP" module && "$SW_TOP/scripts/build-modules.sh" --testing
	else
		SW_KERNEL=$1 "$SW_TOP/scripts/build-modules.sh" --kernel-release "$1" &&
			SW_KERNEL=$1 "$SW_TOP/scripts/build-modules.sh" --kernel-release "$1" --testing
	fi
}

logs=$SW_TOP/build/logs/matrix
mkdir -p "$logs"

# guest_col REL SCRIPT ARGS...: run SCRIPT on REL (smp4); prints the
# column, "ok (N passed, N failed)" or "FAIL (...)", and sets WHY on failure
guest_col() {
	local rel=$1 script=$2 log rc=0 counts
	shift 2
	log=$logs/$rel.${script%.sh}.console
	SW_KERNEL=$rel "$SW_TOP/scripts/guest-run.sh" --kernel-release "$rel" --topo smp4 \
		--timeout 600 --log "$log" "$script" "$@" >"$logs/$rel.${script%.sh}" 2>&1 || rc=$?
	counts=$(grep -Eo '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	if [ "$rc" -eq 0 ]; then
		echo "ok ($counts)"
		return 0
	fi
	echo "FAIL (${counts:-no result})"
	WHY=$(grep -m1 -E 'smartwake: .*(refus|mismatch|not found|disagrees|nothing hooked)' "$log" |
		sed 's/^\[ *[0-9.]*\] //')
	[ -n "$WHY" ] || WHY=$(grep -m1 '^not ok ' "$log")
	return 1
}

table="| release | Debian version | build | load | e2e | shadow at mainline knobs | why not |
|---|---|---|---|---|---|---|"
for row in "${all[@]}"; do
	read -r rel ver _ <<<"$row"
	[ -z "$only" ] || [[ ",$only," == *",$rel,"* ]] || continue
	sw_log "matrix: $rel ($ver)"
	b=FAIL l=- e=- sh=- WHY=
	if ! SW_KERNEL=$rel "$SW_TOP/scripts/fetch-kernel.sh" --kernel "$rel" >"$logs/$rel.fetch" 2>&1; then
		b=- WHY="fetch: $(grep -m1 'error' "$logs/$rel.fetch" || tail -n1 "$logs/$rel.fetch")"
	elif build_for "$rel" >"$logs/$rel.build" 2>&1; then
		b=ok
		e=$(guest_col "$rel" e2e.sh 2) || true
		if grep -qE '^ok [0-9]+ insmod' "$logs/$rel.e2e.console"; then l=ok; else l=FAIL; fi
		sh=$(guest_col "$rel" shadow.sh mainline) || true
		c=$(grep -o 'SHADOW-FIGURES compared=[0-9]* agree=[0-9]* disagree=[0-9]*' \
			"$logs/$rel.shadow.console" | tail -n1 | sed 's/SHADOW-FIGURES //; s/=/ /g' || true)
		[ -z "$c" ] || sh+=": $c"
		[[ $e == ok* && $sh == ok* ]] || [ -n "$WHY" ] ||
			WHY=$(grep -h -m1 '^not ok ' "$logs/$rel.e2e.console" "$logs/$rel.shadow.console" | head -n1 || true)
	else
		WHY="build: $(grep -m1 -E 'error|refused' "$logs/$rel.build")"
	fi
	WHY=${WHY//|/\\|}
	table+=$'\n'"| \`$rel\` | $ver | $b | $l | $e | $sh | ${WHY:0:160} |"
	printf '%s\n' "$table" | tail -n1
done

printf '\n%s\n' "$table"
[ -n "$only" ] && exit 0
{
	a=$([ "$arch" = amd64 ] || echo " ($arch)")
	if [ "$newest" -eq 1 ]; then
		printf '## make matrix%s: the newest Debian kernel of each supported series and flavour\n\n' "$a"
	elif [ "$table_only" -eq 1 ]; then
		printf '## make matrix%s: the Debian kernels of the kernel table\n\n' "$a"
	else
		printf '## make matrix%s: every Debian kernel of the supported series and flavours\n\n' "$a"
	fi
	printf 'scripts/matrix.sh%s%s%s: each release fetched, built for, booted (smp4),\n' \
		"$([ "$arch" = amd64 ] || echo " --arch $arch")" \
		"$([ "$newest" -eq 0 ] || echo ' --newest')" "$([ "$table_only" -eq 0 ] || echo ' --table')"
	printf 'run through guest/e2e.sh with 2 load/unload cycles and through\n'
	printf 'guest/shadow.sh mainline (compared, agree, disagree: its wakeups).\n\n%s\n' "$table"
} | "$SW_TOP/scripts/figures.sh" "$section" -
