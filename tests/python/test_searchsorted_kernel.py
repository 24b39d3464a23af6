"""searchsorted as one generated kernel: the path CUDA arrays take, run here
on host arrays and compared with NumPy (the kernel is also NVRTC-compiled
under KUMO_VERIFY_CUDA=1)."""
import numpy
import pytest

import kumo
from conftest import assert_array_equal

_search = kumo._core.sorting._searchsorted_generated

REAL_DTYPES = [numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint32, numpy.int64, numpy.uint64,
               numpy.float16, numpy.float32, numpy.float64]


def _sorted_values(dtype, n, seed=0):
    rng = numpy.random.default_rng(seed)
    a = rng.integers(0, 20, n).astype(dtype)
    return numpy.sort(a)


@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_matches_numpy(dtype, side):
    a = _sorted_values(dtype, 50)
    v = numpy.random.default_rng(1).integers(-2, 23, (3, 7)).astype(dtype) if dtype != numpy.bool_ else \
        numpy.array([[True, False]])
    assert_array_equal(_search(kumo.asarray(a), kumo.asarray(v), side), numpy.searchsorted(a, v, side))


@pytest.mark.parametrize("side", ["left", "right"])
def test_nans_sort_last(side):
    a = numpy.array([-numpy.inf, -1.0, 0.0, 2.0, numpy.inf, numpy.nan, numpy.nan])
    v = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 0.0, 1.5, -0.0])
    assert_array_equal(_search(kumo.asarray(a), kumo.asarray(v), side), numpy.searchsorted(a, v, side))


@pytest.mark.parametrize("side", ["left", "right"])
def test_with_sorter(side):
    a = numpy.random.default_rng(2).integers(0, 10, 40).astype(numpy.float32)
    sorter = numpy.argsort(a, kind="stable")
    v = numpy.arange(-1, 12, 0.5, dtype=numpy.float32)
    got = _search(kumo.asarray(a), kumo.asarray(v), side, kumo.asarray(sorter))
    assert_array_equal(got, numpy.searchsorted(a, v, side, sorter=sorter))


def test_promotes_like_numpy():
    a = numpy.array([1, 2, 3], dtype=numpy.int8)
    v = numpy.array([2.5, 300.0])
    assert_array_equal(_search(kumo.asarray(a), kumo.asarray(v)), numpy.searchsorted(a, v))


def test_layouts_and_empty():
    a = numpy.arange(0.0, 40.0, 2.0)
    base = numpy.arange(30.0).reshape(5, 6)
    got = _search(kumo.asarray(a)[::-1][::-1], kumo.asarray(base)[::-1, ::2])  # strided, negative strides
    assert_array_equal(got, numpy.searchsorted(a, base[::-1, ::2]))
    assert_array_equal(_search(kumo.asarray(numpy.zeros(0)), kumo.asarray([1.0, 2.0])), numpy.zeros(2, numpy.int64))
    assert _search(kumo.asarray(a), kumo.asarray(numpy.zeros((0, 3)))).shape == (0, 3)


def test_errors():
    a = kumo.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match="side"):
        _search(a, a, "middle")
    with pytest.raises(ValueError, match="out of range"):
        _search(a, a, "left", kumo.asarray([0, 5]))
    with pytest.raises(ValueError, match="size"):
        _search(a, a, "left", kumo.asarray([0]))
    with pytest.raises(ValueError):
        _search(kumo.ones((2, 2)), a)
