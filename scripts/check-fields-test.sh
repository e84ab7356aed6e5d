#!/usr/bin/env bash
# Tests of scripts/check-fields.sh, the guard that keeps module/fields.h
# (the fields layout.c checks against the running kernel's BTF) in step
# with the fields the module reads.
#
# Usage: scripts/check-fields-test.sh
#
# The real tree must pass. Then, each in a temporary copy of the built
# tree with one change, the guard must fail with a message naming the
# field: an entry removed that only a kernel inline helper reads
# (task_struct.nr_cpus_allowed, by is_per_cpu_kthread()); an entry
# removed that the module reads through its accessor (rq.rd: the build
# fails on the missing accessor); a raw read of an unlisted field added to
# path/sis.c (rq.clock_task); a raw read of a listed field (rq.nr_running);
# an entry added that nothing reads (rq.clock_task). Needs the module built (make).
# Prints "N passed, N failed"; exits non-zero on any failure.
. "$(dirname "$0")/common.sh"
set +e

case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
esac

G=$SW_TOP/scripts/check-fields.sh
[ -f "$SW_TOP/module/path/.path.o.cmd" ] || sw_die "build the module first (make)"
# shellcheck source=scripts/testlib.sh
. "$SW_TOP/scripts/testlib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-fields-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
T=$tmp/tree

# fresh: a copy of the built tree (sources and kbuild's .cmd files)
fresh() {
	rm -rf "$T"
	mkdir -p "$T"
	cp -a "$SW_TOP/Kbuild" "$SW_TOP/module" "$SW_TOP/include" "$T/"
}
# guard [FILE.c...]: run the guard on the copy; output in $tmp/out
guard() { "$G" --tree "$T" "$@" >"$tmp/out" 2>&1; }
has() { grep -qF -- "$1" "$tmp/out" || { echo "  expected: $1"; sed 's/^/  | /' "$tmp/out" | head -n 12; false; }; }
# edit FILE SED-SCRIPT: change a file of the copy, and check it changed
edit() {
	cp "$T/$1" "$tmp/before"
	sed -i "$2" "$T/$1"
	! cmp -s "$tmp/before" "$T/$1"
}

"$G" >"$tmp/out" 2>&1
rc=$?
check "the real tree passes" [ "$rc" -eq 0 ]
check "the real tree: every listed field is read" has ": match"

fresh
check "entry task_struct.nr_cpus_allowed removed" \
	edit module/fields.h '/SW_SCHED_FIELD(task_struct, nr_cpus_allowed)/d'
check "  the guard fails" eval '! guard path/sis.c'
check "  naming the field and the kernel helper that reads it" \
	has "task_struct.nr_cpus_allowed is read but not in module/fields.h: by is_per_cpu_kthread"

fresh
check "entry rq.rd removed" edit module/fields.h '/SW_SCHED_FIELD(rq, rd)/d'
check "  the guard fails" eval '! guard path/wake.c'
check "  the build fails on the accessor, naming the field" has "sw_field_rq__rd"

fresh
check "raw read of unlisted rq.clock_task added to path/sis.c" \
	edit module/path/sis.c 's/^\tsw_count_decided(SW_C_sis_calls, 1);$/&\n\tREAD_ONCE(sw_cpu_rq(this_cpu)->clock_task);/'
check "  the guard fails" eval '! guard path/sis.c'
check "  naming the field" \
	has "rq.clock_task is read but not in module/fields.h: by __sw_select_idle_sibling"
check "  and the raw read" has "rq.clock_task is read directly by __sw_select_idle_sibling"

fresh
check "raw read of listed rq.nr_running added to path/sis.c" \
	edit module/path/sis.c 's/^\tsw_count_decided(SW_C_sis_calls, 1);$/&\n\tREAD_ONCE(sw_cpu_rq(this_cpu)->nr_running);/'
check "  the guard fails" eval '! guard path/sis.c'
check "  naming the raw read" has "rq.nr_running is read directly by __sw_select_idle_sibling"

fresh
check "entry rq.clock_task added, read nowhere" \
	edit module/fields.h 's/^SW_SCHED_FIELD(rq, cpu)$/&\nSW_SCHED_FIELD(rq, clock_task)/'
check "  the guard fails" eval '! guard'
check "  naming the field" has "rq.clock_task is listed in module/fields.h but read nowhere"

summary
