#!/usr/bin/env bash
# make check step "install": make install into a staging directory for the
# default kernel, from its headers alone (the module, the CLI, the man
# page; the module is that kernel's shipped build), make uninstall removes
# them, a kernel without headers is refused with a message, and DKMS builds
# the module from an exported tree (git archive) against the headers only,
# in private DKMS and source trees (nothing under /var/lib/dkms or
# /usr/src). Nothing is loaded: the guest steps test the module itself.
#
# Usage: scripts/install-test.sh
. "$(dirname "$0")/common.sh"
. "$SW_TOP/scripts/testlib.sh"
case ${1:-} in -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

SW_KERNEL= sw_stock_env
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage
mod=$stage/lib/modules/$SW_KREL/updates/smartwake.ko

check "make install (headers only) into a staging directory" \
	make -s -C "$SW_TOP" install KVER="$SW_KREL" KDIR="$SW_KDIR" DESTDIR="$stage"
check "module installed under updates/" test -f "$mod"
check "CLI installed" test -x "$stage/usr/local/sbin/smartwake"
check "man page installed" test -f "$stage/usr/local/share/man/man8/smartwake.8"
vm=$(modinfo -F vermagic "$mod" 2>/dev/null || true)
check "module is for $SW_KREL ($vm)" test "${vm%% *}" = "$SW_KREL"
check "module is the shipped build (no test_ parameter)" \
	eval '! modinfo -p "$mod" | grep -q "^test_"'
check "man page renders (man -l)" eval 'man -l "$stage/usr/local/share/man/man8/smartwake.8" 2>/dev/null | grep -q "smartwake set"'
check "make uninstall removes them" eval \
	'make -s -C "$SW_TOP" uninstall KVER="$SW_KREL" DESTDIR="$stage" &&
	 [ ! -e "$mod" ] && [ ! -e "$stage/usr/local/sbin/smartwake" ] &&
	 [ ! -e "$stage/usr/local/share/man/man8/smartwake.8" ]'
out=$(make -s -C "$SW_TOP" install KVER=0.0.0-none KDIR="$tmp/none" DESTDIR="$stage" 2>&1) &&
	rc=0 || rc=$?
check "a kernel without headers is refused, with a message" eval \
	'[ "$rc" -ne 0 ] && grep -q "no kernel headers for 0.0.0-none" <<<"$out"'

if command -v dkms >/dev/null; then
	src=$tmp/src/smartwake-$(cat "$SW_TOP/VERSION")
	mkdir -p "$src" "$tmp/dkms"
	git -C "$SW_TOP" archive HEAD | tar -x -C "$src"
	d=(dkms --sourcetree "$tmp/src" --dkmstree "$tmp/dkms")
	check "dkms add (private trees)" "${d[@]}" add -m smartwake -v "$(cat "$SW_TOP/VERSION")"
	check "dkms build against the headers only" "${d[@]}" build -m smartwake \
		-v "$(cat "$SW_TOP/VERSION")" -k "$SW_KREL" --kernelsourcedir "$SW_KDIR"
	ko=$(find "$tmp/dkms/smartwake" -name smartwake.ko | head -n1)
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null || true)
	check "dkms built a module for $SW_KREL" test "${vm%% *}" = "$SW_KREL"
else
	not_ok "dkms not installed (make deps installs it)"
fi
summary
