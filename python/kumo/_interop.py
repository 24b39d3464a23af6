"""Interoperability: NumPy conversion, array-module dispatch, DLPack and the
NumPy override protocols."""
import numpy

from kumo import _core

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
    import kumo
    for a in args:
        if isinstance(a, ndarray):
            return kumo
    return numpy


def from_dlpack(x, /, *, device=None, copy=None):
    """Imports a DLPack-capable host array.

    The data is copied into kumo's memory pool (kumo arrays always own pooled
    memory), so ``copy=False`` cannot be honoured for foreign producers."""
    if isinstance(x, ndarray):
        if device is not None and str(device) != str(x.device):
            return x.to_device(device)
        return x.copy() if copy else x
    if not hasattr(x, "__dlpack__"):
        raise TypeError("object %r does not support the DLPack protocol" % type(x).__name__)
    if copy is False:
        raise ValueError("kumo.from_dlpack cannot import foreign memory without a copy (copy=False)")
    dev_type, _ = x.__dlpack_device__()
    if dev_type not in (1, 3):  # kDLCPU, kDLCUDAHost
        raise BufferError("kumo.from_dlpack supports CPU producers in this build (device type %d)" % dev_type)
    host = numpy.from_dlpack(x)
    if device is not None:
        return _core.from_numpy(host, str(device))
    return _core.from_numpy(host)


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """DLPack export of a host array: a (versioned, when asked) capsule over the same memory."""
    if self._is_cuda:
        raise BufferError("DLPack export of CUDA arrays needs a GPU build; use .get()")
    if dl_device is not None and tuple(dl_device) != (1, 0):
        raise BufferError("kumo host arrays can only be exported to the CPU device (1, 0), not %r"
                          % (tuple(dl_device),))
    view = self._numpy_view()
    if copy:
        view = view.copy()
    kwargs = {}
    if max_version is not None:
        kwargs["max_version"] = max_version
    if copy is not None:
        kwargs["copy"] = copy
    return view.__dlpack__(stream=stream, **kwargs)


ndarray.__dlpack__ = _dlpack


def _to_numpy_args(obj):
    if isinstance(obj, ndarray):
        return obj.get()
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_numpy_args(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_numpy_args(v) for k, v in obj.items()}
    return obj


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    import kumo
    kufunc = getattr(kumo, ufunc.__name__, None)
    if kufunc is None or not isinstance(kufunc, kumo.ufunc):
        return NotImplemented
    for v in list(inputs) + list(kwargs.get("out", ()) or ()):
        if not isinstance(v, (ndarray, numpy.ndarray, numpy.generic, bool, int, float, complex)):
            return NotImplemented
    if method == "__call__":
        return kufunc(*inputs, **kwargs)
    return getattr(kufunc, method)(*inputs, **kwargs)


def _array_function(self, func, types, args, kwargs):
    import kumo
    name = func.__name__
    module = getattr(func, "__module__", "numpy") or "numpy"
    target = kumo
    for part in module.split(".")[1:]:
        if part.startswith("_"):
            continue
        target = getattr(target, part, None)
        if target is None:
            return NotImplemented
    kfunc = getattr(target, name, None)
    if kfunc is None or kfunc is func:
        return NotImplemented
    return kfunc(*args, **kwargs)


ndarray.__array_ufunc__ = _array_ufunc
ndarray.__array_function__ = _array_function


def _array_namespace(self, api_version=None):
    import kumo
    return kumo


ndarray.__array_namespace__ = _array_namespace
