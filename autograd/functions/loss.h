// Differentiable losses.
#pragma once
#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// mean((a - b)^2) over every element.
Variable mean_squared_error(const Variable& a, const Variable& b);

}  // namespace autograd
}  // namespace kumo
