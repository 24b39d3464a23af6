"""A sparse call: one row of sparse/ops.py with concrete arguments.

`generate(row, rng)` draws the arguments from the row's tokens (TOKENS; a
list is a choice of literals, a callable a token of its own) and
`execute(call, lib)` runs the call in scipy.sparse+NumPy or in
kumo.sparse+kumo (`specs.Lib`) from fresh objects, returning a
differential.calls.Outcome whose `bases` are the sparse arguments after
the call (in-place methods are judged by them).
"""
import operator
import warnings

import numpy

from .. import layouts, values
from ..calls import IGNORED_WARNINGS, Outcome
from ..indices import PyList
from .specs import FORMATS, ONE_D, Lib, SparseSpec, draw_shape, draw_sparse, sparse_values


class Call:
    def __init__(self, row, args, kwargs):
        self.row, self.args, self.kwargs = row, args, kwargs


class NpScalar:
    """A NumPy scalar argument (np.float32(2)): a strong operand in both libraries."""
    def __init__(self, dtype, v):
        self.dtype, self.v = str(numpy.dtype(dtype)), v

    def value(self):
        return numpy.dtype(self.dtype).type(self.v)


class Gen:
    def __init__(self, row, rng):
        self.row, self.rng = row, rng
        self.S = None        # the first SparseSpec
        self.s = None        # ... built in SciPy (for shapes and keys)
        self.shape = None
        self.claimed = True  # g.S was returned by the "S" token (see _ensure)

    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def dtype(self, which=1):
        ds = self.row.dtypes2 if which == 2 and self.row.dtypes2 else self.row.dtypes
        return self.pick(ds)

    def dense(self, shape, dtype=None, domain=None, broadcast=True):
        dtype = dtype or self.dtype(2)
        vals = sparse_values(self.rng, shape, dtype, domain or self.row.domain) if self.rng.random() < 0.5 \
            else values.values(self.rng, shape, dtype, domain or self.row.domain)
        if broadcast and self.rng.random() < 0.15 and len(shape):
            return layouts.make(self.rng, shape, dtype, domain or self.row.domain, "broadcast")
        return layouts.from_values(self.rng, vals)


# -- tokens ---------------------------------------------------------------------

def _row_shape(g):
    return draw_shape(g.rng, g.row.shape, "csr", True)


def _ensure(g):
    """Draw the main operand first when a token before it depends on it."""
    if g.S is None:
        tok_S(g)
        g.claimed = False


def tok_S(g):
    """The main sparse operand (the row's formats, flavours, shape kind, dtypes)."""
    if g.S is not None and not g.claimed:
        g.claimed = True
        return g.S
    rng = g.rng
    kind = g.pick(g.row.kinds)
    fmts = list(g.row.formats)
    fmt = g.pick(fmts)
    shape = draw_shape(rng, g.row.shape, fmt, kind == "array")
    if len(shape) == 1 and fmt not in ONE_D:
        fmt = g.pick(ONE_D)
        if fmt not in g.row.formats:
            shape = draw_shape(rng, "2d", fmt, False)
    spec = draw_sparse(rng, shape, g.dtype(), fmt, kind, g.row.domain)
    if g.row.shape == "spd":
        spec = _diag_dominant(g, spec)
    if g.S is None:
        g.S, g.shape = spec, spec.shape
        g.s = _scipy(spec)
    return spec


def _diag_dominant(g, spec):
    """A nonsingular square operand: the spec's values plus a large diagonal (dense input)."""
    n = spec.shape[0]
    dt = numpy.dtype(spec_dtype(spec))
    v = sparse_values(g.rng, (n, n), dt, "small") + numpy.eye(n, dtype=dt) * (4 * n + 1)
    if g.row.name.startswith("spsolve_triangular"):
        g.lower = bool(g.rng.random() < 0.5)
        v = numpy.tril(v) if g.lower else numpy.triu(v)
    out = SparseSpec(spec.fmt, spec.kind, "dense", [layouts.from_values(g.rng, v.astype(dt))], {})
    out.shape = (n, n)
    return out


def spec_dtype(spec):
    if "dtype" in spec.kwargs:
        return spec.kwargs["dtype"]
    if spec.how == "shape":
        return "float64"
    if spec.how == "sparse":
        return spec_dtype(spec.inner)
    return str(spec.parts[0].dtype)


def _with_shape(spec, shape):
    spec.shape = tuple(shape)
    return spec


def _scipy(spec):
    try:
        return spec.build(Lib.get("scipy"))
    except Exception:  # noqa: BLE001
        return None


def tok_S2(g):
    """A second sparse operand: mostly of the first one's shape, any format."""
    _ensure(g)
    rng = g.rng
    shape = g.shape
    r = rng.random()
    if r < 0.08 and len(shape) == 2:
        shape = (shape[0], 1) if rng.random() < 0.5 else (1, shape[1])      # broadcasts in multiply
    elif r < 0.12:
        shape = draw_shape(rng, "any", "csr", True)                           # usually mismatched
    kind = g.S.kind if rng.random() < 0.8 else g.pick(["array", "matrix"])
    fmts = FORMATS if len(shape) == 2 else list(ONE_D)
    if len(shape) == 1:
        kind = "array"
    return draw_sparse(rng, shape, g.dtype(2), g.pick(fmts), kind, g.row.domain2 or g.row.domain)


def tok_D(g):
    """A dense operand of the first one's shape (or one that broadcasts, or not)."""
    _ensure(g)
    rng = g.rng
    shape = list(g.shape)
    r = rng.random()
    if r < 0.15 and shape:
        shape = [1 if rng.random() < 0.5 else n for n in shape]
        if rng.random() < 0.3:
            shape = shape[1:]
    elif r < 0.2:
        shape = list(draw_shape(rng, "any", "csr", True))
    return g.dense(tuple(shape), domain=g.row.domain2)


def tok_scalar(g):
    """A Python scalar of one of the row's second dtypes' kinds (or a NumPy scalar)."""
    rng = g.rng
    d = g.dtype(2)
    kind = numpy.dtype(d).kind
    proto = {"b": "bool", "i": "int64", "u": "int64", "f": "float64", "c": "complex128"}[kind]
    v = values.scalar(rng, proto, g.row.domain2 or g.row.domain)
    if rng.random() < 0.15:
        return NpScalar(d, v if kind != "u" else abs(v))
    return v


def tok_SDs(g):
    r = g.rng.random()
    return tok_S2(g) if r < 0.45 else tok_D(g) if r < 0.8 else tok_scalar(g)


def tok_SD(g):
    return tok_S2(g) if g.rng.random() < 0.55 else tok_D(g)


def _inner(g):
    return g.shape[-1]


def tok_X(g):
    """Right operand of a product: dense (n,) or (n, k), sometimes of another n."""
    _ensure(g)
    n = _inner(g)
    if g.rng.random() < 0.07:
        n += 1
    shape = (n,) if g.rng.random() < 0.4 else (n, int(g.rng.integers(0, 4)))
    return g.dense(shape)


def tok_XL(g):
    """Left dense operand of a product: (m,) or (k, m)."""
    _ensure(g)
    m = g.shape[0]
    if g.rng.random() < 0.07:
        m += 1
    shape = (m,) if g.rng.random() < 0.4 else (int(g.rng.integers(0, 4)), m)
    return g.dense(shape)


def tok_SX(g):
    """Right sparse operand of a product: (n, k) (or (n,) for arrays)."""
    _ensure(g)
    n = _inner(g)
    if g.rng.random() < 0.07:
        n += 1
    kind = g.S.kind if g.rng.random() < 0.8 else g.pick(["array", "matrix"])
    shape = (n,) if kind == "array" and g.rng.random() < 0.2 else (n, int(g.rng.integers(0, 5)))
    fmt = g.pick(FORMATS if len(shape) == 2 else list(ONE_D))
    return draw_sparse(g.rng, shape, g.dtype(2), fmt, kind, g.row.domain2 or g.row.domain)


def tok_SXL(g):
    _ensure(g)
    m = g.shape[0]
    kind = g.S.kind if g.rng.random() < 0.8 else g.pick(["array", "matrix"])
    shape = (int(g.rng.integers(0, 5)), m)
    return draw_sparse(g.rng, shape, g.dtype(2), g.pick(FORMATS), kind, g.row.domain2 or g.row.domain)


def tok_axis(g):
    _ensure(g)
    r = g.rng.random()
    if r < 0.25:
        return None
    if r < 0.28:
        return g.pick([2, -3, (0, 1), (1, 0)])
    return g.pick([0, 1, -1, -2] if len(g.shape) == 2 else [0, -1])


def tok_k(g):
    return int(g.rng.integers(-4, 5))


def tok_pow(g):
    _ensure(g)
    return g.pick([0, 1, 2, 3, 0.5, -1, 2.0, True] if g.S.kind == "array" else [0, 1, 2, 3, -1])


def tok_diagvals(g):
    """setdiag's values: a scalar or a 1-d array (shorter, longer, exact)."""
    _ensure(g)
    if g.rng.random() < 0.35:
        return tok_scalar(g)
    m, n = g.shape if len(g.shape) == 2 else (1, g.shape[0])
    length = max(min(m, n) + int(g.rng.integers(-2, 3)), 0)
    return g.dense((length,), broadcast=False)


def tok_dtype(g):
    return g.pick(["float64", "float32", "int64", "int32", "int8", "uint8", "bool", "complex128", "complex64"])


def tok_fmt(g):
    return g.pick([None, "csr", "csc", "coo", "dia", "bsr"])


def tok_order(g):
    return g.pick([None, "C", "F"])


# -- keys -----------------------------------------------------------------------

def _axis_item(g, n, arrays=True):
    rng = g.rng
    r = rng.random()
    if r < 0.28:
        if n and rng.random() < 0.95:
            return int(rng.integers(-n, n))
        return g.pick([n, -n - 1, n + 2])
    if r < 0.6 or not arrays:
        def b():
            return None if rng.random() < 0.3 else int(rng.integers(-n - 2, n + 3))
        step = g.pick([None, None, 1, 2, -1, -2, 3])
        return slice(b(), b(), step)
    if r < 0.85:
        k = int(rng.integers(0, 5))
        v = rng.integers(-n, n, size=k) if n else numpy.zeros(0, "int64")
        if k and rng.random() < 0.04:
            v[0] = n
        if rng.random() < 0.25:
            return PyList([int(x) for x in v])
        return layouts.from_values(rng, v.astype(g.pick(["int64", "int32", "intp"])))
    mask = rng.random(n) < 0.5
    if rng.random() < 0.2:
        return PyList([bool(x) for x in mask])
    return layouts.from_values(rng, mask)


def tok_key(g):
    """An index: an int, a slice, an int array (repeats, negatives), a
    mask, a pair of them, a 2-d mask, Ellipsis and None."""
    _ensure(g)
    rng = g.rng
    shape = g.shape
    if len(shape) == 1:
        r = rng.random()
        if r < 0.1:
            return (Ellipsis, _axis_item(g, shape[0]))
        return _axis_item(g, shape[0]) if r < 0.9 else (_axis_item(g, shape[0]),)
    m, n = shape
    r = rng.random()
    if r < 0.15:
        return _axis_item(g, m)
    if r < 0.2:
        return layouts.from_values(rng, rng.random(shape) < 0.4)        # a 2-d mask
    if r < 0.25:
        return (Ellipsis, _axis_item(g, n))
    if r < 0.3:
        return (_axis_item(g, m, False), None) if rng.random() < 0.5 else (None, _axis_item(g, n, False))
    if r < 0.4:
        # two index arrays: of one length (entries), or a column and a row (outer)
        k = int(rng.integers(0, 4))
        i = rng.integers(-m, m, size=k) if m else numpy.zeros(k, "int64")
        j = rng.integers(-n, n, size=k if rng.random() < 0.8 else k + 1) if n else numpy.zeros(k, "int64")
        if rng.random() < 0.3:
            i = i[:, None]
            j = j[None, :]
        if (m == 0 or n == 0) and k:
            i, j = numpy.zeros(0, "int64"), numpy.zeros(0, "int64")
        return (layouts.from_values(rng, i), layouts.from_values(rng, j))
    return (_axis_item(g, m), _axis_item(g, n))


def _positions(g, key):
    """The dense places a key selects (NumPy's reading), or None."""
    pos = numpy.arange(int(numpy.prod(g.shape))).reshape(g.shape)
    try:
        return numpy.asarray(pos[materialize(key, Lib.get("scipy"), [])])
    except Exception:  # noqa: BLE001
        return None


def tok_setvalue(g):
    return None     # resolved once the key is known (generate)


def _setvalue(g, call):
    """A scalar, or a dense array of the selection's shape (only where the
    selection has no repeated place: which write wins is not defined)."""
    if g.rng.random() < 0.45:
        return tok_scalar(g)
    try:
        sel = g.s[materialize(call.args[1], Lib.get("scipy"), [])]
    except Exception:  # noqa: BLE001
        return tok_scalar(g)
    pos = _positions(g, call.args[1])
    if pos is None or len(numpy.unique(pos)) != pos.size:
        return tok_scalar(g)
    shape = sel.shape if hasattr(sel, "shape") else ()
    if shape and g.rng.random() < 0.3:
        shape = shape[1:] if len(shape) == 2 else shape
    return g.dense(tuple(shape), broadcast=False)


# -- construction-function tokens ------------------------------------------------

def tok_blocks_row(g):
    """A list of sparse (rarely dense) blocks of one number of rows (hstack)."""
    _ensure(g)
    m = g.shape[0]
    out = [tok_S(g)]
    for _ in range(int(g.rng.integers(0, 3))):
        mm = m if g.rng.random() < 0.9 else m + 1
        n = int(g.rng.integers(0, 4))
        out.append(_block(g, (mm, n)))
    return out


def tok_blocks_col(g):
    _ensure(g)
    n = g.shape[1]
    out = [tok_S(g)]
    for _ in range(int(g.rng.integers(0, 3))):
        nn = n if g.rng.random() < 0.9 else n + 1
        out.append(_block(g, (int(g.rng.integers(0, 4)), nn)))
    return out


def _block(g, shape):
    if g.rng.random() < 0.1:
        return g.dense(shape, broadcast=False)
    kind = g.S.kind if g.rng.random() < 0.8 else g.pick(["array", "matrix"])
    fmt = g.S.fmt if g.rng.random() < 0.5 else g.pick(FORMATS)
    return draw_sparse(g.rng, shape, g.dtype(2), fmt, kind, g.row.domain)


def tok_grid(g):
    """bmat's blocks: a 2-d list with None, consistent sizes (rarely not)."""
    _ensure(g)
    rng = g.rng
    R, C = int(rng.integers(1, 3)), int(rng.integers(1, 3))
    rows = [g.shape[0]] + [int(rng.integers(0, 4)) for _ in range(R - 1)]
    cols = [g.shape[1]] + [int(rng.integers(0, 4)) for _ in range(C - 1)]
    grid = []
    for i in range(R):
        line = []
        for j in range(C):
            if i == j == 0:
                line.append(tok_S(g))
            elif rng.random() < 0.3:
                line.append(None)
            else:
                line.append(_block(g, (rows[i] + (1 if rng.random() < 0.03 else 0), cols[j])))
        grid.append(line)
    return grid


def tok_mats(g):
    _ensure(g)
    out = [tok_S(g)]
    for _ in range(int(g.rng.integers(0, 3))):
        out.append(_block(g, (int(g.rng.integers(0, 4)), int(g.rng.integers(0, 4)))))
    return out


def tok_Sany(g):
    """An independent sparse operand of any 2-d shape (kron's B)."""
    _ensure(g)
    shape = draw_shape(g.rng, "2d", "csr", False)
    kind = g.S.kind if g.rng.random() < 0.8 else g.pick(["array", "matrix"])
    return draw_sparse(g.rng, shape, g.dtype(2), g.pick(FORMATS), kind, g.row.domain)


def tok_Ssq(g):
    _ensure(g)
    n = int(g.rng.integers(0, 4))
    kind = g.S.kind if g.rng.random() < 0.8 else g.pick(["array", "matrix"])
    return draw_sparse(g.rng, (n, n), g.dtype(2), g.pick(FORMATS), kind, g.row.domain)


def tok_diagonals(g):
    """diags' input: a list of 1-d arrays and matching offsets (rarely not)."""
    rng = g.rng
    m, n = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    k = int(rng.integers(1, 4))
    offs = [int(x) for x in rng.choice(numpy.arange(-m + 1, n), size=min(k, m + n - 1), replace=False)]
    dt = g.dtype()
    diagonals = []
    for o in offs:
        length = min(m + min(o, 0), n - max(o, 0))
        if rng.random() < 0.05:
            length += 1
        diagonals.append(layouts.from_values(rng, values.values(rng, (length,), dt, g.row.domain)))
    g.diag_shape = (m, n)
    if len(offs) == 1 and rng.random() < 0.5:
        return diagonals[0], offs[0]
    return diagonals, offs


TOKENS = {name[4:]: fn for name, fn in globals().items() if name.startswith("tok_")}


def _draw(g, tok):
    if callable(tok):
        return tok(g)
    if isinstance(tok, list):
        return g.pick(tok)
    if isinstance(tok, str) and tok in TOKENS:
        return TOKENS[tok](g)
    return tok


def generate(row, rng):
    g = Gen(row, rng)
    args = [_draw(g, t) for t in row.args]
    kwargs = {}
    for k, t in row.kwargs.items():
        if k in row.required or rng.random() < row.p_kw:
            kwargs[k] = _draw(g, t)
    call = Call(row, args, kwargs)
    if row.target == "setitem":
        call.args[2] = _setvalue(g, call)
    if row.fix is not None:
        row.fix(g, call)
    return call


# -- execution ------------------------------------------------------------------

def materialize(x, lib, built):
    if isinstance(x, SparseSpec):
        obj = x.build(lib)
        built.append(obj)
        return obj
    if isinstance(x, layouts.ArraySpec):
        return x.build(lib.np)[1]
    if isinstance(x, PyList):
        return list(x.v)
    if isinstance(x, NpScalar):
        return x.value()
    if isinstance(x, tuple):
        return tuple(materialize(e, lib, built) for e in x)
    if isinstance(x, list):
        return [materialize(e, lib, built) for e in x]
    return x


def resolve(obj, path):
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
    if t == "operator":
        return getattr(operator, row.path)(*args)
    if t == "method":
        return resolve(args[0], row.path)(*args[1:], **kwargs)
    if t == "attr":
        return resolve(args[0], row.path)
    if t == "ctor":
        return args[0]
    if t == "fn":
        return row.path(lib, *args, **kwargs)
    return resolve(lib.sp, row.path)(*args, **kwargs)


def execute(call, lib):
    """Outcome of the call in `lib` (a Lib); bases: the sparse arguments."""
    built = []
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            with numpy.errstate(all="warn"):
                args = materialize(call.args, lib, built)
                kwargs = {k: materialize(v, lib, built) for k, v in call.kwargs.items()}
                result = invoke(call.row, lib, args, kwargs)
            exc = None
        except Exception as e:  # noqa: BLE001 - every exception is data here
            result, exc = None, e
    warns = sorted({x.category.__name__ for x in w if not issubclass(x.category, IGNORED_WARNINGS)})
    top = [a for a in args if _is_sparse(a)] if exc is None else []
    return Outcome(result, exc, warns, top)


def _is_sparse(x):
    return hasattr(x, "format") and hasattr(x, "toarray") and hasattr(x, "nnz")


_LIBS = {}


def _get(name):
    if name not in _LIBS:
        _LIBS[name] = Lib(name)
    return _LIBS[name]


Lib.get = staticmethod(_get)
