"""kumo.sparse.linalg.eigsh's shift-invert modes against the dense
generalized eigenproblem and scipy.sparse.linalg.eigsh: M with sigma
(ARPACK's mode 3), 'buckling' (mode 4), 'cayley' (mode 5), a given OPinv,
Minv without sigma, and the combinations SciPy rejects."""
import numpy
import pytest
import scipy.linalg
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import kumo
import kumo.sparse as ks
import kumo.sparse.linalg as kla
from sparse_linalg_testing import hpd, np_, to_kumo

N = 60
REAL = [numpy.float32, numpy.float64]
ALL = REAL + [numpy.complex64, numpy.complex128]


def is_single(dtype):
    return numpy.dtype(dtype) in (numpy.float32, numpy.complex64)


def rtol(dtype):
    return 2e-4 if is_single(dtype) else 1e-8


def indefinite(n, dtype, seed=0):
    """A sparse Hermitian indefinite matrix with distinct eigenvalues."""
    return sps.csr_matrix(hpd(n, dtype, seed=seed) - sps.identity(n) * 8, dtype=dtype)


def mass(n, dtype):
    """A sparse Hermitian positive definite tridiagonal 'mass' matrix."""
    m = sps.diags(numpy.linspace(1, 3, n)) + 0.2 * sps.diags(numpy.ones(n - 1), 1) + 0.2 * sps.diags(numpy.ones(n - 1), -1)
    return sps.csr_matrix(m, dtype=dtype)


def pencil_eigenvalues(a, m):
    """All eigenvalues of A x = lambda M x (M = I when None), in float64."""
    a = a.toarray().astype(numpy.complex128 if a.dtype.kind == "c" else numpy.float64)
    if m is None:
        return numpy.linalg.eigvalsh(a)
    return scipy.linalg.eigh(a, m.toarray().astype(a.dtype), eigvals_only=True)


def buckling_eigenvalues(a, g):
    """All finite eigenvalues of A x = lambda G x for positive definite A and
    indefinite G, from G x = mu A x (lambda = 1 / mu)."""
    mu = scipy.linalg.eigh(g.toarray().astype(numpy.float64), a.toarray().astype(numpy.float64), eigvals_only=True)
    return 1 / mu[abs(mu) > 1e-12]


def transformed(lam, sigma, mode):
    """The eigenvalue nu of ARPACK's operator that `which` refers to."""
    if mode == "normal":
        return 1 / (lam - sigma)
    if mode == "buckling":
        return lam / (lam - sigma)
    return (lam + sigma) / (lam - sigma)


def wanted(lam, k, which, sigma, mode):
    """The k eigenvalues lambda whose nu `which` selects, ascending."""
    nu = transformed(lam, sigma, mode)
    order = numpy.argsort(nu, kind="stable")
    if which == "LA":
        sel = order[-k:]
    elif which == "SA":
        sel = order[:k]
    elif which == "LM":
        sel = numpy.argsort(-abs(nu), kind="stable")[:k]
    elif which == "SM":
        sel = numpy.argsort(abs(nu), kind="stable")[:k]
    else:  # BE: k/2 from the low end of nu, the rest from the high end
        sel = numpy.concatenate([order[:k // 2], order[len(nu) - (k - k // 2):]])
    return numpy.sort(lam[sel])


def assert_pencil_residuals(a, m, w, v, dtype):
    """A v = w M v column by column (M = I when None), relative to |A| |v|."""
    mv = v if m is None else m @ v
    scale = abs(a).sum(axis=1).max() * numpy.abs(v).max(axis=0)
    res = numpy.abs(a @ v - mv * w).max(axis=0)
    assert numpy.all(res <= (1e-3 if is_single(dtype) else 1e-8) * scale), res / scale


def whiches(dtype):
    return ["LM", "SM", "LA", "SA"] + ([] if numpy.dtype(dtype).kind == "c" else ["BE"])


CASES_ALL = [(d, w) for d in ALL for w in whiches(d)]
CASES_REAL = [(d, w) for d in REAL for w in whiches(d)]


def stiffness(n, dtype):
    return hpd(n, dtype, seed=3)


def geometric(n, dtype):
    """An indefinite 'geometric stiffness' matrix."""
    return indefinite(n, dtype, seed=4)


def problem(mode, n, dtype, with_m=True):
    """A, M (None without with_m) and all eigenvalues of the pencil, as
    `mode` needs them: buckling takes a positive definite A (its inner
    product) and an indefinite geometric M; the others an indefinite A and a
    positive definite M."""
    if mode == "buckling":
        a, m = stiffness(n, dtype), geometric(n, dtype) if with_m else None
        return a, m, (numpy.linalg.eigvalsh(a.toarray()) if m is None else buckling_eigenvalues(a, m))
    a, m = indefinite(n, dtype), mass(n, dtype) if with_m else None
    return a, m, pencil_eigenvalues(a, m)


def inner_product(mode, a, m):
    """The matrix eigenvectors are orthonormal in: A in buckling mode, else M."""
    return a if mode == "buckling" else m


def kumo_or_none(m):
    return None if m is None else to_kumo(m, "csr")


MODES = ["normal", "buckling", "cayley"]
# Complex A runs 'normal' only (SciPy rejects the other modes for it).
MODE_DTYPES = [("normal", d) for d in ALL] + [(mode, d) for mode in MODES[1:] for d in REAL]
MODE_CASES = [(mode, d, w) for mode, d in MODE_DTYPES for w in whiches(d)]


@pytest.mark.parametrize("mode,dtype,which", MODE_CASES)
def test_mode_values(mode, dtype, which):
    a, m, lam = problem(mode, N, dtype)
    sigma = {"normal": 1.3, "buckling": 0.9, "cayley": 1.7}[mode]
    # 'SM' of 'normal' here wants nu in the interior of the spectrum of
    # (A - sigma M)^-1 M, where Lanczos converges slowly (ARPACK needs some
    # 300 restarts too); a wider basis keeps the test short.
    ncv = 30 if which == "SM" and mode == "normal" else None
    w = kla.eigsh(to_kumo(a, "csr"), k=4, M=to_kumo(m, "csr"), sigma=sigma, which=which, mode=mode, ncv=ncv,
                  return_eigenvectors=False)
    assert np_(w).dtype == numpy.dtype(dtype).char.lower()
    numpy.testing.assert_allclose(np_(w), wanted(lam, 4, which, sigma, mode), rtol=rtol(dtype) * 10,
                                  atol=rtol(dtype))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", REAL)
def test_interior_values_converge_from_any_start(seed, dtype):
    # 'SM' of the cayley operator wants the interior of nu's spectrum: ARPACK
    # needs 200-600 restarts here depending on v0, and kumo's earlier restart
    # policy failed within 600 on some CPUs. Locking, a lean restart and the
    # widening basis converge within 100 from every starting vector.
    a, m, lam = problem("cayley", N, dtype)
    v0 = numpy.random.default_rng(seed).uniform(-1, 1, N).astype(dtype)
    w = kla.eigsh(to_kumo(a, "csr"), k=4, M=to_kumo(m, "csr"), sigma=1.7, which="SM", mode="cayley", maxiter=100,
                  v0=kumo.asarray(v0), return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), wanted(lam, 4, "SM", 1.7, "cayley"), rtol=rtol(dtype) * 10,
                                  atol=rtol(dtype))


@pytest.mark.parametrize("ncv", [6, 9])
def test_given_ncv_is_kept_and_vectors_are_orthonormal(ncv):
    # With locking, the vectors returned mix locked and active ones; they are
    # still M-orthonormal eigenvectors, for a small basis too.
    a, m, _ = problem("normal", N, numpy.float64)
    w, v = kla.eigsh(to_kumo(a, "csr"), k=4, M=to_kumo(m, "csr"), sigma=2.1, ncv=ncv)
    w, v = np_(w), np_(v)
    assert_pencil_residuals(a, m, w, v, numpy.float64)
    numpy.testing.assert_allclose(v.T @ (m @ v), numpy.eye(4), atol=1e-9)
    sw = spla.eigsh(a, k=4, M=m, sigma=2.1, return_eigenvectors=False)
    numpy.testing.assert_allclose(w, numpy.sort(sw), rtol=1e-8)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("which", ["LM", "SM", "LA", "SA", "BE"])
@pytest.mark.parametrize("with_m", [True, False])
def test_mode_matches_scipy(mode, which, with_m):
    a, m, _ = problem(mode, N, numpy.float64, with_m)
    sigma = {"normal": -0.7, "buckling": -1.5, "cayley": -2.5}[mode]
    w = kla.eigsh(to_kumo(a, "csc"), k=3, M=kumo_or_none(m), sigma=sigma, which=which, mode=mode,
                  return_eigenvectors=False)
    sw = spla.eigsh(a.tocsc(), k=3, M=m, sigma=sigma, which=which, mode=mode, return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), numpy.sort(sw), rtol=1e-8)


@pytest.mark.parametrize("mode,dtype", MODE_DTYPES)
def test_mode_vectors(mode, dtype):
    a, m, _ = problem(mode, N, dtype)
    w, v = kla.eigsh(to_kumo(a, "csr"), k=4, M=to_kumo(m, "csr"), sigma=2.1 if mode == "normal" else 0.9, mode=mode)
    w, v = np_(w), np_(v).astype(numpy.complex128 if numpy.dtype(dtype).kind == "c" else numpy.float64)
    assert v.shape == (N, 4) and numpy.all(numpy.diff(w) >= 0)
    assert_pencil_residuals(a, m, w, v, dtype)
    # Orthonormal in the inner product the mode runs in, as ARPACK's.
    b = inner_product(mode, a, m)
    numpy.testing.assert_allclose(v.conj().T @ (b @ v), numpy.eye(4), atol=1e-4 if is_single(dtype) else 1e-9)


@pytest.mark.parametrize("mode", MODES)
def test_mode_vectors_match_scipy_up_to_sign(mode):
    a, m, _ = problem(mode, N, numpy.float64)
    w, v = kla.eigsh(to_kumo(a, "csr"), k=3, M=to_kumo(m, "csr"), sigma=0.4, mode=mode)
    sw, sv = spla.eigsh(a, k=3, M=m, sigma=0.4, mode=mode)
    numpy.testing.assert_allclose(np_(w), sw, rtol=1e-10)
    b = inner_product(mode, a, m)
    for i in range(3):
        numpy.testing.assert_allclose(abs(np_(v)[:, i] @ (b @ sv[:, i])), 1, rtol=1e-8)


@pytest.mark.parametrize("mode", ["normal", "cayley"])
def test_singular_m_vectors_have_rounding_level_residuals(mode):
    # M only positive semi-definite (SciPy allows it with sigma): Lanczos in
    # the M inner product cannot see rounding errors in M's null space, so
    # the vectors are purified by a step of inverse iteration, as ARPACK's.
    a = indefinite(N, numpy.float64)
    d = numpy.linspace(1, 3, N)
    d[::3] = 0
    m = sps.diags(d).tocsr()
    w, v = kla.eigsh(to_kumo(a, "csr"), k=4, M=to_kumo(m, "csr"), sigma=0.7, mode=mode)
    w, v = np_(w), np_(v)
    numpy.testing.assert_allclose(w, numpy.sort(spla.eigsh(a, k=4, M=m, sigma=0.7, mode=mode)[0]), rtol=1e-10)
    res = numpy.abs(a @ v - (m @ v) * w).max(axis=0)
    assert numpy.all(res <= 1e-12 * abs(a).sum(axis=1).max() * numpy.abs(v).max(axis=0)), res


@pytest.mark.parametrize("mode", MODES)
def test_mode_moderate_size(mode):
    n, sigma = 600, 0.35
    a, m, lam = problem(mode, n, numpy.float64)
    w, v = kla.eigsh(to_kumo(a, "csc"), k=6, M=to_kumo(m, "csc"), sigma=sigma, mode=mode)
    numpy.testing.assert_allclose(np_(w), wanted(lam, 6, "LM", sigma, mode), rtol=1e-8)
    assert_pencil_residuals(a, m, np_(w), np_(v), numpy.float64)


def as_input(mat, fmt):
    if fmt == "dense":
        return kumo.asarray(mat.toarray())
    if fmt == "numpy":
        return mat.toarray()
    if fmt == "coo-duplicates":
        # Every entry stored as two halves: non-canonical storage.
        coo = mat.tocoo()
        half = sps.coo_matrix((numpy.concatenate([coo.data / 2, coo.data / 2]),
                               (numpy.concatenate([coo.row, coo.row]), numpy.concatenate([coo.col, coo.col]))),
                              shape=mat.shape)
        return ks.coo_matrix(half)
    return to_kumo(mat, fmt)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "coo-duplicates", "dense", "numpy"])
@pytest.mark.parametrize("mode", MODES)
def test_mode_inputs(fmt, mode):
    a, m, lam = problem(mode, 40, numpy.float64)
    w = kla.eigsh(as_input(a, fmt), k=3, M=as_input(m, fmt), sigma=0.9, mode=mode, return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), wanted(lam, 3, "LM", 0.9, mode), rtol=1e-9)


# --- OPinv and Minv given ----------------------------------------------------

def lu_operator(mat):
    """(mat)^-1 as a kumo LinearOperator calling SciPy's splu."""
    lu = spla.splu(sps.csc_matrix(mat))
    return kla.LinearOperator(mat.shape, matvec=lambda x: lu.solve(np_(x)), dtype=mat.dtype)


@pytest.mark.parametrize("mode", MODES)
def test_opinv_operator(mode):
    a, m, _ = problem(mode, N, numpy.float64)
    sigma = 0.9
    w = kla.eigsh(to_kumo(a, "csr"), k=4, M=to_kumo(m, "csr"), sigma=sigma, OPinv=lu_operator(a - sigma * m),
                  mode=mode, return_eigenvectors=False)
    sw = spla.eigsh(a, k=4, M=m, sigma=sigma, mode=mode, return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), numpy.sort(sw), rtol=1e-8)


def test_opinv_operator_with_operator_a():
    a = indefinite(N, numpy.complex128)
    ak = to_kumo(a, "csr")
    aop = kla.LinearOperator(a.shape, matvec=lambda x: ak @ x, dtype=numpy.complex128)
    w = kla.eigsh(aop, k=3, sigma=0.5, OPinv=lu_operator(a - 0.5 * sps.identity(N)), return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), wanted(pencil_eigenvalues(a, None), 3, "LM", 0.5, "normal"), rtol=1e-9)


def test_opinv_sparse_matrix():
    # OPinv may be any matrix (SciPy wraps it by aslinearoperator): here the
    # dense inverse as a sparse matrix.
    a, sigma = indefinite(30, numpy.float64), 0.2
    inv = sps.csr_matrix(numpy.linalg.inv(a.toarray() - sigma * numpy.eye(30)))
    w = kla.eigsh(to_kumo(a, "csr"), k=3, sigma=sigma, OPinv=to_kumo(inv, "csr"), return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), wanted(pencil_eigenvalues(a, None), 3, "LM", sigma, "normal"), rtol=1e-8)


def test_minv_sparse_matrix_without_sigma():
    a = indefinite(N, numpy.float64)
    d = numpy.linspace(1, 3, N)
    m, minv = sps.diags(d).tocsr(), sps.diags(1 / d).tocsr()
    w = kla.eigsh(to_kumo(a, "csr"), k=3, M=to_kumo(m, "csr"), Minv=to_kumo(minv, "csr"), which="SA",
                  return_eigenvectors=False)
    sw = spla.eigsh(a, k=3, M=m, Minv=minv, which="SA", return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), numpy.sort(sw), rtol=1e-9)


# --- operators without a factorization: GMRES solves, as SciPy's fallback ----

def operator(mat):
    k = to_kumo(mat, "csr")
    return kla.LinearOperator(mat.shape, matvec=lambda x: k @ x, dtype=mat.dtype)


@pytest.mark.parametrize("mode", MODES)
def test_sigma_with_operators_solves_iteratively(mode):
    a, m, lam = problem(mode, 40, numpy.float64)
    sigma = 0.9
    w, v = kla.eigsh(operator(a), k=3, M=operator(m), sigma=sigma, mode=mode)
    numpy.testing.assert_allclose(np_(w), wanted(lam, 3, "LM", sigma, mode), rtol=1e-7)
    assert_pencil_residuals(a, m, np_(w), np_(v), numpy.float32)  # GMRES accuracy, not LU's


def test_sigma_with_operator_a_and_no_m():
    a = indefinite(40, numpy.complex128)
    w = kla.eigsh(operator(a), k=3, sigma=-0.4, return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), wanted(pencil_eigenvalues(a, None), 3, "LM", -0.4, "normal"), rtol=1e-7)


def test_operator_m_without_minv():
    a, m = indefinite(40, numpy.float64), mass(40, numpy.float64)
    w = kla.eigsh(to_kumo(a, "csr"), k=3, M=operator(m), which="LA", return_eigenvectors=False)
    sw = spla.eigsh(a, k=3, M=spla.aslinearoperator(m), which="LA", return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), numpy.sort(sw), rtol=1e-7)


def test_mode_is_ignored_without_sigma():
    # SciPy reads `mode` only with sigma.
    a = indefinite(N, numpy.float64)
    w = kla.eigsh(to_kumo(a, "csr"), k=3, mode="whatever", return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), numpy.sort(spla.eigsh(a, k=3, return_eigenvectors=False)), rtol=1e-9)


# --- k >= N with M: the dense pencil (SciPy's scipy.linalg.eigh(A, b=M)) ----

@pytest.mark.parametrize("dtype", ALL)
def test_k_ge_n_with_m_solves_the_dense_pencil(dtype):
    a, m = indefinite(12, dtype).toarray(), mass(12, dtype).toarray()
    with pytest.warns(RuntimeWarning, match="k >= N"):
        w, v = kla.eigsh(kumo.asarray(a), k=12, M=kumo.asarray(m))
    with pytest.warns(RuntimeWarning):
        sw = spla.eigsh(a, k=12, M=m, return_eigenvectors=False)
    assert np_(w).dtype == numpy.dtype(dtype).char.lower()
    numpy.testing.assert_allclose(np_(w), numpy.sort(sw), rtol=rtol(dtype), atol=rtol(dtype))
    v = np_(v).astype(numpy.complex128)
    assert_pencil_residuals(sps.csr_matrix(a), sps.csr_matrix(m), np_(w), v, dtype)
    numpy.testing.assert_allclose(v.conj().T @ m @ v, numpy.eye(12), atol=1e-4 if is_single(dtype) else 1e-9)


def test_k_ge_n_with_m_values_only_from_numpy_arrays():
    a, m = indefinite(8, numpy.float64).toarray(), mass(8, numpy.float64).toarray()
    with pytest.warns(RuntimeWarning):
        w = kla.eigsh(a, k=9, M=m, return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), scipy.linalg.eigh(a, m, eigvals_only=True), rtol=1e-10)


def test_k_ge_n_with_m_not_positive_definite():
    a, m = indefinite(6, numpy.float64).toarray(), -mass(6, numpy.float64).toarray()
    with pytest.warns(RuntimeWarning), pytest.raises(numpy.linalg.LinAlgError):
        kla.eigsh(kumo.asarray(a), k=6, M=kumo.asarray(m))


def test_k_ge_n_with_operator_or_sparse_m():
    a, m = indefinite(6, numpy.float64).toarray(), mass(6, numpy.float64)
    with pytest.warns(RuntimeWarning), pytest.raises(TypeError, match="LinearOperator M"):
        kla.eigsh(kumo.asarray(a), k=6, M=operator(m))
    with pytest.warns(RuntimeWarning), pytest.raises(ValueError, match="dense M"):
        kla.eigsh(kumo.asarray(a), k=6, M=to_kumo(m, "csr"))


def test_m_of_another_precision_warns_as_scipy():
    a, m = indefinite(N, numpy.float32), mass(N, numpy.float64)
    with pytest.warns(UserWarning, match="same type precision"):
        w = kla.eigsh(to_kumo(a, "csr"), k=3, M=to_kumo(m, "csr"), sigma=0.9, return_eigenvectors=False)
    assert np_(w).dtype == numpy.float32
    with pytest.warns(UserWarning, match="same type precision"):
        sw = spla.eigsh(a, k=3, M=m, sigma=0.9, return_eigenvectors=False)
    numpy.testing.assert_allclose(np_(w), numpy.sort(sw), rtol=1e-4)


# --- errors ------------------------------------------------------------------

@pytest.fixture
def small():
    return to_kumo(indefinite(10, numpy.float64), "csr"), to_kumo(mass(10, numpy.float64), "csr")


def test_error_unknown_mode(small):
    a, m = small
    with pytest.raises(ValueError, match="unrecognized mode 'bogus'"):
        kla.eigsh(a, k=2, M=m, sigma=1.0, mode="bogus")


@pytest.mark.parametrize("mode", ["buckling", "cayley"])
def test_error_mode_with_complex_a(mode):
    a = to_kumo(indefinite(10, numpy.complex128), "csr")
    with pytest.raises(ValueError, match=f"mode={mode} cannot be used with complex matrix A"):
        kla.eigsh(a, k=2, sigma=1.0, mode=mode)


@pytest.mark.parametrize("mode", ["buckling", "cayley"])
def test_error_zero_sigma(small, mode):
    a, m = small
    with pytest.raises(ValueError, match="nonzero sigma"):
        kla.eigsh(a, k=2, M=m, sigma=0.0, mode=mode)


def test_error_minv_with_sigma(small):
    a, m = small
    with pytest.raises(ValueError, match="Minv should not be specified when sigma is specified"):
        kla.eigsh(a, k=2, M=m, sigma=1.0, Minv=m)


def test_error_opinv_without_sigma(small):
    a, m = small
    with pytest.raises(ValueError, match="OPinv should not be specified with sigma = None"):
        kla.eigsh(a, k=2, OPinv=m)


def test_error_minv_without_m(small):
    a, m = small
    with pytest.raises(ValueError, match="Minv should not be specified with M = None"):
        kla.eigsh(a, k=2, Minv=m)


def test_error_m_shape_with_sigma(small):
    a, _ = small
    with pytest.raises(ValueError, match="wrong M dimensions"):
        kla.eigsh(a, k=2, M=to_kumo(mass(9, numpy.float64), "csr"), sigma=1.0)


def test_error_opinv_shape(small):
    a, _ = small
    with pytest.raises(ValueError, match="OPinv has shape"):
        kla.eigsh(a, k=2, sigma=1.0, OPinv=to_kumo(mass(9, numpy.float64), "csr"))


def test_error_iterative_inverse_not_converging():
    # GMRES(20) stagnates on this indefinite A - 1.3 M; SciPy's eigsh raises
    # the same ValueError (info = 400) here.
    a, m = indefinite(40, numpy.float64), mass(40, numpy.float64)
    with pytest.raises(ValueError, match=r"GMRES solve with \[A - sigma M\] did not converge"):
        kla.eigsh(operator(a), k=3, M=operator(m), sigma=1.3)
