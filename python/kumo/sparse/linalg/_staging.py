"""eigsh, svds and onenormest run their loops on host vectors. Given sparse
matrices and arrays on another device (CUDA), they compute on host copies
and return their arrays on that device: the copies stay inside the call, so
its operands and results share one device (docs/sparse_linalg.md)."""
import functools

from kumo import _core
from kumo.sparse._formats import issparse


def _device_of(value):
    if issparse(value):
        return value.data.device
    if isinstance(value, _core.ndarray):
        return value.device
    return None


def _host_copy(value):
    if issparse(value):
        m = value.tocsr()
        parts = (m.data.to_device("cpu"), m.indices.to_device("cpu"), m.indptr.to_device("cpu"))
        return type(m)(parts, shape=m.shape)
    return value.to_device("cpu")


def _to_device(result, device):
    if isinstance(result, tuple):
        return tuple(_to_device(r, device) for r in result)
    if isinstance(result, _core.ndarray):
        return result.to_device(device)
    return result


def staged_through_host(fn):
    """fn with its device operands copied to the host and its array results
    copied back; operands on two different devices are a DeviceError, as
    mixing devices is everywhere in kumo."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        devices = {}
        for v in list(args) + list(kwargs.values()):
            d = _device_of(v)
            if d is not None:
                devices[str(d)] = d
        if len(devices) > 1:
            raise _core.DeviceError("%s: operands on different devices (%s)" % (fn.__name__, ", ".join(sorted(devices))))
        device = next(iter(devices.values()), None)
        if device is None or device.type == "cpu":
            return fn(*args, **kwargs)
        args = [_host_copy(v) if _device_of(v) is not None else v for v in args]
        kwargs = {k: _host_copy(v) if _device_of(v) is not None else v for k, v in kwargs.items()}
        return _to_device(fn(*args, **kwargs), device)
    return call
