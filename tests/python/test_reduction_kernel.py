"""ReductionKernel arguments with CuPy's semantics (see also test_kernels.py)."""
import numpy
import pytest

import kumo
from conftest import make_pair

_sum = kumo.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "rk_sum")
_max_noid = kumo.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", None, "rk_max")


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint16, numpy.int32, numpy.int64, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_sum_dtypes_axes(dtype, axis):
    n = (numpy.arange(12) % 5).reshape(3, 4).astype(dtype)
    r = _sum(kumo.asarray(n), axis=axis)
    assert r.dtype == dtype
    numpy.testing.assert_allclose(kumo.asnumpy(r), numpy.sum(n, axis=axis).astype(dtype))


@pytest.mark.parametrize("layout", ["transposed", "negative", "broadcast", "0d"])
def test_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    numpy.testing.assert_allclose(kumo.asnumpy(_max_noid(k)), numpy.max(n))


def test_no_identity_empty_raises():
    with pytest.raises(ValueError):
        _max_noid(kumo.zeros((0, 3)), axis=0)
    numpy.testing.assert_array_equal(kumo.asnumpy(_sum(kumo.zeros((0, 3)), axis=0)), numpy.zeros(3))


def test_reduce_type_dtype_object():
    k = kumo.ReductionKernel("T x", "float32 y", "x", "a + b", "y = a", "0", "rk_rt", reduce_type=numpy.float64)
    r = k(kumo.full(1000, 0.1, dtype=numpy.float32))
    assert r.dtype == numpy.float32


def test_map_index_j():
    k = kumo.ReductionKernel("T x", "int64 y", "_j", "a + b", "y = a", "0", "rk_j")
    assert int(kumo.asnumpy(k(kumo.zeros(10)))) == 45


def test_two_inputs_two_outputs_keepdims_out():
    k = kumo.ReductionKernel("T x, T w", "T s, T m", "x * w", "a + b", "s = a; m = a / 2", "0", "rk_two")
    x = numpy.arange(6.0).reshape(2, 3)
    s, m = k(kumo.asarray(x), kumo.asarray(numpy.array([1.0, 2.0, 3.0])), axis=1, keepdims=True)
    numpy.testing.assert_array_equal(kumo.asnumpy(s), (x * [1, 2, 3]).sum(1, keepdims=True))
    numpy.testing.assert_array_equal(kumo.asnumpy(m), (x * [1, 2, 3]).sum(1, keepdims=True) / 2)


def test_stream_and_out():
    out = kumo.zeros(3)
    _sum(kumo.ones((2, 3)), axis=0, out=out, stream=None)
    numpy.testing.assert_array_equal(kumo.asnumpy(out), numpy.full(3, 2.0))


def test_errors():
    with pytest.raises(TypeError):
        _sum(kumo.ones(3), kumo.ones(3), kumo.ones(3))
    with pytest.raises(TypeError):
        _sum(kumo.ones(3), foo=1)
    k = kumo.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "rk_mis")
    with pytest.raises(TypeError):
        k(kumo.ones(3), kumo.ones(3, dtype=numpy.int32))
    with pytest.raises(ValueError):
        k(kumo.ones(3), kumo.ones(4))
