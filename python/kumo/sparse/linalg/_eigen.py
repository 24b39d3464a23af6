"""eigsh and svds (scipy.sparse.linalg's) over kumo::sparse::linalg's
thick-restarted Lanczos (sparse/linalg/eigsh.h)."""
import warnings

import numpy

from kumo import _core
from kumo.sparse.linalg._interface import LinearOperator, _asarray, aslinearoperator

_ops = _core.sparse_linalg


class ArpackError(RuntimeError):
    """An eigensolver failure (SciPy's ArpackError)."""


class ArpackNoConvergence(ArpackError):
    """The eigensolver did not converge (SciPy's ArpackNoConvergence); the
    converged pairs are in .eigenvalues and .eigenvectors."""

    def __init__(self, msg, eigenvalues, eigenvectors):
        super().__init__(msg)
        self.eigenvalues = eigenvalues
        self.eigenvectors = eigenvectors


_WHICH = ("LM", "SM", "LA", "SA", "BE")


def _shift_invert(A, sigma):
    """The operator (A - sigma I)^-1 of a matrix, through a SuperLU factorization."""
    from kumo.sparse import csc_matrix, issparse
    from kumo.sparse.linalg._dsolve import splu
    n = A.shape[0]
    a = csc_matrix(A) if issparse(A) else csc_matrix(_asarray(A))
    ones, idx = _asarray(numpy.ones(n)), _asarray(numpy.arange(n + 1, dtype=numpy.int32))
    eye = csc_matrix((ones, idx[:n], idx), shape=(n, n))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lu = splu((a - eye * sigma).tocsc())
    return LinearOperator((n, n), matvec=lu.solve, rmatvec=lu.solve, dtype=lu._f.dtype)


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal"):
    """k eigenvalues (ascending) and eigenvectors of a symmetric or Hermitian A
    (scipy.sparse.linalg.eigsh), by thick-restarted Lanczos in C++.

    which: 'LM', 'SM', 'LA', 'SA' or 'BE'; sigma: shift-invert around sigma
    (A - sigma I is factored by SuperLU unless OPinv is given), `which` then
    refers to 1 / (lambda - sigma). M (Hermitian positive definite) makes
    it the generalized problem A x = lambda M x, with M-orthonormal
    eigenvectors; M^-1 is Minv or a SuperLU factorization of M (an operator
    M needs Minv). Raises ArpackNoConvergence with the converged pairs when
    maxiter restarts do not suffice. M with sigma and the buckling/cayley
    modes are not supported."""
    if Minv is not None and M is None:
        raise ValueError("Minv given without M")
    if M is not None and sigma is not None:
        raise TypeError("kumo.sparse.linalg.eigsh: M with sigma (shift-invert of a pencil) is not supported")
    if mode != "normal":
        raise ValueError(f"kumo.sparse.linalg.eigsh: mode={mode!r} is not supported (only 'normal')")
    if which not in _WHICH:
        raise ValueError(f"which must be one of {' '.join(_WHICH)}")
    from kumo.sparse import issparse
    dense = not issparse(A) and not isinstance(A, LinearOperator) and not hasattr(A, "matvec")
    op = aslinearoperator(A)
    if op.shape[0] != op.shape[1]:
        raise ValueError(f"expected square matrix (shape={op.shape})")
    n = op.shape[0]
    if op.dtype is not None and numpy.dtype(op.dtype).kind == "c" and which == "BE":
        raise ValueError("which='BE' is not supported for complex Hermitian matrices")
    if k <= 0:
        raise ValueError("k must be greater than 0.")
    if k >= n:
        warnings.warn("k >= N for N * N square matrix. Attempting to use scipy.linalg.eigh instead.",
                      RuntimeWarning, stacklevel=2)
        if issparse(A):
            raise TypeError("Cannot use scipy.linalg.eigh for sparse A with k >= N. Use scipy.linalg.eigh(A.toarray()) "
                            "or reduce k.")
        if not dense:
            raise TypeError("Cannot use scipy.linalg.eigh for LinearOperator A with k >= N.")
        if M is not None:
            raise TypeError("kumo.sparse.linalg.eigsh: k >= N with M needs a dense generalized eigensolver, "
                            "which kumo.linalg does not have; reduce k")
        from kumo import linalg
        if return_eigenvectors:
            return linalg.eigh(_asarray(A))
        return linalg.eigvalsh(_asarray(A))
    opinv = None
    if sigma is not None:
        opinv = aslinearoperator(OPinv)._operator() if OPinv is not None else _shift_invert(A, sigma)._operator()
    m = minv = None
    if M is not None:
        mop = aslinearoperator(M)
        if mop.shape != op.shape:
            raise ValueError(f"wrong M dimensions {mop.shape}, should be {op.shape}")
        if Minv is None:
            if isinstance(M, LinearOperator) or hasattr(M, "matvec"):
                raise TypeError("kumo.sparse.linalg.eigsh: a LinearOperator M needs Minv")
            from kumo.sparse.linalg._dsolve import splu
            from kumo.sparse import csc_matrix
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                lu = splu(csc_matrix(M) if issparse(M) else csc_matrix(_asarray(M)))
            Minv = LinearOperator(op.shape, matvec=lu.solve, rmatvec=lu.solve, dtype=lu._f.dtype)
        m, minv = mop._operator(), aslinearoperator(Minv)._operator()
    v0 = None if v0 is None else _asarray(v0)
    w, v, converged = _ops.eigsh(op._operator(), int(k), which, v0, ncv, maxiter, float(tol),
                                 bool(return_eigenvectors), None if sigma is None else float(sigma), opinv, m, minv)
    if not converged:
        raise ArpackNoConvergence(f"ARPACK error -1: No convergence ({maxiter} iterations, {w.shape[0]}/{k} "
                                  "eigenvectors converged)", w, v)
    return (w, v) if return_eigenvectors else w


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None, return_singular_vectors=True,
         solver="arpack", rng=None, options=None):
    """The k largest ('LM') or smallest ('SM') singular values (ascending) and
    vectors of A (scipy.sparse.linalg.svds), from eigsh of A^H A or A A^H.

    Every solver name SciPy accepts ('arpack', 'lobpcg', 'propack') runs
    kumo's Lanczos method. return_singular_vectors: True, False, 'u' or 'vh'."""
    if solver not in ("arpack", "lobpcg", "propack", None):
        raise ValueError("solver must be one of {'arpack', 'lobpcg', 'propack'}")
    if return_singular_vectors not in (True, False, "u", "vh"):
        raise ValueError("`return_singular_vectors` must be one of {True, False, 'u', 'vh'}.")
    if which not in ("LM", "SM"):
        raise ValueError("`which` must be in {'LM', 'SM'}.")
    op = aslinearoperator(A)
    v0 = None if v0 is None else _asarray(v0)
    u, s, vh, converged = _ops.svds(op._operator(), int(k), which, v0, ncv, maxiter, float(tol),
                                     return_singular_vectors is not False)
    if not converged:
        raise ArpackNoConvergence("ARPACK error -1: No convergence", s, None)
    if return_singular_vectors is False:
        return s
    if return_singular_vectors == "u":
        vh = None
    elif return_singular_vectors == "vh":
        u = None
    return u, s, vh
