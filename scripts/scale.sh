#!/usr/bin/env bash
# The cost curve (issue 61, make scale): instructions per wakeup of the
# wakeup path as the machine grows, from the exact instruction profile
# (scripts/insnprof.sh: a QEMU TCG plugin counts every kernel block the
# guest executes; each vCPU's own instructions, no clock involved).
#
# For each topology: three icount boots under a pipe load sized to the
# machine (CPUs / 2 pairs), with the module off (setting none: the
# kernel's select_task_rq_fair), policy=smartwake (the module's path) and
# policy=shadow (both paths on the same wakeups). Per call of
# select_task_rq_fair (the block at its first byte: it runs in every
# setting, the module's hook sits on it; twice a wakeup under shadow,
# which calls the kernel's function again, so there per two calls):
#   kernel   select_task_rq_fair (the inlined wake_affine and
#            select_idle_sibling in it) and the out-of-line helpers a
#            wakeup calls (HELPERS below), setting none
#   module   every module function, select_task_rq_fair's hooked entry
#            and the helpers, policy=smartwake
#   shadow   the same, policy=shadow
# The helpers are also called outside the wakeup path (load balancing,
# idle): they are counted alike in every setting. Goals: module <= 1.05
# kernel; shadow <= 1.10 (kernel + module). sw_rq_seq, shadow's race
# snapshot, is printed on its own (the one O(LLC) part of shadow). A
# second table splits policy=smartwake's module instructions by concern
# (scripts/insnprof.sh --concerns): the copy of the kernel's logic against
# the kernel's path, and the module's own work (hook, scope checks,
# counters, undo state, switches, the reach probe) beside it.
# Single-threaded TCG runs all vCPUs on one host thread: a boot of 128
# CPUs takes minutes here.
#
# Usage: scripts/scale.sh [--topos LIST] [--secs S] [--out DIR]
#          [--report DIR] [--before DIR] [--no-figures]
#   --topos   topologies (scripts/guest-run.sh --topo), comma-separated
#             (default smp4,llc16,llc64,2s2l8c2t,4s1l8c2t,2s2l16c2t)
#   --secs    guest seconds of load per boot (default 1)
#   --out     results directory (default results/scale-DATE)
#   --report  an earlier run's table again, measuring nothing (and
#             writing no figures: --out DIR writes them from DIR's runs)
#   --before  an earlier run (another build of the module) whose table
#             goes into the section too, as the before of a change
#   A directory that already holds a setting's report.txt is reused
#   (e.g. none and smartwake copied from --before when only shadow's
#   code changed).
#   --no-figures  do not write the scale section of Documentation/figures.md
. "$(dirname "$0")/common.sh"

topos=smp4,llc16,llc64,2s2l8c2t,4s1l8c2t,2s2l16c2t secs=1 out= again= figs=1 before=
while [ $# -gt 0 ]; do
	case $1 in
	--topos) topos=$2; shift 2 ;;
	--secs) secs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--report) again=$2; shift 2 ;;
	--before) before=$2; shift 2 ;;
	--no-figures) figs=0; shift ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done
cd "$SW_TOP" || exit
# the kernel's out-of-line functions a wakeup may call, by name before any
# compiler suffix (select_idle_core.constprop.0 on Debian's 6.12)
HELPERS="available_idle_cpu idle_cpu cpus_share_cache cpu_util select_idle_core _find_next_and_bit _find_next_bit _find_first_bit _find_first_and_bit __bitmap_and __bitmap_andnot __bitmap_weight __bitmap_intersects cpumask_next_wrap"

# cpus TOPO: the topology's CPUs
cpus() {
	case $1 in
	smp2) echo 2 ;;
	smp4|flat4) echo 4 ;;
	smt8|numa2|numa-smt) echo 8 ;;
	llc*) echo "${1#llc}" ;;
	*) [[ $1 =~ ^([0-9]+)s([0-9]+)l([0-9]+)c([0-9]+)t$ ]] &&
		echo $((BASH_REMATCH[1] * BASH_REMATCH[2] * BASH_REMATCH[3] * BASH_REMATCH[4])) ;;
	esac
}

# table DIR: the curve's markdown from DIR's runs (DIR/TOPO-SETTING)
table() {
	local d=$1 t s
	for t in ${topos//,/ }; do
		for s in none smartwake shadow; do
			[ -d "$d/$t-$s" ] || continue
			echo "RUN $t $s $(cpus "$t") $(cat "$d/$t-$s/boot-secs" 2>/dev/null || echo 0)"
			scripts/insnprof.sh --report "$d/$t-$s" --per calls:select_task_rq_fair --top 100000
		done
	done | python3 -c "$(cat <<'PY'
import re, sys
helpers = set(sys.argv[1].split())
runs, cur = {}, None
for line in sys.stdin:
    if line.startswith("RUN "):
        _, t, s, n, boot = line.split()
        cur = runs.setdefault(t, {"cpus": int(n), "boot": {}})
        cur[s] = {}
        cur["boot"][s] = int(boot)
        key = s
        continue
    m = re.match(r"^(\S+)\s+([\d,]+)\s+([\d,.]+)\s+[\d.]+%( \[smartwake\])?$", line)
    if m and cur is not None:
        # shadow calls the kernel's function again: two entries a wakeup
        v = float(m.group(3).replace(",", "")) * (2 if key == "shadow" else 1)
        cur[key][m.group(1)] = (v, bool(m.group(4)))
    m = re.match(r"^# kernel instructions in the window: [\d,]+; calls:select_task_rq_fair = ([\d,]+)", line)
    if m and cur is not None:
        cur[key]["#calls"] = (int(m.group(1).replace(",", "")) // (2 if key == "shadow" else 1), False)

def path(p, module):
    k = sum(v for n, (v, mod) in p.items()
            if not mod and (n.split(".")[0] in helpers or n == "select_task_rq_fair"))
    return k + (sum(v for n, (v, mod) in p.items() if mod) if module else 0)

rows = []
for t, r in runs.items():
    if not all(s in r for s in ("none", "smartwake", "shadow")):
        continue
    k, m, sh = path(r["none"], False), path(r["smartwake"], True), path(r["shadow"], True)
    seq = r["shadow"].get("sw_rq_seq", (0.0, True))[0]
    calls = " / ".join(f'{r[s].get("#calls", (0, 0))[0]:,}' for s in ("none", "smartwake", "shadow"))
    rows.append((r["cpus"], t, k, m, sh, seq, calls, max(r["boot"].values())))
rows.sort()
print("| CPUs | topology | wakeups in the window (kernel / module / shadow) | kernel | module | shadow | sw_rq_seq in shadow | module / kernel | shadow / (kernel + module) | goals | longest run (wall) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
fails = 0
for n, t, k, m, sh, seq, calls, boot in rows:
    r1, r2 = m / k, sh / (k + m)
    ok = r1 <= 1.05 and r2 <= 1.10
    fails += not ok
    print(f"| {n} | {t} | {calls} | {k:,.0f} | {m:,.0f} | {sh:,.0f} | {seq:,.0f} | {r1:.3f} | {r2:.3f} | {'met' if ok else 'MISSED'} | {boot} s |")
print()
print("Instructions per call of select_task_rq_fair (bars: one `#` per 50):")
print()
print("```")
for n, t, k, m, sh, seq, calls, boot in rows:
    for name, v in (("kernel", k), ("module", m), ("shadow", sh)):
        print(f"{n:>4} {t:<9} {name:<7}{v:7,.0f} {'#' * int(round(v / 50))}")
print("```")
print(f"\nRATIO-FAILS {fails}", file=sys.stderr)
PY
)" "$HELPERS"
}

# same DIR: policy=shadow's own figures in each shadow boot: both paths
# on the same wakeups, 1 call in 64 per CPU timed with local_clock(),
# which under -icount shift=0 counts instructions
same() {
	local d=$1 t f
	echo "| CPUs | topology | compared | disagreements | the copy, p50 | the kernel, p50 | module_kernel_ratio (medians) | p99: the copy / the kernel | means: the copy / the kernel | goal (medians <= 1.05) |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for t in ${topos//,/ }; do
		f=$d/$t-shadow/stats.txt
		[ -s "$f" ] || continue
		awk -v t="$t" -v n="$(cpus "$t")" '{ v[$1] = $2 }
			END { printf "| %s | %s | %d | %d | %d | %d | %s | %d / %d | %.3f | %s |\n", n, t,
				v["shadow_compared"], v["shadow_disagree"], v["module_ns_p50"],
				v["kernel_ns_p50"], v["module_kernel_ratio"],
				v["module_ns_p99"], v["kernel_ns_p99"],
				v["kernel_ns_per_call"] ? v["module_ns_per_call"] / v["kernel_ns_per_call"] : 0,
				v["module_kernel_ratio"] != "" && v["module_kernel_ratio"] + 0 <= 1.05 ? "met" : "MISSED" }' "$f"
	done
}

# concerns DIR: where the module's instructions go (policy=smartwake),
# by concern (scripts/insnprof.sh --concerns), beside the kernel's path
concerns() {
	local d=$1 t
	for t in ${topos//,/ }; do
		[ -d "$d/$t-smartwake" ] && [ -d "$d/$t-none" ] || continue
		echo "RUN $t"
		scripts/insnprof.sh --concerns "$d/$t-smartwake" --per calls:select_task_rq_fair || return
		echo "KERNEL"
		scripts/insnprof.sh --report "$d/$t-none" --per calls:select_task_rq_fair --top 100000
		echo "HELPERS"
		scripts/insnprof.sh --report "$d/$t-smartwake" --per calls:select_task_rq_fair --top 100000
	done | python3 -c "$(cat <<'PY'
import re, sys
helpers = set(sys.argv[1].split()) | {"select_task_rq_fair"}
cols, cur, part = [], None, None
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("RUN "):
        cur = {"topo": line.split()[1], "concerns": [], "kernel": 0.0, "helpers": 0.0}
        cols.append(cur)
        part = "concerns"
        continue
    if line in ("KERNEL", "HELPERS"):
        part = line.lower()
        continue
    m = re.match(r"^# module functions: ([\d,.]+) per", line)
    if m and part == "helpers":
        cur["modfns"] = float(m.group(1).replace(",", ""))
    if cur is None or line.startswith("#"):
        continue
    if part == "concerns" and "\t" in line:
        c, v = line.split("\t")
        cur["concerns"].append((c, float(v)))
        continue
    m = re.match(r"^(\S+)\s+[\d,]+\s+([\d,.]+)\s+[\d.]+%$", line)
    if m and m.group(1).split(".")[0] in helpers:
        cur[part] += float(m.group(2).replace(",", ""))
if not cols:
    sys.exit(0)
for c in cols:
    # every executed module instruction has one concern
    tot = sum(v for _, v in c["concerns"])
    if abs(tot - c.get("modfns", 0)) > 0.005 * tot + 0.5:
        sys.exit(f"concerns of {c['topo']}: {tot:.1f} against {c.get('modfns', 0):.1f} module instructions in the profile")
# every concern of any column (the "other: FUNCTION" rows differ)
names = []
for c in cols:
    names += [n for n, _ in c["concerns"] if n not in names]
copy = "the copy of the kernel's logic"
def row(label, vals, fmt="{:,.0f}"):
    print(f"| {label} | " + " | ".join(fmt.format(v) for v in vals) + " |")
print("| instructions per call of select_task_rq_fair | " + " | ".join(c["topo"] for c in cols) + " |")
print("|---|" + "---|" * len(cols))
row("kernel: select_task_rq_fair and its helpers (setting none)", [c["kernel"] for c in cols])
get = lambda c, n: dict(c["concerns"]).get(n, 0.0)
row("module: the copy of the kernel's logic (module code)", [get(c, copy) for c in cols])
row("module: kernel code the copy calls (helpers, the hooked entry)", [c["helpers"] for c in cols])
row("**the copy / the kernel**", [(get(c, copy) + c["helpers"]) / c["kernel"] for c in cols], "{:.3f}")
mach = [n for n in names if n != copy]
for n in mach:
    row(f"module: {n}", [get(c, n) for c in cols])
row("**the module's own work (the rows above but the copy)**", [sum(get(c, n) for n in mach) for c in cols])
row("module: every row (scale's module column)", [sum(get(c, n) for n in names) + c["helpers"] for c in cols])
PY
)" "$HELPERS"
}

if [ -n "$again" ]; then
	table "$again"
	echo
	same "$again"
	echo
	concerns "$again"
	exit
fi

[ -n "$out" ] || out=results/scale-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
for t in ${topos//,/ }; do
	n=$(cpus "$t")
	[ -n "$n" ] || sw_die "--topos: unknown topology $t"
	pairs=$((n / 2))
	for s in none smartwake shadow; do
		[ -s "$out/$t-$s/report.txt" ] && continue
		start=$(date +%s)
		SW_INSNPROF_TIMEOUT=$((900 + 20 * n)) nice -n 10 scripts/insnprof.sh --setting "$s" \
			--load pipe --size "$pairs" --topo "$t" --secs "$secs" --out "$out/$t-$s" --top 5 ||
			sw_die "insnprof failed: $t $s (log: $out/$t-$s/guest.log)"
		echo $(($(date +%s) - start)) >"$out/$t-$s/boot-secs"
	done
done
table "$out" | tee "$out/table.md"
if [ "$figs" = 1 ]; then
	{
		echo "The cost curve (\`make scale\`, \`scripts/scale.sh --topos $topos --secs $secs\`):"
		echo "instructions per wakeup from the exact instruction profile"
		echo "(scripts/insnprof.sh, icount), pipe load of CPUs / 2 pairs; kernel: setting"
		echo "none; module: policy=smartwake; shadow: policy=shadow (see scripts/scale.sh)."
		echo "The last column is the wall time of the longest of the three insnprof runs (boot, load, profile) on this shared host."
		echo "Each setting is a boot of its own, and a boot settles into its own mix: how busy the CPUs are,"
		echo "how often a wakeup scans an LLC. The per-call figures follow the mix (the wakeups column shows"
		echo "how far apart the boots were); the comparison on the same wakeups is policy=shadow's pair of"
		echo "medians (guest/cost.sh, sections cost-64 and cost-64-boots)."
		echo
		cat "$out/table.md"
		echo
		echo "The same wakeups: policy=shadow's own figures in each shadow boot. Both paths decide every"
		echo "wakeup; 1 call in 64 per CPU times each half with local_clock(), which under"
		echo "-icount shift=0 counts instructions (the copy's decision against the kernel's function,"
		echo "without the hook, the checks and the counters around them; each half also holds one"
		echo "local_clock() read, alike on both sides; medians, as in cost-64). A sample taken while its"
		echo "vCPU was switched out counts other vCPUs' instructions (one icount clock for all): the means"
		echo "carry those samples, the medians and p99 do not:"
		echo
		same "$out"
		echo
		echo "Where the module's instructions go, policy=smartwake (\`scripts/insnprof.sh --concerns\`:"
		echo "each executed instruction of the module goes to the innermost function of its inline"
		echo "chain that the script's CONCERNS table names). The copy of the kernel's logic is"
		echo "compared with the kernel's path of the same size; the module's own work is what a hooked"
		echo "module that counts every decision adds to it, and it should not grow with the machine:"
		echo
		concerns "$out"
		if [ -n "$before" ]; then
			echo
			echo "Before, the same runs with the module of $(sed -n 's/.*commit \([^,]*\),.*/\1/p' "$before"/*-shadow/meta.txt | sort -u | tr '\n' ' ')(\`--before\`):"
			echo
			table "$before" 2>/dev/null
		fi
		echo
		echo "Runs: $(for t in ${topos//,/ }; do cat "$out/$t"-{none,smartwake,shadow}/meta.txt; done |
			sed -n 's/^setting \([^,]*\),.*topology \([^,]*\),.*commit \([^,]*\),.*/\2 \1 \3/p' | tr '\n' ';' | sed 's/;$//; s/;/; /g')."
		# runs of several commits compare only if the module is the same
		commits=$(for t in ${topos//,/ }; do cat "$out/$t"-{smartwake,shadow}/meta.txt; done |
			sed -n 's/.*commit \([0-9a-f]*\)[,+].*/\1/p' | sort -u)
		first=$(echo "$commits" | head -n 1) same=1
		for c in $commits; do
			git diff --quiet "$first" "$c" -- module include Kbuild 2>/dev/null || same=0
		done
		[ "$same" = 1 ] && echo "The module's source (module/, include/, Kbuild) is the same at the commits of the smartwake and shadow runs." ||
			echo "The module's source differs between the commits of the smartwake and shadow runs: compare with care."
	} | scripts/figures.sh scale -
fi
