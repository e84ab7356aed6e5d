#!/usr/bin/env bash
# Boot the Debian system image (scripts/debian-image.sh) in a QEMU guest
# (TCG, single-threaded, as scripts/guest-run.sh) with its own kernel and
# initrd, systemd as init, and run one guest script in it: the lab service
# of the image mounts a payload disk (label SW-LAB) holding guest/, the
# project's Debian packages (scripts/build-deb.sh: the committed tree,
# HEAD, into build/deb-image/, kept while HEAD is the same) in /lab/deb,
# the tools (wakeload, udpstream, numatouch, the CLI smartwake) in
# /lab/bin and --ko modules in /lab/ko, runs the script with bash and
# powers off. A script that exits
# 100 reboots the guest (the root disk's changes survive a reboot, never
# the QEMU run: the image is opened with snapshot=on) and runs again with
# LAB_BOOT one higher. No NIC: loopback only.
#
# Usage: scripts/debian-run.sh [options] GUEST_SCRIPT [ARGS...]
#   --suite S        bookworm (default) or trixie (scripts/debian-image.sh)
#   --smp N          vCPUs (default 2)
#   --topo NAME      a topology of scripts/guest-run.sh instead (numa-smt:
#                    2 nodes x 2 cores x 2 threads; qemulib.sh)
#   --icount         -icount shift=0,sleep=off: guest time counts
#                    instructions (one counter for all vCPUs)
#   --mem MB         guest memory (default 2048)
#   --timeout SECS   kill the guest after this long (default 1200)
#   --log FILE       console log (default build/logs/<script>-SUITE.log)
#   --no-deb         do not build or carry the packages
#   --ko FILE        a module to put in /lab/ko (debian-bench.sh: the
#                    lab's build for the image's kernel)
#   --append ARGS    extra kernel command line
#   --verbose        print the whole console, not just the guest part
#   -h, --help       this text
# Exit status: the guest script's; 124 on timeout; 125 if the guest died
# without reporting.
. "$(dirname "$0")/common.sh"
# shellcheck source=scripts/qemulib.sh
. "$SW_TOP/scripts/qemulib.sh"

suite=bookworm smp=2 topo= mem=2048 timeout=1200 log= deb=1 append= verbose=0 icount=()
kos=()
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--topo) topo=$2; shift 2 ;;
	--icount) icount=(-icount 'shift=0,sleep=off'); shift ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--no-deb) deb=0; shift ;;
	--ko) kos+=("$2"); shift 2 ;;
	--append) append=$2; shift 2 ;;
	--verbose) verbose=1; shift ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	--) shift; break ;;
	-*) sw_help "$0" >&2; sw_die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { sw_help "$0" >&2; exit 2; }
script=$1; shift
[ -f "$SW_TOP/guest/$script" ] || sw_die "no guest script guest/$script"

img=$("$SW_TOP/scripts/debian-image.sh" --suite "$suite" --print-dir) ||
	sw_die "no $suite image (scripts/debian-image.sh --suite $suite)"
mkdir -p "$SW_TOP/build/logs"
[ -n "$log" ] || log="$SW_TOP/build/logs/${script%.sh}-$suite.log"
sw_guest_setup smartwake-debian

# ---- payload disk -----------------------------------------------------------
p=$work/payload
mkdir -p "$p/guest" "$p/bin" "$p/deb"
cp "$SW_TOP"/guest/*.sh "$p/guest/"
make -s -C "$SW_TOP/tools" >&2 || sw_die "tools/ did not build (make tools)"
for t in wakeload udpstream numatouch smartwake; do
	cp "$SW_TOP/tools/$t" "$p/bin/"
done
mkdir -p "$p/ko"
for ko in "${kos[@]}"; do
	cp "$ko" "$p/ko/" || sw_die "no module $ko"
done
if [ $deb -eq 1 ]; then
	"$SW_TOP/scripts/build-deb.sh" --out "$SW_TOP/build/deb-image" --if-changed >&2 ||
		sw_die "the Debian packages did not build"
	cp "$SW_TOP"/build/deb-image/smartwake{,-dkms}_*.deb "$p/deb/"
fi
printf '%q ' "$script" "$@" >"$p/guest/cmdline"
mke2fs -q -t ext4 -L SW-LAB -d "$p" "$work/payload.img" 256M >/dev/null ||
	sw_die "mke2fs of the payload disk failed"

# ---- boot -------------------------------------------------------------------
# no_timer_check: see guest-run.sh; no panic=: a panic is seen in the log
cmdline="root=/dev/vda rw console=ttyS0 quiet loglevel=3 systemd.show_status=0 tsc=reliable no_timer_check $append"
if [ -n "$topo" ]; then
	sw_topo_args "$topo" "" "$mem"
else
	topo_args=(-smp "$smp") topo_mem=$mem
fi
sw_log "booting the $suite image ($(cat "$img/krel")), ${topo:-$smp vCPUs}${icount[*]:+ (icount)}, guest/$script $* (log: $log)"
start=$(date +%s)
qemu-system-x86_64 -accel tcg,thread=single "${icount[@]}" ${SW_QEMU_CPU:+-cpu $SW_QEMU_CPU} -m "$topo_mem" "${topo_args[@]}" \
	-kernel "$img/vmlinuz" -initrd "$img/initrd.img" -append "$cmdline" \
	-drive "file=$img/rootfs.img,format=raw,if=virtio,snapshot=on" \
	-drive "file=$work/payload.img,format=raw,if=virtio,readonly=on" \
	-nographic -nic none </dev/null >"$log" 2>&1 &
qpid=$!
sw_guest_wait "$start" "$timeout" "$log" 'Kernel panic - not syncing'
sw_guest_verdict "$log" "$verbose" "$script on the $suite image" "$start"
exit "$rc"
