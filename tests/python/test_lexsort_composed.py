"""lexsort composed of stable argsorts and gathers: the path arrays off the
host take, run here on host arrays and compared with numpy.lexsort."""
import numpy
import pytest

import kumo
from conftest import assert_array_equal

_lexsort = kumo._core.sorting._lexsort_composed

DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int32, numpy.int64, numpy.uint64, numpy.float16,
          numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def _keys(dtype, shape, count, seed=0):
    rng = numpy.random.default_rng(seed)
    keys = []
    for _ in range(count):
        k = rng.integers(0, 3, shape)  # few values: many ties
        keys.append(k.astype(dtype))
    return keys


@pytest.mark.parametrize("dtype", DTYPES)
def test_two_keys_match_numpy(dtype):
    keys = _keys(dtype, (40,), 2)
    assert_array_equal(_lexsort([kumo.asarray(k) for k in keys]), numpy.lexsort(keys))


def test_mixed_dtypes_three_keys():
    rng = numpy.random.default_rng(1)
    keys = [rng.integers(0, 4, 50).astype(numpy.float32), rng.integers(0, 2, 50).astype(numpy.int16),
            rng.integers(0, 3, 50).astype(numpy.uint8)]
    assert_array_equal(_lexsort([kumo.asarray(k) for k in keys]), numpy.lexsort(keys))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_2d_along_axis(axis):
    keys = _keys(numpy.int64, (6, 7), 3, seed=2)
    assert_array_equal(_lexsort([kumo.asarray(k) for k in keys], axis), numpy.lexsort(keys, axis=axis))


def test_nans_sort_last():
    a = numpy.array([numpy.nan, 1.0, numpy.nan, 0.0, 1.0])
    b = numpy.array([1, 1, 0, 0, 0])
    assert_array_equal(_lexsort([kumo.asarray(a), kumo.asarray(b)]), numpy.lexsort([a, b]))


def test_non_contiguous_and_negative_stride():
    keys = _keys(numpy.float64, (30,), 2, seed=3)
    nk = [k[::-2] for k in keys]
    kk = [kumo.asarray(k)[::-2] for k in keys]
    assert_array_equal(_lexsort(kk), numpy.lexsort(nk))


def test_zero_d_and_empty():
    assert_array_equal(_lexsort([kumo.asarray(3.0)]), numpy.lexsort([numpy.array(3.0)]))
    e = numpy.array([], dtype=numpy.int32)
    assert_array_equal(_lexsort([kumo.asarray(e), kumo.asarray(e)]), numpy.lexsort([e, e]))


def test_errors_as_numpy():
    with pytest.raises(ValueError):
        _lexsort([kumo.asarray([1, 2]), kumo.asarray([1])])
    with pytest.raises(TypeError):
        _lexsort([])
