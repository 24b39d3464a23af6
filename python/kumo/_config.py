"""kumo.show_config: what this build and this machine can do, and the
package's version (kumo.__version__)."""
import sys

from kumo import _core

__version__ = "0.1.0"


def config():
    cuda_ok = _core.cuda.is_available()
    return {
        "kumo": __version__,
        "python": sys.version.split()[0],
        "current device": _core.current_device_name(),
        "built with CUDA": _core.built_with_cuda(),
        "CUDA available": cuda_ok,
        "CUDA unavailable reason": "" if cuda_ok else _core.cuda.unavailable_reason(),
        "CUDA devices": _core.cuda.get_device_count(),
        "NVRTC": _core.cuda.nvrtc_version(),
        "host compiler": _core.host_compiler(),
        "host threads": _core.host_num_threads(),
        "kernel cache": _core.kernel_cache_dir(),
        "verify CUDA kernels": _core.verify_cuda_enabled(),
        "emulate CUDA kernels": _core.emulate_cuda_enabled(),
    }


def show_config():
    """Prints the build and runtime configuration."""
    for k, v in config().items():
        print("%-24s %s" % (k + ":", v))
