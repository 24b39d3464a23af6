// Products with dense operands (SpMV, SpMM), scalar multiples and the
// elementwise operations of two sparse matrices.
#include <algorithm>
#include <string>

#include "core/errors.h"
#include "routines/elementwise.h"
#include "sparse/detail.h"
#include "sparse/sparse.h"

namespace kumo {
namespace sparse {

using detail::as_csr;
using detail::backend_of;
using detail::contiguous_as;
using detail::major_form;

namespace {

std::string dims(const Array& x) {
  std::string s = "(";
  for (int i = 0; i < x.ndim(); ++i) s += (i ? ", " : "") + std::to_string(x.shape()[i]);
  return s + (x.ndim() == 1 ? ",)" : ")");
}

// c @ x (or c^T @ x) for the compressed matrix c of a sparse matrix of
// `shape`; `inner` is the extent x must match.
Array product(const Compressed& c, const Array& x, bool transposed, int64_t inner, int64_t outer, Shape2 shape,
              const char* call) {
  check_same_device({&c.data, &x});
  if (x.ndim() != 1 && x.ndim() != 2)
    throw ValueError(std::string(call) + ": expected a 1-d or 2-d dense operand, got shape " + dims(x));
  if (x.shape()[0] != inner)
    throw ValueError(std::string(call) + ": dimension mismatch: matrix " + detail::shape_str(shape) +
                     " and operand " + dims(x));
  const Dtype dtype = promote_types(c.data.dtype(), x.dtype());
  check_value_dtype(dtype, call);
  Compressed cc = c;
  cc.data = contiguous_as(c.data, dtype);
  const int64_t p = x.ndim() == 1 ? 1 : x.shape()[1];
  const Array x2 = contiguous_as(x, dtype).reshape(Shape{inner, p});
  Array y = backend_of(c.data, call).spmm(cc, x2, transposed);
  return x.ndim() == 1 ? y.reshape(Shape{outer}) : y;
}

// x @ A = (A^T x^T)^T.
Array rproduct(const Array& x, const Compressed& c, bool transposed, int64_t inner, int64_t outer, Shape2 shape,
               const char* call) {
  if (x.ndim() == 1) return product(c, x, transposed, inner, outer, shape, call);
  if (x.ndim() != 2)
    throw ValueError(std::string(call) + ": expected a 1-d or 2-d dense operand, got shape " + dims(x));
  if (x.shape()[1] != inner)
    throw ValueError(std::string(call) + ": dimension mismatch: operand " + dims(x) + " and matrix " +
                     detail::shape_str(shape));
  return product(c, x.transpose(), transposed, inner, outer, shape, call).transpose().copy(Order::kC);
}

// Both operands canonical, in one value dtype and one index dtype.
CsrMatrix elementwise(const CsrMatrix& a, const CsrMatrix& b, BinaryOp op, const char* name) {
  const std::string call = std::string("kumo::sparse::") + name + "(a " + detail::shape_str(a.shape) + ", b " +
                           detail::shape_str(b.shape) + ")";
  check_same_device({&a.data, &b.data});
  if (a.shape != b.shape) throw ValueError(call + ": inconsistent shapes");
  const Dtype dtype = promote_types(a.dtype(), b.dtype());
  // The result holds at most nnz(a) + nnz(b) entries.
  const Dtype idx = a.indices.dtype() == Dtype::kInt64 || b.indices.dtype() == Dtype::kInt64
                        ? Dtype::kInt64
                        : index_dtype(std::max({a.shape.rows, a.shape.cols, a.nnz() + b.nnz()}));
  const auto prepare = [&](const CsrMatrix& m) {
    CsrMatrix c = sum_duplicates(m);
    return Compressed{contiguous_as(c.data, dtype), contiguous_as(c.indices, idx), contiguous_as(c.indptr, idx),
                      c.shape.rows, c.shape.cols};
  };
  return as_csr(backend_of(a.data, call.c_str()).binop(prepare(a), prepare(b), op));
}

}  // namespace

Array matmul(const CsrMatrix& a, const Array& x) {
  return product(major_form(a), x, false, a.shape.cols, a.shape.rows, a.shape, "kumo::sparse::matmul(csr, x)");
}
// The CSC of A is the CSR of A^T: A x = (A^T)^T x.
Array matmul(const CscMatrix& a, const Array& x) {
  return product(major_form(a), x, true, a.shape.cols, a.shape.rows, a.shape, "kumo::sparse::matmul(csc, x)");
}
Array matmul(const CooMatrix& a, const Array& x) { return matmul(tocsr(a), x); }

Array rmatmul(const Array& x, const CsrMatrix& a) {
  return rproduct(x, major_form(a), true, a.shape.rows, a.shape.cols, a.shape, "kumo::sparse::rmatmul(x, csr)");
}
Array rmatmul(const Array& x, const CscMatrix& a) {
  return rproduct(x, major_form(a), false, a.shape.rows, a.shape.cols, a.shape, "kumo::sparse::rmatmul(x, csc)");
}

CsrMatrix multiply(const CsrMatrix& a, Scalar s) { return CsrMatrix{kumo::multiply(a.data, s), a.indices, a.indptr, a.shape}; }
CscMatrix multiply(const CscMatrix& a, Scalar s) { return CscMatrix{kumo::multiply(a.data, s), a.indices, a.indptr, a.shape}; }
CooMatrix multiply(const CooMatrix& a, Scalar s) {
  return CooMatrix{kumo::multiply(a.data, s), a.row, a.col, a.shape, a.canonical};
}
CsrMatrix negative(const CsrMatrix& a) { return CsrMatrix{kumo::negative(a.data), a.indices, a.indptr, a.shape}; }

CsrMatrix add(const CsrMatrix& a, const CsrMatrix& b) { return elementwise(a, b, BinaryOp::kAdd, "add"); }
CsrMatrix subtract(const CsrMatrix& a, const CsrMatrix& b) {
  return elementwise(a, b, BinaryOp::kSubtract, "subtract");
}
CsrMatrix multiply(const CsrMatrix& a, const CsrMatrix& b) {
  return elementwise(a, b, BinaryOp::kMultiply, "multiply");
}
CsrMatrix maximum(const CsrMatrix& a, const CsrMatrix& b) { return elementwise(a, b, BinaryOp::kMaximum, "maximum"); }
CsrMatrix minimum(const CsrMatrix& a, const CsrMatrix& b) { return elementwise(a, b, BinaryOp::kMinimum, "minimum"); }

namespace {
// The 0/1 result of a comparison in the operands' dtype, as bool.
CsrMatrix as_bool(const CsrMatrix& m) { return astype(m, Dtype::kBool); }
}  // namespace

CsrMatrix not_equal(const CsrMatrix& a, const CsrMatrix& b) {
  return as_bool(elementwise(a, b, BinaryOp::kNotEqual, "not_equal"));
}
CsrMatrix less(const CsrMatrix& a, const CsrMatrix& b) { return as_bool(elementwise(a, b, BinaryOp::kLess, "less")); }
CsrMatrix greater(const CsrMatrix& a, const CsrMatrix& b) {
  return as_bool(elementwise(a, b, BinaryOp::kGreater, "greater"));
}

namespace {

// a @ b for the row-compressed forms of two matrices (SpGEMM).
Compressed sparse_product(const Compressed& a, const Compressed& b, const std::string& call) {
  check_same_device({&a.data, &b.data});
  if (a.n_minor != b.n_major)
    throw ValueError(call + ": dimension mismatch: (" + std::to_string(a.n_major) + ", " + std::to_string(a.n_minor) +
                     ") @ (" + std::to_string(b.n_major) + ", " + std::to_string(b.n_minor) + ")");
  const Dtype dtype = promote_types(a.data.dtype(), b.data.dtype());
  check_value_dtype(dtype, call.c_str());
  const Dtype idx = a.indices.dtype() == Dtype::kInt64 || b.indices.dtype() == Dtype::kInt64
                        ? Dtype::kInt64
                        : index_dtype(std::max({a.n_major, a.n_minor, b.n_minor}));
  SparseBackend& be = backend_of(a.data, call.c_str());
  const auto prepare = [&](const Compressed& m) {
    // Duplicates would be summed by the product anyway; canonical operands
    // keep the kernel's row walks short.
    const Compressed c = be.index_order(m).canonical ? m : be.sum_duplicates(m);
    return Compressed{contiguous_as(c.data, dtype), contiguous_as(c.indices, idx), contiguous_as(c.indptr, idx),
                      c.n_major, c.n_minor};
  };
  return be.spgemm(prepare(a), prepare(b));
}

}  // namespace

CsrMatrix matmul(const CsrMatrix& a, const CsrMatrix& b) {
  return as_csr(sparse_product(major_form(a), major_form(b), "kumo::sparse::matmul(csr, csr)"));
}
// CSC(A @ B) is CSR(B^T @ A^T), and the CSC forms are those CSRs.
CscMatrix matmul(const CscMatrix& a, const CscMatrix& b) {
  return detail::as_csc(sparse_product(major_form(b), major_form(a), "kumo::sparse::matmul(csc, csc)"));
}
CsrMatrix matmul(const CooMatrix& a, const CooMatrix& b) { return matmul(tocsr(a), tocsr(b)); }

}  // namespace sparse
}  // namespace kumo
