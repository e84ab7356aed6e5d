#!/usr/bin/env bash
# Boot a QEMU guest (TCG, single-threaded: multi-threaded TCG crashes while
# kernel text is live-patched) on a busybox initramfs holding the modules,
# the tools and guest/, run one guest script in it and return its verdict.
#
# Usage: scripts/guest-run.sh [options] GUEST_SCRIPT [ARGS...]
#   --kernel stock|debug   kernel to boot (default stock: Debian's cloud 6.12)
#   --kernel debug-V       variant V of the debug kernel (e.g. debug-kcsan:
#                          scripts/build-debug-kernel.sh --variant kcsan),
#                          with the builds of build-debug-modules.sh
#                          --variant V (build/debug-V{,-testing}/)
#   --kernel-release R     the stock kernel of release R, one of
#                          scripts/fetch-kernel.sh --list (default: the
#                          default one, or KERNEL=), with the builds for it
#                          (make KERNEL=R; make testing KERNEL=R); an arm64
#                          release boots in qemu-system-aarch64 (virt,
#                          -cpu max) with Debian's busybox-static for arm64
#                          and the workload tools and the CLI cross-built
#                          (the CLI with Debian's arm64 libbpf:
#                          scripts/fetch-libbpf.sh --arm64; for bpf.sh
#                          the example programs of make -C tools bpf-arm64
#                          and Debian's bpftool:arm64)
#   --arch A               amd64 or arm64: fail unless the kernel is of A;
#                          --arch arm64 without --kernel-release: the first
#                          arm64 release of the table (6.12 deb12 cloud)
#   --topo NAME            smp2 | smp4 (default) | numa2 (8 CPUs, 2 sockets,
#                          2 NUMA nodes, LLC of 4) | flat4 (4 sockets, no LLC)
#                          | smt8 (1 socket, 4 cores x 2 threads, LLC of 8)
#                          | numa-smt (2 sockets x 2 cores x 2 threads, 2
#                          NUMA nodes: CPUs 0-3 and 4-7, LLC of 4)
#                          | llcN (1 socket, one LLC of N cores, e.g. llc16,
#                          llc64, llc128) | SsLlCcTt (S sockets, one NUMA
#                          node each when S > 1, of L LLCs of C cores of T
#                          threads, e.g. 2s2l8c2t: 64 CPUs, 4 LLCs of 16
#                          with SMT, 2 nodes; 4s1l8c2t: 4 nodes)
#   --smp SPEC             raw -smp value (overrides --topo's CPUs)
#   --mem MB               guest memory (default 1024, plus 8 MB per CPU
#                          above 8; split evenly between NUMA nodes)
#   --timeout SECS         kill the guest after this long (default 900)
#   --log FILE             console log (default build/logs/<script>-<topo>.log)
#   --ko FILE              module to put in /lib/smartwake (repeatable;
#                          default: the shipped smartwake build for that
#                          kernel, and its KUnit suites on the debug kernel)
#   --foreign-ko FILE      a smartwake built for another kernel, put in
#                          /lib/smartwake/foreign (compat.sh: it must be
#                          refused)
#   --test-ko FILE         module to put in /lib/smartwake/testing
#                          (repeatable; default: the testing build of
#                          smartwake and module/testmods/*.ko, if built)
#   --headers-only         the stock kernel's headers-only builds instead
#                          (scripts/build-modules.sh --headers-only [--testing]:
#                          build/[<release>-]headers-only{,-testing}/)
#   --append ARGS          extra kernel command line
#   --icount               guest time counts instructions (-icount
#                          shift=0,sleep=off): repeatable cost ratios;
#                          sees no caches or pipelines
#   --plugin SPEC          a QEMU TCG plugin, -plugin SPEC (scripts/insnprof.sh)
#   --bin PATH             host program to put in the guest's /bin, with the
#                          shared libraries ldd lists (repeatable)
#   --verbose              print the whole console, not just the guest part
#   -h, --help             this text
# GUEST_SCRIPT is a file name under guest/ (e.g. e2e.sh).
# Exit status: the guest script's; 124 on timeout; 125 if the guest died
# without reporting.
. "$(dirname "$0")/common.sh"
# shellcheck source=scripts/qemulib.sh
. "$SW_TOP/scripts/qemulib.sh"

kernel=stock topo=smp4 smp= mem= timeout=900 log= verbose=0 append= icount=() plugin=() hdronly=0
want_arch=
kos=()
tkos=()
fkos=()
bins=()
usage() { sw_help "$0"; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--kernel-release) kernel=stock SW_KERNEL=$2; shift 2
		[ "$SW_KERNEL" != "$SW_DEFAULT_KREL" ] || SW_KERNEL= ;;
	--topo) topo=$2; shift 2 ;;
	--arch) want_arch=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--ko) kos+=("$2"); shift 2 ;;
	--test-ko) tkos+=("$2"); shift 2 ;;
	--foreign-ko) fkos+=("$2"); shift 2 ;;
	--headers-only) hdronly=1; shift ;;
	--append) append=$2; shift 2 ;;
	--icount) icount=(-icount 'shift=0,sleep=off'); shift ;;
	--plugin) plugin=(-plugin "$2"); shift 2 ;;
	--bin) bins+=("$2"); shift 2 ;;
	--verbose) verbose=1; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-*) usage >&2; sw_die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { usage >&2; exit 2; }
script=$1; shift
[ -f "$SW_TOP/guest/$script" ] || sw_die "no guest script guest/$script"

if [ "$want_arch" = arm64 ] && [ "$kernel" = stock ] && [ -z "$SW_KERNEL" ]; then
	SW_KERNEL=$(sw_kernels_arm64 | head -n1)
fi
case $kernel in
stock)
	sw_stock_env
	vmlinuz=$SW_VMLINUZ
	if [ "$hdronly" -eq 1 ]; then
		hb=$SW_TOP/build/${SW_BUILD:+$SW_BUILD-}headers-only
		[ ${#kos[@]} -gt 0 ] || kos=("$hb/module/smartwake.ko")
		tdir=$hb-testing/module
	elif [ -n "$SW_BUILD" ]; then
		# A kernel chosen by release: its builds in build/<release>{,-testing}/.
		[ ${#kos[@]} -gt 0 ] || kos=("$SW_TOP/build/$SW_BUILD/module/smartwake.ko")
		tdir=$SW_TOP/build/$SW_BUILD-testing/module
	else
		[ ${#kos[@]} -gt 0 ] || kos=("$SW_TOP/module/smartwake.ko")
		tdir=$SW_TOP/build/testing/module
	fi
	;;
debug|debug-*)
	[ "$hdronly" -eq 0 ] || sw_die "--headers-only is for the stock kernels"
	variant=${kernel#debug}
	variant=${variant#-}
	bdir=$("$SW_TOP/scripts/build-debug-kernel.sh" ${variant:+--variant "$variant"} --print-dir) ||
		sw_die "$kernel kernel not built (scripts/build-debug-kernel.sh${variant:+ --variant $variant})"
	vmlinuz=$bdir/arch/x86/boot/bzImage
	if [ ${#kos[@]} -eq 0 ]; then
		kos=("$SW_TOP/build/$kernel/module/smartwake.ko")
		[ -f "$SW_TOP/build/$kernel/kunit/smartwake_policy_kunit.ko" ] &&
			kos+=("$SW_TOP/build/$kernel/kunit/smartwake_policy_kunit.ko")
	fi
	tdir=$SW_TOP/build/$kernel-testing/module
	;;
*) sw_die "--kernel must be stock, debug or debug-VARIANT" ;;
esac
[ -f "$vmlinuz" ] || sw_die "kernel image $vmlinuz missing"
arch=amd64
[ "$kernel" != stock ] || arch=$(sw_arch_of "$SW_KREL")
[ -z "$want_arch" ] || [ "$want_arch" = "$arch" ] ||
	sw_die "--arch $want_arch: the kernel ${SW_KREL:-$kernel} is $arch (--kernel-release R of that architecture)"
# The sched-idle pull's companion (knob sib_pull), where it was built beside
# the module (kernels with CONFIG_LIVEPATCH): /lib/smartwake/smartwake_pull.ko
for ko in "${kos[@]}"; do
	case $ko in */smartwake.ko)
		[ -f "${ko%/*}/companion/smartwake_pull.ko" ] && kos+=("${ko%/*}/companion/smartwake_pull.ko")
		break ;;
	esac
done
# The testing build (fault injection) sits beside the shipped one, in
# /lib/smartwake/testing, for the tests that inject faults.
if [ ${#tkos[@]} -eq 0 ] && [ -f "$tdir/smartwake.ko" ]; then
	tkos=("$tdir/smartwake.ko")
	for ko in "$tdir"/testmods/*.ko; do
		[ -f "$ko" ] && tkos+=("$ko")
	done
fi

sw_topo_args "$topo" "$smp" "$mem"

mkdir -p "$SW_TOP/build/logs"
# A kernel chosen by release logs under its release, apart from the default.
klabel=$kernel
[ "$kernel" = stock ] && [ -n "${SW_BUILD:-}" ] && klabel=$SW_BUILD
[ -n "$log" ] || log="$SW_TOP/build/logs/${script%.sh}-$klabel-$topo.log"
sw_guest_setup smartwake-guest

# ---- initramfs -----------------------------------------------------------
root=$work/root
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,run,guest,lib/smartwake/testing}
busybox=$(command -v busybox || echo /bin/busybox)
[ "$arch" = amd64 ] || busybox=$(sw_arm64_busybox)
cp "$busybox" "$root/bin/busybox"
for ko in "${kos[@]}"; do
	[ -f "$ko" ] || sw_die "module $ko missing (build it first)"
	cp "$ko" "$root/lib/smartwake/"
done
# guest/bpf.sh: a copy of the module without its BTF, as a build without
# pahole or CONFIG_DEBUG_INFO_BTF_MODULES makes it (policy=bpf refused)
if [ "$script" = bpf.sh ]; then
	# bpftool 7.5 (bookworm-backports, a dynamic program): bpf.sh checks
	# that smartwake bpf status and unload see a map it registered; on
	# arm64 Debian's arm64 build, with its libraries and loader
	if [ "$arch" = amd64 ]; then
		bins+=("$("$SW_TOP/scripts/fetch-libbpf.sh" --bpftool)")
	else
		bt=$("$SW_TOP/scripts/fetch-libbpf.sh" --bpftool-arm64) ||
			sw_die "no arm64 bpftool (scripts/fetch-libbpf.sh --bpftool-arm64)"
		mkdir -p "$root/lib/aarch64-linux-gnu" "$root/usr/lib/aarch64-linux-gnu"
		cp -a "$bt"/lib/ld-linux-aarch64.so.1 "$root/lib/"
		cp -a "$bt"/lib/aarch64-linux-gnu/*.so* "$root/lib/aarch64-linux-gnu/"
		cp -a "$bt"/usr/lib/aarch64-linux-gnu/*.so* "$root/usr/lib/aarch64-linux-gnu/"
		cp "$bt/usr/sbin/bpftool" "$root/bin/"
	fi
	for ko in "${kos[@]}"; do
		case $ko in */smartwake.ko)
			mkdir -p "$root/lib/smartwake/nobtf"
			oc=objcopy
			[ "$arch" = amd64 ] || oc=aarch64-linux-gnu-objcopy
			$oc --remove-section=.BTF "$ko" "$root/lib/smartwake/nobtf/smartwake.ko" ||
				sw_die "$oc --remove-section=.BTF $ko failed"
			break ;;
		esac
	done
fi
for ko in "${tkos[@]}"; do
	[ -f "$ko" ] || sw_die "module $ko missing (build it first: make testing)"
	cp "$ko" "$root/lib/smartwake/testing/"
done
for ko in "${fkos[@]}"; do
	[ -f "$ko" ] || sw_die "module $ko missing"
	mkdir -p "$root/lib/smartwake/foreign"
	cp "$ko" "$root/lib/smartwake/foreign/"
done
# The guest scripts' workloads and the CLI: built here when out of date
# (a step run alone, as check.sh --repeat does, has no make all before
# it), and never left out: a guest without them only counts zeros.
if [ "$arch" = amd64 ]; then
	make -s -C "$SW_TOP/tools" >&2 || sw_die "tools/ did not build (make tools)"
	tools=("$SW_TOP"/tools/wakeload "$SW_TOP"/tools/udpstream "$SW_TOP"/tools/numatouch
		"$SW_TOP"/tools/finitload "$SW_TOP"/tools/failnth "$SW_TOP"/tools/smartwake)
else
	# the workloads and the CLI, static, by Debian's cross compiler
	# (tools/Makefile's flags); the CLI with Debian's arm64 libbpf, libelf,
	# zlib and zstd (scripts/fetch-libbpf.sh --arm64) and the amd64 set's
	# uapi headers (linux/bpf.h of 6.12)
	tools=()
	mkdir -p "$SW_TOP/build/tools-$arch"
	for t in wakeload udpstream numatouch finitload failnth; do
		o=$SW_TOP/build/tools-$arch/$t
		if [ ! -x "$o" ] || [ -n "$(find "$SW_TOP/tools/$t.c" "$SW_TOP"/tools/lib/swtool.[ch] -newer "$o")" ]; then
			aarch64-linux-gnu-gcc -I"$SW_TOP/tools/lib" -O2 -Wall -Wextra -Werror -static -pthread \
				-o "$o" "$SW_TOP/tools/$t.c" "$SW_TOP/tools/lib/swtool.c" ||
				sw_die "tools/$t.c did not cross-build (make deps installs gcc-aarch64-linux-gnu)"
		fi
		tools+=("$o")
	done
	o=$SW_TOP/build/tools-$arch/smartwake
	if [ ! -x "$o" ] || [ -n "$(find "$SW_TOP"/tools/cli "$SW_TOP"/tools/lib -newer "$o" -name '*.[ch]')" ]; then
		l64=$("$SW_TOP/scripts/fetch-libbpf.sh" --arm64) && l=$("$SW_TOP/scripts/fetch-libbpf.sh") ||
			sw_die "no arm64 libbpf for the CLI (scripts/fetch-libbpf.sh --arm64)"
		la=$l64/usr/lib/aarch64-linux-gnu
		(cd "$SW_TOP/tools" && aarch64-linux-gnu-gcc -Ilib -Icli/lib -I"$l64/usr/include" -I"$l/usr/include" \
			-O2 -Wall -Wextra -Werror -static -pthread -o "$o" cli/*.c cli/lib/*.c lib/child.c lib/swtool.c \
			"$la/libbpf.a" "$la/libelf.a" "$la/libz.a" "$la/libzstd.a") ||
			sw_die "the CLI did not cross-build for $arch"
	fi
	tools+=("$o")
fi
for t in "${tools[@]}"; do
	[ -x "$t" ] || sw_die "$t missing (make tools)"
	cp "$t" "$root/bin/"
done
cp "$SW_TOP"/guest/*.sh "$root/guest/"
# the example BPF policies (tools/bpf/), for guest/bpf.sh: built with the
# CLI for x86-64 (__TARGET_ARCH_x86), by make bpf-arm64 for arm64
# (__TARGET_ARCH_arm64, vmlinux.h of an arm64 kernel: build/tools-arm64/bpf/)
bpfo=$SW_TOP/tools/bpf
if [ "$arch" = arm64 ]; then
	make -s -C "$SW_TOP/tools" bpf-arm64 >&2 || sw_die "tools/bpf did not build for arm64 (make -C tools bpf-arm64)"
	bpfo=$SW_TOP/build/tools-arm64/bpf
fi
mkdir -p "$root/lib/smartwake/bpf/test"
cp "$bpfo"/*.bpf.o "$root/lib/smartwake/bpf/"
cp "$bpfo"/test/*.bpf.o "$root/lib/smartwake/bpf/test/"
# the kernel's configuration (the headers' .config), for the checks whose
# expectation depends on it (guest/lib.sh, kconfig)
if [ "$kernel" = stock ] && [ -f "$SW_KDIR/.config" ]; then
	cp "$SW_KDIR/.config" "$root/guest/kernel.config"
fi
# Dynamically linked programs from the host, with their libraries and loader.
for b in "${bins[@]}"; do
	p=$(command -v "$b") || sw_die "--bin $b: not found"
	cp -L "$p" "$root/bin/"
	for lib in $(ldd "$p" 2>/dev/null | grep -oE '/[^ ]+'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -Ln "$lib" "$root$lib"
	done
done
printf '%q ' "$script" "$@" >"$root/guest/cmdline"
# the kernel's label (stock, debug, or a release): guest/lib.sh's SW_KLABEL
echo "$klabel" >"$root/guest/kernel"
cat >"$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
ip link set lo up 2>/dev/null
cd /guest
echo "SMARTWAKE-GUEST-START $(uname -r) cpus=$(nproc)"
eval "set -- $(cat /guest/cmdline)"
script=$1; shift
sh "/guest/$script" "$@"
echo "SMARTWAKE-GUEST-EXIT $?"
sync
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initramfs.gz"

# ---- boot ----------------------------------------------------------------
# no_timer_check: on a loaded host the IO-APIC timer check can miss the
# emulated 8254 and panic ("IO-APIC + timer doesn't work!")
cmdline="console=ttyS0 panic=-1 tsc=reliable no_timer_check quiet loglevel=4 rdinit=/init $append"
qemu=(qemu-system-x86_64)
if [ "$arch" = arm64 ]; then
	# virt's PL011 console; -cpu max: every feature TCG has (BTI, PAC;
	# pauth-impdef: the cheaper PAC hash, as fast as no PAC under TCG)
	cmdline="console=ttyAMA0 panic=-1 quiet loglevel=4 rdinit=/init $append"
	qemu=(qemu-system-aarch64 -M virt)
	SW_QEMU_CPU=${SW_QEMU_CPU:-max,pauth-impdef=on}
fi
# KASAN prints only its first report per boot unless told otherwise; a
# later report from smartwake must not hide behind an earlier one.
[ "$kernel" = debug ] && cmdline+=" kasan_multi_shot"
# KCSAN from boot: the kcsan variant's allnoconfig leaves
# KCSAN_EARLY_ENABLE off (scripts/debug-kernel-kcsan.config)
[ -n "${bdir:-}" ] && grep -q '^CONFIG_KCSAN=y' "$bdir/.config" && cmdline+=" kcsan.early_enable=1"
sw_log "booting $klabel kernel, topology $topo, guest/$script $* (log: $log)"
start=$(date +%s)
"${qemu[@]}" -accel tcg,thread=single "${icount[@]}" "${plugin[@]}" ${SW_QEMU_CPU:+-cpu $SW_QEMU_CPU} -m "$topo_mem" "${topo_args[@]}" \
	-kernel "$vmlinuz" -initrd "$work/initramfs.gz" -append "$cmdline" \
	-nographic -no-reboot -nic none </dev/null >"$log" 2>&1 &
qpid=$!
sw_guest_wait "$start" "$timeout" "$log"
sw_guest_verdict "$log" "$verbose" "$script on $klabel/$topo" "$start"
exit "$rc"
