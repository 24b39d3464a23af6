"""Shape manipulation: views where NumPy gives views."""
import operator

import numpy

from kumo import _core
from kumo._creation import asarray, empty
from kumo._dtypes import _check_dtype

ndarray = _core.ndarray


def _axis(axis, ndim, prefix=None):
    axis = operator.index(axis)
    if axis < -ndim or axis >= ndim:
        raise numpy.exceptions.AxisError(axis, ndim, prefix)
    return axis + ndim if axis < 0 else axis


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    if shape is None:
        shape = newshape
    return asarray(a).reshape(shape, order=order, copy=copy)


def ravel(a, order="C"):
    return asarray(a).ravel(order)


def transpose(a, axes=None):
    a = asarray(a)
    return a.transpose() if axes is None else a.transpose(axes)


def permute_dims(a, axes=None):
    return transpose(a, axes)


def swapaxes(a, axis1, axis2):
    return asarray(a).swapaxes(axis1, axis2)


def _axes(v):
    return [v] if isinstance(v, int) or hasattr(v, "__index__") else list(v)


def moveaxis(a, source, destination):
    return _core.moveaxis(asarray(a), _axes(source), _axes(destination))


def rollaxis(a, axis, start=0):
    a = asarray(a)
    n = a.ndim
    axis = _axis(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise numpy.exceptions.AxisError("start arg requires %d <= start < %d" % (-n, n + 1))
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return a.transpose(axes)


def squeeze(a, axis=None):
    return asarray(a).squeeze(axis)


def expand_dims(a, axis):
    return _core.expand_dims(asarray(a), list(axis) if isinstance(axis, (tuple, list)) else [axis])


def broadcast_to(array, shape, subok=False):
    if not isinstance(shape, (tuple, list)):
        shape = (shape,)
    return _core.broadcast_to(asarray(array), tuple(operator.index(d) for d in shape))


def broadcast_shapes(*shapes):
    return numpy.broadcast_shapes(*shapes)


def broadcast_arrays(*args, subok=False):
    return _core.broadcast_arrays([asarray(a) for a in args])


def atleast_1d(*arys):
    res = [asarray(a).reshape((1,)) if asarray(a).ndim == 0 else asarray(a) for a in arys]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    res = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = a.reshape((1, 1))
        elif a.ndim == 1:
            a = a[None, :]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    res = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = a.reshape((1, 1, 1))
        elif a.ndim == 1:
            a = a[None, :, None]
        elif a.ndim == 2:
            a = a[:, :, None]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    if axis is not None:
        axis = operator.index(axis)
    r = _core.concatenate([asarray(a) for a in arrays], axis, out, None if dtype is None else _check_dtype(dtype),
                          casting)
    return r if out is None else out


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    r = _core.stack([asarray(a) for a in arrays], operator.index(axis), out,
                    None if dtype is None else _check_dtype(dtype), casting)
    return r if out is None else out


def vstack(tup, *, dtype=None, casting="same_kind"):
    return concatenate([atleast_2d(a) for a in tup], axis=0, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, axis=0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def indices(dimensions, dtype=int, sparse=False):
    from kumo._creation import arange
    dimensions = tuple(dimensions)
    n = len(dimensions)
    res = []
    for i, dim in enumerate(dimensions):
        shape = [1] * n
        shape[i] = dim
        idx = arange(dim, dtype=dtype).reshape(tuple(shape))
        res.append(idx if sparse else idx._broadcast_to(dimensions))
    if sparse:
        return tuple(res)
    from kumo._manipulation import stack as _stack
    if n == 0:
        return empty((0,), dtype=dtype)
    return _stack(res, axis=0)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    r = repeats if isinstance(repeats, _core.ndarray) else asarray(repeats)
    return _core.repeat(a, r, None if axis is None else operator.index(axis))


def _repeat_method(self, repeats, axis=None):
    return repeat(self, repeats, axis)


_core.ndarray.repeat = _repeat_method

__all__ = ["reshape", "ravel", "transpose", "permute_dims", "swapaxes", "moveaxis", "rollaxis", "squeeze",
           "expand_dims", "broadcast_to", "broadcast_shapes", "broadcast_arrays", "atleast_1d", "atleast_2d",
           "atleast_3d", "concatenate", "stack", "vstack", "hstack", "indices", "repeat"]
