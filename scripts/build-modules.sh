#!/usr/bin/env bash
# Build smartwake in a copy of the tree under build/<name>/, against the
# stock kernel's headers or the debug kernel, shipped or testing build.
# Out-of-tree builds put objects next to the sources; the copy keeps each
# build apart from the stock shipped build of a plain make (module/).
#
#   build/testing/        stock kernel, testing build (SW_TESTING=1:
#                         fault-injection parameters, module/testing/*.ko)
#   build/debug/          debug kernel, shipped build + KUnit suites
#   build/debug-testing/  debug kernel, testing build
#   build/<release>/      a stock kernel chosen by release (--kernel-release
#   build/<release>-testing/   or KERNEL=; not the default): shipped, testing
#
# Usage: scripts/build-modules.sh [--kernel stock|debug] [--kernel-release R] [--testing]
. "$(dirname "$0")/common.sh"

kernel=stock testing=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:-}; shift 2 || sw_die "--kernel wants stock or debug" ;;
	--kernel-release) SW_KERNEL=${2:-}; shift 2 || sw_die "--kernel-release wants a release"
		[ "$SW_KERNEL" != "$SW_DEFAULT_KREL" ] || SW_KERNEL= ;;
	--testing) testing=1; shift ;;
	-h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done
# The debug kernel is built from the default kernel's source.
[ "$kernel" = stock ] || SW_KERNEL=
sw_stock_env
case $kernel in
stock)
	kdir=$SW_KDIR name=testing
	if [ -n "$SW_BUILD" ]; then
		name=$SW_BUILD
		[ "$testing" -eq 1 ] && name=$SW_BUILD-testing
	fi
	;;
debug)
	kdir=$("$SW_TOP/scripts/build-debug-kernel.sh" --print-dir) ||
		sw_die "debug kernel not built (make debug-kernel)"
	name=debug
	[ "$testing" -eq 1 ] && name=debug-testing
	;;
*) sw_die "--kernel must be stock or debug" ;;
esac
[ "$kernel" = stock ] && [ "$testing" -eq 0 ] && [ -z "$SW_BUILD" ] &&
	sw_die "the default kernel's shipped build is plain make (module/)"
out=$SW_TOP/build/$name
mkdir -p "$out"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	--exclude='*.mod*' --exclude=modules.order --exclude=sw_config.h \
	"$SW_TOP/Kbuild" "$SW_TOP/module" "$SW_TOP/include" "$SW_TOP/kunit" "$out/"
kcc=
[ "$kernel" = debug ] || { kcc=$(sw_kcc_args); kcc+=" $(sw_kbuild_host_args "$kcc")"; }
# shellcheck disable=SC2086 # kcc: make arguments, none or several
"$SW_TOP/scripts/conftest.sh" "$kdir" "$SW_KSRC" "$out/module/sw_config.h" $kcc
# shellcheck disable=SC2086
make -s -C "$kdir" M="$out" KSRC="$SW_KSRC" SW_TESTING="$testing" $kcc modules
ls "$out/module/smartwake.ko" >/dev/null
if [ "$testing" -eq 1 ]; then
	modinfo -p "$out/module/smartwake.ko" | grep -q '^test_' ||
		sw_die "$out/module/smartwake.ko has no test_ parameter"
	ls "$out/module/testing/sw_conflict.ko" >/dev/null
fi
if [ "$kernel" = stock ]; then
	vm=$(modinfo -F vermagic "$out/module/smartwake.ko")
	[ "${vm%% *}" = "$SW_KREL" ] || sw_die "$out/module/smartwake.ko is for ${vm%% *}, not $SW_KREL"
fi
sw_log "built $out/module/smartwake.ko ($([ "$testing" -eq 1 ] && echo testing || echo shipped))"
