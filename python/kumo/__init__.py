"""Kumo: a NumPy-compatible array library for CPUs and NVIDIA GPUs.

``import kumo as np`` runs ordinary NumPy code on the current device: the
first CUDA GPU when one is usable, else the CPU (``KUMO_DEVICE`` overrides).
"""
import numpy as _numpy


def _preload_openblas():
    # libkumo links OpenBLAS from the scipy-openblas32 wheel and finds it
    # through an rpath into site-packages; loading it by full path first also
    # covers installs where the two packages sit in different site directories.
    import ctypes
    import os
    try:
        import scipy_openblas32
    except ImportError:
        return
    path = os.path.join(scipy_openblas32.get_lib_dir(), "lib" + scipy_openblas32.get_library() + ".so")
    if os.path.exists(path):
        ctypes.CDLL(path)


# Host work runs on three thread pools that share the cores: kumo's own,
# oneDNN's OpenMP threads (libgomp) and OpenBLAS's. By default the idle
# threads of the last two keep spinning after each call (libgomp without
# yielding, for about a millisecond; OpenBLAS for about 0.1 s), so on a
# machine with as many threads as cores each pool's work ran beside another
# pool's spinners: the CNN training step took as long on two threads as on
# one, and 5x longer on a busy machine (benchmarks/RESULTS.md, "Training
# steps"). Both libraries read these settings once, when they are loaded,
# which is here; a value the user set is kept, and the environment is put
# back afterwards so that other libraries (PyTorch's own OpenMP runtime) and
# child processes see it as it was.
_POOL_ENV = {"OMP_WAIT_POLICY": "PASSIVE", "OPENBLAS_THREAD_TIMEOUT": "4"}


def _load_core():
    import os
    saved = {k: os.environ.get(k) for k in _POOL_ENV}
    for k, v in _POOL_ENV.items():
        os.environ.setdefault(k, v)
    try:
        _preload_openblas()
        from kumo import _core
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return _core


_load_core()

from kumo import _core  # noqa: E402
from kumo._core import ndarray
from kumo._dtypes import *  # noqa: F401,F403
from kumo._dtypes import (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
                          float64, complex64, complex128, dtype, result_type, promote_types, can_cast, finfo,
                          iinfo)
from kumo._ufuncs import *  # noqa: F401,F403
from kumo._ufuncs import ufunc
from kumo._creation import *  # noqa: F401,F403
from kumo._creation_ops import *  # noqa: F401,F403
from kumo._manipulation import *  # noqa: F401,F403
from kumo._searching import *  # noqa: F401,F403
from kumo._indexing import *  # noqa: F401,F403
from kumo._sorting import *  # noqa: F401,F403
from kumo._math_extra import *  # noqa: F401,F403
from kumo._functional import *  # noqa: F401,F403
from kumo._polynomial import *  # noqa: F401,F403
from kumo._reductions import *  # noqa: F401,F403
from kumo._statistics import *  # noqa: F401,F403
from kumo._numeric import *  # noqa: F401,F403
from kumo._rounding import round, around, fix  # noqa: A004 (numpy's names)
from kumo import _ndarray  # noqa: F401  (installs ndarray methods)
from kumo._interop import asnumpy, get_array_module, from_dlpack
from kumo._io import *  # noqa: F401,F403
from kumo._errstate import *  # noqa: F401,F403
from kumo._device import Device, get_device
from kumo._memory import get_default_memory_pool, get_default_pinned_memory_pool
from kumo._kernel import ElementwiseKernel, ReductionKernel
from kumo._config import __version__, show_config
from kumo._array_api import *  # noqa: F401,F403
from kumo._misc import *  # noqa: F401,F403
from kumo._array_api import __array_api_version__, __array_namespace_info__  # noqa: F401
from kumo import cuda  # noqa: F401
from kumo import fft  # noqa: F401
from kumo import lib  # noqa: F401
from kumo import linalg  # noqa: F401
from kumo.linalg._products import (matmul, matvec, vecmat, dot, vdot, inner, outer, tensordot, kron,  # noqa: E402
                                   trace, cross, vecdot, matrix_transpose)
from kumo.linalg._einsum import einsum, einsum_path  # noqa: E402
from kumo import random  # noqa: F401
from kumo import sparse  # noqa: F401

newaxis = None
pi = _numpy.pi
e = _numpy.e
inf = _numpy.inf
nan = _numpy.nan
euler_gamma = _numpy.euler_gamma
set_printoptions = _numpy.set_printoptions
get_printoptions = _numpy.get_printoptions
printoptions = _numpy.printoptions
UFuncTypeError = _core.UFuncTypeError
AxisError = _numpy.exceptions.AxisError

# The array API's (and NumPy 2's) name for the boolean dtype. Bound after
# every function of this module is defined, none of which means the builtin.
bool = _numpy.bool  # noqa: A001

from kumo import array_api  # noqa: E402,F401  (needs the complete kumo namespace)
from kumo import emath  # noqa: E402,F401
# The exception and dtype classes are NumPy's: kumo raises NumPy's exceptions
# and its arrays carry NumPy dtypes.
exceptions = _numpy.exceptions
dtypes = _numpy.dtypes

# Last: ndarray and the ufunc type are complete, so the C++ operator and
# ufunc-call slots can replace the generic ones (see bindings/fast_paths.cpp).
_core._install_fast_paths(ndarray, type(add))
from kumo import special  # noqa: E402,F401  (kumo.special: erf, gammaln, digamma, ...)
from kumo._raw import *  # noqa: E402,F401,F403  (RawKernel, RawModule)
from kumo._fusion import *  # noqa: E402,F401,F403  (fuse, memoize, clear_memo)
