"""Sparse operands built alike in scipy.sparse and in kumo.sparse.

A SparseSpec is a constructor call: the class (`fmt` + `kind`: csr_array,
coo_matrix, ...) and its input (`how`):

  "dense"       a dense 2-d (or, for coo/csr arrays, 1-d) array;
  "coo"         (data, (row, col)) or (data, (idx,)): unsorted, with
                duplicates and explicit zeros;
  "compressed"  (data, indices, indptr) of csr/csc/bsr: rows unsorted or
                sorted, duplicates, explicit zeros;
  "dia"         (data, offsets) of dia;
  "shape"       (M, N) or (N,): empty;
  "sparse"      another SparseSpec (a conversion by the constructor).

Every array in the input is a layouts.ArraySpec (a NumPy base plus view
steps: reversed, stepped, offset, transposed), so kumo gets non-contiguous
kumo arrays where SciPy gets the same NumPy views. `build(lib)` runs the
constructor in one library (`Lib`: scipy.sparse + numpy, or kumo.sparse +
kumo).
"""
import numpy

from .. import layouts, repro, values

FORMATS = ["csr", "csc", "coo", "dia", "bsr"]
ONE_D = ("coo", "csr")
INDEX_DTYPES = ["int32", "int64", "int32", "int64", "int16", "uint8"]


class Lib:
    """One side of the comparison."""
    def __init__(self, name):
        self.name = name
        if name == "scipy":
            import scipy.sparse
            import scipy.sparse.linalg  # noqa: F401
            self.sp, self.np = scipy.sparse, numpy
        else:
            import kumo
            import kumo.sparse
            self.sp, self.np = kumo.sparse, kumo

    def dense(self, spec):
        return spec.build(self.np)[1] if isinstance(spec, layouts.ArraySpec) else spec


class SparseSpec:
    def __init__(self, fmt, kind, how, parts, kwargs=None, inner=None):
        self.fmt, self.kind, self.how = fmt, kind, how
        self.parts = parts            # ArraySpecs (or ints for "shape")
        self.kwargs = kwargs or {}    # shape=, dtype=, blocksize=, copy=
        self.inner = inner            # the SparseSpec of "sparse"

    @property
    def cls(self):
        return f"{self.fmt}_{self.kind}"

    def arg1(self, lib, write):
        """The constructor's first argument in `lib`; `write(spec)` names the
        source text of an ArraySpec (for reproducers) when lib is a str."""
        d = write if isinstance(lib, str) else lib.dense
        if self.how == "dense":
            return d(self.parts[0])
        if self.how == "coo":
            return (d(self.parts[0]), tuple(d(p) for p in self.parts[1:]))
        if self.how in ("compressed", "dia"):
            return tuple(d(p) for p in self.parts)
        if self.how == "shape":
            return tuple(self.parts)
        if self.how == "sparse":
            return self.inner.build(lib) if not isinstance(lib, str) else write(self.inner)
        raise ValueError(self.how)

    def build(self, lib):
        return getattr(lib.sp, self.cls)(self.arg1(lib, None), **self.kwargs)

    def specs(self):
        """The ArraySpecs and SparseSpecs this one is made of (inner first)."""
        out = []
        if self.inner is not None:
            out += self.inner.specs() + [self.inner]
        out += [p for p in self.parts if isinstance(p, layouts.ArraySpec)]
        return out

    def source(self, mod, name):
        """Source text of the constructor call, `name(spec)` naming the parts."""
        pre = "sp" if mod == "np" else "ks"
        a = self.arg1("src", name)
        if self.how == "coo":
            a = f"({a[0]}, ({', '.join(a[1])}{',' if len(a[1]) == 1 else ''}))"
        elif self.how in ("compressed", "dia"):
            a = f"({', '.join(a)})"
        elif self.how == "shape":
            a = repr(a)
        kw = "".join(f", {k}={v!r}" for k, v in self.kwargs.items())
        return f"{pre}.{self.cls}({a}{kw})"

    @property
    def ndim(self):
        return len(self.shape)


# -- drawing -------------------------------------------------------------------

def sparse_values(rng, shape, dtype, domain):
    """Dense values with a random share of zeros (none, some, most, all)."""
    v = values.values(rng, shape, dtype, domain)
    density = [0.0, 0.15, 0.35, 0.6, 1.0][int(rng.integers(5))]
    mask = rng.random(shape) < density
    return numpy.where(mask, v, numpy.zeros((), dtype=v.dtype)).astype(dtype)


def _arr(rng, vals, broadcast=False):
    """An ArraySpec holding vals in a random layout (not broadcast, so
    constructors that keep their input get a writable array)."""
    choices = [x for x in layouts.LAYOUTS if x != "broadcast"]
    if broadcast and rng.random() < 0.1:
        return layouts.make(rng, vals.shape, vals.dtype, "small", "broadcast")
    return layouts.from_values(rng, vals, layouts=choices)


def _idx_dtype(rng, hi):
    d = INDEX_DTYPES[int(rng.integers(len(INDEX_DTYPES)))]
    if numpy.iinfo(d).max < hi:
        d = "int64"
    return d


def _entries(rng, shape, dtype, domain, nnz=None):
    """(data, row, col) of random places: duplicates, explicit zeros, any order."""
    m, n = shape
    if nnz is None:
        nnz = 0 if m * n == 0 else int(rng.integers(0, 2 * m * n + 1)) if rng.random() < 0.9 else 0
    row = rng.integers(0, max(m, 1), size=nnz)
    col = rng.integers(0, max(n, 1), size=nnz)
    data = values.values(rng, (nnz,), dtype, domain)
    if rng.random() < 0.3 and nnz:
        data[rng.random(nnz) < 0.3] = 0
    if rng.random() < 0.35:                         # canonical: sorted, no duplicates
        key = numpy.unique(row * max(n, 1) + col, return_index=True)[1]
        row, col, data = row[key], col[key], data[key]
    return data, row, col


def draw_shape(rng, kind="any", fmt="csr", is_array=True):
    """A 2-d shape (0xN, Nx0, 1x1, square, rectangular), or 1-d for the
    coo/csr arrays when kind allows it."""
    if kind == "square":
        n = int(rng.integers(0 if rng.random() < 0.05 else 1, 6))
        return (n, n)
    if kind in ("any", "1d") and is_array and fmt in ONE_D and (kind == "1d" or rng.random() < 0.15):
        return (int(rng.integers(0 if rng.random() < 0.1 else 1, 8)),)
    def dim():
        r = rng.random()
        return 0 if r < 0.06 else 1 if r < 0.2 else int(rng.integers(2, 7))
    return (dim(), dim())


def draw_sparse(rng, shape, dtype, fmt=None, kind=None, domain="small", how=None, invalid=False):
    """A SparseSpec of `shape` and `dtype` (format, flavour and input form
    random unless given)."""
    if kind is None:
        kind = "array" if len(shape) == 1 or rng.random() < 0.6 else "matrix"
    if fmt is None:
        fmt = [f for f in FORMATS if len(shape) == 2 or f in ONE_D][int(rng.integers(5 if len(shape) == 2 else 2))]
    kw = {}
    if fmt == "bsr":
        return _draw_bsr(rng, shape, dtype, kind, domain, how)
    choices = {"coo": ["dense", "coo", "coo", "shape", "sparse"], "dia": ["dense", "dia", "dia", "shape", "sparse"]}
    how = how or [x for x in choices.get(fmt, ["dense", "coo", "compressed", "compressed", "shape", "sparse"])
                  if not (len(shape) == 1 and x in ("sparse", "dia"))][int(rng.integers(5 if len(shape) == 2 else 4))]
    if len(shape) == 1 and how == "compressed":
        kw["shape"] = shape
    if how == "dense":
        spec = SparseSpec(fmt, kind, how, [_arr(rng, sparse_values(rng, shape, dtype, domain), broadcast=True)], kw)
    elif how == "shape":
        kw = {"dtype": dtype} if dtype != "float64" or rng.random() < 0.5 else {}
        spec = SparseSpec(fmt, kind, how, list(shape), kw)
    elif how == "coo":
        sh2 = (1,) + tuple(shape) if len(shape) == 1 else tuple(shape)
        data, row, col = _entries(rng, sh2, dtype, domain)
        if rng.random() < 0.85 or not data.size or 0 in shape:
            kw["shape"] = tuple(shape)
        idt = _idx_dtype(rng, max(shape + (1,)))
        coords = [col] if len(shape) == 1 else [row, col]
        spec = SparseSpec(fmt, kind, how, [_arr(rng, data)] + [_arr(rng, c.astype(idt)) for c in coords], kw)
    elif how == "compressed":
        sh2 = (1,) + tuple(shape) if len(shape) == 1 else tuple(shape)
        major, minor = sh2 if fmt != "csc" else sh2[::-1]
        data, r, c = _entries(rng, (major, minor), dtype, domain)
        if rng.random() < 0.6:
            order = numpy.argsort(r, kind="stable")   # sorted by major, unsorted within
        else:
            order = numpy.lexsort((c, r))
        data, r, c = data[order], r[order], c[order]
        indptr = numpy.concatenate([[0], numpy.cumsum(numpy.bincount(r, minlength=major))]) if major else numpy.zeros(1, int)
        idt = _idx_dtype(rng, max(major, minor, len(data)))
        kw["shape"] = tuple(shape)
        if len(shape) == 2 and rng.random() < 0.1 and minor and data.size:
            del kw["shape"]                            # inferred: max index + 1 columns
        spec = SparseSpec(fmt, kind, how, [_arr(rng, data), _arr(rng, c.astype(idt)), _arr(rng, indptr.astype(idt))], kw)
    elif how == "dia":
        m, n = shape
        k = int(rng.integers(0, 4))
        offs = rng.choice(numpy.arange(-max(m, 1) + 1, max(n, 1)), size=min(k, max(m, 1) + max(n, 1) - 1), replace=False)
        width = n + int(rng.integers(-1, 2)) if rng.random() < 0.3 else n
        width = max(width, 0)
        data = sparse_values(rng, (len(offs), width), dtype, domain)
        spec = SparseSpec(fmt, kind, how, [_arr(rng, data), _arr(rng, offs.astype(_idx_dtype(rng, m + n)))],
                          {"shape": tuple(shape)})
    elif how == "sparse":
        inner_fmt = [f for f in FORMATS if f != fmt][int(rng.integers(4))]
        inner = draw_sparse(rng, shape, dtype, inner_fmt, kind if rng.random() < 0.8 else None, domain)
        if inner_fmt == "dia" and inner.how == "dia":
            inner = draw_sparse(rng, shape, dtype, inner_fmt, inner.kind, domain, how="dense")
        spec = SparseSpec(fmt, kind, how, [], {}, inner)
    else:
        raise ValueError(how)
    if rng.random() < 0.1 and how != "shape":
        spec.kwargs["dtype"] = dtype
    spec.shape = tuple(shape)
    return spec


def _draw_bsr(rng, shape, dtype, kind, domain, how):
    m, n = shape
    divs = lambda x: [d for d in (1, 2, 3) if x % d == 0] if x else [1, 2]  # noqa: E731
    R, C = int(rng.choice(divs(m))), int(rng.choice(divs(n)))
    how = how or ["dense", "dense", "compressed", "shape", "sparse"][int(rng.integers(5))]
    kw = {}
    if how == "dense":
        if rng.random() < 0.7:
            kw["blocksize"] = (R, C)
        spec = SparseSpec("bsr", kind, how, [_arr(rng, sparse_values(rng, shape, dtype, domain))], kw)
    elif how == "shape":
        spec = SparseSpec("bsr", kind, how, [m, n], {"dtype": dtype} if rng.random() < 0.7 else {})
    elif how == "compressed":
        bm, bn = m // R, n // C
        _, r, c = _entries(rng, (bm, bn), dtype, domain, nnz=None if bm * bn else 0)
        order = numpy.lexsort((c, r)) if rng.random() < 0.6 else numpy.argsort(r, kind="stable")
        r, c = r[order], c[order]
        data = values.values(rng, (len(r), R, C), dtype, domain)
        indptr = numpy.concatenate([[0], numpy.cumsum(numpy.bincount(r, minlength=bm))]) if bm else numpy.zeros(1, int)
        idt = _idx_dtype(rng, max(bm, bn, len(r)))
        spec = SparseSpec("bsr", kind, how, [_arr(rng, data), _arr(rng, c.astype(idt)), _arr(rng, indptr.astype(idt))],
                          {"shape": (m, n)})
    else:
        inner = draw_sparse(rng, shape, dtype, ["csr", "coo", "csc"][int(rng.integers(3))], kind, domain)
        spec = SparseSpec("bsr", kind, "sparse", [], {"blocksize": (R, C)} if rng.random() < 0.6 else {}, inner)
    spec.shape = (m, n)
    return spec

