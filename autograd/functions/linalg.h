// Differentiable linear algebra: matmul (NumPy's, with 1-d operands and
// batch broadcasting), Chainer's linear and bilinear, and F.det, F.inv, ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

Variable matmul(const Variable& a, const Variable& b);
// Chainer's F.matmul(a, b, transa, transb): each matrix of a (of b)
// transposed first; a 1-d operand is not transposed.
Variable matmul(const Variable& a, const Variable& b, bool transa, bool transb);
// Chainer's deprecated F.batch_matmul: a and b of shape (B, N, ...) are
// each read as B matrices of shape (N, prod(...)) (a (B, N) operand is B
// column vectors), then matmul(a, b, transa, transb).
Variable batch_matmul(const Variable& a, const Variable& b, bool transa = false, bool transb = false);
// x @ W.T + b over x flattened to (batch, -1), as chainer.functions.linear:
// the first n_batch_axes axes of x are the batch (the result has them,
// then W's out axis), the rest the features. `b` may be undefined (no bias).
Variable linear(const Variable& x, const Variable& W, const Variable& b = Variable(), int n_batch_axes = 1);

// Differentiable linear algebra (Chainer's F.det, F.inv, F.cholesky, ...):
// forward by kumo::linalg, backward with differentiable functions (so
// double backprop works), plus einsum, tensordot and bilinear.
// Determinant of a square matrix (2-d) / of each matrix of a batch (3-d).
Variable det(const Variable& a);
Variable batch_det(const Variable& a);
// Inverse of a square matrix (2-d) / of each matrix of a batch (3-d).
Variable inv(const Variable& a);
Variable batch_inv(const Variable& a);
// The lower Cholesky factor of a symmetric positive-definite matrix (or a
// stack); the gradient is the symmetric one.
Variable cholesky(const Variable& a);
// x with a @ x = b (numpy.linalg.solve: b 1-d is a vector, batches broadcast).
Variable solve(const Variable& a, const Variable& b);
// numpy.einsum (explicit and implicit mode, ellipsis broadcasting).
Variable einsum(const std::string& subscripts, const std::vector<Variable>& operands);
// numpy.tensordot: a's last `axes` axes against b's first ones ...
Variable tensordot(const Variable& a, const Variable& b, int64_t axes = 2);
// ... or the axes paired in order.
Variable tensordot(const Variable& a, const Variable& b, const std::vector<int64_t>& axes_a,
                   const std::vector<int64_t>& axes_b);
// Chainer's bilinear: y[n, l] = sum_jk e1[n, j] e2[n, k] W[j, k, l] (+ e1 @ V1
// + e2 @ V2 + b when all three are given). e1, e2 are flattened to (N, -1).
Variable bilinear(const Variable& e1, const Variable& e2, const Variable& W, const Variable& V1 = Variable(),
                  const Variable& V2 = Variable(), const Variable& b = Variable());

}  // namespace autograd
}  // namespace kumo
