#include "autograd/functions/activation.h"

#include <cmath>
#include <memory>
#include <string>

#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/fused.h"
#include "autograd/functions/math.h"
#include "autograd/mode.h"
#include "core/errors.h"
#include "kernels/reduction.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {
namespace {

Variable constant(Array a) { return Variable(std::move(a), false); }
Variable constant_like(const Variable& x, double v) { return Variable(full_like(x.array(), Scalar(v)), false); }
// A 0/1 mask of x's dtype (a constant: the factor it stands for is piecewise constant).
Variable mask(const Array& condition, const Variable& like) { return constant(condition.astype(like.dtype())); }

// ---- the fused activations: one kernel forward, one kernel backward ----
// kag_* are fused.h's vectorizable exp, log, sigmoid (no overflow), log1p, expm1, -|x|.

const fused::UnaryActivation kLeakyRelu{
    "LeakyReLU", "y = x >= (T)0 ? x : x * a", false, "gx = v >= (T)0 ? gy : gy * a",
    [](const Variable& x, const Variable& gy, double slope, double) {
      return gy * mask(kumo::where(kumo::greater_equal(x.array(), Scalar(0)), Scalar(1.0), Scalar(slope)), x);
    }};

// The derivative of expm1 below 0 from exp(min(x, 0)): the unused branch stays
// finite, so its zero gradient stays zero under double backprop.
Variable elu_gradient(const Variable& x, const Variable& gy, double alpha) {
  return where(kumo::greater_equal(x.array(), Scalar(0)), gy, gy * exp(minimum(x, constant_like(x, 0.0))) * alpha);
}
const fused::UnaryActivation kElu{
    "ELU", "y = x >= (T)0 ? x : a * kag_expm1(x)", false, "gx = v >= (T)0 ? gy : gy * a * kag_exp(v)",
    [](const Variable& x, const Variable& gy, double alpha, double) { return elu_gradient(x, gy, alpha); }};
// a: alpha, b: scale.
const fused::UnaryActivation kSelu{"SELU", "y = b * (x >= (T)0 ? x : a * kag_expm1(x))", false,
                                   "gx = b * (v >= (T)0 ? gy : gy * a * kag_exp(v))",
                                   [](const Variable& x, const Variable& gy, double alpha, double scale) {
                                     return elu_gradient(x, gy, alpha) * scale;
                                   }};
// max(bx, 0) + log1p(exp(-|bx|)), over beta: exp never overflows. Its
// derivative is sigmoid(beta x).
const fused::UnaryActivation kSoftplus{
    "Softplus", "T bx = a * x; y = ((bx > (T)0 ? bx : (T)0) + kag_log1p(kag_exp(kag_nabs(bx)))) / a", false,
    "gx = gy * kag_sigmoid(a * v)",
    [](const Variable& x, const Variable& gy, double beta, double) { return gy * sigmoid(x * beta); }};
const fused::UnaryActivation kSilu{"SiLU", "y = x * kag_sigmoid(x)", false,
                                   "T s = kag_sigmoid(v); gx = gy * s * ((T)1 + v * ((T)1 - s))",
                                   [](const Variable& x, const Variable& gy, double, double) {
                                     Variable s = sigmoid(x);
                                     return gy * s * (x * (1.0 - s) + 1.0);
                                   }};
// clip(0.2 x + 0.5, 0, 1); NaN stays NaN. Gradient 0.2 strictly inside.
const fused::UnaryActivation kHardSigmoid{
    "HardSigmoid", "T t = (T)0.2 * x + (T)0.5; y = t < (T)0 ? (T)0 : (t > (T)1 ? (T)1 : t)", false,
    "T t = (T)0.2 * v + (T)0.5; gx = (t > (T)0 && t < (T)1) ? gy * (T)0.2 : (T)0",
    [](const Variable& x, const Variable& gy, double, double) {
      Array t = kumo::add(kumo::multiply(x.array(), 0.2), 0.5);
      Array inside = kumo::logical_and(kumo::greater(t, Scalar(0)), kumo::less(t, Scalar(1)));
      return gy * mask(kumo::multiply(inside.astype(x.dtype()), 0.2), x);
    }};
// min(max(x, 0), z); NaN stays NaN. 0 < y < z exactly where 0 < x < z, so
// the output is enough for the gradient.
const fused::UnaryActivation kClippedRelu{
    "ClippedReLU", "y = x < (T)0 ? (T)0 : (x > a ? a : x)", true, "gx = (v > (T)0 && v < a) ? gy : (T)0",
    [](const Variable& y, const Variable& gy, double z, double) {
      return gy * mask(kumo::logical_and(kumo::greater(y.array(), Scalar(0)), kumo::less(y.array(), Scalar(z))), y);
    }};

// log(sum(exp(x), axis)) keeping the axis. The maximum is a constant: it
// cancels from the value, so it needs no gradient, and keeps exp finite.
Variable logsumexp_keepdims(const Variable& x, int64_t axis) {
  Variable m(kumo::max(x.array(), axis, ReduceOptions().keepdims(true)), false);
  return log(sum(exp(x - m), axis, true)) + m;
}

// sum(exp(x - m)) over `axis`, kept, in one reduction kernel (m broadcast).
Array sum_exp_shifted(const Array& x, const Array& m, int axis) {
  const auto& spec =
      fused::reduction("kumo_ag_sum_exp_shifted", "T x, T m", "T s", "kag_exp(x - m)", "a + b", "s = a", "0", "T");
  return kernels::call_reduction(spec, {x, m}, {}, {axis}, false, true)[0];
}

// softmax and log_softmax: two reductions (max, sum of exp) and one
// elementwise kernel forward; backward one reduction and one kernel.
class Softmax : public FunctionNode {
 public:
  Softmax(int axis, bool log) : axis_(axis), log_(log) {}
  std::string label() const override { return log_ ? "LogSoftmax" : "Softmax"; }
  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_outputs({0});
    const Array& x = in[0];
    Array m = kumo::max(x, axis_, ReduceOptions().keepdims(true));
    Array s = sum_exp_shifted(x, m, axis_);
    const auto& spec =
        log_ ? fused::elementwise("kumo_ag_log_softmax_fwd", "T x, T m, T s", "T y", "y = x - m - kag_log(s)")
             : fused::elementwise("kumo_ag_softmax_fwd", "T x, T m, T s", "T y", "y = kag_exp(x - m) / s");
    return fused::call(spec, {x, m, s});
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    if (!gy[0].defined()) return {Variable()};
    Variable y = get_retained_outputs()[0];
    if (!is_backprop_enabled() && fused::applies({&y.array(), &gy[0].array()})) {
      const Array& ya = y.array();
      const Array& g = gy[0].array();
      if (log_) {
        Array s = kumo::sum(g, axis_, ReduceOptions().keepdims(true));
        const auto& spec =
            fused::elementwise("kumo_ag_log_softmax_grad", "T y, T gy, T s", "T gx", "gx = gy - kag_exp(y) * s");
        return {constant(fused::call(spec, {ya, g, s})[0])};
      }
      const auto& red =
          fused::reduction("kumo_ag_sum_product", "T y, T gy", "T s", "y * gy", "a + b", "s = a", "0", "T");
      Array s = kernels::call_reduction(red, {ya, g}, {}, {axis_}, false, true)[0];
      const auto& spec = fused::elementwise("kumo_ag_softmax_grad", "T y, T gy, T s", "T gx", "gx = y * (gy - s)");
      return {constant(fused::call(spec, {ya, g, s})[0])};
    }
    if (log_) return {gy[0] - exp(y) * sum(gy[0], axis_, true)};
    return {y * (gy[0] - sum(gy[0] * y, axis_, true))};
  }

 private:
  int axis_;
  bool log_;
};

// log(sum(exp(x), axis)): two reductions and one small kernel forward; its
// gradient gy * exp(x - y) is one kernel.
class LogSumExp : public FunctionNode {
 public:
  explicit LogSumExp(int axis) : axis_(axis) {}
  std::string label() const override { return "LogSumExp"; }
  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_inputs({0});
    retain_outputs({0});
    Array m = kumo::max(in[0], axis_, ReduceOptions().keepdims(true));
    Array s = sum_exp_shifted(in[0], m, axis_);
    const auto& spec = fused::elementwise("kumo_ag_logsumexp_fwd", "T m, T s", "T y", "y = m + kag_log(s)");
    Array y = fused::call(spec, {m, s})[0];
    return {kumo::squeeze(y, {axis_})};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    if (!gy[0].defined()) return {Variable()};
    Variable x = get_retained_inputs()[0];
    Variable y = get_retained_outputs()[0];
    if (!is_backprop_enabled() && fused::applies({&y.array(), &gy[0].array()}) && gy[0].dtype() == x.dtype()) {
      const auto& spec =
          fused::elementwise("kumo_ag_logsumexp_grad", "T x, T y, T gy", "T gx", "gx = gy * kag_exp(x - y)");
      return {constant(fused::call(
          spec, {x.array(), kumo::expand_dims(y.array(), axis_), kumo::expand_dims(gy[0].array(), axis_)})[0])};
    }
    return {expand_dims(gy[0], axis_) * exp(x - expand_dims(y, axis_))};
  }

 private:
  int axis_;
};

// The composed softplus (float16, integers): max(bx, 0) + log1p(exp(-|bx|)),
// exp never overflows; its derivative is sigmoid(beta x).
class Softplus : public FunctionNode {
 public:
  explicit Softplus(double beta) : beta_(beta) {}
  std::string label() const override { return "Softplus"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
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

bool fused_input(const Variable& x) { return x.defined() && fused::fused_dtype(x.dtype()); }

}  // namespace

Variable leaky_relu(const Variable& x, double slope) {
  if (fused_input(x)) return fused::apply_unary(kLeakyRelu, x, slope);
  Array factor = kumo::where(kumo::greater_equal(x.array(), Scalar(0)), Scalar(1.0), Scalar(slope)).astype(x.dtype());
  return x * Variable(factor, false);
}

Variable elu(const Variable& x, double alpha) {
  if (fused_input(x)) return fused::apply_unary(kElu, x, alpha);
  // expm1 of min(x, 0): the unused branch stays finite, so its zero gradient stays zero.
  Variable negative_part = expm1(minimum(x, constant_like(x, 0.0))) * alpha;
  return where(kumo::greater_equal(x.array(), Scalar(0)), x, negative_part);
}

Variable selu(const Variable& x, double alpha, double scale) {
  if (fused_input(x)) return fused::apply_unary(kSelu, x, alpha, scale);
  return elu(x, alpha) * scale;
}

Variable softplus(const Variable& x, double beta) {
  if (beta == 0) throw ValueError("softplus: beta must not be 0");
  if (fused_input(x)) return fused::apply_unary(kSoftplus, x, beta);
  return apply(std::make_shared<Softplus>(beta), {x})[0];
}

Variable silu(const Variable& x) {
  if (fused_input(x)) return fused::apply_unary(kSilu, x);
  return x * sigmoid(x);
}

Variable hard_sigmoid(const Variable& x) {
  if (fused_input(x)) return fused::apply_unary(kHardSigmoid, x);
  return clip(x * 0.2 + 0.5, 0.0, 1.0);
}

Variable clipped_relu(const Variable& x, double z) {
  if (z < 0) throw ValueError("clipped_relu: z must be non-negative");
  if (fused_input(x)) return fused::apply_unary(kClippedRelu, x, z);
  return minimum(relu(x), constant_like(x, z));
}

Variable logsumexp(const Variable& x, int64_t axis) {
  const int a = normalize_axis(axis, x.ndim());
  if (fused_input(x)) return apply(std::make_shared<LogSumExp>(a), {x})[0];
  Variable r = logsumexp_keepdims(x, a);
  Shape s = x.shape();
  s.erase(a);
  return reshape(r, s);
}

Variable log_softmax(const Variable& x, int64_t axis) {
  const int a = normalize_axis(axis, x.ndim());
  if (fused_input(x)) return apply(std::make_shared<Softmax>(a, true), {x})[0];
  return x - logsumexp_keepdims(x, a);
}

Variable softmax(const Variable& x, int64_t axis) {
  const int a = normalize_axis(axis, x.ndim());
  if (fused_input(x)) return apply(std::make_shared<Softmax>(a, false), {x})[0];
  return exp(x - logsumexp_keepdims(x, a));
}

}  // namespace autograd
}  // namespace kumo
