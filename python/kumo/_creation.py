"""Array creation routines (numpy.* names)."""
import operator

import numpy

from kumo import _core
from kumo._device import Device
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


def _on(device):
    """``device=`` of the creation functions: the call runs with that device
    current (a kumo.Device, "cpu", "cuda" or "cuda:N")."""
    return device if isinstance(device, Device) else Device(device)


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None, *, device=None):
    """Create an array (always a new one unless copy=False/None allows reuse)."""
    if device is not None:
        if isinstance(obj, ndarray):
            return _to_device(array(obj, dtype=dtype, copy=copy, order=order, ndmin=ndmin), device, obj, copy)
        with _on(device):
            return array(obj, dtype=dtype, copy=copy, order=order, ndmin=ndmin)
    if isinstance(obj, ndarray):
        a = obj
        if order == "A":  # F for an F-contiguous array that is not also C-contiguous, else C
            order = "F" if a._f_contiguous and not a._c_contiguous else "C"
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
    host = numpy.array(_to_host_nested(obj), dtype=dtype, order="C" if order is None else order, ndmin=ndmin)
    _check_dtype(host.dtype)
    return _from_host_keeping_layout(host)


def _from_host_keeping_layout(host):
    """A kumo copy of a NumPy array with its memory layout (F order, a
    transposition), as NumPy's order='K' copy keeps it."""
    if host.ndim < 2 or host.flags.c_contiguous:
        return _core.from_numpy(host)
    perm = sorted(range(host.ndim), key=lambda d: -abs(host.strides[d]))
    inner = host.transpose(perm)
    if not inner.flags.c_contiguous:
        return _core.from_numpy(host)
    inverse = [0] * host.ndim
    for k, d in enumerate(perm):
        inverse[d] = k
    return _core.from_numpy(inner).transpose(inverse)


def _to_host_nested(obj):
    """Lists may hold kumo arrays (e.g. [kumo.array(1), 2]); bring them to the host."""
    if isinstance(obj, (list, tuple)) and any(isinstance(x, (ndarray, list, tuple)) for x in obj):
        return type(obj)(_to_host_nested(x) for x in obj)
    if isinstance(obj, ndarray):
        return _core.to_numpy(obj)
    return obj


def _to_device(result, device, source, copy):
    """``result`` (made from the kumo array ``source``) on ``device``: copied
    there when it lives elsewhere, which copy=False does not allow."""
    target = _on(device)
    if result.device == target:
        return result
    if copy is False:
        raise ValueError("Unable to avoid copy while creating an array as requested: the array is on %s, "
                         "device=%s was asked" % (source.device, target))
    return result.to_device(target)


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    if device is not None:
        if isinstance(a, ndarray):
            return _to_device(asarray(a, dtype, order, copy=copy), device, a, copy)
        with _on(device):
            return asarray(a, dtype, order, copy=copy)
    if isinstance(a, ndarray) and (dtype is None or numpy.dtype(dtype) == a.dtype):
        if copy:
            if order == "A":
                order = "F" if a._f_contiguous and not a._c_contiguous else "C"
            return a.copy(order="K" if order in (None, "K") else order)
        if order == "C" and not a._c_contiguous:
            return a.copy(order="C")
        if order == "F" and not a._f_contiguous:
            return a.copy(order="F")
        return a
    if order == "A" and isinstance(a, numpy.ndarray) and (dtype is None or numpy.dtype(dtype) == a.dtype):
        order = "K"  # NumPy's asarray returns such an array as it is, layout included
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


def empty(shape, dtype=float, order="C", *, device=None, like=None):
    if device is not None:
        with _on(device):
            return empty(shape, dtype, order)
    return _core.empty(_shape_tuple(shape), _default_dtype(dtype), _order_char(order))


def zeros(shape, dtype=float, order="C", *, device=None, like=None):
    if device is not None:
        with _on(device):
            return zeros(shape, dtype, order)
    return _core.zeros(_shape_tuple(shape), _default_dtype(dtype), _order_char(order))


def ones(shape, dtype=float, order="C", *, device=None, like=None):
    if device is not None:
        with _on(device):
            return ones(shape, dtype, order)
    return _core.ones(_shape_tuple(shape), _default_dtype(dtype), _order_char(order))


def _fill_operand(value):
    """Python scalars stay weak; kumo arrays as they are; anything else (NumPy
    scalars, lists) becomes an array carrying its own dtype."""
    if isinstance(value, (bool, int, float, complex, ndarray)):
        return value
    return asarray(value)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        with _on(device):
            return full(shape, fill_value, dtype, order)
    d = None if dtype is None else _check_dtype(dtype)
    return _core.full(_shape_tuple(shape), _fill_operand(fill_value), d, _order_char(order))


def _like_args(dtype, order, shape):
    d = None if dtype is None else _check_dtype(dtype)
    return d, _order_char(order), None if shape is None else _shape_tuple(shape)


def _like_elsewhere(make, a, dtype, order, shape, device):
    """A *_like result on a device other than the prototype's: the prototype's
    shape, dtype and layout (C or F) made there."""
    a = asarray(a)
    layout = "F" if order == "F" or (order in ("A", "K") and a._f_contiguous and not a._c_contiguous) else "C"
    with _on(device):
        return make(a.shape if shape is None else shape, a.dtype if dtype is None else dtype, layout)


def empty_like(prototype, dtype=None, order="K", subok=None, shape=None, *, device=None):
    if device is not None and asarray(prototype).device != _on(device):
        return _like_elsewhere(empty, prototype, dtype, order, shape, device)
    return _core.empty_like(asarray(prototype), *_like_args(dtype, order, shape))


def zeros_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    if device is not None and asarray(a).device != _on(device):
        return _like_elsewhere(zeros, a, dtype, order, shape, device)
    return _core.zeros_like(asarray(a), *_like_args(dtype, order, shape))


def ones_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    if device is not None and asarray(a).device != _on(device):
        return _like_elsewhere(ones, a, dtype, order, shape, device)
    return _core.ones_like(asarray(a), *_like_args(dtype, order, shape))


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None, *, device=None):
    if device is not None and asarray(a).device != _on(device):
        return _like_elsewhere(lambda s, d, o: full(s, fill_value, d, o), a, dtype, order, shape, device)
    return _core.full_like(asarray(a), _fill_operand(fill_value), *_like_args(dtype, order, shape))


def copy(a, order="K", subok=False):
    return asarray(a).copy(order=order)


def _python_scalar(v):
    """A Python number for arange's bounds; NumPy scalars give theirs via item()."""
    if isinstance(v, ndarray):
        raise TypeError("arange() arguments must be scalars")
    if isinstance(v, (bool, int, float, complex)):
        return v
    return numpy.asarray(v)[()].item()


def arange(start, stop=None, step=None, dtype=None, *, device=None, like=None):
    """Evenly spaced values within [start, stop)."""
    if device is not None:
        with _on(device):
            return arange(start, stop, step, dtype)
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    args = (start, stop, step)
    if dtype is not None:
        d = _check_dtype(dtype)
    elif all(isinstance(v, (bool, int, float, complex)) for v in args):
        d = None  # inferred in C++ from the kinds of the Python numbers
    else:
        # With a NumPy scalar among them, numpy.arange promotes every argument
        # as strong, Python numbers at their default dtypes.
        d = numpy.result_type(*[numpy.asarray(v).dtype if not isinstance(v, (int, float, complex)) else
                                numpy.dtype(int) if isinstance(v, int) else
                                numpy.dtype(float) if isinstance(v, float) else numpy.dtype(complex)
                                for v in args])
    return _core.arange(*[_python_scalar(v) for v in args], d)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    if device is not None:
        with _on(device):
            return linspace(start, stop, num, endpoint, retstep, dtype, axis)
    num = operator.index(num)
    d = None if dtype is None else _check_dtype(dtype)
    r = _core.linspace(_fill_operand(start), _fill_operand(stop), num, bool(endpoint), bool(retstep), d,
                       operator.index(axis))
    if retstep:
        y, step = r
        if (num - 1 if endpoint else num) <= 0:
            step = float("nan")  # no interval: numpy.linspace gives a Python float
        elif step.ndim == 0:
            step = _core.to_numpy(step)[()]  # a NumPy scalar, as numpy.linspace returns
        return y, step
    return r


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    if device is not None:
        with _on(device):
            return eye(N, M, k, dtype, order)
    return _core.eye(operator.index(N), None if M is None else operator.index(M), operator.index(k),
                     _default_dtype(dtype), _order_char(order))


def identity(n, dtype=float, *, device=None, like=None):
    return eye(n, dtype=dtype, device=device)


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


__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "empty", "zeros", "ones",
           "full", "empty_like", "zeros_like", "ones_like", "full_like", "copy", "arange", "linspace", "eye",
           "identity", "diag", "diagflat"]
