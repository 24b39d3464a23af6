"""Interoperability: NumPy conversion, array-module dispatch, DLPack and the
NumPy override protocols."""
import numpy

from kumo import _core
from kumo import _ufuncs
from kumo import array_api
from kumo._namespace import package

ndarray = _core.ndarray


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    """A NumPy array with the data of `a` (a copy for kumo arrays)."""
    if isinstance(a, ndarray):
        return a.get(order=order, out=out)
    res = numpy.asarray(a, order=order)
    if out is not None:
        out[...] = res
        return out
    return res


def get_array_module(*args):
    """kumo if any argument is a kumo array, else numpy (CuPy's helper)."""
    for a in args:
        if isinstance(a, ndarray):
            return package()
    return numpy


_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13


def _consumer_stream(dl_device_type):
    """The ``stream`` a consumer passes to a producer's __dlpack__: None for
    host memory; for CUDA memory, kumo's current stream on the current device
    (DLPack's 1 stands for the legacy default stream, which kumo calls 0)."""
    if dl_device_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        return None
    handle = _core.cuda.get_current_stream().ptr
    return handle if handle != 0 else 1


def from_dlpack(x, /, *, device=None, copy=None):
    """A kumo array over the memory of any DLPack producer (NumPy, PyTorch,
    JAX, CuPy, a capsule): no copy unless ``copy=True``, or ``device=`` names
    another device. Host and CUDA producers are both understood."""
    if isinstance(x, ndarray):
        if device is not None and str(device) != str(x.device):
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested: the array is on %s, "
                                 "device=%s was asked" % (x.device, device))
            return x.to_device(device)
        return x.copy() if copy else x
    if type(x).__name__ == "PyCapsule":  # the legacy protocol: a capsule itself
        out = _core.dlpack.from_capsule(x)
    else:
        if not hasattr(x, "__dlpack__"):
            raise TypeError("object %r does not support the DLPack protocol" % type(x).__name__)
        dev_type, _ = x.__dlpack_device__()
        stream = _consumer_stream(dev_type)
        try:
            capsule = x.__dlpack__(stream=stream, max_version=_core.dlpack.version, copy=copy)
            producer_copied = bool(copy)
        except TypeError:  # a producer older than DLPack 1.0's keywords
            capsule = x.__dlpack__(stream=stream)
            producer_copied = False
        try:
            out = _core.dlpack.from_capsule(capsule)
        except BufferError:
            # Misaligned host memory: kumo's kernels need aligned elements.
            if copy is False or dev_type not in (_DL_CPU, _DL_CUDA_HOST):
                raise
            out, producer_copied = _core.from_numpy(numpy.from_dlpack(x, copy=True)), True
        if copy and not producer_copied:
            out = out.copy()
    if device is not None and str(device) != str(out.device):
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested: the data is on %s, "
                             "device=%s was asked" % (out.device, device))
        out = out.to_device(device)
    return out


def _dlpack_device(self):
    return _core.dlpack.device(self)


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """DLPack export over the array's own memory (host or CUDA), versioned
    when the consumer asks for DLPack 1.x. ``copy=True`` exports a copy;
    ``dl_device=(1, 0)`` exports a CUDA array's host copy."""
    here = _core.dlpack.device(self)
    if dl_device is not None and tuple(dl_device) != here:
        if tuple(dl_device) != (_DL_CPU, 0):
            raise BufferError("kumo can export a %s array to its own device %r or the CPU (1, 0), not %r"
                              % (self.device, here, tuple(dl_device)))
        if copy is False:
            raise BufferError("exporting to the CPU needs a copy, which copy=False forbids")
        self, copy = self.to_device("cpu"), True
    elif copy:
        self = self.copy()
    if here[0] == _DL_CPU or dl_device is not None:
        if stream is not None:
            raise BufferError("stream must be None for host arrays (got %r)" % (stream,))
    elif stream != -1:
        # The consumer reads on its own stream: the work queued so far must be done.
        self.device.synchronize()
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    if not versioned and not self._writeable:
        raise BufferError("Cannot export a read-only array through the legacy DLPack protocol, which cannot "
                          "signal read-only memory (ask for max_version >= (1, 0))")
    return _core.dlpack.to_capsule(self, versioned, bool(copy))


ndarray.__dlpack__ = _dlpack
ndarray.__dlpack_device__ = _dlpack_device


def _to_numpy_args(obj):
    if isinstance(obj, ndarray):
        return obj.get()
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_numpy_args(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_numpy_args(v) for k, v in obj.items()}
    return obj


_NUMPY_NOVALUE = getattr(numpy, "_NoValue", None)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """numpy.<ufunc>(kumo_array, ...) runs kumo's ufunc of the same name and returns kumo arrays."""
    # Looked up by name in the public namespace (kumo.matmul is a function of
    # kumo.linalg).
    kufunc = getattr(package(), ufunc.__name__, None)
    # NumPy's matmul family are gufuncs; kumo's are functions with the same
    # call signature (out=, dtype=, casting=), so only __call__ maps over.
    is_gufunc = method == "__call__" and ufunc.__name__ in ("matmul", "vecdot", "matvec", "vecmat")
    if kufunc is None or not (isinstance(kufunc, _ufuncs.ufunc) or (is_gufunc and callable(kufunc))):
        return NotImplemented
    kwargs = {k: v for k, v in kwargs.items() if v is not _NUMPY_NOVALUE}
    out = kwargs.get("out")
    outs = out if isinstance(out, tuple) else (() if out is None else (out,))
    for v in list(inputs) + list(outs):
        if not isinstance(v, (ndarray, numpy.ndarray, numpy.generic, bool, int, float, complex)):
            return NotImplemented
    if any(isinstance(o, numpy.ndarray) for o in outs):
        return NotImplemented  # NumPy writes NumPy outputs; kumo results live in kumo memory
    if method != "__call__" and len(outs) == 1:
        kwargs["out"] = outs[0]
    if method == "__call__":
        res = kufunc(*inputs, **kwargs)
    else:
        res = getattr(kufunc, method)(*inputs, **kwargs)
    if outs:
        return outs[0] if len(outs) == 1 else tuple(outs)
    return res


def _kumo_counterpart(func):
    """kumo's function for a NumPy API function (numpy.linalg.norm -> kumo.linalg.norm), or None."""
    # A walk of the public namespace by NumPy's module path.
    module = getattr(func, "__module__", None) or "numpy"
    target = package()
    for part in module.split(".")[1:]:
        if part.startswith("_"):
            continue
        target = getattr(target, part, None)
        if target is None:
            return None
    kfunc = getattr(target, func.__name__, None)
    if kfunc is None or kfunc is func or not callable(kfunc):
        return None
    return kfunc


def _to_host_views(obj):
    """kumo host arrays -> NumPy views of the same memory (nested in lists/tuples/dicts)."""
    if isinstance(obj, ndarray):
        if obj._is_cuda:
            raise TypeError("NumPy cannot operate on CUDA arrays; use kumo functions or .get()")
        return obj._numpy_view()
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_host_views(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_host_views(v) for k, v in obj.items()}
    return obj


def _from_host(obj):
    if isinstance(obj, numpy.ndarray):
        return _core.from_numpy(obj)
    if isinstance(obj, tuple):
        return tuple(_from_host(o) for o in obj)
    if isinstance(obj, list):
        return [_from_host(o) for o in obj]
    return obj


def _array_function(self, func, types, args, kwargs):
    """numpy.<func>(kumo_array, ...) runs kumo.<func>; functions kumo does not have run in NumPy on
    zero-copy views of host arrays, with array results converted back to kumo arrays."""
    if not all(issubclass(t, (ndarray, numpy.ndarray)) for t in types):
        return NotImplemented
    kfunc = _kumo_counterpart(func)
    if kfunc is not None:
        return kfunc(*args, **kwargs)
    impl = getattr(func, "_implementation", None)
    if impl is None:
        return NotImplemented
    out = kwargs.get("out")
    res = impl(*_to_host_views(args), **_to_host_views(kwargs))
    if out is not None and isinstance(out, ndarray):
        return out
    return _from_host(res)


ndarray.__array_ufunc__ = _array_ufunc
ndarray.__array_function__ = _array_function


def _array_namespace(self, api_version=None):
    """The array API namespace for kumo arrays: kumo.array_api (kumo with the
    standard's semantics where NumPy's differ)."""
    if api_version is not None and api_version not in array_api._SUPPORTED_VERSIONS:
        raise ValueError("Version %r of the array API standard is not supported; the supported versions are %s" %
                         (api_version, ", ".join(array_api._SUPPORTED_VERSIONS)))
    return array_api


ndarray.__array_namespace__ = _array_namespace
