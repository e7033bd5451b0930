#!/usr/bin/env python3
"""Lists the module dependencies between the files of src/ and finds import circles.

An edge A -> B means a file A names an item of module file B: in a `use` declaration
(`use crate::x::y`, `use super::z`, grouped `{...}` imports included) or in an inline path
(`crate::x::y::f()`, `super::z::T`, or `child::f()` in a parent that declares `mod child`).
`mod child;` declarations are not edges, and neither is a parent's `pub use child::Item;`
(the module's facade) unless the parent's own code uses `Item`. A parent whose own code calls a child, and a child that uses the
parent's items, do form a circle, and are reported.

Test modules (`#[cfg(test)] mod tests { ... }` to the end of the file) are ignored: a unit
test may reach anywhere.

Usage: scripts/import_cycles.py [--edges] [src-dir]
Prints each circle (a strongly connected component of more than one file) and exits 1 if
there is any, 0 otherwise. With --edges it also prints every edge.
"""

import os
import re
import sys


def module_files(src):
    """Maps module path tuples (('eval', 'pawns')) to file paths."""
    mods = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith('.rs'):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel in (['lib'], ['main']):
                mods[(rel[0],) if rel == ['main'] else ()] = path
                continue
            if rel[-1] == 'mod':
                rel = rel[:-1]
            mods[tuple(rel)] = path
    return mods


def strip(text):
    """Removes comments, string and character literals, and the unit-test module."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            i = n if j < 0 else j + 2
        elif c == 'r' and re.match(r'r#*"', text[i:]) and not (i and (text[i - 1].isalnum() or text[i - 1] == '_')):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            j = text.find('"' + hashes, i + 2 + len(hashes))
            out.append('""')
            i = n if j < 0 else j + 1 + len(hashes)
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            out.append('""')
            i = j + 1
        elif c == "'" and re.match(r"'(\\.[^']*|[^\\'])'", text[i:]):
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            out.append("' '")
            i += m.end()
        else:
            out.append(c)
            i += 1
    text = ''.join(out)
    m = re.search(r'#\[cfg\(test\)\]\s*mod\s+tests', text)
    if m:
        text = text[:m.start()]
    return text


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
    tree = re.sub(r'\s+', '', tree)
    out = []

    def rec(prefix, s):
        i = s.find('{')
        if i < 0:
            for part in split_top(s):
                out.append(prefix + part)
            return
        head = s[:i]
        body = s[i + 1:s.rfind('}')]
        for part in split_top(body):
            if '{' in part:
                rec(prefix + head, part)
            else:
                out.append(prefix + head + part)

    rec('', tree)
    return [re.sub(r'\bas\w+$', '', p) for p in out]


def split_top(s):
    parts, depth, cur = [], 0, ''
    for ch in s:
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
        if ch == ',' and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return parts


def resolve(me, path, mods, children):
    """The module file a path starting in module `me` names, or None (std, self, ...)."""
    segs = [s for s in path.split('::') if s]
    if not segs:
        return None
    if segs[0] == 'crate' or segs[0] == 'horizon':
        base, segs = (), segs[1:]
    elif segs[0] == 'super':
        base = me
        while segs and segs[0] == 'super':
            base = base[:-1]
            segs = segs[1:]
    elif segs[0] == 'self':
        base, segs = me, segs[1:]
    elif segs[0] in children.get(me, ()):
        base = me
    else:
        return None
    best = base if base in mods else None
    cur = base
    for s in segs:
        cur = cur + (s,)
        if cur in mods:
            best = cur
        else:
            break
    return best


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    show_edges = '--edges' in sys.argv
    src = args[0] if args else os.path.join(os.path.dirname(__file__), '..', 'src')
    mods = module_files(src)
    children = {}
    for m in mods:
        if m and m != ('main',):
            children.setdefault(m[:-1], set()).add(m[-1])
    edges = {}
    for me, path in mods.items():
        text = strip(open(path, encoding='utf-8').read())
        targets = set()
        body = re.sub(r'\b(pub\s+)?use\s+[^;]+;', '', text)
        for m in re.finditer(r'\b(pub\s+)?use\s+([^;]+);', text):
            for p in expand_use(m.group(2)):
                t = resolve(me, p, mods, children)
                # A parent re-exporting its own child's items (`pub use child::Item;`) is the
                # module's facade, not a dependency of the parent on the child, unless the
                # parent's own code names the item.
                item = p.split('::')[-1]
                facade = m.group(1) and t is not None and t[:len(me)] == me and len(t) > len(me)
                if t is not None and not (facade and not re.search(r'(?<!::)\b%s\b' % re.escape(item), body)):
                    targets.add(t)
        for m in re.finditer(r'(?<![\w:])((?:crate|super|self|horizon|[a-z_][a-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+)', body):
            t = resolve(me, m.group(1), mods, children)
            if t is not None:
                targets.add(t)
        # A module does not depend on itself, and `mod.rs` naming its own items is no edge.
        targets.discard(me)
        if me == ('main',):
            targets.discard(())
        edges[me] = targets

    name = lambda m: '::'.join(m) if m else 'lib'
    if show_edges:
        for a in sorted(edges, key=name):
            for b in sorted(edges[a], key=name):
                print(f'{name(a)} -> {name(b)}')

    # lib.rs only declares modules and re-exports: leave it out of the circle search.
    graph = {a: {b for b in bs if b != ()} for a, bs in edges.items() if a != ()}
    # Tarjan's strongly connected components.
    index, low, on, stack, sccs = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
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
                sccs.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    n_edges = sum(len(b) for b in graph.values())
    print(f'{len(graph)} files, {n_edges} edges, {len(sccs)} circle(s)')
    for comp in sccs:
        members = set(comp)
        print('circle: ' + ', '.join(sorted(name(m) for m in comp)))
        for a in sorted(comp, key=name):
            for b in sorted(graph[a] & members, key=name):
                print(f'    {name(a)} -> {name(b)}')
    return 1 if sccs else 0


if __name__ == '__main__':
    sys.exit(main())
