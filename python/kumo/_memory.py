"""Default memory pools."""
from kumo import _core


def get_default_memory_pool():
    """The caching pool of the current device (host memory on the CPU device)."""
    return _core.device_memory_pool(_core.current_device_name())


def get_default_pinned_memory_pool():
    """The pinned host memory pool of the CUDA backend (raises if the backend is unavailable)."""
    return _core.pinned_memory_pool()
