// Differentiable softmax family along an axis (Chainer's default axis 1).
#pragma once
#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// log(sum(exp(x), axis)), computed with the maximum subtracted.
Variable logsumexp(const Variable& x, int64_t axis = 1);
Variable log_softmax(const Variable& x, int64_t axis = 1);
Variable softmax(const Variable& x, int64_t axis = 1);

}  // namespace autograd
}  // namespace kumo
