// Differentiable activations (Chainer's F.celu, F.gelu, F.prelu, F.maxout,
// F.crelu, F.swish), composed of differentiable functions so double
// backprop works.
#pragma once
#include <cstdint>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// x for x >= 0, alpha * (exp(x / alpha) - 1) below (alpha != 0).
Variable celu(const Variable& x, double alpha = 1.0);
// x * Phi(x) with the normal CDF by erf, or its tanh approximation.
Variable gelu(const Variable& x, bool approximate = false);
// x for x >= 0, W * x below; W's shape is x.shape[1:1 + W.ndim].
Variable prelu(const Variable& x, const Variable& W);
// The maximum over groups of pool_size consecutive channels along axis.
Variable maxout(const Variable& x, int64_t pool_size, int64_t axis = 1);
// concat(relu(x), relu(-x)) along axis.
Variable crelu(const Variable& x, int64_t axis = 1);
// x * sigmoid(beta * x); beta's shape is x.shape[1:1 + beta.ndim].
Variable swish(const Variable& x, const Variable& beta);

}  // namespace autograd
}  // namespace kumo
