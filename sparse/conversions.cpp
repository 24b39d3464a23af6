// Conversions between COO, CSR, CSC and dense arrays, transposes, casts
// and diagonals.
#include <algorithm>
#include <string>

#include "core/errors.h"
#include "routines/elementwise.h"
#include "sparse/detail.h"
#include "sparse/sparse.h"

namespace kumo {
namespace sparse {

using detail::as_csc;
using detail::as_csr;
using detail::backend_of;
using detail::major_form;

namespace {

// COO entries compressed over rows (by_rows) or columns, duplicates summed.
Compressed compress_coo(const CooMatrix& a, bool by_rows, const char* call) {
  const Dtype idx = index_dtype(std::max({a.shape.rows, a.shape.cols, a.nnz()}), a.row.dtype());
  const Array& major = by_rows ? a.row : a.col;
  const Array& minor = by_rows ? a.col : a.row;
  return backend_of(a.data, call).compress(major, minor, a.data, by_rows ? a.shape.rows : a.shape.cols,
                                           by_rows ? a.shape.cols : a.shape.rows, true, idx);
}

// The other compression of a compressed matrix: each entry moves to the
// row of its index (a counting sort, so the result's indices are sorted;
// duplicates are kept).
Compressed recompress(const Compressed& c, const char* call) {
  SparseBackend& be = backend_of(c.data, call);
  const Array major = be.expand_major(c.indptr, c.data.size());
  return be.compress(c.indices, major, c.data, c.n_minor, c.n_major, false, c.indices.dtype());
}

CooMatrix coo_of(const Compressed& c, bool by_rows, bool canonical, const char* call) {
  const Array major = backend_of(c.data, call).expand_major(c.indptr, c.data.size());
  if (by_rows) return CooMatrix{c.data, major, c.indices, {c.n_major, c.n_minor}, canonical};
  return CooMatrix{c.data, c.indices, major, {c.n_minor, c.n_major}, false};
}

}  // namespace

CsrMatrix tocsr(const CooMatrix& a) { return as_csr(compress_coo(a, true, "kumo::sparse::tocsr(coo)")); }
CscMatrix tocsc(const CooMatrix& a) { return as_csc(compress_coo(a, false, "kumo::sparse::tocsc(coo)")); }
// The CSC of A is the CSR of A^T; recompressing it gives the CSR of A.
CsrMatrix tocsr(const CscMatrix& a) { return as_csr(recompress(major_form(a), "kumo::sparse::tocsr(csc)")); }
CscMatrix tocsc(const CsrMatrix& a) { return as_csc(recompress(major_form(a), "kumo::sparse::tocsc(csr)")); }

CooMatrix tocoo(const CsrMatrix& a) {
  const bool canonical = has_canonical_format(a);
  return coo_of(major_form(a), true, canonical, "kumo::sparse::tocoo(csr)");
}
CooMatrix tocoo(const CscMatrix& a) { return coo_of(major_form(a), false, false, "kumo::sparse::tocoo(csc)"); }

Array toarray(const CooMatrix& a) { return toarray(tocsr(a)); }
Array toarray(const CsrMatrix& a) { return backend_of(a.data, "kumo::sparse::toarray").todense(major_form(a), false); }
Array toarray(const CscMatrix& a) { return backend_of(a.data, "kumo::sparse::toarray").todense(major_form(a), true); }

CooMatrix transpose(const CooMatrix& a) { return CooMatrix{a.data, a.col, a.row, {a.shape.cols, a.shape.rows}, false}; }
CscMatrix transpose(const CsrMatrix& a) { return CscMatrix{a.data, a.indices, a.indptr, {a.shape.cols, a.shape.rows}}; }
CsrMatrix transpose(const CscMatrix& a) { return CsrMatrix{a.data, a.indices, a.indptr, {a.shape.cols, a.shape.rows}}; }

namespace {
Array cast_data(const Array& data, Dtype dtype) {
  check_value_dtype(dtype, "kumo::sparse::astype");
  return data.dtype() == dtype ? data : data.astype(dtype);
}
Array conj_data(const Array& data) { return is_complex(data.dtype()) ? conjugate(data) : data; }
}  // namespace

CooMatrix astype(const CooMatrix& a, Dtype dtype) {
  return CooMatrix{cast_data(a.data, dtype), a.row, a.col, a.shape, a.canonical};
}
CsrMatrix astype(const CsrMatrix& a, Dtype dtype) { return CsrMatrix{cast_data(a.data, dtype), a.indices, a.indptr, a.shape}; }
CscMatrix astype(const CscMatrix& a, Dtype dtype) { return CscMatrix{cast_data(a.data, dtype), a.indices, a.indptr, a.shape}; }
CooMatrix conj(const CooMatrix& a) { return CooMatrix{conj_data(a.data), a.row, a.col, a.shape, a.canonical}; }
CsrMatrix conj(const CsrMatrix& a) { return CsrMatrix{conj_data(a.data), a.indices, a.indptr, a.shape}; }
CscMatrix conj(const CscMatrix& a) { return CscMatrix{conj_data(a.data), a.indices, a.indptr, a.shape}; }

Array diagonal(const CooMatrix& a, int64_t k) { return diagonal(tocsr(a), k); }
Array diagonal(const CsrMatrix& a, int64_t k) {
  return backend_of(a.data, "kumo::sparse::diagonal").diagonal(major_form(a), k);
}
// Diagonal k of A is diagonal -k of A^T, whose CSR the CSC of A is.
Array diagonal(const CscMatrix& a, int64_t k) {
  return backend_of(a.data, "kumo::sparse::diagonal").diagonal(major_form(a), -k);
}

}  // namespace sparse
}  // namespace kumo
