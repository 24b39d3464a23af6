"""quantile/percentile/median by sorting on the device: the path arrays off
the host take, run here on host arrays and compared with NumPy (and with
the host path, bit for bit)."""
import warnings

import numpy
import pytest

import kumo
from conftest import assert_allclose

_s = kumo._core.statistics
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
DTYPES = [numpy.int32, numpy.uint8, numpy.int64, numpy.float16, numpy.float32, numpy.float64, numpy.bool_]


def _by_sort(a, q, axis=None, method="linear", keepdims=False, percent=False, skip_nan=False):
    weak = type(q) in (int, float)
    return _s._quantile_by_sort(kumo.asarray(a), kumo.asarray(q), axis, method, keepdims, percent, skip_nan, weak)


def _data(shape, dtype, seed=0, nan=False):
    rng = numpy.random.default_rng(seed)
    a = rng.integers(0, 20, shape).astype(dtype) if dtype != numpy.bool_ else rng.integers(0, 2, shape) > 0
    if numpy.issubdtype(dtype, numpy.floating):
        a = (rng.standard_normal(shape) * 10).astype(dtype)
        if nan and a.size:
            a.flat[:: max(1, a.size // 4)] = numpy.nan
    return a


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("q", [0.0, 0.3, [0.1, 0.5, 0.99], 1.0])
def test_methods_match_numpy(method, q):
    a = _data((7, 9), numpy.float64)
    got = _by_sort(a, q, axis=1, method=method)
    want = numpy.quantile(a, q, axis=1, method=method)
    assert_allclose(got, want, rtol=1e-12, atol=0)
    # ...and the host path exactly
    host = kumo.quantile(kumo.asarray(a), q, axis=1, method=method)
    numpy.testing.assert_array_equal(kumo.asnumpy(got), kumo.asnumpy(host))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [None, 0, (0, 2), -1])
def test_dtypes_and_axes(dtype, axis):
    a = _data((4, 5, 6), dtype, seed=1)
    if dtype == numpy.bool_:  # NumPy refuses to interpolate booleans (subtract)
        with pytest.raises(TypeError):
            numpy.quantile(a, 0.37, axis=axis)
        with pytest.raises(TypeError):
            _by_sort(a, 0.37, axis=axis)
        return
    got = _by_sort(a, 0.37, axis=axis)
    want = numpy.quantile(a, 0.37, axis=axis)
    assert got.dtype == want.dtype
    assert_allclose(got, want, rtol=1e-3 if dtype == numpy.float16 else 1e-12)


def test_percent_and_keepdims():
    a = _data((3, 8), numpy.float32, seed=2)
    got = _by_sort(a, numpy.array([25.0, 75.0], dtype=numpy.float32), axis=1, keepdims=True, percent=True)
    want = numpy.percentile(a, numpy.array([25.0, 75.0], dtype=numpy.float32), axis=1, keepdims=True)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert_allclose(got, want, rtol=1e-6)


def test_nan_propagates_and_nan_variant_skips():
    a = _data((5, 8), numpy.float64, seed=3, nan=True)
    assert_allclose(_by_sort(a, 0.5, axis=1), numpy.quantile(a, 0.5, axis=1), rtol=1e-12)
    assert_allclose(_by_sort(a, [0.2, 0.8], axis=1, skip_nan=True), numpy.nanquantile(a, [0.2, 0.8], axis=1),
                    rtol=1e-12)


def test_all_nan_row_gives_nan():
    a = numpy.array([[numpy.nan, numpy.nan], [1.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = numpy.nanquantile(a, 0.5, axis=1)
    assert_allclose(_by_sort(a, 0.5, axis=1, skip_nan=True), want)


def test_non_contiguous_and_negative_stride():
    base = _data((6, 10), numpy.float64, seed=4)
    a = base[::-1, ::2]
    got = _s._quantile_by_sort(kumo.asarray(base)[::-1, ::2], kumo.asarray(0.6), 0, "hazen", False, False, False, True)
    assert_allclose(got, numpy.quantile(a, 0.6, axis=0, method="hazen"), rtol=1e-12)


def test_empty_slices_raise_as_numpy():
    with pytest.raises(IndexError):
        _by_sort(numpy.ones((3, 0)), 0.5, axis=1)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("n", [1, 6, 7])
def test_median_matches_numpy(dtype, axis, n):
    a = _data((n, 5), dtype, seed=5)
    got = _s._median_by_sort(kumo.asarray(a), axis, False, False)
    want = numpy.median(a, axis=axis)
    assert got.dtype == want.dtype
    assert_allclose(got, want, rtol=1e-3 if dtype == numpy.float16 else 1e-12)


def test_nanmedian_by_sort():
    a = _data((4, 9), numpy.float64, seed=6, nan=True)
    got = _s._median_by_sort(kumo.asarray(a), 1, True, True)
    assert_allclose(got, numpy.nanmedian(a, axis=1, keepdims=True), rtol=1e-12)
