#!/usr/bin/env bash
# make install / make uninstall: put smartwake on a test machine like any
# out-of-tree module. The module is built from the kernel's headers alone
# (scripts/build-modules.sh --kdir: no linux-source needed; the private
# scheduler layouts come from the kernel's BTF), or from KSRC when given,
# and installed with the CLI and its man page:
#   DESTDIR/lib/modules/RELEASE/updates/smartwake.ko   (then depmod)
#   DESTDIR/PREFIX/sbin/smartwake
#   DESTDIR/PREFIX/share/man/man8/smartwake.8
#
# Usage: scripts/install.sh install|uninstall [--kver RELEASE] [--kdir DIR]
#                          [--destdir DIR] [--prefix DIR]
#   --kver R     the kernel release (default: uname -r)
#   --kdir DIR   its headers (default /lib/modules/R/build)
#   --destdir D  stage under D (no depmod); default /
#   --prefix P   for the CLI and the man page (default /usr/local)
# A kernel the module cannot serve is refused here, at build time (a
# missing BTF, a layout the generator cannot map), or at load time by the
# module itself (release and layout checks): nothing is hooked then.
. "$(dirname "$0")/common.sh"

cmd=${1:-}
case $cmd in
install|uninstall) shift ;;
-h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
*) sw_die "usage: scripts/install.sh install|uninstall [options] (try --help)" ;;
esac
kver=$(uname -r) kdir= destdir= prefix=/usr/local
while [ $# -gt 0 ]; do
	case $1 in
	--kver) kver=${2:-}; shift 2 || sw_die "--kver wants a release" ;;
	--kdir) kdir=${2:-}; shift 2 || sw_die "--kdir wants a directory" ;;
	--destdir) destdir=${2:-}; shift 2 || sw_die "--destdir wants a directory" ;;
	--prefix) prefix=${2:-}; shift 2 || sw_die "--prefix wants a directory" ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done
[ -n "$kdir" ] || kdir=/lib/modules/$kver/build
mod=$destdir/lib/modules/$kver/updates/smartwake.ko
cli=$destdir$prefix/sbin/smartwake
man=$destdir$prefix/share/man/man8/smartwake.8

run_depmod() {
	[ -z "$destdir" ] || return 0
	depmod -a "$kver" || sw_die "depmod -a $kver failed"
}

if [ "$cmd" = uninstall ]; then
	rm -f "$mod" "$cli" "$man"
	rmdir "$(dirname "$mod")" 2>/dev/null || true
	run_depmod
	sw_log "removed $mod, $cli, $man"
	exit 0
fi

[ -f "$kdir/Makefile" ] ||
	sw_die "no kernel headers for $kver at $kdir (apt install linux-headers-$kver)"
rel=$(sw_kdir_release "$kdir") ||
	sw_die "$kdir is not a kernel build directory"
[ "$rel" = "$kver" ] || sw_die "$kdir is for $rel, not $kver"
"$SW_TOP/scripts/build-modules.sh" --kdir "$kdir"
ko=$SW_TOP/build/$kver-headers-only/module/smartwake.ko
make -s -C "$SW_TOP/tools" smartwake
install -D -m 0644 "$ko" "$mod"
install -D -m 0755 "$SW_TOP/tools/smartwake" "$cli"
install -D -m 0644 "$SW_TOP/Documentation/smartwake.8" "$man"
run_depmod
sw_log "installed $mod, $cli, $man"
[ -n "$destdir" ] || sw_log "load it with: modprobe smartwake; smartwake status"
