// kumo::sparse::linalg::LinearOperator: scipy.sparse.linalg's abstract
// linear map, the operand of the iterative solvers and eigensolvers.
//
// An operator is a shape, a dtype and up to four functions: matvec (A x for
// x of shape (n,)), rmatvec (A^H x), matmat (A X for X of shape (n, k)) and
// rmatmat (A^H X). Only matvec is required; a missing matmat applies matvec
// column by column, a missing rmatvec/rmatmat is a NotImplementedError when
// called (as SciPy's operators without one). Operators are values sharing
// their functions: copying one is cheap.
//
// Operators are made from a sparse matrix or a dense 2-d array (the product
// runs the matrix's own kernels, no callback), from functions (a Python
// subclass reaches the solvers this way), and from other operators by the
// algebra SciPy defines (+, scalar *, @, ** of a square operator, adjoint,
// transpose).
#pragma once
#include <complex>
#include <functional>
#include <string>

#include "core/array.h"
#include "sparse/sparse.h"

namespace kumo {
namespace sparse {
namespace linalg {

class LinearOperator {
 public:
  using Apply = std::function<Array(const Array&)>;

  LinearOperator() = default;
  // matvec is required; the others may be empty functions.
  LinearOperator(Shape2 shape, Dtype dtype, Apply matvec, Apply rmatvec = {}, Apply matmat = {},
                 Apply rmatmat = {}, std::string name = "LinearOperator");

  Shape2 shape() const { return shape_; }
  Dtype dtype() const { return dtype_; }
  const std::string& name() const { return name_; }
  bool has_rmatvec() const { return static_cast<bool>(rmatvec_) || static_cast<bool>(rmatmat_); }

  // A x for x of shape (cols,) or (cols, 1); the result has x's rank
  // ((rows,) or (rows, 1)). Other shapes are a ValueError("dimension mismatch").
  Array matvec(const Array& x) const;
  // A^H x for x of shape (rows,) or (rows, 1).
  Array rmatvec(const Array& x) const;
  // A X for a 2-d X of shape (cols, k).
  Array matmat(const Array& x) const;
  // A^H X for a 2-d X of shape (rows, k).
  Array rmatmat(const Array& x) const;

 private:
  Shape2 shape_;
  Dtype dtype_ = Dtype::kFloat64;
  Apply matvec_, rmatvec_, matmat_, rmatmat_;
  std::string name_;
};

// Operators over matrices: products run kumo::sparse::matmul / kumo::matmul.
LinearOperator aslinearoperator(const CsrMatrix& a);
LinearOperator aslinearoperator(const CscMatrix& a);
LinearOperator aslinearoperator(const CooMatrix& a);
// A dense 2-d array (ValueError for other ranks).
LinearOperator aslinearoperator(const Array& dense);

// The identity of n x n (SciPy's IdentityOperator): x itself.
LinearOperator identity_operator(Shape2 shape, Dtype dtype);

// SciPy's operator algebra. Shape mismatches are a ValueError naming both
// operands; dtypes follow numpy.result_type.
LinearOperator add(const LinearOperator& a, const LinearOperator& b);
LinearOperator multiply(const LinearOperator& a, const LinearOperator& b);  // a @ b
LinearOperator scale(const LinearOperator& a, std::complex<double> alpha, bool alpha_is_complex);
LinearOperator power(const LinearOperator& a, int64_t p);  // square a, p >= 0
LinearOperator adjoint(const LinearOperator& a);           // A^H
LinearOperator transpose(const LinearOperator& a);         // A^T = conj(A^H conj(x))

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
