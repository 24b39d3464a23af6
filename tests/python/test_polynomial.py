"""The legacy polynomial API (poly1d, poly, roots, polyval, polyfit, polyadd,
polysub, polymul, polydiv, polyder, polyint) against NumPy."""
import warnings

import numpy
import pytest

import kumo
from conftest import FLOAT_DTYPES, INT_DTYPES, assert_allclose, assert_array_equal, make_pair

COEF_DTYPES = INT_DTYPES + [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def both_raise(exc, np_fn, k_fn):
    with pytest.raises(exc):
        np_fn()
    with pytest.raises(exc):
        k_fn()


def coeffs(dtype, values=(3, 0, 2, 1)):
    return numpy.array(values).astype(dtype)


def _sorted(v):
    v = numpy.asarray(v)
    return v[numpy.lexsort((v.imag, v.real))] if v.dtype.kind == "c" else numpy.sort(v)


# ---- functions --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", COEF_DTYPES)
def test_polyval_dtypes(dtype):
    p = coeffs(dtype)
    x, kx = make_pair("3d", dtype)
    assert_allclose(kumo.polyval(kumo.asarray(p), kx), numpy.polyval(p, x))


@pytest.mark.parametrize("layout", ["0d", "empty", "1d", "broadcast", "transposed", "negative"])
def test_polyval_layouts(layout):
    x, kx = make_pair(layout, numpy.float64)
    assert_allclose(kumo.polyval([1.5, -2, 0, 4], kx), numpy.polyval([1.5, -2, 0, 4], x))


def test_polyval_poly1d_argument():
    got = kumo.polyval([1, 2, 3], kumo.poly1d([1, -1]))
    want = numpy.polyval([1, 2, 3], numpy.poly1d([1, -1]))
    assert isinstance(got, kumo.poly1d)
    assert_array_equal(got.coeffs, want.coeffs)


@pytest.mark.parametrize("dtype", COEF_DTYPES)
@pytest.mark.parametrize("name", ["polyadd", "polysub", "polymul"])
def test_add_sub_mul(dtype, name):
    a, b = coeffs(dtype), coeffs(dtype, (0, 1, 5))
    got = getattr(kumo, name)(kumo.asarray(a), kumo.asarray(b))
    assert_allclose(got, getattr(numpy, name)(a, b))
    got = getattr(kumo, name)(kumo.asarray(b), kumo.asarray(a))
    assert_allclose(got, getattr(numpy, name)(b, a))


@pytest.mark.parametrize("name", ["polyadd", "polysub", "polymul"])
def test_add_sub_mul_mixed(name):
    a, b = [1, 2], [1.5, 0, -1, 2j]
    assert_allclose(getattr(kumo, name)(a, b), getattr(numpy, name)(a, b))
    assert_allclose(getattr(kumo, name)(3, b), getattr(numpy, name)(3, b))
    got = getattr(kumo, name)(kumo.poly1d(a), b)
    assert isinstance(got, kumo.poly1d)
    assert_allclose(got.coeffs, getattr(numpy, name)(numpy.poly1d(a), b).coeffs)


@pytest.mark.parametrize("u, v", [([1, 2, 3, 4], [1, 1]), ([3.0, -2, 1], [2, 0, 5, 1]), ([1, 0, -1], [1, -1]),
                                  ([1j, 2, 3], [1, 2j]), ([6.0], [3.0])])
def test_polydiv(u, v):
    gq, gr = kumo.polydiv(u, v)
    wq, wr = numpy.polydiv(u, v)
    assert_allclose(gq, wq, atol=1e-14)
    assert_allclose(gr, wr, atol=1e-14)


def test_polydiv_poly1d():
    q, r = kumo.polydiv(kumo.poly1d([1, 2, 3]), [1, 1])
    assert isinstance(q, kumo.poly1d) and isinstance(r, kumo.poly1d)
    assert_allclose(q.coeffs, numpy.polydiv(numpy.poly1d([1, 2, 3]), [1, 1])[0].coeffs)


@pytest.mark.parametrize("dtype", COEF_DTYPES)
@pytest.mark.parametrize("m", [0, 1, 2, 5])
def test_polyder(dtype, m):
    p = coeffs(dtype)
    assert_array_equal(kumo.polyder(kumo.asarray(p), m), numpy.polyder(p, m))


@pytest.mark.parametrize("dtype", COEF_DTYPES)
@pytest.mark.parametrize("m, k", [(0, None), (1, None), (2, None), (1, 3), (3, [1, 2, 3]), (2, 5.5), (2, [1j, 2])])
def test_polyint(dtype, m, k):
    p = coeffs(dtype)
    assert_allclose(kumo.polyint(kumo.asarray(p), m, k), numpy.polyint(p, m, k))


def test_polyder_polyint_errors():
    both_raise(ValueError, lambda: numpy.polyder([1, 2], -1), lambda: kumo.polyder([1, 2], -1))
    both_raise(ValueError, lambda: numpy.polyint([1, 2], -1), lambda: kumo.polyint([1, 2], -1))
    both_raise(ValueError, lambda: numpy.polyint([1, 2], 3, [1, 2]), lambda: kumo.polyint([1, 2], 3, [1, 2]))


@pytest.mark.parametrize("dtype", [numpy.int16, numpy.int64, numpy.uint8, numpy.float32, numpy.float64,
                                   numpy.complex64, numpy.complex128])
def test_poly_from_roots(dtype):
    r = numpy.array([1, 2, 3, 3]).astype(dtype)
    got = kumo.poly(kumo.asarray(r))
    want = numpy.poly(r)
    assert_allclose(got, want)


def test_poly_conjugate_roots_are_real():
    r = [1 + 2j, 1 - 2j, 3]
    assert_allclose(kumo.poly(r), numpy.poly(r))
    r = [1 + 2j, 3]
    assert_allclose(kumo.poly(r), numpy.poly(r))


def test_poly_matrix_and_empty():
    a = numpy.array([[1.0, 2.0], [3.0, 4.0]])
    assert_allclose(kumo.poly(kumo.asarray(a)), numpy.poly(a))
    assert kumo.poly([]) == numpy.poly([]) == 1.0


def test_poly_bad_shape():
    both_raise(ValueError, lambda: numpy.poly(numpy.ones((2, 3))), lambda: kumo.poly(kumo.ones((2, 3))))


@pytest.mark.parametrize("p", [[1, -3, 2], [1.0, 0, 1], [2, -4, 0, 0], [0, 0, 1, -6, 11, -6], [5], [0, 0], [1j, 2, 1],
                               [1, 0, 0, 0, -1]])
def test_roots(p):
    got = kumo.roots(p)
    want = numpy.roots(p)
    assert kumo.asnumpy(got).shape == want.shape
    assert numpy.asarray(kumo.asnumpy(got)).dtype.kind == want.dtype.kind or want.size == 0
    assert numpy.allclose(_sorted(kumo.asnumpy(got)), _sorted(want))


def test_roots_bad_rank():
    both_raise(ValueError, lambda: numpy.roots(numpy.ones((2, 2))), lambda: kumo.roots(kumo.ones((2, 2))))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64])
@pytest.mark.parametrize("deg", [0, 1, 2, 4])
def test_polyfit(dtype, deg):
    x = numpy.linspace(-1, 2, 25).astype(dtype)
    y = (3 * x ** 2 - x + 0.5 + 0.1 * numpy.sin(7 * x)).astype(dtype)
    assert_allclose(kumo.polyfit(kumo.asarray(x), kumo.asarray(y), deg), numpy.polyfit(x, y, deg), rtol=1e-8,
                    atol=1e-10)


def test_polyfit_2d_weights_full_cov():
    x = numpy.linspace(0, 3, 12)
    y = numpy.stack([x ** 2 + 0.1 * numpy.cos(5 * x), 2 * x - 1 + 0.05 * numpy.sin(9 * x)], axis=1)
    w = numpy.linspace(1, 2, 12)
    kx, ky, kw = kumo.asarray(x), kumo.asarray(y), kumo.asarray(w)
    assert_allclose(kumo.polyfit(kx, ky, 2, w=kw), numpy.polyfit(x, y, 2, w=w), rtol=1e-10)
    got = kumo.polyfit(kx, ky[:, 0], 2, full=True)
    want = numpy.polyfit(x, y[:, 0], 2, full=True)
    for g, e in zip(got[:2], want[:2]):
        assert_allclose(g, e, rtol=1e-8)
    assert int(got[2]) == int(want[2])
    assert_allclose(got[3], want[3], rtol=1e-10)
    assert got[4] == want[4]
    for cov in [True, "unscaled"]:
        gc, gv = kumo.polyfit(kx, ky, 2, cov=cov)
        wc, wv = numpy.polyfit(x, y, 2, cov=cov)
        assert_allclose(gc, wc, rtol=1e-10)
        assert_allclose(gv, wv, rtol=1e-8)


def test_polyfit_rank_warning():
    x = numpy.array([1.0, 1.0, 1.0, 2.0, 2.0])  # two distinct points for four coefficients
    y = numpy.arange(5.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        numpy.polyfit(x, y, 3)
    with pytest.warns(numpy.exceptions.RankWarning):
        kumo.polyfit(kumo.asarray(x), kumo.asarray(y), 3)


@pytest.mark.parametrize("args, exc", [
    (([1.0, 2.0], [1.0, 2.0], -1), ValueError),
    (([[1.0, 2.0]], [1.0, 2.0], 1), TypeError),
    (([], [], 1), TypeError),
    (([1.0, 2.0], [[[1.0]]], 1), TypeError),
    (([1.0, 2.0], [1.0, 2.0, 3.0], 1), TypeError),
])
def test_polyfit_errors(args, exc):
    both_raise(exc, lambda: numpy.polyfit(*args), lambda: kumo.polyfit(*args))


def test_polyfit_bad_weights_and_cov():
    x, y = numpy.arange(4.0), numpy.arange(4.0) ** 2
    both_raise(TypeError, lambda: numpy.polyfit(x, y, 1, w=[[1.0]]), lambda: kumo.polyfit(x, y, 1, w=[[1.0]]))
    both_raise(TypeError, lambda: numpy.polyfit(x, y, 1, w=[1.0]), lambda: kumo.polyfit(x, y, 1, w=[1.0]))
    both_raise(ValueError, lambda: numpy.polyfit(x[:2], y[:2], 1, cov=True),
               lambda: kumo.polyfit(x[:2], y[:2], 1, cov=True))


# ---- poly1d -----------------------------------------------------------------------------

P_CASES = [[1, -3, 2.5, 0], [0, 0, 2, 1], [3], [0], [1, 0, 0, 0, 0, 0, -1], [1.5e-5, 123456, -7.25],
           [1 + 2j, 3j, 2], [2j, 0, -1], list(range(1, 25)), [-1, 1], [1, -1, 0, 0]]


@pytest.mark.parametrize("c", P_CASES)
def test_poly1d_str_repr(c):
    assert str(kumo.poly1d(c)) == str(numpy.poly1d(c))
    assert repr(kumo.poly1d(c)) == repr(numpy.poly1d(c))


def test_poly1d_str_variable():
    assert str(kumo.poly1d([1, 2, 3], variable="z")) == str(numpy.poly1d([1, 2, 3], variable="z"))


@pytest.mark.parametrize("c", P_CASES)
def test_poly1d_attributes(c):
    k, n = kumo.poly1d(c), numpy.poly1d(c)
    assert_array_equal(k.coeffs, n.coeffs)
    assert_array_equal(k.c, n.c)
    assert_array_equal(k.coef, n.coef)
    assert_array_equal(k.coefficients, n.coefficients)
    assert k.order == n.order and len(k) == len(n) and k.variable == n.variable
    if n.order > 0:
        assert numpy.allclose(_sorted(kumo.asnumpy(k.roots)), _sorted(n.roots))
    numpy.testing.assert_array_equal(numpy.asarray(k), numpy.asarray(n))


def test_poly1d_from_roots_and_copy():
    k, n = kumo.poly1d([1, 2, 3], r=True), numpy.poly1d([1, 2, 3], r=True)
    assert_allclose(k.coeffs, n.coeffs)
    k2 = kumo.poly1d(k, variable="t")
    assert k2.variable == "t" and k2 == k


def test_poly1d_call():
    k, n = kumo.poly1d([2, -1, 3]), numpy.poly1d([2, -1, 3])
    x = numpy.linspace(-2, 2, 7)
    assert_allclose(k(kumo.asarray(x)), n(x))
    assert_allclose(k(1.5), n(1.5))
    composed = k(kumo.poly1d([1, 1]))
    assert isinstance(composed, kumo.poly1d)
    assert_allclose(composed.coeffs, n(numpy.poly1d([1, 1])).coeffs)


def test_poly1d_arithmetic():
    a, b = [1, -3, 2], [2, 0.5]
    ka, kb, na, nb = kumo.poly1d(a), kumo.poly1d(b), numpy.poly1d(a), numpy.poly1d(b)
    cases = [(ka + kb, na + nb), (ka - kb, na - nb), (ka * kb, na * nb), (ka * 2, na * 2), (3 * ka, 3 * na),
             (ka + 1, na + 1), (1 + ka, 1 + na), (1 - ka, 1 - na), (ka - [1, 1], na - [1, 1]), (-ka, -na),
             (+ka, +na), (ka ** 3, na ** 3), (ka ** 0, na ** 0), (ka / 2, na / 2), (2 / kb, 2 / nb)]
    for got, want in cases:
        assert isinstance(got, kumo.poly1d)
        assert_allclose(got.coeffs, want.coeffs)
    gq, gr = ka / kb
    wq, wr = na / nb
    assert_allclose(gq.coeffs, wq.coeffs)
    assert_allclose(gr.coeffs, wr.coeffs)
    gq, gr = [1, 2, 3] / kb
    wq, wr = [1, 2, 3] / nb
    assert_allclose(gq.coeffs, wq.coeffs)


def test_poly1d_pow_errors():
    for bad in [-1, 1.5, [2]]:
        both_raise(ValueError, lambda: numpy.poly1d([1, 2]) ** bad, lambda: kumo.poly1d([1, 2]) ** bad)


def test_poly1d_deriv_integ():
    k, n = kumo.poly1d([4, 3, 2, 1]), numpy.poly1d([4, 3, 2, 1])
    for m in [0, 1, 2, 4]:
        assert_allclose(k.deriv(m).coeffs, n.deriv(m).coeffs)
    for m, c in [(1, 0), (2, 1.5), (2, [1, 2])]:
        assert_allclose(k.integ(m, c).coeffs, n.integ(m, c).coeffs)


def test_poly1d_eq_ne():
    assert kumo.poly1d([1, 2]) == kumo.poly1d([0, 1, 2])
    assert kumo.poly1d([1, 2]) != kumo.poly1d([1, 3])
    assert kumo.poly1d([1, 2]) != kumo.poly1d([1, 2, 3])
    assert not (kumo.poly1d([1, 2]) == [1, 2])  # not a poly1d: compares by identity, as NumPy
    with pytest.raises(TypeError):
        hash(kumo.poly1d([1]))


def test_poly1d_getitem_setitem():
    k, n = kumo.poly1d([1, 2, 3]), numpy.poly1d([1, 2, 3])
    for power in [0, 1, 2, 3, 10, -1]:
        assert kumo.asnumpy(k[power]) == n[power]
    k[5], n[5] = 7, 7
    k[0], n[0] = -1, -1
    assert_array_equal(k.coeffs, n.coeffs)
    both_raise(ValueError, lambda: n.__setitem__(-1, 2), lambda: k.__setitem__(-1, 2))


def test_poly1d_iter_and_coeffs_setter():
    k = kumo.poly1d([1, 2, 3])
    assert [int(v) for v in k] == [1, 2, 3]
    k.coeffs *= 2  # in place on the same array: allowed
    assert_array_equal(k.coeffs, numpy.array([2, 4, 6]))
    with pytest.raises(AttributeError):
        k.coeffs = kumo.asarray([1, 2])


def test_poly1d_bad_input():
    both_raise(ValueError, lambda: numpy.poly1d([[1, 2]]), lambda: kumo.poly1d([[1, 2]]))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES[1:])
def test_poly1d_dtype_kept(dtype):
    c = numpy.array([1, 2, 3], dtype=dtype)
    assert kumo.poly1d(kumo.asarray(c)).coeffs.dtype == numpy.poly1d(c).coeffs.dtype
