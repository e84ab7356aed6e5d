#!/usr/bin/env bash
# Write one section of Documentation/figures.md, the one generated file
# that holds measured figures (each section says which script measured
# it, at which commit and when). Sections are replaced whole; other
# sections are kept.
#
# Usage: scripts/figures.sh [--doc DOC] SECTION FILE
#        scripts/figures.sh --from DOC SECTION...
#        scripts/figures.sh --drop SECTION...
#   --doc    write DOC (under Documentation/) instead of figures.md: a
#            long listing whose summary figures.md holds (mutants.md)
#   SECTION  a name such as overhead, make-check, shadow
#   FILE     markdown to put in that section ("-" for standard input)
#   --from   copy these sections whole, with their commit and date, from
#            DOC, the figures.md of another clone where a script wrote
#            them (a long run in its own clone)
#   --drop   remove these sections (a table that replaced them)
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
doc=$SW_TOP/Documentation/figures.md title="Measured figures"
if [ "${1:-}" = --doc ]; then
	[[ ${2:-} =~ ^Documentation/[a-z0-9-]+\.md$ ]] || sw_die "--doc wants Documentation/NAME.md, not '${2:-}'"
	doc=$SW_TOP/$2 title="Measured figures: $(basename "$2" .md), the long listing"
	shift 2
fi
[ -f "$doc" ] || printf '# %s\n\nGenerated: every section is written by the script that measured it\n(scripts/figures.sh); do not edit by hand.\n' "$title" >"$doc"
if [ "${1:-}" = --drop ]; then
	set -- drop "${@:2}"
elif [ "${1:-}" = --from ]; then
	[ $# -ge 3 ] || sw_die "usage: scripts/figures.sh --from DOC SECTION..."
	[ -f "$2" ] || sw_die "--from: no file $2"
	set -- from "$@"
else
	[ $# -eq 2 ] || sw_die "usage: scripts/figures.sh SECTION FILE"
	[[ $1 =~ ^[a-z0-9.-]+$ ]] || sw_die "section names are lower-case words: $1"
	set -- write "$1" "$(cat "$2")" "$(git -C "$SW_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)"
fi
# one place that finds a section and replaces it (or appends it)
python3 - "$doc" "$@" <<'PY' || exit
import re, sys, datetime
doc, mode, args = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(doc).read()

def pattern(sec):
    return re.compile(rf"<!-- BEGIN {re.escape(sec)} -->.*?<!-- END {re.escape(sec)} -->\n", re.S)

def put(text, sec, block):
    pat = pattern(sec)
    return pat.sub(lambda _: block, text) if pat.search(text) else text.rstrip("\n") + "\n\n" + block

if mode == "write":
    sec, body, commit = args
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = put(text, sec, f"<!-- BEGIN {sec} -->\n_commit {commit}, {stamp}_\n\n{body.strip()}\n<!-- END {sec} -->\n")
    print(f"[smartwake] figures: section {sec} written to Documentation/{doc.rsplit('/', 1)[-1]}", file=sys.stderr)
elif mode == "drop":
    for sec in args:
        text = pattern(sec).sub("", text)
        print(f"[smartwake] figures: section {sec} removed", file=sys.stderr)
    text = re.sub(r"\n{3,}", "\n\n", text)
else:
    src = args[1]
    s = open(src).read()
    for sec in args[2:]:
        m = pattern(sec).search(s)
        if not m:
            sys.exit(f"figures.sh: no section {sec} in {src}")
        text = put(text, sec, m.group(0))
        print(f"[smartwake] figures: section {sec} copied from {src}", file=sys.stderr)
open(doc, "w").write(text)
PY
# size.md's steps (issue 61) have their summary in figures.md, section
# size: rewritten from size.md whenever one of them changes
if [ "$doc" = "$SW_TOP/Documentation/size.md" ]; then
	# shellcheck source=scripts/figures-prose.sh
	. "$SW_TOP/scripts/figures-prose.sh"
	figtext_size "$doc" | "$0" size -
fi
