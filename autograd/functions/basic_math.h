// Differentiable arithmetic on Variables: add, sub, mul, div, pow, neg with
// NumPy's broadcasting and dtype promotion (Python-scalar operands are weak,
// as in NumPy 2), the operators that spell them, and cast.
#pragma once
#include "autograd/variable.h"
#include "routines/scalar.h"

namespace kumo {
namespace autograd {

Variable add(const Variable& a, const Variable& b);
Variable add(const Variable& a, Scalar b);
Variable sub(const Variable& a, const Variable& b);
Variable sub(const Variable& a, Scalar b);
Variable sub(Scalar a, const Variable& b);
Variable mul(const Variable& a, const Variable& b);
Variable mul(const Variable& a, Scalar b);
Variable div(const Variable& a, const Variable& b);
Variable div(const Variable& a, Scalar b);
Variable div(Scalar a, const Variable& b);
Variable pow(const Variable& a, const Variable& b);
Variable pow(const Variable& a, Scalar exponent);
Variable pow(Scalar base, const Variable& exponent);
Variable neg(const Variable& a);
// The data cast to `dtype`; the gradient is cast back.
Variable cast(const Variable& a, Dtype dtype);

inline Variable operator+(const Variable& a, const Variable& b) { return add(a, b); }
inline Variable operator+(const Variable& a, Scalar b) { return add(a, b); }
inline Variable operator+(Scalar a, const Variable& b) { return add(b, a); }
inline Variable operator-(const Variable& a, const Variable& b) { return sub(a, b); }
inline Variable operator-(const Variable& a, Scalar b) { return sub(a, b); }
inline Variable operator-(Scalar a, const Variable& b) { return sub(a, b); }
inline Variable operator*(const Variable& a, const Variable& b) { return mul(a, b); }
inline Variable operator*(const Variable& a, Scalar b) { return mul(a, b); }
inline Variable operator*(Scalar a, const Variable& b) { return mul(b, a); }
inline Variable operator/(const Variable& a, const Variable& b) { return div(a, b); }
inline Variable operator/(const Variable& a, Scalar b) { return div(a, b); }
inline Variable operator/(Scalar a, const Variable& b) { return div(a, b); }
inline Variable operator-(const Variable& a) { return neg(a); }

}  // namespace autograd
}  // namespace kumo
