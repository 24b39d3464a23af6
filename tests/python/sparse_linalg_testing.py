"""What the kumo.sparse.linalg tests share: test matrices as SciPy
objects and their kumo counterparts."""
import numpy
import scipy.sparse as sps

import kumo
import kumo.sparse as ks

FLOAT_DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]
FORMATS = ["csr", "csc", "coo"]


def np_(a):
    return kumo.asnumpy(a)


def tol(dtype):
    """A comparison tolerance for results computed in `dtype`."""
    return 1e-3 if numpy.dtype(dtype) in (numpy.float32, numpy.complex64) else 1e-9


def rvec(n, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    v = rng.standard_normal(n)
    if numpy.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(n)
    return v.astype(dtype)


def hpd(n, dtype, seed=0, density=0.05):
    """A sparse Hermitian positive definite matrix (SciPy csr): the 1-d
    Laplacian plus a random Hermitian part, shifted to be well conditioned."""
    rng = numpy.random.default_rng(seed)
    lap = sps.diags([-numpy.ones(n - 1), 2 * numpy.ones(n), -numpy.ones(n - 1)], [-1, 0, 1], format="csr")
    r = sps.random(n, n, density=density, random_state=rng, format="csr")
    if numpy.dtype(dtype).kind == "c":
        r = r + 1j * sps.random(n, n, density=density, random_state=rng, format="csr")
    a = lap + r + r.conj().T + 2 * sps.identity(n)
    # Diagonally dominant, so positive definite.
    a = a + sps.diags(numpy.asarray(abs(a).sum(axis=1)).ravel())
    return sps.csr_matrix(a, dtype=dtype)


def general(n, dtype, seed=1, density=0.05):
    """A sparse nonsymmetric, diagonally dominant (so nonsingular) matrix (SciPy csr)."""
    rng = numpy.random.default_rng(seed)
    r = sps.random(n, n, density=density, random_state=rng, format="csr")
    if numpy.dtype(dtype).kind == "c":
        r = r + 1j * sps.random(n, n, density=density, random_state=rng, format="csr")
    a = r + sps.diags(rng.uniform(1, 2, n)) * 0.5 + sps.diags(numpy.asarray(abs(r).sum(axis=1)).ravel() + 1)
    a = a + sps.diags(0.3 * numpy.ones(n - 1), 1)
    return sps.csr_matrix(a, dtype=dtype)


def to_kumo(a, fmt):
    """The SciPy matrix a as a kumo sparse matrix of format fmt."""
    return getattr(ks, f"{fmt}_matrix")(getattr(a, "to" + fmt)())
