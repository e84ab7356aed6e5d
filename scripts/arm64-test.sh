#!/usr/bin/env bash
# Host checks of the arm64 kernels (issue 60; make check-extra step
# arm64-build): each release of SW_KERNEL_TABLE_ARM64 is fetched and
# cross-built (Debian's gcc-aarch64-linux-gnu, make deps), its module is
# an AArch64 object whose vermagic names the release, and its sched-idle
# pull companion is the stub (its livepatch-format calls are x86-64's);
# Debian 12's 6.1 arm64 is refused by release before anything is
# fetched, and by Kbuild against arm64 headers without
# CONFIG_KALLSYMS_ALL or CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS, each
# naming the reason; each release's configuration has no
# CONFIG_ARM64_BTI_KERNEL (gcc-built); make -C tools bpf-arm64 builds
# the example BPF policies against an arm64 kernel's types. Nothing is
# loaded: the arm64 guest steps do that.
#
# Usage: scripts/arm64-test.sh
. "$(dirname "$0")/common.sh"
. "$SW_TOP/scripts/testlib.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
cd "$SW_TOP" || exit 1
logd=build/logs/arm64-build
mkdir -p "$logd"
: >"$logd/build.log"

for k in $(sw_kernels_arm64); do
	b() { { scripts/fetch-kernel.sh --kernel "$k" && scripts/build-modules.sh --kernel-release "$k"; } \
		>>"$logd/build.log" 2>&1; }
	check "$k: fetched and cross-built (build/$k)" b
	ko=build/$k/module/smartwake.ko
	check "$k: the module is an AArch64 object" \
		eval '[ "$(aarch64-linux-gnu-readelf -h "$ko" 2>/dev/null | awk "/Machine:/ { print \$2 }")" = AArch64 ]'
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null || true)
	check "$k: its vermagic names $k, aarch64 ($vm)" eval '[ "${vm%% *}" = "$k" ] && [ "${vm##* }" = aarch64 ]'
	# select_hook=direct: the arm64 trampoline, its landing pad first
	check "$k: its arm64 trampoline begins with bti c (select_hook=direct)" \
		eval 'aarch64-linux-gnu-objdump -d --disassemble=sw_select_tramp "$ko" |
			grep -A1 "<sw_select_tramp>:" | grep -q "bti[[:space:]]*c"'
	check "$k: the companion is the stub (not livepatch-format)" \
		eval '[ -f "build/$k/module/companion/smartwake_pull.ko" ] &&
			[ -z "$(modinfo -F livepatch "build/$k/module/companion/smartwake_pull.ko")" ]'
	# why no guest can enforce BTI landing pads on this kernel (install.md,
	# "BTI"): gcc-built, and arm64's Kconfig has ARM64_BTI_KERNEL depend on
	# !CC_IS_GCC; should Debian build one with it, this fails first
	sw_kernel_row "$k"
	cfg=$(sw_kcache_dir "$SW_ROW_VERSION" "$k")/headers/usr/src/linux-headers-$k/.config
	check "$k: gcc-built (CC_IS_GCC=y), ARM64_BTI=y but no ARM64_BTI_KERNEL: no landing pads enforced" \
		eval 'grep -qx CONFIG_CC_IS_GCC=y "$cfg" && grep -qx CONFIG_ARM64_BTI=y "$cfg" &&
			! grep -q "^CONFIG_ARM64_BTI_KERNEL=" "$cfg"'
done
[ "$KTAP_FAIL" -eq 0 ] || tail -n 30 "$logd/build.log"

# 6.1 arm64 by release: refused before anything is fetched
out=$(make -s module KERNEL=6.1.0-57-arm64 2>&1) && rc=0 || rc=$?
check "make KERNEL=6.1.0-57-arm64 is refused, naming the two options" eval \
	'[ "$rc" -ne 0 ] && grep -q "Debian.s 6.1 arm64 kernels have neither CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS.*nor CONFIG_KALLSYMS_ALL" <<<"$out" &&
		[ ! -e build/6.1.0-57-arm64 ] && ! ls -d "$SW_CACHE"/6.1.192-3+arm64 >/dev/null 2>&1'
# Kbuild, on headers as 6.1 arm64's: each option missing alone
k=$(sw_kernels_arm64 | head -n1)
SW_KERNEL=$k
sw_stock_env
for opt in CONFIG_KALLSYMS_ALL CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS; do
	# shellcheck disable=SC2046 # sw_kcc_args: make arguments
	out=$(make -C "$SW_KDIR" M="$SW_TOP/build/$k" KSRC="$SW_KSRC" $(sw_kcc_args 2>/dev/null) \
		"$opt=" modules 2>&1) && rc=0 || rc=$?
	check "arm64 headers without $opt: the build is refused, saying why" eval \
		'[ "$rc" -ne 0 ] && grep -q "smartwake does not support this arm64 kernel.*Debian.s 6.1 arm64 kernels have neither" <<<"$out"'
done
check "... and the module of the full headers is still there" test -f "build/$k/module/smartwake.ko"

# the example BPF policies for the arm64 guests (bpf-arm64): every
# tools/bpf source built, against the types of an arm64 kernel
check "make -C tools bpf-arm64 builds" eval 'make -s -C tools bpf-arm64 >>"$logd/build.log" 2>&1'
ab=build/tools-arm64/bpf
# bpf_objs_ok: each source's object is there, a BPF ELF object
bpf_objs_ok() {
	local c o
	for c in tools/bpf/*.bpf.c tools/bpf/test/*.bpf.c; do
		o=$ab/${c#tools/bpf/}
		readelf -h "${o%c}o" 2>/dev/null | grep -q "Machine:.*Linux BPF" || { echo "no BPF object ${o%c}o"; return 1; }
	done
}
check "... one BPF object per source of tools/bpf" bpf_objs_ok
check "... their vmlinux.h is an arm64 kernel's (struct user_pt_regs, not x86's struct fred_ss)" eval \
	'grep -q "^struct user_pt_regs {" "$ab/vmlinux.h" && ! grep -q "^struct fred_ss {" "$ab/vmlinux.h" &&
		head -1 "$ab/vmlinux.h" | grep -q arm64'
summary
