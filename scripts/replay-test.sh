#!/usr/bin/env bash
# Host test of make replay's report (scripts/replay-report.py): synthetic
# guest logs with known figures, one set per verdict, and the verdicts
# the rules must give; a missing log gives "not run". Prints KTAP
# (scripts/testlib.sh) and "N passed, N failed".
. "$(dirname "$0")/common.sh"
# shellcheck source=scripts/testlib.sh
. "$SW_TOP/scripts/testlib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# mklogs DIR SCENARIO [FLAGS]: the five logs; SCENARIO "win" gives the
# seeds their effects, "flat" overlapping runs and no mechanism, "loss"
# losses, "case2013" the replay of figures.md at 38fe08c: v2013's 1:N
# throughput in instruction time 0.884 of off (the old rule's
# "contradicted"). FLAGS: "bench" adds smartwake-replay's bench logs
# (pgbench, hackbench, perf bench numa mem: the figure of the seed's own
# benchmark is the inverse of wakeload's, so a verdict that read the
# wrong one flips), "real" makes it a real machine's run (machine.txt
# "emulated: no", wall-clock logs only, no numa.log)
mklogs() {
	python3 - "$1" "$2" "${3:-}" <<'PY'
import os, sys
d, sc, flags = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
os.makedirs(d, exist_ok=True)
cols = ["wakeups", "sis_calls", "wide_waker_master", "wide_wakee_master", "affine_pulls", "sis_domain_scans",
        "sis_cpus_scanned", "sis_idle_found", "sis_overloaded_skipped", "sis_scan_no_budget",
        "ttwu_wakelist_calls", "ttwu_queued_same_llc", "ttwu_queued_cross_llc", "ttwu_not_queued",
        "ttwu_forced_lock"]
def block(eid, sides):
    out = [f"REPLAY-BEGIN {eid}"]
    out += [f"  side {n}            {st}" for n, st, *_ in sides]
    out.append("side  median  min..max  runs  ratio  p50_ns  p99_ns")
    a = sides[0][2]
    for n, st, med, lo, hi, c in sides:
        out.append(f"{n:<10} {med:>10.1f} {lo:.1f}..{hi:.1f} 3 {med / a:.3f} 1000 9000")
    out.append(f"REPLAY-END {eid} rc=0")
    out.append(f"REPLAY-CSV {eid}")
    out.append(",".join(["side", "run", "figure", "unit", "secs"] + cols))
    for n, st, med, lo, hi, c in sides:
        out.append(",".join([n, "1", str(med), "ops_per_sec", "1"] + [str(c.get(k, 0)) for k in cols]))
    out.append(f"REPLAY-CSV-END {eid}")
    return "\n".join(out) + "\n"
win = sc == "win"
up = {"win": 1.2, "flat": 1.0, "loss": 0.8, "case2013": 0.884}[sc]
spread = 1 if sc != "flat" else 30
def s(n, st, med, c):
    return (n, st, med, med - spread, med + spread, c)
wake = "REPLAY-TOPO cpus=8 nodes=2 smt=0-1\n"
wake += block("s2013-disp", [
    s("A", "wake_wide=off", 100, {"wakeups": 1000, "affine_pulls": 300}),
    s("B", "wake_wide=v2013", 100 * up, {"wakeups": 1000, "affine_pulls": 20 if win else 300,
                                         "wide_waker_master": 500 if win else 0}),
    s("mainline", "wake_wide=mainline", 100 * up * up,
      {"wakeups": 1000, "wide_waker_master": 500, "wide_wakee_master": 50 if win else 0})])
wake += block("s2013-msg", [s("A", "wake_wide=off", 100, {}), s("B", "v2013", 100 * up, {}),
                            s("mainline", "mainline", 100 * up, {})])
for k in ("s2022-noutil", "s2022-util"):
    wake += block(k, [
        s("A", "sis_filter=0", 100, {"sis_calls": 200, "sis_domain_scans": 100, "sis_cpus_scanned": 1000,
                                     "sis_idle_found": 100}),
        s("B", "sis_filter=1", 100 * up, {"sis_calls": 200, "sis_domain_scans": 100,
                                          "sis_cpus_scanned": 500 if win else 1000,
                                          "sis_idle_found": 100, "sis_overloaded_skipped": 400 if win else 0})])
ttwu = "REPLAY-TOPO cpus=4 nodes=1 smt=0\n" + block("s2012-udp", [
    s("A", "ttwu_queue=stock", 100, {"ttwu_queued_same_llc": 50 if win else 0}),
    s("B", "ttwu_queue=lock", 100 / up, {"ttwu_forced_lock": 50 if win else 0}),
    s("noqueue", "feature:NO_TTWU_QUEUE", 100 / up, {})])
bench = "REPLAY-TOPO cpus=8 nodes=2 smt=0-1\n"
if "bench" in flags:
    # the seeds' benchmarks move the other way from wakeload: a verdict
    # read from wakeload's block would come out the opposite
    bup = 1 / up
    # "pgmech": pgbench's counters carry the 2013 mechanism (on both
    # variants, or with "pgpart" on TPC-B-like only) while wakeload's
    # 1:N shows none: the verdict must come from pgbench
    pg = "pgmech" in flags
    mech = {"wakeups": 1000, "affine_pulls": 100, "wide_waker_master": 300}
    bench += block("b2013-pgbench-select", [
        s("A", "wake_wide=off", 100, {"wakeups": 1000, "affine_pulls": 400} if pg else {}),
        s("B", "wake_wide=v2013", 100 * bup,
          ({"wakeups": 1000, "affine_pulls": 400, "wide_waker_master": 5} if "pgpart" in flags else mech)
          if pg else {}),
        s("mainline", "wake_wide=mainline", 100 * bup * bup, {})])
    if pg:
        bench += block("b2013-pgbench-tpcb", [s("A", "wake_wide=off", 100, {"wakeups": 1000, "affine_pulls": 400}),
                                              s("B", "wake_wide=v2013", 100 * bup, mech),
                                              s("mainline", "wake_wide=mainline", 100 * bup * bup, {})])
    # times: lower is better
    bench += block("b2013-hackbench", [s("A", "wake_wide=off", 100, {}),
                                       s("B", "wake_wide=v2013", 100 * up, {}),
                                       s("mainline", "wake_wide=mainline", 100 * up, {})])
    bench += block("b2022-hackbench", [s("A", "sis_filter=0", 100, {}), s("B", "sis_filter=1", 100 * up, {})])
    bench += block("b2018-numamem", [s("A", "numa_retry=off", 100, {}),
                                     s("B", "numa_retry=as-merged", 100 * bup, {})])
if "pgmech" not in flags:
    bench += "REPLAY-SKIP b2013-pgbench-tpcb PostgreSQL is not installed (apt install postgresql)\n"
for clock in ("wall",) if "real" in flags else ("wall", "icount"):
    open(f"{d}/wake-{clock}.log", "w").write(wake)
    open(f"{d}/ttwu-{clock}.log", "w").write(ttwu)
    open(f"{d}/bench-{clock}.log", "w").write(bench)
moves = "6, as-merged 0, corrected 5" if win else "6, as-merged 4, corrected 5"
if "real" in flags:
    open(f"{d}/machine.txt", "w").write("cpu: Test CPU\nvirtualization: none\nemulated: no\nclock: wall\n")
else:
    open(f"{d}/numa.log", "w").write(f"  task migrations (move+swap): off {moves}\n"
                                     "  pages migrated: off 10, as-merged 9, corrected 11\n20 passed, 0 failed\n")
    # guest/pull-ab.sh: win, the pull's p90 below every run without it;
    # flat, the ranges overlap; loss, above
    p90 = {"win": 2000, "flat": 3100, "loss": 4000}.get(sc, 3100)
    rows = ""
    for r in range(3):
        rows += f"PULL-AB | sib_pull=0 | 150000 | 1600 | {3000 + 50 * r} | 900000 | 0 | 0 |\n"
        rows += f"PULL-AB | sib_pull=1 | 160000 | 1700 | {p90 + 50 * r} | 900000 | 120 | 10 |\n"
    open(f"{d}/pull.log", "w").write(rows + "12 passed, 0 failed\n")
PY
}
# verdict DIR SEED CLAIM-WORDS: the verdict column of that summary row;
# evidence: its evidence column
verdict() { awk -F' [|] ' -v s="$2" -v c="$3" '$1 == "| " s && index($2, c) { print $3; exit }' "$1/summary.md"; }
evidence() { awk -F' [|] ' -v s="$2" -v c="$3" '$1 == "| " s && index($2, c) { print $4; exit }' "$1/summary.md"; }
expect() { # DIR SEED CLAIM-WORDS VERDICT
	local v
	v=$(verdict "$1" "$2" "$3")
	if [ "$v" = "$4" ]; then ok "$(basename "$1"): $2 '$3': $4"; else not_ok "$(basename "$1"): $2 '$3': '$v', expected '$4'"; fi
}

NM="not measurable under emulation"
for sc in win flat loss case2013; do
	mklogs "$tmp/$sc" "$sc"
	if python3 "$SW_TOP/scripts/replay-report.py" "$tmp/$sc" >/dev/null; then
		ok "$sc: the report is written"
	else
		not_ok "$sc: replay-report.py failed"
		continue
	fi
	for f in report.md summary.md seed-2013.svg seed-2015.svg seed-2022.svg seed-2012.svg; do
		[ -s "$tmp/$sc/$f" ] && ok "$sc: $f written" || not_ok "$sc: $f missing"
	done
done
expect "$tmp/win" 2013 "stops the affine pull" reproduced
# throughput claims whose gain is parallelism or locality: never decided
# in instruction time, whatever it reads
expect "$tmp/win" 2013 "pgbench 1:N: up to" "$NM"
expect "$tmp/win" 2013 "hackbench not harmed" "$NM"
expect "$tmp/win" 2015 "waker is the wakee" reproduced
expect "$tmp/win" 2015 "pgbench 1:N +11.9" "$NM"
expect "$tmp/win" 2022 "search efficiency" reproduced
# a claim whose gain is the work per operation (a shorter scan): decided
expect "$tmp/win" 2022 "20 % faster" reproduced
expect "$tmp/win" 2012 "separates the two paths" reproduced
expect "$tmp/win" 2012 "beats the lock path" "$NM"
expect "$tmp/win" 2018 "never retried" reproduced
expect "$tmp/win" 2022 "patch 2/2" reproduced
expect "$tmp/flat" 2022 "patch 2/2" "no effect beyond the noise"
expect "$tmp/loss" 2022 "patch 2/2" contradicted
expect "$tmp/win" 2018 "elapsed time" "$NM"
expect "$tmp/flat" 2013 "stops the affine pull" contradicted
expect "$tmp/flat" 2013 "pgbench 1:N: up to" "$NM"
expect "$tmp/flat" 2015 "waker is the wakee" contradicted
expect "$tmp/flat" 2022 "search efficiency" contradicted
expect "$tmp/flat" 2022 "20 % faster" "not reproducible under emulation"
expect "$tmp/flat" 2012 "separates the two paths" contradicted
expect "$tmp/flat" 2018 "never retried" contradicted
expect "$tmp/loss" 2013 "pgbench 1:N: up to" "$NM"
expect "$tmp/loss" 2013 "hackbench not harmed" "$NM"
expect "$tmp/loss" 2012 "beats the lock path" "$NM"
expect "$tmp/loss" 2022 "20 % faster" contradicted
# the 2013 case: not contradicted (the old rule's verdict), its
# instruction-time figure reported as work per request
expect "$tmp/case2013" 2013 "pgbench 1:N: up to" "$NM"
e=$(evidence "$tmp/case2013" 2013 "pgbench 1:N: up to")
check "case2013: the evidence says what instruction time measured ($e)" \
	grep -q "^s2013-disp: .*instruction time: v2013, against off, costs 13.1 % more instructions per operation (ranges apart)" <<<"$e"
check "case2013: and why it cannot decide the claim" grep -q "more CPUs running at once" <<<"$e"
# a missing log: its claims are not run, the rest is reported
rm "$tmp/win/ttwu-icount.log" "$tmp/win/numa.log" "$tmp/win/pull.log"
python3 "$SW_TOP/scripts/replay-report.py" "$tmp/win" >/dev/null &&
	ok "missing logs: the report is still written" || not_ok "missing logs: replay-report.py failed"
expect "$tmp/win" 2012 "beats the lock path" "not run"
expect "$tmp/win" 2018 "never retried" "not run"
expect "$tmp/win" 2022 "patch 2/2" "not run"
expect "$tmp/win" 2013 "pgbench 1:N: up to" "$NM"

# a real machine (smartwake-replay on a test box): wall-clock time
# decides throughput claims, from the seeds' own benchmarks when they ran
for sc in win flat loss; do
	mklogs "$tmp/real-$sc" "$sc" real,bench
	python3 "$SW_TOP/scripts/replay-report.py" "$tmp/real-$sc" >/dev/null &&
		ok "real-$sc: the report is written" || not_ok "real-$sc: replay-report.py failed"
done
# bench logs move opposite to wakeload's: "win" means pgbench lost
expect "$tmp/real-win" 2013 "pgbench 1:N: up to" contradicted
expect "$tmp/real-loss" 2013 "pgbench 1:N: up to" reproduced
expect "$tmp/real-flat" 2013 "pgbench 1:N: up to" "not reproduced"
expect "$tmp/real-loss" 2015 "pgbench 1:N +11.9" reproduced
# hackbench is a time: longer under v2013 ("win" x1.2) is harm
expect "$tmp/real-win" 2013 "hackbench not harmed" contradicted
expect "$tmp/real-loss" 2013 "hackbench not harmed" reproduced
expect "$tmp/real-loss" 2022 "20 % faster" reproduced
expect "$tmp/real-win" 2022 "20 % faster" contradicted
expect "$tmp/real-loss" 2018 "elapsed time" reproduced
expect "$tmp/real-win" 2012 "beats the lock path" reproduced
expect "$tmp/real-win" 2018 "never retried" "not run"
e=$(evidence "$tmp/real-loss" 2013 "pgbench 1:N: up to")
check "real-loss: the pgbench claim is decided on pgbench in wall time ($e)" \
	grep -q "^b2013-pgbench-select: wall-clock throughput ratio 1.250, ranges apart" <<<"$e"
check "real: the report says wall time decides" grep -q "not emulated (machine.txt)" "$tmp/real-win/report.md"
check "a skipped benchmark is named with its reason" \
	grep -q "Skipped: PostgreSQL is not installed (apt install postgresql)" "$tmp/real-win/report.md"
# the lab with the bench logs: the same rows, still not measurable
mklogs "$tmp/lab-bench" win bench
python3 "$SW_TOP/scripts/replay-report.py" "$tmp/lab-bench" >/dev/null
expect "$tmp/lab-bench" 2013 "pgbench 1:N: up to" "$NM"
expect "$tmp/lab-bench" 2018 "elapsed time" "$NM"
e=$(evidence "$tmp/lab-bench" 2013 "hackbench not harmed")
check "lab-bench: hackbench's row is read from hackbench ($e)" grep -q "^b2013-hackbench: " <<<"$e"

# the 2013 mechanism is read on the seed's own pgbench when it ran:
# wakeload's 1:N shows none ("flat"), pgbench does (the old rule, which
# read wakeload's alone, said "contradicted")
mklogs "$tmp/pg-mech" flat bench,pgmech
mklogs "$tmp/pg-part" flat bench,pgmech,pgpart
for sc in pg-mech pg-part; do
	python3 "$SW_TOP/scripts/replay-report.py" "$tmp/$sc" >/dev/null ||
		not_ok "$sc: replay-report.py failed"
done
expect "$tmp/pg-mech" 2013 "stops the affine pull" reproduced
expect "$tmp/pg-part" 2013 "stops the affine pull" "partly reproduced"
e=$(evidence "$tmp/pg-part" 2013 "stops the affine pull")
check "pg-part: the evidence names each source, pgbench first ($e)" \
	grep -q "^pgbench TPC-B-like: wide decisions 300 under v2013; affine pulls per wakeup 0.400 (off) -> 0.100 (v2013); pgbench select-only: .*; wakeload 1:N: " <<<"$e"

# the command itself on this build host: the module is not loaded here,
# so it refuses before running anything, naming the fix
rc=0
out=$("$SW_TOP/tools/replay/smartwake-replay" --out "$tmp/host-run" 2>&1) || rc=$?
check "smartwake-replay on the build host: exit 2 ($rc)" [ "$rc" -eq 2 ]
check "smartwake-replay on the build host: says the module is not loaded and how to load it" \
	grep -q "not loaded on this machine: nothing was run (modprobe smartwake" <<<"$out"
check "smartwake-replay on the build host: made no results directory" [ ! -e "$tmp/host-run" ]
out=$("$SW_TOP/tools/replay/smartwake-replay" --only wake,nonsense 2>&1) || true
check "smartwake-replay --only with an unknown set: refused by name" grep -q "unknown set 'nonsense'" <<<"$out"
summary
