// LinearOperator: shape checks around the stored functions, the operators
// over matrices, and SciPy's operator algebra as compositions of functions.
#include "sparse/linalg/linear_operator.h"

#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "linalg/products.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "sparse/linalg/not_implemented.h"

namespace kumo {
namespace sparse {
namespace linalg {

namespace {

std::string shape_text(const Array& x) {
  std::string s = "(";
  for (int i = 0; i < x.ndim(); ++i) s += (i ? ", " : "") + std::to_string(x.shape()[i]);
  return s + (x.ndim() == 1 ? ",)" : ")");
}

std::string op_text(const LinearOperator& a) {
  return "<" + std::to_string(a.shape().rows) + "x" + std::to_string(a.shape().cols) + " " + a.name() +
         " with dtype=" + dtype_name(a.dtype()) + ">";
}

// Column j of the 2-d x as a contiguous vector.
Array column(const Array& x, int64_t j) { return x.index({IndexItem::slice(std::nullopt, std::nullopt, 1), IndexItem(j)}).copy(Order::kC); }

// Applies a vector function to each column of x (n, k): the (m, k) result.
Array by_columns(const LinearOperator::Apply& f, const Array& x, int64_t m, Dtype fallback) {
  const int64_t k = x.shape()[1];
  if (k == 0) return Array::empty(Shape{m, 0}, promote_types(fallback, x.dtype()), x.device());
  std::vector<Array> cols;
  cols.reserve(static_cast<size_t>(k));
  for (int64_t j = 0; j < k; ++j) cols.push_back(f(column(x, j)).reshape(Shape{m, 1}));
  return concatenate(cols, 1);
}

// The operator of a sparse matrix: products with A and with A^H (the
// conjugated transpose shares A's index arrays).
template <class M>
LinearOperator from_matrix(const M& a) {
  const auto ah = conj(transpose(a));
  const auto by_a = [a](const Array& x) { return matmul(a, x); };
  const auto by_ah = [ah](const Array& x) { return matmul(ah, x); };
  return LinearOperator(a.shape, a.dtype(), by_a, by_ah, by_a, by_ah, "MatrixLinearOperator");
}

}  // namespace

LinearOperator::LinearOperator(Shape2 shape, Dtype dtype, Apply matvec, Apply rmatvec, Apply matmat, Apply rmatmat,
                               std::string name)
    : shape_(shape),
      dtype_(dtype),
      matvec_(std::move(matvec)),
      rmatvec_(std::move(rmatvec)),
      matmat_(std::move(matmat)),
      rmatmat_(std::move(rmatmat)),
      name_(std::move(name)) {
  if (shape.rows < 0 || shape.cols < 0) throw ValueError("LinearOperator: invalid shape (must be 2-d, non-negative)");
  if (!matvec_ && !matmat_) throw ValueError("LinearOperator: a matvec or matmat function is required");
}

Array LinearOperator::matvec(const Array& x) const {
  const int64_t m = shape_.rows, n = shape_.cols;
  const bool column_vector = x.ndim() == 2 && x.shape()[0] == n && x.shape()[1] == 1;
  if (!(x.ndim() == 1 && x.shape()[0] == n) && !column_vector)
    throw ValueError("dimension mismatch: " + op_text(*this) + " and x of shape " + shape_text(x));
  Array y = matvec_ ? matvec_(x.reshape(Shape{n})) : matmat_(x.reshape(Shape{n, 1}));
  if (y.size() != m) throw ValueError("invalid shape returned by user-defined matvec()");
  return column_vector ? y.reshape(Shape{m, 1}) : y.reshape(Shape{m});
}

Array LinearOperator::rmatvec(const Array& x) const {
  const int64_t m = shape_.rows, n = shape_.cols;
  const bool column_vector = x.ndim() == 2 && x.shape()[0] == m && x.shape()[1] == 1;
  if (!(x.ndim() == 1 && x.shape()[0] == m) && !column_vector)
    throw ValueError("dimension mismatch: " + op_text(*this) + " and x of shape " + shape_text(x));
  if (!rmatvec_ && !rmatmat_) throw NotImplementedError("rmatvec is not defined for " + op_text(*this));
  Array y = rmatvec_ ? rmatvec_(x.reshape(Shape{m})) : rmatmat_(x.reshape(Shape{m, 1}));
  if (y.size() != n) throw ValueError("invalid shape returned by user-defined rmatvec()");
  return column_vector ? y.reshape(Shape{n, 1}) : y.reshape(Shape{n});
}

Array LinearOperator::matmat(const Array& x) const {
  if (x.ndim() != 2) throw ValueError("expected 2-d ndarray or matrix, not " + std::to_string(x.ndim()) + "-d");
  if (x.shape()[0] != shape_.cols)
    throw ValueError("dimension mismatch: " + op_text(*this) + ", " + shape_text(x));
  Array y = matmat_ ? matmat_(x) : by_columns(matvec_, x, shape_.rows, dtype_);
  return y.reshape(Shape{shape_.rows, x.shape()[1]});
}

Array LinearOperator::rmatmat(const Array& x) const {
  if (x.ndim() != 2) throw ValueError("expected 2-d ndarray or matrix, not " + std::to_string(x.ndim()) + "-d");
  if (x.shape()[0] != shape_.rows)
    throw ValueError("dimension mismatch: " + op_text(*this) + ", " + shape_text(x));
  if (!rmatvec_ && !rmatmat_) throw NotImplementedError("rmatmat is not defined for " + op_text(*this));
  Array y = rmatmat_ ? rmatmat_(x) : by_columns(rmatvec_, x, shape_.cols, dtype_);
  return y.reshape(Shape{shape_.cols, x.shape()[1]});
}

LinearOperator aslinearoperator(const CsrMatrix& a) { return from_matrix(a); }
LinearOperator aslinearoperator(const CscMatrix& a) { return from_matrix(a); }
LinearOperator aslinearoperator(const CooMatrix& a) { return from_matrix(tocsr(a)); }

LinearOperator aslinearoperator(const Array& dense) {
  if (dense.ndim() != 2) throw ValueError("aslinearoperator: expected a 2-d array, got " + shape_text(dense));
  const Array a = dense;
  // A^H as a view: conj() copies only for complex dtypes.
  const Array ah = is_complex(a.dtype()) ? kumo::conj(a.transpose()) : a.transpose();
  const auto product = [](const Array& m) { return [m](const Array& x) { return kumo::matmul(m, x); }; };
  return LinearOperator({a.shape()[0], a.shape()[1]}, a.dtype(), product(a), product(ah), product(a), product(ah),
                        "MatrixLinearOperator");
}

LinearOperator identity_operator(Shape2 shape, Dtype dtype) {
  if (shape.rows != shape.cols) throw ValueError("IdentityOperator: the shape must be square");
  const auto same = [](const Array& x) { return x; };
  return LinearOperator(shape, dtype, same, same, same, same, "IdentityOperator");
}

LinearOperator add(const LinearOperator& a, const LinearOperator& b) {
  if (a.shape() != b.shape()) throw ValueError("cannot add " + op_text(a) + " and " + op_text(b) + ": shape mismatch");
  return LinearOperator(
      a.shape(), promote_types(a.dtype(), b.dtype()),
      [a, b](const Array& x) { return kumo::add(a.matvec(x), b.matvec(x)); },
      [a, b](const Array& x) { return kumo::add(a.rmatvec(x), b.rmatvec(x)); },
      [a, b](const Array& x) { return kumo::add(a.matmat(x), b.matmat(x)); },
      [a, b](const Array& x) { return kumo::add(a.rmatmat(x), b.rmatmat(x)); }, "_SumLinearOperator");
}

LinearOperator multiply(const LinearOperator& a, const LinearOperator& b) {
  if (a.shape().cols != b.shape().rows)
    throw ValueError("cannot multiply " + op_text(a) + " and " + op_text(b) + ": shape mismatch");
  return LinearOperator(
      {a.shape().rows, b.shape().cols}, promote_types(a.dtype(), b.dtype()),
      [a, b](const Array& x) { return a.matvec(b.matvec(x)); },
      [a, b](const Array& x) { return b.rmatvec(a.rmatvec(x)); },
      [a, b](const Array& x) { return a.matmat(b.matmat(x)); },
      [a, b](const Array& x) { return b.rmatmat(a.rmatmat(x)); }, "_ProductLinearOperator");
}

LinearOperator scale(const LinearOperator& a, std::complex<double> alpha, bool alpha_is_complex) {
  // A weak Python scalar, as SciPy's alpha * A.matvec(x); the adjoint's
  // factor is conj(alpha).
  const Scalar s = alpha_is_complex ? Scalar(alpha) : Scalar(alpha.real());
  const Scalar sc = alpha_is_complex ? Scalar(std::conj(alpha)) : Scalar(alpha.real());
  const Dtype dtype = alpha_is_complex ? promote_types(a.dtype(), Dtype::kComplex128)
                                       : promote_types(a.dtype(), Dtype::kFloat64);
  return LinearOperator(
      a.shape(), dtype, [a, s](const Array& x) { return kumo::multiply(a.matvec(x), s); },
      [a, sc](const Array& x) { return kumo::multiply(a.rmatvec(x), sc); },
      [a, s](const Array& x) { return kumo::multiply(a.matmat(x), s); },
      [a, sc](const Array& x) { return kumo::multiply(a.rmatmat(x), sc); }, "_ScaledLinearOperator");
}

LinearOperator power(const LinearOperator& a, int64_t p) {
  if (a.shape().rows != a.shape().cols) throw ValueError("square LinearOperator expected, got " + op_text(a));
  if (p < 0) throw ValueError("non-negative integer expected as p");
  // p applications of the function (none: x itself, as SciPy's A ** 0).
  const auto repeat = [p](LinearOperator::Apply f) {
    return [f, p](const Array& x) {
      Array y = x;
      for (int64_t i = 0; i < p; ++i) y = f(y);
      return y;
    };
  };
  return LinearOperator(
      a.shape(), a.dtype(), repeat([a](const Array& x) { return a.matvec(x); }),
      repeat([a](const Array& x) { return a.rmatvec(x); }), repeat([a](const Array& x) { return a.matmat(x); }),
      repeat([a](const Array& x) { return a.rmatmat(x); }), "_PowerLinearOperator");
}

LinearOperator adjoint(const LinearOperator& a) {
  return LinearOperator(
      {a.shape().cols, a.shape().rows}, a.dtype(), [a](const Array& x) { return a.rmatvec(x); },
      [a](const Array& x) { return a.matvec(x); }, [a](const Array& x) { return a.rmatmat(x); },
      [a](const Array& x) { return a.matmat(x); }, "_AdjointLinearOperator");
}

LinearOperator transpose(const LinearOperator& a) {
  // A^T x = conj(A^H conj(x)); conj is the identity for real dtypes.
  const auto c = [](const Array& x) { return is_complex(x.dtype()) ? kumo::conj(x) : x; };
  return LinearOperator(
      {a.shape().cols, a.shape().rows}, a.dtype(), [a, c](const Array& x) { return c(a.rmatvec(c(x))); },
      [a, c](const Array& x) { return c(a.matvec(c(x))); }, [a, c](const Array& x) { return c(a.rmatmat(c(x))); },
      [a, c](const Array& x) { return c(a.matmat(c(x))); }, "_TransposedLinearOperator");
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
