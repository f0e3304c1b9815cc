#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The module graph of gen/, runtime/, mcp/ and agent/: cycles and upward arrows.

A module is a .c file and the private header of the same name beside it
(runtime/src/jbuf.c with jbuf.h). Module A points at module B when A's
source or header includes B's header, or A's source calls a function that
B's source defines (a toolgov_ or toolgov__ name): the runtime's private
declarations sit in one shared header (internal.h), so includes alone would
hide a call back up. Headers with no source of their own (the public
headers, internal.h, utf8.h, contract.h) declare and are not modules.

Every module has a layer (LAYERS below, lowest first, matched by the
longest path prefix). An arrow from a module to one in a higher layer is an
upward arrow; a cycle is a set of modules that reach each other. The script
prints the graph (`--dot` for Graphviz), every cycle and every upward arrow,
and exits 1 when there is any (0 otherwise, 2 on misuse).

    scripts/include-graph.py              # check runtime/, mcp/, agent/ and gen/
    scripts/include-graph.py runtime mcp  # only these trees
    scripts/include-graph.py --dot > graph.dot
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Where an #include "x" is looked for after the including file's folder:
# the include directories the CMake targets give.
INCLUDE_DIRS = ["runtime/include", "runtime/src", "gen", "mcp", "agent"]

# Layers, lowest first: a module may point only at its own layer or below.
# A prefix names a file (without .c/.h) or a folder ("/" at the end).
LAYERS = [
    # runtime: text and memory primitives, nothing of the product
    ["runtime/src/jsonwrite", "runtime/src/alloc", "runtime/src/version", "runtime/src/sort"],
    ["runtime/src/out", "runtime/src/jbuf", "runtime/src/scratch", "runtime/src/core"],
    ["runtime/src/json", "runtime/src/jsonput", "runtime/src/args_format", "runtime/src/seal"],
    ["runtime/src/args", "runtime/src/args_check", "runtime/src/core_args", "runtime/src/tooljson",
     "runtime/src/tooljson_openai"],
    # runtime: the pool and what is decided over it
    ["runtime/src/drift"],
    ["runtime/src/registry"],
    ["runtime/src/policy"],
    ["runtime/src/audit"],
    ["runtime/src/run", "runtime/src/state", "runtime/src/grant", "runtime/src/grants"],
    ["runtime/src/prompt", "runtime/src/shortlist", "runtime/src/toolcalls"],
    ["runtime/src/wire_read", "runtime/src/wire_stream",
     "runtime/src/wire_write",
     "runtime/src/wire"],
    ["runtime/src/loop"],
    ["runtime/src/"],
    # the generator, by stage: the manifest loader compiles each tool's
    # parameters, so the schema stage sits below the manifest's
    ["gen/base/"],
    ["gen/schema/value"],
    ["gen/schema/schema_tables"],
    ["gen/schema/schema"],
    ["gen/schema/"],
    ["gen/manifest/"],
    ["gen/emit/"],
    ["gen/check/"],
    ["gen/main"],
    # hosts over the runtime
    ["mcp/upstream_http"],  # Streamable HTTP to an upstream (libcurl), under upstream_conn
    ["mcp/upstream_conn", "mcp/plugins"],  # plugins.c: the file reader upstream.c uses too
    ["mcp/server", "mcp/upstream"],
    ["mcp/"],
    ["agent/transport", "agent/scripted"],
    ["agent/"],
]

TREES = ["runtime", "mcp", "agent", "gen"]

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
CALL_RE = re.compile(r"\b(toolgov_\w+)\s*\(")
DEF_RE = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(toolgov_\w+)\s*\(", re.M)


def strip(text):
    """Comments and string/char literals blanked (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def sources(trees):
    files = []
    for t in trees:
        for d, dirs, names in os.walk(os.path.join(ROOT, t)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    files.append(os.path.relpath(os.path.join(d, name), ROOT))
    return files


def resolve(inc, frm):
    for d in [os.path.dirname(frm)] + INCLUDE_DIRS:
        p = os.path.normpath(os.path.join(d, inc))
        if os.path.isfile(os.path.join(ROOT, p)):
            return p
    return None  # a system or generated header


def layer_of(module):
    best, at = -1, None
    for k, names in enumerate(LAYERS):
        for p in names:
            if (p.endswith("/") and module.startswith(p)) or module == p:
                if len(p) > best:
                    best, at = len(p), k
    return at


def build(trees):
    files = sources(trees)
    every = set(sources(TREES))
    modules = {f[:-2] for f in every if f.endswith(".c")}

    def module_of(path):
        stem = path[:-2]
        return stem if stem in modules else None

    defined = {}
    texts = {}
    for f in every:
        with open(os.path.join(ROOT, f), encoding="utf-8", errors="replace") as fh:
            texts[f] = fh.read()
        if f.endswith(".c"):
            s = strip(texts[f])
            for m in DEF_RE.finditer(s):
                depth, j = 0, m.end() - 1
                while j < len(s):
                    depth += {"(": 1, ")": -1}.get(s[j], 0)
                    j += 1
                    if depth == 0:
                        break
                if s[j:].lstrip().startswith("{"):
                    defined.setdefault(m.group(1), f[:-2])

    edges = {}  # (a, b) -> why
    for f in files:
        a = module_of(f)
        if not a:
            continue
        for inc in INCLUDE_RE.findall(texts[f]):
            p = resolve(inc, f)
            b = module_of(p) if p else None
            if b and b != a:
                edges.setdefault((a, b), "includes " + os.path.basename(p))
        if f.endswith(".c"):
            for name in CALL_RE.findall(strip(texts[f])):
                b = defined.get(name)
                if b and b != a:
                    edges.setdefault((a, b), "calls " + name)
    nodes = sorted({f[:-2] for f in files if module_of(f)})
    return nodes, edges


def cycles(nodes, edges):
    """Strongly connected components of more than one module (Tarjan)."""
    succ = {n: sorted(b for (a, b) in edges if a == n) for n in nodes}
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ.get(v, []):
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
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trees", nargs="*", help="runtime, mcp, agent, gen (default: all)")
    ap.add_argument("--dot", action="store_true", help="print the graph for Graphviz")
    args = ap.parse_args()
    trees = args.trees or TREES
    for t in trees:
        if t not in TREES:
            ap.error("unknown tree '%s' (expected %s)" % (t, ", ".join(TREES)))
    nodes, edges = build(trees)
    inside = [(a, b) for (a, b) in sorted(edges) if a in nodes]
    if args.dot:
        print("digraph toolgov {")
        for a, b in inside:
            print('  "%s" -> "%s"; // %s' % (a, b, edges[(a, b)]))
        print("}")
    else:
        for a, b in inside:
            print("%s -> %s (%s)" % (a, b, edges[(a, b)]))
    problems = 0
    for comp in cycles(nodes, {e: edges[e] for e in inside}):
        problems += 1
        links = ["%s -> %s (%s)" % (a, b, edges[(a, b)])
                 for (a, b) in inside if a in comp and b in comp]
        print("cycle: %s\n  %s" % (" <-> ".join(comp), "\n  ".join(links)), file=sys.stderr)
    for a, b in inside:
        la, lb = layer_of(a), layer_of(b)
        if la is None:
            problems += 1
            print("no layer: %s (add it to LAYERS in %s)" % (a, os.path.relpath(__file__, ROOT)),
                  file=sys.stderr)
        elif lb is not None and lb > la:
            problems += 1
            print("upward arrow: %s -> %s (%s): layer %d points at layer %d"
                  % (a, b, edges[(a, b)], la, lb), file=sys.stderr)
    print("%d modules, %d arrows, %d problems" % (len(nodes), len(inside), problems),
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
