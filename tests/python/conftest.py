"""Shared test helpers: dtype lists, array layouts and comparison with NumPy."""
import numpy
import pytest

import kumo

ALL_DTYPES = [numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32,
              numpy.int64, numpy.uint64, numpy.float16, numpy.float32, numpy.float64, numpy.complex64,
              numpy.complex128]
INT_DTYPES = [numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32, numpy.int64,
              numpy.uint64]
FLOAT_DTYPES = [numpy.float16, numpy.float32, numpy.float64]
COMPLEX_DTYPES = [numpy.complex64, numpy.complex128]
NUMERIC_DTYPES = INT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES

LAYOUTS = ["0d", "empty", "1d", "3d", "broadcast", "transposed", "negative"]


def make_numpy(layout, dtype, seed=0, low=-5, high=5):
    """A NumPy array of `dtype` in the given layout, with small values that are
    valid for every dtype (non-negative for unsigned, 0/1 for bool)."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)

    def values(shape):
        if dt.kind == "b":
            return rng.integers(0, 2, size=shape).astype(dt)
        lo = 0 if dt.kind == "u" else low
        v = rng.integers(lo, high, size=shape)
        if dt.kind in "fc":
            v = v + rng.integers(0, 4, size=shape) * 0.25
        if dt.kind == "c":
            v = v + 1j * rng.integers(lo, high, size=shape)
        return numpy.asarray(v).astype(dt)

    if layout == "0d":
        return values(())
    if layout == "empty":
        return values((0, 3))
    if layout == "1d":
        return values((7,))
    if layout == "3d":
        return values((2, 3, 4))
    if layout == "broadcast":
        return numpy.broadcast_to(values((1, 4)), (3, 4))
    if layout == "transposed":
        return values((4, 3)).T
    if layout == "negative":
        return values((3, 8))[::-1, ::-2]
    raise ValueError(layout)


def to_kumo(np_arr):
    """The same values and layout as a kumo array (strides reproduced with views)."""
    k = kumo.array(numpy.array(np_arr, order="C"))
    return k if np_arr.flags.c_contiguous else _relayout(np_arr, k)


def _relayout(np_arr, k):
    # Rebuild the same view structure: transposes, reversed and stepped axes,
    # and broadcasting, so kumo sees the same kind of strides as NumPy.
    if np_arr.ndim == 2 and np_arr.strides[0] == 0:
        base = kumo.array(numpy.ascontiguousarray(np_arr[:1]))
        return kumo.broadcast_to(base, np_arr.shape)
    if np_arr.ndim == 2 and np_arr.flags.f_contiguous:
        return kumo.array(numpy.ascontiguousarray(np_arr.T)).T
    if np_arr.ndim == 2 and np_arr.strides[0] < 0:
        base = np_arr[::-1, ::-1]  # positive-stride view over the same data
        kb = kumo.array(numpy.ascontiguousarray(numpy.repeat(base, 2, axis=1)))
        return kb[::-1, ::-2] if np_arr.strides[1] < 0 else kb[::-1, ::2]
    return k


def make_pair(layout, dtype, seed=0):
    n = make_numpy(layout, dtype, seed)
    return n, to_kumo(n)


def _host_result(k, n, check_dtype):
    """The kumo result on the host and NumPy's, after checking type, shape and dtype."""
    assert isinstance(k, kumo.ndarray), "expected a kumo array, got %r" % type(k)
    got = kumo.asnumpy(k)
    n = numpy.asarray(n)
    assert got.shape == n.shape, (got.shape, n.shape)
    if check_dtype:
        assert got.dtype == n.dtype, (got.dtype, n.dtype)
    return got, n


def assert_array_equal(k, n, check_dtype=True):
    """kumo result `k` equals NumPy result `n`: values, shape and dtype."""
    got, n = _host_result(k, n, check_dtype)
    numpy.testing.assert_array_equal(got, n)


def assert_same(k, n):
    """Exact for integer/bool results, close for inexact ones (summation order may differ)."""
    if numpy.asarray(n).dtype.kind in "fc":
        assert_allclose(k, n)
    else:
        assert_array_equal(k, n)


def assert_allclose(k, n, rtol=None, atol=0, check_dtype=True):
    got, n = _host_result(k, n, check_dtype)
    if rtol is None:
        rtol = {numpy.float16: 1e-3, numpy.float32: 1e-5, numpy.complex64: 1e-5}.get(n.dtype.type, 1e-12)
    numpy.testing.assert_allclose(got, n, rtol=rtol, atol=atol, equal_nan=True)


@pytest.fixture(autouse=True)
def _no_global_state_leak():
    yield
