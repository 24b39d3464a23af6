"""bincount, digitize and the histogram family against NumPy."""
import numpy as np
import pytest

import kumo

INT_TYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
REAL_TYPES = [np.int8, np.int32, np.int64, np.uint8, np.uint64, np.float16, np.float32, np.float64]
ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


def _data(dtype, n=1000, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(n) * 10).astype(dtype)
    if np.dtype(dtype) == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    return rng.integers(0, 100, n).astype(dtype)


@pytest.mark.parametrize("dtype", INT_TYPES)
def test_bincount_dtypes(dtype):
    x = _data(dtype)
    np.testing.assert_array_equal(kumo.bincount(kumo.asarray(x)).get(), np.bincount(x))


@pytest.mark.parametrize("n", [0, 1, 70000, 300000])
def test_bincount_sizes_and_minlength(n):
    x = np.random.default_rng(1).integers(0, 37, n)
    for minlength in [0, 5, 100]:
        r = kumo.bincount(kumo.asarray(x), minlength=minlength)
        e = np.bincount(x, minlength=minlength)
        assert r.dtype == e.dtype
        np.testing.assert_array_equal(r.get(), e)


@pytest.mark.parametrize("wdtype", [np.float64, np.float32, np.int64, np.bool_])
def test_bincount_weights(wdtype):
    x = np.random.default_rng(2).integers(0, 20, 200000)
    w = _data(wdtype, x.size).astype(wdtype)
    r = kumo.bincount(kumo.asarray(x), kumo.asarray(w))
    e = np.bincount(x, w)
    assert r.dtype == e.dtype
    np.testing.assert_allclose(r.get(), e, rtol=1e-9, atol=1e-6)


def test_bincount_noncontiguous_and_reversed():
    x = np.arange(40) % 7
    np.testing.assert_array_equal(kumo.bincount(kumo.asarray(x)[::-3]).get(), np.bincount(x[::-3]))


@pytest.mark.parametrize("x, kw, exc", [
    (np.array([-1, 2]), {}, ValueError),
    (np.array([1.0, 2.0]), {}, TypeError),
    (np.array(3), {}, ValueError),
    (np.ones((2, 2), int), {}, ValueError),
    (np.array([1, 2]), {"minlength": -1}, ValueError),
    (np.array([1, 2]), {"weights": np.array([1.0])}, ValueError),
    (np.array([1, 2]), {"weights": np.array([1j, 2])}, TypeError),
])
def test_bincount_errors(x, kw, exc):
    with pytest.raises(exc):
        np.bincount(x, **kw)
    kw = {k: kumo.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    with pytest.raises(exc):
        kumo.bincount(kumo.asarray(x), **kw)


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("bins", [[0.0, 1.0, 2.5, 4.0], [4.0, 2.5, 1.0, 0.0], [1.0], [2.0, 2.0, 3.0]])
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64])
def test_digitize(bins, right, dtype):
    x = np.array([-1, 0, 1, 2, 2.5, 3, 4, 5, np.nan]) if dtype != np.int64 else np.arange(-1, 6)
    x = x.astype(dtype)
    b = np.array(bins)
    np.testing.assert_array_equal(kumo.digitize(kumo.asarray(x), kumo.asarray(b), right=right).get(),
                                  np.digitize(x, b, right=right))


def test_digitize_scalar_and_errors():
    assert kumo.digitize(2, kumo.asarray([1, 3])).get() == np.digitize(2, [1, 3])
    with pytest.raises(ValueError):
        kumo.digitize(kumo.asarray([1, 2]), kumo.asarray([1, 3, 2]))
    with pytest.raises(TypeError):
        kumo.digitize(kumo.asarray([1j]), kumo.asarray([1, 2]))
    with pytest.raises(ValueError):
        kumo.digitize(kumo.asarray([1]), kumo.asarray([[1, 2]]))


@pytest.mark.parametrize("dtype", REAL_TYPES)
@pytest.mark.parametrize("bins", [1, 10, 100])
def test_histogram_int_bins(dtype, bins):
    a = _data(dtype, 5000)
    h, e = kumo.histogram(kumo.asarray(a), bins)
    h2, e2 = np.histogram(a, bins)
    assert h.dtype == h2.dtype and e.dtype == e2.dtype
    np.testing.assert_array_equal(h.get(), h2)
    np.testing.assert_array_equal(e.get(), e2)


@pytest.mark.parametrize("rng_", [(-5, 5), (0, 1), (-100.5, 3)])
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_histogram_range(rng_, dtype):
    a = _data(dtype, 5000)
    h, e = kumo.histogram(kumo.asarray(a), 17, range=rng_)
    h2, e2 = np.histogram(a, 17, range=rng_)
    np.testing.assert_array_equal(h.get(), h2)
    np.testing.assert_allclose(e.get(), e2)


def test_histogram_edges_array_and_2d_input():
    a = _data(np.float64, 3000).reshape(30, 100)[:, ::-2]
    edges = np.array([-20.0, -3, 0, 0.5, 7, 30])
    h, e = kumo.histogram(kumo.asarray(a), kumo.asarray(edges))
    h2, e2 = np.histogram(a, edges)
    np.testing.assert_array_equal(h.get(), h2)
    h, e = kumo.histogram(kumo.asarray(a), [-1, 0, 1])
    np.testing.assert_array_equal(h.get(), np.histogram(a, [-1, 0, 1])[0])


@pytest.mark.parametrize("wdtype", [np.float64, np.float32, np.int64, np.complex128])
@pytest.mark.parametrize("bins", [10, [-30.0, -1, 0, 2, 30]])
def test_histogram_weights(wdtype, bins):
    a = _data(np.float64, 4000)
    w = (np.random.default_rng(3).random(4000) * 5).astype(wdtype)
    if np.dtype(wdtype).kind == "c":
        w = w + 1j * w[::-1]
    h, _ = kumo.histogram(kumo.asarray(a), bins if np.ndim(bins) == 0 else kumo.asarray(bins), weights=kumo.asarray(w))
    h2, _ = np.histogram(a, bins, weights=w)
    assert h.dtype == h2.dtype
    # NumPy sums float32 weights in float32 (a cumulative sum for edges), kumo in float64.
    np.testing.assert_allclose(h.get(), h2, rtol=1e-4 if wdtype == np.float32 else 1e-9)


@pytest.mark.parametrize("bins", [7, [-30.0, -1, 0, 2, 30]])
def test_histogram_density(bins):
    a = _data(np.float64, 4000)
    h, _ = kumo.histogram(kumo.asarray(a), bins if np.ndim(bins) == 0 else kumo.asarray(bins), density=True)
    np.testing.assert_allclose(h.get(), np.histogram(a, bins, density=True)[0])


def test_histogram_empty_and_constant():
    for a in [np.array([]), np.array([3.0, 3.0]), np.array([[5]])]:
        h, e = kumo.histogram(kumo.asarray(a), 4)
        h2, e2 = np.histogram(a, 4)
        np.testing.assert_array_equal(h.get(), h2)
        np.testing.assert_array_equal(e.get(), e2)


@pytest.mark.parametrize("est", ESTIMATORS)
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64])
def test_histogram_estimators(est, dtype):
    a = _data(dtype, 1000)
    e = kumo.histogram_bin_edges(kumo.asarray(a), est).get()
    e2 = np.histogram_bin_edges(a, est)
    assert e.shape == e2.shape
    np.testing.assert_allclose(e, e2, rtol=1e-5)
    h, _ = kumo.histogram(kumo.asarray(a), est, range=(-3, 3))
    np.testing.assert_array_equal(h.get(), np.histogram(a, est, range=(-3, 3))[0])


@pytest.mark.parametrize("call, exc", [
    (lambda m, a: m.histogram(a, 0), ValueError),
    (lambda m, a: m.histogram(a, 1.5), TypeError),
    (lambda m, a: m.histogram(a, "foo"), ValueError),
    (lambda m, a: m.histogram(a, [3, 2, 1]), ValueError),
    (lambda m, a: m.histogram(a, 3, range=(2, 1)), ValueError),
    (lambda m, a: m.histogram(a, 3, range=(0, np.inf)), ValueError),
    (lambda m, a: m.histogram(a, "auto", weights=a), TypeError),
    (lambda m, a: m.histogram(a, 3, weights=a[:2]), ValueError),
    (lambda m, a: m.histogram(a * np.inf if m is np else a * float("inf"), 3), ValueError),
])
def test_histogram_errors(call, exc):
    a = np.array([1.0, 2.0, 3.0])
    with pytest.raises(exc):
        call(np, a)
    with pytest.raises(exc):
        call(kumo, kumo.asarray(a))


@pytest.mark.parametrize("bins", [5, [3, 4], [np.array([-3.0, 0, 3]), 4]])
@pytest.mark.parametrize("density", [False, True])
def test_histogram2d(bins, density):
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal(1000), rng.standard_normal(1000)
    kb = [kumo.asarray(b) if isinstance(b, np.ndarray) else b for b in bins] if isinstance(bins, list) else bins
    h, ex, ey = kumo.histogram2d(kumo.asarray(x), kumo.asarray(y), kb, density=density)
    h2, ex2, ey2 = np.histogram2d(x, y, bins, density=density)
    np.testing.assert_allclose(h.get(), h2)
    np.testing.assert_allclose(ex.get(), ex2)
    np.testing.assert_allclose(ey.get(), ey2)


def test_histogramdd_weights_range():
    rng = np.random.default_rng(6)
    s = rng.standard_normal((2000, 3))
    w = rng.random(2000)
    r = [(-2, 2), None, (0, 1)]
    h, e = kumo.histogramdd(kumo.asarray(s), (3, 4, 5), range=r, weights=kumo.asarray(w))
    h2, e2 = np.histogramdd(s, (3, 4, 5), range=r, weights=w)
    assert h.dtype == h2.dtype
    np.testing.assert_allclose(h.get(), h2)
    for a, b in zip(e, e2):
        np.testing.assert_allclose(a.get(), b)


def test_histogramdd_errors():
    s = np.zeros((5, 2))
    with pytest.raises(ValueError):
        kumo.histogramdd(kumo.asarray(s), [2, 3, 4])
    with pytest.raises(ValueError):
        kumo.histogramdd(kumo.asarray(s), 0)
    with pytest.raises(ValueError):
        kumo.histogramdd(kumo.asarray(s), 3, range=[(0, 1)])


def test_histogram_noncontiguous_operands():
    a = _data(np.float64, 4000)
    w = np.random.default_rng(7).random(4000)
    edges = np.array([30.0, 2, 0, -1, -30])[::-1]
    h, _ = kumo.histogram(kumo.asarray(a)[::-2], kumo.asarray(np.array([30.0, 2, 0, -1, -30]))[::-1],
                          weights=kumo.asarray(w)[::-2])
    np.testing.assert_allclose(h.get(), np.histogram(a[::-2], edges, weights=w[::-2])[0])
    r = kumo.bincount(kumo.asarray(np.arange(50) % 9)[::-4], kumo.asarray(w[:50])[::-4])
    np.testing.assert_allclose(r.get(), np.bincount((np.arange(50) % 9)[::-4], w[:50][::-4]))


def test_bincount_float_sequence_warns_and_casts():
    with pytest.warns(DeprecationWarning):
        e = np.bincount([1.5, 2.0])
    with pytest.warns(DeprecationWarning):
        r = kumo.bincount([1.5, 2.0])
    np.testing.assert_array_equal(r.get(), e)


def test_histogram_bool_input_warns():
    a = np.array([True, False, True])
    with pytest.warns(RuntimeWarning):
        e = np.histogram(a, 2)
    with pytest.warns(RuntimeWarning):
        h, edges = kumo.histogram(kumo.asarray(a), 2)
    np.testing.assert_array_equal(h.get(), e[0])
    np.testing.assert_array_equal(edges.get(), e[1])
