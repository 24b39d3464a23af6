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
Variable log2(const Variable& x);
Variable log10(const Variable& x);
Variable log1p(const Variable& x);
Variable expm1(const Variable& x);
Variable tan(const Variable& x);
Variable arcsin(const Variable& x);
Variable arccos(const Variable& x);
Variable arctan(const Variable& x);
Variable sinh(const Variable& x);
Variable cosh(const Variable& x);
Variable rsqrt(const Variable& x);
// Zero gradient (piecewise constant), as Chainer's floor and ceil.
Variable floor(const Variable& x);
Variable ceil(const Variable& x);

}  // namespace autograd
}  // namespace kumo
