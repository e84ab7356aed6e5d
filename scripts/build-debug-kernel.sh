#!/usr/bin/env bash
# Build the smartwake debug/KUnit kernel (x86_64 allnoconfig + the fragment
# scripts/debug-kernel.config) from the cached linux-source-6.12 of the stock
# Debian version, out of tree, into the cache:
#   $SW_CACHE/debug-<debian-version>-<hash>/build   (make O=, bzImage, M= target)
# <hash> is the first 12 hex digits of the sha256 of the fragment's meaningful
# lines (comments and blank lines other than "# CONFIG_X is not set" do not
# count), the build recipe version and the compiler version.
# Out-of-tree modules then build with: make -C <build dir> M=<module dir>
# The kernel trusts a throwaway module-signing test key generated here with
# openssl (never committed): $SW_CACHE/debug-<version>-<hash>/sign/
# smartwake-test-key.pem and smartwake-test-cert.pem (CONFIG_SYSTEM_TRUSTED_KEYS);
# sign a module with <build dir>/scripts/sign-file sha256 KEY CERT MODULE.
#
# A variant V (--variant V) is a second kernel from the same source: the
# base fragment without the lines of every symbol that
# scripts/debug-kernel-V.config names, then that file; cached beside the
# base in $SW_CACHE/debug-V-<debian-version>-<hash> (the hash covers the
# merged fragment and the variant's name). make check's kernel is the base.
#   kcsan  KCSAN instead of KASAN, plus fault injection (failslab,
#          fail_page_alloc, fail_function); guest-run.sh --kernel debug-kcsan
#   faultbpf  the base (KASAN) plus the same fault injection, DWARF, BTF,
#          bpf(2) and the JIT (policy=bpf under fault injection);
#          guest-run.sh --kernel debug-faultbpf
#
# Usage: scripts/build-debug-kernel.sh [--variant V] [--print-dir] [--help]
#   --variant V  build (or print) variant V instead of the base kernel
#   --print-dir  print the build dir of a complete build; exit 1 if not built
# Env: SW_JOBS=N overrides the make parallelism (default: nproc).

# shellcheck source=scripts/common.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/common.sh"

# Bump when the steps below change in a way that needs a fresh build dir.
recipe=2
frag=$SW_TOP/scripts/debug-kernel.config

usage() { sw_help "$0"; }

print_dir=0
variant=
while [ $# -gt 0 ]; do
	case $1 in
	--print-dir) print_dir=1; shift ;;
	--variant)
		[ $# -ge 2 ] || sw_die "--variant needs a name"
		variant=$2
		shift 2
		;;
	-h|--help) usage; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done

# The debug kernel is built from the default kernel's source, whatever
# KERNEL says.
SW_KERNEL=
[ -r "$frag" ] || sw_die "missing config fragment $frag"
overlay=
if [ -n "$variant" ]; then
	case $variant in
	*[!a-z0-9]*) sw_die "--variant: lower-case letters and digits only, not '$variant'" ;;
	esac
	overlay=$SW_TOP/scripts/debug-kernel-$variant.config
	[ -r "$overlay" ] || sw_die "no variant '$variant': missing $overlay"
fi

if [ ! -s "$(sw_current_file)" ]; then
	[ "$print_dir" -eq 1 ] && exit 1
	sw_log "no cached stock kernel source; running fetch-kernel.sh"
	"$SW_TOP/scripts/fetch-kernel.sh"
fi
sw_stock_env
[ -f "$SW_KSRC/Makefile" ] || sw_die "kernel source missing at $SW_KSRC; run scripts/fetch-kernel.sh"

# The fragment the kernel is configured with: the base, or for a variant
# the base without the symbols the overlay names, then the overlay.
frag_text() {
	if [ -z "$overlay" ]; then
		cat "$frag"
		return
	fi
	awk '
	function sym(l) {
		if (match(l, /^CONFIG_[A-Za-z0-9_]+=/)) return substr(l, 1, RLENGTH - 1)
		if (match(l, /^# CONFIG_[A-Za-z0-9_]+ is not set/)) {
			l = substr(l, 3); sub(/ .*/, "", l); return l
		}
		return ""
	}
	FNR == NR { s = sym($0); if (s != "") over[s] = 1; next }
	{ s = sym($0); if (s == "" || !(s in over)) print }
	' "$overlay" "$frag"
	printf '\n# ---- variant %s: %s ----\n' "$variant" "${overlay#"$SW_TOP"/}"
	cat "$overlay"
}
# The lines that change the resulting .config, in order.
frag_lines() {
	local text
	text=$(frag_text)
	grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' <<<"$text" || true
	grep -E '^# CONFIG_[A-Za-z0-9_]+ is not set' <<<"$text" || true
}

cc_version=$(gcc --version | head -n 1)
hash=$({
	frag_lines
	printf 'recipe=%s\ncc=%s\n' "$recipe" "$cc_version"
	[ -z "$variant" ] || printf 'variant=%s\n' "$variant"
} | sha256sum | cut -c1-12)
key="$SW_VERSION-$hash"
dir="$SW_CACHE/debug-${variant:+$variant-}$key"
build="$dir/build"
bzimage="$build/arch/x86/boot/bzImage"

sign=$dir/sign
report() {
	printf 'build dir: %s\n' "$build"
	printf 'bzImage:   %s\n' "$bzimage"
	printf 'test key:  %s\n' "$sign/smartwake-test-key.pem"
	printf 'test cert: %s\n' "$sign/smartwake-test-cert.pem"
}

if [ "$print_dir" -eq 1 ]; then
	[ -f "$dir/.complete" ] || exit 1
	printf '%s\n' "$build"
	exit 0
fi

if [ -f "$dir/.complete" ]; then
	report
	exit 0
fi

mkdir -p "$build"
# One builder per cache dir; a second caller waits, then finds it complete.
exec 9>"$dir/.lock"
if ! flock -n 9; then
	sw_log "another build of $dir is running; waiting for it"
	flock 9
fi
if [ -f "$dir/.complete" ]; then
	report
	exit 0
fi

log="$dir/build.log"
kmake() {
	make -C "$SW_KSRC" O="$build" ARCH=x86_64 "$@"
}
# Run a step with its output in the log; on failure show the tail and stop.
step() {
	local what=$1
	shift
	sw_log "$what (log: $log)"
	if ! "$@" >>"$log" 2>&1; then
		tail -n 40 "$log" >&2
		sw_die "$what failed; the build dir is kept for an incremental retry"
	fi
}

# Every "CONFIG_X=v" and "# CONFIG_X is not set" of the fragment must hold in
# the final .config; print the ones that do not.
config_mismatches() {
	local cfg=$build/.config line sym got
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF -- "$line" "$cfg" && continue
			sym=${line%%=*}
			;;
		'# CONFIG_'*' is not set')
			sym=${line#\# }
			sym=${sym%% *}
			grep -q "^$sym=" "$cfg" || continue
			;;
		*) continue ;;
		esac
		got=$(grep -E "^(# )?${sym}[= ]" "$cfg" || true)
		printf '  wanted: %s\n     got: %s\n' "$line" "${got:-(absent: dependency missing or symbol gone)}"
	done < <(frag_lines)
}

# A previous run that stopped half-way leaves $build without .complete: kbuild
# rebuilds whatever has no .cmd record (a killed compile never wrote one), so
# simply continue in the same dir.
if [ -e "$build/.config" ]; then
	sw_log "resuming the incomplete build in $build"
fi
frag_text >"$dir/debug-kernel.config"
# The module-signing test key the kernel trusts (the fragment's
# CONFIG_SYSTEM_TRUSTED_KEYS="../sign/smartwake-test-cert.pem", relative to
# $build). Made once per cache dir; a resumed build keeps it (a new key
# would not match the certificate already built into vmlinux).
gen_test_key() {
	mkdir -p "$sign" &&
	openssl req -new -x509 -newkey rsa:2048 -nodes -sha256 -days 36500 -batch \
		-subj "/O=smartwake/CN=smartwake debug-kernel test key (throwaway)" \
		-addext "basicConstraints=critical,CA:FALSE" \
		-addext "keyUsage=digitalSignature" \
		-addext "subjectKeyIdentifier=hash" \
		-keyout "$sign/smartwake-test-key.pem.tmp" \
		-out "$sign/smartwake-test-cert.pem.tmp" &&
	chmod 600 "$sign/smartwake-test-key.pem.tmp" &&
	mv "$sign/smartwake-test-cert.pem.tmp" "$sign/smartwake-test-cert.pem" &&
	mv "$sign/smartwake-test-key.pem.tmp" "$sign/smartwake-test-key.pem"
}
if [ ! -s "$sign/smartwake-test-key.pem" ] || [ ! -s "$sign/smartwake-test-cert.pem" ]; then
	command -v openssl >/dev/null || sw_die "openssl missing (scripts/install-host-tools.sh)"
	step "generating the module-signing test key (openssl) in $sign" gen_test_key
fi
printf '=== %s: start (recipe %s, %s)\n' "$(date -Is)" "$recipe" "$cc_version" >>"$log"
start=$(date +%s)

step "configuring (allnoconfig + fragment)" \
	kmake KCONFIG_ALLCONFIG="$dir/debug-kernel.config" allnoconfig
bad=$(config_mismatches)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" >&2
	# The same key always yields the same .config: this dir is useless.
	cp "$build/.config" "/tmp/smartwake-debug-$key.config" 2>/dev/null || true
	rm -rf "$dir"
	sw_die "options of $frag did not stick (resulting config: /tmp/smartwake-debug-$key.config)"
fi

jobs=${SW_JOBS:-$(nproc)}
step "building vmlinux, bzImage and modules with -j$jobs (takes a while)" \
	kmake -j"$jobs" all
step "preparing for out-of-tree modules" kmake -j"$jobs" modules_prepare

[ -s "$bzimage" ] || sw_die "no bzImage at $bzimage"
[ -f "$build/Module.symvers" ] || sw_die "no Module.symvers in $build"
[ -x "$build/scripts/mod/modpost" ] || sw_die "no modpost in $build"

secs=$(($(date +%s) - start))
{
	printf 'debian_version=%s\n' "$SW_VERSION"
	printf 'key=%s\n' "$key"
	printf 'variant=%s\n' "${variant:-base}"
	printf 'kernelrelease=%s\n' "$(cat "$build/include/config/kernel.release")"
	printf 'source=%s\n' "$SW_KSRC"
	printf 'cc=%s\n' "$cc_version"
	printf 'build_seconds=%s\n' "$secs"
	printf 'sign_key=%s\n' "$sign/smartwake-test-key.pem"
	printf 'sign_cert=%s\n' "$sign/smartwake-test-cert.pem"
} >"$dir/info"
touch "$dir/.complete"
sw_log "built in $((secs / 60)) min $((secs % 60)) s"
report
