#include "autograd/functions/activation2.h"

#include <string>
#include <vector>

#include "autograd/functions/activation.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/fused.h"
#include "autograd/functions/math.h"
#include "autograd/functions/math2.h"
#include "core/errors.h"
#include "routines/creation.h"
#include "routines/elementwise.h"

namespace kumo {
namespace autograd {
namespace {

void require_float(const Variable& x, const char* fn) {
  if (!x.defined()) throw TypeError(std::string(fn) + ": an input is None");
  if (!is_floating(x.dtype()))
    throw TypeError(std::string(fn) + ": expected a floating-point array, got " + dtype_name(x.dtype()));
}

Variable constant_like(const Variable& x, double v) { return Variable(full_like(x.array(), Scalar(v)), false); }

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

Variable constant(Array a) { return Variable(std::move(a), false); }

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

bool fused_input(const Variable& x) { return fused::fused_dtype(x.dtype()); }

}  // namespace

Variable celu(const Variable& x, double alpha) {
  require_float(x, "celu");
  if (alpha == 0) throw ValueError("celu: alpha must not be 0");
  if (fused_input(x)) return fused::apply_unary(kCelu, x, alpha);
  // expm1 of min(x, 0): the unused branch stays finite, so its zero gradient stays zero.
  Variable negative_part = expm1(minimum(x, constant_like(x, 0.0)) / alpha) * alpha;
  return where(kumo::greater_equal(x.array(), Scalar(0)), x, negative_part);
}

Variable gelu(const Variable& x, bool approximate) {
  require_float(x, "gelu");
  if (fused_input(x)) return fused::apply_unary(approximate ? kGeluTanh : kGelu, x);
  if (approximate) {
    // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
    Variable inner = (x + x * x * x * 0.044715) * 0.7978845608028654;
    return x * (tanh(inner) + 1.0) * 0.5;
  }
  return x * (erf(x * 0.7071067811865476) + 1.0) * 0.5;
}

Variable prelu(const Variable& x, const Variable& W) {
  require_float(x, "prelu");
  require_float(W, "prelu");
  Shape s = channel_shape(x, W, "prelu");
  if (fused_input(x) && x.dtype() == W.dtype()) return fused::apply_parameter(kPrelu, x, W, s);
  Variable w = reshape(W, s);
  return where(kumo::greater_equal(x.array(), Scalar(0)), x, x * w);
}

Variable maxout(const Variable& x, int64_t pool_size, int64_t axis) {
  require_float(x, "maxout");
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
  require_float(x, "crelu");
  const int a = normalize_axis(axis, x.ndim());
  return concat({relu(x), relu(neg(x))}, a);
}

Variable swish(const Variable& x, const Variable& beta) {
  require_float(x, "swish");
  require_float(beta, "swish");
  Shape s = channel_shape(x, beta, "swish");
  if (fused_input(x) && x.dtype() == beta.dtype()) return fused::apply_parameter(kSwish, x, beta, s);
  Variable b = reshape(beta, s);
  return x * sigmoid(b * x);
}

}  // namespace autograd
}  // namespace kumo
