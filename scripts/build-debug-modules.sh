#!/usr/bin/env bash
# Build smartwake.ko and the KUnit suites against the debug kernel, in a copy
# of the tree under build/debug/ (out-of-tree builds of 6.12 put objects next
# to the sources; the copy keeps them apart from the stock build in module/).
#
# Usage: scripts/build-debug-modules.sh
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

bdir=$("$SW_TOP/scripts/build-debug-kernel.sh" --print-dir) ||
	sw_die "debug kernel not built (make debug-kernel)"
sw_stock_env
out=$SW_TOP/build/debug
mkdir -p "$out"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	--exclude='*.mod*' --exclude=modules.order \
	"$SW_TOP/Kbuild" "$SW_TOP/module" "$SW_TOP/include" "$SW_TOP/kunit" "$out/"
make -s -C "$bdir" M="$out" KSRC="$SW_KSRC" modules
ls "$out/module/smartwake.ko" "$out/kunit/smartwake_policy_kunit.ko" >/dev/null
# On a KASAN kernel the module must carry KASAN's checks, or a bad read of
# the scheduler's structures in smartwake would go unreported.
if grep -q '^CONFIG_KASAN=y' "$bdir/.config"; then
	nm -u "$out/module/smartwake.ko" | grep -q '__asan_' ||
		sw_die "smartwake.ko has no KASAN checks although the debug kernel has KASAN"
	[ -f "$out/module/testing/sw_kasan_oob.ko" ] ||
		sw_die "module/testing/sw_kasan_oob.ko was not built"
	sw_log "smartwake.ko carries KASAN checks ($(nm -u "$out/module/smartwake.ko" | grep -c '__asan_') __asan_ symbols)"
fi
