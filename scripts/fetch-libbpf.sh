#!/usr/bin/env bash
# Fetch libbpf-dev >= 1.4, bpftool >= 7.5 and the matching uapi headers
# (linux-libc-dev 6.12: linux/bpf.h with struct_ops links and module BTF
# maps) from Debian's bookworm-backports into the cache and print the
# folder they were extracted into (DIR, with DIR/usr/include/bpf/libbpf.h,
# DIR/usr/include/linux/bpf.h, DIR/usr/lib/x86_64-linux-gnu/libbpf.a and
# DIR/usr/sbin/bpftool). Nothing is installed on the host: apt-get download
# through a private sources list, then dpkg -x (the host's apt is untouched).
#
# Why: libbpf finds a struct_ops type in a module's BTF from 1.4.0 on
# (Debian 12 has 1.1.2); bpftool registers a module's struct_ops from 7.5.
# The CLI links libbpf.a statically, so guests and test machines need no
# libbpf at run time.
#
#   --bpftool   print the bpftool binary's path instead of DIR
#   --arm64     the arm64 static libraries of the CLI's cross-build
#               (scripts/guest-run.sh, arm64 guests): libbpf-dev:arm64 of
#               the same version (bookworm-backports) and libelf-dev,
#               zlib1g-dev, libzstd-dev:arm64 (bookworm), through private
#               lists of both architectures; prints DIR-ARM64, with
#               DIR-ARM64/usr/lib/aarch64-linux-gnu/{libbpf,libelf,libz,libzstd}.a
#               (the uapi headers are DIR's)
#   --bpftool-arm64  bpftool:arm64 of the same version, with the shared
#               libraries it runs on (libc6, libcap2, libelf1, zlib1g,
#               libzstd1 of bookworm, arm64), for guest/bpf.sh in arm64
#               guests; prints that tree's folder (DIR/usr/sbin/bpftool,
#               DIR/lib/ld-linux-aarch64.so.1, the libraries in
#               DIR/lib/aarch64-linux-gnu/ and DIR/usr/lib/aarch64-linux-gnu/)
#   -h, --help  this text
. "$(dirname "$0")/common.sh"

LIBBPF_VERSION=1:1.4.6-1~bpo12+1
BPFTOOL_VERSION=7.5.0+6.12.95-1~bpo12+1
UAPI_VERSION=6.12.95-1~bpo12+1
SUITE=bookworm-backports
what=dir
case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
--bpftool) what=bpftool ;;
--arm64) what=arm64 ;;
--bpftool-arm64) what=bpftool-arm64 ;;
'') ;;
*) sw_die "unknown argument: $1 (try --help)" ;;
esac

v=${LIBBPF_VERSION#*:}
if [ $what != dir ] && [ $what != bpftool ]; then
	dir=$SW_CACHE/libbpf-$v-arm64
	debs=("libbpf-dev:arm64=$LIBBPF_VERSION" libelf-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64)
	if [ $what = bpftool-arm64 ]; then
		dir=$SW_CACHE/bpftool-${BPFTOOL_VERSION#*:}-arm64
		debs=("bpftool:arm64=$BPFTOOL_VERSION" libc6:arm64 libcap2:arm64 libelf1:arm64
			zlib1g:arm64 libzstd1:arm64)
	fi
	[ -f "$dir/.complete" ] && { printf '%s\n' "$dir"; exit 0; }
	a=$SW_CACHE/apt/bookworm-libbpf-arm64
	opts=(-o "Dir::Etc::sourcelist=$a/sources.list" -o Dir::Etc::sourceparts=/nonexistent
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache"
		-o Dir::State::status=/var/lib/dpkg/status
		-o APT::Architectures::=amd64 -o APT::Architectures::=arm64)
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	for s in bookworm bookworm-backports; do
		printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian %s main\n' "$s"
	done >"$a/sources.list"
	if ! grep -qF "$LIBBPF_VERSION" <<<"$(apt-cache "${opts[@]}" madison libbpf-dev:arm64 2>/dev/null)"; then
		sw_log "apt lists of bookworm and $SUITE (amd64, arm64) into $a (private)"
		apt-get "${opts[@]}" update -qq >&2 || sw_die "apt-get update of bookworm/$SUITE (arm64) failed"
	fi
	tmp=$dir.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp/debs"
	sw_log "downloading ${debs[*]}"
	(cd "$tmp/debs" && apt-get "${opts[@]}" download -qq "${debs[@]}" >&2) ||
		sw_die "cannot download ${debs[*]} (bookworm, $SUITE)"
	for d in "$tmp"/debs/*.deb; do
		dpkg -x "$d" "$tmp"
	done
	rm -rf "$tmp/debs"
	if [ $what = bpftool-arm64 ]; then
		[ -x "$tmp/usr/sbin/bpftool" ] && [ -e "$tmp/lib/ld-linux-aarch64.so.1" ] ||
			sw_die "no arm64 bpftool or loader in the downloaded packages"
	else
		for l in libbpf libelf libz libzstd; do
			[ -f "$tmp/usr/lib/aarch64-linux-gnu/$l.a" ] || sw_die "no arm64 $l.a in the downloaded packages"
		done
	fi
	touch "$tmp/.complete"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	printf '%s\n' "$dir"
	exit 0
fi
dir=$SW_CACHE/libbpf-$v-uapi-$UAPI_VERSION
out() {
	if [ $what = bpftool ]; then
		printf '%s\n' "$dir/usr/sbin/bpftool"
	else
		printf '%s\n' "$dir"
	fi
}
if [ -f "$dir/.complete" ]; then
	out
	exit 0
fi

a=$SW_CACHE/apt/$SUITE
opts=(-o "Dir::Etc::sourcelist=$a/sources.list" -o Dir::Etc::sourceparts=/nonexistent
	-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache"
	-o Dir::State::status=/var/lib/dpkg/status)
mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian %s main\n' \
	"$SUITE" >"$a/sources.list"
if ! grep -qF "$LIBBPF_VERSION" <<<"$(apt-cache "${opts[@]}" madison libbpf-dev 2>/dev/null)"; then
	sw_log "apt lists of $SUITE into $a (private; the host's apt is untouched)"
	apt-get "${opts[@]}" update -qq >&2 ||
		sw_die "apt-get update of $SUITE failed: libbpf >= 1.4 comes from Debian's $SUITE"
fi
tmp=$dir.tmp
rm -rf "$tmp"
mkdir -p "$tmp/debs"
sw_log "downloading libbpf-dev $LIBBPF_VERSION and bpftool $BPFTOOL_VERSION ($SUITE)"
(cd "$tmp/debs" && apt-get "${opts[@]}" download -qq \
	"libbpf-dev=$LIBBPF_VERSION" "bpftool=$BPFTOOL_VERSION" \
	"linux-libc-dev=$UAPI_VERSION" >&2) ||
	sw_die "cannot download libbpf-dev $LIBBPF_VERSION / bpftool $BPFTOOL_VERSION from $SUITE (apt-cache ${opts[*]} madison libbpf-dev)"
for d in "$tmp"/debs/*.deb; do
	dpkg -x "$d" "$tmp"
done
rm -rf "$tmp/debs"
[ -f "$tmp/usr/include/bpf/libbpf.h" ] && [ -n "$(find "$tmp/usr/lib" -name libbpf.a)" ] ||
	sw_die "libbpf-dev $LIBBPF_VERSION has no libbpf.a or libbpf.h"
touch "$tmp/.complete"
rm -rf "$dir"
mv "$tmp" "$dir"
out
