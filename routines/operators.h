// Operators on kumo::Array with NumPy's semantics (the ufuncs behind
// Python's operators): arithmetic, comparison, bitwise, unary, and the
// compound forms, which write into their left operand with same_kind
// casting as NumPy's in-place operators do.
#pragma once
#include "routines/elementwise.h"

namespace kumo {

#define KUMO_BINARY_OPERATOR(op, fn)                                                     \
  inline Array operator op(const Array& x, const Array& y) { return fn(x, y); }         \
  inline Array operator op(const Array& x, Scalar y) { return fn(x, y); }               \
  inline Array operator op(Scalar x, const Array& y) { return fn(x, y); }
#define KUMO_COMPOUND_OPERATOR(op, fn)                                                   \
  inline Array& operator op(Array& x, const Array& y) {                                 \
    fn(x, y, UfuncOptions(x));                                                           \
    return x;                                                                            \
  }                                                                                      \
  inline Array& operator op(Array& x, Scalar y) {                                       \
    fn(x, y, UfuncOptions(x));                                                           \
    return x;                                                                            \
  }

KUMO_BINARY_OPERATOR(+, add)
KUMO_BINARY_OPERATOR(-, subtract)
KUMO_BINARY_OPERATOR(*, multiply)
KUMO_BINARY_OPERATOR(/, divide)
KUMO_BINARY_OPERATOR(%, remainder)
KUMO_BINARY_OPERATOR(&, bitwise_and)
KUMO_BINARY_OPERATOR(|, bitwise_or)
KUMO_BINARY_OPERATOR(^, bitwise_xor)
KUMO_BINARY_OPERATOR(<<, left_shift)
KUMO_BINARY_OPERATOR(>>, right_shift)
KUMO_BINARY_OPERATOR(==, equal)
KUMO_BINARY_OPERATOR(!=, not_equal)
KUMO_BINARY_OPERATOR(<, less)
KUMO_BINARY_OPERATOR(<=, less_equal)
KUMO_BINARY_OPERATOR(>, greater)
KUMO_BINARY_OPERATOR(>=, greater_equal)
// && and || are not overloaded: C++ could not keep their short-circuit
// meaning; use logical_and / logical_or.

KUMO_COMPOUND_OPERATOR(+=, add)
KUMO_COMPOUND_OPERATOR(-=, subtract)
KUMO_COMPOUND_OPERATOR(*=, multiply)
KUMO_COMPOUND_OPERATOR(/=, divide)
KUMO_COMPOUND_OPERATOR(%=, remainder)
KUMO_COMPOUND_OPERATOR(&=, bitwise_and)
KUMO_COMPOUND_OPERATOR(|=, bitwise_or)
KUMO_COMPOUND_OPERATOR(^=, bitwise_xor)
KUMO_COMPOUND_OPERATOR(<<=, left_shift)
KUMO_COMPOUND_OPERATOR(>>=, right_shift)

#undef KUMO_BINARY_OPERATOR
#undef KUMO_COMPOUND_OPERATOR

inline Array operator-(const Array& x) { return negative(x); }
inline Array operator+(const Array& x) { return positive(x); }
inline Array operator~(const Array& x) { return invert(x); }
inline Array operator!(const Array& x) { return logical_not(x); }

}  // namespace kumo
