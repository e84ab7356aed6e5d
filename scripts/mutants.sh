#!/usr/bin/env bash
# make mutants: a mutation suite that shows make check's tests can fail
# (not part of make check). Each mutant of scripts/mutants.tsv changes one
# line of the committed tree as a real bug would; it is applied to a clean
# copy (git archive HEAD into build/mutants/work/ID), the copy is built for
# the make check steps the row names (make module and make testing for the
# stock kernel's guests, scripts/build-debug-modules.sh for the debug
# kernel's; scripts/check.sh builds the rest) and those steps run in the
# copy, one after the other, until one fails; --jobs 2 runs two mutants
# at once (two guests, as make check's two lanes; the builds niced, so that
# they take what the other mutant's guest leaves).
# Verdicts: killed (a step failed: the deepest first "not ok" line of its
# output names the check), killed by the build (a compiler error in the
# mutated file), survived (every step passed: make mutants fails), not
# applied (the sed changed no line, or more than one: make mutants
# fails), no verdict (the build failed outside the mutated file: the
# lab's fault, a failure too). One KTAP result per mutant (ok = killed),
# a summary to Documentation/figures.md, section mutants, and the table
# to Documentation/mutants.md (this run's rows, and those of earlier runs
# for the mutants it did not run, with their commit). Each mutant costs its builds (about a minute,
# two for KUnit's) and its steps (see figures.md, make check); the whole
# table takes about an hour and a half alone, about 55 minutes with
# --jobs 2: --only picks some.
#
# Usage: scripts/mutants.sh [--only ID,...] [--jobs N] [--keep]
#        scripts/mutants.sh --list | --check-seds | --report
#   --only ID,...  these mutants (default: all of them)
#   --jobs N       N mutants at once (default 1; each runs one guest at a
#                  time: no more than the host's CPUs)
#   --keep         keep each mutant's copy (build/mutants/work/ID)
#   --list         print the table: id, file, steps, description
#   --report       run nothing: write the section again from its rows
#   --check-seds   no build, no guest: apply every sed to the file as it
#                  is in the work tree (what the next commit holds) and
#                  report those that change no line or more than one, and
#                  steps that scripts/check.sh does not know (make check's
#                  scripts step runs it)
# Outputs: build/mutants/ID.log (the builds and the steps' output).
. "$(dirname "$0")/common.sh"
# shellcheck source=scripts/testlib.sh
. "$SW_TOP/scripts/testlib.sh"

table=$SW_TOP/scripts/mutants.tsv
mode=run keep=0 jobs=1 only=()
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sw_help "$0"; exit 0 ;;
	--list) mode=list; shift ;;
	--check-seds) mode=check; shift ;;
	--report) mode=report; shift ;;
	--keep) keep=1; shift ;;
	--jobs) jobs=${2:-}; shift 2 || sw_die "--jobs wants a number" ;;
	--only) IFS=, read -r -a only <<<"${2:-}"; shift 2 || sw_die "--only wants ID,ID..." ;;
	*) sw_die "unknown argument $1 (see --help)" ;;
	esac
done
cd "$SW_TOP" || exit
[[ $jobs =~ ^[1-9][0-9]*$ ]] || sw_die "--jobs wants a number of 1 or more, not '$jobs'"

# The rows: arrays M_ID, M_FILE, M_STEPS, M_SED, M_DESC.
M_ID=() M_FILE=() M_STEPS=() M_SED=() M_DESC=()
while IFS=$'\t' read -r id file steps expr desc; do
	[[ -z $id || $id == \#* ]] && continue
	M_ID+=("$id") M_FILE+=("$file") M_STEPS+=("$steps") M_SED+=("$expr") M_DESC+=("$desc")
done <"$table"
# selected: the indices of the rows to run (--only, else all)
selected=()
if [ ${#only[@]} -gt 0 ]; then
	for o in "${only[@]}"; do
		found=
		for i in "${!M_ID[@]}"; do
			[ "${M_ID[$i]}" = "$o" ] && found=$i
		done
		[ -n "$found" ] || sw_die "no mutant $o (see --list)"
		selected+=("$found")
	done
else
	selected=("${!M_ID[@]}")
fi

if [ "$mode" = list ]; then
	for i in "${selected[@]}"; do
		printf '%s\t%s\t%s\t%s\n' "${M_ID[$i]}" "${M_FILE[$i]}" "${M_STEPS[$i]}" "${M_DESC[$i]}"
	done | column -t -s $'\t'
	echo "${#selected[@]} mutants"
	exit 0
fi

# mutate FILE EXPR OUT: the mutant of FILE (as committed) in OUT; prints
# "changed N" with N the number of lines that differ (0: not applied)
mutate() {
	sed -e "$2" "$1" >"$3" || return 1
	echo "changed $(diff "$1" "$3" | grep -c '^>' || true)"
}

if [ "$mode" = check ]; then
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/smartwake-mutants.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	known=$(scripts/check.sh --list)
	declare -A seen=()
	for i in "${selected[@]}"; do
		id=${M_ID[$i]} f=${M_FILE[$i]} bad=
		[ -z "${seen[$id]:-}" ] || bad+=" id used twice;"
		seen[$id]=1
		if cp "$f" "$tmp/orig" 2>/dev/null; then
			r=$(mutate "$tmp/orig" "${M_SED[$i]}" "$tmp/new" 2>&1) || bad+=" sed failed: $r;"
			[ "$r" = "changed 1" ] || bad+=" ${r:-sed failed} lines (want 1);"
		else
			bad+=" no file $f;"
		fi
		IFS=, read -r -a st <<<"${M_STEPS[$i]}"
		[ ${#st[@]} -gt 0 ] || bad+=" no step;"
		for s in "${st[@]}"; do
			grep -qx -- "$s" <<<"$known" || bad+=" unknown step $s;"
		done
		if [ -z "$bad" ]; then
			ok "$id: the sed changes one line of $f; steps ${M_STEPS[$i]} exist"
		else
			not_ok "$id:${bad%;}"
		fi
	done
	summary
	exit
fi

# ---- run -------------------------------------------------------------------
rows= head=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
nk=0 nb=0 ns=0 nn=0 ne=0
if [ "$mode" = report ]; then
	selected=()
else
git rev-parse --verify -q HEAD >/dev/null || sw_die "not a git tree: make mutants copies HEAD"
[ -z "$(git status --porcelain -- module include kunit tools scripts guest Makefile Kbuild)" ] ||
	sw_log "uncommitted changes are not in the mutants' copies (git archive HEAD)"
out=build/mutants
mkdir -p "$out/work"
exec 8>"$out/.lock"
flock -n 8 || sw_die "another make mutants is running in $SW_TOP"
# A mutant's builds are made once: they would only push the clean tree's
# out of the build cache (scripts/build-modules.sh)
export SMARTWAKE_BUILD_CACHE=0
# each step's kernel (check.sh --table: NAME LANE KERNEL ...)
declare -A kernel_of=()
while IFS=$'\t' read -r s _ k _; do kernel_of[$s]=$k; done < <(scripts/check.sh --table)

# build COPY FILE STEP...: what the steps need that check.sh does not
# build (and tools/, built by the steps themselves, when FILE is there:
# so that a mutant that does not compile is told from a failing test)
build_for() {
	local c=$1 f=$2 s stock=0 debug=0
	shift 2
	case $f in tools/*) make -C "$c/tools" -s || return 1 ;; esac
	for s; do
		case ${kernel_of[$s]:-} in
		stock) stock=1 ;;
		debug) debug=1 ;;
		esac
	done
	if [ $stock -eq 1 ]; then
		make -C "$c" -s module && make -C "$c" -s testing || return 1
	fi
	if [ $debug -eq 1 ]; then
		"$c/scripts/build-debug-modules.sh" || return 1
	fi
	return 0
}

# first_not_ok FILE: the failing check that names the most: the first
# "not ok" line of the deepest nesting (a KUnit case's parameter rather
# than its suite), without its indentation and '#' (a KTAP directive)
first_not_ok() {
	awk '/^ *not ok / { match($0, /^ */)
		if (!n++ || RLENGTH > best) { best = RLENGTH; line = substr($0, RLENGTH + 1) } }
		END { print line }' "$1" 2>/dev/null | tr -d '#' | cut -c1-120 || true
}

# run_mutant INDEX: sets RES (killed, build-failed, survived, not-applied,
# error: the build failed elsewhere than in the mutated file, no verdict),
# BY (the step, or build), CHECK (the first failing check), SECS
run_mutant() {
	local i=$1 id=${M_ID[$1]} f=${M_FILE[$1]} c log t0=$SECONDS r s st
	c=$SW_TOP/$out/work/$id log=$SW_TOP/$out/$id.log
	RES= BY=- CHECK=-
	rm -rf "$c"
	mkdir -p "$c"
	git archive HEAD | tar -x -C "$c"
	{
		echo "mutant $id: ${M_DESC[$i]}"
		echo "file $f, sed: ${M_SED[$i]}"
	} >"$log"
	r=$(mutate "$c/$f" "${M_SED[$i]}" "$c/$f.mut" 2>&1) || r="sed failed: $r"
	if [ "$r" != "changed 1" ]; then
		RES=not-applied CHECK="$r lines"
	else
		diff -u "$c/$f" "$c/$f.mut" >>"$log" || true
		mv "$c/$f.mut" "$c/$f"
		IFS=, read -r -a st <<<"${M_STEPS[$i]}"
		if ! (renice -n 10 -p "$BASHPID" >/dev/null
			build_for "$c" "$f" "${st[@]}") >>"$log" 2>&1; then
			# a compiler error in the mutated file kills it; any other
			# build failure is the lab's, not a verdict
			CHECK=$(grep -m1 -E "${f##*/}:[0-9]+:([0-9]+:)? (fatal )?error:" "$log" |
				sed 's/^.*error: //' | tr -d '#' | cut -c1-100) || true
			if [ -n "$CHECK" ]; then
				RES=build-failed BY=build
			else
				RES=error BY=build CHECK="the build failed, not in ${f##*/} (see the log)"
			fi
		else
			RES=survived
			for s in "${st[@]}"; do
				echo "==== step $s ====" >>"$log"
				if ! (cd "$c" && scripts/check.sh --jobs 1 "$s") >>"$log" 2>&1; then
					RES=killed BY=$s
					CHECK=$(first_not_ok "$c/build/logs/check/$s.out")
					[ -n "$CHECK" ] || CHECK="no not-ok line: $(tail -n 1 "$c/build/logs/check/$s.out" 2>/dev/null | tr -d '#|' | cut -c1-100 || true)"
					break
				fi
			done
		fi
	fi
	SECS=$((SECONDS - t0))
	echo "verdict: $RES by $BY ($CHECK) in ${SECS}s" >>"$log"
	[ "$keep" -eq 1 ] || rm -rf "$c"
}

# The mutants run in background workers, at most $jobs at once, each
# writing its verdict to $out/verdict/ID (RES, BY, CHECK, SECS: one per
# line); the results are read back in the table's order.
rm -rf "$out/verdict"
mkdir -p "$out/verdict"
running=0
for i in "${selected[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	sw_log "mutant ${M_ID[$i]} (${M_FILE[$i]}; steps ${M_STEPS[$i]})"
	(
		run_mutant "$i"
		printf '%s\n' "$RES" "$BY" "$CHECK" "$SECS" >"$out/verdict/${M_ID[$i]}"
		sw_log "mutant ${M_ID[$i]}: $RES by $BY in ${SECS}s"
	) &
	running=$((running + 1))
done
wait

for i in "${selected[@]}"; do
	id=${M_ID[$i]}
	{ read -r RES; read -r BY; read -r CHECK; read -r SECS; } <"$out/verdict/$id" 2>/dev/null ||
		RES=error BY=- CHECK="the worker left no verdict (see $out/$id.log)" SECS=0
	case $RES in
	killed) nk=$((nk + 1)); ok "$id: killed by $BY ($CHECK) in ${SECS}s" ;;
	build-failed) nb=$((nb + 1)); ok "$id: killed by the build ($CHECK) in ${SECS}s" ;;
	survived) ns=$((ns + 1)); not_ok "$id: SURVIVED ${M_STEPS[$i]} in ${SECS}s (log: $out/$id.log)" ;;
	error) ne=$((ne + 1)); not_ok "$id: no verdict: $CHECK (log: $out/$id.log)" ;;
	*) nn=$((nn + 1)); not_ok "$id: not applied: $CHECK" ;;
	esac
	CHECK=${CHECK//|/\\|}
	[ ${#CHECK} -le 40 ] || CHECK="${CHECK:0:37}..."
	rows+="| $id | $RES | $BY | $CHECK | $head |"$'\n'
done
fi
# The rows of earlier runs for the mutants this one did not run are kept
# (with the commit they ran at: the section's stamp for rows without one),
# so --only adds to the table instead of replacing it. A row written
# before the table lost its description column (the bug is described in
# scripts/mutants.tsv) loses it here.
ran=" "
for i in "${selected[@]}"; do ran+="${M_ID[$i]} "; done
# The rows live in Documentation/mutants.md; a figures.md that still
# holds the whole table (before it moved) is read once.
tab=Documentation/mutants.md
grep -q '^<!-- BEGIN mutants -->' "$tab" 2>/dev/null || tab=Documentation/figures.md
# rows of mutants no longer in scripts/mutants.tsv are dropped
known=" ${M_ID[*]} "
old=$(awk -v ran="$ran" -v known="$known" '
	/^<!-- BEGIN mutants -->/ { in_s = 1; next }
	/^<!-- END mutants -->/ { in_s = 0 }
	!in_s { next }
	/^_commit / { c = $2; sub(/,$/, "", c); next }
	/^\| [a-z0-9-]+ \| / {
		row = $0
		sub(/^\| /, "", row); sub(/ \|$/, "", row)
		n = split(row, f, " \\| ")
		id = f[1]
		if (id == "mutant" || index(ran, " " id " ") || !index(known, " " id " ")) next
		# a row of before the description column left: drop it
		if (f[2] !~ /^(killed|build-failed|survived|error|not-applied)$/) {
			for (i = 2; i < n; i++) f[i] = f[i + 1]
			n--
		}
		# id verdict step check [seconds] [commit]
		commit = c
		if (n >= 6) commit = f[6]
		else if (n == 5 && f[5] !~ /^[0-9]+$/) commit = f[5]
		chk = f[4]
		if (length(chk) > 40) chk = substr(chk, 1, 37) "..."
		print "| " id " | " f[2] " | " f[3] " | " chk " | " commit " |"
	}' "$tab" 2>/dev/null || true)
all=$(printf '%s%s\n' "$rows" "$old" | grep -c '^| ' || true)
verdicts=$(printf '%s%s\n' "$rows" "$old" | awk -F' [|] ' '/^[|] /{ n[$2]++ } END { s = ""; for (v in n) s = s (s ? ", " : "") n[v] " " v; print s "." }')
head_row='| mutant | verdict | step | first failing check | commit |'$'\n''|---|---|---|---|---|'
# the whole table: Documentation/mutants.md
{
	echo "## make mutants (scripts/mutants.sh): every mutant's row"
	echo
	echo "Mutants of scripts/mutants.tsv (the bug each plants: scripts/mutants.sh --list), each run on the committed tree of its row's commit; the summary is in [figures.md](figures.md#make-mutants-scriptsmutantssh). The table holds $all of the ${#M_ID[@]} mutants: $verdicts"
	echo
	echo "$head_row"
	printf '%s' "$rows"
	[ -z "$old" ] || printf '%s\n' "$old"
} | scripts/figures.sh --doc Documentation/mutants.md mutants - || true
# figures.md: the counts, the last run, killed per step, and the rows
# of every mutant not killed
{
	echo "## make mutants (scripts/mutants.sh)"
	echo
	echo "Mutants of scripts/mutants.tsv, each run on the committed tree of its row's commit; every mutant's row (step, first failing check, commit): [mutants.md](mutants.md). The table holds $all of the ${#M_ID[@]} mutants:"
	echo "$verdicts"
	[ "$mode" = report ] ||
		echo "The last run ($head): ${#selected[@]} rows; $nk killed by a step, $nb by the build, $ns survived, $nn not applied$([ "$ne" -eq 0 ] || echo ", $ne without a verdict (the lab's build failed)")."
	echo
	echo "Killed per step: $(printf '%s%s\n' "$rows" "$old" | awk -F' [|] ' '$2 == "killed" { print $3 }' |
		sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 } END { print "." }')"
	notk=$(printf '%s%s\n' "$rows" "$old" | awk -F' [|] ' '/^[|] / && $2 != "killed" && $2 != "build-failed"')
	if [ -n "$notk" ]; then
		echo
		echo "$head_row"
		printf '%s\n' "$notk"
	fi
} | scripts/figures.sh mutants - || true
[ "$mode" != report ] || { echo "mutants: section mutants written again from its rows"; exit 0; }
echo "make mutants: ${#selected[@]} mutants: $nk killed by a step, $nb killed by the build, $ns survived, $nn not applied, $ne without a verdict"
summary
