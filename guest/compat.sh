# Load-time compatibility checks (module/layout.c): the release and, on a
# kernel with BTF, the layout of the scheduler fields the module reads.
# Refusals are simulated with the test-only parameters test_layout_skew
# (field N of the table expected 8 bytes further) and test_release.
# Runs on the stock kernel (BTF) and on the debug kernel (no BTF: skipped).
# Where the module registers its struct_ops, a BPF program that hands the
# callback's task to a kfunc must verify (the build's BTF types agree).
. ./lib.sh
need_testing_build
BTF=/sys/kernel/btf/vmlinux
REL=$(uname -r)
# in_log TEXT: the kernel log has a line containing TEXT
in_log() { dmesg | grep -qF "$1"; }
# not_loaded: refused cleanly, nothing left behind
not_loaded() {
	! grep -q '^smartwake ' /proc/modules &&
		! grep -q smartwake /sys/kernel/tracing/enabled_functions &&
		[ ! -e $SW_DBG ]
}

check "insmod" sw_insmod
check "loaded, nothing hooked at the default knobs" nothing_hooked
if [ -e $BTF ]; then
	check "layout check ran and matched" eval \
		"dmesg | grep -qE 'smartwake: layout of [0-9]+ fields matches the running kernel.s BTF'"
else
	check "layout check skipped without BTF" \
		in_log "smartwake: no $BTF (kernel without BTF): layout check skipped"
fi
check "rmmod" rmmod smartwake

# skewed_by_8 FIELD: the last layout refusal of FIELD has the build's
# offset 8 bytes after the running kernel's
skewed_by_8() {
	dmesg | sed -n "s/.*smartwake: layout: $1 at byte \([0-9]*\) in this build, at byte \([0-9]*\) in the running kernel.*/\1 \2/p" |
		tail -n 1 | awk '{ ok = NF == 2 && $1 == $2 + 8 } END { exit !ok }'
}

if [ -e $BTF ]; then
	# field 1: rq.nr_running; field 4: rq.curr, inside an anonymous union
	check "skewed rq.nr_running refused" eval '! sw_insmod_test test_layout_skew=1'
	# the build's offset is the kernel's (4 on 6.x, 0 on 7.x) skewed by 8
	check "refusal names rq.nr_running, 8 bytes off" skewed_by_8 rq.nr_running
	check "refused: nothing hooked, no debugfs" not_loaded
	check "skewed rq.curr refused" eval '! sw_insmod_test test_layout_skew=4'
	check "refusal names rq.curr" eval \
		"dmesg | grep -qE 'smartwake: layout: rq.curr at byte [0-9]+ in this build, at byte [0-9]+ in the running kernel'"
	check "refusal sums it up" \
		in_log "differs from the running kernel's BTF: refusing to load"
	check "refused: nothing hooked, no debugfs" not_loaded
else
	check "no layout check without BTF: skew ignored" sw_insmod_test test_layout_skew=1
	check "rmmod" rmmod smartwake
fi

check "other release refused" eval '! sw_insmod_test test_release=6.1.0-bogus'
check "refusal names both releases" \
	in_log "smartwake: built for kernel $REL, running 6.1.0-bogus: refusing to load"
check "refused: nothing hooked, no debugfs" not_loaded

# A real build for another kernel (guest-run.sh --foreign-ko, e.g. the
# Debian 12 build on the Debian 13 kernel): refused, by the kernel's symbol
# versions (modversions) or by the module's own release check, and said so.
FOREIGN=/lib/smartwake/foreign/smartwake.ko
if [ -f $FOREIGN ]; then
	FREL=$(grep -ao 'vermagic=[^ ]*' $FOREIGN | head -n 1)
	FREL=${FREL#vermagic=}
	echo "  foreign build: $FREL, running: $REL"
	check "foreign build is for another release" eval '[ -n "$FREL" ] && [ "$FREL" != "$REL" ]'
	check "foreign build refused" eval "! insmod $FOREIGN"
	dmesg | grep -E 'smartwake: (disagrees|built for|version magic)' | sed 's/^/  /'
	# (7.x is built without modversions: vermagic refuses it first)
	FRE=$(echo "$FREL" | sed 's/[.+]/\\&/g')
	check "refusal explained in the kernel log" eval \
		"dmesg | grep -qE 'smartwake: (disagrees about version of symbol|built for kernel $FRE, running|version magic .$FRE )'"
	check "refused: nothing hooked, no debugfs" not_loaded
fi

check "insmod again after the refusals" sw_insmod
# The build's BTF as the verifier reads it: a program of the example
# idle_sibling.bpf.o passes the callback's task (struct_ops, bpf.c) to a
# kfunc (bpf_kfuncs.c). A headers-only build (DKMS's) once gave the two a
# different struct task_struct in BTF, and the verifier refused it.
if grep -q '^struct_ops smartwake_ops registered' $SW_DBG/bpf; then
	out=$(smartwake bpf load /lib/smartwake/bpf/idle_sibling.bpf.o 2>&1)
	rc=$?
	echo "$out" | tail -n 3 | sed 's/^/  /'
	check "BTF: idle_sibling.bpf.o (a task from the callback to a kfunc) verified and attached" \
		eval '[ $rc -eq 0 ] && grep -q "^struct_ops smartwake_ops registered attached" $SW_DBG/bpf'
	check "... and detached" eval 'smartwake bpf unload >/dev/null 2>&1'
fi
check "rmmod" rmmod smartwake
check "kernel log clean" dmesg_clean
summary
