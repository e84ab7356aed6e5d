#!/usr/bin/env bash
# Fetch Debian's stock 6.12 cloud kernel image, its headers (flavour, common,
# kbuild) and the matching linux-source-6.12, all of ONE Debian version, and
# extract them with dpkg -x into the cache (see common.sh). Nothing is
# installed. Prefers $SW_PREFERRED_VERSION; falls back to the newest version
# for which all five packages exist, and says so.
#
# Usage: scripts/fetch-kernel.sh [--version DEBIAN_VERSION] [--print]
#   --print   only print the version that is (or would be) used
. "$(dirname "$0")/common.sh"

want=$SW_PREFERRED_VERSION
print_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--version) want=$2; shift 2 ;;
	--print) print_only=1; shift ;;
	-h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done

pkgs_for() {
	local abi
	abi=$(sw_abi_of "$1")
	echo "linux-image-$abi-cloud-amd64-unsigned linux-headers-$abi-cloud-amd64" \
		"linux-headers-$abi-common linux-kbuild-$abi linux-source-6.12"
}

has_version() { # pkg version
	apt-cache madison "$1" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' |
		grep -qxF "$2"
}

complete_triple() {
	local p
	for p in $(pkgs_for "$1"); do
		has_version "$p" "$1" || return 1
	done
}

cache_complete() {
	local d="$SW_CACHE/$1"
	[ -f "$d/.complete" ]
}

choose_version() {
	if cache_complete "$want" || complete_triple "$want"; then
		echo "$want"
		return
	fi
	sw_log "preferred version $want is not complete in the archive; looking for the newest"
	local v
	for v in $(apt-cache madison linux-source-6.12 | awk -F'|' '{gsub(/ /,"",$2); print $2}' |
		sort -V -r); do
		if complete_triple "$v"; then
			sw_log "falling back to $v"
			echo "$v"
			return
		fi
	done
	sw_die "no Debian version has image, headers and linux-source-6.12 together"
}

if ! apt-cache madison linux-source-6.12 2>/dev/null | grep -q .; then
	[ "$(id -u)" -eq 0 ] && apt-get update -qq || true
fi
ver=$(choose_version)
if [ $print_only -eq 1 ]; then
	echo "$ver"
	exit 0
fi

d="$SW_CACHE/$ver"
mkdir -p "$SW_CACHE"
if cache_complete "$ver"; then
	sw_log "kernel $ver cached in $d"
	echo "$ver" >"$(sw_current_file)"
	exit 0
fi

abi=$(sw_abi_of "$ver")
rm -rf "$d.tmp"
mkdir -p "$d.tmp/debs"
sw_log "downloading kernel packages $ver (about 200 MB)"
(cd "$d.tmp/debs" && for p in $(pkgs_for "$ver"); do apt-get download -qq "$p=$ver"; done)

sw_log "extracting"
for deb in "$d.tmp"/debs/linux-image-*.deb; do dpkg -x "$deb" "$d.tmp/image"; done
for deb in "$d.tmp"/debs/linux-headers-*.deb "$d.tmp"/debs/linux-kbuild-*.deb; do
	dpkg -x "$deb" "$d.tmp/headers"
done
dpkg -x "$d.tmp"/debs/linux-source-*.deb "$d.tmp/srcpkg"
mkdir -p "$d.tmp/source"
tar -C "$d.tmp/source" -xf "$d.tmp"/srcpkg/usr/src/linux-source-6.12.tar.xz
rm -rf "$d.tmp/srcpkg" "$d.tmp/debs"

# Point the flavour's absolute include, and the kbuild symlinks, at the copy.
hdr="$d.tmp/headers/usr/src/linux-headers-$abi-cloud-amd64"
[ -f "$hdr/Makefile" ] || sw_die "headers Makefile missing in $hdr"
sed -i "s|^include /usr/src/linux-headers-$abi-common/Makefile|include $d/headers/usr/src/linux-headers-$abi-common/Makefile|" \
	"$hdr/Makefile"
grep -q "^include $d/headers/" "$hdr/Makefile" || sw_die "could not rewrite include in $hdr/Makefile"
for l in "$hdr/scripts" "$hdr/tools"; do
	if [ -L "$l" ]; then
		t=$(readlink "$l")
		case $t in /usr/*) ln -sfn "$d/headers$t" "$l" ;; esac
	fi
done
[ -f "$d.tmp/image/boot/vmlinuz-$abi-cloud-amd64" ] || sw_die "vmlinuz missing from image package"
[ -f "$d.tmp/source/linux-source-6.12/kernel/sched/sched.h" ] || sw_die "sched.h missing from source"

rm -rf "$d"
mv "$d.tmp" "$d"
# Paths inside were written for $d already; mark complete last.
touch "$d/.complete"
echo "$ver" >"$(sw_current_file)"
sw_log "kernel $ver ready in $d"
