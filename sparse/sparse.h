// kumo::sparse: sparse matrices in COO, CSR and CSC form over kumo Arrays
// (scipy.sparse's formats), with their conversions and arithmetic.
//
// The matrices are value types: a few Arrays and a shape. Every function is
// free, takes matrices by const reference and returns new ones; no function
// modifies its arguments' arrays, so matrices may share arrays freely
// (transpose() of a CSR matrix is a CSC matrix over the same three arrays).
//
// Conventions:
// - Matrices are two-dimensional. data is 1-d of any dtype scipy.sparse
//   allows (bool, the integers, float32/64, complex64/128); float16 is a
//   ValueError, as in SciPy's constructors.
// - Index arrays are int32 or int64. As in SciPy 1.17, int64 input stays
//   int64 (and so do the matrices made from it), narrower input becomes
//   int32, and int64 is used whenever a dimension or (for compressed forms)
//   nnz needs it.
// - Constructors validate completely: indices out of range, a decreasing
//   indptr or mismatched lengths are a ValueError naming the call. SciPy
//   checks index bounds only on demand; kumo's kernels trust the indices, so
//   they are checked once here.
// - The work is done by the SparseBackend of the arrays' device
//   (sparse/sparse_backend.h); all arrays of one matrix live on one device.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>

#include "core/array.h"
#include "routines/scalar.h"

namespace kumo {
namespace sparse {

// Rows and columns.
struct Shape2 {
  int64_t rows = 0;
  int64_t cols = 0;
  bool operator==(const Shape2& o) const { return rows == o.rows && cols == o.cols; }
  bool operator!=(const Shape2& o) const { return !(*this == o); }
};

// Coordinate form: entry k is data[k] at (row[k], col[k]). Duplicates are
// allowed and mean their sum. `canonical` records what is known, as SciPy's
// flag does: true only when the entries are sorted by (row, col) without
// duplicates (set by the functions that produce such order), never guessed.
struct CooMatrix {
  Array data, row, col;
  Shape2 shape;
  bool canonical = false;
  int64_t nnz() const { return data.size(); }
  Dtype dtype() const { return data.dtype(); }
};

// Compressed sparse rows: the entries of row i are data[indptr[i]:indptr[i+1]]
// in the columns indices[indptr[i]:indptr[i+1]] (in any order, duplicates
// allowed, unless the matrix is canonical). data and indices hold exactly
// nnz = indptr[-1] entries (make_csr drops any beyond it, as SciPy prunes).
struct CsrMatrix {
  Array data, indices, indptr;
  Shape2 shape;
  int64_t nnz() const;  // indptr[-1]
  Dtype dtype() const { return data.dtype(); }
};

// Compressed sparse columns: CSR of the transpose (indptr runs over columns,
// indices are rows).
struct CscMatrix {
  Array data, indices, indptr;
  Shape2 shape;
  int64_t nnz() const;
  Dtype dtype() const { return data.dtype(); }
};

// ---- construction (validating) ----

// The index dtype for a matrix whose largest index-like value is max_value,
// at least `at_least` (int32 or int64).
Dtype index_dtype(int64_t max_value, Dtype at_least = Dtype::kInt32);
// Checks that dtype is one scipy.sparse supports (ValueError otherwise).
void check_value_dtype(Dtype dtype, const char* call);

// (data, (row, col)); without a shape it is (max row + 1, max col + 1).
CooMatrix make_coo(const Array& data, const Array& row, const Array& col, std::optional<Shape2> shape = std::nullopt);
// (data, indices, indptr); without a shape it is (len(indptr) - 1, max index + 1).
CsrMatrix make_csr(const Array& data, const Array& indices, const Array& indptr,
                   std::optional<Shape2> shape = std::nullopt);
CscMatrix make_csc(const Array& data, const Array& indices, const Array& indptr,
                   std::optional<Shape2> shape = std::nullopt);
// The nonzeros of a 2-d dense array in C order (canonical).
CooMatrix coo_from_dense(const Array& dense);
// An all-zero matrix with no stored entries.
CooMatrix coo_empty(Shape2 shape, Dtype dtype, Device& device);

// ---- canonical form ----

// Indices sorted within each row (column for CSC).
bool has_sorted_indices(const CsrMatrix& a);
bool has_sorted_indices(const CscMatrix& a);
// Sorted and free of duplicates.
bool has_canonical_format(const CsrMatrix& a);
bool has_canonical_format(const CscMatrix& a);
// The same matrix with sorted indices (duplicates kept, in their order).
CsrMatrix sort_indices(const CsrMatrix& a);
CscMatrix sort_indices(const CscMatrix& a);
// The same matrix in canonical form: sorted, duplicates summed.
CsrMatrix sum_duplicates(const CsrMatrix& a);
CscMatrix sum_duplicates(const CscMatrix& a);
CooMatrix sum_duplicates(const CooMatrix& a);
// The same matrix without stored zeros.
CsrMatrix eliminate_zeros(const CsrMatrix& a);
CscMatrix eliminate_zeros(const CscMatrix& a);
CooMatrix eliminate_zeros(const CooMatrix& a);

// ---- conversions ----

// Canonical results (duplicates summed), as SciPy's tocsr/tocsc.
CsrMatrix tocsr(const CooMatrix& a);
CscMatrix tocsc(const CooMatrix& a);
// Duplicates and explicit zeros are kept; the result's indices are sorted.
CsrMatrix tocsr(const CscMatrix& a);
CscMatrix tocsc(const CsrMatrix& a);
// One entry per stored entry, in storage order.
CooMatrix tocoo(const CsrMatrix& a);
CooMatrix tocoo(const CscMatrix& a);
// Dense C-contiguous 2-d arrays (duplicates summed).
Array toarray(const CooMatrix& a);
Array toarray(const CsrMatrix& a);
Array toarray(const CscMatrix& a);

// Transposes share the arrays of their argument.
CooMatrix transpose(const CooMatrix& a);
CscMatrix transpose(const CsrMatrix& a);
CsrMatrix transpose(const CscMatrix& a);

// data cast (unsafe, as numpy's astype) or conjugated; index arrays shared.
CooMatrix astype(const CooMatrix& a, Dtype dtype);
CsrMatrix astype(const CsrMatrix& a, Dtype dtype);
CscMatrix astype(const CscMatrix& a, Dtype dtype);
CooMatrix conj(const CooMatrix& a);
CsrMatrix conj(const CsrMatrix& a);
CscMatrix conj(const CscMatrix& a);

// The k-th diagonal (k > 0 above the main one), duplicates summed; empty
// when k is outside the matrix, as SciPy.
Array diagonal(const CooMatrix& a, int64_t k = 0);
Array diagonal(const CsrMatrix& a, int64_t k = 0);
Array diagonal(const CscMatrix& a, int64_t k = 0);

// ---- arithmetic ----

// a @ x for a dense vector (n,) or matrix (n, p): SpMV / SpMM. The result's
// dtype is numpy.result_type of the two.
Array matmul(const CsrMatrix& a, const Array& x);
Array matmul(const CscMatrix& a, const Array& x);
Array matmul(const CooMatrix& a, const Array& x);
// x @ a for a dense vector (m,) or matrix (p, m).
Array rmatmul(const Array& x, const CsrMatrix& a);
Array rmatmul(const Array& x, const CscMatrix& a);

// a * s with NumPy's (NEP 50) result dtype; stored entries keep their places.
CsrMatrix multiply(const CsrMatrix& a, Scalar s);
CscMatrix multiply(const CscMatrix& a, Scalar s);
CooMatrix multiply(const CooMatrix& a, Scalar s);
// -a.
CsrMatrix negative(const CsrMatrix& a);

// Elementwise a + b, a - b, a * b of two matrices of one shape: canonical
// results without explicit zeros, in the promoted dtype (SciPy's csr_binop).
CsrMatrix add(const CsrMatrix& a, const CsrMatrix& b);
CsrMatrix subtract(const CsrMatrix& a, const CsrMatrix& b);
CsrMatrix multiply(const CsrMatrix& a, const CsrMatrix& b);
// Elementwise numpy.maximum / numpy.minimum of two matrices of one shape
// (implicit zeros take part), canonical without zeros, as SciPy's.
CsrMatrix maximum(const CsrMatrix& a, const CsrMatrix& b);
CsrMatrix minimum(const CsrMatrix& a, const CsrMatrix& b);
// Elementwise a != b, a < b, a > b of two matrices of one shape: canonical
// bool matrices holding the places where the comparison is true (it is
// false where both are zero), as SciPy's.
CsrMatrix not_equal(const CsrMatrix& a, const CsrMatrix& b);
CsrMatrix less(const CsrMatrix& a, const CsrMatrix& b);
CsrMatrix greater(const CsrMatrix& a, const CsrMatrix& b);

// ---- sparse @ sparse (SpGEMM) ----
// a @ b in the left operand's compressed format (COO gives CSR), as SciPy:
// canonical, sums that cancel to zero dropped, dtype promote_types of the
// two. The operands are canonicalised first when needed. ValueError when
// a's columns are not b's rows.
CsrMatrix matmul(const CsrMatrix& a, const CsrMatrix& b);
CscMatrix matmul(const CscMatrix& a, const CscMatrix& b);
CsrMatrix matmul(const CooMatrix& a, const CooMatrix& b);

}  // namespace sparse
}  // namespace kumo

// The DIA and BSR formats, then the construction functions (sparse/construct.h).
#include "sparse/dia_bsr.h"  // NOLINT: after the types above, which it uses
