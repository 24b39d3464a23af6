// Differentiable elementwise math and activations. Each is a row of the
// table in math.cpp: its forward routine and its derivative, written with
// differentiable functions so double backprop works.
#pragma once
#include "autograd/variable.h"

namespace kumo {
namespace autograd {

Variable exp(const Variable& x);
Variable log(const Variable& x);
Variable sqrt(const Variable& x);
Variable square(const Variable& x);
Variable sin(const Variable& x);
Variable cos(const Variable& x);
Variable tanh(const Variable& x);
Variable sigmoid(const Variable& x);
Variable relu(const Variable& x);
Variable absolute(const Variable& x);

}  // namespace autograd
}  // namespace kumo
