# Guest-side test helpers (busybox sh). Sourced by the guest scripts.
# Every check is a KTAP result (guest/ktap.sh, the reporter the host tests
# share); summary prints the totals and the "N passed, N failed" line.
. ./ktap.sh
SW_DBG=/sys/kernel/debug/smartwake
# the kernel guest-run.sh booted: stock (the default), debug, or a release
SW_KLABEL=$(cat ./kernel 2>/dev/null || echo unknown)
# measured_here: the configuration a check that needs many events was
# measured on, the default stock kernel with 4 CPUs (it runs once, in the
# smp4 step; the module code it tests is the same on every kernel)
measured_here() { [ "$SW_KLABEL" = stock ] && [ "$(nproc)" -eq 4 ]; }
ktap_begin

# Guest uptime in seconds, without forking (TCG makes forks costly).
uptime_s() { read -r _up _ </proc/uptime; echo "${_up%.*}"; }
ok() { read -r _up _ </proc/uptime; ktap_ok "$* [${_up%.*}s]"; }
not_ok() { read -r _up _ </proc/uptime; ktap_not_ok "$* [${_up%.*}s]"; }
# skip DESCRIPTION: a check that could not run here, counted and printed
# (never a pass)
skip() { ktap_skip "$@"; }
# check DESCRIPTION COMMAND...: passes when COMMAND succeeds
check() {
	_d=$1
	shift
	if "$@"; then ok "$_d"; else not_ok "$_d"; fi
}
# stat NAME: a counter's value from the stats file
stat() { awk -v n="$1" '$1 == n { print $2; f = 1 } END { if (!f) print "missing" }' $SW_DBG/stats; }
# snap: one snapshot of the stats file; sv NAME: a counter's value in it
# (counters read one by one a fork apart differ: the shell's own wakeups
# count)
snap() { SW_SNAP=$(cat $SW_DBG/stats); }
sv() { echo "$SW_SNAP" | awk -v n="$1" '$1 == n { print $2; f = 1 } END { if (!f) print "missing" }'; }
# knob NAME: a knob's current value
knob() { cat "$SW_DBG/$1"; }
# set_knob NAME VALUE: write, return the write's status
set_knob() { printf '%s\n' "$2" >"$SW_DBG/$1" 2>/dev/null; }
# bad_write NAME BYTES: true when the write is refused and the value unchanged
# (without a fork: the fuzzing makes thousands, which cost most of
# reliability.sh's time on the debug kernel)
bad_write() {
	kread "$1"
	_before=$SW_KV
	if printf "$2" >"$SW_DBG/$1" 2>/dev/null; then
		echo "  accepted bad write '$2' to $1"
		return 1
	fi
	kread "$1"
	[ "$SW_KV" = "$_before" ]
}
# kread NAME: a knob's whole file into SW_KV, with shell builtins only
kread() {
	SW_KV=
	while IFS= read -r _l || [ -n "$_l" ]; do
		SW_KV="$SW_KV$_l
"
	done <"$SW_DBG/$1"
}
gt() { [ "$1" -gt "$2" ] 2>/dev/null; }
# calc EXPR: awk arithmetic, 4 decimals; less A B: A < B as numbers
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
eq() { [ "$1" = "$2" ]; }
# dmesg_clean: no warning, bug, oops or call trace in the kernel log
# (guest/dmesg.sh: a soft lockup with no smartwake frame is an emulation
# stall, printed and not failed; dmesg_clean hotplug: see dmesg_verdict)
. ./dmesg.sh
dmesg_clean() { dmesg | dmesg_verdict "$@"; }
# hooked FUNC: an ftrace hook on FUNC is live
hooked() { grep -q "^$1" /sys/kernel/tracing/enabled_functions; }
# nothing_hooked: no ftrace callback of smartwake, no kretprobe of it, and
# its hooks file says every hook and observer is off (default knobs)
nothing_hooked() {
	! grep -q '\[smartwake\]' /sys/kernel/tracing/enabled_functions &&
		! grep -q 'ttwu_queue_wakelist' /sys/kernel/debug/kprobes/list &&
		{ [ ! -e $SW_DBG/hooks ] || ! grep -q ' on ' $SW_DBG/hooks; }
}
# kmemleak_mark / kmemleak_new: on the debug kernel, forget the objects
# known so far, then count unreferenced objects that appeared since.
KML=/sys/kernel/debug/kmemleak
kmemleak_mark() { [ -w $KML ] && echo clear >$KML; }
kmemleak_new() {
	[ -w $KML ] || { echo 0; return; }
	echo scan >$KML
	echo scan >$KML
	grep -c 'unreferenced object' $KML
}
# sw_insmod: the module users load (plain make); sw_insmod_test: the
# testing build (make testing), the only one with test_ parameters.
SW_TKO=/lib/smartwake/testing
sw_insmod() { insmod /lib/smartwake/smartwake.ko "$@"; }
# need_testing_build: a counted check, so a missing build fails the run
# instead of making "! sw_insmod_test ..." checks pass.
need_testing_build() { check "testing build present in the guest" [ -f $SW_TKO/smartwake.ko ]; }
sw_insmod_test() {
	[ -f $SW_TKO/smartwake.ko ] || { echo "  no testing build in the guest" >&2; return 2; }
	insmod $SW_TKO/smartwake.ko "$@"
}
summary() { ktap_end; }
# kconfig NAME: the value of CONFIG_NAME in the booted kernel's
# configuration (guest-run.sh stages the headers' .config of a stock
# kernel as kernel.config); empty when unset
kconfig() { sed -n "s/^CONFIG_$1=//p" ./kernel.config 2>/dev/null; }
# tramp_pad: TRAMP_BYTES, the first four bytes of a BPF struct_ops
# trampoline as the module's bpf file prints them, and TRAMP_WHAT, what
# they are. x86-64: ENDBR64 (an IBT kernel). arm64, by the JIT's
# prepare_trampoline(): "bti jc" on an ARM64_BTI_KERNEL kernel, else its
# frame push first (Debian's arm64 kernels: built by gcc, and
# ARM64_BTI_KERNEL depends on !CC_IS_GCC)
tramp_pad() {
	if [ "$(uname -m)" != aarch64 ]; then
		TRAMP_BYTES="f3 0f 1e fa" TRAMP_WHAT=ENDBR64
	elif [ ! -s ./kernel.config ]; then
		TRAMP_BYTES="no kernel.config" TRAMP_WHAT="(no kernel.config in the guest)"
	elif [ "$(kconfig ARM64_BTI_KERNEL)" = y ]; then
		TRAMP_BYTES="df 24 03 d5" TRAMP_WHAT="bti jc (ARM64_BTI_KERNEL)"
	else
		TRAMP_BYTES="fd 7b bf a9" TRAMP_WHAT="stp x29, x30, [sp, #-16]! (no ARM64_BTI_KERNEL: no landing pad)"
	fi
}
