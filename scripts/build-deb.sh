#!/usr/bin/env bash
# The Debian packages, built with Debian's tools (dpkg-buildpackage,
# debhelper, dh-dkms: make deps installs them) from this tree's HEAD (git
# archive, so only committed files), into build/deb/:
#   smartwake-dkms_VERSION_all.deb   the module's sources in
#       /usr/src/smartwake-VERSION with dkms.conf; its postinst (dh_dkms)
#       builds and installs the module for the installed kernels from
#       their headers
#   smartwake_VERSION_ARCH.deb       the CLI /usr/sbin/smartwake, smartwake(8)
# Install on a test machine: apt install ./build/deb/*.deb
#
# Usage: scripts/build-deb.sh
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
command -v dpkg-buildpackage >/dev/null && command -v dh_dkms >/dev/null ||
	sw_die "dpkg-buildpackage or dh_dkms missing (apt install dpkg-dev debhelper dh-dkms)"
ver=$(cat "$SW_TOP/VERSION")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/smartwake-$ver" "$SW_TOP/build/deb"
git -C "$SW_TOP" archive HEAD | tar -x -C "$tmp/smartwake-$ver"
(cd "$tmp/smartwake-$ver" && dpkg-buildpackage -us -uc -b) >"$SW_TOP/build/deb/build.log" 2>&1 ||
	{ tail -n 30 "$SW_TOP/build/deb/build.log" >&2; sw_die "dpkg-buildpackage failed (build/deb/build.log)"; }
rm -f "$SW_TOP"/build/deb/*.deb
cp "$tmp"/*.deb "$SW_TOP/build/deb/"
sw_log "built $(cd "$SW_TOP/build/deb" && echo *.deb) in build/deb/"
