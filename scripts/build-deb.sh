#!/usr/bin/env bash
# The Debian packages, built with Debian's tools (dpkg-buildpackage,
# debhelper, dh-dkms: make deps installs them) from this tree's HEAD (git
# archive, so only committed files; a tree that is not a git work tree,
# such as a mutant's copy, as its files are), into build/deb/:
#   smartwake-dkms_VERSION_all.deb   the module's sources in
#       /usr/src/smartwake-VERSION with dkms.conf; its postinst (dh_dkms)
#       builds and installs the module for the installed kernels from
#       their headers
#   smartwake_VERSION_ARCH.deb       the CLI /usr/sbin/smartwake, smartwake(8),
#       smartwake-replay with its workloads and report
# Install on a test machine: apt install ./build/deb/*.deb
# OUT/commit names the commit they were built from.
#
# Usage: scripts/build-deb.sh [--out OUT] [--if-changed]
#   --out OUT      another directory than build/deb (make check's steps
#                  that run side by side each have their own)
#   --if-changed   keep OUT's packages when they were built from HEAD
#   -h, --help     this text
. "$(dirname "$0")/common.sh"
outd=$SW_TOP/build/deb ifch=0
while [ $# -gt 0 ]; do
	case $1 in
	--out) outd=${2:?--out wants a directory}; shift 2 ;;
	--if-changed) ifch=1; shift ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_help "$0" >&2; sw_die "unknown argument $1" ;;
	esac
done
# A tree that is not its own git work tree (make mutants' copies, made
# by git archive under build/: git would find the enclosing clone and
# package its HEAD, not the mutant) is packaged as its files are, and
# always rebuilt.
isgit=0
[ "$(git -C "$SW_TOP" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$SW_TOP" && pwd -P)" ] && isgit=1
if [ $isgit -eq 1 ]; then
	head=$(git -C "$SW_TOP" rev-parse HEAD)
else
	head="files-$(date +%s)"
fi
if [ $ifch -eq 1 ] && [ $isgit -eq 1 ] && [ "$(cat "$outd/commit" 2>/dev/null)" = "$head" ] &&
	ls "$outd"/smartwake-dkms_*.deb >/dev/null 2>&1; then
	sw_log "packages of $head kept in $outd"
	exit 0
fi
command -v dpkg-buildpackage >/dev/null && command -v dh_dkms >/dev/null ||
	sw_die "dpkg-buildpackage or dh_dkms missing (apt install dpkg-dev debhelper dh-dkms)"
ver=$(cat "$SW_TOP/VERSION")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/smartwake-$ver" "$outd"
if [ $isgit -eq 1 ]; then
	git -C "$SW_TOP" archive HEAD | tar -x -C "$tmp/smartwake-$ver"
else
	tar -C "$SW_TOP" --exclude=./build --exclude=./results -c . | tar -x -C "$tmp/smartwake-$ver"
fi
(cd "$tmp/smartwake-$ver" && dpkg-buildpackage -us -uc -b) >"$outd/build.log" 2>&1 ||
	{ tail -n 30 "$outd/build.log" >&2; sw_die "dpkg-buildpackage failed ($outd/build.log)"; }
rm -f "$outd"/*.deb "$outd/commit"
cp "$tmp"/*.deb "$outd/"
echo "$head" >"$outd/commit"
sw_log "built $(cd "$outd" && echo *.deb) in $outd/"
