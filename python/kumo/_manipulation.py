"""Shape manipulation: views where NumPy gives views."""
import operator

import numpy

from kumo import _core
from kumo._creation import asarray, empty

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


def moveaxis(a, source, destination):
    a = asarray(a)
    src = [source] if isinstance(source, int) or hasattr(source, "__index__") else list(source)
    dst = [destination] if isinstance(destination, int) or hasattr(destination, "__index__") else list(destination)
    src = [_axis(s, a.ndim, "source") for s in src]
    dst = [_axis(d, a.ndim, "destination") for d in dst]
    if len(set(src)) != len(src):
        raise ValueError("repeated axis in `source` argument")
    if len(set(dst)) != len(dst):
        raise ValueError("repeated axis in `destination` argument")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a.transpose(order)


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
    a = asarray(a)
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    return a._expand_dims(axes)


def broadcast_to(array, shape, subok=False):
    a = asarray(array)
    if not isinstance(shape, (tuple, list)):
        shape = (shape,)
    shape = tuple(operator.index(d) for d in shape)
    if not shape and a.ndim:
        raise ValueError("cannot broadcast a non-scalar to a scalar array")
    if any(d < 0 for d in shape):
        raise ValueError("all elements of broadcast shape must be non-negative")
    return a._broadcast_to(shape)


def broadcast_shapes(*shapes):
    return numpy.broadcast_shapes(*shapes)


def broadcast_arrays(*args, subok=False):
    arrays = [asarray(a) for a in args]
    shape = numpy.broadcast_shapes(*[a.shape for a in arrays])
    return tuple(a if a.shape == shape else a._broadcast_to(shape) for a in arrays)


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


def _stride_perm(arrays, ndim):
    """Axis order (outermost first) that follows the inputs' memory layout, the
    way NumPy lays out the result of concatenate: an axis moves before another
    only when every input where both have length > 1 strides it further."""
    perm = list(range(ndim))
    for i in range(1, ndim):
        ax = perm[i]
        pos = i
        for j in range(i - 1, -1, -1):
            other = perm[j]
            decided = False
            swap = True
            for a in arrays:
                if a.shape[ax] != 1 and a.shape[other] != 1:
                    decided = True
                    if abs(a.strides[ax]) <= abs(a.strides[other]):
                        swap = False
            if decided:
                if swap:
                    pos = j
                else:
                    break
        del perm[i]
        perm.insert(pos, ax)
    return perm


def _empty_like_layout(shape, dtype, arrays):
    perm = _stride_perm(arrays, len(shape))
    if perm == list(range(len(shape))):
        return empty(tuple(shape), dtype=dtype)
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return empty(tuple(shape[p] for p in perm), dtype=dtype).transpose(inv)


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")
    if axis is None:
        arrays = [a.ravel() for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for i, a in enumerate(arrays):
        if a.ndim != nd:
            raise ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has "
                             "%d dimension(s) and the array at index %d has %d dimension(s)" % (nd, i, a.ndim))
    axis = _axis(axis, nd)
    for i, a in enumerate(arrays[1:], 1):
        for d in range(nd):
            if d != axis and a.shape[d] != arrays[0].shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation axis must match "
                                 "exactly, but along dimension %d, the array at index 0 has size %d and the array "
                                 "at index %d has size %d" % (d, arrays[0].shape[d], i, a.shape[d]))
    shape = list(arrays[0].shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("'out' must be an array")
        if tuple(out.shape) != tuple(shape):
            raise ValueError("Output array is the wrong shape")
        dt = out.dtype
    else:
        dt = numpy.result_type(*[a.dtype for a in arrays]) if dtype is None else numpy.dtype(dtype)
    for a in arrays:
        if not numpy.can_cast(a.dtype, dt, casting):
            raise TypeError("Cannot cast array data from %r to %r according to the rule %r" % (a.dtype, dt, casting))
    res = _empty_like_layout(shape, dt, arrays) if out is None else out
    pos = 0
    for a in arrays:
        idx = [slice(None)] * nd
        idx[axis] = slice(pos, pos + a.shape[axis])
        res[tuple(idx)] = a
        pos += a.shape[axis]
    return res


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError("all input arrays must have the same shape")
    axis = _axis(axis, arrays[0].ndim + 1)
    return concatenate([expand_dims(a, axis) for a in arrays], axis=axis, out=out, dtype=dtype, casting=casting)


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


__all__ = ["reshape", "ravel", "transpose", "permute_dims", "swapaxes", "moveaxis", "rollaxis", "squeeze",
           "expand_dims", "broadcast_to", "broadcast_shapes", "broadcast_arrays", "atleast_1d", "atleast_2d",
           "atleast_3d", "concatenate", "stack", "vstack", "hstack", "indices"]
