#!/usr/bin/env bash
# The overhead experiment (part of make bench; also scripts/bench.sh
# --overhead): what the module costs the tightest wakeup loops. A 2-vCPU
# stock guest booted with nokaslr runs guest/overhead.sh: no module, loaded
# at the default knobs, each observer on alone (ttwu_count=1, sis_filter=1,
# latency=1: the wakeup-latency probes, trace events), policy=smartwake at
# mainline knobs, the kernel's own sched_waking + sched_wakeup events with
# the module at its defaults (sched_trace: the reference for the
# trace-events row) and policy=shadow (if the module has it), interleaved
# round by round, on wakeload pipe -p 1 (ping-pong) and
# msg --pipes -g 1 -s 2 -r 2 (M:N). First under
# -icount shift=0,sleep=off (guest time counts instructions: repeatable to
# about 1 % within a boot, about 3 % across boots; no caches, no pipeline:
# instruction counts stand in for cost, not for cache effects), then
# wall-clock (indicative only, one boot). Per boot: medians over the
# rounds after the first (a warm-up), ratio to that boot's no module;
# over several boots the median of the boots' ratios and their min..max.
# Writes DIR/overhead.csv, self.csv, cost.csv (a clock and a boot column),
# DIR/summary.txt, DIR/overhead.svg (gnuplot, if present) and the figures
# section "overhead" ("overhead-split" with --testing).
#
# --boots N boots the icount guest N times (r1..rN), each rotating the
# settings' order round by round; --fixed M adds M icount boots (f1..fM)
# that run the settings in the same order every round (does the result
# depend on the rotation?). Each boot has its own log,
# DIR/guest-icount-r1.log, ...; the wall clock's is DIR/guest-wall-r1.log.
# --jobs J runs J icount boots at once (default 1): icount figures do not
# depend on what else the host runs, so on 2 cores --jobs 2 halves the
# time. The wall-clock boot always runs alone, after them.
#
# --testing loads the testing build and adds "no_redirect" and
# "no_redirect_ftrace": the select hook alone, direct call or ftrace ops
# trampoline (it decides, never answers), and "latency_empty": latency=1's
# probes attached but returning at once (what the tracepoints cost before
# the probes do anything). Its figures go to section "overhead-split" of
# Documentation/overhead-split.md.
#
# --report DIR writes DIR's summary into figures.md again, measuring nothing.
# --summarise DIR makes DIR's summary.txt (and plot) again from its CSVs
# and prints it, measuring nothing and writing no figures.
#
# --loads "pipe" measures the ping-pong only (the M:N load's icount ratios
# move with the order the two vCPUs interleave: several % between rounds).
#
# --settings "A B ..." runs only these settings (guest/overhead.sh's names)
# and no module, in that order: a shorter run for the rows a change moves.
# Its figures go to section "overhead-subset", so the full table stays.
#
# Usage: scripts/overhead.sh [--rounds N] [--secs S] [--boots N] [--fixed M]
#                            [--jobs J] [--out DIR] [--no-wall] [--no-figures]
#                            [--testing] [--loads "pipe msg"]
#                            [--settings "trace trace64 ..."]
#        scripts/overhead.sh --report DIR | --summarise DIR
. "$(dirname "$0")/common.sh"

rounds=7 secs=1 out= wall=1 figs=1 testing=() report= summarise= loads="pipe msg" boots=1 fixed=0 jobs=1 only=
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--secs) secs=$2; shift 2 ;;
	--boots) boots=$2; shift 2 ;;
	--fixed) fixed=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--no-wall) wall=0; shift ;;
	--no-figures) figs=0; shift ;;
	--testing) testing=(--ko build/testing/module/smartwake.ko); shift ;;
	--report) report=$2; shift 2 ;;
	--summarise) summarise=$2; shift 2 ;;
	--loads) loads=$2; shift 2 ;;
	--settings) only=$2; shift 2 ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done
[[ $rounds =~ ^[2-9]$|^[1-9][0-9]+$ ]] || sw_die "--rounds: 2 or more"
[[ $boots =~ ^[1-9][0-9]*$ ]] || sw_die "--boots: a whole number, 1 or more (got '$boots')"
[[ $fixed =~ ^(0|[1-9][0-9]*)$ ]] || sw_die "--fixed: a whole number, 0 or more (got '$fixed')"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || sw_die "--jobs: a whole number, 1 or more (got '$jobs')"
[[ $loads =~ ^(pipe|msg)( (pipe|msg))*$ ]] || sw_die "--loads: pipe and/or msg"
[[ -z $only || $only =~ ^[a-z0-9_+]+( [a-z0-9_+]+)*$ ]] || sw_die "--settings: names separated by spaces (got '$only')"
# what is measured: the tree as it is now, not when the run ends
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- module include guest tools 2>/dev/null || echo "+changes")
started=$(date -Is)
cd "$SW_TOP" || exit

# write_figures DIR: DIR's summary as the figures section "overhead", or
# "overhead-split" for the testing build's run (--testing), which goes to
# the long listing Documentation/overhead-split.md (figures.md's size)
write_figures() {
	local build=shipped sec=overhead title="Hook cost: the overhead experiment"
	local doc=()
	if grep -q '^testing' "$1/meta.txt" 2>/dev/null; then
		doc=(--doc Documentation/overhead-split.md)
		build="testing (--testing: adds no_redirect, no_redirect_ftrace, latency_empty)"
		sec=overhead-split
		title="Hook cost split: the hook alone, the latency probes' floor (testing build)"
	fi
	if grep -q '^settings ' "$1/meta.txt" 2>/dev/null; then
		sec=$sec-subset
		title="$title, some settings only ($(sed -n 's/^settings //p' "$1/meta.txt"))"
	fi
	{
		echo "## $title"
		echo
		echo "scripts/overhead.sh, $(head -n 1 "$1/meta.txt" 2>/dev/null); medians of all rounds but the"
		echo "first, per boot of a 2-vCPU stock guest with nokaslr; module build: $build; results in $1."
		echo
		cat "$1/summary.txt"
	} | scripts/figures.sh "${doc[@]}" "$sec" -
}

# summarise DIR: DIR/overhead.csv, self.csv and cost.csv into
# DIR/summary.txt, DIR/plot.dat and (gnuplot) DIR/overhead.svg; prints the
# summary. CSVs without a boot column (before --boots) are one boot, r1.
summarise() {
	python3 - "$1" <<'PY' || return 1
import csv, re, sys, statistics as st
out = sys.argv[1]

def read_rows(name):
    try:
        rows = list(csv.DictReader(open(f"{out}/{name}")))
    except FileNotFoundError:
        return []
    for r in rows:
        r.setdefault("boot", "r1")
        if not r["boot"]:
            r["boot"] = "r1"
    return rows

def bootkey(b):
    # r1..rN (rotating) first, then f1..fM (fixed order)
    m = re.fullmatch(r"([a-z]+)(\d+)", b)
    return (0 if b.startswith("r") else 1, int(m.group(2)) if m else 0, b)

def boots_of(rows):
    return sorted({r["boot"] for r in rows}, key=bootkey)

def kinds(bs):
    # "4 boots (3 rotating, 1 fixed-order)", "3 rotating boots"
    r = sum(1 for b in bs if b.startswith("r"))
    parts = [x for x in (f"{r} rotating" if r else "", f"{len(bs) - r} fixed-order" if len(bs) > r else "") if x]
    s = "s" if len(bs) > 1 else ""
    return f"{len(bs)} boot{s} ({', '.join(parts)})" if len(parts) > 1 else f"{parts[0]} boot{s}"

rows = read_rows("overhead.csv")
order = ["none", "defaults", "ttwu_count", "sis_filter", "sis_filter_tick", "latency", "latency64", "latency_empty", "no_redirect_ftrace", "no_redirect",
         "smartwake_ftrace", "smartwake", "smartwake+trace", "trace", "trace64", "sched_trace", "sched_wakeup_trace", "shadow"]
what = {"none": "no module", "defaults": "loaded, default knobs (nothing hooked)",
        "ttwu_count": "ttwu_count=1 (pre-handler + csd_queue_cpu probe)", "sis_filter": "sis_filter=1, sis_mask_update=enqueue (tracepoint probe; policy stock)",
        "sis_filter_tick": "sis_filter=1, sis_mask_update=tick (sched_tick hook; policy stock)",
        "latency": "latency=1 (sched_wakeup/_new/switch probes; policy stock)",
        "latency64": "latency=1, latency_sample=64 (1 wakeup in 64 timed; policy stock)",
        "smartwake": "policy=smartwake, mainline knobs (select_hook=direct)",
        "smartwake_ftrace": "policy=smartwake, mainline knobs, select_hook=ftrace (ops redirect)",
        "smartwake+trace": "policy=smartwake + trace events on (before the combined event)",
        "trace": "policy=smartwake + its smartwake_wakeup event, every decided wakeup (trace_sample=1)",
        "trace64": "policy=smartwake + its smartwake_wakeup event, 1 decided wakeup in 64 (trace_sample=64)",
        "sched_trace": "kernel's own sched_waking + sched_wakeup events (module at defaults): reference for the trace-events row",
        "sched_wakeup_trace": "kernel's own sched_wakeup event alone (module at defaults): one ring-buffer event per wakeup",
        "latency_empty": "testing build: latency=1's probes attached, returning at once (the floor of the latency row)",
        "shadow": "policy=shadow (both paths)",
        "no_redirect": "testing build: direct trampoline + decision, never answers",
        "no_redirect_ftrace": "testing build: ftrace ops trampoline + callback, never redirects"}
lines = []
plot = []
for clock in ("icount", "wall"):
    sel = [r for r in rows if r["clock"] == clock and int(r["round"]) > 1]
    if not sel:
        continue
    bs = boots_of(sel)
    if clock == "icount":
        lines.append("### instruction time (-icount shift=0,sleep=off)\n")
        lines.append("Instruction time (icount) is one counter for all vCPUs: it measures work per operation, "
                     "never the gain of running on more CPUs at once or of cache locality.\n")
    else:
        lines.append("### wall-clock (indicative only, TCG noise ~20 %)\n")
    for load in ("pipe", "msg"):
        name = "pipe -p 1" if load == "pipe" else "msg --pipes -g 1 -s 2 -r 2"
        # per boot: the setting's rounds and that boot's own no-module median
        vals = {(b, s): [float(r["ops_per_sec"]) for r in sel if r["boot"] == b and r["load"] == load and r["setting"] == s]
                for b in bs for s in order}
        base = {b: st.median(vals[b, "none"]) for b in bs if vals[b, "none"]}
        if not base:
            continue
        if len(bs) == 1:
            b0 = bs[0]
            lines.append(f"`wakeload {name}`, {len(vals[b0, 'none'])} rounds after a warm-up:\n")
            lines.append("| setting | ops/s median | min..max | vs no module |")
            lines.append("|---|---|---|---|")
            for s in order:
                v = vals[b0, s]
                if not v:
                    continue
                med = st.median(v)
                b = base[b0]
                lines.append(f"| {what[s]} | {med:,.0f} | {min(v):,.0f}..{max(v):,.0f} | {med / b:.3f} |")
                plot.append((clock, load, s, med / b, min(v) / b, max(v) / b))
        else:
            nr = sorted({len(vals[b, "none"]) for b in base})
            nr = str(nr[0]) if len(nr) == 1 else f"{nr[0]}..{nr[-1]}"
            lines.append(f"`wakeload {name}`, {kinds(sorted(base, key=bootkey))}, {nr} rounds each after a warm-up; "
                         "a boot's ratio is the median of its rounds over the median of its own no-module rounds:\n")
            # both orders present: each order's own median beside the pooled one
            both = len({b[0] for b in base}) > 1
            lines.append("| setting | median ratio over boots | min..max over boots |"
                         + (" rotating / fixed-order median |" if both else "") + " each boot |")
            lines.append("|---|---|---|" + ("---|" if both else "") + "---|")
            for s in order:
                per = [(b, st.median(vals[b, s]) / base[b]) for b in bs if b in base and vals[b, s]]
                if not per:
                    continue
                rs = [x for _, x in per]
                med = st.median(rs)
                each = ", ".join(f"{b} {x:.3f}" for b, x in per)
                split = ""
                if both:
                    ro = [x for b, x in per if b.startswith("r")]
                    fo = [x for b, x in per if not b.startswith("r")]
                    split = " " + " / ".join(f"{st.median(v):.3f}" if v else "-" for v in (ro, fo)) + " |"
                lines.append(f"| {what[s]} | {med:.3f} | {min(rs):.3f}..{max(rs):.3f} |{split} {each} |")
                plot.append((clock, load, s, med, min(rs), max(rs)))
        lines.append("")
selfrows = read_rows("self.csv")
sel = [r for r in selfrows if r["clock"] == "icount" and int(r["round"]) > 1
       and r["self_ns_per_call"] not in ("", "missing")]
if sel:
    bs = boots_of(sel)
    over = "" if len(bs) == 1 else f", all rounds of {kinds(bs)} pooled"
    lines.append("`self_ns_per_call` of the module's path (local_clock around 1 call in 64, both loads; "
                 f"under icount a ns is about one instruction{over}):\n")
    lines.append("| setting | median | min..max |")
    lines.append("|---|---|---|")
    for s in order:
        v = [float(r["self_ns_per_call"]) for r in sel if r["setting"] == s]
        if v:
            lines.append(f"| {what[s]} | {st.median(v):,.0f} | {min(v):,.0f}..{max(v):,.0f} |")
    lines.append("")
costrows = read_rows("cost.csv")
for clock in ("icount", "wall"):
    sel = [r for r in costrows if r["clock"] == clock and int(r["round"]) > 1 and r["module_kernel_ratio"] not in ("", "missing")]
    if not sel:
        continue
    bs = boots_of(sel)
    lines.append(f"The path per call against the kernel's own ({clock}; policy=shadow: the module's evaluation and the kernel's "
                 "select_task_rq_fair() timed apart on the same sampled wakeups, 1 in 64; "
                 + ("a ns is about one instruction, caches and pipelines are not modelled" if clock == "icount" else "indicative only")
                 + ("" if len(bs) == 1 else f"; all rounds of {kinds(bs)} pooled, and each boot's median ratio") + "):\n")
    # module_kernel_ratio is the ratio of the medians (module/cost.c):
    # shown beside the medians (the _p50 lines), not the means; a run
    # from before the _p50 columns shows its means, labelled so
    p50 = all(r.get("module_ns_p50") not in (None, "", "missing") and
              r.get("kernel_ns_p50") not in (None, "", "missing") for r in sel)
    mcol, kcol = ("module_ns_p50", "kernel_ns_p50") if p50 else ("module_ns_per_call", "kernel_ns_per_call")
    m = st.median(float(r[mcol]) for r in sel)
    k = st.median(float(r[kcol]) for r in sel)
    rs = [float(r["module_kernel_ratio"]) for r in sel]
    head = f"| {mcol} | {kcol} | module_kernel_ratio (of the medians) | min..max ratio "
    if len(bs) == 1:
        lines.append(head + "|")
        lines.append("|---|---|---|---|")
        lines.append(f"| {m:,.0f} | {k:,.0f} | {st.median(rs):.3f} | {min(rs):.3f}..{max(rs):.3f} |")
    else:
        per = [(b, st.median(float(r["module_kernel_ratio"]) for r in sel if r["boot"] == b)) for b in bs]
        pr = [x for _, x in per]
        lines.append(head + "| median ratio over boots | min..max over boots | each boot |")
        lines.append("|---|---|---|---|---|---|---|")
        lines.append(f"| {m:,.0f} | {k:,.0f} | {st.median(rs):.3f} | {min(rs):.3f}..{max(rs):.3f} "
                     f"| {st.median(pr):.3f} | {min(pr):.3f}..{max(pr):.3f} | "
                     + ", ".join(f"{b} {x:.3f}" for b, x in per) + " |")
    lines.append("")
open(f"{out}/summary.txt", "w").write("\n".join(lines) + "\n")
with open(f"{out}/plot.dat", "w") as f:
    for i, p in enumerate(plot):
        f.write(f'{i} "{p[0]} {p[1]} {p[2]}" {p[3]:.4f} {p[4]:.4f} {p[5]:.4f}\n')
print("\n".join(lines))
PY
	if command -v gnuplot >/dev/null && [ -s "$1/plot.dat" ]; then
		local n
		n=$(wc -l <"$1/plot.dat")
		gnuplot -e "set terminal svg size 900,$((120 + n * 22)) font 'sans,11'; set output '$1/overhead.svg';
			set title 'smartwake overhead: ops/s relative to no module (median, min..max; over boots when several)';
			set style fill solid 0.5; set yrange [-1:$n]; set ytics nomirror font 'sans,9';
			set xrange [0.8:1.1]; set grid x; unset key;
			plot '$1/plot.dat' using 3:1:5:6:(0):(0):ytic(2) with xerrorbars" 2>/dev/null ||
			sw_log "gnuplot failed: no plot"
	fi
}
if [ -n "$report" ]; then
	[ -s "$report/summary.txt" ] || sw_die "no $report/summary.txt"
	write_figures "$report"
	exit 0
fi
if [ -n "$summarise" ]; then
	[ -s "$summarise/overhead.csv" ] || sw_die "no $summarise/overhead.csv"
	summarise "$summarise"
	exit
fi
[ -n "$out" ] || out=results/overhead-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
csv=$out/overhead.csv
echo "clock,boot,setting,load,round,ops_per_sec" >"$csv"
echo "clock,boot,setting,round,self_ns_per_call" >"$out/self.csv"
echo "clock,boot,round,module_ns_per_call,kernel_ns_per_call,module_kernel_ratio,module_ns_p50,kernel_ns_p50" >"$out/cost.csv"
rc=0
# the boots, "CLOCK NAME ORDER" each: N rotating and M fixed-order under
# icount, one rotating on the wall clock
runs=()
for ((i = 1; i <= boots; i++)); do runs+=("icount r$i rotate"); done
for ((i = 1; i <= fixed; i++)); do runs+=("icount f$i fixed"); done
[ $wall -eq 1 ] && runs+=("wall r1 rotate")
# boot CLOCK NAME ORDER: one guest; its exit status in DIR/guest-CLOCK-NAME.rc
# (errexit and pipefail are on: a guest that fails, or prints no result
# line, must be recorded, not end the experiment)
boot() {
	local m=$1 b=$2 ord=$3 log=$out/guest-$1-$2.log opts st=0
	opts=(--topo smp2 --append nokaslr --timeout 3600 --log "$log")
	[ "$m" = icount ] && opts+=(--icount)
	sw_log "overhead: $m clock, boot $b ($ord order), $rounds rounds of ${secs} s"
	{
		scripts/guest-run.sh "${opts[@]}" "${testing[@]}" overhead.sh "$rounds" "$secs" \
			"${testing:+testing}" "$loads" "$ord" "$only" || st=$?
		echo "$st" >"$out/guest-$m-$b.rc"
	} | grep -E 'passed|FAIL' || :
}
for run in "${runs[@]}"; do
	read -r m b ord <<<"$run"
	if [ "$m" = icount ] && [ "$jobs" -gt 1 ]; then
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
		boot "$m" "$b" "$ord" &
	else
		wait
		boot "$m" "$b" "$ord"
	fi
done
wait
# the CSVs in the boots' order, whichever finished first
for run in "${runs[@]}"; do
	read -r m b ord <<<"$run"
	log=$out/guest-$m-$b.log
	[ "$(cat "$out/guest-$m-$b.rc" 2>/dev/null)" = 0 ] ||
		{ sw_log "overhead guest ($m, $b) failed"; rc=1; }
	sed -n "s/^SMARTWAKE-OVH,/$m,$b,/p" "$log" >>"$csv"
	sed -n "s/^SMARTWAKE-OVH-SELF,/$m,$b,/p" "$log" >>"$out/self.csv"
	sed -n "s/^SMARTWAKE-OVH-COST,/$m,$b,/p" "$log" >>"$out/cost.csv"
done

summarise "$out" || rc=1
{
	# rounds completed: the fewest of any icount boot that reported
	done_rounds=$(awk -F, 'NR > 1 && $1 == "icount" { if ($5 > n[$2]) n[$2] = $5 }
		END { m = -1; for (b in n) if (m < 0 || n[b] < m) m = n[b]; print m < 0 ? 0 : m }' "$csv")
	nb="icount: $boots rotating boot$([ "$boots" -eq 1 ] || echo s)"
	[ "$fixed" -eq 0 ] || nb+=" + $fixed fixed-order boot$([ "$fixed" -eq 1 ] || echo s)"
	[ "$jobs" -eq 1 ] || nb+=" ($jobs at a time)"
	[ $wall -eq 0 ] || nb+=", wall: 1 rotating boot"
	echo "commit $commit, $started, $rounds rounds of $secs s ($done_rounds completed), $nb"
	[ ${#testing[@]} -gt 0 ] && echo "testing build"
	[ -z "$only" ] || echo "settings $only"
} >"$out/meta.txt"
if [ $figs -eq 1 ] && [ -s "$out/summary.txt" ]; then
	write_figures "$out"
fi
sw_log "overhead results in $out"
exit $rc
