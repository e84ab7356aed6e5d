#!/usr/bin/env bash
# Install the host packages smartwake needs, only those that are missing.
# Nothing here touches /boot or /lib/modules: kernels are extracted into the
# cache by fetch-kernel.sh, never installed.
. "$(dirname "$0")/common.sh"

# command-or-file -> Debian package
need=(
	"qemu-system-x86_64:qemu-system-x86"
	"/bin/busybox:busybox-static"
	"gcc:gcc" "make:make" "bc:bc" "flex:flex" "bison:bison"
	"/usr/include/libelf.h:libelf-dev" "/usr/include/openssl/ssl.h:libssl-dev"
	"pahole:dwarves" "cpio:cpio" "depmod:kmod" "xz:xz-utils"
	"rsync:rsync" "python3:python3" "perl:perl" "dpkg-deb:dpkg"
	"apt-get:apt" "file:file" "gzip:gzip" "shellcheck:shellcheck"
	"objdump:binutils" "modinfo:kmod" "/usr/include/bpf/btf.h:libbpf-dev"
	"dkms:dkms" "man:man-db" "lz4:lz4" "dpkg-buildpackage:dpkg-dev" "dh:debhelper"
	"dh_dkms:dh-dkms" "openssl:openssl" "clang:clang" "llvm-strip:llvm"
	"mmdebstrap:mmdebstrap" "mke2fs:e2fsprogs"
	# the arm64 kernels (SW_KERNEL_TABLE_ARM64): cross builds, guests
	"aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu" "aarch64-linux-gnu-readelf:binutils-aarch64-linux-gnu"
	"/usr/aarch64-linux-gnu/lib/libc.a:libc6-dev-arm64-cross" "qemu-system-aarch64:qemu-system-arm"
)
missing=()
for e in "${need[@]}"; do
	what=${e%%:*} pkg=${e#*:}
	case $what in
	/*) [ -e "$what" ] && continue ;;
	*) command -v "$what" >/dev/null 2>&1 && continue ;;
	esac
	# busybox-static is required even when a dynamic busybox exists
	missing+=("$pkg")
done
# A dynamic /bin/busybox would not run in the initramfs.
if [ -e /bin/busybox ] && ! file -L /bin/busybox 2>/dev/null | grep -q 'statically linked'; then
	missing+=(busybox-static)
fi
if [ ${#missing[@]} -eq 0 ]; then
	sw_log "host tools present"
	exit 0
fi
sw_log "installing host packages: ${missing[*]}"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || sw_log "apt-get update failed; trying with existing lists"
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
