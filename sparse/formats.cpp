// Construction and validation of the sparse formats, and their canonical
// form (sorted indices, summed duplicates, no explicit zeros).
#include <algorithm>
#include <limits>
#include <string>

#include "core/errors.h"
#include "routines/elementwise.h"
#include "routines/indexing.h"
#include "sparse/detail.h"
#include "sparse/sparse.h"

namespace kumo {
namespace sparse {

namespace detail {

Array contiguous(const Array& a) { return a.c_contiguous() ? a : a.copy(Order::kC); }

Array contiguous_as(const Array& a, Dtype dtype) {
  if (a.dtype() == dtype) return contiguous(a);
  return a.astype(dtype, Order::kC);
}

std::string shape_str(Shape2 s) { return "(" + std::to_string(s.rows) + ", " + std::to_string(s.cols) + ")"; }

}  // namespace detail

using detail::backend_of;
using detail::contiguous;
using detail::contiguous_as;
using detail::major_form;

namespace {

// An integer array as int32/int64 (the backend's index types), keeping its
// values: narrower integers widen to int64, nothing narrows.
Array as_checkable_index(const Array& a, const std::string& call, const char* what) {
  if (!is_integer(a.dtype()))
    throw TypeError(call + ": " + what + " must be an integer array, not " + dtype_name(a.dtype()));
  if (a.ndim() != 1) throw ValueError(call + ": " + what + " must be 1-d, got " + std::to_string(a.ndim()) + "-d");
  if (a.dtype() == Dtype::kInt32 || a.dtype() == Dtype::kInt64) return contiguous(a);
  if (a.dtype() == Dtype::kUInt64 || a.dtype() == Dtype::kUInt32 || a.dtype() == Dtype::kUInt16 ||
      a.dtype() == Dtype::kInt16 || a.dtype() == Dtype::kInt8 || a.dtype() == Dtype::kUInt8)
    return a.astype(Dtype::kInt64, Order::kC);
  return contiguous(a);
}

// int64 when either index array given has a dtype int32 cannot hold.
Dtype given_index_dtype(const Array& a, const Array& b) {
  const auto wide = [](Dtype d) { return d == Dtype::kInt64 || d == Dtype::kUInt64 || d == Dtype::kUInt32; };
  return wide(a.dtype()) || wide(b.dtype()) ? Dtype::kInt64 : Dtype::kInt32;
}

void check_data(const Array& data, const std::string& call) {
  check_value_dtype(data.dtype(), call.c_str());
  if (data.ndim() != 1) throw ValueError(call + ": data must be 1-d, got " + std::to_string(data.ndim()) + "-d");
}

void check_shape(Shape2 s, const std::string& call) {
  if (s.rows < 0 || s.cols < 0) throw ValueError(call + ": shape " + detail::shape_str(s) + " has a negative extent");
}

// Element i of an int32/int64 array, from any device.
int64_t read_index(const Array& a, int64_t i) {
  const Array e = a.index({IndexItem(i)});
  return a.dtype() == Dtype::kInt32 ? e.item<int32_t>() : e.item<int64_t>();
}

template <class M>
M make_compressed(const Array& data_in, const Array& indices_in, const Array& indptr_in, std::optional<Shape2> shape,
                  bool by_rows, const char* name) {
  const std::string call = std::string("kumo::sparse::") + name + "(data, indices, indptr" +
                           (shape ? ", shape=" + detail::shape_str(*shape) : std::string()) + ")";
  check_same_device({&data_in, &indices_in, &indptr_in});
  check_data(data_in, call);
  Array indices = as_checkable_index(indices_in, call, "indices");
  Array indptr = as_checkable_index(indptr_in, call, "indptr");
  SparseBackend& be = backend_of(data_in, call.c_str());
  const char* minor_name = by_rows ? "column" : "row";
  if (indptr.size() == 0) throw ValueError(call + ": index pointer should have at least one element");
  int64_t n_major = indptr.size() - 1, n_minor = 0;
  const std::pair<int64_t, int64_t> range = be.min_max(indices);
  if (shape) {
    check_shape(*shape, call);
    n_major = by_rows ? shape->rows : shape->cols;
    n_minor = by_rows ? shape->cols : shape->rows;
  } else {
    n_minor = std::max<int64_t>(range.second + 1, 0);
  }
  if (indptr.size() != n_major + 1)
    throw ValueError(call + ": index pointer size " + std::to_string(indptr.size()) + " should be " +
                     std::to_string(n_major + 1));
  if (indices.size() != data_in.size())
    throw ValueError(call + ": indices and data should have the same size (" + std::to_string(indices.size()) +
                     " and " + std::to_string(data_in.size()) + ")");
  if (read_index(indptr, 0) != 0) throw ValueError(call + ": index pointer should start with 0");
  const int64_t nnz = read_index(indptr, n_major);
  if (nnz > indices.size())
    throw ValueError(call + ": last value of index pointer (" + std::to_string(nnz) +
                     ") should be at most the size of the index and data arrays (" + std::to_string(indices.size()) +
                     ")");
  const int64_t bad = be.first_decrease(indptr);
  if (bad >= 0)
    throw ValueError(call + ": index pointer values must form a non-decreasing sequence (indptr[" +
                     std::to_string(bad + 1) + "] < indptr[" + std::to_string(bad) + "])");
  Array data = contiguous(data_in);
  if (nnz < indices.size()) {
    // Entries past indptr[-1] are not part of the matrix (SciPy prunes them).
    indices = indices.index({slice(0, nnz)});
    data = data.index({slice(0, nnz)});
  }
  const std::pair<int64_t, int64_t> used = nnz == indices_in.size() ? range : be.min_max(indices);
  if (nnz > 0 && used.first < 0)
    throw ValueError(call + ": negative " + minor_name + " index found (" + std::to_string(used.first) + ")");
  if (nnz > 0 && used.second >= n_minor)
    throw ValueError(call + ": " + minor_name + " index " + std::to_string(used.second) +
                     " exceeds matrix dimensions " +
                     detail::shape_str(by_rows ? Shape2{n_major, n_minor} : Shape2{n_minor, n_major}));
  const Dtype idx = index_dtype(std::max({n_major, n_minor, nnz}), given_index_dtype(indices_in, indptr_in));
  Compressed c{data, contiguous_as(indices, idx), contiguous_as(indptr, idx), n_major, n_minor};
  if (by_rows) return M{c.data, c.indices, c.indptr, {n_major, n_minor}};
  return M{c.data, c.indices, c.indptr, {n_minor, n_major}};
}

}  // namespace

Dtype index_dtype(int64_t max_value, Dtype at_least) {
  if (at_least == Dtype::kInt64) return Dtype::kInt64;
  return max_value <= std::numeric_limits<int32_t>::max() ? Dtype::kInt32 : Dtype::kInt64;
}

void check_value_dtype(Dtype dtype, const char* call) {
  // SciPy's list: bool, the integers, float32/64, complex64/128 (and the
  // long double types kumo does not have). Its constructors raise
  // ValueError for the rest (float16).
  if (dtype == Dtype::kFloat16)
    throw ValueError(std::string(call) + ": sparse matrices do not support dtype float16");
}

int64_t CsrMatrix::nnz() const { return data.size(); }
int64_t CscMatrix::nnz() const { return data.size(); }

CooMatrix make_coo(const Array& data_in, const Array& row_in, const Array& col_in, std::optional<Shape2> shape) {
  const std::string call = std::string("kumo::sparse::make_coo(data, (row, col)") +
                           (shape ? ", shape=" + detail::shape_str(*shape) : std::string()) + ")";
  check_same_device({&data_in, &row_in, &col_in});
  check_data(data_in, call);
  const Array row = as_checkable_index(row_in, call, "row");
  const Array col = as_checkable_index(col_in, call, "col");
  if (row.size() != data_in.size() || col.size() != data_in.size())
    throw ValueError(call + ": row, column, and data array must all be the same length (" +
                     std::to_string(row.size()) + ", " + std::to_string(col.size()) + ", " +
                     std::to_string(data_in.size()) + ")");
  SparseBackend& be = backend_of(data_in, call.c_str());
  const auto rr = be.min_max(row), cr = be.min_max(col);
  Shape2 s;
  if (shape) {
    check_shape(*shape, call);
    s = *shape;
  } else {
    if (data_in.size() == 0) throw ValueError(call + ": cannot infer dimensions from zero sized index arrays");
    s = {std::max<int64_t>(rr.second + 1, 0), std::max<int64_t>(cr.second + 1, 0)};
  }
  if (data_in.size() > 0) {
    if (rr.first < 0) throw ValueError(call + ": negative row index found (" + std::to_string(rr.first) + ")");
    if (cr.first < 0) throw ValueError(call + ": negative column index found (" + std::to_string(cr.first) + ")");
    if (rr.second >= s.rows)
      throw ValueError(call + ": row index " + std::to_string(rr.second) + " exceeds matrix dimensions " +
                       detail::shape_str(s));
    if (cr.second >= s.cols)
      throw ValueError(call + ": column index " + std::to_string(cr.second) + " exceeds matrix dimensions " +
                       detail::shape_str(s));
  }
  const Dtype idx = index_dtype(std::max(s.rows, s.cols), given_index_dtype(row_in, col_in));
  return CooMatrix{contiguous(data_in), contiguous_as(row, idx), contiguous_as(col, idx), s, false};
}

CsrMatrix make_csr(const Array& data, const Array& indices, const Array& indptr, std::optional<Shape2> shape) {
  return make_compressed<CsrMatrix>(data, indices, indptr, shape, true, "make_csr");
}

CscMatrix make_csc(const Array& data, const Array& indices, const Array& indptr, std::optional<Shape2> shape) {
  return make_compressed<CscMatrix>(data, indices, indptr, shape, false, "make_csc");
}

CooMatrix coo_from_dense(const Array& dense) {
  const char* call = "kumo::sparse::coo_from_dense(dense)";
  check_value_dtype(dense.dtype(), call);
  if (dense.ndim() != 2)
    throw ValueError(std::string(call) + ": expected a 2-d array, got " + std::to_string(dense.ndim()) + "-d");
  const Shape2 s{dense.shape()[0], dense.shape()[1]};
  CooMatrix out;
  out.shape = s;
  out.canonical = true;
  backend_of(dense, call).dense_nonzero(contiguous(dense), index_dtype(std::max(s.rows, s.cols)), &out.row, &out.col,
                                        &out.data);
  return out;
}

CooMatrix coo_empty(Shape2 shape, Dtype dtype, Device& device) {
  check_shape(shape, "kumo::sparse::coo_empty(shape=" + detail::shape_str(shape) + ")");
  check_value_dtype(dtype, "kumo::sparse::coo_empty");
  const Dtype idx = index_dtype(std::max(shape.rows, shape.cols));
  return CooMatrix{Array::empty(Shape{0}, dtype, device), Array::empty(Shape{0}, idx, device),
                   Array::empty(Shape{0}, idx, device), shape, true};
}

bool has_sorted_indices(const CsrMatrix& a) {
  return backend_of(a.data, "has_sorted_indices").index_order(major_form(a)).sorted;
}
bool has_sorted_indices(const CscMatrix& a) {
  return backend_of(a.data, "has_sorted_indices").index_order(major_form(a)).sorted;
}
bool has_canonical_format(const CsrMatrix& a) {
  return backend_of(a.data, "has_canonical_format").index_order(major_form(a)).canonical;
}
bool has_canonical_format(const CscMatrix& a) {
  return backend_of(a.data, "has_canonical_format").index_order(major_form(a)).canonical;
}

CsrMatrix sort_indices(const CsrMatrix& a) {
  return detail::as_csr(backend_of(a.data, "sort_indices").sort_indices(major_form(a)));
}
CscMatrix sort_indices(const CscMatrix& a) {
  return detail::as_csc(backend_of(a.data, "sort_indices").sort_indices(major_form(a)));
}
CsrMatrix sum_duplicates(const CsrMatrix& a) {
  SparseBackend& be = backend_of(a.data, "sum_duplicates");
  if (be.index_order(major_form(a)).canonical) return a;
  return detail::as_csr(be.sum_duplicates(major_form(a)));
}
CscMatrix sum_duplicates(const CscMatrix& a) {
  SparseBackend& be = backend_of(a.data, "sum_duplicates");
  if (be.index_order(major_form(a)).canonical) return a;
  return detail::as_csc(be.sum_duplicates(major_form(a)));
}
CooMatrix sum_duplicates(const CooMatrix& a) {
  if (a.canonical) return a;
  CooMatrix out = tocoo(tocsr(a));
  out.canonical = true;
  return out;
}

CsrMatrix eliminate_zeros(const CsrMatrix& a) {
  return detail::as_csr(backend_of(a.data, "eliminate_zeros").eliminate_zeros(major_form(a)));
}
CscMatrix eliminate_zeros(const CscMatrix& a) {
  return detail::as_csc(backend_of(a.data, "eliminate_zeros").eliminate_zeros(major_form(a)));
}
CooMatrix eliminate_zeros(const CooMatrix& a) {
  const Array keep = not_equal(a.data, Scalar(0));
  return CooMatrix{extract(keep, a.data), extract(keep, a.row), extract(keep, a.col), a.shape, a.canonical};
}

}  // namespace sparse
}  // namespace kumo
