"""kumo.sparse: scipy.sparse's COO, CSR and CSC formats over kumo arrays.

The matrices and their kernels are C++ (kumo::sparse, sparse/sparse.h):
conversions, canonical form, SpMV/SpMM and elementwise arithmetic run on
all host cores. Matrices are 2-d; the other formats (dia, bsr, lil, dok),
sparse @ sparse and kumo.sparse.linalg are not there yet. See
docs/sparse.md for where kumo and SciPy differ.
"""
from kumo.sparse._base import sparray, spmatrix
from kumo.sparse._formats import (coo_array, coo_matrix, csc_array, csc_matrix, csr_array, csr_matrix, issparse,
                                  isspmatrix, isspmatrix_coo, isspmatrix_csc, isspmatrix_csr)

__all__ = ["coo_array", "coo_matrix", "csr_array", "csr_matrix", "csc_array", "csc_matrix", "sparray", "spmatrix",
           "issparse", "isspmatrix", "isspmatrix_coo", "isspmatrix_csr", "isspmatrix_csc"]
from kumo.sparse import linalg  # noqa: E402,F401  (kumo.sparse.linalg, as scipy.sparse.linalg)
