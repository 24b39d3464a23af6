// Differentiable products: matmul (NumPy's, with 1-d operands and batch
// broadcasting) and Chainer's linear.
#pragma once
#include "autograd/variable.h"

namespace kumo {
namespace autograd {

Variable matmul(const Variable& a, const Variable& b);
// x @ W.T + b over x flattened to (batch, -1), as chainer.functions.linear
// with n_batch_axes=1. `b` may be undefined (no bias).
Variable linear(const Variable& x, const Variable& W, const Variable& b = Variable());

}  // namespace autograd
}  // namespace kumo
