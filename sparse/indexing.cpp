// Indexing of CSR and CSC matrices (sparse/indexing.h). Everything is said
// once, for the compressed form over the major axis: rows of CSR are the
// major axis, columns the minor one, and the other way round for CSC.
#include "sparse/indexing.h"

#include <string>
#include <vector>

#include "core/errors.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "sparse/detail.h"

namespace kumo {
namespace sparse {

using detail::backend_of;
using detail::contiguous_as;
using detail::major_form;

namespace {

// The compressed form with index arrays of `idx` dtype.
Compressed with_index(const Compressed& c, Dtype idx) {
  return Compressed{c.data, contiguous_as(c.indices, idx), contiguous_as(c.indptr, idx), c.n_major, c.n_minor};
}

Compressed take_major_of(const Compressed& c, const Array& major, const std::string& call) {
  const Array pos = axis_positions(major, c.n_major, call).reshape(Shape{-1});
  return backend_of(c.data, call.c_str()).take_major(c, contiguous_as(pos, Dtype::kInt64));
}

Compressed take_minor_of(const Compressed& c, const Array& minor, const std::string& call) {
  const Array pos = axis_positions(minor, c.n_minor, call).reshape(Shape{-1});
  return backend_of(c.data, call.c_str()).take_minor(c, contiguous_as(pos, Dtype::kInt64));
}

// (major positions, minor positions) broadcast and flattened; `shape` gets
// their broadcast shape.
std::pair<Array, Array> flat_targets(const Compressed& c, const Array& major, const Array& minor,
                                     const std::string& call, Shape* shape) {
  std::vector<Array> b;
  try {
    b = broadcast_arrays({major, minor});
  } catch (const ValueError&) {
    throw IndexError(call + ": shape mismatch: indexing arrays could not be broadcast together");
  }
  *shape = b[0].shape();
  const Array ma = contiguous_as(axis_positions(b[0], c.n_major, call), Dtype::kInt64).reshape(Shape{-1});
  const Array mi = contiguous_as(axis_positions(b[1], c.n_minor, call), Dtype::kInt64).reshape(Shape{-1});
  return {ma, mi};
}

Array gather_of(const Compressed& c, const Array& major, const Array& minor, const std::string& call) {
  Shape shape;
  const auto t = flat_targets(c, major, minor, call, &shape);
  return backend_of(c.data, call.c_str()).gather(c, t.first, t.second).reshape(shape);
}

Compressed set_of(const Compressed& c_in, const Array& major, const Array& minor, const Array& values,
                  const std::string& call) {
  Shape shape;
  std::vector<Array> b;
  try {
    b = broadcast_arrays({major, minor, values});
  } catch (const ValueError&) {
    throw ValueError(call + ": shape mismatch in assignment: indices and values could not be broadcast together");
  }
  const auto t = flat_targets(c_in, b[0], b[1], call, &shape);
  SparseBackend& be = backend_of(c_in.data, call.c_str());
  Compressed c = c_in;
  if (!be.index_order(c).canonical) c = be.sum_duplicates(c);
  // Insertions may push the entry count past int32.
  const int64_t most = c.data.size() + t.first.size();
  if (c.indices.dtype() == Dtype::kInt32 && index_dtype(most) == Dtype::kInt64) c = with_index(c, Dtype::kInt64);
  const Array v = contiguous_as(b[2], c.data.dtype()).reshape(Shape{-1});
  return be.set_entries(c, t.first, t.second, v);
}

}  // namespace

Array axis_positions(const Array& index, int64_t extent, const std::string& call) {
  if (!is_integer(index.dtype()))
    throw IndexError(call + ": only integers, slices and integer or boolean arrays are valid indices");
  Array pos = index.dtype() == Dtype::kInt64 ? index : index.astype(Dtype::kInt64);
  if (pos.size() == 0) return pos;
  const Array flat = contiguous_as(pos, Dtype::kInt64).reshape(Shape{-1});
  const auto range = backend_of(flat, call.c_str()).min_max(flat);
  if (range.first < -extent || range.second >= extent) {
    const int64_t bad = range.first < -extent ? range.first : range.second;
    throw IndexError(call + ": index (" + std::to_string(bad) + ") out of range for an axis of size " +
                     std::to_string(extent));
  }
  if (range.first < 0) pos = where(less(pos, Scalar(0)), add(pos, Scalar(extent)), pos);
  return pos;
}

Array slice_positions(const IndexItem& s, int64_t extent) {
  if (s.kind != IndexItem::Kind::kSlice) throw TypeError("kumo::sparse::slice_positions: not a slice");
  if (s.step == 0) throw ValueError("slice step cannot be zero");
  // Python's slice.indices(extent).
  const int64_t step = s.step;
  const auto clamp = [&](bool has, int64_t v, int64_t dflt) {
    if (!has) return dflt;
    if (v < 0) v += extent;
    if (step > 0) return std::min(std::max<int64_t>(v, 0), extent);
    return std::min(std::max<int64_t>(v, -1), extent - 1);
  };
  const int64_t start = clamp(s.has_start, s.start, step > 0 ? 0 : extent - 1);
  const int64_t stop = clamp(s.has_stop, s.stop, step > 0 ? extent : -1);
  return arange(Scalar(start), Scalar(stop), Scalar(step), Dtype::kInt64);
}

CsrMatrix take_rows(const CsrMatrix& a, const Array& rows) {
  return detail::as_csr(take_major_of(major_form(a), rows, "kumo::sparse::take_rows(csr)"));
}
CscMatrix take_rows(const CscMatrix& a, const Array& rows) {
  return detail::as_csc(take_minor_of(major_form(a), rows, "kumo::sparse::take_rows(csc)"));
}
CsrMatrix take_cols(const CsrMatrix& a, const Array& cols) {
  return detail::as_csr(take_minor_of(major_form(a), cols, "kumo::sparse::take_cols(csr)"));
}
CscMatrix take_cols(const CscMatrix& a, const Array& cols) {
  return detail::as_csc(take_major_of(major_form(a), cols, "kumo::sparse::take_cols(csc)"));
}

CsrMatrix slice(const CsrMatrix& a, const IndexItem& rows, const IndexItem& cols) {
  return take_cols(take_rows(a, slice_positions(rows, a.shape.rows)), slice_positions(cols, a.shape.cols));
}
CscMatrix slice(const CscMatrix& a, const IndexItem& rows, const IndexItem& cols) {
  return take_rows(take_cols(a, slice_positions(cols, a.shape.cols)), slice_positions(rows, a.shape.rows));
}

Array get_entries(const CsrMatrix& a, const Array& rows, const Array& cols) {
  return gather_of(major_form(a), rows, cols, "kumo::sparse::get_entries(csr)");
}
Array get_entries(const CscMatrix& a, const Array& rows, const Array& cols) {
  return gather_of(major_form(a), cols, rows, "kumo::sparse::get_entries(csc)");
}

CsrMatrix set_entries(const CsrMatrix& a, const Array& rows, const Array& cols, const Array& values) {
  return detail::as_csr(set_of(major_form(a), rows, cols, values, "kumo::sparse::set_entries(csr)"));
}
CscMatrix set_entries(const CscMatrix& a, const Array& rows, const Array& cols, const Array& values) {
  return detail::as_csc(set_of(major_form(a), cols, rows, values, "kumo::sparse::set_entries(csc)"));
}

}  // namespace sparse
}  // namespace kumo
