#!/usr/bin/env bash
# Shared settings for the smartwake scripts. Sourced, not run.
#
# Everything slow to produce (kernel packages, extracted sources, the debug
# kernel build) lives in a cache outside the clone, keyed by version:
#   $SW_CACHE/<debian-version>/          stock cloud image, headers, source
#   $SW_CACHE/<debian-version>+<flavour>/  another flavour of that version
#                                        (e.g. +amd64, the generic one):
#                                        its image and headers; source/ is
#                                        a link to the cloud set's when that
#                                        is cached, else its own copy
#   $SW_CACHE/debug-<key>/               debug/KUnit kernel build
# Override the cache with SMARTWAKE_CACHE=/path.

set -euo pipefail

SW_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# (no HOME: DKMS runs MAKE without one, e.g. from dkms.service at boot)
SW_CACHE=${SMARTWAKE_CACHE:-${XDG_CACHE_HOME:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache}/smartwake}
# Preferred Debian version of the stock 6.12 cloud kernel; fetch-kernel.sh
# falls back to the newest complete image/headers/source triple.
SW_PREFERRED_VERSION=${SMARTWAKE_KERNEL_VERSION:-6.12.117-1~deb12u1}

# The supported kernels, one per line (Documentation/install.md, "Kernels"):
#   release  Debian-version  suite  source-package  [kbuild-package]
# The packages of a release R (ABI A = R without its flavour, "-cloud-amd64"
# or "-amd64", the generic bare-metal flavour: sw_abi_of_rel):
#   linux-image-R-unsigned linux-headers-R linux-headers-A-common
#   KBUILD-PACKAGE (default linux-kbuild-A; 6.1's is per series,
#   linux-kbuild-6.1) SOURCE-PACKAGE, all of the row's Debian version.
# The first row is the default kernel: plain make, make check's stock steps,
# the debug kernel's source; it keeps its fallback to the newest complete
# Debian 12 set (fetch-kernel.sh) and its build in module/. The others are
# chosen by release (make KERNEL=R, SMARTWAKE_KERNEL=R, guest-run.sh
# --kernel-release R), pinned to their row's version, built in build/R/.
SW_KERNEL_TABLE='
6.12.117+deb12-cloud-amd64 6.12.117-1~deb12u1 bookworm linux-source-6.12
6.12.117+deb12-amd64       6.12.117-1~deb12u1 bookworm linux-source-6.12
6.12.117+deb13-cloud-amd64 6.12.117-1         trixie   linux-source-6.12
6.12.117+deb13-amd64       6.12.117-1         trixie   linux-source-6.12
6.1.0-57-cloud-amd64       6.1.192-3          bookworm linux-source-6.1 linux-kbuild-6.1
6.1.0-57-amd64             6.1.192-3          bookworm linux-source-6.1 linux-kbuild-6.1
7.2.13+deb14-cloud-amd64   7.2.13-1           sid      linux-source-7.2
7.2.13+deb14-amd64         7.2.13-1           sid      linux-source-7.2
7.3.4+deb13-cloud-amd64    7.3.4-1~bpo13+1    trixie-backports linux-source-7.3
7.3.4+deb13-amd64          7.3.4-1~bpo13+1    trixie-backports linux-source-7.3
'
# scripts/matrix.sh adds every other release of the archive for its run.
SW_KERNEL_TABLE+=${SMARTWAKE_MATRIX_KERNELS:-}
# The arm64 kernels, in the same format: cross-built on this x86-64 host
# with Debian's gcc-aarch64-linux-gnu (make KERNEL=R, fetch-kernel.sh
# --kernel R), the kernel's arm64 image and headers beside the amd64
# kbuild programs of the same version (Debian's cross-build packaging).
# Not in SW_KERNEL_TABLE: the lab's guests, DKMS, flavour and matrix runs
# (everything that loops over sw_kernels) are x86-64 ones. 6.1's arm64
# build is refused (sw_arm64_refusal).
SW_KERNEL_TABLE_ARM64='
6.12.117+deb12-cloud-arm64 6.12.117-1~deb12u1 bookworm linux-source-6.12
6.12.117+deb12-arm64       6.12.117-1~deb12u1 bookworm linux-source-6.12
6.12.117+deb13-cloud-arm64 6.12.117-1         trixie   linux-source-6.12
6.12.117+deb13-arm64       6.12.117-1         trixie   linux-source-6.12
7.3.4+deb13-arm64          7.3.4-1~bpo13+1    trixie-backports linux-source-7.3
'
# scripts/matrix.sh --arch arm64 adds every other arm64 release of the archive.
SW_KERNEL_TABLE_ARM64+=${SMARTWAKE_MATRIX_KERNELS_ARM64:-}
SW_DEFAULT_KREL=6.12.117+deb12-cloud-amd64
# The kernel chosen by release; empty means the default kernel.
SW_KERNEL=${SMARTWAKE_KERNEL:-${KERNEL:-}}
[ "$SW_KERNEL" != "$SW_DEFAULT_KREL" ] || SW_KERNEL=

# The flavours of the table, the longer suffix first ("-amd64" ends
# "-cloud-amd64" too). The cloud flavour keeps the plain per-version cache
# directory; the others get <version>+<flavour> (sw_kcache_dir). rt-amd64
# (PREEMPT_RT) is named only to be refused (sw_kernel_row, Kbuild); so is
# rt-arm64.
SW_FLAVOURS='cloud-amd64 rt-amd64 amd64 cloud-arm64 rt-arm64 arm64'
SW_DEFAULT_FLAVOUR=cloud-amd64

# sw_flavour_of RELEASE: its flavour ("cloud-amd64", "amd64").
sw_flavour_of() {
	local f
	for f in $SW_FLAVOURS; do
		case $1 in *-"$f") printf '%s\n' "$f"; return 0 ;; esac
	done
	printf '[smartwake] error: %s\n' "release $1 has no known flavour ($SW_FLAVOURS)" >&2
	exit 1
}

# sw_arch_of RELEASE: its Debian architecture, amd64 or arm64.
sw_arch_of() {
	case $1 in *-arm64) echo arm64 ;; *) echo amd64 ;; esac
}

# sw_abi_of_rel RELEASE: its ABI name, the release without its flavour
# (6.12.117+deb12-amd64 -> 6.12.117+deb12).
sw_abi_of_rel() {
	local f
	f=$(sw_flavour_of "$1") || exit 1
	printf '%s\n' "${1%-"$f"}"
}

# sw_kcache_dir VERSION RELEASE: the cache directory of that release's
# image and headers: $SW_CACHE/VERSION for the cloud flavour (as always),
# $SW_CACHE/VERSION+FLAVOUR for another, so two flavours of one Debian
# version neither collide nor take each other's .complete.
sw_kcache_dir() {
	local f
	f=$(sw_flavour_of "$2") || exit 1
	if [ "$f" = "$SW_DEFAULT_FLAVOUR" ]; then
		printf '%s/%s\n' "$SW_CACHE" "$1"
	else
		printf '%s/%s+%s\n' "$SW_CACHE" "$1" "$f"
	fi
}

sw_log() { printf '[smartwake] %s\n' "$*" >&2; }
sw_die() { printf '[smartwake] error: %s\n' "$*" >&2; exit 1; }
# sw_help SCRIPT: the script's --help, the comment block at its top: from
# line 2 up to the first line that does not start with '#', without the
# '# ' (scripts/sb-hint.sh, plain sh and installed alone, has its own copy).
sw_help() { awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$1"; }

# sw_timed OUT RES TEE CMD...: run CMD with its output in OUT (also on
# stdout when TEE is 1), then write "PASS SECONDS" or "FAIL SECONDS" to
# RES. Returns CMD's status. make check's steps and make stress's runs.
sw_timed() {
	local out=$1 res=$2 tee=$3 t0=$SECONDS rc=0
	shift 3
	if [ "$tee" = 1 ]; then
		"$@" 2>&1 | tee "$out" && rc=0 || rc=${PIPESTATUS[0]}
	else
		"$@" >"$out" 2>&1 || rc=$?
	fi
	echo "$([ "$rc" -eq 0 ] && echo PASS || echo FAIL) $((SECONDS - t0))" >"$res"
	return "$rc"
}

# Debian version "6.12.117-1~deb12u1" -> kernel ABI name "6.12.117+deb12":
# the table's row for that version, else the ~debNNuM suffix (the default
# kernel's fallback to a newer Debian 12 version).
sw_abi_of() {
	local v=$1 rel ver _
	while read -r rel ver _; do
		[ "$ver" = "$v" ] && { sw_abi_of_rel "$rel"; return; }
	done <<<"$SW_KERNEL_TABLE"
	[[ $v =~ ~deb([0-9]+)u ]] || sw_die "no ABI known for Debian version $v"
	printf '%s+deb%s\n' "${v%%-*}" "${BASH_REMATCH[1]}"
}

# sw_kernel_row RELEASE: set SW_ROW_VERSION, SW_ROW_SUITE, SW_ROW_SRCPKG,
# SW_ROW_KBUILD from the table; dies on a release it does not list.
sw_kernel_row() {
	local rel ver suite src kb
	while read -r rel ver suite src kb; do
		[ -n "$rel" ] && [ "$rel" = "$1" ] || continue
		SW_ROW_VERSION=$ver SW_ROW_SUITE=$suite SW_ROW_SRCPKG=$src
		SW_ROW_KBUILD=${kb:-linux-kbuild-$(sw_abi_of_rel "$rel")}
		return 0
	done <<<"$SW_KERNEL_TABLE$SW_KERNEL_TABLE_ARM64"
	case $1 in
	*-rt-amd64|*-rt-arm64) sw_die "$(sw_rt_refusal "$1")" ;;
	6.1.*-arm64) sw_die "$(sw_arm64_refusal "$1")" ;;
	esac
	sw_die "kernel $1 is not supported; supported: $(sw_kernels | tr '\n' ' ')$(sw_kernels_arm64 | tr '\n' ' ')"
}

# sw_arm64_refusal RELEASE: why Debian's 6.1 arm64 kernels are refused
# (module/Kbuild says the same when the headers lack the two options).
sw_arm64_refusal() {
	printf '%s' "kernel $1 is refused: Debian's 6.1 arm64 kernels have neither" \
		" CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS (arm64 direct calls came in 6.4)" \
		" nor CONFIG_KALLSYMS_ALL, without which the scheduler's variables the module" \
		" resolves at load (sd_llc, runqueues, ...) are not in kallsyms; no test boots an" \
		" arm64 kernel without them (Documentation/install.md, \"arm64\"); use Debian's 6.12" \
		" arm64 kernel, e.g." \
		" $(sw_kernels_arm64 | head -n1)"
}

# sw_rt_refusal RELEASE: why an rt (PREEMPT_RT) kernel is refused, and what
# to use instead (Kbuild says the same when its headers are PREEMPT_RT).
sw_rt_refusal() {
	printf '%s' "kernel $1 is PREEMPT_RT (the rt flavour), which smartwake does not support:" \
		" no test boots it and shadow has never compared its decisions with the kernel's" \
		" (Documentation/install.md, \"The rt flavour\"); use the generic flavour of the same" \
		" version, $(sw_abi_of_rel "$1")-$(sw_arch_of "$1"), or its cloud flavour"
}

# sw_arm64_busybox: the path of Debian's busybox-static for arm64 (the
# arm64 guests' initramfs, scripts/guest-run.sh), downloaded once into
# $SW_CACHE/busybox-arm64/ through private lists of the host's suite for
# both architectures (the host's apt configuration is untouched).
sw_arm64_busybox() {
	local d=$SW_CACHE/busybox-arm64 s a o
	if [ ! -x "$d/bin/busybox" ]; then
		s=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-bookworm}")
		a=$SW_CACHE/apt/$s-arm64
		o=(-o "Dir::Etc::sourcelist=$a/sources.list" -o Dir::Etc::sourceparts=/nonexistent
			-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache"
			-o Dir::State::status=/var/lib/dpkg/status
			-o APT::Architectures::=amd64 -o APT::Architectures::=arm64)
		mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$d.tmp"
		[ -s "$a/sources.list" ] ||
			printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian %s main\n' \
				"$s" >"$a/sources.list"
		[ -n "$(apt-cache "${o[@]}" madison busybox-static:arm64 2>/dev/null)" ] ||
			apt-get "${o[@]}" update -qq >&2 || sw_die "apt-get update of $s (arm64) failed"
		(cd "$d.tmp" && apt-get "${o[@]}" download -qq busybox-static:arm64 >&2) ||
			sw_die "cannot download busybox-static:arm64"
		dpkg -x "$d.tmp"/busybox-static_*.deb "$d.tmp/x"
		rm -rf "$d"
		mv "$d.tmp/x" "$d"
		rm -rf "$d.tmp"
	fi
	printf '%s\n' "$d/bin/busybox"
}

# sw_kernels: the supported releases, the default first (x86-64).
sw_kernels() { awk 'NF { print $1 }' <<<"$SW_KERNEL_TABLE"; }
# sw_kernels_arm64: the supported arm64 releases (cross-built).
sw_kernels_arm64() { awk 'NF { print $1 }' <<<"$SW_KERNEL_TABLE_ARM64"; }

# sw_kernel_pkgs RELEASE SOURCE-PACKAGE [KBUILD-PACKAGE [IMAGE-PACKAGE]]:
# the five package names. The image is linux-image-R-unsigned up to
# Debian 13; from 7.x (sid) that name is a metapackage and the image is
# linux-binary-unsigned-R (fetch-kernel.sh asks the archive which).
sw_kernel_pkgs() {
	local abi
	abi=$(sw_abi_of_rel "$1")
	echo "${4:-linux-image-$1-unsigned} linux-headers-$1 linux-headers-$abi-common" \
		"${3:-linux-kbuild-$abi} $2"
}

# The file that records which version fetch-kernel.sh settled on (the
# default kernel only).
sw_current_file() { printf '%s/current-version\n' "$SW_CACHE"; }

# Print the variables describing the cached stock kernel (the default one,
# or the one chosen by release, $SW_KERNEL):
# SW_VERSION, SW_ABI, SW_KREL, SW_VMLINUZ, SW_KDIR, SW_KSRC, SW_KCACHE (the
# release's cache directory, sw_kcache_dir), and SW_BUILD:
# where its builds go, "" for the default kernel (module/, build/testing/),
# else build/<release>/ (shipped) and build/<release>-testing/.
sw_stock_env() {
	local f src=linux-source-6.12
	if [ -n "$SW_KERNEL" ]; then
		sw_kernel_row "$SW_KERNEL"
		SW_VERSION=$SW_ROW_VERSION
		src=$SW_ROW_SRCPKG
		SW_KCACHE=$(sw_kcache_dir "$SW_VERSION" "$SW_KERNEL")
		[ -f "$SW_KCACHE/.complete" ] ||
			sw_die "kernel $SW_KERNEL not fetched; run scripts/fetch-kernel.sh --kernel $SW_KERNEL"
		SW_KREL=$SW_KERNEL
		SW_ABI=$(sw_abi_of_rel "$SW_KREL")
		SW_BUILD=$SW_KREL
	else
		f=$(sw_current_file)
		[ -s "$f" ] || sw_die "no cached kernel; run scripts/fetch-kernel.sh"
		SW_VERSION=$(cat "$f")
		SW_ABI=$(sw_abi_of "$SW_VERSION")
		SW_KREL="$SW_ABI-$SW_DEFAULT_FLAVOUR"
		SW_KCACHE=$SW_CACHE/$SW_VERSION
		SW_BUILD=
	fi
	local d=$SW_KCACHE
	SW_VMLINUZ="$d/image/boot/vmlinuz-$SW_KREL"
	SW_KDIR="$d/headers/usr/src/linux-headers-$SW_KREL"
	SW_KSRC="$d/source/$src"
	export SW_VERSION SW_ABI SW_KREL SW_VMLINUZ SW_KDIR SW_KSRC SW_KCACHE SW_BUILD
}

# sw_kcc_args: make arguments for building against $SW_KDIR when the
# compiler its kernel was built with (Debian's headers name it, e.g.
# x86_64-linux-gnu-gcc-14 for Debian 13) is not on this host: the host's
# gcc instead, and without the one flag that gcc 14 has and gcc 12 lacks
# (-fmin-function-alignment: the kernel's own fallback for older gcc,
# -falign-functions, is used). Prints nothing when the named compiler is
# here. Layouts do not depend on the compiler; the load-time BTF check
# compares them with the running kernel's anyway. And when the host's pahole
# is older than the kernel's, CONFIG_PAHOLE_VERSION of the host's, so the
# module's BTF is made with flags it knows.
sw_kcc_args() {
	local want have pv hpv cross
	# pahole: the module's BTF with the flags of the host's pahole.
	pv=$(sed -n 's/^CONFIG_PAHOLE_VERSION=//p' "$SW_KDIR/.config" 2>/dev/null)
	hpv=$(pahole --version 2>/dev/null | tr -dc '0-9')
	if [ -n "$pv" ] && [ -n "$hpv" ] && [ "$hpv" -lt "$pv" ]; then
		printf 'CONFIG_PAHOLE_VERSION=%s ' "$hpv"
	fi
	# the target's compiler prefix (aarch64-linux-gnu- for arm64 headers:
	# Debian's gcc-aarch64-linux-gnu, make deps)
	cross=$(sed -n 's/^override CROSS_COMPILE = //p' "$SW_KDIR/.kernelvariables" 2>/dev/null)
	# 6.1's headers name it through make ($(DEB_HOST_GNU_TYPE)-): by ARCH
	case $cross in
	'' | *'$('*)
		if grep -q '^override ARCH = arm64' "$SW_KDIR/.kernelvariables" 2>/dev/null; then
			cross=aarch64-linux-gnu-
		else
			cross=x86_64-linux-gnu-
		fi ;;
	esac
	want=$(grep -so '^CC = .*$(CROSS_COMPILE)gcc-[0-9]*' "$SW_KDIR/.kernelvariables" |
		sed "s/.*\$(CROSS_COMPILE)/$cross/") || true
	[ -n "$want" ] || return 0
	command -v "$want" >/dev/null && { echo; return 0; }
	have=$cross$(command -v "${cross}gcc" >/dev/null && echo "gcc-$("${cross}gcc" -dumpversion | cut -d. -f1)")
	command -v "$have" >/dev/null ||
		sw_die "neither $want nor ${cross}gcc found (make deps installs them)"
	sw_log "$SW_KREL was built with $want, not on this host: building with $have"
	printf 'CC=%s' "$have"
	[ "${have##*-}" -ge 14 ] || printf ' CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT='
	# Attributes a newer gcc knows (7.x's headers use counted_by and assume
	# when the kernel's gcc has them): checks and hints, no effect on
	# layouts; the older gcc ignores them, without the warning.
	[ "${have##*-}" -ge 15 ] || printf ' KCFLAGS=-Wno-attributes'
}

# sw_kbuild_host_args: make arguments for the headers' host programs when
# they do not run here (Debian 13's objtool, modpost and resolve_btfids
# want glibc 2.38, Debian 12 has 2.36): the same programs built once from
# the kernel's own
# source ($SW_KSRC, modules_prepare with the headers' .config) into
# $SW_KCACHE/host-kbuild/. Prints nothing when they run.
# Call after sw_stock_env; KCC is sw_kcc_args's output.
sw_kbuild_host_args() {
	local kcc=$1 d="$SW_KCACHE/host-kbuild" twin
	! sw_kbuild_runs "$SW_KDIR" || return 0
	if [ "$(sw_arch_of "$SW_KREL")" != amd64 ]; then
		# A cross build: the host's programs are those of the amd64
		# twin (same version and source; modpost and resolve_btfids
		# read any 64-bit little-endian ELF, as Debian's one amd64
		# kbuild package serves every architecture).
		twin=$(sw_abi_of_rel "$SW_KREL")-cloud-amd64
		(
			SW_KERNEL=$twin
			[ "$twin" != "$SW_DEFAULT_KREL" ] || SW_KERNEL=
			"$SW_TOP/scripts/fetch-kernel.sh" --kernel "$twin" >&2 &&
				sw_stock_env && sw_kbuild_host_args "$(sw_kcc_args)"
		)
		return
	fi
	if [ ! -f "$d/.complete" ]; then
		sw_log "$SW_KREL's objtool and modpost need a newer glibc: building them from $SW_KSRC into $d"
		rm -rf "$d.tmp"
		mkdir -p "$d.tmp"
		cp "$SW_KDIR/.config" "$d.tmp/.config"
		# shellcheck disable=SC2086 # kcc: make arguments, none or several
		{ make -s -C "$SW_KSRC" O="$d.tmp" $kcc olddefconfig &&
			make -s -C "$SW_KSRC" O="$d.tmp" $kcc -j"$(nproc)" modules_prepare; } >"$d.log" 2>&1 ||
			{ tail -n 20 "$d.log" >&2; sw_die "host kbuild programs: build failed (log: $d.log)"; }
		[ -x "$d.tmp/tools/objtool/objtool" ] && [ -x "$d.tmp/scripts/mod/modpost" ] &&
			[ -x "$d.tmp/tools/bpf/resolve_btfids/resolve_btfids" ] ||
			sw_die "host kbuild programs: objtool, modpost or resolve_btfids missing in $d.tmp"
		rm -rf "$d"
		mv "$d.tmp" "$d"
		touch "$d/.complete"
	fi
	sw_kbuild_dir_args "$d"
}

# sw_kdir_release KDIR: the release a kernel build directory builds for:
# UTS_RELEASE of include/generated/utsrelease.h, which vermagic carries
# (Debian's 6.1 headers have the upstream "6.1.192" in
# include/config/kernel.release, the ABI name "6.1.0-57-cloud-amd64" there).
sw_kdir_release() {
	local r
	r=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$1/include/generated/utsrelease.h" 2>/dev/null)
	[ -n "$r" ] || r=$(cat "$1/include/config/kernel.release" 2>/dev/null) || return 1
	printf '%s\n' "$r"
}

# sw_kbuild_runs KDIR: whether the headers' own kbuild programs run on
# this host (their objtool stands for all three).
sw_kbuild_runs() {
	local p
	p=$(SRCARCH=x86 "$1/tools/objtool/objtool" --help 2>&1 || true)
	! grep -q 'GLIBC_[0-9.]*. not found' <<<"$p"
}

# sw_kbuild_dir_args DIR: make arguments that take objtool, modpost and
# resolve_btfids from DIR, a build tree of the kernel's source after
# modules_prepare (the host-kbuild/ of sw_kbuild_host_args, or one given
# to scripts/build-modules.sh --host-kbuild).
sw_kbuild_dir_args() {
	local d=$1
	[ -x "$d/tools/objtool/objtool" ] && [ -x "$d/scripts/mod/modpost" ] &&
		[ -x "$d/tools/bpf/resolve_btfids/resolve_btfids" ] ||
		sw_die "$d: no tools/objtool/objtool, scripts/mod/modpost or tools/bpf/resolve_btfids/resolve_btfids"
	echo "objtool=$d/tools/objtool/objtool MODPOST=$d/scripts/mod/modpost" \
		"RESOLVE_BTFIDS=$d/tools/bpf/resolve_btfids/resolve_btfids"
}

# sw_image_btf IMAGE OUT: the BTF of a kernel whose headers package ships
# none (Debian 12's 6.1), from its image: scripts/image-vmlinux.py unpacks
# the vmlinux from IMAGE (vmlinuz; the payload the x86 boot header points
# at, with Debian's decompressor), objcopy copies its .BTF section out as
# raw BTF:
# the bytes the running kernel shows as /sys/kernel/btf/vmlinux (the
# kernel exposes that very section). Written to OUT once (by rename).
sw_image_btf() {
	local img=$1 out=$2 tmp
	[ -s "$out" ] && return 0
	[ -r "$img" ] || sw_die "no kernel image $img"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-btf.XXXXXX")
	if ! python3 "$SW_TOP/scripts/image-vmlinux.py" "$img" "$tmp/vmlinux" 2>"$tmp/log"; then
		cat "$tmp/log" >&2
		rm -rf "$tmp"
		sw_die "cannot unpack $img (scripts/image-vmlinux.py)"
	fi
	if ! objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$tmp/btf" || [ ! -s "$tmp/btf" ]; then
		rm -rf "$tmp"
		sw_die "$img has no .BTF section (a kernel without CONFIG_DEBUG_INFO_BTF)"
	fi
	mkdir -p "$(dirname "$out")"
	cp "$tmp/btf" "$out.tmp.$$" && mv "$out.tmp.$$" "$out"
	rm -rf "$tmp"
	sw_log "BTF of $img: its .BTF section, unpacked into $out"
}

# sw_btf_file FILE DIR: FILE when it is BTF (raw, or an ELF vmlinux with a
# .BTF section), else FILE taken as a kernel image (vmlinuz): its BTF
# unpacked into DIR/vmlinux.btf, that path printed.
sw_btf_file() {
	local f=$1 m
	m=$(head -c 4 "$f" 2>/dev/null | od -An -tx1 | tr -d ' \n') ||
		sw_die "cannot read $f"
	case $m in
	7f454c46|9feb*) printf '%s\n' "$f" ;;
	*) rm -f "$2/vmlinux.btf"; sw_image_btf "$f" "$2/vmlinux.btf"
		printf '%s\n' "$2/vmlinux.btf" ;;
	esac
}

# sw_kernel_btf: the BTF of the cached kernel (after sw_stock_env): the
# headers' BTF-only vmlinux where the package ships one (Debian's 6.12
# since 6.12.16-1, sid's 7.2), else the .BTF section of the image, unpacked
# once into $SW_KCACHE/btf/vmlinux.btf (Debian 12's 6.1).
sw_kernel_btf() {
	if [ -f "$SW_KDIR/vmlinux" ]; then
		printf '%s\n' "$SW_KDIR/vmlinux"
		return 0
	fi
	sw_image_btf "$SW_VMLINUZ" "$SW_KCACHE/btf/vmlinux.btf"
	printf '%s\n' "$SW_KCACHE/btf/vmlinux.btf"
}
