#!/usr/bin/env bash
# make soak (issue 59, item 4): guest/soak.sh on the stock kernel in one
# guest of 16 vCPUs, 2 sockets of 8 (2 NUMA nodes, 2 LLCs: topology
# 2s1l8c1t of scripts/qemulib.sh), for MINUTES: a policy flip each second
# across stock, smartwake, shadow and bpf (tools/bpf/sticky.bpf.o attached
# and detached by the CLI), knob changes, scope and task moves between
# cgroups, CPU hotplug, module unload and load, the latency and locality
# observers on and off, under a wakeup load. Its goals are KTAP results
# (0 log findings, every counter read consistent, nothing left after each
# unload); a run of MINUTES >= 30 that passes writes figures.md section
# soak (a shorter one: its figures printed only, unless --figures).
# Not part of make check (the soak is its length).
#
# Usage: scripts/soak.sh [--minutes N] [--topo T] [--figures] [--no-figures]
#   --minutes N   soak length (default 30)
#   --topo T      guest topology (default 2s1l8c1t)
#   --figures     write the section whatever the length
#   --no-figures  never write it
. "$(dirname "$0")/common.sh"
minutes=30 topo=2s1l8c1t figs=auto
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sw_help "$0"; exit 0 ;;
	--minutes) minutes=$2; shift 2 ;;
	--topo) topo=$2; shift 2 ;;
	--figures) figs=1; shift ;;
	--no-figures) figs=0; shift ;;
	*) sw_die "unknown option $1 (see --help)" ;;
	esac
done
[[ $minutes =~ ^[1-9][0-9]*$ ]] || sw_die "--minutes wants a positive number, not '$minutes'"
[ "$figs" != auto ] || figs=$((minutes >= 30 ? 1 : 0))
cd "$SW_TOP" || exit
logs=build/logs
mkdir -p "$logs"
make -C "$SW_TOP" all >"$logs/soak-build.log" 2>&1 ||
	sw_die "make all failed (see $logs/soak-build.log)"
secs=$((minutes * 60))
log=$logs/soak-$topo.log
out=$logs/soak-$topo.out
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- module include guest scripts tools 2>/dev/null || echo "+changes")
started=$(date -u '+%Y-%m-%d %H:%M UTC')
sw_log "soak: $minutes min on $topo (console: $log, output: $out)"
rc=0
# the guest's own time plus boot, the unloads' waits and a slow host
scripts/guest-run.sh --topo "$topo" --timeout $((secs + 900 + secs / 2)) --log "$log" \
	soak.sh "$secs" >"$out" 2>&1 || rc=$?
grep -E '^(not )?ok |finding|^[0-9]+ passed' "$out" || true
fig=$(sed -n 's/^SOAK-FIG //p' "$out" | tr -d '\r' | tr '\n' ' ')
# val KEY: one figure of the SOAK-FIG lines
val() { grep -o "\b$1=[^ ]*" <<<"$fig" | head -n 1 | cut -d= -f2; }
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
echo "soak: rc $rc, ${summary:-no summary}"
if [ "$rc" -eq 0 ] && [ "$figs" = 1 ] && [ -n "$fig" ]; then
	{
		echo "## The long soak (scripts/soak.sh, make soak; issue 59)"
		echo
		echo "guest/soak.sh on the stock kernel (Debian's 6.12 cloud kernel), $(val cpus) vCPUs ($topo: 2 sockets of"
		echo "8 cores, 2 NUMA nodes, 2 LLCs), TCG one thread; started $started at $commit. Under wakeload"
		echo "disp -d 2 -w 8 --switch and msg -g 2 -s 2 -r 4 (30 tasks) all along: each tick (one a second"
		echo "when the guest keeps up) flips the policy (stock, smartwake, shadow, bpf; bpf refused while no"
		echo "program is attached), every 3rd a knob, every 5th knob scope and the load's tasks between two"
		echo "cgroups, every 7th the latency or the locality observer, every 11th a CPU offline (the last one"
		echo "back), every 20th sticky.bpf.o detached or attached (smartwake bpf unload/load), every 60th the"
		echo "module unloaded and loaded. Each read of the stats file (the load stopped for it) is checked"
		echo "against module/counters.h's identities, within one call in flight per CPU."
		echo
		echo "| figure | value |"
		echo "|---|---|"
		echo "| duration | $(val secs) s ($(val ticks) ticks) |"
		echo "| policy flips | $(val flips) (and $(val bpf_refusals) policy=bpf refused, no program attached) |"
		echo "| knob writes | $(val knob_writes) ($(val knob_refused) refused) |"
		echo "| scope moves, task moves | $(val scope_moves), $(val task_moves) |"
		echo "| observer flips | $(val obs_flips) |"
		echo "| CPU hotplugs (offline, the previous back) | $(val hotplugs) |"
		echo "| module loads, unloads | $(val loads), $(val unloads) |"
		echo "| unloads that waited for the kernel to free a detached map's module reference | $(val ref_waits) |"
		echo "| BPF attaches, detaches | $(val attaches), $(val detaches) |"
		echo "| counter reads checked | $(val reads) |"
		echo "| module-path wakeups (sum over the loads) | $(val wakeups) |"
		echo "| load rate, mean over the run (ops/s, disp/msg) | $(val ops_per_sec) |"
		echo "| findings: inconsistent reads, bpf accepted detached, failed operations, left after unload, log | $(val findings_read), $(val findings_bpfref), $(val findings_op), $(val findings_left), $(val findings_log) |"
		echo
		echo "Result: ${summary:-no summary}."
	} | scripts/figures.sh soak -
fi
exit "$rc"
