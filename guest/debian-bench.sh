# Real benchmarks and oracles the project did not write, on the Debian
# system image (issue 31, items 4 and 5; make image-bench, not part of
# make check). bash, systemd as PID 1; the module is the lab's build for
# the image's kernel (/lab/ko, insmod: the install path itself is
# debian-install.sh's), the CLI and wakeload in /lab/bin. Argument: runs
# per side of each A/B (default 3).
# Oracles, each against the module's figure on the same run:
#  - perf (linux-perf): sched_wakeup, sched_migrate_task and sched_switch
#    recorded while three wakeload loads (pipe pairs and M:N messaging)
#    run in systemd units of their own slice with unequal CPUWeight (the
#    knob scope) under
#    policy=smartwake: the wakeups of wakeload's tasks that moved them
#    (a sched_migrate_task between the task's last switch-in and its
#    wakeup) against the module's answers that were not prev's CPU
#    (locality counters); tolerance 2 % + 20;
#  - bpftrace's runqlat.bt (Debian's bpftrace package) against
#    latency_hist: the medians within a factor 2 (runqlat also times
#    preempted tasks' waits);
#  - /proc/schedstat: in debian-install.sh (make check).
# Benchmarks from Debian's packages, run by smartwake ab (policy=smartwake,
# wake_wide off against mainline, in one boot): pgbench against the
# PostgreSQL service (select-only and TPC-B-like, 8 clients over 2
# pgbench threads: each thread a 1:4 waker), hackbench (rt-tests), perf
# bench sched messaging and pipe, sysbench threads. Under TCG wall time
# is noise (about 20 %): the ratios are indicative only, the counters
# carry the mechanism.
. ./lib.sh
P=/sys/module/smartwake/parameters
AB="smartwake ab --runs ${1:-3} --timeout 120"
PERF=perf
# Debian 12's perf wrapper wants a perf of the running kernel's series;
# linux-perf 6.1 reads 6.12's tracepoints just as well
perf --version >/dev/null 2>&1 || PERF=$(ls /usr/bin/perf_* 2>/dev/null | head -n 1)

check "insmod the lab's build for $(uname -r)" insmod /lab/ko/smartwake.ko
check "$PERF runs" "$PERF" --version

# --- oracle: perf's sched events against the locality counters -------------
set_knob policy smartwake
set_knob locality 1 2>/dev/null
# the loads in three systemd units of their own slice, with unequal
# CPUWeight (outside such units they settle: 42 moves in 18293 answers)
printf '[Slice]\n' >/run/systemd/system/swperf.slice
systemctl daemon-reload
systemctl start swperf.slice
CG=/sys/fs/cgroup/swperf.slice
set_knob scope $CG
echo 1 >$P/reset
W=$(command -v wakeload)
"$PERF" record -q -a -e sched:sched_wakeup -e sched:sched_migrate_task -e sched:sched_switch \
	-o /tmp/perf.data -- sh -c "
		systemd-run -q --wait --slice=swperf.slice -p CPUWeight=100 $W pipe -p 2 -t 4 &
		systemd-run -q --wait --slice=swperf.slice -p CPUWeight=1000 $W msg -g 2 -t 4 &
		systemd-run -q --wait --slice=swperf.slice -p CPUWeight=50 $W pipe -p 1 -t 4; wait" \
	>/dev/null 2>&1
snap
set_knob scope all
"$PERF" script -i /tmp/perf.data -F event,trace 2>/dev/null >/tmp/perf.txt
# moved: a wakeup of a wakeload task preceded by its migration since it
# last ran (a load-balance migration is followed by a switch-in first)
read -r pw pm <<EOF
$(awk '
function kv(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
/sched_migrate_task/ { if (kv("comm") == "wakeload") mig[kv("pid")] = 1; next }
/sched_switch/ { n = kv("next_pid"); if (n != "") delete mig[n]; next }
/sched_wakeup/ { if (kv("comm") != "wakeload") next; w++; p = kv("pid"); if (mig[p]) m++; delete mig[p] }
END { print w + 0, m + 0 }' /tmp/perf.txt)
EOF
tot=0
for c in same_cpu smt llc node remote; do
	tot=$((tot + $(sv loc_prev_$c)))
done
mmoved=$((tot - $(sv loc_prev_same_cpu)))
echo "  perf: $pw wakeups of wakeload, $pm moved; module: $tot answers, $mmoved not prev's CPU"
echo "BENCH-FIG | perf sched_migrate_task before sched_wakeup | $pm of $pw | answers not on prev's CPU | $mmoved of $tot |"
check "oracle perf: moved wakeups ($pm) match the module's answers off prev ($mmoved) within 2 % + 20" \
	eval 'd=$((pm - mmoved)); [ ${d#-} -le $((pm / 50 + 20)) ] && [ "$tot" -gt 1000 ] && [ "$pm" -gt 50 ]'

# --- oracle: bpftrace's runqlat.bt against latency_hist --------------------
# runqlat also times a preempted task's wait (prev_state TASK_RUNNING),
# which latency_hist does not; on wakeload pipe the tasks block: the two
# medians must share a log2 bucket or be next to each other.
set_knob latency 1
RQ=$(command -v runqlat.bt || echo /usr/sbin/runqlat.bt)
wakeload pipe -p 2 -t 120 >/dev/null 2>&1 &
lp=$!
sleep 2
# bpftrace compiles its program first (long under TCG): the counters
# start when it prints that it traces
bpftrace "$RQ" >/tmp/runqlat.txt 2>&1 &
bp=$!
i=0
while ! grep -q "^Tracing" /tmp/runqlat.txt && [ $i -lt 90 ] && kill -0 $bp 2>/dev/null; do
	sleep 1
	i=$((i + 1))
done
echo 1 >$P/reset
sleep 10
kill -INT $bp
wait $bp
snap
sed -n '1,3p' /tmp/runqlat.txt | sed 's/^/  runqlat.bt: /'
kill $lp 2>/dev/null
wait $lp 2>/dev/null
set_knob latency 0
# p50 of the histogram: the bucket [lo, hi) where half the count is passed
hist_p50() {
	awk 'function num(v) { if (v ~ /K$/) return v * 1024; if (v ~ /M$/) return v * 1048576; return v + 0 }
	/^\[/ {
		gsub(/[][(),|@]/, " ")
		if (NF >= 3) { lo = num($1); hi = num($2); c = $3 } else { lo = num($1); hi = lo + 1; c = $2 }
		k++; l[k] = lo; h[k] = hi; n[k] = c; t += c
	}
	END { s = 0; for (i = 1; i <= k; i++) { s += n[i]; if (s * 2 >= t) { print l[i], h[i], t; exit } } print 0, 0, 0 }' "$1"
}
read -r blo bhi bn <<EOF
$(hist_p50 /tmp/runqlat.txt)
EOF
mp=$(sv latency_p50_ns)
echo "  runqlat.bt: $bn samples, p50 in [$blo, $bhi) us; latency_hist: p50 $mp ns ($(sv latency_samples) samples)"
echo "BENCH-FIG | bpftrace runqlat.bt p50 | [$blo, $bhi) us of $bn | latency_p50_ns | $mp |"
check "oracle bpftrace: runqlat's p50 bucket [$blo, $bhi) us and latency_hist's p50 ($mp ns) within a factor 2" \
	eval '[ "${bn:-0}" -gt 200 ] && awk -v m="$mp" -v lo="$blo" -v hi="$bhi" "BEGIN { u = m / 1000; exit !(u >= lo / 2 && u <= hi * 2) }"'

# --- benchmarks, smartwake ab: wake_wide off (A) against mainline (B) ------
set_knob policy smartwake
bench() { # NAME AB-ARGS... -- COMMAND...
	_n=$1
	shift
	$AB --a 'wake_wide=off' --b 'wake_wide=mainline' "$@" >/tmp/ab.out 2>&1
	_rc=$?
	echo "SMARTWAKE-BENCH-BEGIN $_n"
	cat /tmp/ab.out
	echo "SMARTWAKE-BENCH-END $_n"
	check "ab $_n: exit 0" eq "$_rc" 0
}
systemctl start postgresql
check "PostgreSQL started (systemd)" systemctl -q is-active postgresql
runuser -u postgres -- createdb bench 2>/dev/null
runuser -u postgres -- pgbench -q -i -s 2 bench >/dev/null 2>&1
check "pgbench -i" eq "$?" 0
bench pgbench-select --metric 'tps = ([0-9.]+)' -- \
	runuser -u postgres -- pgbench -n -S -c 8 -j 2 -T 4 bench
bench pgbench-tpcb --metric 'tps = ([0-9.]+)' -- \
	runuser -u postgres -- pgbench -n -c 8 -j 2 -T 4 bench
systemctl stop postgresql
bench hackbench --metric 'Time: ([0-9.]+)' --lower-is-better -- hackbench -p -g 2 -l 200
bench perf-messaging --metric 'Total time: ([0-9.]+)' --lower-is-better -- \
	"$PERF" bench sched messaging -p -g 2 -l 100
bench perf-pipe --metric '([0-9]+) ops/sec' -- "$PERF" bench sched pipe -l 20000
bench sysbench-threads --metric 'total number of events: +([0-9]+)' -- \
	sysbench threads --threads=4 --time=3 run
check "rmmod" rmmod smartwake
check "dmesg clean" dmesg_clean
summary
