#!/usr/bin/env bash
# Regenerate the reference tables of Documentation/usage.md from the code:
# the sections between "<!-- BEGIN gen-NAME -->" and "<!-- END gen-NAME -->"
#   gen-knobs     module/knob_table.h: one SW_KNOB() row per knob, its help
#                 string, the comment above it (seed:, default:, details);
#                 values and defaults from the names lists
#                 (include/smartwake/enums.h) and the variables (module/*.c,
#                 module/path/*.c)
#   gen-counters  module/counters.h: SW_COUNTER(name) /* what it counts */,
#                 the block comments between them as notes
#   gen-debugfs   module/debugfs.c: the table of files in its DOC: comment
#   gen-cli       tools/cli/main.c's command table (cmds[]) and each
#                 command's struct cli_cmd (name, args, summary): the CLI's
#                 command list, in usage.md and, between the roff comments
#                 '.\" BEGIN gen-cli' and '.\" END gen-cli', in the
#                 SYNOPSIS of Documentation/smartwake.8
#
# Usage: scripts/gen-docs.sh [--check]
#   --check  change nothing: print a unified diff of each stale section and
#            exit 1 if any is stale (0 if all are current)
#
# Also Documentation/testing.md's section gen-steps: make check's steps,
# from scripts/check.sh's step table (check.sh --table); and
# Documentation/install.md's gen-kernels: the supported kernels of
# scripts/common.sh's SW_KERNEL_TABLE and SW_KERNEL_TABLE_ARM64, each with
# its make check steps.
. "$(dirname "$0")/common.sh"
check=0
case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
--check) check=1 ;;
'') ;;
*) sw_die "usage: scripts/gen-docs.sh [--check]" ;;
esac
[ $# -le 1 ] || sw_die "usage: scripts/gen-docs.sh [--check]"
cd "$SW_TOP" || exit
# testing.md's gen-steps, from check.sh --table (fails when stale, with --check)
steps_rc=0
steps=$(scripts/check.sh --table)
python3 - "$check" "$steps" <<'PY' || steps_rc=1
import difflib, re, sys

DOC, sec = 'Documentation/testing.md', 'gen-steps'
rows = []
for ln in sys.argv[2].splitlines():
    name, lane, label, rel, topo, tmo, run = ln.split('\t')
    if run.startswith('@'):
        fn, _, args = run[1:].partition(' ')
        run = f'check.sh `{fn}`' + (f' {args}' if args else '')
    elif run.startswith('scripts/'):
        run = f'`{run}`'
    else:
        words = run.split(' ')
        i = next(i for i, w in enumerate(words) if w.endswith('.sh'))
        run = ' '.join(words[:i] + ['`guest/' + words[i] + '`'] + words[i + 1:])
    kern = '-' if label == '-' else (f'{label} (`{rel}`)' if label not in ('debug',) else label)
    rows.append(f'| `{name}` | {lane} | {kern} | {topo} | {tmo} | {run} |')
body = ('Generated from scripts/check.sh\'s step table by scripts/gen-docs.sh; do not edit by hand.\n\n'
        '| step | lane | kernel | topology | timeout (s) | runs |\n|---|---|---|---|---|---|\n'
        + '\n'.join(rows) + '\n')
doc = open(DOC).read()
m = re.search(r'(<!-- BEGIN %s -->\n)(.*?)(<!-- END %s -->)' % (sec, sec), doc, re.S)
if not m:
    sys.exit(f'gen-docs: {DOC} has no <!-- BEGIN {sec} --> ... <!-- END {sec} -->')
if m.group(2) == body:
    print(f'gen-docs: {DOC} {sec} current' if sys.argv[1] == '1' else f'gen-docs: {DOC} {sec} unchanged')
    sys.exit(0)
if sys.argv[1] == '1':
    sys.stdout.writelines(difflib.unified_diff(m.group(2).splitlines(True), body.splitlines(True),
                                               f'{DOC} ({sec})', f'{sec} generated from scripts/check.sh'))
    print(f'gen-docs: {DOC} {sec} stale')
    sys.exit(1)
open(DOC, 'w').write(doc[:m.start(2)] + body + doc[m.end(2):])
print(f'gen-docs: {DOC} {sec} regenerated')
PY
# install.md's gen-kernels: the supported kernels (common.sh's
# SW_KERNEL_TABLE) and the make check steps of each (check.sh --table)
python3 - "$check" "$steps" "$SW_KERNEL_TABLE$SW_KERNEL_TABLE_ARM64" "$SW_DEFAULT_KREL" <<'PY' || steps_rc=1
import difflib, re, sys

DOC, sec = 'Documentation/install.md', 'gen-kernels'
check, table, ktab, default = sys.argv[1] == '1', sys.argv[2], sys.argv[3], sys.argv[4]
steps = {}
for ln in table.splitlines():
    f = ln.split('\t')
    if f[2] != 'debug':
        steps.setdefault(f[3], []).append((f[0], f[1] == 'extra'))
rows = []
for ln in ktab.splitlines():
    f = ln.split()
    if not f:
        continue
    rel, ver, suite = f[0], f[1], f[2]
    flav = 'cloud' if re.search(r'-cloud-(amd64|arm64)$', rel) else 'generic'
    if rel.endswith('-arm64'):
        flav += ', arm64 (cross-built)'
    if rel == default:
        build = '`make`, `make testing`'
        st = f'default: every `stock` step ({len(steps.get(rel, []))}; testing.md)'
    else:
        build = f'`make KERNEL={rel}`'
        kept = [f'`{n}`' for n, x in steps.get(rel, []) if not x]
        extra = [f'`{n}`' for n, x in steps.get(rel, []) if x]
        st = ', '.join(kept) or 'none'
        if extra:
            st += '; extra: ' + ', '.join(extra)
    rows.append(f'| `{rel}` | {ver} | {suite} | {flav} | {build} | {st} |')
body = ('Generated from scripts/common.sh\'s SW_KERNEL_TABLE, SW_KERNEL_TABLE_ARM64 and scripts/check.sh\'s step table\n'
        'by scripts/gen-docs.sh; do not edit by hand.\n\n'
        '| release (`uname -r`) | Debian version | suite | flavour | build | `make check` steps |\n'
        '|---|---|---|---|---|---|\n' + '\n'.join(rows) + '\n')
doc = open(DOC).read()
m = re.search(r'(<!-- BEGIN %s -->\n)(.*?)(<!-- END %s -->)' % (sec, sec), doc, re.S)
if not m:
    sys.exit(f'gen-docs: {DOC} has no <!-- BEGIN {sec} --> ... <!-- END {sec} -->')
if m.group(2) == body:
    print(f'gen-docs: {DOC} {sec} current' if check else f'gen-docs: {DOC} {sec} unchanged')
    sys.exit(0)
if check:
    sys.stdout.writelines(difflib.unified_diff(m.group(2).splitlines(True), body.splitlines(True),
                                               f'{DOC} ({sec})', f'{sec} generated from the code'))
    print(f'gen-docs: {DOC} {sec} stale')
    sys.exit(1)
open(DOC, 'w').write(doc[:m.start(2)] + body + doc[m.end(2):])
print(f'gen-docs: {DOC} {sec} regenerated')
PY
python3 - "$check" <<'PY'
import difflib, glob, re, sys

check = sys.argv[1] == '1'
DOC = 'Documentation/usage.md'


def comment_text(body):
    """The text of a /* */ comment: ' * ' prefixes gone, lines joined."""
    lines = []
    for ln in body.split('\n'):
        ln = re.sub(r'^\s*/?\*+/?', '', ln).rstrip()
        ln = re.sub(r'\*/$', '', ln).strip()
        lines.append(ln)
    return lines


def join(lines):
    return ' '.join(x for x in lines if x).strip()


def cell(s):
    return s.replace('|', '\\|')


def table(src, heads, rows, notes):
    """One generated section: its source line, the table, then the notes."""
    out = f'Generated from {src} by scripts/gen-docs.sh; do not edit by hand.\n\n'
    out += '| ' + ' | '.join(heads) + ' |\n|' + '---|' * len(heads) + '\n'
    out += '\n'.join(rows) + '\n'
    return out + ('\n' + '\n'.join(notes) + '\n' if notes else '')


# ---- knobs ------------------------------------------------------------------
def enum_lists():
    text = open('include/smartwake/enums.h').read()
    lists = {}
    for m in re.finditer(r'#define (\w+)\(EM, EMe\)((?:.*\\\n)*.*)', text):
        lists[m.group(1)] = re.findall(r'EMe?\((\w+), "([^"]*)"\)', m.group(2))
    return lists


def knobs():
    lists = enum_lists()
    ids = {i: n for l in lists.values() for i, n in l}
    names, defaults = {}, {}
    for f in sorted(glob.glob('module/*.c') + glob.glob('module/path/*.c')):
        t = open(f).read()
        for m in re.finditer(r'(\w+_names)\[\w*\] = \{\s*(\w+)\(SW_ENUM_NAME', t):
            names[m.group(1)] = [n for _, n in lists[m.group(2)]]
        for m in re.finditer(r'^int (sw_\w+)(?: = (\w+))?;', t, re.M):
            defaults[m.group(1)] = m.group(2) or '0'
    text = open('module/knob_table.h').read()
    rows, details = [], []
    pos = 0
    for m in re.finditer(r'(?:^/\*((?:(?!\*/).)*)\*/\n)?^SW_KNOB\(', text, re.S | re.M):
        # the row runs to its balanced closing parenthesis
        depth, i = 1, m.end()
        while depth:
            c = text[i]
            if c == '"':
                i = text.index('"', i + 1)
            depth += (c == '(') - (c == ')')
            i += 1
        args = text[m.end():i - 1]
        cmt = comment_text(m.group(1)) if m.group(1) else []
        name = re.match(r'\s*"([^"]+)"', args).group(1)
        rest = args[re.match(r'\s*"[^"]+"\s*,', args).end():]
        hm = re.match(r'\s*((?:"[^"]*"\s*)+)', rest)
        help_ = ''.join(re.findall(r'"([^"]*)"', hm.group(1)))
        fields = rest[hm.end():]
        tags, body = {}, []
        for ln in cmt:
            t = re.match(r'(seed|default): (.*)', ln)
            if t:
                tags[t.group(1)] = t.group(2)
            else:
                body.append(ln)
        var = re.search(r'(?:\.val = &|SW_BOOL\()(\w+)', fields)
        nm = re.search(r'\.names = (\w+)', fields)
        rng = re.search(r'\.min = (\d+), \.max = (\d+)', fields)
        fixed = re.search(r'\.fixed_idx = (\w+)', fields)
        acc = re.search(r'\.accepted = "([^"]*)"', fields)
        vals = []
        if nm:
            vals = ['`%s`' % n for n in names[nm.group(1)]
                    if not fixed or n != ids[fixed.group(1)]]
        if 'SW_BOOL(' in fields:
            vals = ['0', '1']
        elif rng:
            vals.append('%s..%s' % rng.groups())
        if acc:
            vals = ['`%s`' % v for v in acc.group(1).split('|')]
        dflt = tags.get('default')
        if dflt is None:
            d = defaults.get(var.group(1)) if var else None
            if d is None:
                sys.exit(f'gen-docs: knob {name}: no default in module/*.c '
                         'and no "default:" in its comment')
            if d in ids:
                dflt = ids[d]
            elif nm and d.isdigit():
                dflt = names[nm.group(1)][int(d)]
            else:
                dflt = d
        rows.append('| `%s` | %s | %s | %s | %s |' % (
            name, ', '.join(vals), cell(dflt), cell(help_),
            tags.get('seed', '-')))
        if join(body):
            details.append('- `%s`: %s' % (name, join(body)))
    return table('module/knob_table.h',
                 ['knob', 'values', 'default', 'what it switches', 'seed'],
                 rows, details)


# ---- counters ---------------------------------------------------------------
def counters():
    text = open('module/counters.h').read()
    rows, notes = [], []
    note, covered = None, []

    def flush():
        if note and covered:
            who = covered[0] if len(covered) == 1 else (
                '%s, %s' % tuple(covered) if len(covered) == 2 else
                '%s ... %s' % (covered[0], covered[-1]))
            notes.append('- `%s`: %s' % (who.replace(', ', '`, `')
                                         .replace(' ... ', '` ... `'), note))
    # the file's own header (the first comment after SPDX) is not a note;
    # a note covers the counters after it up to a blank line or the next one
    header = True
    for m in re.finditer(r'^/\*((?:(?!\*/).)*)\*/\n|^SW_COUNTER\((\w+)\)\s*/\*(.*?)\*/|^\n',
                         text, re.S | re.M):
        if m.group(2):
            rows.append('| `%s` | %s |' % (m.group(2), cell(m.group(3).strip())))
            covered.append(m.group(2))
        elif m.group(1) is not None and 'SPDX' in m.group(1):
            continue
        elif m.group(1) is not None and header:
            header = False
        else:
            flush()
            note, covered = None, []
            if m.group(1) is not None:
                note = join(comment_text(m.group(1)))
    flush()
    return table('module/counters.h', ['counter', 'counts'], rows, notes)


# ---- debugfs ----------------------------------------------------------------
def debugfs():
    text = open('module/debugfs.c').read()
    head = re.search(r'/\*\*\n \* DOC: debugfs files\n \*\n(.*?)\*/', text,
                     re.S).group(1)
    files, notes, in_notes = [], [], False
    for ln in head.split('\n'):
        m = re.match(r' \*   (\S+)(?:\s+(.*))?$', ln)
        c = re.match(r' \*    +(\S.*)$', ln)
        if in_notes or (files and ln.strip() == '*'):
            # after the table, a blank comment line: notes, a paragraph
            in_notes = True
            notes.append(re.sub(r'^\s*\*\s?', '', ln).strip())
        elif m:
            files.append([m.group(1), m.group(2) or ''])
        elif c and files:
            files[-1][1] += ' ' + c.group(1)
    rows = ['| `%s` | %s |' % (n, cell(d.strip())) for n, d in files]
    note = join(notes)
    return table('module/debugfs.c', ['file', 'meaning'], rows,
                 [note] if note else [])


# ---- CLI command list -------------------------------------------------------
def c_string(lits):
    """The value of adjacent C string literals (the escapes the CLI uses)."""
    s = ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', lits))
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), s)


def cli_cmds():
    """(name, args, summary) of each command, in the order of main.c's table."""
    descs = {}
    for f in sorted(glob.glob('tools/cli/*.c')):
        for m in re.finditer(r'struct cli_cmd (\w+) = \{(.*?)\n\};', open(f).read(), re.S):
            fields = dict(re.findall(r'\.(\w+) = ((?:"(?:[^"\\]|\\.)*"\s*)+)', m.group(2)))
            descs[m.group(1)] = tuple(c_string(fields[k]) for k in ('name', 'args', 'summary'))
    tbl = re.search(r'cmds\[\] = \{(.*?)\};', open('tools/cli/main.c').read(), re.S)
    if not tbl:
        sys.exit('gen-docs: tools/cli/main.c has no cmds[] table')
    names = re.findall(r'&(\w+)', tbl.group(1))
    missing = [n for n in names if n not in descs]
    if missing:
        sys.exit('gen-docs: no struct cli_cmd %s in tools/cli/*.c' % ', '.join(missing))
    return [descs[n] for n in names]


def cli_usage():
    rows = ['| `smartwake %s` | %s |' % (cell((n + ' ' + a).strip()), cell(s))
            for n, a, s in cli_cmds()]
    return table("tools/cli/main.c's command table", ['command', 'what it does'],
                 rows, [])


def roff_args(args):
    """A command's arguments in roff: options bold, METAVARIABLES italic."""
    def word(m):
        w = m.group(0)
        if w.startswith('-'):
            return '\\fB' + w.replace('-', '\\-') + '\\fR'
        return '\\fI' + w + '\\fR'
    out = re.sub(r'--?[a-z-]*|\b[A-Z][A-Z_]*\b', word, args)
    return '\\&' + out if out[:1] in ('.', "'") else out


def cli_man():
    out = ['.\\" Generated from tools/cli/main.c\'s command table by scripts/gen-docs.sh;',
           '.\\" do not edit by hand.']
    for i, (n, a, _) in enumerate(cli_cmds()):
        if i:
            out.append('.br')
        out.append('.B smartwake ' + n)
        if a:
            out.append(roff_args(a))
    return '\n'.join(out) + '\n'


# each document: its sections, and the comment syntax of their markers
docs = [(DOC, '<!-- %s %s -->', {'gen-knobs': knobs, 'gen-counters': counters,
                                 'gen-debugfs': debugfs, 'gen-cli': cli_usage}),
        ('Documentation/smartwake.8', '.\\" %s %s', {'gen-cli': cli_man})]
stale = total = 0
for path, mark, gens in docs:
    doc = open(path).read()
    new = doc
    for sec, fn in gens.items():
        total += 1
        begin, end = mark % ('BEGIN', sec), mark % ('END', sec)
        pat = re.compile('(%s\n)(.*?)(%s)' % (re.escape(begin), re.escape(end)), re.S)
        m = pat.search(new)
        if not m:
            sys.exit(f'gen-docs: {path} has no {begin} ... {end}')
        body = fn()
        if m.group(2) != body:
            stale += 1
            if check:
                sys.stdout.writelines(difflib.unified_diff(
                    m.group(2).splitlines(True), body.splitlines(True),
                    f'{path} ({sec})', f'{sec} generated from the code'))
            new = new[:m.start(2)] + body + new[m.end(2):]
    if new != doc and not check:
        open(path, 'w').write(new)
if check:
    print(f'gen-docs: {stale} of {total} sections stale' if stale else
          f'gen-docs: {total} sections current')
    sys.exit(1 if stale else 0)
print(f'gen-docs: {stale} of {total} sections regenerated')
PY
exit "$steps_rc"
