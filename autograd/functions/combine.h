// Differentiable joining, splitting and selection: concat, stack,
// split_axis, expand_dims, squeeze, where, maximum, minimum, clip, and the
// max/min reductions.
#pragma once
#include <vector>

#include "autograd/variable.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {

Variable concat(const std::vector<Variable>& xs, int64_t axis = 1);
Variable stack(const std::vector<Variable>& xs, int64_t axis = 0);
// Chainer's split_axis: `sections` equal pieces.
std::vector<Variable> split_axis(const Variable& x, int64_t sections, int64_t axis);
// ... or pieces cut before each of `indices`.
std::vector<Variable> split_axis(const Variable& x, const std::vector<int64_t>& indices, int64_t axis);
Variable expand_dims(const Variable& x, int64_t axis);
Variable squeeze(const Variable& x);
// Removes the listed axes, each of length 1 (ValueError otherwise).
Variable squeeze(const Variable& x, const std::vector<int64_t>& axes);
// x where the condition holds, y elsewhere (broadcast); the condition is data.
Variable where(const Array& condition, const Variable& x, const Variable& y);
// Elementwise maximum/minimum; ties send the gradient to the first operand.
Variable maximum(const Variable& a, const Variable& b);
Variable minimum(const Variable& a, const Variable& b);
// x clipped to [lo, hi]; the gradient flows where x is inside.
Variable clip(const Variable& x, double lo, double hi);
// max/min over axes; every position holding the extreme gets the gradient.
Variable max(const Variable& x, const Axes& axes = {}, bool keepdims = false);
Variable min(const Variable& x, const Axes& axes = {}, bool keepdims = false);

}  // namespace autograd
}  // namespace kumo
