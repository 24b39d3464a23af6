"""Python source text for values, index expressions and whole calls.

Every finding carries a one-line reproducer built from these pieces, e.g.
`import numpy as np, kumo; b0 = np.array([...], dtype='int8'); n0 = b0[::-1];
k0 = kumo.asarray(b0)[::-1]; print(repr(np.sum(n0))); print(repr(kumo.sum(k0)))`.
"""
import math

import numpy


def _real(x):
    if isinstance(x, float):
        if math.isnan(x):
            return "np.nan"
        if math.isinf(x):
            return "np.inf" if x > 0 else "-np.inf"
    return repr(x)


def scalar(x):
    """Source for a Python scalar (NaN/inf spelled through np)."""
    if isinstance(x, complex):
        return f"complex({_real(x.real)}, {_real(x.imag)})"
    if isinstance(x, (numpy.generic,)):
        return f"np.{x.dtype.name}({scalar(x.item())})"
    return _real(x)


def _nested(v):
    if isinstance(v, list):
        return "[" + ", ".join(_nested(e) for e in v) + "]"
    return scalar(v)


def literal(arr):
    """Source that rebuilds NumPy array `arr` (C order) exactly."""
    arr = numpy.asarray(arr)
    dt = repr(arr.dtype.name)
    if arr.size == 0:
        return f"np.zeros({arr.shape!r}, dtype={dt})"
    return f"np.array({_nested(arr.tolist())}, dtype={dt})"


def index_item(x):
    """Source for one component of an index tuple (slices as a:b:c)."""
    if isinstance(x, slice):
        s = "" if x.start is None else repr(x.start)
        s += ":" + ("" if x.stop is None else repr(x.stop))
        if x.step is not None:
            s += ":" + repr(x.step)
        return s
    if x is None:
        return "None"
    if x is Ellipsis:
        return "..."
    return repr(x)


def index(idx):
    """Source for the inside of `x[...]` for an index tuple of plain items."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    if len(idx) == 0:
        return "()"
    return ", ".join(index_item(e) for e in idx) + ("," if len(idx) == 1 else "")


OPERATORS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
             "and_": "&", "or_": "|", "xor": "^", "lshift": "<<", "rshift": ">>", "lt": "<", "le": "<=",
             "eq": "==", "ne": "!=", "gt": ">", "ge": ">=", "matmul": "@"}
UNARY = {"neg": "-", "pos": "+", "invert": "~"}


class _Writer:
    def __init__(self):
        self.setup = []
        self.bases = []

    def value(self, x, mod, in_index=False):
        if hasattr(x, "steps"):                      # an ArraySpec
            i = self.specs.index(x)
            return f"{mod[0]}{i}"
        if type(x).__name__ == "PyList":
            return repr(x.v)
        if type(x).__name__ == "Bool0":
            return f"np.array({x.v})" if mod == "np" else f"kumo.asarray(np.array({x.v}))"
        if isinstance(x, tuple):
            if in_index and not x:
                return "()"
            if in_index:
                return ", ".join(self.value(e, mod, True) for e in x) + ("," if len(x) == 1 else "")
            return "(" + ", ".join(self.value(e, mod) for e in x) + ("," if len(x) == 1 else "") + ")"
        if isinstance(x, list):
            return "[" + ", ".join(self.value(e, mod) for e in x) + "]"
        if isinstance(x, (slice,)) or x is None or x is Ellipsis:
            return index_item(x) if in_index else (repr(x) if not isinstance(x, slice) else
                                                   f"slice({x.start!r}, {x.stop!r}, {x.step!r})")
        if isinstance(x, (bool, int, float, complex, numpy.generic)):
            return scalar(x)
        return repr(x)


def _collect(x, out):
    if hasattr(x, "steps"):
        if x not in out:
            out.append(x)
    elif isinstance(x, (tuple, list)):
        for e in x:
            _collect(e, out)
    elif isinstance(x, dict):
        for e in x.values():
            _collect(e, out)


def expression(call, mod, w):
    row = call.row
    a = [w.value(x, mod) for x in call.args]
    kw = [f"{k}={w.value(v, mod)}" for k, v in call.kwargs.items()]
    t = row.target
    if t == "getitem":
        return f"{a[0]}[{w.value(call.args[1], mod, True)}]", False
    if t in ("setitem", "isetitem"):
        op = "=" if t == "setitem" else _inplace(row.path)
        return f"{a[0]}[{w.value(call.args[1], mod, True)}] {op} {a[2]}", True
    if t == "operator":
        p = row.path
        if p in UNARY:
            return f"({UNARY[p]}{a[0]})", False
        if p == "abs":
            return f"abs({a[0]})", False
        if p not in OPERATORS:
            return f"{a[0]} {_inplace(p)} {a[1]}", True
        return f"({a[0]} {OPERATORS[p]} {a[1]})", False
    if t == "method":
        return f"{a[0]}.{row.path}({', '.join(a[1:] + kw)})", False
    if t == "attr":
        return f"{a[0]}.{row.path}", False
    return f"{mod}.{row.path}({', '.join(a + kw)})", False


def _inplace(path):
    """ "iadd" -> "+=", "iand" -> "&=" """
    return OPERATORS.get(path[1:], OPERATORS.get(path[1:] + "_")) + "="


def call_source(call):
    """One line of Python that builds the inputs and prints both results."""
    specs = []
    _collect(call.args, specs)
    _collect(call.kwargs, specs)
    w = _Writer()
    w.specs = specs
    parts = ["import numpy as np, kumo"]
    for i, s in enumerate(specs):
        parts.append(f"b{i} = {literal(s.base)}")
        parts.append(f"nb{i} = b{i}.copy(); n{i} = {s._source('np', f'nb{i}')}")
        parts.append(f"kb{i} = kumo.asarray(b{i}); k{i} = {_kview(s, i)}")
    for mod in ("np", "kumo"):
        expr, stmt = expression(call, mod, w)
        pfx = mod[0]
        if stmt:
            parts.append(expr)
            parts.append("print(" + ", ".join(f"repr({pfx}b{i})" for i in range(len(specs))) + ")")
        else:
            parts.append(f"print(repr({expr}))")
    return "; ".join(parts)


def _kview(spec, i):
    text = spec._source("np", f"kb{i}")
    return text.replace("np.broadcast_to(", "kumo.broadcast_to(")
