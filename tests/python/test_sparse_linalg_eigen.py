"""kumo.sparse.linalg.eigsh and svds against dense NumPy results and
SciPy's: eigenvalues, eigenvectors by residuals (up to sign/phase), which,
shift-invert, and errors."""
import numpy
import pytest
import scipy.linalg
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import kumo
import kumo.sparse as ks
import kumo.sparse.linalg as kla
from sparse_linalg_testing import hpd, np_, rvec, to_kumo

N = 80


def symmetric(n, dtype, seed=0):
    """A sparse symmetric (Hermitian) indefinite matrix with distinct eigenvalues."""
    a = hpd(n, dtype, seed=seed) - sps.identity(n) * 8
    return sps.csr_matrix(a, dtype=dtype)


def wanted(w, k, which):
    """The k eigenvalues of the full spectrum w that `which` selects, ascending."""
    w = numpy.sort(w)
    if which == "LA":
        sel = w[-k:]
    elif which == "SA":
        sel = w[:k]
    elif which == "LM":
        sel = w[numpy.argsort(-abs(w), kind="stable")[:k]]
    elif which == "SM":
        sel = w[numpy.argsort(abs(w), kind="stable")[:k]]
    else:  # BE
        sel = numpy.concatenate([w[:k // 2], w[len(w) - (k - k // 2):]])
    return numpy.sort(sel)


@pytest.mark.parametrize("which", ["LM", "SM", "LA", "SA", "BE"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_eigsh_values(which, dtype):
    a = symmetric(N, dtype)
    w = kla.eigsh(to_kumo(a, "csr"), k=5, which=which, return_eigenvectors=False)
    ref = wanted(numpy.linalg.eigvalsh(a.toarray().astype(numpy.float64)), 5, which)
    assert np_(w).dtype == dtype
    numpy.testing.assert_allclose(numpy.sort(np_(w)), ref, rtol=1e-4 if dtype == numpy.float32 else 1e-9,
                                  atol=1e-4 if dtype == numpy.float32 else 1e-9)


@pytest.mark.parametrize("which", ["LM", "SA", "LA"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128])
def test_eigsh_vectors_by_residual(which, dtype):
    a = symmetric(N, dtype)
    w, v = kla.eigsh(to_kumo(a, "csr"), k=4, which=which)
    w, v = np_(w), np_(v)
    assert v.shape == (N, 4)
    assert numpy.all(numpy.diff(w) >= 0)  # ascending
    numpy.testing.assert_allclose(w, wanted(numpy.linalg.eigvalsh(a.toarray()), 4, which), rtol=1e-9)
    for i in range(4):
        r = a @ v[:, i] - w[i] * v[:, i]
        assert numpy.linalg.norm(r) <= 1e-8 * max(1, abs(w[i]))
    numpy.testing.assert_allclose(v.conj().T @ v, numpy.eye(4), atol=1e-10)


def test_eigsh_vectors_match_scipy_up_to_sign():
    a = symmetric(N, numpy.float64)
    w, v = kla.eigsh(to_kumo(a, "csr"), k=3, which="LA")
    sw, sv = spla.eigsh(a, k=3, which="LA")
    numpy.testing.assert_allclose(np_(w), sw, rtol=1e-10)
    for i in range(3):
        numpy.testing.assert_allclose(abs(np_(v)[:, i] @ sv[:, i]), 1, rtol=1e-8)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dense", "operator"])
def test_eigsh_inputs(fmt):
    a = symmetric(N, numpy.float64)
    if fmt == "dense":
        A = kumo.asarray(a.toarray())
    elif fmt == "operator":
        ak = to_kumo(a, "csr")
        A = kla.LinearOperator(a.shape, matvec=lambda x: ak @ x, dtype=numpy.float64)
    else:
        A = to_kumo(a, fmt)
    w = kla.eigsh(A, k=3, return_eigenvectors=False)
    numpy.testing.assert_allclose(numpy.sort(np_(w)), wanted(numpy.linalg.eigvalsh(a.toarray()), 3, "LM"), rtol=1e-9)


@pytest.mark.parametrize("sigma", [0.0, 1.3, -2.0])
def test_eigsh_shift_invert(sigma):
    a = symmetric(N, numpy.float64)
    w, v = kla.eigsh(to_kumo(a, "csc"), k=3, sigma=sigma)
    full = numpy.linalg.eigvalsh(a.toarray())
    ref = numpy.sort(full[numpy.argsort(abs(full - sigma))[:3]])
    numpy.testing.assert_allclose(np_(w), ref, rtol=1e-9)
    sw = spla.eigsh(a.tocsc(), k=3, sigma=sigma, return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), numpy.sort(sw), rtol=1e-9)
    for i in range(3):
        assert numpy.linalg.norm(a @ np_(v)[:, i] - np_(w)[i] * np_(v)[:, i]) < 1e-8


def test_eigsh_v0_ncv_tol():
    a = symmetric(N, numpy.float64)
    w = kla.eigsh(to_kumo(a, "csr"), k=2, v0=kumo.asarray(rvec(N, numpy.float64)), ncv=10, tol=1e-6,
                  return_eigenvectors=False)
    numpy.testing.assert_allclose(numpy.sort(np_(w)), wanted(numpy.linalg.eigvalsh(a.toarray()), 2, "LM"), rtol=1e-5)


@pytest.mark.parametrize("which", ["LM", "SA", "LA"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128])
def test_eigsh_generalized(which, dtype):
    a = symmetric(N, dtype)
    m = sps.csr_matrix(sps.diags(numpy.linspace(1, 3, N)) + 0.2 * sps.diags(numpy.ones(N - 1), 1)
                       + 0.2 * sps.diags(numpy.ones(N - 1), -1), dtype=dtype)
    w, v = kla.eigsh(to_kumo(a, "csr"), k=4, M=to_kumo(m, "csc"), which=which)
    w, v = np_(w), np_(v)
    full = scipy.linalg.eigh(a.toarray(), m.toarray(), eigvals_only=True)
    numpy.testing.assert_allclose(w, wanted(full, 4, which), rtol=1e-8)
    sw = spla.eigsh(a, k=4, M=m, which=which, return_eigenvectors=False)
    numpy.testing.assert_allclose(w, numpy.sort(sw), rtol=1e-8)
    # A v = w M v, and the vectors are M-orthonormal, as ARPACK's.
    numpy.testing.assert_allclose(a @ v, (m @ v) * w, atol=1e-8)
    numpy.testing.assert_allclose(v.conj().T @ (m @ v), numpy.eye(4), atol=1e-8)


def test_eigsh_generalized_with_minv_operator():
    a = symmetric(N, numpy.float64)
    d = numpy.linspace(1, 3, N)
    m = sps.diags(d).tocsr()
    dk, ik = kumo.asarray(d), kumo.asarray(1 / d)
    mop = kla.LinearOperator(a.shape, matvec=lambda x: dk * x, dtype=numpy.float64)
    minv = kla.LinearOperator(a.shape, matvec=lambda x: ik * x, dtype=numpy.float64)
    w = kla.eigsh(to_kumo(a, "csr"), k=3, M=mop, Minv=minv, which="LA", return_eigenvectors=False)
    full = scipy.linalg.eigh(a.toarray(), m.toarray(), eigvals_only=True)
    numpy.testing.assert_allclose(np_(w), wanted(full, 3, "LA"), rtol=1e-8)
    # Without Minv, M is inverted by GMRES solves (SciPy's fallback).
    w = kla.eigsh(to_kumo(a, "csr"), k=3, M=mop, which="LA", return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), wanted(full, 3, "LA"), rtol=1e-7)


def test_eigsh_no_convergence():
    a = symmetric(N, numpy.float64)
    with pytest.raises(kla.ArpackNoConvergence):
        kla.eigsh(to_kumo(a, "csr"), k=5, which="SM", ncv=6, maxiter=2)


def test_eigsh_errors():
    a = to_kumo(symmetric(10, numpy.float64), "csr")
    with pytest.raises(ValueError, match="greater than 0"):
        kla.eigsh(a, k=0)
    with pytest.raises(ValueError, match="which"):
        kla.eigsh(a, k=2, which="XX")
    with pytest.raises(ValueError, match="ncv"):
        kla.eigsh(a, k=3, ncv=3)
    with pytest.raises(ValueError, match="square"):
        kla.eigsh(ks.csr_matrix(sps.random(4, 5, density=0.5, random_state=0)), k=1)
    with pytest.raises(TypeError, match="k >= N"), pytest.warns(RuntimeWarning):
        kla.eigsh(a, k=10)


def test_eigsh_k_ge_n_dense_uses_eigh():
    a = symmetric(6, numpy.float64).toarray()
    with pytest.warns(RuntimeWarning, match="k >= N"):
        w, v = kla.eigsh(kumo.asarray(a), k=6)
    numpy.testing.assert_allclose(np_(w), numpy.linalg.eigvalsh(a), rtol=1e-10, atol=1e-12)


def rect(m, n, dtype, seed=5):
    rng = numpy.random.default_rng(seed)
    a = sps.random(m, n, density=0.3, random_state=rng, format="csr")
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * sps.random(m, n, density=0.3, random_state=rng, format="csr")
    return sps.csr_matrix(a, dtype=dtype)


@pytest.mark.parametrize("shape", [(60, 40), (40, 60)])
@pytest.mark.parametrize("which", ["LM", "SM"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128])
def test_svds(shape, which, dtype):
    a = rect(*shape, dtype)
    u, s, vh = kla.svds(to_kumo(a, "csr"), k=4, which=which)
    u, s, vh = np_(u), np_(s), np_(vh)
    full = numpy.linalg.svd(a.toarray(), compute_uv=False)
    ref = numpy.sort(full[:4] if which == "LM" else full[-4:])
    numpy.testing.assert_allclose(s, ref, rtol=1e-7, atol=1e-9)
    assert u.shape == (shape[0], 4) and vh.shape == (4, shape[1])
    # A v = s u and u^H A = s v^H, columns orthonormal.
    numpy.testing.assert_allclose(a @ vh.conj().T, u * s, atol=1e-8)
    numpy.testing.assert_allclose(u.conj().T @ u, numpy.eye(4), atol=1e-8)
    ss = spla.svds(a, k=4, which=which, return_singular_vectors=False)
    numpy.testing.assert_allclose(s, ss, rtol=1e-7, atol=1e-9)


def test_svds_values_only_and_partial_vectors():
    a = rect(50, 30, numpy.float64)
    s = kla.svds(to_kumo(a, "csc"), k=3, return_singular_vectors=False)
    numpy.testing.assert_allclose(np_(s), numpy.sort(numpy.linalg.svd(a.toarray(), compute_uv=False)[:3]), rtol=1e-8)
    u, s2, vh = kla.svds(to_kumo(a, "csc"), k=3, return_singular_vectors="u")
    assert vh is None and np_(u).shape == (50, 3)


def test_svds_errors():
    a = to_kumo(rect(10, 8, numpy.float64), "csr")
    with pytest.raises(ValueError, match="k must be"):
        kla.svds(a, k=8)
    with pytest.raises(ValueError, match="which"):
        kla.svds(a, k=2, which="LA")
    with pytest.raises(ValueError, match="solver"):
        kla.svds(a, k=2, solver="bad")
