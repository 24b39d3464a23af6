// Argument checks shared by the differentiable functions. Chainer's
// functions take floating-point data only; each check names the call and the
// argument in its error, as Chainer's type checks do.
#pragma once
#include <string>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// TypeError unless v is defined and of a floating dtype:
// "<who>: <what> must be of a floating dtype, got int32" (or "... is None").
void require_floating(const Variable& v, const std::string& who, const std::string& what = "x");

}  // namespace autograd
}  // namespace kumo
