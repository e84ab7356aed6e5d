#!/usr/bin/env bash
# make matrix: every Debian cloud-amd64 kernel of the supported series that
# the archive has (6.1.0-*, 6.12.*+deb12, 6.12.*+deb13), each fetched into
# the cache, the module built against its headers and source, the guest
# booted and a short e2e run (guest/e2e.sh with 2 load/unload cycles).
# Prints a table release x (build, load, e2e) with, for each kernel that
# fails, the line that says why (build error, or the kernel log's refusal),
# and writes it to Documentation/figures.md (section "matrix"). Not part of
# make check: about 300 MB of downloads and 4 minutes per kernel.
#
# Usage: scripts/matrix.sh [--list] [--only RELEASE,...]
#   --list     print the releases found in the archive, and stop
#   --only R   only these releases (comma-separated)
. "$(dirname "$0")/common.sh"

list=0 only=
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=1; shift ;;
	--only) only=${2:-}; shift 2 || sw_die "--only wants RELEASE,..." ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done

# apt-cache over a suite: the host's lists for the host's suite, the
# private ones (fetch-kernel.sh makes them) for another.
host_suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
suite_cache() {
	local s=$1 a
	shift
	if [ "$s" = "$host_suite" ]; then
		apt-cache "$@"
		return
	fi
	a=$SW_CACHE/apt/$s
	[ -d "$a/lists" ] || SW_KERNEL=6.12.117+deb13-cloud-amd64 "$SW_TOP/scripts/fetch-kernel.sh" \
		--kernel 6.12.117+deb13-cloud-amd64 --print >/dev/null
	apt-cache -o "Dir::Etc::sourcelist=$a/sources.list" -o Dir::Etc::sourceparts=/nonexistent \
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache" "$@"
}

# Rows "release version suite source-package kbuild-package" for every
# cloud image of the supported series: bookworm's 6.1.0-N and
# 6.12.x+deb12, trixie's 6.12.x+deb13.
rows() {
	local s re rel ver series src kb
	for s in bookworm trixie; do
		case $s in
		bookworm) re='^linux-image-(6\.1\.0-[0-9]+|6\.12\.[0-9]+\+deb12)-cloud-amd64-unsigned$' ;;
		trixie) re='^linux-image-6\.12\.[0-9]+\+deb13-cloud-amd64-unsigned$' ;;
		esac
		for p in $(suite_cache "$s" search --names-only "$re" | awk '{print $1}' | sort -V); do
			rel=${p#linux-image-}
			rel=${rel%-unsigned}
			ver=$(suite_cache "$s" madison "$p" | awk -F'|' 'NR == 1 {gsub(/ /, "", $2); print $2}')
			series=$(cut -d. -f1,2 <<<"$rel")
			src=linux-source-$series kb=
			[ "$series" = 6.1 ] && kb=linux-kbuild-6.1
			echo "$rel $ver $s $src $kb"
		done
	done
}

mapfile -t all < <(rows)
[ ${#all[@]} -gt 0 ] || sw_die "no cloud-amd64 kernel found in the archive lists"
if [ "$list" -eq 1 ]; then
	printf '%s\n' "${all[@]}"
	exit 0
fi

# Every row joins the kernel table, so fetch-kernel.sh, build-modules.sh
# and guest-run.sh take each release by name.
SMARTWAKE_MATRIX_KERNELS=$(printf '%s\n' "${all[@]}" | while read -r r _; do
	sw_kernels | grep -qxF "$r" || grep -F "$r " <<<"$(printf '%s\n' "${all[@]}")"
done)
export SMARTWAKE_MATRIX_KERNELS=$'\n'$SMARTWAKE_MATRIX_KERNELS$'\n'

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
table="| release | Debian version | build | load | e2e | why not |
|---|---|---|---|---|---|"
for row in "${all[@]}"; do
	read -r rel ver _ <<<"$row"
	[ -z "$only" ] || [[ ",$only," == *",$rel,"* ]] || continue
	sw_log "matrix: $rel ($ver)"
	b=FAIL l=- e=- why=
	if ! SW_KERNEL=$rel "$SW_TOP/scripts/fetch-kernel.sh" --kernel "$rel" >"$logs/$rel.fetch" 2>&1; then
		b=- why="fetch: $(grep -m1 'error' "$logs/$rel.fetch" || tail -n1 "$logs/$rel.fetch")"
	elif build_for "$rel" >"$logs/$rel.build" 2>&1; then
		b=ok
		rc=0
		SW_KERNEL=$rel "$SW_TOP/scripts/guest-run.sh" --kernel-release "$rel" --topo smp4 \
			--timeout 600 --log "$logs/$rel.console" e2e.sh 2 >"$logs/$rel.e2e" 2>&1 || rc=$?
		if grep -qE '^ok [0-9]+ insmod' "$logs/$rel.console"; then l=ok; else l=FAIL; fi
		if [ "$rc" -eq 0 ]; then
			e="ok ($(grep -Eo '[0-9]+ passed, [0-9]+ failed' "$logs/$rel.console" | tail -n1))"
		else
			e="FAIL ($(grep -Eo '[0-9]+ passed, [0-9]+ failed' "$logs/$rel.console" | tail -n1))"
			why=$(grep -m1 -E 'smartwake: .*(refus|mismatch|not found|disagrees|nothing hooked)' \
				"$logs/$rel.console" | sed 's/^\[ *[0-9.]*\] //')
			[ -n "$why" ] || why=$(grep -m1 '^not ok ' "$logs/$rel.console")
		fi
	else
		why="build: $(grep -m1 -E 'error|refused' "$logs/$rel.build")"
	fi
	why=${why//|/\\|}
	table+=$'\n'"| \`$rel\` | $ver | $b | $l | $e | ${why:0:160} |"
	printf '%s\n' "$table" | tail -n1
done

printf '\n%s\n' "$table"
[ -n "$only" ] && exit 0
{
	printf '## make matrix: every Debian cloud kernel of the supported series\n\n'
	printf 'scripts/matrix.sh: each release fetched, built for, booted (smp4) and\n'
	printf 'run through guest/e2e.sh with 2 load/unload cycles.\n\n%s\n' "$table"
} | "$SW_TOP/scripts/figures.sh" matrix -
