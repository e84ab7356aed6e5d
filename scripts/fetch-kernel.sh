#!/usr/bin/env bash
# Fetch a Debian stock 6.12 cloud kernel image, its headers (flavour, common,
# kbuild) and the matching linux-source-6.12, all of ONE Debian version, and
# extract them with dpkg -x into the cache (see common.sh). Nothing is
# installed. An arm64 kernel (SW_KERNEL_TABLE_ARM64) comes as its arm64
# image and headers with the amd64 kbuild programs of its version (a cross
# build), through private lists of both architectures. A flavour other than cloud-amd64 (the generic -amd64) goes to
# its own directory, <version>+<flavour>, and shares the version's source
# with the cloud set when that is cached (not downloaded again). The default
# kernel: prefers 6.12.117-1~deb12u1 and falls back to the newest version
# for which all five packages exist, and says so. Another supported kernel (--kernel, or KERNEL=): its table row's version, from its
# suite; a suite other than the host's comes through a private apt sources
# list and state under the cache (the host's apt configuration is untouched).
#
# Usage: scripts/fetch-kernel.sh [--kernel RELEASE] [--version VERSION] [--print]
#   --kernel R  a release of the table in scripts/common.sh
#               (e.g. 6.12.117+deb13-cloud-amd64, 6.12.117+deb12-amd64);
#               default: the default kernel
#   --print     only print the version that is (or would be) used
#   --list      print the supported releases, the default first, each with
#               its architecture (amd64, arm64)
. "$(dirname "$0")/common.sh"

want=$SW_PREFERRED_VERSION
print_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--version) want=$2; shift 2 ;;
	--kernel) SW_KERNEL=${2:-}; shift 2 || sw_die "--kernel wants a release"
		[ "$SW_KERNEL" != "$SW_DEFAULT_KREL" ] || SW_KERNEL= ;;
	--print) print_only=1; shift ;;
	--list) sw_kernels | sed 's/$/ amd64/'; sw_kernels_arm64 | sed 's/$/ arm64/'; exit 0 ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done

# A kernel chosen by release: its row's version, source package and suite.
srcpkg=linux-source-6.12
apt_opts=()
if [ -n "$SW_KERNEL" ]; then
	sw_kernel_row "$SW_KERNEL"
	want=$SW_ROW_VERSION srcpkg=$SW_ROW_SRCPKG
	host_suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	karch=$(sw_arch_of "$SW_KERNEL")
	if [ "$karch" != amd64 ]; then
		# Lists of both architectures: the image and headers of
		# $karch, the kbuild programs that run here (amd64).
		a=$SW_CACHE/apt/$SW_ROW_SUITE-$karch
		apt_opts=(-o "Dir::Etc::sourcelist=$a/sources.list" -o Dir::Etc::sourceparts=/nonexistent
			-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache"
			-o Dir::State::status=/var/lib/dpkg/status
			-o APT::Architectures::=amd64 -o "APT::Architectures::=$karch")
	elif [ "$SW_ROW_SUITE" != "$host_suite" ]; then
		# The suite's own lists, state and package cache, under the cache.
		a=$SW_CACHE/apt/$SW_ROW_SUITE
		apt_opts=(-o "Dir::Etc::sourcelist=$a/sources.list" -o Dir::Etc::sourceparts=/nonexistent
			-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache"
			-o Dir::State::status=/var/lib/dpkg/status)
	fi
fi

pkgs_for() {
	if [ -n "$SW_KERNEL" ]; then
		sw_kernel_pkgs "$SW_KERNEL" "$srcpkg" "$SW_ROW_KBUILD" "$(image_pkg)"
		return
	fi
	local abi
	abi=$(sw_abi_of "$1")
	sw_kernel_pkgs "$abi-$SW_DEFAULT_FLAVOUR" linux-source-6.12
}

apt_cache() { apt-cache "${apt_opts[@]}" "$@"; }

# The image package of $SW_KERNEL: the split packaging of 7.x (sid) ships
# vmlinuz in linux-binary-unsigned-R (linux-image-R is a metapackage
# there); earlier suites in linux-image-R-unsigned.
image_pkg() {
	local p=linux-binary-unsigned-$SW_KERNEL
	[ -n "$(apt_cache madison "$p" 2>/dev/null)" ] || p=linux-image-$SW_KERNEL-unsigned
	echo "$p"
}

# A private suite's sources list and lists, made on first use.
private_lists() {
	[ ${#apt_opts[@]} -gt 0 ] || return 0
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	[ -s "$a/sources.list" ] || {
		printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian %s main\n' \
			"$SW_ROW_SUITE"
		# unstable and the backports suites have no security suite
		case $SW_ROW_SUITE in sid|*-backports) ;; *) false ;; esac ||
			printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security %s-security main\n' \
				"$SW_ROW_SUITE"
	} >"$a/sources.list"
	if [ -z "$(apt_cache madison "$srcpkg" 2>/dev/null)" ]; then
		sw_log "apt lists of $SW_ROW_SUITE into $a (private; the host's apt is untouched)"
		apt-get "${apt_opts[@]}" update -qq || sw_die "apt-get update of $SW_ROW_SUITE failed"
	fi
}

has_version() { # pkg version
	local v
	v=$(apt_cache madison "$1" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}')
	grep -qxF "$2" <<<"$v"
}

# The version of package P to fetch with kernel version V: V itself; a
# per-series kbuild package (linux-kbuild-6.1, shared by every 6.1.0-N
# ABI) that the archive no longer has at V comes at its newest version,
# the one apt would install beside those headers today.
pkg_version() { # pkg version
	local v
	if has_version "$1" "$2"; then
		echo "$2"
	elif [[ $1 =~ ^linux-kbuild-[0-9]+\.[0-9]+$ ]]; then
		v=$(apt_cache madison "$1" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' | sort -V | tail -n1)
		[ -n "$v" ] && echo "$v"
	fi
}

complete_triple() {
	local p
	for p in $(pkgs_for "$1"); do
		[ -n "$(pkg_version "$p" "$1")" ] || return 1
	done
}

# The release fetched: the one chosen, or the default kernel's flavour.
krel_of() { # version
	if [ -n "$SW_KERNEL" ]; then echo "$SW_KERNEL"; else echo "$(sw_abi_of "$1")-$SW_DEFAULT_FLAVOUR"; fi
}

cache_complete() {
	local d
	d=$(sw_kcache_dir "$1" "$(krel_of "$1")")
	[ -f "$d/.complete" ]
}

choose_version() {
	if cache_complete "$want" || complete_triple "$want"; then
		echo "$want"
		return
	fi
	# A kernel chosen by release is that build: no other version has it.
	if [ -n "$SW_KERNEL" ]; then
		local p missing=
		for p in $(pkgs_for "$want"); do
			[ -n "$(pkg_version "$p" "$want")" ] || missing+=" $p"
		done
		sw_die "not in $SW_ROW_SUITE at version $want:$missing"
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

if [ -n "$SW_KERNEL" ]; then
	cache_complete "$want" || private_lists
elif ! apt-cache madison linux-source-6.12 2>/dev/null | grep -q .; then
	[ "$(id -u)" -eq 0 ] && apt-get update -qq || true
fi
ver=$(choose_version)
if [ $print_only -eq 1 ]; then
	echo "$ver"
	exit 0
fi

krel=$(krel_of "$ver")
d=$(sw_kcache_dir "$ver" "$krel")
mkdir -p "$SW_CACHE"
if cache_complete "$ver"; then
	sw_log "kernel $ver cached in $d"
	# current-version names the default kernel only.
	[ -n "$SW_KERNEL" ] || echo "$ver" >"$(sw_current_file)"
	exit 0
fi

abi=$(sw_abi_of_rel "$krel")
# Another flavour of a version whose cloud set is cached: that set's
# source, through a link (source/ -> ../<version>/source), not a second
# download. $srcpkg is the last of pkgs_for's packages.
shared_src=
c="$SW_CACHE/$ver"
if [ "$d" != "$c" ] && [ -f "$c/.complete" ] && [ -f "$c/source/$srcpkg/kernel/sched/sched.h" ]; then
	shared_src=$c/source
fi
rm -rf "$d.tmp"
mkdir -p "$d.tmp/debs"
sw_log "downloading kernel packages $ver for $krel (about 200 MB)"
for p in $(pkgs_for "$ver"); do
	[ -z "$shared_src" ] || [ "$p" != "$srcpkg" ] || continue
	pv=$(pkg_version "$p" "$ver")
	[ "$pv" = "$ver" ] || sw_log "$p is not in the archive at $ver: taking $pv"
	# an arm64 kernel's own packages (image, flavour headers) by their
	# architecture: apt takes a bare name for the host's
	qa=
	case $p in *"$krel"*) [ "$(sw_arch_of "$krel")" = amd64 ] || qa=:$(sw_arch_of "$krel") ;; esac
	(cd "$d.tmp/debs" && apt-get "${apt_opts[@]}" download -qq "$p$qa=$pv")
done

sw_log "extracting"
for deb in "$d.tmp"/debs/linux-image-*.deb "$d.tmp"/debs/linux-binary-*.deb; do
	[ -f "$deb" ] && dpkg -x "$deb" "$d.tmp/image"
done
# The split packaging keeps the image as usr/lib/modules/R/vmlinuz.unsigned.
v="$d.tmp/image/usr/lib/modules/$krel/vmlinuz.unsigned"
if [ ! -f "$d.tmp/image/boot/vmlinuz-$krel" ] && [ -f "$v" ]; then
	mkdir -p "$d.tmp/image/boot"
	mv "$v" "$d.tmp/image/boot/vmlinuz-$krel"
fi
for deb in "$d.tmp"/debs/linux-headers-*.deb "$d.tmp"/debs/linux-kbuild-*.deb; do
	dpkg -x "$deb" "$d.tmp/headers"
done
if [ -n "$shared_src" ]; then
	sw_log "source: $srcpkg of $c (shared with the cloud flavour)"
	ln -s "../$ver/source" "$d.tmp/source"
else
	dpkg -x "$d.tmp"/debs/linux-source-*.deb "$d.tmp/srcpkg"
	mkdir -p "$d.tmp/source"
	[ -f "$d.tmp/srcpkg/usr/src/$srcpkg.tar.xz" ] || sw_die "no usr/src/$srcpkg.tar.xz in the $srcpkg package"
	tar -C "$d.tmp/source" -xf "$d.tmp/srcpkg/usr/src/$srcpkg.tar.xz"
fi
rm -rf "$d.tmp/srcpkg" "$d.tmp/debs"

# Point the flavour's absolute include, and the kbuild symlinks, at the copy.
hdr="$d.tmp/headers/usr/src/linux-headers-$krel"
[ -f "$hdr/Makefile" ] || sw_die "headers Makefile missing in $hdr"
sed -i "s|^include /usr/src/linux-headers-$abi-common/Makefile|include $d/headers/usr/src/linux-headers-$abi-common/Makefile|" \
	"$hdr/Makefile"
grep -q "^include $d/headers/" "$hdr/Makefile" || sw_die "could not rewrite include in $hdr/Makefile"
# 7.x's flavour Makefile also names its own directory
sed -i "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$d/headers/usr/src/|" "$hdr/Makefile"
for l in "$hdr/scripts" "$hdr/tools"; do
	if [ -L "$l" ]; then
		t=$(readlink "$l")
		case $t in /usr/*) ln -sfn "$d/headers$t" "$l" ;; esac
	fi
done
[ -f "$d.tmp/image/boot/vmlinuz-$krel" ] || sw_die "vmlinuz missing from image package"
[ -f "$d.tmp/source/$srcpkg/kernel/sched/sched.h" ] || sw_die "sched.h missing from source"

rm -rf "$d"
mv "$d.tmp" "$d"
# Paths inside were written for $d already; mark complete last.
touch "$d/.complete"
[ -n "$SW_KERNEL" ] || echo "$ver" >"$(sw_current_file)"
sw_log "kernel $ver ready in $d"
