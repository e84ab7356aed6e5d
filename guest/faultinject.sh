# Fault injection (issue 59, item 2), on the debug kernel's kcsan variant
# (FAULT_INJECTION, FAILSLAB, FAIL_PAGE_ALLOC, the stack-trace filter).
# Every allocation the module's load makes, and every allocation of each
# knob write that installs or removes a hook, is failed in turn: the
# task's /proc/<pid>/fail-nth set to N fails its Nth failslab or
# fail_page_alloc check, and both are filtered to allocations with a
# module frame on the stack (require-start/-end: the module area), so N
# counts the module's allocations and those the kernel makes for it
# (ftrace hashes, tracepoint probe arrays, kretprobe instances, debugfs
# dentries and inodes), not exec's or the shell's. N goes up until an
# operation ends without reaching its Nth: all of them were failed once.
# After each injected failure: the write or load failed with an error,
# or succeeded in full; the hooks file, ftrace's enabled_functions and
# the kprobes list agree on what is installed; a half-installed
# tracepoint probe would make the next, uninjected write of the same
# value fail (tracepoint_probe_register() refuses a probe twice), so it
# is written again and must work; the module unloads; the kernel log has
# no warning. kmemleak is scanned after each operation's series.
# Prints "FI-FIG point=... injected=N ok=K failed=F" lines for the table.
# fail_function: the functions the module calls to install something are
# looked up in its injectable list (ALLOW_ERROR_INJECTION); one found
# there fails the run (inject it here); 6.12 lists none of them, so their
# allocation failures above are what covers them (FI-FF lines).
# Usage: faultinject.sh [MAX_N [ROW,...]]
#   ROW: only these rows (a one-off run, e.g. a mutant's): load, load-params,
#   a knob value as written below (policy=smartwake), or (with struct_ops:
#   the faultbpf kernel) policy=bpf, bpf-load, bpf-unload; default: all
. ./lib.sh
max=${1:-400}
only=${2:-}
# want ROW: the row is run (no ROW list given, or ROW in it)
want() { [ -z "$only" ] || case ,$only, in *,"$1",*) true ;; *) false ;; esac; }
FS=/sys/kernel/debug/failslab
FP=/sys/kernel/debug/fail_page_alloc
KO=/lib/smartwake/smartwake.ko
check "failslab and fail_page_alloc present" eval '[ -d $FS ] && [ -d $FP ] && [ -w /proc/self/fail-nth ]'
# x86-64 without KASLR (the debug kernels: RELOCATABLE off): modules live
# in [MODULES_VADDR, MODULES_END) = [0xffffffffa0000000, 0xffffffffff000000)
etext=$(awk '$3 == "_etext" { print $1 }' /proc/kallsyms)
check "kernel text below the module area (no KASLR): _etext $etext" \
	eval 'awk -v e="$etext" "BEGIN { exit !(e < \"ffffffffa0000000\") }"'
for a in $FS $FP; do
	echo 0 >$a/probability		# only fail-nth fails anything
	echo N >$a/task-filter
	echo 1 >$a/verbose		# one line per injected failure
	echo -1 >$a/times
	echo N >$a/ignore-gfp-wait	# GFP_KERNEL too
	echo 32 >$a/stacktrace-depth
	echo 0xffffffffa0000000 >$a/require-start
	echo 0xffffffffff000000 >$a/require-end
done
echo 0 >$FP/min-order
echo N >$FP/ignore-gfp-highmem

# fi_range START END: the stack filter's range, both injectors
fi_range() { for _a in $FS $FP; do echo "$1" >$_a/require-start; echo "$2" >$_a/require-end; done; }
# sym_range NAME: the text of kernel function NAME, "START END" (END: the
# next text symbol's address), empty if the kernel has no such symbol
sym_range() {
	_s=$(awk -v f="$1" '$3 == f && $2 ~ /^[tT]$/ { print $1; exit }' /proc/kallsyms)
	[ -n "$_s" ] || return 0
	_e=$(awk -v a="$_s" '$2 ~ /^[tT]$/ && $1 > a { print $1 }' /proc/kallsyms | sort | head -n 1)
	echo "0x$_s 0x$_e"
}
# fi_reject START END: the stack filter's reject range, both injectors
fi_reject() { for _a in $FS $FP; do echo "$1" >$_a/reject-start; echo "$2" >$_a/reject-end; done; }
# On a kernel with BTF the module reads /sys/kernel/btf/vmlinux at load
# (layout.c): kernfs allocates a buffer for each page-sized chunk read
# (2.6 MB of BTF on the faultbpf kernel: about 650 kmallocs), fault
# checks that all end in the same refusal ("cannot read
# /sys/kernel/btf/vmlinux (-12): refusing to load"; the first run of
# faultinject-bpf failed 221 of them in a row, each refused clean, before
# it was stopped). They are left out (a reject range over the kernfs read)
# so the load's series reaches its other allocations (the struct_ops
# registration); the vmalloc of the buffer and the open stay injected.
FI_REJECT=
if [ -r /sys/kernel/btf/vmlinux ]; then
	FI_REJECT=$(sym_range kernfs_fop_read_iter)
	check "the kernfs read's text for the reject range ($FI_REJECT)" eval '[ -n "$FI_REJECT" ]'
	fi_reject $FI_REJECT
fi

# What the module calls to install things (module/hooks.c, knob
# owners, debugfs.c, path/bpf.c; register_trace_*() is
# tracepoint_probe_register()): absent ones are not in this kernel.
FF=/sys/kernel/debug/fail_function
check "fail_function present" eval '[ -r $FF/injectable ]'
ffn=0
for f in register_ftrace_function register_ftrace_direct ftrace_set_filter_ip \
	tracepoint_probe_register register_kprobe register_kretprobe \
	debugfs_create_dir debugfs_create_file __register_bpf_struct_ops \
	register_btf_kfunc_id_set; do
	if awk -v f="$f" '$1 == f { found = 1 } END { exit !found }' $FF/injectable 2>/dev/null; then
		st=injectable ffn=$((ffn + 1))
	elif awk -v f="$f" '$3 == f { found = 1 } END { exit !found }' /proc/kallsyms; then
		st=not-injectable
	else
		st=absent
	fi
	echo "FI-FF fn=$f $st"
done
echo "FI-FF injectable-list $(awk '$1 !~ /^__(x64|ia32|se|do)_sys_/ { printf "%s ", $1 }' $FF/injectable)"
check "no function the module installs things with is fail_function-injectable here ($ffn): none left uninjected" eq "$ffn" 0

# The one kernel reaction the module cannot prevent: a failed allocation
# in the removal of the kretprobe that observes kallsyms_lookup_name
# (symbols.c) makes the kernel's __disarm_kprobe_ftrace() WARN_ONCE and
# unregister_kretprobe() leave the kretprobe in its table, disarmed, its
# address cleared (listed as 0x0). The module says so; only then are that
# WARN and that list line the kernel's, not a failure.
KRP_LEFT='smartwake: the kretprobe on kallsyms_lookup_name could not be removed'
# the log is cleared before each injection (dmesg -c: hundreds of them
# would wrap the ring buffer) and read after it
# agree: the hooks file, enabled_functions and the kprobes list say the
# same: nothing of smartwake (module gone or at defaults)
agree_none() { nothing_hooked; }
# log_ok: no warning, bug or oops since the mark (the injected failures'
# own lines and the module's error messages are not that)
log_mark() { dmesg -c >/dev/null; }
# fi_log: the log without the kernel's own report of a page allocation
# that failed (warn_alloc(): "page allocation failure:" or "vmalloc
# error:", then a stack dump whose "Call Trace:" is no bug: fail_page_alloc
# made it fail), and, once the module has said it left the kretprobe to
# the kernel (symbols.c), without the kernel's WARN about that disarm
fi_log() {
	_krp=0
	dmesg | grep -q "$KRP_LEFT" && _krp=1
	dmesg | awk -v krp=$_krp '
	/(page allocation failure|vmalloc error): / { alloc = NR }
	/Call Trace:/ && alloc && NR - alloc <= 8 { next }
	krp && /-+\[ cut here \]-+/ { blk = 1; n = 0; buf = $0; next }
	blk {
		if (n++ == 0 && /Failed to disarm kprobe-ftrace at kallsyms_lookup_name/)
			skip = 1
		if (!skip)
			buf = buf "\n" $0
		if (/---\[ end trace/) {
			if (!skip)
				print buf
			blk = 0
			skip = 0
		}
		next
	}
	{ print }'
}
# A report being printed while the log is read is cut off, which the
# verdict fails (seen: a kernel-only KCSAN report at N=166 of a load):
# an unclean log is read again a second later before it counts.
log_ok() { fi_log | dmesg_verdict >/dev/null || { sleep 1; fi_log | dmesg_verdict; }; }
check "kernel log clean before the injections" dmesg_clean

# ---- load ---------------------------------------------------------------
# finitload (tools/finitload.c) makes one finit_module() call with its own
# fail-nth armed and says how it went: busybox insmod would retry a failed
# load with init_module(), which fail-nth no longer reaches.
# agree_loaded: a function with a hook the hooks file says is on (an
# ftrace hook or a kretprobe, which kprobes puts on ftrace too) is in
# enabled_functions, one with none on is not; a kretprobe on is in the
# kprobes list, one off is not
agree_loaded() {
	awk '$2 ~ /^(observe|redirect|direct|kretprobe)$/ { print $1, $2, $3 }' $SW_DBG/hooks >/tmp/fi-h || return 1
	while read -r _h _kind _st; do
		if [ "$_kind" = kretprobe ]; then
			grep -q " $_h+0x0" /sys/kernel/debug/kprobes/list && _in=on || _in=off
			_want=$_st
		else
			grep -q "^$_h " /sys/kernel/tracing/enabled_functions && _in=on || _in=off
			grep -q "^$_h [a-z]* on$" /tmp/fi-h && _want=on || _want=off
		fi
		[ "$_in" = "$_want" ] || { echo "  hooks says $_h $_kind $_st, the kernel's list $_in"; cat /tmp/fi-h; return 1; }
	done </tmp/fi-h
}
# the kprobes list before any load: a failed load must leave it so
kp0=$(cat /sys/kernel/debug/kprobes/list)
# kp_same: the kprobes list as before, or with only the kretprobe the
# kernel kept (after the module said so: then it is the new baseline)
kp_same() {
	_kp=$(cat /sys/kernel/debug/kprobes/list)
	[ "$_kp" = "$kp0" ] && return 0
	dmesg | grep -q "$KRP_LEFT" || return 1
	printf '%s\n' "$_kp" | grep -v -x -F -e "$kp0" | grep -q -v -E '^0+ +r +0x0 ' && return 1
	echo "  the kprobes list now has the kernel's disarmed kretprobe: $(printf '%s\n' "$_kp" | grep -E '^0+ +r +0x0 ' | head -n 1)"
	kp0=$_kp
	FI_KRP=$((FI_KRP + 1))
}
FI_KRP=0
# inject_load POINT [PARAM=VALUE...]: fail each allocation of a load in
# turn; FI_ERRS: "ERRNO-NAME|first smartwake line" of each refusal
inject_load() {
	_p=$1 _n=1 _inj=0 _ok=0 _ref=0 _bad=0 FI_ERRS= FI_LOADED=0
	shift
	while [ $_n -le "$max" ]; do
		log_mark
		_out=$(finitload -n $_n $KO "$@" 2>&1)
		_left=${_out##*fail-nth-left=}
		case $_left in *[!0-9]*|'') echo "  $_p N=$_n: finitload said '$_out'"; _bad=$((_bad + 1)); break ;; esac
		if [ "$_left" -ne 0 ]; then
			# fewer than N checks: the load made no Nth, and must have worked
			case $_out in *": loaded "*) FI_LOADED=1 ;; *) echo "  $_p N=$_n: uninjected load failed: $_out" ;; esac
			[ $FI_LOADED -eq 1 ] && { agree_loaded || _bad=$((_bad + 1)); }
			[ $FI_LOADED -eq 1 ] && for _kv; do
				[ "$(knob "${_kv%%=*}")" = "${_kv#*=}" ] ||
					{ echo "  $_p: uninjected load: ${_kv%%=*} reads $(knob "${_kv%%=*}")"; _bad=$((_bad + 1)); }
			done
			[ $FI_LOADED -eq 0 ] || rmmod smartwake || { echo "  $_p: rmmod after the uninjected load failed"; _bad=$((_bad + 1)); }
			break
		fi
		_inj=$((_inj + 1))
		case $_out in
		*": loaded "*)
			_ok=$((_ok + 1))
			# loaded despite the failure: complete, then it unloads
			[ -r $SW_DBG/hooks ] && agree_loaded || { echo "  $_p N=$_n: loaded, hooks and the kernel's lists disagree"; _bad=$((_bad + 1)); }
			for _kv; do
				[ "$(knob "${_kv%%=*}")" = "${_kv#*=}" ] ||
					{ echo "  $_p N=$_n: loaded, ${_kv%%=*} reads $(knob "${_kv%%=*}")"; _bad=$((_bad + 1)); }
			done
			rmmod smartwake || { echo "  $_p N=$_n: loaded, rmmod failed"; _bad=$((_bad + 1)); }
			;;
		*": errno="*)
			_ref=$((_ref + 1))
			_e=${_out#*errno=}
			_e=${_e#* }
			_e=${_e%% *}
			# the reason in the log: a smartwake line at err level
			_m=$(dmesg -r | sed -n 's/^<[0-3]>\[[ 0-9.]*\] smartwake: //p' | head -n 1)
			[ -n "$_m" ] || { echo "  $_p N=$_n: refused ($_e) with no smartwake error in the log"; _bad=$((_bad + 1)); }
			FI_ERRS="$FI_ERRS$_e|${_m:-(none)}
"
			grep -q '^smartwake ' /proc/modules && { echo "  $_p N=$_n: refused but listed in /proc/modules"; _bad=$((_bad + 1)); }
			[ ! -e /sys/module/smartwake ] || { echo "  $_p N=$_n: refused, /sys/module/smartwake left"; _bad=$((_bad + 1)); }
			[ ! -e $SW_DBG ] || { echo "  $_p N=$_n: refused, debugfs left"; _bad=$((_bad + 1)); }
			;;
		*)
			echo "  $_p N=$_n: finitload said '$_out'"
			_bad=$((_bad + 1))
			;;
		esac
		kp_same || { echo "  $_p N=$_n: the kprobes list changed"; cat /sys/kernel/debug/kprobes/list; _bad=$((_bad + 1)); }
		agree_none || { echo "  $_p N=$_n: something of smartwake left hooked"; _bad=$((_bad + 1)); }
		# a probe left by a refused load would run freed module code at
		# the next wakeup: the shell's forks make them, before this look
		log_ok || { echo "  $_p N=$_n: kernel log unclean:"; dmesg | tail -n 60; _bad=$((_bad + 1)); }
		_n=$((_n + 1))
	done
	FI_INJ=$_inj FI_OK=$_ok FI_REF=$_ref FI_BAD=$_bad FI_END=$_n
}
# load_series POINT [PARAM=VALUE...]: inject_load, kmemleak, FI- lines, checks
load_series() {
	kmemleak_mark
	FI_KRP=0
	inject_load "$@"
	leaks=$(kmemleak_new)
	[ "$leaks" -eq 0 ] || cat $KML
	echo "FI-FIG point=$1 injected=$FI_INJ loaded=$FI_OK refused=$FI_REF bad=$FI_BAD leaks=$leaks kernel_kept_kretprobe=$FI_KRP"
	printf '%s' "$FI_ERRS" | sort | uniq -c | while read -r _c _l; do
		echo "FI-ERR point=$1 count=$_c errno=${_l%%|*} log=${_l#*|}"
	done
	check "$1: $FI_INJ allocations failed in turn: each refused with an errno and a smartwake error in the log, nothing left (module, debugfs, hooks, kprobes), or loaded complete and unloaded ($FI_REF refused, $FI_OK loaded)" eq "$FI_BAD" 0
	check "$1: the series reached its end, an uninjected load that worked (N=$FI_END, cap $max)" eval '[ $FI_END -le $max ] && [ $FI_LOADED -eq 1 ]'
	check "$1: at least one failure refused the load (finit_module's errno seen)" gt "$FI_REF" 0
	check "$1: kmemleak finds nothing after the series ($leaks)" eq "$leaks" 0
}
check "finitload and failnth present" eval 'command -v finitload >/dev/null && command -v failnth >/dev/null'
want load && load_series insmod
# a load whose parameters install hooks: ftrace hooks, the kretprobe, the
# tracepoint probes and the ftrace pin at load (sw_knobs_ready), undone
# by the load's error path
want load-params &&
	load_series "insmod(policy=shadow,ttwu_count=1,latency=1)" policy=shadow ttwu_count=1 latency=1

# ---- knob writes that install or remove a hook ---------------------------
# (knob value pairs: the settings of the hooks' needs; sib_pull=1 with the
# companion loaded; policy=bpf needs an attached program: the BPF rows)
numa_on=$(sed -n 's/^numa_retry .*\[\([^]]*\)\].*/\1/p' $SW_DBG/knobs 2>/dev/null | tr '|' '\n' | grep -v '^off$' | head -n 1)
# inject_write KNOB VALUE DEFAULT: fail each allocation of one write in turn; the
# writing shell is a subshell that arms its own fail-nth
inject_write() {
	_k=$1 _v=$2 _old=$3 _n=1 _inj=0 _ok=0 _ref=0 _bad=0
	while [ $_n -le "$max" ]; do
		log_mark
		_r=$( (_rc=1
			echo $_n >/proc/self/fail-nth && echo "$_v" >"$SW_DBG/$_k" && _rc=0
			read -r _left </proc/self/fail-nth; echo "$_rc $_left") 2>/dev/null)
		set -- $_r
		_rc=${1:-1} _left=${2:-1}
		[ "$_left" -eq 0 ] || break	# the write made fewer than N
		_inj=$((_inj + 1))
		if [ "$_rc" -eq 0 ]; then
			_ok=$((_ok + 1))
			[ "$(knob "$_k")" = "$_v" ] || { echo "  $_k=$_v N=$_n: accepted, reads $(knob "$_k")"; _bad=$((_bad + 1)); }
		else
			_ref=$((_ref + 1))
			[ "$(knob "$_k")" = "$_old" ] || { echo "  $_k=$_v N=$_n: refused, but reads $(knob "$_k")"; _bad=$((_bad + 1)); }
			# nothing half-installed: the same write, uninjected, works
			set_knob "$_k" "$_v" || { echo "  $_k=$_v N=$_n: the uninjected write fails after the injected one"; _bad=$((_bad + 1)); }
		fi
		set_knob "$_k" "$_old" || { echo "  $_k=$_v N=$_n: cannot write $_old back"; _bad=$((_bad + 1)); }
		[ "$(knob "$_k")" = "$_old" ] && agree_none ||
			{ echo "  $_k=$_v N=$_n: after $_k=$_old something is still hooked"; cat $SW_DBG/hooks; _bad=$((_bad + 1)); }
		log_ok || { echo "  $_k=$_v N=$_n: kernel log unclean"; _bad=$((_bad + 1)); }
		_n=$((_n + 1))
	done
	FI_INJ=$_inj FI_OK=$_ok FI_REF=$_ref FI_BAD=$_bad FI_END=$_n
}
# inject_remove KNOB VALUE DEFAULT: the same for the write back to DEFAULT
# (the removal): set VALUE uninjected, fail the removal's Nth allocation
inject_remove() {
	_k=$1 _v=$2 _old=$3 _n=1 _inj=0 _ok=0 _ref=0 _bad=0 _w=0
	while [ $_n -le "$max" ]; do
		set_knob "$_k" "$_v" || { echo "  $_k=$_v: cannot set up"; _bad=$((_bad + 1)); break; }
		log_mark
		_r=$( (_rc=1
			echo $_n >/proc/self/fail-nth && echo "$_old" >"$SW_DBG/$_k" && _rc=0
			read -r _left </proc/self/fail-nth; echo "$_rc $_left") 2>/dev/null)
		set -- $_r
		_rc=${1:-1} _left=${2:-1}
		if [ "$_left" -ne 0 ]; then
			set_knob "$_k" "$_old"
			break
		fi
		_inj=$((_inj + 1))
		if [ "$_rc" -eq 0 ]; then
			_ok=$((_ok + 1))
		else
			_ref=$((_ref + 1))
			set_knob "$_k" "$_old" || { echo "  $_k=$_old N=$_n: the uninjected removal fails too"; _bad=$((_bad + 1)); }
		fi
		[ "$(knob "$_k")" = "$_old" ] && agree_none ||
			{ echo "  $_k=$_old N=$_n: something is still hooked"; cat $SW_DBG/hooks; _bad=$((_bad + 1)); }
		log_ok || { echo "  $_k=$_old N=$_n: kernel log unclean"; _bad=$((_bad + 1)); }
		# hooks.c's sw_hook_undo(): a failed filter removal is a pr_warn
		# (below the console's level: read in the log, all levels)
		if dmesg | grep -q 'smartwake: .*: its ftrace filter stays until unload (removal: -12)'; then
			_w=$((_w + 1))
			echo "  $_k=$_old N=$_n: $(dmesg | sed -n 's/^\[[ 0-9.]*\] //; /its ftrace filter stays/p' | head -n 1)"
		fi
		_n=$((_n + 1))
	done
	FI_INJ=$_inj FI_OK=$_ok FI_REF=$_ref FI_BAD=$_bad FI_END=$_n FI_WARN=$_w
}

check "insmod (uninjected)" sw_insmod
# sib_pull=1 needs the sched-idle pull's companion (built where the kernel
# has CONFIG_LIVEPATCH), loaded uninjected after the module
PULL=/lib/smartwake/smartwake_pull.ko
pull_on=
if want sib_pull=1 && [ -f $PULL ]; then
	check "the companion smartwake_pull.ko loads (for sib_pull=1)" insmod $PULL && pull_on=sib_pull=1
fi
for kv in policy=smartwake policy=shadow latency=1 ${numa_on:+numa_retry=$numa_on} sib_count=1 \
	sis_filter=1 ttwu_count=1 ttwu_queue=lock $pull_on; do
	want "$kv" || continue
	k=${kv%%=*} v=${kv#*=}
	d=$(knob "$k")
	if ! set_knob "$k" "$v"; then
		skip "$kv: refused without injection here"
		continue
	fi
	set_knob "$k" "$d"
	kmemleak_mark
	inject_write "$k" "$v" "$d"
	leaks=$(kmemleak_new)
	[ "$leaks" -eq 0 ] || cat $KML
	echo "FI-FIG point=$kv injected=$FI_INJ accepted=$FI_OK refused=$FI_REF bad=$FI_BAD leaks=$leaks"
	check "$kv: $FI_INJ allocations failed in turn, each refused with the old value kept and nothing half-installed, or done in full" eq "$FI_BAD" 0
	check "$kv: series ended (N=$FI_END) and kmemleak finds nothing ($leaks)" eval '[ $FI_END -le $max ] && [ $leaks -eq 0 ]'
	# the ftrace hooks the value installs: each one's removal drops its
	# filter entry (an allocation), so a failure there must say so
	set_knob "$k" "$v"
	fh=$(awk '$2 ~ /^(observe|redirect|direct)$/ && $3 == "on" { n++ } END { print n + 0 }' $SW_DBG/hooks)
	set_knob "$k" "$d"
	kmemleak_mark
	inject_remove "$k" "$v" "$d"
	leaks=$(kmemleak_new)
	[ "$leaks" -eq 0 ] || cat $KML
	echo "FI-FIG point=$k=$d(removal) injected=$FI_INJ accepted=$FI_OK refused=$FI_REF bad=$FI_BAD leaks=$leaks warned=$FI_WARN ftrace_hooks=$fh"
	check "$kv removed: $FI_INJ allocations failed in turn, nothing left hooked" eq "$FI_BAD" 0
	if [ "$fh" -gt 0 ]; then
		check "$kv removed: a failed filter removal of its $fh ftrace hook(s) logged its pr_warn (seen $FI_WARN times)" \
			eval '[ $FI_WARN -ge $fh ]'
	else
		check "$kv removed: no ftrace hook, no filter-removal warning (seen $FI_WARN times)" eq "$FI_WARN" 0
	fi
done
[ -z "$pull_on" ] || check "rmmod smartwake_pull" rmmod smartwake_pull

# ---- BPF attach and detach (policy=bpf) ---------------------------------
# On a kernel with BTF, bpf(2) and the JIT (the faultbpf variant) the module
# registers struct smartwake_ops. "smartwake bpf load" (tools/cli, libbpf)
# loads a program and attaches its struct_ops map (the module's
# sw_bpf_reg()); "smartwake bpf unload" detaches it (BPF_LINK_DETACH: the
# module's sw_bpf_unreg(), which under policy=bpf also sets policy=stock
# and removes its hooks). Every allocation under the bpf(2) system call
# (__sys_bpf on the stack: the stack filter's range moves there) is failed
# in turn, in the CLI's own task: BTF and map creation, the verifier, the
# JIT and its struct_ops trampolines, the attach, the pins, the detach.
BPFST=$SW_DBG/bpf
PINS=/sys/fs/bpf/smartwake
bpf_attached() { grep -q '^struct_ops smartwake_ops registered attached' $BPFST; }
bpf_detached() { grep -q '^struct_ops smartwake_ops registered detached' $BPFST; }
# bpf_clean: detached, no pin of ours, the module's references back to
# those of a detached module (a struct_ops map holds one; a failed load's
# map is freed after RCU grace periods: waited for, up to 20 s)
bpf_clean() {
	bpf_detached || { echo "  the bpf file: $(cat $BPFST)"; return 1; }
	[ -z "$(ls $PINS 2>/dev/null)" ] || { echo "  pins left: $(ls $PINS)"; return 1; }
	_i=0
	while [ "$(cat /sys/module/smartwake/refcnt)" -ne "$bpf_ref0" ]; do
		_i=$((_i + 1))
		[ $_i -le 40 ] || { echo "  module refcnt $(cat /sys/module/smartwake/refcnt), detached $bpf_ref0"; return 1; }
		sleep 0.5
	done
}
# fi_run N CMD...: CMD in a task whose Nth filtered allocation fails
# (tools/failnth: an injected failure of a __GFP_NOWARN allocation prints
# nothing, so the log cannot say whether the Nth was reached: the task's
# fail-nth left, read once it has exited, does); FI_OUT its output,
# FI_RC its exit status, FI_HIT 1 if the Nth was reached
fi_run() {
	log_mark
	FI_OUT=$(failnth "$@" 2>&1)
	FI_RC=$?
	_left=$(printf '%s\n' "$FI_OUT" | sed -n 's/^failnth: fail-nth-left=\([0-9]*\) .*/\1/p')
	FI_OUT=$(printf '%s\n' "$FI_OUT" | grep -v '^failnth: ')
	case $_left in
	0) FI_HIT=1 ;;
	[1-9]*) FI_HIT=0 ;;
	*) FI_HIT=0 FI_RC=125 FI_OUT="failnth failed: $FI_OUT" ;;
	esac
}
# inject_bpf POINT LOAD_ARG: POINT bpf-load (fail the load's Nth) or
# bpf-unload (load uninjected, fail the unload's Nth; policy=bpf set
# between, so the detach also sets policy=stock); FI_ERRS: the CLI's
# last line of each refusal
inject_bpf() {
	_p=$1 _arg=$2 _n=1 _inj=0 _ok=0 _ref=0 _bad=0 FI_ERRS= FI_DONE=0
	while [ $_n -le "$max" ]; do
		if [ "$_p" = bpf-unload ]; then
			smartwake bpf load "$_arg" >/dev/null 2>&1 && bpf_attached && set_knob policy bpf ||
				{ echo "  $_p($_arg) N=$_n: the uninjected load or policy=bpf failed"; _bad=$((_bad + 1)); break; }
			fi_run $_n smartwake bpf unload
		else
			fi_run $_n smartwake bpf load "$_arg"
		fi
		[ "$FI_RC" -ne 125 ] || { echo "  $_p($_arg) N=$_n: $FI_OUT"; _bad=$((_bad + 1)); break; }
		if [ "$FI_HIT" -eq 0 ]; then
			# fewer than N: the operation ran uninjected and must have worked
			[ "$FI_RC" -eq 0 ] && FI_DONE=1 || echo "  $_p($_arg) N=$_n: uninjected, failed: $FI_OUT"
			[ "$_p" = bpf-unload ] || { bpf_attached && smartwake bpf unload >/dev/null 2>&1; } ||
				{ echo "  $_p($_arg): the uninjected load did not attach, or its unload failed"; FI_DONE=0; }
			bpf_clean && [ "$(knob policy)" = stock ] || { echo "  $_p($_arg): not clean after the uninjected run"; FI_DONE=0; }
			break
		fi
		_inj=$((_inj + 1))
		if [ "$FI_RC" -eq 0 ]; then
			_ok=$((_ok + 1))
			if [ "$_p" = bpf-load ]; then
				bpf_attached || { echo "  $_p($_arg) N=$_n: said attached, the module says $(cat $BPFST)"; _bad=$((_bad + 1)); }
				smartwake bpf unload >/dev/null 2>&1 || { echo "  $_p($_arg) N=$_n: loaded, the unload failed"; _bad=$((_bad + 1)); }
			fi
		else
			_ref=$((_ref + 1))
			_m=$(printf '%s\n' "$FI_OUT" | grep -v '^ *$' | tail -n 1)
			[ -n "$_m" ] || { echo "  $_p($_arg) N=$_n: exit $FI_RC with no message"; _bad=$((_bad + 1)); }
			FI_ERRS="$FI_ERRS$_m
"
			if [ "$_p" = bpf-unload ]; then
				# refused: still attached (then unloaded uninjected) or gone
				# in full; policy=bpf never stays without a program
				if bpf_attached; then
					case $_m in *"no smartwake BPF policy attached"*)
						echo "  $_p($_arg) N=$_n: said no policy attached, the module says $(cat $BPFST)"; _bad=$((_bad + 1)) ;;
					esac
					[ "$(knob policy)" = bpf ] || { echo "  $_p($_arg) N=$_n: attached, policy $(knob policy)"; _bad=$((_bad + 1)); }
					smartwake bpf unload >/dev/null 2>&1 || { echo "  $_p($_arg) N=$_n: the uninjected unload fails too"; _bad=$((_bad + 1)); }
				fi
			else
				# nothing half-installed: the module and bpffs as before,
				# and the same load, uninjected, attaches
				bpf_clean || { echo "  $_p($_arg) N=$_n: refused, not clean: $_m"; _bad=$((_bad + 1)); }
				{ smartwake bpf load "$_arg" >/dev/null 2>&1 && bpf_attached && smartwake bpf unload >/dev/null 2>&1; } ||
					{ echo "  $_p($_arg) N=$_n: the uninjected load and unload after it failed"; _bad=$((_bad + 1)); }
			fi
		fi
		# a sign of life on the console of a long series
		[ $((_n % 50)) -ne 0 ] || echo "  $_p($_arg): N=$_n, $_ref refused so far"
		bpf_clean || { echo "  $_p($_arg) N=$_n: not clean"; _bad=$((_bad + 1)); }
		[ "$(knob policy)" = stock ] && agree_none ||
			{ echo "  $_p($_arg) N=$_n: policy $(knob policy), hooks:"; cat $SW_DBG/hooks; _bad=$((_bad + 1)); }
		log_ok || { echo "  $_p($_arg) N=$_n: kernel log unclean:"; dmesg | tail -n 60; _bad=$((_bad + 1)); }
		_n=$((_n + 1))
	done
	FI_INJ=$_inj FI_OK=$_ok FI_REF=$_ref FI_BAD=$_bad FI_END=$_n
}
if want bpf-load || want bpf-unload || want policy=bpf; then
	if ! grep -q '^struct_ops smartwake_ops registered' $BPFST 2>/dev/null; then
		skip "BPF attach and detach: no struct_ops here ($(cat $BPFST 2>/dev/null)): the faultbpf kernel has it"
	else
		bpf_ref0=$(cat /sys/module/smartwake/refcnt)
		check "BPF: registered, detached, refcnt $bpf_ref0" bpf_clean
		# the knob write with a program attached (the module-area filter)
		if want policy=bpf; then
			check "BPF: a program attached for policy=bpf" eval 'smartwake bpf load prev >/dev/null 2>&1 && bpf_attached'
			fh=0 FI_WARN=
			for _phase in write remove; do
				kmemleak_mark
				if [ $_phase = write ]; then
					inject_write policy bpf stock
					_pt=policy=bpf
				else
					set_knob policy bpf
					fh=$(awk '$2 ~ /^(observe|redirect|direct)$/ && $3 == "on" { n++ } END { print n + 0 }' $SW_DBG/hooks)
					set_knob policy stock
					inject_remove policy bpf stock
					_pt="policy=stock(removal)"
				fi
				leaks=$(kmemleak_new)
				[ "$leaks" -eq 0 ] || cat $KML
				echo "FI-FIG point=$_pt injected=$FI_INJ accepted=$FI_OK refused=$FI_REF bad=$FI_BAD leaks=$leaks${FI_WARN:+ warned=$FI_WARN ftrace_hooks=$fh}"
				check "$_pt with a program attached: $FI_INJ allocations failed in turn, refused with the old value kept or done in full, nothing left hooked" eq "$FI_BAD" 0
				check "$_pt: series ended (N=$FI_END), kmemleak finds nothing ($leaks)" eval '[ $FI_END -le $max ] && [ $leaks -eq 0 ]'
				FI_WARN=
			done
			check "BPF: unload after the policy=bpf rows" eval 'smartwake bpf unload >/dev/null 2>&1 && bpf_clean'
		fi
		rng=$(sym_range __sys_bpf)
		[ -n "$rng" ] || rng=$(sym_range __x64_sys_bpf)
		check "BPF: the bpf(2) system call's text for the stack filter ($rng)" eval '[ -n "$rng" ]'
		fi_range $rng
		# the struct_ops link's own attach (BPF_LINK_CREATE: the link's
		# file and the module's sw_bpf_reg()), for an object whose map is
		# a .struct_ops.link; the rest of its load is prev's path (the map
		# update that builds the trampolines, the verifier, the JIT) with
		# libbpf's object handling on top: about 800 checks under bpf(2)
		# against prev's 300, an hour of this guest, so its load row fails
		# only the allocations under bpf_struct_ops_link_create
		lrng=$(sym_range bpf_struct_ops_link_create)
		check "BPF: the struct_ops link's attach text for the object's load row ($lrng)" eval '[ -n "$lrng" ]'
		for pt in bpf-load bpf-unload; do
			want $pt || continue
			for prog in prev /lib/smartwake/bpf/wake_wide_v2013.bpf.o; do
				pn=${prog##*/}
				pn=${pn%.bpf.o}
				if [ $pt = bpf-load ] && [ $prog != prev ]; then
					fi_range $lrng
					pn="$pn,link-create"
				else
					fi_range $rng
				fi
				kmemleak_mark
				inject_bpf $pt "$prog"
				leaks=$(kmemleak_new)
				[ "$leaks" -eq 0 ] || cat $KML
				echo "FI-FIG point=$pt($pn) injected=$FI_INJ accepted=$FI_OK refused=$FI_REF bad=$FI_BAD leaks=$leaks"
				printf '%s' "$FI_ERRS" | sort | uniq -c | while read -r _c _l; do
					echo "FI-ERR point=$pt($pn) count=$_c errno=- log=$_l"
				done
				check "$pt($pn): $FI_INJ allocations under bpf(2) failed in turn: refused with a message and nothing left (module detached, no pins, no reference, policy stock, nothing hooked, the same load then works), or done in full ($FI_REF refused, $FI_OK done)" eq "$FI_BAD" 0
				check "$pt($pn): the series reached an uninjected run that worked (N=$FI_END, cap $max)" eval '[ $FI_END -le $max ] && [ $FI_DONE -eq 1 ]'
				check "$pt($pn): at least one failure refused it" gt "$FI_REF" 0
				check "$pt($pn): kmemleak finds nothing after the series ($leaks)" eq "$leaks" 0
			done
		done
		fi_range 0xffffffffa0000000 0xffffffffff000000
	fi
fi

check "rmmod" rmmod smartwake
check "nothing of smartwake left" nothing_hooked
summary
