# The smartwake CLI against the real module: error messages without the
# module or without debugfs, status, set (all or nothing, both the CLI's
# own check and a write the kernel refuses), stats --json, --watch, reset,
# ab with a real load, scheduler features restored.
# The JSON of "stats --json" is also printed between markers for the host
# (scripts/cli-test.sh --guest) to parse with python.
. ./lib.sh
SW=/bin/smartwake
FEAT=/sys/kernel/debug/sched/features
out=/tmp/cli.out

# run CMD...: output (stdout+stderr) to $out, status to $rc
run() {
	"$@" >$out 2>&1
	rc=$?
	sed 's/^/    /' $out
}
has() { grep -q -- "$1" $out; }

[ -x $SW ] || { not_ok "/bin/smartwake present"; summary; exit 1; }

# --- without the module, without debugfs ----------------------------------
run $SW status
check "status without the module: exit 1" eq "$rc" 1
check "... says the module is not loaded" has "module is not loaded"
umount /sys/kernel/debug
run $SW stats
check "stats without debugfs: exit 1" eq "$rc" 1
check "... says debugfs is not mounted" has "debugfs is not mounted"
mount -t debugfs debugfs /sys/kernel/debug
run $SW frobnicate
check "unknown command: exit 2" eq "$rc" 2
run $SW help ab
check "help ab: exit 0" eq "$rc" 0

# --- status ----------------------------------------------------------------
check "insmod" sw_insmod
run $SW status
check "status: exit 0" eq "$rc" 0
check "status names the kernel release" has "kernel   $(uname -r)"
check "status shows the hook" has "select_task_rq_fair"
nk=$(grep -c "^[^#]" $SW_DBG/knobs)
shown=$(sed -n 's/^knobs (\([0-9]*\)):$/\1/p' $out)
check "status lists every knob ($nk)" eq "$shown" "$nk"
if [ -e $SW_DBG/policy ]; then
	check "status shows the policy" has "^policy   $(knob policy)\$"
else
	check "status says there is no policy knob" has "no policy knob"
fi

# --- set -------------------------------------------------------------------
run $SW set enabled=0
check "set enabled=0: exit 0" eq "$rc" 0
check "enabled reads back 0" eq "$(knob enabled)" 0
set_knob enabled 1
run $SW set enabled=0 enabled=7
check "set enabled=0 enabled=7: exit 2 (CLI check)" eq "$rc" 2
check "... enabled unchanged (1)" eq "$(knob enabled)" 1
run $SW set enabled=0 no_such_knob=1
check "set with an unknown knob: exit 2" eq "$rc" 2
check "... enabled unchanged (1)" eq "$(knob enabled)" 1
# Passes the CLI's check (1 is in 0..1) but the module takes numbers in
# canonical form only: enabled=0 is written first, then must be undone.
bad=01
run $SW set enabled=0 enabled=$bad
check "set enabled=0 enabled=01: exit 1 (kernel -EINVAL)" eq "$rc" 1
check "... the kernel's error is reported" has "Invalid argument"
check "... enabled restored to 1" eq "$(knob enabled)" 1
# Several knobs: the ones already written are put back, in a real module.
if [ -e $SW_DBG/policy ] && [ -e $SW_DBG/factor ] && [ -e $SW_DBG/wa_bias ]; then
	p0=$(knob policy) f0=$(knob factor) w0=$(knob wa_bias)
	run $SW set policy=smartwake factor=7 wa_bias=$bad
	check "set policy=smartwake factor=7 wa_bias=01: exit 1" eq "$rc" 1
	check "... policy, factor, wa_bias unchanged ($p0 $f0 $w0)" \
		eq "$(knob policy) $(knob factor) $(knob wa_bias)" "$p0 $f0 $w0"
fi

# scheduler features
if [ -e $FEAT ] && grep -qw TTWU_QUEUE $FEAT; then
	run $SW set feature:NO_TTWU_QUEUE
	check "set feature:NO_TTWU_QUEUE: exit 0" eq "$rc" 0
	check "... NO_TTWU_QUEUE in $FEAT" grep -qw NO_TTWU_QUEUE $FEAT
	run $SW set feature:TTWU_QUEUE
	check "... and back" grep -qw TTWU_QUEUE $FEAT
	run $SW set feature:NO_NO_SUCH_FEATURE
	check "unknown feature: exit 2" eq "$rc" 2
else
	skip "feature checks: no TTWU_QUEUE in $FEAT"
fi

# --- stats -----------------------------------------------------------------
wakeload pipe -t 1 >/dev/null
run $SW stats
check "stats: exit 0" eq "$rc" 0
check "stats shows select_calls" has "^select_calls  *[0-9]"
run $SW stats --openmetrics
check "stats --openmetrics: exit 0, a counter family, # EOF last" \
	eval '[ $rc -eq 0 ] && has "^smartwake_select_calls_total [0-9]" && [ "$(tail -n 1 $out)" = "# EOF" ]'
$SW stats --json >/tmp/stats.json
rc=$?
check "stats --json: exit 0" eq "$rc" 0
echo "SMARTWAKE-JSON-BEGIN"
cat /tmp/stats.json
echo "SMARTWAKE-JSON-END"
# The structure of the flat object: "{", one "name": number|"string" per
# line with commas between, "}".
json_ok() {
	awk -v want="$(grep -c . $SW_DBG/stats)" '
		NR == 1 { if ($0 != "{") bad = "first line " $0; next }
		/^}$/ { closed = NR; next }
		{
			if (closed) bad = "text after }"
			if ($0 !~ /^  "[A-Za-z0-9_]+": (-?(0|[1-9][0-9]*)(\.[0-9]+)?|"[^"\\]*"),?$/)
				bad = "bad member " $0
			comma = ($0 ~ /,$/)
			if (n && !lastcomma) bad = "missing comma before " $0
			lastcomma = comma
			n++
		}
		END {
			if (!closed) bad = "no closing }"
			if (lastcomma) bad = "trailing comma"
			if (n != want) bad = "members " n " != stats lines " want
			if (bad) { print "  json: " bad; exit 1 }
		}' /tmp/stats.json
}
check "stats --json is a flat JSON object with every stats line" json_ok
check "stats --json has select_calls" grep -q '^  "select_calls": [0-9]' /tmp/stats.json
# the select hook exists only while policy is not stock
set_knob policy smartwake
wakeload pipe -t 3 >/dev/null &
wl=$!
run $SW stats --watch 1 --count 2
wait $wl
check "stats --watch 1 --count 2: exit 0" eq "$rc" 0
check "... two intervals" eq "$(grep -c '^--- ' $out)" 2
check "... select_calls rising at > 100/s" \
	eval "awk '\$1 == \"select_calls\" && \$3 > 100 { f = 1 } END { exit !f }' $out"
run $SW stats --watch 0
check "stats --watch 0: exit 2" eq "$rc" 2

run $SW reset
check "reset: exit 0" eq "$rc" 0
check "reset zeroes select_calls (< 1000 left)" eval '[ "$(stat select_calls)" -lt 1000 ]'

# --- ab --------------------------------------------------------------------
feat_b=
if [ -e $FEAT ] && grep -qw TTWU_QUEUE $FEAT; then
	feat_b=feature:NO_TTWU_QUEUE
fi
run $SW ab --a 'enabled=1 policy=smartwake' --b "enabled=0 $feat_b" --runs 2 -- wakeload pipe -t 1
check "ab: exit 0" eq "$rc" 0
check "ab: four runs" eq "$(grep -c '^run [12]/2 ' $out)" 4
check "ab: median line for A" has "^A  *[0-9.]*  *[0-9.]*\.\.[0-9.]*  *2  *1\.000\$"
check "ab: median line for B" has "^B  *[0-9.]*  *[0-9.]*\.\.[0-9.]*  *2  *[0-9.]*\$"
check "ab: ratio B/A" has "^ratio B/A (medians): [0-9][0-9.]*\$"
check "ab: unit ops_per_sec" has "^unit: ops_per_sec"
check "ab: select_calls delta shown" has "^select_calls  *[0-9][0-9]*  *[0-9]"
check "ab: enabled restored" eq "$(knob enabled)" 1
[ -n "$feat_b" ] && check "ab: TTWU_QUEUE restored" grep -qw TTWU_QUEUE $FEAT
run $SW ab --a '' --b 'enabled=0' --runs 1 -- sh -c 'exit 3'
check "ab with a failing command: exit 1" eq "$rc" 1
check "... enabled restored" eq "$(knob enabled)" 1

# --- the machine-state record and kernel tunables (issue 58) -----------------
SD=/sys/kernel/debug/sched
run $SW status --machine
check "status --machine: exit 0, the release, a feature, a sched tunable, the module's knobs" \
	eval '[ "$rc" -eq 0 ] && has "^kernel\.release = $(uname -r)\$" && has "^feature\.TTWU_QUEUE = [01]\$" &&
		has "^sched\.migration_cost_ns = [0-9][0-9]*\$" && has "^module\.policy = " && has "^cpu\.count = [0-9]"'
check "status --machine: the sched debug dump is left out" eval '! has "^sched\.debug "'
mc=$(cat $SD/migration_cost_ns)
run $SW ab --a '' --b "sched:migration_cost_ns=$((mc + 1000))" --runs 2 -- \
	sh -c "echo ops_per_sec=\$(cat $SD/migration_cost_ns)"
check "ab --b sched:migration_cost_ns: B ran with it, no state drift, exit 0" \
	eval '[ "$rc" -eq 0 ] && has "^B  *$((mc + 1000))\\.0 " && has "^machine state: the same before and after every run"'
check "... migration_cost_ns restored" eq "$(cat $SD/migration_cost_ns)" "$mc"
if [ -w $SD/preempt ]; then
	pm=$(sed 's/.*(\(.*\)).*/\1/' $SD/preempt)
	run $SW set sched:preempt=none
	check "set sched:preempt=none: exit 0, (none) chosen" eval '[ "$rc" -eq 0 ] && grep -q "(none)" $SD/preempt'
	run $SW set sched:preempt=$pm
	check "... set back to $pm" eval '[ "$rc" -eq 0 ] && grep -q "($pm)" $SD/preempt'
fi
nb=/proc/sys/kernel/numa_balancing
if [ -w $nb ]; then
	v=$(cat $nb)
	run $SW ab --a '' --b '' --runs 2 -- sh -c "echo \$((1 - $v)) >$nb; echo ops_per_sec=1"
	check "ab, the command flips kernel.numa_balancing: refused (exit 1), the key named" \
		eval '[ "$rc" -eq 1 ] && has "sysctl\.kernel\.numa_balancing: $v at the start" && has "allow-state-drift"'
	echo "$v" >$nb
	run $SW ab --a "sysctl:kernel.numa_balancing=0" --b "sysctl:kernel.numa_balancing=1" --runs 1 -- \
		sh -c "echo ops_per_sec=\$(cat $nb)1"
	check "ab, kernel.numa_balancing under test: exit 0, each side its value, restored" \
		eval '[ "$rc" -eq 0 ] && has "^A  *1\\.0 " && has "^B  *11\\.0 " && [ "$(cat $nb)" = "$v" ]'
fi

rmmod smartwake
check "rmmod" eval '[ ! -e $SW_DBG ]'
check "kernel log clean" dmesg_clean
summary
