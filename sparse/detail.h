// Helpers shared by the front-end files of kumo::sparse (not installed API):
// moving between the public matrix types and the backend's compressed form,
// and bringing arrays to the layout the backend expects.
#pragma once
#include <string>
#include <vector>

#include "sparse/sparse.h"
#include "sparse/sparse_backend.h"

namespace kumo {
namespace sparse {
namespace detail {

// CSR is compressed over rows, CSC over columns.
inline Compressed major_form(const CsrMatrix& a) {
  return Compressed{a.data, a.indices, a.indptr, a.shape.rows, a.shape.cols};
}
inline Compressed major_form(const CscMatrix& a) {
  return Compressed{a.data, a.indices, a.indptr, a.shape.cols, a.shape.rows};
}
inline CsrMatrix as_csr(const Compressed& c) { return CsrMatrix{c.data, c.indices, c.indptr, {c.n_major, c.n_minor}}; }
inline CscMatrix as_csc(const Compressed& c) { return CscMatrix{c.data, c.indices, c.indptr, {c.n_minor, c.n_major}}; }

// `a` itself when C-contiguous, else a C-contiguous copy.
Array contiguous(const Array& a);
// `a` as a contiguous array of `dtype` (shared when it already is one).
Array contiguous_as(const Array& a, Dtype dtype);

// The backend of the device `a` lives on.
inline SparseBackend& backend_of(const Array& a, const char* call) { return sparse_backend(a.device(), call); }

std::string shape_str(Shape2 s);

// A 1-d int64 array of `values` on `device`.
Array int64_array(const std::vector<int64_t>& values, Device& device);

}  // namespace detail
}  // namespace sparse
}  // namespace kumo
