#include "autograd/functions/activation2.h"

#include <string>
#include <vector>

#include "autograd/functions/activation.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
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

// A per-channel parameter p (shape x.shape[1:1 + p.ndim]) reshaped to
// broadcast against x: (1, *p.shape, 1, ...).
Variable channel_parameter(const Variable& x, const Variable& p, const char* fn) {
  bool ok = p.ndim() + 1 <= x.ndim();
  for (int i = 0; ok && i < p.ndim(); ++i) ok = p.shape()[i] == x.shape()[i + 1];
  if (!ok)
    throw ValueError(std::string(fn) + ": the parameter's shape " + p.shape().to_string() +
                     " must be x.shape[1:1 + ndim] for x of shape " + x.shape().to_string());
  Shape s{1};
  for (int64_t d : p.shape()) s.push_back(d);
  while (static_cast<int>(s.size()) < x.ndim()) s.push_back(1);
  return reshape(p, s);
}

}  // namespace

Variable celu(const Variable& x, double alpha) {
  require_float(x, "celu");
  if (alpha == 0) throw ValueError("celu: alpha must not be 0");
  // expm1 of min(x, 0): the unused branch stays finite, so its zero gradient stays zero.
  Variable negative_part = expm1(minimum(x, constant_like(x, 0.0)) / alpha) * alpha;
  return where(kumo::greater_equal(x.array(), Scalar(0)), x, negative_part);
}

Variable gelu(const Variable& x, bool approximate) {
  require_float(x, "gelu");
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
  Variable w = channel_parameter(x, W, "prelu");
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
  return x * sigmoid(channel_parameter(x, beta, "swish") * x);
}

}  // namespace autograd
}  // namespace kumo
