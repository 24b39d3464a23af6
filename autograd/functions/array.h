// Differentiable shape functions: broadcast_to and its adjoint sum_to, sum,
// reshape, transpose.
#pragma once
#include <vector>

#include "autograd/variable.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {

Variable broadcast_to(const Variable& x, const Shape& shape);
// Sums x down to `shape` (the shape x was broadcast from): the gradient of
// a broadcast.
Variable sum_to(const Variable& x, const Shape& shape);
Variable sum(const Variable& x, const Axes& axes = {}, bool keepdims = false);
Variable mean(const Variable& x, const Axes& axes = {}, bool keepdims = false);
Variable reshape(const Variable& x, const Shape& shape);
Variable transpose(const Variable& x, const std::vector<int64_t>& axes = {});
// x on `device` (a copy; the same variable when it is already there); the
// gradient goes back to x's device.
Variable copy(const Variable& x, Device& device);

}  // namespace autograd
}  // namespace kumo
