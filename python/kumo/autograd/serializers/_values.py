"""Moving values between kumo objects and what a file stores."""
import numbers

import numpy

from kumo import _core
from kumo import _creation
from kumo import _interop
from kumo.autograd._variable import Variable


def to_host(value):
    """A value as a file stores it: NumPy for arrays and Python scalars."""
    if isinstance(value, Variable):
        value = value.array
    if isinstance(value, _core.ndarray):
        return _interop.asnumpy(value)
    return numpy.asarray(value)


def is_none(stored):
    """Whether a stored value is Chainer's None marker (a 0-d object array holding None)."""
    return isinstance(stored, numpy.ndarray) and stored.dtype == object and stored.shape == () and stored[()] is None


def restore(stored, value, key):
    """The loaded counterpart of ``value`` from ``stored``: copied into
    ``value`` when it is an array, converted to its type when it is a Python
    scalar or string, ``stored`` itself when ``value`` is None."""
    if is_none(stored):
        return None
    if value is None:
        # What Chainer's deserializers give for an unset value: a NumPy array
        # (code written for Chainer tests isinstance(v, numpy.ndarray)).
        return _interop.asnumpy(stored) if isinstance(stored, _core.ndarray) else stored
    target = value.array if isinstance(value, Variable) else value
    if isinstance(target, _core.ndarray):
        data = _interop.asnumpy(stored) if isinstance(stored, _core.ndarray) else numpy.asarray(stored)
        if data.shape != target.shape:
            raise ValueError("cannot load %r: the file has shape %s, the target has shape %s"
                             % (key, data.shape, target.shape))
        target[...] = _creation.asarray(data.astype(target.dtype, copy=False), device=target.device)
        return value
    if isinstance(target, numpy.ndarray):
        numpy.copyto(target, _interop.asnumpy(stored) if isinstance(stored, _core.ndarray) else stored)
        return value
    data = _interop.asnumpy(stored) if isinstance(stored, _core.ndarray) else numpy.asarray(stored)
    kind = type(value)
    # A number must fit the Python type it replaces (Chainer's rule): an
    # integer into an int, anything real into a float, never float -> int.
    if (issubclass(data.dtype.type, numpy.number) and isinstance(value, numbers.Number)
            and not (issubclass(data.dtype.type, numpy.integer) and kind is int)
            and not numpy.can_cast(data.dtype, kind, casting="safe")):
        raise TypeError("cannot safely load %r of dtype %s into a %s" % (key, data.dtype, kind.__name__))
    return kind(data[()] if data.shape == () else data)
