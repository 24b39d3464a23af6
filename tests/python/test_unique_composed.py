"""unique composed of sort, comparisons and compaction: the path arrays off
the host take, run here on host arrays and compared with numpy.unique."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair

_unique = kumo._core.sorting._unique_composed


def _check(n, k, equal_nan=True):
    values, index, inverse, counts = _unique(k, True, True, True, equal_nan)
    want = numpy.unique(n, return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
    assert_array_equal(values, want[0])
    assert_array_equal(index, want[1])
    assert_array_equal(inverse, want[2])
    assert_array_equal(counts, want[3])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_matches_numpy(dtype, layout):
    n, k = make_pair(layout, dtype)
    _check(n, k)


@pytest.mark.parametrize("equal_nan", [True, False])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128])
def test_nans(equal_nan, dtype):
    nan = numpy.nan
    values = [3.0, nan, 1.0, nan, 3.0, -0.0, 0.0]
    if dtype == numpy.complex128:
        values = [3.0, complex(nan, 1), 1.0, complex(1, nan), 3.0, nan, 0.0]
    n = numpy.array(values, dtype=dtype)
    _check(n, kumo.asarray(n), equal_nan)


def test_only_values_asked():
    n = numpy.array([5, 1, 5, 2, 1])
    values, index, inverse, counts = _unique(kumo.asarray(n))
    assert_array_equal(values, numpy.unique(n))
    assert index is None and inverse is None and counts is None


def test_empty_keeps_dtype_and_shapes():
    n = numpy.zeros((0, 3), dtype=numpy.int16)
    values, index, inverse, counts = _unique(kumo.asarray(n), True, True, True)
    assert values.dtype == numpy.int16 and values.shape == (0,)
    assert inverse.shape == (0, 3) and index.shape == (0,) and counts.shape == (0,)
