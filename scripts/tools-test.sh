#!/usr/bin/env bash
# make check step "tools-host": the workload tools' timed run on this host
# (a userspace ping-pong, nothing loaded into a kernel). A clock jump in
# the middle of a run (a paused host, or a guest its host did not run:
# CI, 2026-12-03, a 1 s load that ended with no events) is added to the
# run and told on stderr; a run with no jump keeps its length.
#
# The jump is made by stopping wakeload's parent (SIGSTOP) for 1.5 s:
# its children go on, its clock reads come 1.5 s late.
#
# The instruction profile's host half (scripts/insnprof.sh): the QEMU
# plugin builds and exports its entry points; --report, --diff and
# --annotate of a synthetic run (two snapshots, symbols, counters) print
# the instructions per wakeup a hand count gives.
#
# Usage: scripts/tools-test.sh
. "$(dirname "$0")/common.sh"
. "$SW_TOP/scripts/testlib.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
cd "$SW_TOP" || exit 1

make -s -C tools wakeload >/dev/null || sw_die "cannot build tools/wakeload"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# secs FILE: the secs= figure of wakeload's line
secs() { sed -n 's/.* secs=\([0-9.]*\) .*/\1/p' "$1"; }

tools/wakeload pipe -p 1 -t 2 >"$t/plain" 2>"$t/plain.err"
check "wakeload with no jump: exit 0" test $? -eq 0
S=$(secs "$t/plain")
check "wakeload with no jump: secs=$S, within 2..2.5" \
	awk -v s="$S" 'BEGIN { exit !(s >= 2 && s < 2.5) }'
check "wakeload with no jump: nothing on stderr" test ! -s "$t/plain.err"

tools/wakeload pipe -p 1 -t 2 >"$t/jump" 2>"$t/jump.err" &
pid=$!
sleep 0.5
kill -STOP "$pid"
sleep 1.5
kill -CONT "$pid"
wait "$pid"
check "wakeload with a 1.5 s jump: exit 0" test $? -eq 0
S=$(secs "$t/jump")
# 2 s of run plus the 1.5 s stop, less the 0.5 s a slice may be late
# before it counts as a jump
check "wakeload with a 1.5 s jump: secs=$S, the jump added (at least 3)" \
	awk -v s="$S" 'BEGIN { exit !(s >= 3 && s < 4.5) }'
check "wakeload with a 1.5 s jump: told on stderr" \
	grep -q 'the clock jumped [0-9.]* s during the run' "$t/jump.err"
sed 's/^/  /' "$t/jump.err"

# insnprof: the plugin, and the report of a synthetic run A (10 wakeups)
gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$t/insnprof.so" tools/insnprof/insnprof.c
check "insnprof plugin builds" test $? -eq 0
check "insnprof plugin exports qemu_plugin_install and qemu_plugin_version" \
	eval 'nm -D --defined-only "$t/insnprof.so" | grep -c " qemu_plugin_\(install\|version\)$" | grep -qx 2'
mkrun() { # DIR BLOCKS_OF_SNAPSHOT_2 WAKEUPS
	mkdir -p "$1"
	printf 'ffffffff81001000 select_task_rq_fair\nffffffff81002000 pipe_write\n' >"$1/syms.txt"
	printf 'ffffffffc0001000 sw_wake\n' >"$1/module-syms.txt"
	printf 'wakeups %s\n' "$3" >"$1/stats.txt"
	echo "synthetic run" >"$1/meta.txt"
	# block: address, length, executions, instructions (cumulative)
	printf '# snapshot 1\nffffffff81001000 10 5 50\nffffffffc0001000 4 1 4\n' >"$1/prof.1"
	printf '# snapshot 2\n%b' "$2" >"$1/prof.2"
}
mkrun "$t/A" 'ffffffff81001000 10 15 150\nffffffff81001010 3 10 30\nffffffffc0001000 4 31 124\nffffffff81002000 20 50 1000\n' 10
mkrun "$t/B" 'ffffffff81001000 10 25 250\nffffffff81001010 3 20 60\nffffffffc0001000 4 1 4\nffffffff81002000 20 50 1000\n' 20
scripts/insnprof.sh --report "$t/A" >"$t/rep" 2>&1
# A: select_task_rq_fair (150 - 50) + 30 = 130, sw_wake 120, pipe_write 1000
check "insnprof --report: the module's functions per wakeup (120 / 10)" \
	grep -q '^# module functions: 12.0 per wakeups; all kernel code: 125.0 per wakeups' "$t/rep"
check "insnprof --report: a function's blocks summed, snapshot 1 taken off (130 / 10)" \
	grep -Eq '^select_task_rq_fair +130 +13.0 ' "$t/rep"
scripts/insnprof.sh --diff "$t/A" "$t/B" --per calls:select_task_rq_fair >"$t/diff" 2>&1
# calls: entries of the block at the symbol, A 10, B 20; sw_wake 120 / 10 -> 0
check "insnprof --diff per calls:FUNCTION: sw_wake 12.0 -> 0.0" \
	grep -Eq '^sw_wake +12.0 +0.0 +-12.0$' "$t/diff"
scripts/insnprof.sh --annotate select_task_rq_fair "$t/A" >"$t/ann" 2>&1
check "insnprof --annotate: the block at +0x10, 1 execution and 3 instructions per wakeup" \
	grep -Eq '^ +\+0x10 +3 +1.00 +3.0$' "$t/ann"
for f in rep diff ann; do sed 's/^/  /' "$t/$f"; done
summary
