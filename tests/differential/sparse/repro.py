"""One line of Python that rebuilds a sparse call in SciPy and in kumo and
prints both outcomes (type, shape, dtype and dense values of sparse results).

    import numpy as np, scipy.sparse as sp, scipy.sparse.linalg, kumo, kumo.sparse as ks; ...
    b0 = np.array([...]); n0 = b0.copy()[::-1]; k0 = kumo.asarray(b0)[::-1]
    ns0 = sp.csr_array((n0, (n1, n2)), shape=(3, 4)); ks0 = ks.csr_array((k0, (k1, k2)), shape=(3, 4))
    print(show(ns0.sum(axis=0))); print(show(ks0.sum(axis=0)))
"""
import numpy

from .. import layouts
from ..indices import PyList
from ..repro import OPERATORS, UNARY, index_item, literal, scalar
from .calls import NpScalar
from .specs import SparseSpec

SHOW = ("show = lambda x: (type(x).__name__, x.shape, x.dtype, x.nnz, x.toarray()) "
        "if hasattr(x, 'toarray') and hasattr(x, 'nnz') else x")


class _Writer:
    def __init__(self):
        self.names = {}
        self.lines = []
        self.n_arr = 0
        self.n_sp = 0

    def register(self, x):
        if isinstance(x, SparseSpec):
            for s in x.specs():
                self.register(s)
            if id(x) not in self.names:
                i = self.n_sp
                self.n_sp += 1
                self.names[id(x)] = f"s{i}"
                self.lines.append(f"ns{i} = {x.source('np', lambda s: self.name(s, 'np'))}; "
                                  f"ks{i} = {x.source('kumo', lambda s: self.name(s, 'kumo'))}")
        elif isinstance(x, layouts.ArraySpec):
            if id(x) not in self.names:
                i = self.n_arr
                self.n_arr += 1
                self.names[id(x)] = str(i)
                self.lines.append(f"b{i} = {literal(x.base)}; n{i} = {x._source('np', f'b{i}.copy()')}; "
                                  f"k{i} = {x._source('np', f'kumo.asarray(b{i})').replace('np.broadcast_to(', 'kumo.broadcast_to(')}")
        elif isinstance(x, (list, tuple)):
            for e in x:
                self.register(e)

    def name(self, x, mod):
        nm = self.names[id(x)]
        p = "n" if mod == "np" else "k"
        return f"{p}{nm}" if not nm.startswith("s") else f"{p}s{nm[1:]}"

    def value(self, x, mod, in_index=False):
        if isinstance(x, (SparseSpec, layouts.ArraySpec)):
            return self.name(x, mod)
        if isinstance(x, PyList):
            return repr(x.v)
        if isinstance(x, NpScalar):
            return f"np.{x.dtype}({scalar(x.v)})"
        if isinstance(x, tuple):
            inner = ", ".join(self.value(e, mod, in_index) for e in x) + ("," if len(x) == 1 else "")
            return inner if in_index else f"({inner})"
        if isinstance(x, list):
            return "[" + ", ".join(self.value(e, mod) for e in x) + "]"
        if isinstance(x, slice) or x is None or x is Ellipsis:
            return index_item(x) if in_index else repr(x)
        if isinstance(x, (bool, int, float, complex, numpy.generic)):
            return scalar(x)
        return repr(x)


def expression(call, mod, w):
    row = call.row
    a = [w.value(x, mod) for x in call.args]
    kw = [f"{k}={w.value(v, mod)}" for k, v in call.kwargs.items()]
    t = row.target
    lib = "sp" if mod == "np" else "ks"
    if t == "getitem":
        return f"{a[0]}[{w.value(call.args[1], mod, True)}]", None
    if t == "setitem":
        return f"{a[0]}[{w.value(call.args[1], mod, True)}] = {a[2]}", a[0]
    if t == "operator":
        p = row.path
        if p in UNARY:
            return f"({UNARY[p]}{a[0]})", None
        if p == "abs":
            return f"abs({a[0]})", None
        return f"({a[0]} {OPERATORS[p]} {a[1]})", None
    if t in ("method",):
        e = f"{a[0]}.{row.path}({', '.join(a[1:] + kw)})"
        return (e, a[0]) if row.inplace else (e, None)
    if t == "attr":
        return f"{a[0]}.{row.path}", None
    if t == "ctor":
        return a[0], None
    if t == "fn":
        return row.src.format(*a, lib=lib, kw="".join(", " + x for x in kw)), None
    return f"{lib}.{row.path}({', '.join(a + kw)})", None


def call_source(call):
    w = _Writer()
    w.register(list(call.args) + list(call.kwargs.values()))
    parts = ["import numpy as np, scipy.sparse as sp, scipy.sparse.linalg, kumo, kumo.sparse as ks", SHOW] + w.lines
    for mod in ("np", "kumo"):
        expr, target = expression(call, mod, w)
        if target is not None:
            parts.append(expr)
            parts.append(f"print(show({target}))")
        else:
            parts.append(f"print(show({expr}))")
    return "; ".join(parts)
