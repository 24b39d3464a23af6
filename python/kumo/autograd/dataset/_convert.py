"""Converters: turn a list of examples into batched kumo arrays and move them
to a device (Chainer's ``concat_examples``, ``to_device``, ``Converter``).

Batches always come back as kumo arrays: on the host ("cpu"/None with NumPy
examples) or on the requested device. Host-to-CUDA copies go through kumo's
pinned host memory pool, so the DMA engine reads page-locked memory.
"""
import ctypes
import numbers

import numpy

from kumo import _core
from kumo import _creation
from kumo import _interop
from kumo import _manipulation
from kumo._device import Device
from kumo._namespace import package


class _ConverterDevice(Device):
    """The device a converter receives: a kumo.Device that can also ``send``
    arrays there, like Chainer's ``backend.Device``."""

    @property
    def xp(self):
        return package()  # the array module: kumo itself, on every device

    def send(self, arrays):
        return to_device(self, arrays)


def get_device(device_spec):
    """The device named by a Chainer-style specifier, or None for None.

    Accepted: a kumo.Device; an int (negative: the CPU, otherwise that CUDA
    device); 'cpu', 'cuda', 'cuda:N'; Chainer's '@numpy', '@intel64',
    '@cupy:N', 'native', 'native:0'.
    """
    if device_spec is None:
        return None
    if isinstance(device_spec, Device):
        return _ConverterDevice(device_spec.type, device_spec.index)
    if isinstance(device_spec, (bool, numpy.bool_)):
        raise TypeError("invalid device specifier: %r" % (device_spec,))
    if isinstance(device_spec, (numbers.Integral, numpy.integer)):
        i = int(device_spec)
        return _ConverterDevice("cpu") if i < 0 else _ConverterDevice("cuda", i)
    if isinstance(device_spec, str):
        spec = device_spec
        if spec in ("@numpy", "@intel64", "native", "native:0"):
            return _ConverterDevice("cpu")
        if spec.startswith("@cupy:"):
            idx = spec[len("@cupy:"):]
            if not idx.isdigit():
                raise ValueError("invalid device specifier: %r" % (device_spec,))
            return _ConverterDevice("cuda", int(idx))
        if spec == "cpu" or spec == "cuda" or (spec.startswith("cuda:") and spec[5:].isdigit()):
            return _ConverterDevice(spec)
        raise ValueError("invalid device specifier: %r" % (device_spec,))
    raise TypeError("invalid device specifier: %r" % (device_spec,))


def _pinned_to_cuda(a, device):
    """Copies a NumPy array to a CUDA device through a pinned staging buffer."""
    if a.nbytes == 0:
        return _creation.asarray(a, device=device.name)
    # The pool as kumo's namespace names it, so one that replaces it there is used.
    mem = package().get_default_pinned_memory_pool().malloc(a.nbytes)
    # A NumPy view of the pinned block; the copy to the device is synchronous
    # (the core waits on the stream), so the block can go back to the pool as
    # soon as asarray returns.
    raw = (ctypes.c_ubyte * a.nbytes).from_address(mem.ptr)
    staged = numpy.frombuffer(raw, dtype=a.dtype, count=a.size).reshape(a.shape)
    numpy.copyto(staged, a, casting="no")
    out = _creation.array(staged, device=device.name)  # always a copy: the block is reused
    del staged, raw, mem
    return out


def _send(x, device):
    if x is None:
        return None
    if isinstance(x, _core.ndarray):
        if x.device == device:
            return x
        if device.type == "cuda" and x.device == "cpu":
            # Host batches (stacked from kumo host arrays) take the pinned path too.
            _core.check_device(device.name)
            return _pinned_to_cuda(_interop.asnumpy(x), device)
        return x.to_device(device)
    if isinstance(x, (numpy.ndarray, numpy.generic)):
        a = numpy.asarray(x)
        if device.type == "cuda":
            _core.check_device(device.name)  # a clear error when CUDA is unavailable
            return _pinned_to_cuda(a, device)
        return _creation.asarray(a)
    if isinstance(x, tuple):
        return tuple(_send(v, device) for v in x)
    if isinstance(x, list):
        return [_send(v, device) for v in x]
    if isinstance(x, dict):
        return {k: _send(v, device) for k, v in x.items()}
    raise TypeError("to_device expects NumPy or kumo arrays (or tuples, lists, dicts of them), got %s"
                    % type(x).__name__)


def to_device(device, x):
    """Sends ``x`` (an array, or a tuple/list/dict of arrays) to ``device``.

    None leaves ``x`` as it is; any other specifier (see :func:`get_device`)
    gives kumo arrays on that device (NumPy arrays become kumo arrays).
    """
    device = get_device(device)
    if device is None:
        return x
    return _send(x, device)


class Converter:
    """Base class of converters: ``converter(batch, device)`` returns the
    batch converted and placed on ``device`` (a kumo.Device or None)."""

    def __call__(self, batch, device):
        raise NotImplementedError("Concrete class must implement __call__.")


class _CallableConverter(Converter):
    """Wraps a function as a Converter; the device argument (second
    positional or ``device=``) is turned into a device object first."""

    def __init__(self, base_callable):
        if not callable(base_callable):
            raise TypeError("Can only wrap a callable. Actual: {}".format(type(base_callable)))
        self.base_callable = base_callable

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            args = list(args)
            args[1] = get_device(args[1])
        elif "device" in kwargs:
            kwargs["device"] = get_device(kwargs["device"])
        return self.base_callable(*args, **kwargs)


def converter():
    """Decorator making a function ``f(batch, device)`` a :class:`Converter`."""

    def wrap(func):
        return _CallableConverter(func)

    return wrap


def _is_array(x):
    return isinstance(x, (numpy.ndarray, _core.ndarray))


def _concat_arrays(arrays, padding):
    if not _is_array(arrays[0]):
        arrays = numpy.asarray(arrays)
    on_kumo = isinstance(arrays, list) and any(isinstance(a, _core.ndarray) for a in arrays)
    if padding is None:
        if on_kumo:
            return _manipulation.stack(arrays)
        return _creation.asarray(numpy.stack(list(arrays)) if isinstance(arrays, list) else arrays)
    shape = tuple(arrays[0].shape)
    for a in arrays[1:]:
        if len(a.shape) != len(shape):
            raise ValueError("padding needs examples of the same number of dimensions, got shapes %s and %s"
                             % (tuple(arrays[0].shape), tuple(a.shape)))
        shape = tuple(max(s, t) for s, t in zip(shape, a.shape))
    full = _creation.full if on_kumo else numpy.full
    kw = {"device": arrays[0].device} if on_kumo and isinstance(arrays[0], _core.ndarray) else {}
    result = full((len(arrays),) + shape, padding, dtype=arrays[0].dtype, **kw)
    for i, src in enumerate(arrays):
        result[(i,) + tuple(slice(n) for n in src.shape)] = src
    return result if on_kumo else _creation.asarray(result)


def _concat_examples(batch, device=None, padding=None):
    if not batch:
        raise ValueError("batch is empty")
    first = batch[0]
    if isinstance(first, tuple):
        if not isinstance(padding, tuple):
            padding = [padding] * len(first)
        return tuple(to_device(device, _concat_arrays([ex[i] for ex in batch], padding[i]))
                     for i in range(len(first)))
    if isinstance(first, dict):
        if not isinstance(padding, dict):
            padding = {key: padding for key in first}
        return {key: to_device(device, _concat_arrays([ex[key] for ex in batch], padding[key])) for key in first}
    return to_device(device, _concat_arrays(batch, padding))


concat_examples = _CallableConverter(_concat_examples)
concat_examples.__doc__ = """concat_examples(batch, device=None, padding=None)

Stacks a list of examples along a new first axis: tuples of arrays give a
tuple of batched arrays, dicts a dict, arrays one array. Examples of
different shapes need ``padding`` (a scalar, or a tuple/dict per field): the
batch then has the largest extent on every axis, filled with it. The result
is made of kumo arrays, sent to ``device`` unless it is None.
"""
