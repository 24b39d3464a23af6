// Numerical gradient checks (Chainer's gradient_check): the gradients that
// backward computes are compared with central finite differences along a
// random direction, so one check covers every input element at the cost of
// two extra forward passes.
//
//   auto f = [](const std::vector<Variable>& x) { return std::vector<Variable>{tanh(x[0]) * x[1]}; };
//   check_backward(f, {x, y}, {gy});                   // first derivatives
//   check_double_backward(f, {x, y}, {gy}, {ggx, ggy});  // second derivatives
#pragma once
#include <functional>
#include <optional>
#include <vector>

#include "autograd/variable.h"
#include "core/errors.h"

namespace kumo {
namespace autograd {

// A gradient did not match its numerical estimate (Python's AssertionError).
class GradientCheckError : public Error {
 public:
  using Error::Error;
};

using VariadicFunction = std::function<std::vector<Variable>(const std::vector<Variable>&)>;

struct GradientCheckOptions {
  double eps = 1e-3;   // the finite-difference step along the unit direction
  double atol = 1e-5;  // passes when |numerical - analytic| <= atol + rtol * |numerical|
  double rtol = 1e-4;
  // Variables whose data is perturbed and whose gradients are checked too
  // (a link's parameters); func reads them itself.
  std::vector<Variable> params;
  // One flag per input: true leaves it out of the check (it gets no
  // gradient). Empty: inputs of non-floating dtypes are left out.
  std::vector<bool> no_grads;
  // The dtype the whole check runs in (inputs and params are cast to it),
  // e.g. float64 for float16 functions; unset keeps their dtypes.
  std::optional<Dtype> dtype;
  uint64_t seed = 0;  // the random direction's seed
};

// Checks func's backward at inputs. grad_outputs holds one gradient per
// output (empty: random ones; an undefined Array for an output whose
// gradient is zero). Throws GradientCheckError with both values on mismatch.
void check_backward(const VariadicFunction& func, const std::vector<Array>& inputs,
                    const std::vector<Array>& grad_outputs = {}, const GradientCheckOptions& options = {});

// Checks the second derivatives: the backward of (inputs, grad_outputs) ->
// gradients of the checked inputs and params, with grad_grad_inputs as its
// output gradients (one per checked input followed by one per param; empty:
// random). grad_outputs empty: random.
void check_double_backward(const VariadicFunction& func, const std::vector<Array>& inputs,
                           const std::vector<Array>& grad_outputs = {}, const std::vector<Array>& grad_grad_inputs = {},
                           const GradientCheckOptions& options = {});

}  // namespace autograd
}  // namespace kumo
