"""Parameter handling shared by kumo.random's distribution functions.

NumPy's Generator converts every distribution parameter to a float64 (or
int64) array, validates it with one of a few fixed constraints, broadcasts the
parameters with each other and with ``size``, and draws one sample per element
of the result. The helpers here do the same for kumo: parameters may be Python
or NumPy scalars, lists, NumPy arrays or kumo arrays; scalars stay on the host
(validated there, passed to kernels as scalars), everything else becomes a kumo
array on the generator's device and is validated there with one reduction.

Typical use in a distribution::

    scale = as_param(bg, scale)
    check_constraint(scale, "scale", CONS_NON_NEGATIVE)
    shape = output_shape(size, scale)
    x = bg._random_pos(shape, numpy.float64) ...
"""
import numbers
import operator

import numpy

from kumo import _core
from kumo import _manipulation
from kumo import _ufuncs as uf

ndarray = _core.ndarray

# Constraint kinds, named after NumPy's (numpy/random/_common.pyx), with the
# same messages and the same NaN behaviour.
CONS_NONE = 0
CONS_NON_NEGATIVE = 1       # "x < 0"; NaN passes; -0.0 fails (NumPy tests the sign bit)
CONS_POSITIVE = 2           # "x <= 0"; NaN passes
CONS_POSITIVE_NOT_NAN = 3   # "x must not be NaN", then "x <= 0"
CONS_BOUNDED_0_1 = 4        # "x < 0, x > 1 or x is NaN" ("contains NaNs" for arrays, likewise below)
CONS_BOUNDED_GT_0_1 = 5     # "x <= 0, x > 1 or x contains NaNs"
CONS_BOUNDED_LT_0_1 = 6     # "x < 0, x >= 1 or x is NaN"
CONS_GT_1 = 7               # "x <= 1 or x is NaN"
CONS_GTE_1 = 8              # "x < 1 or x is NaN"
CONS_POISSON = 9            # "x < 0 or x is NaN", then "x value too large"
CONS_NON_NEGATIVE_INT = 10  # integer parameters: "x < 0"

# Largest lambda NumPy's Generator accepts for Poisson draws (so that the
# result fits int64 with overwhelming probability).
POISSON_LAM_MAX = float(numpy.iinfo(numpy.int64).max) - numpy.sqrt(numpy.iinfo(numpy.int64).max) * 10


def normalize_size(size):
    """``size`` as NumPy accepts it (None, an int or a sequence of ints) -> None or a tuple."""
    if size is None:
        return None
    if isinstance(size, ndarray):
        size = _core.to_numpy(size).tolist()
    if isinstance(size, (numbers.Integral, numpy.integer)) or (
            hasattr(size, "__index__") and not hasattr(size, "__len__")):
        size = (operator.index(size),)
    elif not hasattr(size, "__iter__"):
        raise TypeError("expected a sequence of integers or a single integer, got '%s'" % (size,))
    else:
        size = tuple(operator.index(s) for s in size)
    if any(s < 0 for s in size):
        raise ValueError("negative dimensions are not allowed")
    return size


def is_scalar(p):
    """True for a parameter kept on the host as a Python number."""
    return isinstance(p, (float, int, bool, complex))


def _device_of(bg):
    return bg.device


def to_device(bg, host_array):
    """A NumPy array copied to a new kumo array on the generator's device."""
    with _device_of(bg):
        # (not ascontiguousarray, which turns 0-d into 1-d)
        return _core.from_numpy(numpy.asarray(host_array, order="C"))


def _cast_error(src, dst, ndim):
    return TypeError("Cannot cast %s from dtype('%s') to dtype('%s') according to the rule 'safe'"
                     % ("scalar" if ndim == 0 else "array data", src, dst))


def as_param(bg, value, dtype=numpy.float64):
    """A distribution parameter as NumPy's Generator sees it (converted to
    ``dtype``): a Python number when it is a scalar (0-d host input), else a
    kumo array of ``dtype`` on ``bg.device``.

    Arrays (NumPy or kumo) must cast to ``dtype`` under the 'safe' rule, as in
    NumPy (TypeError otherwise); Python objects and NumPy scalars convert like
    ``numpy.asarray(value, dtype)``, with Python's errors for strings and
    complex numbers. A kumo array on another device is an error, as in every
    kumo operation.
    """
    dt = numpy.dtype(dtype)
    if isinstance(value, ndarray):
        if value.device != _device_of(bg):
            raise ValueError("parameter is on device %s but the generator draws on %s"
                             % (value.device, _device_of(bg)))
        if value.dtype != dt:
            if not numpy.can_cast(value.dtype, dt, "safe"):
                raise _cast_error(value.dtype, dt, value.ndim)
            value = value.astype(dt)
        return value
    if isinstance(value, numpy.ndarray):
        if not numpy.can_cast(value.dtype, dt, "safe"):
            raise _cast_error(value.dtype, dt, value.ndim)
        host = value.astype(dt, copy=False)
    else:
        host = numpy.asarray(value, dtype=dt)
    if host.ndim == 0:
        return host.item()
    return to_device(bg, host)


def param_shape(p):
    return () if is_scalar(p) else tuple(p.shape)


def _any(bad):
    """Whether any element of a kumo bool array (or a Python bool) is true."""
    if isinstance(bad, ndarray):
        return bad.size > 0 and bool(bad.any())
    return bool(bad)


def check(bad, message):
    """Raise ValueError(message) if ``bad`` (a Python bool or a kumo bool
    array, e.g. ``kumo.less(p, 0)``) is true anywhere."""
    if _any(bad):
        raise ValueError(message)


def _isnan(p):
    return uf.isnan(p) if isinstance(p, ndarray) else (isinstance(p, float) and p != p)


def check_constraint(p, name, cons):
    """Validate a parameter from ``as_param`` like NumPy's check_constraint /
    check_array_constraint: same conditions, same NaN handling, same messages."""
    if cons == CONS_NONE:
        return
    arr = isinstance(p, ndarray)
    if arr and p.size == 0:
        return
    # NumPy words the NaN case differently for scalar and array parameters.
    nan_words = "contains NaNs" if arr else "is NaN"
    if cons == CONS_NON_NEGATIVE:
        if arr:
            bad = uf.logical_and(uf.logical_not(uf.isnan(p)), uf.signbit(p))
        else:
            bad = p == p and numpy.signbit(p)
        check(bad, name + " < 0")
    elif cons == CONS_NON_NEGATIVE_INT:
        check(uf.less(p, 0) if arr else p < 0, name + " < 0")
    elif cons in (CONS_POSITIVE, CONS_POSITIVE_NOT_NAN):
        if cons == CONS_POSITIVE_NOT_NAN:
            check(_isnan(p), name + " must not be NaN")
        check(uf.less_equal(p, 0) if arr else p <= 0, name + " <= 0")
    elif cons == CONS_BOUNDED_0_1:
        check(_not_all(p, lambda q: uf.logical_and(uf.greater_equal(q, 0), uf.less_equal(q, 1)),
                       lambda q: 0 <= q <= 1), "%s < 0, %s > 1 or %s %s" % (name, name, name, nan_words))
    elif cons == CONS_BOUNDED_GT_0_1:
        check(_not_all(p, lambda q: uf.logical_and(uf.greater(q, 0), uf.less_equal(q, 1)),
                       lambda q: 0 < q <= 1), "%s <= 0, %s > 1 or %s contains NaNs" % (name, name, name))
    elif cons == CONS_BOUNDED_LT_0_1:
        check(_not_all(p, lambda q: uf.logical_and(uf.greater_equal(q, 0), uf.less(q, 1)),
                       lambda q: 0 <= q < 1), "%s < 0, %s >= 1 or %s %s" % (name, name, name, nan_words))
    elif cons == CONS_GT_1:
        check(_not_all(p, lambda q: uf.greater(q, 1), lambda q: q > 1), "%s <= 1 or %s %s" % (name, name, nan_words))
    elif cons == CONS_GTE_1:
        check(_not_all(p, lambda q: uf.greater_equal(q, 1), lambda q: q >= 1),
              "%s < 1 or %s %s" % (name, name, nan_words))
    elif cons == CONS_POISSON:
        if arr:
            # NumPy's array check tests "< 0" first, so NaN reaches the second test.
            check(uf.less(p, 0), "%s < 0 or %s contains NaNs" % (name, name))
            check(uf.logical_not(uf.less_equal(p, POISSON_LAM_MAX)), "%s value too large" % name)
        else:
            check(not p >= 0, "%s < 0 or %s is NaN" % (name, name))
            check(p > POISSON_LAM_MAX, "%s value too large" % name)
    else:
        raise ValueError("unknown constraint %r" % (cons,))


def _not_all(p, ok_array, ok_scalar):
    if isinstance(p, ndarray):
        return uf.logical_not(ok_array(p))
    return not ok_scalar(p)


def output_shape(size, *params):
    """The result shape NumPy's Generator gives: the broadcast of the
    parameters' shapes, or ``size``, which the parameters must broadcast to
    (NumPy's messages for both failures)."""
    size = normalize_size(size)
    shapes = [param_shape(p) for p in params]
    if size is None:
        return tuple(numpy.broadcast_shapes(*shapes)) if shapes else ()
    if not shapes or all(s == () for s in shapes):
        return size
    bshape = tuple(numpy.broadcast_shapes(size, *shapes))
    if bshape != size:
        raise ValueError("Output size %s is not compatible with broadcast dimensions of inputs %s."
                         % (size, bshape))
    return size


def broadcast_param(p, shape):
    """A kumo array parameter broadcast (as a view) to ``shape``; scalars pass through."""
    if is_scalar(p):
        return p
    return _manipulation.broadcast_to(p, shape) if tuple(p.shape) != tuple(shape) else p


def empty(bg, shape, dtype=numpy.float64):
    """An uninitialised kumo array on the generator's device."""
    with _device_of(bg):
        return _core.empty(tuple(shape), numpy.dtype(dtype), "C")


def float_dtype(dtype, name):
    """``dtype=`` of standard_normal/standard_exponential/standard_gamma/random:
    float64 or float32, else TypeError with NumPy's message."""
    dt = numpy.dtype(dtype)
    if dt not in (numpy.dtype(numpy.float64), numpy.dtype(numpy.float32)):
        raise TypeError("Unsupported dtype %r for %s" % (dt, name))
    return dt


def check_out(out, size, dtype, require_c=True):
    """Validate ``out=`` as NumPy does for the float samplers: a writeable
    array of the requested dtype, C-contiguous (``require_c``; standard_gamma)
    or C- or F-contiguous (the fill functions: standard_exponential,
    standard_normal, random), whose shape matches ``size`` when both are
    given. Returns the shape to draw."""
    if not isinstance(out, ndarray):
        raise TypeError("out must be a kumo.ndarray, got %s" % type(out).__name__)
    if out.dtype != dtype:
        raise TypeError("Supplied output array has the wrong type. Expected %s, got %s" % (dtype, out.dtype))
    if require_c:
        if not (out._c_contiguous and out.flags.writeable):
            raise ValueError("Supplied output array must be C-contiguous, writable, aligned, and in machine "
                             "byte-order.")
    elif not ((out._c_contiguous or out._f_contiguous) and out.flags.writeable):
        raise ValueError("Supplied output array must be contiguous, writable, aligned, and in machine byte-order.")
    size = normalize_size(size)
    if size is not None and tuple(size) != tuple(out.shape):
        raise ValueError("size must match out.shape when used together")
    return tuple(out.shape)
