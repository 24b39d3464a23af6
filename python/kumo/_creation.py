"""Array creation routines (numpy.* names)."""
import math
import operator

import numpy

from kumo import _core
from kumo._dtypes import _check_dtype

ndarray = _core.ndarray


def _default_dtype(dtype, fallback=float):
    return _check_dtype(fallback if dtype is None else dtype)


def _shape_tuple(shape):
    if isinstance(shape, (int, numpy.integer)) or hasattr(shape, "__index__") and not hasattr(shape, "__len__"):
        return (operator.index(shape),)
    return tuple(operator.index(s) for s in shape)


def _order_char(order, allow_ak=False):
    if order is None:
        return "C"
    o = str(order).upper()
    if o not in ("C", "F", "A", "K"):
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got %r)" % (order,))
    return o


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
    """Create an array (always a new one unless copy=False/None allows reuse)."""
    if isinstance(obj, ndarray):
        a = obj
        if dtype is not None:
            d = _check_dtype(dtype)
            if copy is False and d != a.dtype:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            a = a.astype(d, order=order, copy=bool(copy) or d != a.dtype)
        elif copy:
            a = a.copy(order="C" if order in ("C", None) else ("F" if order == "F" else "K"))
        if order == "C" and not a._c_contiguous:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            a = a.copy(order="C")
        elif order == "F" and not a._f_contiguous:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            a = a.copy(order="F")
        if a.ndim < ndmin:
            a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
        return a
    if copy is False and not isinstance(obj, ndarray):
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    host = numpy.array(_to_host_nested(obj), dtype=dtype, order="C" if order in ("K", "A", None) else order,
                       ndmin=ndmin)
    _check_dtype(host.dtype)
    out = _core.from_numpy(host)
    if order == "F" and host.ndim > 1:
        out = out.copy(order="F")
    return out


def _to_host_nested(obj):
    """Lists may hold kumo arrays (e.g. [kumo.array(1), 2]); bring them to the host."""
    if isinstance(obj, (list, tuple)) and any(isinstance(x, (ndarray, list, tuple)) for x in obj):
        return type(obj)(_to_host_nested(x) for x in obj)
    if isinstance(obj, ndarray):
        return _core.to_numpy(obj)
    return obj


def asarray(a, dtype=None, order=None, copy=None, like=None):
    if isinstance(a, ndarray) and (dtype is None or numpy.dtype(dtype) == a.dtype):
        if copy:
            return a.copy(order="K" if order in (None, "K", "A") else order)
        if order == "C" and not a._c_contiguous:
            return a.copy(order="C")
        if order == "F" and not a._f_contiguous:
            return a.copy(order="F")
        return a
    return array(a, dtype=dtype, copy=True if copy is None else copy,
                 order="K" if order is None else order)


asanyarray = asarray


def ascontiguousarray(a, dtype=None, like=None):
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape((1,))
    return a if a._c_contiguous else a.copy(order="C")


def asfortranarray(a, dtype=None, like=None):
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape((1,))
    return a if a._f_contiguous else a.copy(order="F")


def empty(shape, dtype=float, order="C", like=None):
    return _core.empty(_shape_tuple(shape), _default_dtype(dtype), _order_char(order))


def zeros(shape, dtype=float, order="C", like=None):
    a = empty(shape, dtype, order)
    _core.fill(a, 0)
    return a


def ones(shape, dtype=float, order="C", like=None):
    a = empty(shape, dtype, order)
    _core.fill(a, 1)
    return a


def _fill_value_dtype(fill_value):
    if isinstance(fill_value, ndarray):
        return fill_value.dtype
    return numpy.array(fill_value).dtype


def full(shape, fill_value, dtype=None, order="C", like=None):
    d = _fill_value_dtype(fill_value) if dtype is None else dtype
    a = empty(shape, d, order)
    _fill(a, fill_value)
    return a


def _fill(a, value):
    if isinstance(value, (bool, int, float, complex)):
        _core.fill(a, value)
    else:
        a[...] = asarray(value)


def _like_args(a, dtype, order, shape):
    a = asarray(a)
    d = a.dtype if dtype is None else _check_dtype(dtype)
    if shape is None:
        return _core.empty_like(a, d, _order_char(order))
    o = _order_char(order)
    if o in ("A", "K"):
        o = "F" if a._f_contiguous and not a._c_contiguous else "C"
    return _core.empty(_shape_tuple(shape), d, o)


def empty_like(prototype, dtype=None, order="K", subok=None, shape=None):
    return _like_args(prototype, dtype, order, shape)


def zeros_like(a, dtype=None, order="K", subok=None, shape=None):
    out = _like_args(a, dtype, order, shape)
    _core.fill(out, 0)
    return out


def ones_like(a, dtype=None, order="K", subok=None, shape=None):
    out = _like_args(a, dtype, order, shape)
    _core.fill(out, 1)
    return out


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None):
    out = _like_args(a, dtype, order, shape)
    _fill(out, fill_value)
    return out


def copy(a, order="K", subok=False):
    return asarray(a).copy(order=order)


def arange(start, stop=None, step=None, dtype=None, like=None):
    """Evenly spaced values within [start, stop)."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    for v in (start, stop, step):
        if isinstance(v, ndarray):
            raise TypeError("arange() arguments must be scalars")
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if dtype is None:
        d = numpy.result_type(*[numpy.asarray(v).dtype if not isinstance(v, (int, float, complex)) else
                                (numpy.dtype(int) if isinstance(v, int) else
                                 numpy.dtype(float) if isinstance(v, float) else numpy.dtype(complex))
                                for v in (start, stop, step)])
    else:
        d = _check_dtype(dtype)
    if d.kind == "c":
        raise TypeError("arange does not support complex values in kumo")
    if d.kind == "b":
        n = max(0, math.ceil((stop - start) / step))
        if n > 2:
            raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
    if all(isinstance(v, (int, numpy.integer)) for v in (start, stop, step)):
        n = len(range(int(start), int(stop), int(step)))
    else:
        n = max(0, int(math.ceil((float(stop) - float(start)) / float(step))))
    if d.kind in "iub" or d.kind == "b":
        return _core.arange(int(start), int(step), n, d)
    return _core.arange(float(start), float(step), n, d)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    from kumo import _ufuncs as uf
    num = operator.index(num)
    if num < 0:
        raise ValueError("Number of samples, %s, must be non-negative." % num)
    div = (num - 1) if endpoint else num
    start_a = asarray(start) * 1.0
    stop_a = asarray(stop) * 1.0
    dt = numpy.result_type(start_a.dtype, stop_a.dtype, float)
    delta = stop_a - start_a
    y = arange(0, num, dtype=dt if dt.kind == "f" else numpy.float64).astype(dt, copy=False)
    y = y.reshape((-1,) + (1,) * delta.ndim)
    any_step_zero = False
    if div > 0:
        step = delta / div
        any_step_zero = bool((step == 0).any()) if step.ndim else bool(step == 0)
        if any_step_zero:
            y = y / div
            y = y * delta
        else:
            y = y * step
    else:
        step = float("nan")
        y = y * delta
    y = y + start_a
    if endpoint and num > 1:
        y[-1, ...] = stop_a
    if axis != 0:
        from kumo._manipulation import moveaxis
        y = moveaxis(y, 0, axis)
    out_dtype = dt if dtype is None else _check_dtype(dtype)
    if out_dtype.kind in "iu":
        y = uf.floor(y)
    y = y.astype(out_dtype, copy=False)
    if retstep:
        if isinstance(step, ndarray) and step.ndim == 0:
            step = _core.to_numpy(step)[()]  # a NumPy scalar, as numpy.linspace returns
        return y, step
    return y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    from kumo import _ufuncs as uf
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    base = asarray(base)
    if base.ndim:
        from kumo._manipulation import expand_dims
        base = expand_dims(base, axis=axis)
    r = uf.power(base, y)
    if dtype is None:
        return r
    return r.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    from kumo import _ufuncs as uf
    start = asarray(start)
    stop = asarray(stop)
    if bool((start == 0).any()) or bool((stop == 0).any()):
        raise ValueError("Geometric sequence cannot include zero")
    dt = numpy.result_type(start.dtype, stop.dtype, float(num), 0.0)
    start = start.astype(dt)
    stop = stop.astype(dt)
    out_sign = uf.sign(start)
    start = start / out_sign
    stop = stop / out_sign
    log_start = uf.log10(start)
    log_stop = uf.log10(stop)
    result = logspace(log_start, log_stop, num=num, endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:
        result[0, ...] = start
        if num > 1 and endpoint:
            result[-1, ...] = stop
    result = result * out_sign
    if axis != 0:
        from kumo._manipulation import moveaxis
        result = moveaxis(result, 0, axis)
    return result.astype(dt if dtype is None else dtype, copy=False)


def eye(N, M=None, k=0, dtype=float, order="C", like=None):
    M = N if M is None else M
    a = zeros((N, M), dtype=dtype, order=order)
    if (k >= 0 and k < M) or (k < 0 and -k < N):
        d = a._diagonal(k, 0, 1)
        d._writeable = True
        d[...] = 1
    return a


def identity(n, dtype=float, like=None):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=float, like=None):
    from kumo import _ufuncs as uf
    M = N if M is None else M
    i = arange(N, dtype=numpy.int64).reshape((N, 1))
    j = arange(-k, M - k, dtype=numpy.int64).reshape((1, M))
    return uf.greater_equal(i, j).astype(dtype, copy=False)


def _tri_mask(m, k, lower):
    from kumo import _ufuncs as uf
    if m.ndim == 0:
        raise TypeError("tril/triu need an array with at least 1 dimension")
    n_rows, n_cols = (m.shape[-1], m.shape[-1]) if m.ndim == 1 else (m.shape[-2], m.shape[-1])
    i = arange(n_rows, dtype=numpy.int64).reshape((n_rows, 1))
    j = arange(n_cols, dtype=numpy.int64).reshape((1, n_cols))
    return uf.greater_equal(i + k, j) if lower else uf.less_equal(i + k, j)


def tril(m, k=0):
    from kumo._searching import where
    m = asarray(m)
    return where(_tri_mask(m, k, True), m, zeros(1, dtype=m.dtype))


def triu(m, k=0):
    from kumo._searching import where
    m = asarray(m)
    return where(_tri_mask(m, k, False), m, zeros(1, dtype=m.dtype))


def diag(v, k=0):
    v = asarray(v)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = zeros((n, n), dtype=v.dtype)
        d = out._diagonal(k, 0, 1)
        d._writeable = True
        d[...] = v
        return out
    if v.ndim == 2:
        return v._diagonal(k, 0, 1)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    return diag(asarray(v).ravel(), k)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    xs = [asarray(x).ravel() for x in xi]
    out = []
    for i, x in enumerate(xs):
        shape = [1] * ndim
        shape[i] = x.shape[0]
        if indexing == "xy" and ndim > 1 and i < 2:
            shape[0], shape[1] = shape[1], shape[0]
        out.append(x.reshape(tuple(shape)))
    if not sparse:
        from kumo._manipulation import broadcast_arrays
        out = broadcast_arrays(*out)
        if copy:
            out = [o.copy() for o in out]
    elif copy:
        out = [o.copy() for o in out]
    return tuple(out)


def frombuffer(buffer, dtype=float, count=-1, offset=0, like=None):
    return _core.from_numpy(numpy.frombuffer(buffer, dtype=_check_dtype(dtype), count=count, offset=offset))


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    from kumo._manipulation import indices
    args = indices(shape, dtype=dtype)
    return function(*args, **kwargs)


__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "empty", "zeros", "ones",
           "full", "empty_like", "zeros_like", "ones_like", "full_like", "copy", "arange", "linspace", "logspace",
           "geomspace", "eye", "identity", "tri", "tril", "triu", "diag", "diagflat", "meshgrid", "frombuffer",
           "fromfunction"]
