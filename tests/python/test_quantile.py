"""median, quantile, percentile and the NaN-ignoring variants against NumPy."""
import warnings

import numpy as np
import pytest

import kumo

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
DTYPES = [np.int8, np.int64, np.uint8, np.uint64, np.float16, np.float32, np.float64]


def _data(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(n) * 10).astype(dtype).reshape(shape)
    return rng.integers(0, 100, n).astype(dtype).reshape(shape)


def _check(r, e):
    r = r.get() if isinstance(r, kumo.ndarray) else r
    assert np.asarray(r).dtype == np.asarray(e).dtype
    assert np.shape(r) == np.shape(e)
    np.testing.assert_allclose(np.asarray(r, dtype=np.float64), np.asarray(e, dtype=np.float64), rtol=1e-12,
                               equal_nan=True)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [1, 2, 3, 10, 11])
def test_quantile_methods(method, n):
    a = _data(np.float64, (n,), seed=n)
    q = [0, 0.1, 0.25, 0.5, 0.9, 1]
    _check(kumo.quantile(kumo.asarray(a), q, method=method), np.quantile(a, q, method=method))


@pytest.mark.parametrize("method", ["linear", "lower", "hazen", "nearest", "midpoint"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_quantile_dtypes(method, dtype):
    a = _data(dtype, (4, 7))
    for q in [0.3, [0.2, 0.7], np.array([0.5], np.float32), 1]:
        _check(kumo.quantile(kumo.asarray(a), q, axis=1, method=method), np.quantile(a, q, axis=1, method=method))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (1, 2), (0, 1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_percentile_axes(axis, keepdims):
    a = _data(np.float64, (3, 4, 5))
    q = [10, 50, 95]
    _check(kumo.percentile(kumo.asarray(a), q, axis=axis, keepdims=keepdims),
           np.percentile(a, q, axis=axis, keepdims=keepdims))
    _check(kumo.median(kumo.asarray(a), axis=axis, keepdims=keepdims), np.median(a, axis=axis, keepdims=keepdims))


def test_quantile_layouts_and_2d_q():
    a = _data(np.float64, (6, 8))
    k = kumo.asarray(a)
    for v, e in [(k.T, a.T), (k[::-1, ::-2], a[::-1, ::-2]), (k[2], a[2])]:
        _check(kumo.quantile(v, [[0.1, 0.2], [0.5, 0.9]], axis=0), np.quantile(e, [[0.1, 0.2], [0.5, 0.9]], axis=0))
    _check(kumo.quantile(kumo.asarray(np.float64(3.0)), 0.5), np.quantile(np.float64(3.0), 0.5))


def test_quantile_nan_propagates():
    a = _data(np.float64, (3, 6))
    a[1, 2] = np.nan
    for m in ["linear", "lower", "inverted_cdf"]:
        _check(kumo.quantile(kumo.asarray(a), [0.2, 0.5], axis=1, method=m), np.quantile(a, [0.2, 0.5], axis=1, method=m))
    _check(kumo.median(kumo.asarray(a), axis=1), np.median(a, axis=1))


def test_quantile_out():
    a = _data(np.float64, (3, 6))
    out = kumo.zeros((2, 3))
    r = kumo.quantile(kumo.asarray(a), [0.2, 0.5], axis=1, out=out)
    assert r is out
    _check(out, np.quantile(a, [0.2, 0.5], axis=1))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_quantile_weights(dtype):
    a = _data(dtype, (5, 9))
    w = np.random.default_rng(1).random(9)
    w[0] = 0
    q = [0, 0.25, 0.5, 1.0]
    _check(kumo.quantile(kumo.asarray(a), q, axis=1, method="inverted_cdf", weights=kumo.asarray(w)),
           np.quantile(a, q, axis=1, method="inverted_cdf", weights=w))
    w2 = np.random.default_rng(2).random(a.shape)
    _check(kumo.percentile(kumo.asarray(a), 30, axis=0, method="inverted_cdf", weights=kumo.asarray(w2)),
           np.percentile(a, 30, axis=0, method="inverted_cdf", weights=w2))


@pytest.mark.parametrize("call, exc", [
    (lambda m, a: m.quantile(a, 1.5), ValueError),
    (lambda m, a: m.percentile(a, -1), ValueError),
    (lambda m, a: m.quantile(a, 0.5, method="foo"), ValueError),
    (lambda m, a: m.quantile(a, 0.5, weights=a), ValueError),
    (lambda m, a: m.quantile(a, 0.5, method="inverted_cdf", weights=-a), ValueError),
    (lambda m, a: m.quantile(a.reshape(2, 2), 0.5, method="inverted_cdf", weights=a[:2]), TypeError),
    (lambda m, a: m.quantile(a, 0.5, axis=2), np.exceptions.AxisError),
    (lambda m, a: m.quantile(a * 1j, 0.5), TypeError),
    (lambda m, a: m.quantile(a[:0], 0.5), IndexError),
    (lambda m, a: m.quantile(a, a.reshape(1, 1, 4) * 0), ValueError),
])
def test_quantile_errors(call, exc):
    a = np.array([1.0, 2.0, 3.0, 4.0])
    with pytest.raises(exc):
        call(np, a)
    with pytest.raises(exc):
        call(kumo, kumo.asarray(a))


@pytest.mark.parametrize("dtype", DTYPES + [np.bool_, np.complex128])
def test_median_dtypes(dtype):
    for shape in [(7,), (4, 6)]:
        a = _data(dtype if dtype not in (np.bool_, np.complex128) else np.int64, shape).astype(dtype)
        _check(kumo.median(kumo.asarray(a), axis=-1), np.median(a, axis=-1))


def test_median_empty_and_out():
    with pytest.warns(RuntimeWarning):
        e = np.median(np.array([]))
    r = kumo.median(kumo.asarray(np.array([])))
    assert np.isnan(float(r.get())) and np.isnan(e)
    a = _data(np.float64, (4, 5))
    out = kumo.zeros(5)
    assert kumo.median(kumo.asarray(a), axis=0, out=out) is out
    _check(out, np.median(a, axis=0))


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_variants(axis):
    a = _data(np.float64, (5, 8))
    a[0, :3] = np.nan
    a[2, 5] = np.nan
    a[4, :] = np.nan
    k = kumo.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        e1, e2, e3 = (np.nanmedian(a, axis=axis), np.nanquantile(a, [0.3, 0.5], axis=axis),
                      np.nanpercentile(a, 70, axis=axis, method="lower"))
    _check(kumo.nanmedian(k, axis=axis), e1)
    _check(kumo.nanquantile(k, [0.3, 0.5], axis=axis), e2)
    _check(kumo.nanpercentile(k, 70, axis=axis, method="lower"), e3)


def test_nan_variants_integers():
    a = _data(np.int32, (4, 5))
    _check(kumo.nanmedian(kumo.asarray(a), axis=1), np.nanmedian(a, axis=1))
    _check(kumo.nanquantile(kumo.asarray(a), 0.4, axis=0), np.nanquantile(a, 0.4, axis=0))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint64, np.float16, np.float32, np.float64])
def test_long_slices(dtype):
    # Slices of 2^17 values and more take the radix selection path.
    a = _data(dtype, (2, 150001), seed=3)
    k = kumo.asarray(a)
    for m in ["linear", "lower", "hazen", "inverted_cdf", "midpoint"]:
        _check(kumo.quantile(k, [0, 0.013, 0.5, 0.77, 1], axis=1, method=m),
               np.quantile(a, [0, 0.013, 0.5, 0.77, 1], axis=1, method=m))
    _check(kumo.median(k, axis=1), np.median(a, axis=1))
    _check(kumo.median(k[0]), np.median(a[0]))
    _check(kumo.percentile(k[1, ::-1], 50), np.percentile(a[1, ::-1], 50))
    np.testing.assert_array_equal(k.get(), a)  # the input is left alone


def test_long_slices_nan():
    a = _data(np.float64, (300000,), seed=4)
    a[::7] = np.nan
    k = kumo.asarray(a)
    _check(kumo.median(k), np.median(a))
    _check(kumo.nanmedian(k), np.nanmedian(a))
    _check(kumo.nanquantile(k, [0.1, 0.5]), np.nanquantile(a, [0.1, 0.5]))
    _check(kumo.quantile(k, 0.5), np.quantile(a, 0.5))
    a[-5:] = -np.inf
    _check(kumo.nanpercentile(kumo.asarray(a), [0, 3, 100]), np.nanpercentile(a, [0, 3, 100]))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64])
def test_mid_slices(dtype):
    # Slices of 4096 values and more take the 11-bit radix selection path.
    a = _data(dtype, (5, 5001), seed=8)
    if np.dtype(dtype).kind == "f":
        a[1, ::3] = np.nan
        a[2, :] = np.nan
    k = kumo.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for m in ["linear", "lower", "weibull", "closest_observation"]:
            _check(kumo.quantile(k, [0, 0.3, 0.5, 1], axis=1, method=m),
                   np.quantile(a, [0, 0.3, 0.5, 1], axis=1, method=m))
            _check(kumo.nanquantile(k, [0, 0.3, 0.5, 1], axis=1, method=m),
                   np.nanquantile(a, [0, 0.3, 0.5, 1], axis=1, method=m))
        _check(kumo.median(k, axis=1), np.median(a, axis=1))
        _check(kumo.nanmedian(k.T, axis=0), np.nanmedian(a.T, axis=0))
