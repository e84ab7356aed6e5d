#!/usr/bin/env bash
# Shared settings for the smartwake scripts. Sourced, not run.
#
# Everything slow to produce (kernel packages, extracted sources, the debug
# kernel build) lives in a cache outside the clone, keyed by version:
#   $SW_CACHE/<debian-version>/          stock image, headers, source
#   $SW_CACHE/debug-<key>/               debug/KUnit kernel build
# Override the cache with SMARTWAKE_CACHE=/path.

set -euo pipefail

SW_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SW_CACHE=${SMARTWAKE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/smartwake}
# Preferred Debian version of the stock 6.12 cloud kernel; fetch-kernel.sh
# falls back to the newest complete image/headers/source triple.
SW_PREFERRED_VERSION=${SMARTWAKE_KERNEL_VERSION:-6.12.117-1~deb12u1}

sw_log() { printf '[smartwake] %s\n' "$*" >&2; }
sw_die() { printf '[smartwake] error: %s\n' "$*" >&2; exit 1; }

# sw_timed OUT RES TEE CMD...: run CMD with its output in OUT (also on
# stdout when TEE is 1), then write "PASS SECONDS" or "FAIL SECONDS" to
# RES. Returns CMD's status. make check's steps and make stress's runs.
sw_timed() {
	local out=$1 res=$2 tee=$3 t0=$SECONDS rc=0
	shift 3
	if [ "$tee" = 1 ]; then
		"$@" 2>&1 | tee "$out" && rc=0 || rc=${PIPESTATUS[0]}
	else
		"$@" >"$out" 2>&1 || rc=$?
	fi
	echo "$([ "$rc" -eq 0 ] && echo PASS || echo FAIL) $((SECONDS - t0))" >"$res"
	return "$rc"
}

# Debian version "6.12.117-1~deb12u1" -> kernel ABI name "6.12.117+deb12".
sw_abi_of() {
	local v=$1
	printf '%s+deb12\n' "${v%%-*}"
}

# The file that records which version fetch-kernel.sh settled on.
sw_current_file() { printf '%s/current-version\n' "$SW_CACHE"; }

# Print the variables describing the cached stock kernel:
# SW_VERSION, SW_ABI, SW_KREL, SW_VMLINUZ, SW_KDIR, SW_KSRC.
sw_stock_env() {
	local f
	f=$(sw_current_file)
	[ -s "$f" ] || sw_die "no cached kernel; run scripts/fetch-kernel.sh"
	SW_VERSION=$(cat "$f")
	SW_ABI=$(sw_abi_of "$SW_VERSION")
	SW_KREL="$SW_ABI-cloud-amd64"
	local d="$SW_CACHE/$SW_VERSION"
	SW_VMLINUZ="$d/image/boot/vmlinuz-$SW_KREL"
	SW_KDIR="$d/headers/usr/src/linux-headers-$SW_KREL"
	SW_KSRC="$d/source/linux-source-6.12"
	export SW_VERSION SW_ABI SW_KREL SW_VMLINUZ SW_KDIR SW_KSRC
}
