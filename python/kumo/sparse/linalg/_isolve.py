"""The iterative solvers of scipy.sparse.linalg over kumo's C++ solvers
(kumo::sparse::linalg, sparse/linalg/isolve.h). This layer maps SciPy's
arguments (operators, x0='Mb', callback_type) onto the C++ calls."""
import warnings

import numpy

from kumo import _core
from kumo.sparse.linalg._interface import _asarray, aslinearoperator

_ops = _core.sparse_linalg


def _operator(A, b=None):
    """A's C++ operator; an operator without a dtype takes its matvec's on b (SciPy's make_system)."""
    op = aslinearoperator(A)
    if op.dtype is None and b is not None:
        op.dtype = numpy.dtype(_asarray(op.matvec(_asarray(b).reshape(-1))).dtype)
    return op, op._operator()


def _system(A, b, x0, M):
    op, a = _operator(A, b)
    b = _asarray(b)
    m = None
    if M is not None:
        m = aslinearoperator(M)._operator()
    if isinstance(x0, str):
        if x0 != "Mb":
            raise ValueError(f"x0 must be an array, None or 'Mb', not {x0!r}")
        x0 = aslinearoperator(M).matvec(b.reshape(-1)) if M is not None else b.reshape(-1).copy()
    elif x0 is not None:
        x0 = _asarray(x0)
    return a, b, x0, m


def _check_atol(name, atol):
    if atol is None or isinstance(atol, str) or atol < 0:
        raise ValueError(f"'scipy.sparse.linalg.{name}' called with invalid `atol`={atol}; "
                         "if set, `atol` must be a real, non-negative number.")


def _solver(name, doc):
    fn = getattr(_ops, name)

    def solve(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
        _check_atol(name, atol)
        a, b, x0, m = _system(A, b, x0, M)
        return fn(a, b, x0, float(rtol), float(atol), maxiter, m, callback)

    solve.__name__ = solve.__qualname__ = name
    solve.__doc__ = doc + """

    A: sparse matrix, dense array or LinearOperator (n, n); b: (n,) or (n, 1).
    Returns (x, info): info 0 converged (||r|| < max(atol, rtol ||b||)),
    > 0 maxiter (default 10 n) reached, < 0 breakdown. M is a preconditioner
    (approximates A^-1); callback(xk) is called after each iteration.
    x0 may be an array or 'Mb'. The computation runs in C++ on all cores."""
    return solve


cg = _solver("cg", "Conjugate Gradient for Hermitian positive definite A (scipy.sparse.linalg.cg).")
bicg = _solver("bicg", "BIConjugate Gradient (scipy.sparse.linalg.bicg); needs A's rmatvec.")
bicgstab = _solver("bicgstab", "BIConjugate Gradient STABilized (scipy.sparse.linalg.bicgstab).")
cgs = _solver("cgs", "Conjugate Gradient Squared (scipy.sparse.linalg.cgs).")


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0., restart=None, maxiter=None, M=None, callback=None,
          callback_type=None):
    """Restarted GMRES (scipy.sparse.linalg.gmres), returning (x, info).

    restart: Krylov dimension per cycle (default 20); maxiter counts restart
    cycles (default 10 n). callback_type 'x' calls callback(xk) after each
    cycle, 'pr_norm' calls callback(preconditioned residual / ||b||) after
    each inner step, 'legacy' (the default) as 'pr_norm' with maxiter counted
    in inner steps."""
    if callback is not None and callback_type is None:
        warnings.warn("scipy.sparse.linalg.gmres called without specifying `callback_type`. The default value "
                      "will be changed in a future release. For compatibility, specify a value for "
                      "`callback_type` explicitly, e.g., ``gmres(..., callback_type='pr_norm')``, or to retain "
                      "the old behavior ``gmres(..., callback_type='legacy')``",
                      category=DeprecationWarning, stacklevel=2)
    if callback_type is None:
        callback_type = "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    _check_atol("gmres", atol)
    a, b, x0, m = _system(A, b, x0, M)
    return _ops.gmres(a, b, x0, float(rtol), float(atol), restart, maxiter, m, callback, callback_type)


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None, show=False,
           check=False):
    """MINimum RESidual for symmetric/Hermitian A - shift I (scipy.sparse.linalg.minres).

    Returns (x, info): info 0 when a stopping test passed, maxiter (default
    5 n) when the limit was reached. M must be symmetric positive definite.
    show is accepted and ignored (no printing)."""
    a, b, x0, m = _system(A, b, x0, M)
    return _ops.minres(a, b, x0, float(rtol), float(shift), maxiter, m, callback, bool(check))


def _least_squares_rhs(A, b):
    b = _asarray(b)
    if b.ndim == 0:
        b = b.reshape(1)
    if b.ndim > 1:
        b = b.reshape(-1) if b.size == A.shape[0] else b
    return b


def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None, show=False, calc_var=False, x0=None):
    """Least squares by LSQR (scipy.sparse.linalg.lsqr): min ||Ax - b||^2 + damp^2 ||x||^2.

    Returns (x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var)
    as SciPy's; x is float64 (complex128 for complex input)."""
    op, a = _operator(A)
    b = _least_squares_rhs(op, b)
    x0 = None if x0 is None else _asarray(x0)
    return _ops.lsqr(a, b, float(damp), float(atol), float(btol), float(conlim), iter_lim, bool(calc_var), x0)


def lsmr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None, show=False, x0=None):
    """Least squares by LSMR (scipy.sparse.linalg.lsmr).

    Returns (x, istop, itn, normr, normar, norma, conda, normx) as SciPy's."""
    op, a = _operator(A)
    b = _least_squares_rhs(op, b)
    x0 = None if x0 is None else _asarray(x0)
    return _ops.lsmr(a, b, float(damp), float(atol), float(btol), float(conlim), maxiter, x0)
