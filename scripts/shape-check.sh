#!/usr/bin/env bash
# The shape rules of issue 57 on the committed C sources (module/,
# include/, kunit/, tools/): no file over 800 lines, and no file header
# (the first comment, after the SPDX line) over 15 lines: the reasoning
# belongs in Documentation/design.md, the figures in figures.md; and
# Documentation/figures.md at most 60 KB (60,000 bytes: current figures,
# long listings in files of their own, such as mutants.md). One KTAP
# result per rule, each naming the files that break it.
#
# Usage: scripts/shape-check.sh [--max-lines N] [--max-header N] [--max-figures BYTES]
. "$(dirname "$0")/common.sh"
# shellcheck source=scripts/testlib.sh
. "$SW_TOP/scripts/testlib.sh"
max_lines=800 max_header=15 max_figures=60000
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sw_help "$0"; exit 0 ;;
	--max-lines) max_lines=$2; shift ;;
	--max-header) max_header=$2; shift ;;
	--max-figures) max_figures=$2; shift ;;
	*) sw_die "unknown argument $1 (see --help)" ;;
	esac
	shift
done
cd "$SW_TOP" || exit

mapfile -t files < <(git ls-files 'module/*.[ch]' 'include/*.[ch]' 'kunit/*.[ch]' 'tools/*.[ch]')
[ "${#files[@]}" -gt 0 ] || sw_die "no C files found by git ls-files"

# header LINES FILE: the length of the first comment of FILE, SPDX aside
header_len() {
	awk '
		NR <= 2 && /SPDX-License-Identifier/ && /\*\/[[:space:]]*$|^\/\// { next }
		!started && /^[[:space:]]*$/ { next }
		!started && /^\/\*/ { started = 1; n = 0 }
		!started && /^\/\// { cpp = 1; started = 1; n = 0 }
		!started { exit }
		{ n++ }
		cpp && !/^\/\// { n--; exit }
		!cpp && /\*\// { exit }
		END { print n + 0 }' "$1"
}

long=() big=()
for f in "${files[@]}"; do
	n=$(wc -l <"$f")
	[ "$n" -le "$max_lines" ] || long+=("$f ($n lines)")
	h=$(header_len "$f")
	[ "$h" -le "$max_header" ] || big+=("$f ($h lines)")
done
echo "# ${#files[@]} C files read"
for x in "${long[@]}"; do echo "# over $max_lines lines: $x"; done
for x in "${big[@]}"; do echo "# header over $max_header lines: $x"; done
check "no C file over $max_lines lines (${#long[@]} are)" test "${#long[@]}" -eq 0
check "no file header over $max_header lines (${#big[@]} are)" test "${#big[@]}" -eq 0
fig=$(wc -c <Documentation/figures.md)
check "figures.md at most $((max_figures / 1000)) KB ($fig bytes)" test "$fig" -le "$max_figures"
summary
