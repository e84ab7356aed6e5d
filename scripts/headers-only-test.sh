#!/usr/bin/env bash
# Host checks of the headers-only build of one supported kernel (make
# check steps headers-only-deb13, headers-only-6.1, headers-only-7.2; the
# default kernel's are in step headers-only): the full-source build
# (build/<release>/, the kernel's private sched.h) and the headers-only
# builds (build/<release>-headers-only{,-testing}/, layouts from the
# kernel's BTF: its headers' vmlinux, or for Debian 12's 6.1 the .BTF
# section of its image) are made; the headers-only ones read no file of
# the kernel source; scripts/sched-layout.sh's listings of both builds
# (every listed field's offset and size, structure sizes, sched feature
# indices, the WF_* values) are identical, and equal the BTF's; both ran
# the same feature tests (scripts/conftest.sh's SW_HAVE_*). Nothing is
# loaded: the steps boot the headers-only build in a guest afterwards.
#
# Usage: scripts/headers-only-test.sh RELEASE
. "$(dirname "$0")/common.sh"
. "$SW_TOP/scripts/testlib.sh"
case ${1:-} in -h|--help|'') sw_help "$0"; exit 0 ;; esac

SW_KERNEL=$1
[ "$SW_KERNEL" != "$SW_DEFAULT_KREL" ] || sw_die "the default kernel's checks are make check step headers-only"
sw_stock_env
full=build/$SW_KREL hdr=build/$SW_KREL-headers-only
logd=$SW_TOP/build/logs/headers-only-$SW_KREL
mkdir -p "$logd"
cd "$SW_TOP" || exit 1

b() { scripts/build-modules.sh --kernel-release "$SW_KREL" "$@" >>"$logd/build.log" 2>&1; }
: >"$logd/build.log"
check "full-source build for $SW_KREL ($full)" b
check "headers-only build for $SW_KREL ($hdr)" b --headers-only
check "headers-only testing build ($hdr-testing)" b --headers-only --testing
[ "$KTAP_FAIL" -eq 0 ] || { tail -n 30 "$logd/build.log"; summary; exit 1; }
vm=$(modinfo -F vermagic "$hdr/module/smartwake.ko" 2>/dev/null || true)
check "headers-only module is for $SW_KREL" test "${vm%% *}" = "$SW_KREL"
# kbuild's dependency lists name every header each object read
check "headers-only builds: no file of the kernel source read (.cmd dependency lists)" eval \
	'[ -s "$hdr/module/path/.path.o.cmd" ] && ! grep -lF "$SW_KSRC" "$hdr"{,-testing}/module/{,path/}.*.cmd'
check "full-source build: kernel/sched/sched.h read (two different builds compared)" \
	grep -qF "$SW_KSRC/kernel/sched/sched.h" "$full/module/path/.path.o.cmd"
btf=$(sw_kernel_btf)
sl() { scripts/sched-layout.sh --kernel-release "$SW_KREL" "$@"; }
if sl "$full" >"$logd/full.list" && sl "$hdr" >"$logd/headers-only.list" &&
	sl --from-btf >"$logd/btf.list"; then
	n=$(wc -l <"$logd/full.list")
	check "full-source and headers-only builds: the same $n layout lines (BTF: $btf)" \
		diff -u "$logd/full.list" "$logd/headers-only.list"
	check "both are the BTF's layouts (but for the WF_* macros, which BTF has not)" \
		diff -u "$logd/btf.list" <(grep -v '^macro ' "$logd/full.list")
	check "the listing has every field of module/fields.h" test \
		"$(grep -cE ' (offset|missing)' "$logd/full.list")" -eq "$(grep -c '^SW_SCHED_FIELD(' module/fields.h)"
	check "the listing has the WF_* macros" test "$(grep -c '^macro WF_' "$logd/full.list")" -eq 6
else
	not_ok "scripts/sched-layout.sh failed on $full or $hdr"
fi
check "both builds: the same feature tests (scripts/conftest.sh's SW_HAVE_*)" \
	diff -u <(grep SW_HAVE_ "$full/module/sw_config.h") <(grep SW_HAVE_ "$hdr/module/sw_config.h")
summary
