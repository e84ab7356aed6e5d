#!/usr/bin/env bash
# The overhead experiment (part of make bench; also scripts/bench.sh
# --overhead): what the module costs the tightest wakeup loops. One 2-vCPU
# stock guest booted with nokaslr runs guest/overhead.sh: no module, loaded
# at the default knobs, each observer on alone (ttwu_count=1, sis_filter=1,
# latency=1: the wakeup-latency probes, trace events), policy=smartwake at
# mainline knobs and policy=shadow (if the module has it), interleaved
# round by round, on wakeload pipe -p 1 (ping-pong) and
# msg --pipes -g 1 -s 2 -r 2 (M:N). First under
# -icount shift=0,sleep=off (guest time counts instructions: repeatable to
# about 1 % within a boot; no caches, no pipeline: instruction counts stand
# in for cost, not for cache effects), then wall-clock (indicative only).
# Medians over the rounds after the first (a warm-up), min..max, ratio to
# no module. Writes DIR/overhead.csv, DIR/summary.txt, DIR/overhead.svg
# (gnuplot, if present) and the figures section "overhead".
#
# --testing loads the testing build and adds "no_redirect" and
# "no_redirect_ftrace": the select hook alone, direct call or ftrace ops
# trampoline (it decides, never answers).
#
# --report DIR writes DIR's summary into figures.md again, measuring nothing.
#
# --loads "pipe" measures the ping-pong only (the M:N load's icount ratios
# move with the order the two vCPUs interleave: several % between rounds).
#
# Usage: scripts/overhead.sh [--rounds N] [--secs S] [--out DIR] [--no-wall]
#                            [--no-figures] [--testing] [--report DIR]
#                            [--loads "pipe msg"]
. "$(dirname "$0")/common.sh"

rounds=7 secs=1 out= wall=1 figs=1 testing=() report= loads="pipe msg"
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--secs) secs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--no-wall) wall=0; shift ;;
	--no-figures) figs=0; shift ;;
	--testing) testing=(--ko build/testing/module/smartwake.ko); shift ;;
	--report) report=$2; shift 2 ;;
	--loads) loads=$2; shift 2 ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done
[[ $rounds =~ ^[2-9]$|^[1-9][0-9]+$ ]] || sw_die "--rounds: 2 or more"
[[ $loads =~ ^(pipe|msg)( (pipe|msg))*$ ]] || sw_die "--loads: pipe and/or msg"
# what is measured: the tree as it is now, not when the run ends
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- module include guest tools 2>/dev/null || echo "+changes")
started=$(date -Is)
cd "$SW_TOP" || exit

# write_figures DIR: DIR's summary as the figures section "overhead"
write_figures() {
	local build=shipped
	grep -q '^testing' "$1/meta.txt" 2>/dev/null && build="testing (--testing: adds no_redirect)"
	{
		echo "## Hook cost: the overhead experiment"
		echo
		echo "scripts/overhead.sh, $(head -n 1 "$1/meta.txt" 2>/dev/null); medians of all rounds but the"
		echo "first, one 2-vCPU stock guest with nokaslr; module build: $build; results in $1."
		echo
		cat "$1/summary.txt"
	} | scripts/figures.sh overhead -
}
if [ -n "$report" ]; then
	[ -s "$report/summary.txt" ] || sw_die "no $report/summary.txt"
	write_figures "$report"
	exit 0
fi
[ -n "$out" ] || out=results/overhead-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
csv=$out/overhead.csv
echo "clock,setting,load,round,ops_per_sec" >"$csv"
echo "clock,setting,round,self_ns_per_call" >"$out/self.csv"
echo "clock,round,module_ns_per_call,kernel_ns_per_call,module_kernel_ratio" >"$out/cost.csv"
rc=0
modes=(icount)
[ $wall -eq 1 ] && modes+=(wall)
for m in "${modes[@]}"; do
	opts=(--topo smp2 --append nokaslr --timeout 3600 --log "$out/guest-$m.log")
	[ "$m" = icount ] && opts+=(--icount)
	sw_log "overhead: $m clock, $rounds rounds of ${secs} s"
	scripts/guest-run.sh "${opts[@]}" "${testing[@]}" overhead.sh "$rounds" "$secs" \
		"${testing:+testing}" "$loads" |
		grep -E 'passed|FAIL' || true
	[ "${PIPESTATUS[0]}" -eq 0 ] || { sw_log "overhead guest ($m) failed"; rc=1; }
	sed -n "s/^SMARTWAKE-OVH,/$m,/p" "$out/guest-$m.log" >>"$csv"
	sed -n "s/^SMARTWAKE-OVH-SELF,/$m,/p" "$out/guest-$m.log" >>"$out/self.csv"
	sed -n "s/^SMARTWAKE-OVH-COST,/$m,/p" "$out/guest-$m.log" >>"$out/cost.csv"
done

python3 - "$csv" "$out" <<'PY' || rc=1
import csv, sys, statistics as st
rows = list(csv.DictReader(open(sys.argv[1])))
out = sys.argv[2]
order = ["none", "defaults", "ttwu_count", "sis_filter", "sis_filter_tick", "latency", "no_redirect_ftrace", "no_redirect",
         "smartwake_ftrace", "smartwake", "smartwake+trace", "shadow"]
what = {"none": "no module", "defaults": "loaded, default knobs (nothing hooked)",
        "ttwu_count": "ttwu_count=1 (kretprobe)", "sis_filter": "sis_filter=1, sis_mask_update=enqueue (tracepoint probe; policy stock)",
        "sis_filter_tick": "sis_filter=1, sis_mask_update=tick (sched_tick hook; policy stock)",
        "latency": "latency=1 (sched_wakeup/_new/switch probes; policy stock)",
        "smartwake": "policy=smartwake, mainline knobs (select_hook=direct)",
        "smartwake_ftrace": "policy=smartwake, mainline knobs, select_hook=ftrace (ops redirect)",
        "smartwake+trace": "policy=smartwake + trace events on",
        "shadow": "policy=shadow (both paths)",
        "no_redirect": "testing build: direct trampoline + decision, never answers",
        "no_redirect_ftrace": "testing build: ftrace ops trampoline + callback, never redirects"}
lines = []
plot = []
for clock in ("icount", "wall"):
    sel = [r for r in rows if r["clock"] == clock and int(r["round"]) > 1]
    if not sel:
        continue
    label = "instruction time (-icount shift=0,sleep=off)" if clock == "icount" else "wall-clock (indicative only, TCG noise ~20 %)"
    lines.append(f"### {label}\n")
    for load in ("pipe", "msg"):
        base = [float(r["ops_per_sec"]) for r in sel if r["load"] == load and r["setting"] == "none"]
        if not base:
            continue
        b = st.median(base)
        lines.append(f"`wakeload {'pipe -p 1' if load == 'pipe' else 'msg --pipes -g 1 -s 2 -r 2'}`, {len(base)} rounds after a warm-up:\n")
        lines.append("| setting | ops/s median | min..max | vs no module |")
        lines.append("|---|---|---|---|")
        for s in order:
            v = [float(r["ops_per_sec"]) for r in sel if r["load"] == load and r["setting"] == s]
            if not v:
                continue
            med = st.median(v)
            lines.append(f"| {what[s]} | {med:,.0f} | {min(v):,.0f}..{max(v):,.0f} | {med / b:.3f} |")
            plot.append((clock, load, s, med / b, min(v) / b, max(v) / b))
        lines.append("")
selfrows = list(csv.DictReader(open(f"{out}/self.csv")))
sel = [r for r in selfrows if r["clock"] == "icount" and int(r["round"]) > 1]
if sel:
    lines.append("`self_ns_per_call` of the module's path (local_clock around 1 call in 64, both loads; "
                 "under icount a ns is about one instruction):\n")
    lines.append("| setting | median | min..max |")
    lines.append("|---|---|---|")
    for s in order:
        v = [float(r["self_ns_per_call"]) for r in sel if r["setting"] == s and r["self_ns_per_call"] not in ("", "missing")]
        if v:
            lines.append(f"| {what[s]} | {st.median(v):,.0f} | {min(v):,.0f}..{max(v):,.0f} |")
    lines.append("")
costrows = list(csv.DictReader(open(f"{out}/cost.csv")))
for clock in ("icount", "wall"):
    sel = [r for r in costrows if r["clock"] == clock and int(r["round"]) > 1 and r["module_kernel_ratio"] not in ("", "missing")]
    if not sel:
        continue
    lines.append(f"The path per call against the kernel's own ({clock}; policy=shadow: the module's evaluation and the kernel's "
                 "select_task_rq_fair() timed apart on the same sampled wakeups, 1 in 64; "
                 + ("a ns is about one instruction, caches and pipelines are not modelled" if clock == "icount" else "indicative only")
                 + "):\n")
    lines.append("| module_ns_per_call | kernel_ns_per_call | module_kernel_ratio | min..max ratio |")
    lines.append("|---|---|---|---|")
    m = st.median(float(r["module_ns_per_call"]) for r in sel)
    k = st.median(float(r["kernel_ns_per_call"]) for r in sel)
    rs = [float(r["module_kernel_ratio"]) for r in sel]
    lines.append(f"| {m:,.0f} | {k:,.0f} | {st.median(rs):.3f} | {min(rs):.3f}..{max(rs):.3f} |")
    lines.append("")
open(f"{out}/summary.txt", "w").write("\n".join(lines) + "\n")
with open(f"{out}/plot.dat", "w") as f:
    for i, p in enumerate(plot):
        f.write(f'{i} "{p[0]} {p[1]} {p[2]}" {p[3]:.4f} {p[4]:.4f} {p[5]:.4f}\n')
print("\n".join(lines))
PY
if command -v gnuplot >/dev/null && [ -s "$out/plot.dat" ]; then
	n=$(wc -l <"$out/plot.dat")
	gnuplot -e "set terminal svg size 900,$((120 + n * 22)) font 'sans,11'; set output '$out/overhead.svg';
		set title 'smartwake overhead: ops/s relative to no module (median, min..max)';
		set style fill solid 0.5; set yrange [-1:$n]; set ytics nomirror font 'sans,9';
		set xrange [0.8:1.1]; set grid x; unset key;
		plot '$out/plot.dat' using 3:1:5:6:(0):(0):ytic(2) with xerrorbars" 2>/dev/null ||
		sw_log "gnuplot failed: no plot"
fi
{
	done_rounds=$(awk -F, '$1 == "icount" { if ($4 > n) n = $4 } END { print n + 0 }' "$csv")
	echo "commit $commit, $started, $rounds rounds of $secs s ($done_rounds completed)"
	[ ${#testing[@]} -gt 0 ] && echo "testing build"
} >"$out/meta.txt"
if [ $figs -eq 1 ] && [ -s "$out/summary.txt" ]; then
	write_figures "$out"
fi
sw_log "overhead results in $out"
exit $rc
