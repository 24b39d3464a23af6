"""correlate, convolve, cov, corrcoef, cumulative_sum and cumulative_prod against NumPy."""
import warnings

import numpy as np
import pytest

import kumo

DTYPES = [np.bool_, np.int8, np.int64, np.uint16, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def _data(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(-5, 6, shape) if np.dtype(dtype).kind in "iub" else rng.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "u":
        x = np.abs(x)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _check(r, e, rtol=1e-6):
    r = r.get() if isinstance(r, kumo.ndarray) else r
    assert np.asarray(r).dtype == np.asarray(e).dtype
    assert np.shape(r) == np.shape(e)
    tol = 2e-2 if np.asarray(e).dtype == np.float16 else rtol
    np.testing.assert_allclose(np.asarray(r), np.asarray(e), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["valid", "same", "full"])
@pytest.mark.parametrize("n, m", [(7, 3), (3, 7), (6, 4), (4, 6), (1, 1), (5, 5)])
def test_correlate_convolve(dtype, mode, n, m):
    a, v = _data(dtype, n, 1), _data(dtype, m, 2)
    _check(kumo.correlate(kumo.asarray(a), kumo.asarray(v), mode), np.correlate(a, v, mode))
    _check(kumo.convolve(kumo.asarray(a), kumo.asarray(v), mode), np.convolve(a, v, mode))


def test_correlate_mixed_and_strided():
    a, v = _data(np.float32, 20), _data(np.int64, 5)
    _check(kumo.correlate(kumo.asarray(a)[::-2], kumo.asarray(v)[::2], "full"), np.correlate(a[::-2], v[::2], "full"))
    _check(kumo.convolve(kumo.asarray(a), kumo.asarray(v), 1), np.convolve(a, v, 1))


@pytest.mark.parametrize("call, exc", [
    (lambda m, a: m.correlate(a[:0], a), ValueError),
    (lambda m, a: m.correlate(a, a[:0]), ValueError),
    (lambda m, a: m.convolve(a[:0], a), ValueError),
    (lambda m, a: m.convolve(a, a[:0]), ValueError),
    (lambda m, a: m.correlate(a, a, "foo"), ValueError),
    (lambda m, a: m.correlate(a.reshape(2, 2), a), ValueError),
    (lambda m, a: m.correlate(a[0], a), ValueError),
])
def test_correlate_errors(call, exc):
    a = np.arange(4.0)
    with pytest.raises(exc):
        call(np, a)
    with pytest.raises(exc):
        call(kumo, kumo.asarray(a))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("bias, ddof", [(False, None), (True, None), (False, 0), (False, 2)])
def test_cov(dtype, rowvar, bias, ddof):
    x = _data(dtype, (3, 8))
    _check(kumo.cov(kumo.asarray(x), rowvar=rowvar, bias=bias, ddof=ddof), np.cov(x, rowvar=rowvar, bias=bias, ddof=ddof))


def test_cov_y_weights_dtype():
    x, y = _data(np.float64, (2, 9), 1), _data(np.float64, (9,), 2)
    f, a = np.arange(9) % 3 + 1, np.linspace(0.1, 1, 9)
    kx, ky = kumo.asarray(x), kumo.asarray(y)
    _check(kumo.cov(kx, ky), np.cov(x, y))
    _check(kumo.cov(kx, fweights=kumo.asarray(f)), np.cov(x, fweights=f))
    _check(kumo.cov(kx, aweights=kumo.asarray(a), ddof=1), np.cov(x, aweights=a, ddof=1))
    _check(kumo.cov(kx, fweights=kumo.asarray(f), aweights=kumo.asarray(a)), np.cov(x, fweights=f, aweights=a))
    _check(kumo.cov(kx, dtype=np.float32), np.cov(x, dtype=np.float32))
    _check(kumo.cov(kumo.asarray(x[0])), np.cov(x[0]))
    _check(kumo.cov(kx.T, rowvar=False), np.cov(x.T, rowvar=False))


@pytest.mark.parametrize("call, exc", [
    (lambda m, x, mk: m.cov(x, ddof=1.5), ValueError),
    (lambda m, x, mk: m.cov(mk(np.ones((2, 2, 2)))), ValueError),
    (lambda m, x, mk: m.cov(x, fweights=mk(np.array([1.5, 1, 1, 1]))), TypeError),
    (lambda m, x, mk: m.cov(x, fweights=mk(np.array([1, 1]))), RuntimeError),
    (lambda m, x, mk: m.cov(x, fweights=mk(np.array([-1, 1, 1, 1]))), ValueError),
    (lambda m, x, mk: m.cov(x, aweights=mk(np.ones((4, 1)))), RuntimeError),
    (lambda m, x, mk: m.cov(x, aweights=mk(np.array([-1.0, 1, 1, 1]))), ValueError),
])
def test_cov_errors(call, exc):
    x = np.arange(8.0).reshape(2, 4)
    with pytest.raises(exc):
        call(np, x, np.asarray)
    with pytest.raises(exc):
        call(kumo, kumo.asarray(x), kumo.asarray)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
def test_corrcoef(dtype):
    x = _data(dtype, (4, 10))
    _check(kumo.corrcoef(kumo.asarray(x)), np.corrcoef(x))
    _check(kumo.corrcoef(kumo.asarray(x), rowvar=False), np.corrcoef(x, rowvar=False))
    _check(kumo.corrcoef(kumo.asarray(x[0]), kumo.asarray(x[1])), np.corrcoef(x[0], x[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _check(kumo.corrcoef(kumo.asarray(x[0])), np.corrcoef(x[0]))


@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.float16, np.float64, np.complex64])
@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative(fn, dtype, include_initial):
    x = _data(dtype, (3, 4))
    kx = kumo.asarray(x)
    for axis in [0, 1, -1]:
        _check(getattr(kumo, fn)(kx, axis=axis, include_initial=include_initial),
               getattr(np, fn)(x, axis=axis, include_initial=include_initial))
    _check(getattr(kumo, fn)(kx[1, ::-1], include_initial=include_initial),
           getattr(np, fn)(x[1, ::-1], include_initial=include_initial))
    _check(getattr(kumo, fn)(kumo.asarray(x[0, 0]), include_initial=include_initial),
           getattr(np, fn)(x[0, 0], include_initial=include_initial))


@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_dtype_out_errors(fn):
    x = _data(np.int64, (3, 4))
    kx = kumo.asarray(x)
    _check(getattr(kumo, fn)(kx, axis=1, dtype=np.float32), getattr(np, fn)(x, axis=1, dtype=np.float32))
    out = kumo.zeros((3, 5), dtype=np.int64)
    assert getattr(kumo, fn)(kx, axis=1, out=out, include_initial=True) is out
    _check(out, getattr(np, fn)(x, axis=1, include_initial=True))
    out = kumo.zeros((3, 4))
    assert getattr(kumo, fn)(kx, axis=0, out=out) is out
    _check(out, getattr(np, fn)(x, axis=0).astype(float))
    for call, exc in [(lambda m, a: getattr(m, fn)(a), ValueError),
                      (lambda m, a: getattr(m, fn)(a, axis=2), np.exceptions.AxisError)]:
        with pytest.raises(exc):
            call(np, x)
        with pytest.raises(exc):
            call(kumo, kx)


def test_nan_scans_exist():
    x = np.array([1.0, np.nan, 2.0])
    _check(kumo.nancumsum(kumo.asarray(x)), np.nancumsum(x))
    _check(kumo.nancumprod(kumo.asarray(x)), np.nancumprod(x))
