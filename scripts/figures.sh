#!/usr/bin/env bash
# Write one section of Documentation/figures.md, the one generated file
# that holds measured figures (each section says which script measured
# it, at which commit and when). Sections are replaced whole; other
# sections are kept.
#
# Usage: scripts/figures.sh SECTION FILE
#        scripts/figures.sh --from DOC SECTION...
#   SECTION  a name such as overhead, make-check, shadow
#   FILE     markdown to put in that section ("-" for standard input)
#   --from   copy these sections whole, with their commit and date, from
#            DOC, the figures.md of another clone where a script wrote
#            them (a long run in its own clone)
. "$(dirname "$0")/common.sh"
case ${1:-} in -h|--help) sw_help "$0"; exit 0 ;; esac
if [ "${1:-}" = --from ]; then
	[ $# -ge 3 ] || sw_die "usage: scripts/figures.sh --from DOC SECTION..."
	from=$2
	[ -f "$from" ] || sw_die "--from: no file $from"
	shift 2
	python3 - "$from" "$SW_TOP/Documentation/figures.md" "$@" <<'PY' || exit
import re, sys
src, doc, secs = sys.argv[1], sys.argv[2], sys.argv[3:]
s, text = open(src).read(), open(doc).read()
for sec in secs:
    pat = re.compile(rf"<!-- BEGIN {re.escape(sec)} -->.*?<!-- END {re.escape(sec)} -->\n", re.S)
    m = pat.search(s)
    if not m:
        sys.exit(f"figures.sh: no section {sec} in {src}")
    text = pat.sub(lambda _: m.group(0), text) if pat.search(text) else text.rstrip("\n") + "\n\n" + m.group(0)
    print(f"[smartwake] figures: section {sec} copied from {src}")
open(doc, "w").write(text)
PY
	exit 0
fi
[ $# -eq 2 ] || sw_die "usage: scripts/figures.sh SECTION FILE"
sec=$1 src=$2
[[ $sec =~ ^[a-z0-9.-]+$ ]] || sw_die "section names are lower-case words: $sec"
doc=$SW_TOP/Documentation/figures.md
body=$(cat "$src")
[ -f "$doc" ] || printf '# Measured figures\n\nGenerated: every section is written by the script that measured it\n(scripts/figures.sh); do not edit by hand.\n' >"$doc"
python3 - "$doc" "$sec" "$body" "$(git -C "$SW_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)" <<'PY'
import re, sys, datetime
doc, sec, body, commit = sys.argv[1:5]
text = open(doc).read()
stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
block = f"<!-- BEGIN {sec} -->\n_commit {commit}, {stamp}_\n\n{body.strip()}\n<!-- END {sec} -->\n"
pat = re.compile(rf"<!-- BEGIN {re.escape(sec)} -->.*?<!-- END {re.escape(sec)} -->\n", re.S)
text = pat.sub(lambda m: block, text) if pat.search(text) else text.rstrip('\n') + "\n\n" + block
open(doc, 'w').write(text)
PY
sw_log "figures: section $sec written to Documentation/figures.md"
