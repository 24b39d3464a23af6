#!/usr/bin/env python3
"""Check that the imports of the Python package python/kumo point one way.

Reads every module of python/kumo with ``ast`` (nothing is imported or run)
and builds the graph of its module-level imports: the import statements that
run when the module is first imported, which are those at the top of the
module, also under a module-level ``if``/``try``/``with``/``for``/``while``
and in class bodies, but not those inside a function (which run only when the
function is called). It fails (exit status 1), printing each problem, on

* a cycle: a strongly connected component of more than one module, or a
  module importing itself;
* a module other than ``kumo/__init__.py`` importing the top-level package
  itself at module level (``import kumo``, ``from kumo import name`` where
  ``name`` is not a submodule, ``from . import name`` likewise in a module of
  the top level). Such a module runs while ``kumo/__init__.py`` is half
  done, and it hides which module it really needs;
* the same inside a function, except in kumo/_namespace.py, whose
  ``package()`` is the one way in for code whose subject is the public
  namespace itself (get_array_module, NumPy's dispatch by name, fuse's
  tracer, kumo.array_api's fallback, Chainer's ``xp``).

How an import becomes edges. ``import a.b.c`` and ``from a.b.c import x``
give an edge to ``a.b.c``; when ``x`` is a submodule (``from a.b import c``,
``from . import c``), the edge goes to that submodule instead. Importing
``a.b.c`` also runs the ``__init__`` of the packages ``a`` and ``a.b``: an
edge goes to each of those that is not a package the importing module is
itself in (those are being imported already, before the module's own code
runs). So a package ``__init__`` importing its own submodules is an ordinary
downward edge, and a submodule naming its own package (``from . import
name`` with a name defined in the ``__init__``, ``from kumo.linalg import
norm`` inside kumo.linalg) is an upward edge to that ``__init__``, which is
then a cycle. A module of one subpackage importing another subpackage's
module (``from kumo.linalg._util import x`` in kumo.sparse) depends on that
subpackage's ``__init__`` as well.

Compiled modules (``kumo._core`` and the others built by CMake) have no
source here; they are leaves. Imports of anything outside kumo are ignored.

The last line is a summary: modules, edges, and the number of imports of
kumo modules inside functions (``--local`` lists them, with those that name
the top-level package marked). Those that remain are lazy loads on purpose:
the optional compiled modules of kumo.distributed, kumo/__init__'s loading of
_core, kumo._namespace. Imports of other packages inside functions (scipy,
scikit-learn: optional dependencies) are not counted.
"""
import argparse
import ast
import os
import sys

PACKAGE = "kumo"
# Extension modules built by CMake (bindings/, distributed/); no source here.
EXTENSIONS = {"kumo._core", "kumo._distributed", "kumo._distributed_nccl"}
# The module allowed to import the top-level package (inside a function).
NAMESPACE_MODULE = "kumo._namespace"


def find_modules(root):
    """Module name -> (path, is_package) for every .py file under root/kumo."""
    mods = {}
    base = os.path.join(root, PACKAGE)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        rel = os.path.relpath(dirpath, root).split(os.sep)
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            path = os.path.join(dirpath, fn)
            if fn == "__init__.py":
                mods[".".join(rel)] = (path, True)
            else:
                mods[".".join(rel + [fn[:-3]])] = (path, False)
    return mods


def module_level_imports(tree):
    """(node, inside_function) for every import statement of the module."""
    out = []

    def visit(node, in_func):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                out.append((child, in_func))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, True)
            else:
                visit(child, in_func)

    visit(tree, False)
    return out


def ancestors(name):
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


class Graph:
    def __init__(self, root, with_local=False):
        self.mods = find_modules(root)
        self.known = set(self.mods) | EXTENSIONS
        self.edges = {m: set() for m in self.mods}
        self.reentries = []   # (module, lineno, text): module-level imports of kumo itself
        self.local = []       # (module, lineno, text, names_kumo): imports inside functions
        for name, (path, is_pkg) in self.mods.items():
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            for node, in_func in module_level_imports(tree):
                targets = self.targets(name, is_pkg, node)
                if targets is None:
                    continue
                text = ast.unparse(node)
                if in_func:
                    self.local.append((name, node.lineno, text, PACKAGE in targets))
                    if PACKAGE in targets and name not in (PACKAGE, NAMESPACE_MODULE):
                        self.reentries.append((name, node.lineno, text + "  (inside a function; use "
                                               + NAMESPACE_MODULE + ".package())"))
                    if not with_local:
                        continue
                if PACKAGE in targets and name != PACKAGE:
                    self.reentries.append((name, node.lineno, text))
                own = set(ancestors(name)) | ({name} if is_pkg else set())
                for t in targets:
                    # Importing t runs the __init__ of each package above it.
                    for a in ancestors(t):
                        if a not in own:
                            self.edges[name].add(a)
                    if t in self.known:
                        self.edges[name].add(t)

    def resolve_base(self, name, is_pkg, node):
        if node.level == 0:
            return node.module
        pkg = name if is_pkg else name.rpartition(".")[0]
        parts = pkg.split(".")
        if node.level > 1:
            parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts)
        return base + "." + node.module if node.module else base

    def targets(self, name, is_pkg, node):
        """The kumo modules an import statement needs; None if none."""
        if isinstance(node, ast.Import):
            ts = [a.name for a in node.names if a.name.split(".")[0] == PACKAGE]
            return set(ts) or None
        base = self.resolve_base(name, is_pkg, node)
        if base.split(".")[0] != PACKAGE:
            return None
        ts = set()
        for a in node.names:
            sub = base + "." + a.name
            if a.name != "*" and sub in self.known:
                ts.add(sub)
            else:
                ts.add(base)
        return ts


def cycles(edges):
    """Strongly connected components of more than one node, and self-loops (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in edges:
                continue
            if w not in index:
                strong(w)
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
            if len(comp) > 1 or v in edges[v]:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
    for v in sorted(edges):
        if v not in index:
            strong(v)
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"),
                    help="the directory holding the kumo package (default: python/)")
    ap.add_argument("--local", action="store_true", help="list the imports inside functions")
    ap.add_argument("--with-local", action="store_true",
                    help="count the imports inside functions as edges too (to see the cycles they dodge)")
    args = ap.parse_args()
    g = Graph(args.root, args.with_local)
    ok = True
    for comp in cycles(g.edges):
        ok = False
        inside = set(comp)
        print("import cycle (%d modules): %s" % (len(comp), ", ".join(comp)))
        for m in comp:
            for t in sorted(g.edges[m] & inside):
                print("    %s -> %s" % (m, t))
    for name, line, text in g.reentries:
        ok = False
        print("%s:%d imports the top-level package: %s" % (g.mods[name][0], line, text))
    if args.local:
        for name, line, text, names_kumo in g.local:
            print("local import %s:%d: %s%s" % (g.mods[name][0], line, text, "  [top-level kumo]" if names_kumo else ""))
    n_edges = sum(len(v) for v in g.edges.values())
    n_kumo_local = sum(1 for x in g.local if x[3])
    print("check_imports: %d modules, %d module-level import edges, %d imports of kumo modules inside functions "
          "(%d of the top-level kumo)%s" % (len(g.mods), n_edges, len(g.local), n_kumo_local,
                                            "" if ok else "; FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
