"""kumo.sparse.linalg's direct solvers (spsolve, splu, factorized: SuperLU;
spsolve_triangular) against scipy.sparse.linalg's."""
import warnings

import numpy
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import kumo
import kumo.sparse as ks
import kumo.sparse.linalg as kla
from sparse_linalg_testing import FLOAT_DTYPES, general, np_, rvec, to_kumo, tol

N = 40


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_spsolve_vector(fmt, dtype):
    a = general(N, dtype)
    b = rvec(N, dtype)
    x = kla.spsolve(to_kumo(a, fmt), kumo.asarray(b))
    ref = spla.spsolve(getattr(a, "to" + fmt)(), b)
    assert np_(x).dtype == ref.dtype
    numpy.testing.assert_allclose(np_(x), ref, rtol=tol(dtype) * 10, atol=tol(dtype) * 10)


@pytest.mark.parametrize("shape", [(N, 3), (N, 1)])
def test_spsolve_matrix_rhs(shape):
    a = general(N, numpy.float64)
    b = numpy.random.default_rng(0).standard_normal(shape)
    x = kla.spsolve(to_kumo(a, "csc"), kumo.asarray(b))
    ref = spla.spsolve(a.tocsc(), b)
    assert np_(x).shape == ref.shape
    numpy.testing.assert_allclose(np_(x), ref, rtol=1e-10)


def test_spsolve_sparse_rhs_gives_sparse():
    a = general(N, numpy.float64)
    b = sps.random(N, 3, density=0.3, random_state=1, format="csc")
    x = kla.spsolve(to_kumo(a, "csc"), ks.csc_matrix(b))
    ref = spla.spsolve(a.tocsc(), b)
    assert ks.issparse(x)
    numpy.testing.assert_allclose(np_(x.toarray()), ref.toarray(), rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("adtype,bdtype", [(numpy.int32, numpy.float32), (numpy.float32, numpy.float64),
                                           (numpy.float32, numpy.int64), (numpy.int8, numpy.float32),
                                           (numpy.float64, numpy.complex64)])
def test_spsolve_dtypes(adtype, bdtype):
    a = sps.csc_matrix((numpy.diag(numpy.arange(1, 6)) * 3 + numpy.eye(5, k=1)).astype(adtype))
    b = numpy.arange(1, 6).astype(bdtype)
    x = kla.spsolve(ks.csc_matrix(a), kumo.asarray(b))
    ref = spla.spsolve(a, b)
    assert np_(x).dtype == ref.dtype
    numpy.testing.assert_allclose(np_(x), ref, rtol=1e-5)


@pytest.mark.parametrize("permc_spec", ["NATURAL", "MMD_ATA", "MMD_AT_PLUS_A", "COLAMD"])
def test_spsolve_permc_spec(permc_spec):
    a = general(N, numpy.float64)
    b = rvec(N, numpy.float64)
    x = kla.spsolve(to_kumo(a, "csc"), kumo.asarray(b), permc_spec=permc_spec)
    numpy.testing.assert_allclose(np_(x), spla.spsolve(a.tocsc(), b, permc_spec=permc_spec), rtol=1e-10)


def test_spsolve_noncanonical_input():
    row, col = numpy.array([0, 0, 1, 2, 2, 1]), numpy.array([0, 0, 1, 2, 0, 1])
    data = numpy.array([1.0, 2.0, 4.0, 5.0, 1.0, 0.0])
    k = ks.csr_matrix(ks.coo_matrix((kumo.asarray(data), (kumo.asarray(row), kumo.asarray(col))), shape=(3, 3)))
    s = sps.csr_matrix(sps.coo_matrix((data, (row, col)), shape=(3, 3)))
    b = numpy.array([1.0, 2.0, 3.0])
    numpy.testing.assert_allclose(np_(kla.spsolve(k, kumo.asarray(b))), spla.spsolve(s, b), rtol=1e-12)


def test_spsolve_singular_warns_and_gives_nan():
    a = sps.csc_matrix(numpy.array([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.warns(kla.MatrixRankWarning, match="singular"):
        x = kla.spsolve(ks.csc_matrix(a), kumo.ones(2))
    assert numpy.isnan(np_(x)).all()


def test_spsolve_errors():
    with pytest.raises(ValueError, match="square"):
        kla.spsolve(ks.csc_matrix(sps.random(3, 4, density=0.5, random_state=0)), kumo.ones(3))
    with pytest.raises(ValueError, match="dimension mismatch"):
        kla.spsolve(ks.csc_matrix(sps.identity(3)), kumo.ones(4))


def test_spsolve_converts_other_input_with_warning():
    a = general(6, numpy.float64)
    with pytest.warns(kumo.sparse.SparseEfficiencyWarning, match="CSC or CSR"):
        x = kla.spsolve(to_kumo(a, "coo"), kumo.ones(6))
    numpy.testing.assert_allclose(np_(x), spla.spsolve(a.tocsc(), numpy.ones(6)), rtol=1e-12)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_splu_factors(dtype):
    a = general(N, dtype)
    lu = kla.splu(to_kumo(a, "csc"))
    assert lu.shape == (N, N)
    L, U = np_(lu.L.toarray()), np_(lu.U.toarray())
    pr, pc = np_(lu.perm_r), np_(lu.perm_c)
    Pr = sps.csc_matrix((numpy.ones(N), (pr, numpy.arange(N)))).toarray()
    Pc = sps.csc_matrix((numpy.ones(N), (numpy.arange(N), pc))).toarray()
    numpy.testing.assert_allclose(Pr @ a.toarray() @ Pc, L @ U, rtol=tol(dtype), atol=tol(dtype))
    assert numpy.allclose(numpy.diag(L), 1) and numpy.allclose(numpy.triu(L, 1), 0) and numpy.allclose(
        numpy.tril(U, -1), 0)
    # Same library, same ordering: SciPy's factors.
    s = spla.splu(a.tocsc())
    numpy.testing.assert_array_equal(pr, s.perm_r)
    numpy.testing.assert_array_equal(pc, s.perm_c)
    numpy.testing.assert_allclose(U, s.U.toarray(), rtol=tol(dtype) * 10, atol=tol(dtype) * 10)
    assert lu.nnz == s.nnz


@pytest.mark.parametrize("trans", ["N", "T", "H"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128])
def test_splu_solve(trans, dtype):
    a = general(N, dtype)
    lu = kla.splu(to_kumo(a, "csc"))
    b = rvec(N, dtype)
    s = spla.splu(a.tocsc())
    numpy.testing.assert_allclose(np_(lu.solve(kumo.asarray(b), trans=trans)), s.solve(b, trans=trans),
                                  rtol=1e-10)
    B = numpy.stack([b, 2 * b], axis=1)
    numpy.testing.assert_allclose(np_(lu.solve(kumo.asarray(B), trans=trans)), s.solve(B, trans=trans),
                                  rtol=1e-10)


@pytest.mark.parametrize("permc_spec", ["NATURAL", "MMD_ATA", "COLAMD"])
def test_splu_options(permc_spec):
    a = general(N, numpy.float64)
    lu = kla.splu(to_kumo(a, "csc"), permc_spec=permc_spec, diag_pivot_thresh=0.5)
    s = spla.splu(a.tocsc(), permc_spec=permc_spec, diag_pivot_thresh=0.5)
    numpy.testing.assert_array_equal(np_(lu.perm_c), s.perm_c)
    numpy.testing.assert_array_equal(np_(lu.perm_r), s.perm_r)


def test_splu_singular_is_runtime_error():
    a = sps.csc_matrix(numpy.array([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(RuntimeError, match="Factor is exactly singular"):
        kla.splu(ks.csc_matrix(a))


def test_splu_errors():
    with pytest.raises(ValueError, match="square"):
        kla.splu(ks.csc_matrix(sps.random(3, 4, density=0.5, random_state=0)))
    lu = kla.splu(ks.csc_matrix(sps.identity(3, format="csc")))
    with pytest.raises(ValueError, match="trans"):
        lu.solve(kumo.ones(3), trans="X")
    with pytest.raises(ValueError):
        lu.solve(kumo.ones(4))


def test_splu_converts_csr_with_warning():
    a = general(8, numpy.float64)
    with pytest.warns(kumo.sparse.SparseEfficiencyWarning, match="CSC"):
        lu = kla.splu(to_kumo(a, "csr"))
    numpy.testing.assert_allclose(np_(lu.solve(kumo.ones(8))), numpy.linalg.solve(a.toarray(), numpy.ones(8)))


def test_factorized():
    a = general(N, numpy.float64)
    solve = kla.factorized(to_kumo(a, "csc"))
    b = rvec(N, numpy.float64)
    numpy.testing.assert_allclose(np_(solve(kumo.asarray(b))), spla.factorized(a.tocsc())(b), rtol=1e-10)


def test_splu_empty_matrix():
    lu = kla.splu(ks.csc_matrix((0, 0)))
    assert lu.shape == (0, 0)
    assert np_(lu.solve(kumo.ones(0))).shape == (0,)


# ---- spsolve_triangular ----

def triangular(n, dtype, lower, seed=0):
    a = general(n, dtype, seed=seed)
    return sps.csr_matrix(sps.tril(a) if lower else sps.triu(a))


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_spsolve_triangular(fmt, lower, dtype):
    a = triangular(N, dtype, lower)
    b = rvec(N, dtype)
    x = kla.spsolve_triangular(to_kumo(a, fmt), kumo.asarray(b), lower=lower)
    ref = spla.spsolve_triangular(getattr(a, "to" + fmt)(), b, lower=lower)
    assert np_(x).dtype == ref.dtype
    numpy.testing.assert_allclose(np_(x), ref, rtol=tol(dtype) * 10, atol=tol(dtype) * 10)


@pytest.mark.parametrize("lower", [True, False])
def test_spsolve_triangular_unit_diagonal_and_matrix_rhs(lower):
    a = triangular(N, numpy.float64, lower)
    b = numpy.random.default_rng(0).standard_normal((N, 3))
    x = kla.spsolve_triangular(to_kumo(a, "csr"), kumo.asarray(b), lower=lower, unit_diagonal=True)
    ref = spla.spsolve_triangular(a, b, lower=lower, unit_diagonal=True)
    numpy.testing.assert_allclose(np_(x), ref, rtol=1e-10)


@pytest.mark.parametrize("adtype,bdtype", [(numpy.int64, numpy.int64), (numpy.float32, numpy.float64),
                                           (numpy.int8, numpy.float32)])
def test_spsolve_triangular_dtypes(adtype, bdtype):
    a = sps.csr_matrix(numpy.tril(numpy.arange(1, 17).reshape(4, 4)).astype(adtype))
    b = numpy.arange(1, 5).astype(bdtype)
    x = kla.spsolve_triangular(ks.csr_matrix(a), kumo.asarray(b))
    ref = spla.spsolve_triangular(a, b)
    assert np_(x).dtype == ref.dtype
    numpy.testing.assert_allclose(np_(x), ref, rtol=1e-6)


def test_spsolve_triangular_errors():
    a = sps.csr_matrix(numpy.array([[1.0, 0.0], [1.0, 0.0]]))
    with pytest.raises(numpy.linalg.LinAlgError, match="singular"):
        kla.spsolve_triangular(ks.csr_matrix(a), kumo.ones(2))
    with pytest.raises(ValueError, match="square"):
        kla.spsolve_triangular(ks.csr_matrix(sps.random(3, 4, density=0.5, random_state=0)), kumo.ones(3))
    with pytest.raises(ValueError):
        kla.spsolve_triangular(ks.csr_matrix(sps.identity(3, format="csr")), kumo.ones(4))
