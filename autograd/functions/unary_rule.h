// One differentiable unary elementwise function as data: its forward
// routine, which of x and y its derivative needs, and the derivative
// written with differentiable functions (so double backprop works), plus
// optionally the same derivative as one fused kernel expression. The
// tables of rows are in math.cpp (elementwise and special functions) and
// activation.cpp (sigmoid, relu); add a function by adding a row.
#pragma once

#include "autograd/variable.h"
#include "core/array.h"

namespace kumo {
namespace autograd {

struct UnaryRule {
  const char* label;  // the FunctionNode's label ("Exp"); also names the fused kernel
  Array (*forward)(const Array& x);
  enum Needs { kInput, kOutput } needs;
  Variable (*gradient)(const Variable& x_or_y, const Variable& gy);
  // The gradient as one elementwise expression of v (x or y) and gy, used
  // when the backward is not itself recorded (no double backprop): one
  // kernel instead of a chain of them, for float32/float64 with gy of v's
  // dtype and shape. Null: always `gradient`.
  const char* fused = nullptr;
};

// rule applied to x as one FunctionNode.
Variable apply_unary_rule(const UnaryRule& rule, const Variable& x);

}  // namespace autograd
}  // namespace kumo
