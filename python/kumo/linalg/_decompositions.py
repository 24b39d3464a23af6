"""numpy.linalg's factorizations on kumo arrays: cholesky, qr, svd, svdvals,
eigh, eigvalsh, eig, eigvals.

Each one makes one column-major work copy of its input (flattening leading
axes into one batch axis), runs the backend routine over the whole batch,
checks every matrix's info, and returns views of the work arrays reshaped to
the input's batch shape.
"""
import collections

import numpy

from kumo import _creation
from kumo import _ufuncs as uf
from kumo import _core
from kumo.linalg import _util
from kumo.linalg._util import LinAlgError  # noqa: F401  (re-exported for callers)
from kumo._kernel import ElementwiseKernel

try:  # NumPy 2's result classes, so isinstance checks against them hold
    from numpy.linalg._linalg import EigResult, EighResult, QRResult, SVDResult
except ImportError:  # pragma: no cover - older NumPy layouts
    EigResult = collections.namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
    EighResult = collections.namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
    QRResult = collections.namedtuple("QRResult", ["Q", "R"])
    SVDResult = collections.namedtuple("SVDResult", ["U", "S", "Vh"])


def _empty(shape, dtype):
    return _creation.empty(shape, dtype)


def _eye_stack(batch_shape, n, dtype):
    out = _creation.zeros(batch_shape + (n, n), dtype)
    if out.size:
        d = out._diagonal(0, out.ndim - 2, out.ndim - 1)
        d._writeable = True
        d[...] = 1
    return out


# ---------------------------------------------------------------- cholesky
def cholesky(a, /, *, upper=False):
    """Cholesky factor L (a = L L^H), or U = L^H with ``upper=True``."""
    return _core.linalg.cholesky(_util.asarray(a), upper)


# ---------------------------------------------------------------- qr
def qr(a, mode="reduced"):
    """QR decomposition: mode 'reduced' (Q m x k, R k x n), 'complete'
    (Q m x m, R m x n), 'r' (R only) or 'raw' (LAPACK's h, tau)."""
    if mode not in ("reduced", "complete", "r", "raw"):
        import warnings
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\n"
                          "For backward compatibility let mode default.", DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning, stacklevel=2)
            mode = "economic"
        else:
            raise ValueError("Unrecognized mode '%s'" % (mode,))
    a = _util.asarray(a)
    if mode == "economic":
        # LAPACK's h as it lies: the raw mode's transposed array
        h, _ = _core.linalg.qr(a, "raw")
        return h.swapaxes(-1, -2)
    res = _core.linalg.qr(a, mode)
    return QRResult(*res) if mode in ("reduced", "complete") else res


# ---------------------------------------------------------------- svd
def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition a = U @ diag(S) @ Vh (SVDResult), or the
    singular values only (descending) with ``compute_uv=False``."""
    a = _util.asarray(a)
    with _util.on_device_of(a):
        if hermitian:
            return _svd_hermitian(a, compute_uv)
        res = _core.linalg.svd(a, full_matrices, compute_uv)
        return SVDResult(*res) if compute_uv else res


def svdvals(x, /):
    """The singular values of a stack of matrices, descending."""
    return svd(x, compute_uv=False, hermitian=False)


# Hermitian SVD from eigh: singular values are |eigenvalues|, ordered by
# magnitude. eigh's values ascend, so the descending-|w| order is a merge of
# two sorted runs; the rank of each value in it is computed per element (a
# stable count, ties keep eigh's order) and values/vectors are scattered to
# their ranks in one kernel each.
_RANK = None
_SCATTER_VALUES = None
_SCATTER_VECTORS = None


def _kernels():
    global _RANK, _SCATTER_VALUES, _SCATTER_VECTORS
    if _RANK is None:
        _RANK = ElementwiseKernel(
            "raw R w, int64 n", "int64 rank",
            """
            const long long row = i / n, col = i % n;
            const R wc = w[row * n + col];
            const R x = wc < 0 ? -wc : wc;
            long long r = 0;
            for (long long j = 0; j < n; ++j) {
              const R wj = w[row * n + j];
              const R y = wj < 0 ? -wj : wj;
              r += (y > x) || (y == x && j < col);
            }
            rank = r;
            """, "kumo_linalg_abs_rank")
        _SCATTER_VALUES = ElementwiseKernel(
            "R w, int64 rank, int64 n", "raw R s",
            "s[(i / n) * n + rank] = w < 0 ? -w : w", "kumo_linalg_abs_scatter")
        _SCATTER_VECTORS = ElementwiseKernel(
            "T u, raw int64 rank, raw R w, int64 n", "raw T u_out, raw T vh_out",
            """
            const long long b = i / (n * n), rc = i % (n * n), r = rc / n, c = rc % n;
            const long long dst = rank[b * n + c];
            u_out[b * n * n + r * n + dst] = u;
            const T conj_u = kumo_linalg_conj(u);
            vh_out[b * n * n + dst * n + r] = w[b * n + c] < 0 ? -conj_u : conj_u;
            """, "kumo_linalg_hermitian_uv",
            preamble="""
            template <class V> KUMO_FN V kumo_linalg_conj(const V& v) { return conj(v); }
            KUMO_FN float kumo_linalg_conj(const float& v) { return v; }
            KUMO_FN double kumo_linalg_conj(const double& v) { return v; }
            """)
    return _RANK, _SCATTER_VALUES, _SCATTER_VECTORS


def _svd_hermitian(a, compute_uv):
    _util.assert_stacked_square(a)
    n = a.shape[-1]
    batch_shape = a.shape[:-2]
    if compute_uv:
        w, u = eigh(a)
    else:
        w = eigvalsh(a)
    if w.size == 0:
        if compute_uv:
            return SVDResult(u, uf.absolute(w), _util.conj_t(u))
        return uf.absolute(w)
    rank_k, values_k, vectors_k = _kernels()
    batch = _util.prod(batch_shape)
    w2 = _creation.ascontiguousarray(w.reshape((batch, n)))
    rank = _creation.empty((batch, n), numpy.int64)
    rank_k(w2, n, rank)
    s = _creation.empty((batch, n), w.dtype)
    values_k(w2, rank, n, s)
    s = s.reshape(batch_shape + (n,))
    if not compute_uv:
        return s
    uc = _creation.ascontiguousarray(u.reshape((batch, n, n)))
    u_out = _creation.empty((batch, n, n), u.dtype)
    vh_out = _creation.empty((batch, n, n), u.dtype)
    vectors_k(uc, rank, w2, n, u_out, vh_out)
    return SVDResult(u_out.reshape(batch_shape + (n, n)), s, vh_out.reshape(batch_shape + (n, n)))


# ---------------------------------------------------------------- eigh
def _check_uplo(UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")


def _eigh(a, UPLO, vectors):
    _check_uplo(UPLO)
    return _core.linalg.eigh(_util.asarray(a), UPLO, vectors)


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and orthonormal eigenvectors of Hermitian matrices."""
    w, v = _eigh(a, UPLO, True)
    return EighResult(w, v)


def eigvalsh(a, UPLO="L"):
    """Eigenvalues (ascending) of Hermitian matrices."""
    return _eigh(a, UPLO, False)


# ---------------------------------------------------------------- eig
def _all_real(w):
    return bool(uf.equal(w.imag, 0).all()) if w.size else True


def _eig(a, vectors):
    a = _util.asarray(a)
    _util.assert_stacked_square(a)
    t = _util.common_type(a)
    ct = _util.complex_dtype(t)
    n = a.shape[-1]
    batch_shape = a.shape[:-2]
    with _util.on_device_of(a):
        if a.size == 0:
            # NumPy reports real results for real input when no eigenvalue is complex.
            rt = t if t.kind == "f" else ct
            w = _empty(batch_shape + (n,), rt)
            return (w, _empty(a.shape, rt)) if vectors else w
        _util.reject_nonfinite(a)
        work = _util.to_work(a, t)
        w, vr, info = _util.backend().geev(work, vectors)
        _util.check_info(info, "Eigenvalues did not converge")
        w = w.reshape(batch_shape + (n,))
        v = vr.reshape(a.shape) if vectors else None
        if t.kind == "f" and _all_real(w):
            # Real input with only real eigenvalues: real results, as NumPy.
            w = _creation.ascontiguousarray(w.real)
            if vectors:
                v = v.real.copy()
        return (w, v) if vectors else w


def eig(a):
    """Eigenvalues and right eigenvectors (unit-norm columns) of square matrices."""
    w, v = _eig(a, True)
    return EigResult(w, v)


def eigvals(a):
    """Eigenvalues of square matrices (in no particular order)."""
    return _eig(a, False)


__all__ = ["cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals"]
