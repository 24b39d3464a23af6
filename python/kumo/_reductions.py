"""Reductions and statistics (sum, prod, min, max, mean, var, ...), built on
ufunc reduce kernels."""
import operator

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import asarray, empty, full, zeros

_NoValue = object()
ndarray = _core.ndarray


def _normalize_axis(axis, ndim):
    """None -> None, int/tuple -> sorted tuple of non-negative axes (AxisError on bad ones)."""
    if axis is None:
        return None
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
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


def _reduced_shape(shape, axes, keepdims):
    if axes is None:
        axes = tuple(range(len(shape)))
    if keepdims:
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in axes)


def _sum_dtype(dt):
    """NumPy's accumulation type for add/multiply reduce: small ints -> int64/uint64, bool -> int64."""
    dt = numpy.dtype(dt)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return numpy.dtype(numpy.int64)
    if dt.kind == "u" and dt.itemsize < 8:
        return numpy.dtype(numpy.uint64)
    return dt


def ufunc_reduce(ufunc, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    if ufunc.nin != 2 or ufunc.nout != 1:
        raise ValueError("reduce only supported for binary functions")
    a = asarray(array)
    axes = _normalize_axis(axis, a.ndim) if axis is not None else None
    if dtype is None and ufunc.__name__ in ("add", "multiply"):
        dtype = _sum_dtype(a.dtype)
    if dtype is None and out is not None:
        dtype = out.dtype
    k, types = ufunc._resolve(a, a, dtype=dtype, casting="unsafe")
    loop_dtype = types[2]
    if types[0] != types[2] or types[1] != types[2]:
        raise TypeError("reduction of %s is not supported for dtype %s" % (ufunc.__name__, a.dtype))
    src = a if a.dtype == loop_dtype else a.astype(loop_dtype)
    if where is not True:
        ident = ufunc.identity if initial is _NoValue else initial
        if ident is None:
            raise ValueError("reduction operation '%s' does not have an identity, so to use a where mask one has "
                             "to specify 'initial'" % ufunc.__name__)
        from kumo._searching import where as _where
        src = _where(asarray(where), src, asarray(ident).astype(loop_dtype))
    n_reduced = a.size if axes is None else int(numpy.prod([a.shape[i] for i in axes], dtype=numpy.int64))
    if n_reduced == 0 and initial is _NoValue and ufunc.identity is None:
        raise ValueError("zero-size array to reduction operation %s which has no identity" % ufunc.__name__)
    if n_reduced == 0 and initial is not _NoValue:
        res = full(_reduced_shape(a.shape, axes, keepdims), initial, dtype=loop_dtype)
    else:
        res = ufunc._reduce(k, src, None if axes is None else list(axes), keepdims, None)
        if initial is not _NoValue:
            res = ufunc(res, asarray(initial).astype(loop_dtype))
    return _finish(res, out, dtype)


def _finish(res, out, dtype=None):
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("output must be an array")
        if out.shape != res.shape:
            raise ValueError("output parameter for reduction operation has the wrong shape: %r instead of %r"
                             % (out.shape, res.shape))
        out[...] = res
        return out
    return res


def ufunc_accumulate(ufunc, array, axis=0, dtype=None, out=None):
    from kumo._manipulation import moveaxis
    a = asarray(array)
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    axis = _normalize_axis(axis, a.ndim)[0]
    if dtype is None and ufunc.__name__ in ("add", "multiply"):
        dtype = _sum_dtype(a.dtype) if out is None else out.dtype
    k, types = ufunc._resolve(a, a, dtype=dtype, casting="unsafe")
    loop_dtype = types[2]
    moved = moveaxis(a, axis, -1)
    n = moved.shape[-1]
    if moved.size == 0:
        res = empty(a.shape, dtype=loop_dtype)
    else:
        rows = moved.astype(loop_dtype, order="C").reshape((-1, n))
        scanned = ufunc._accumulate_rows(k, rows).reshape(moved.shape)
        res = moveaxis(scanned, -1, axis)
    return _finish(res, out)


def _reduce_with(ufunc, a, axis, dtype, out, keepdims, initial, where):
    return ufunc_reduce(ufunc, a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _reduce_with(uf.add, a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _reduce_with(uf.multiply, a, axis, dtype, out, keepdims, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _reduce_with(uf.maximum, a, axis, None, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _reduce_with(uf.minimum, a, axis, None, out, keepdims, initial, where)


amax = max
amin = min


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    a = asarray(a)
    return _reduce_with(uf.logical_and, a.astype(bool, copy=False), axis, None, out, keepdims, _NoValue, where)


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    a = asarray(a)
    return _reduce_with(uf.logical_or, a.astype(bool, copy=False), axis, None, out, keepdims, _NoValue, where)


def ptp(a, axis=None, out=None, keepdims=False):
    r = uf.subtract(max(a, axis=axis, keepdims=keepdims), min(a, axis=axis, keepdims=keepdims))
    return _finish(r, out)


def count_nonzero(a, axis=None, *, keepdims=False):
    a = asarray(a)
    r = sum(a.astype(bool, copy=False), axis=axis, keepdims=keepdims, dtype=numpy.intp)
    return r


def _count(a, axes):
    if axes is None:
        return a.size
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


def _mean_dtype(dt, dtype):
    if dtype is not None:
        return numpy.dtype(dtype)
    dt = numpy.dtype(dt)
    if dt.kind in "biu":
        return numpy.dtype(numpy.float64)
    return dt


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    a = asarray(a)
    axes = _normalize_axis(axis, a.ndim)
    res_dtype = _mean_dtype(a.dtype, dtype)
    # float16 accumulates in float32 (NumPy does the same).
    acc = numpy.dtype(numpy.float32) if res_dtype == numpy.float16 else res_dtype
    if where is not True:
        w = asarray(where)
        total = sum(a, axis=axes, dtype=acc, keepdims=keepdims, where=w)
        cnt = sum(uf.logical_and(w, True) + zeros(a.shape, dtype=bool), axis=axes, dtype=numpy.intp,
                  keepdims=keepdims)
        r = uf.divide(total, cnt)
    else:
        total = sum(a, axis=axes, dtype=acc, keepdims=keepdims)
        r = uf.divide(total, _count(a, axes))
    r = r.astype(res_dtype, copy=False)
    return _finish(r, out)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = asarray(a)
    if weights is None:
        avg = mean(a, axis=axis, keepdims=keepdims)
        scl = asarray(avg.dtype.type(a.size / max(avg.size, 1)))
        scl = full(avg.shape, a.size // max(avg.size, 1) if a.size else 0, dtype=avg.dtype)
    else:
        w = asarray(weights)
        if a.shape != w.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            if w.ndim != 1:
                raise TypeError("1D weights expected when shapes of a and weights differ.")
            ax = _normalize_axis(axis, a.ndim)
            if len(ax) != 1 or w.shape[0] != a.shape[ax[0]]:
                raise ValueError("Length of weights not compatible with specified axis.")
            shape = [1] * a.ndim
            shape[ax[0]] = w.shape[0]
            w = w.reshape(tuple(shape))
        rt = numpy.result_type(a.dtype, w.dtype, 1.0)
        scl = sum(uf.multiply(w, ones_like_dtype(a, rt)), axis=axis, dtype=rt, keepdims=keepdims)
        if bool((scl == 0).any()):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = uf.divide(sum(uf.multiply(a, w), axis=axis, dtype=rt, keepdims=keepdims), scl)
    if returned:
        return avg, scl
    return avg


def ones_like_dtype(a, dt):
    from kumo._creation import ones
    return ones(a.shape, dtype=dt)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    a = asarray(a)
    if correction is not None:
        ddof = correction
    axes = _normalize_axis(axis, a.ndim)
    res_dtype = _mean_dtype(a.dtype, dtype)
    m = globals()["mean"](a, axis=axes, dtype=dtype, keepdims=True)
    x = uf.subtract(a, m)
    if x.dtype.kind == "c":
        sq = uf.multiply(x, uf.conjugate(x)).real
    else:
        sq = uf.multiply(x, x)
    acc = numpy.dtype(numpy.float32) if sq.dtype == numpy.float16 else None
    n = _count(a, axes)
    s = sum(sq, axis=axes, keepdims=keepdims, dtype=acc)
    r = uf.divide(s, builtins_max(n - ddof, 0))
    rdt = res_dtype if res_dtype.kind != "c" else numpy.dtype(res_dtype.char.lower())
    r = r.astype(rdt, copy=False)
    return _finish(r, out)


def builtins_max(x, y):
    return x if x > y else y


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    r = uf.sqrt(var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, correction=correction))
    return _finish(r, out)


def _arg_reduce(a, axis, out, keepdims, kind):
    from kumo import _kernels_builtin as kb
    a = asarray(a)
    if a.size == 0:
        raise ValueError("attempt to get %s of an empty sequence" % kind)
    if axis is None:
        flat = a.ravel()
        r = kb.arg_reduce(flat, kind, 0)
        if keepdims:
            r = r.reshape((1,) * a.ndim)
    else:
        ax = _normalize_axis(axis, a.ndim)[0]
        if a.shape[ax] == 0:
            raise ValueError("attempt to get %s of an empty sequence" % kind)
        r = kb.arg_reduce(a, kind, ax)
        if keepdims:
            r = r.reshape(tuple(1 if i == ax else s for i, s in enumerate(a.shape)))
    return _finish(r, out)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _arg_reduce(a, axis, out, keepdims, "argmax")


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _arg_reduce(a, axis, out, keepdims, "argmin")


# ---- NaN-ignoring variants ----
def _nan_to(a, value):
    from kumo._searching import where
    a = asarray(a)
    if a.dtype.kind not in "fc":
        return a
    return where(uf.isnan(a), asarray(value).astype(a.dtype), a)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return sum(_nan_to(a, 0), axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return prod(_nan_to(a, 1), axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)


def nanmax(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _reduce_with(uf.fmax, a, axis, None, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _reduce_with(uf.fmin, a, axis, None, out, keepdims, initial, where)


def _nanarg(a, axis, out, keepdims, kind):
    a = asarray(a)
    if a.dtype.kind not in "fc":
        return _arg_reduce(a, axis, out, keepdims, kind)
    mask = uf.isnan(a)
    if bool(all(mask, axis=axis).any()):
        raise ValueError("All-NaN slice encountered")
    fill = numpy.inf if kind == "argmin" else -numpy.inf
    return _arg_reduce(_nan_to(a, fill), axis, out, keepdims, kind)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _nanarg(a, axis, out, keepdims, "argmax")


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _nanarg(a, axis, out, keepdims, "argmin")


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    a = asarray(a)
    if a.dtype.kind not in "fc":
        return mean(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims)
    notnan = uf.logical_not(uf.isnan(a))
    cnt = sum(notnan, axis=axis, keepdims=keepdims, dtype=numpy.intp)
    tot = nansum(a, axis=axis, dtype=dtype, keepdims=keepdims)
    r = uf.divide(tot, cnt).astype(tot.dtype, copy=False)
    return _finish(r, out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    a = asarray(a)
    if correction is not None:
        ddof = correction
    if a.dtype.kind not in "fc":
        return var(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)
    notnan = uf.logical_not(uf.isnan(a))
    cnt = sum(notnan, axis=axis, keepdims=True, dtype=numpy.intp)
    m = uf.divide(nansum(a, axis=axis, dtype=dtype, keepdims=True), cnt)
    x = _nan_to(uf.subtract(a, m), 0)
    sq = uf.multiply(x, uf.conjugate(x)).real if x.dtype.kind == "c" else uf.multiply(x, x)
    s = sum(sq, axis=axis, keepdims=keepdims)
    c = sum(notnan, axis=axis, keepdims=keepdims, dtype=numpy.intp)
    r = uf.divide(s, uf.maximum(uf.subtract(c, ddof), 0)).astype(s.dtype, copy=False)
    return _finish(r, out)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    r = uf.sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, correction=correction))
    return _finish(r, out)


def cumsum(a, axis=None, dtype=None, out=None):
    a = asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    return ufunc_accumulate(uf.add, a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    a = asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    return ufunc_accumulate(uf.multiply, a, axis, dtype, out)


def diff(a, n=1, axis=-1, prepend=_NoValue, append=_NoValue):
    from kumo._manipulation import concatenate, broadcast_to
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
           "nanmean", "nanvar", "nanstd", "cumsum", "cumprod", "diff"]
