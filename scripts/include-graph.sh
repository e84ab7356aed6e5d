#!/usr/bin/env bash
# Fail on a circle of files in module/ or tools/cli/ (issue 29): a file and
# its header (bpf.c, bpf.h) are one node, and node A depends on node B
# when a file of A includes a header of B from the same directory or a
# subdirectory of the same build (no Kbuild of its own: module/path/), by
# its path from the including file (#include "b.h", "../b.h"). Each circle (a strongly connected set of 2 or more
# nodes) is printed with its shortest cycle through its first node, and the
# script exits 1; without one it prints each directory's numbers of nodes
# and includes and exits 0.
#
# Usage: scripts/include-graph.sh [--edges] [DIR...]
#   --edges  also print every edge "DIR: A -> B" (e.g. to read a cycle)
#   DIR      directories to check, relative to the top (default: module
#            tools/cli)
. "$(dirname "$0")/common.sh"
edges=0
case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
--edges) edges=1; shift ;;
esac
cd "$SW_TOP" || exit
[ $# -gt 0 ] || set -- module tools/cli tools/cli/lib

# The CLI's layers: tools/cli/lib/ (I/O, models, JSON) is below the
# commands in tools/cli/: no lib file includes a command's header.
up=0
for h in tools/cli/*.h; do
	[ -f "$h" ] || continue
	if grep -lE "^#include \"(\.\./)?$(basename "$h")\"" tools/cli/lib/*.[ch] 2>/dev/null; then
		echo "tools/cli/lib: includes $(basename "$h"), a command's header (the layer above)"
		up=1
	fi
done

python3 - "$edges" "$@" <<'PY'
import os, re, subprocess, sys

show_edges = sys.argv[1] == '1'
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
bad = 0
for d in sys.argv[2:]:
    # the tracked files (not sw_config.h, *.mod.c of a build) where git knows
    git = subprocess.run(['git', 'ls-files', '.'], cwd=d, capture_output=True,
                         text=True)
    names = git.stdout.split() if git.returncode == 0 else os.listdir(d)
    # a kbuild directory's subdirectories without a Kbuild of their own
    # are built with it (module/path/); one with a Kbuild is another module
    own = lambda f: (os.path.exists(os.path.join(d, 'Kbuild')) and not
                     os.path.exists(os.path.join(d, os.path.dirname(f), 'Kbuild')))
    files = sorted(f for f in names if f.endswith(('.c', '.h')) and
                   ('/' not in f or own(f)))
    node = lambda f: os.path.splitext(f)[0]
    graph = {node(f): set() for f in files}
    for f in files:
        with open(os.path.join(d, f), errors='replace') as fh:
            for h in inc.findall(fh.read()):
                h = os.path.normpath(os.path.join(os.path.dirname(f), h))
                if h not in files or node(h) == node(f):
                    continue
                graph[node(f)].add(node(h))
    if show_edges:
        for a in sorted(graph):
            for b in sorted(graph[a]):
                print(f'{d}: {a} -> {b}')
    # strongly connected components (Tarjan): a circle is one of 2+ files
    index, low, stack, on, sccs = {}, {}, [], set(), []
    def scc(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                scc(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))
    for v in sorted(graph):
        if v not in index:
            scc(v)
    # for each circle, its shortest cycle through its first file
    for comp in sorted(sccs):
        start, prev, todo = comp[0], {comp[0]: None}, [comp[0]]
        path = None
        while todo and path is None:
            n = todo.pop(0)
            for m in sorted(graph[n]):
                if m == start:
                    path = [n]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    path.reverse()
                    break
                if m in comp and m not in prev:
                    prev[m] = n
                    todo.append(m)
        print(f'{d}: circle of {len(comp)} files: {" ".join(comp)} '
              f'(e.g. {" -> ".join(path + [start])})')
    nedges = sum(len(v) for v in graph.values())
    if sccs:
        print(f'{d}: {len(sccs)} circle(s) ({len(graph)} files, {nedges} includes)')
        bad = 1
    else:
        print(f'{d}: no circle ({len(graph)} files, {nedges} includes)')
sys.exit(bad)
PY
rc=$?
[ "$up" -eq 0 ] && [ "$rc" -eq 0 ]
