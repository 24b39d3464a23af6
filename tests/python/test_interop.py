"""NumPy interoperability: asnumpy, get_array_module, __array__, buffer protocol,
DLPack, __array_ufunc__, __array_function__, __array_namespace__."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_allclose, assert_array_equal, assert_ulp_close, make_pair


# ---------------------------------------------------------------- asnumpy / get_array_module
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_asnumpy(layout, dtype):
    n, k = make_pair(layout, dtype)
    got = kumo.asnumpy(k)
    assert type(got) is numpy.ndarray
    assert got.dtype == n.dtype and got.shape == n.shape
    numpy.testing.assert_array_equal(got, n)


def test_asnumpy_is_a_copy():
    k = kumo.arange(4)
    got = kumo.asnumpy(k)
    got[0] = 100
    assert int(k[0]) == 0


def test_asnumpy_of_numpy_and_lists():
    n = numpy.arange(3.0)
    assert kumo.asnumpy(n) is n or numpy.array_equal(kumo.asnumpy(n), n)
    numpy.testing.assert_array_equal(kumo.asnumpy([1, 2]), numpy.array([1, 2]))


def test_asnumpy_out():
    k = kumo.arange(4.0)
    out = numpy.zeros(4)
    assert kumo.asnumpy(k, out=out) is out
    numpy.testing.assert_array_equal(out, numpy.arange(4.0))


def test_get_array_module():
    assert kumo.get_array_module(kumo.ones(2)) is kumo
    assert kumo.get_array_module(numpy.ones(2), kumo.ones(2)) is kumo
    assert kumo.get_array_module(numpy.ones(2), 3) is numpy
    assert kumo.get_array_module() is numpy


# ---------------------------------------------------------------- __array__ / buffer protocol
@pytest.mark.parametrize("layout", LAYOUTS)
def test_numpy_asarray_shares_memory(layout):
    n, k = make_pair(layout, numpy.float64)
    a = numpy.asarray(k)
    b = numpy.asarray(k)
    numpy.testing.assert_array_equal(a, n)
    assert a.strides == n.strides
    if a.size:
        assert numpy.shares_memory(a, b)


def test_numpy_asarray_writes_through():
    k = kumo.zeros((2, 3), dtype=numpy.int32)
    a = numpy.asarray(k)
    a[1, 2] = 7
    assert int(k[1, 2]) == 7
    k[0, 0] = 5
    assert a[0, 0] == 5


def test_numpy_asarray_of_view_writes_through():
    k = kumo.zeros((4, 6))
    v = k[::2, ::-3]
    numpy.asarray(v)[...] = 1
    expected = numpy.zeros((4, 6))
    expected[::2, ::-3] = 1
    assert_array_equal(k, expected)


def test_numpy_array_copies():
    k = kumo.zeros(3)
    a = numpy.array(k)
    a[0] = 1
    assert float(k[0]) == 0


def test_numpy_asarray_dtype():
    k = kumo.arange(3, dtype=numpy.int16)
    a = numpy.asarray(k, dtype=numpy.float32)
    assert a.dtype == numpy.float32
    numpy.testing.assert_array_equal(a, [0, 1, 2])


def test_numpy_asarray_readonly_broadcast():
    k = kumo.broadcast_to(kumo.arange(3.0), (2, 3))
    a = numpy.asarray(k)
    assert not a.flags.writeable


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_memoryview(dtype):
    n, k = make_pair("3d", dtype)
    m = memoryview(k)
    assert m.shape == n.shape
    assert m.itemsize == n.itemsize
    assert m.strides == n.strides
    numpy.testing.assert_array_equal(numpy.asarray(m), n)


def test_memoryview_strided_and_writable():
    k = kumo.zeros((3, 8), dtype=numpy.float32)
    v = k[::-1, ::2]
    m = memoryview(v)
    assert m.strides == (-32, 8)
    assert not m.readonly
    numpy.asarray(m)[0, 0] = 3  # writes through to k[2, 0]
    assert float(k[2, 0]) == 3


def test_memoryview_readonly_for_broadcast():
    k = kumo.broadcast_to(kumo.arange(3.0), (2, 3))
    assert memoryview(k).readonly


def test_bytes_of_array():
    k = kumo.arange(4, dtype=numpy.int32)
    assert bytes(memoryview(k)) == numpy.arange(4, dtype=numpy.int32).tobytes()


# ---------------------------------------------------------------- __array_ufunc__
def test_array_ufunc_binary_returns_kumo():
    n, k = make_pair("3d", numpy.float64)
    assert_array_equal(numpy.add(k, k), n + n)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_array_ufunc_unary_returns_kumo(layout):
    n, k = make_pair(layout, numpy.float32)
    assert_ulp_close(numpy.sin(k), numpy.sin(n))


def test_array_ufunc_mixed_operands():
    n, k = make_pair("3d", numpy.float32)
    other = numpy.arange(4, dtype=numpy.float64)
    assert_allclose(numpy.multiply(k, other), n * other)
    assert_allclose(numpy.multiply(other, k), other * n)
    assert_allclose(numpy.add(k, 2.5), n + 2.5)


def test_numpy_operator_with_kumo_right_operand():
    n, k = make_pair("3d", numpy.float64)
    other = numpy.ones((2, 3, 4))
    assert_allclose(other + k, other + n)
    assert_allclose(other * k, other * n)


def test_array_ufunc_out_kumo():
    n, k = make_pair("1d", numpy.float64)
    out = kumo.zeros(7)
    r = numpy.add(k, 1, out=out)
    assert r is out
    assert_array_equal(out, n + 1)


def test_array_ufunc_dtype_kwarg():
    n, k = make_pair("1d", numpy.int32)
    assert_array_equal(numpy.add(k, k, dtype=numpy.float32), numpy.add(n, n, dtype=numpy.float32))


@pytest.mark.parametrize("method", ["reduce", "accumulate"])
def test_array_ufunc_methods(method):
    n, k = make_pair("3d", numpy.int64)
    assert_array_equal(getattr(numpy.add, method)(k, axis=1), getattr(numpy.add, method)(n, axis=1))


def test_array_ufunc_outer():
    n, k = make_pair("1d", numpy.int64)
    assert_array_equal(numpy.multiply.outer(k, k), numpy.multiply.outer(n, n))


def test_array_ufunc_comparison():
    n, k = make_pair("3d", numpy.int16)
    assert_array_equal(numpy.greater(k, 0), numpy.greater(n, 0))


# ---------------------------------------------------------------- __array_function__
@pytest.mark.parametrize("name,kwargs", [("sum", {}), ("sum", {"axis": 1}), ("mean", {}), ("mean", {"axis": -1}),
                                         ("max", {"axis": 0}), ("argmax", {}), ("std", {"ddof": 1}),
                                         ("cumsum", {"axis": 2}), ("nansum", {}), ("diff", {})])
def test_array_function_reductions(name, kwargs):
    n, k = make_pair("3d", numpy.float64)
    got = getattr(numpy, name)(k, **kwargs)
    assert isinstance(got, kumo.ndarray)
    expected = getattr(numpy, name)(n, **kwargs)
    assert_allclose(got, expected, check_dtype=True) if numpy.asarray(expected).dtype.kind == "f" else \
        assert_array_equal(got, expected)


def test_array_function_where():
    n, k = make_pair("3d", numpy.float64)
    assert_array_equal(numpy.where(k > 0, k, -1.0), numpy.where(n > 0, n, -1.0))


def test_array_function_concatenate():
    n, k = make_pair("3d", numpy.int32)
    assert_array_equal(numpy.concatenate([k, k], axis=1), numpy.concatenate([n, n], axis=1))


def test_array_function_concatenate_mixed():
    n, k = make_pair("3d", numpy.int32)
    got = numpy.concatenate([k, n], axis=0)
    assert_array_equal(got, numpy.concatenate([n, n], axis=0))


def test_array_function_clip():
    n, k = make_pair("3d", numpy.float32)
    assert_array_equal(numpy.clip(k, -1, 1), numpy.clip(n, -1, 1))


def test_array_function_fallback_runs_numpy_on_host():
    # A NumPy function kumo does not implement still returns a kumo array.
    n, k = make_pair("1d", numpy.float64)
    got = numpy.lib.stride_tricks.sliding_window_view(k, 3)
    assert isinstance(got, kumo.ndarray)
    assert_allclose(got, numpy.lib.stride_tricks.sliding_window_view(n, 3))


def test_array_function_shape_queries():
    n, k = make_pair("3d", numpy.float64)
    assert numpy.shape(k) == n.shape
    assert numpy.ndim(k) == 3
    assert numpy.size(k) == 24


# ---------------------------------------------------------------- __array_namespace__
def test_array_namespace():
    k = kumo.ones(3)
    xp = k.__array_namespace__()
    assert xp is kumo.array_api
    assert_array_equal(xp.sum(k), numpy.float64(3))


def test_array_namespace_version():
    assert kumo.ones(3).__array_namespace__(api_version="2023.12") is kumo.array_api
