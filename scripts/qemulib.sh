# shellcheck shell=bash
# The guest runners' shared part (scripts/guest-run.sh: busybox initramfs;
# scripts/debian-run.sh: the Debian system image): a work directory
# removed at exit with the QEMU they started, the wait for that QEMU with
# a timeout, and the verdict the guest printed. Sourced after common.sh.

# sw_guest_setup PREFIX: a work directory in $work; at exit, the QEMU of
# $qpid (only the one this script started, by its PID) and $work go.
sw_guest_setup() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
	qpid=
	trap sw_guest_cleanup EXIT
	trap 'exit 130' INT TERM
}
# sw_topo_args TOPO SMP MEM: QEMU's CPU and NUMA arguments for a named
# topology in the array topo_args (SMP, if set, is a raw -smp value that
# overrides the topology's CPUs; MEM in MB is split between NUMA nodes;
# empty MEM: 1024, plus 8 MB per CPU above 8), the memory in topo_mem.
# Shapes at size (issue 61): llcN is one socket, one LLC of N cores;
# SsLlCcTt is S sockets (one NUMA node each when S > 1) of L LLCs (QEMU
# dies: CPUID leaf 4 shares the L3 per die) of C cores of T threads.
# QEMU 7.2 has no -machine smp-cache (9.0+): dies are its way to several
# LLCs per socket.
sw_topo_args() {
	local topo=$1 smp=$2 mem=$3 half def s l c t per i n
	topo_args=()
	case $topo in
	smp2) topo_args=(-smp "${smp:-2}") ;;
	smp4) topo_args=(-smp "${smp:-4}") ;;
	flat4) topo_args=(-smp "${smp:-4,sockets=4}") ;;
	smt8) topo_args=(-smp "${smp:-8,sockets=1,cores=4,threads=2}") ;;
	numa2|numa-smt)
		mem=${mem:-1024}
		half=$((mem / 2))
		if [ "$topo" = numa2 ]; then def=8,sockets=2,cores=4; else def=8,sockets=2,cores=2,threads=2; fi
		# shellcheck disable=SC2054 # commas inside one -smp value
		topo_args=(-smp "${smp:-$def}"
			-object "memory-backend-ram,id=m0,size=${half}M"
			-object "memory-backend-ram,id=m1,size=$((mem - half))M"
			-numa node,nodeid=0,cpus=0-3,memdev=m0
			-numa node,nodeid=1,cpus=4-7,memdev=m1)
		;;
	llc[1-9]*)
		c=${topo#llc}
		[[ $c =~ ^[0-9]+$ ]] || sw_die "unknown topology $topo"
		n=$c
		topo_args=(-smp "${smp:-$c,sockets=1,dies=1,cores=$c,threads=1}") ;;
	[1-9]*s[1-9]*l[1-9]*c[1-9]*t)
		[[ $topo =~ ^([0-9]+)s([0-9]+)l([0-9]+)c([0-9]+)t$ ]] || sw_die "unknown topology $topo"
		s=${BASH_REMATCH[1]} l=${BASH_REMATCH[2]} c=${BASH_REMATCH[3]} t=${BASH_REMATCH[4]}
		per=$((l * c * t)) n=$((s * per))
		topo_args=(-smp "${smp:-$n,sockets=$s,dies=$l,cores=$c,threads=$t}")
		# QEMU 7.2's qemu64 is an AMD CPU: Linux takes its LLC per socket;
		# an Intel vendor makes it read CPUID leaf 4 (an L3 per die)
		# shellcheck disable=SC2054 # one -cpu value
		[ "$l" -gt 1 ] && [ -z "${SW_QEMU_CPU:-}" ] && topo_args+=(-cpu qemu64,vendor=GenuineIntel)
		if [ "$s" -gt 1 ]; then
			mem=${mem:-$((1024 + (n > 8 ? (n - 8) * 8 : 0)))}
			# QEMU numbers CPUs socket by socket: node i is socket i
			for ((i = 0; i < s; i++)); do
				topo_args+=(-object "memory-backend-ram,id=m$i,size=$((mem / s))M"
					-numa "node,nodeid=$i,cpus=$((i * per))-$(((i + 1) * per - 1)),memdev=m$i")
			done
			mem=$((mem / s * s))
		fi
		;;
	*) sw_die "unknown topology $topo (smp2|smp4|numa2|flat4|smt8|numa-smt|llcN|SsLlCcTt)" ;;
	esac
	n=${n:-8}
	topo_mem=${mem:-$((1024 + (n > 8 ? (n - 8) * 8 : 0)))}
}

sw_guest_kill() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null || true
		sleep 1
		kill -9 "$qpid" 2>/dev/null || true
	fi
}
sw_guest_cleanup() {
	sw_guest_kill
	rm -rf "$work"
}

# sw_guest_wait START TIMEOUT LOG [PATTERN]: wait for the QEMU of $qpid;
# after TIMEOUT seconds from START it is killed and rc is 124; when LOG
# shows PATTERN (an extended regex: a panic the guest does not end on),
# 125. rc stays empty when QEMU ended by itself.
sw_guest_wait() {
	local start=$1 timeout=$2 log=$3 pat=${4:-}
	rc=
	while kill -0 "$qpid" 2>/dev/null; do
		if [ $(($(date +%s) - start)) -ge "$timeout" ]; then
			sw_log "timeout after ${timeout}s: killing QEMU $qpid"
			rc=124
		elif [ -n "$pat" ] && grep -qE "$pat" "$log" 2>/dev/null; then
			sw_log "$(grep -oE "$pat" "$log" | head -n 1): killing QEMU $qpid"
			rc=125
		fi
		if [ -n "$rc" ]; then
			sw_guest_kill
			break
		fi
		sleep 1
	done
	wait "$qpid" 2>/dev/null || true
	qpid=
}

# sw_guest_verdict LOG VERBOSE WHAT START: the console LOG without
# carriage returns and terminal resets (ESC c, ESC [...: SeaBIOS and the
# console), printed whole (VERBOSE 1) or from SMARTWAKE-GUEST-START on;
# rc (unless the wait set it) is the guest script's SMARTWAKE-GUEST-EXIT
# status, 125 if it never printed one. Prints WHAT and the time.
sw_guest_verdict() {
	local log=$1 verbose=$2 what=$3 start=$4
	tr -d '\r' <"$log" | sed 's/\x1bc//g; s/\x1b\[[0-9;?]*[a-zA-Z]//g' >"$log.tmp" &&
		mv "$log.tmp" "$log"
	if [ "$verbose" -eq 1 ]; then
		cat "$log"
	else
		sed -n '/SMARTWAKE-GUEST-START/,$p' "$log"
	fi
	if [ -z "$rc" ]; then
		rc=$(sed -n 's/^SMARTWAKE-GUEST-EXIT \([0-9]*\).*/\1/p' "$log" | tail -n 1)
		if [ -z "$rc" ]; then
			sw_log "guest died without reporting; last console lines:"
			tail -n 30 "$log" >&2
			rc=125
		fi
	elif [ "$rc" = 125 ]; then
		tail -n 30 "$log" >&2
	fi
	sw_log "guest/$what: exit $rc after $(($(date +%s) - start))s"
}
