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
summary
