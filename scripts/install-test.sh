#!/usr/bin/env bash
# make check step "install": make install into a staging directory for the
# default kernel, from its headers alone (the module, the CLI, the man
# page; the module is that kernel's shipped build), make uninstall removes
# them, a kernel without headers is refused with a message, and DKMS builds
# the module from an exported tree (git archive) against the headers only,
# for every supported cloud kernel and one generic, in private DKMS and
# source trees (nothing under /var/lib/dkms or /usr/src). Signing: with
# a throwaway test key (SIGN_KEY/SIGN_CERT) the installed module carries
# one signature by that key (signer and serial), with a DKMS-style MOK
# dir (SMARTWAKE_MOK_DIR) by that one, without a key none; DKMS signs
# its build itself with the framework.conf key (a private mount namespace
# gives DKMS a framework.conf.d naming the test key: /etc is not
# changed), once; the
# Secure Boot hint (scripts/sb-hint.sh) against a fake EFI variable; the
# rt flavour refused by make KERNEL= and by Kbuild.
# Nothing is loaded: the guest steps test the module itself.
#
# Usage: scripts/install-test.sh
. "$(dirname "$0")/common.sh"
. "$SW_TOP/scripts/testlib.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac

SW_KERNEL= sw_stock_env
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage
mod=$stage/lib/modules/$SW_KREL/updates/smartwake.ko

# Throwaway signing keys (PEM key, DER certificate as DKMS makes them).
# signed_by MODULE CERT: the module carries exactly one signature, whose
# signer and key id (the serial) are CERT's.
mkdir -p "$tmp/key" "$tmp/mok" "$tmp/nomok"
for k in key mok; do
	openssl req -new -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -batch \
		-subj "/CN=smartwake install-test $k" -keyout "$tmp/$k/k.pem" \
		-outform DER -out "$tmp/$k/c.der" >/dev/null 2>&1 ||
		sw_die "openssl could not make a test key"
done
mv "$tmp/mok/k.pem" "$tmp/mok/mok.key"
mv "$tmp/mok/c.der" "$tmp/mok/mok.pub"
signed_by() {
	local serial cn want
	serial=$(openssl x509 -inform DER -in "$2" -noout -serial | sed 's/^serial=//')
	cn=$(openssl x509 -inform DER -in "$2" -noout -subject | sed 's/.*CN *= *//')
	want="signed $cn $(sed 's/../&:/g; s/:$//' <<<"$serial")"
	[ "$(scripts/sign-module.sh --check "$1")" = "$want" ]
}
sigof() { scripts/sign-module.sh --check "$1" 2>&1; }
export SMARTWAKE_MOK_DIR=$tmp/nomok

check "make install (headers only) into a staging directory" \
	make -s -C "$SW_TOP" install KVER="$SW_KREL" KDIR="$SW_KDIR" DESTDIR="$stage"
check "without a key the installed module is unsigned ($(sigof "$mod"))" \
	test "$(sigof "$mod")" = unsigned
check "make install SIGN_KEY= SIGN_CERT= (a test key, DER certificate)" \
	make -s -C "$SW_TOP" install KVER="$SW_KREL" KDIR="$SW_KDIR" DESTDIR="$tmp/s1" \
	SIGN_KEY="$tmp/key/k.pem" SIGN_CERT="$tmp/key/c.der"
m1=$tmp/s1/lib/modules/$SW_KREL/updates/smartwake.ko
check "it carries one signature, by that key ($(sigof "$m1"))" signed_by "$m1" "$tmp/key/c.der"
sh=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$SW_KDIR/.config")
check "hashed with the kernel's CONFIG_MODULE_SIG_HASH ($sh)" \
	test "$(modinfo -F sig_hashalgo "$m1")" = "$sh"
check "the build tree's module stays unsigned" \
	test "$(sigof "$SW_TOP/build/$SW_KREL-headers-only/module/smartwake.ko")" = unsigned
check "make install with DKMS's mok.key/mok.pub present: signed by it" eval \
	'SMARTWAKE_MOK_DIR=$tmp/mok make -s -C "$SW_TOP" install KVER="$SW_KREL" \
		KDIR="$SW_KDIR" DESTDIR="$tmp/s2" &&
	 signed_by "$tmp/s2/lib/modules/$SW_KREL/updates/smartwake.ko" "$tmp/mok/mok.pub"'
check "SIGN_KEY=none with mok.key present: unsigned" eval \
	'SMARTWAKE_MOK_DIR=$tmp/mok make -s -C "$SW_TOP" install KVER="$SW_KREL" \
		KDIR="$SW_KDIR" DESTDIR="$tmp/s3" SIGN_KEY=none &&
	 [ "$(sigof "$tmp/s3/lib/modules/$SW_KREL/updates/smartwake.ko")" = unsigned ]'
out=$(make -s -C "$SW_TOP" install KVER="$SW_KREL" KDIR="$SW_KDIR" DESTDIR="$tmp/s4" \
	SIGN_KEY="$tmp/key/k.pem" 2>&1) && rc=0 || rc=$?
check "SIGN_KEY without SIGN_CERT is refused, with a message" eval \
	'[ "$rc" -ne 0 ] && grep -q "needs --sign-cert (SIGN_CERT)" <<<"$out"'
check "a signed module is not signed twice" eval \
	'! scripts/sign-module.sh --kdir "$SW_KDIR" --key "$tmp/key/k.pem" \
		--cert "$tmp/key/c.der" "$m1" 2>/dev/null && signed_by "$m1" "$tmp/key/c.der"'
# The Secure Boot hint: a fake EFI SecureBoot variable (attributes, value).
mkdir -p "$tmp/efi-on" "$tmp/efi-off"
printf '\006\000\000\000\001' >"$tmp/efi-on/SecureBoot-8be4df61-93ca-11d2-aa0d-e0a4c5c5f6d8"
printf '\006\000\000\000\000' >"$tmp/efi-off/SecureBoot-8be4df61-93ca-11d2-aa0d-e0a4c5c5f6d8"
hint() { sh scripts/sb-hint.sh --no-mokutil --module "$1" --efivars "$2" 2>&1; }
check "sb-hint: Secure Boot on, unsigned module: a hint naming mokutil --import" eval \
	'cp "$tmp/s3/lib/modules/$SW_KREL/updates/smartwake.ko" "$tmp/u.ko";
	 grep -q "is unsigned" <<<"$(hint "$tmp/u.ko" "$tmp/efi-on")" &&
	 grep -q "mokutil --import /var/lib/dkms/mok.pub" <<<"$(hint "$tmp/u.ko" "$tmp/efi-on")"'
check "sb-hint: Secure Boot on, signed module: silent" test -z "$(hint "$m1" "$tmp/efi-on")"
check "sb-hint: Secure Boot off (or no EFI): silent" eval \
	'[ -z "$(hint "$tmp/u.ko" "$tmp/efi-off")" ] && [ -z "$(hint "$tmp/u.ko" "$tmp/none")" ]'
check "module installed under updates/" test -f "$mod"
pmod=$stage/lib/modules/$SW_KREL/updates/smartwake_pull.ko
check "the sched-idle pull's companion installed beside it, livepatch relocations made" eval \
	'[ "$(modinfo -F livepatch "$pmod")" = Y ] && scripts/klp-relocs.py "$pmod" --check'
check "the signed install signs the companion too, once, by that key" \
	signed_by "$tmp/s1/lib/modules/$SW_KREL/updates/smartwake_pull.ko" "$tmp/key/c.der"
check "CLI installed" test -x "$stage/usr/local/sbin/smartwake"
check "man page installed" test -f "$stage/usr/local/share/man/man8/smartwake.8"
vm=$(modinfo -F vermagic "$mod" 2>/dev/null || true)
check "module is for $SW_KREL ($vm)" test "${vm%% *}" = "$SW_KREL"
check "module is the shipped build (no test_ parameter)" \
	eval '! grep -q "^test_" <<<"$(modinfo -p "$mod")"'
# (outputs into variables: grep -q on a pipe can end the writer early,
# which pipefail counts as a failure: man's output is over 4 KiB)
check "man page renders (man -l)" eval 'grep -q "smartwake set" <<<"$(man -l "$stage/usr/local/share/man/man8/smartwake.8" 2>/dev/null)"'
check "make uninstall removes them" eval \
	'make -s -C "$SW_TOP" uninstall KVER="$SW_KREL" DESTDIR="$stage" &&
	 [ ! -e "$mod" ] && [ ! -e "$pmod" ] && [ ! -e "$stage/usr/local/sbin/smartwake" ] &&
	 [ ! -e "$stage/usr/local/share/man/man8/smartwake.8" ]'
out=$(make -s -C "$SW_TOP" install KVER=0.0.0-none KDIR="$tmp/none" DESTDIR="$stage" 2>&1) &&
	rc=0 || rc=$?
check "a kernel without headers is refused, with a message" eval \
	'[ "$rc" -ne 0 ] && grep -q "no kernel headers for 0.0.0-none" <<<"$out"'
# the rt flavour by release: refused before anything is fetched
out=$(make -s -C "$SW_TOP" module KERNEL=6.12.117+deb13-rt-amd64 2>&1) && rc=0 || rc=$?
check "make KERNEL=6.12.117+deb13-rt-amd64 is refused, naming the generic flavour to use" eval \
	'[ "$rc" -ne 0 ] && grep -q "is PREEMPT_RT (the rt flavour), which smartwake does not support.*use the generic flavour of the same version, 6.12.117+deb13-amd64" <<<"$out" &&
		[ ! -e "$SW_TOP/build/6.12.117+deb13-rt-amd64" ]'

# DKMS, for every supported kernel of the cloud flavour and one of each
# other flavour (scripts/common.sh's table), each against only its
# headers package: the BTF from the headers' vmlinux,
# for Debian 12's 6.1 (no vmlinux) from its image (SMARTWAKE_BTF: the
# cached vmlinuz, as /boot/vmlinuz-RELEASE would be on a test machine).
# Debian 13's and 7.2's kbuild programs need a newer glibc than this
# Debian 12 host's: without help the build stops with a message, with
# SMARTWAKE_HOST_KBUILD (the programs rebuilt from the kernel's source,
# sw_kbuild_host_args) it succeeds. On the kernel's own distribution
# neither variable is needed.
if command -v dkms >/dev/null; then
	ver=$(cat "$SW_TOP/VERSION")
	src=$tmp/src/smartwake-$ver
	mkdir -p "$src" "$tmp/dkms"
	git -C "$SW_TOP" archive HEAD | tar -x -C "$src"
	d=(dkms --sourcetree "$tmp/src" --dkmstree "$tmp/dkms")
	check "dkms add (private trees)" "${d[@]}" add -m smartwake -v "$ver"
	flavours_seen=
	for k in $(sw_kernels); do
		# one release of each other flavour: a second flavour of a
		# release differs from its cloud twin only in its headers'
		# configuration (the step flavours), which this build reads alike
		f=$(sw_flavour_of "$k")
		if [ "$f" != "$SW_DEFAULT_FLAVOUR" ]; then
			[[ " $flavours_seen " != *" $f "* ]] || continue
			flavours_seen+=" $f"
		fi
		SW_KERNEL=$k
		[ "$k" != "$SW_DEFAULT_KREL" ] || SW_KERNEL=
		sw_stock_env
		db=("${d[@]}" build -m smartwake -v "$ver" -k "$k" --kernelsourcedir "$SW_KDIR")
		how=() what="headers only"
		if [ ! -f "$SW_KDIR/vmlinux" ]; then
			how+=("SMARTWAKE_BTF=$SW_VMLINUZ")
			what+=", BTF from the image"
		fi
		if ! sw_kbuild_runs "$SW_KDIR"; then
			# builds host-kbuild/ once (from the kernel source in the cache)
			sw_kbuild_host_args "$(sw_kcc_args 2>/dev/null)" >/dev/null
			out=$(env "${how[@]}" "${db[@]}" 2>&1) && rc=0 || rc=$?
			check "dkms build for $k without runnable kbuild programs: refused, with a message" eval \
				'[ "$rc" -ne 0 ] && grep -qs "need a newer glibc than this host" \
					"$tmp/dkms/smartwake/$ver/build/make.log"'
			how+=("SMARTWAKE_HOST_KBUILD=$SW_KCACHE/host-kbuild")
			what+=", kbuild programs from host-kbuild/"
		fi
		check "dkms build for $k ($what)" env "${how[@]}" "${db[@]}"
		ko=$(find "$tmp/dkms/smartwake/$ver/$k" -name smartwake.ko 2>/dev/null | head -n1) || true
		vm=$(modinfo -F vermagic "$ko" 2>/dev/null || true)
		check "dkms built a module for $k" test "${vm%% *}" = "$k"
		# the companion: livepatch-format where its calls can be made
		# (6.x), the stub elsewhere (7.x); DKMS fails without it
		pko=$(find "$tmp/dkms/smartwake/$ver/$k" -name smartwake_pull.ko 2>/dev/null | head -n1) || true
		case $k in
		6.*) check "dkms built smartwake_pull.ko for $k, livepatch relocations made" eval \
			'[ "$(modinfo -F livepatch "$pko")" = Y ] && scripts/klp-relocs.py "$pko" --check' ;;
		*) check "dkms built smartwake_pull.ko for $k, the stub (not livepatch-format)" eval \
			'[ -n "$pko" ] && [ -z "$(modinfo -F livepatch "$pko")" ]' ;;
		esac
	done
	# PREEMPT_RT headers (Debian's rt flavour sets CONFIG_PREEMPT_RT=y in
	# them; here on the command line over the default kernel's): Kbuild
	# refuses, saying why and what to use, before compiling anything
	SW_KERNEL= sw_stock_env
	out=$(make -C "$SW_KDIR" M="$src" KSRC="$SW_KSRC" CONFIG_PREEMPT_RT=y modules 2>&1) && rc=0 || rc=$?
	check "a PREEMPT_RT kernel's headers: the build is refused, naming the generic flavour" eval \
		'[ "$rc" -ne 0 ] && grep -q "smartwake does not support PREEMPT_RT kernels.*generic flavour" <<<"$out" &&
			[ -z "$(find "$src/module" -name "*.o" -print -quit)" ]'
	# DKMS signs by itself (dkms.conf does not): with framework.conf.d
	# naming the test MOK key and the headers' sign-file (a private mount
	# namespace: the host's /etc/dkms stays as it is), the default kernel's
	# module carries exactly one signature, by that key.
	SW_KERNEL= sw_stock_env
	if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && [ -d /etc/dkms/framework.conf.d ]; then
		mkdir -p "$tmp/fw" "$tmp/sdkms"
		printf 'sign_file=%s\nmok_signing_key=%s\nmok_certificate=%s\n' \
			"$SW_KDIR/scripts/sign-file" "$tmp/mok/mok.key" "$tmp/mok/mok.pub" >"$tmp/fw/test.conf"
		ds=(dkms --sourcetree "$tmp/src" --dkmstree "$tmp/sdkms")
		# shellcheck disable=SC2016 # expanded by the inner bash
		out=$(unshare --mount --propagation private bash -c \
			'fw=$1 v=$2 k=$3 kd=$4; shift 4
			 mount --bind "$fw" /etc/dkms/framework.conf.d &&
			 "$@" add -m smartwake -v "$v" &&
			 "$@" build -m smartwake -v "$v" -k "$k" --kernelsourcedir "$kd"' \
			sh "$tmp/fw" "$ver" "$SW_KREL" "$SW_KDIR" "${ds[@]}" 2>&1) && rc=0 || rc=$?
		[ "$rc" -eq 0 ] || tail -n 20 <<<"$out"
		ko=$(find "$tmp/sdkms/smartwake/$ver/$SW_KREL" -name smartwake.ko 2>/dev/null | head -n1) || true
		check "dkms build with a MOK key configured (rc $rc)" test "$rc" -eq 0 -a -n "$ko"
		check "DKMS signed it once, with that key ($(sigof "${ko:-none}"))" signed_by "${ko:-none}" "$tmp/mok/mok.pub"
	else
		echo "DKMS signing not tested: needs root and unshare (a private /etc/dkms/framework.conf.d)"
	fi
else
	not_ok "dkms not installed (make deps installs it)"
fi

# The Debian packages (scripts/build-deb.sh: dpkg-buildpackage, dh-dkms):
# their contents, and DKMS builds the module for the default kernel from
# the smartwake-dkms package's /usr/src tree (unpacked, not installed).
if command -v dpkg-buildpackage >/dev/null && command -v dh_dkms >/dev/null &&
	command -v dkms >/dev/null; then
	SW_KERNEL= sw_stock_env
	check "dpkg-buildpackage: smartwake-dkms and smartwake (scripts/build-deb.sh)" \
		scripts/build-deb.sh
	ddeb=$SW_TOP/build/deb/smartwake-dkms_${ver}_all.deb
	cdeb=$(ls "$SW_TOP"/build/deb/smartwake_"$ver"_*.deb 2>/dev/null | head -n1) || true
	# (listings into variables: grep -q on a pipe would end dpkg-deb early,
	# which pipefail counts as a failure)
	dl=$(dpkg-deb -c "$ddeb" 2>&1) || true
	cl=$(dpkg-deb -c "$cdeb" 2>&1) || true
	post=$(dpkg-deb --ctrl-tarfile "$ddeb" | tar -xO ./postinst 2>&1) || true
	check "smartwake-dkms has /usr/src/smartwake-$ver/dkms.conf and the build scripts" eval \
		'grep -q "usr/src/smartwake-$ver/dkms.conf$" <<<"$dl" &&
		 grep -q "usr/src/smartwake-$ver/scripts/build-modules.sh$" <<<"$dl"'
	check "smartwake-dkms's postinst runs DKMS (dh_dkms)" grep -q "DKMS_NAME=smartwake" <<<"$post"
	# (debhelper replaces its token also inside a comment: a postinst that
	# sh refuses fails every apt install)
	check "smartwake-dkms's postinst is valid sh (sh -n)" sh -n <<<"$post"
	check "smartwake-dkms's postinst prints the Secure Boot hint (sb-hint)" eval \
		'grep -q "/usr/share/smartwake-dkms/sb-hint" <<<"$post" &&
		 grep -q "usr/share/smartwake-dkms/sb-hint$" <<<"$dl"'
	check "smartwake has the CLI and smartwake(8)" eval \
		'grep -q "usr/sbin/smartwake$" <<<"$cl" &&
		 grep -q "usr/share/man/man8/smartwake.8.gz$" <<<"$cl"'
	check "smartwake has smartwake-replay, its workloads and its report" eval \
		'grep -q "usr/sbin/smartwake-replay$" <<<"$cl" &&
		 grep -q "usr/lib/smartwake/wakeload$" <<<"$cl" &&
		 grep -q "usr/lib/smartwake/udpstream$" <<<"$cl" &&
		 grep -q "usr/share/smartwake/replay-report.py$" <<<"$cl"'
	mkdir -p "$tmp/deb" "$tmp/debdkms"
	dpkg-deb -x "$ddeb" "$tmp/deb"
	dd=(dkms --sourcetree "$tmp/deb/usr/src" --dkmstree "$tmp/debdkms")
	# without HOME, as dpkg's postinst and dkms.service at boot run it
	check "dkms build from the package's sources for $SW_KREL (no HOME)" eval \
		'"${dd[@]}" add -m smartwake -v "$ver" >/dev/null &&
		 env -u HOME "${dd[@]}" build -m smartwake -v "$ver" -k "$SW_KREL" --kernelsourcedir "$SW_KDIR"'
	ko=$(find "$tmp/debdkms/smartwake/$ver/$SW_KREL" -name smartwake.ko 2>/dev/null | head -n1) || true
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null || true)
	check "the package's DKMS build is for $SW_KREL" test "${vm%% *}" = "$SW_KREL"
else
	echo "Debian packages not tested: dpkg-buildpackage, dh_dkms or dkms missing (make deps)"
fi
summary
