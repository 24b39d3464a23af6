"""Reductions and statistics (sum, prod, min, max, mean, var, ...): the C++
routines (routines/reduction.h) bound directly, which own NumPy's semantics
(accumulation dtypes, axes, keepdims/out/where/initial, exceptions). Only
compositions on no hot path (average, diff) are Python."""
import operator

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import asarray, full

from kumo._ufuncs import _NoValue  # one sentinel shared with ufunc.reduce
from kumo._manipulation import broadcast_to, concatenate
ndarray = _core.ndarray

# The reductions themselves are C++ functions (bindings/bind_reduction.cpp)
# with NumPy's signatures; the ndarray methods of the same names are bound
# there too.


def _initial(initial):
    return None if initial is _NoValue else initial


def _normalize_axis(axis, ndim):
    """None -> None, int/tuple -> sorted tuple of non-negative axes (AxisError on bad ones)."""
    if axis is None:
        return None
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (operator.index(axis),)
    out = []
    for a in axes:
        a = operator.index(a)
        if a < -ndim or a >= ndim:
            raise numpy.exceptions.AxisError(a, ndim)
        a = a + ndim if a < 0 else a
        if a in out:
            raise ValueError("duplicate value in 'axis'")
        out.append(a)
    return tuple(sorted(out))


def ufunc_reduce(ufunc, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _core._ufunc_reduce(ufunc, array, axis, dtype, out, keepdims, _initial(initial), where)


def ufunc_accumulate(ufunc, array, axis=0, dtype=None, out=None):
    return _core._ufunc_accumulate(ufunc, array, axis, dtype, out)


sum = _core.sum


prod = _core.prod


max = _core.max


min = _core.min


amax = max
amin = min


all = _core.all


any = _core.any


ptp = _core.ptp


def count_nonzero(a, axis=None, *, keepdims=False):
    return _core._count_nonzero(a, axis, keepdims)


mean = _core.mean


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = asarray(a)
    if weights is None:
        avg = mean(a, axis=axis, keepdims=keepdims)
        if avg.size == 0:  # NumPy divides a.size by it, a Python division
            raise ZeroDivisionError("division by zero")
        ratio = a.size / avg.size
        scl = full(avg.shape, ratio, dtype=avg.dtype)
    else:
        w = asarray(weights)
        axes = _normalize_axis(axis, a.ndim)
        if a.shape != w.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            if w.ndim != 1:
                raise TypeError("1D weights expected when shapes of a and weights differ.")
            if len(axes) != 1 or w.shape[0] != a.shape[axes[0]]:
                raise ValueError("Length of weights not compatible with specified axis.")
            shape = [1] * a.ndim
            shape[axes[0]] = w.shape[0]
            w = w.reshape(tuple(shape))
        if a.dtype.kind in "biu":
            rt = numpy.result_type(a.dtype, w.dtype, numpy.float64)
        else:
            rt = numpy.result_type(a.dtype, w.dtype)
        scl = sum(w, axis=axes, dtype=rt, keepdims=keepdims)
        if bool((scl == 0).any()):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = uf.divide(sum(uf.multiply(a, w, dtype=rt), axis=axes, keepdims=keepdims), scl)
        if scl.shape != avg.shape:
            scl = broadcast_to(scl, avg.shape).copy()
    if returned:
        return avg, scl
    return avg


var = _core.var


std = _core.std


argmax = _core.argmax


argmin = _core.argmin


# ---- NaN-ignoring variants ----
nansum = _core.nansum


nanprod = _core.nanprod


nanmax = _core.nanmax


nanmin = _core.nanmin


nanargmax = _core.nanargmax


nanargmin = _core.nanargmin


nanmean = _core.nanmean


nanvar = _core.nanvar


nanstd = _core.nanstd


cumsum = _core.cumsum


cumprod = _core.cumprod


nancumsum = _core.nancumsum


nancumprod = _core.nancumprod


def diff(a, n=1, axis=-1, prepend=_NoValue, append=_NoValue):
    a = asarray(a)
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got %r" % n)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _normalize_axis(axis, a.ndim)[0]
    parts = []
    for extra in (prepend, None, append):
        if extra is None:
            parts.append(a)
        elif extra is not _NoValue:
            e = asarray(extra)
            if e.ndim == 0:
                shape = list(a.shape)
                shape[axis] = 1
                e = broadcast_to(e, tuple(shape))
            parts.append(e)
    if len(parts) > 1:
        a = concatenate(parts, axis=axis)
    op = uf.not_equal if a.dtype == numpy.bool_ else uf.subtract
    for _ in range(n):
        hi = [slice(None)] * a.ndim
        lo = [slice(None)] * a.ndim
        hi[axis] = slice(1, None)
        lo[axis] = slice(None, -1)
        a = op(a[tuple(hi)], a[tuple(lo)])
    return a


__all__ = ["sum", "prod", "max", "min", "amax", "amin", "all", "any", "ptp", "count_nonzero", "mean", "average",
           "var", "std", "argmax", "argmin", "nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin",
           "nanmean", "nanvar", "nanstd", "cumsum", "cumprod", "nancumsum", "nancumprod", "diff"]
