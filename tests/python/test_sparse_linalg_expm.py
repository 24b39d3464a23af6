"""kumo.sparse.linalg.expm_multiply against scipy.linalg.expm and
scipy.sparse.linalg.expm_multiply."""
import numpy
import pytest
import scipy.linalg
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import kumo
import kumo.sparse as ks
import kumo.sparse.linalg as kla
from sparse_linalg_testing import np_, rvec


def matrix(n, dtype, scale, seed=0):
    rng = numpy.random.default_rng(seed)
    a = sps.random(n, n, density=0.2, random_state=rng, format="csr")
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * sps.random(n, n, density=0.2, random_state=rng, format="csr")
    a = (a - 0.3 * sps.identity(n)) * scale
    return sps.csr_matrix(a, dtype=dtype)


@pytest.mark.parametrize("scale", [0.0, 0.1, 1.0, 5.0, 30.0])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128, numpy.float32])
def test_vector(scale, dtype):
    a = matrix(30, dtype, scale)
    b = rvec(30, dtype)
    x = kla.expm_multiply(ks.csr_matrix(a), kumo.asarray(b))
    ref = scipy.linalg.expm(a.toarray().astype(numpy.complex128 if dtype != numpy.float64 else numpy.float64)) @ b
    assert np_(x).dtype == spla.expm_multiply(a, b).dtype
    numpy.testing.assert_allclose(np_(x), ref, rtol=1e-5 if dtype == numpy.float32 else 1e-9,
                                  atol=1e-12 * numpy.abs(ref).max() + 1e-300)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dense"])
def test_matrix_rhs_and_formats(fmt):
    a = matrix(25, numpy.float64, 2.0)
    b = numpy.random.default_rng(1).standard_normal((25, 3))
    k = kumo.asarray(a.toarray()) if fmt == "dense" else getattr(ks, f"{fmt}_matrix")(getattr(a, "to" + fmt)())
    x = kla.expm_multiply(k, kumo.asarray(b))
    numpy.testing.assert_allclose(np_(x), spla.expm_multiply(a, b), rtol=1e-9)


@pytest.mark.parametrize("endpoint", [True, False])
def test_interval(endpoint):
    a = matrix(20, numpy.float64, 1.0)
    b = rvec(20, numpy.float64)
    x = kla.expm_multiply(ks.csr_matrix(a), kumo.asarray(b), start=0.5, stop=2.0, num=6, endpoint=endpoint)
    ref = spla.expm_multiply(a, b, start=0.5, stop=2.0, num=6, endpoint=endpoint)
    assert np_(x).shape == ref.shape == (6, 20)
    numpy.testing.assert_allclose(np_(x), ref, rtol=1e-9)


def test_linear_operator_with_trace():
    a = matrix(20, numpy.float64, 1.5)
    ak = ks.csr_matrix(a)
    akh = ks.csr_matrix(a.T.tocsr())
    # onenormest needs the adjoint's products too (as in SciPy).
    op = kla.LinearOperator(a.shape, matvec=lambda v: ak @ v, matmat=lambda v: ak @ v, rmatvec=lambda v: akh @ v,
                            rmatmat=lambda v: akh @ v, dtype=numpy.float64)
    b = rvec(20, numpy.float64)
    x = kla.expm_multiply(op, kumo.asarray(b), traceA=a.diagonal().sum())
    numpy.testing.assert_allclose(np_(x), scipy.linalg.expm(a.toarray()) @ b, rtol=1e-9)
    with pytest.warns(UserWarning, match="Trace"):
        x2 = kla.expm_multiply(op, kumo.asarray(b))
    numpy.testing.assert_allclose(np_(x2), np_(x), rtol=1e-9)


def test_errors():
    with pytest.raises(ValueError, match="square"):
        kla.expm_multiply(ks.csr_matrix(sps.random(3, 4, density=0.5, random_state=0)), kumo.ones(4))
    with pytest.raises(ValueError, match="incompatible"):
        kla.expm_multiply(ks.csr_matrix(sps.identity(3, format="csr")), kumo.ones(4))
    with pytest.raises(ValueError, match="two time points"):
        kla.expm_multiply(ks.csr_matrix(sps.identity(3, format="csr")), kumo.ones(3), start=0, stop=1, num=1)
