#include "autograd/functions/activation.h"

#include <cmath>
#include <memory>
#include <string>

#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/math.h"
#include "core/errors.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {
namespace {

// log(sum(exp(x), axis)) keeping the axis. The maximum is a constant: it
// cancels from the value, so it needs no gradient, and keeps exp finite.
Variable logsumexp_keepdims(const Variable& x, int64_t axis) {
  Variable m(kumo::max(x.array(), axis, ReduceOptions().keepdims(true)), false);
  return log(sum(exp(x - m), axis, true)) + m;
}

class Softplus : public FunctionNode {
 public:
  explicit Softplus(double beta) : beta_(beta) {}
  std::string label() const override { return "Softplus"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    // max(bx, 0) + log1p(exp(-|bx|)): exp never overflows.
    Array bx = kumo::multiply(x[0], beta_);
    Array y = kumo::add(kumo::maximum(bx, Scalar(0)), kumo::log1p(kumo::exp(kumo::negative(kumo::absolute(bx)))));
    return {kumo::divide(y, beta_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {gy[0] * sigmoid(get_retained_inputs()[0] * beta_)};
  }

 private:
  double beta_;
};

Variable constant_like(const Variable& x, double v) { return Variable(full_like(x.array(), Scalar(v)), false); }

}  // namespace

Variable leaky_relu(const Variable& x, double slope) {
  Array factor = kumo::where(kumo::greater_equal(x.array(), Scalar(0)), Scalar(1.0), Scalar(slope)).astype(x.dtype());
  return x * Variable(factor, false);
}

Variable elu(const Variable& x, double alpha) {
  // expm1 of min(x, 0): the unused branch stays finite, so its zero gradient stays zero.
  Variable negative_part = expm1(minimum(x, constant_like(x, 0.0))) * alpha;
  return where(kumo::greater_equal(x.array(), Scalar(0)), x, negative_part);
}

Variable selu(const Variable& x, double alpha, double scale) { return elu(x, alpha) * scale; }

Variable softplus(const Variable& x, double beta) {
  if (beta == 0) throw ValueError("softplus: beta must not be 0");
  return apply(std::make_shared<Softplus>(beta), {x})[0];
}

Variable silu(const Variable& x) { return x * sigmoid(x); }

Variable hard_sigmoid(const Variable& x) { return clip(x * 0.2 + 0.5, 0.0, 1.0); }

Variable clipped_relu(const Variable& x, double z) {
  if (z < 0) throw ValueError("clipped_relu: z must be non-negative");
  return minimum(relu(x), constant_like(x, z));
}

Variable logsumexp(const Variable& x, int64_t axis) {
  Variable r = logsumexp_keepdims(x, axis);
  Shape s = x.shape();
  s.erase(normalize_axis(axis, x.ndim()));
  return reshape(r, s);
}

Variable log_softmax(const Variable& x, int64_t axis) { return x - logsumexp_keepdims(x, axis); }

Variable softmax(const Variable& x, int64_t axis) { return exp(log_softmax(x, axis)); }

}  // namespace autograd
}  // namespace kumo
