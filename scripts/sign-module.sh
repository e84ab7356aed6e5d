#!/usr/bin/env bash
# Sign kernel modules with the target kernel's own scripts/sign-file (from
# its kbuild/headers tree), hashed with the target's CONFIG_MODULE_SIG_HASH,
# or print whether and by whom a module is signed.
#
# Usage: scripts/sign-module.sh --kdir DIR --key KEY --cert CERT MODULE...
#        scripts/sign-module.sh --check MODULE
#   --kdir DIR   the target's build tree (headers, or a kernel build dir):
#                DIR/scripts/sign-file and DIR/.config (or
#                DIR/include/config/auto.conf) are read
#   --key KEY    private key: PEM file or pkcs11: URI (e.g. /var/lib/dkms/mok.key)
#   --cert CERT  its X.509 certificate, DER or PEM (e.g. /var/lib/dkms/mok.pub)
#   --check M    print "unsigned", "signed <signer> <key id>" or "signed twice"
#                (two appended signatures) for module M; exit 0. <signer> is
#                the certificate's subject CN, <key id> (modinfo's sig_key)
#                its serial number (openssl x509 -noout -serial)
# A module that already carries a signature is refused (no double signing).
# Where the headers' sign-file does not run on this host (Debian 13's or
# sid's kbuild programs need glibc 2.38), SMARTWAKE_HOST_KBUILD=DIR (a build
# tree of the kernel's source, install.md) provides DIR/scripts/sign-file.
. "$(dirname "$0")/common.sh"

usage() { sw_help "$0"; }

marker='~Module signature appended~'

# The number of signatures appended to module $1 (0, 1 or 2 = "2 or more").
sig_count() {
	local f=$1 size n=0 len tail
	size=$(stat -c %s "$f")
	while [ "$n" -lt 2 ] && [ "$size" -gt 40 ]; do
		tail=$(tail -c +"$((size - 27))" "$f" | head -c 27 | tr -d '\000')
		[ "$tail" = "$marker" ] || break
		# struct module_signature (12 bytes) before the marker: sig_len is
		# the big-endian u32 at its offset 8
		len=$(tail -c +"$((size - 28 - 12 + 8 + 1))" "$f" | head -c 4 | od -An -tu1 |
			awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
		n=$((n + 1))
		size=$((size - 28 - 12 - len))
	done
	echo "$n"
}

check_module() {
	local f=$1 n signer keyid
	[ -f "$f" ] || sw_die "no module $f"
	n=$(sig_count "$f")
	case $n in
	0) echo unsigned ;;
	1)
		signer=$(modinfo -F signer "$f" 2>/dev/null || true)
		keyid=$(modinfo -F sig_key "$f" 2>/dev/null || true)
		echo "signed ${signer:-?} ${keyid:-?}"
		;;
	*) echo "signed twice" ;;
	esac
}

kdir= key= cert= check=
while [ $# -gt 0 ]; do
	case $1 in
	--kdir) kdir=${2:-}; shift 2 || sw_die "--kdir wants a directory" ;;
	--key) key=${2:-}; shift 2 || sw_die "--key wants a file" ;;
	--cert) cert=${2:-}; shift 2 || sw_die "--cert wants a file" ;;
	--check) check=${2:-}; shift 2 || sw_die "--check wants a module" ;;
	-h|--help) usage; exit 0 ;;
	-*) sw_die "unknown argument: $1 (try --help)" ;;
	*) break ;;
	esac
done
if [ -n "$check" ]; then
	check_module "$check"
	exit 0
fi
[ $# -gt 0 ] || sw_die "no module to sign (try --help)"
[ -n "$kdir" ] || sw_die "--kdir DIR is required"
{ [ -n "$key" ] && [ -n "$cert" ]; } || sw_die "--key and --cert are both required"
case $key in
pkcs11:*) ;;
*) [ -r "$key" ] || sw_die "signing key $key is missing or unreadable" ;;
esac
[ -r "$cert" ] || sw_die "certificate $cert is missing or unreadable"

cfg=$kdir/.config
[ -f "$cfg" ] || cfg=$kdir/include/config/auto.conf
[ -f "$cfg" ] || sw_die "no .config in $kdir: cannot tell the kernel's signature hash"
hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$cfg")
[ -n "$hash" ] ||
	sw_die "$kdir's kernel has no CONFIG_MODULE_SIG_HASH: it checks no module signatures (drop the key)"

# The first sign-file that runs here. Run without arguments it prints its
# usage; a loader failure (glibc) says GLIBC or "not found" instead.
sign_file=
for sf in "$kdir/scripts/sign-file" ${SMARTWAKE_HOST_KBUILD:+"$SMARTWAKE_HOST_KBUILD/scripts/sign-file"}; do
	[ -x "$sf" ] || continue
	out=$("$sf" 2>&1) || true
	case $out in
	*[Uu]sage*) sign_file=$sf; break ;;
	esac
done
[ -n "$sign_file" ] ||
	sw_die "no runnable scripts/sign-file in $kdir${SMARTWAKE_HOST_KBUILD:+ or $SMARTWAKE_HOST_KBUILD} (a newer distribution's kbuild: give SMARTWAKE_HOST_KBUILD)"

for m in "$@"; do
	[ -f "$m" ] || sw_die "no module $m"
	[ "$(sig_count "$m")" -eq 0 ] ||
		sw_die "$m already carries a signature: not signing it twice"
	"$sign_file" "$hash" "$key" "$cert" "$m" || sw_die "sign-file $hash failed on $m"
	[ "$(sig_count "$m")" -eq 1 ] || sw_die "$m carries no signature after sign-file"
	sw_log "signed $m ($hash, $(check_module "$m"))"
done
