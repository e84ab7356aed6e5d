#!/usr/bin/env bash
# Check the Markdown documents: README.md and Documentation/*.md (also
# Documentation/*/*.md, such as the studies).
#   links   every relative link [text](path#anchor) resolves: the path
#           exists inside the repository, and an #anchor names a heading
#           of the target (GitHub's rule: the heading's text lowercased,
#           punctuation other than '-' and '_' dropped, spaces to '-',
#           "-1", "-2" on repeats) or an <a id=...>/<a name=...>;
#           web links (http:, https:, mailto:) are not fetched
#   rows    no table row is longer than 300 characters: a longer cell
#           goes into a list under the table or into the text
# Code spans and fenced code blocks are not read. Exempt from the row
# limit, and reported as skipped:
#   - figures.md's sections between <!-- BEGIN x --> and <!-- END x -->:
#     scripts write them from what they measured (claims, verdicts,
#     refusal lines), so a row cannot always be short; they are not
#     edited by hand
#   - testing.md's hand-kept make check step table (header "| step | what
#     it asserts |"), to be replaced by a table generated from check.sh's
#     step registry (issue 29)
#
# Usage: scripts/doc-lint.sh [FILE.md...]
#   FILE  check these files only (default: README.md, Documentation/**.md)
# Prints KTAP (one result per file and check, the problems as "#" lines
# before it) and ends with "N passed, N failed, N skipped"; exits 1 if a
# check failed.
. "$(dirname "$0")/common.sh"
case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
esac
cd "$SW_TOP" || exit
python3 - "$@" <<'PY'
import glob, os, re, sys

LIMIT = 300
TOP = os.getcwd()
files = sys.argv[1:] or (['README.md'] + sorted(glob.glob('Documentation/*.md'))
                         + sorted(glob.glob('Documentation/*/*.md')))
# (file, header line) of tables exempt from the row limit: see --help
EXEMPT_TABLES = {('Documentation/testing.md', '| step | what it asserts |')}
EXEMPT_GENERATED = {'Documentation/figures.md'}


def code_free(path):
    """(line number, text) of the lines outside fenced code blocks, with
    inline code spans blanked (same length, so columns stay)."""
    out, fence = [], None
    with open(path, encoding='utf-8') as f:
        for n, ln in enumerate(f, 1):
            ln = ln.rstrip('\n')
            m = re.match(r'\s*(```+|~~~+)', ln)
            if fence:
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
            out.append((n, re.sub(r'(`+)(.+?)\1', lambda s: ' ' * len(s.group(0)), ln)))
    return out


def slug(text):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)   # links: their text
    text = re.sub(r'<[^>]+>', '', text)                      # inline HTML
    text = text.replace('`', '').replace('*', '')
    text = text.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


anchor_cache = {}


def anchors(path):
    if path in anchor_cache:
        return anchor_cache[path]
    seen, names, fence = {}, set(), None
    with open(path, encoding='utf-8') as f:
        for ln in f:
            m = re.match(r'\s*(```+|~~~+)', ln)
            if fence or m:
                if fence is None:
                    fence = m.group(1)
                elif m and m.group(1)[0] == fence[0]:
                    fence = None
                continue
            for a in re.findall(r'<a\s+(?:id|name)="([^"]+)"', ln):
                names.add(a)
            h = re.match(r' {0,3}(#{1,6})\s+(.*?)\s*#*\s*$', ln)
            if not h:
                continue
            s = slug(h.group(2))
            k = seen.get(s, 0)
            seen[s] = k + 1
            names.add(s if k == 0 else '%s-%d' % (s, k))
    anchor_cache[path] = names
    return names


LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
REFDEF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$')


def check_links(path, lines):
    bad = []
    here = os.path.dirname(path)
    for n, ln in lines:
        targets = [m.group(1) for m in LINK.finditer(ln)]
        m = REFDEF.match(ln)
        if m:
            targets.append(m.group(1))
        for t in targets:
            if not t:
                bad.append('%s:%d: empty link' % (path, n))
                continue
            if re.match(r'[a-z][a-z0-9+.-]*:', t, re.I):
                continue                            # http:, https:, mailto:
            p, _, frag = t.partition('#')
            dest = os.path.normpath(os.path.join(here, p)) if p else path
            if os.path.relpath(os.path.abspath(dest), TOP).startswith('..'):
                bad.append('%s:%d: %s leaves the repository' % (path, n, t))
                continue
            if not os.path.exists(dest):
                bad.append('%s:%d: %s: no such file %s' % (path, n, t, dest))
                continue
            if frag:
                if not dest.endswith('.md') or os.path.isdir(dest):
                    bad.append('%s:%d: %s: an anchor into a file that is not Markdown' % (path, n, t))
                elif frag not in anchors(dest):
                    bad.append('%s:%d: %s: %s has no heading with anchor #%s' % (path, n, t, dest, frag))
    return bad


def check_rows(path, lines):
    bad, exempt = [], {}
    in_gen, header, prev_table = False, None, False
    for n, ln in lines:
        if re.match(r'<!-- BEGIN \S+ -->', ln.strip()):
            in_gen = True
        elif re.match(r'<!-- END \S+ -->', ln.strip()):
            in_gen = False
        is_row = ln.lstrip().startswith('|')
        if is_row and not prev_table:
            header = ln.strip()
        prev_table = is_row
        if not is_row or len(ln) <= LIMIT:
            continue
        if in_gen and path in EXEMPT_GENERATED:
            exempt.setdefault('in sections a script writes', []).append(n)
        elif (path, header) in EXEMPT_TABLES:
            exempt.setdefault('in the table "%s"' % header, []).append(n)
        else:
            bad.append('%s:%d: table row of %d characters (limit %d)'
                       % (path, n, len(ln), LIMIT))
    return bad, ['%s: %d rows over %d characters %s (lines %s)'
                 % (path, len(ns), LIMIT, where, ' '.join(map(str, ns)))
                 for where, ns in exempt.items()]


results = []   # (ok, description, diagnostics, skip reason)
for path in files:
    if not os.path.isfile(path):
        results.append((False, '%s: exists' % path, ['%s: no such file' % path], None))
        continue
    lines = code_free(path)
    bad = check_links(path, lines)
    results.append((not bad, '%s: relative links and anchors resolve' % path, bad, None))
    bad, exempt = check_rows(path, lines)
    results.append((not bad, '%s: table rows at most %d characters' % (path, LIMIT), bad, None))
    if exempt:
        results.append((True, '%s: exempt table rows over %d characters' % (path, LIMIT),
                        exempt, 'exempt, see scripts/doc-lint.sh --help'))

print('KTAP version 1')
print('1..%d' % len(results))
npass = nfail = nskip = 0
for i, (ok, desc, diags, skip) in enumerate(results, 1):
    for d in diags:
        print('# ' + d)
    if skip:
        nskip += 1
        print('ok %d %s # SKIP %s' % (i, desc, skip))
    elif ok:
        npass += 1
        print('ok %d %s' % (i, desc))
    else:
        nfail += 1
        print('not ok %d %s' % (i, desc))
print('# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0' % (npass, nfail, nskip))
print('%d passed, %d failed, %d skipped' % (npass, nfail, nskip))
sys.exit(1 if nfail else 0)
PY
