// Differentiable activations: the softmax family along an axis (Chainer's
// default axis 1) and Chainer's parametric and composed activations.
#pragma once

#include <cstdint>

#include "autograd/variable.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {

// log(sum(exp(x), axes)), computed with the maximum subtracted; all axes by
// default (Chainer's axis=None), one axis or several.
Variable logsumexp(const Variable& x, const Axes& axes = Axes());
Variable log_softmax(const Variable& x, int64_t axis = 1);
Variable softmax(const Variable& x, int64_t axis = 1);

// 1 / (1 + exp(-x)), without overflow.
Variable sigmoid(const Variable& x);
// max(x, 0).
Variable relu(const Variable& x);
// x for x >= 0, slope * x below.
Variable leaky_relu(const Variable& x, double slope = 0.2);
// x for x >= 0, alpha * (exp(x) - 1) below.
Variable elu(const Variable& x, double alpha = 1.0);
// scale * elu(x, alpha) with the self-normalising constants.
Variable selu(const Variable& x, double alpha = 1.6732632423543772, double scale = 1.0507009873554805);
// log(1 + exp(beta * x)) / beta, without overflow.
Variable softplus(const Variable& x, double beta = 1.0);
// x * sigmoid(x).
Variable silu(const Variable& x);
// clip(0.2 * x + 0.5, 0, 1).
Variable hard_sigmoid(const Variable& x);
// min(max(x, 0), z).
Variable clipped_relu(const Variable& x, double z = 20.0);
// min(max(0, x), 6) (Chainer's F.relu6): clipped_relu with z = 6.
Variable relu6(const Variable& x);

// Differentiable activations (Chainer's F.celu, F.gelu, F.prelu, F.maxout,
// F.crelu, F.swish), composed of differentiable functions so double
// backprop works.
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
