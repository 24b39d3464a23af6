"""numpy.linalg's solvers and matrix functions on kumo arrays: solve, inv,
pinv, lstsq, det, slogdet, matrix_rank, cond, tensorsolve, tensorinv.

Everything after the factorization (pivot parity, log-determinants, the
pseudo-inverse's filtering of small singular values) runs as kumo kernels
on the arrays' device; the host only sees the info arrays.
"""
import collections
import operator

import numpy

from kumo import _core
from kumo import _creation
from kumo import _reductions as red
from kumo import _ufuncs as uf
from kumo._searching import where
from kumo.linalg import _util
from kumo.linalg._util import LinAlgError
from kumo.linalg._decompositions import svd
from kumo.linalg._norms import _abs_sq, norm
from kumo.linalg._products import _zeros_on, matmul

try:
    from numpy.linalg._linalg import SlogdetResult
except ImportError:  # pragma: no cover - older NumPy layouts
    SlogdetResult = collections.namedtuple("SlogdetResult", ["sign", "logabsdet"])

_NoValue = numpy._NoValue


# ---------------------------------------------------------------- LU helpers
def _lu(a, t):
    """LU factors of the stack `a` (..., n, n): (lu (B, n, n), ipiv, info, trans).

    Row-major input is copied as it lies (a plain copy, several times
    cheaper than a transposing one), which LAPACK reads as a^T; solves with
    those factors then use op 'T' (trans == "T"). det(a^T) == det(a), so the
    determinant does not care."""
    n = a.shape[-1]
    batch_shape = a.shape[:-2]
    batch = _util.prod(batch_shape)
    column_major = a.strides[-2] == a.itemsize and a.dtype == t and n > 1
    if column_major:
        work, trans = _util.to_work(a, t), "N"
    else:
        rows = _creation.empty((batch, n, n), t)
        rows.reshape(batch_shape + (n, n))[...] = a
        work, trans = rows.transpose(0, 2, 1), "T"
    ipiv, info = _util.backend().getrf(work)
    return work, ipiv, info, trans


def _identity_rhs(batch, n, t):
    rhs = _util.fortran_batch(batch, n, n, t)
    rhs.fill(0)
    d = rhs._diagonal(0, 1, 2)
    d._writeable = True
    d[...] = 1
    return rhs


# ---------------------------------------------------------------- solve
def solve(a, b):
    """x with a @ x == b. ``b`` is one vector per matrix only when b.ndim == 1
    (NumPy 2's rule); otherwise b (..., M, K) holds K right-hand sides, and
    the leading axes of a and b broadcast. (C++: kumo::linalg::solve.)"""
    return _core.linalg.solve(_util.asarray(a), _util.asarray(b))


def _inv_work(a, t, raise_singular):
    n = a.shape[-1]
    lu, ipiv, info, trans = _lu(a, t)
    if raise_singular:
        _util.check_info(info, "Singular matrix")
    rhs = _identity_rhs(lu.shape[0], n, t)
    _util.backend().getrs(lu, ipiv, rhs, trans)
    return rhs, info


def inv(a):
    """The inverse of each square matrix; LinAlgError("Singular matrix") if any is singular."""
    return _core.linalg.inv(_util.asarray(a))


# ---------------------------------------------------------------- determinants
def slogdet(a):
    """Sign (a unit-modulus complex number for complex input) and natural
    log of |det|; a singular matrix gives (0, -inf)."""
    return SlogdetResult(*_core.linalg.slogdet(_util.asarray(a)))


def det(a):
    """Determinant of each square matrix (sign * exp(log|det|), as NumPy)."""
    return _core.linalg.det(_util.asarray(a))


# ---------------------------------------------------------------- pinv / lstsq
def pinv(a, rcond=None, hermitian=False, *, rtol=_NoValue):
    """Moore-Penrose pseudo-inverse via the SVD; singular values at most
    rcond * max(s) are treated as zero (default rcond 1e-15, or
    max(M, N) * eps when ``rtol=None``)."""
    a = _util.asarray(a)
    if rcond is None:
        if rtol is _NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * _util.eps(_util.common_type(a))
        else:
            rcond = rtol
    elif rtol is not _NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    with _util.on_device_of(a):
        rcond = _util.asarray(rcond)
        if a.size == 0 and _util.prod(a.shape[-2:]) == 0:
            m, n = a.shape[-2:]
            return _creation.empty(a.shape[:-2] + (n, m), a.dtype)
        # svd(conj(a)) = conj(U) S conj(V^H), so V and U^H come out as plain transposes.
        u, s, vt = svd(uf.conjugate(a), full_matrices=False, hermitian=hermitian)
        cutoff = rcond[..., None] * red.max(s, axis=-1, keepdims=True)
        large = uf.greater(s, cutoff)
        s_inv = where(large, uf.reciprocal(where(large, s, _creation.ones((), s.dtype))),
                      _creation.zeros((), s.dtype))
        return matmul(vt.swapaxes(-1, -2), s_inv[..., None] * u.swapaxes(-1, -2))


def lstsq(a, b, rcond=None):
    """Least-squares solution of a @ x = b: (x, residuals, rank, s).

    Singular values at most rcond * s[0] count as zero (rcond defaults to
    eps * max(M, N)); residuals are the squared 2-norms of b - a @ x per
    column, returned only when rank == N < M (else an empty array)."""
    a = _util.asarray(a)
    b = _util.asarray(b)
    is_1d = b.ndim == 1
    if is_1d:
        b = b[:, None]
    _util.assert_2d(a, b)
    m, n = a.shape
    m2, k = b.shape
    if m != m2:
        raise LinAlgError("Incompatible dimensions")
    t = _util.common_type(a, b)
    rt = _util.real_dtype(t)
    if rcond is None:
        rcond = _util.eps(t) * max(n, m)
    elif rcond < 0:
        rcond = _util.eps(t)  # LAPACK's gelsd: negative rcond means machine precision
    with _util.on_device_of(a):
        if m == 0 or n == 0:
            x = _creation.zeros((n, k), t)
            s = _creation.empty((0,), rt)
            rank = 0
            if n == 0 and m > 0:
                bt = b.astype(t, copy=False)
                resids = red.sum(_abs_sq(bt), axis=0).astype(rt, copy=False)
            else:
                resids = _creation.empty((0,), rt)
            x = x[:, 0] if is_1d else x
            return x, resids, numpy.int32(rank), s
        try:
            u, s, vh = svd(a.astype(t, copy=False), full_matrices=False)
        except LinAlgError:
            raise LinAlgError("SVD did not converge in Linear Least Squares") from None
        large = uf.greater(s, rcond * s[0])
        rank = int(red.count_nonzero(large))
        s_inv = where(large, uf.reciprocal(where(large, s, _creation.ones((), rt))), _creation.zeros((), rt))
        bt = b.astype(t, copy=False)
        y = matmul(_util.conj_t(u), bt) * s_inv[:, None]
        x = matmul(_util.conj_t(vh), y)
        if rank == n and m > n:
            r = bt - matmul(a.astype(t, copy=False), x)
            resids = red.sum(_abs_sq(r), axis=0).astype(rt, copy=False)
        else:
            resids = _creation.empty((0,), rt)
        if is_1d:
            x = x[:, 0]
        return x, resids, numpy.int32(rank), s


# ---------------------------------------------------------------- rank / cond
def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """Number of singular values above tol (default S.max() * max(M, N) * eps)."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = _util.asarray(A)
    if A.ndim < 2:
        return int(not bool(uf.equal(A, 0).all()))
    with _util.on_device_of(A):
        S = svd(A, compute_uv=False, hermitian=hermitian)
        if tol is None:
            if rtol is None:
                rtol = max(A.shape[-2:]) * _util.eps(S.dtype)
            else:
                rtol = _util.asarray(rtol)[..., None]
            tol = red.max(S, axis=-1, keepdims=True, initial=0) * rtol
        else:
            tol = _util.asarray(tol)[..., None]
        return red.count_nonzero(uf.greater(S, tol), axis=-1)


def cond(x, p=None):
    """Condition number: ratio of extreme singular values for p None/2/-2,
    else norm(x, p) * norm(inv(x), p); singular matrices give inf."""
    x = _util.asarray(x)
    if x.size == 0 and _util.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    with _util.on_device_of(x):
        if p is None or (not isinstance(p, str) and p in (2, -2)):
            s = svd(x, compute_uv=False)
            if p == -2:
                r = s[..., -1] / s[..., 0]
            else:
                r = s[..., 0] / s[..., -1]
        else:
            _util.assert_stacked_square(x)
            t = _util.common_type(x)
            rt = _util.real_dtype(t)
            # Singular matrices give NaN inverses here (turned into inf below), not an error.
            invx, info = _inv_work(x, t, False)
            invx = where(_util.failed_mask(info)[:, None, None], _creation.full((), numpy.nan, t), invx)
            invx = invx.reshape(x.shape)
            r = (norm(x, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1))).astype(rt, copy=False)
        nan_r = uf.isnan(r)
        if r.size and bool(nan_r.any()):
            # NaN from a singular matrix means infinite condition; NaN input stays NaN.
            nan_in = red.any(uf.isnan(x), axis=(-2, -1))
            r = where(uf.logical_and(nan_r, uf.logical_not(nan_in)), _creation.full((), numpy.inf, r.dtype), r)
        return r


# ---------------------------------------------------------------- tensor forms
def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) == b; a's trailing axes (after moving
    `axes` to the end) give x's shape."""
    a = _util.asarray(a)
    b = _util.asarray(b)
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = a.transpose(order)
    oldshape = a.shape[-(an - b.ndim):]
    size = _util.prod(oldshape)
    if a.size != size ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == "
                          "prod(a.shape[:b.ndim])")
    res = solve(a.reshape((size, size)), b.ravel())
    return res.reshape(oldshape)


def tensorinv(a, ind=2):
    """Inverse of a with respect to tensordot over its first `ind` axes."""
    a = _util.asarray(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    oldshape = a.shape
    invshape = oldshape[ind:] + oldshape[:ind]
    size = _util.prod(oldshape[ind:])
    ia = inv(a.reshape((size, -1)))
    return ia.reshape(invshape)


def matrix_power(a, n):
    """a raised to the integer power n (numpy.linalg.matrix_power); negative
    powers invert first."""
    a = _creation.asarray(a)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    if a.ndim < 2:
        raise numpy.linalg.LinAlgError("%d-dimensional array given. Array must be at least two-dimensional"
                                       % a.ndim)
    if a.shape[-1] != a.shape[-2]:
        raise numpy.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    if n == 0:
        res = _zeros_on(a, a.shape, a.dtype)
        d = res.diagonal(0, -2, -1)
        d._writeable = True
        d[...] = 1
        return res
    if n < 0:
        a = inv(a)
        n = -n
    if n == 1:
        return a.copy()
    result = None
    power = a
    while True:
        if n & 1:
            result = power if result is None else _core.linalg.matmul(result, power)
        n >>= 1
        if not n:
            return result
        power = _core.linalg.matmul(power, power)


__all__ = ["solve", "inv", "pinv", "lstsq", "det", "slogdet", "matrix_rank", "cond", "tensorsolve", "tensorinv",
           "matrix_power"]
