"""kumo.sparse: scipy.sparse's COO, CSR and CSC formats over kumo arrays.

The matrices and their kernels are C++ (kumo::sparse, sparse/sparse.h):
conversions, canonical form, SpMV/SpMM, SpGEMM, indexing, reductions and
elementwise arithmetic run on all host cores. Matrices are 2-d. See
docs/sparse.md for where kumo and SciPy differ.
"""
from kumo.sparse._base import sparray, spmatrix
from kumo.sparse._index import SparseEfficiencyWarning, SparseWarning
from kumo.sparse._formats import (coo_array, coo_matrix, csc_array, csc_matrix, csr_array, csr_matrix, issparse,
                                  isspmatrix, isspmatrix_coo, isspmatrix_csc, isspmatrix_csr)

__all__ = ["coo_array", "coo_matrix", "csr_array", "csr_matrix", "csc_array", "csc_matrix", "sparray", "spmatrix",
           "issparse", "isspmatrix", "isspmatrix_coo", "isspmatrix_csr", "isspmatrix_csc", "SparseWarning",
           "SparseEfficiencyWarning"]
