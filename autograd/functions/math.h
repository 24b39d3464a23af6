// Differentiable math: elementwise and special functions (each a row of the
// table in math.cpp, unary_rule.h), binary math, reductions and scans.
#pragma once

#include <cstdint>
#include <optional>

#include "autograd/variable.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {

Variable exp(const Variable& x);
Variable log(const Variable& x);
Variable sqrt(const Variable& x);
Variable square(const Variable& x);
Variable sin(const Variable& x);
Variable cos(const Variable& x);
Variable tanh(const Variable& x);
Variable absolute(const Variable& x);
Variable log2(const Variable& x);
Variable log10(const Variable& x);
Variable log1p(const Variable& x);
Variable expm1(const Variable& x);
Variable tan(const Variable& x);
Variable arcsin(const Variable& x);
Variable arccos(const Variable& x);
Variable arctan(const Variable& x);
Variable sinh(const Variable& x);
Variable cosh(const Variable& x);
Variable rsqrt(const Variable& x);
// The inverse hyperbolic tangent (Chainer's F.arctanh); its derivative 1/(1 - x^2).
Variable arctanh(const Variable& x);
// Zero gradient (piecewise constant), as Chainer's floor and ceil.
Variable floor(const Variable& x);
Variable ceil(const Variable& x);
// Chainer's F.sign and F.fix: their gradient is None everywhere, so the
// result is a new Variable outside the graph (requires_grad false), as
// Chainer's, and no gradient reaches x through it.
Variable sign(const Variable& x);
Variable fix(const Variable& x);

// Differentiable special functions, binary math, reductions and scans
// (Chainer's F.erf, F.lgamma, F.arctan2, F.prod, F.cumsum, ...). Backward
// passes are written with differentiable functions, so double backprop works.
// The error function and its complement.
Variable erf(const Variable& x);
Variable erfc(const Variable& x);
// The inverse of erf on (-1, 1).
Variable erfinv(const Variable& x);
// log|Gamma(x)|; its derivative is digamma.
Variable lgamma(const Variable& x);
// psi = Gamma'/Gamma; its derivative is polygamma(1, x).
Variable digamma(const Variable& x);
// The n-th derivative of digamma (n is data: non-negative integers).
Variable polygamma(const Array& n, const Variable& x);
// atan(x1 / x2) in the right quadrant, broadcasting.
Variable arctan2(const Variable& x1, const Variable& x2);
// x - trunc(x / divisor) * divisor, broadcasting.
Variable fmod(const Variable& x, const Variable& divisor);
// The product over axes; the gradient is the product of the other
// elements (no division, so zeros are handled exactly).
Variable prod(const Variable& x, const Axes& axes = {}, bool keepdims = false);
// Cumulative sum / product along axis (the flattened array when none).
Variable cumsum(const Variable& x, std::optional<int64_t> axis = std::nullopt);
Variable cumprod(const Variable& x, std::optional<int64_t> axis = std::nullopt);
// The (weighted) mean over axes. weights: x's shape for all axes, or 1-d
// along the single axis given; undefined for the plain mean.
Variable average(const Variable& x, const Axes& axes = {}, const Variable& weights = Variable(), bool keepdims = false);
// Indices of the maximum / minimum (NumPy's argmax); not differentiable.
Variable argmax(const Variable& x, std::optional<int64_t> axis = std::nullopt);
Variable argmin(const Variable& x, std::optional<int64_t> axis = std::nullopt);
// (x1 - x2)^2 elementwise.
Variable squared_difference(const Variable& x1, const Variable& x2);
// The squared L2 norm of each sample (axis 0 is the batch).
Variable batch_l2_norm_squared(const Variable& x);

}  // namespace autograd
}  // namespace kumo
