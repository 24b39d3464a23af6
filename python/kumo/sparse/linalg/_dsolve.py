"""spsolve, splu, factorized and spsolve_triangular (scipy.sparse.linalg's)
over kumo::sparse::linalg: SuperLU 5 for the LU factorization, kumo's own
substitution for triangular solves."""
import warnings

import numpy

from kumo import _core
from kumo.sparse._base import sparray
from kumo.sparse._formats import csc_array, csc_matrix, csr_array, issparse
from kumo.sparse._index import SparseEfficiencyWarning
from kumo.sparse.linalg._interface import _asarray

_ops = _core.sparse_linalg


class MatrixRankWarning(UserWarning):
    """The matrix is exactly singular (spsolve returns NaN), as SciPy's."""


def _as_compressed(A, formats, call):
    """A as a kumo csr/csc object of one of `formats` (converted, with SciPy's warning, otherwise)."""
    if issparse(A) and A.format in formats:
        return A
    warnings.warn(f"{call} requires A be CSC or CSR matrix format", SparseEfficiencyWarning, stacklevel=3)
    if issparse(A):
        return A.tocsc()
    if type(A).__module__.startswith("scipy.sparse"):
        return csc_array(A.tocsc())
    return csc_array(_asarray(A))


class SuperLU:
    """An LU factorization Pr A Pc = L U of a sparse matrix (scipy.sparse.linalg.SuperLU):
    shape, nnz, perm_r, perm_c, L and U (CSC), and solve(rhs, trans='N')."""

    def __init__(self, factor, is_array):
        self._f = factor
        self._is_array = is_array

    @property
    def shape(self):
        return tuple(self._f.shape)

    @property
    def nnz(self):
        return self._f.nnz

    @property
    def perm_r(self):
        return self._f.perm_r

    @property
    def perm_c(self):
        return self._f.perm_c

    def _csc(self, m):
        return (csc_array if self._is_array else csc_matrix)._wrap(m)

    @property
    def L(self):
        return self._csc(self._f.L)

    @property
    def U(self):
        return self._csc(self._f.U)

    def solve(self, rhs, trans="N"):
        """x with A x = rhs ('N'), A^T x = rhs ('T') or A^H x = rhs ('H'); rhs (n,) or (n, k)."""
        if trans not in ("N", "T", "H"):
            raise ValueError("trans must be N, T, or H")
        return self._f.solve(_asarray(rhs), trans)

    def __repr__(self):
        return f"<SuperLU object of shape {self.shape} with {self.nnz} stored entries>"


_OPTION_KEYS = {"DiagPivotThresh", "ColPerm", "PanelSize", "Relax", "SymmetricMode", "Equil", "IterRefine",
                "PivotGrowth", "ConditionNumber", "Trans", "Fact", "PrintStat"}


def splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None, options=None):
    """LU factorization of a square sparse matrix by SuperLU (scipy.sparse.linalg.splu).

    permc_spec: 'COLAMD' (default), 'NATURAL', 'MMD_ATA', 'MMD_AT_PLUS_A'.
    Returns a SuperLU object; an exactly singular matrix is a
    RuntimeError('Factor is exactly singular'). Input that is not CSC is
    converted, with SciPy's SparseEfficiencyWarning."""
    is_array = not issparse(A) or isinstance(A, sparray)
    if not (issparse(A) and A.format == "csc"):
        warnings.warn("splu converted its input to CSC format", SparseEfficiencyWarning, stacklevel=2)
        A = A.tocsc() if issparse(A) else csc_array(A.tocsc() if hasattr(A, "tocsc") else _asarray(A))
    if A.shape[0] != A.shape[1]:
        raise ValueError("can only factor square matrices")
    opts = {"DiagPivotThresh": diag_pivot_thresh, "ColPerm": permc_spec, "PanelSize": panel_size, "Relax": relax}
    if options is not None:
        unknown = set(options) - _OPTION_KEYS
        if unknown:
            raise TypeError(f"unknown SuperLU option(s): {sorted(unknown)}")
        opts.update(options)
    colperm = opts["ColPerm"] or "COLAMD"
    thresh = 1.0 if opts["DiagPivotThresh"] is None else float(opts["DiagPivotThresh"])
    symmetric = bool(opts.get("SymmetricMode", False)) or colperm == "NATURAL"
    f = _ops.splu(A._m, str(colperm), thresh, int(opts["Relax"] or 0), int(opts["PanelSize"] or 0), symmetric)
    return SuperLU(f, is_array)


def factorized(A):
    """A function solving A x = b with a SuperLU factorization of A (scipy.sparse.linalg.factorized)."""
    return splu(A).solve


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """x with A x = b for square sparse A (scipy.sparse.linalg.spsolve), by SuperLU.

    Dense b ((n,) or (n, k)) gives a dense x of b's shape (n,) for a vector
    b); sparse b gives a sparse x of A's class. An exactly singular A gives
    x of NaN with a MatrixRankWarning. use_umfpack is accepted and ignored
    (kumo has no UMFPACK)."""
    A = _as_compressed(A, ("csr", "csc"), "spsolve")
    b_sparse = issparse(b) or type(b).__module__.startswith("scipy.sparse")
    if b_sparse:
        if b.format != "csc" and b.ndim == 2 and b.shape[1] != 1:
            # SciPy solves for a sparse b of several columns in CSC and says so (an (n, 1) b is a vector).
            warnings.warn("spsolve is more efficient when sparse b is in the CSC matrix format",
                          SparseEfficiencyWarning, stacklevel=2)
        b_dense = (b.toarray() if issparse(b) else _asarray(b.toarray()))
    else:
        b_dense = _asarray(b)
    M, N = A.shape
    if M != N:
        raise ValueError(f"matrix must be square (has shape {(M, N)})")
    if b_dense.ndim == 0 or M != b_dense.shape[0]:
        raise ValueError(f"matrix - rhs dimension mismatch ({A.shape} - {b_dense.shape[0] if b_dense.ndim else 1})")
    b_vector = b_dense.ndim == 1 or (b_dense.ndim == 2 and b_dense.shape[1] == 1)
    x, singular = _ops.spsolve(A._m, b_dense, str(permc_spec or "COLAMD"))
    if singular:
        warnings.warn("Matrix is exactly singular", MatrixRankWarning, stacklevel=2)
    if b_vector:
        return x.reshape(-1)
    if b_sparse:
        return type(A)(x).asformat(A.format)
    return x


def spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False, unit_diagonal=False):
    """x with A x = b for a triangular sparse A (scipy.sparse.linalg.spsolve_triangular).

    lower picks the triangle read (entries of the other are ignored);
    unit_diagonal takes the diagonal as ones. A zero diagonal entry is a
    LinAlgError. b is (n,) or (n, k); x has b's shape. overwrite_A and
    overwrite_b are accepted; kumo never modifies its inputs."""
    if not (issparse(A) and A.format in ("csr", "csc")):
        warnings.warn("CSC or CSR matrix format is required. Converting to CSC matrix.", SparseEfficiencyWarning,
                      stacklevel=2)
        A = csr_array(A.tocsr() if hasattr(A, "tocsr") else _asarray(A))
    m = A._m if A.format == "csr" else A.tocsr()._m
    b = _asarray(b)
    if b.ndim not in (1, 2):
        raise ValueError(f"b must have 1 or 2 dims but its shape is {b.shape}.")
    return _ops.spsolve_triangular(m, b, bool(lower), bool(unit_diagonal))
