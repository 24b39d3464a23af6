#include "autograd/functions/activation.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "autograd/function_node.h"
#include "autograd/functions/argument_checks.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/fused.h"
#include "autograd/functions/math.h"
#include "autograd/functions/unary_rule.h"
#include "autograd/mode.h"
#include "core/errors.h"
#include "kernels/elementwise.h"
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

// ---- sigmoid and relu: rows of the unary table (unary_rule.h) ----
// sigmoid(x) = (1 + tanh(x / 2)) / 2: no overflow for large |x|. For
// float32/float64 one fused kernel (fused.h's kag_sigmoid: 1 / (1 + e) or
// e / (1 + e) with e = exp(-|x|), vectorizable); other dtypes follow NumPy's
// promotion.
Array sigmoid_forward(const Array& x) {
  if (fused::fused_dtype(x.dtype())) {
    const auto& spec = fused::elementwise("kumo_ag_Sigmoid_fwd", "T x", "T y", "y = kag_sigmoid(x)");
    return fused::call(spec, {x})[0];
  }
  return kumo::add(kumo::multiply(kumo::tanh(kumo::multiply(x, 0.5)), 0.5), 0.5);
}
const UnaryRule kSigmoid{"Sigmoid", sigmoid_forward, UnaryRule::kOutput,
                         [](const Variable& y, const Variable& gy) { return gy * y * (1.0 - y); },
                         "gy * v * ((T)1 - v)"};
const UnaryRule kRelu{"ReLU", [](const Array& x) { return kumo::maximum(x, Scalar(0)); }, UnaryRule::kOutput,
                      [](const Variable& y, const Variable& gy) {
                        return gy * constant(kumo::greater(y.array(), Scalar(0)).astype(y.dtype()));
                      },
                      "v > (T)0 ? gy : (T)0"};

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
Variable logsumexp_keepdims(const Variable& x, const Axes& axes) {
  Variable m(kumo::max(x.array(), axes, ReduceOptions().keepdims(true)), false);
  return log(sum(exp(x - m), axes, true)) + m;
}

// On the host a kernel with a broadcast (not 0-d) operand runs a scalar
// loop, so exp goes into kernels whose operands share one shape (they
// vectorize) and the broadcast kernels only do arithmetic: 0.45 + 0.65 ms per
// 10^6 float32 against 2.5 ms for exp(x - m) in one broadcast kernel. The
// results are written in place where the input is a temporary.

// x - m, m broadcast.
Array shifted(const Array& x, const Array& m) {
  const auto& spec = fused::elementwise("kumo_ag_shift", "T x, T m", "T d", "d = x - m");
  return fused::call(spec, {x, m})[0];
}
// exp(a), into `out` when given (may be a itself).
Array exp_of(const Array& a, Array out = Array()) {
  const auto& spec = fused::elementwise("kumo_ag_exp", "T a", "T e", "e = kag_exp(a)");
  return kernels::call_elementwise(spec, {a}, {std::move(out)})[0];
}
// One elementwise kernel writing into `out`.
void run_into(const char* name, const char* in_params, const char* out_params, const char* operation,
              const std::vector<Array>& inputs, const Array& out) {
  kernels::call_elementwise(fused::elementwise(name, in_params, out_params, operation), inputs, {out});
}

// softmax and log_softmax forward: the max and sum reductions around
// d = x - m, e = exp(d) and the result (in place); backward one reduction and
// one kernel (log_softmax: and exp(y)).
class Softmax : public FunctionNode {
 public:
  Softmax(int axis, bool log) : axis_(axis), log_(log) {}
  std::string label() const override { return log_ ? "LogSoftmax" : "Softmax"; }
  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_outputs({0});
    const Array& x = in[0];
    Array m = kumo::max(x, axis_, ReduceOptions().keepdims(true));
    Array d = shifted(x, m);
    if (!log_) {
      exp_of(d, d);
      Array s = kumo::sum(d, axis_, ReduceOptions().keepdims(true));
      run_into("kumo_ag_softmax_fwd", "T s", "T e", "e = e / s", {s}, d);
      return {d};
    }
    Array s = kumo::sum(exp_of(d), axis_, ReduceOptions().keepdims(true));
    // log(s) on the reduced shape first: not once per element
    run_into("kumo_ag_log", "T a", "T l", "l = kag_log(a)", {s}, s);
    run_into("kumo_ag_log_softmax_fwd", "T l", "T d", "d = d - l", {s}, d);
    return {d};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    if (!gy[0].defined()) return {Variable()};
    Variable y = get_retained_outputs()[0];
    if (!is_backprop_enabled() && fused::applies({&y.array(), &gy[0].array()})) {
      const Array& ya = y.array();
      const Array& g = gy[0].array();
      if (log_) {
        Array s = kumo::sum(g, axis_, ReduceOptions().keepdims(true));
        Array t = exp_of(ya);
        run_into("kumo_ag_log_softmax_grad", "T gy, T s", "T t", "t = gy - t * s", {g, s}, t);
        return {constant(t)};
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

Variable sigmoid(const Variable& x) { return apply_unary_rule(kSigmoid, x); }
Variable relu(const Variable& x) { return apply_unary_rule(kRelu, x); }

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

Variable relu6(const Variable& x) {
  require_floating(x, "relu6");
  return clipped_relu(x, 6.0);
}

Variable logsumexp(const Variable& x, const Axes& axes) {
  // Composed on purpose: its recorded exp keeps exp(x - m), so the backward
  // is one broadcast multiply; a fused node retaining only x and y measured
  // slower on the host (it recomputes exp(x - y) in a broadcast loop).
  if (!x.defined()) throw TypeError("logsumexp: x is None");
  std::vector<int> reduced;
  if (axes.is_all()) {
    for (int k = 0; k < x.ndim(); ++k) reduced.push_back(k);
  } else {
    reduced = normalize_axes(axes.list(), x.ndim());
  }
  if (x.size() == 0 && !reduced.empty())
    throw ValueError("logsumexp: zero-size array " + x.shape().to_string() + " has no maximum to subtract");
  Variable r = logsumexp_keepdims(x, Axes(std::vector<int64_t>(reduced.begin(), reduced.end())));
  Shape s;
  for (int k = 0; k < x.ndim(); ++k)
    if (std::find(reduced.begin(), reduced.end(), k) == reduced.end()) s.push_back(x.shape()[k]);
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

namespace {

// The shape a per-channel parameter p (shape x.shape[1:1 + p.ndim]) takes to
// broadcast against x: (1, *p.shape, 1, ...).
Shape channel_shape(const Variable& x, const Variable& p, const char* fn) {
  bool ok = p.ndim() + 1 <= x.ndim();
  for (int i = 0; ok && i < p.ndim(); ++i) ok = p.shape()[i] == x.shape()[i + 1];
  if (!ok)
    throw ValueError(std::string(fn) + ": the parameter's shape " + p.shape().to_string() +
                     " must be x.shape[1:1 + ndim] for x of shape " + x.shape().to_string());
  Shape s{1};
  for (int64_t d : p.shape()) s.push_back(d);
  while (static_cast<int>(s.size()) < x.ndim()) s.push_back(1);
  return s;
}

// ---- the fused forms: one kernel forward, one kernel backward ----

// a: alpha. The derivative below 0 is exp(x / alpha), from min(x, 0) in the
// composed form so that the unused branch stays finite.
const fused::UnaryActivation kCelu{
    "CELU", "y = x >= (T)0 ? x : a * kag_expm1(x / a)", false, "gx = v >= (T)0 ? gy : gy * kag_exp(v / a)",
    [](const Variable& x, const Variable& gy, double alpha, double) {
      return where(kumo::greater_equal(x.array(), Scalar(0)), gy, gy * exp(minimum(x, constant_like(x, 0.0)) / alpha));
    }};

// erf/erfc for float and double, valid C++ and CUDA C++.
// erfc for float and double, valid C++ and CUDA C++. float32: libm's erfcf
// is a call per element that stops vectorization (13 ms per 10^6), so it is
// the Chebyshev fit erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z / 2), z >= 0
// (Press et al., Numerical Recipes' erfcc: relative error < 1.2e-7), with
// erfc(-z) = 2 - erfc(z) and exp through kag_exp, so the loop vectorizes.
const char kErfPreamble[] = R"(KUMO_FN double kumo_ag_erfc(double x) { return ::erfc(x); }
KUMO_FN float kumo_ag_erfc(float x) {
  const float z = x < 0.0f ? -x : x;
  const float t = 1.0f / (1.0f + 0.5f * z);
  float p = 0.17087277f;
  p = p * t - 0.82215223f;
  p = p * t + 1.48851587f;
  p = p * t - 1.13520398f;
  p = p * t + 0.27886807f;
  p = p * t - 0.18628806f;
  p = p * t + 0.09678418f;
  p = p * t + 0.37409196f;
  p = p * t + 1.00002368f;
  p = p * t - 1.26551223f;
  const float r = t * kag_exp(p - z * z);
  return x < 0.0f ? 2.0f - r : r;
}
)";
// x Phi(x) with Phi(x) = erfc(-x / sqrt(2)) / 2 (no cancellation for x << 0);
// derivative Phi(x) + x phi(x).
const fused::UnaryActivation kGelu{"GELU",
                                   "y = x * (T)0.5 * kumo_ag_erfc(-x * (T)0.7071067811865476)",
                                   false,
                                   "gx = gy * ((T)0.5 * kumo_ag_erfc(-v * (T)0.7071067811865476) + "
                                   "v * (T)0.3989422804014327 * kag_exp((T)(-0.5) * v * v))",
                                   [](const Variable& x, const Variable& gy, double, double) {
                                     Variable cdf = (erf(x * 0.7071067811865476) + 1.0) * 0.5;
                                     return gy * (cdf + x * exp(x * x * -0.5) * 0.3989422804014327);
                                   },
                                   kErfPreamble};
// 0.5 x (1 + tanh(u)) = x sigmoid(2u), u = sqrt(2 / pi) (x + 0.044715 x^3)
// (the fused form: no tanh, no cancellation); derivative
// s + x s (1 - s) 2 sqrt(2 / pi) (1 + 3 * 0.044715 x^2) with s = sigmoid(2u),
// composed as 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2 / pi) (1 + 3 * 0.044715 x^2).
const fused::UnaryActivation kGeluTanh{
    "GELUTanh", "y = x * kag_sigmoid((T)1.5957691216057308 * (x + (T)0.044715 * x * x * x))", false,
    "T s = kag_sigmoid((T)1.5957691216057308 * (v + (T)0.044715 * v * v * v)); "
    "gx = gy * (s + v * s * ((T)1 - s) * (T)1.5957691216057308 * ((T)1 + (T)0.134145 * v * v))",
    [](const Variable& x, const Variable& gy, double, double) {
      Variable t = tanh((x + x * x * x * 0.044715) * 0.7978845608028654);
      Variable inner = x * (1.0 - t * t) * (x * x * 0.134145 + 1.0) * 0.7978845608028654;
      return gy * (t + 1.0 + inner) * 0.5;
    }};

// x >= 0 ? x : p x, p = W broadcast.
// The kernels multiply by the 0/1 indicator s = (x >= 0) instead of
// selecting: with p broadcast (not a scalar) the host loop does not
// vectorize, and GCC then emits selects as branches that random signs
// mispredict (5.4 ms instead of 1.0 per 10^6 float32). Same values for finite p.
const fused::ParameterActivation kPrelu{
    "PReLU", "T s = (T)(x >= (T)0); y = x * (s + ((T)1 - s) * p)",
    "T s = (T)(x >= (T)0); T n = (T)1 - s; gx = gy * (s + n * p); gp = n * (gy * x)",
    [](const Variable& x, const Variable& w, const Variable& gy) -> std::vector<Variable> {
      Array positive = kumo::greater_equal(x.array(), Scalar(0));
      Variable below = constant(kumo::logical_not(positive).astype(x.dtype()));
      return {where(positive, gy, gy * w), sum_to(gy * x * below, w.shape())};
    }};

// x sigmoid(p x); d/dx = s + p x s (1 - s), d/dp = x^2 s (1 - s).
const fused::ParameterActivation kSwish{
    "Swish", "y = x * kag_sigmoid(p * x)",
    "T s = kag_sigmoid(p * x); T d = s * ((T)1 - s); "
    "gx = gy * (s + p * x * d); gp = gy * x * x * d",
    [](const Variable& x, const Variable& p, const Variable& gy) -> std::vector<Variable> {
      Variable s = sigmoid(p * x);
      Variable d = s * (1.0 - s);
      return {gy * (s + p * x * d), sum_to(gy * x * x * d, p.shape())};
    }};

}  // namespace

Variable celu(const Variable& x, double alpha) {
  require_floating(x, "celu", "x");
  if (alpha == 0) throw ValueError("celu: alpha must not be 0");
  if (fused_input(x)) return fused::apply_unary(kCelu, x, alpha);
  // expm1 of min(x, 0): the unused branch stays finite, so its zero gradient stays zero.
  Variable negative_part = expm1(minimum(x, constant_like(x, 0.0)) / alpha) * alpha;
  return where(kumo::greater_equal(x.array(), Scalar(0)), x, negative_part);
}

Variable gelu(const Variable& x, bool approximate) {
  require_floating(x, "gelu", "x");
  if (fused_input(x)) return fused::apply_unary(approximate ? kGeluTanh : kGelu, x);
  if (approximate) {
    // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
    Variable inner = (x + x * x * x * 0.044715) * 0.7978845608028654;
    return x * (tanh(inner) + 1.0) * 0.5;
  }
  return x * (erf(x * 0.7071067811865476) + 1.0) * 0.5;
}

Variable prelu(const Variable& x, const Variable& W) {
  require_floating(x, "prelu", "x");
  require_floating(W, "prelu", "W");
  Shape s = channel_shape(x, W, "prelu");
  if (fused_input(x) && x.dtype() == W.dtype()) return fused::apply_parameter(kPrelu, x, W, s);
  Variable w = reshape(W, s);
  return where(kumo::greater_equal(x.array(), Scalar(0)), x, x * w);
}

Variable maxout(const Variable& x, int64_t pool_size, int64_t axis) {
  require_floating(x, "maxout", "x");
  if (pool_size <= 0)
    throw ValueError("maxout: pool_size must be a positive integer, got " + std::to_string(pool_size));
  const int a = normalize_axis(axis, x.ndim());
  const int64_t c = x.shape()[a];
  if (c % pool_size != 0)
    throw ValueError("maxout: x.shape[axis] (" + std::to_string(c) + ") must be a multiple of pool_size (" +
                     std::to_string(pool_size) + ")");
  Shape s;
  for (int i = 0; i < x.ndim(); ++i) {
    if (i == a) {
      s.push_back(c / pool_size);
      s.push_back(pool_size);
    } else {
      s.push_back(x.shape()[i]);
    }
  }
  return max(reshape(x, s), Axes(static_cast<int64_t>(a + 1)));
}

Variable crelu(const Variable& x, int64_t axis) {
  require_floating(x, "crelu", "x");
  const int a = normalize_axis(axis, x.ndim());
  return concat({relu(x), relu(neg(x))}, a);
}

Variable swish(const Variable& x, const Variable& beta) {
  require_floating(x, "swish", "x");
  require_floating(beta, "swish", "beta");
  Shape s = channel_shape(x, beta, "swish");
  if (fused_input(x) && x.dtype() == beta.dtype()) return fused::apply_parameter(kSwish, x, beta, s);
  Variable b = reshape(beta, s);
  return x * sigmoid(b * x);
}

}  // namespace autograd
}  // namespace kumo
