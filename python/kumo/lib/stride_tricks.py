"""numpy.lib.stride_tricks: views with chosen shapes and strides.

as_strided checks, unlike NumPy's, that every element the view can address
lies inside the array's memory (ValueError otherwise): a wrong stride gives
an error instead of reading or writing outside the block.
"""
import operator

import numpy

from kumo import _core
from kumo._creation import asarray

__all__ = ["as_strided", "sliding_window_view"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    x = asarray(x)
    shape = x.shape if shape is None else tuple(operator.index(s) for s in shape)
    strides = x.strides if strides is None else tuple(operator.index(s) for s in strides)
    return _core.as_strided(x, shape, strides, 0, bool(writeable))


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    x = asarray(x)
    window_shape = tuple(window_shape) if hasattr(window_shape, "__iter__") else (window_shape,)
    window_shape = tuple(operator.index(w) for w in window_shape)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError("Since axis is `None`, must provide window_shape for all dimensions of `x`; got %d "
                             "window_shape elements and `x.ndim` is %d." % (len(window_shape), x.ndim))
    else:
        axis = tuple(axis) if hasattr(axis, "__iter__") else (axis,)
        axis = tuple(_normalize_axis(operator.index(a), x.ndim) for a in axis)
        if len(window_shape) != len(axis):
            raise ValueError("Must provide matching length window_shape and axis; got %d window_shape elements and "
                             "%d axes elements." % (len(window_shape), len(axis)))
    out_shape = list(x.shape)
    for ax, w in zip(axis, window_shape):
        if out_shape[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        out_shape[ax] -= w - 1
    out_strides = tuple(x.strides) + tuple(x.strides[ax] for ax in axis)
    return _core.as_strided(x, tuple(out_shape) + window_shape, out_strides, 0, bool(writeable))


def _normalize_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError("axis %d is out of bounds for array of dimension %d" % (axis, ndim))
    return axis % ndim
