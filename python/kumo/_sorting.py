"""Sorting, searching, unique and set routines.

The sorting work is C++ (``kumo._core.sorting``, routines/sorting.h); this
module converts arguments, handles ``unique(axis=...)`` by sorting rows with
lexsort, builds the array-API named tuples, and writes the set routines in
terms of unique, searchsorted and indexing.
"""
import operator
from collections import namedtuple

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import arange, asarray
from kumo._dtypes import result_type
from kumo._manipulation import concatenate, moveaxis

_s = _core.sorting
ndarray = _core.ndarray


def _take(a, idx):
    """a[idx] for a 1-D integer index array (slices along axis 0)."""
    return a[idx]


def _compress(a, mask):
    """a[mask] for a 1-D boolean mask."""
    return a[mask]


def _check_order(order):
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    _check_order(order)
    return _s.sort(asarray(a), axis, kind, stable)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    _check_order(order)
    return _s.argsort(asarray(a), axis, kind, stable)


def sort_complex(a):
    return _s.sort_complex(asarray(a))


def _kth(kth):
    if isinstance(kth, ndarray):
        kth = kth.get()
    if hasattr(kth, "tolist") and getattr(kth, "ndim", 0) > 0:
        kth = kth.tolist()
    items = list(kth) if isinstance(kth, (list, tuple)) else [kth]
    out = []
    for k in items:
        if isinstance(k, bool) or getattr(getattr(k, "dtype", None), "kind", "i") not in "iu":
            raise TypeError("Partition index must be integer")
        try:
            out.append(operator.index(k))
        except TypeError:
            raise TypeError("Partition index must be integer") from None
    return out


def _check_select(kind, order):
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    _check_order(order)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    _check_select(kind, order)
    return _s.partition(asarray(a), _kth(kth), axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    _check_select(kind, order)
    return _s.argpartition(asarray(a), _kth(kth), axis)


def lexsort(keys, axis=-1):
    if isinstance(keys, ndarray) and keys.ndim == 0 or not hasattr(keys, "__len__") or len(keys) == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    return _s.lexsort([asarray(k) for k in keys], axis)


def searchsorted(a, v, side="left", sorter=None):
    return _s.searchsorted(asarray(a), asarray(v), side, None if sorter is None else asarray(sorter))


# ---- unique ----------------------------------------------------------------

def _unique_rows(ar, axis, return_index, return_inverse, return_counts):
    """unique along an axis: the slices along it compared as rows, in
    lexicographic order of their elements."""
    moved = moveaxis(ar, axis, 0)
    n = moved.shape[0]
    rest = moved.shape[1:]
    width = 1
    for s in rest:
        width *= s
    rows = moved.reshape((n, width))
    if n == 0 or width == 0:
        perm = arange(n)
    else:
        # The first column is the most significant key: lexsort's last.
        perm = lexsort([rows[:, j] for j in range(width - 1, -1, -1)])
    srt = _take(rows, perm)
    if n == 0:
        starts = asarray([], dtype="int64")
    else:
        differs = uf.not_equal(srt[1:], srt[:-1]).any(axis=1) if width else asarray([False] * (n - 1))
        flags = concatenate([asarray([True]), differs])
        starts = _core.where(flags)[0]
    values = moveaxis(_take(srt, starts).reshape((starts.shape[0],) + tuple(rest)), 0, axis)
    out = [values]
    if return_index:
        out.append(_take(perm, starts))
    if return_inverse:
        group = flags.astype("int64").cumsum() - 1 if n else asarray([], dtype="int64")
        out.append(_take(group, argsort(perm)))
    if return_counts:
        ends = concatenate([starts[1:], asarray([n], dtype="int64")])
        out.append(ends - starts)
    return out


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    ar = asarray(ar)
    if axis is None:
        values, index, inverse, counts = _s.unique(ar, return_index, return_inverse, return_counts, equal_nan)
        out = [values] + [x for x, want in ((index, return_index), (inverse, return_inverse),
                                            (counts, return_counts)) if want]
    else:
        out = _unique_rows(ar, axis, return_index, return_inverse, return_counts)
    return out[0] if len(out) == 1 else tuple(out)


UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def unique_all(x):
    return UniqueAllResult(*_s.unique(asarray(x), True, True, True, False))


def unique_counts(x):
    values, _, _, counts = _s.unique(asarray(x), False, False, True, False)
    return UniqueCountsResult(values, counts)


def unique_inverse(x):
    values, _, inverse, _ = _s.unique(asarray(x), False, True, False, False)
    return UniqueInverseResult(values, inverse)


def unique_values(x):
    return _s.unique(asarray(x), False, False, False, False)[0]


# ---- set routines -----------------------------------------------------------

def _common(ar1, ar2):
    """Both operands flattened, in their common dtype."""
    a, b = asarray(ar1), asarray(ar2)
    dt = result_type(a, b)
    return a.ravel().astype(dt, copy=False), b.ravel().astype(dt, copy=False)


def _lookup(sorted_values, x):
    """Positions in sorted_values where x would sit, and whether x is there."""
    pos = searchsorted(sorted_values, x)
    if sorted_values.size == 0:
        return pos, asarray([False] * x.size, dtype="bool").reshape(x.shape)
    safe = uf.minimum(pos, sorted_values.size - 1)
    return safe, uf.equal(_take(sorted_values, safe), x)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: {kind!r}. Please use None, 'sort' or 'table'.")
    e = asarray(element)
    t = asarray(test_elements)
    if kind == "table" and (e.dtype.kind not in "biu" or t.dtype.kind not in "biu"):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. Please select "
                         "'sort' or None for kind.")
    flat_e, flat_t = _common(e, t)
    _, found = _lookup(sort(flat_t), flat_e)
    found = found.reshape(e.shape)
    return uf.logical_not(found) if invert else found


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    a, b = _common(ar1, ar2)
    if assume_unique:
        ia, ib = argsort(a, kind="stable"), argsort(b, kind="stable")
        ua, ub = _take(a, ia), _take(b, ib)
    else:
        ua, ia = unique(a, return_index=True)
        ub, ib = unique(b, return_index=True)
    pos, hit = _lookup(ub, ua)
    values = _compress(ua, hit)
    if return_indices:
        return values, _compress(ia, hit), _take(ib, _compress(pos, hit))
    return values


def union1d(ar1, ar2):
    a, b = _common(ar1, ar2)
    return unique(concatenate([a, b]))


def setdiff1d(ar1, ar2, assume_unique=False):
    # The values of ar1 in ar1's dtype (NumPy's); isin compares in the common one.
    a = asarray(ar1).ravel()
    ua = a if assume_unique else unique(a)
    return _compress(ua, isin(ua, asarray(ar2).ravel(), invert=True))


def setxor1d(ar1, ar2, assume_unique=False):
    a, b = _common(ar1, ar2)
    ua, ub = (a, b) if assume_unique else (unique(a), unique(b))
    only_a = _compress(ua, isin(ua, ub, invert=True))
    only_b = _compress(ub, isin(ub, ua, invert=True))
    return sort(concatenate([only_a, only_b]))


__all__ = ["sort", "argsort", "sort_complex", "partition", "argpartition", "lexsort", "searchsorted", "unique",
           "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin", "intersect1d", "union1d",
           "setdiff1d", "setxor1d"]
