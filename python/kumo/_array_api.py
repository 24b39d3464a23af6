"""The array API standard's inspection and data-type names on the kumo
namespace: ``__array_api_version__``, ``__array_namespace_info__``,
``astype`` and ``isdtype``'s companions.

``kumo`` itself follows NumPy 2.4 and so declares the standard version NumPy
does; ``kumo.array_api`` (what ``ndarray.__array_namespace__()`` returns) is
the same namespace where the standard and NumPy disagree resolved in the
standard's favour.
"""
import numpy

from kumo import _core
from kumo import cuda
from kumo._device import Device, get_device

ndarray = _core.ndarray

__array_api_version__ = "2024.12"

# What each dtype kind of __array_namespace_info__().dtypes(kind=...) holds:
# the standard's dtypes (float16 is not one of them).
_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]
_ALL = _KINDS["bool"] + _KINDS["numeric"]


def _available_devices():
    devices = [Device("cpu")]
    if cuda.is_available():
        devices += [Device("cuda", i) for i in range(cuda.get_device_count())]
    return devices


def _check_device(device):
    """A device argument of the inspection functions: None, a kumo.Device or
    its name, and one this process has."""
    if device is None:
        return
    d = device if isinstance(device, Device) else Device(device)
    if d not in _available_devices():
        raise ValueError("device %s is not available (the devices are %s)" %
                         (d, ", ".join(str(x) for x in _available_devices())))


class ArrayNamespaceInfo:
    """The standard's inspection object (``__array_namespace_info__()``).

    Every device kumo runs on supports every dtype of the standard, so the
    answers depend on the device only in that it has to exist.
    """

    def __init__(self, devices_as_tuple=False):
        self._devices_as_tuple = devices_as_tuple

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 32}

    def default_device(self):
        return get_device()

    def default_dtypes(self, *, device=None):
        _check_device(device)
        return {"real floating": numpy.dtype(numpy.float64), "complex floating": numpy.dtype(numpy.complex128),
                "integral": numpy.dtype(numpy.int64), "indexing": numpy.dtype(numpy.int64)}

    def dtypes(self, *, device=None, kind=None):
        _check_device(device)
        if kind is None:
            names = _ALL
        elif isinstance(kind, str):
            if kind not in _KINDS:
                raise ValueError("unsupported kind %r; the kinds are %s" % (kind, ", ".join(map(repr, _KINDS))))
            names = _KINDS[kind]
        elif isinstance(kind, tuple):
            out = {}
            for k in kind:
                out.update(self.dtypes(device=device, kind=k))
            return out
        else:
            raise ValueError("unsupported kind %r: a kind name or a tuple of them" % (kind,))
        return {n: numpy.dtype(n) for n in names}

    def devices(self):
        d = _available_devices()
        return tuple(d) if self._devices_as_tuple else d

    def __repr__(self):
        return "kumo.__array_namespace_info__()"


def __array_namespace_info__():
    return ArrayNamespaceInfo()


def astype(x, dtype, /, *, copy=True, device=None):
    """The standard's astype: ``x`` cast to ``dtype`` (a new array unless
    copy=False finds nothing to do), on ``device`` when given."""
    if not isinstance(x, ndarray):
        raise TypeError("Input should be a kumo array, got %s" % type(x).__name__)
    r = x.astype(dtype, copy=copy)
    if device is not None:
        d = device if isinstance(device, Device) else Device(device)
        if r.device != d:
            if copy is False:
                raise ValueError("Unable to avoid copy while casting: the array is on %s, device=%s was asked" %
                                 (x.device, d))
            r = r.to_device(d)
    return r


__all__ = ["astype", "__array_namespace_info__"]
