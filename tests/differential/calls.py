"""A call: one row of the op table with concrete arguments.

`generate(row, rng)` draws the arguments from the row's tokens (TOKENS
below; a list in the row is a choice of literal values) and resolves the
ones that depend on NumPy's result (out=, where= of ufuncs, assigned values).
`execute(call, lib)` runs it on numpy or on kumo from fresh copies of the
same bases and returns an Outcome. Nothing here imports kumo.
"""
import operator
import warnings

import numpy

from . import indices, layouts, values
from .indices import Bool0, PyList
from .layouts import ArraySpec

IGNORED_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, FutureWarning)


class Call:
    def __init__(self, row, args, kwargs):
        self.row = row
        self.args = args
        self.kwargs = kwargs


class Outcome:
    def __init__(self, result=None, exc=None, warns=(), bases=(), invalid_cast=False):
        self.result = result
        self.exc = exc
        self.warns = warns
        self.bases = bases
        # NumPy warned "invalid value encountered" (in cast, or in the
        # reduce/divide that cast into an integer out=): a NaN, an inf or an
        # out-of-range float went to an integer, whose value C leaves
        # undefined (NumPy's own results differ between its scalar, 0-d and
        # SIMD paths and between CPUs), so integer values are not compared.
        self.invalid_cast = invalid_cast


# -- generation ---------------------------------------------------------------

class Gen:
    """State while drawing one call's arguments."""
    def __init__(self, row, rng):
        self.row = row
        self.rng = rng
        self.A = None          # the first array's NumPy view
        self.kw = {}

    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def dtype(self, which=1):
        ds = self.row.dtypes if which == 1 or not self.row.dtypes2 else self.row.dtypes2
        return self.pick(ds)

    def array(self, shape, dtype=None, domain=None, layout=None):
        dtype = dtype or self.dtype()
        return layouts.make(self.rng, shape, dtype, domain or self.row.domain, layout)

    def spec_of(self, vals):
        return layouts.from_values(self.rng, numpy.asarray(vals))


def _shape(g, kind):
    rng = g.rng
    if kind == "any":
        return layouts.random_shape(rng, 0, 3)
    if kind == "nd1":
        return layouts.random_shape(rng, 1, 3)
    if kind == "nd2":
        return layouts.random_shape(rng, 2, 3)
    if kind == "1d":
        return layouts.random_shape(rng, 1, 1, max_len=8)
    if kind == "2d":
        return layouts.random_shape(rng, 2, 2)
    if kind == "fft":
        return layouts.random_shape(rng, 1, 3, allow_empty=False)
    if kind in ("square", "spd", "sym"):
        n = int(rng.integers(1, 5))
        return (n, n)
    if kind == "sqstack":
        n = int(rng.integers(1, 4))
        return tuple([int(rng.integers(1, 3))] * int(rng.integers(0, 2))) + (n, n)
    raise ValueError(kind)


def tok_A(g):
    kind = g.row.shape
    shape = _shape(g, kind)
    dtype = g.dtype()
    if kind in ("spd", "sym"):
        m = values.values(g.rng, shape, dtype, "small")
        v = m @ m.conj().T + shape[0] * numpy.eye(shape[0], dtype=dtype) if kind == "spd" else m + m.T
        spec = g.spec_of(v.astype(dtype))
    elif g.row.sorted:
        spec = g.spec_of(numpy.sort(values.values(g.rng, shape, dtype, g.row.domain), axis=-1))
    else:
        lay = None
        if g.row.no_broadcast:
            lay = g.pick([x for x in layouts.LAYOUTS if x != "broadcast"])
        spec = g.array(shape, dtype, layout=lay)
    g.A = spec.numpy()
    return spec


def _bcast_shape(g, shape, strict=False):
    """A shape that broadcasts with `shape` (rarely one that does not, or a
    bigger one, unless `strict`: then one that broadcasts *to* `shape`)."""
    rng = g.rng
    r = rng.random() * (0.9 if strict else 1.0)
    if r < 0.4:
        return shape
    s = [1 if rng.random() < 0.35 else n for n in shape]
    if r < 0.6 and s:
        s = s[int(rng.integers(0, len(s) + 1)):]
    elif r > 0.95:
        s = [int(rng.integers(2, 4))] + list(shape)  # bigger: broadcasts the other way
    elif r > 0.92 and s:
        s[-1] = s[-1] + 1                             # does not broadcast
    return tuple(s)


def _readonly_first(g):
    return g.row.writes_first and not g.A.flags.writeable


def tok_B(g):
    if _readonly_first(g):   # the write fails: no second error (casting, shape) in the same call
        return g.array(_bcast_shape(g, g.A.shape, True), str(g.A.dtype), g.row.domain2 or g.row.domain)
    return g.array(_bcast_shape(g, g.A.shape), g.dtype(2), g.row.domain2 or g.row.domain)


def tok_Bsame(g):
    return g.array(g.A.shape, g.dtype(2), g.row.domain2 or g.row.domain)


def tok_Bany(g):
    return g.array(layouts.random_shape(g.rng, 0, 2), g.dtype(2), g.row.domain2 or g.row.domain)


def tok_S(g):
    kinds = {numpy.dtype(d).kind for d in (g.row.dtypes2 or g.row.dtypes)}
    d = g.pick(sorted(kinds))
    proto = {"b": "bool", "i": "int64", "u": "int64", "f": "float64", "c": "complex128"}[d]
    return values.scalar(g.rng, proto, g.row.domain2 or g.row.domain)


def tok_BS(g):
    if _readonly_first(g) and g.rng.random() < 0.3:
        return values.scalar(g.rng, g.A.dtype, "small")
    return tok_S(g) if g.rng.random() < 0.3 else tok_B(g)


def tok_axis(g):
    nd = g.A.ndim
    r = g.rng.random()
    if r < 0.2:
        return None
    if r < 0.25 or nd == 0:
        return int(g.pick([nd, -nd - 1, 3]))
    return int(g.rng.integers(-nd, nd))


def tok_axis_int(g):
    nd = max(g.A.ndim, 1)
    if g.rng.random() < 0.05:
        return nd
    return int(g.rng.integers(-nd, nd))


def tok_axes(g):
    nd = g.A.ndim
    r = g.rng.random()
    if r < 0.5 or nd == 0:
        return tok_axis(g)
    k = int(g.rng.integers(1, nd + 1))
    ax = [int(a) - (nd if g.rng.random() < 0.3 else 0) for a in g.rng.permutation(nd)[:k]]
    if g.rng.random() < 0.03:
        ax.append(ax[0])
    return tuple(ax)


def tok_perm(g):
    nd = g.A.ndim
    p = [int(a) for a in g.rng.permutation(nd)]
    if g.rng.random() < 0.05 and nd:
        p[0] = p[-1] if nd > 1 else nd
    return tuple(p)


def tok_dtype_acc(g):
    return g.pick([None, "float64", "float32", "float16", "int64", "int32", "int8", "uint8", "uint64",
                   "complex128", "complex64", "bool", str(g.A.dtype)])


def tok_dtype_any(g):
    return g.pick(values.ALL)


def tok_where_red(g):
    return g.spec_of(g.rng.random(_bcast_shape(g, g.A.shape, True)) < 0.7)


def tok_initial(g):
    return values.scalar(g.rng, g.pick(["int64", "float64"] if g.A.dtype.kind != "c" else ["complex128"]), "small")


def tok_newshape(g):
    n = g.A.size
    dims = []
    rest = n
    for f in (2, 3, 5, 7):
        while rest % f == 0 and rest > 1 and g.rng.random() < 0.7:
            dims.append(f)
            rest //= f
    dims = [int(d) for d in g.rng.permutation(dims)] + ([rest] if rest != 1 else [])
    if n == 0:
        dims = [0, int(g.rng.integers(1, 4))]
    if g.rng.random() < 0.3 and dims:
        dims[int(g.rng.integers(len(dims)))] = -1
    if g.rng.random() < 0.05:
        dims.append(2)
    return tuple(dims) if g.rng.random() < 0.8 or len(dims) != 1 else dims[0]


def tok_arrays(g):
    """2-4 arrays that concatenate along g.kw['axis'] (or flattened), mixed dtypes."""
    nd = int(g.rng.integers(1, 4))
    shape = list(layouts.random_shape(g.rng, nd, nd))
    axis = g.kw.get("axis", 0)
    out = []
    for _ in range(int(g.rng.integers(1, 5))):
        s = list(shape)
        if axis is not None and -nd <= axis < nd:
            s[axis] = int(g.rng.integers(0, 4))
        elif axis is None:
            s = list(layouts.random_shape(g.rng, 0, 2))
        out.append(g.array(tuple(s), g.pick(g.row.dtypes2 or g.row.dtypes)))
    return out


def tok_arrays_same(g):
    shape = layouts.random_shape(g.rng, 0, 2)
    return [g.array(shape, g.pick(g.row.dtypes2 or g.row.dtypes)) for _ in range(int(g.rng.integers(1, 4)))]


def tok_sections(g):
    n = g.A.shape[0] if g.A.ndim else 1
    if g.rng.random() < 0.5:
        return int(g.pick([1, 2, 3, n or 1]))
    return sorted(int(x) for x in g.rng.integers(-1, n + 2, size=int(g.rng.integers(0, 4))))


def tok_shift(g):
    if g.rng.random() < 0.7:
        return int(g.rng.integers(-7, 8))
    return tuple(int(x) for x in g.rng.integers(-3, 4, size=max(g.A.ndim, 1)))


def tok_repeats(g):
    ax = g.kw.get("axis")
    n = g.A.size if ax is None else (g.A.shape[ax] if g.A.ndim and -g.A.ndim <= ax < g.A.ndim else 1)
    if g.rng.random() < 0.5:
        return int(g.rng.integers(0, 4))
    return PyList([int(x) for x in g.rng.integers(0, 3, size=n)])


def tok_reps(g):
    if g.rng.random() < 0.4:
        return int(g.rng.integers(0, 3))
    return tuple(int(x) for x in g.rng.integers(0, 3, size=int(g.rng.integers(1, 4))))


def tok_pad_width(g):
    nd = g.A.ndim
    r = g.rng.random()
    if r < 0.4:
        return int(g.rng.integers(0, 3))
    if r < 0.6:
        return (int(g.rng.integers(0, 3)), int(g.rng.integers(0, 3)))
    return tuple((int(g.rng.integers(0, 3)), int(g.rng.integers(0, 3))) for _ in range(nd))


def _axis_len(g):
    ax = g.kw.get("axis")
    if ax is None or not g.A.ndim or not -g.A.ndim <= ax < g.A.ndim:
        return g.A.size
    return g.A.shape[ax]


def tok_obj(g):
    n = _axis_len(g)
    r = g.rng.random()
    if r < 0.5:
        return int(g.rng.integers(-n - 1, n + 2))
    if r < 0.7:
        return slice(int(g.rng.integers(-n - 1, n + 1)), None, int(g.pick([1, 2, -1])))
    return PyList(sorted(int(x) for x in g.rng.integers(-n, n + 1, size=int(g.rng.integers(0, 4)))) if n else [])


def tok_vals(g):
    if g.rng.random() < 0.6:
        return tok_S(g)
    return g.array(layouts.random_shape(g.rng, 0, 1, max_len=3), g.dtype(2))


def tok_kth(g):
    n = _axis_len(g) if "axis" in g.kw else (g.A.shape[-1] if g.A.ndim else 1)
    if g.rng.random() < 0.15:
        return PyList(sorted({int(x) for x in g.rng.integers(0, max(n, 1), size=2)}))
    return int(g.rng.integers(-n, n)) if n else 0


def tok_V(g):
    return g.array(layouts.random_shape(g.rng, 0, 2), g.dtype(2), g.row.domain)


def tok_q(g):
    if g.rng.random() < 0.5:
        return float(g.pick([0, 25, 50, 62.5, 100, 37]))
    return g.spec_of(numpy.array(g.rng.integers(0, 101, size=int(g.rng.integers(1, 4))), dtype="float64"))


def tok_q01(g):
    if g.rng.random() < 0.5:
        return float(g.pick([0.0, 0.25, 0.5, 0.625, 1.0]))
    return g.spec_of(g.rng.integers(0, 9, size=int(g.rng.integers(1, 4))) / 8.0)


def tok_int_idx(g):
    n = _axis_len(g)
    return indices.int_array(g.rng, n, layouts.random_shape(g.rng, 0, 2, max_len=4), oob=g.rng.random() < 0.05)


def tok_along_idx(g):
    ax = g.kw.get("axis", -1)
    shape = list(g.A.shape)
    if ax is None:
        shape = [g.A.size]
        ax = 0
    if not shape or not -len(shape) <= ax < len(shape):
        return g.spec_of(numpy.zeros(shape, dtype="int64"))
    n = shape[ax]
    shape[ax] = int(g.rng.integers(0, 4))
    return g.spec_of(g.rng.integers(-n, n, size=shape) if n else numpy.zeros(shape, "int64"))


def tok_flat_idx(g):
    n = g.A.size
    v = g.rng.choice(n, size=min(n, int(g.rng.integers(0, 4))), replace=False) - (n if g.rng.random() < 0.3 else 0) if n else []
    return g.spec_of(numpy.asarray(v, dtype="int64"))


def tok_I1d(g):
    return g.spec_of(g.rng.integers(0, 5, size=int(g.rng.integers(0, 4))))


def tok_Bmat(g):
    """Right operand of matmul/dot: inner dimension matching A's last axis mostly."""
    if g.A.ndim == 0:
        return g.array((), g.dtype(2))
    k = g.A.shape[-1]
    if g.rng.random() < 0.05:
        k += 1
    r = g.rng.random()
    if r < 0.3:
        return g.array((k,), g.dtype(2))
    shape = (k, int(g.rng.integers(1, 4)))
    if r > 0.8 and g.A.ndim >= 3:
        shape = g.A.shape[:-2] + shape
    return g.array(shape, g.dtype(2))


def tok_Btd(g):
    nd = g.A.ndim
    k = int(g.rng.integers(0, min(nd, 2) + 1))
    g.kw["axes"] = k
    return g.array(g.A.shape[nd - k:] + layouts.random_shape(g.rng, 0, 1), g.dtype(2))


def tok_rhs(g):
    n = g.A.shape[-1]
    return g.array((n,) if g.rng.random() < 0.5 else (n, int(g.rng.integers(1, 3))), g.dtype(2), "small")


def tok_bins(g):
    return g.pick([int(g.rng.integers(1, 6)), "auto", PyList([-2.0, 0.0, 1.5, 4.0])])


def tok_bcount(g):
    return g.spec_of(g.rng.integers(0, 6, size=int(g.rng.integers(0, 8))).astype(g.dtype()))


def tok_fft_n(g):
    return g.pick([None, 1, 2, 3, 4, 5, 8])


def tok_subscripts(g):
    """einsum operands drawn to fit a random subscript string."""
    letters = "ijk"
    g.kw["_first"] = tok_A(g)
    nd = g.A.ndim
    a = letters[:nd]
    b = "".join(g.pick(list(letters[:max(nd, 1)])) for _ in range(int(g.rng.integers(0, 3))))
    b = "".join(dict.fromkeys(b))
    dims = {c: n for c, n in zip(a, g.A.shape)}
    for c in b:
        dims.setdefault(c, int(g.rng.integers(1, 4)))
    out = "".join(c for c in dict.fromkeys(a + b) if g.rng.random() < 0.5)
    g.kw["_second"] = g.array(tuple(dims[c] for c in b), g.dtype(2))
    return f"{a},{b}->{out}"


def tok_first(g):
    return g.kw.pop("_first")


def tok_second(g):
    return g.kw.pop("_second")


def tok_lohi(g):
    r = g.rng.random()
    if r < 0.15:
        return None
    if r < 0.6:
        return tok_S(g)
    return tok_B(g)


def tok_fill_val(g):
    return tok_S(g) if g.rng.random() < 0.7 else g.array((int(g.rng.integers(1, 4)),), g.dtype(2))


def tok_diag_off(g):
    return int(g.rng.integers(-3, 4))


def tok_norm_ord(g):
    if g.A.ndim == 2 and g.rng.random() < 0.5:
        return g.pick([None, "fro", "nuc", 1, -1, 2, -2, numpy.inf, -numpy.inf])
    return g.pick([None, 1, 2, 3, numpy.inf, -numpy.inf, 0, 0.5])


def tok_out(g):
    return OUT


def tok_where_out(g):
    return WHERE_OUT


OUT = object()
WHERE_OUT = object()

TOKENS = {name[4:]: fn for name, fn in globals().items() if name.startswith("tok_")}


def _draw(g, tok):
    if isinstance(tok, list):
        return g.pick(tok)
    if callable(tok):
        return tok(g)
    return TOKENS[tok](g)


def generate(row, rng):
    g = Gen(row, rng)
    args = []
    toks = list(row.args)
    if toks:
        args.append(_draw(g, toks[0]))
    if g.A is None:
        g.A = numpy.zeros(())
    kwargs = {}
    for name, tok in row.kwargs.items():
        if name in row.required or rng.random() < row.p_kw:
            g.kw[name] = kwargs[name] = _draw(g, tok)
    for tok in toks[1:]:
        args.append(_draw(g, tok))
    for name in list(g.kw):
        if name not in kwargs and not name.startswith("_") and name in ("axes",):
            kwargs[name] = g.kw[name]
    call = Call(row, args, kwargs)
    _resolve_late(g, call)
    return call


def _resolve_late(g, call):
    """out=, ufunc where= and assigned values need NumPy's result shape."""
    row = call.row
    if WHERE_OUT in call.kwargs.values() and OUT not in call.kwargs.values():
        call.kwargs["out"] = OUT
    if not any(v is OUT or v is WHERE_OUT for v in call.kwargs.values()) and row.target not in ("setitem", "isetitem"):
        return
    probe = Call(row, list(call.args), {k: v for k, v in call.kwargs.items() if v is not OUT and v is not WHERE_OUT})
    if row.target in ("setitem", "isetitem"):
        probe = Call(row, call.args[:2], {})
        probe.row = _GETITEM
    res = execute(probe, numpy)
    r = res.result
    if res.exc is not None or not isinstance(r, (numpy.ndarray, numpy.generic)):
        for k in [k for k, v in call.kwargs.items() if v is OUT or v is WHERE_OUT]:
            del call.kwargs[k]
        if row.target in ("setitem", "isetitem"):
            call.args[2] = tok_S(g)
        return
    scalar_result = isinstance(r, numpy.generic)
    r = numpy.asarray(r)
    if row.target in ("setitem", "isetitem"):
        call.args[2] = _assigned(g, call, r)
        if row.target == "isetitem" and scalar_result:
            # NumPy's a[i] is a scalar there, kumo's a 0-d array: `op=` then casts
            # differently by design; keep to a value of the array's own kind.
            call.args[2] = values.scalar(g.rng, call.args[0].dtype, "small")
        return
    for k, v in list(call.kwargs.items()):
        if v is OUT:
            dt = r.dtype if g.rng.random() < 0.75 else numpy.dtype(g.pick(values.ALL))
            call.kwargs[k] = layouts.make(g.rng, r.shape, dt, "small",
                                          g.pick(["C", "negative", "transposed", "stepped"]))
        elif v is WHERE_OUT:
            call.kwargs[k] = g.spec_of(g.rng.random(_bcast_shape(g, r.shape, True)) < 0.6)


class _Row:
    target = "getitem"


_GETITEM = _Row()


def _assigned(g, call, r):
    """A value for `a[idx] = value`: a scalar, or an array that broadcasts to
    the selection (only where the selection has no repeated element, whose
    final value NumPy does not define for arrays)."""
    if g.rng.random() < 0.45:
        return tok_S(g)
    pos = _positions(call)
    if pos is None or len(numpy.unique(pos)) != pos.size:
        return tok_S(g)
    shape = r.shape
    if shape and g.rng.random() < 0.4:
        shape = shape[int(g.rng.integers(0, len(shape) + 1)):]
    return g.array(shape, g.dtype(2))


def _positions(call):
    a = call.args[0]
    base = numpy.arange(a.base.size).reshape(a.base.shape)
    x = base
    for st in a.steps:
        x = layouts.apply_step(numpy, x, st)
    try:
        return numpy.asarray(x[materialize(call.args[1], numpy, [])])
    except Exception:
        return None


# -- execution ----------------------------------------------------------------

def materialize(x, lib, built):
    if isinstance(x, ArraySpec):
        base, view = x.build(lib)
        built.append(base)
        return view
    if isinstance(x, PyList):
        return list(x.v)
    if isinstance(x, Bool0):
        a = numpy.array(x.v)
        return a if lib is numpy else lib.asarray(a)
    if isinstance(x, tuple):
        return tuple(materialize(e, lib, built) for e in x)
    if isinstance(x, list):
        return [materialize(e, lib, built) for e in x]
    return x


def resolve(lib, path):
    obj = lib
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def invoke(row, lib, args, kwargs):
    t = row.target
    if t == "getitem":
        return args[0][args[1]]
    if t == "setitem":
        args[0][args[1]] = args[2]
        return None
    if t == "isetitem":
        view = args[0]
        tmp = view[args[1]]
        tmp = getattr(operator, row.path)(tmp, args[2])
        view[args[1]] = tmp
        return None
    if t == "operator":
        return getattr(operator, row.path)(*args)
    if t == "method":
        return getattr(args[0], row.path)(*args[1:], **kwargs)
    if t == "attr":
        return getattr(args[0], row.path)
    return resolve(lib, row.path)(*args, **kwargs)


def execute(call, lib):
    built = []
    args = materialize(call.args, lib, built)
    kwargs = {k: materialize(v, lib, built) for k, v in call.kwargs.items()}
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            result = invoke(call.row, lib, args, kwargs)
            exc = None
        except Exception as e:  # noqa: BLE001 - every exception is data here
            result, exc = None, e
    warns = sorted({x.category.__name__ for x in w if not issubclass(x.category, IGNORED_WARNINGS)})
    invalid_cast = any("invalid value encountered" in str(x.message) for x in w)
    return Outcome(result, exc, warns, built, invalid_cast)


def tok_index(g):
    return indices.random_index(g.rng, g.A.shape)


def tok_assigned(g):
    return None


TOKENS.update(index=tok_index, assigned=tok_assigned)


def tok_flat1d_idx(g):
    n = g.A.size
    return g.spec_of(g.rng.integers(-n, n, size=int(g.rng.integers(0, 5))) if n else numpy.zeros(0, "int64"))


TOKENS.update(flat1d_idx=tok_flat1d_idx)
