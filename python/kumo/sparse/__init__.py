"""kumo.sparse: scipy.sparse's COO, CSR, CSC, DIA and BSR formats over kumo arrays.

The matrices and their kernels are C++ (kumo::sparse, sparse/sparse.h):
conversions, canonical form, SpMV/SpMM, SpGEMM, indexing, reductions,
elementwise arithmetic and the construction functions (eye, diags, kron,
bmat, random...) run on all host cores; CUDA arrays use cuSPARSE. Arrays
are 2-d, or 1-d for coo_array and csr_array (SciPy 1.14+); the lil and dok
formats are not there. See docs/sparse.md for
where kumo and SciPy differ.
"""
from kumo.sparse._base import sparray, spmatrix
from kumo.sparse._index import SparseEfficiencyWarning, SparseWarning
from kumo.sparse._formats import (coo_array, coo_matrix, csc_array, csc_matrix, csr_array, csr_matrix, issparse,
                                  isspmatrix, isspmatrix_coo, isspmatrix_csc, isspmatrix_csr)
from kumo.sparse._dia import dia_array, dia_matrix, isspmatrix_dia
from kumo.sparse._bsr import bsr_array, bsr_matrix, isspmatrix_bsr
from kumo.sparse._construct import (block_array, block_diag, bmat, diags, diags_array, eye, eye_array, find, hstack,
                                    identity, kron, kronsum, random, random_array, spdiags, tril, triu, vstack)
from kumo.sparse._matrix_io import load_npz, save_npz

__all__ = ["coo_array", "coo_matrix", "csr_array", "csr_matrix", "csc_array", "csc_matrix", "dia_array", "dia_matrix",
           "bsr_array", "bsr_matrix", "sparray", "spmatrix", "issparse", "isspmatrix", "isspmatrix_coo",
           "isspmatrix_csr", "isspmatrix_csc", "isspmatrix_dia", "isspmatrix_bsr",
           "eye", "eye_array", "identity", "diags", "diags_array", "spdiags", "random", "random_array", "kron",
           "kronsum", "hstack", "vstack", "bmat", "block_array", "block_diag", "tril", "triu", "find",
           "save_npz", "load_npz", "SparseWarning", "SparseEfficiencyWarning"]
from kumo.sparse import linalg  # noqa: E402,F401  (kumo.sparse.linalg, as scipy.sparse.linalg)
