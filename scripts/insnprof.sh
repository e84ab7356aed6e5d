#!/usr/bin/env bash
# The instruction profile (issue 32): which kernel and module functions
# the guest executes, in instructions, during one wakeload run, per
# wakeup. A QEMU TCG plugin of the project's own (tools/insnprof/)
# counts every kernel translation block's executions; the guest calls
# sync(2) before and after the run, and the plugin writes a snapshot each
# time the kernel enters __x64_sys_sync. The host subtracts the two
# snapshots and maps block addresses to symbols: the kernel's from a
# first boot (nokaslr: the same addresses in every boot of this kernel,
# cached in build/insnprof/), the module's from the measured boot.
#
# An instruction count, exactly (TCG executes the guest's instructions;
# the guest runs under -icount): no caches, no pipeline, no branch
# prediction. Instructions are counted on all vCPUs together. Inlined
# code is charged to the function it was inlined into; a block the
# kernel reached through a trampoline outside any symbol is [unknown].
#
# Usage: scripts/insnprof.sh [--setting none|stock|smartwake|shadow|latency|ttwu_count
#          |latency64|smartwake_ftrace|trace|trace64|sched_wakeup_trace]
#          [--load pipe|msg] [--secs S] [--top N] [--out DIR]
#          [--topo NAME] [--size N]
#          [--per COUNTER] [--diff DIR_A DIR_B] [--annotate FUNCTION DIR]
#          [--concerns DIR] [--report DIR]
#   --setting  module state during the run (default shadow: both paths
#              on the same wakeups; latency, ttwu_count: policy stock and
#              that observer on; latency64: latency=1 with latency_sample=64;
#              smartwake_ftrace: select_hook=ftrace; trace: smartwake
#              with its smartwake_wakeup event on, every decided wakeup;
#              trace64: the same, trace_sample=64; sched_wakeup_trace:
#              the kernel's own sched_wakeup event on, module at its
#              defaults)
#   --topo     the guest's topology (scripts/guest-run.sh --topo; default
#              smp2)
#   --size     the load's size: pipe pairs (pipe) or message groups (msg)
#              (default 1)
#   --per      divide by this counter of the module's stats (default
#              wakeups), or by calls:FUNCTION, the executions of the
#              block at FUNCTION's first byte (e.g.
#              calls:select_task_rq_fair, with any setting)
#   --diff A B compare two earlier runs' profiles, per function, measuring
#              nothing (instructions per wakeup of B minus A)
#   --annotate F DIR
#              an earlier run's blocks inside function F: offset, length,
#              executions and instructions per --per (read them beside
#              objdump -d of the module or vmlinux), measuring nothing
#   --concerns DIR
#              an earlier run's module instructions per --per, by concern
#              (the hook, the wakeups it takes, counters, undo state,
#              switches, the copy of the kernel's logic, shadow, the reach
#              probe): each executed instruction goes to the innermost
#              function of its inline chain (addr2line) that CONCERNS
#              below names; needs the run's module (DIR/smartwake.ko, or
#              module/smartwake.ko if its symbols sit where the run's did)
#   --report DIR  an earlier run's report again, measuring nothing
. "$(dirname "$0")/common.sh"

setting=shadow load=msg secs=2 top=40 out= per=wakeups diff=() annotate=() again= topo=smp2 size=1 concerns=
while [ $# -gt 0 ]; do
	case $1 in
	--setting) setting=$2; shift 2 ;;
	--load) load=$2; shift 2 ;;
	--secs) secs=$2; shift 2 ;;
	--top) top=$2; shift 2 ;;
	--topo) topo=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--per) per=$2; shift 2 ;;
	--diff) diff=("$2" "$3"); shift 3 ;;
	--annotate) annotate=("$2" "$3"); shift 3 ;;
	--report) again=$2; shift 2 ;;
	--concerns) concerns=$2; shift 2 ;;
	-h|--help) sw_help "$0"; exit 0 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done
cd "$SW_TOP" || exit
[[ $setting =~ ^(none|stock|smartwake|shadow|latency|ttwu_count|latency64|smartwake_ftrace|trace|trace64|sched_wakeup_trace)$ ]] ||
	sw_die "--setting: none, stock, smartwake, shadow, latency, ttwu_count, latency64, smartwake_ftrace, trace, trace64 or sched_wakeup_trace"
[[ $load =~ ^(pipe|msg)$ ]] || sw_die "--load: pipe or msg"
[[ $secs =~ ^[1-9][0-9]*$ ]] || sw_die "--secs: a whole number of seconds"
[[ $size =~ ^[1-9][0-9]*$ ]] || sw_die "--size: a whole number of pairs or groups"

report() {
	python3 - "$@" <<'PY'
import bisect, os, sys
mode = sys.argv[1]

def window(d):
    """The run's symbols (sorted), their addresses, and each block's
    (address, length, executions, instructions) between the snapshots."""
    syms = []
    for f in (f"{d}/syms.txt", f"{d}/module-syms.txt"):
        for line in open(f):
            a, name = line.split()[:2]
            syms.append((int(a, 16), name))
    syms.sort()
    def snap(n):
        t = {}
        for line in open(f"{d}/prof.{n}"):
            if not line.startswith("#"):
                v, k, e, i = line.split()
                t[(int(v, 16), int(k))] = (int(e), int(i))
        return t
    s1, s2 = snap(1), snap(2)
    rows = []
    for (a, k), (e, i) in s2.items():
        e0, i0 = s1.get((a, k), (0, 0))
        if i - i0 > 0:
            rows.append((a, k, e - e0, i - i0))
    return syms, [a for a, _ in syms], rows

def owner(syms, addrs, a):
    i = bisect.bisect_right(addrs, a) - 1
    return syms[i][1] if i >= 0 and a - syms[i][0] < 0x100000 else "[unknown]"

def load_run(d):
    syms, addrs, rows = window(d)
    per_fn = {}
    entries = {}
    for a, _, ex, ins in rows:
        entries[a] = entries.get(a, 0) + ex
        name = owner(syms, addrs, a)
        per_fn[name] = per_fn.get(name, 0) + ins
    stats = {}
    if os.path.exists(f"{d}/stats.txt"):
        for line in open(f"{d}/stats.txt"):
            k, v = line.split()[:2]
            stats[k] = v
    mods = {n for _, n in (l.split()[:2] for l in open(f"{d}/module-syms.txt"))}
    # calls of a function: the executions of the block at its first byte
    for a, name in syms:
        if a in entries:
            stats.setdefault("calls:" + name, str(entries[a]))
    meta = open(f"{d}/meta.txt").read().strip()
    return per_fn, stats, mods, meta

def div(d, per):
    try:
        n = int(d[1].get(per, "0"))
    except ValueError:
        n = 0
    return n

def blocks(d, fn, n):
    syms, addrs, win = window(d)
    base = [a for a, name in syms if name == fn]
    if not base:
        sys.exit(f"--annotate: no symbol {fn}")
    rows = sorted((a - base[0], k, e / n, i / n) for a, k, e, i in win
                  if e > 0 and owner(syms, addrs, a) == fn)
    print(f"{fn}: {sum(r[3] for r in rows):,.1f} instructions per call of the divisor")
    print(f"{'offset':>8} {'length':>6} {'executions':>10} {'instructions':>12}")
    for off, m, e, i in rows:
        print(f"{'+0x%x' % off:>8} {m:6} {e:10.2f} {i:12.1f}")

# concern: the functions (inlined or not) whose instructions it owns; an
# instruction goes to the innermost function of its inline chain named
# here, else to the function it was compiled into (the last column)
CONCERNS = (
    ("hook: trampoline, frame, sampling tick",
     "sw_select_tramp sw_select_decide sw_select_body sw_select_task_rq_fair"),
    ("which wakeups it takes (scope, unmodelled cases)",
     "__sw_select_wanted_args sw_select_wanted_args sw_reach_seen "
     "sw_unmodelled sw_scope_has sw_testing_no_redirect"),
    ("counters",
     "sw_count sw_count_add sw_count_decided sw_locality_count "
     "sw_locality_on sw_cost_record sw_decided_take_back"),
    ("undo state and answer checks",
     "__sw_select_body sw_save sw_restore sw_testing_bad_answer"),
    ("policy, BPF and trace switches",
     "sw_lean sw_bpf_on sw_bpf_cbs_on trace_smartwake_wakeup_enabled "
     "sw_tracing sw_trace_begin sw_trace_end"),
    ("the copy of the kernel's logic",
     "sw_wake __sw_wake sw_select_idle_sibling __sw_select_idle_sibling "
     "sw_select_idle_one sw_task_h_load sw_do_wake_affine sw_wake_sync "
     "sw_select_idle_cpu sw_scan_one sw_sis_done sw_record sw_wake_ool "
     "sw_select_idle_core sw_select_idle_smt sw_test_idle_cores "
     "sw_clear_idle_cores"),
    ("shadow: the second path and the comparison",
     "sw_shadow sw_wake_shadow_again sw_wake_shadow_bpf sw_rq_seq "
     "sw_nr_running_probe sw_orig_select"),
    ("reach probe (sched_waking)", "sw_reach_waking"),
)
OWNER = {f: c for c, fs in CONCERNS for f in fs.split()}

def concerns(d, n, per):
    import subprocess
    ko = f"{d}/smartwake.ko"
    if not os.path.exists(ko):
        ko = "module/smartwake.ko"
    nm = {}
    for line in subprocess.run(["nm", ko], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tT":
            nm.setdefault(f[2], int(f[0], 16))
    run = {name: int(a, 16) for a, name in (l.split()[:2] for l in open(f"{d}/module-syms.txt"))}
    # .text's load address: the offset most symbols agree on (those of
    # .init.text and .exit.text, and static names used twice, do not)
    deltas = [run[s] - nm[s] for s in run if s in nm]
    text = max(set(deltas), key=deltas.count) if deltas else 0
    if deltas.count(text) < 0.9 * len(deltas):
        sys.exit(f"--concerns: {ko} is not the module of {d} (its symbols sit elsewhere): run insnprof again")
    syms, addrs, win = window(d)
    mods = set(run)
    # every executed instruction of a module block, with its executions
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-j", ".text", ko],
                         capture_output=True, text=True).stdout
    starts = []
    for line in dis.splitlines():
        f = line.split(":", 1)
        if len(f) == 2 and line.startswith("  ") and f[1].strip():
            try:
                starts.append(int(f[0], 16))
            except ValueError:
                pass
    starts.sort()
    w = {}
    for a, k, e, i in win:
        if e <= 0 or owner(syms, addrs, a) not in mods:
            continue
        j = bisect.bisect_left(starts, a - text)
        for x in starts[j:j + k]:
            w[x] = w.get(x, 0) + e
    out = subprocess.run(["addr2line", "-a", "-i", "-f", "-e", ko, "-j", ".text"] +
                         [hex(x) for x in sorted(w)], capture_output=True, text=True).stdout.splitlines()
    chains, cur, i = {}, None, 0
    while i < len(out):
        if out[i].startswith("0x"):
            cur = int(out[i], 16)
            chains[cur] = []
            i += 1
        else:
            chains[cur].append(out[i])
            i += 2
    per_c = {}
    for x, e in w.items():
        chain = chains.get(x, [])
        c = next((OWNER[f] for f in chain if f in OWNER), None)
        if c is None:
            c = "other: " + (chain[-1] if chain else "?")
        per_c[c] = per_c.get(c, 0) + e
    print(f"# module instructions by concern, per {per} ({n:,}); module {ko}")
    for c, _ in CONCERNS:
        print(f"{c}\t{per_c.pop(c, 0) / n:.1f}")
    for c, v in sorted(per_c.items(), key=lambda kv: -kv[1]):
        print(f"{c}\t{v / n:.1f}")

if mode == "concerns":
    d, per = sys.argv[2], sys.argv[3]
    per_fn, stats, mods, meta = load_run(d)
    n = div((None, stats), per)
    if not n:
        sys.exit(f"--concerns: counter {per} missing or 0")
    concerns(d, n, per)
elif mode == "annotate":
    d, fn, per = sys.argv[2], sys.argv[3], sys.argv[4]
    per_fn, stats, mods, meta = load_run(d)
    n = div((None, stats), per)
    if not n:
        sys.exit(f"--annotate: counter {per} missing or 0")
    print(f"# {meta}; per {per} ({n:,})")
    blocks(d, fn, n)
elif mode == "one":
    d, per, top = sys.argv[2], sys.argv[3], int(sys.argv[4])
    per_fn, stats, mods, meta = load_run(d)
    n = div((per_fn, stats), per)
    total = sum(per_fn.values())
    print(f"# {meta}")
    print(f"# kernel instructions in the window: {total:,}" + (f"; {per} = {n:,}" if n else ""))
    modsum = sum(v for k, v in per_fn.items() if k in mods)
    if n:
        print(f"# module functions: {modsum / n:,.1f} per {per}; all kernel code: {total / n:,.1f} per {per}")
    print(f"{'function':40} {'instructions':>14} {'per ' + per if n else '':>14} {'share':>7}")
    for name, v in sorted(per_fn.items(), key=lambda kv: -kv[1])[:top]:
        mark = " [smartwake]" if name in mods else ""
        print(f"{name[:40]:40} {v:14,} {(f'{v / n:14,.1f}' if n else ''):>14} {100 * v / total:6.2f}%{mark}")
else:
    a, b, per, top = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    ra, rb = load_run(a), load_run(b)
    na, nb = div((None, ra[1]), per), div((None, rb[1]), per)
    if not na or not nb:
        sys.exit(f"--diff: counter {per} missing or 0 in one of the runs")
    print(f"# A: {ra[3]}\n# B: {rb[3]}")
    ta, tb = sum(ra[0].values()) / na, sum(rb[0].values()) / nb
    print(f"# all kernel code per {per}: A {ta:,.1f}, B {tb:,.1f}, B - A {tb - ta:+,.1f}")
    names = set(ra[0]) | set(rb[0])
    rows = [(n, ra[0].get(n, 0) / na, rb[0].get(n, 0) / nb) for n in names]
    rows.sort(key=lambda r: -abs(r[2] - r[1]))
    print(f"{'function':40} {'A':>10} {'B':>10} {'B - A':>10}")
    for n, x, y in rows[:top]:
        print(f"{n[:40]:40} {x:10,.1f} {y:10,.1f} {y - x:+10,.1f}")
PY
}

if [ -n "$again" ]; then
	report one "$again" "$per" "$top"
	exit
fi
if [ -n "$concerns" ]; then
	report concerns "$concerns" "$per"
	exit
fi
if [ ${#annotate[@]} -eq 2 ]; then
	report annotate "${annotate[1]}" "${annotate[0]}" "$per"
	exit
fi
if [ ${#diff[@]} -eq 2 ]; then
	report diff "${diff[0]}" "${diff[1]}" "$per" "$top"
	exit
fi

krel=$SW_DEFAULT_KREL
dir=build/insnprof
mkdir -p "$dir"
so=$dir/insnprof.so
if [ ! -s "$so" ] || [ tools/insnprof/insnprof.c -nt "$so" ]; then
	gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$so" tools/insnprof/insnprof.c ||
		sw_die "building the QEMU plugin failed"
fi
syms=$dir/syms-$krel.txt
if [ ! -s "$syms" ]; then
	sw_log "insnprof: the kernel's symbols (one boot, cached in $syms)"
	# 80,000 lines over the serial console: minutes on a loaded host
	scripts/guest-run.sh --topo smp2 --append nokaslr --timeout 1800 \
		--log "$dir/syms-$krel.log" insnprof.sh syms | grep -E 'passed|FAIL' || true
	sed -n 's/^SWSYM \([0-9a-f]*\) \([^ \r]*\).*/\1 \2/p' "$dir/syms-$krel.log" >"$syms.tmp"
	# all of them or none: a list cut short (a timeout) would give the
	# instructions of every function past the cut to the last one listed
	n=$(sed -n 's/^SWSYM-END \([0-9]*\).*/\1/p' "$dir/syms-$krel.log")
	[ -n "$n" ] && [ "$(wc -l <"$syms.tmp")" -eq "$n" ] && [ "$n" -gt 1000 ] ||
		sw_die "the kernel's symbols in $dir/syms-$krel.log are incomplete ($(wc -l <"$syms.tmp") lines, the guest counted ${n:-none}); run again"
	mv "$syms.tmp" "$syms"
fi
mark=$(awk '$2 == "__x64_sys_sync" { print $1 }' "$syms")
[ -n "$mark" ] || sw_die "no __x64_sys_sync in $syms"
[ -n "$out" ] || out=results/insnprof-$setting-$load-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
rm -f "$out"/prof.*
cp "$syms" "$out/syms.txt"
echo "setting $setting, load $load x $size, topology $topo, $secs s, commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- module include 2>/dev/null || echo +changes), $(date -Is)" >"$out/meta.txt"
sw_log "insnprof: $setting, $load x $size, $topo, $secs s (results in $out)"
scripts/guest-run.sh --topo "$topo" --append nokaslr --icount --timeout "${SW_INSNPROF_TIMEOUT:-900}" \
	--plugin "$so,mark=0x$mark,out=$out/prof" --log "$out/guest.log" \
	insnprof.sh run "$setting" "$load" "$secs" "$size" | grep -E 'passed|FAIL' || true
sed -n 's/^SWSYM \([0-9a-f]*\) \([^ \r]*\).*/\1 \2/p' "$out/guest.log" >"$out/module-syms.txt"
# the module the guest ran, for --concerns (its addresses and inline chains)
cp module/smartwake.ko "$out/smartwake.ko"
sed -n 's/^SWSTAT \([^ ]*\) \([^ \r]*\).*/\1 \2/p' "$out/guest.log" >"$out/stats.txt"
[ -s "$out/prof.1" ] && [ -s "$out/prof.2" ] || sw_die "the plugin wrote no two snapshots in $out"
if [[ $setting =~ ^(none|stock|latency|latency64|ttwu_count|sched_wakeup_trace)$ ]]; then
	[[ $per == calls:* ]] || per=calls:select_task_rq_fair
fi
report one "$out" "$per" "$top" | tee "$out/report.txt"
