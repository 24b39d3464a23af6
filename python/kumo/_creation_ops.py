"""Creation routines built on the ufuncs and the manipulation routines
(logspace, geomspace, tri, tril, triu, meshgrid, fromfunction). They sit above
_creation, which the ufuncs and _manipulation themselves import."""
import numpy

from kumo import _ufuncs as uf
from kumo._creation import _on, arange, asarray, linspace, zeros
from kumo._manipulation import broadcast_arrays, expand_dims, indices, moveaxis
from kumo._searching import where


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *, device=None):
    if device is not None:
        with _on(device):
            return logspace(start, stop, num, endpoint, base, dtype, axis)
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    base = asarray(base)
    if base.ndim:
        base = expand_dims(base, axis=axis)
    r = uf.power(base, y)
    if dtype is None:
        return r
    return r.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    if device is not None:
        with _on(device):
            return geomspace(start, stop, num, endpoint, dtype, axis)
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
        result = moveaxis(result, 0, axis)
    return result.astype(dt if dtype is None else dtype, copy=False)


def tri(N, M=None, k=0, dtype=float, *, device=None, like=None):
    if device is not None:
        with _on(device):
            return tri(N, M, k, dtype)
    M = N if M is None else M
    i = arange(N, dtype=numpy.int64).reshape((N, 1))
    j = arange(-k, M - k, dtype=numpy.int64).reshape((1, M))
    return uf.greater_equal(i, j).astype(dtype, copy=False)


def _tri_mask(m, k, lower):
    if m.ndim == 0:
        raise TypeError("tril/triu need an array with at least 1 dimension")
    n_rows, n_cols = (m.shape[-1], m.shape[-1]) if m.ndim == 1 else (m.shape[-2], m.shape[-1])
    i = arange(n_rows, dtype=numpy.int64).reshape((n_rows, 1))
    j = arange(n_cols, dtype=numpy.int64).reshape((1, n_cols))
    return uf.greater_equal(i + k, j) if lower else uf.less_equal(i + k, j)


def tril(m, k=0):
    m = asarray(m)
    return where(_tri_mask(m, k, True), m, zeros(1, dtype=m.dtype))


def triu(m, k=0):
    m = asarray(m)
    return where(_tri_mask(m, k, False), m, zeros(1, dtype=m.dtype))


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
        out = broadcast_arrays(*out)
        if copy:
            out = [o.copy() for o in out]
    elif copy:
        out = [o.copy() for o in out]
    return tuple(out)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    args = indices(shape, dtype=dtype)
    return function(*args, **kwargs)


__all__ = ["logspace", "geomspace", "tri", "tril", "triu", "meshgrid", "fromfunction"]
