#!/usr/bin/env bash
# Issue 59, item 1: the transition of the one unexplained guest oops
# (load, ttwu_count=1, a fork-heavy load, ttwu_count=0, unload), looped
# by guest/oops-loop.sh on the stock kernel in the issue's variants: 2
# and 4 vCPUs, with and without -icount shift=0,sleep=off, alone or with
# a second guest of the same loop running beside it (--beside: two TCG
# guests on the host's 2 CPUs, as when the oops was seen). Each run adds
# a row to build/figures/oops-loop.tsv; the figures section oops-loop
# sums every row of the file (runs of several invocations, each row with
# its commit) and says why the oops's EFLAGS cannot come from a real CPU.
#
# Usage: scripts/oops-loop.sh [--iterations N] [--runs LIST] [--beside]
#                             [--nomodule] [--timeout S] [--no-figures] [--report]
#   --iterations N  iterations per run (default 100)
#   --runs LIST     comma-separated, of smp2 smp4 smp2-icount smp4-icount
#                   (default: all four, one after the other)
#   --beside        each run with a second guest beside it, the same loop
#                   on the other vCPU count (its row is recorded too)
#   --nomodule      the control: the same forks without the module (runs
#                   named RUN-nomodule)
#   --timeout S     per guest (default 60 s + 12 s per iteration)
#   --report        write the figures section from the TSV, run nothing
#   --record RUN LOG RC  add the row of a run's existing console LOG (a
#                   run whose host script was stopped), run nothing
#   --no-figures    run, record, write no section
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac

iters=100 runs=smp2,smp4,smp2-icount,smp4-icount beside=0 timeout= figs=1 report=0 mode=module rec=()
while [ $# -gt 0 ]; do
	case $1 in
	--iterations) iters=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--beside) beside=1; shift ;;
	--nomodule) mode=nomodule; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--no-figures) figs=0; shift ;;
	--report) report=1; shift ;;
	--record) rec=("$2" "$3" "$4"); shift 4 ;;
	*) sw_die "unknown argument: $1 (try --help)" ;;
	esac
done
if ! [[ $iters =~ ^[0-9]+$ ]] || [ "$iters" -eq 0 ]; then
	sw_die "--iterations wants a positive number"
fi
timeout=${timeout:-$((60 + 12 * iters))}
tsv=$SW_TOP/build/figures/oops-loop.tsv
mkdir -p "$SW_TOP/build/figures" "$SW_TOP/build/logs"
commit=$(git -C "$SW_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)

# guest_args RUN: guest-run.sh's options of a run name
guest_args() {
	case ${1%-nomodule} in
	smp2|smp4) echo "--topo $1" ;;
	smp2-icount|smp4-icount) r=${1%-nomodule}; echo "--topo ${r%-icount} --icount" ;;
	*) sw_die "unknown run $1 (smp2, smp4, smp2-icount, smp4-icount)" ;;
	esac
}
# record RUN BESIDE LOG RC: the run's OOPS-LOOP line as a TSV row; a
# guest that died: the iterations before the one it died in, and the
# crash's first line, EFLAGS and RAX as the verdict
record() {
	local line it clean calls cpus first verdict last crash
	line=$(grep -a '^OOPS-LOOP ' "$3" | tr -d '\r' | tail -n 1) || true
	it=$(sed -n 's/.*iterations=\([0-9]*\).*/\1/p' <<<"$line")
	clean=$(sed -n 's/.*clean=\([0-9]*\).*/\1/p' <<<"$line")
	calls=$(sed -n 's/.*calls=\([0-9]*\).*/\1/p' <<<"$line")
	cpus=$(sed -n 's/.*cpus=\([0-9]*\).*/\1/p' <<<"$line")
	[ -n "$cpus" ] || cpus=$(grep -a -m1 -o 'SMARTWAKE-GUEST-START .* cpus=[0-9]*' "$3" | sed 's/.*cpus=//') || true
	first=$(sed -n 's/.*first_bad=\([0-9]*\).*/\1/p' <<<"$line")
	verdict=pass
	[ "$4" -eq 0 ] || verdict="fail rc=$4"
	if [ -z "$line" ]; then
		last=$(grep -a '^OOPS-LOOP-ITER ' "$3" | tr -d '\r' | tail -n 1 | cut -d' ' -f2) || true
		it='?' clean='?' first='?'
		[ -z "$last" ] || it=$((last - 1)) clean=$((last - 1)) first=$last
		crash=$(grep -a -m1 -E 'Oops|BUG:|WARNING:|Kernel panic|general protection' "$3" | tr -d '\r' | sed 's/^\[ *[0-9.]*\] //') || true
		crash+=$(grep -a -m1 'EFLAGS:' "$3" | tr -d '\r' | sed 's/.*\(EFLAGS: [0-9a-f]*\).*/; \1/') || true
		# the first dump's general registers, "RAX ... R15"
		crash+=$(grep -a -E 'R[A-Z0-9]{1,2}: [0-9a-f]{16}' "$3" | tr -d '\r' | head -n 5 |
			grep -o -E '\bR[A-Z0-9]{1,2}: [0-9a-f]{16}' | tr '\n' ' ' | sed 's/^/, /; s/ $//') || true
		verdict="guest died in iteration ${last:-?}: ${crash:-no report}"
	fi
	[ -s "$tsv" ] || printf 'commit\tdate\trun\tbeside\tcpus\titerations\tclean\twakelist_calls\tfirst_unclean\tverdict\tlog\n' >"$tsv"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$commit" "$(date -u +%Y-%m-%dT%H:%MZ)" "$1" "$2" \
		"${cpus:-?}" "${it:-0}" "${clean:-0}" "${calls:-0}" "${first:--}" \
		"$verdict" "${3#"$SW_TOP"/}" >>"$tsv"
	sw_log "oops-loop $1${2:+ beside $2}: ${it:-0} iterations, ${clean:-0} clean, rc $4 (log: $3)"
}

# run1 RUN [BESIDE]: one guest of the loop; its log and status
run1() {
	local run=$1 b=${2:-} log rc=0
	# one log per run: a row of the TSV keeps pointing at its own
	log=$SW_TOP/build/logs/oops-loop-$run${b:+-beside}-$(date -u +%Y%m%dT%H%M%S).log
	# shellcheck disable=SC2046 # guest_args is a word list
	nice -n 10 "$SW_TOP/scripts/guest-run.sh" $(guest_args "$run") --timeout "$timeout" \
		--log "$log" oops-loop.sh "$iters" "$mode" >"$log.out" 2>&1 || rc=$?
	record "$run" "$b" "$log" "$rc"
	return $rc
}

# figtext: the section, from every row of the TSV
figtext() {
	echo "## The oops of the overhead experiment, looped (issue 59)"
	echo
	echo "scripts/oops-loop.sh: guest/oops-loop.sh on the stock kernel (Debian's 6.12 cloud kernel, TCG,"
	echo "one thread). Each iteration: insmod, ttwu_count=1 (the csd_queue_cpu probe and the ftrace"
	echo "pre-handler on ttwu_queue_wakelist), a fork-heavy load (wakeload msg -g 2 -s 4 -r 4 for 0.3 s:"
	echo "16 forked tasks, then 20 fork+exec of sh), ttwu_count=0, rmmod; odd iterations write the knob"
	echo "while the forks run. After each: the hooks were there and are gone, and the kernel log has"
	echo "no warning, bug or oops. beside: another guest of the same loop ran at the same time."
	echo
	echo "| commit | run | vCPUs | icount | beside | iterations | clean | wakelist calls counted | first unclean | verdict |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' 'NR > 1 {
		ic = ($3 ~ /icount/) ? "yes" : "no"
		v = $10; sub(/, RAX:.*/, "", v)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $3, $5, ic, ($4 == "" ? "no" : $4), $6, $7, $8, $9, v
	}' "$tsv"
	awk -F'\t' 'NR > 1 { it += $6; n++; if ($10 ~ /^guest died/) d++; else if ($10 != "pass") f++ }
	END { printf "\nIn all: %d guest runs, %d iterations completed with a clean log; %d guests died, %d other runs failed.\n", n, it, d, f }' "$tsv"
	# each crash's EFLAGS against its registers: bits 12-31 of EFLAGS
	# equal to those of a register's low half is a flags value taken from
	# that register's value
	local v e r m reg val
	while IFS=$'\x1f' read -r r v; do
		[[ $v =~ EFLAGS:\ ([0-9a-f]+) ]] || continue
		e=$((16#${BASH_REMATCH[1]})) m=
		for reg in $(grep -o -E '\bR[A-Z0-9]{1,2}: [0-9a-f]{16}' <<<"$v" | tr -d ' '); do
			val=$((16#${reg#*:} & 0xffffffff))
			[ $((val >> 12)) -ne $((e >> 12)) ] || m+="${m:+, }${reg%%:*} (low half $(printf %08x $val))"
		done
		printf '\n%s: EFLAGS %08x, reserved bits (31-22, 15, 5, 3) %s; bits 31-12 equal to those of %s.\n' \
			"$r" "$e" "$( ((e & 0xffc08028)) && printf 'set: %08x' $((e & 0xffc08028)) || echo clear)" "${m:-no register}"
	done < <(awk -F'\t' 'NR > 1 { print $3 "\x1f" $10 }' "$tsv")
	echo
	echo "Why these EFLAGS cannot come from a real CPU, what the loop reproduced (the same double"
	echo "fault with no module ever loaded: the emulator's) and the emulator's known issues searched:"
	echo "Documentation/studies/oops-loop.md."
}

if [ ${#rec[@]} -eq 3 ]; then
	record "${rec[0]}" "" "${rec[1]}" "${rec[2]}"
	exit 0
fi
if [ "$report" -eq 1 ]; then
	[ -s "$tsv" ] || sw_die "no runs recorded in $tsv"
	figtext | "$SW_TOP/scripts/figures.sh" oops-loop -
	exit 0
fi

fails=0
IFS=, read -r -a list <<<"$runs"
for r in "${list[@]}"; do
	guest_args "$r" >/dev/null
	[ "$mode" = module ] || r=$r-nomodule
	if [ "$beside" -eq 1 ]; then
		# the other vCPU count, same clock, beside it
		case $r in
		smp2*) o=smp4${r#smp2} ;;
		*) o=smp2${r#smp4} ;;
		esac
		# (the suffix -nomodule stays on both)
		run1 "$o" "$r" &
		bpid=$!
		run1 "$r" "$o" || fails=$((fails + 1))
		wait "$bpid" || fails=$((fails + 1))
	else
		run1 "$r" || fails=$((fails + 1))
	fi
done
[ "$figs" -eq 0 ] || figtext | "$SW_TOP/scripts/figures.sh" oops-loop -
[ "$fails" -eq 0 ] || sw_die "$fails run(s) failed (build/figures/oops-loop.tsv, build/logs/oops-loop-*.log)"
