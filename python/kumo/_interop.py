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


_NUMPY_NOVALUE = getattr(numpy, "_NoValue", None)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """numpy.<ufunc>(kumo_array, ...) runs kumo's ufunc of the same name and returns kumo arrays."""
    import kumo
    kufunc = getattr(kumo, ufunc.__name__, None)
    # NumPy's matmul family are gufuncs; kumo's are functions with the same
    # call signature (out=, dtype=, casting=), so only __call__ maps over.
    is_gufunc = method == "__call__" and ufunc.__name__ in ("matmul", "vecdot", "matvec", "vecmat")
    if kufunc is None or not (isinstance(kufunc, kumo.ufunc) or (is_gufunc and callable(kufunc))):
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
    import kumo
    module = getattr(func, "__module__", None) or "numpy"
    target = kumo
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
    from kumo import array_api
    if api_version is not None and api_version not in array_api._SUPPORTED_VERSIONS:
        raise ValueError("Version %r of the array API standard is not supported; the supported versions are %s" %
                         (api_version, ", ".join(array_api._SUPPORTED_VERSIONS)))
    return array_api


ndarray.__array_namespace__ = _array_namespace
