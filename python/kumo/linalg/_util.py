"""Shared plumbing of kumo.linalg's decompositions, solvers and norms.

The LAPACK-style primitives in ``kumo._core.linalg`` work on 3-D batches of
column-major matrices. The helpers here translate between that and NumPy's
"stack of matrices in the last two axes" world: dtype resolution as in
``numpy.linalg``, input validation with NumPy's messages, column-major work
copies, and info checking (a failed factorization raises, it never returns
garbage).
"""
import contextlib

import numpy
from numpy.linalg import LinAlgError

from kumo import _core
from kumo import _creation
from kumo import _ufuncs as uf
from kumo._manipulation import broadcast_shapes, broadcast_to

ndarray = _core.ndarray

_F32, _F64 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)
_C64, _C128 = numpy.dtype(numpy.complex64), numpy.dtype(numpy.complex128)


def backend():
    """The primitives module (resolved per call, so a rebuilt extension or a
    test double is picked up)."""
    return _core.linalg


def asarray(a):
    return a if isinstance(a, ndarray) else _creation.asarray(a)


# ---------------------------------------------------------------- dtypes
def common_type(*arrays):
    """NumPy's linalg computation dtype: bool/integers compute in float64,
    float16 is refused, single precision stays single unless mixed with
    double, anything complex makes the result complex."""
    is_complex = False
    is_double = False
    for a in arrays:
        dt = a.dtype
        if dt.kind in "biu":
            is_double = True
        elif dt.kind == "f" and dt.itemsize >= 4:
            is_double |= dt.itemsize == 8
        elif dt.kind == "c":
            is_complex = True
            is_double |= dt.itemsize == 16
        else:
            raise TypeError("array type %s is unsupported in linalg" % dt.name)
    if is_complex:
        return _C128 if is_double else _C64
    return _F64 if is_double else _F32


def real_dtype(dt):
    return {_C64: _F32, _C128: _F64}.get(numpy.dtype(dt), numpy.dtype(dt))


def complex_dtype(dt):
    return {_F32: _C64, _F64: _C128}.get(numpy.dtype(dt), numpy.dtype(dt))


def eps(dt):
    return float(numpy.finfo(real_dtype(dt)).eps)


# ---------------------------------------------------------------- validation
def assert_stacked_2d(*arrays):
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError("%d-dimensional array given. Array must be at least two-dimensional" % a.ndim)


def assert_2d(*arrays):
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError("%d-dimensional array given. Array must be two-dimensional" % a.ndim)


def assert_stacked_square(*arrays):
    assert_stacked_2d(*arrays)
    for a in arrays:
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def prod(shape):
    r = 1
    for s in shape:
        r *= int(s)
    return r


# ---------------------------------------------------------------- devices
@contextlib.contextmanager
def _switch(name):
    prev = _core.current_device_name()
    _core.set_current_device(name)
    try:
        yield
    finally:
        _core.set_current_device(prev)


def on_device_of(a):
    """Makes `a`'s device current, so arrays created while working on `a`
    live next to it."""
    if a._device_name == _core.current_device_name():
        return contextlib.nullcontext()
    return _switch(a._device_name)


# ---------------------------------------------------------------- work arrays
def fortran_batch(batch, rows, cols, dtype):
    """An uninitialised (batch, rows, cols) array of column-major matrices."""
    return _creation.empty((batch, cols, rows), dtype).transpose(0, 2, 1)


def to_work(a, dtype, conj_transpose=False):
    """A column-major (B, m, n) copy of the stack `a` (..., m, n) in `dtype`
    (one strided copy, the one LAPACK's in-place routines need anyway).
    With `conj_transpose`, the copy holds a^H instead (complex) or a^T."""
    if conj_transpose:
        a = a.swapaxes(-1, -2)
    m, n = a.shape[-2:]
    batch_shape = a.shape[:-2]
    work = fortran_batch(prod(batch_shape), m, n, dtype)
    if work.size:
        target = work.reshape(batch_shape + (m, n))
        if conj_transpose and a.dtype.kind == "c":
            uf.conjugate(a.astype(dtype, copy=False), out=target)
        else:
            target[...] = a if a.dtype == dtype or a.dtype.kind != "c" else a.astype(dtype)
    return work


def check_info(info, message):
    """Raises LinAlgError(message) when any factorization of the batch failed
    (one device-to-host copy of the info array)."""
    if info is None or info.size == 0:
        return
    host = _core.to_numpy(info) if isinstance(info, ndarray) else numpy.asarray(info)
    if (host != 0).any():
        bad = host[host != 0]
        if (bad < 0).any():
            # An illegal argument is a bug in the caller, not a property of the data.
            raise ValueError("LAPACK rejected argument %d (%s)" % (-int(bad[bad < 0][0]), message))
        raise LinAlgError(message)


def reject_nan(a, message):
    """LinAlgError(message) when `a` holds a NaN (LAPACK's SVD drivers reject
    NaN input as an illegal argument; NumPy reports non-convergence)."""
    if a.size and a.dtype.kind in "fc" and bool(uf.isnan(a).any()):
        raise LinAlgError(message)


def reject_nonfinite(a):
    if a.size and a.dtype.kind in "fc" and not bool(uf.isfinite(a).all()):
        raise LinAlgError("Array must not contain infs or NaNs")


def failed_mask(info):
    """A bool array on info's device: True where the factorization failed."""
    return uf.not_equal(info, 0)


# ---------------------------------------------------------------- products
# (kumo.linalg._products.matmul is the full a @ b; the solvers use it.)
def _gemm_operand(x, batch_shape, batch):
    m, n = x.shape[-2:]
    if x.shape[:-2] != batch_shape and prod(x.shape[:-2]) != 1:
        x = broadcast_to(x, batch_shape + (m, n))
    xb = prod(x.shape[:-2])
    x3 = x.reshape((xb, m, n))
    item = x3.itemsize
    ok = ((x3.strides[2] == item and x3.strides[1] >= max(n, 1) * item)
          or (x3.strides[1] == item and x3.strides[2] >= max(m, 1) * item))
    if not ok or (xb > 1 and x3.strides[0] < 0):
        x3 = x3.copy()
    return x3


def gemm(a, b):
    """Batched a @ b on the backend's gemm; a (..., m, k), b (..., k, n)."""
    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch_shape = tuple(broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    batch = prod(batch_shape)
    out = _creation.empty((batch, m, n), a.dtype)
    if out.size:
        if k == 0:
            out.fill(0)
        else:
            backend().gemm(_gemm_operand(a, batch_shape, batch), _gemm_operand(b, batch_shape, batch), out)
    return out.reshape(batch_shape + (m, n))


def conj_t(x):
    """The conjugate transpose of the last two axes (a view for real dtypes)."""
    t = x.swapaxes(-1, -2)
    return uf.conjugate(t) if t.dtype.kind == "c" else t
