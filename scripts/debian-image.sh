#!/usr/bin/env bash
# A Debian system disk image, the lab's stand-in for a user's test machine
# (issue 31): mmdebstrap (minbase) of Debian's own packages only, with
# systemd, udev, kmod, DKMS, gcc and make, the stock cloud kernel and its
# headers as apt installs them, and the benchmarks and tracers of Debian
# (rt-tests, linux-perf, sysbench, PostgreSQL with pgbench, bpftrace,
# trace-cmd). No network but loopback: the image has no interface
# configuration and its guests get no NIC. PostgreSQL is installed but not
# started at boot (the benchmarks start it); the serial getty is masked, so
# the console belongs to the lab service, which runs the test on the
# payload disk (scripts/debian-run.sh) and powers off.
#
# Cached once per suite, kernel and recipe (a hash of this file), in
# $SW_CACHE/image-SUITE-KREL-HASH/: rootfs.img (ext4, sparse), the image's
# own vmlinuz and initrd.img, packages.txt (dpkg-query of the image). An
# older image of the same suite is removed when a new one is complete.
# About 75 s of mmdebstrap and 1 GB from deb.debian.org when not cached.
#
# Usage: scripts/debian-image.sh [--suite bookworm|trixie] [--print-dir]
#   --suite S     bookworm (default: Debian 12 with the default kernel,
#                 6.12.x+deb12-cloud-amd64) or trixie (Debian 13,
#                 6.12.x+deb13-cloud-amd64)
#   --print-dir   print the cache directory of a complete image (build it
#                 first when missing)
#   -h, --help    this text
. "$(dirname "$0")/common.sh"

suite=bookworm print=0
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=${2:-}; shift 2 ;;
	--print-dir) print=1; shift ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_help "$0" >&2; sw_die "unknown argument $1" ;;
	esac
done

# The kernel of the image: the suite's cloud 6.12 of common.sh's table, at
# the version the stock steps boot (the default kernel's may have fallen
# back to a newer Debian 12 build: fetch-kernel.sh's current-version).
case $suite in
bookworm)
	SW_KERNEL= sw_stock_env
	krel=$SW_KREL kver=$SW_VERSION pg=postgresql-15
	;;
trixie)
	krel=6.12.117+deb13-cloud-amd64
	sw_kernel_row "$krel"
	kver=$SW_ROW_VERSION pg=postgresql-17
	;;
*) sw_die "--suite must be bookworm or trixie" ;;
esac
command -v mmdebstrap >/dev/null && command -v mke2fs >/dev/null ||
	sw_die "mmdebstrap or mke2fs missing (make deps: scripts/install-host-tools.sh)"

pkgs=(systemd-sysv udev kmod initramfs-tools dbus
	"linux-image-$krel=$kver" "linux-headers-$krel=$kver"
	dkms gcc make libc6-dev xz-utils openssl
	libbpf-dev rsync lz4 binutils python3
	procps iproute2 util-linux psmisc
	rt-tests linux-perf sysbench "$pg" bpftrace trace-cmd)
key=$({ cat "$0"; echo "$suite $krel $kver"; } | sha256sum | cut -c1-12)
dir=$SW_CACHE/image-$suite-$krel-$key
if [ -f "$dir/.complete" ]; then
	[ $print -eq 1 ] && echo "$dir" || sw_log "image cached: $dir"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-image.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The customisation, run by mmdebstrap with the root directory as $1.
cat >"$tmp/customize.sh" <<'CUSTOM'
set -e
r=$1
echo smartwake-lab >"$r/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 smartwake-lab\n' >"$r/etc/hosts"
printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$r/etc/fstab"
# the console is the lab service's; no login prompt on it
chroot "$r" systemctl mask serial-getty@ttyS0.service getty@tty1.service \
	systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer \
	e2scrub_reap.service >/dev/null 2>&1 || true
# PostgreSQL runs only when a benchmark starts it
chroot "$r" systemctl disable postgresql.service >/dev/null 2>&1 || true
mkdir -p "$r/var/lib/smartwake-lab"
cat >"$r/usr/local/sbin/smartwake-lab" <<'LAB'
#!/bin/bash
# The lab service: run the test on the payload disk (label SW-LAB), print
# its verdict on the console, then power off; a test that exits 100 asks
# for a reboot, after which it runs again with LAB_BOOT one higher.
mkdir -p /lab
mount -o ro LABEL=SW-LAB /lab || { echo "SMARTWAKE-GUEST-EXIT 125 (no payload disk)"; systemctl poweroff; exit 0; }
st=/var/lib/smartwake-lab
LAB_BOOT=$(($(cat $st/boot 2>/dev/null || echo 0) + 1))
echo "$LAB_BOOT" >$st/boot
export LAB_BOOT LAB_STATE=$st PATH=/lab/bin:$PATH
cd /lab/guest
echo "SMARTWAKE-GUEST-START $(uname -r) cpus=$(nproc) boot=$LAB_BOOT"
eval "set -- $(cat /lab/guest/cmdline)"
script=$1
shift
bash "/lab/guest/$script" "$@"
rc=$?
sync
if [ $rc -eq 100 ]; then
	echo "SMARTWAKE-GUEST-REBOOT"
	systemctl reboot
	exit 0
fi
echo "SMARTWAKE-GUEST-EXIT $rc"
systemctl poweroff
LAB
chmod 755 "$r/usr/local/sbin/smartwake-lab"
cat >"$r/etc/systemd/system/smartwake-lab.service" <<'UNIT'
[Unit]
Description=smartwake lab: the test on the payload disk
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/smartwake-lab
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
TTYReset=no
TTYVHangup=no
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
UNIT
chroot "$r" systemctl enable smartwake-lab.service >/dev/null 2>&1
# apt in the guest installs local packages only: no lists, no network
rm -f "$r"/etc/apt/sources.list.d/* "$r/etc/apt/sources.list"
touch "$r/etc/apt/sources.list"
CUSTOM

sources=("deb http://deb.debian.org/debian $suite main"
	"deb http://deb.debian.org/debian-security $suite-security main")
sw_log "building the $suite image ($krel $kver) with mmdebstrap (about 1 GB from deb.debian.org)"
t0=$SECONDS
mmdebstrap --variant=minbase --mode=root --format=directory \
	--include="$(IFS=,; echo "${pkgs[*]}")" \
	--customize-hook="sh $tmp/customize.sh \"\$1\"" \
	"$suite" "$tmp/root" "${sources[@]}" >"$tmp/mmdebstrap.log" 2>&1 ||
	{ tail -n 30 "$tmp/mmdebstrap.log" >&2; sw_die "mmdebstrap of $suite failed"; }
root=$tmp/root
[ -f "$root/boot/vmlinuz-$krel" ] && [ -f "$root/boot/initrd.img-$krel" ] ||
	sw_die "the image has no /boot/vmlinuz-$krel or initrd.img-$krel"
mkdir -p "$dir.tmp"
cp "$root/boot/vmlinuz-$krel" "$dir.tmp/vmlinuz"
cp "$root/boot/initrd.img-$krel" "$dir.tmp/initrd.img"
chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' >"$dir.tmp/packages.txt"
echo "$krel" >"$dir.tmp/krel"
mke2fs -q -t ext4 -L smartwake-root -d "$root" "$dir.tmp/rootfs.img" 4G >/dev/null ||
	sw_die "mke2fs of the image failed"
touch "$dir.tmp/.complete"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
for old in "$SW_CACHE"/image-"$suite"-*; do
	[ "$old" = "$dir" ] || rm -rf "$old"
done
sw_log "image $dir ($(du -sh --apparent-size "$dir/rootfs.img" | cut -f1) sparse, $(du -sh "$dir/rootfs.img" | cut -f1) used) in $((SECONDS - t0))s"
[ $print -eq 0 ] || echo "$dir"
