#!/usr/bin/env bash
# Build smartwake against the debug kernel, twice (scripts/build-modules.sh):
# the shipped build with the KUnit suites in build/debug/, the testing build
# (fault injection, module/testmods/*.ko) in build/debug-testing/. Then
# signed copies for the sig-debug step (guest/sigenforce.sh), by
# scripts/sign-module.sh with the debug kernel's sign-file and SHA-256:
#   build/debug-signed/smartwake.ko           signed with the test key the
#       debug kernel trusts (<cache dir>/sign/, build-debug-kernel.sh)
#   build/debug-signed/wrongkey/smartwake.ko  signed with a throwaway key
#       the kernel does not know (made here, then deleted)
# build/debug/module/smartwake.ko itself stays unsigned.
# --variant V builds for variant V of the debug kernel instead
# (build-debug-kernel.sh --variant V): build/debug-V/ and
# build/debug-V-testing/, no signed copies (sig-debug boots the base).
#
# Usage: scripts/build-debug-modules.sh [--variant V]
. "$(dirname "$0")/common.sh"
variant=
case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
--variant) variant=${2:-}; [ -n "$variant" ] || sw_die "--variant needs a name" ;;
'') ;;
*) sw_die "unknown argument: $1 (try --help)" ;;
esac
label=debug${variant:+-$variant}

bdir=$("$SW_TOP/scripts/build-debug-kernel.sh" ${variant:+--variant "$variant"} --print-dir) ||
	sw_die "$label kernel not built (scripts/build-debug-kernel.sh${variant:+ --variant $variant})"
"$SW_TOP/scripts/build-modules.sh" --kernel "$label"
"$SW_TOP/scripts/build-modules.sh" --kernel "$label" --testing
out=$SW_TOP/build/$label
ls "$out/kunit/smartwake_policy_kunit.ko" >/dev/null
# On a KASAN kernel the module must carry KASAN's checks, or a bad read of
# the scheduler's structures in smartwake would go unreported.
if grep -q '^CONFIG_KASAN=y' "$bdir/.config"; then
	# (not "nm | grep -q": grep quits at the first match, nm then dies of
	# SIGPIPE and pipefail fails the test once the symbol list is long)
	grep -q '__asan_' <<<"$(nm -u "$out/module/smartwake.ko")" ||
		sw_die "smartwake.ko has no KASAN checks although the debug kernel has KASAN"
	[ -f "$out-testing/module/testmods/sw_kasan_oob.ko" ] ||
		sw_die "module/testmods/sw_kasan_oob.ko was not built"
	sw_log "smartwake.ko carries KASAN checks ($(nm -u "$out/module/smartwake.ko" | grep -c '__asan_') __asan_ symbols)"
fi

# Likewise KCSAN: a module without its instrumentation races unseen.
if grep -q '^CONFIG_KCSAN=y' "$bdir/.config"; then
	grep -q '__tsan_' <<<"$(nm -u "$out/module/smartwake.ko")" ||
		sw_die "smartwake.ko has no KCSAN checks although the $label kernel has KCSAN"
	sw_log "smartwake.ko carries KCSAN checks ($(nm -u "$out/module/smartwake.ko" | grep -c '__tsan_') __tsan_ symbols)"
fi
[ -z "$variant" ] || exit 0

# Signed copies (sig-debug). The test key lives beside the build dir.
sign=$(dirname "$bdir")/sign
[ -s "$sign/smartwake-test-key.pem" ] && [ -s "$sign/smartwake-test-cert.pem" ] ||
	sw_die "no module-signing test key in $sign (rebuild: scripts/build-debug-kernel.sh)"
sdir=$SW_TOP/build/debug-signed
rm -rf "$sdir"
mkdir -p "$sdir/wrongkey"
cp "$out/module/smartwake.ko" "$sdir/smartwake.ko"
cp "$out/module/smartwake.ko" "$sdir/wrongkey/smartwake.ko"
"$SW_TOP/scripts/sign-module.sh" --kdir "$bdir" --key "$sign/smartwake-test-key.pem" \
	--cert "$sign/smartwake-test-cert.pem" "$sdir/smartwake.ko"
wk=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-wrongkey.XXXXXX")
openssl req -new -x509 -newkey rsa:2048 -nodes -sha256 -days 1 -batch \
	-subj "/CN=smartwake key the debug kernel does not trust" \
	-keyout "$wk/k.pem" -out "$wk/c.pem" >/dev/null 2>&1 &&
	"$SW_TOP/scripts/sign-module.sh" --kdir "$bdir" --key "$wk/k.pem" --cert "$wk/c.pem" \
		"$sdir/wrongkey/smartwake.ko" || { rm -rf "$wk"; sw_die "could not sign with a throwaway key"; }
rm -rf "$wk"
