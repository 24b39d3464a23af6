#include "autograd/functions/activation.h"

#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/math.h"
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

}  // namespace

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
