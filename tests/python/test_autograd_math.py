"""kumo.special (against SciPy) and the autograd math, linear algebra and
activation functions (forward against NumPy/SciPy, first and second
derivatives against finite differences)."""
import numpy
import pytest
import scipy.special

import kumo
import kumo.autograd.functions as F
import kumo.special as ks
from conftest import make_pair
from kumo.autograd import Variable
from kumo.autograd.gradient_check import check_backward, check_double_backward


def rng(seed=0):
    return numpy.random.default_rng(seed)


def v(a, requires_grad=True):
    return Variable(kumo.asarray(numpy.asarray(a)), requires_grad=requires_grad)


def out(var):
    return kumo.asnumpy(var.array)


# ---- kumo.special against SciPy ---------------------------------------------------------

SPECIAL = [("erf", ks.erf, scipy.special.erf), ("erfc", ks.erfc, scipy.special.erfc),
           ("erfinv", ks.erfinv, scipy.special.erfinv), ("gammaln", ks.gammaln, scipy.special.gammaln),
           ("digamma", ks.digamma, scipy.special.digamma)]
REAL_DTYPES = [numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32,
               numpy.int64, numpy.uint64, numpy.float16, numpy.float32, numpy.float64]


def _domain(name, a):
    if name == "erfinv" and a.dtype.kind == "f":
        return a / 6.0  # make_numpy's values are in [-5, 5]: into (-1, 1)
    return a


@pytest.mark.parametrize("name,fn,ref", SPECIAL, ids=[s[0] for s in SPECIAL])
@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_special_dtype_and_values(name, fn, ref, dtype):
    n, _ = make_pair("1d", dtype)
    n = _domain(name, n).astype(dtype) if name == "erfinv" and numpy.dtype(dtype).kind == "f" else n
    expected = ref(n)
    got = fn(kumo.asarray(n))
    assert got.dtype == expected.dtype
    tol = 2e-6 if expected.dtype == numpy.float32 else 1e-13
    numpy.testing.assert_allclose(kumo.asnumpy(got), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("name,fn,ref", SPECIAL, ids=[s[0] for s in SPECIAL])
@pytest.mark.parametrize("layout", ["0d", "empty", "3d", "broadcast", "transposed", "negative"])
def test_special_layouts(name, fn, ref, layout):
    n, k = make_pair(layout, numpy.float64)
    if name == "erfinv":
        n, k = n / 6.0, k / 6.0
    numpy.testing.assert_allclose(kumo.asnumpy(fn(k)), ref(n), rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("name,fn,ref", SPECIAL, ids=[s[0] for s in SPECIAL])
def test_special_edge_values(name, fn, ref):
    x = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, -2.5, 1e-300, 0.999999999,
                     -0.75, 1e300, -1e-10, 30.0])
    with numpy.errstate(all="ignore"):
        expected = ref(x)
    # atol: SciPy's gammaln near its zero at 1 is accurate only absolutely
    numpy.testing.assert_allclose(kumo.asnumpy(fn(kumo.asarray(x))), expected, rtol=1e-12, atol=1e-15)


def test_special_digamma_near_poles_matches_mpmath():
    # SciPy's psi loses digits next to the negative integers; mpmath is exact
    mpmath = pytest.importorskip("mpmath")
    x = numpy.array([-0.9999999999999, -1.0000000001, -2.9999999, -1e-12, 1e-12])
    with mpmath.workdps(40):
        expected = numpy.array([float(mpmath.digamma(mpmath.mpf(float(t)))) for t in x])
    numpy.testing.assert_allclose(kumo.asnumpy(ks.digamma(kumo.asarray(x))), expected, rtol=1e-12)


def test_special_digamma_dense_range():
    x = numpy.concatenate([numpy.linspace(-20.3, -0.01, 401), numpy.linspace(0.01, 60, 401)])
    numpy.testing.assert_allclose(kumo.asnumpy(ks.digamma(kumo.asarray(x))), scipy.special.digamma(x),
                                  rtol=1e-11, atol=1e-13)


def test_special_erfinv_dense_range():
    x = numpy.concatenate([numpy.linspace(-1, 1, 1001)[1:-1], 1 - numpy.logspace(-16, -1, 50)])
    numpy.testing.assert_allclose(kumo.asnumpy(ks.erfinv(kumo.asarray(x))), scipy.special.erfinv(x), rtol=1e-14)


def test_special_gammaln_dense_range():
    x = numpy.concatenate([numpy.linspace(-30.3, -0.01, 301), numpy.linspace(0.01, 1000, 401)])
    numpy.testing.assert_allclose(kumo.asnumpy(ks.gammaln(kumo.asarray(x))), scipy.special.gammaln(x),
                                  rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 7])
def test_special_polygamma_matches_scipy(n):
    x = numpy.concatenate([numpy.linspace(-6.3, -0.1, 37), numpy.linspace(0.05, 40, 61), [0.0, -0.0, -2.0, numpy.inf,
                                                                                           numpy.nan]])
    with numpy.errstate(all="ignore"):
        expected = scipy.special.polygamma(n, x)
    got = ks.polygamma(n, kumo.asarray(x))
    assert got.dtype == expected.dtype
    numpy.testing.assert_allclose(kumo.asnumpy(got), expected, rtol=1e-11, atol=1e-300)


def test_special_polygamma_invalid_orders_are_nan():
    with numpy.errstate(all="ignore"):
        expected = scipy.special.polygamma(numpy.array([-1.0, 1.5, -2.0]), numpy.array([2.0, 2.0, 3.0]))
    numpy.testing.assert_array_equal(kumo.asnumpy(ks.polygamma(kumo.asarray([-1.0, 1.5, -2.0]),
                                                               kumo.asarray([2.0, 2.0, 3.0]))), expected)


@pytest.mark.parametrize("n_dtype,x_dtype", [(numpy.int64, numpy.float32), (numpy.float32, numpy.float32),
                                             (numpy.int32, numpy.float64), (numpy.int8, numpy.int16),
                                             (numpy.float16, numpy.float16)])
def test_special_polygamma_dtype(n_dtype, x_dtype):
    n, x = numpy.array([1, 2], n_dtype), numpy.array([[1.5], [3]], x_dtype)
    expected = scipy.special.polygamma(n, x)
    got = ks.polygamma(kumo.asarray(n), kumo.asarray(x))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    # SciPy evaluates zeta in float32 for small x dtypes, then multiplies in float64
    tol = 1e-12 if numpy.dtype(x_dtype) == numpy.float64 else 2e-6
    numpy.testing.assert_allclose(kumo.asnumpy(got), expected, rtol=tol)


@pytest.mark.parametrize("fn", [ks.erf, ks.erfc, ks.erfinv, ks.gammaln, ks.digamma])
def test_special_complex_is_type_error(fn):
    with pytest.raises(TypeError):
        fn(kumo.asarray([1 + 1j]))


# ---- autograd: special functions ---------------------------------------------------------

AG_SPECIAL = [
    ("erf", F.erf, scipy.special.erf, (-2, 2)),
    ("erfc", F.erfc, scipy.special.erfc, (-2, 2)),
    ("erfinv", F.erfinv, scipy.special.erfinv, (-0.9, 0.9)),
    ("lgamma", F.lgamma, scipy.special.gammaln, (0.5, 4)),
    ("digamma", F.digamma, scipy.special.digamma, (0.5, 4)),
    ("polygamma2", lambda x: F.polygamma(2, x), lambda x: scipy.special.polygamma(2, x), (0.5, 4)),
]
SHAPES = [(), (1,), (3,), (2, 3)]


@pytest.mark.parametrize("name,fn,ref,rng_", AG_SPECIAL, ids=[s[0] for s in AG_SPECIAL])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_ag_special_forward(name, fn, ref, rng_, dtype):
    x = rng().uniform(*rng_, (2, 3)).astype(dtype)
    y = fn(v(x))
    assert y.dtype == dtype and y.shape == x.shape
    numpy.testing.assert_allclose(out(y), ref(x.astype(numpy.float64)), rtol=2e-6 if dtype == numpy.float32 else 1e-12)


@pytest.mark.parametrize("name,fn,ref,rng_", AG_SPECIAL, ids=[s[0] for s in AG_SPECIAL])
@pytest.mark.parametrize("shape", SHAPES)
def test_ag_special_backward(name, fn, ref, rng_, shape):
    r = rng(1)
    x = r.uniform(*rng_, shape)
    check_backward(fn, x, r.uniform(-1, 1, shape), eps=1e-6, atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("name,fn,ref,rng_", AG_SPECIAL, ids=[s[0] for s in AG_SPECIAL])
@pytest.mark.parametrize("shape", [(), (2, 3)])
def test_ag_special_double_backward(name, fn, ref, rng_, shape):
    r = rng(2)
    x = r.uniform(*rng_, shape)
    check_double_backward(fn, x, r.uniform(-1, 1, shape), r.uniform(-1, 1, shape), eps=1e-5, atol=1e-5, rtol=1e-4)


def test_ag_special_float16_keeps_dtype():
    y = F.erf(v(numpy.array([0.5, -1.0], numpy.float16)))
    assert y.dtype == numpy.float16


@pytest.mark.parametrize("fn", [F.erf, F.erfc, F.erfinv, F.lgamma, F.digamma, F.cumsum, F.prod, F.celu, F.gelu])
def test_ag_integer_input_is_type_error(fn):
    with pytest.raises(TypeError):
        fn(v(numpy.array([1, 2], numpy.int64), requires_grad=False))


# ---- autograd: binary math ----------------------------------------------------------------

@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (3,)), ((), (2, 2)), ((2, 1), (1, 3))])
def test_ag_arctan2(shapes):
    r = rng(3)
    a, b = r.uniform(0.5, 2, shapes[0]) * r.choice([-1, 1], shapes[0]), r.uniform(0.5, 2, shapes[1])
    numpy.testing.assert_allclose(out(F.arctan2(v(a), v(b))), numpy.arctan2(a, b), rtol=1e-14)
    oshape = numpy.broadcast_shapes(*shapes)
    check_backward(F.arctan2, (a, b), r.uniform(-1, 1, oshape), eps=1e-6, atol=1e-6, rtol=1e-5)
    check_double_backward(F.arctan2, (a, b), r.uniform(-1, 1, oshape), (r.uniform(-1, 1, shapes[0]),
                                                                        r.uniform(-1, 1, shapes[1])),
                          eps=1e-5, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("shapes", [((4,), (4,)), ((2, 3), (3,)), ((), ())])
def test_ag_fmod(shapes):
    r = rng(4)
    # away from the jumps of the quotient
    a = r.integers(-9, 9, shapes[0]) + 0.5 + r.uniform(-0.2, 0.2, shapes[0])
    b = r.choice([-3.0, 2.0, 4.0], shapes[1]) + r.uniform(-0.01, 0.01, shapes[1])
    numpy.testing.assert_allclose(out(F.fmod(v(a), v(b))), numpy.fmod(a, b), rtol=1e-14)
    oshape = numpy.broadcast_shapes(*shapes)
    check_backward(F.fmod, (a, b), r.uniform(-1, 1, oshape), eps=1e-6, atol=1e-6, rtol=1e-5)
    check_double_backward(F.fmod, (a, b), r.uniform(-1, 1, oshape),
                          (r.uniform(-1, 1, shapes[0]), r.uniform(-1, 1, shapes[1])), eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", [(3,), (2, 3), (1, 4)])
def test_ag_squared_difference(shape):
    r = rng(5)
    a, b = r.standard_normal(shape), r.standard_normal(shape)
    numpy.testing.assert_allclose(out(F.squared_difference(v(a), v(b))), (a - b) ** 2, rtol=1e-14)
    check_backward(F.squared_difference, (a, b), r.standard_normal(shape), eps=1e-6, atol=1e-6)
    check_double_backward(F.squared_difference, (a, b), r.standard_normal(shape),
                          (r.standard_normal(shape), r.standard_normal(shape)), eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", [(1, 3), (4, 3), (2, 3, 2)])
def test_ag_batch_l2_norm_squared(shape):
    r = rng(6)
    x = r.standard_normal(shape)
    numpy.testing.assert_allclose(out(F.batch_l2_norm_squared(v(x))),
                                  (x.reshape(shape[0], -1) ** 2).sum(axis=1), rtol=1e-14)
    check_backward(F.batch_l2_norm_squared, x, r.standard_normal(shape[0]), eps=1e-6, atol=1e-6)
    check_double_backward(F.batch_l2_norm_squared, x, r.standard_normal(shape[0]), r.standard_normal(shape),
                          eps=1e-5, atol=1e-5)


def test_ag_batch_l2_norm_squared_needs_2d():
    with pytest.raises(ValueError):
        F.batch_l2_norm_squared(v(numpy.ones(3)))


# ---- autograd: reductions and scans ------------------------------------------------------

PROD_CASES = [((4,), None, False), ((2, 3), 1, False), ((2, 3), 0, True), ((2, 3, 2), (0, 2), False),
              ((), None, False), ((2, 3), None, True), ((1, 3), -1, False)]


@pytest.mark.parametrize("shape,axis,keepdims", PROD_CASES)
def test_ag_prod(shape, axis, keepdims):
    r = rng(7)
    x = r.uniform(0.5, 1.5, shape) * r.choice([-1, 1], shape)
    numpy.testing.assert_allclose(out(F.prod(v(x), axis=axis, keepdims=keepdims)),
                                  numpy.prod(x, axis=axis, keepdims=keepdims), rtol=1e-14)
    f = lambda a: F.prod(a, axis=axis, keepdims=keepdims)  # noqa: E731
    oshape = numpy.prod(x, axis=axis, keepdims=keepdims).shape
    check_backward(f, x, r.standard_normal(oshape), eps=1e-6, atol=1e-6)
    check_double_backward(f, x, r.standard_normal(oshape), r.standard_normal(shape), eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("zeros", [[1], [0, 2], [1, 3]])
def test_ag_prod_with_zeros_exact_gradient(zeros):
    x = numpy.array([2.0, 3.0, 0.5, 4.0])
    x[zeros] = 0.0
    xv = v(x)
    y = F.prod(xv)
    y.backward()
    expected = numpy.array([numpy.prod(numpy.delete(x, i)) for i in range(4)])
    numpy.testing.assert_array_equal(kumo.asnumpy(xv.grad), expected)


def test_ag_prod_with_zero_double_backward():
    x = numpy.array([[2.0, 0.0, 0.5], [1.5, -1.0, 0.0]])
    r = rng(8)
    f = lambda a: F.prod(a, axis=1)  # noqa: E731
    check_backward(f, x, r.standard_normal(2), eps=1e-6, atol=1e-6)
    check_double_backward(f, x, r.standard_normal(2), r.standard_normal(x.shape), eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("fn,ref", [(F.cumsum, numpy.cumsum), (F.cumprod, numpy.cumprod)], ids=["cumsum", "cumprod"])
@pytest.mark.parametrize("shape,axis", [((5,), 0), ((2, 3), 1), ((2, 3), 0), ((2, 3), None), ((), None),
                                        ((2, 3, 2), -2)])
def test_ag_cumulative(fn, ref, shape, axis):
    r = rng(9)
    x = r.uniform(0.5, 1.5, shape) * r.choice([-1, 1], shape)
    numpy.testing.assert_allclose(out(fn(v(x), axis=axis)), ref(x, axis=axis), rtol=1e-14)
    f = lambda a: fn(a, axis=axis)  # noqa: E731
    oshape = ref(x, axis=axis).shape
    check_backward(f, x, r.standard_normal(oshape), eps=1e-6, atol=1e-6)
    check_double_backward(f, x, r.standard_normal(oshape), r.standard_normal(shape), eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("x", [[2.0, 0.0, 3.0, 0.0, 5.0], [0.0, 2.0, 3.0], [2.0, 3.0, 0.0], [0.0, 0.0, 1.0]])
def test_ag_cumprod_with_zeros(x):
    x = numpy.array(x)
    r = rng(10)
    check_backward(F.cumprod, x, r.standard_normal(x.shape), eps=1e-6, atol=1e-6)
    check_double_backward(F.cumprod, x, r.standard_normal(x.shape), r.standard_normal(x.shape), eps=1e-5, atol=1e-5)


def test_ag_cumsum_non_contiguous():
    x = numpy.arange(24.0).reshape(4, 6)[::-1, ::2]
    numpy.testing.assert_allclose(out(F.cumsum(Variable(kumo.asarray(numpy.arange(24.0).reshape(4, 6))[::-1, ::2]),
                                               axis=1)), numpy.cumsum(x, axis=1))


@pytest.mark.parametrize("shape,axis,wshape", [((2, 3), None, None), ((2, 3), 1, None), ((2, 3), (0, 1), None),
                                               ((2, 3), 1, (3,)), ((2, 3), 0, (2,)), ((2, 3), None, (2, 3))])
@pytest.mark.parametrize("keepdims", [False, True])
def test_ag_average(shape, axis, wshape, keepdims):
    r = rng(11)
    x = r.standard_normal(shape)
    w = None if wshape is None else r.uniform(0.5, 2, wshape)
    expected = numpy.average(x, axis=axis, weights=w, keepdims=keepdims)
    got = F.average(v(x), axis=axis, weights=None if w is None else v(w), keepdims=keepdims)
    numpy.testing.assert_allclose(out(got), expected, rtol=1e-13)
    if w is None:
        f = lambda a: F.average(a, axis=axis, keepdims=keepdims)  # noqa: E731
        args, ggs = x, r.standard_normal(shape)
    else:
        f = lambda a, b: F.average(a, axis=axis, weights=b, keepdims=keepdims)  # noqa: E731
        args, ggs = (x, w), (r.standard_normal(shape), r.standard_normal(wshape))
    check_backward(f, args, r.standard_normal(expected.shape), eps=1e-6, atol=1e-6)
    check_double_backward(f, args, r.standard_normal(expected.shape), ggs, eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("axis,wshape", [(1, (2,)), ((0, 1), (2,)), (None, (3,))])
def test_ag_average_bad_weights(axis, wshape):
    with pytest.raises(ValueError):
        F.average(v(numpy.ones((2, 3))), axis=axis, weights=v(numpy.ones(wshape)))


@pytest.mark.parametrize("fn,ref", [(F.argmax, numpy.argmax), (F.argmin, numpy.argmin)], ids=["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_ag_argmax_argmin(fn, ref, axis):
    x = rng(12).standard_normal((3, 4))
    y = fn(v(x), axis=axis)
    assert not y.requires_grad
    numpy.testing.assert_array_equal(out(y), ref(x, axis=axis))
    assert out(y).dtype == ref(x, axis=axis).dtype


# ---- autograd: linear algebra --------------------------------------------------------------

def _well_conditioned(r, shape):
    n = shape[-1]
    return r.standard_normal(shape) * 0.3 + numpy.eye(n) * 2


@pytest.mark.parametrize("n", [1, 2, 3])
def test_ag_det_and_inv(n):
    r = rng(13)
    a = _well_conditioned(r, (n, n))
    numpy.testing.assert_allclose(out(F.det(v(a))), numpy.linalg.det(a), rtol=1e-13)
    numpy.testing.assert_allclose(out(F.inv(v(a))), numpy.linalg.inv(a), rtol=1e-12, atol=1e-14)
    check_backward(F.det, a, r.standard_normal(()), eps=1e-6, atol=1e-6)
    check_double_backward(F.det, a, r.standard_normal(()), r.standard_normal((n, n)), eps=1e-5, atol=1e-5)
    check_backward(F.inv, a, r.standard_normal((n, n)), eps=1e-6, atol=1e-6)
    check_double_backward(F.inv, a, r.standard_normal((n, n)), r.standard_normal((n, n)), eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("b", [1, 3])
def test_ag_batch_det_and_inv(b):
    r = rng(14)
    a = _well_conditioned(r, (b, 3, 3))
    numpy.testing.assert_allclose(out(F.batch_det(v(a))), numpy.linalg.det(a), rtol=1e-13)
    numpy.testing.assert_allclose(out(F.batch_inv(v(a))), numpy.linalg.inv(a), rtol=1e-12, atol=1e-14)
    check_backward(F.batch_det, a, r.standard_normal(b), eps=1e-6, atol=1e-6)
    check_double_backward(F.batch_det, a, r.standard_normal(b), r.standard_normal(a.shape), eps=1e-5, atol=1e-5)
    check_backward(F.batch_inv, a, r.standard_normal(a.shape), eps=1e-6, atol=1e-6)
    check_double_backward(F.batch_inv, a, r.standard_normal(a.shape), r.standard_normal(a.shape), eps=1e-5,
                          atol=1e-5)


def test_ag_det_float32_forward():
    a = _well_conditioned(rng(15), (3, 3)).astype(numpy.float32)
    y = F.det(v(a))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(out(y), numpy.linalg.det(a), rtol=1e-5)


@pytest.mark.parametrize("fn,shape", [(F.det, (2, 2, 2)), (F.batch_det, (2, 2)), (F.inv, (3,)),
                                      (F.batch_inv, (2, 2))])
def test_ag_det_inv_wrong_ndim(fn, shape):
    with pytest.raises(ValueError):
        fn(v(numpy.ones(shape)))


@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (2, 3, 3)])
def test_ag_cholesky(shape):
    r = rng(16)
    m = r.standard_normal(shape)
    a = m @ numpy.swapaxes(m, -1, -2) + numpy.eye(shape[-1]) * shape[-1]
    numpy.testing.assert_allclose(out(F.cholesky(v(a))), numpy.linalg.cholesky(a), rtol=1e-13)

    def sym(x):  # the gradient is the symmetric one: check through a symmetric input
        return F.cholesky((x + F.transpose(x, tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2))) * 0.5)

    check_backward(sym, a, r.standard_normal(shape), eps=1e-6, atol=1e-6)
    check_double_backward(sym, a, r.standard_normal(shape), r.standard_normal(shape), eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("ashape,bshape", [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 1)),
                                           ((2, 3, 3), (3, 2)), ((1, 1), (1,))])
def test_ag_solve(ashape, bshape):
    r = rng(17)
    a, b = _well_conditioned(r, ashape), r.standard_normal(bshape)
    expected = numpy.linalg.solve(a, b)
    numpy.testing.assert_allclose(out(F.solve(v(a), v(b))), expected, rtol=1e-12, atol=1e-14)
    check_backward(F.solve, (a, b), r.standard_normal(expected.shape), eps=1e-6, atol=1e-6)
    check_double_backward(F.solve, (a, b), r.standard_normal(expected.shape),
                          (r.standard_normal(ashape), r.standard_normal(bshape)), eps=1e-5, atol=1e-5)


EINSUM = [("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 2)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]),
          ("ij->", [(2, 3)]), ("i,i->", [(4,), (4,)]), ("i,j->ij", [(2,), (3,)]), ("...ij,...jk->...ik",
                                                                                   [(2, 2, 3), (3, 2)]),
          ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]), ("ij,ij->ij", [(2, 3), (1, 3)]), ("iij,jk->ik", [(2, 2, 3), (3, 2)]),
          ("ijk,jl->", [(2, 2, 3), (2, 2)]), ("ij->ji", [(2, 3)]), ("...", [(2, 3)])]


@pytest.mark.parametrize("subscripts,shapes", EINSUM, ids=[e[0] for e in EINSUM])
def test_ag_einsum(subscripts, shapes):
    r = rng(18)
    xs = tuple(r.standard_normal(s) for s in shapes)
    expected = numpy.einsum(subscripts, *xs)
    got = F.einsum(subscripts, *[v(x) for x in xs])
    assert got.shape == expected.shape
    numpy.testing.assert_allclose(out(got), expected, rtol=1e-13, atol=1e-14)
    f = lambda *a: F.einsum(subscripts, *a)  # noqa: E731
    check_backward(f, xs, r.standard_normal(expected.shape), eps=1e-6, atol=1e-6)
    check_double_backward(f, xs, r.standard_normal(expected.shape), tuple(r.standard_normal(s) for s in shapes),
                          eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("subscripts,n", [("ij,jk->ik", 1), ("ij->iz", 1), ("i,i", 3)])
def test_ag_einsum_errors(subscripts, n):
    with pytest.raises(ValueError):
        F.einsum(subscripts, *[v(numpy.ones((2, 2))) for _ in range(n)])


@pytest.mark.parametrize("ashape,bshape,axes", [((2, 3, 4), (3, 4, 2), 2), ((2, 3), (3, 2), 1), ((2,), (3,), 0),
                                                ((2, 3, 4), (4, 3), ([1, 2], [1, 0])), ((3, 2), (3, 4), (0, 0))])
def test_ag_tensordot(ashape, bshape, axes):
    r = rng(19)
    a, b = r.standard_normal(ashape), r.standard_normal(bshape)
    expected = numpy.tensordot(a, b, axes=axes)
    numpy.testing.assert_allclose(out(F.tensordot(v(a), v(b), axes=axes)), expected, rtol=1e-13, atol=1e-14)
    f = lambda p, q: F.tensordot(p, q, axes=axes)  # noqa: E731
    check_backward(f, (a, b), r.standard_normal(expected.shape), eps=1e-6, atol=1e-6)
    check_double_backward(f, (a, b), r.standard_normal(expected.shape),
                          (r.standard_normal(ashape), r.standard_normal(bshape)), eps=1e-5, atol=1e-5)


def test_ag_tensordot_shape_mismatch():
    with pytest.raises(ValueError):
        F.tensordot(v(numpy.ones((2, 3))), v(numpy.ones((4, 2))), axes=1)


@pytest.mark.parametrize("with_linear", [False, True])
@pytest.mark.parametrize("e1shape", [(3, 2), (1, 2), (3, 1, 2)])
def test_ag_bilinear(with_linear, e1shape):
    r = rng(20)
    n = e1shape[0]
    j = int(numpy.prod(e1shape[1:]))
    e1, e2, W = r.standard_normal(e1shape), r.standard_normal((n, 3)), r.standard_normal((j, 3, 2))
    expected = numpy.einsum("ij,ik,jkl->il", e1.reshape(n, -1), e2, W)
    args = (e1, e2, W)
    if with_linear:
        V1, V2, b = r.standard_normal((j, 2)), r.standard_normal((3, 2)), r.standard_normal(2)
        expected = expected + e1.reshape(n, -1) @ V1 + e2 @ V2 + b
        args = args + (V1, V2, b)
    numpy.testing.assert_allclose(out(F.bilinear(*[v(a) for a in args])), expected, rtol=1e-13)
    check_backward(F.bilinear, args, r.standard_normal(expected.shape), eps=1e-6, atol=1e-6)
    check_double_backward(F.bilinear, args, r.standard_normal(expected.shape),
                          tuple(r.standard_normal(a.shape) for a in args), eps=1e-5, atol=1e-5)


def test_ag_bilinear_needs_all_linear_terms():
    with pytest.raises(ValueError):
        F.bilinear(v(numpy.ones((2, 2))), v(numpy.ones((2, 2))), v(numpy.ones((2, 2, 2))), V1=v(numpy.ones((2, 2))))


# ---- autograd: activations -----------------------------------------------------------------

def _gelu(x):
    return 0.5 * x * (1 + scipy.special.erf(x / numpy.sqrt(2)))


def _gelu_tanh(x):
    return 0.5 * x * (1 + numpy.tanh(numpy.sqrt(2 / numpy.pi) * (x + 0.044715 * x ** 3)))


ACTIVATIONS = [
    ("celu", lambda x: F.celu(x), lambda x: numpy.where(x >= 0, x, numpy.expm1(x))),
    ("celu_alpha", lambda x: F.celu(x, alpha=0.5), lambda x: numpy.where(x >= 0, x, 0.5 * numpy.expm1(x / 0.5))),
    ("gelu", lambda x: F.gelu(x), _gelu),
    ("gelu_tanh", lambda x: F.gelu(x, approximate=True), _gelu_tanh),
    ("crelu", lambda x: F.crelu(x), lambda x: numpy.concatenate([numpy.maximum(x, 0), numpy.maximum(-x, 0)], 1)),
    ("crelu_axis0", lambda x: F.crelu(x, axis=0),
     lambda x: numpy.concatenate([numpy.maximum(x, 0), numpy.maximum(-x, 0)], 0)),
    ("maxout", lambda x: F.maxout(x, 2), lambda x: x.reshape(x.shape[0], x.shape[1] // 2, 2, *x.shape[2:]).max(2)),
]


def _away_from_kinks(r, shape):
    x = r.uniform(0.1, 2, shape) * r.choice([-1, 1], shape)
    return x


@pytest.mark.parametrize("name,fn,ref", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
@pytest.mark.parametrize("shape", [(1, 4), (3, 4), (2, 4, 3)])
def test_ag_activation(name, fn, ref, shape):
    r = rng(21)
    x = _away_from_kinks(r, shape)
    expected = ref(x)
    numpy.testing.assert_allclose(out(fn(v(x))), expected, rtol=1e-13, atol=1e-15)
    check_backward(fn, x, r.standard_normal(expected.shape), eps=1e-6, atol=1e-6)
    check_double_backward(fn, x, r.standard_normal(expected.shape), r.standard_normal(shape), eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("name,fn,ref", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_ag_activation_float32(name, fn, ref):
    x = _away_from_kinks(rng(22), (2, 4)).astype(numpy.float32)
    y = fn(v(x))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(out(y), ref(x.astype(numpy.float64)), rtol=1e-6, atol=1e-6)


def test_ag_activation_non_contiguous():
    base = _away_from_kinks(rng(23), (4, 8))
    x = Variable(kumo.asarray(base)[::-1, ::2])
    numpy.testing.assert_allclose(out(F.gelu(x)), _gelu(base[::-1, ::2]), rtol=1e-13)


@pytest.mark.parametrize("wshape", [(3,), (3, 2)])
@pytest.mark.parametrize("fname", ["prelu", "swish"])
def test_ag_parametric_activation(fname, wshape):
    r = rng(24)
    xshape = (2, 3, 2)
    x = _away_from_kinks(r, xshape)
    w = r.uniform(0.1, 1.5, wshape)
    wb = w.reshape((1,) + wshape + (1,) * (len(xshape) - 1 - len(wshape)))
    if fname == "prelu":
        fn, expected = F.prelu, numpy.where(x >= 0, x, x * wb)
    else:
        fn, expected = F.swish, x / (1 + numpy.exp(-wb * x))
    numpy.testing.assert_allclose(out(fn(v(x), v(w))), expected, rtol=1e-13)
    check_backward(fn, (x, w), r.standard_normal(xshape), eps=1e-6, atol=1e-6)
    check_double_backward(fn, (x, w), r.standard_normal(xshape), (r.standard_normal(xshape),
                                                                   r.standard_normal(wshape)), eps=1e-5, atol=1e-5)


@pytest.mark.parametrize("fname", ["prelu", "swish"])
def test_ag_parametric_activation_bad_shape(fname):
    with pytest.raises(ValueError):
        getattr(F, fname)(v(numpy.ones((2, 3))), v(numpy.ones(4)))


def test_ag_maxout_errors():
    with pytest.raises(ValueError):
        F.maxout(v(numpy.ones((2, 5))), 2)
    with pytest.raises(ValueError):
        F.maxout(v(numpy.ones((2, 4))), 0)


def test_ag_celu_alpha_zero():
    with pytest.raises(ValueError):
        F.celu(v(numpy.ones(2)), alpha=0.0)


# ---- dtypes and edge shapes -----------------------------------------------------------------

def test_ag_mixed_dtypes_promote_and_grads_keep_input_dtypes():
    a = v(numpy.array([0.5, -1.0], numpy.float32))
    b = v(numpy.array([2.0, 3.0], numpy.float64))
    y = F.arctan2(a, b)
    assert y.dtype == numpy.float64
    F.sum(y).backward()
    assert a.grad.dtype == numpy.float32 and b.grad.dtype == numpy.float64


def test_ag_polygamma_broadcasts_orders():
    x = numpy.array([[1.5], [2.5]])
    y = F.polygamma(numpy.array([0, 1, 2]), v(x))
    numpy.testing.assert_allclose(out(y), scipy.special.polygamma(numpy.array([0, 1, 2]), x), rtol=1e-12)
    f = lambda a: F.polygamma(numpy.array([1, 2]), a)  # noqa: E731
    check_backward(f, x, rng(30).standard_normal((2, 2)), eps=1e-6, atol=1e-6)


@pytest.mark.parametrize("fn,ref", [(lambda a: F.prod(a, axis=0), lambda a: numpy.prod(a, axis=0)),
                                    (lambda a: F.cumsum(a, axis=0), lambda a: numpy.cumsum(a, axis=0)),
                                    (lambda a: F.cumprod(a, axis=1), lambda a: numpy.cumprod(a, axis=1))],
                         ids=["prod", "cumsum", "cumprod"])
def test_ag_empty_inputs(fn, ref):
    x = numpy.ones((0, 3))
    xv = v(x)
    y = fn(xv)
    numpy.testing.assert_array_equal(out(y), ref(x))
    F.sum(y).backward()
    assert xv.grad.shape == x.shape


def test_special_polygamma_extreme_arguments_return():
    # no input may make the kernel loop for long: huge orders and hugely negative x
    n = numpy.array([1, 60, 300, 1])
    x = numpy.array([-1e15 - 0.5, 3.0, 2.0, 1e200])
    got = kumo.asnumpy(ks.polygamma(kumo.asarray(n), kumo.asarray(x)))
    with numpy.errstate(all="ignore"):
        expected = scipy.special.polygamma(n[1:], x[1:])
    numpy.testing.assert_allclose(got[1:], expected, rtol=1e-10)


NON_CONTIGUOUS = [("erf", F.erf), ("lgamma", lambda x: F.lgamma(x + 3.0)), ("cumprod", lambda x: F.cumprod(x, axis=1)),
                  ("prod", lambda x: F.prod(x, axis=0)), ("gelu", F.gelu), ("celu", F.celu),
                  ("einsum", lambda x: F.einsum("ij->j", x)), ("maxout", lambda x: F.maxout(x, 2, axis=0))]


@pytest.mark.parametrize("name,fn", NON_CONTIGUOUS, ids=[n[0] for n in NON_CONTIGUOUS])
def test_ag_non_contiguous_gradients(name, fn):
    r = rng(31)
    base = r.uniform(0.3, 1.5, (4, 6)) * r.choice([-1, 1], (4, 6))
    x = kumo.asarray(base)[::-1, ::2]  # negative and stepped strides
    assert not x.flags.c_contiguous
    y = fn(Variable(x))
    check_backward(fn, x, r.standard_normal(y.shape), eps=1e-6, atol=1e-6)
    check_double_backward(fn, x, r.standard_normal(y.shape), r.standard_normal(x.shape), eps=1e-5, atol=1e-5)


def test_special_digamma_near_its_root_matches_mpmath():
    # around x0 = 1.46163... the value is small: relative accuracy needs care
    mpmath = pytest.importorskip("mpmath")
    x = numpy.array([1.4616321449683622, 1.46163214496836, 1.4616, 1.47, 1.45, 1.37, 1.55])
    with mpmath.workdps(40):
        expected = numpy.array([float(mpmath.digamma(mpmath.mpf(float(t)))) for t in x])
    numpy.testing.assert_allclose(kumo.asnumpy(ks.digamma(kumo.asarray(x))), expected, rtol=1e-13)
