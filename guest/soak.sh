# The long soak (issue 59, item 4; scripts/soak.sh, make soak): for
# SECONDS, under a wakeup load sized for the guest's CPUs, one tick a
# second flips the policy across stock, smartwake, shadow and bpf, and
# on their own periods: a knob changed (every knob but policy, scope,
# sib_pull and the observers, through its listed values), knob scope
# moved between two cgroups and all, the load's tasks moved between
# those cgroups, the latency and locality observers on and off, a CPU
# taken offline and the previous one brought back, the stateful BPF
# policy tools/bpf/sticky.bpf.o detached and attached by the CLI, the
# module unloaded and loaded again. Goals, each a KTAP result:
#  - every read of the stats file consistent: the identities of
#    module/counters.h (select_calls = passthrough + out_of_scope +
#    wakeups; sis_calls = its five outcomes; shadow_compared = agree +
#    disagree + raced + raced_aba; bpf_calls = bpf_answers +
#    bpf_declined; bpf_refused = its three callbacks'; loc_prev_* =
#    loc_waker_*; kernel_loc_prev_* = kernel_loc_waker_*) within one
#    call in flight per CPU (a wakeup between two of its increments),
#    and invariant_violations 0;
#  - policy=bpf refused whenever no program is attached;
#  - every insmod, rmmod, attach, detach and hotplug write succeeds;
#  - nothing hooked after each unload (ftrace, kprobes, the BPF link),
#    no dying cgroup (a scope reference kept) at the end;
#  - the kernel log clean (guest/dmesg.sh's rules), read and cleared at
#    each unload so that a long run cannot push a report out of the ring.
# Prints "SOAK-FIG key=value ..." lines for the figures (scripts/soak.sh).
# Usage: soak.sh [SECONDS]
. ./lib.sh
secs=${1:-1800}
NCPU=$(nproc)
# periods in ticks
P_KNOB=3 P_SCOPE=5 P_OBS=7 P_HP=11 P_BPF=20 P_RELOAD=60
STICKY=/lib/smartwake/bpf/sticky.bpf.o
BPFST=$SW_DBG/bpf
CG=/sys/fs/cgroup
A=$CG/soak-a
B=$CG/soak-b
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
mkdir -p $A $B
mkdir -p /sys/fs/bpf 2>/dev/null
grep -q ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf

# finding KIND TEXT: a goal missed, counted by kind and printed
F_READ=0 F_BPFREF=0 F_OP=0 F_HOOK=0 F_LOG=0
finding() {
	eval "F_$1=\$((F_$1 + 1))"
	echo "  finding ($1): $2"
}
attached() { grep -q '^struct_ops smartwake_ops registered attached' $BPFST; }

# ---- the checked read ---------------------------------------------------------
# The stats file sums one counter at a time over the CPUs (module/stats.c),
# so under a running load two counters of one identity are read wakeups
# apart. Each checked read stops the load's tasks first (SIGSTOP, every
# one seen stopped), then only the kernel's own threads wake.
# load_pids: the load's processes, both cgroups (shell builtins only)
load_pids() {
	_p=
	for _f in $A/cgroup.procs $B/cgroup.procs; do
		while read -r _x; do _p="$_p $_x"; done <$_f
	done
	echo "$_p"
}
# all_stopped PIDS: each one in state T (or gone)
all_stopped() {
	for _x in "$@"; do
		read -r _l </proc/$_x/stat 2>/dev/null || continue
		_l=${_l##*) }
		[ "${_l%% *}" = T ] || return 1
	done
}
# read_check: one snapshot of stats with the load stopped; each
# identity's gap within NCPU
reads=0
read_check() {
	_pids=$(load_pids)
	# shellcheck disable=SC2086
	kill -STOP $_pids 2>/dev/null
	_i=0
	# shellcheck disable=SC2086
	while ! all_stopped $_pids && [ $_i -lt 50 ]; do
		usleep 20000
		_i=$((_i + 1))
	done
	_s=$(cat $SW_DBG/stats)
	_rc=$?
	# shellcheck disable=SC2086
	kill -CONT $_pids 2>/dev/null
	[ $_rc -eq 0 ] || { finding OP "stats unreadable"; return; }
	reads=$((reads + 1))
	_bad=$(echo "$_s" | awk -v tol="$NCPU" '
		{ v[$1] = $2 }
		function fam(p) { return v[p "same_cpu"] + v[p "smt"] + v[p "llc"] + v[p "node"] + v[p "remote"] }
		function gap(name, a, b) {
			d = a - b
			if (d > tol || d < -tol) printf "%s: %d vs %d; ", name, a, b
		}
		END {
			gap("select_calls = passthrough + out_of_scope + wakeups",
				v["select_calls"], v["passthrough"] + v["out_of_scope"] + v["wakeups"])
			gap("sis_calls = its outcomes", v["sis_calls"],
				v["sis_fast_target"] + v["sis_fast_prev"] + v["sis_fast_recent"] + v["sis_idle_found"] + v["sis_scan_failed"])
			gap("shadow_compared = agree + disagree + raced + raced_aba", v["shadow_compared"],
				v["shadow_agree"] + v["shadow_disagree"] + v["shadow_raced"] + v["shadow_raced_aba"])
			gap("bpf_calls = bpf_answers + bpf_declined", v["bpf_calls"], v["bpf_answers"] + v["bpf_declined"])
			gap("bpf_refused = its callbacks", v["bpf_refused"],
				v["bpf_select_refused"] + v["bpf_affine_refused"] + v["bpf_idle_refused"])
			gap("loc_prev_* = loc_waker_*", fam("loc_prev_"), fam("loc_waker_"))
			gap("kernel_loc_prev_* = kernel_loc_waker_*", fam("kernel_loc_prev_"), fam("kernel_loc_waker_"))
			if (v["invariant_violations"] != 0) printf "invariant_violations %d; ", v["invariant_violations"]
			if (!("select_calls" in v) || !("bpf_calls" in v) || !("loc_prev_llc" in v)) printf "counters missing; "
		}')
	[ -z "$_bad" ] || finding READ "read $reads: $_bad"
	# the largest wakeup count of one module lifetime, for the figures
	_w=$(echo "$_s" | awk '$1 == "wakeups" { print $2 }')
	[ "${_w:-0}" -le "$maxw" ] || maxw=$_w
	sumw_cur=${_w:-0}
}
maxw=0 sumw=0 sumw_cur=0

# ---- load, attach, unload -------------------------------------------------------
loads=0 unloads=0 attaches=0 detaches=0
bpf_load() {
	if smartwake bpf load "$STICKY" >/tmp/bpfload 2>&1 && attached; then
		attaches=$((attaches + 1))
	else
		finding OP "smartwake bpf load sticky.bpf.o: $(tail -n 2 /tmp/bpfload | tr '\n' ' ')"
	fi
}
bpf_unload() {
	if smartwake bpf unload >/tmp/bpfload 2>&1 && ! attached; then
		detaches=$((detaches + 1))
	else
		finding OP "smartwake bpf unload: $(tail -n 2 /tmp/bpfload | tr '\n' ' ')"
	fi
}
# the log so far: its findings counted, then cleared
log_check() {
	_v=$(dmesg -c | dmesg_verdict) || finding LOG "kernel log: $(echo "$_v" | grep -v '^#' | head -n 5 | tr '\n' ' ')"
	echo "$_v" | grep '^#' | sed 's/^/  /'
}
# nothing_left: after an unload, nothing of smartwake hooked or pinned
nothing_left() {
	! grep -q smartwake /proc/modules && [ ! -e $SW_DBG ] && nothing_hooked &&
		[ ! -e /sys/fs/bpf/smartwake/link ]
}
module_load() {
	if sw_insmod; then
		loads=$((loads + 1))
		bpf_load
	else
		finding OP "insmod"
	fi
}
module_unload() {
	read_check
	sumw=$((sumw + sumw_cur))
	attached && bpf_unload
	# the kernel drops a struct_ops map's reference on the module in a work
	# item after the map's id is gone (bpf_map_put: bpf_map_free_id, then
	# bpf_struct_ops_map_free's module_put), later than smartwake bpf
	# unload's wait for the id; rmmod in between fails with EAGAIN (seen
	# once in 14 unloads on a loaded host): wait for it, up to 10 s
	_w=0
	while [ "$(cat /sys/module/smartwake/refcnt)" -gt 0 ] && [ $_w -lt 100 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	[ $_w -eq 0 ] || ref_waits=$((ref_waits + 1))
	if rmmod smartwake; then
		unloads=$((unloads + 1))
		nothing_left || finding HOOK "after unload $unloads: $(grep smartwake /sys/kernel/tracing/enabled_functions /sys/kernel/debug/kprobes/list 2>/dev/null | head -n 3 | tr '\n' ' ')"
	else
		finding OP "rmmod"
	fi
	log_check
}

# ---- the knobs --------------------------------------------------------------------
knob_values() {
	sed -n "s/^$1 .*\[\([^]]*\)\].*/\1/p" $SW_DBG/knobs | tr '|' '\n' |
		sed 's/^\([0-9]*\)\.\.\([0-9]*\)$/\1\n\2/'
}
module_load
knobs=
for k in $(awk '!/^#/ { print $1 }' $SW_DBG/knobs); do
	case $k in policy | scope | sib_pull | latency | locality) continue ;; esac
	v=$(knob_values $k | tr '\n' ' ')
	[ -n "${v% }" ] || { echo "  no values listed for $k"; continue; }
	knobs="$knobs $k"
	eval "vals_$k=\"\$v\""
done
set -- $knobs
nknobs=$#
echo "  knobs flipped: $knobs"
check "the module loads, sticky.bpf.o attaches" eval 'lsmod | grep -q "^smartwake" && attached'
check "knob listing read ($nknobs knobs to flip)" gt "$nknobs" 3

# ---- the load ----------------------------------------------------------------------
# two dispatchers of 8 workers with side pokes, and 2 groups of 2:4
# messaging: 30 tasks on the 16 CPUs
# (sh -c joins the cgroup, then execs: $! is wakeload itself)
# shellcheck disable=SC2016
sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' $A wakeload disp -d 2 -w 8 --switch -t 1000000 >/tmp/l1 2>&1 &
l1=$!
# shellcheck disable=SC2016
sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' $B wakeload msg -g 2 -s 2 -r 4 -t 1000000 >/tmp/l2 2>&1 &
l2=$!

# ---- the ticks -----------------------------------------------------------------------
policies="stock smartwake shadow bpf"
flips=0 bpf_refusals=0 policy_failed=0 ref_waits=0 knob_writes=0 knob_refused=0 scope_moves=0 task_moves=0
obs_flips=0 hotplugs=0 hp_cpu=0 kidx=0
tick=0
t0=$(uptime_s)
next=$t0
while [ $(($(uptime_s) - t0)) -lt "$secs" ]; do
	tick=$((tick + 1))
	# policy: one flip a tick, bpf refused while no program is attached
	set -- $policies
	shift $((tick % 4))
	if [ "$1" = bpf ] && ! attached; then
		if set_knob policy bpf; then
			finding BPFREF "policy=bpf accepted with no program attached"
		else
			bpf_refusals=$((bpf_refusals + 1))
		fi
	elif set_knob policy "$1"; then
		flips=$((flips + 1))
	else
		finding OP "policy=$1 refused"
		policy_failed=$((policy_failed + 1))
	fi
	if [ $((tick % P_KNOB)) -eq 0 ]; then
		set -- $knobs
		shift $((kidx % nknobs))
		k=$1
		eval "set -- \$vals_$k"
		shift $(((kidx / nknobs) % $#))
		if set_knob "$k" "$1"; then
			knob_writes=$((knob_writes + 1))
		else
			knob_refused=$((knob_refused + 1))
			echo "  refused: $k=$1"
		fi
		kidx=$((kidx + 1))
	fi
	if [ $((tick % P_SCOPE)) -eq 0 ]; then
		case $(((tick / P_SCOPE) % 3)) in
		0) s=all ;;
		1) s=$A ;;
		2) s=$B ;;
		esac
		if set_knob scope $s; then scope_moves=$((scope_moves + 1)); else finding OP "scope=$s refused"; fi
		# the load's tasks change cgroups: A's go to B and B's to A
		pa=$(cat $A/cgroup.procs)
		pb=$(cat $B/cgroup.procs)
		for p in $pa; do echo "$p" >$B/cgroup.procs 2>/dev/null && task_moves=$((task_moves + 1)); done
		for p in $pb; do echo "$p" >$A/cgroup.procs 2>/dev/null && task_moves=$((task_moves + 1)); done
	fi
	if [ $((tick % P_OBS)) -eq 0 ]; then
		o=latency
		[ $(((tick / P_OBS) % 2)) -eq 0 ] || o=locality
		if set_knob $o $((1 - $(knob $o))); then obs_flips=$((obs_flips + 1)); else finding OP "$o flip refused"; fi
	fi
	if [ $((tick % P_HP)) -eq 0 ]; then
		# bring the last one back, take the next one down (1..NCPU-1)
		[ "$hp_cpu" -eq 0 ] || echo 1 >/sys/devices/system/cpu/cpu$hp_cpu/online ||
			finding OP "cpu$hp_cpu online"
		hp_cpu=$((hp_cpu % (NCPU - 1) + 1))
		if echo 0 >/sys/devices/system/cpu/cpu$hp_cpu/online; then
			hotplugs=$((hotplugs + 1))
		else
			finding OP "cpu$hp_cpu offline"
		fi
	fi
	if [ $((tick % P_BPF)) -eq 0 ]; then
		if attached; then bpf_unload; else bpf_load; fi
	fi
	if [ $((tick % P_RELOAD)) -eq 0 ]; then
		module_unload
		module_load
	fi
	read_check
	# one tick a second (guest time); a tick that took longer starts the next at once
	next=$((next + 1))
	while [ "$(uptime_s)" -lt "$next" ]; do usleep 100000; done
	[ "$next" -ge "$(uptime_s)" ] || next=$(uptime_s)
done
elapsed=$(($(uptime_s) - t0))
[ "$hp_cpu" -eq 0 ] || echo 1 >/sys/devices/system/cpu/cpu$hp_cpu/online || finding OP "cpu$hp_cpu online"
module_unload
kill $l1 $l2 2>/dev/null
wait $l1 $l2 2>/dev/null
# the load ran all along: its rate over the soak
ops=$(cat /tmp/l1 /tmp/l2 | sed -n 's/.*ops_per_sec=\([0-9.]*\).*/\1/p' | tr '\n' ' ')
echo "  load: $(cat /tmp/l1 /tmp/l2 | tr '\n' ' ')"
rmdir $A $B || finding OP "cgroups not removed: $(cat $A/cgroup.procs $B/cgroup.procs 2>/dev/null | tr '\n' ' ')"
i=0
while ! grep -q '^nr_dying_descendants 0$' $CG/cgroup.stat && [ $i -lt 100 ]; do
	usleep 100000
	i=$((i + 1))
done
grep -q '^nr_dying_descendants 0$' $CG/cgroup.stat || finding HOOK "a dying cgroup is left (a scope reference held)"
[ "$(cat /sys/devices/system/cpu/online)" = "0-$((NCPU - 1))" ] || finding OP "CPUs online at the end: $(cat /sys/devices/system/cpu/online)"
echo "SOAK-FIG secs=$elapsed cpus=$NCPU ticks=$tick flips=$flips bpf_refusals=$bpf_refusals knob_writes=$knob_writes knob_refused=$knob_refused scope_moves=$scope_moves task_moves=$task_moves"
echo "SOAK-FIG obs_flips=$obs_flips hotplugs=$hotplugs loads=$loads unloads=$unloads attaches=$attaches detaches=$detaches reads=$reads wakeups=$sumw max_wakeups=$maxw ref_waits=$ref_waits"
echo "SOAK-FIG findings_read=$F_READ findings_bpfref=$F_BPFREF findings_op=$F_OP findings_left=$F_HOOK findings_log=$F_LOG ops_per_sec=$(echo $ops | tr ' ' '/')"
check "soak ran its time ($elapsed s >= $secs s, $tick ticks)" eval '[ $elapsed -ge $secs ]'
check "the policy flipped every tick ($flips flips, $bpf_refusals bpf refusals, $tick ticks)" \
	eval '[ $((flips + bpf_refusals + policy_failed + F_BPFREF)) -eq $tick ] && [ $flips -gt 0 ]'
check "the module's path ran ($sumw wakeups over $loads loads)" gt "$sumw" 0
check "every read of the counters consistent ($reads reads, $F_READ inconsistent)" \
	eval '[ $F_READ -eq 0 ] && [ $reads -ge $tick ]'
check "policy=bpf refused whenever no program was attached ($bpf_refusals refusals)" eq "$F_BPFREF" 0
check "every insmod, rmmod, attach, detach, knob and hotplug write done ($F_OP failed)" eq "$F_OP" 0
check "nothing left after each of $unloads unloads, cgroups removed, no dying cgroup" \
	eval '[ $F_HOOK -eq 0 ] && [ $unloads -ge 1 ]'
check "kernel log clean at every unload ($F_LOG unclean)" eq "$F_LOG" 0
summary
