#!/usr/bin/env bash
# Report on a make bench results directory: the summary table (printed and
# written to DIR/summary.txt) and the plot DIR/ratios.svg (+ .png when
# gnuplot has a PNG terminal) of each setting's ratio to stock per workload,
# with the min..max spread of its runs as error bars.
#
# Usage: scripts/bench-plot.sh DIR      (DIR holds results.csv)
#
# ratio = median(setting) / median(stock), as "smartwake ab" prints it; for
# times (lower is better) a ratio below 1 is an improvement. The spread is
# min(setting)/median(stock) .. max(setting)/median(stock). "speed" in the
# last line of each block is the geometric mean over the workloads of the
# ratio with times inverted (above 1 = faster than stock). The udp-*
# workloads (2012 TTWU_QUEUE UDP_STREAM experiment) get their own table per
# topology: receiver throughput per setting and the mean per-run deltas of
# ttwu_queued_same_llc, ttwu_queued_cross_llc and ttwu_not_queued.
. "$(dirname "$0")/common.sh"

case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
'') sw_help "$0" >&2; exit 2 ;;
esac
dir=$1
[ -s "$dir/results.csv" ] || sw_die "no $dir/results.csv"

python3 - "$dir" <<'PY'
import csv, math, os, statistics, sys

d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "results.csv"))))
order_s = ["stock", "smartwake", "wide-off", "wide-v2013", "sis-filter", "lock", "no-ttwu-queue"]
topos, works, sets = [], [], []
data = {}
for r in rows:
    t, w, s = r["topology"], r["workload"], r["setting"]
    for lst, x in ((topos, t), (works, w), (sets, s)):
        if x not in lst:
            lst.append(x)
    data.setdefault((t, w, s), []).append(r)
skipped = {}
sk = os.path.join(d, "skipped.csv")
if os.path.exists(sk):
    for line in open(sk):
        f = line.rstrip("\n").split(",", 3)
        if len(f) == 4:
            t, w, s, why = f
            skipped[(t, w, s)] = why.split(" (knobs:")[0]
            for lst, x in ((topos, t), (works, w)):
                if x not in lst:
                    lst.append(x)
            if s != "*" and s not in sets:
                sets.append(s)
sets.sort(key=lambda s: order_s.index(s) if s in order_s else len(order_s))

def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None

counters = [("calls", "select_calls"), ("wakeups", "wakeups"), ("wide", "wide_waker_master+wide_wakee_master"),
            ("affine", "affine_attempts"), ("pulls", "affine_pulls"),
            ("sis", "sis_calls"), ("scans", "sis_domain_scans"),
            ("ovl_skip", "sis_overloaded_skipped"),
            ("queued", "ttwu_queued_same_llc+ttwu_queued_cross_llc"),
            ("numa_def", "numa_retry_deferred")]
counters = [(n, e) for n, e in counters if all(c in rows[0] for c in e.split("+"))]

out = []
p = out.append

def is_udp(w):
    return w.startswith("udp-")

def mean_delta(rs, c):
    if not rs or c not in rs[0]:
        return None
    return sum(num(r[c]) or 0 for r in rs) / len(rs)

def udp_plot_row(t, w):
    stock = data.get((t, w, "stock"))
    if not stock:
        return
    ref = statistics.median([float(r["figure"]) for r in stock])
    prow = [w]
    for s in sets:
        rs = data.get((t, w, s))
        if not rs or not ref:
            prow += ["?", "?", "?"]
            continue
        f = [float(r["figure"]) for r in rs]
        prow += ["%.4f" % (statistics.median(f) / ref), "%.4f" % (min(f) / ref), "%.4f" % (max(f) / ref)]
    plotdat[t].append(prow)

# The 2012 TTWU_QUEUE UDP_STREAM experiment: receiver-side throughput and
# where the wakeups went, per setting.
def udp_table(t):
    uw = [w for w in works if is_udp(w)]
    if not uw:
        return
    p("")
    p("UDP_STREAM (2012 TTWU_QUEUE thread): udpstream 64-byte datagrams, receiver")
    p("throughput (recv_mbps); udp-llc = cpus 0,1 (one LLC), udp-xsock = cpu 0 and")
    p("node1's first CPU; counters = mean deltas per run.")
    p("%-10s %-14s %9s %7s  %-15s %9s %9s %10s" % ("workload", "setting", "Mbit/s", "ratio", "[min..max]",
      "same-llc", "cross-llc", "not-queued"))
    for w in uw:
        if (t, w, "*") in skipped:
            p("%-10s skipped: %s" % (w, skipped[(t, w, "*")]))
            continue
        stock = data.get((t, w, "stock"))
        ref = statistics.median([float(r["figure"]) for r in stock]) if stock else None
        wsets = [s for s in sets if (t, w, s) in data or (t, w, s) in skipped]
        if not wsets:
            p("%-10s no runs" % w)
            continue
        for s in wsets:
            rs = data.get((t, w, s))
            if not rs:
                p("%-10s %-14s %9s  %s" % (w, s, "skipped", skipped.get((t, w, s), "no runs")))
                continue
            f = [float(r["figure"]) for r in rs]
            med = statistics.median(f)
            if ref:
                rs_, sp = "%.3f" % (med / ref), "[%.3f..%.3f]" % (min(f) / ref, max(f) / ref)
            else:
                rs_, sp = "-", ""
            cs = [mean_delta(rs, c) for c in ("ttwu_queued_same_llc", "ttwu_queued_cross_llc", "ttwu_not_queued")]
            p("%-10s %-14s %9.2f %7s  %-15s" % (w, s, med, rs_, sp) +
              "".join(" %9s" % ("-" if v is None else "%.0f" % v) for v in cs[:2]) +
              " %10s" % ("-" if cs[2] is None else "%.0f" % cs[2]) +
              ("  (%d runs)" % len(f) if s == wsets[0] else ""))
p("make bench: medians of each setting's runs; ratio = setting/stock (medians),")
p("[min..max] of the setting's runs over the stock median. Guests run under TCG")
p("emulation without a cache model: the ratios are indicative, the counters are")
p("the reliable signal.")
plotdat = {}
for t in topos:
    p("")
    p("== %s ==" % t)
    # the standard workloads' table (not when only udp-* ran)
    std = any(not is_udp(w) for w in works)
    if std:
        p("%-11s %-9s %-11s %12s %7s  %-15s" % ("workload", "unit", "setting", "figure", "ratio", "[min..max]"))
    speed = {s: [] for s in sets}
    plotdat[t] = []
    for w in works:
        if is_udp(w):
            # own table below; only its plot row here
            udp_plot_row(t, w)
            continue
        if (t, w, "*") in skipped:
            p("%-11s skipped: %s" % (w, skipped[(t, w, "*")]))
            continue
        if not any((t, w, s) in data for s in sets):
            continue
        stock = data.get((t, w, "stock"))
        ref = statistics.median([float(r["figure"]) for r in stock]) if stock else None
        anyr = next(data[(t, w, s)] for s in sets if (t, w, s) in data)
        unit, better = anyr[0]["unit"], anyr[0]["better"]
        lower = better == "lower"
        label = w + (" (time: <1 better)" if lower else "")
        prow = [label]
        wsets = [s for s in sets if (t, w, s) in data or (t, w, s) in skipped]
        for s in sets:
            rs = data.get((t, w, s))
            if not rs:
                if s in wsets:
                    p("%-11s %-9s %-11s %12s  %s" % (w, unit, s, "skipped", skipped.get((t, w, s), "no runs")))
                prow += ["?", "?", "?"]
                continue
            f = [float(r["figure"]) for r in rs]
            med = statistics.median(f)
            if ref:
                ratio, lo, hi = med / ref, min(f) / ref, max(f) / ref
                rs_ = "%.3f" % ratio
                sp = "[%.3f..%.3f]" % (lo, hi)
                prow += ["%.4f" % ratio, "%.4f" % lo, "%.4f" % hi]
                if ratio > 0:
                    speed[s].append(1 / ratio if lower else ratio)
            else:
                rs_, sp = "-", ""
                prow += ["?", "?", "?"]
            figs = "%.4g" % med if med < 1000 else "%.1f" % med
            p("%-11s %-9s %-11s %12s %7s  %-15s%s" % (w, unit + (", lower" if lower else ""), s, figs, rs_, sp,
              "  (%d runs)" % len(f) if s == wsets[0] else ""))
        plotdat[t].append(prow)
    if not std:
        udp_table(t)
        continue
    p("speed vs stock, geometric mean over the workloads (times inverted; >1 = faster):")
    p("  " + "  ".join("%s %.3f" % (s, math.exp(sum(math.log(x) for x in speed[s]) / len(speed[s])))
                       for s in sets if speed[s]))
    if counters:
        p("")
        p("counters per run (mean deltas):")
        p("%-11s %-11s" % ("workload", "setting") + "".join(" %10s" % n for n, _ in counters))
        for w in works:
            if is_udp(w):
                continue
            for s in sets:
                rs = data.get((t, w, s))
                if not rs:
                    continue
                vals = []
                for _, e in counters:
                    tot = sum(sum(num(r[c]) or 0 for c in e.split("+")) for r in rs)
                    vals.append(tot / len(rs))
                p("%-11s %-11s" % (w, s) + "".join(" %10.0f" % v for v in vals))
    udp_table(t)
text = "\n".join(out) + "\n"
open(os.path.join(d, "summary.txt"), "w").write(text)
sys.stdout.write(text)

# gnuplot input: one data file per topology, columns label, then per setting
# ratio lo hi.
for t in topos:
    with open(os.path.join(d, "ratios-%s.dat" % t), "w") as f:
        f.write("# workload " + " ".join("%s_ratio %s_lo %s_hi" % (s, s, s) for s in sets) + "\n")
        for row in plotdat[t]:
            f.write('"%s" %s\n' % (row[0], " ".join(row[1:])))
with open(os.path.join(d, "ratios.gp"), "w") as f:
    n = len(topos)
    f.write("set datafile missing '?'\n")
    f.write("set style data histogram\nset style histogram errorbars gap 1 lw 1\n")
    f.write("set style fill solid 0.7 border -1\nset boxwidth 0.9\n")
    f.write("set ylabel 'ratio to stock (median; bars: min..max)'\n")
    f.write("set grid ytics\nset key outside right top\nset xtics rotate by -20\n")
    f.write("set yrange [0:*]\n")
    f.write("set multiplot layout %d,1 title 'smartwake make bench (TCG guests, no cache model: indicative)'\n" % n)
    for t in topos:
        f.write("set title '%s'\n" % t)
        cols = []
        for i, s in enumerate(sets):
            # leave out settings without a single figure here
            if all(row[1 + 3 * i] == "?" for row in plotdat[t]):
                continue
            c = 2 + 3 * i
            src = "'ratios-%s.dat'" % t if not cols else "''"
            xt = ":xtic(1)" if not cols else ""
            cols.append("%s using %d:%d:%d%s title '%s'" % (src, c, c + 1, c + 2, xt, s))
        f.write("plot " + ", ".join(cols) + ", 1 with lines lc 'black' dt 2 notitle\n")
    f.write("unset multiplot\n")
PY

cd "$dir" || exit
if ! command -v gnuplot >/dev/null; then
	sw_log "no gnuplot: plot input left in $dir/ratios.gp"
	exit 0
fi
n=$(ls ratios-*.dat | wc -l)
h=$((300 * n + 60))
gnuplot -e "set terminal svg size 1000,$h dynamic font 'sans,11'; set output 'ratios.svg'" ratios.gp
if gnuplot -e 'set terminal' 2>&1 | grep -qw pngcairo; then
	gnuplot -e "set terminal pngcairo size 1000,$h font 'sans,10'; set output 'ratios.png'" ratios.gp
elif gnuplot -e 'set terminal' 2>&1 | grep -qw png; then
	gnuplot -e "set terminal png size 1000,$h; set output 'ratios.png'" ratios.gp
fi
sw_log "plot: $dir/ratios.svg$([ -f ratios.png ] && echo " and ratios.png")"
