// Reductions with implicit zeros (sparse/reductions.h): each is the
// backend's row reduction over a canonical row-compressed form, of the
// matrix (axis 1 of CSR), of its transpose (axis 0), or of the whole matrix
// seen as one row of rows * cols places (axis nullopt; the entries' C-order
// flat indices are its sorted column indices).
#include "sparse/reductions.h"

#include <string>

#include "core/errors.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "sparse/detail.h"

namespace kumo {
namespace sparse {

using detail::backend_of;
using detail::major_form;

namespace {

const char* op_name(RowReduce op) {
  switch (op) {
    case RowReduce::kMax: return "max";
    case RowReduce::kMin: return "min";
    case RowReduce::kNanMax: return "nanmax";
    case RowReduce::kNanMin: return "nanmin";
    case RowReduce::kArgMax: return "argmax";
    default: return "argmin";
  }
}

// The canonical CSR of a, as one row over all rows * cols places.
Compressed as_one_row(const CsrMatrix& a_in) {
  const CsrMatrix a = sum_duplicates(a_in);
  SparseBackend& be = backend_of(a.data, "kumo::sparse::reduce");
  const Array rows = be.expand_major(a.indptr, a.nnz()).astype(Dtype::kInt64);
  const Array flat = add(multiply(rows, Scalar(a.shape.cols)), a.indices.astype(Dtype::kInt64));
  const Array indptr = concatenate({zeros(Shape{1}, Dtype::kInt64, Order::kC, a.data.device()),
                                    full(Shape{1}, Scalar(a.nnz()), Dtype::kInt64, Order::kC, a.data.device())});
  return Compressed{a.data, detail::contiguous(flat), indptr, 1, a.shape.rows * a.shape.cols};
}

// The reduction along rows of the canonical form of the compressed c.
Array reduce_rows(const Compressed& c_in, RowReduce op, bool explicit_only) {
  SparseBackend& be = backend_of(c_in.data, "kumo::sparse::reduce");
  const Compressed c = be.index_order(c_in).canonical ? c_in : be.sum_duplicates(c_in);
  return be.reduce_major(c, op, explicit_only);
}

void check_axis(Shape2 shape, int64_t nnz, RowReduce op, std::optional<int> axis, bool explicit_only) {
  const std::string call = std::string("kumo::sparse::") + op_name(op);
  if (axis && *axis != 0 && *axis != 1) throw ValueError(call + ": axis out of range");
  const int64_t reduced = !axis ? shape.rows * shape.cols : (*axis == 0 ? shape.rows : shape.cols);
  const int64_t kept = !axis ? 1 : (*axis == 0 ? shape.cols : shape.rows);
  if (reduced == 0 && (kept > 0 || !axis))
    throw ValueError(call + ": zero-size array to reduction operation " + op_name(op) + " which has no identity");
  const bool arg = op == RowReduce::kArgMax || op == RowReduce::kArgMin;
  if (explicit_only && arg && !axis && nnz == 0)
    throw ValueError(call + ": zero-size array to reduction operation " + op_name(op) +
                     " which has no identity (explicit=True and no stored entries)");
}

}  // namespace

Array reduce(const CsrMatrix& a, RowReduce op, std::optional<int> axis, bool explicit_only) {
  check_axis(a.shape, a.nnz(), op, axis, explicit_only);
  if (!axis) return reduce_rows(as_one_row(a), op, explicit_only).reshape(Shape{});
  if (*axis == 1) return reduce_rows(major_form(a), op, explicit_only);
  return reduce_rows(major_form(tocsc(a)), op, explicit_only);
}

Array reduce(const CscMatrix& a, RowReduce op, std::optional<int> axis, bool explicit_only) {
  check_axis(a.shape, a.nnz(), op, axis, explicit_only);
  if (!axis) return reduce(tocsr(a), op, axis, explicit_only);
  if (*axis == 0) return reduce_rows(major_form(a), op, explicit_only);
  return reduce_rows(major_form(tocsr(a)), op, explicit_only);
}

Array reduce(const CooMatrix& a, RowReduce op, std::optional<int> axis, bool explicit_only) {
  return reduce(tocsr(a), op, axis, explicit_only);
}

}  // namespace sparse
}  // namespace kumo
