#!/bin/sh
# Print a hint when Secure Boot is on and the installed smartwake module
# would be refused: unsigned, or signed with a certificate that is not
# enrolled. Silent otherwise; always exits 0. POSIX sh: run by make install
# and by the smartwake-dkms package's postinst (installed there as
# /usr/share/smartwake-dkms/sb-hint).
#
# Usage: sb-hint.sh [--module FILE] [--cert FILE] [--efivars DIR] [--no-mokutil]
#   --module FILE  the module (default: modinfo -n smartwake, running kernel)
#   --cert FILE    the certificate it should be signed with, for the
#                  enrolment check (default /var/lib/dkms/mok.pub)
#   --efivars DIR  where SecureBoot-8be4df61-... is (default
#                  /sys/firmware/efi/efivars); read when mokutil is absent
#   --no-mokutil   do not run mokutil (tests)
# Secure Boot state: `mokutil --sb-state` if present, else the EFI variable
# SecureBoot (4 attribute bytes, then 1 = on).

mod= cert=/var/lib/dkms/mok.pub efivars=/sys/firmware/efi/efivars mokutil=mokutil
while [ $# -gt 0 ]; do
	case $1 in
	--module) mod=$2; shift 2 ;;
	--cert) cert=$2; shift 2 ;;
	--efivars) efivars=$2; shift 2 ;;
	--no-mokutil) mokutil=; shift ;;
	-h|--help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "sb-hint.sh: unknown argument $1" >&2; exit 0 ;;
	esac
done
[ -n "$mokutil" ] && ! command -v "$mokutil" >/dev/null 2>&1 && mokutil=

sb=off
if [ -n "$mokutil" ]; then
	case $("$mokutil" --sb-state 2>/dev/null) in
	*"SecureBoot enabled"*) sb=on ;;
	esac
else
	f=$efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e0a4c5c5f6d8
	if [ -r "$f" ] && [ "$(od -An -tu1 -j4 -N1 "$f" 2>/dev/null | tr -d ' ')" = 1 ]; then
		sb=on
	fi
fi
[ "$sb" = on ] || exit 0

[ -n "$mod" ] || mod=$(modinfo -n smartwake 2>/dev/null) || true
[ -n "$mod" ] && [ -f "$mod" ] || exit 0
doc="Documentation/install.md, section \"Secure Boot\""
tail=$(tail -c 28 "$mod" | head -c 27 | tr -d '\000')
if [ "$tail" != "~Module signature appended~" ]; then
	cat <<EOF
smartwake: Secure Boot is on and $mod is unsigned:
smartwake: the kernel will refuse it (modprobe: "Key was rejected by service").
smartwake: sign it with a key the kernel trusts: make install signs with
smartwake: SIGN_KEY=KEY SIGN_CERT=CERT, or DKMS's /var/lib/dkms/mok.key when it
smartwake: exists; DKMS signs its builds with that key itself. Then enrol the
smartwake: certificate: mokutil --import /var/lib/dkms/mok.pub, reboot, and
smartwake: confirm it in MokManager ($doc).
EOF
	exit 0
fi
if [ -n "$mokutil" ] && [ -r "$cert" ]; then
	case $("$mokutil" --test-key "$cert" 2>/dev/null) in
	*"is not enrolled"*)
		cat <<EOF
smartwake: Secure Boot is on and $mod is signed, but $cert
smartwake: is not enrolled: mokutil --import $cert, reboot, and confirm it
smartwake: in MokManager; until then the kernel refuses the module ($doc).
EOF
		;;
	esac
fi
exit 0
