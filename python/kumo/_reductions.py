"""Reductions and statistics (sum, prod, min, max, mean, var, ...), built on
ufunc reduce kernels."""
import builtins
import operator

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import asarray, empty, full, zeros

from kumo._ufuncs import _NoValue  # one sentinel shared with ufunc.reduce
ndarray = _core.ndarray


def _normalize_axis(axis, ndim, legacy_0d=False):
    """None -> None, int/tuple -> sorted tuple of non-negative axes (AxisError on bad ones).

    With `legacy_0d`, a plain integer axis 0 or -1 on a 0-d array means "no axis"
    (ufunc.reduce accepts it, as NumPy does)."""
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        axes = tuple(axis)
    else:
        axis = operator.index(axis)
        if legacy_0d and ndim == 0 and axis in (0, -1):
            return ()
        axes = (axis,)
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
    axes = _normalize_axis(axis, a.ndim, legacy_0d=True)
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
        ratio = a.size / avg.size if avg.size else 0
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
            from kumo._manipulation import broadcast_to
            scl = broadcast_to(scl, avg.shape).copy()
    if returned:
        return avg, scl
    return avg


def _where_count(a, axes, where, keepdims):
    """How many elements of each reduced slice `where` selects (an intp array)."""
    from kumo._manipulation import broadcast_to
    w = broadcast_to(asarray(where).astype(bool, copy=False), a.shape)
    return sum(w, axis=axes, dtype=numpy.intp, keepdims=keepdims)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    a = asarray(a)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    axes = _normalize_axis(axis, a.ndim)
    res_dtype = _mean_dtype(a.dtype, dtype)
    if mean is None:
        m = globals()["mean"](a, axis=axes, dtype=dtype, keepdims=True, where=where)
    else:
        m = asarray(mean)
        if m.dtype != res_dtype:
            m = m.astype(res_dtype)
    x = uf.subtract(a, m)
    if x.dtype != res_dtype:
        x = x.astype(res_dtype)
    if x.dtype.kind == "c":
        sq = uf.multiply(x, uf.conjugate(x)).real
    else:
        sq = uf.multiply(x, x)
    acc = numpy.dtype(numpy.float32) if sq.dtype == numpy.float16 else None
    if where is True:
        s = sum(sq, axis=axes, keepdims=keepdims, dtype=acc)
        r = uf.divide(s, builtins.max(_count(a, axes) - ddof, 0))
    else:
        s = sum(sq, axis=axes, keepdims=keepdims, dtype=acc, where=where)
        n = _where_count(a, axes, where, keepdims)
        r = uf.divide(s, uf.maximum(uf.subtract(n, ddof), 0))
    rdt = res_dtype if res_dtype.kind != "c" else numpy.dtype(res_dtype.char.lower())
    r = r.astype(rdt, copy=False)
    return _finish(r, out)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    v = var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where, mean=mean, correction=correction)
    return _finish(uf.sqrt(v), out)


def _single_axis(axis, ndim):
    """argmax-style axis: one integer (TypeError for tuples); 0/-1 allowed on 0-d arrays."""
    axis = operator.index(axis)
    if ndim == 0 and axis in (0, -1):
        return None
    return _normalize_axis(axis, ndim)[0]


def _arg_reduce(a, axis, out, keepdims, kind):
    from kumo import _kernels_builtin as kb
    a = asarray(a)
    ax = None if axis is None else _single_axis(axis, a.ndim)
    if ax is None:
        if a.size == 0:
            raise ValueError("attempt to get %s of an empty sequence" % kind)
        r = kb.arg_reduce(a.ravel(), kind, 0)
        if keepdims:
            r = r.reshape((1,) * a.ndim)
    else:
        if a.shape[ax] == 0:
            raise ValueError("attempt to get %s of an empty sequence" % kind)
        if a.size == 0:
            r = zeros(_reduced_shape(a.shape, (ax,), keepdims), dtype=numpy.intp)
        else:
            r = kb.arg_reduce(a, kind, ax)
            if keepdims:
                r = r.reshape(_reduced_shape(a.shape, (ax,), True))
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
        return mean(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
    notnan = uf.logical_not(uf.isnan(a))
    if where is not True:
        notnan = uf.logical_and(notnan, asarray(where))
    cnt = sum(notnan, axis=axis, keepdims=keepdims, dtype=numpy.intp)
    tot = nansum(a, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    r = uf.divide(tot, cnt).astype(tot.dtype, copy=False)
    return _finish(r, out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    a = asarray(a)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    if a.dtype.kind not in "fc":
        return var(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims, where=where, mean=mean)
    axes = _normalize_axis(axis, a.ndim)
    notnan = uf.logical_not(uf.isnan(a))
    if where is not True:
        notnan = uf.logical_and(notnan, asarray(where))
    if mean is None:
        cnt = sum(notnan, axis=axes, keepdims=True, dtype=numpy.intp)
        tot = nansum(a, axis=axes, dtype=dtype, keepdims=True, where=where)
        m = uf.divide(tot, cnt).astype(tot.dtype, copy=False)
    else:
        m = asarray(mean)
    x = uf.subtract(a, m)
    if x.dtype != a.dtype and dtype is None:
        x = x.astype(a.dtype)
    x = _nan_to(x, 0)
    sq = uf.multiply(x, uf.conjugate(x)).real if x.dtype.kind == "c" else uf.multiply(x, x)
    s = sum(sq, axis=axes, keepdims=keepdims, dtype=dtype, where=where)
    if s.dtype.kind == "c":
        s = s.real
    dof = uf.subtract(sum(notnan, axis=axes, keepdims=keepdims, dtype=numpy.intp), ddof)
    r = uf.divide(s, dof).astype(s.dtype, copy=False)
    from kumo._searching import where as _where
    r = _where(uf.less_equal(dof, 0), asarray(numpy.nan).astype(r.dtype), r)
    return _finish(r, out)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    r = uf.sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where, mean=mean,
                       correction=correction))
    return _finish(r, out)


def _cum_prepare(a, axis):
    a = asarray(a)
    if axis is None:
        return a.ravel(), 0
    if a.ndim == 0 and operator.index(axis) in (0, -1):
        return a.reshape((1,)), 0
    return a, axis


def cumsum(a, axis=None, dtype=None, out=None):
    a, axis = _cum_prepare(a, axis)
    return ufunc_accumulate(uf.add, a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    a, axis = _cum_prepare(a, axis)
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
