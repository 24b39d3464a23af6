"""The oracle of kumo.sparse against scipy.sparse.

`judge(call, n, k, inputs)` takes the SciPy and kumo Outcomes (calls.execute)
and the dense NumPy values of the inputs and returns (class, detail):

* exceptions: kumo's must be an instance of the first builtin or NumPy class
  in the MRO of SciPy's (SciPy's private subclasses count as their public
  base);
* a sparse result: a kumo sparse result of the same format name, the same
  flavour (`*_array` or `*_matrix`), shape and dtype, and the same dense
  values (toarray): exact for bool and integers, within the row's ulp bound
  for floats (differential.compare); nnz only where the row says SciPy
  defines it (`nnz=True`: constructors, sum_duplicates, eliminate_zeros);
* a dense result: NumPy's rules (differential.compare.result); SciPy's
  numpy.matrix results count as 2-d arrays (kumo has no matrix class:
  docs/sparse.md);
* after the call, every sparse argument's values (and for in-place rows
  its format, flavour, dtype and the row's `post` attributes);
* the same warning categories (names: SciPy's SparseEfficiencyWarning is
  kumo's kumo.sparse.SparseEfficiencyWarning).
"""
import numpy

from .. import compare as base
from ..compare import Mismatch, short

PUBLIC_MODULES = ("builtins", "numpy", "numpy.exceptions", "numpy.linalg")


def public_class(exc_type):
    for c in exc_type.__mro__:
        if not c.__name__.startswith("_") and c.__module__ in PUBLIC_MODULES:
            return c
    return Exception


def is_scipy_sparse(x):
    return type(x).__module__.startswith("scipy.sparse") and hasattr(x, "format") and hasattr(x, "toarray")


def is_kumo_sparse(x):
    return type(x).__module__.startswith("kumo.sparse") and hasattr(x, "format") and hasattr(x, "toarray")


def kind(x):
    """'array' or 'matrix' (SciPy's sparray / spmatrix, kumo's alike)."""
    if is_scipy_sparse(x):
        import scipy.sparse
        return "array" if isinstance(x, scipy.sparse.sparray) else "matrix"
    import kumo.sparse
    return "array" if isinstance(x, kumo.sparse.sparray) else "matrix"


def dense_of(x):
    """The dense NumPy values of a SciPy or kumo sparse object."""
    if is_scipy_sparse(x):
        return numpy.asarray(x.toarray())
    return base.to_numpy(x.toarray())


def describe(x):
    if is_scipy_sparse(x) or is_kumo_sparse(x):
        return f"{type(x).__name__} {x.shape} {x.dtype}"
    return f"{type(x).__module__}.{type(x).__name__}"


def sparse_result(n, k, tol, row, where):
    if not is_kumo_sparse(k):
        raise Mismatch("wrong_type", f"{where}: scipy {describe(n)} kumo {describe(k)} {short(k, 60)}")
    if n.format != k.format or kind(n) != kind(k):
        raise Mismatch("wrong_type", f"{where}: scipy {type(n).__name__} kumo {type(k).__name__}")
    if tuple(n.shape) != tuple(k.shape):
        raise Mismatch("wrong_shape", f"{where}: scipy {n.shape} kumo {k.shape}")
    if numpy.dtype(n.dtype) != numpy.dtype(k.dtype):
        raise Mismatch("wrong_dtype", f"{where}: scipy {n.dtype} kumo {k.dtype}")
    a, b = dense_of(n), dense_of(k)
    if a.shape != b.shape or a.dtype != b.dtype:
        raise Mismatch("wrong_shape", f"{where}: toarray scipy {a.shape} {a.dtype} kumo {b.shape} {b.dtype}")
    base.array_values(a, b, tol, f" {where} (toarray)")
    if row.nnz and n.nnz != k.nnz:
        raise Mismatch("wrong_value", f"{where}: nnz scipy {n.nnz} kumo {k.nnz}")


def result(n, k, tol, row, where="result"):
    if is_scipy_sparse(n):
        return sparse_result(n, k, tol, row, where)
    if is_kumo_sparse(k):
        raise Mismatch("wrong_type", f"{where}: scipy {describe(n)} {short(n, 60)} kumo {describe(k)}")
    if isinstance(n, numpy.matrix):
        n = numpy.asarray(n)
    if isinstance(n, (tuple, list)) and isinstance(k, (tuple, list)) and len(n) == len(k) \
            and any(is_scipy_sparse(e) or isinstance(e, numpy.matrix) for e in n):
        for i, (a, b) in enumerate(zip(n, k)):
            result(a, b, tol, row, f"{where}[{i}]")
        return
    base.result(n, k, tol, where)


def random_props(n, k, row):
    """random/random_array: the streams differ; shape, dtype, format, flavour and nnz must not."""
    if not is_kumo_sparse(k):
        raise Mismatch("wrong_type", f"scipy {describe(n)} kumo {describe(k)}")
    if n.format != k.format or kind(n) != kind(k):
        raise Mismatch("wrong_type", f"scipy {type(n).__name__} kumo {type(k).__name__}")
    if tuple(n.shape) != tuple(k.shape) or numpy.dtype(n.dtype) != numpy.dtype(k.dtype):
        raise Mismatch("wrong_dtype", f"scipy {n.shape} {n.dtype} kumo {k.shape} {k.dtype}")
    cn, ck = numpy.count_nonzero(dense_of(n)), numpy.count_nonzero(dense_of(k))
    if n.format not in ("dia", "bsr") and n.nnz != k.nnz:
        raise Mismatch("wrong_value", f"nnz scipy {n.nnz} kumo {k.nnz}")
    if n.dtype != numpy.bool_ and n.dtype.kind != "u" and abs(cn - ck) > max(2, n.nnz // 4):
        raise Mismatch("wrong_value", f"nonzero values scipy {cn} kumo {ck}")


def pairs(n, k, tol, row):
    """nonzero/find: (row, col[, values]) arrays whose order SciPy does not define (it follows the
    storage): compared once both are sorted by (row, col)."""
    if not isinstance(n, tuple) or not isinstance(k, tuple) or len(n) != len(k) or not n:
        return result(n, k, tol, row)
    kk = [base.to_numpy(x) if base._is_kumo_array(x) else x for x in k]
    if any(not isinstance(x, numpy.ndarray) or x.shape != n[0].shape for x in kk) or n[0].ndim != 1:
        return result(n, k, tol, row)
    idx = 2 if len(n) >= 2 else 1
    on = numpy.lexsort(tuple(n[:idx])[::-1])
    ok = numpy.lexsort(tuple(kk[:idx])[::-1])
    for i, (a, b) in enumerate(zip(n, kk)):
        base.result(a[on], b[ok], tol, f"result[{i}] (sorted by place)", converted=True)


def after(call, n, k, tol):
    """The sparse arguments after the call."""
    row = call.row
    if len(n.bases) != len(k.bases):
        raise Mismatch("harness_error", f"{len(n.bases)} sparse arguments in scipy, {len(k.bases)} in kumo")
    for i, (a, b) in enumerate(zip(n.bases, k.bases)):
        where = f"argument {i} after the call"
        if row.inplace and i == 0:
            sparse_result(a, b, tol, row, where)
            for attr in row.post:
                x, y = getattr(a, attr), getattr(b, attr)
                if bool(x) != bool(y) if isinstance(x, (bool, numpy.bool_)) else x != y:
                    raise Mismatch("wrong_mutation", f"{where}: {attr} scipy {x!r} kumo {y!r}")
            continue
        try:
            x, y = dense_of(a), dense_of(b)
            if x.shape != y.shape or x.dtype != y.dtype:
                raise Mismatch("wrong_mutation", f"{where}: scipy {x.shape} {x.dtype} kumo {y.shape} {y.dtype}")
            base.array_values(x, y, tol, " of " + where)
        except Mismatch as m:
            raise Mismatch("wrong_mutation", m.detail) from None


def judge(call, n, k, inputs):
    row = call.row
    try:
        if n.exc is not None:
            if k.exc is None:
                return "returned_not_raised", f"scipy raised {short(n.exc)}; kumo returned {short(k.result, 80)}"
            want = public_class(type(n.exc))
            if not isinstance(k.exc, want):
                return "wrong_exception", f"scipy {short(n.exc)} (class {want.__name__}); kumo {short(k.exc)}"
            return _warnings(n, k)
        if k.exc is not None:
            return "raised_not_numpy", f"scipy returned {short(_brief(n.result), 80)}; kumo raised {short(k.exc)}"
        tol = base.Tol(row, inputs)
        if row.compare == "random":
            random_props(n.result, k.result, row)
        elif row.compare == "pairs":
            pairs(n.result, k.result, tol, row)
        else:
            result(n.result, k.result, tol, row)
        after(call, n, k, tol)
    except Mismatch as m:
        return m.cls, m.detail
    return _warnings(n, k)


def _brief(x):
    return describe(x) if is_scipy_sparse(x) else x


def _warnings(n, k):
    if n.warns != k.warns:
        return "wrong_warning", f"scipy warned {n.warns}, kumo {k.warns}"
    return "match", ""
