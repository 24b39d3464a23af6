"""kumo.sparse methods against scipy.sparse 1.17: reductions with axis
(sum, mean, max/min, nanmax/nanmin, argmax/argmin, count_nonzero, getnnz),
the elementwise functions that keep sparsity, power, maximum/minimum,
setdiag, trace, nonzero, reshape and resize; formats, dtypes, empty and
non-canonical inputs, and SciPy's errors."""
import warnings

import numpy
import pytest
import scipy.sparse as sps

import kumo
import kumo.sparse as ks
from test_sparse_arithmetic import DTYPES, FORMATS, close, np_, pair, same_sparse

REAL = [d for d in DTYPES if numpy.dtype(d).kind != "c"]
FLOATS = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def scalar_equal(got, want):
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, (float, complex, numpy.inexact)):
        numpy.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    else:
        assert got == want


def dense_equal(got, want):
    """want may be a numpy.matrix (SciPy's *_matrix results): kumo gives the 2-d array."""
    close(got, numpy.asarray(want))


# ---- sums and means ----

@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_sum(fmt, dtype, kind):
    k, s = pair(fmt, kind, dtype)
    scalar_equal(k.sum(), s.sum())
    for axis in (0, 1, -1, -2):
        dense_equal(k.sum(axis=axis), s.sum(axis=axis))


@pytest.mark.parametrize("fmt", FORMATS)
def test_sum_dtype_and_out(fmt):
    k, s = pair(fmt, "array", numpy.int8)
    scalar_equal(k.sum(dtype=numpy.float32), s.sum(dtype=numpy.float32))
    dense_equal(k.sum(axis=0, dtype=numpy.float64), s.sum(axis=0, dtype=numpy.float64))
    out = kumo.zeros(6, dtype=numpy.int64)
    r = k.sum(axis=1, out=out)
    assert r is out
    close(out, s.sum(axis=1))


@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_mean(fmt, dtype, kind):
    k, s = pair(fmt, kind, dtype)
    scalar_equal(k.mean(), s.mean())
    for axis in (0, 1):
        dense_equal(k.mean(axis=axis), s.mean(axis=axis))


@pytest.mark.parametrize("axis", [2, -3, (0, 0)])
def test_bad_axis(axis):
    k, s = pair("csr", "array", numpy.float64)
    with pytest.raises(ValueError):
        s.sum(axis=axis)
    with pytest.raises(ValueError):
        k.sum(axis=axis)
    with pytest.raises(TypeError):
        k.max(axis=1.5)


# ---- max / min / arg ----

@pytest.mark.parametrize("op", ["max", "min", "nanmax", "nanmin"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_max_min(fmt, dtype, op):
    k, s = pair(fmt, "matrix", dtype)
    scalar_equal(getattr(k, op)(), getattr(s, op)())
    for axis in (0, 1):
        same_sparse(getattr(k, op)(axis=axis), getattr(s, op)(axis=axis))
    scalar_equal(getattr(k, op)(explicit=True), getattr(s, op)(explicit=True))
    for axis in (0, 1):
        same_sparse(getattr(k, op)(axis=axis, explicit=True), getattr(s, op)(axis=axis, explicit=True))


@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_argmax_argmin(fmt, dtype, kind, op):
    k, s = pair(fmt, kind, dtype)
    scalar_equal(getattr(k, op)(), getattr(s, op)())
    for axis in (0, 1):
        dense_equal(getattr(k, op)(axis=axis), getattr(s, op)(axis=axis))
        dense_equal(getattr(k, op)(axis=axis, explicit=True), getattr(s, op)(axis=axis, explicit=True))


@pytest.mark.parametrize("op", ["max", "min", "nanmax", "nanmin", "argmax", "argmin"])
def test_nan_and_full_rows(op):
    d = numpy.array([[numpy.nan, 1.0, 2.0], [0.0, 0.0, 0.0], [-1.0, numpy.nan, 0.0], [3.0, -2.0, 5.0]])
    d[1, 1] = 0.0
    s = sps.csr_matrix(d)
    s[1, 1] = 0.0  # an explicit zero
    k = ks.csr_matrix(s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(s, op)()
        got = getattr(k, op)()
    if isinstance(want, float) and numpy.isnan(want):
        assert numpy.isnan(got)
    else:
        scalar_equal(got, want)
    for axis in (0, 1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            w = getattr(s, op)(axis=axis)
        g = getattr(k, op)(axis=axis)
        dense_equal(g.toarray() if hasattr(g, "toarray") else g, w.toarray() if hasattr(w, "toarray") else w)


@pytest.mark.parametrize("axis", [0, 1])
def test_sparray_max_axis_is_1d_coo(axis):
    k, s = pair("csr", "array", numpy.float64)
    same_sparse(k.max(axis=axis), s.max(axis=axis))


@pytest.mark.parametrize("op", ["max", "argmax"])
def test_reduction_errors(op):
    for shape in [(0, 3), (3, 0)]:
        s, k = sps.csr_matrix(shape), ks.csr_matrix(shape)
        with pytest.raises(ValueError):
            getattr(s, op)()
        with pytest.raises(ValueError):
            getattr(k, op)()
    k, s = pair("csr", "matrix", numpy.float64)
    with pytest.raises(ValueError):
        getattr(s, op)(out=numpy.zeros(1))
    with pytest.raises(ValueError):
        getattr(k, op)(out=numpy.zeros(1))
    if op == "argmax":  # nothing stored: max is 0, argmax has nothing to point at
        with pytest.raises(ValueError):
            sps.csr_matrix((2, 2)).argmax(explicit=True)
        with pytest.raises(ValueError):
            ks.csr_matrix((2, 2)).argmax(explicit=True)
    else:
        scalar_equal(ks.csr_matrix((2, 2)).max(explicit=True), sps.csr_matrix((2, 2)).max(explicit=True))


# ---- counts ----

@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int32, numpy.float64])
def test_count_nonzero_getnnz(fmt, dtype):
    k, s = pair(fmt, "matrix", dtype)
    # Before count_nonzero: SciPy's sums s's duplicates in place.
    assert k.getnnz() == s.getnnz()
    for axis in (0, 1):
        numpy.testing.assert_array_equal(np_(k.getnnz(axis=axis)), s.getnnz(axis=axis))
    scalar_equal(k.count_nonzero(), s.count_nonzero())
    for axis in (0, 1):
        numpy.testing.assert_array_equal(np_(k.count_nonzero(axis=axis)), s.count_nonzero(axis=axis))


# ---- elementwise functions ----

UNARY = ["arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad", "expm1", "floor", "log1p", "rad2deg", "rint",
         "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc"]


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64, numpy.complex128])
@pytest.mark.parametrize("fmt", FORMATS)
def test_unary(fmt, dtype, name):
    if numpy.dtype(dtype).kind == "c" and name in ("ceil", "floor", "trunc", "rint", "deg2rad", "rad2deg"):
        pytest.skip("not a complex ufunc in NumPy")
    k, s = pair(fmt, "array", dtype)
    k, s = k * 0.25 if dtype != numpy.int32 else k, s * 0.25 if dtype != numpy.int32 else s
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(s, name)()
        got = getattr(k, name)()
    assert got.format == want.format and got.dtype == want.dtype
    numpy.testing.assert_allclose(np_(got.toarray()), want.toarray(), rtol=1e-5, equal_nan=True)


@pytest.mark.parametrize("name", ["sign", "rint"])
def test_unary_bool_errors(name):
    k, s = pair("csr", "array", numpy.bool_)
    with pytest.raises((TypeError, ValueError)) as want:
        getattr(s, name)()
    with pytest.raises((TypeError, ValueError)):
        getattr(k, name)()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_abs_round(fmt, dtype):
    k, s = pair(fmt, "array", dtype)
    same_sparse(abs(k), abs(s))
    if numpy.dtype(dtype).kind == "f":
        same_sparse(round(k * 0.37, 1), round(s * 0.37, 1))


@pytest.mark.parametrize("n,dtype", [(2, None), (3, numpy.float64), (0.5, None), (-1.0, None)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_power(fmt, n, dtype):
    k, s = pair(fmt, "array", numpy.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = s.power(n, dtype=dtype)
    numpy.testing.assert_allclose(np_(k.power(n, dtype=dtype).toarray()), want.toarray(), equal_nan=True)
    with pytest.raises(NotImplementedError):
        s.power(0)
    with pytest.raises(NotImplementedError):
        k.power(0)


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64, numpy.complex128])
@pytest.mark.parametrize("fmt", FORMATS)
def test_maximum_minimum(fmt, dtype, op):
    k1, s1 = pair(fmt, "array", dtype, seed=0)
    k2, s2 = pair("csr", "array", dtype, seed=7)
    same_sparse(getattr(k1, op)(k2), getattr(s1, op)(s2))
    for c in (-2, 2):
        with warnings.catch_warnings(record=True) as wk:
            warnings.simplefilter("always")
            got = getattr(k1, op)(c)
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            want = getattr(s1, op)(c)
        same_sparse(got, want)
        assert len(wk) == len(ws)
    d = numpy.arange(30).reshape(6, 5).astype(dtype) - 10
    close(getattr(k1, op)(d), getattr(s1, op)(d))


# ---- structure ----

@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("k_off", [0, 1, -2, 4, -5])
def test_trace_setdiag(fmt, k_off):
    k, s = pair(fmt, "matrix", numpy.float64)
    scalar_equal(k.trace(k_off), s.trace(k_off))
    for values in (7.0, [1.0, 2.0], numpy.arange(1.0, 10.0)):
        k2, s2 = k.copy(), s.copy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s2.setdiag(values, k_off)
        k2.setdiag(values, k_off)
        assert k2.format == s2.format
        close(k2.toarray(), s2.toarray())
    with pytest.raises(ValueError):
        s.setdiag(1.0, 6)
    with pytest.raises(ValueError):
        k.setdiag(1.0, 6)


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int32, numpy.complex64])
@pytest.mark.parametrize("fmt", FORMATS)
def test_nonzero(fmt, dtype):
    k, s = pair(fmt, "array", dtype)
    kr, kc = k.nonzero()
    sr, sc = s.nonzero()
    got = sorted(zip(np_(kr).tolist(), np_(kc).tolist()))
    assert got == sorted(zip(sr.tolist(), sc.tolist()))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(3, 10), (30, 1), (1, 30), (-1, 2)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_reshape(fmt, shape, order):
    k, s = pair(fmt, "matrix", numpy.float64)
    same_sparse(k.reshape(shape, order=order), s.reshape(shape, order=order))


def test_reshape_errors():
    k, s = pair("csr", "matrix", numpy.float64)
    for shape in [(4, 7), (30,)]:
        with pytest.raises(ValueError):
            s.reshape(shape)
        with pytest.raises(ValueError):
            k.reshape(shape)


@pytest.mark.parametrize("shape", [(3, 2), (8, 9), (6, 2), (0, 0)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_resize(fmt, shape):
    k, s = pair(fmt, "array", numpy.float64)
    k.resize(shape)
    s.resize(shape)
    same_sparse(k, s)
    with pytest.raises(ValueError):
        k.resize((-1, 2))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_empty_matrices(fmt, shape):
    k = getattr(ks, f"{fmt}_matrix")(shape)
    s = getattr(sps, f"{fmt}_matrix")(shape)
    scalar_equal(k.sum(), s.sum())
    for axis in (0, 1):
        dense_equal(k.sum(axis=axis), s.sum(axis=axis))
    scalar_equal(k.count_nonzero(), s.count_nonzero())
    scalar_equal(k.trace(), s.trace())
    assert k.nonzero()[0].shape == (0,)
