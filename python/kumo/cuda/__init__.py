"""kumo.cuda: the CUDA backend (loaded lazily as a plugin).

``kumo.cuda.is_available()`` never raises: without a driver or GPU it is
False and ``unavailable_reason()`` says why.
"""
from kumo import _core
from kumo.cuda import memory  # noqa: F401
from kumo._device import Device as _Device

_c = _core.cuda

is_available = _c.is_available
unavailable_reason = _c.unavailable_reason
plugin_load_error = _c.plugin_load_error
get_device_count = _c.get_device_count
nvrtc_version = _c.nvrtc_version
version_info = _c.version_info
compile_cuda = _c.compile_cuda
Stream = _c.Stream
Event = _c.Event
get_elapsed_time = _c.get_elapsed_time
get_current_stream = _c.get_current_stream


def Device(device=0):
    """CuPy-style ``kumo.cuda.Device(i)``: the CUDA device ``i``."""
    if isinstance(device, _Device):
        return device
    return _Device("cuda", int(device))


def runtime_info():
    return {"available": is_available(), "reason": unavailable_reason(), "devices": get_device_count(),
            "nvrtc": nvrtc_version(), "versions": version_info()}
