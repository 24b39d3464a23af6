"""Array predicates and shape queries that NumPy keeps in its numeric module:
isscalar, ndim, shape, size, array_equal, allclose, isclose. Built on the
ufuncs; modules below the top-level package import them from here."""
import numpy

from kumo import _core
from kumo._creation import asarray
from kumo._dtypes import result_type
from kumo._searching import where
from kumo._ufuncs import absolute, equal, isfinite, isnan, less_equal, logical_and, logical_or

ndarray = _core.ndarray


def isscalar(element):
    return numpy.isscalar(element)


def ndim(a):
    return a.ndim if isinstance(a, ndarray) else numpy.ndim(a)


def shape(a):
    return a.shape if isinstance(a, ndarray) else numpy.shape(a)


def size(a, axis=None):
    if isinstance(a, ndarray):
        return a.size if axis is None else a.shape[axis]
    return numpy.size(a, axis)


def array_equal(a1, a2, equal_nan=False):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return False
    if equal_nan and a1.dtype.kind in "fc":
        both_nan = logical_and(isnan(a1), isnan(a2))
        return bool(logical_or(equal(a1, a2), both_nan).all())
    return bool(equal(a1, a2).all())


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan).all())


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = asarray(a), asarray(b)
    dt = result_type(a, b, 1.0)
    a, b = a.astype(dt), b.astype(dt)
    finite = logical_and(isfinite(a), isfinite(b))
    close = less_equal(absolute(a - b), atol + rtol * absolute(b))
    res = where(finite, close, equal(a, b))
    if equal_nan:
        res = logical_or(res, logical_and(isnan(a), isnan(b)))
    return res


__all__ = ["isscalar", "ndim", "shape", "size", "array_equal", "allclose", "isclose"]
