#!/usr/bin/env bash
# make install / make uninstall: put smartwake on a test machine like any
# out-of-tree module. The module is built from the kernel's headers alone
# (scripts/build-modules.sh --kdir: no linux-source needed; the private
# scheduler layouts come from the kernel's BTF), or from KSRC when given,
# and installed with the CLI and its man page:
#   DESTDIR/lib/modules/RELEASE/updates/smartwake.ko   (then depmod)
#   DESTDIR/lib/modules/RELEASE/updates/smartwake_pull.ko  (knob sib_pull's
#                companion; loading it taints K: a stub that refuses on 7.x)
#   DESTDIR/PREFIX/sbin/smartwake
#   DESTDIR/PREFIX/share/man/man8/smartwake.8
#
# Usage: scripts/install.sh install|uninstall [--kver RELEASE] [--kdir DIR]
#                          [--destdir DIR] [--prefix DIR]
#                          [--sign-key KEY --sign-cert CERT]
#   --kver R     the kernel release (default: uname -r)
#   --kdir DIR   its headers (default /lib/modules/R/build)
#   --destdir D  stage under D (no depmod); default /
#   --prefix P   for the CLI and the man page (default /usr/local)
#   --sign-key K, --sign-cert C   sign the installed module with key K
#                (PEM or pkcs11: URI) and its certificate C (DER or PEM),
#                by the kernel's own scripts/sign-file and its
#                CONFIG_MODULE_SIG_HASH (scripts/sign-module.sh); make
#                install's SIGN_KEY=, SIGN_CERT=. K=none: unsigned.
# Signing: with --sign-key, that key; without it, Debian's DKMS key
# (/var/lib/dkms/mok.key and mok.pub, the one DKMS signs its modules with
# and mokutil enrols) when both exist; otherwise the module is installed
# unsigned (the default on a machine without that key), which a kernel
# under Secure Boot refuses to load (install.md, "Secure Boot").
# SMARTWAKE_MOK_DIR=DIR looks for mok.key/mok.pub in DIR instead (tests).
# A kernel the module cannot serve is refused here, at build time (a
# missing BTF, a layout the generator cannot map), or at load time by the
# module itself (release and layout checks): nothing is hooked then.
. "$(dirname "$0")/common.sh"

cmd=${1:-}
case $cmd in
install|uninstall) shift ;;
-h|--help) sw_help "$0"; exit 0 ;;
*) sw_die "usage: scripts/install.sh install|uninstall [options] (try --help)" ;;
esac
kver=$(uname -r) kdir= destdir= prefix=/usr/local sign_key= sign_cert=
while [ $# -gt 0 ]; do
	case $1 in
	--kver) kver=${2:-}; shift 2 || sw_die "--kver wants a release" ;;
	--kdir) kdir=${2:-}; shift 2 || sw_die "--kdir wants a directory" ;;
	--destdir) destdir=${2:-}; shift 2 || sw_die "--destdir wants a directory" ;;
	--prefix) prefix=${2:-}; shift 2 || sw_die "--prefix wants a directory" ;;
	--sign-key) sign_key=${2:-}; shift 2 || sw_die "--sign-key wants a key file" ;;
	--sign-cert) sign_cert=${2:-}; shift 2 || sw_die "--sign-cert wants a certificate" ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done
[ -n "$kdir" ] || kdir=/lib/modules/$kver/build
mod=$destdir/lib/modules/$kver/updates/smartwake.ko
pmod=$destdir/lib/modules/$kver/updates/smartwake_pull.ko
cli=$destdir$prefix/sbin/smartwake
man=$destdir$prefix/share/man/man8/smartwake.8

run_depmod() {
	[ -z "$destdir" ] || return 0
	depmod -a "$kver" || sw_die "depmod -a $kver failed"
}

if [ "$cmd" = uninstall ]; then
	rm -f "$mod" "$pmod" "$cli" "$man"
	rmdir "$(dirname "$mod")" 2>/dev/null || true
	run_depmod
	sw_log "removed $mod, $pmod, $cli, $man"
	exit 0
fi

[ -f "$kdir/Makefile" ] ||
	sw_die "no kernel headers for $kver at $kdir (apt install linux-headers-$kver)"
rel=$(sw_kdir_release "$kdir") ||
	sw_die "$kdir is not a kernel build directory"
[ "$rel" = "$kver" ] || sw_die "$kdir is for $rel, not $kver"
# Which key signs it (see the header).
mok=${SMARTWAKE_MOK_DIR:-/var/lib/dkms}
if [ -z "$sign_key" ] && [ -n "$sign_cert" ]; then
	sw_die "--sign-cert (SIGN_CERT) without --sign-key (SIGN_KEY)"
elif [ "$sign_key" = none ]; then
	sign_key= sign_cert=
	how="unsigned (SIGN_KEY=none)"
elif [ -n "$sign_key" ]; then
	[ -n "$sign_cert" ] || sw_die "--sign-key (SIGN_KEY) needs --sign-cert (SIGN_CERT), its certificate"
	[ -r "$sign_key" ] || [ "${sign_key#pkcs11:}" != "$sign_key" ] ||
		sw_die "signing key $sign_key is missing or unreadable"
	[ -r "$sign_cert" ] || sw_die "certificate $sign_cert is missing or unreadable"
	how="signed with $sign_key"
elif [ -r "$mok/mok.key" ] && [ -r "$mok/mok.pub" ] &&
	grep -qs '^CONFIG_MODULE_SIG_HASH=' "$kdir/.config" "$kdir/include/config/auto.conf"; then
	sign_key=$mok/mok.key sign_cert=$mok/mok.pub
	how="signed with DKMS's key $sign_key"
else
	how="unsigned (no SIGN_KEY, no $mok/mok.key)"
fi
"$SW_TOP/scripts/build-modules.sh" --kdir "$kdir"
out=$SW_TOP/build/$kver-headers-only/module
make -s -C "$SW_TOP/tools" smartwake
# Sign copies: the build tree keeps the unsigned modules (build-modules.sh
# may reuse them, and a signed file must not be signed again). The
# companion's livepatch relocations were made at build time, before this.
for m in "$out/smartwake.ko:$mod" "$out/companion/smartwake_pull.ko:$pmod"; do
	ko=${m%%:*} dst=${m#*:}
	if [ -n "$sign_key" ]; then
		st=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-sign.XXXXXX")
		cp "$ko" "$st/m.ko"
		"$SW_TOP/scripts/sign-module.sh" --kdir "$kdir" --key "$sign_key" \
			--cert "$sign_cert" "$st/m.ko" || { rm -rf "$st"; sw_die "signing failed"; }
		install -D -m 0644 "$st/m.ko" "$dst"
		rm -rf "$st"
	else
		install -D -m 0644 "$ko" "$dst"
	fi
done
install -D -m 0755 "$SW_TOP/tools/smartwake" "$cli"
install -D -m 0644 "$SW_TOP/Documentation/smartwake.8" "$man"
run_depmod
sw_log "installed $mod and $pmod ($how), $cli, $man"
[ -n "$destdir" ] || sw_log "load it with: modprobe smartwake; smartwake status"
[ -n "$destdir" ] || sh "$SW_TOP/scripts/sb-hint.sh" --module "$mod" ${sign_cert:+--cert "$sign_cert"} || true
