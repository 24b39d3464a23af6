"""kumo.sparse.linalg.norm and onenormest against scipy.sparse.linalg's."""
import numpy
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import kumo
import kumo.sparse as ks
import kumo.sparse.linalg as kla
from sparse_linalg_testing import FORMATS, np_

DTYPES = [numpy.bool_, numpy.int8, numpy.uint8, numpy.int32, numpy.int64, numpy.float32, numpy.float64,
          numpy.complex64, numpy.complex128]


def matrix(dtype, shape=(6, 5), seed=0):
    """A SciPy csr matrix with an empty row, an empty column and negative entries."""
    rng = numpy.random.default_rng(seed)
    a = rng.integers(-3, 4, shape) * (rng.random(shape) < 0.5)
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * rng.integers(-2, 3, shape) * (rng.random(shape) < 0.5)
    a[2] = 0
    a[:, 3] = 0
    if numpy.dtype(dtype).kind in "bu":
        a = abs(a)
    return sps.csr_matrix(a.astype(dtype))


def both(a, fmt):
    return getattr(ks, f"{fmt}_matrix")(getattr(a, "to" + fmt)()), getattr(a, "to" + fmt)()


MATRIX_ORDS = [None, "fro", "f", 1, -1, numpy.inf, -numpy.inf]


@pytest.mark.parametrize("ord", MATRIX_ORDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_norms(ord, dtype):
    k, s = both(matrix(dtype), "csr")
    kr, sr = kla.norm(k, ord), spla.norm(s, ord)
    assert numpy.asarray(kr).dtype == numpy.asarray(sr).dtype
    numpy.testing.assert_allclose(kr, sr, rtol=1e-6)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("ord", MATRIX_ORDS)
def test_matrix_norms_formats(fmt, ord):
    k, s = both(matrix(numpy.float64), fmt)
    numpy.testing.assert_allclose(kla.norm(k, ord), spla.norm(s, ord), rtol=1e-12)


VECTOR_ORDS = [None, 2, 1, 0, numpy.inf, -numpy.inf, 3, 0.5, -1.5]


@pytest.mark.parametrize("axis", [0, 1, -1, (0,), (-2,)])
@pytest.mark.parametrize("ord", VECTOR_ORDS)
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64, numpy.complex128])
def test_vector_norms(axis, ord, dtype):
    k, s = both(matrix(dtype), "csr")
    with numpy.errstate(divide="ignore"):
        sr = spla.norm(s, ord, axis=axis)
    kr = np_(kla.norm(k, ord, axis=axis))
    assert kr.shape == sr.shape
    assert kr.dtype == sr.dtype
    numpy.testing.assert_allclose(kr, sr, rtol=1e-5)


@pytest.mark.parametrize("axis", [(0, 1), (1, 0), (-1, -2)])
@pytest.mark.parametrize("ord", [None, "fro", 1, -1, numpy.inf, -numpy.inf])
def test_matrix_norms_with_axes(axis, ord):
    k, s = both(matrix(numpy.float64), "csc")
    numpy.testing.assert_allclose(kla.norm(k, ord, axis=axis), spla.norm(s, ord, axis=axis), rtol=1e-12)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128])
def test_matrix_2_norm(dtype):
    a = sps.random(30, 20, density=0.3, random_state=4, format="csr", dtype=numpy.float64).astype(dtype)
    k = kla.norm(ks.csr_matrix(a), 2)
    numpy.testing.assert_allclose(k, numpy.linalg.norm(a.toarray(), 2), rtol=1e-10)
    numpy.testing.assert_allclose(k, spla.norm(a, 2), rtol=1e-10)


def test_matrix_minus_2_norm_is_not_implemented_as_scipy():
    k, s = both(matrix(numpy.float64), "csr")
    with pytest.raises(NotImplementedError):
        spla.norm(s, -2)
    with pytest.raises(NotImplementedError):
        kla.norm(k, -2)


def test_duplicates_are_summed():
    row, col = numpy.array([0, 0, 1, 1]), numpy.array([1, 1, 0, 2])
    data = numpy.array([2.0, -3.0, 1.0, 4.0])
    k = ks.coo_matrix((kumo.asarray(data), (kumo.asarray(row), kumo.asarray(col))), shape=(2, 3))
    s = sps.coo_matrix((data, (row, col)), shape=(2, 3))
    for ord in MATRIX_ORDS:
        numpy.testing.assert_allclose(kla.norm(k, ord), spla.norm(s, ord))
    numpy.testing.assert_allclose(np_(kla.norm(k, 1, axis=0)), spla.norm(s, 1, axis=0))


def test_empty_matrix():
    k, s = both(sps.csr_matrix((3, 4)), "csr")
    assert kla.norm(k) == spla.norm(s) == 0
    numpy.testing.assert_array_equal(np_(kla.norm(k, axis=1)), spla.norm(s, axis=1))


def test_norm_errors():
    k, _ = both(matrix(numpy.float64), "csr")
    with pytest.raises(TypeError, match="not sparse"):
        kla.norm(kumo.ones((2, 2)))
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        kla.norm(k, 3)
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        kla.norm(k, "nuc")
    with pytest.raises(ValueError, match="Invalid norm order for vectors"):
        kla.norm(k, "fro", axis=0)
    with pytest.raises(ValueError, match="Invalid axis"):
        kla.norm(k, axis=2)
    with pytest.raises(ValueError, match="Duplicate axes"):
        kla.norm(k, axis=(0, -2))
    with pytest.raises(TypeError, match="axis"):
        kla.norm(k, axis=1.5)
    with pytest.raises(ValueError, match="Improper number"):
        kla.norm(k, axis=(0, 1, 0))


# ---- onenormest ----

def exact_1norm(a):
    return numpy.abs(a).sum(axis=0).max()


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128])
def test_onenormest_exact_when_t_covers_n(n, dtype):
    rng = numpy.random.default_rng(n)
    a = rng.standard_normal((n, n))
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((n, n))
    est, v, w = kla.onenormest(kumo.asarray(a), t=3, compute_v=True, compute_w=True)
    sest, sv, sw = spla.onenormest(a, t=3, compute_v=True, compute_w=True)
    numpy.testing.assert_allclose(est, sest, rtol=1e-12)
    numpy.testing.assert_allclose(est, exact_1norm(a), rtol=1e-12)
    numpy.testing.assert_array_equal(np_(v), sv)
    numpy.testing.assert_allclose(np_(w), sw, rtol=1e-12)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("t", [1, 2, 4])
def test_onenormest_is_a_certified_lower_bound(seed, t):
    rng = numpy.random.default_rng(seed)
    n = 50
    a = sps.random(n, n, density=0.2, random_state=rng, format="csr") - sps.random(n, n, density=0.1,
                                                                                     random_state=rng)
    exact = exact_1norm(a.toarray())
    est, v, w = kla.onenormest(ks.csr_matrix(a), t=t, compute_v=True, compute_w=True)
    # est <= ||A||_1, and w = A v with ||w||_1 = est certifies it.
    assert est <= exact * (1 + 1e-12)
    numpy.testing.assert_allclose(np_(w), a @ np_(v), rtol=1e-12, atol=1e-14)
    numpy.testing.assert_allclose(numpy.abs(np_(w)).sum(), est, rtol=1e-12)
    # Higham and Tisseur: the estimate is almost always within a factor 3
    # (usually exact); for these matrices it is well inside.
    assert est >= exact / 3


def test_onenormest_nonnegative_matrix_is_exact():
    # With the all-ones first column the estimate is exact for A >= 0.
    a = sps.random(40, 40, density=0.3, random_state=3, format="csr")
    numpy.testing.assert_allclose(kla.onenormest(ks.csr_matrix(a)), exact_1norm(a.toarray()), rtol=1e-12)


def test_onenormest_of_operator():
    a = numpy.random.default_rng(0).standard_normal((30, 30))
    ak = kumo.asarray(a)
    op = kla.LinearOperator((30, 30), matvec=lambda x: ak @ x, rmatvec=lambda x: ak.T @ x, dtype=numpy.float64)
    est = kla.onenormest(op)
    assert est <= exact_1norm(a) * (1 + 1e-12)
    assert est >= exact_1norm(a) / 3


def test_onenormest_errors():
    with pytest.raises(ValueError, match="square"):
        kla.onenormest(kumo.ones((3, 4)))
    with pytest.raises(ValueError, match="two iterations"):
        kla.onenormest(kumo.ones((5, 5)), itmax=1)
    with pytest.raises(ValueError, match="one column"):
        kla.onenormest(kumo.ones((5, 5)), t=0)
