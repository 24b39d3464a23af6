"""Initializers (Chainer's ``chainer.initializers``): callables that fill a
kumo array in place, used by ``Parameter`` and the links.

``init(array)`` overwrites ``array`` on its own device; ``generate_array``
creates and fills a new one. The random ones draw from ``kumo.random`` on the
array's device, so a seed set with ``kumo.random.seed`` makes them
reproducible.
"""
import numbers

import numpy

from kumo import _core
from kumo import _creation
from kumo import _device
from kumo import _interop
from kumo import _misc
from kumo import _ufuncs as uf
from kumo import linalg as _linalg
from kumo import random as _random


__all__ = ["Initializer", "Constant", "Zero", "One", "NaN", "Identity", "Normal", "LeCunNormal", "GlorotNormal",
           "HeNormal", "Uniform", "LeCunUniform", "GlorotUniform", "HeUniform", "Orthogonal", "generate_array",
           "get_fans"]


def _is_array(x):
    return isinstance(x, (_core.ndarray, numpy.ndarray))


def _device_of(array):
    return _device.Device(str(array.device)) if isinstance(array, _core.ndarray) else _device.Device("cpu")


def _check_dtype(init, array):
    if init.dtype is not None and numpy.dtype(array.dtype) != numpy.dtype(init.dtype):
        raise ValueError("the initializer's dtype %s differs from the array's %s" %
                         (numpy.dtype(init.dtype), numpy.dtype(array.dtype)))


def _assign(array, values):
    """array[...] = values on array's device, cast to its dtype."""
    if isinstance(array, _core.ndarray):
        values = _creation.asarray(values, device=str(array.device))  # copies only across devices
        array[...] = values.astype(array.dtype, copy=False)
    else:
        array[...] = numpy.asarray(_interop.asnumpy(values) if isinstance(values, _core.ndarray) else values,
                                   dtype=array.dtype)


def get_fans(shape):
    """(fan_in, fan_out) of a weight of this shape: shape[1] and shape[0]
    times the product of the remaining (receptive field) dimensions."""
    if not isinstance(shape, tuple):
        raise ValueError("shape must be tuple. Actual type: {}".format(type(shape)))
    if len(shape) < 2:
        raise ValueError("shape must be of length >= 2. Actual shape: {}".format(shape))
    receptive = 1
    for d in shape[2:]:
        receptive *= int(d)
    return shape[1] * receptive, shape[0] * receptive


class Initializer:
    """Base class: subclasses implement ``__call__(array)``; ``dtype`` (None
    for any) is the dtype the initializer insists on."""

    def __init__(self, dtype=None):
        self.dtype = None if dtype is None else numpy.dtype(dtype)

    def __call__(self, array):
        raise NotImplementedError()


class _Constant(Initializer):
    fill_value = None

    def __init__(self, dtype=None):
        if not (_is_array(self.fill_value) or numpy.isscalar(self.fill_value)):
            raise ValueError("fill_value must be either scalar, numpy.ndarray or kumo.ndarray.")
        super().__init__(dtype)

    def __call__(self, array):
        _check_dtype(self, array)
        _assign(array, self.fill_value)


class Constant(_Constant):
    """Fills with ``fill_value`` (a scalar or an array broadcast to the shape)."""

    def __init__(self, fill_value, dtype=None):
        self.fill_value = fill_value
        super().__init__(dtype)


class Zero(_Constant):
    """Fills with 0."""
    fill_value = 0


class One(_Constant):
    """Fills with 1."""
    fill_value = 1


class NaN(_Constant):
    """Fills with NaN (to catch parameters that are used before being set)."""
    fill_value = numpy.nan


class Identity(Initializer):
    """``scale`` times the identity; the array must be a square matrix."""

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        _check_dtype(self, array)
        shape = array.shape
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError("Identity matrix initialization can only be used for 2D squared matrices.")
        with _device_of(array):
            _assign(array, _creation.identity(shape[0]) * self.scale)


def _rng_kwarg(name, kwargs):
    rng = kwargs.pop("rng", None)
    if kwargs:
        raise TypeError("%s got unexpected keyword arguments: %s" % (name, ", ".join(sorted(kwargs))))
    return rng


class _Random(Initializer):
    """Draws from a distribution with a parameter computed from the shape;
    ``rng`` (a numpy.random.RandomState or Generator) draws on the host
    instead of kumo.random."""

    def __init__(self, dtype, kwargs):
        self.rng = _rng_kwarg(type(self).__name__, dict(kwargs))
        super().__init__(dtype)

    def _param(self, shape):
        raise NotImplementedError()

    def _draw(self, xp_random, param, shape):
        raise NotImplementedError()

    def __call__(self, array):
        _check_dtype(self, array)
        param = self._param(tuple(array.shape))
        if self.rng is not None:
            _assign(array, self._draw(self.rng, param, tuple(array.shape)))
        else:
            with _device_of(array):
                _assign(array, self._draw(_random, param, tuple(array.shape)))


class _NormalBase(_Random):
    def _draw(self, r, std, shape):
        return r.normal(0.0, std, shape)


class _UniformBase(_Random):
    def _draw(self, r, bound, shape):
        return r.uniform(-bound, bound, shape)


class Normal(_NormalBase):
    """Normal with mean 0 and standard deviation ``scale``."""

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, kwargs)

    def _param(self, shape):
        return self.scale


class LeCunNormal(_NormalBase):
    """Normal with standard deviation ``scale * sqrt(1 / fan_in)``."""

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, kwargs)

    def _param(self, shape):
        fan_in, _ = get_fans(shape)
        return self.scale * numpy.sqrt(1.0 / fan_in)


class GlorotNormal(_NormalBase):
    """Normal with standard deviation ``scale * sqrt(2 / (fan_in + fan_out))``."""

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, kwargs)

    def _param(self, shape):
        fan_in, fan_out = get_fans(shape)
        return self.scale * numpy.sqrt(2.0 / (fan_in + fan_out))


def _fan(option, shape):
    fan_in, fan_out = get_fans(shape)
    if option == "fan_in":
        return fan_in
    if option == "fan_out":
        return fan_out
    raise ValueError("fan_option should be either 'fan_in' or 'fan_out'.")


class HeNormal(_NormalBase):
    """Normal with standard deviation ``scale * sqrt(2 / fan)``, fan being
    fan_in or fan_out as ``fan_option`` says."""

    def __init__(self, scale=1.0, dtype=None, fan_option="fan_in", **kwargs):
        self.scale = scale
        self.fan_option = fan_option
        super().__init__(dtype, kwargs)

    def _param(self, shape):
        return self.scale * numpy.sqrt(2.0 / _fan(self.fan_option, shape))


class Uniform(_UniformBase):
    """Uniform on [-scale, scale)."""

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, kwargs)

    def _param(self, shape):
        return self.scale


class LeCunUniform(_UniformBase):
    """Uniform on [-s, s), s = ``scale * sqrt(3 / fan_in)``."""

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, kwargs)

    def _param(self, shape):
        fan_in, _ = get_fans(shape)
        return self.scale * numpy.sqrt(3.0 / fan_in)


class GlorotUniform(_UniformBase):
    """Uniform on [-s, s), s = ``scale * sqrt(6 / (fan_in + fan_out))``."""

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, kwargs)

    def _param(self, shape):
        fan_in, fan_out = get_fans(shape)
        return self.scale * numpy.sqrt(6.0 / (fan_in + fan_out))


class HeUniform(_UniformBase):
    """Uniform on [-s, s), s = ``scale * sqrt(6 / fan_in)``."""

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, kwargs)

    def _param(self, shape):
        fan_in, _ = get_fans(shape)
        return self.scale * numpy.sqrt(6.0 / fan_in)


# mode -> (the rows must be orthonormal, the columns must be orthonormal):
# which of "more inputs than outputs" / "fewer inputs than outputs" is refused.
_ORTHOGONAL_MODES = {"auto": (False, False), "projection": (False, True), "embedding": (True, False),
                     "basis": (True, True)}


class Orthogonal(Initializer):
    """A random orthogonal matrix times ``scale``: the array is read as
    (len(array), size // len(array)); its rows (or columns, whichever are
    fewer) come out orthonormal. ``mode`` ('auto', 'projection', 'embedding',
    'basis') refuses the shapes where that is not possible as asked."""

    def __init__(self, scale=1.1, dtype=None, mode="auto", **kwargs):
        self.scale = scale
        self.mode = mode
        self.rng = _rng_kwarg("Orthogonal", dict(kwargs))
        if mode not in _ORTHOGONAL_MODES:
            raise ValueError("Invalid mode: {}. Choose from {}.".format(
                repr(mode), ", ".join(repr(m) for m in _ORTHOGONAL_MODES)))
        self._checks = _ORTHOGONAL_MODES[mode]
        super().__init__(dtype)

    def __call__(self, array):
        _check_dtype(self, array)
        shape = tuple(array.shape)
        r = self.rng if self.rng is not None else _random
        with _device_of(array):
            if not shape:  # a random sign
                _assign(array, self.scale * (2 * int(r.randint(2)) - 1))
                return
            if array.size == 0:
                raise ValueError("Array to be initialized must be non-empty.")
            out_dim = shape[0]
            in_dim = int(numpy.prod(shape[1:], dtype=numpy.int64))
            if (in_dim > out_dim and self._checks[0]) or (in_dim < out_dim and self._checks[1]):
                raise ValueError("Cannot make orthogonal {}. shape = {}, interpreted as {}-dim input and {}-dim "
                                 "output.".format(self.mode, shape, in_dim, out_dim))
            transpose = in_dim > out_dim
            a = _creation.asarray(r.normal(size=(out_dim, in_dim)))
            if transpose:
                a = a.T
            # Q of a Gaussian matrix is Haar-distributed once the signs of
            # R's diagonal are folded into it.
            q, rr = _linalg.qr(a)
            q = q * uf.copysign(_creation.asarray(self.scale, dtype=q.dtype), _misc.diagonal(rr))
            if transpose:
                q = q.T
            _assign(array, q.reshape(shape))


def generate_array(initializer, shape, xp=None, dtype=None, device=None):
    """A new array of ``shape`` filled by ``initializer`` (float32 unless
    ``dtype`` or the initializer's dtype say otherwise; on ``device``)."""
    dtype_attr = getattr(initializer, "dtype", None)
    if dtype is not None and dtype_attr is not None and numpy.dtype(dtype) != numpy.dtype(dtype_attr):
        raise ValueError("dtype mismatch: {} != {}".format(dtype, dtype_attr))
    if dtype is None:
        dtype = dtype_attr
    dtype = numpy.dtype(numpy.float32 if dtype is None else dtype)
    if xp is numpy:
        array = numpy.empty(shape, dtype=dtype)
    else:
        array = _creation.empty(shape, dtype=dtype, device=None if device is None else str(device))
    initializer(array)
    return array


def _get_initializer(initializer):
    """None -> LeCunNormal(), a scalar or an array -> Constant, a callable as it is."""
    if initializer is None:
        return LeCunNormal()
    # Strings, though NumPy scalars, cannot fill a numeric array.
    if _is_array(initializer) or isinstance(initializer, (numbers.Number, numpy.generic)):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError("invalid type of initializer: %s" % type(initializer))
    return initializer
