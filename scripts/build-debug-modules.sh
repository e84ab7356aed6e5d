#!/usr/bin/env bash
# Build smartwake against the debug kernel, twice (scripts/build-modules.sh):
# the shipped build with the KUnit suites in build/debug/, the testing build
# (fault injection, module/testing/*.ko) in build/debug-testing/.
#
# Usage: scripts/build-debug-modules.sh
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

bdir=$("$SW_TOP/scripts/build-debug-kernel.sh" --print-dir) ||
	sw_die "debug kernel not built (make debug-kernel)"
"$SW_TOP/scripts/build-modules.sh" --kernel debug
"$SW_TOP/scripts/build-modules.sh" --kernel debug --testing
out=$SW_TOP/build/debug
ls "$out/kunit/smartwake_policy_kunit.ko" >/dev/null
# On a KASAN kernel the module must carry KASAN's checks, or a bad read of
# the scheduler's structures in smartwake would go unreported.
if grep -q '^CONFIG_KASAN=y' "$bdir/.config"; then
	# (not "nm | grep -q": grep quits at the first match, nm then dies of
	# SIGPIPE and pipefail fails the test once the symbol list is long)
	grep -q '__asan_' <<<"$(nm -u "$out/module/smartwake.ko")" ||
		sw_die "smartwake.ko has no KASAN checks although the debug kernel has KASAN"
	[ -f "$out-testing/module/testing/sw_kasan_oob.ko" ] ||
		sw_die "module/testing/sw_kasan_oob.ko was not built"
	sw_log "smartwake.ko carries KASAN checks ($(nm -u "$out/module/smartwake.ko" | grep -c '__asan_') __asan_ symbols)"
fi
