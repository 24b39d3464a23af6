"""eigsh and svds (scipy.sparse.linalg's) over kumo::sparse::linalg's
thick-restarted Lanczos (sparse/linalg/eigsh.h)."""
import warnings

import numpy

from kumo import _core
from kumo import linalg as _linalg
from kumo.sparse._formats import csc_matrix, issparse
from kumo.sparse.linalg._dsolve import splu
from kumo.sparse.linalg._interface import _asarray, aslinearoperator, LinearOperator
from kumo.sparse.linalg._staging import staged_through_host

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
_MODES = ("normal", "buckling", "cayley")


def _is_operator(A):
    return not issparse(A) and (isinstance(A, LinearOperator) or hasattr(A, "matvec"))


def _csc(A):
    return csc_matrix(A) if issparse(A) else csc_matrix(_asarray(A))


def _lu_inverse(a):
    """The C++ operator a^-1 of a CSC matrix, through one SuperLU factorization."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _ops.inverse_operator(splu(a)._f)


def _shift_invert(A, M, sigma):
    """(A - sigma M)^-1 (M = I when None) of matrices; None for operators,
    which the C++ side inverts by GMRES."""
    if _is_operator(A) or (M is not None and _is_operator(M)):
        return None
    n = A.shape[0]
    if M is None:
        ones, idx = _asarray(numpy.ones(n)), _asarray(numpy.arange(n + 1, dtype=numpy.int32))
        M = csc_matrix((ones, idx[:n], idx), shape=(n, n))
    return _lu_inverse((_csc(A) - _csc(M) * sigma).tocsc())


@staged_through_host
def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal"):
    """k eigenvalues (ascending) and eigenvectors of a symmetric or Hermitian A
    (scipy.sparse.linalg.eigsh), by thick-restarted Lanczos in C++.

    which: 'LM', 'SM', 'LA', 'SA' or 'BE'. M (Hermitian positive definite)
    makes it the generalized problem A x = lambda M x, with M-orthonormal
    eigenvectors; M^-1 is Minv, a SuperLU factorization of a matrix M or
    GMRES solves with an operator M. sigma: shift-invert around sigma with
    OPinv = (A - sigma M)^-1: given, factored by SuperLU for matrices, GMRES
    solves when A or M is an operator; `mode` ('normal', 'buckling',
    'cayley', ARPACK's modes 3-5) picks the transformed eigenvalue nu that
    `which` refers to: 1 / (lambda - sigma), lambda / (lambda - sigma) or
    (lambda + sigma) / (lambda - sigma). Buckling needs A positive definite
    and a nonzero sigma (as cayley) and gives A-orthonormal eigenvectors.
    Raises ArpackNoConvergence with the converged pairs when maxiter
    restarts do not suffice."""
    dense = not issparse(A) and not _is_operator(A)
    op = aslinearoperator(A)
    if op.dtype is not None and numpy.dtype(op.dtype).kind == "c":
        if mode != "normal":
            raise ValueError(f"mode={mode} cannot be used with complex matrix A")
        if which == "BE":
            raise ValueError("which='BE' cannot be used with complex matrix A")
    if op.shape[0] != op.shape[1]:
        raise ValueError(f"expected square matrix (shape={op.shape})")
    mop = None if M is None else aslinearoperator(M)
    if mop is not None and mop.shape != op.shape:
        raise ValueError(f"wrong M dimensions {mop.shape}, should be {op.shape}")
    if mop is not None and numpy.dtype(mop.dtype).char.lower() != numpy.dtype(op.dtype).char.lower():
        warnings.warn("M does not have the same type precision as A. This may adversely affect ARPACK convergence",
                      stacklevel=2)
    n = op.shape[0]
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
            if _is_operator(M):
                raise TypeError("Cannot use scipy.linalg.eigh for LinearOperator M with k >= N.")
            if issparse(M):
                raise ValueError("kumo.sparse.linalg.eigsh: k >= N needs a dense M (scipy.linalg.eigh(A, b=M))")
            w, v = _ops.dense_pencil_eigh(_asarray(A), _asarray(M), bool(return_eigenvectors))
            return (w, v) if return_eigenvectors else w
        if return_eigenvectors:
            return _linalg.eigh(_asarray(A))
        return _linalg.eigvalsh(_asarray(A))
    if which not in _WHICH:
        raise ValueError(f"which must be one of {' '.join(_WHICH)}")
    if sigma is not None and mode not in _MODES:
        raise ValueError(f"unrecognized mode '{mode}'")
    # The combinations SciPy rejects (OPinv without sigma, Minv without M or
    # with sigma, ...) are rejected in C++ before any work.
    opinv = minv = None
    if OPinv is not None:
        opinv = aslinearoperator(OPinv)._operator()
    elif sigma is not None and Minv is None:
        opinv = _shift_invert(A, M, sigma)
    if Minv is not None:
        minv = aslinearoperator(Minv)._operator()
    elif M is not None and sigma is None and not _is_operator(M):
        minv = _lu_inverse(_csc(M))
    v0 = None if v0 is None else _asarray(v0)
    w, v, converged = _ops.eigsh(op._operator(), int(k), which, v0, ncv, maxiter, float(tol),
                                 bool(return_eigenvectors), None if sigma is None else float(sigma), opinv,
                                 None if mop is None else mop._operator(), minv, "normal" if sigma is None else mode)
    if not converged:
        raise ArpackNoConvergence(f"ARPACK error -1: No convergence ({maxiter} iterations, {w.shape[0]}/{k} "
                                  "eigenvectors converged)", w, v)
    return (w, v) if return_eigenvectors else w


@staged_through_host
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
