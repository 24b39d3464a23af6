"""Index routines: take, put, nonzero, compress, the index helpers (ix_,
unravel_index, tril_indices, ...) and ndarray.flat. The work is C++
(routines/indexing.h); this layer converts array-likes and keywords."""
import operator

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import arange, asarray, ones
from kumo._creation_ops import tri
from kumo._dtypes import result_type
from kumo._manipulation import broadcast_arrays, stack
from kumo._searching import where

ndarray = _core.ndarray


def _array(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _index_array(v):
    """An index argument as an integer kumo array (lists of ints, empty lists)."""
    if isinstance(v, ndarray):
        return v
    arr = numpy.asarray(v)
    if arr.size == 0 and arr.dtype.kind == "f":
        arr = arr.astype(numpy.intp)
    return asarray(arr)


def _axis_arg(axis):
    return None if axis is None else operator.index(axis)


def take(a, indices, axis=None, out=None, mode="raise"):
    a = _array(a)
    r = _core._take(a, _index_array(indices), _axis_arg(axis), mode, out)
    return r if out is None else out


def _values_for(a, v):
    """Values to write into a: an array as it is (cast unsafely when
    written), anything else converted to a's dtype as NumPy does, so a
    Python int out of its range is an OverflowError and a complex number
    into a real array a TypeError."""
    return v if isinstance(v, ndarray) else asarray(v, dtype=a.dtype)


def put(a, ind, v, mode="raise"):
    if not isinstance(a, ndarray):
        raise TypeError("argument 1 must be kumo.ndarray, not %s" % type(a).__name__)
    if not a.flags.writeable:  # NumPy refuses a read-only array before it converts the values
        raise ValueError("put: output array is read-only")
    _core._put(a, _index_array(ind), _values_for(a, v), mode)


def take_along_axis(arr, indices, axis=-1):
    return _core._take_along_axis(_array(arr), _index_array(indices), _axis_arg(axis))


def put_along_axis(arr, indices, values, axis):
    if not isinstance(arr, ndarray):
        raise TypeError("put_along_axis needs a kumo.ndarray to write into")
    _core._put_along_axis(arr, _index_array(indices), _values_for(arr, values), _axis_arg(axis))


def compress(condition, a, axis=None, out=None):
    cond = _array(condition)
    if cond.dtype != numpy.bool_:
        cond = cond.astype(numpy.bool_)
    r = _core._compress(cond, _array(a), _axis_arg(axis), out)
    return r if out is None else out


def extract(condition, arr):
    return _core._extract(_array(condition), _array(arr))


def putmask(a, mask, values):
    if not isinstance(a, ndarray):
        raise TypeError("putmask: first argument must be a kumo.ndarray")
    _core._putmask(a, _array(mask), _array(values))


def place(arr, mask, vals):
    if not isinstance(arr, ndarray):
        raise TypeError("argument 1 must be kumo.ndarray, not %s" % type(arr).__name__)
    _core._place(arr, _array(mask), _array(vals))


def nonzero(a):
    return _core._nonzero(_array(a))


def flatnonzero(a):
    return _core._flatnonzero(_array(a))


def argwhere(a):
    return _core._argwhere(_array(a))


def ix_(*args):
    out = []
    nd = len(args)
    for k, seq in enumerate(args):
        new = _index_array(seq) if not isinstance(seq, ndarray) else seq
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == numpy.bool_:
            (new,) = nonzero(new)
        elif new.dtype.kind not in "iu":
            raise ValueError("Cross index must be 1 dimensional")  # NumPy: only int or bool sequences
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def unravel_index(indices, shape, order="C"):
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    idx = _index_array(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    shape = (operator.index(shape),) if numpy.ndim(shape) == 0 else tuple(operator.index(d) for d in shape)
    size = 1
    for d in shape:
        size *= d
    if idx.size and (bool(uf.less(idx, 0).any()) or bool(uf.greater_equal(idx, size).any())):
        bad = int(idx.max()) if int(idx.max()) >= size else int(idx.min())
        raise ValueError("index %d is out of bounds for array with size %d" % (bad, size))
    idx = idx.astype(numpy.intp)
    dims = shape if order == "C" else shape[::-1]
    out = []
    div = size
    for d in dims:
        div = div // d if d else 0
        out.append(uf.remainder(uf.floor_divide(idx, div), d) if div else idx * 0)
    return tuple(out if order == "C" else out[::-1])


def _apply_mode(idx, n, mode, message):
    """Indices in [0, n) under a take/put `mode`; ValueError(message) when
    mode is 'raise' and one is outside."""
    if mode == "raise":
        if idx.size and (bool(uf.less(idx, 0).any()) or bool(uf.greater_equal(idx, n).any())):
            raise ValueError(message)
        return idx
    if mode == "wrap":
        return uf.remainder(idx, n)
    if mode == "clip":
        return uf.minimum(uf.maximum(idx, 0), n - 1)
    raise ValueError("clipmode must be one of 'clip', 'raise', or 'wrap'")


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    dims = tuple(operator.index(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError("parameter multi_index must be a sequence of length %d" % len(dims))
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    parts = [_index_array(m) for m in multi_index]
    for p in parts:
        if p.dtype.kind not in "iu":
            raise TypeError("only int indices permitted")
    order_dims = range(len(dims)) if order == "C" else range(len(dims) - 1, -1, -1)
    stride = 1
    strides = [0] * len(dims)
    for k in reversed(list(order_dims)):
        strides[k] = stride
        stride *= dims[k]
    total = None
    for k, (p, d, m) in enumerate(zip(parts, dims, modes)):
        term = _apply_mode(p.astype(numpy.intp), d, m, "invalid entry in coordinates array") * strides[k]
        total = term if total is None else total + term
    return total


def diag_indices(n, ndim=2):
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def tril_indices(n, k=0, m=None):
    return nonzero(tri(n, m, k=k, dtype=bool))


def triu_indices(n, k=0, m=None):
    return nonzero(uf.logical_not(tri(n, m, k=k - 1, dtype=bool)))


def _check_2d(arr):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")


def tril_indices_from(arr, k=0):
    _check_2d(arr)
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    _check_2d(arr)
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def mask_indices(n, mask_func, k=0):
    return nonzero(uf.not_equal(mask_func(ones((n, n), dtype=int), k), 0))


def fill_diagonal(a, val, wrap=False):
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + sum(int(numpy.prod(a.shape[:k])) for k in range(1, a.ndim))
        end = None
    # NumPy assigns through a.flat, which refuses a read-only array (even an
    # empty one) before it looks at the values.
    if not a.flags.writeable:
        raise ValueError("underlying array is read-only")
    flat_size = a.size if end is None else min(end, a.size)
    idx = arange(0, flat_size, step)
    # Values that are not arrays are converted to a's dtype as NumPy's
    # a.flat[...] = val does: a Python int out of its range is an OverflowError.
    val = val.astype(a.dtype, copy=False) if isinstance(val, ndarray) else _values_for(a, val)
    if idx.size:
        put(a, idx, val, mode="wrap")


def choose(a, choices, out=None, mode="raise"):
    a = _array(a)
    if a.dtype.kind not in "iub":
        raise TypeError("Cannot cast array data from %r to dtype('int64') according to the rule 'safe'" % a.dtype)
    if isinstance(choices, ndarray):
        choices = [choices[k] for k in range(choices.shape[0])]
    choices = [_array(c) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    idx = _apply_mode(a.astype(numpy.intp), n, mode, "invalid entry in choice array")
    parts = broadcast_arrays(idx, *choices)
    stacked = stack(parts[1:])  # (n, *shape)
    res = take_along_axis(stacked, parts[0][None].astype(numpy.intp), axis=0)[0]
    if out is not None:
        out[...] = res
        return out
    return res


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [c if isinstance(c, (bool, int, float, complex)) else _array(c) for c in choicelist]
    conds = [_array(c) for c in condlist]
    for k, c in enumerate(conds):
        if c.dtype != numpy.bool_:
            raise TypeError("invalid entry %d in condlist: should be boolean ndarray" % k)
    dtype = result_type(*choices, default)
    res = where(conds[-1], choices[-1], default)
    for c, v in zip(conds[-2::-1], choices[-2::-1]):
        res = where(c, v, res)
    return res.astype(dtype, copy=False)


class flatiter:
    """ndarray.flat: a[...] over the array in C order, read and written."""

    def __init__(self, base):
        self.base = base
        self.index = 0

    def __len__(self):
        return self.base.size

    def __iter__(self):
        flat = self.base.ravel()
        for k in range(flat.size):
            yield flat[k]

    def _positions(self, key):
        if isinstance(key, tuple):
            if len(key) != 1:
                raise IndexError("unsupported iterator index")
            key = key[0]
        if key is Ellipsis:
            return slice(None)
        return key

    def __getitem__(self, key):
        key = self._positions(key)
        flat = self.base.ravel()
        if isinstance(key, (int, numpy.integer)):
            k = operator.index(key)
            if not -flat.size <= k < flat.size:
                raise IndexError("index %d is out of bounds for size %d" % (k, flat.size))
            return flat[k][()]
        return flat[key].copy() if isinstance(key, slice) else flat[key]

    def __setitem__(self, key, value):
        key = self._positions(key)
        n = self.base.size
        if isinstance(key, slice):
            pos = arange(*key.indices(n))
        elif isinstance(key, (int, numpy.integer)):
            pos = _index_array([operator.index(key)])
        else:
            k = _index_array(key)
            pos = flatnonzero(k) if k.dtype == numpy.bool_ else k
        if pos.size == 0:
            return
        put(self.base, pos, _array(value))

    def __array__(self, dtype=None, copy=None):
        return numpy.asarray(self.base.ravel().get(), dtype=dtype)

    def copy(self):
        return self.base.flatten()


def _install_methods():
    def m_nonzero(self):
        return nonzero(self)

    def m_take(self, indices, axis=None, out=None, mode="raise"):
        return take(self, indices, axis=axis, out=out, mode=mode)

    def m_put(self, indices, values, mode="raise"):
        put(self, indices, values, mode=mode)

    def m_compress(self, condition, axis=None, out=None):
        return compress(condition, self, axis=axis, out=out)

    def m_choose(self, choices, out=None, mode="raise"):
        return choose(self, choices, out=out, mode=mode)

    ndarray.nonzero = m_nonzero
    ndarray.take = m_take
    ndarray.put = m_put
    ndarray.compress = m_compress
    ndarray.choose = m_choose
    ndarray.flat = property(flatiter, lambda self, value: flatiter(self).__setitem__(slice(None), value))


_install_methods()

__all__ = ["take", "put", "take_along_axis", "put_along_axis", "compress", "extract", "putmask", "place", "nonzero",
           "flatnonzero", "argwhere", "ix_", "unravel_index", "ravel_multi_index", "diag_indices",
           "diag_indices_from", "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from",
           "mask_indices", "fill_diagonal", "choose", "select", "flatiter"]
